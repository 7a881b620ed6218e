"""The reference interpreter of the full drafts: 2020-12, 2019-09, 7, 6 and 4.

Like `reference.py` (and python-jsonschema's `_keywords.py`) it walks the raw schema, one small
function per keyword yielding what it finds. It shares only the leaf primitives (JSON equality,
exact number tests, regex translation) and the resolver (`resolve.Registry`) with the compiler,
never the lowering. It defines the meaning of the draft profiles, so it is plain, not fast.

What a keyword function yields:
- `Error`: a failed assertion, at (instance location, keyword location);
- `Evaluated`: an annotation, the property names / item indices of *this* instance that the
  keyword evaluated (for unevaluatedProperties / unevaluatedItems).
A function that descends into a child instance (properties, items, ...) passes on the child's
errors only; an in-place applicator (allOf, $ref, ...) passes on a subschema's annotations only
when that subschema is valid. `descend` runs unevaluatedItems / unevaluatedProperties last, with
the annotations its sibling keywords produced.

Where the evaluation stands in the schema is a `Here`: the document and JSON pointer of the
current schema, the dialect there (draft, and whether the validation vocabulary is on), and the
dynamic scope: the schema resources entered so far, outermost first. A resource is entered when
evaluation reaches a location that is a resource root, and when a $ref / $dynamicRef /
$recursiveRef leads to a location inside it (not only to its root).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Iterator, Mapping, Union
from urllib.parse import urldefrag

from .. import primitives as p
from ..regex import compile_pattern
from ..errors import SchemaError, join_pointer
from .profiles import Error
from ..resolve import META_SCHEMAS, Location, Registry, draft_number, normalize_meta_uri

__all__ = ["DraftReference", "Error", "Evaluated"]


@dataclass(frozen=True)
class Evaluated:
    """An annotation: these property names / item indices of the current instance were evaluated."""

    properties: frozenset[str] = frozenset()
    items: frozenset[int] = frozenset()


Result = Union[Error, Evaluated]
Results = Iterator[Result]


@dataclass(frozen=True)
class Here:
    """The location of the schema being evaluated, the dynamic scope, and the dialect in force."""

    document: str
    pointer: str
    scope: tuple[str, ...] = ()
    draft: int = 2020  # 4, 6, 7, 2019 or 2020 (set by `descend` from the location)
    validation: bool = True  # False when a custom meta-schema's $vocabulary leaves validation out

    def down(self, *tokens: str | int) -> Here:
        return replace(self, pointer=join_pointer(self.pointer, *tokens))


# The keywords of the validation vocabulary (2019-09 and 2020-12): no-ops under a meta-schema whose
# $vocabulary does not name it.
VALIDATION_VOCABULARIES = {
    "https://json-schema.org/draft/2020-12/vocab/validation",
    "https://json-schema.org/draft/2019-09/vocab/validation",
}
VALIDATION_KEYWORDS = {
    "type",
    "enum",
    "const",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
    "required",
    "dependentRequired",
}
UNEVALUATED = ("unevaluatedItems", "unevaluatedProperties")


class DraftReference:
    """A validator that interprets `schema` under `draft` ("draft2020-12", ..., "draft4").

    `registry` maps URIs to further schema documents that `$ref` may name; `base_uri` is the URI of
    the schema itself. An unresolvable `$ref` raises SchemaError when evaluation reaches it.
    """

    def __init__(
        self,
        schema: Any,
        draft: str,
        *,
        registry: Mapping[str, Any] | None = None,
        base_uri: str = "",
    ) -> None:
        draft_number(draft)  # KeyError for an unknown draft name
        self.registry = Registry(draft=draft, supplied=registry or {})
        self.document = self.registry.add(base_uri, schema)
        self.schema = schema
        self._dialects: dict[str, tuple[int, bool]] = {}

    # -- entry points ---------------------------------------------------------------------------
    def errors(self, instance: Any) -> list[Error]:
        return [
            r
            for r in self.descend(self.schema, instance, "", "", self._root())
            if isinstance(r, Error)
        ]

    def is_valid(self, instance: Any) -> bool:
        return not any(
            isinstance(r, Error) for r in self.descend(self.schema, instance, "", "", self._root())
        )

    def _root(self) -> Here:
        return Here(self.document.uri, "")

    # -- the walk -------------------------------------------------------------------------------
    def descend(self, schema: Any, instance: Any, ip: str, kp: str, at: Here) -> Results:
        """Errors and annotations of `instance` (at `ip`) against `schema` (reached by `kp`, at `at`)."""
        if schema is True:
            return
        if schema is False:
            yield Error(f"False schema does not allow {p.short_repr(instance)}", ip, kp)
            return
        if not isinstance(schema, dict):
            return  # not a schema: nothing to apply
        at = self.arrive(at)
        table = KEYWORDS[at.draft]
        words: Iterable[tuple[str, Any]] = schema.items()
        if at.draft <= 7 and "$ref" in schema:
            words = [("$ref", schema["$ref"])]  # before 2019-09, $ref's siblings are ignored
        properties: set[str] = set()
        items: set[int] = set()
        for keyword, value in words:
            function = table.get(keyword)
            if function is None or (not at.validation and keyword in VALIDATION_KEYWORDS):
                continue
            for result in function(
                self, value, instance, schema, ip, join_pointer(kp, keyword), at
            ):
                if isinstance(result, Evaluated):
                    properties |= result.properties
                    items |= result.items
                yield result
        if at.draft >= 2019:
            seen = Evaluated(frozenset(properties), frozenset(items))
            for keyword in UNEVALUATED:
                if keyword in schema:
                    yield from UNEVALUATED_KEYWORDS[keyword](
                        self,
                        schema[keyword],
                        instance,
                        schema,
                        ip,
                        join_pointer(kp, keyword),
                        at,
                        seen,
                    )

    def arrive(self, at: Here) -> Here:
        """`at` with the resource at this location (if any) entered, and its dialect."""
        key = at.document + "#" + at.pointer
        draft, validation = self.dialect(at.document, at.pointer)
        scope = at.scope
        resource = self.registry.resource_of.get(key)
        if resource is not None:
            scope = scope + (resource,)
        return replace(at, scope=scope, draft=draft, validation=validation)

    def dialect(self, document: str, pointer: str) -> tuple[int, bool]:
        """(draft number, validation vocabulary on?) at a location: the document's draft, changed by
        every `$schema` on the way down to the location."""
        key = document + "#" + pointer
        if key not in self._dialects:
            doc = self.registry.documents[document]
            draft, validation = draft_number(doc.draft), True
            node = doc.value
            walked = ""
            tokens = pointer.split("/")[1:] if pointer else []
            for token in [None, *tokens]:
                if token is not None:
                    token = token.replace("~1", "/").replace("~0", "~")
                    walked = join_pointer(walked, token)
                    node = node[int(token)] if isinstance(node, list) else node[token]
                if isinstance(node, dict) and isinstance(node.get("$schema"), str):
                    draft, validation = self._meta_dialect(node["$schema"], draft, document, walked)
            self._dialects[key] = (draft, validation)
        return self._dialects[key]

    def _meta_dialect(self, meta: str, draft: int, document: str, pointer: str) -> tuple[int, bool]:
        known = META_SCHEMAS.get(normalize_meta_uri(meta))
        if known is not None:
            return draft_number(known), True
        if draft < 2019:
            return draft, True
        try:
            found = self.registry.lookup(meta, "", join_pointer(pointer, "$schema"))
        except SchemaError:
            return draft, True  # an unknown meta-schema: no vocabulary information
        vocabulary = found.schema.get("$vocabulary") if isinstance(found.schema, dict) else None
        if not isinstance(vocabulary, dict):
            return draft, True
        return draft, any(uri in vocabulary for uri in VALIDATION_VOCABULARIES)

    # -- helpers for keyword functions ------------------------------------------------------------
    def child(self, schema: Any, instance: Any, ip: str, kp: str, at: Here) -> Iterator[Error]:
        """The errors of a child instance (an item, a property value, a name): its annotations are
        about the child, not about the current instance, so they are dropped."""
        for result in self.descend(schema, instance, ip, kp, at):
            if isinstance(result, Error):
                yield result

    def outcome(
        self, schema: Any, instance: Any, ip: str, kp: str, at: Here
    ) -> tuple[list[Error], list[Evaluated]]:
        errors: list[Error] = []
        annotations: list[Evaluated] = []
        for result in self.descend(schema, instance, ip, kp, at):
            if isinstance(result, Error):
                errors.append(result)
            else:
                annotations.append(result)
        return errors, annotations

    def in_place(self, schema: Any, instance: Any, ip: str, kp: str, at: Here) -> Results:
        """A subschema applied to the same instance: its errors, or its annotations if it is valid."""
        errors, annotations = self.outcome(schema, instance, ip, kp, at)
        yield from errors or annotations

    def valid(self, schema: Any, instance: Any, ip: str, kp: str, at: Here) -> bool:
        return not any(isinstance(r, Error) for r in self.descend(schema, instance, ip, kp, at))

    def base(self, at: Here) -> str:
        return self.registry.location(at.document, at.pointer).base

    def follow(self, keyword: str, reference: str, at: Here) -> tuple[Any, Here]:
        """Where a reference (`keyword` is $ref, $dynamicRef or $recursiveRef) leads, statically.
        Following it enters the resource the target lies in, even when the target is not that
        resource's root (the suite's "$dynamicRef avoids the root of each schema, but scopes are
        still registered"); `descend` enters a resource root by itself."""
        base = self.base(at)
        where = join_pointer(at.pointer, keyword)
        target = self.registry.lookup(reference, base, where)
        return self.enter(target, at.scope)

    def enter(self, location: Location, scope: tuple[str, ...]) -> tuple[Any, Here]:
        """The schema at `location` and where evaluation stands there, coming from `scope`."""
        if location.key not in self.registry.resource_of:
            scope = scope + (urldefrag(location.base)[0],)
        return location.schema, Here(location.document.uri, location.pointer, scope)


