"""Hostile instances for the native backends' differential tests (tests/test_native_c.py), and
how an answer is compared. Imported by a sanitized child process too, so it imports no test
framework."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any


def native_and_pure(directory: Path, schema: Any, name: str) -> tuple[Any, Any]:
    """The C build of `schema`'s module NAME written in `directory`, imported, and the same
    module file run as pure Python."""
    import generator
    from generator.native.c_build import build_c_native

    path = directory / f"{name}.py"
    path.write_text(generator.compile_source(schema, name=name))
    build_c_native(path, schema, timeout=1200, name=name)
    sys.path.insert(0, str(directory))
    try:
        native = importlib.import_module(name)
    finally:
        sys.path.remove(str(directory))
    assert Path(native.__file__ or "").suffix != ".py"
    spec = importlib.util.spec_from_file_location(f"pure_{name}", path)
    assert spec is not None and spec.loader is not None
    pure = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pure)
    return native, pure


def outcome(function: Any, instance: Any) -> tuple[Any, ...]:
    """What a call gives: its answer, or the exception it raised (type and text)."""
    try:
        return ("answer", function(instance))
    except Exception as error:  # noqa: BLE001 - compared, whatever it is
        return ("raised", type(error).__name__, str(error))


def errors_of(module: Any, instance: Any) -> tuple[Any, ...]:
    found = outcome(module.errors, instance)
    if found[0] != "answer":
        return found
    return (
        "answer",
        [(e.instance_location, e.keyword_location, e.message, e.keyword) for e in found[1]],
    )


def assert_same(native: Any, pure: Any, instance: Any) -> None:
    assert outcome(native.is_valid, instance) == outcome(pure.is_valid, instance), instance
    assert errors_of(native, instance) == errors_of(pure, instance), instance


class LyingStr(str):
    def __len__(self) -> int:
        return 1

    def startswith(self, *args: Any) -> bool:  # type: ignore[override]
        return True


class LyingList(list):  # type: ignore[type-arg]
    def __iter__(self) -> Any:
        return iter([])

    def __len__(self) -> int:
        return 0


class LyingDict(dict):  # type: ignore[type-arg]
    def get(self, *args: Any) -> Any:  # type: ignore[override]
        return None

    def items(self) -> Any:  # type: ignore[override]
        return []


class Int(int):
    def __gt__(self, other: Any) -> bool:
        return False


class Float(float):
    def is_integer(self) -> bool:
        return True


class Raising(dict):  # type: ignore[type-arg]
    def __len__(self) -> int:
        raise RuntimeError("len raised")


# Values from tests/test_hostile_*: subclasses whose methods lie or raise, numbers past every
# bound and not finite, Decimals, lone surrogates, non-BMP text, and those inside containers.
HOSTILE_VALUES: list[Any] = [
    LyingStr("zzz"),
    LyingList([1, 1]),
    LyingDict(a=1),
    Int(99),
    Float(1.5),
    Raising(a=1),
    2**1000,
    -(2**70),
    2**63,
    -(2**63) - 1,
    1e308,
    -1e308,
    float("inf"),
    float("-inf"),
    float("nan"),
    -0.0,
    Decimal("1E+400"),
    Decimal("-0.1"),
    Decimal("NaN"),
    Decimal("Infinity"),
    True,
    False,
    None,
    "\ud83d",
    "a\udc00b",
    "\U0001f600" * 3,
    "ab",
    "AB",
    "x-" + "\U0001f600",
    "",
    "\x00",
    [],
    {},
    (1, 2),
    {"\ud83d": "\udc00"},
    ["\U0001f600", 1.0, None],
]


def hostile_instances() -> list[Any]:
    """The hostile values alone, and as the members, items and keys of objects the sample's
    schemas look into."""
    found = list(HOSTILE_VALUES)
    for value in HOSTILE_VALUES:
        found.append([value, value])
        found.append(
            {
                "i": value,
                "s": value,
                "r": {"i": value},
                "u": value,
                "a": value,
                "x-y": value,
                "foo": value,
                "bar": value,
                "date": value,
            }
        )
        if isinstance(value, str):
            found.append({value: 1, "i": 1})
    return found
