"""`format` and content assertion wired into the compiler: a schema with `format` compiled with
assertion on, off and by default, per draft and profile, through generated modules and the
reference interpreters; only the checkers a schema uses copied in; custom formats imported from a
module on a temporary path; unknown formats refused with their pointer; the format-assertion
vocabulary; draft 7's content keywords; the options recorded in the header."""

from __future__ import annotations

import ast
import json
import textwrap
from pathlib import Path
from typing import Any

import black
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import generator
from generator import OptionError, SchemaError
from generator.contracts import compile_contract_module
from generator.format_options import format_options
from generator.formats import FORMATS
from generator.reference import DraftReference, Reference
from generator.render.header import parse_header

from ..strategies import JSON, instances, schemas
from ..test_differential import assert_agree

DRAFTS = ("draft2020-12", "draft2019-09", "draft7", "draft6", "draft4")
EMAIL = {"type": "object", "properties": {"email": {"type": "string", "format": "email"}}}
GOOD, BAD = {"email": "a@example.com"}, {"email": "not an address"}


def compiled(schema: Any, profile: str, **options: Any) -> Any:
    return generator.compile_module(schema, profile=profile, format=False, **options)


def reference(schema: Any, profile: str, **options: Any) -> Any:
    return Reference(schema, profile, format_options=format_options(**options))


def verdicts(
    schema: Any, profile: str, instance: Any, **options: Any
) -> tuple[bool, bool, list[tuple[str, str]]]:
    """(module's is_valid, reference's, the module's error locations); the module's errors and
    the reference's must name the same places."""
    module = compiled(schema, profile, **options)
    ref = reference(schema, profile, **options)
    found = sorted((e.instance_location, e.keyword_location) for e in module.errors(instance))
    assert found == sorted((e.instance_location, e.keyword_location) for e in ref.errors(instance))
    assert module.is_valid(instance) == (not found)
    return module.is_valid(instance), ref.is_valid(instance), found


# -- on, off, default ------------------------------------------------------------------------------


@pytest.mark.parametrize("profile", [*DRAFTS, "strict"])
def test_format_is_an_annotation_by_default_and_when_switched_off(profile: str) -> None:
    for options in ({}, {"format_assertion": False}):
        assert verdicts(EMAIL, profile, BAD, **options) == (True, True, [])


@pytest.mark.parametrize("profile", [*DRAFTS, "strict"])
def test_format_asserts_when_switched_on(profile: str) -> None:
    assert verdicts(EMAIL, profile, GOOD, format_assertion=True) == (True, True, [])
    assert verdicts(EMAIL, profile, BAD, format_assertion=True) == (
        False,
        False,
        [("/email", "/properties/email/format")],
    )
    module = compiled(EMAIL, profile, format_assertion=True)
    assert [e.message for e in module.errors(BAD)] == ['"not an address" is not a valid "email"']


def test_values_that_are_not_strings_pass_format() -> None:
    schema = {"format": "ipv4"}
    for value in (1, 1.5, None, True, [], {}, ["1.2.3.x"]):
        assert verdicts(schema, "draft2020-12", value, format_assertion=True)[:2] == (True, True)


def test_a_str_subclass_is_checked_by_the_error_path() -> None:
    class Text(str):
        pass

    module = compiled({"format": "ipv4"}, "draft2020-12", format_assertion=True)
    assert module.is_valid(Text("10.0.0.1")) and not module.is_valid(Text("10.0.0.x"))
    assert [e.keyword_location for e in module.errors(Text("10.0.0.x"))] == ["/format"]


def test_lenient_ignores_format_and_octoscript_refuses_it() -> None:
    """lenient enforces type, required and properties only; octoscript lists no format (fail-closed)."""
    assert verdicts(EMAIL, "lenient", BAD, format_assertion=True)[:2] == (True, True)
    with pytest.raises(SchemaError) as refused:
        compiled({"type": "string", "format": "email"}, "octoscript", format_assertion=True)
    assert refused.value.code == "keyword-not-in-profile" and refused.value.pointer == "/format"


def test_a_draft_checks_a_format_by_its_own_rules() -> None:
    """hostname in drafts 4 and 6 is RFC 1034 (no A-label check); from draft 7, A-labels are
    checked; a format a draft does not define (uuid before 2019-09) is an annotation there."""
    schema = {"format": "hostname"}
    for draft, valid in (
        ("draft4", True),
        ("draft6", True),
        ("draft7", False),
        ("draft2020-12", False),
    ):
        assert verdicts(schema, draft, "xn--x", format_assertion=True)[:2] == (valid, valid), draft
    for draft, valid in (("draft7", True), ("draft2019-09", False)):
        assert verdicts({"format": "uuid"}, draft, "nope", format_assertion=True)[:2] == (
            valid,
            valid,
        ), draft