Keyword = Callable[[DraftReference, Any, Any, dict[str, Any], str, str, Here], Results]


def _is(instance: Any, kind: str) -> bool:
    return p.kind(instance) == kind


def _sibling(kp: str, keyword: str) -> str:
    """The keyword location of a sibling keyword (kp ends with this keyword's own token)."""
    return kp.rsplit("/", 1)[0] + "/" + keyword


# -- assertions -----------------------------------------------------------------------------------
def _has_type(instance: Any, name: str, draft: int) -> bool:
    if name == "integer" and draft == 4:  # draft 4: an integer is written without a fraction
        return _is(instance, "number") and isinstance(instance, int)
    return p.is_type(instance, name)


def type_(
    r: DraftReference, types: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str, at: Here
) -> Results:
    names = [types] if isinstance(types, str) else types
    if not any(_has_type(instance, name, at.draft) for name in names):
        yield Error(
            f"{p.short_repr(instance)} is not of type {', '.join(map(repr, names))}", ip, kp
        )


def enum(
    r: DraftReference,
    values: Any,
    instance: Any,
    schema: dict[str, Any],
    ip: str,
    kp: str,
    at: Here,
) -> Results:
    if not any(p.json_equal(instance, v) for v in values):
        yield Error(f"{p.short_repr(instance)} is not one of the enum values", ip, kp)


