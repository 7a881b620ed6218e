"""JSON values as the compiler reads them from a schema: numbers made exact, and canonical text
that tells apart exactly what JSON equality tells apart (see docs/ARCHITECTURE.md, "Numbers" and
"Equality")."""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Union

Number = Union[int, float, Decimal]


def normalize_number(value: Any) -> Number:
    """Integral numbers become int, a float stays only if it is its own repr's value, otherwise
    Decimal: so emitted comparisons are exact and integer ones are the cheap kind."""
    exact = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    if exact == exact.to_integral_value():
        return int(exact)
    as_float = float(exact)
    if Decimal(repr(as_float)) == exact:
        return as_float
    return exact


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
        return "n" + (hex(number) if isinstance(number, int) else str(number))
    if isinstance(value, list):
        return "[" + ",".join(canonical(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(repr(k) + ":" + canonical(value[k]) for k in sorted(value)) + "}"
    raise TypeError(f"not a JSON value: {type(value).__name__}")
