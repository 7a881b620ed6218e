"""Hostile numbers (GitHub-style issue 15, items 1, 2 and 9): a few bytes of exponent must never
hang the compiler or a generated module, and huge integers must be accepted and printed alike as
JSON text and as Python values. Every case runs under a hang guard (tests/bounded.py: a forked
child, a generous time limit, an address-space limit) and is checked against the reference
interpreter, which shares only the primitives."""

from __future__ import annotations

import sys
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import generator
from generator import primitives as p
from generator.reference import DraftReference
from generator.values import canonical, normalize_number

from .bounded import bounded

HUGE = Decimal("1e999999999")
TINY = Decimal("1e-999999999")
# Instances of every kind, hostile numbers among them (as json.loads(..., parse_float=Decimal)
# makes them from eleven bytes of text), and a Python int past the digit limit.
INSTANCES: list[Any] = [
    0,
    1,
    3,
    -1,
    2.5,
    0.1,
    1e300,
    HUGE,
    HUGE.copy_negate(),
    TINY,
    TINY.copy_negate(),
    Decimal("3e999999999"),
    Decimal("1e1000000"),
    Decimal("10e999999"),
    Decimal("0.1"),
    10**5000,
    -(10**5000),
    10**5000 + 1,
    "",
    "ab",
    [],
    [1, 1],
    [HUGE, Decimal("10e999999998")],
    [TINY, Decimal("2e-999999999")],
    {},
    {"a": 1},
    None,
    True,
]
# Schemas whose numbers would be materialised by int(), to_integral_value() and Fraction.
SCHEMAS = [
    '{"minimum": 1e999999999}',
    '{"maximum": -1e999999999}',
    '{"exclusiveMinimum": 1e-999999999}',
    '{"exclusiveMaximum": -1e-999999999}',
    '{"maxLength": 1e999999999}',
    '{"minLength": 1e999999999}',
    '{"minItems": 1e999999999}',
    '{"maxItems": 1e999999999}',
    '{"minProperties": 1e999999999}',
    '{"maxProperties": 1e999999999}',
    '{"contains": {}, "minContains": 1e999999999}',
    '{"contains": {}, "maxContains": 1e999999999}',
    '{"const": 1e999999999}',
    '{"enum": [1e999999999, -1e-999999999, 1, "x"]}',
    '{"multipleOf": 1e-999999999}',
    '{"multipleOf": 1e999999999}',
    '{"multipleOf": 3}',
    '{"enum": [1, 2]}',
    '{"uniqueItems": true}',
    '{"const": 1' + "0" * 5000 + "}",
    '{"minimum": 1' + "0" * 5000 + "}",
    '{"maxLength": 2.0}',
    '{"minItems": 1.5e999999999}',
    '{"type": "integer"}',
    '{"const": [1e999999999]}',
]


def _agreement(schema: str) -> list[str]:
    """Compile `schema` and return every instance on which the module and the reference differ,
    or on which is_valid, errors() and validate() disagree."""
    module = generator.compile_module(schema, format=False)
    reference = DraftReference(generator.load.load_json(schema), "draft2020-12")
    problems = []
    for instance in INSTANCES:
        expected = reference.is_valid(instance)
        valid = module.is_valid(instance)
        errors = list(module.errors(instance))
        try:
            module.validate(instance)
            raised = False
        except module.ValidationError:
            raised = True
        if valid != expected or valid == bool(errors) or raised == valid:
            problems.append(
                f"{p.short_repr(instance)}: module {valid}, reference {expected}, "
                f"{len(errors)} errors, validate raised {raised}"
            )
        for error in errors:
            if len(error.message) > 400:
                problems.append(f"{p.short_repr(instance)}: an unbounded message")
    return problems


@pytest.mark.parametrize("schema", SCHEMAS, ids=lambda s: s[:40])
def test_hostile_numbers_compile_and_validate_in_bounded_time_like_the_reference(
    schema: str,
) -> None:
    outcome = bounded(_agreement, schema)
    assert outcome.kind is None, outcome.trace
    assert outcome.value == []


@pytest.mark.parametrize(
    "schema, instance, valid",
    [
        ('{"minimum": 1e999999999}', HUGE, True),
        ('{"minimum": 1e999999999}', 10**5000, False),
        ('{"exclusiveMinimum": 1e-999999999}', TINY, False),
        ('{"exclusiveMinimum": 1e-999999999}', Decimal("2e-999999999"), True),
        ('{"exclusiveMinimum": 1e-999999999}', 0, False),
        ('{"maxLength": 1e999999999}', "x" * 1000, True),
        ('{"minLength": 1e999999999}', "x" * 1000, False),
        ('{"minItems": 1e999999999}', [1], False),
        ('{"maxItems": 1e999999999}', [1], True),
        ('{"enum": [1, 2]}', Decimal("1e1000000"), False),
        ('{"enum": [1e999999999]}', Decimal("10e999999998"), True),
        ('{"const": 1e1000000}', Decimal("1e1000000"), True),
        ('{"uniqueItems": true}', [Decimal("1e1000000"), Decimal("10e999999")], False),
        ('{"uniqueItems": true}', [TINY, Decimal("2e-999999999")], True),
        (
            '{"uniqueItems": true}',
            [
                Decimal("0.1234567890123456789012345678901"),
                Decimal("0.1234567890123456789012345678902"),
            ],
            True,
        ),
        ('{"multipleOf": 3}', TINY, False),
        ('{"multipleOf": 3}', Decimal("3e999999999"), True),
        ('{"multipleOf": 3}', Decimal("1e999999999"), False),
        ('{"multipleOf": 1e-999999999}', 1, True),
        ('{"multipleOf": 1e-999999999}', Decimal("1.5e-999999999"), False),
        ('{"const": 1' + "0" * 5000 + "}", 10**5000, True),
    ],
    ids=lambda value: p.short_repr(value)[:30],
)
def test_hostile_number_answers(schema: str, instance: Any, valid: bool) -> None:
    outcome = bounded(lambda: generator.compile_module(schema, format=False).is_valid(instance))
    assert outcome.kind is None, outcome.trace
    assert outcome.value is valid