def const(
    r: DraftReference, value: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str, at: Here
) -> Results:
    if not p.json_equal(instance, value):
        yield Error(f"{p.short_repr(instance)} is not the const value", ip, kp)


def multiple_of(
    r: DraftReference,
    divisor: Any,
    instance: Any,
    schema: dict[str, Any],
    ip: str,
    kp: str,
    at: Here,
) -> Results:
    if _is(instance, "number") and not p.is_multiple(instance, divisor):
        yield Error(f"{p.short_repr(instance)} is not a multiple of {divisor}", ip, kp)


def minimum(
    r: DraftReference, bound: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str, at: Here
) -> Results:
    exclusive = at.draft == 4 and schema.get("exclusiveMinimum") is True
    if _is(instance, "number") and p.compare(instance, bound) not in (
        (1,) if exclusive else (0, 1)
    ):
        words = "less than or equal to" if exclusive else "less than"
        yield Error(f"{p.short_repr(instance)} is {words} the minimum of {bound}", ip, kp)


def maximum(
    r: DraftReference, bound: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str, at: Here
) -> Results:
    exclusive = at.draft == 4 and schema.get("exclusiveMaximum") is True
    if _is(instance, "number") and p.compare(instance, bound) not in (
        (-1,) if exclusive else (-1, 0)
    ):
        words = "greater than or equal to" if exclusive else "greater than"
        yield Error(f"{p.short_repr(instance)} is {words} the maximum of {bound}", ip, kp)