def test_an_embedded_draft_keeps_the_format_options() -> None:
    """A subschema of another draft ($schema below the root) is checked by that draft's rules,
    with the options the compile was given."""
    schema = {
        "properties": {
            "old": {"$schema": "http://json-schema.org/draft-07/schema#", "format": "hostname"},
            "id": {"format": "uuid"},
        }
    }
    module = compiled(schema, "draft2020-12", format_assertion=True)
    assert not module.is_valid({"old": "xn--x"}) and not module.is_valid({"id": "x"})
    assert compiled(schema, "draft2020-12").is_valid({"old": "xn--x", "id": "x"})


# -- what a module copies ------------------------------------------------------------------------------


def _defined(source: str) -> set[str]:
    tree = ast.parse(source)
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}


def test_only_the_checkers_a_schema_uses_are_copied() -> None:
    source = generator.compile_source(
        {"format": "ipv4", "pattern": "^1"}, profile="draft2020-12", format_assertion=True
    )
    functions = _defined(source)
    assert "_format_ipv4" in functions
    assert not {f for f in functions if f.startswith("_format_") and f != "_format_ipv4"}
    assert source.count("import re as _re\n") == 1  # shared by pattern and the checker
    assert "import unicodedata" not in source  # ipv4 needs no Unicode data
    annotated = generator.compile_source({"format": "ipv4"}, profile="draft2020-12")
    assert not {f for f in _defined(annotated) if f.startswith(("_format_", "_fmt_"))}


def test_every_format_in_one_formatted_module_is_black_stable_and_correct() -> None:
    """The checkers' source is laid out by black when the module is formatted; the result is
    black-stable and the same program as the unformatted module."""
    schema = {"properties": {name: {"format": name} for name in FORMATS}}
    text = generator.compile_source(schema, profile="draft2020-12", format_assertion=True)
    mode = black.Mode(target_versions={black.TargetVersion.PY311}, line_length=100)
    assert black.format_str(text, mode=mode) == text
    plain = generator.compile_source(
        schema, profile="draft2020-12", format_assertion=True, format=False
    )
    assert ast.dump(ast.parse(text)) == ast.dump(ast.parse(plain))
    module = compiled(schema, "draft2020-12", format_assertion=True)
    good = {
        "date": "2024-02-29",
        "ipv6": "::1",
        "uri": "https://a.b/c",
        "regex": "^a+$",
        "uuid": "0" * 8 + "-0000-0000-0000-" + "0" * 12,
    }
    assert module.is_valid(good)
    for name, bad in (
        ("date", "2023-02-29"),
        ("ipv6", "1::2::3"),
        ("uri", "//no-scheme"),
        ("regex", "("),
    ):
        assert [e.keyword_location for e in module.errors({**good, name: bad})] == [
            f"/properties/{name}/format"
        ]


# -- custom formats --------------------------------------------------------------------------------


@pytest.fixture
def custom_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A module of the user's own format functions, importable from a temporary path; each call
    is recorded in CALLS."""
    name = f"my_formats_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text(textwrap.dedent("""
        CALLS = []

        def is_sku(s):
            CALLS.append(s)
            return s.startswith("SKU-") and s[4:].isdigit()

        def strict_email(s):
            return s.endswith("@example.com")

        def broken(s):
            raise LookupError(s)
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    return name


