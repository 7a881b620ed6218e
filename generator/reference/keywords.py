"""One small function per keyword, in the shape of python-jsonschema's `_keywords.py`.

Each is called as `f(v, value, instance, schema, ip, kp, at)`: the walk (`v`, validator.py), the
keyword's value, the instance, the schema holding the keyword, the instance location, the keyword
location, and where evaluation stands (`at`: a validator.Here). It yields Errors and, for an
applicator, Evaluated annotations (results.py). Instances of another type than the keyword's pass.
The tables in drafts.py say which function reads which keyword in which draft.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Callable
from urllib.parse import urldefrag

from .. import primitives as p
from ..errors import OptionError, join_pointer
from ..formats import CONTENT_ENCODINGS, CONTENT_MEDIA_TYPES, FORMATS, checkers, content_checker
from ..regex import plan_pattern, plan_search
from ..values import normalize_number
from .results import Evaluated, Results, branches, error, is_kind, sibling

if TYPE_CHECKING:
    from .validator import DraftReference, Here

# The JSON types in the order a type error names them.
JSON_TYPES = ("null", "boolean", "object", "array", "number", "integer", "string")


# -- any instance -----------------------------------------------------------------------------------
def has_type(instance: Any, name: str, at: Here) -> bool:
    if name == "integer" and not at.dialect.float_integers:  # draft 4: written without a fraction
        return is_kind(instance, "number") and isinstance(instance, int)
    return p.is_type(instance, name)


def type_(
    v: DraftReference, types: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    names = [types] if isinstance(types, str) else list(types)
    if any(has_type(instance, name, at) for name in names):
        return
    # the allowed types in a fixed order, "integer" left out where "number" covers it
    allowed = [n for n in JSON_TYPES if n in names and not (n == "integer" and "number" in names)]
    params = {"type": allowed[0] if len(allowed) == 1 else allowed}
    yield error("type", "type", instance, ip, kp, params)


def enum(
    v: DraftReference, values: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    if not any(p.json_equal(instance, value) for value in values):
        yield error("enum", "enum", instance, ip, kp, {"allowedValues": list(values)})


def const(
    v: DraftReference, value: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    if not p.json_equal(instance, value):
        yield error("const", "const", instance, ip, kp, {"allowedValue": value})


# -- numbers ----------------------------------------------------------------------------------------
# The signs of compare(instance, bound) that pass each relation (NaN, None, passes none).
PASSES = {">=": (0, 1), ">": (1,), "<=": (-1, 0), "<": (-1,)}


def _beyond(
    keyword: str, message: str, relation: str, bound: Any, instance: Any, ip: str, kp: str
) -> Results:
    """An error if the number does not stand to the bound as `relation` says."""
    if p.compare(instance, bound) not in PASSES[relation]:
        params = {"limit": normalize_number(bound), "comparison": relation}
        yield error(keyword, message, instance, ip, kp, params)


def minimum(
    v: DraftReference, bound: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    if isinstance(bound, bool) or not is_kind(instance, "number"):
        return
    if at.dialect.exclusive_flags and schema.get("exclusiveMinimum") is True:
        # draft 4: the flag makes the bound strict
        yield from _beyond("minimum", "minimum.exclusive", ">", bound, instance, ip, kp)
    else:
        yield from _beyond("minimum", "minimum", ">=", bound, instance, ip, kp)


def maximum(
    v: DraftReference, bound: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    if isinstance(bound, bool) or not is_kind(instance, "number"):
        return
    if at.dialect.exclusive_flags and schema.get("exclusiveMaximum") is True:
        yield from _beyond("maximum", "maximum.exclusive", "<", bound, instance, ip, kp)
    else:
        yield from _beyond("maximum", "maximum", "<=", bound, instance, ip, kp)


def exclusive_minimum(
    v: DraftReference, bound: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    # (a boolean is draft 4's flag, which `minimum` reads)
    if not isinstance(bound, bool) and is_kind(instance, "number"):
        yield from _beyond("exclusiveMinimum", "exclusiveMinimum", ">", bound, instance, ip, kp)


def exclusive_maximum(
    v: DraftReference, bound: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    if not isinstance(bound, bool) and is_kind(instance, "number"):
        yield from _beyond("exclusiveMaximum", "exclusiveMaximum", "<", bound, instance, ip, kp)


def multiple_of(
    v: DraftReference, divisor: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    if is_kind(instance, "number") and not p.is_multiple(instance, divisor):
        params = {"multipleOf": normalize_number(divisor)}
        yield error("multipleOf", "multipleOf", instance, ip, kp, params)


# -- strings ----------------------------------------------------------------------------------------
def min_length(
    v: DraftReference, bound: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    if is_kind(instance, "string") and len(instance) < bound:
        yield error("minLength", "minLength", instance, ip, kp, {"limit": normalize_number(bound)})


def max_length(
    v: DraftReference, bound: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    if is_kind(instance, "string") and len(instance) > bound:
        yield error("maxLength", "maxLength", instance, ip, kp, {"limit": normalize_number(bound)})


def search(source: str, text: str) -> bool:
    """Whether ECMA-262 pattern `source` matches somewhere in `text`, by the linear-time matcher
    where `re` could take super-linear time (no input makes a test hang)."""
    return plan_search(plan_pattern(source))(text)


def pattern(
    v: DraftReference, source: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    if is_kind(instance, "string") and not search(source, str(instance)):
        yield error("pattern", "pattern", instance, ip, kp, {"pattern": source})


def format_function(name: Any, at: Here) -> Callable[[str], Any] | None:
    """The function checking format `name` where evaluation stands: a custom format's (they win),
    else the formats library's for the draft in force; None for a format unknown there."""
    rules = at.rules
    assert rules is not None  # (set on arrival at every schema)
    if not isinstance(name, str):
        return None
    custom = rules.format_options.custom_format(name)
    if custom is not None:
        try:
            return getattr(importlib.import_module(custom.module), custom.function)  # type: ignore[no-any-return]
        except (ImportError, AttributeError) as problem:
            raise OptionError(
                f"custom format function {custom.module}:{custom.function} cannot be "
                f"imported: {problem}"
            ) from None
    spec = FORMATS.get(name)
    function = spec.checker_for(rules.draft) if spec is not None else None
    return getattr(checkers, function) if function is not None else None


