"""Stage 4, lower: a preflighted schema to IR nodes.

One lowering function per keyword, registered in LOWERINGS (a keyword table in the spirit of ajv's
vocabularies); no keyword logic lives anywhere else in the compiler. A lowering function receives
the keyword's value and the whole schema object (for keywords that read a sibling, as `items`
reads `prefixItems`) and returns the checks it contributes.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from dataclasses import dataclass, replace
from urllib.parse import urldefrag

from . import ir
from .errors import SchemaError, join_pointer
from .preflight import preflight
from .profiles import DRAFT_PROFILES, TYPE_NAMES, Profile
from .values import canonical, normalize_number
from .resolve import META_SCHEMAS, Location, Registry, draft_number, join_uri, normalize_meta_uri


@dataclass(frozen=True)
class Context:
    """Where a subschema sits: its document, pointer and base URI (drafts only)."""

    document: str = ""
    pointer: str = ""
    base: str = ""


class Lowering:
    """Lowers one schema, and (for the drafts) every schema its references reach, into `graph`."""

    def __init__(self, profile: Profile, registry: Registry | None = None) -> None:
        self.root_profile = profile
        # the profile of the schema being lowered: a document or embedded resource of another
        # draft is lowered by that draft's rules (see in_draft)
        self.profile = profile
        self.registry = registry
        self.graph: dict[str, ir.Node] = {}  # location key -> node, for reference targets
        self.pending: list[Location] = []
        self._scheduled: set[str] = set()  # keys in graph or pending
        self.resource_ids: dict[str, int] = {}
        self.dynamic_names: set[tuple[str, str]] = set()  # (mode, anchor) of dynamic references
        self._preflighted: set[str] = set()

    # -- nodes --------------------------------------------------------------------------------
    def node(self, schema: Any, pointer: str, ctx: Context | None = None) -> ir.Node:
        if isinstance(schema, bool):
            return ir.Node(pointer=pointer, boolean=schema)
        resource = None
        if ctx is not None and self.registry is not None:
            key = ctx.document + "#" + pointer
            base = self.registry.bases.get(key)
            if base is None:
                ident = schema.get("id" if self.draft == 4 else "$id")
                base = join_uri(ctx.base, ident) if isinstance(ident, str) and not ident.startswith("#") else ctx.base
            ctx = Context(ctx.document, pointer, base)
            if key in self.registry.resource_of:
                resource = self.resource_id(self.registry.resource_of[key])
        if ctx is not None and pointer and isinstance(schema.get("$schema"), str):
            # an embedded resource of another draft (a document's own draft is set by lower_pending)
            with self.in_draft(META_SCHEMAS.get(normalize_meta_uri(schema["$schema"]))):
                return self._node(schema, pointer, ctx, resource)
        return self._node(schema, pointer, ctx, resource)

    def _node(self, schema: dict[str, Any], pointer: str, ctx: Context | None, resource: int | None) -> ir.Node:
        types: tuple[str, ...] | None = None
        checks: list[ir.Check] = []
        entries = schema.items()
        if self.draft is not None and self.draft <= 7 and "$ref" in schema:
            entries = [("$ref", schema["$ref"])]  # before 2019-09 a $ref's siblings are ignored
        for keyword, value in entries:
            if self.profile.keyword_status(keyword) != "enforced":
                continue  # annotations, and unknown keywords of a fail-open profile
            if keyword == "type":
                types = lower_type(value)
                continue
            where = join_pointer(pointer, keyword)
            checks.extend(LOWERINGS[keyword](self, value, schema, where, ctx))
        return ir.Node(pointer=pointer, types=types, checks=tuple(checks),
                       float_integers=self.profile.float_integers, resource=resource)

    @property
    def draft(self) -> int | None:
        """The number of the draft being lowered (None for a profile that is no draft)."""
        return draft_number(self.profile.draft) if self.profile.draft else None

    @contextmanager
    def in_draft(self, draft: str | None) -> Iterator[None]:
        """Lower by `draft`'s rules inside: the root's profile for its own draft (with the
        vocabularies it leaves out), else that draft's profile with the root's limits. An
        unknown meta-schema (None) keeps the draft in force."""
        outer = self.profile
        root = self.root_profile
        if draft is not None and draft != outer.draft:
            self.profile = root if draft == root.draft else replace(DRAFT_PROFILES[draft], limits=root.limits)
        try:
            yield
        finally:
            self.profile = outer

    def draft_at(self, location: Location) -> str:
        """The draft in force at a location: its document's, or an embedded `$schema`'s above it."""
        assert self.registry is not None
        pointer = location.pointer
        while True:
            found = self.registry.dialects.get(location.document.uri + "#" + pointer)
            if found is not None:
                return found
            if not pointer:
                return location.document.draft
            pointer = pointer.rpartition("/")[0]

    def nodes(self, schemas: list[Any], pointer: str, ctx: Context | None) -> tuple[ir.Node, ...]:
        return tuple(self.node(s, join_pointer(pointer, i), ctx) for i, s in enumerate(schemas))

    def absolute(self, key: str) -> str:
        """The absolute URI of a location: its resource's URI and the pointer within it."""
        assert self.registry is not None
        document, _, pointer = key.partition("#")
        best, best_length = document, 0
        for uri, (doc, root) in self.registry.resources.items():
            if doc == document and (pointer == root or pointer.startswith(root + "/")) and len(root) >= best_length:
                if len(root) > best_length or best == document:
                    best, best_length = uri, len(root)
        return best + "#" + pointer[best_length:]

    def enters(self, location: Location) -> int:
        """The resource a reference to `location` enters (the one that contains it)."""
        return self.resource_id(urldefrag(location.base)[0])

    def resource_id(self, uri: str) -> int:
        return self.resource_ids.setdefault(uri, len(self.resource_ids))

    # -- references -----------------------------------------------------------------------
    def target(self, location: Location, where: str) -> str:
        """The graph key of a location, scheduling its lowering (no chain is followed)."""
        if location.key not in self._scheduled:
            self._scheduled.add(location.key)
            self.pending.append(location)
        return location.key

    def follow(self, location: Location, where: str) -> tuple[str, tuple[int, ...], int]:
        """The graph key of a reference target and the resources the reference enters. A target
        that is only another reference is followed at compile time (so long chains cost nothing
        at run time; each hop still enters its resource); a chain that comes back to itself can
        never finish and is a SchemaError."""
        assert self.registry is not None
        seen: set[str] = set()
        enters = [self.enters(location)]
        while True:
            schema = location.schema
            if not (isinstance(schema, dict) and set(schema) == {"$ref"} and isinstance(schema["$ref"], str)):
                break
            if location.key in seen:
                raise SchemaError("this $ref starts a cycle of references that never reaches a schema",
                                  code="ref-cycle", pointer=where)
            seen.add(location.key)
            location = self.registry.lookup(schema["$ref"], location.base, location.pointer + "/$ref")
            enters.append(self.enters(location))
        return self.target(location, where), tuple(dict.fromkeys(enters)), len(seen)

    def lower_pending(self) -> None:
        """Lower every scheduled reference target (iteratively: no recursion through refs)."""
        assert self.registry is not None
        while True:
            while self.pending:
                location = self.pending.pop()
                if location.key in self.graph:
                    continue
                with self.in_draft(self.draft_at(location)):
                    self.check_target(location)
                    ctx = Context(location.document.uri, location.pointer, location.base)
                    self.graph[location.key] = self.node(location.schema, location.pointer, ctx)
            added = False
            for mode, anchor in sorted(self.dynamic_names):
                for location in self.dynamic_candidates(mode, anchor):
                    if location.key not in self._scheduled:
                        self.target(location, "")
                        added = True
            if not added:
                return

    def check_target(self, location: Location) -> None:
        """Preflight a reference target (it may lie in another document or an unknown keyword)."""
        if location.key in self._preflighted:
            return
        self._preflighted.add(location.key)
        preflight(location.schema, self.profile, pointer=location.pointer)  # the rules it is lowered by

    def dynamic_candidates(self, mode: str, anchor: str) -> list[Location]:
        """Every location a dynamic reference could end at: each resource's anchor of that name."""
        assert self.registry is not None
        found = []
        if mode == "dynamic":
            for resource, names in sorted(self.registry.dynamic_anchors.items()):
                if anchor in names:
                    document, _, pointer = names[anchor].partition("#")
                    found.append(self.registry.location(document, pointer))
        else:
            for resource in sorted(self.registry.recursive_anchors):
                document, pointer = self.registry.resources[resource]
                found.append(self.registry.location(document, pointer))
        return found


