"""Every keyword's error, exactly: its locations, `keyword`, `params` (JSON values), message (JSON
text of the values, naming what was expected) and `instance`; the reference interpreter gives the
same (helpers.errors checks it on every case)."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest

from .helpers import errors, module, summary

# (id, draft, schema, instance, [(instance location, keyword location, keyword, params, message)])
CASES: list[tuple[str, str, Any, Any, list[tuple[str, str, str, dict[str, Any], str]]]] = [
    (
        "type",
        "draft2020-12",
        {"type": "integer"},
        None,
        [("", "/type", "type", {"type": "integer"}, 'null is not of type "integer"')],
    ),
    (
        "type list, in a fixed order, integer left out under number",
        "draft2020-12",
        {"type": ["string", "integer", "number", "null"]},
        True,
        [
            (
                "",
                "/type",
                "type",
                {"type": ["null", "number", "string"]},
                'true is not of type ["null", "number", "string"]',
            )
        ],
    ),
    (
        "enum",
        "draft2020-12",
        {"enum": ["a", 1, None, {"k": [True]}]},
        "b",
        [
            (
                "",
                "/enum",
                "enum",
                {"allowedValues": ["a", 1, None, {"k": [True]}]},
                '"b" is not one of ["a", 1, null, {"k": [true]}]',
            )
        ],
    ),
    (
        "const",
        "draft2020-12",
        {"const": {"a": 1.5}},
        {"a": 2},
        [
            (
                "",
                "/const",
                "const",
                {"allowedValue": {"a": 1.5}},
                '{"a": 2} is not the expected value {"a": 1.5}',
            )
        ],
    ),
    (
        "minimum",
        "draft2020-12",
        {"minimum": 3},
        2,
        [
            (
                "",
                "/minimum",
                "minimum",
                {"limit": 3, "comparison": ">="},
                "2 is less than the minimum of 3",
            )
        ],
    ),
    (
        "maximum",
        "draft2020-12",
        {"maximum": 2.5},
        3,
        [
            (
                "",
                "/maximum",
                "maximum",
                {"limit": 2.5, "comparison": "<="},
                "3 is greater than the maximum of 2.5",
            )
        ],
    ),
    (
        "exclusiveMinimum",
        "draft2020-12",
        {"exclusiveMinimum": 0},
        0,
        [
            (
                "",
                "/exclusiveMinimum",
                "exclusiveMinimum",
                {"limit": 0, "comparison": ">"},
                "0 is less than or equal to the exclusiveMinimum of 0",
            )
        ],
    ),
    (
        "exclusiveMaximum",
        "draft2020-12",
        {"exclusiveMaximum": 1},
        1.0,
        [
            (
                "",
                "/exclusiveMaximum",
                "exclusiveMaximum",
                {"limit": 1, "comparison": "<"},
                "1.0 is greater than or equal to the exclusiveMaximum of 1",
            )
        ],
    ),
    (
        "draft 4 exclusive flag",
        "draft4",
        {"maximum": 5, "exclusiveMaximum": True},
        5,
        [
            (
                "",
                "/maximum",
                "maximum",
                {"limit": 5, "comparison": "<"},
                "5 is greater than or equal to the maximum of 5",
            )
        ],
    ),
    (
        "an exact decimal bound",
        "draft2020-12",
        {"minimum": Decimal("0.30000000000000000001")},
        0.3,
        [
            (
                "",
                "/minimum",
                "minimum",
                {"limit": Decimal("0.30000000000000000001"), "comparison": ">="},
                "0.3 is less than the minimum of 0.30000000000000000001",
            )
        ],
    ),
    (
        "multipleOf",
        "draft2020-12",
        {"multipleOf": 0.1},
        0.25,
        [("", "/multipleOf", "multipleOf", {"multipleOf": 0.1}, "0.25 is not a multiple of 0.1")],
    ),
    (
        "minLength",
        "draft2020-12",
        {"minLength": 3},
        "ab",
        [("", "/minLength", "minLength", {"limit": 3}, '"ab" is too short (minLength 3)')],
    ),
    (
        "maxLength",
        "draft2020-12",
        {"maxLength": 1},
        "é\n",
        [("", "/maxLength", "maxLength", {"limit": 1}, '"é\\n" is too long (maxLength 1)')],
    ),
    (
        "pattern",
        "draft2020-12",
        {"pattern": "^a\\d"},
        "ax",
        [
            (
                "",
                "/pattern",
                "pattern",
                {"pattern": "^a\\d"},
                '"ax" does not match the pattern "^a\\\\d"',
            )
        ],
    ),
    (
        "minItems",
        "draft2020-12",
        {"minItems": 2},
        [1],
        [("", "/minItems", "minItems", {"limit": 2}, "[1] has too few items (minItems 2)")],
    ),
    (
        "maxItems",
        "draft2020-12",
        {"maxItems": 1},
        [1, 2],
        [("", "/maxItems", "maxItems", {"limit": 1}, "[1, 2] has too many items (maxItems 1)")],
    ),
    (
        "uniqueItems: the first repeat and the item it repeats",
        "draft2020-12",
        {"uniqueItems": True},
        [1, "a", {"x": 1}, "a", {"x": 1.0}],
        [
            (
                "",
                "/uniqueItems",
                "uniqueItems",
                {"duplicates": [1, 3]},
                '[1, "a", {"x": 1}, "a", {"x": 1.0}] has non-unique elements: items [1, 3] are equal',
            )
        ],
    ),
    (
        "minProperties",
        "draft2020-12",
        {"minProperties": 1},
        {},
        [
            (
                "",
                "/minProperties",
                "minProperties",
                {"limit": 1},
                "{} has too few properties (minProperties 1)",
            )
        ],
    ),
    (
        "maxProperties",
        "draft2020-12",
        {"maxProperties": 0},
        {"a": None},
        [
            (
                "",
                "/maxProperties",
                "maxProperties",
                {"limit": 0},
                '{"a": null} has too many properties (maxProperties 0)',
            )
        ],
    ),
    (
        "required",
        "draft2020-12",
        {"required": ["a", "b", "c"]},
        {"b": 1},
        [
            ("", "/required", "required", {"missingProperty": "a"}, '"a" is a required property'),
            ("", "/required", "required", {"missingProperty": "c"}, '"c" is a required property'),
        ],
    ),
    (
        "additionalProperties false",
        "draft2020-12",
        {"properties": {"a": {}}, "additionalProperties": False},
        {"a": 1, "b/c": [2]},
        [
            (
                "/b~1c",
                "/additionalProperties",
                "additionalProperties",
                {"additionalProperty": "b/c"},
                'additional property "b/c" is not allowed',
            )
        ],
    ),
    (
        "additionalProperties false beside patternProperties names the patterns",
        "draft2020-12",
        {"patternProperties": {"^x-": {}}, "additionalProperties": False},
        {"x-a": 1, "y": 2},
        [
            (
                "/y",
                "/additionalProperties",
                "additionalProperties",
                {"additionalProperty": "y", "patterns": ["^x-"]},
                'additional property "y" is not allowed: it matches none of the patterns ["^x-"]',
            )
        ],
    ),
    (
        "additionalProperties false beside properties and patternProperties",
        "draft2020-12",
        {
            "properties": {"name": {}},
            "patternProperties": {"^#.+$": {}, "^[a-z]{2}$": {"type": "string"}},
            "additionalProperties": False,
        },
        {"name": 1, "#": 2, "en": "x", "#a": 3},
        [
            (
                "/#",
                "/additionalProperties",
                "additionalProperties",
                {"additionalProperty": "#", "patterns": ["^#.+$", "^[a-z]{2}$"]},
                'additional property "#" is not allowed: it matches none of the patterns ["^#.+$", "^[a-z]{2}$"]',
            )
        ],
    ),
    (
        "dependentRequired",
        "draft2020-12",
        {"dependentRequired": {"card": ["billing", "cvc"]}},
        {"card": 1, "cvc": 2},
        [
            (
                "",
                "/dependentRequired",
                "dependentRequired",
                {"missingProperty": "billing", "property": "card"},
                '"billing" is a required property when "card" is present',
            )
        ],
    ),
    (
        "draft 7 dependencies, array form",
        "draft7",
        {"dependencies": {"card": ["billing"]}},
        {"card": 1},
        [
            (
                "",
                "/dependencies",
                "dependencies",
                {"missingProperty": "billing", "property": "card"},
                '"billing" is a required property when "card" is present',
            )
        ],
    ),
    (
        "propertyNames",
        "draft2020-12",
        {"propertyNames": {"maxLength": 2}},
        {"abc": 1},
        [
            (
                "",
                "/propertyNames/maxLength",
                "maxLength",
                {"limit": 2},
                '"abc" is too long (maxLength 2)',
            )
        ],
    ),
    (
        "unevaluatedProperties false",
        "draft2020-12",
        {"properties": {"a": {}}, "unevaluatedProperties": False},
        {"a": 1, "b": 2},
        [
            (
                "/b",
                "/unevaluatedProperties",
                "unevaluatedProperties",
                {"unevaluatedProperty": "b"},
                'unevaluated property "b" is not allowed',
            )
        ],
    ),
    (
        "unevaluatedItems false",
        "draft2020-12",
        {"prefixItems": [{}], "unevaluatedItems": False},
        [1, 2],
        [
            (
                "/1",
                "/unevaluatedItems",
                "unevaluatedItems",
                {"unevaluatedItem": 1},
                "unevaluated item 1 is not allowed",
            )
        ],
    ),
    (
        "items false after prefixItems: the false schema",
        "draft2020-12",
        {"prefixItems": [{}], "items": False},
        [1, "x"],
        [("/1", "/items", "false", {}, '"x" is not allowed: the schema is false')],
    ),
    (
        "additionalItems false (draft 2019-09)",
        "draft2019-09",
        {"items": [{}], "additionalItems": False},
        [1, None],
        [("/1", "/additionalItems", "false", {}, "null is not allowed: the schema is false")],
    ),
    (
        "a false property schema",
        "draft2020-12",
        {"properties": {"a": False}},
        {"a": 1},
        [("/a", "/properties/a", "false", {}, "1 is not allowed: the schema is false")],
    ),
    (
        "not",
        "draft2020-12",
        {"not": {"type": "string"}},
        "s",
        [("", "/not", "not", {}, '"s" should not be valid under the schema of not')],
    ),
    (
        "if/then: then's errors",
        "draft2020-12",
        {"if": {"minimum": 0}, "then": {"multipleOf": 2}},
        3,
        [("", "/then/multipleOf", "multipleOf", {"multipleOf": 2}, "3 is not a multiple of 2")],
    ),
    (
        "if/else: else's errors",
        "draft2020-12",
        {"if": {"minimum": 0}, "else": {"const": 0}},
        -1,
        [("", "/else/const", "const", {"allowedValue": 0}, "-1 is not the expected value 0")],
    ),
    (
        "$ref: the locations through it",
        "draft2020-12",
        {
            "$id": "https://example.com/s",
            "properties": {"a": {"$ref": "#/$defs/n"}},
            "$defs": {"n": {"type": "number"}},
        },
        {"a": "1"},
        [
            (
                "/a",
                "/properties/a/$ref/type",
                "type",
                {"type": "number"},
                '"1" is not of type "number"',
            )
        ],
    ),
]


@pytest.mark.parametrize(
    ("draft", "schema", "instance", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_each_keyword_error(draft: str, schema: Any, instance: Any, expected: list[Any]) -> None:
    found = errors(schema, instance, draft)
    assert [summary(e) for e in found] == expected
    for error in found:
        assert error.context == [] and error.branch is None
        json.dumps(error.params, default=str)  # JSON values (a Decimal where no float is exact)


def test_the_instance_is_the_value_at_the_instance_location() -> None:
    schema = {
        "properties": {"a": {"type": "string"}},
        "additionalProperties": False,
        "required": ["z"],
    }
    instance = {"a": 5, "b": [1]}
    by_keyword = {e.keyword: e.instance for e in errors(schema, instance)}
    assert by_keyword == {"type": 5, "additionalProperties": [1], "required": instance}


def test_str_of_an_error_starts_with_its_instance_location() -> None:
    schema = {"properties": {"a": {"items": {"type": "string"}}}, "required": ["z"]}
    found = errors(schema, {"a": ["x", 5]})
    assert [str(e) for e in found] == [
        '(root): "z" is a required property',
        '/a/1: 5 is not of type "string"',
    ]
    assert [e.message for e in found] == ['"z" is a required property', '5 is not of type "string"']
    with pytest.raises(module(schema).ValidationError, match=r'^/a/1: 5 is not of type "string"$'):
        module(schema).validate({"a": ["x", 5], "z": 1})


def test_absolute_keyword_location_past_a_reference() -> None:
    schema = {
        "$id": "https://example.com/s",
        "properties": {"a": {"$ref": "#/$defs/n"}},
        "$defs": {"n": {"type": "number"}},
    }
    (error,) = errors(schema, {"a": "1"})
    assert error.absolute_keyword_location == "https://example.com/s#/$defs/n/type"


def test_params_are_each_errors_own() -> None:
    """Changing one error's params changes neither the next errors' nor the messages."""
    schema = {"enum": [[1, 2], "x"]}
    first = module(schema).errors(3)[0]
    first.params["allowedValues"][0].append(99)
    first.params["allowedValues"].clear()
    again = module(schema).errors(3)[0]
    assert again.params == {"allowedValues": [[1, 2], "x"]}
    assert again.message == '3 is not one of [[1, 2], "x"]'


# -- the enum's values in the message: up to ten, then how many more -------------------------
def test_a_long_enum_names_its_first_ten_values_and_counts_the_rest() -> None:
    values = [f"v{i}" for i in range(25)]
    (error,) = errors({"enum": values}, "nope")
    shown = ", ".join(f'"v{i}"' for i in range(10))
    assert error.message == f'"nope" is not one of [{shown}, ... 15 more]'
    assert error.params == {"allowedValues": values}


def test_a_long_enum_value_is_bounded_in_the_message() -> None:
    (error,) = errors({"enum": ["x" * 500, 1]}, 2)
    assert error.message == '2 is not one of ["' + "x" * 56 + "..., 1]"
    assert error.params["allowedValues"][0] == "x" * 500


# -- oneOf, anyOf, contains: the context ------------------------------------------------------
ALTERNATIVES = [
    {"type": "string", "maxLength": 2},
    {"type": "integer", "minimum": 10},
    {"type": "array"},
]


def test_one_of_when_no_alternative_holds_carries_each_ones_errors() -> None:
    (error,) = errors({"oneOf": ALTERNATIVES}, "abc")
    assert summary(error) == (
        "",
        "/oneOf",
        "oneOf",
        {"passingSchemas": []},
        '"abc" is not valid under any of the given schemas',
    )
    assert [(e.branch, e.keyword_location, e.keyword) for e in error.context] == [
        (0, "/oneOf/0/maxLength", "maxLength"),
        (1, "/oneOf/1/type", "type"),
        (2, "/oneOf/2/type", "type"),
    ]


def test_one_of_when_several_hold_names_them() -> None:
    (error,) = errors({"oneOf": [{"type": "integer"}, {"maximum": 0}, {"minimum": 0}]}, 0)
    assert summary(error) == (
        "",
        "/oneOf",
        "oneOf",
        {"passingSchemas": [0, 1, 2]},
        "0 is valid under more than one of the given schemas: [0, 1, 2]",
    )
    assert error.context == []


def test_any_of_carries_each_alternatives_errors_with_nested_contexts() -> None:
    schema = {
        "anyOf": [
            {
                "type": "object",
                "properties": {"a": {"oneOf": [{"type": "null"}, {"type": "boolean"}]}},
            },
            {"type": "string"},
        ]
    }
    (error,) = errors(schema, {"a": 1})
    assert summary(error) == (
        "",
        "/anyOf",
        "anyOf",
        {},
        '{"a": 1} is not valid under any of the given schemas',
    )
    inner, string = error.context
    assert (inner.branch, inner.keyword_location, inner.instance_location) == (
        0,
        "/anyOf/0/properties/a/oneOf",
        "/a",
    )
    assert [(e.branch, e.keyword_location) for e in inner.context] == [
        (0, "/anyOf/0/properties/a/oneOf/0/type"),
        (1, "/anyOf/0/properties/a/oneOf/1/type"),
    ]
    assert (string.branch, string.keyword_location) == (1, "/anyOf/1/type")


def test_alternatives_through_references_keep_their_locations() -> None:
    schema = {
        "$id": "https://example.com/r",
        "oneOf": [{"$ref": "#/$defs/s"}, {"$ref": "#/$defs/n"}],
        "$defs": {"s": {"type": "string"}, "n": {"type": "number"}},
    }
    (error,) = errors(schema, None)
    assert [(e.keyword_location, e.absolute_keyword_location) for e in error.context] == [
        ("/oneOf/0/$ref/type", "https://example.com/r#/$defs/s/type"),
        ("/oneOf/1/$ref/type", "https://example.com/r#/$defs/n/type"),
    ]


def test_contains_without_a_match_carries_each_items_errors() -> None:
    (error,) = errors({"contains": {"type": "integer", "minimum": 5}}, [1, "x"])
    assert summary(error) == (
        "",
        "/contains",
        "contains",
        {"minContains": 1, "matches": 0},
        '[1, "x"] has no item that matches the contains schema',
    )
    assert [(e.branch, e.instance_location, e.keyword_location) for e in error.context] == [
        (0, "/0", "/contains/minimum"),
        (1, "/1", "/contains/type"),
    ]


def test_min_and_max_contains() -> None:
    schema = {"contains": {"type": "integer"}, "minContains": 2, "maxContains": 3}
    (few,) = errors(schema, [1, "a"])
    assert summary(few) == (
        "",
        "/minContains",
        "minContains",
        {"minContains": 2, "matches": 1},
        '[1, "a"] has too few items that match the contains schema (1, minContains 2)',
    )
    assert [(e.branch, e.keyword) for e in few.context] == [(1, "type")]
    (many,) = errors(schema, [1, 2, 3, 4])
    assert summary(many) == (
        "",
        "/maxContains",
        "maxContains",
        {"maxContains": 3, "matches": 4},
        "[1, 2, 3, 4] has too many items that match the contains schema (4, maxContains 3)",
    )
    assert many.context == []


def test_not_has_no_context() -> None:
    (error,) = errors({"not": {"anyOf": [{"type": "string"}, {"type": "null"}]}}, None)
    assert error.context == []


# -- tool contracts ----------------------------------------------------------------------------
def test_contract_modules_give_the_same_structured_errors() -> None:
    from generator.contracts import compile_contract_module

    contract = compile_contract_module(
        {
            "name": "geo.point",
            "profile": "draft2020-12",
            "input": {
                "type": "object",
                "properties": {
                    "kind": {"enum": ["a", "b"]},
                    "at": {"oneOf": [{"type": "string"}, {"type": "array"}]},
                },
                "required": ["kind"],
            },
            "output": {"type": "object", "properties": {"n": {"type": "integer"}}},
        },
        format=False,
    )
    found = contract.input_errors({"kind": "c", "at": 1})
    assert [summary(e) for e in found] == [
        (
            "/kind",
            "/properties/kind/enum",
            "enum",
            {"allowedValues": ["a", "b"]},
            '"c" is not one of ["a", "b"]',
        ),
        (
            "/at",
            "/properties/at/oneOf",
            "oneOf",
            {"passingSchemas": []},
            "1 is not valid under any of the given schemas",
        ),
    ]
    assert [e.branch for e in found[1].context] == [0, 1]
    assert (
        contract.best_match(found) is found[0]
    )  # (as deep as each other: python-jsonschema's order)
    assert [summary(e) for e in contract.output_errors({"n": "1"})] == [
        ("/n", "/properties/n/type", "type", {"type": "integer"}, '"1" is not of type "integer"')
    ]
    (envelope,) = contract.input_errors(3)
    assert (envelope.keyword, envelope.params, envelope.instance) == (
        "type",
        {"type": ["object", "array"]},
        3,
    )
    assert envelope.message == "the input must be a JSON object or array, not 3"
    assert contract.input_output({"kind": "a"}) == {"valid": True}
    assert contract.output_output({"n": "1"}, "basic") == {
        "valid": False,
        "errors": [
            {
                "valid": False,
                "keywordLocation": "/properties/n/type",
                "instanceLocation": "/n",
                "error": '"1" is not of type "integer"',
            }
        ],
    }
