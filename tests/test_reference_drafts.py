"""The draft reference interpreter alone against the official JSON Schema Test Suite (every
required and optional test of drafts 2020-12, 2019-09, 7, 6 and 4, with the format options the
compiler's run uses and the same known failures), plus the error-location conventions the compiler
shares."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

import generator
from generator.errors import SchemaError
from generator.format_options import format_options
from generator.reference import DraftReference

from .suite import (
    DRAFTS,
    MISSING,
    file_id,
    groups,
    known_failures,
    optional_files,
    optional_options,
    remotes,
    suite_dir,
    suite_files,
)

SUITE = suite_dir()


@lru_cache(maxsize=1)
def _remotes() -> dict[str, Any]:
    return remotes()


def _suite_files() -> list[Any]:
    if not (SUITE / "tests").is_dir():
        return [pytest.param(None, None, id="suite-missing")]  # fails: a missing suite is no skip
    return [
        pytest.param(draft, path, id=f"{draft}/{file_id(path)}")
        for draft in DRAFTS
        for path in [*suite_files(draft), *optional_files(draft)]
    ]


def run_file(draft: str, path: Path) -> tuple[int, list[str]]:
    """(number of tests run, failure descriptions) for one suite file."""
    ran, failures = 0, []
    known = known_failures()
    options = format_options(**optional_options(path))
    for description, schema, tests in groups(path):
        reference = DraftReference(schema, draft, registry=_remotes(), format_options=options)
        for test in tests:
            name = f"{draft}/{file_id(path)}::{description}::{test['description']}"
            ran += 1
            try:
                errors = reference.errors(test["data"])
                valid = reference.is_valid(test["data"])
            except SchemaError as exc:
                got = f"SchemaError: {exc}"
            else:
                if valid != (not errors):
                    got = f"is_valid() is {valid} but errors() gave {len(errors)}"
                elif valid == test["valid"]:
                    got = ""
                else:
                    got = f"expected valid={test['valid']}, got {valid} {errors[:3]}"
            if name in known:
                if not got:
                    failures.append(f"{name}: listed in known_failures.json but passes now")
            elif got:
                failures.append(f"{name}: {got}")
    return ran, failures


@pytest.mark.parametrize(("draft", "path"), _suite_files())
def test_suite_file(draft: str, path: Path) -> None:
    assert path is not None, MISSING.format(SUITE)
    _, failures = run_file(draft, path)
    assert not failures, f"{len(failures)} failing:\n" + "\n".join(failures)


def test_the_suite_runs_required_and_optional_files() -> None:
    """The parametrisation above is not an empty list, and reaches the optional files."""
    ids = [param.id for param in _suite_files()]
    assert len(ids) >= 5 * 30 + 120
    assert "draft2020-12/optional/format/email.json" in ids
    assert "draft7/optional/content.json" in ids


# -- error locations ----------------------------------------------------------------------------------
def where(
    schema: Any, instance: Any, draft: str = "draft2020-12", **kwargs: Any
) -> set[tuple[str, str]]:
    return {
        (e.instance_location, e.keyword_location)
        for e in DraftReference(schema, draft, **kwargs).errors(instance)
    }


def test_ref_chain_location() -> None:
    schema = {
        "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"properties": {"x": {"type": "string"}}}},
        "properties": {"p": {"$ref": "#/$defs/a"}},
    }
    assert where(schema, {"p": {"x": 1}}) == {("/p/x", "/properties/p/$ref/$ref/properties/x/type")}


def test_ref_siblings_ignored_before_2019() -> None:
    schema = {"definitions": {"a": {"type": "integer"}}, "$ref": "#/definitions/a", "minimum": 10}
    assert where(schema, 3, "draft7") == set()
    assert where(schema, "x", "draft7") == {("", "/$ref/type")}
    assert where({"$defs": {"a": {"type": "integer"}}, "$ref": "#/$defs/a", "minimum": 10}, 3) == {
        ("", "/minimum")
    }


def test_property_names_location() -> None:
    assert where({"propertyNames": {"maxLength": 2}}, {"ab": 1, "abc": 2}) == {
        ("", "/propertyNames/maxLength")
    }


def test_contains_locations() -> None:
    assert where({"contains": {"const": 1}}, [2]) == {("", "/contains")}
    assert where({"contains": {"const": 1}, "minContains": 2}, [1, 2]) == {("", "/minContains")}
    assert where({"contains": {"const": 1}, "maxContains": 1}, [1, 1]) == {("", "/maxContains")}
    assert where({"minContains": 5, "maxContains": 0}, [1]) == set()
    assert where({"contains": {"const": 1}, "minContains": 2}, [1, 2], "draft7") == set()


def test_unevaluated_properties_false_location() -> None:
    schema = {
        "properties": {"a": True},
        "allOf": [{"properties": {"b": True}}],
        "anyOf": [{"properties": {"c": False}}, True],
        "unevaluatedProperties": False,
    }
    assert where(schema, {"a": 1, "b": 2, "c": 3, "d": 4}) == {
        ("/c", "/unevaluatedProperties"),
        ("/d", "/unevaluatedProperties"),
    }


def test_annotations_of_invalid_subschemas_are_dropped() -> None:
    # properties evaluates "a" although its subschema fails; a failing allOf branch evaluates nothing
    assert where(
        {"properties": {"a": {"type": "string"}}, "unevaluatedProperties": False}, {"a": 1}
    ) == {("/a", "/properties/a/type")}
    schema = {"allOf": [{"properties": {"a": {"type": "string"}}}], "unevaluatedProperties": False}
    assert where(schema, {"a": 1}) == {
        ("/a", "/allOf/0/properties/a/type"),
        ("/a", "/unevaluatedProperties"),
    }
    schema = {
        "prefixItems": [True],
        "contains": {"const": 2},
        "unevaluatedItems": {"type": "string"},
    }
    assert where(schema, [1, 2, 3]) == {("/2", "/unevaluatedItems/type")}
    schema = {"items": [True], "contains": {"const": 2}, "unevaluatedItems": {"type": "string"}}
    assert where(schema, [1, 2, 3], "draft2019-09") == {
        ("/1", "/unevaluatedItems/type"),
        ("/2", "/unevaluatedItems/type"),
    }


def test_property_and_item_locations() -> None:
    schema = {
        "properties": {"a/b": {"type": "string"}},
        "patternProperties": {"^x": {"minimum": 3}},
        "additionalProperties": False,
        "required": ["r", "s"],
    }
    assert where(schema, {"a/b": 1, "x1": 1, "y": 0}) == {
        ("/a~1b", "/properties/a~1b/type"),
        ("/x1", "/patternProperties/^x/minimum"),
        ("/y", "/additionalProperties"),
        ("", "/required"),
    }
    assert where({"prefixItems": [{"type": "string"}], "items": {"type": "integer"}}, [1, "a"]) == {
        ("/0", "/prefixItems/0/type"),
        ("/1", "/items/type"),
    }
    assert where({"items": [{"type": "string"}], "additionalItems": False}, [1, 2], "draft7") == {
        ("/0", "/items/0/type"),
        ("/1", "/additionalItems"),
    }


def test_dependencies_and_conditionals_locations() -> None:
    assert where(
        {"dependentRequired": {"a": ["b", "c"]}, "dependentSchemas": {"a": {"maxProperties": 0}}},
        {"a": 1},
    ) == {("", "/dependentRequired"), ("", "/dependentSchemas/a/maxProperties")}
    assert where(
        {"dependencies": {"a": ["b"], "c": {"required": ["d"]}}}, {"a": 1, "c": 2}, "draft7"
    ) == {("", "/dependencies"), ("", "/dependencies/c/required")}
    assert where(
        {"if": {"type": "string"}, "then": {"maxLength": 1}, "else": {"minimum": 5}}, "ab"
    ) == {("", "/then/maxLength")}
    assert where(
        {"if": {"type": "string"}, "then": {"maxLength": 1}, "else": {"minimum": 5}}, 3
    ) == {("", "/else/minimum")}
    assert where({"anyOf": [False], "oneOf": [True, True], "not": True, "allOf": [False]}, 1) == {
        ("", "/anyOf"),
        ("", "/oneOf"),
        ("", "/not"),
        ("", "/allOf/0"),
    }


def test_draft4_numbers() -> None:
    assert where({"maximum": 3, "exclusiveMaximum": True}, 3, "draft4") == {("", "/maximum")}
    assert where({"type": "integer"}, 1.0, "draft4") == {("", "/type")}
    assert where({"type": "integer"}, 1.0, "draft6") == set()


def test_dynamic_ref_location() -> None:
    schema = {
        "$id": "https://example.com/root",
        "$dynamicAnchor": "node",
        "$ref": "list",
        "$defs": {
            "list": {"$id": "list", "$dynamicAnchor": "node", "items": {"$dynamicRef": "#node"}},
        },
        "minItems": 0,
        "items": {"type": ["array", "integer"]},
    }
    assert where(schema, [["x"]]) == {
        (
            "/0/0",
            "/$ref/items/$dynamicRef/items/type",
        ),  # the root wins: the outermost "node" anchor
    }


def test_unresolvable_ref() -> None:
    with pytest.raises(SchemaError):
        DraftReference({"$ref": "http://nowhere.invalid/x.json"}, "draft2020-12").errors(1)


@pytest.mark.parametrize("draft", ["draft2020-12", "draft7"])
@pytest.mark.parametrize("document", [True, False])
def test_a_boolean_registry_document_resolves_in_both_interpreters(
    draft: str, document: bool
) -> None:
    """A registry document that is `true` or `false` is a resource under its URI: the compiler
    resolved only object documents, the reference worked around it."""
    schema = {"properties": {"a": {"$ref": "http://example.com/b.json"}}}
    registry = {"http://example.com/b.json": document}
    module = generator.compile_module(schema, profile=draft, registry=registry, format=False)
    reference = DraftReference(schema, draft, registry=registry)
    for instance in ({"a": 1}, {"b": 1}, {"a": None}):
        assert (
            module.is_valid(instance)
            is reference.is_valid(instance)
            is (document or "a" not in instance)
        )
        assert sorted(e.keyword_location for e in module.errors(instance)) == sorted(
            e.keyword_location for e in reference.errors(instance)
        )


def test_an_embedded_resource_of_another_draft_is_lowered_by_its_draft() -> None:
    """A 2020-12 schema embedding a draft-7 resource: there `$ref` siblings are ignored, whether the
    resource is reached by reference or in place (the compiler used the root's draft throughout)."""
    old = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "properties": {"v": {"$ref": "#/definitions/n", "minimum": 5}},
        "definitions": {"n": {"type": "integer"}},
    }
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": {
            "old": {"$id": "http://example.com/old.json", **old},
            "new": {"properties": {"v": {"$ref": "#/$defs/n", "minimum": 5}}},  # 2020-12: it counts
            "n": {"type": "integer"},
        },
        "properties": {
            "a": {"$ref": "http://example.com/old.json"},
            "b": {"$id": "http://example.com/inline.json", **old},
            "c": {"$ref": "#/$defs/new"},
        },
    }
    module = generator.compile_module(schema, format=False)
    reference = DraftReference(schema, "draft2020-12")
    for instance, valid in [
        ({"a": {"v": 1}}, True),
        ({"b": {"v": 1}}, True),
        ({"a": {"v": "x"}}, False),
        ({"b": {"v": 1.5}}, False),
        ({"c": {"v": 1}}, False),
        ({"c": {"v": 7}}, True),
    ]:
        assert module.is_valid(instance) is reference.is_valid(instance) is valid, instance
        assert sorted(e.keyword_location for e in module.errors(instance)) == sorted(
            e.keyword_location for e in reference.errors(instance)
        )