Lower = Callable[[Lowering, Any, dict[str, Any], str, "Context | None"], list[ir.Check]]


def lower_type(value: str | list[str]) -> tuple[str, ...]:
    names = {value} if isinstance(value, str) else set(value)
    if "number" in names:
        names.discard("integer")  # every integer is a number
    return tuple(n for n in TYPE_NAMES if n in names)


# -- one lowering per keyword -----------------------------------------------------------------
# Each takes (lowering, keyword value, whole schema object, pointer of the keyword, context).
C = Context | None
Checks = list[ir.Check]


def _enforced(lw: Lowering, keyword: str, schema: dict[str, Any]) -> bool:
    return keyword in schema and lw.profile.keyword_status(keyword) == "enforced"


def lower_properties(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    entries = tuple((name, lw.node(sub, join_pointer(where, name), ctx)) for name, sub in value.items())
    return [ir.Properties("properties", entries)] if entries else []


def lower_pattern_properties(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    from .regex import translate

    entries = tuple((source, translate(source), lw.node(sub, join_pointer(where, source), ctx))
                    for source, sub in value.items())
    return [ir.PatternProperties("patternProperties", entries)] if entries else []


def lower_required(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    return [ir.Required("required", tuple(value))] if value else []


def lower_additional_properties(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    if value is True and not _needs_annotations(lw):
        return []
    from .regex import translate

    known = tuple(schema["properties"]) if _enforced(lw, "properties", schema) else ()
    patterns = tuple(translate(p) for p in schema["patternProperties"]) if _enforced(lw, "patternProperties", schema) else ()
    return [ir.AdditionalProperties("additionalProperties", known, lw.node(value, where, ctx), patterns)]


def lower_property_names(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    return [] if value is True else [ir.PropertyNames("propertyNames", lw.node(value, where, ctx))]


# No length or count can pass sys.maxsize (len() itself cannot), so a count bound above it means
# "more than anything" and is lowered as sys.maxsize + 1: `len(x) < bound` always holds and
# `len(x) > bound` never does, exactly as with the bound written, and 1e999999999 is never made
# into a billion-digit int.
COUNT_CEILING = sys.maxsize + 1


def count_bound(value: Any) -> int:
    """A preflighted count (an integral int, float or Decimal) as an int of at most 19 digits."""
    return COUNT_CEILING if value >= COUNT_CEILING else int(value)


def lower_min_properties(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    return [ir.PropertyCount("minProperties", count_bound(value), True)] if value > 0 else []


def lower_max_properties(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    return [ir.PropertyCount("maxProperties", count_bound(value), False)]


def lower_dependent_required(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    entries = tuple((name, tuple(names)) for name, names in value.items() if names)
    return [ir.DependentRequired("dependentRequired", entries)] if entries else []


def lower_dependent_schemas(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    entries = tuple((name, lw.node(sub, join_pointer(where, name), ctx)) for name, sub in value.items())
    return [ir.DependentSchemas("dependentSchemas", entries)] if entries else []


def lower_dependencies(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    """Draft 4-7: an array value is dependentRequired, a schema value dependentSchemas."""
    names = tuple((n, tuple(v)) for n, v in value.items() if isinstance(v, list) and v)
    schemas = tuple((n, lw.node(v, join_pointer(where, n), ctx)) for n, v in value.items() if not isinstance(v, list))
    checks: Checks = []
    if names:
        checks.append(ir.DependentRequired("dependencies", names))
    if schemas:
        checks.append(ir.DependentSchemas("dependencies", schemas))
    return checks


def lower_prefix_items(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    return [ir.PrefixItems("prefixItems", lw.nodes(value, where, ctx))]


def lower_items(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    if isinstance(value, list):  # the array form, before 2020-12
        return [ir.PrefixItems("items", lw.nodes(value, where, ctx))]
    if value is True and not _needs_annotations(lw):
        return []
    start = len(schema["prefixItems"]) if _enforced(lw, "prefixItems", schema) else 0
    return [ir.Items("items", start, lw.node(value, where, ctx))]


def lower_additional_items(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    items = schema.get("items")
    if (value is True and not _needs_annotations(lw)) or not isinstance(items, list) or not _enforced(lw, "items", schema):
        return []  # additionalItems means something only after an array of items
    return [ir.Items("additionalItems", len(items), lw.node(value, where, ctx))]


def lower_contains(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    minimum, maximum, min_keyword = 1, None, "contains"
    if _enforced(lw, "minContains", schema):
        minimum, min_keyword = count_bound(schema["minContains"]), "minContains"
    if _enforced(lw, "maxContains", schema):
        maximum = count_bound(schema["maxContains"])
    annotates = lw.draft is not None and lw.draft >= 2020
    return [ir.Contains("contains", lw.node(value, where, ctx), minimum, maximum, min_keyword, annotates)]


def lower_if(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    parent = where.rsplit("/", 1)[0]
    then = lw.node(schema["then"], join_pointer(parent, "then"), ctx) if _enforced(lw, "then", schema) else None
    otherwise = lw.node(schema["else"], join_pointer(parent, "else"), ctx) if _enforced(lw, "else", schema) else None
    if then is None and otherwise is None and not _needs_annotations(lw):
        return []  # `if` alone decides nothing
    return [ir.IfThenElse("if", lw.node(value, where, ctx), then, otherwise)]


def _needs_annotations(lw: Lowering) -> bool:
    return lw.draft is not None and lw.draft >= 2019


def lower_unevaluated_properties(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    return [ir.Unevaluated("unevaluatedProperties", lw.node(value, where, ctx))]


def lower_unevaluated_items(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    return [ir.UnevaluatedItems("unevaluatedItems", lw.node(value, where, ctx))]


def lower_min_items(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    return [ir.ItemCount("minItems", count_bound(value), True)] if value > 0 else []


def lower_max_items(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    return [ir.ItemCount("maxItems", count_bound(value), False)]


def lower_unique_items(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    return [ir.UniqueItems("uniqueItems")] if value else []


def lower_min_length(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    return [ir.StringLength("minLength", count_bound(value), True)] if value > 0 else []


def lower_max_length(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    return [ir.StringLength("maxLength", count_bound(value), False)]


def lower_pattern(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    from .regex import translate

    return [ir.Pattern("pattern", value, translate(value))]


def _bound(keyword: str, op: str, draft4_flag: str | None = None) -> Lower:
    def lower_bound(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
        if isinstance(value, bool):
            return []  # draft 4's exclusiveMaximum/exclusiveMinimum flags: read by their bound
        chosen = op
        if draft4_flag is not None and lw.draft == 4 and schema.get(draft4_flag) is True:
            chosen = op[0]  # ">=" becomes ">", "<=" becomes "<"
        return [ir.NumberBound(keyword, normalize_number(value), chosen)]

    lower_bound.__name__ = f"lower_{keyword}"
    return lower_bound


def lower_multiple_of(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    return [ir.MultipleOf("multipleOf", normalize_number(value))]


def lower_enum(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    return [ir.Enum("enum", tuple(value), canonical(value))]


def lower_const(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    return [ir.Enum("const", (value,), canonical([value]))]


def lower_all_of(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    return [ir.AllOf("allOf", lw.nodes(value, where, ctx))]


def lower_any_of(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    return [ir.AnyOf("anyOf", lw.nodes(value, where, ctx))]


def lower_one_of(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    return [ir.OneOf("oneOf", lw.nodes(value, where, ctx))]


def lower_not(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    return [ir.Not("not", lw.node(value, where, ctx))]


def lower_ref(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    assert lw.registry is not None and ctx is not None
    location = lw.registry.lookup(value, ctx.base, where)
    key, enters, hops = lw.follow(location, where)
    return [ir.Ref("$ref", key, where, enter=enters, hops=hops, absolute=lw.absolute(key))]


def lower_dynamic_ref(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    """$dynamicRef: static unless its target is a $dynamicAnchor of the same name, in which case
    the outermost resource in the dynamic scope with that anchor is chosen at run time."""
    assert lw.registry is not None and ctx is not None
    location = lw.registry.lookup(value, ctx.base, where)
    key, enters, hops = lw.follow(location, where)
    fragment = value.partition("#")[2]
    target = location.schema
    if fragment and not fragment.startswith("/") and isinstance(target, dict) and target.get("$dynamicAnchor") == fragment:
        lw.dynamic_names.add(("dynamic", fragment))
        return [ir.Ref("$dynamicRef", key, where, "dynamic", fragment, enters, hops)]
    return [ir.Ref("$dynamicRef", key, where, enter=enters, hops=hops, absolute=lw.absolute(key))]


def lower_recursive_ref(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    """$recursiveRef (2019-09): like "#", unless that target has $recursiveAnchor: true."""
    assert lw.registry is not None and ctx is not None
    location = lw.registry.lookup(value, ctx.base, where)
    key, enters, hops = lw.follow(location, where)
    target = location.schema
    if isinstance(target, dict) and target.get("$recursiveAnchor") is True:
        lw.dynamic_names.add(("recursive", ""))
        return [ir.Ref("$recursiveRef", key, where, "recursive", enter=enters, hops=hops)]
    return [ir.Ref("$recursiveRef", key, where, enter=enters, hops=hops, absolute=lw.absolute(key))]


def _nothing(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C) -> Checks:
    """Keywords read by a sibling's lowering (then/else by if, minContains by contains)."""
    return []


LOWERINGS: dict[str, Lower] = {
    "properties": lower_properties,
    "patternProperties": lower_pattern_properties,
    "required": lower_required,
    "additionalProperties": lower_additional_properties,
    "propertyNames": lower_property_names,
    "minProperties": lower_min_properties,
    "maxProperties": lower_max_properties,
    "dependentRequired": lower_dependent_required,
    "dependentSchemas": lower_dependent_schemas,
    "dependencies": lower_dependencies,
    "prefixItems": lower_prefix_items,
    "items": lower_items,
    "additionalItems": lower_additional_items,
    "contains": lower_contains,
    "minContains": _nothing,
    "maxContains": _nothing,
    "minItems": lower_min_items,
    "maxItems": lower_max_items,
    "uniqueItems": lower_unique_items,
    "unevaluatedProperties": lower_unevaluated_properties,
    "unevaluatedItems": lower_unevaluated_items,
    "minLength": lower_min_length,
    "maxLength": lower_max_length,
    "pattern": lower_pattern,
    "minimum": _bound("minimum", ">=", "exclusiveMinimum"),
    "maximum": _bound("maximum", "<=", "exclusiveMaximum"),
    "exclusiveMinimum": _bound("exclusiveMinimum", ">"),
    "exclusiveMaximum": _bound("exclusiveMaximum", "<"),
    "multipleOf": lower_multiple_of,
    "enum": lower_enum,
    "const": lower_const,
    "allOf": lower_all_of,
    "anyOf": lower_any_of,
    "oneOf": lower_one_of,
    "not": lower_not,
    "if": lower_if,
    "then": _nothing,
    "else": _nothing,
    "$ref": lower_ref,
    "$dynamicRef": lower_dynamic_ref,
    "$recursiveRef": lower_recursive_ref,
}


def lower(schema: Any, profile: Profile, pointer: str = "") -> ir.Node:
    """The IR of a preflighted schema of a profile without references."""
    return Lowering(profile).node(schema, pointer)
