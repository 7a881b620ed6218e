"""Stage 2, preflight: walk the schema against the profile before any code exists.

Out-of-profile keywords (fail-closed profiles), wrong keyword values, exceeded limits and bad
regexes are all rejected here with one SchemaError carrying a code and the JSON pointer of the
offending place. Each keyword has one small checker in CHECKERS.
"""

from __future__ import annotations

import json
import math
import re
from decimal import Decimal
from typing import Any, Callable

from .errors import SchemaError, join_pointer
from .primitives import is_integral, short_repr
from .values import dumps_exact, number_text
from .profiles import TYPE_NAMES, Profile
from .resolve import draft_number

# Nesting bound for plain JSON values inside a schema (enum, const, default, examples).
MAX_VALUE_DEPTH = 100


class _Walk:
    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self.draft = draft_number(profile.draft) if profile.draft else None
        self.old_draft = self.draft is not None and self.draft <= 7

    # -- values ---------------------------------------------------------------------------
    def fail(self, code: str, pointer: str, message: str) -> SchemaError:
        return SchemaError(message, code=code, pointer=pointer)

    def json_value(self, value: Any, pointer: str, max_depth: int | None = MAX_VALUE_DEPTH) -> None:
        """A plain JSON value: no NaN/Infinity, str keys, only JSON types, bounded depth."""
        stack = [(value, pointer, 0)]
        while stack:
            node, where, depth = stack.pop()
            if max_depth is not None and depth > max_depth:
                raise self.fail("limit-exceeded", where, f"value nested deeper than {MAX_VALUE_DEPTH} levels")
            if node is None or isinstance(node, (bool, str, int)):
                continue
            if isinstance(node, float):
                if not math.isfinite(node):
                    raise self.fail("bad-keyword-value", where, f"{node!r} is not a JSON number")
                continue
            if isinstance(node, Decimal):
                if not node.is_finite():
                    raise self.fail("bad-keyword-value", where, f"{node} is not a JSON number")
                continue
            if isinstance(node, list):
                stack.extend((v, join_pointer(where, i), depth + 1) for i, v in enumerate(node))
                continue
            if isinstance(node, dict):
                for k, v in node.items():
                    if not isinstance(k, str):
                        raise self.fail("bad-keyword-value", where, f"object key {k!r} is not a string")
                    stack.append((v, join_pointer(where, k), depth + 1))
                continue
            raise self.fail("bad-keyword-value", where, f"a {type(node).__name__} is not a JSON value")

    def number(self, value: Any, pointer: str, keyword: str) -> None:
        ok = not isinstance(value, bool) and (
            isinstance(value, int)
            or (isinstance(value, float) and math.isfinite(value))
            or (isinstance(value, Decimal) and value.is_finite())
        )
        if not ok:
            raise self.fail("bad-keyword-value", pointer, f"{keyword} must be a number, not {_describe(value)}")

    def count(self, value: Any, pointer: str, keyword: str) -> None:
        """A non-negative integer (2.0 counts as 2, as JSON Schema allows; 1e999999999 is a count
        too, tested by its exponent, never materialised)."""
        self.number(value, pointer, keyword)
        if value < 0 or not is_integral(value):
            raise self.fail("bad-keyword-value", pointer,
                            f"{keyword} must be a non-negative integer, not {number_text(value)}")

    def schema_array(self, value: Any, pointer: str, keyword: str, depth: int) -> None:
        if not isinstance(value, list) or not value:
            raise self.fail("bad-keyword-value", pointer, f"{keyword} must be a non-empty array of schemas")
        for i, sub in enumerate(value):
            self.schema(sub, join_pointer(pointer, i), depth + 1)

    # -- schemas --------------------------------------------------------------------------
    def schema(self, schema: Any, pointer: str, depth: int) -> None:
        limits = self.profile.limits
        if depth > limits.max_depth:
            raise self.fail(
                "limit-exceeded", pointer,
                f"schemas nested deeper than the limit of {limits.max_depth} levels",
            )
        if isinstance(schema, bool):
            if not self.profile.boolean_subschemas:
                raise self.fail(
                    "not-a-schema", pointer,
                    f"the {self.profile.name} profile needs an object schema here, not {json.dumps(schema)}",
                )
            return
        if not isinstance(schema, dict):
            raise self.fail("not-a-schema", pointer, f"a schema must be an object or a boolean, not {_describe(schema)}")
        items = schema.items()
        if self.old_draft and "$ref" in schema:
            items = [("$ref", schema["$ref"])]  # before 2019-09 a $ref's siblings are ignored
        for keyword, value in items:
            if not isinstance(keyword, str):
                raise self.fail("bad-keyword-value", pointer, f"schema key {keyword!r} is not a string")
            where = join_pointer(pointer, keyword)
            status = self.profile.keyword_status(keyword)
            if status == "enforced":
                CHECKERS[keyword](self, value, where, depth)
            elif status == "annotation":
                ANNOTATION_CHECKERS.get(keyword, _check_any_json)(self, value, where, depth)
            elif self.profile.fail_closed:
                raise self.fail(
                    "keyword-not-in-profile", where,
                    f"keyword {keyword!r} is not in the {self.profile.name} profile",
                )
            # fail-open: an unknown keyword is ignored, its value is not looked at


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float, Decimal)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}"


