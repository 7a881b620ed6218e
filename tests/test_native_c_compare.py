"""The C backend's `==` and `!=` of two exact strs (c_runtime.h sl_compare): compared by their
code units in C, not through str's rich comparison. The answers stay the pure module's: strs of
each kind (Latin-1, BMP, non-BMP), equal texts as other objects, one code unit apart, a prefix,
the empty str, NUL, lone surrogates, and str subclasses (their own `__eq__` answers)."""

from __future__ import annotations

import shutil
import sys
from typing import Any

import pytest

from generator.api import compile_built
from generator.native.c_build import render_c

from .native_hostile import assert_same, native_and_pure

pytestmark = pytest.mark.skipif(
    shutil.which("cc") is None and shutil.which("gcc") is None,
    reason="no C compiler on this machine",
)

NAME = "straightline_c_compare"
CONSTANTS = {
    "ascii": "answer",
    "latin": "caf\u00e9",
    "bmp": "\u20ac1",
    "astral": "\U0001f600!",
    "empty": "",
    "nul": "a\x00",
}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {key: {"const": value} for key, value in CONSTANTS.items()},
}


class AlwaysEqual(str):
    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    __hash__ = str.__hash__


class NeverEqual(str):
    def __eq__(self, other: object) -> bool:
        return False

    def __ne__(self, other: object) -> bool:
        return True

    __hash__ = str.__hash__


def _code_units(text: str) -> bytes:
    """`text`'s code units as CPython keeps them: 1, 2 or 4 bytes each, the narrowest that holds
    its largest character."""
    width = 1 if max(map(ord, text), default=0) < 256 else 2 if max(map(ord, text)) < 65536 else 4
    return b"".join(ord(c).to_bytes(width, sys.byteorder) for c in text)


def _narrower_look_alikes(text: str) -> list[str]:
    """Strs of `text`'s length in a narrower kind whose code units are the first bytes of
    `text`'s: equal to it by a byte compare of the shorter length, not by their texts."""
    units = _code_units(text)
    found = [units[: len(text)].decode("latin-1")]
    if len(units) == 4 * len(text):  # (a kind-4 str: also a kind-2 one, where that holds)
        pairs = [units[i : i + 2] for i in range(0, 2 * len(text), 2)]
        two = "".join(chr(int.from_bytes(pair, sys.byteorder)) for pair in pairs)
        found.append(two)
    return [other for other in found if other != text]


def _near(text: str) -> list[Any]:
    """Strings equal to `text` or close to it."""
    found: list[Any] = [text, "".join(list(text)), text + "x", text[:-1], "x" + text[1:]]
    found += _narrower_look_alikes(text)
    found += [text.encode("utf-8", "surrogatepass").decode("latin-1"), "\ud800", "\udfff" * 2]
    found += [AlwaysEqual("no"), NeverEqual(text), str.__new__(AlwaysEqual, text), 0, None]
    if text:
        last = chr(ord(text[-1]) + 1)
        found += [text[:-1] + last, text.upper(), text + "\U0001f600"]
    return found


def test_the_c_compares_strs_in_c() -> None:
    text, built = compile_built(SCHEMA, name=NAME)
    c_text = render_c(SCHEMA, text, NAME, f"{NAME}.py", compiled=(text, built)).render()
    assert c_text.count("sl_compare(") >= len(CONSTANTS)  # (the control: consts compare so)


@pytest.fixture(scope="module")
def modules(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    return native_and_pure(tmp_path_factory.mktemp("native_c_compare"), SCHEMA, NAME)


@pytest.mark.parametrize("key", sorted(CONSTANTS))
def test_str_equality_answers_as_the_pure_module(modules: tuple[Any, Any], key: str) -> None:
    native, pure = modules
    constant = CONSTANTS[key]
    assert native.is_valid({key: constant}) is True
    assert native.is_valid({key: constant + "x"}) is False
    for value in _near(constant):
        assert_same(native, pure, {key: value})
    # every other constant in its place: other kinds, other lengths
    for other in CONSTANTS.values():
        assert_same(native, pure, {key: other})
        assert native.is_valid({key: other}) is (other == constant)
