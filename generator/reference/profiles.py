"""The reference interpreter: the meaning of every profile, keyword by keyword over the raw schema.

Written in the style of python-jsonschema's `_keywords.py`: one small function per keyword that
yields the errors it finds. It shares only leaf primitives (JSON equality, exact number tests,
regex translation) with the compiler, never the lowering, so the differential tests compare two
independent readings of the same schema. It is slow on purpose: plain, not clever.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterator

from .. import primitives as p
from ..regex import compile_pattern
from ..errors import join_pointer
from ..preflight import preflight
from ..profiles import Profile, get_profile, with_options


@dataclass(frozen=True)
class Error:
    message: str
    instance_location: str
    keyword_location: str


Errors = Iterator[Error]


class Reference:
    """A validator that interprets `schema` under `profile` (checked by preflight first)."""

    def __init__(self, schema: Any, profile: str | Profile, **options: Any) -> None:
        chosen = get_profile(profile) if isinstance(profile, str) else profile
        self.profile = with_options(chosen, options)
        preflight(schema, self.profile)
        self.schema = schema

    def errors(self, instance: Any) -> list[Error]:
        return list(self.descend(self.schema, instance, "", ""))

    def is_valid(self, instance: Any) -> bool:
        return next(self.descend(self.schema, instance, "", ""), None) is None

    def valid_under(self, schema: Any, instance: Any) -> bool:
        return next(self.descend(schema, instance, "", ""), None) is None

    def descend(self, schema: Any, instance: Any, ip: str, kp: str) -> Errors:
        if schema is True:
            return
        if schema is False:
            yield Error(f"False schema does not allow {p.short_repr(instance)}", ip, kp)
            return
        for keyword, value in schema.items():
            if self.profile.keyword_status(keyword) != "enforced":
                continue
            yield from KEYWORDS[keyword](self, value, instance, schema, ip, join_pointer(kp, keyword))


Keyword = Callable[[Reference, Any, Any, dict[str, Any], str, str], Errors]


def _is(instance: Any, kind: str) -> bool:
    return p.kind(instance) == kind


# -- one function per keyword -----------------------------------------------------------------
def type_(r: Reference, types: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str) -> Errors:
    names = [types] if isinstance(types, str) else types
    if not any(p.is_type(instance, name) for name in names):
        yield Error(f"{p.short_repr(instance)} is not of type {', '.join(map(repr, names))}", ip, kp)


def properties(r: Reference, props: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str) -> Errors:
    if not _is(instance, "object"):
        return
    for name, sub in props.items():
        if name in instance:
            yield from r.descend(sub, instance[name], join_pointer(ip, name), join_pointer(kp, name))


def required(r: Reference, names: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str) -> Errors:
    if not _is(instance, "object"):
        return
    for name in names:
        if name not in instance:
            yield Error(f"{name!r} is a required property", ip, kp)


def additional_properties(r: Reference, extra: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str) -> Errors:
    if not _is(instance, "object"):
        return
    known = schema.get("properties", {}) if r.profile.keyword_status("properties") == "enforced" else {}
    for key in instance:
        if key in known:
            continue
        if extra is False:
            yield Error(f"additional property {key!r} is not allowed", join_pointer(ip, key), kp)
        else:
            yield from r.descend(extra, instance[key], join_pointer(ip, key), kp)


def prefix_items(r: Reference, schemas: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str) -> Errors:
    if not _is(instance, "array"):
        return
    for index, (sub, item) in enumerate(zip(schemas, instance)):
        yield from r.descend(sub, item, join_pointer(ip, index), join_pointer(kp, index))


def items(r: Reference, sub: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str) -> Errors:
    if not _is(instance, "array"):
        return
    start = len(schema.get("prefixItems", [])) if r.profile.keyword_status("prefixItems") == "enforced" else 0
    for index in range(start, len(instance)):
        yield from r.descend(sub, instance[index], join_pointer(ip, index), kp)


def min_items(r: Reference, bound: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str) -> Errors:
    if _is(instance, "array") and len(instance) < bound:
        yield Error(f"{p.short_repr(instance)} is too short", ip, kp)


def max_items(r: Reference, bound: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str) -> Errors:
    if _is(instance, "array") and len(instance) > bound:
        yield Error(f"{p.short_repr(instance)} is too long", ip, kp)


def unique_items(r: Reference, unique: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str) -> Errors:
    if not unique or not _is(instance, "array"):
        return
    for i in range(len(instance)):
        for j in range(i + 1, len(instance)):
            if p.json_equal(instance[i], instance[j]):
                yield Error(f"{p.short_repr(instance)} has non-unique elements", ip, kp)
                return


def min_length(r: Reference, bound: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str) -> Errors:
    if _is(instance, "string") and len(instance) < bound:
        yield Error(f"{p.short_repr(instance)} is too short", ip, kp)


def max_length(r: Reference, bound: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str) -> Errors:
    if _is(instance, "string") and len(instance) > bound:
        yield Error(f"{p.short_repr(instance)} is too long", ip, kp)


def pattern(r: Reference, source: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str) -> Errors:
    if _is(instance, "string") and compile_pattern(source).search(str(instance)) is None:
        yield Error(f"{p.short_repr(instance)} does not match {source!r}", ip, kp)


def _bound(name: str, accept: tuple[int, ...], words: str) -> Keyword:
    def check(r: Reference, bound: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str) -> Errors:
        if _is(instance, "number") and p.compare(instance, bound) not in accept:
            yield Error(f"{p.short_repr(instance)} is {words} the {name} of {p.short_repr(bound)}", ip, kp)

    check.__name__ = name
    return check


minimum = _bound("minimum", (0, 1), "less than")
maximum = _bound("maximum", (-1, 0), "greater than")
exclusive_minimum = _bound("exclusiveMinimum", (1,), "less than or equal to")
exclusive_maximum = _bound("exclusiveMaximum", (-1,), "greater than or equal to")


def multiple_of(r: Reference, divisor: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str) -> Errors:
    if _is(instance, "number") and not p.is_multiple(instance, divisor):
        yield Error(f"{p.short_repr(instance)} is not a multiple of {p.short_repr(divisor)}", ip, kp)


def enum(r: Reference, values: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str) -> Errors:
    if not any(p.json_equal(instance, v) for v in values):
        yield Error(f"{p.short_repr(instance)} is not one of the enum values", ip, kp)


def const(r: Reference, value: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str) -> Errors:
    if not p.json_equal(instance, value):
        yield Error(f"{p.short_repr(instance)} is not the const value", ip, kp)


def all_of(r: Reference, schemas: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str) -> Errors:
    for index, sub in enumerate(schemas):
        yield from r.descend(sub, instance, ip, join_pointer(kp, index))


def any_of(r: Reference, schemas: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str) -> Errors:
    if not any(r.valid_under(sub, instance) for sub in schemas):
        yield Error(f"{p.short_repr(instance)} is not valid under any of the given schemas", ip, kp)


def one_of(r: Reference, schemas: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str) -> Errors:
    if sum(r.valid_under(sub, instance) for sub in schemas) != 1:
        yield Error(f"{p.short_repr(instance)} is not valid under exactly one of the given schemas", ip, kp)


def not_(r: Reference, sub: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str) -> Errors:
    if r.valid_under(sub, instance):
        yield Error(f"{p.short_repr(instance)} should not be valid under the schema in not", ip, kp)


KEYWORDS: dict[str, Keyword] = {
    "type": type_,
    "properties": properties,
    "required": required,
    "additionalProperties": additional_properties,
    "prefixItems": prefix_items,
    "items": items,
    "minItems": min_items,
    "maxItems": max_items,
    "uniqueItems": unique_items,
    "minLength": min_length,
    "maxLength": max_length,
    "pattern": pattern,
    "minimum": minimum,
    "maximum": maximum,
    "exclusiveMinimum": exclusive_minimum,
    "exclusiveMaximum": exclusive_maximum,
    "multipleOf": multiple_of,
    "enum": enum,
    "const": const,
    "allOf": all_of,
    "anyOf": any_of,
    "oneOf": one_of,
    "not": not_,
}
