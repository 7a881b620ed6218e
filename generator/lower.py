"""Stage 4, lower: a preflighted schema to IR nodes.

One lowering function per keyword, registered in LOWERINGS (a keyword table in the spirit of ajv's
vocabularies); no keyword logic lives anywhere else in the compiler. A lowering function receives
the keyword's value and the whole schema object (for keywords that read a sibling, as `items`
reads `prefixItems`) and returns the checks it contributes.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Callable

from . import ir
from .errors import join_pointer
from .profiles import TYPE_NAMES, Profile


def normalize_number(value: Any) -> ir.Number:
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
        return "n" + str(normalize_number(value))
    if isinstance(value, list):
        return "[" + ",".join(canonical(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(repr(k) + ":" + canonical(value[k]) for k in sorted(value)) + "}"
    raise TypeError(f"not a JSON value: {type(value).__name__}")


class Lowering:
    def __init__(self, profile: Profile) -> None:
        self.profile = profile

    def node(self, schema: Any, pointer: str) -> ir.Node:
        if isinstance(schema, bool):
            return ir.Node(pointer=pointer, boolean=schema)
        types: tuple[str, ...] | None = None
        checks: list[ir.Check] = []
        for keyword, value in schema.items():
            if self.profile.keyword_status(keyword) != "enforced":
                continue  # annotations, and unknown keywords of a fail-open profile
            if keyword == "type":
                types = lower_type(value)
                continue
            where = join_pointer(pointer, keyword)
            checks.extend(LOWERINGS[keyword](self, value, schema, where))
        return ir.Node(pointer=pointer, types=types, checks=tuple(checks))

    def nodes(self, schemas: list[Any], pointer: str) -> tuple[ir.Node, ...]:
        return tuple(self.node(s, join_pointer(pointer, i)) for i, s in enumerate(schemas))


Lower = Callable[[Lowering, Any, dict[str, Any], str], list[ir.Check]]


def lower_type(value: str | list[str]) -> tuple[str, ...]:
    names = {value} if isinstance(value, str) else set(value)
    if "number" in names:
        names.discard("integer")  # every integer is a number
    return tuple(n for n in TYPE_NAMES if n in names)


# -- one lowering per keyword -----------------------------------------------------------------
def lower_properties(lw: Lowering, value: dict[str, Any], schema: dict[str, Any], where: str) -> list[ir.Check]:
    entries = tuple((name, lw.node(sub, join_pointer(where, name))) for name, sub in value.items())
    return [ir.Properties("properties", entries)] if entries else []


def lower_required(lw: Lowering, value: list[str], schema: dict[str, Any], where: str) -> list[ir.Check]:
    return [ir.Required("required", tuple(value))] if value else []


def lower_additional_properties(lw: Lowering, value: Any, schema: dict[str, Any], where: str) -> list[ir.Check]:
    if value is True:
        return []
    known = tuple(schema.get("properties", {})) if lw.profile.keyword_status("properties") == "enforced" else ()
    return [ir.AdditionalProperties("additionalProperties", known, lw.node(value, where))]


def lower_prefix_items(lw: Lowering, value: list[Any], schema: dict[str, Any], where: str) -> list[ir.Check]:
    return [ir.PrefixItems("prefixItems", lw.nodes(value, where))]


def lower_items(lw: Lowering, value: Any, schema: dict[str, Any], where: str) -> list[ir.Check]:
    if value is True:
        return []
    start = len(schema.get("prefixItems", ())) if lw.profile.keyword_status("prefixItems") == "enforced" else 0
    return [ir.Items("items", start, lw.node(value, where))]


def lower_min_items(lw: Lowering, value: Any, schema: dict[str, Any], where: str) -> list[ir.Check]:
    return [ir.ItemCount("minItems", int(value), True)] if value > 0 else []


def lower_max_items(lw: Lowering, value: Any, schema: dict[str, Any], where: str) -> list[ir.Check]:
    return [ir.ItemCount("maxItems", int(value), False)]


def lower_unique_items(lw: Lowering, value: bool, schema: dict[str, Any], where: str) -> list[ir.Check]:
    return [ir.UniqueItems("uniqueItems")] if value else []


def lower_min_length(lw: Lowering, value: Any, schema: dict[str, Any], where: str) -> list[ir.Check]:
    return [ir.StringLength("minLength", int(value), True)] if value > 0 else []


def lower_max_length(lw: Lowering, value: Any, schema: dict[str, Any], where: str) -> list[ir.Check]:
    return [ir.StringLength("maxLength", int(value), False)]


def lower_pattern(lw: Lowering, value: str, schema: dict[str, Any], where: str) -> list[ir.Check]:
    from .ecma_regex import translate

    return [ir.Pattern("pattern", value, translate(value))]


def _bound(keyword: str, op: str) -> Lower:
    def lower_bound(lw: Lowering, value: Any, schema: dict[str, Any], where: str) -> list[ir.Check]:
        return [ir.NumberBound(keyword, normalize_number(value), op)]

    lower_bound.__name__ = f"lower_{keyword}"
    return lower_bound


def lower_multiple_of(lw: Lowering, value: Any, schema: dict[str, Any], where: str) -> list[ir.Check]:
    return [ir.MultipleOf("multipleOf", normalize_number(value))]


def lower_enum(lw: Lowering, value: list[Any], schema: dict[str, Any], where: str) -> list[ir.Check]:
    return [ir.Enum("enum", tuple(value), canonical(value))]


def lower_const(lw: Lowering, value: Any, schema: dict[str, Any], where: str) -> list[ir.Check]:
    return [ir.Enum("const", (value,), canonical([value]))]


def lower_all_of(lw: Lowering, value: list[Any], schema: dict[str, Any], where: str) -> list[ir.Check]:
    return [ir.AllOf("allOf", lw.nodes(value, where))]


def lower_any_of(lw: Lowering, value: list[Any], schema: dict[str, Any], where: str) -> list[ir.Check]:
    return [ir.AnyOf("anyOf", lw.nodes(value, where))]


def lower_one_of(lw: Lowering, value: list[Any], schema: dict[str, Any], where: str) -> list[ir.Check]:
    return [ir.OneOf("oneOf", lw.nodes(value, where))]


def lower_not(lw: Lowering, value: Any, schema: dict[str, Any], where: str) -> list[ir.Check]:
    return [ir.Not("not", lw.node(value, where))]


LOWERINGS: dict[str, Lower] = {
    "properties": lower_properties,
    "required": lower_required,
    "additionalProperties": lower_additional_properties,
    "prefixItems": lower_prefix_items,
    "items": lower_items,
    "minItems": lower_min_items,
    "maxItems": lower_max_items,
    "uniqueItems": lower_unique_items,
    "minLength": lower_min_length,
    "maxLength": lower_max_length,
    "pattern": lower_pattern,
    "minimum": _bound("minimum", ">="),
    "maximum": _bound("maximum", "<="),
    "exclusiveMinimum": _bound("exclusiveMinimum", ">"),
    "exclusiveMaximum": _bound("exclusiveMaximum", "<"),
    "multipleOf": lower_multiple_of,
    "enum": lower_enum,
    "const": lower_const,
    "allOf": lower_all_of,
    "anyOf": lower_any_of,
    "oneOf": lower_one_of,
    "not": lower_not,
}


def lower(schema: Any, profile: Profile, pointer: str = "") -> ir.Node:
    """The IR of a preflighted schema."""
    return Lowering(profile).node(schema, pointer)