def exclusive_minimum(
    r: DraftReference, bound: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str, at: Here
) -> Results:
    if _is(instance, "number") and p.compare(instance, bound) != 1:
        yield Error(
            f"{p.short_repr(instance)} is less than or equal to the minimum of {bound}", ip, kp
        )


def exclusive_maximum(
    r: DraftReference, bound: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str, at: Here
) -> Results:
    if _is(instance, "number") and p.compare(instance, bound) != -1:
        yield Error(
            f"{p.short_repr(instance)} is greater than or equal to the maximum of {bound}", ip, kp
        )


def min_length(
    r: DraftReference, bound: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str, at: Here
) -> Results:
    if _is(instance, "string") and len(instance) < bound:
        yield Error(f"{p.short_repr(instance)} is too short", ip, kp)


def max_length(
    r: DraftReference, bound: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str, at: Here
) -> Results:
    if _is(instance, "string") and len(instance) > bound:
        yield Error(f"{p.short_repr(instance)} is too long", ip, kp)


def pattern(
    r: DraftReference,
    source: Any,
    instance: Any,
    schema: dict[str, Any],
    ip: str,
    kp: str,
    at: Here,
) -> Results:
    if _is(instance, "string") and compile_pattern(source).search(str(instance)) is None:
        yield Error(f"{p.short_repr(instance)} does not match {source!r}", ip, kp)


def min_items(
    r: DraftReference, bound: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str, at: Here
) -> Results:
    if _is(instance, "array") and len(instance) < bound:
        yield Error(f"{p.short_repr(instance)} is too short", ip, kp)


def max_items(
    r: DraftReference, bound: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str, at: Here
) -> Results:
    if _is(instance, "array") and len(instance) > bound:
        yield Error(f"{p.short_repr(instance)} is too long", ip, kp)


def unique_items(
    r: DraftReference,
    unique: Any,
    instance: Any,
    schema: dict[str, Any],
    ip: str,
    kp: str,
    at: Here,
) -> Results:
    if unique is not True or not _is(instance, "array"):
        return
    for i in range(len(instance)):
        for j in range(i + 1, len(instance)):
            if p.json_equal(instance[i], instance[j]):
                yield Error(f"{p.short_repr(instance)} has non-unique elements", ip, kp)
                return


def min_properties(
    r: DraftReference, bound: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str, at: Here
) -> Results:
    if _is(instance, "object") and len(instance) < bound:
        yield Error(f"{p.short_repr(instance)} does not have enough properties", ip, kp)


def max_properties(
    r: DraftReference, bound: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str, at: Here
) -> Results:
    if _is(instance, "object") and len(instance) > bound:
        yield Error(f"{p.short_repr(instance)} has too many properties", ip, kp)


def required(
    r: DraftReference, names: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str, at: Here
) -> Results:
    if not _is(instance, "object"):
        return
    for name in names:
        if name not in instance:
            yield Error(f"{name!r} is a required property", ip, kp)


def dependent_required(
    r: DraftReference, value: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str, at: Here
) -> Results:
    if not _is(instance, "object"):
        return
    for name, needs in value.items():
        if name in instance:
            for need in needs:
                if need not in instance:
                    yield Error(f"{need!r} is a dependency of {name!r}", ip, kp)


# -- applicators on child instances -----------------------------------------------------------------
def properties(
    r: DraftReference, props: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str, at: Here
) -> Results:
    if not _is(instance, "object"):
        return
    for name, sub in props.items():
        if name in instance:
            yield from r.child(
                sub,
                instance[name],
                join_pointer(ip, name),
                join_pointer(kp, name),
                at.down("properties", name),
            )
    yield Evaluated(properties=frozenset(name for name in props if name in instance))


def pattern_properties(
    r: DraftReference,
    patterns: Any,
    instance: Any,
    schema: dict[str, Any],
    ip: str,
    kp: str,
    at: Here,
) -> Results:
    if not _is(instance, "object"):
        return
    covered = set()
    for source, sub in patterns.items():
        for key in instance:
            if isinstance(key, str) and compile_pattern(source).search(key) is not None:
                covered.add(key)
                yield from r.child(
                    sub,
                    instance[key],
                    join_pointer(ip, key),
                    join_pointer(kp, source),
                    at.down("patternProperties", source),
                )
    yield Evaluated(properties=frozenset(covered))