def format_(
    v: DraftReference, name: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    check = format_function(name, at)
    if check is not None and is_kind(instance, "string") and not check(str(instance)):
        yield error("format", "format", instance, ip, kp, {"format": name})


def content_encoding(
    v: DraftReference, encoding: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    if encoding not in CONTENT_ENCODINGS or not is_kind(instance, "string"):
        return
    check = content_checker(encoding, None)
    if check is not None and not check(str(instance)):
        params = {"contentEncoding": encoding}
        yield error("contentEncoding", "contentEncoding", instance, ip, kp, params)


def content_media_type(
    v: DraftReference, media: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    """The media type of the string, decoded first by a contentEncoding beside it (if it asserts)."""
    encoding = schema.get("contentEncoding") if v.enforces(at, "contentEncoding") else None
    if media not in CONTENT_MEDIA_TYPES or (
        encoding is not None and encoding not in CONTENT_ENCODINGS
    ):
        return
    check = content_checker(encoding, media)
    if check is not None and is_kind(instance, "string") and not check(str(instance)):
        message = "contentMediaType" if encoding is None else "contentMediaType.decoded"
        yield error("contentMediaType", message, instance, ip, kp, {"contentMediaType": media})


# -- arrays -----------------------------------------------------------------------------------------
def prefix_items(
    v: DraftReference, schemas: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    if is_kind(instance, "array"):
        yield from _tuple(v, schemas, instance, ip, kp, at.down("prefixItems"))


def _tuple(
    v: DraftReference, schemas: list[Any], instance: list[Any], ip: str, kp: str, at: Here
) -> Results:
    """Each item against the schema at its index (prefixItems; items as an array before 2020-12)."""
    for index, (sub, item) in enumerate(zip(schemas, instance)):
        yield from v.child(
            sub, item, join_pointer(ip, index), join_pointer(kp, index), at.down(index)
        )
    yield Evaluated(items=frozenset(range(min(len(schemas), len(instance)))))


def items(
    v: DraftReference, value: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    if not is_kind(instance, "array"):
        return
    if isinstance(value, list):  # a tuple: before 2020-12 only (2020-12 spells it prefixItems)
        if at.dialect.tuple_items:
            yield from _tuple(v, value, instance, ip, kp, at.down("items"))
        return
    prefix = schema.get("prefixItems") if v.enforces(at, "prefixItems") else None
    start = len(prefix) if isinstance(prefix, list) else 0
    for index in range(start, len(instance)):
        yield from v.child(value, instance[index], join_pointer(ip, index), kp, at.down("items"))
    yield Evaluated(items=frozenset(range(start, len(instance))))


def additional_items(
    v: DraftReference, extra: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    prefix = schema.get("items")
    if not is_kind(instance, "array") or not isinstance(prefix, list):
        return  # only items given as an array leaves items for additionalItems
    for index in range(len(prefix), len(instance)):
        item = instance[index]
        yield from v.child(extra, item, join_pointer(ip, index), kp, at.down("additionalItems"))
    yield Evaluated(items=frozenset(range(len(prefix), len(instance))))


def contains(
    v: DraftReference, sub: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    """contains, with minContains and maxContains beside it (2019-09 on) read here."""
    if not is_kind(instance, "array"):
        return
    failures = {}
    for index, item in enumerate(instance):
        found = list(v.child(sub, item, join_pointer(ip, index), kp, at.down("contains")))
        if found:
            failures[index] = found
    matched = [index for index in range(len(instance)) if index not in failures]
    if at.dialect.contains_evaluates:
        yield Evaluated(items=frozenset(matched))
    at_least = v.enforces(at, "minContains") and "minContains" in schema
    low = schema["minContains"] if at_least else 1
    high = schema.get("maxContains") if v.enforces(at, "maxContains") else None
    if len(matched) < low:
        where = "minContains" if at_least else "contains"
        message = "contains.none" if not matched and low == 1 else "contains.few"
        params = {"minContains": normalize_number(low), "matches": len(matched)}
        context = branches(failures.items())
        yield error(where, message, instance, ip, sibling(kp, where), params, context)
    if high is not None and len(matched) > high:
        params = {"maxContains": normalize_number(high), "matches": len(matched)}
        yield error("maxContains", "maxContains", instance, ip, sibling(kp, "maxContains"), params)


def min_items(
    v: DraftReference, bound: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    if is_kind(instance, "array") and len(instance) < bound:
        yield error("minItems", "minItems", instance, ip, kp, {"limit": normalize_number(bound)})


def max_items(
    v: DraftReference, bound: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    if is_kind(instance, "array") and len(instance) > bound:
        yield error("maxItems", "maxItems", instance, ip, kp, {"limit": normalize_number(bound)})


def unique_items(
    v: DraftReference, unique: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    if unique is not True or not is_kind(instance, "array"):
        return
    # the first item equal to an earlier one, and the earliest of those
    for later in range(len(instance)):
        for earlier in range(later):
            if p.json_equal(instance[earlier], instance[later]):
                params = {"duplicates": [earlier, later]}
                yield error("uniqueItems", "uniqueItems", instance, ip, kp, params)
                return


# -- objects ----------------------------------------------------------------------------------------
def properties(
    v: DraftReference, props: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    if not is_kind(instance, "object"):
        return
    for name, sub in props.items():
        if name in instance:
            here = at.down("properties", name)
            yield from v.child(
                sub, instance[name], join_pointer(ip, name), join_pointer(kp, name), here
            )
    yield Evaluated(properties=frozenset(name for name in props if name in instance))


def _matches(source: str, key: Any) -> bool:
    return isinstance(key, str) and search(source, key)


def pattern_properties(
    v: DraftReference, patterns: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    if not is_kind(instance, "object"):
        return
    matched = set()
    for source, sub in patterns.items():
        for key in instance:
            if _matches(source, key):
                matched.add(key)
                here = at.down("patternProperties", source)
                yield from v.child(
                    sub, instance[key], join_pointer(ip, key), join_pointer(kp, source), here
                )
    yield Evaluated(properties=frozenset(matched))


def additional_properties(
    v: DraftReference, extra: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    if not is_kind(instance, "object"):
        return
    named = schema.get("properties", {}) if v.enforces(at, "properties") else {}
    patterns = schema.get("patternProperties", {}) if v.enforces(at, "patternProperties") else {}
    others = [
        key for key in instance if key not in named and not any(_matches(s, key) for s in patterns)
    ]
    for key in others:
        if extra is not False:
            here = at.down("additionalProperties")
            yield from v.child(extra, instance[key], join_pointer(ip, key), kp, here)
        elif patterns:
            params = {"additionalProperty": key, "patterns": list(patterns)}
            message = "additionalProperties.patterns"
            yield error(
                "additionalProperties", message, instance[key], join_pointer(ip, key), kp, params
            )
        else:
            params = {"additionalProperty": key}
            message = "additionalProperties"
            yield error(
                "additionalProperties", message, instance[key], join_pointer(ip, key), kp, params
            )
    yield Evaluated(properties=frozenset(others))


def required(
    v: DraftReference, names: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    if not is_kind(instance, "object"):
        return
    for name in names:
        if name not in instance:
            yield error("required", "required", instance, ip, kp, {"missingProperty": name})


def min_properties(
    v: DraftReference, bound: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    if is_kind(instance, "object") and len(instance) < bound:
        params = {"limit": normalize_number(bound)}
        yield error("minProperties", "minProperties", instance, ip, kp, params)


def max_properties(
    v: DraftReference, bound: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    if is_kind(instance, "object") and len(instance) > bound:
        params = {"limit": normalize_number(bound)}
        yield error("maxProperties", "maxProperties", instance, ip, kp, params)


def _missing(keyword: str, name: str, needs: list[str], instance: Any, ip: str, kp: str) -> Results:
    """Each property `name` needs that the object lacks (dependentRequired, dependencies)."""
    for need in needs:
        if need not in instance:
            params = {"missingProperty": need, "property": name}
            yield error(keyword, "dependentRequired", instance, ip, kp, params)


def dependent_required(
    v: DraftReference, value: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    if not is_kind(instance, "object"):
        return
    for name, needs in value.items():
        if name in instance:
            yield from _missing("dependentRequired", name, needs, instance, ip, kp)


def dependent_schemas(
    v: DraftReference, value: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    if not is_kind(instance, "object"):
        return
    for name, sub in value.items():
        if name in instance:
            here = at.down("dependentSchemas", name)
            yield from v.in_place(sub, instance, ip, join_pointer(kp, name), here)


def dependencies(
    v: DraftReference, value: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    """Before 2019-09: each dependency is an array of names (dependentRequired) or a schema."""
    if not is_kind(instance, "object"):
        return
    for name, dependency in value.items():
        if name not in instance:
            continue
        if isinstance(dependency, list):
            yield from _missing("dependencies", name, dependency, instance, ip, kp)
        else:
            here = at.down("dependencies", name)
            yield from v.in_place(dependency, instance, ip, join_pointer(kp, name), here)


def property_names(
    v: DraftReference, sub: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    """Each name against the subschema; its errors stand at the object's location."""
    if is_kind(instance, "object"):
        for key in instance:
            yield from v.child(sub, key, ip, kp, at.down("propertyNames"))


# -- applicators ------------------------------------------------------------------------------------
def all_of(
    v: DraftReference, schemas: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    for index, sub in enumerate(schemas):
        yield from v.in_place(sub, instance, ip, join_pointer(kp, index), at.down("allOf", index))


def any_of(
    v: DraftReference, schemas: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    failures = []
    for index, sub in enumerate(schemas):
        here = at.down("anyOf", index)
        errors, annotations = v.outcome(sub, instance, ip, join_pointer(kp, index), here)
        if errors:
            failures.append((index, errors))
        else:
            yield from annotations  # every valid alternative's, not only the first's
    if len(failures) == len(schemas):
        yield error("anyOf", "anyOf", instance, ip, kp, {}, branches(failures))


def one_of(
    v: DraftReference, schemas: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    passed, failures = [], []
    for index, sub in enumerate(schemas):
        here = at.down("oneOf", index)
        errors, annotations = v.outcome(sub, instance, ip, join_pointer(kp, index), here)
        if errors:
            failures.append((index, errors))
        else:
            passed.append((index, annotations))
    if not passed:
        params: dict[str, Any] = {"passingSchemas": []}
        yield error("oneOf", "oneOf", instance, ip, kp, params, branches(failures))
    elif len(passed) > 1:
        params = {"passingSchemas": [index for index, _ in passed]}
        yield error("oneOf", "oneOf.several", instance, ip, kp, params)
    else:
        yield from passed[0][1]


def not_(
    v: DraftReference, sub: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    if v.valid(sub, instance, ip, kp, at.down("not")):
        yield error("not", "not", instance, ip, kp)


def if_(
    v: DraftReference, condition: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    """if, with then and else beside it read here."""
    if "then" not in schema and "else" not in schema and not at.dialect.annotations:
        return  # `if` alone decides nothing, and before 2019-09 its annotations count for nothing
    errors, annotations = v.outcome(condition, instance, ip, kp, at.down("if"))
    if not errors:
        yield from annotations
    branch = "else" if errors else "then"
    if branch in schema:
        yield from v.in_place(schema[branch], instance, ip, sibling(kp, branch), at.down(branch))


# -- references -------------------------------------------------------------------------------------
def ref(
    v: DraftReference, reference: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    if isinstance(reference, str):
        target, there = v.follow("$ref", reference, at)
        yield from v.in_place(target, instance, ip, kp, there)


def dynamic_ref(
    v: DraftReference, reference: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    """2020-12: resolve statically; if that lands on a `$dynamicAnchor` of the fragment's name, the
    outermost resource in the dynamic scope with a `$dynamicAnchor` of that name wins."""
    if not isinstance(reference, str):
        return
    target, there = v.follow("$dynamicRef", reference, at)
    name = urldefrag(reference)[1]
    anchored = isinstance(target, dict) and target.get("$dynamicAnchor") == name
    if name and not name.startswith("/") and anchored:
        for resource in at.scope:
            key = v.registry.dynamic_anchors.get(resource, {}).get(name)
            if key is not None:
                document, _, pointer = key.partition("#")
                target, there = v.enter(v.registry.location(document, pointer), at.scope)
                break
    yield from v.in_place(target, instance, ip, kp, there)


def recursive_ref(
    v: DraftReference, reference: Any, instance: Any, schema: Any, ip: str, kp: str, at: Here
) -> Results:
    """2019-09: resolve against the current base; if the target has `$recursiveAnchor: true`, walk
    the dynamic scope outward from the innermost resource while each resource's root has
    `$recursiveAnchor: true`, and take the last one (python-jsonschema's reading)."""
    if not isinstance(reference, str):
        return
    target, there = v.follow("$recursiveRef", reference, at)
    if isinstance(target, dict) and target.get("$recursiveAnchor") is True:
        for resource in reversed(at.scope):
            if resource not in v.registry.recursive_anchors:
                break
            root = v.registry.location(*v.registry.resources[resource])
            target, there = v.enter(root, at.scope)
    yield from v.in_place(target, instance, ip, kp, there)


# -- unevaluated (applied after their siblings, with what those evaluated: `seen`) ----------------
def unevaluated_properties(
    v: DraftReference,
    extra: Any,
    instance: Any,
    schema: Any,
    ip: str,
    kp: str,
    at: Here,
    seen: Evaluated,
) -> Results:
    if not is_kind(instance, "object"):
        return
    for key in instance:
        if key in seen.properties:
            continue
        if extra is False:
            params = {"unevaluatedProperty": key}
            name = "unevaluatedProperties"
            yield error(name, name, instance[key], join_pointer(ip, key), kp, params)
        else:
            here = at.down("unevaluatedProperties")
            yield from v.child(extra, instance[key], join_pointer(ip, key), kp, here)
    yield Evaluated(properties=frozenset(instance))


def unevaluated_items(
    v: DraftReference,
    extra: Any,
    instance: Any,
    schema: Any,
    ip: str,
    kp: str,
    at: Here,
    seen: Evaluated,
) -> Results:
    if not is_kind(instance, "array"):
        return
    for index, item in enumerate(instance):
        if index in seen.items:
            continue
        if extra is False:
            params = {"unevaluatedItem": index}
            name = "unevaluatedItems"
            yield error(name, name, item, join_pointer(ip, index), kp, params)
        else:
            yield from v.child(
                extra, item, join_pointer(ip, index), kp, at.down("unevaluatedItems")
            )
    yield Evaluated(items=frozenset(range(len(instance))))
