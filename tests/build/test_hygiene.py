"""Schema hygiene in the draft profiles: unknown keywords (typos, another draft's keywords) are
ignored, warned about or refused, each named with its pointer and the keyword it looks like; a
profile that overrides a different $schema is warned about."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

import generator
from generator.hygiene import unknown_keywords
from generator.pipeline import TABLES

from .helpers import needs_cli, run, write

TYPOS = {
    "type": "object",
    "requird": ["name"],
    "properties": {
        "name": {"type": "string", "minLenght": 1},
        "minLenght": {"type": "integer"},  # a property name, not a keyword
        "tags": {"type": "array", "items": {"type": "string", "maxitems": 3}},
    },
    "$defs": {"requird": {"type": "string", "patern": "^a"}},  # a definition name, not a keyword
    "x-internal": True,  # an extension
    "title": "ok",
    "readOnly": True,
    "deprecated": False,
    "$comment": "annotations are known",
}
EXPECTED = [
    ("/requird", "requird", "required"),
    ("/properties/name/minLenght", "minLenght", "minLength"),
    ("/properties/tags/items/maxitems", "maxitems", "maxItems"),
    ("/$defs/requird/patern", "patern", "pattern"),
]


def found(schema: object, draft: str = "draft2020-12") -> list[tuple[str, str, str | None]]:
    return [(u.pointer, u.keyword, u.suggestion) for u in unknown_keywords(schema, draft, TABLES)]


def test_unknown_keywords_are_found_with_their_pointer_and_suggestion() -> None:
    assert sorted(found(TYPOS)) == sorted(EXPECTED)


def test_known_means_of_the_draft_in_force() -> None:
    schema = {
        "prefixItems": [{"type": "string"}],
        "items": {"type": "integer"},
        "dependentRequired": {"a": ["b"]},
        "examples": [1],
    }
    assert found(schema) == []
    (unknown,) = unknown_keywords({"prefixItems": [{"minLenght": 1}]}, "draft7", TABLES)
    assert (unknown.pointer, unknown.keyword) == ("/prefixItems", "prefixItems")
    assert (
        unknown.message
        == "unknown keyword 'prefixItems' (a keyword of draft2020-12, not of draft7): draft7 ignores it"
    )
    assert found({"examples": [1], "id": "x"}, "draft4") == [("/examples", "examples", None)]
    assert found({"id": "http://example.com/x"}) == [("/id", "id", "$id")]
    # an embedded $schema switches the draft for its subschema
    nested = {
        "$defs": {
            "old": {"$schema": "http://json-schema.org/draft-07/schema#", "dependentRequired": {}}
        }
    }
    assert found(nested) == [("/$defs/old/dependentRequired", "dependentRequired", None)]


def test_api_default_ignores_warn_warns_and_error_refuses() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the default is silent
        generator.compile_source(TYPOS)
    with pytest.warns(generator.SchemaWarning) as caught:
        module = generator.compile_module(TYPOS, unknown_keywords="warn")
    assert module.is_valid({"name": ""})  # it still compiles, as the draft says
    got = sorted((w.message.pointer, w.message.code) for w in caught)  # type: ignore[union-attr]
    assert got == sorted((pointer, "unknown-keyword") for pointer, _, _ in EXPECTED)
    assert "unknown keyword 'minLenght' (did you mean 'minLength'?): draft2020-12 ignores it" in [
        w.message.message for w in caught
    ]  # type: ignore[union-attr]
    with pytest.raises(generator.SchemaError) as refused:
        generator.compile_source(TYPOS, unknown_keywords="error")
    assert refused.value.code == "unknown-keyword" and refused.value.pointer == "/requird"
    for pointer, keyword, suggestion in EXPECTED:
        assert (
            f"{pointer}: unknown keyword {keyword!r} (did you mean {suggestion!r}?)"
            in refused.value.message
        )
    with pytest.raises(
        generator.OptionError, match="unknown_keywords must be one of ignore, warn, error"
    ):
        generator.compile_source(TYPOS, unknown_keywords="loud")


def test_seed_profiles_are_not_reviewed() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        generator.compile_source(
            {"type": "object", "requird": ["a"]}, profile="lenient", unknown_keywords="error"
        )


def test_a_profile_overriding_another_schema_draft_is_warned_about() -> None:
    schema = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "string"}
    with pytest.warns(
        generator.SchemaWarning,
        match="profile draft2019-09 overrides \\$schema, which names draft7",
    ):
        generator.compile_source(schema, profile="draft2019-09", unknown_keywords="warn")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        generator.compile_source(
            schema, profile="draft7", unknown_keywords="warn"
        )  # the same draft
        generator.compile_source(schema, unknown_keywords="warn")  # $schema chooses


def test_tool_contract_sides_are_reviewed_with_their_pointer() -> None:
    contract = {
        "name": "t",
        "profile": "draft2020-12",
        "input": {"type": "object", "requird": ["a"]},
        "output": {"type": "object"},
    }
    with pytest.raises(generator.SchemaError) as refused:
        generator.compile_contract_source(contract, unknown_keywords="error")
    assert refused.value.pointer == "/input/requird"


@needs_cli
def test_cli_warns_by_default_and_refuses_when_asked(tmp_path: Path) -> None:
    write(tmp_path / "a.json", TYPOS)
    warned = run("compile", "a.json", "--out", "out", cwd=tmp_path)
    assert warned.returncode == 0, warned.stderr
    lines = warned.stderr.splitlines()
    assert (
        "a.json:/properties/name/minLenght: warning: unknown keyword 'minLenght' (did you mean "
        "'minLength'?): draft2020-12 ignores it [unknown-keyword]" in lines
    )
    assert len(lines) == len(EXPECTED)
    assert (tmp_path / "out" / "a.py").exists()

    refused = run(
        "compile", "a.json", "--out", "refused", "--unknown-keywords", "error", cwd=tmp_path
    )
    assert refused.returncode == 1
    assert refused.stderr.startswith("a.json:/requird: 4 unknown keyword(s): ")
    assert not (tmp_path / "refused").exists()

    quiet = run("compile", "a.json", "--out", "out", "--unknown-keywords", "ignore", cwd=tmp_path)
    assert quiet.returncode == 0 and quiet.stderr == ""

    write(
        tmp_path / "b.json",
        {"$schema": "http://json-schema.org/draft-07/schema#", "type": "string"},
    )
    override = run("preflight", "b.json", "--profile", "draft2020-12", cwd=tmp_path)
    assert override.returncode == 0
    assert override.stderr.strip() == (
        "b.json:/$schema: warning: profile draft2020-12 overrides $schema, "
        "which names draft7 [profile-overrides-schema]"
    )


# A registry's document that a $ref reaches: its typos are found as the contract's are, located
# by its URI (a pointer alone would name a place in the compiled file).
ITEM = {
    "$id": "https://example.com/item.json",
    "type": "object",
    "x-owner": "team",
    "properties": {"n": {"type": "integer", "minimun": 3}},
    "$defs": {"unused": {"patern": "^a"}},
}
ITEM_FOUND = [
    "https://example.com/item.json#/properties/n/minimun",
    "https://example.com/item.json#/$defs/unused/patern",
]
USES_ITEM = {
    "properties": {
        "a": {"$ref": "https://example.com/item.json"},
        "b": {"$ref": "https://example.com/item.json#/properties/n"},
    }
}


def test_registry_documents_a_reference_reaches_are_reviewed_by_their_uri() -> None:
    registry = {
        "https://example.com/item.json": ITEM,
        "https://example.com/never.json": {"requird": []},
    }
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the default is silent
        generator.compile_source(USES_ITEM, registry=registry)
    with pytest.warns(generator.SchemaWarning) as caught:
        generator.compile_source(USES_ITEM, registry=registry, unknown_keywords="warn")
    # each once (two references reach the document), never a document no reference reached
    assert sorted(w.message.pointer for w in caught) == sorted(ITEM_FOUND)  # type: ignore[union-attr]
    with pytest.raises(generator.SchemaError) as refused:
        generator.compile_source(USES_ITEM, registry=registry, unknown_keywords="error")
    assert refused.value.code == "unknown-keyword" and refused.value.pointer in ITEM_FOUND
    assert (
        "https://example.com/item.json#/properties/n/minimun: unknown keyword 'minimun' (did you mean "
        "'minimum'?)" in refused.value.message
    )
    # read by its own draft
    old = {**ITEM, "$schema": "http://json-schema.org/draft-07/schema#", "dependentRequired": {}}
    with pytest.raises(generator.SchemaError) as refused_old:
        generator.compile_source(
            USES_ITEM, registry={"https://example.com/item.json": old}, unknown_keywords="error"
        )
    assert (
        "https://example.com/item.json#/dependentRequired: unknown keyword 'dependentRequired' (a keyword of "
        "draft2020-12, not of draft7): draft7 ignores it" in refused_old.value.message
    )


def test_a_tool_contracts_registry_document_keeps_its_uri() -> None:
    contract = {
        "name": "t",
        "profile": "draft2020-12",
        "input": {"$ref": "https://example.com/item.json"},
        "output": {"type": "object"},
    }
    with pytest.raises(generator.SchemaError) as refused:
        generator.compile_contract_source(
            contract, registry={"https://example.com/item.json": ITEM}, unknown_keywords="error"
        )
    assert refused.value.pointer in ITEM_FOUND  # not under /input: it is not in the contract file
    # a document both sides reach, by its $id and by its file's URI: said once
    both = {**contract, "output": {"$ref": "file:///reg/item.json"}}
    registry = {"https://example.com/item.json": ITEM, "file:///reg/item.json": ITEM}
    with pytest.warns(generator.SchemaWarning) as caught:
        generator.compile_contract_source(both, registry=registry, unknown_keywords="warn")
    assert len(caught) == len(ITEM_FOUND)


@needs_cli
def test_cli_names_a_registry_documents_typo_by_its_uri(tmp_path: Path) -> None:
    write(tmp_path / "reg" / "item.json", ITEM)
    write(tmp_path / "a.json", USES_ITEM)
    warned = run("compile", "a.json", "--registry", "reg", "--out", "out", cwd=tmp_path)
    assert warned.returncode == 0, warned.stderr
    assert (
        "a.json:https://example.com/item.json#/properties/n/minimun: warning: unknown keyword 'minimun' "
        "(did you mean 'minimum'?): draft2020-12 ignores it [unknown-keyword]"
        in warned.stderr.splitlines()
    )
    refused = run(
        "compile",
        "a.json",
        "--registry",
        "reg",
        "--out",
        "refused",
        "--unknown-keywords",
        "error",
        cwd=tmp_path,
    )
    assert refused.returncode == 1 and not (tmp_path / "refused").exists()


# The same warning in many places (SchemaStore's draft-07 schemas say `deprecated` 77 times in
# package.json's registry documents): one line, counted, at its first place.
REPEATED = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "properties": {name: {"type": "string", "deprecated": True} for name in ("a", "b", "c")},
    "minLenght": 1,
}


@needs_cli
def test_cli_says_a_warning_of_many_places_once_counted(tmp_path: Path) -> None:
    write(tmp_path / "r.json", REPEATED)
    warned = run("compile", "r.json", "--out", "out", cwd=tmp_path)
    assert warned.returncode == 0, warned.stderr
    assert warned.stderr.splitlines() == [
        "r.json:/minLenght: warning: unknown keyword 'minLenght' (did you mean 'minLength'?): draft7 ignores it "
        "[unknown-keyword]",
        "r.json: warning: 3 unknown keywords 'deprecated' (a keyword of draft2020-12, not of draft7): draft7 "
        "ignores them [unknown-keyword], the first at /properties/a/deprecated",
    ]


@needs_cli
def test_validate_reviews_unknown_keywords_as_compile_does(tmp_path: Path) -> None:
    write(tmp_path / "a.json", TYPOS)
    write(tmp_path / "d.json", {"name": "x"})
    warned = run("validate", "--schema", "a.json", "d.json", cwd=tmp_path)
    assert warned.returncode == 0, warned.stderr
    assert warned.stderr.splitlines() == [
        "a.json:/requird: warning: unknown keyword 'requird' (did you mean 'required'?): draft2020-12 ignores it "
        "[unknown-keyword]",
        "a.json:/properties/name/minLenght: warning: unknown keyword 'minLenght' (did you mean 'minLength'?): "
        "draft2020-12 ignores it [unknown-keyword]",
        "a.json:/properties/tags/items/maxitems: warning: unknown keyword 'maxitems' (did you mean 'maxItems'?): "
        "draft2020-12 ignores it [unknown-keyword]",
        "a.json:/$defs/requird/patern: warning: unknown keyword 'patern' (did you mean 'pattern'?): draft2020-12 "
        "ignores it [unknown-keyword]",
    ]
    assert warned.stdout.splitlines() == ["1 record in 1 file: 1 valid, 0 invalid, 0 unreadable"]
    quiet = run(
        "validate", "--schema", "a.json", "--unknown-keywords", "ignore", "d.json", cwd=tmp_path
    )
    assert quiet.returncode == 0 and quiet.stderr == ""
    refused = run(
        "validate", "--schema", "a.json", "--unknown-keywords", "error", "d.json", cwd=tmp_path
    )
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.startswith("a.json:/requird: 4 unknown keyword(s): ")
    module = run("compile", "a.json", "--out", "out", "--unknown-keywords", "ignore", cwd=tmp_path)
    assert module.returncode == 0, module.stderr
    given = run(
        "validate", "--module", "out/a.py", "--unknown-keywords", "warn", "d.json", cwd=tmp_path
    )
    assert given.returncode == 2
    assert "--unknown-keywords: compile options, for --schema only" in given.stderr


@needs_cli
def test_registry_warnings_are_the_commands_lines_never_python_warnings(tmp_path: Path) -> None:
    """Two registry files declaring one $id: said once, as the command's line, by compile and
    validate alike (never `.../generator/...py:NN: RegistryWarning` and a source line)."""
    write(tmp_path / "reg" / "one.json", {"$id": "https://example.com/same.json", "type": "string"})
    write(
        tmp_path / "reg" / "two.json", {"$id": "https://example.com/same.json", "type": "integer"}
    )
    write(tmp_path / "a.json", {"type": "object"})
    write(tmp_path / "d.json", {})
    for command in (
        ["compile", "a.json", "--out", "out"],
        ["validate", "--schema", "a.json", "d.json"],
    ):
        result = run(*command, "--registry", "reg", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        warned = [line for line in result.stderr.splitlines() if "warning" in line.lower()]
        assert warned == [
            "straightline: warning: $id 'https://example.com/same.json' is declared by 2 registry "
            "files: reg/one.json, reg/two.json; a $ref to it is an error"
        ], result.stderr
        assert "Warning:" not in result.stderr and ".py:" not in result.stderr
