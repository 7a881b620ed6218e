"""JSON values as the compiler reads them from a schema: numbers made exact, and canonical text
that tells apart exactly what JSON equality tells apart (see docs/ARCHITECTURE.md, "Numbers" and
"Equality")."""

from __future__ import annotations

import json
import math
import re
import sys
import uuid
from decimal import Decimal
from typing import Any, Union

from .primitives import BIG_DIGITS, big_decimal, short_repr

_BIG = 10**BIG_DIGITS
# ints up to this size compare with floats exactly as decimals do
SAFE_FLOAT_INT = 2**53

Number = Union[int, float, Decimal]


def normalize_number(value: Any) -> Number:
    """Integral numbers below 10**4000 become int, a float stays only if it is its own repr's
    value, otherwise Decimal: so emitted comparisons are exact and integer ones are the cheap kind.

    Nothing is materialised beyond the number's own size: an integral number of 4000 digits or
    more stays (or becomes, through big_decimal, which is close to linear) a Decimal, so
    `1e999999999` costs what its eleven characters cost, never a billion-digit int."""
    if isinstance(value, int) and not isinstance(value, bool):
        number = int.__int__(value)
        return number if -_BIG < number < _BIG else big_decimal(number)
    exact = Decimal(float.__repr__(value)) if isinstance(value, float) else Decimal(value)
    if exact == exact.to_integral_value():
        return int(exact) if exact.adjusted() < BIG_DIGITS else exact
    as_float = float(exact)
    if math.isfinite(as_float) and Decimal(repr(as_float)) == exact:
        return as_float
    return exact


def number_text(value: Number) -> str:
    """A number for a message: bounded (80 characters) and deterministic, whatever its size
    (an int past Python's digit limit included)."""
    text = short_repr(value) if isinstance(value, int) else str(value)
    return text if len(text) <= 80 else text[:77] + "..."


def decimal_text(value: Decimal) -> str:
    """The one text of a finite Decimal's value: sign, digits without trailing zeros, exponent
    (`1E+5000` and `10E+4999` are both `1e5000`); from its digits, never through arithmetic,
    whose context would round to 28 digits or overflow past 1E+999999."""
    sign, digits, exponent = value.as_tuple()
    assert isinstance(exponent, int), "a finite Decimal"
    kept = len(digits)
    while kept > 1 and digits[kept - 1] == 0:
        kept -= 1
    text = "".join(map(str, digits[:kept]))
    return ("-" if sign else "") + text + "e" + str(exponent + len(digits) - kept)


def canonical(value: Any) -> str:
    """Deterministic text of a JSON value that tells apart what JSON equality tells apart."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return "s" + repr(value)
    if isinstance(value, (int, float, Decimal)):
        number = normalize_number(value)
        if isinstance(number, int):
            return "n" + hex(number)
        return "n" + (decimal_text(number) if isinstance(number, Decimal) else repr(number))
    if isinstance(value, list):
        return "[" + ",".join(canonical(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(repr(k) + ":" + canonical(value[k]) for k in sorted(value)) + "}"
    raise TypeError(f"not a JSON value: {type(value).__name__}")


def dumps_exact(value: Any, **options: Any) -> str:
    """json.dumps (with `options`) of a JSON value, keeping every number exact: a Decimal goes out
    as its own digits (json.dumps would fail or round it through float) and so does an int past
    Python's digit limit (str() refuses it; big_decimal writes it out in close to linear time).
    Each such number is first replaced by a marker string holding a random token that no value
    can predict, and the markers are then replaced by the digits in one pass."""
    token = uuid.uuid4().hex
    numbers: list[str] = []

    def mark(node: Any) -> Any:
        if isinstance(node, Decimal) or (type(node) is int and not -_BIG < node < _BIG):
            numbers.append(str(node) if isinstance(node, Decimal) else str(big_decimal(node)))
            return f"{token}:{len(numbers) - 1}"
        if isinstance(node, dict):
            return {k: mark(v) for k, v in node.items()}
        if isinstance(node, list):
            return [mark(v) for v in node]
        return node

    text = json.dumps(mark(value), **options)
    if not numbers:
        return text
    return re.sub(f'"{token}:([0-9]+)"', lambda found: numbers[int(found.group(1))], text)


# No length or count can pass sys.maxsize (len() itself cannot), so a count bound above it means
# "more than anything" and is lowered as sys.maxsize + 1: `len(x) < bound` always holds and
# `len(x) > bound` never does, exactly as with the bound written, and 1e999999999 is never made
# into a billion-digit int.
COUNT_CEILING = sys.maxsize + 1


def count_bound(value: Any) -> int:
    """A preflighted count (an integral int, float or Decimal) as an int of at most 19 digits."""
    return COUNT_CEILING if value >= COUNT_CEILING else int(value)