def test_custom_format_is_imported_and_called_on_strings(custom_module: str) -> None:
    import importlib

    formats = {"sku": f"{custom_module}:is_sku"}
    schema = {"type": "array", "items": {"format": "sku"}}
    source = generator.compile_source(schema, profile="draft2020-12", formats=formats)
    imports = [
        node for node in ast.parse(source).body if isinstance(node, (ast.Import, ast.ImportFrom))
    ]
    custom = [
        node
        for node in imports
        if isinstance(node, ast.ImportFrom) and node.module == custom_module
    ]
    assert len(custom) == 1 and [(a.name, a.asname) for a in custom[0].names] == [
        ("is_sku", "_format_custom_sku")
    ]
    assert all(
        node.module in ("decimal", "typing", custom_module)
        for node in imports
        if isinstance(node, ast.ImportFrom)
    )
    docstring = ast.get_docstring(ast.parse(source)) or ""
    assert "Imports only the standard library and its custom format functions." in docstring
    assert "Standalone: imports only the standard library." not in docstring
    calls = importlib.import_module(custom_module).CALLS
    calls.clear()
    # custom formats assert without format_assertion=True: they exist to be checked
    assert verdicts(schema, "draft2020-12", ["SKU-1", 5, None, "SKU-2"], formats=formats) == (
        True,
        True,
        [],
    )
    assert calls and set(calls) == {
        "SKU-1",
        "SKU-2",
    }  # never called on a value that is not a string
    assert verdicts(schema, "draft2020-12", ["SKU-1", "sku-2"], formats=formats) == (
        False,
        False,
        [("/1", "/items/format")],
    )
    assert verdicts(schema, "draft2020-12", ["sku-2"], formats=formats, format_assertion=False)[
        :2
    ] == (True, True)


def test_a_custom_format_functions_exception_propagates_from_the_module(custom_module: str) -> None:
    # The documented API (`straightline validate` reports it as the record's problem instead).
    module = generator.compile_module(
        {"items": {"format": "sku"}}, formats={"sku": f"{custom_module}:broken"}
    )
    assert module.is_valid([5])
    for call in (module.is_valid, module.errors, module.validate):
        with pytest.raises(LookupError, match="SKU-1"):
            call([5, "SKU-1"])


def test_a_custom_format_overrides_the_builtin_one(custom_module: str) -> None:
    formats = {"email": f"{custom_module}:strict_email"}
    assert verdicts(EMAIL, "draft7", GOOD, formats=formats)[:2] == (True, True)
    assert verdicts(EMAIL, "draft7", {"email": "a@other.org"}, formats=formats)[:2] == (
        False,
        False,
    )


def test_custom_format_names_get_distinct_aliases(custom_module: str) -> None:
    formats = {"a-b": f"{custom_module}:is_sku", "a_b": f"{custom_module}:strict_email"}
    schema = {"properties": {"x": {"format": "a-b"}, "y": {"format": "a_b"}}}
    source = generator.compile_source(schema, profile="strict", formats=formats)
    assert "import is_sku as _format_custom_a_b\n" in source
    assert "import strict_email as _format_custom_a_b_2\n" in source
    module = compiled(schema, "strict", formats=formats)
    assert module.is_valid({"x": "SKU-1", "y": "u@example.com"})
    assert not module.is_valid({"x": "u@example.com"}) and not module.is_valid({"y": "SKU-1"})


BAD_SPECS = {
    "no colon": "mypkg.is_sku",
    "no function": "mypkg:",
    "no module": ":is_sku",
    "space": "mypkg:is sku",
    "keyword": "mypkg:class",
    "code": "os:system('x')",
    "relative": ".mypkg:is_sku",
    "empty part": "a..b:f",
    "non-ASCII": "m\u00f6d:f",
    "not a string": 5,
}


@pytest.mark.parametrize("case", list(BAD_SPECS))
def test_a_bad_custom_format_is_an_option_error(case: str) -> None:
    with pytest.raises(OptionError) as refused:
        generator.compile_source({"format": "sku"}, formats={"sku": BAD_SPECS[case]})
    assert "custom format 'sku'" in refused.value.message


@pytest.mark.parametrize(
    "options",
    [
        {"formats": ["sku"]},
        {"formats": {"": "m:f"}},
        {"format_assertion": "yes"},
        {"content_assertion": 1},
        {"unknown_formats": "warn"},
    ],
)
def test_bad_format_options_are_option_errors(options: dict[str, Any]) -> None:
    with pytest.raises(OptionError):
        generator.compile_source({"format": "email"}, **options)


# -- unknown formats -------------------------------------------------------------------------------


def test_unknown_format_is_an_annotation_or_refused_with_its_pointer() -> None:
    schema = {"properties": {"code": {"$defs": {}, "format": "sku"}, "id": {"format": "uuid"}}}
    assert compiled(schema, "draft2020-12", format_assertion=True).is_valid({"code": "x"})
    with pytest.raises(SchemaError) as refused:
        compiled(schema, "draft2020-12", format_assertion=True, unknown_formats="error")
    assert (
        refused.value.code == "unknown-format"
        and refused.value.pointer == "/properties/code/format"
    )
    assert "'sku'" in refused.value.message
    with pytest.raises(SchemaError) as other_draft:  # uuid is a format of 2019-09 on
        compiled(
            {"items": {"format": "uuid"}}, "draft7", format_assertion=True, unknown_formats="error"
        )
    assert (
        other_draft.value.pointer == "/items/format" and "draft2019-09" in other_draft.value.message
    )
    # not asserted: nothing is checked, so nothing is unknown
    assert compiled(schema, "draft2020-12", unknown_formats="error").is_valid({"code": "x"})


