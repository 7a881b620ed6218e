"""output(instance, format): the output formats of JSON Schema 2020-12 (core, "Output Formatting"),
on the specification's own example, against the official output schema (python-jsonschema and a
module of our own as validators), and for every schema and instance Hypothesis draws."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

import generator
from generator.load import load_json

from ..strategies import JSON, REFUSED_GRAPHS, compile_drawn, draft_document, instances
from ..suite import suite_dir
from .helpers import module
from .workflow import MISTAKES, WORKFLOW

# The specification's example (a polygon of points), as a 2020-12 schema.
POLYGON = {
    "$id": "https://example.com/polygon",
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$defs": {
        "point": {
            "type": "object",
            "properties": {"x": {"type": "number"}, "y": {"type": "number"}},
            "additionalProperties": False,
            "required": ["x", "y"],
        }
    },
    "type": "array",
    "items": {"$ref": "#/$defs/point"},
    "minItems": 3,
}
POINTS = [{"x": 2.5, "y": 1.3}, {"x": 1, "z": 6.7}]
TOO_FEW = {
    "valid": False,
    "keywordLocation": "/minItems",
    "instanceLocation": "",
    "error": '[{"x": 2.5, "y": 1.3}, {"x": 1, "z": 6.7}] has too few items (minItems 3)',
}
MISSING_Y = {
    "valid": False,
    "keywordLocation": "/items/$ref/required",
    "absoluteKeywordLocation": "https://example.com/polygon#/$defs/point/required",
    "instanceLocation": "/1",
    "error": '"y" is a required property',
}
EXTRA_Z = {
    "valid": False,
    "keywordLocation": "/items/$ref/additionalProperties",
    "absoluteKeywordLocation": "https://example.com/polygon#/$defs/point/additionalProperties",
    "instanceLocation": "/1/z",
    "error": 'additional property "z" is not allowed',
}


def _output_schema() -> Any:
    return load_json(
        (suite_dir() / "output-tests" / "draft2020-12" / "output-schema.json").read_bytes()
    )


OUTPUT_SCHEMA = _output_schema()
OUTPUT_CHECKER = jsonschema.Draft202012Validator(OUTPUT_SCHEMA)
# The output unit alone (the output schema's anyOf is satisfied by any object with `valid`)
UNIT_CHECKER = jsonschema.Draft202012Validator(
    {**{k: v for k, v in OUTPUT_SCHEMA.items() if k != "anyOf"}, "$ref": "#/$defs/outputUnit"}
)


def assert_conforms(output: Any) -> None:
    """The output is JSON, valid under the official output schema, and (a failure) every unit in it
    is an output unit with an error or nested errors."""
    assert json.loads(json.dumps(output)) == output
    OUTPUT_CHECKER.validate(output)
    if not output["valid"] and "keywordLocation" in output:
        _assert_unit(output)
    for unit in output.get("errors", []):
        _assert_unit(unit)


def _assert_unit(unit: dict[str, Any]) -> None:
    UNIT_CHECKER.validate(unit)
    assert unit["valid"] is False and ("error" in unit or unit.get("errors"))
    for inner in unit.get("errors", []):
        _assert_unit(inner)


def test_flag() -> None:
    assert module(POLYGON).output(POINTS, "flag") == {"valid": False}
    assert module(POLYGON).output(POINTS[:1] * 3, "flag") == {"valid": True}


def test_basic_is_the_flat_list_of_units() -> None:
    output = module(POLYGON).output(POINTS, "basic")
    assert output == {"valid": False, "errors": [TOO_FEW, MISSING_Y, EXTRA_Z]}
    assert module(POLYGON).output(POINTS) == output  # basic is the default
    assert_conforms(output)


def test_detailed_is_the_specifications_hierarchy() -> None:
    """As the specification's example: the $ref node at /1 holds the two errors of the second point
    (with the absolute location of its target), single-child nodes lifted, childless ones gone."""
    output = module(POLYGON).output(POINTS, "detailed")
    assert output == {
        "valid": False,
        "keywordLocation": "",
        "instanceLocation": "",
        "errors": [
            TOO_FEW,
            {
                "valid": False,
                "keywordLocation": "/items/$ref",
                "absoluteKeywordLocation": "https://example.com/polygon#/$defs/point",
                "instanceLocation": "/1",
                "errors": [MISSING_Y, EXTRA_Z],
            },
        ],
    }
    assert_conforms(output)


def test_verbose_keeps_every_failing_evaluation() -> None:
    output = module(POLYGON).output(POINTS, "verbose")
    ref = {
        "valid": False,
        "keywordLocation": "/items/$ref",
        "absoluteKeywordLocation": "https://example.com/polygon#/$defs/point",
        "instanceLocation": "/1",
        "errors": [
            MISSING_Y,
            {
                "valid": False,
                "keywordLocation": "/items/$ref/additionalProperties",
                "absoluteKeywordLocation": EXTRA_Z["absoluteKeywordLocation"],
                "instanceLocation": "/1",
                "errors": [EXTRA_Z],
            },
        ],
    }
    assert output == {
        "valid": False,
        "keywordLocation": "",
        "instanceLocation": "",
        "errors": [
            TOO_FEW,
            {
                "valid": False,
                "keywordLocation": "/items",
                "instanceLocation": "",
                "errors": [
                    {
                        "valid": False,
                        "keywordLocation": "/items",
                        "instanceLocation": "/1",
                        "errors": [ref],
                    }
                ],
            },
        ],
    }
    assert_conforms(output)


def test_a_valid_instance() -> None:
    for fmt in ("flag", "basic", "detailed", "verbose"):
        assert module(POLYGON).output(POINTS[:1] * 3, fmt) == {"valid": True}


def test_an_unknown_format_is_a_value_error() -> None:
    with pytest.raises(
        ValueError, match="the output format is flag, basic, detailed or verbose, not 'list'"
    ):
        module(POLYGON).output(POINTS, "list")


def test_alternatives_contexts_are_in_basic_after_their_error_and_nested_in_detailed() -> None:
    schema = {
        "properties": {"a": {"oneOf": [{"type": "string"}, {"type": "object", "required": ["b"]}]}}
    }
    m = module(schema)
    basic = m.output({"a": {}}, "basic")
    assert [(u["keywordLocation"], u["instanceLocation"]) for u in basic["errors"]] == [
        ("/properties/a/oneOf", "/a"),
        ("/properties/a/oneOf/0/type", "/a"),
        ("/properties/a/oneOf/1/required", "/a"),
    ]
    detailed = m.output({"a": {}}, "detailed")
    (one_of,) = detailed["errors"]
    assert (one_of["keywordLocation"], one_of["error"]) == (
        "/properties/a/oneOf",
        "{} is not valid under any of the given schemas",
    )
    assert [u["keywordLocation"] for u in one_of["errors"]] == [
        "/properties/a/oneOf/0/type",
        "/properties/a/oneOf/1/required",
    ]
    assert_conforms(basic)
    assert_conforms(detailed)


def test_several_errors_at_one_place_are_each_a_unit() -> None:
    detailed = module({"required": ["a", "b"]}).output({}, "detailed")
    assert detailed == {
        "valid": False,
        "keywordLocation": "",
        "instanceLocation": "",
        "errors": [
            {
                "valid": False,
                "keywordLocation": "/required",
                "instanceLocation": "",
                "errors": [
                    {
                        "valid": False,
                        "keywordLocation": "/required",
                        "instanceLocation": "",
                        "error": '"a" is a required property',
                    },
                    {
                        "valid": False,
                        "keywordLocation": "/required",
                        "instanceLocation": "",
                        "error": '"b" is a required property',
                    },
                ],
            }
        ],
    }
    assert_conforms(detailed)


def test_without_an_absolute_id_no_absolute_locations() -> None:
    schema = {"properties": {"a": {"$ref": "#/$defs/n"}}, "$defs": {"n": {"type": "number"}}}
    basic = module(schema).output({"a": "x"}, "basic")
    assert basic["errors"] == [
        {
            "valid": False,
            "keywordLocation": "/properties/a/$ref/type",
            "instanceLocation": "/a",
            "error": '"x" is not of type "number"',
        }
    ]


def test_past_a_reference_of_the_root_only_units_with_their_error_are_kept() -> None:
    """Without an absolute URI no unit has an absolute location: the evaluations past a
    reference, the root's own first keyword here, are replaced by their children (verbose keeps
    the $ref itself and the error's unit)."""
    schema = {"$ref": "#/$defs/a", "$defs": {"a": {"properties": {"x": {"type": "string"}}}}}
    leaf = {
        "valid": False,
        "keywordLocation": "/$ref/properties/x/type",
        "instanceLocation": "/x",
        "error": '1 is not of type "string"',
    }
    root = {"valid": False, "keywordLocation": "", "instanceLocation": ""}
    assert module(schema).output({"x": 1}, "verbose") == {
        **root,
        "errors": [
            {"valid": False, "keywordLocation": "/$ref", "instanceLocation": "", "errors": [leaf]}
        ],
    }
    assert module(schema).output({"x": 1}, "detailed") == {**root, "errors": [leaf]}