@pytest.mark.parametrize(
    "schema",
    [
        {"if": {"$ref": "#"}},
        {"if": {"oneOf": [{"$ref": "#"}]}, "properties": {"a": {}}},
        {
            "definitions": {"d": {"if": {"$ref": "#/definitions/d"}}},
            "items": {"$ref": "#/definitions/d"},
        },
    ],
)
def test_an_if_alone_is_not_evaluated_before_2019(schema: Any) -> None:
    # draft 7's `if` without then/else decides nothing: the compiler leaves it out, and the
    # reference ran its condition, which here refers back to it without consuming input
    # (RecursionError, where the module answers)
    module = generator.compile_module(schema, profile="draft7", format=False)
    reference = DraftReference(schema, "draft7")
    for instance in ({"a": 1}, [1, [2]], None):
        assert reference.is_valid(instance) and module.is_valid(instance)
        assert reference.errors(instance) == [] == module.errors(instance)
    # from 2019-09 what a passing `if` evaluates can count (for unevaluated*): the compiler warns
    # of the cycle; with nothing here to read those annotations, the module never runs the `if`
    with pytest.warns(generator.SchemaWarning, match="loops back") as caught:
        later = generator.compile_module(schema, profile="draft2019-09", format=False)
    assert [w.message.code for w in caught if isinstance(w.message, generator.SchemaWarning)] == [
        "ref-cycle"
    ]
    for instance in ({"a": 1}, [1, [2]], None):
        assert later.is_valid(instance) and later.errors(instance) == []