def additional_properties(
    r: DraftReference, extra: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str, at: Here
) -> Results:
    if not _is(instance, "object"):
        return
    known = schema.get("properties", {})
    patterns = schema.get("patternProperties", {})
    covered = set()
    for key in instance:
        if key in known or (isinstance(key, str)
                            and any(compile_pattern(source).search(key) is not None for source in patterns)):
            continue
        covered.add(key)
        if extra is False:
            yield Error(f"additional property {key!r} is not allowed", join_pointer(ip, key), kp)
        else:
            yield from r.child(
                extra, instance[key], join_pointer(ip, key), kp, at.down("additionalProperties")
            )
    yield Evaluated(properties=frozenset(covered))


def property_names(
    r: DraftReference, sub: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str, at: Here
) -> Results:
    if not _is(instance, "object"):
        return
    for key in instance:
        yield from r.child(sub, key, ip, kp, at.down("propertyNames"))


def prefix_items(
    r: DraftReference,
    schemas: Any,
    instance: Any,
    schema: dict[str, Any],
    ip: str,
    kp: str,
    at: Here,
) -> Results:
    if not _is(instance, "array"):
        return
    for index, (sub, item) in enumerate(zip(schemas, instance)):
        yield from r.child(
            sub,
            item,
            join_pointer(ip, index),
            join_pointer(kp, index),
            at.down("prefixItems", index),
        )
    yield Evaluated(items=frozenset(range(min(len(schemas), len(instance)))))


def items(
    r: DraftReference, value: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str, at: Here
) -> Results:
    if not _is(instance, "array"):
        return
    if isinstance(value, list):
        if at.draft >= 2020:
            return  # 2020-12: the array form is prefixItems
        for index, (sub, item) in enumerate(zip(value, instance)):
            yield from r.child(
                sub, item, join_pointer(ip, index), join_pointer(kp, index), at.down("items", index)
            )
        yield Evaluated(items=frozenset(range(min(len(value), len(instance)))))
        return
    start = 0
    if at.draft >= 2020 and isinstance(schema.get("prefixItems"), list):
        start = len(schema["prefixItems"])
    for index in range(start, len(instance)):
        yield from r.child(value, instance[index], join_pointer(ip, index), kp, at.down("items"))
    yield Evaluated(items=frozenset(range(start, len(instance))))


def additional_items(
    r: DraftReference, extra: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str, at: Here
) -> Results:
    prefix = schema.get("items")
    if not _is(instance, "array") or not isinstance(prefix, list):
        return  # without an array of items, additionalItems does nothing
    for index in range(len(prefix), len(instance)):
        if extra is False:
            yield Error(f"additional item {index} is not allowed", join_pointer(ip, index), kp)
        else:
            yield from r.child(
                extra, instance[index], join_pointer(ip, index), kp, at.down("additionalItems")
            )
    yield Evaluated(items=frozenset(range(len(prefix), len(instance))))


def contains(
    r: DraftReference, sub: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str, at: Here
) -> Results:
    if not _is(instance, "array"):
        return
    matched = [
        i
        for i, item in enumerate(instance)
        if r.valid(sub, item, join_pointer(ip, i), kp, at.down("contains"))
    ]
    if at.draft >= 2020:
        yield Evaluated(items=frozenset(matched))
    counted = at.draft >= 2019 and at.validation  # minContains / maxContains exist and apply
    low = schema.get("minContains", 1) if counted else 1
    high = schema.get("maxContains") if counted else None
    if len(matched) < low:
        where = "minContains" if counted and "minContains" in schema else "contains"
        yield Error(
            f"{p.short_repr(instance)} has {len(matched)} matching items, fewer than {low}",
            ip,
            _sibling(kp, where),
        )
    if high is not None and len(matched) > high:
        yield Error(
            f"{p.short_repr(instance)} has {len(matched)} matching items, more than {high}",
            ip,
            _sibling(kp, "maxContains"),
        )