def test_no_absolute_location_is_derived_across_a_reference() -> None:
    """An evaluation above a $ref gets no absolute location from an error beneath it, even where
    the error's absolute location happens to end with the keywords between them (a definition
    named "$ref")."""
    schema = {
        "$id": "https://example.com/s",
        "properties": {"a": {"$ref": "#/$defs/$ref"}},
        "$defs": {"$ref": {"type": "number"}},
    }
    target = "https://example.com/s#/$defs/$ref"
    leaf = {
        "valid": False,
        "keywordLocation": "/properties/a/$ref/type",
        "absoluteKeywordLocation": target + "/type",
        "instanceLocation": "/a",
        "error": '"x" is not of type "number"',
    }
    reference = {
        "valid": False,
        "keywordLocation": "/properties/a/$ref",
        "absoluteKeywordLocation": target,
        "instanceLocation": "/a",
        "errors": [leaf],
    }
    member = {
        "valid": False,
        "keywordLocation": "/properties/a",
        "instanceLocation": "/a",
        "errors": [reference],
    }
    properties = {"valid": False, "keywordLocation": "/properties", "instanceLocation": ""}
    assert module(schema).output({"a": "x"}, "verbose") == {
        "valid": False,
        "keywordLocation": "",
        "instanceLocation": "",
        "errors": [{**properties, "errors": [member]}],
    }


