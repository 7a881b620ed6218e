"""Unsafe patterns: those whose backtracking can take super-linear time and that no linear-time
engine runs (a risky back-reference or look-around; generator/regex/plan.py). The fail-closed
profile (strict) refuses the schema (`unsafe-regex`, naming the pattern and the risk); the drafts
run them in `re`, warning once per pattern (`unsafe_patterns="warn"`, the default), silently
(`"allow"`) or refuse them (`"error"`), from the API, the command line and [tool.straightline];
the option is recorded in the module header, so `straightline check` sees a change."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

import generator
from generator import OptionError, SchemaError, SchemaWarning
from generator.errors import CODES
from generator.reference import Reference

from .build.helpers import needs_cli, run, write

BACKREF = r"^(\w+)\s\1$"  # the captured word compared again: unbounded, and no automaton exists
LOOKAHEAD = r"(?=.*x)\w+y"  # a look-ahead tried at every position over an unbounded body


def caught(call: Any) -> tuple[Any, list[SchemaWarning]]:
    with warnings.catch_warnings(record=True) as found:
        warnings.simplefilter("always")
        result = call()
    return result, [w.message for w in found if isinstance(w.message, SchemaWarning)]


def test_the_code_is_listed() -> None:
    assert "unsafe-regex" in CODES


@pytest.mark.parametrize("pattern", [BACKREF, LOOKAHEAD])
def test_strict_refuses_an_unsafe_pattern_naming_the_risk(pattern: str) -> None:
    schema = {"type": "object", "properties": {"s": {"type": "string", "pattern": pattern}}}
    for options in (
        {},
        {"unsafe_patterns": "allow"},
        {"unsafe_patterns": "warn"},
    ):  # fail-closed, always
        with pytest.raises(SchemaError) as refused:
            generator.compile_source(schema, profile="strict", **options)
        assert refused.value.code == "unsafe-regex"
        assert refused.value.pointer == "/properties/s/pattern"
        assert "backtracking can take super-linear time" in refused.value.message
        assert "refused by the strict profile" in refused.value.message
    with pytest.raises(SchemaError) as reference:  # the reference reads the profile the same way
        Reference(schema, "strict")
    assert reference.value.code == "unsafe-regex"


def test_strict_keeps_what_the_linear_engines_run() -> None:
    module = generator.compile_module({"pattern": r"^(a+)+$"}, profile="strict")  # automaton
    assert module.is_valid("aaa") and not module.is_valid("a" * 10_000 + "!")
    module = generator.compile_module(
        {"pattern": r"^(a|b)\1$"}, profile="strict"
    )  # safe back-reference
    assert module.is_valid("aa") and not module.is_valid("ab")


def test_drafts_warn_once_per_pattern_and_run_it_in_re() -> None:
    schema = {
        "$defs": {"word": {"type": "string", "pattern": BACKREF}},
        "properties": {"a": {"$ref": "#/$defs/word"}, "b": {"$ref": "#/$defs/word"}},
        "patternProperties": {LOOKAHEAD: {"type": "integer"}},
    }
    module, found = caught(lambda: generator.compile_module(schema))
    assert [(w.pointer, w.code) for w in found] == [
        ("/$defs/word/pattern", "unsafe-regex"),
        ("/patternProperties/(?=.*x)\\w+y", "unsafe-regex"),
    ]
    assert "it runs in Python's re" in found[0].message and "back-reference" in found[0].message
    assert "_re.compile" in module.__source__ and "_dfa_search" not in module.__source__
    assert module.is_valid({"a": "ab ab", "b": "c c"})
    assert [e.keyword_location for e in module.errors({"a": "ab ac", "xy": "s"})] == [
        "/properties/a/$ref/pattern",
        "/patternProperties/(?=.*x)\\w+y/type",
    ]


def test_allow_is_silent_and_error_refuses() -> None:
    schema = {"properties": {"a": {"pattern": BACKREF}}}
    _, found = caught(lambda: generator.compile_source(schema, unsafe_patterns="allow"))
    assert found == []
    with pytest.raises(SchemaError) as refused:
        generator.compile_source(schema, unsafe_patterns="error")
    assert (refused.value.code, refused.value.pointer) == ("unsafe-regex", "/properties/a/pattern")
    assert "unsafe_patterns='error'" in refused.value.message
    with pytest.raises(SchemaError):  # another draft's registry document: the same policy
        generator.compile_source(
            {"$ref": "urn:other"},
            unsafe_patterns="error",
            registry={
                "urn:other": {
                    "$schema": "http://json-schema.org/draft-07/schema#",
                    "pattern": LOOKAHEAD,
                }
            },
        )


def test_a_bad_policy_is_an_option_error() -> None:
    with pytest.raises(
        OptionError, match="unsafe_patterns must be one of allow, warn, error, not 'loud'"
    ):
        generator.compile_source({"pattern": "a"}, unsafe_patterns="loud")


def test_the_policy_is_recorded_in_the_header() -> None:
    source = generator.compile_source({"pattern": "^a"}, unsafe_patterns="error")
    assert '# options: {"unsafe_patterns":"error"}' in source
    assert generator.compile_module({"pattern": "^a"}, unsafe_patterns="error").STRAIGHTLINE[
        "options"
    ] == {"unsafe_patterns": "error"}
    assert "# options: {}" in generator.compile_source({"pattern": "^a"})


def test_contract_sides_name_their_side() -> None:
    contract = {"name": "t", "profile": "draft2020-12", "input": {"pattern": BACKREF}, "output": {}}
    _, found = caught(lambda: generator.compile_contract_source(contract))
    assert [w.pointer for w in found] == ["/input/pattern"]
    strict = dict(contract, profile="strict")
    with pytest.raises(SchemaError) as refused:
        generator.compile_contract_source(strict)
    assert (refused.value.code, refused.value.pointer) == ("unsafe-regex", "/input/pattern")


@needs_cli
def test_the_command_line_warns_refuses_and_checks(tmp_path: Path) -> None:
    write(tmp_path / "a.json", {"properties": {"w": {"pattern": BACKREF}}})
    warned = run("compile", "a.json", "--out", "out", cwd=tmp_path)
    assert warned.returncode == 0, warned.stderr
    assert warned.stderr.startswith("a.json:/properties/w/pattern: warning: pattern ")
    assert (
        warned.stderr.rstrip().endswith("[unsafe-regex]") and len(warned.stderr.splitlines()) == 1
    )
    refused = run(
        "compile", "a.json", "--out", "refused", "--unsafe-patterns", "error", cwd=tmp_path
    )
    assert refused.returncode == 1 and "[unsafe-regex]" in refused.stderr
    assert not (tmp_path / "refused").exists()
    quiet = run("compile", "a.json", "--out", "out", "--unsafe-patterns", "allow", cwd=tmp_path)
    assert quiet.returncode == 0 and quiet.stderr == ""
    stale = run(
        "check", "a.json", "--out", "out", cwd=tmp_path
    )  # compiled with allow, checked without
    assert (
        stale.returncode == 1 and 'options {"unsafe_patterns":"allow"} are not {}' in stale.stderr
    )
    current = run("check", "a.json", "--out", "out", "--unsafe-patterns", "allow", cwd=tmp_path)
    assert current.returncode == 0, current.stderr
    write(tmp_path / "d.json", '"ab ab"')
    validated = run(
        "validate", "--schema", "a.json", "--unsafe-patterns", "error", "d.json", cwd=tmp_path
    )
    assert validated.returncode == 2 and "[unsafe-regex]" in validated.stderr


@needs_cli
def test_the_project_configuration_sets_the_policy(tmp_path: Path) -> None:
    write(tmp_path / "a.json", {"properties": {"w": {"pattern": BACKREF}}})
    write(
        tmp_path / "pyproject.toml",
        '[tool.straightline]\nout = "gen"\ncontracts = ["a.json"]\n' 'unsafe-patterns = "error"\n',
    )
    refused = run("compile", cwd=tmp_path)
    assert refused.returncode == 1 and "a.json:/properties/w/pattern: " in refused.stderr
    write(
        tmp_path / "pyproject.toml",
        '[tool.straightline]\nout = "gen"\ncontracts = ["a.json"]\n' 'unsafe-patterns = "allow"\n',
    )
    allowed = run("compile", cwd=tmp_path)
    assert allowed.returncode == 0 and "warning" not in allowed.stderr
    assert '# options: {"unsafe_patterns":"allow"}' in (tmp_path / "gen" / "a.py").read_text()
    assert run("check", cwd=tmp_path).returncode == 0