def unevaluated_properties(
    r: DraftReference,
    extra: Any,
    instance: Any,
    schema: dict[str, Any],
    ip: str,
    kp: str,
    at: Here,
    seen: Evaluated,
) -> Results:
    if not _is(instance, "object"):
        return
    for key in instance:
        if key in seen.properties:
            continue
        if extra is False:
            yield Error(f"unevaluated property {key!r} is not allowed", join_pointer(ip, key), kp)
        else:
            yield from r.child(
                extra, instance[key], join_pointer(ip, key), kp, at.down("unevaluatedProperties")
            )
    yield Evaluated(properties=frozenset(instance))


def unevaluated_items(
    r: DraftReference,
    extra: Any,
    instance: Any,
    schema: dict[str, Any],
    ip: str,
    kp: str,
    at: Here,
    seen: Evaluated,
) -> Results:
    if not _is(instance, "array"):
        return
    for index in range(len(instance)):
        if index in seen.items:
            continue
        if extra is False:
            yield Error(f"unevaluated item {index} is not allowed", join_pointer(ip, index), kp)
        else:
            yield from r.child(
                extra, instance[index], join_pointer(ip, index), kp, at.down("unevaluatedItems")
            )
    yield Evaluated(items=frozenset(range(len(instance))))


# -- in-place applicators ------------------------------------------------------------------------
def all_of(
    r: DraftReference,
    schemas: Any,
    instance: Any,
    schema: dict[str, Any],
    ip: str,
    kp: str,
    at: Here,
) -> Results:
    for index, sub in enumerate(schemas):
        yield from r.in_place(sub, instance, ip, join_pointer(kp, index), at.down("allOf", index))


def any_of(
    r: DraftReference,
    schemas: Any,
    instance: Any,
    schema: dict[str, Any],
    ip: str,
    kp: str,
    at: Here,
) -> Results:
    valid = False
    for index, sub in enumerate(schemas):
        errors, annotations = r.outcome(
            sub, instance, ip, join_pointer(kp, index), at.down("anyOf", index)
        )
        if not errors:
            valid = True
            yield from annotations
    if not valid:
        yield Error(f"{p.short_repr(instance)} is not valid under any of the given schemas", ip, kp)


def one_of(
    r: DraftReference,
    schemas: Any,
    instance: Any,
    schema: dict[str, Any],
    ip: str,
    kp: str,
    at: Here,
) -> Results:
    passed = []
    for index, sub in enumerate(schemas):
        errors, annotations = r.outcome(
            sub, instance, ip, join_pointer(kp, index), at.down("oneOf", index)
        )
        if not errors:
            passed.append(annotations)
    if len(passed) != 1:
        yield Error(
            f"{p.short_repr(instance)} is valid under {len(passed)} of the given schemas, not exactly one",
            ip,
            kp,
        )
        return
    yield from passed[0]


def not_(
    r: DraftReference, sub: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str, at: Here
) -> Results:
    if r.valid(sub, instance, ip, kp, at.down("not")):
        yield Error(f"{p.short_repr(instance)} should not be valid under the schema in not", ip, kp)


def if_(
    r: DraftReference,
    condition: Any,
    instance: Any,
    schema: dict[str, Any],
    ip: str,
    kp: str,
    at: Here,
) -> Results:
    errors, annotations = r.outcome(condition, instance, ip, kp, at.down("if"))
    branch = "else" if errors else "then"
    if not errors:
        yield from annotations
    if branch in schema:
        yield from r.in_place(schema[branch], instance, ip, _sibling(kp, branch), at.down(branch))


def dependent_schemas(
    r: DraftReference, value: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str, at: Here
) -> Results:
    if not _is(instance, "object"):
        return
    for name, sub in value.items():
        if name in instance:
            yield from r.in_place(
                sub, instance, ip, join_pointer(kp, name), at.down("dependentSchemas", name)
            )


def dependencies(
    r: DraftReference, value: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str, at: Here
) -> Results:
    if not _is(instance, "object"):
        return
    for name, dependency in value.items():
        if name not in instance:
            continue
        if isinstance(dependency, list):
            for need in dependency:
                if need not in instance:
                    yield Error(f"{need!r} is a dependency of {name!r}", ip, kp)
        else:
            yield from r.in_place(
                dependency, instance, ip, join_pointer(kp, name), at.down("dependencies", name)
            )