def test_a_count_bound_beyond_any_length_is_more_than_anything() -> None:
    # the documented semantics: no len() can pass sys.maxsize, so such a bound always holds (max)
    # or never does (min), whatever its size; it is emitted as sys.maxsize + 1
    source = generator.compile_source(
        '{"maxLength": 1e999999999, "minItems": 5e99999}', format=False
    )
    assert str(sys.maxsize + 1) in source
    # the schema's own numbers appear only where an error reports them (its `limit` parameter,
    # a Decimal as written), never in a comparison
    mentions = [line for line in source.splitlines() if "99999" in line]
    assert len(mentions) == 2 and all(
        line.startswith("_A") and '"limit": _Decimal("' in line for line in mentions
    )


# -- item 9: huge integers as Python values and in messages ------------------------------------
def _huge_int_outcomes() -> tuple[Any, ...]:
    as_text = generator.compile_module('{"const": 1' + "0" * 5000 + "}", format=False)
    as_value = generator.compile_module({"const": 10**5000}, format=False)
    maximum = generator.compile_module({"maximum": 1}, format=False)
    message = [e.message for e in maximum.errors(10**5000)]
    return (
        [
            m.is_valid(v)
            for m in (as_text, as_value)
            for v in (10**5000, Decimal("1e5000"), 10**5000 + 1)
        ],
        message,
    )


def test_a_5000_digit_integer_is_accepted_as_a_python_value_like_the_json_text() -> None:
    first = bounded(_huge_int_outcomes)
    assert first.kind is None, first.trace
    answers, message = first.value
    assert answers == [True, True, False] * 2
    # bounded, deterministic (no `<int object at 0x...>`), and the same in another process
    assert message == ["1.000000000000000E+5000 is greater than the maximum of 1"]
    assert bounded(_huge_int_outcomes).value == first.value


def test_short_repr_of_huge_numbers_is_bounded_and_deterministic() -> None:
    assert p.short_repr(10**5000) == "1" + "0" * 76 + "..."
    assert p.short_repr(-(10**5000)) == "-" + "1" + "0" * 75 + "..."
    assert p.short_repr(10**4000 - 1) == "9" * 77 + "..."
    assert p.short_repr(HUGE) == "Decimal('1E+999999999')"


def test_schema_error_messages_bound_huge_numbers() -> None:
    with pytest.raises(generator.SchemaError) as caught:
        generator.compile_source({"minLength": -(10**5000)})
    assert caught.value.pointer == "/minLength" and len(caught.value.message) < 200


# -- the primitives, exactly -------------------------------------------------------------------
_numbers = st.one_of(
    st.integers(-(10**30), 10**30),
    st.floats(allow_nan=False, allow_infinity=False, width=64),
    st.builds(
        lambda c, e: Decimal(c).scaleb(e), st.integers(-(10**12), 10**12), st.integers(-40, 40)
    ),
)


def _fraction(x: Any) -> Fraction:
    return Fraction(Decimal(repr(x))) if isinstance(x, float) else Fraction(x)


@given(_numbers, _numbers.filter(lambda m: m > 0))
def test_is_multiple_is_exact(x: Any, m: Any) -> None:
    assert p.is_multiple(x, m) is ((_fraction(x) / _fraction(m)).denominator == 1)


@given(_numbers, _numbers)
def test_compare_and_freeze_are_exact(a: Any, b: Any) -> None:
    fa, fb = _fraction(a), _fraction(b)
    assert p.compare(a, b) == (fa > fb) - (fa < fb)
    assert (p.freeze(a) == p.freeze(b)) is (fa == fb)
    assert (canonical(a) == canonical(b)) is (fa == fb)
    if fa == fb:
        assert hash(p.freeze(a)) == hash(p.freeze(b))


@given(st.integers(-(10**9000), 10**9000), st.integers(-3, 3))
def test_huge_integers_freeze_and_compare_like_their_decimals(n: int, shift: int) -> None:
    as_decimal = p.big_decimal(n)
    assert as_decimal == Decimal(n)  # (quadratic, but bounded here)
    other = n + shift
    assert (p.freeze(n) == p.freeze(Decimal(other))) is (shift == 0)
    assert p.compare(n, Decimal(other)) == (0 > shift) - (0 < shift)
    assert normalize_number(n) == n


def test_normalize_number_never_materialises_a_huge_exponent() -> None:
    assert normalize_number(HUGE) is HUGE and normalize_number(TINY) is TINY
    assert type(normalize_number(Decimal("1e3999"))) is int
    assert type(normalize_number(Decimal("1e4000"))) is Decimal
    assert canonical(Decimal("1E+5000")) == canonical(Decimal("10E+4999")) == canonical(10**5000)