Checker = Callable[[_Walk, Any, str, int], None]


# -- one checker per keyword ------------------------------------------------------------------
def _check_type(w: _Walk, value: Any, pointer: str, depth: int) -> None:
    if isinstance(value, str):
        if value not in TYPE_NAMES:
            raise w.fail("bad-keyword-value", pointer, f"unknown type {value!r}; types are {', '.join(TYPE_NAMES)}")
        return
    if isinstance(value, list):
        if not w.profile.type_arrays:
            raise w.fail("bad-keyword-value", pointer, f"the {w.profile.name} profile takes one type name, not an array")
        if not value:
            raise w.fail("bad-keyword-value", pointer, "type must not be an empty array")
        for i, name in enumerate(value):
            if not isinstance(name, str) or name not in TYPE_NAMES:
                raise w.fail("bad-keyword-value", join_pointer(pointer, i), f"unknown type {name!r}")
        if len(set(value)) != len(value):
            raise w.fail("bad-keyword-value", pointer, "type names must be unique")
        return
    raise w.fail("bad-keyword-value", pointer, f"type must be a string or an array of strings, not {_describe(value)}")


def _check_properties(w: _Walk, value: Any, pointer: str, depth: int) -> None:
    if not isinstance(value, dict):
        raise w.fail("bad-keyword-value", pointer, f"properties must be an object, not {_describe(value)}")
    limit = w.profile.limits.max_properties
    if limit is not None and len(value) > limit:
        raise w.fail("limit-exceeded", pointer, f"{len(value)} properties, over the limit of {limit} per object")
    for name, sub in value.items():
        if not isinstance(name, str):
            raise w.fail("bad-keyword-value", pointer, f"property name {name!r} is not a string")
        w.schema(sub, join_pointer(pointer, name), depth + 1)


def _check_required(w: _Walk, value: Any, pointer: str, depth: int) -> None:
    if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
        raise w.fail("bad-keyword-value", pointer, "required must be an array of strings")
    if len(set(value)) != len(value):
        raise w.fail("bad-keyword-value", pointer, "required names must be unique")


def _check_additional_properties(w: _Walk, value: Any, pointer: str, depth: int) -> None:
    if isinstance(value, bool):
        return
    if not w.profile.schema_additional_properties:
        raise w.fail(
            "bad-keyword-value", pointer,
            f"the {w.profile.name} profile takes only true or false for additionalProperties",
        )
    w.schema(value, pointer, depth + 1)


def _check_items(w: _Walk, value: Any, pointer: str, depth: int) -> None:
    if isinstance(value, list) and w.draft is not None and w.draft < 2020:
        for i, sub in enumerate(value):
            w.schema(sub, join_pointer(pointer, i), depth + 1)
        return
    if isinstance(value, list):
        raise w.fail("bad-keyword-value", pointer, "items must be one schema (use prefixItems for tuples)")
    w.schema(value, pointer, depth + 1)


def _check_prefix_items(w: _Walk, value: Any, pointer: str, depth: int) -> None:
    w.schema_array(value, pointer, "prefixItems", depth)


def _check_count(w: _Walk, value: Any, pointer: str, depth: int) -> None:
    w.count(value, pointer, pointer.rsplit("/", 1)[-1])


