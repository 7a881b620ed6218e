"""The schemas people really write (issue 11 part 4): a little wrong, and compiled all the same
where the drafts allow it. A non-schema entry of `$defs` that nothing references is passed over,
every unresolvable reference of a schema is reported at once, and a `$ref` cycle that no
instance can reach is no error; the fail-closed profiles keep their refusals."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

import generator
from generator import SchemaError
from generator.reference import DraftReference

DRAFTS = ("draft2020-12", "draft2019-09", "draft7", "draft6", "draft4")
STRAIGHTLINE = Path(sys.executable).parent / "straightline"


def defs_word(draft: str) -> str:
    return "$defs" if draft in ("draft2020-12", "draft2019-09") else "definitions"


# --- a non-schema value under $defs / definitions -------------------------------------------------


@pytest.mark.parametrize("draft", DRAFTS)
@pytest.mark.parametrize("junk", ["a description", 3, None, ["x"]])
def test_an_unreferenced_non_schema_definition_is_ignored_in_the_drafts(
    draft: str, junk: Any
) -> None:
    word = defs_word(draft)
    schema = {
        word: {"description": junk, "name": {"type": "string"}},
        "properties": {"name": {"$ref": f"#/{word}/name"}},
    }
    module = generator.compile_module(schema, profile=draft, format=False)
    assert module.is_valid({"name": "x"})
    assert not module.is_valid({"name": 1})
    assert [e.keyword_location for e in module.errors({"name": 1})] == [
        "/properties/name/$ref/type"
    ]


@pytest.mark.parametrize("draft", DRAFTS)
def test_a_referenced_non_schema_definition_is_refused_naming_the_reference(draft: str) -> None:
    word = defs_word(draft)
    schema = {
        word: {"description": "not a schema"},
        "properties": {"p": {"$ref": f"#/{word}/description"}},
    }
    with pytest.raises(SchemaError) as raised:
        generator.compile_source(schema, profile=draft)
    assert raised.value.code == "not-a-schema"
    assert raised.value.pointer == f"/{word}/description"
    assert "/properties/p/$ref" in raised.value.message


def test_schemas_nested_inside_an_ignored_definitions_map_are_still_checked() -> None:
    # only entries that are no schema at all are passed over: a malformed schema is still one
    schema = {"$defs": {"description": "x", "bad": {"type": "strin"}}}
    with pytest.raises(SchemaError) as raised:
        generator.compile_source(schema, profile="draft2020-12")
    assert (raised.value.code, raised.value.pointer) == ("bad-keyword-value", "/$defs/bad/type")


@pytest.mark.parametrize("draft", DRAFTS)
def test_definitions_that_are_not_an_object_are_still_refused(draft: str) -> None:
    with pytest.raises(SchemaError) as raised:
        generator.compile_source({defs_word(draft): "nothing"}, profile=draft)
    assert raised.value.code == "bad-keyword-value"


@pytest.mark.parametrize("profile", ["strict", "octoscript"])
@pytest.mark.parametrize("word", ["$defs", "definitions"])
def test_the_fail_closed_profiles_keep_refusing_non_schema_definitions(
    profile: str, word: str
) -> None:
    schema = {"type": "object", word: {"description": "not a schema"}}
    with pytest.raises(SchemaError) as raised:
        generator.compile_source(schema, profile=profile)
    assert raised.value.code == "keyword-not-in-profile"
    assert raised.value.pointer == f"/{word}"


def test_a_fail_closed_draft_walk_refuses_non_schema_definitions() -> None:
    # the rule belongs to fail-open profiles: the same walk under a fail-closed one refuses
    from dataclasses import replace

    from generator.pipeline import PROFILES, TABLES
    from generator.preflight import preflight

    closed = replace(PROFILES["draft2020-12"], fail_closed=True)
    with pytest.raises(SchemaError) as raised:
        preflight({"$defs": {"description": "x"}}, closed, tables=TABLES)
    assert (raised.value.code, raised.value.pointer) == ("not-a-schema", "/$defs/description")


def test_the_hygiene_walk_and_the_types_pass_over_non_schema_definitions() -> None:
    schema = {
        "$defs": {"description": "x", "item": {"type": "integer"}},
        "items": {"$ref": "#/$defs/item"},
    }
    source = generator.compile_source(schema, profile="draft2020-12", unknown_keywords="error")
    assert "Item" in source  # the type of the real definition is still named


# --- every unresolvable reference at once ------------------------------------------------------

UNRESOLVABLE = {
    "properties": {
        "remote": {"$ref": "https://example.com/absent.json"},
        "pointer": {"$ref": "#/$defs/missing"},
        "anchor": {"$ref": "#nowhere"},
        "fine": {"$ref": "#/$defs/fine"},
        "nested": {"items": {"$ref": "other.json#/x"}},
    },
    "$defs": {"fine": {"type": "string"}},
}
UNRESOLVABLE_POINTERS = [
    "/properties/remote/$ref",
    "/properties/pointer/$ref",
    "/properties/anchor/$ref",
    "/properties/nested/items/$ref",
]


def test_every_unresolvable_reference_is_reported_at_once() -> None:
    with pytest.raises(SchemaError) as raised:
        generator.compile_source(UNRESOLVABLE, base_uri="https://example.com/root.json")
    error = raised.value
    assert error.code == "unresolvable-ref"
    assert sorted(e.pointer for e in error.errors) == sorted(UNRESOLVABLE_POINTERS)
    assert all(e.code == "unresolvable-ref" for e in error.errors)
    assert error.pointer in UNRESOLVABLE_POINTERS
    for part in error.errors:  # the message names them all
        assert part.pointer in error.message and part.message in error.message
    assert error.message.startswith("4 unresolvable references: ")


def test_a_reference_reached_from_many_places_is_reported_once() -> None:
    schema = {
        "properties": {"a": {"$ref": "#/$defs/x"}, "b": {"$ref": "#/$defs/x"}},
        "$defs": {"x": {"$ref": "#/$defs/gone"}},
    }
    with pytest.raises(SchemaError) as raised:
        generator.compile_source(schema)
    assert [e.pointer for e in raised.value.errors] == ["/$defs/x/$ref"]
    assert raised.value.errors == (raised.value,)  # a single problem is its own list


def test_unresolvable_references_in_a_registry_document_are_collected_too() -> None:
    registry = {
        "https://example.com/lib.json": {
            "$defs": {"a": {"$ref": "#/$defs/no"}, "b": {"$ref": "#/$defs/nor"}}
        }
    }
    schema = {
        "anyOf": [
            {"$ref": "https://example.com/lib.json#/$defs/a"},
            {"$ref": "https://example.com/lib.json#/$defs/b"},
            {"$ref": "#/nothing"},
        ]
    }
    with pytest.raises(SchemaError) as raised:
        generator.compile_source(schema, registry=registry)
    assert sorted(e.pointer for e in raised.value.errors) == [
        "/$defs/a/$ref",
        "/$defs/b/$ref",
        "/anyOf/2/$ref",
    ]


def test_a_tool_contract_moves_every_listed_pointer_under_its_side() -> None:
    contract = {
        "name": "t",
        "profile": "draft2020-12",
        "input": {"properties": {"a": {"$ref": "#/$defs/a"}, "b": {"$ref": "#/$defs/b"}}},
        "output": {},
    }
    with pytest.raises(SchemaError) as raised:
        generator.compile_contract_source(contract)
    assert sorted(e.pointer for e in raised.value.errors) == [
        "/input/properties/a/$ref",
        "/input/properties/b/$ref",
    ]
    assert raised.value.pointer.startswith("/input/")


@pytest.mark.skipif(
    not STRAIGHTLINE.exists(), reason="the straightline console script is not installed"
)
def test_the_cli_prints_each_unresolvable_reference_on_its_own_line(tmp_path: Path) -> None:
    import subprocess

    (tmp_path / "s.json").write_text(json.dumps(UNRESOLVABLE))
    proc = subprocess.run(
        [str(STRAIGHTLINE), "compile", "s.json", "--out", "out"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.endswith("[unresolvable-ref]")]
    assert sorted(line.split(": ", 1)[0] for line in lines) == sorted(
        f"s.json:{p}" for p in UNRESOLVABLE_POINTERS
    )
    assert not (tmp_path / "out" / "s.py").exists()


# --- $ref cycles that no instance can reach --------------------------------------------------------

UNREACHABLE_CYCLES = {
    "then of a false if": {"type": "string", "if": False, "then": {"$ref": "#"}},
    "else of a true if": {"type": "string", "if": True, "else": {"allOf": [{"$ref": "#"}]}},
    "else of an empty if, in a definition": {
        "properties": {"p": {"if": {}, "else": {"$ref": "#/$defs/loop"}}},
        "$defs": {"loop": {"anyOf": [{"$ref": "#/$defs/loop"}, {"type": "null"}]}},
    },
    "a chain of plain references behind a false if": {
        "type": "integer",
        "if": False,
        "then": {"$ref": "#/$defs/a"},
        "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}},
    },
}


@pytest.mark.parametrize("name", sorted(UNREACHABLE_CYCLES))
def test_a_ref_cycle_no_instance_can_reach_is_no_error(name: str) -> None:
    schema = UNREACHABLE_CYCLES[name]
    module = generator.compile_module(schema, profile="draft2020-12")
    reference = DraftReference(schema, "draft2020-12")
    for instance in ["a", 1, 2.5, None, True, {"p": 1}, {"p": None}, [], {}]:
        assert module.is_valid(instance) == reference.is_valid(instance), instance
        assert [e.keyword_location for e in module.errors(instance)] == [
            e.keyword_location for e in reference.errors(instance)
        ], instance


REACHABLE_CYCLES = {
    # cloudify.json's shape: a definition that is all of itself and more, behind a `then` that an
    # instance reaches when its "type" is a certain string
    "self in allOf behind a satisfiable if": (
        {
            "properties": {
                "node": {
                    "if": {"properties": {"type": {"const": "vm"}}},
                    "then": {"properties": {"properties": {"$ref": "#/$defs/vm"}}},
                }
            },
            "$defs": {
                "vm": {"type": "object", "allOf": [{"$ref": "#/$defs/vm"}, {"required": ["os"]}]}
            },
        },
        "/$defs/vm/allOf/0/$ref",
    ),
    "then of an if that is not a constant": (
        {"if": {"type": "string"}, "then": {"$ref": "#"}},
        "/then/$ref",
    ),
    "else of a false if": ({"if": False, "else": {"$ref": "#"}}, "/else/$ref"),
    "a plain chain behind a true if's then": (
        {
            "if": True,
            "then": {"$ref": "#/$defs/a"},
            "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}},
        },
        "/then/$ref",
    ),
}


@pytest.mark.parametrize("name", sorted(REACHABLE_CYCLES))
def test_a_ref_cycle_an_instance_can_reach_stays_named(name: str) -> None:
    """Found where an instance can reach it: a draft profile compiles it with a warning naming
    it (the strict profiles refuse it: tests/test_hostile_refs.py)."""
    schema, pointer = REACHABLE_CYCLES[name]
    assert _loop_warnings(schema, profile="draft2020-12") == [("ref-cycle", pointer)]


def _loop_warnings(schema: Any, **options: Any) -> list[tuple[str, str]]:
    """(code, pointer) of each reference-loop warning compiling the schema gives."""
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        generator.compile_source(schema, **options)
    return [
        (w.message.code, w.message.pointer)
        for w in caught
        if isinstance(w.message, generator.SchemaWarning) and w.message.code == "ref-cycle"
    ]


def test_a_reachable_cycle_is_found_beside_an_unreachable_one() -> None:
    schema = {
        "if": False,
        "then": {"$ref": "#/$defs/dead"},
        "properties": {"p": {"$ref": "#/$defs/live"}},
        "$defs": {
            "dead": {"allOf": [{"$ref": "#/$defs/dead"}]},
            "live": {"not": {"$ref": "#/$defs/live"}},
        },
    }
    assert _loop_warnings(schema) == [("ref-cycle", "/$defs/live/not/$ref")]


# --- $id with a JSON pointer fragment (drafts 6 and 7) ------------------------------------------


@pytest.mark.parametrize("draft", ["draft7", "draft6"])
def test_a_pointer_fragment_id_names_nothing_and_the_schema_compiles(draft: str) -> None:
    # what schema generators write (six SchemaStore schemas have it); peers accept it
    schema = {
        "type": "object",
        "properties": {
            "layout": {"$id": "#/properties/layout", "type": "string"},
            "copy": {"$ref": "#/properties/layout"},
        },
    }
    module = generator.compile_module(schema, profile=draft)
    assert module.is_valid({"layout": "a", "copy": "b"})
    assert [e.keyword_location for e in module.errors({"copy": 1})] == [
        "/properties/copy/$ref/type"
    ]


@pytest.mark.parametrize(
    "draft, value",
    [
        ("draft7", "#1bad"),
        ("draft7", "#a b"),
        ("draft2019-09", "#/a"),
        ("draft2020-12", "#/properties/a"),
    ],
)
def test_other_malformed_id_fragments_stay_refused(draft: str, value: str) -> None:
    with pytest.raises(SchemaError) as raised:
        generator.compile_source({"properties": {"a": {"$id": value}}}, profile=draft)
    assert (raised.value.code, raised.value.pointer) == ("bad-keyword-value", "/properties/a/$id")