@pytest.mark.parametrize("draft", ["draft3", "strict", "no-such-draft"])
def test_the_reference_refuses_a_name_that_is_no_draft(draft: str) -> None:
    with pytest.raises(KeyError):
        DraftReference({}, draft)


META = "http://example.com/meta"


@pytest.mark.parametrize(
    "draft, schema, registry",
    [
        # a meta-schema found nowhere: no vocabulary information
        ("draft2020-12", {"$schema": "http://example.com/unknown", "minimum": 3}, {}),
        # a meta-schema without $vocabulary
        ("draft2020-12", {"$schema": META, "minimum": 3}, {META: {"$id": META}}),
        # draft 7 has no vocabularies
        ("draft7", {"$schema": META, "minimum": 3}, {META: {"$id": META}}),
        # a subschema's own $schema, unknown
        (
            "draft2020-12",
            {"properties": {"a": {"$id": "http://example.com/a", "$schema": META, "minimum": 3}}},
            {},
        ),
    ],
)
def test_a_meta_schema_that_says_nothing_keeps_the_rules_in_force_in_both(
    draft: str, schema: Any, registry: dict[str, Any]
) -> None:
    """An unknown meta-schema, or one that names no vocabularies, changes nothing: `minimum`
    still applies, in the reference as in the compiled module."""
    module = generator.compile_module(schema, profile=draft, registry=registry, format=False)
    reference = DraftReference(schema, draft, registry=registry)
    answers = [reference.is_valid(i) for i in (1, 5, {"a": 1}, {"a": 5})]
    assert answers == [module.is_valid(i) for i in (1, 5, {"a": 1}, {"a": 5})]
    assert False in answers and True in answers  # (minimum decided something)