def _check_number(w: _Walk, value: Any, pointer: str, depth: int) -> None:
    keyword = pointer.rsplit("/", 1)[-1]
    if w.draft == 4 and keyword.startswith("exclusive"):
        if not isinstance(value, bool):
            raise w.fail("bad-keyword-value", pointer, f"in draft 4 {keyword} is a boolean")
        return
    w.number(value, pointer, keyword)


def _check_multiple_of(w: _Walk, value: Any, pointer: str, depth: int) -> None:
    w.number(value, pointer, "multipleOf")
    if value <= 0:
        raise w.fail("bad-keyword-value", pointer, f"multipleOf must be greater than 0, not {number_text(value)}")
    if w.profile.integer_multiple_of_only and not is_integral(value):
        raise w.fail(
            "bad-keyword-value", pointer,
            f"the {w.profile.name} profile takes only integer multipleOf, not {number_text(value)}",
        )


def _check_enum(w: _Walk, value: Any, pointer: str, depth: int) -> None:
    if not isinstance(value, list):
        raise w.fail("bad-keyword-value", pointer, f"enum must be an array, not {_describe(value)}")
    limit = w.profile.limits.max_enum_values
    if limit is not None and len(value) > limit:
        raise w.fail("limit-exceeded", pointer, f"{len(value)} enum values, over the limit of {limit}")
    w.json_value(value, pointer)


def _check_any_json(w: _Walk, value: Any, pointer: str, depth: int) -> None:
    w.json_value(value, pointer)


def _check_pattern(w: _Walk, value: Any, pointer: str, depth: int) -> None:
    if not isinstance(value, str):
        raise w.fail("bad-keyword-value", pointer, f"pattern must be a string, not {_describe(value)}")
    from .regex import RegexTranslationError, compile_pattern

    try:
        compile_pattern(value)
    except RegexTranslationError as exc:
        raise w.fail("bad-regex", pointer, f"pattern {value!r}: {exc.message} (at {exc.position})") from None


def _check_unique_items(w: _Walk, value: Any, pointer: str, depth: int) -> None:
    if not isinstance(value, bool):
        raise w.fail("bad-keyword-value", pointer, f"uniqueItems must be a boolean, not {_describe(value)}")


def _check_subschema(w: _Walk, value: Any, pointer: str, depth: int) -> None:
    w.schema(value, pointer, depth + 1)


def _check_combinator(w: _Walk, value: Any, pointer: str, depth: int) -> None:
    w.schema_array(value, pointer, pointer.rsplit("/", 1)[-1], depth)


def _check_string_annotation(w: _Walk, value: Any, pointer: str, depth: int) -> None:
    if not isinstance(value, str):
        raise w.fail("bad-keyword-value", pointer, f"{pointer.rsplit('/', 1)[-1]} must be a string")


# Names the drafts allow: $anchor and $dynamicAnchor in 2020-12 (the meta-schema's
# anchorString), $anchor in 2019-09, and the plain-name fragment of an $id in drafts 6 and 7
# ("MUST begin with a letter ([A-Za-z]), followed by any number of letters, digits, hyphens,
# underscores, colons, or periods"; draft 4 states no form, so its `id` is not held to one).
_ANCHOR_2020 = re.compile(r"[A-Za-z_][-A-Za-z0-9._]*")
_ANCHOR_2019 = re.compile(r"[A-Za-z][-A-Za-z0-9.:_]*")
_PLAIN_NAME = re.compile(r"[A-Za-z][-A-Za-z0-9_:.]*")


def _check_anchor(w: _Walk, value: Any, pointer: str, depth: int) -> None:
    _check_string_annotation(w, value, pointer, depth)
    rule = _ANCHOR_2019 if w.draft == 2019 else _ANCHOR_2020
    if not rule.fullmatch(value):
        keyword = pointer.rsplit("/", 1)[-1]
        raise w.fail("bad-keyword-value", pointer,
                     f"{keyword} {short_repr(value)} is not a name the draft allows (^{rule.pattern}$)")