def test_unknown_formats_are_refused_behind_references() -> None:
    schema = {"$ref": "#/$defs/code", "$defs": {"code": {"format": "sku"}}}
    with pytest.raises(SchemaError) as refused:
        compiled(schema, "draft2020-12", format_assertion=True, unknown_formats="error")
    assert refused.value.code == "unknown-format" and refused.value.pointer == "/$defs/code/format"


# -- the format-assertion vocabulary ---------------------------------------------------------------

META_2020 = {
    "$id": "https://example.com/meta/formats",
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$vocabulary": {
        "https://json-schema.org/draft/2020-12/vocab/core": True,
        "https://json-schema.org/draft/2020-12/vocab/validation": True,
        "https://json-schema.org/draft/2020-12/vocab/format-assertion": False,
    },
}
META_2019 = {
    "$id": "https://example.com/meta/formats-2019",
    "$schema": "https://json-schema.org/draft/2019-09/schema",
    "$vocabulary": {
        "https://json-schema.org/draft/2019-09/vocab/core": True,
        "https://json-schema.org/draft/2019-09/vocab/format": True,
    },
}


@pytest.mark.parametrize("meta,draft", [(META_2020, "draft2020-12"), (META_2019, "draft2019-09")])
def test_a_meta_schema_asking_for_format_assertion_turns_it_on(
    meta: dict[str, Any], draft: str
) -> None:
    registry = {meta["$id"]: meta}
    schema = {"$schema": meta["$id"], "format": "ipv4"}
    for options, valid in (
        ({}, False),
        ({"format_assertion": False}, True),
        ({"format_assertion": True}, False),
    ):
        module = generator.compile_module(schema, registry=registry, format=False, **options)
        ref = DraftReference(
            schema, draft, registry=registry, format_options=format_options(**options)
        )
        assert module.is_valid("x.y") == ref.is_valid("x.y") == valid, options
        assert module.is_valid("10.0.0.1") and ref.is_valid("10.0.0.1")


def test_the_standard_2019_meta_schema_keeps_format_an_annotation() -> None:
    """The 2019-09 meta-schema declares the format vocabulary `false`."""
    schema = {"$schema": "https://json-schema.org/draft/2019-09/schema", "format": "ipv4"}
    assert generator.compile_module(schema).is_valid("x.y")


# -- content (draft 7) -------------------------------------------------------------------------------

CONTENT = {
    "properties": {
        "json": {"contentMediaType": "application/json"},
        "b64": {"contentEncoding": "base64"},
        "both": {"contentMediaType": "application/json", "contentEncoding": "base64"},
        "other": {"contentMediaType": "image/png", "contentEncoding": "base32"},
    }
}


def test_content_asserts_in_draft_7_when_switched_on() -> None:
    on = {"content_assertion": True}
    assert verdicts(
        CONTENT,
        "draft7",
        {"json": "[1]", "b64": "eyJ4IjoxfQ==", "both": "eyJ4IjoxfQ==", "other": "!"},
        **on,
    ) == (True, True, [])
    assert verdicts(CONTENT, "draft7", {"json": "{", "b64": "%", "both": "bm90IGpzb24="}, **on) == (
        False,
        False,
        [
            ("/b64", "/properties/b64/contentEncoding"),
            ("/both", "/properties/both/contentMediaType"),
            ("/json", "/properties/json/contentMediaType"),
        ],
    )
    # a string that does not decode fails both keywords
    assert verdicts(CONTENT, "draft7", {"both": "{}"}, **on)[2] == [
        ("/both", "/properties/both/contentEncoding"),
        ("/both", "/properties/both/contentMediaType"),
    ]


@pytest.mark.parametrize(
    "draft,options",
    [
        ("draft7", {}),
        ("draft7", {"content_assertion": False}),
        ("draft2019-09", {"content_assertion": True}),
        ("draft2020-12", {"content_assertion": True}),
    ],
)
def test_content_is_an_annotation_otherwise(draft: str, options: dict[str, Any]) -> None:
    """Off by default in draft 7; 2019-09 and 2020-12 define the keywords as annotations only."""
    assert verdicts(CONTENT, draft, {"json": "{", "b64": "%", "both": "{}"}, **options) == (
        True,
        True,
        [],
    )