def ref(
    r: DraftReference,
    reference: Any,
    instance: Any,
    schema: dict[str, Any],
    ip: str,
    kp: str,
    at: Here,
) -> Results:
    if not isinstance(reference, str):
        return
    target, there = r.follow("$ref", reference, at)
    yield from r.in_place(target, instance, ip, kp, there)


def dynamic_ref(
    r: DraftReference,
    reference: Any,
    instance: Any,
    schema: dict[str, Any],
    ip: str,
    kp: str,
    at: Here,
) -> Results:
    """2020-12: resolve statically; if that lands on a `$dynamicAnchor` of the fragment's name, the
    outermost resource in the dynamic scope with a `$dynamicAnchor` of that name wins."""
    if not isinstance(reference, str):
        return
    target, there = r.follow("$dynamicRef", reference, at)
    name = urldefrag(reference)[1]
    if (
        name
        and not name.startswith("/")
        and isinstance(target, dict)
        and target.get("$dynamicAnchor") == name
    ):
        for resource in at.scope:
            key = r.registry.dynamic_anchors.get(resource, {}).get(name)
            if key is not None:
                document, _, pointer = key.partition("#")
                target, there = r.enter(r.registry.location(document, pointer), at.scope)
                break
    yield from r.in_place(target, instance, ip, kp, there)


def recursive_ref(
    r: DraftReference,
    reference: Any,
    instance: Any,
    schema: dict[str, Any],
    ip: str,
    kp: str,
    at: Here,
) -> Results:
    """2019-09: resolve against the current base; if the target has `$recursiveAnchor: true`, walk
    the dynamic scope outward from the innermost resource while each resource's root has
    `$recursiveAnchor: true`, and take the last one (python-jsonschema's reading)."""
    if not isinstance(reference, str):
        return
    target, there = r.follow("$recursiveRef", reference, at)
    if isinstance(target, dict) and target.get("$recursiveAnchor") is True:
        for resource in reversed(at.scope):
            if resource not in r.registry.recursive_anchors:
                break
            target, there = r.enter(r.registry.location(*r.registry.resources[resource]), at.scope)
    yield from r.in_place(target, instance, ip, kp, there)


# -- the keywords of each draft -------------------------------------------------------------------
_DRAFT4: dict[str, Keyword] = {
    "type": type_,
    "enum": enum,
    "multipleOf": multiple_of,
    "maximum": maximum,  # with draft 4's boolean exclusiveMaximum
    "minimum": minimum,  # with draft 4's boolean exclusiveMinimum
    "maxLength": max_length,
    "minLength": min_length,
    "pattern": pattern,
    "items": items,
    "additionalItems": additional_items,
    "maxItems": max_items,
    "minItems": min_items,
    "uniqueItems": unique_items,
    "maxProperties": max_properties,
    "minProperties": min_properties,
    "required": required,
    "properties": properties,
    "patternProperties": pattern_properties,
    "additionalProperties": additional_properties,
    "dependencies": dependencies,
    "allOf": all_of,
    "anyOf": any_of,
    "oneOf": one_of,
    "not": not_,
    "$ref": ref,
}
_DRAFT6 = {
    **_DRAFT4,
    "const": const,
    "contains": contains,
    "propertyNames": property_names,
    "exclusiveMaximum": exclusive_maximum,
    "exclusiveMinimum": exclusive_minimum,
}
_DRAFT7 = {**_DRAFT6, "if": if_}
_DRAFT2019 = {
    **{k: v for k, v in _DRAFT7.items() if k != "dependencies"},
    "dependentRequired": dependent_required,
    "dependentSchemas": dependent_schemas,
    "$recursiveRef": recursive_ref,
}
_DRAFT2020 = {
    **{k: v for k, v in _DRAFT2019.items() if k not in ("additionalItems", "$recursiveRef")},
    "prefixItems": prefix_items,
    "$dynamicRef": dynamic_ref,
}
KEYWORDS: dict[int, dict[str, Keyword]] = {
    4: _DRAFT4,
    6: _DRAFT6,
    7: _DRAFT7,
    2019: _DRAFT2019,
    2020: _DRAFT2020,
}

# Run last in `descend`, with the annotations of their siblings (2019-09 and 2020-12).
UNEVALUATED_KEYWORDS = {
    "unevaluatedItems": unevaluated_items,
    "unevaluatedProperties": unevaluated_properties,
}
