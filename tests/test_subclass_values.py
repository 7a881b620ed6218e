"""A subclass of str, list, dict, int, float or Decimal is validated as the JSON value it holds,
whatever its own methods say (README, "Deliberate differences", item 8): the generated modules'
is_valid and errors() and the reference interpreter all read it through the base type's methods.

The subclasses below lie in every method they can: a str that says it is two upper-case letters
long while holding "zzz", a list whose iteration yields nothing, a dict that claims one key, numbers
whose comparisons always answer "within bounds". Each must get exactly the answer its plain value
gets.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import generator
from generator.reference import DraftReference

from .errors.structure import structure
from .strategies import JSON, draft_document
from .test_differential import compiled


class LyingStr(str):
    def __len__(self) -> int:
        return 2

    def __str__(self) -> str:
        return "AB"

    def __repr__(self) -> str:
        return "'AB'"

    def __iter__(self) -> Any:
        return iter("AB")

    def __getitem__(self, index: Any) -> Any:
        return "AB"[index]

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    def __hash__(self) -> int:
        return hash("AB")

    def __contains__(self, item: object) -> bool:
        return True

    def isascii(self) -> bool:
        return True

    def isalpha(self) -> bool:
        return True

    def isupper(self) -> bool:
        return True

    def encode(self, *args: Any, **kwargs: Any) -> bytes:
        return b"AB"


class LyingList(list):  # type: ignore[type-arg]
    def __iter__(self) -> Any:
        return iter(())

    def __len__(self) -> int:
        return 0

    def __getitem__(self, index: Any) -> Any:
        raise IndexError(index)

    def __contains__(self, item: object) -> bool:
        return False

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    __hash__ = None  # type: ignore[assignment]

    def copy(self) -> list[Any]:
        return []

    def __reversed__(self) -> Any:
        return iter(())


class LyingDict(dict):  # type: ignore[type-arg]
    def __iter__(self) -> Any:
        return iter(["a"])

    def __len__(self) -> int:
        return 1

    def __contains__(self, key: object) -> bool:
        return True

    def __getitem__(self, key: Any) -> Any:
        return 1

    def get(self, key: Any, default: Any = None) -> Any:
        return 1

    def keys(self) -> Any:
        return {"a": 1}.keys()

    def items(self) -> Any:
        return {"a": 1}.items()

    def values(self) -> Any:
        return [1]

    def copy(self) -> dict[str, Any]:
        return {"a": 1}

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    __hash__ = None  # type: ignore[assignment]


def _within_bounds(cls: type) -> type:
    """A number subclass whose every comparison and conversion says it is 1 (or within bounds)."""
    methods: dict[str, Any] = {
        "__lt__": lambda self, other: True,
        "__le__": lambda self, other: True,
        "__gt__": lambda self, other: False,
        "__ge__": lambda self, other: False,
        "__eq__": lambda self, other: True,
        "__ne__": lambda self, other: False,
        "__hash__": lambda self: 1,
        "__repr__": lambda self: "1",
        "__str__": lambda self: "1",
        "__int__": lambda self: 1,
        "__float__": lambda self: 1.0,
        "__index__": lambda self: 1,
        "__mod__": lambda self, other: 0,
        "__rmod__": lambda self, other: 0,
        "__truediv__": lambda self, other: 1,
        "__sub__": lambda self, other: 0,
        "is_integer": lambda self: True,
        "as_tuple": lambda self: Decimal(1).as_tuple(),
        "is_finite": lambda self: True,
        "is_nan": lambda self: False,
    }
    return type("Lying" + cls.__name__.capitalize(), (cls,), methods)


LyingInt = _within_bounds(int)
LyingFloat = _within_bounds(float)
LyingDecimal = _within_bounds(Decimal)


def lying(value: Any) -> Any:
    """`value` with every str, list, dict and number inside it (keys aside) made a lying subclass."""
    if type(value) is str:
        return LyingStr(value)
    if type(value) is list:
        return LyingList([lying(item) for item in value])
    if type(value) is dict:
        return LyingDict({key: lying(item) for key, item in value.items()})
    if type(value) is int:
        return LyingInt(value)
    if type(value) is float:
        return LyingFloat(value)
    if type(value) is Decimal:
        return LyingDecimal(value)
    return value  # bool and None have no subclasses


def test_the_lying_subclasses_do_lie() -> None:
    """(Else the tests below would prove nothing.)"""
    assert len(LyingStr("zzz")) == 2 and str(LyingStr("zzz")) == "AB" and LyingStr("zzz") == "AB"
    assert (
        list(LyingList([1, 1])) == [] and len(LyingList([1])) == 0 and LyingList([1]).copy() == []
    )
    held = LyingDict({"b": 1, "c": 2})
    assert (
        list(held) == ["a"]
        and len(held) == 1
        and dict(held) == {"a": 1}
        and dict.copy(held) == {"a": 1}
    )
    assert LyingInt(50) < 10 and not LyingInt(50) > 10 and int(LyingInt(50)) == 1
    assert LyingFloat(50.5) < 1.5 and repr(LyingFloat(50.5)) == "1" and LyingFloat(0.5).is_integer()
    assert LyingDecimal("50") < 10 and LyingDecimal("0.5").is_finite()


ISSUE = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "properties": {
        "s": {"type": "string", "pattern": "^[A-Z]{2}$", "maxLength": 2},
        "u": {"type": "array", "uniqueItems": True},
        "n": {"type": "array", "items": False},
        "o": {"type": "object", "maxProperties": 1, "required": ["a"]},
        "i": {"type": "integer", "maximum": 10},
        "f": {"type": "number", "maximum": 1.5, "multipleOf": 0.5},
        "d": {"type": "integer", "exclusiveMaximum": 3},
        "e": {"enum": ["AB", [], {"a": 1}]},
    },
}


@pytest.mark.parametrize(
    "name, held",
    [
        ("s", "zzz"),
        ("u", [1, 1]),
        ("n", [1]),
        ("o", {"b": 1, "c": 2}),
        ("i", 50),
        ("f", 50.25),
        ("d", 7),
        ("e", "zzz"),
        ("e", [1]),
        ("e", {"b": 2}),
    ],
    ids=repr,
)
def test_a_lying_subclass_fails_as_the_value_it_holds_fails(name: str, held: Any) -> None:
    """The issue's reproducers (a str subclass holding "zzz" passed maxLength 2 and ^[A-Z]{2}$, a
    list subclass iterating as empty passed uniqueItems and items: false) and their kin."""
    module = generator.compile_module(ISSUE, format=False)
    reference = DraftReference(ISSUE, "draft2020-12")
    plain = {name: Decimal(held) if name == "d" else held}
    disguised = {name: lying(plain[name])}
    assert type(disguised[name]) is not type(plain[name])
    assert not module.is_valid(plain)  # the value it holds is invalid...
    assert not module.is_valid(disguised)  # ...and so is the subclass, whatever it says
    assert structure(module.errors(disguised)) == structure(module.errors(plain)) != []
    assert not reference.is_valid(disguised)
    assert structure(reference.errors(disguised)) == structure(module.errors(plain))
    with pytest.raises(module.ValidationError):
        module.validate(disguised)
    assert module.output(disguised, "flag") == {"valid": False}


def test_a_lying_subclass_holding_a_valid_value_is_valid() -> None:
    module = generator.compile_module(ISSUE, format=False)
    plain = {
        "s": "AB",
        "u": [1, 2],
        "n": [],
        "o": {"a": 1},
        "i": 3,
        "f": 1.5,
        "d": Decimal(2),
        "e": {"a": 1},
    }
    assert module.is_valid(plain)
    assert module.is_valid(lying(plain)) and module.errors(lying(plain)) == []
    assert DraftReference(ISSUE, "draft2020-12").is_valid(lying(plain))


@pytest.mark.parametrize("draft", ["draft2020-12", "draft2019-09", "draft7", "draft4"])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_every_keyword_reads_a_subclass_as_its_value(draft: str, data: st.DataObject) -> None:
    """Generated schemas of every keyword: a disguised instance gets exactly the plain instance's
    validity and errors, from the module and from the reference interpreter."""
    from hypothesis import assume

    from .strategies import REFUSED_GRAPHS

    schema = data.draw(draft_document(draft), label="schema")
    try:
        module = compiled(schema, draft)
    except generator.SchemaError as error:
        assume(error.code not in REFUSED_GRAPHS)
        raise
    reference = DraftReference(schema, draft)
    for _ in range(6):
        plain = data.draw(JSON, label="instance")
        disguised = lying(plain)
        expected = structure(module.errors(plain))
        assert module.is_valid(disguised) == module.is_valid(plain) == (not expected), plain
        assert structure(module.errors(disguised)) == expected, plain
        assert (
            structure(reference.errors(disguised)) == structure(reference.errors(plain)) == expected
        ), plain


def test_exact_types_never_take_the_subclass_reading() -> None:
    """The fast path of json.loads' own types is untouched: validating them, valid or not, never
    calls _plain (only a subclass or a Decimal does)."""
    module = generator.compile_module(ISSUE, format=False)
    calls = 0
    real = module._plain

    def counting(x: Any) -> Any:
        nonlocal calls
        calls += 1
        return real(x)

    module._plain = counting
    for instance in (
        {"s": "AB", "u": [1, 2], "n": [], "o": {"a": 1}, "i": 3, "f": 1.5, "e": {"a": 1}},
        {"s": "zzz", "u": [1, 1], "n": [1], "o": {}, "i": 50, "f": 0.25, "e": [1]},
    ):
        module.is_valid(instance)
        module.errors(instance)
    assert calls == 0
    assert not module.is_valid({"s": LyingStr("zzz")}) and calls == 1
