"""Preflight: out-of-profile keywords, bad keyword values, limits, options, bad regexes and values
that are not schemas are rejected before any code exists, each with one SchemaError carrying a
stable code and the JSON pointer of the offending place (docs/ARCHITECTURE.md, "The pipeline": preflight).
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest

import generator

KIB32 = 32 * 1024


def _pid(value: Any) -> str:
    """A short, readable test id."""
    if isinstance(value, (set, frozenset)):
        value = sorted(value)  # a stable id whatever the hash seed
    text = value if isinstance(value, str) else repr(value)
    text = text.encode("ascii", "backslashreplace").decode()
    return text if len(text) <= 50 else text[:47] + "..."


def compile_(schema: Any, profile: str, **options: Any) -> Any:
    # format=False: black only lays the text out, and is slow; the checks under test come first
    return generator.compile_module(schema, profile=profile, format=False, **options)


def refused(
    schema: Any, profile: str, code: str, pointer: str | set[str] | None, **options: Any
) -> Any:
    with pytest.raises(generator.SchemaError) as info:
        compile_(schema, profile, **options)
    err = info.value
    assert not isinstance(err, generator.OptionError)
    assert err.code == code, f"code {err.code!r} (pointer {err.pointer!r}): {err.message}"
    if isinstance(pointer, set):
        assert err.pointer in pointer
    elif pointer is not None:
        assert err.pointer == pointer, f"pointer {err.pointer!r}: {err.message}"
    assert isinstance(err.message, str) and err.message.strip()
    return err


def accepted(schema: Any, profile: str, **options: Any) -> Any:
    module = compile_(schema, profile, **options)
    assert callable(module.is_valid) and callable(module.errors) and callable(module.validate)
    return module


# ---------------------------------------------------------------------------------------------
# keywords outside the profile
# ---------------------------------------------------------------------------------------------
OCTOSCRIPT_REFUSED = {
    "$ref": "#",
    "$defs": {"a": {}},
    "definitions": {"a": {}},
    "$anchor": "a",
    "$dynamicRef": "#a",
    "$dynamicAnchor": "a",
    "$vocabulary": {},
    "$comment": "a comment",
    "format": "email",
    "allOf": [{}],
    "anyOf": [{}],
    "oneOf": [{}],
    "not": {},
    "if": {},
    "then": {},
    "else": {},
    "pattern": "a",
    "const": 1,
    "prefixItems": [{}],
    "contains": {},
    "minContains": 1,
    "maxContains": 1,
    "uniqueItems": True,
    "exclusiveMinimum": 0,
    "exclusiveMaximum": 0,
    "multipleOf": 2,
    "patternProperties": {"a": {}},
    "minProperties": 1,
    "maxProperties": 1,
    "propertyNames": {},
    "dependentRequired": {},
    "dependentSchemas": {},
    "dependencies": {},
    "unevaluatedProperties": False,
    "unevaluatedItems": False,
    "additionalItems": False,
    "contentMediaType": "text/plain",
    "deprecated": True,
    "readOnly": True,
    "writeOnly": True,
    "nullable": True,
    "foo": 1,
}

STRICT_REFUSED = {
    "$ref": "#",
    "$defs": {"a": {}},
    "definitions": {"a": {}},
    "$anchor": "a",
    "$dynamicRef": "#a",
    "$dynamicAnchor": "a",
    "$vocabulary": {},
    "if": {},
    "then": {},
    "else": {},
    "patternProperties": {"a": {}},
    "contains": {},
    "minContains": 1,
    "maxContains": 1,
    "minProperties": 1,
    "maxProperties": 1,
    "propertyNames": {},
    "dependentRequired": {},
    "dependentSchemas": {},
    "dependencies": {},
    "unevaluatedProperties": False,
    "unevaluatedItems": False,
    "additionalItems": False,
    "contentEncoding": "base64",
    "foo": 1,
}


@pytest.mark.parametrize("keyword", sorted(OCTOSCRIPT_REFUSED))
def test_octoscript_refuses_keyword(keyword: str) -> None:
    refused(
        {"type": "object", keyword: OCTOSCRIPT_REFUSED[keyword]},
        "octoscript",
        "keyword-not-in-profile",
        "/" + keyword,
    )


@pytest.mark.parametrize("keyword", sorted(STRICT_REFUSED))
def test_strict_refuses_keyword(keyword: str) -> None:
    refused(
        {"type": "object", keyword: STRICT_REFUSED[keyword]},
        "strict",
        "keyword-not-in-profile",
        "/" + keyword,
    )


@pytest.mark.parametrize(
    "schema, pointer",
    [
        ({"properties": {"a/b": {"items": {"pattern": "x"}}}}, "/properties/a~1b/items/pattern"),
        ({"properties": {"~": {"$ref": "#"}}}, "/properties/~0/$ref"),
        ({"items": {"properties": {"x": {"const": 1}}}}, "/items/properties/x/const"),
        (
            {"properties": {"p": {"properties": {"q": {"format": "date"}}}}},
            "/properties/p/properties/q/format",
        ),
        ({"properties": {"": {"allOf": [{}]}}}, "/properties//allOf"),
        ({"properties": {"a": {}, "b": {"if": {}}}}, "/properties/b/if"),
        ({"items": {"items": {"items": {"$defs": {}}}}}, "/items/items/items/$defs"),
        ({"x/y~z": 1}, "/x~1y~0z"),
    ],
)
def test_octoscript_refusal_pointer_is_nested(schema: dict[str, Any], pointer: str) -> None:
    refused(schema, "octoscript", "keyword-not-in-profile", pointer)


@pytest.mark.parametrize(
    "schema, pointer",
    [
        ({"properties": {"a/b": {"items": {"contains": {}}}}}, "/properties/a~1b/items/contains"),
        ({"allOf": [{}, {"if": {}}]}, "/allOf/1/if"),
        ({"not": {"$ref": "#"}}, "/not/$ref"),
        (
            {"anyOf": [{"properties": {"a": {"patternProperties": {}}}}]},
            "/anyOf/0/properties/a/patternProperties",
        ),
        ({"prefixItems": [{}, {"minProperties": 1}]}, "/prefixItems/1/minProperties"),
        ({"additionalProperties": {"$defs": {}}}, "/additionalProperties/$defs"),
        (
            {"oneOf": [{"items": {"not": {"propertyNames": {}}}}]},
            "/oneOf/0/items/not/propertyNames",
        ),
        (
            {"properties": {"m~1": {"unevaluatedProperties": False}}},
            "/properties/m~01/unevaluatedProperties",
        ),
        ({"x~y": 1}, "/x~0y"),
        ({"a/b": 1}, "/a~1b"),
    ],
)
def test_strict_refusal_pointer_is_nested(schema: dict[str, Any], pointer: str) -> None:
    refused(schema, "strict", "keyword-not-in-profile", pointer)


@pytest.mark.parametrize(
    "schema, pointer",
    [
        ({"additionalProperties": {}}, "/additionalProperties"),
        ({"additionalProperties": {"type": "string"}}, "/additionalProperties"),
        (
            {"properties": {"a": {"additionalProperties": {"type": "integer"}}}},
            "/properties/a/additionalProperties",
        ),
        ({"type": ["string", "null"]}, "/type"),
        ({"type": ["integer"]}, "/type"),
        ({"items": {"type": ["string", "number"]}}, "/items/type"),
    ],
)
def test_octoscript_refuses_schema_additional_properties_and_type_arrays(
    schema: dict[str, Any], pointer: str
) -> None:
    refused(schema, "octoscript", "bad-keyword-value", pointer)


def test_octoscript_accepts_its_annotations() -> None:
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.com/tool",
        "title": "t",
        "description": "d",
        "default": {"x": [1]},
        "examples": [{"a": 1}],
        "type": "object",
        "properties": {
            "a": {
                "type": "integer",
                "title": "a",
                "description": "an a",
                "default": 1,
                "examples": [1, 2],
            }
        },
    }
    module = accepted(schema, "octoscript")
    assert module.is_valid({"a": 1}) and not module.is_valid({"a": "x"})


def test_strict_accepts_its_keywords_and_annotations() -> None:
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.com/s",
        "title": "t",
        "description": "d",
        "default": 1,
        "examples": [1],
        "format": "uri",
        "type": ["object", "null"],
        "properties": {"a": {"const": 1}, "b": {"pattern": "^x"}},
        "required": ["a"],
        "additionalProperties": {"type": "string"},
        "allOf": [{}],
        "anyOf": [{}, True],
        "oneOf": [{}],
        "not": False,
    }
    module = accepted(schema, "strict")
    assert module.is_valid({"a": 1, "b": "xy", "c": "s"}) and not module.is_valid({"a": 2})
    accepted(
        {
            "enum": [1],
            "minLength": 1,
            "maxLength": 2,
            "minimum": 0,
            "maximum": 1,
            "exclusiveMinimum": 0,
            "exclusiveMaximum": 1,
            "multipleOf": 1,
            "prefixItems": [{}],
            "items": {},
            "minItems": 0,
            "maxItems": 1,
            "uniqueItems": True,
        },
        "strict",
    )


@pytest.mark.parametrize(
    "schema",
    [
        {"$ref": "#/definitions/missing"},
        {"$ref": "https://example.com/elsewhere.json"},
        {"$ref": "#"},
        {
            "foo": 1,
            "if": 5,
            "$defs": 7,
            "patternProperties": {"(": 5},
            "minimum": "3",
            "pattern": "(",
            "enum": 5,
            "items": [1],
            "not": 5,
            "allOf": [],
            "minLength": -1,
            "format": 3,
            "$comment": 4,
        },
        {
            "type": "object",
            "properties": {"a": {"$ref": "#/nope", "contains": {"x": 1}, "multipleOf": 0.5}},
        },
    ],
    ids=_pid,
)
def test_lenient_ignores_unknown_keywords(schema: dict[str, Any]) -> None:
    module = accepted(schema, "lenient")
    for instance in (1, "x", None, [1, 1], {"a": "anything"}):
        if "type" in schema and not isinstance(instance, dict):
            continue
        assert module.is_valid(instance)
        assert module.errors(instance) == []


# ---------------------------------------------------------------------------------------------
# bad keyword values
# ---------------------------------------------------------------------------------------------
NAN, INF = float("nan"), float("inf")

BAD_COMMON: list[tuple[Any, Any]] = [  # type/required/properties: enforced in every profile
    ({"type": "strin"}, "/type"),
    ({"type": "Integer"}, "/type"),
    ({"type": 5}, "/type"),
    ({"type": None}, "/type"),
    ({"type": {}}, "/type"),
    ({"required": ["a", "a"]}, "/required"),
    ({"required": "a"}, "/required"),
    ({"required": [1]}, "/required"),
    ({"required": {"a": True}}, "/required"),
    ({"properties": []}, "/properties"),
    ({"properties": 5}, "/properties"),
    ({"properties": {"a": {"type": "strin"}}}, "/properties/a/type"),
    ({"properties": {"a/b": {"required": ["x", "x"]}}}, "/properties/a~1b/required"),
]

BAD_OCTO: list[tuple[Any, Any]] = [  # keywords of octoscript (and strict)
    ({"minimum": "3"}, "/minimum"),
    ({"minimum": True}, "/minimum"),
    ({"minimum": None}, "/minimum"),
    ({"maximum": [1]}, "/maximum"),
    ({"maximum": {"value": 1}}, "/maximum"),
    ({"minLength": -1}, "/minLength"),
    ({"minLength": 1.5}, "/minLength"),
    ({"maxLength": "2"}, "/maxLength"),
    ({"maxLength": False}, "/maxLength"),
    ({"minItems": -1}, "/minItems"),
    ({"maxItems": 2.5}, "/maxItems"),
    ({"maxItems": True}, "/maxItems"),
    ({"enum": 5}, "/enum"),
    ({"enum": "abc"}, "/enum"),
    ({"enum": {"a": 1}}, "/enum"),
    ({"enum": None}, "/enum"),
    ({"items": [{}]}, "/items"),
    ({"minimum": NAN}, "/minimum"),
    ({"maximum": INF}, "/maximum"),
    ({"maximum": -INF}, "/maximum"),
    ({"enum": [1, NAN]}, {"/enum", "/enum/1"}),
    ({"enum": [[INF]]}, {"/enum", "/enum/0", "/enum/0/0"}),
    ({"default": NAN}, "/default"),
    ({"examples": [1, INF]}, {"/examples", "/examples/1"}),
    ({"properties": {"a": {"minimum": NAN}}}, "/properties/a/minimum"),
    ({"properties": {"a/b": {"items": {"minLength": -1}}}}, "/properties/a~1b/items/minLength"),
    ({"items": {"properties": {"~": {"maxItems": "1"}}}}, "/items/properties/~0/maxItems"),
]

BAD_STRICT: list[tuple[Any, Any]] = [  # strict-only keywords
    ({"const": NAN}, "/const"),
    ({"const": [INF]}, {"/const", "/const/0"}),
    ({"exclusiveMinimum": NAN}, "/exclusiveMinimum"),
    ({"exclusiveMinimum": True}, "/exclusiveMinimum"),  # the draft-4 boolean form
    ({"exclusiveMaximum": "1"}, "/exclusiveMaximum"),
    ({"multipleOf": INF}, "/multipleOf"),
    ({"multipleOf": 0}, "/multipleOf"),
    ({"multipleOf": -3}, "/multipleOf"),
    ({"multipleOf": "2"}, "/multipleOf"),
    ({"multipleOf": True}, "/multipleOf"),
    ({"uniqueItems": "yes"}, "/uniqueItems"),
    ({"uniqueItems": 1}, "/uniqueItems"),
    ({"pattern": 5}, "/pattern"),
    ({"pattern": ["a"]}, "/pattern"),
    ({"allOf": []}, "/allOf"),
    ({"anyOf": {}}, "/anyOf"),
    ({"oneOf": "x"}, "/oneOf"),
    ({"prefixItems": {}}, "/prefixItems"),
    ({"prefixItems": []}, "/prefixItems"),
    ({"items": [{}, {}]}, "/items"),
    ({"type": []}, "/type"),
    ({"type": ["string", "string"]}, "/type"),
    ({"type": ["string", "strin"]}, {"/type", "/type/1"}),
    ({"type": ["string", 5]}, {"/type", "/type/1"}),
    ({"additionalProperties": {"minimum": "0"}}, "/additionalProperties/minimum"),
    ({"allOf": [{}, {"uniqueItems": "no"}]}, "/allOf/1/uniqueItems"),
]

# integer multipleOf only, in strict
STRICT_NON_INTEGER_MULTIPLE_OF: list[tuple[Any, Any]] = [
    ({"multipleOf": 0.5}, "/multipleOf"),
    ({"multipleOf": 1.5}, "/multipleOf"),
    ('{"multipleOf": 0.1}', "/multipleOf"),
    ('{"multipleOf": 2.00000000000000000001}', "/multipleOf"),
    ({"properties": {"a": {"multipleOf": 0.01}}}, "/properties/a/multipleOf"),
    ({"anyOf": [{"multipleOf": Decimal("2.5")}]}, "/anyOf/0/multipleOf"),
]

NOT_A_SUBSCHEMA: list[tuple[Any, Any]] = (
    [  # where a schema is expected, a value that is neither object nor boolean
        ({"not": 5}, "/not"),
        ({"allOf": [5]}, "/allOf/0"),
        ({"anyOf": [{}, "x"]}, "/anyOf/1"),
        ({"oneOf": [None]}, "/oneOf/0"),
        ({"items": "x"}, "/items"),
        ({"prefixItems": [{}, []]}, "/prefixItems/1"),
        ({"properties": {"a": 5}}, "/properties/a"),
        ({"properties": {"a": {"properties": {"b/c": []}}}}, "/properties/a/properties/b~1c"),
        ({"additionalProperties": 5}, "/additionalProperties"),
    ]
)


@pytest.mark.parametrize("profile", ["octoscript", "strict", "lenient"])
@pytest.mark.parametrize("schema, pointer", BAD_COMMON, ids=_pid)
def test_bad_common_keyword_value(profile: str, schema: dict[str, Any], pointer: str) -> None:
    refused(schema, profile, "bad-keyword-value", pointer)


@pytest.mark.parametrize("profile", ["octoscript", "strict"])
@pytest.mark.parametrize("schema, pointer", BAD_OCTO, ids=_pid)
def test_bad_keyword_value(profile: str, schema: dict[str, Any], pointer: Any) -> None:
    refused(schema, profile, "bad-keyword-value", pointer)


@pytest.mark.parametrize("profile", ["octoscript", "strict"])
@pytest.mark.parametrize(
    "schema, pointer",
    [
        ({"minimum": Decimal("NaN")}, "/minimum"),
        ({"maximum": Decimal("Infinity")}, "/maximum"),
        ({"properties": {"a": {"maximum": Decimal("-Infinity")}}}, "/properties/a/maximum"),
        ({"enum": [{"a": Decimal("-Infinity")}]}, {"/enum", "/enum/0", "/enum/0/a"}),
    ],
    ids=_pid,
)
def test_non_finite_decimal_in_dict_schema(
    profile: str, schema: dict[str, Any], pointer: Any
) -> None:
    # Decimal is how the loader represents exact numbers, so a non-finite Decimal in a schema given
    # as a value is the same mistake as a float NaN/Infinity: the keyword's value is bad, and the
    # pointer says where
    refused(schema, profile, "bad-keyword-value", pointer)


@pytest.mark.parametrize("schema, pointer", BAD_STRICT + STRICT_NON_INTEGER_MULTIPLE_OF, ids=_pid)
def test_bad_strict_keyword_value(schema: Any, pointer: Any) -> None:
    refused(schema, "strict", "bad-keyword-value", pointer)


@pytest.mark.parametrize(
    "schema",
    [{"multipleOf": 2}, {"multipleOf": 2.0}, '{"multipleOf": 7.0}', {"multipleOf": 10**30}],
)
def test_strict_accepts_integer_multiple_of(schema: Any) -> None:
    module = accepted(schema, "strict")
    assert module.is_valid(0) and not module.is_valid(1)


@pytest.mark.parametrize("schema, pointer", NOT_A_SUBSCHEMA, ids=_pid)
def test_not_a_subschema(schema: dict[str, Any], pointer: str) -> None:
    refused(schema, "strict", "not-a-schema", pointer)


def test_octoscript_additional_properties_takes_only_booleans() -> None:
    refused({"additionalProperties": 5}, "octoscript", "bad-keyword-value", "/additionalProperties")
    refused({"properties": {"a": 5}}, "octoscript", "not-a-schema", "/properties/a")
    refused({"items": "x"}, "octoscript", "not-a-schema", "/items")


@pytest.mark.parametrize(
    "schema",
    [
        [],
        [{}],
        5,
        1.5,
        0,
        None,
        Decimal("1"),
        "[]",
        "5",
        '"x"',
        "null",
        b"[{}]",
        b"3.5",
        '["type"]',
    ],
    ids=repr,
)
def test_not_a_schema_at_the_root(schema: Any) -> None:
    for profile in ("octoscript", "strict", "lenient"):
        refused(schema, profile, "not-a-schema", "")


# ---------------------------------------------------------------------------------------------
# bad regexes (strict)
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "pattern",
    [
        "(",
        ")",
        "[",
        "*",
        "+a",
        "a**",
        "\\",
        "[z-a]",
        "a{2,1}",
        "(?P<n>a)",
        "(?<n>a)(?<n>b)",
        "x(?",
        "(?<=a",
    ],
)
def test_bad_regex(pattern: str) -> None:
    refused({"pattern": pattern}, "strict", "bad-regex", "/pattern")


@pytest.mark.parametrize(
    "schema, pointer",
    [
        ({"properties": {"a/b": {"pattern": "("}}}, "/properties/a~1b/pattern"),
        ({"allOf": [{}, {"pattern": "["}]}, "/allOf/1/pattern"),
        ({"items": {"not": {"pattern": "a{2,1}"}}}, "/items/not/pattern"),
        ({"additionalProperties": {"pattern": "*"}}, "/additionalProperties/pattern"),
    ],
)
def test_bad_regex_pointer_is_nested(schema: dict[str, Any], pointer: str) -> None:
    refused(schema, "strict", "bad-regex", pointer)


@pytest.mark.parametrize(
    "pattern",
    [
        "^[a-z]{2,3}$",
        "^(?:a|b)+$",
        "(?=a)a",
        "(?<!x)y",
        "(?<name>a)\\k<name>",
        "\\d\\w\\s\\b",
        "^\\u00e9$",
        "[\\]]",
        "a{2}",
        "\\/",
    ],
)
def test_good_regex_accepted(pattern: str) -> None:
    accepted({"pattern": pattern}, "strict")


# ---------------------------------------------------------------------------------------------
# limits
# ---------------------------------------------------------------------------------------------
def _described_text(target_bytes: int, fill: str = "x") -> str:
    """JSON text of exactly `target_bytes` UTF-8 bytes: a schema with a long description."""
    head, tail = '{"description": "', '"}'
    room = target_bytes - len((head + tail).encode())
    unit = len(fill.encode())
    text = head + fill * (room // unit) + "x" * (room % unit) + tail
    assert len(text.encode()) == target_bytes
    return text


def test_octoscript_source_limit_text_boundary() -> None:
    module = accepted(_described_text(KIB32), "octoscript")
    assert module.is_valid(1)
    err = refused(_described_text(KIB32 + 1), "octoscript", "limit-exceeded", "")
    assert err.message


def test_octoscript_source_limit_counts_utf8_bytes() -> None:
    exact = _described_text(KIB32, "é")
    assert len(exact) < KIB32  # far fewer characters than bytes
    accepted(exact, "octoscript")
    accepted(exact.encode(), "octoscript")
    over = _described_text(KIB32 + 1, "é")
    refused(over, "octoscript", "limit-exceeded", "")
    refused(over.encode(), "octoscript", "limit-exceeded", "")


def test_octoscript_source_limit_whitespace_counts_in_text() -> None:
    text = '{"type": "integer"}' + " " * KIB32
    refused(text, "octoscript", "limit-exceeded", "")
    refused(text.encode(), "octoscript", "limit-exceeded", "")


def test_octoscript_source_limit_dict() -> None:
    # as a value the schema is measured as JSON: comfortably under, and plainly over, 32 KiB
    accepted({"description": "x" * (KIB32 - 100)}, "octoscript")
    refused({"description": "x" * KIB32}, "octoscript", "limit-exceeded", "")
    many = {
        "type": "object",
        "properties": {f"p{i}": {"type": "string", "description": "d" * 300} for i in range(120)},
    }
    refused(many, "octoscript", "limit-exceeded", "")


def test_source_limit_option() -> None:
    over = _described_text(KIB32 + 1)
    accepted(over, "octoscript", max_source_bytes=KIB32 + 1)
    accepted({"description": "x" * KIB32}, "octoscript", max_source_bytes=2 * KIB32)
    text = _described_text(100)
    accepted(text, "strict", max_source_bytes=100)
    refused(text, "strict", "limit-exceeded", "", max_source_bytes=99)
    refused(text, "lenient", "limit-exceeded", "", max_source_bytes=99)
    refused({"description": "x" * 200}, "strict", "limit-exceeded", "", max_source_bytes=100)


def chain(keyword: str, levels: int, leaf: Any = None) -> Any:
    """`levels` schemas nested through `keyword` ('items', 'properties', 'not', 'allOf', ...)."""
    schema: Any = {"type": "integer"} if leaf is None else leaf
    for _ in range(levels - 1):
        if keyword == "properties":
            schema = {"properties": {"a": schema}}
        elif keyword in ("allOf", "anyOf", "oneOf", "prefixItems"):
            schema = {keyword: [schema]}
        else:
            schema = {keyword: schema}
    return schema


STEP = {
    "items": "/items",
    "properties": "/properties/a",
    "additionalProperties": "/additionalProperties",
    "not": "/not",
    "allOf": "/allOf/0",
    "anyOf": "/anyOf/0",
    "oneOf": "/oneOf/0",
    "prefixItems": "/prefixItems/0",
}


@pytest.mark.parametrize("keyword", ["items", "properties"])
def test_octoscript_depth_limit(keyword: str) -> None:
    accepted(chain(keyword, 32), "octoscript")
    refused(chain(keyword, 33), "octoscript", "limit-exceeded", STEP[keyword] * 32)
    refused(chain(keyword, 40), "octoscript", "limit-exceeded", STEP[keyword] * 32)


def test_octoscript_depth_limit_mixed() -> None:
    schema: Any = {"type": "integer"}
    for i in range(31):  # 31 wrappers around the leaf: 32 levels
        schema = {"items": schema} if i % 2 else {"properties": {"k": schema}}
    accepted(schema, "octoscript")
    steps = "".join("/properties/k" if i % 2 == 0 else "/items" for i in range(30, -1, -1))
    refused(
        {"properties": {"top": schema}}, "octoscript", "limit-exceeded", "/properties/top" + steps
    )
    refused({"items": schema}, "octoscript", "limit-exceeded", "/items" + steps)


def test_octoscript_thirty_two_levels_validate() -> None:
    module = accepted(chain("items", 32, {"type": "integer"}), "octoscript")
    good: Any = 1
    bad: Any = "x"
    for _ in range(31):
        good, bad = [good], [bad]
    assert module.is_valid(good) and module.errors(good) == []
    assert not module.is_valid(bad)
    assert [(e.instance_location, e.keyword_location) for e in module.errors(bad)] == [
        ("/0" * 31, "/items" * 31 + "/type")
    ]


def test_depth_limit_option() -> None:
    accepted(chain("items", 40), "octoscript", max_depth=40)
    refused(chain("items", 41), "octoscript", "limit-exceeded", "/items" * 40, max_depth=40)
    accepted(chain("items", 3), "octoscript", max_depth=3)
    refused(chain("items", 4), "octoscript", "limit-exceeded", "/items" * 3, max_depth=3)
    accepted(chain("properties", 1), "octoscript", max_depth=1)
    refused(chain("properties", 2), "octoscript", "limit-exceeded", "/properties/a", max_depth=1)


@pytest.mark.parametrize(
    "keyword",
    [
        "items",
        "properties",
        "additionalProperties",
        "not",
        "allOf",
        "anyOf",
        "oneOf",
        "prefixItems",
    ],
)
def test_strict_depth_limit_option(keyword: str) -> None:
    accepted(chain(keyword, 5), "strict", max_depth=5)
    refused(chain(keyword, 6), "strict", "limit-exceeded", STEP[keyword] * 5, max_depth=5)


def test_lenient_depth_limit_option() -> None:
    accepted(chain("properties", 5), "lenient", max_depth=5)
    refused(
        chain("properties", 6), "lenient", "limit-exceeded", STEP["properties"] * 5, max_depth=5
    )


def test_lenient_depth_ignores_unknown_keywords() -> None:
    # "not" is not a lenient keyword: its value is not looked at, so it adds no depth
    accepted(chain("not", 10), "lenient", max_depth=5)


def _props(n: int) -> dict[str, Any]:
    return {f"p{i}": {"type": "string"} for i in range(n)}


def test_octoscript_properties_limit() -> None:
    module = accepted(
        {"properties": _props(128), "required": [f"p{i}" for i in range(128)]}, "octoscript"
    )
    assert module.is_valid({f"p{i}": str(i) for i in range(128)}) and not module.is_valid(
        {"p0": "0"}
    )
    refused({"properties": _props(129)}, "octoscript", "limit-exceeded", "/properties")
    refused(
        {"properties": {"a": {"properties": _props(129)}}},
        "octoscript",
        "limit-exceeded",
        "/properties/a/properties",
    )
    refused(
        {"items": {"properties": _props(200)}}, "octoscript", "limit-exceeded", "/items/properties"
    )
    # the limit is per object, not per schema
    accepted(
        {"properties": {"a": {"properties": _props(100)}, "b": {"properties": _props(100)}}},
        "octoscript",
    )


def test_properties_limit_option() -> None:
    accepted({"properties": _props(129)}, "octoscript", max_properties=129)
    refused(
        {"properties": _props(130)},
        "octoscript",
        "limit-exceeded",
        "/properties",
        max_properties=129,
    )
    refused({"properties": _props(3)}, "strict", "limit-exceeded", "/properties", max_properties=2)
    accepted({"properties": _props(2)}, "strict", max_properties=2)
    refused(
        {"properties": {"x": {"properties": _props(3)}}},
        "lenient",
        "limit-exceeded",
        "/properties/x/properties",
        max_properties=2,
    )


def test_octoscript_enum_limit() -> None:
    module = accepted({"enum": list(range(128))}, "octoscript")
    assert module.is_valid(127) and not module.is_valid(128)
    refused({"enum": list(range(129))}, "octoscript", "limit-exceeded", "/enum")
    refused(
        {"properties": {"e": {"enum": [str(i) for i in range(129)]}}},
        "octoscript",
        "limit-exceeded",
        "/properties/e/enum",
    )
    refused({"items": {"enum": list(range(1000))}}, "octoscript", "limit-exceeded", "/items/enum")


def test_enum_limit_option() -> None:
    accepted({"enum": list(range(129))}, "octoscript", max_enum_values=129)
    refused(
        {"enum": list(range(130))}, "octoscript", "limit-exceeded", "/enum", max_enum_values=129
    )
    refused({"enum": [1, 2, 3, 4]}, "strict", "limit-exceeded", "/enum", max_enum_values=3)
    refused(
        {"not": {"enum": [1, 2, 3, 4]}}, "strict", "limit-exceeded", "/not/enum", max_enum_values=3
    )


# ---------------------------------------------------------------------------------------------
# options
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "options",
    [
        {"max_dept": 3},
        {"foo": 1},
        {"maxDepth": 3},
        {"max_depth": 3, "bogus": True},
        {"max_depth": 0},
        {"max_depth": -1},
        {"max_depth": "3"},
        {"max_depth": 2.5},
        {"max_depth": True},
        {"max_depth": None},
        {"max_properties": 0},
        {"max_properties": "x"},
        {"max_enum_values": -5},
        {"max_source_bytes": 1.5},
        {"max_source_bytes": False},
        {"max_enum_values": [3]},
    ],
    ids=repr,
)
def test_bad_option(options: dict[str, Any]) -> None:
    for profile in ("octoscript", "strict", "lenient"):
        with pytest.raises(generator.OptionError):
            compile_({"type": "integer"}, profile, **options)


@pytest.mark.parametrize(
    "arguments",
    [
        {"base_uri": 1},
        {"base_uri": None},
        {"base_uri": b"https://example.com/"},
        {"base_uri": "http://[::1/x"},
        {"base_uri": "http://[foo]/"},
        {"fragment": 1},
        {"fragment": None},
        {"name": 1},
        {"name": b"m"},
        {"registry": 1},
        {"registry": [{}]},
        {"registry": {1: {}}},
        {"registry": {None: {}}},
    ],
    ids=repr,
)
def test_an_argument_of_the_wrong_type_is_an_option_error(arguments: dict[str, Any]) -> None:
    """Never an AttributeError or TypeError from deep inside (`base_uri=1` was one)."""
    with pytest.raises(generator.OptionError):
        generator.compile_source({"type": "integer"}, **arguments)
    with pytest.raises(generator.OptionError):
        generator.compile_module({"type": "integer"}, **arguments)
    if "base_uri" not in arguments and "fragment" not in arguments:  # (a contract takes neither)
        contract = {"name": "t", "input": {"type": "object"}, "output": {"type": "object"}}
        with pytest.raises(generator.OptionError):
            generator.compile_contract_source(contract, **arguments)


def test_a_registry_may_be_any_mapping() -> None:
    from types import MappingProxyType

    registry = MappingProxyType({"https://example.com/n.json": {"type": "integer"}})
    module = generator.compile_module({"$ref": "https://example.com/n.json"}, registry=registry)
    assert module.is_valid(1) and not module.is_valid("1")


def test_bad_option_is_reported_before_the_schema_is_read() -> None:
    with pytest.raises(generator.OptionError):
        compile_("{not json", "strict", max_depth=0)
    with pytest.raises(generator.OptionError):
        compile_({"$ref": "#"}, "octoscript", max_dept=3)


def test_unknown_profile() -> None:
    with pytest.raises(generator.OptionError):
        compile_({}, "nonesuch")


# ---------------------------------------------------------------------------------------------
# schemas given as text go through the exact loader; deep schemas never reach RecursionError
# ---------------------------------------------------------------------------------------------
def test_text_schema_bad_json() -> None:
    refused("{not json", "strict", "bad-json", None)
    refused(b'{"type": "integer",}', "octoscript", "bad-json", None)
    refused(b'{"type": "\xff"}', "lenient", "bad-json", None)
    refused('{"minimum": NaN}', "strict", "bad-json", None)
    refused('{"properties": {"a": {}, "a": {}}}', "strict", "bad-json", "/properties")
    refused('{"items": {"type": "string", "type": "integer"}}', "octoscript", "bad-json", "/items")


def test_text_schema_compiles() -> None:
    module = accepted(
        '{"type": "object", "properties": {"n": {"type": "integer", "maximum": 3}}}', "octoscript"
    )
    assert module.is_valid({"n": 3}) and not module.is_valid({"n": 4})
    module = accepted(b'{"enum": [0.30000000000000000001]}', "strict")
    assert not module.is_valid(0.3) and module.is_valid(Decimal("0.30000000000000000001"))


@pytest.mark.parametrize("profile", ["octoscript", "strict", "lenient"])
def test_very_deep_schema_value_is_a_schema_error(profile: str) -> None:
    deep: Any = {}
    for _ in range(100_000):
        deep = {"properties": {"a": deep}}
    with pytest.raises(generator.SchemaError):
        compile_(deep, profile)
    deep_not: Any = {}
    for _ in range(100_000):
        deep_not = {"not": deep_not}
    with pytest.raises(generator.SchemaError):
        compile_(deep_not, profile if profile != "octoscript" else "strict")


@pytest.mark.parametrize("profile", ["octoscript", "strict", "lenient"])
def test_very_deep_schema_text_is_a_schema_error(profile: str) -> None:
    for text in (
        "[" * 100_000,
        '{"items":' * 100_000 + "{}" + "}" * 100_000,
        '{"enum": [' + "[" * 100_000 + "]" * 100_000 + "]}",
    ):
        with pytest.raises(generator.SchemaError):
            compile_(text, profile, max_source_bytes=10**7)


@pytest.mark.parametrize("profile", ["octoscript", "strict"])
def test_deeply_nested_enum_value(profile: str) -> None:
    value: Any = 1
    for _ in range(100_000):
        value = [value]
    with pytest.raises(generator.SchemaError):
        compile_({"enum": [value]}, profile)


def test_deeply_nested_ignored_value_in_lenient_never_recursion_error() -> None:
    value: Any = 1
    for _ in range(100_000):
        value = [value]
    try:
        module = compile_({"enum": [value], "type": "integer"}, "lenient")
    except generator.SchemaError:
        return
    assert module.is_valid(1) and not module.is_valid("x")


def test_schema_error_is_not_option_error() -> None:
    err = refused({"minimum": "3"}, "strict", "bad-keyword-value", "/minimum")
    assert isinstance(err, generator.SchemaError)
    assert "/minimum" in str(err) or err.pointer == "/minimum"
    assert json.dumps(err.code)  # a plain string


@pytest.mark.parametrize("draft", ["draft2020-12", "draft7", "draft4"])
@pytest.mark.parametrize("name", ["(", "[z-a]", "a{2,1}"])
def test_bad_regex_as_a_pattern_properties_name(draft: str, name: str) -> None:
    """patternProperties names are patterns too: refused with their pointer, never a raw error."""
    refused(
        {"properties": {"p": {"patternProperties": {"ok": {}, name: {}}}}},
        draft,
        "bad-regex",
        "/properties/p/patternProperties/" + name,
    )


def test_a_referenced_document_of_another_draft_is_checked_and_lowered_by_its_own_draft() -> None:
    """A draft-7 document reached from a 2020-12 schema follows draft 7: the siblings of its $ref
    are ignored (a bad one included), where 2020-12 would check them."""
    from generator.reference import DraftReference

    registry = {
        "http://example.com/d7.json": {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "$ref": "#/definitions/x",
            "minLength": "abc",
            "maxLength": 1,
            "definitions": {"x": {"type": "string"}},
        }
    }
    schema = {"$ref": "http://example.com/d7.json"}
    module = generator.compile_module(
        schema, profile="draft2020-12", registry=registry, format=False
    )
    reference = DraftReference(schema, "draft2020-12", registry=registry)
    for instance, valid in [("long string", True), (1, False)]:
        assert module.is_valid(instance) is reference.is_valid(instance) is valid
    # the same sibling in a 2020-12 document is checked, and refused
    registry["http://example.com/d7.json"][
        "$schema"
    ] = "https://json-schema.org/draft/2020-12/schema"
    registry["http://example.com/d7.json"]["$defs"] = {"x": {"type": "string"}}
    with pytest.raises(generator.SchemaError) as info:
        generator.compile_source(schema, profile="draft2020-12", registry=registry, format=False)
    # located in the document it is in, by its URI: "/minLength" alone would name the schema's own
    assert (
        info.value.code == "bad-keyword-value"
        and info.value.pointer == "http://example.com/d7.json#/minLength"
    )


@pytest.mark.parametrize(
    "root_draft, meta, embedded, answers",
    [
        # draft 7's array form of items and additionalItems, bundled in a 2020-12 document
        (
            "draft2020-12",
            "http://json-schema.org/draft-07/schema#",
            {
                "$id": "http://ex.com/legacy",
                "items": [{"type": "integer"}],
                "additionalItems": False,
            },
            [([1], True), ([1, 2], False), (["a"], False), ([], True)],
        ),
        # draft 4's boolean exclusiveMaximum (its identifier is `id`), in 2020-12 and in draft 7
        (
            "draft2020-12",
            "http://json-schema.org/draft-04/schema#",
            {"id": "http://ex.com/legacy", "maximum": 5, "exclusiveMaximum": True},
            [(4, True), (5, False), (6, False)],
        ),
        (
            "draft7",
            "http://json-schema.org/draft-04/schema#",
            {"id": "http://ex.com/legacy", "maximum": 5, "exclusiveMaximum": True},
            [(4, True), (5, False)],
        ),
    ],
)
def test_an_embedded_resource_of_another_draft_is_checked_by_its_own_draft(
    root_draft: str, meta: str, embedded: dict[str, Any], answers: list[tuple[Any, bool]]
) -> None:
    """A bundled resource's `$schema` switches the draft below it (2020-12 core 9.3.3): preflight
    refused its keywords by the root's draft (`items must be one schema`), where lowering and the
    reference already read them by its own."""
    from generator.reference import DraftReference

    defs = "$defs" if root_draft == "draft2020-12" else "definitions"
    schema = {defs: {"legacy": {**embedded, "$schema": meta}}, "$ref": "http://ex.com/legacy"}
    module = generator.compile_module(schema, profile=root_draft, format=False)
    reference = DraftReference(schema, root_draft)
    for instance, valid in answers:
        assert module.is_valid(instance) is reference.is_valid(instance) is valid
    # a bad value by the embedded draft's own rules is still refused, at its place
    with pytest.raises(generator.SchemaError) as refused:
        generator.compile_source(
            {
                defs: {"legacy": {**embedded, "$schema": meta, "minItems": -1}},
                "$ref": "http://ex.com/legacy",
            },
            profile=root_draft,
        )
    assert (refused.value.code, refused.value.pointer) == (
        "bad-keyword-value",
        f"/{defs}/legacy/minItems",
    )


@pytest.mark.parametrize("depth, said", [(1, "the limit of 1 level"), (2, "the limit of 2 levels")])
def test_the_depth_limit_is_said_in_words(depth: int, said: str) -> None:
    schema = {"properties": {"a": {"properties": {"b": {"properties": {"c": {"type": "string"}}}}}}}
    with pytest.raises(generator.SchemaError) as raised:
        generator.compile_source(schema, profile="draft2020-12", max_depth=depth)
    assert raised.value.code == "limit-exceeded" and raised.value.message.endswith(
        said
    ), raised.value.message


@pytest.mark.parametrize(
    ("document", "pointer", "message"),
    [
        ({"const": {1: 2}}, "/const", "object key 1 is not a string"),
        ({"const": object()}, "/const", "a object is not a JSON value"),
        ({1: {"type": "string"}}, "", "schema key 1 is not a string"),
        ({"minimum": {1}}, "/minimum", "minimum must be a number, not a set"),
    ],
)
def test_a_registry_document_given_as_python_objects_is_held_to_json(
    document: dict[Any, Any], pointer: str, message: str
) -> None:
    """The registry's documents are checked where the compile reads them, keyword by keyword:
    a value JSON cannot hold is refused there, at its place in that document."""
    with pytest.raises(generator.SchemaError) as raised:
        generator.compile_source(
            {"$ref": "https://example.com/s"},
            profile="draft2020-12",
            registry={"https://example.com/s": document},
        )
    assert (raised.value.code, raised.value.message) == ("bad-keyword-value", message)
    assert raised.value.pointer == "https://example.com/s#" + pointer


def test_a_schema_given_as_python_objects_is_json_all_through() -> None:
    looped: dict[str, Any] = {"type": "object"}
    looped["properties"] = {"self": looped}
    with pytest.raises(generator.SchemaError) as raised:
        generator.compile_source(looped, profile="draft2020-12")
    assert (raised.value.code, raised.value.pointer) == ("bad-json", "/properties/self")
    with pytest.raises(generator.SchemaError) as raised:
        generator.compile_source({"properties": {("a", "b"): {}}}, profile="draft2020-12")
    assert raised.value.message == "object key ('a', 'b') is not a string"
    assert raised.value.pointer == "/properties"
    deep: list[Any] = []
    for _ in range(150):
        deep = [deep]
    with pytest.raises(generator.SchemaError) as raised:
        generator.compile_source({"const": deep}, profile="draft2020-12")
    assert raised.value.code == "limit-exceeded"
    assert raised.value.message == "value nested deeper than 100 levels"


def test_the_octoscript_profile_needs_object_schemas() -> None:
    with pytest.raises(generator.SchemaError) as raised:
        generator.compile_source({"properties": {"a": True}}, profile="octoscript")
    assert (raised.value.code, raised.value.pointer) == ("not-a-schema", "/properties/a")
    assert raised.value.message == "the octoscript profile needs an object schema here, not true"


def test_a_meta_schema_nobody_knows_is_refused_unless_a_profile_is_named() -> None:
    schema = {"$schema": "https://example.com/my-meta", "type": "integer"}
    with pytest.raises(generator.SchemaError) as raised:
        generator.compile_source(schema)
    assert (raised.value.code, raised.value.pointer) == ("unknown-profile", "/$schema")
    assert "names no known draft and no meta-schema in the registry" in raised.value.message
    assert not generator.compile_module(schema, profile="draft7").is_valid("1")


def test_a_custom_meta_schema_without_vocabularies_is_its_parents_draft() -> None:
    meta = {"$schema": "http://json-schema.org/draft-07/schema#"}
    schema = {"$schema": "https://example.com/meta", "items": [{"type": "integer"}]}
    module = generator.compile_module(schema, registry={"https://example.com/meta": meta})
    # draft 7's array form of items: the first item must be an integer, the rest anything
    assert module.is_valid([1, "x"]) and not module.is_valid(["x", 1])


def test_a_meta_schema_in_a_registry_file_that_cannot_be_used_is_named(tmp_path: Any) -> None:
    from generator.resolve import RegistryWarning

    (tmp_path / "meta.json").write_text("{not json", encoding="utf-8")
    schema = {"$schema": (tmp_path / "meta.json").as_uri(), "type": "integer"}
    with pytest.warns(RegistryWarning):
        with pytest.raises(generator.SchemaError) as raised:
            generator.compile_source(schema, registry=tmp_path)
    assert (raised.value.code, raised.value.pointer) == ("unresolvable-ref", "/$schema")
    assert f"names registry file {tmp_path / 'meta.json'}, which cannot be used" in str(
        raised.value.message
    )


def test_a_limit_option_of_none_lifts_the_profiles_limit() -> None:
    schema = {"enum": [f"value-{i:05d}" for i in range(3000)]}  # about 45 kB: over 32 kB
    with pytest.raises(generator.SchemaError) as raised:
        generator.compile_source(schema, profile="octoscript")
    assert raised.value.code == "limit-exceeded"
    lifted = generator.compile_module(
        schema, profile="octoscript", max_source_bytes=None, max_enum_values=None
    )
    assert lifted.is_valid("value-02999") and not lifted.is_valid("value-03000")


def test_format_assertion_by_vocabulary_reads_only_a_vocabulary_object() -> None:
    from generator.profiles import asserts_formats_by_vocabulary

    assertion_2020 = "https://json-schema.org/draft/2020-12/vocab/format-assertion"
    format_2019 = "https://json-schema.org/draft/2019-09/vocab/format"
    assert asserts_formats_by_vocabulary({assertion_2020: False})
    assert asserts_formats_by_vocabulary({format_2019: True})
    assert not asserts_formats_by_vocabulary({format_2019: False})
    assert not asserts_formats_by_vocabulary([assertion_2020])  # not a $vocabulary object