def _check_id(w: _Walk, value: Any, pointer: str, depth: int) -> None:
    """$id: from 2019-09 on (and in the profiles that are no draft) no non-empty fragment (a
    name is $anchor's business); in drafts 6 and 7 an empty fragment or a plain name."""
    _check_string_annotation(w, value, pointer, depth)
    fragment = value.partition("#")[2]
    if not fragment:
        return
    if w.draft is None or w.draft >= 2019:
        raise w.fail("bad-keyword-value", pointer,
                     f"$id {short_repr(value)} has a fragment: an $id is a URI without one (name a "
                     "subschema with $anchor)")
    if w.draft in (6, 7) and not _PLAIN_NAME.fullmatch(fragment):
        raise w.fail("bad-keyword-value", pointer,
                     f"$id {short_repr(value)}: a fragment in an $id must be a plain name "
                     f"(^{_PLAIN_NAME.pattern}$)")


def _check_examples(w: _Walk, value: Any, pointer: str, depth: int) -> None:
    if not isinstance(value, list):
        raise w.fail("bad-keyword-value", pointer, "examples must be an array")
    w.json_value(value, pointer)


def _check_ref(w: _Walk, value: Any, pointer: str, depth: int) -> None:
    if not isinstance(value, str):
        raise w.fail("bad-keyword-value", pointer, f"{pointer.rsplit('/', 1)[-1]} must be a string (a URI reference)")


def _check_schema_map(w: _Walk, value: Any, pointer: str, depth: int) -> None:
    if not isinstance(value, dict):
        raise w.fail("bad-keyword-value", pointer, f"{pointer.rsplit('/', 1)[-1]} must be an object of schemas")
    for name, sub in value.items():
        w.schema(sub, join_pointer(pointer, name), depth + 1)


def _check_pattern_properties(w: _Walk, value: Any, pointer: str, depth: int) -> None:
    _check_schema_map(w, value, pointer, depth)
    for name in value:  # each name is a pattern, held to what `pattern` is held to
        _check_pattern(w, name, join_pointer(pointer, name), depth)


def _check_dependent_required(w: _Walk, value: Any, pointer: str, depth: int) -> None:
    if not isinstance(value, dict):
        raise w.fail("bad-keyword-value", pointer, "dependentRequired must be an object of string arrays")
    for name, names in value.items():
        _check_required(w, names, join_pointer(pointer, name), depth)


def _check_dependencies(w: _Walk, value: Any, pointer: str, depth: int) -> None:
    if not isinstance(value, dict):
        raise w.fail("bad-keyword-value", pointer, "dependencies must be an object")
    for name, sub in value.items():
        if isinstance(sub, list):
            _check_required(w, sub, join_pointer(pointer, name), depth)
        else:
            w.schema(sub, join_pointer(pointer, name), depth + 1)


CHECKERS: dict[str, Checker] = {
    "type": _check_type,
    "properties": _check_properties,
    "required": _check_required,
    "additionalProperties": _check_additional_properties,
    "items": _check_items,
    "prefixItems": _check_prefix_items,
    "minItems": _check_count,
    "maxItems": _check_count,
    "minLength": _check_count,
    "maxLength": _check_count,
    "minimum": _check_number,
    "maximum": _check_number,
    "exclusiveMinimum": _check_number,
    "exclusiveMaximum": _check_number,
    "multipleOf": _check_multiple_of,
    "enum": _check_enum,
    "const": _check_any_json,
    "pattern": _check_pattern,
    "uniqueItems": _check_unique_items,
    "not": _check_subschema,
    "allOf": _check_combinator,
    "anyOf": _check_combinator,
    "oneOf": _check_combinator,
    "$ref": _check_ref,
    "$dynamicRef": _check_ref,
    "$recursiveRef": _check_ref,
    "additionalItems": _check_subschema,
    "contains": _check_subschema,
    "propertyNames": _check_subschema,
    "if": _check_subschema,
    "then": _check_subschema,
    "else": _check_subschema,
    "unevaluatedItems": _check_subschema,
    "unevaluatedProperties": _check_subschema,
    "minContains": _check_count,
    "maxContains": _check_count,
    "minProperties": _check_count,
    "maxProperties": _check_count,
    "patternProperties": _check_pattern_properties,
    "dependentSchemas": _check_schema_map,
    "dependentRequired": _check_dependent_required,
    "dependencies": _check_dependencies,
}

