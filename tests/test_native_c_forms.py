"""Three C forms that keep a large module's C small (docs/native.md, "Smaller C"), each answering
as the pure module does:

- a loop over a value known to be an exact list or dict is written for that type alone, and reads
  the list's length at each step, as the list's iterator does, so an item whose Python code
  grows the list is still checked;
- `type(x) in _Y`, a set of built-in types, is one call (sl_builtin_type_in) that tests the
  type's bit, and looks a type with a metaclass of its own up in the set, as `in` does;
- the truth of a call C has no form of its own (`_ok(_e3, x)`) is one call (sl_call_truth)."""

from __future__ import annotations

import re
import shutil
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from generator.api import compile_built
from generator.native.c_build import render_c

from .native_hostile import Float, Int, assert_same, native_and_pure

pytestmark = pytest.mark.skipif(
    shutil.which("cc") is None and shutil.which("gcc") is None,
    reason="no C compiler on this machine",
)

NAME = "straightline_c_forms"
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "nullable": {"type": ["string", "null"]},
        "integers": {"type": "array", "items": {"type": "integer"}},
        "no_strings": {"type": "array", "items": {"not": {"type": "string"}}},
        "not_object": {"not": {"type": "object"}},
    },
    "additionalProperties": {"type": "array", "maxItems": 3},
}


class PretendsToBeDict(type):
    """A metaclass whose classes are equal to dict, with dict's hash, counting the look-ups of
    them: `type(x) in {dict, ...}` is true for their instances, which only the set's own look-up
    finds (a pointer compare would not)."""

    hashed = 0

    def __eq__(cls, other: object) -> bool:
        return other is dict or type.__eq__(cls, other) is True

    def __hash__(cls) -> int:
        PretendsToBeDict.hashed += 1
        return hash(dict)


class Pretender(metaclass=PretendsToBeDict):
    pass


class PlainMeta(type):
    pass


class Plain(metaclass=PlainMeta):
    pass


class GrowsItsList:
    """An item whose `__class__`, read by isinstance in the pure module's error functions, appends
    a str to the list being walked (once): an item the loop must still reach."""

    def __init__(self, owner: list[Any]) -> None:
        self.owner = owner
        self.grown = False

    @property  # type: ignore[misc]
    def __class__(self) -> type:  # noqa: D401 - isinstance reads it
        if not self.grown:
            self.grown = True
            self.owner.append("a str the loop must reach")
        return GrowsItsList


def _growing() -> list[Any]:
    owner: list[Any] = [1]
    owner.append(GrowsItsList(owner))
    return owner


@pytest.fixture(scope="module")
def modules(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    return native_and_pure(tmp_path_factory.mktemp("c_forms"), SCHEMA, NAME)


def _c_text() -> str:
    text, built = compile_built(SCHEMA, name=NAME)
    return render_c(SCHEMA, text, NAME, f"{NAME}.py", (text, built), name=NAME).render()


def test_the_forms_are_in_the_c() -> None:
    c_text = _c_text()
    assert "sl_builtin_type_in(" in c_text and "sl_call_truth(" in c_text
    for bit in ("SL_TYPE_STR", "SL_TYPE_DICT", "SL_TYPE_LIST", "SL_TYPE_NONE"):
        assert bit in c_text, bit
    # every loop here walks a value known exact: none chooses its way at run time, and none
    # asks for an iterator
    assert re.search(r"\bmode\d+\b", c_text) is None
    assert "PyObject_GetIter(" not in c_text and "PyIter_Next(" not in c_text
    assert "PyList_GET_ITEM(" in c_text and "PyDict_Next(" in c_text


VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    -3,
    2**70,
    1.5,
    float("nan"),
    "",
    "text",
    [],
    [1, 2],
    {},
    {"a": 1},
    (1, 2),
    Int(3),
    Float(2.0),
    Decimal("1.0"),
    int,
    dict,
    type(None),
    Pretender(),
    Plain(),
    object(),
]


@pytest.mark.parametrize("key", sorted(SCHEMA["properties"]) + ["other"])
def test_each_value_under_each_key_answers_as_the_pure_module(
    modules: tuple[Any, Any], key: str
) -> None:
    native, pure = modules
    for value in VALUES:
        assert_same(native, pure, {key: value})
        assert_same(native, pure, {key: [value]})
    for value in VALUES:  # (the root itself of each type)
        assert_same(native, pure, value)


def test_a_type_with_a_metaclass_of_its_own_is_looked_up_in_the_set(
    modules: tuple[Any, Any],
) -> None:
    """`type(x) in _Y1` (_Y1 the types an array is not, dict among them) for a Pretender: found by
    the set's look-up, which hashes the type once, in C as in the pure module; a class with a
    plain metaclass is looked up too, and is in no set."""
    native, pure = modules
    hashes = []
    for module in (native, pure):
        PretendsToBeDict.hashed = 0
        assert module.is_valid({"integers": Pretender()}) is False
        hashes.append(PretendsToBeDict.hashed)
    assert hashes[0] == hashes[1] >= 1
    for module in (native, pure):
        PretendsToBeDict.hashed = 0
        assert module.is_valid({"integers": [1, 2]}) is True
        assert PretendsToBeDict.hashed == 0  # (the built-in types: their bits, no look-up)
    assert_same(native, pure, {"integers": Plain()})


def test_an_item_that_grows_the_walked_list_is_followed_to_the_end(
    modules: tuple[Any, Any],
) -> None:
    """The list grows while it is walked: both modules reach the appended str (`no_strings`:
    not a string) and say invalid; without the growth, valid; each list grew exactly once."""
    native, pure = modules
    for module in (native, pure):
        owner = _growing()
        assert module.is_valid({"no_strings": owner}) is False
        assert len(owner) == 3 and owner[-1] == "a str the loop must reach"
        assert module.is_valid({"no_strings": owner[:2]}) is True  # (grown already: no growth)


def test_a_list_walked_in_c_holds_the_list_while_its_items_run_python(
    modules: tuple[Any, Any], tmp_path: Path
) -> None:
    """The walked list stays alive while an item's Python code drops the instance's hold on it."""
    native, pure = modules

    class DropsTheList:
        def __init__(self, holder: dict[str, Any]) -> None:
            self.holder = holder

        @property  # type: ignore[misc]
        def __class__(self) -> type:
            self.holder.pop("no_strings", None)
            return DropsTheList

    for module in (native, pure):
        holder: dict[str, Any] = {}
        holder["no_strings"] = [DropsTheList(holder), 1, "str"]
        assert module.is_valid(holder) is False
