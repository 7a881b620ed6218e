"""Values in messages are JSON text (`null`, `true`, `"text"`), bounded and deterministic, whatever
the value: json.dumps is the oracle where it applies."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from generator import primitives as p

from .helpers import module

PLAIN = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(10**30), max_value=10**30),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=8),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=12,
)


@given(PLAIN)
def test_json_values_are_shown_as_json_dumps_writes_them(value: Any) -> None:
    assert p.show(value, 10**6) == json.dumps(value, ensure_ascii=False)


@given(PLAIN, st.integers(min_value=4, max_value=60))
def test_long_text_is_cut_to_the_limit(value: Any, limit: int) -> None:
    full = json.dumps(value, ensure_ascii=False)
    shown = p.show(value, limit)
    if len(full) <= limit:
        assert shown == full
    else:
        assert len(shown) == limit and shown.endswith("...") and full.startswith(shown[:-3])


def test_scalars() -> None:
    assert [p.show(v) for v in (None, True, False, 0, -0.0, 1.5, 1e300, "")] == [
        "null",
        "true",
        "false",
        "0",
        "-0.0",
        "1.5",
        "1e+300",
        '""',
    ]
    assert (
        p.show(float("nan")) == "NaN"
        and p.show(float("inf")) == "Infinity"
        and p.show(float("-inf")) == "-Infinity"
    )
    assert p.show('a"b\\c\n\x00\u2028ключ') == '"a\\"b\\\\c\\n\\u0000\u2028ключ"'


def test_huge_numbers_are_rounded_never_materialised() -> None:
    assert p.show(10**40) == "1" + "0" * 40
    assert p.show(10**41) == "1.000000000000000E+41"
    assert p.show(-(10**5000) - 7) == "-1.000000000000000E+5000"
    assert p.show(Decimal("1E+999999999")) == "1E+999999999"
    assert p.show(Decimal("-1.5E-999999999")) == "-1.5E-999999999"
    assert p.show(Decimal("1" * 100)) == "1.111111111111111E+99"
    assert p.show(Decimal("NaN")) == "NaN" and p.show(Decimal("-Infinity")) == "-Infinity"


def test_values_that_are_not_json_are_named_by_their_type() -> None:
    assert [p.show(v) for v in (object(), {1, 2}, b"x", (1, 2))] == [
        "<object object>",
        "<set object>",
        "<bytes object>",
        "<tuple object>",
    ]
    assert p.show({1: "a"}) == '{1: "a"}'  # a key that is not a string: as what it is


def test_subclasses_are_read_through_their_base_type() -> None:
    class Text(str):
        def __str__(self) -> str:
            raise RuntimeError("never called")

    class Number(int):
        def __repr__(self) -> str:
            raise RuntimeError("never called")

    assert p.show(Text("ab")) == '"ab"' and p.show(Number(7)) == "7" and p.show(True) == "true"


def test_deep_and_self_containing_values_are_bounded() -> None:
    deep: list[Any] = []
    for _ in range(100_000):
        deep = [deep]
    assert p.show(deep) == "[" * 77 + "..."
    looped: list[Any] = [1]
    looped.append(looped)
    assert p.show(looped, 20) == "[1, [1, [1, [1, [..."


def test_messages_of_a_module_speak_json() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"const": None}}}
    found = module(schema).errors({"a": None, "b": {"x": [True, 1.5, "é"]}})
    assert [e.message for e in found] == [
        'null is not of type "integer"',
        '{"x": [true, 1.5, "é"]} is not the expected value null',
    ]