@pytest.mark.parametrize(
    "draft, schema",
    [
        ("draft2020-12", {"$ref": 5}),
        ("draft2020-12", {"$dynamicRef": 5}),
        ("draft2019-09", {"$recursiveRef": 5}),
        ("draft2020-12", {"format": 5}),
        ("draft2020-12", {"items": [{"type": "string"}]}),  # (a tuple: 2020-12 has prefixItems)
        ("draft2020-12", {"properties": {"a": 5}}),
    ],
)
def test_a_keyword_value_of_the_wrong_kind_applies_nothing_in_the_reference(
    draft: str, schema: Any
) -> None:
    """The reference is an oracle for schemas preflight accepted; one it is handed anyway, with a
    value of the wrong kind, is read as applying nothing there (the compiler refuses it)."""
    reference = DraftReference(schema, draft, format_options=format_options(format_assertion=True))
    for instance in (1, [1], {"a": 1}):
        assert reference.is_valid(instance) and reference.errors(instance) == []


def test_a_custom_format_the_reference_cannot_import_is_an_option_error() -> None:
    from generator.errors import OptionError

    options = format_options(formats={"sku": "no_such_module_here:is_sku"})
    reference = DraftReference({"format": "sku"}, "draft2020-12", format_options=options)
    with pytest.raises(OptionError, match="no_such_module_here:is_sku cannot be imported"):
        reference.is_valid("x")


def test_a_dynamic_ref_no_resource_in_scope_anchors_ends_at_its_static_target() -> None:
    """The $dynamicAnchor the static target bears is in no resource of the dynamic scope (the
    target's document was never entered): the reference resolves as $ref does, as the module."""
    other = "http://example.com/other"
    schema = {"$id": "http://example.com/root", "$dynamicRef": other + "#node"}
    registry = {other: {"$id": other, "$dynamicAnchor": "node", "type": "integer"}}
    module = generator.compile_module(schema, registry=registry, format=False)
    reference = DraftReference(schema, "draft2020-12", registry=registry)
    for instance, valid in ((1, True), ("1", False), (None, False)):
        assert reference.is_valid(instance) is valid is module.is_valid(instance)


def test_a_resource_of_the_roots_draft_inside_one_of_another_has_the_roots_rules() -> None:
    """2020-12 around draft 7 around 2020-12 again: the innermost resource is read by the root's
    own profile ($ref siblings count there), in place and by reference."""
    new = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {"v": {"$ref": "#/$defs/n", "minimum": 5}},
        "$defs": {"n": {"type": "integer"}},
    }
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
            "old": {
                "$id": "http://example.com/old.json",
                "$schema": "http://json-schema.org/draft-07/schema#",
                "properties": {"new": {"$id": "http://example.com/new.json", **new}},
            },
            "again": {"$ref": "http://example.com/new.json"},
        },
    }
    module = generator.compile_module(schema, format=False)
    reference = DraftReference(schema, "draft2020-12")
    for instance, valid in [
        ({"old": {"new": {"v": 7}}}, True),
        ({"old": {"new": {"v": 1}}}, False),
        ({"again": {"v": 1}}, False),
        ({"again": {"v": 7.5}}, False),
    ]:
        assert module.is_valid(instance) is reference.is_valid(instance) is valid, instance


def test_a_dynamic_ref_passes_over_resources_anchoring_other_names() -> None:
    """Two resources with dynamic anchors of different names: the $dynamicRef to one of them is
    resolved past the other, in the module as in the reference."""
    schema = {
        "$defs": {
            "a": {"$id": "http://example.com/a", "$dynamicAnchor": "one"},
            "b": {"$id": "http://example.com/b", "$dynamicAnchor": "two", "type": "integer"},
        },
        "$dynamicRef": "http://example.com/b#two",
    }
    module = generator.compile_module(schema, format=False)
    reference = DraftReference(schema, "draft2020-12")
    for instance, valid in ((1, True), ("1", False)):
        assert module.is_valid(instance) is reference.is_valid(instance) is valid