def test_the_workflow_mistakes_in_every_format() -> None:
    for _, document, _, _ in MISTAKES:
        for fmt in ("basic", "detailed", "verbose"):
            assert_conforms(module(WORKFLOW).output(document, fmt))


def test_the_output_schema_is_checked_by_a_module_of_ours_too() -> None:
    checker = generator.compile_module(OUTPUT_SCHEMA, format=False)
    for fmt in ("flag", "basic", "detailed", "verbose"):
        assert checker.is_valid(module(POLYGON).output(POINTS, fmt))
    assert not checker.is_valid({"valid": "no"})


@given(data=st.data())
def test_every_output_conforms(data: st.DataObject) -> None:
    schema = data.draw(draft_document("draft2020-12"), label="schema")
    try:
        # retrieved from a URI, as the suite's output tests are: the official output schema wants
        # absoluteKeywordLocation wherever a $ref was crossed, and without an absolute URI (no
        # $id, no retrieval URI) there is none to give (the spec lets it be left out then)
        compiled = compile_drawn(
            schema, profile="draft2020-12", format=False, base_uri="https://example.com/drawn.json"
        )
    except generator.SchemaError as error:
        assert error.code in REFUSED_GRAPHS, error  # (refused at compile time: nothing to check)
        return
    instance = data.draw(st.one_of(instances(schema), JSON), label="instance")
    found = compiled.errors(instance)
    basic = compiled.output(instance, "basic")
    if not found:
        assert basic == {"valid": True}
        return
    assert len(basic["errors"]) == _count(found)
    for fmt in ("basic", "detailed", "verbose"):
        assert_conforms(compiled.output(instance, fmt))
    for fmt in ("detailed", "verbose"):
        output = compiled.output(instance, fmt)
        _assert_nested(output)
        assert sorted(_leaves(output)) == sorted(u["error"] for u in basic["errors"])


def _count(errors: list[Any]) -> int:
    return sum(1 + _count(e.context) for e in errors)


def _assert_nested(unit: dict[str, Any]) -> None:
    """Each unit's evaluation lies below its parent's: in the schema and in the instance."""
    for inner in unit.get("errors", []):
        for key in ("keywordLocation", "instanceLocation"):
            assert (inner[key] + "/").startswith(unit[key] + "/") or not unit[key], (
                key,
                unit[key],
                inner[key],
            )
        _assert_nested(inner)


def _leaves(unit: dict[str, Any]) -> list[str]:
    """Every error message of a hierarchy: each error is in it once."""
    found = [unit["error"]] if "error" in unit else []
    for inner in unit.get("errors", []):
        found += _leaves(inner)
    return found