ANNOTATION_CHECKERS: dict[str, Checker] = {
    "title": _check_string_annotation,
    "description": _check_string_annotation,
    "$schema": _check_string_annotation,
    "$id": _check_id,
    "$comment": _check_string_annotation,
    "format": _check_string_annotation,
    "examples": _check_examples,
    "$defs": _check_schema_map,
    "definitions": _check_schema_map,
    "$anchor": _check_anchor,
    "$dynamicAnchor": _check_anchor,
    "id": _check_any_json,
    "$recursiveAnchor": _check_any_json,
    "$vocabulary": _check_any_json,
}


def source_size(schema: Any) -> int:
    """The UTF-8 size of a schema given as a value, in compact JSON (for the source limit)."""
    text = dumps_exact(schema, ensure_ascii=False, separators=(",", ":"))  # exact: no digit limit
    return len(text.encode("utf-8", "surrogatepass"))


# A value given as Python objects with no source limit is still refused past this many nodes
# written out: shared subobjects can make a small graph of objects stand for astronomically long
# JSON text (a list holding itself twice, a hundred times over).
MAX_EXPANDED_NODES = 1 << 30


def check_json_value(value: Any, profile: Profile, *, max_nodes: int | None = None) -> None:
    """A schema given as a Python value must be JSON all through (ignored keywords included).

    The first walk over such a value, so it must stop at once on what would make every later
    walk endless or explosive: a container that is its own ancestor (a cycle: no JSON text holds
    one) is a SchemaError at the place it comes back; a container shared by several places is
    fine and checked once, but counts each time it appears, as in the JSON text it stands for,
    so one that would be written out past the source limit (at least a byte a value) is refused
    before anything expands it (`max_nodes` instead of the profile's source limit when given)."""
    limit = profile.limits.max_source_bytes if max_nodes is None else max_nodes
    ceiling = MAX_EXPANDED_NODES if limit is None else min(limit, MAX_EXPANDED_NODES)
    walk = _Walk(profile)
    expanded: dict[int, int] = {}  # id of a container walked -> values in it, written out
    on_path: set[int] = set()
    # (value, path, leaving it): a path is (parent's path, key), its pointer made only for a
    # message (a pointer string per level would cost the square of the depth)
    stack: list[tuple[Any, Any, bool]] = [(value, None, False)]
    while stack:
        node, path, leaving = stack.pop()
        if leaving:
            on_path.discard(id(node))
            children = dict.values(node) if isinstance(node, dict) else list.__iter__(node)
            size = 1 + sum(expanded.get(id(child), 1) for child in children)
            if size > ceiling:
                raise walk.fail("limit-exceeded", _path_pointer(path), f"the value would be {size} or more "
                                f"JSON values written out (a shared object counts each time), over the limit of {ceiling}")
            expanded[id(node)] = size
            continue
        if not isinstance(node, (dict, list)):
            walk.json_value(node, _path_pointer(path), max_depth=None)  # a scalar: type, finiteness
            continue
        if id(node) in on_path:
            raise walk.fail("bad-json", _path_pointer(path), "the value contains itself here (a cycle: no "
                            "JSON text can hold one)")
        if id(node) in expanded:
            continue  # shared, walked already
        on_path.add(id(node))
        stack.append((node, path, True))
        if isinstance(node, dict):
            pairs = list(dict.items(node))
            for key, _ in pairs:
                if not isinstance(key, str):
                    raise walk.fail("bad-keyword-value", _path_pointer(path),
                                    f"object key {_bounded_repr(key)} is not a string")
            stack.extend((child, (path, key), False) for key, child in reversed(pairs))
        else:
            stack.extend((child, (path, i), False) for i, child in reversed(list(enumerate(list.__iter__(node)))))


def _path_pointer(path: Any) -> str:
    """The JSON pointer of a (parent's path, key) chain."""
    tokens: list[str | int] = []
    while path is not None:
        path, key = path
        tokens.append(key)
    return join_pointer("", *reversed(tokens))


def _bounded_repr(value: Any) -> str:
    """repr() for a message, at most 80 characters (an int past the digit limit included)."""
    from .primitives import short_repr

    return short_repr(value)


def preflight(schema: Any, profile: Profile, *, pointer: str = "") -> None:
    """Raise SchemaError if `schema` is not a valid schema of `profile`."""
    _Walk(profile).schema(schema, pointer, 1)