# -- the header, and tool contracts -----------------------------------------------------------------


def test_the_header_records_the_options_given(custom_module: str) -> None:
    def options_of(**given: Any) -> Any:
        header = parse_header(generator.compile_source({"format": "email"}, **given))
        assert header is not None
        return json.loads(header.inputs.options)

    assert options_of() == {}
    assert options_of(format_assertion=False) == {"format_assertion": False}
    assert options_of(format_assertion=True, unknown_formats="error", content_assertion=True) == {
        "format_assertion": True,
        "unknown_formats": "error",
        "content_assertion": True,
    }
    assert options_of(formats={"sku": f"{custom_module}:is_sku"}) == {
        "formats": {"sku": f"{custom_module}:is_sku"}
    }
    module = compiled({"format": "email"}, "draft2020-12", format_assertion=True)
    assert module.STRAIGHTLINE["options"] == {"format_assertion": True}


def test_tool_contracts_take_the_format_options() -> None:
    contract = {
        "name": "mail.send",
        "profile": "strict",
        "input": {"type": "object", "properties": {"to": {"type": "string", "format": "email"}}},
        "output": {"type": "object"},
    }
    assert compile_contract_module(contract).is_valid_input({"to": "nobody"})
    module = compile_contract_module(contract, format_assertion=True)
    assert not module.is_valid_input({"to": "nobody"}) and module.is_valid_input(
        {"to": "a@b.example"}
    )
    assert [e.keyword_location for e in module.input_errors({"to": "nobody"})] == [
        "/properties/to/format"
    ]


def test_modules_asserting_every_format_and_content_pass_mypy_strict(tmp_path: Path) -> None:
    """The copied checkers keep the generated modules' typing promise (mypy --strict, Python 3.11:
    the checkers need it, see the README)."""
    pytest.importorskip("mypy")
    import subprocess
    import sys

    every = {"properties": {name: {"format": name} for name in FORMATS}}
    (tmp_path / "every_format.py").write_text(
        generator.compile_source(every, format_assertion=True)
    )
    (tmp_path / "content.py").write_text(
        generator.compile_source(CONTENT, profile="draft7", content_assertion=True)
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "--python-version",
            "3.11",
            "every_format.py",
            "content.py",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr


# -- property: modules asserting formats agree with the reference ------------------------------------

FORMAT_STRINGS = st.sampled_from(
    [
        "a@example.com",
        "not an address",
        "2024-02-29",
        "2023-02-29",
        "x@[1.2.3.4]",
        "",
        "2024-1-1",
        "\u00e9@example.com",
    ]
)


@given(data=st.data())
@settings(deadline=None)
def test_strict_modules_asserting_formats_agree_with_the_reference(data: st.DataObject) -> None:
    """Hypothesis: strict schemas (whose `format` is email or date) compiled with assertion on,
    against instances that often are (nearly) such strings, agree with the reference on every
    verdict and error location; strict still accepts nothing lenient refuses."""
    schema = data.draw(schemas("strict"), label="schema")
    module = compiled(schema, "strict", format_assertion=True)
    ref = reference(schema, "strict", format_assertion=True)
    lenient = compiled(schema, "lenient")
    for _ in range(8):
        instance = data.draw(
            st.one_of(
                instances(schema),
                JSON,
                FORMAT_STRINGS,
                st.dictionaries(st.sampled_from(["a", "b"]), FORMAT_STRINGS, max_size=2),
                st.lists(FORMAT_STRINGS, max_size=3),
            ),
            label="instance",
        )
        assert_agree(module, ref, instance)
        if module.is_valid(instance):
            assert lenient.is_valid(instance)


def test_an_unknown_format_in_a_subschema_of_another_draft_is_refused_too() -> None:
    """Preflight walks the schema by the root's draft (2020-12 knows uuid); the draft-7 subschema
    is lowered by draft 7's rules, which do not."""
    schema = {
        "properties": {
            "old": {"$schema": "http://json-schema.org/draft-07/schema#", "format": "uuid"}
        }
    }
    assert compiled(schema, "draft2020-12", format_assertion=True).is_valid({"old": "x"})
    with pytest.raises(SchemaError) as refused:
        compiled(schema, "draft2020-12", format_assertion=True, unknown_formats="error")
    assert (
        refused.value.code == "unknown-format" and refused.value.pointer == "/properties/old/format"
    )
    assert "draft7 does not define it" in refused.value.message