def test_evaluations_are_placed_under_the_keywords_that_apply_them() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "array", "prefixItems": [{"type": "string"}], "contains": {"const": 1}}
        },
        "patternProperties": {"^x": {"minimum": 0}},
        "propertyNames": {"maxLength": 3},
        "dependentSchemas": {"a": {"required": ["z"]}},
    }
    output = module(schema).output({"a": [5, 2], "x1": -1, "long": 0}, "verbose")
    _assert_nested(output)
    places = {(u["keywordLocation"], u["instanceLocation"]) for u in _units(output)}
    assert places == {
        ("", ""),
        ("/properties", ""),
        ("/properties/a", "/a"),
        ("/properties/a/prefixItems", "/a"),
        ("/properties/a/prefixItems/0", "/a/0"),
        ("/properties/a/prefixItems/0/type", "/a/0"),
        ("/properties/a/contains", "/a"),
        ("/properties/a/contains", "/a/0"),
        ("/properties/a/contains/const", "/a/0"),
        ("/properties/a/contains", "/a/1"),
        ("/properties/a/contains/const", "/a/1"),
        ("/patternProperties", ""),
        ("/patternProperties/^x", "/x1"),
        ("/patternProperties/^x/minimum", "/x1"),
        ("/propertyNames", ""),
        ("/propertyNames/maxLength", ""),
        ("/dependentSchemas", ""),
        ("/dependentSchemas/a", ""),
        ("/dependentSchemas/a/required", ""),
    }


def _units(unit: dict[str, Any]) -> list[dict[str, Any]]:
    return [unit, *(u for inner in unit.get("errors", []) for u in _units(inner))]


def test_a_long_unknown_format_is_named_by_its_first_80_characters() -> None:
    with pytest.raises(ValueError) as raised:
        module(POLYGON).output(POINTS, "x" * 200)
    assert str(raised.value).endswith(" not '" + "x" * 79)


def test_an_absolute_location_is_given_only_under_an_absolute_uri() -> None:
    """A `#` and a `:` in a location's pointer (a $defs name "a:b#c") do not make it absolute: only
    the part before the first `#`, the schema's URI, decides."""
    for base, absolute in ((None, False), ("schema.json", False), ("https://e.com/s", True)):
        schema: dict[str, Any] = {
            "properties": {"x": {"$ref": "#/$defs/a:b%23c"}},
            "$defs": {"a:b#c": {"type": "number"}},
        }
        if base is not None:
            schema["$id"] = base
        (unit,) = module(schema).output({"x": "s"}, "basic")["errors"]
        assert ("absoluteKeywordLocation" in unit) is absolute, base


def _absolute_locations(output: dict[str, Any]) -> set[str]:
    found = {output["absoluteKeywordLocation"]} if "absoluteKeywordLocation" in output else set()
    for unit in output.get("errors", []):
        found |= _absolute_locations(unit)
    return found


@pytest.mark.parametrize(
    "name,encoded",
    [
        ("a b", "a%20b"),
        ("100%", "100%25"),
        ("x#y", "x%23y"),
        ("é", "%C3%A9"),
        ("\U0001f600", "%F0%9F%98%80"),
        ('"<>[]^`{|}\\', "%22%3C%3E%5B%5D%5E%60%7B%7C%7D%5C"),
        ("a~b/c", "a~0b~1c"),  # (the pointer's own escapes are fragment characters)
        ("q?:@!$&'()*+,;=-._", "q?:@!$&'()*+,;=-._"),
    ],
)
def test_absolute_locations_are_uris_with_the_pointer_percent_encoded(
    name: str, encoded: str
) -> None:
    """absoluteKeywordLocation is a URI (core, "Output Formatting"): where its JSON pointer holds
    a character a URI fragment does not allow, the character is percent-encoded as UTF-8
    (RFC 6901, section 6), in every format; keywordLocation and the error's own
    absolute_keyword_location keep the JSON pointer as it is."""
    schema = {
        "$id": "https://example.com/s",
        "$ref": "#/$defs/d",
        "$defs": {"d": {"properties": {name: {"type": "number"}}}},
    }
    escaped = name.replace("~", "~0").replace("/", "~1")
    expected = "https://example.com/s#/$defs/d/properties/" + encoded + "/type"
    validator = module(schema)
    for format in ("basic", "detailed", "verbose"):
        output = validator.output({name: "s"}, format)
        assert_conforms(output)
        assert expected in _absolute_locations(output), format
        assert all(" " not in location for location in _absolute_locations(output))
    (error,) = validator.errors({name: "s"})
    assert error.keyword_location == "/$ref/properties/" + escaped + "/type"
    assert error.absolute_keyword_location == (
        "https://example.com/s#/$defs/d/properties/" + escaped + "/type"
    )


def test_a_lone_surrogate_in_a_name_is_encoded_not_raised() -> None:
    """A name with a lone surrogate (JSON allows `\\ud800`): its UTF-8-style bytes, never a
    UnicodeEncodeError from output()."""
    schema = {
        "$id": "https://example.com/s",
        "$ref": "#/$defs/d",
        "$defs": {"d": {"properties": {"\ud800": {"type": "number"}}}},
    }
    (unit,) = module(schema).output({"\ud800": "s"}, "basic")["errors"]
    assert unit["absoluteKeywordLocation"].endswith("/properties/%ED%A0%80/type")
