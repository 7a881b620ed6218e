"""Data as users have it, through the command: YAML 1.2, TOML, JSON5, what a directory search
passes over named on standard error, and a schema read from standard input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import SCHEMA, run, write


def test_yaml_1_2_strings_stay_strings(tmp_path: Path) -> None:
    schema = write(
        tmp_path / "s.json",
        {
            "type": "object",
            "properties": {
                "country": {"type": "string"},
                "enabled": {"type": "string"},
                "on": {"type": "object"},
            },
            "required": ["on"],
        },
    )
    write(tmp_path / "d.yaml", "country: NO\nenabled: yes\non:\n  push: {}\n")
    result = run("--schema", schema, "d.yaml", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (
        0,
        "1 record in 1 file: 1 valid, 0 invalid, 0 unreadable\n",
    )


def test_toml_files_are_validated_and_their_problems_located(tmp_path: Path) -> None:
    schema = write(
        tmp_path / "s.json", {"type": "object", "properties": {"n": {"type": "integer"}}}
    )
    write(tmp_path / "data" / "good.toml", "n = 3\n")
    write(tmp_path / "data" / "bad.toml", 'n = "3"\n')
    write(tmp_path / "data" / "broken.toml", "n = 3\nn = 4\n")
    result = run("--schema", schema, "data", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        'data/bad.toml:/n: "3" is not of type "integer"',
        "data/broken.toml:2:6: invalid TOML: Cannot overwrite a value",
        "2 records in 3 files: 1 valid, 1 invalid, 1 unreadable",
    ]


def test_json5_files_are_validated_when_the_extra_is_installed(tmp_path: Path) -> None:
    pytest.importorskip("json5")
    schema = write(tmp_path / "s.json", {"type": "object", "required": ["extends"]})
    write(tmp_path / "renovate.json5", "// settings\n{extends: ['config:base'],}\n")
    write(tmp_path / "other.json5", "{/* none */}\n")
    result = run("--schema", schema, "renovate.json5", "other.json5", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        'other.json5:(root): "extends" is a required property',
        "2 records in 2 files: 1 valid, 1 invalid, 0 unreadable",
    ]


def test_json5_data_without_the_extra_is_a_usage_error(tmp_path: Path) -> None:
    blocker = tmp_path / "blocker"
    write(blocker / "json5.py", "raise ImportError('json5 is not installed here')\n")
    schema = write(tmp_path / "s.json", SCHEMA)
    write(tmp_path / "a.json5", "{}")
    result = run("--schema", schema, "a.json5", cwd=tmp_path, env={"PYTHONPATH": str(blocker)})
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (
        "straightline validate: a.json5 is JSON5, which needs the json5 package: "
        "pip install 'straightline[json5]'\n"
    )


def test_every_file_a_directory_search_passes_over_is_named_with_the_reason(tmp_path: Path) -> None:
    schema = write(tmp_path / "s.json", {"type": "object"})
    write(tmp_path / "d" / "a.json", {})
    write(tmp_path / "d" / "notes.txt", "not data")
    write(tmp_path / "d" / ".cache.json", {})
    write(tmp_path / "d" / ".git" / "HEAD", "ref")
    result = run("--schema", schema, "d", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (
        0,
        "1 record in 1 file: 1 valid, 0 invalid, 0 unreadable\n",
    )
    assert result.stderr.splitlines() == [
        "d/.git: skipped: hidden (a name starting with '.'), not searched",
        "d/.cache.json: skipped: hidden (a name starting with '.'); name it to read it",
        "d/notes.txt: skipped: not a data file by its name (suffix .txt; --glob and --data-format read it)",
    ]
    only = run("--schema", schema, "--glob", "*.txt", "--data-format", "json", "d", cwd=tmp_path)
    assert "d/a.json: skipped: does not match --glob *.txt" in only.stderr.splitlines()
    assert only.stdout.splitlines()[0] == "d/notes.txt:1:1: invalid JSON: Expecting value"


@pytest.mark.parametrize(
    "source",
    [
        json.dumps(SCHEMA),
        "type: object\nrequired: [left, right]\n"
        "properties: {left: {type: integer}, right: {type: integer}}\n"
        "additionalProperties: false\n",
    ],
)
def test_the_schema_may_come_from_standard_input_in_json_or_yaml(
    tmp_path: Path, source: str
) -> None:
    write(tmp_path / "a.json", {"left": 1})
    result = run("--schema", "-", "a.json", cwd=tmp_path, stdin=source.encode())
    assert result.returncode == 1, result.stderr
    assert result.stdout.splitlines() == [
        'a.json:(root): "right" is a required property',
        "1 record in 1 file: 0 valid, 1 invalid, 0 unreadable",
    ]


def test_a_schema_on_standard_input_that_is_no_schema_is_refused(tmp_path: Path) -> None:
    write(tmp_path / "a.json", {})
    broken = run("--schema", "-", "a.json", cwd=tmp_path, stdin=b"{type: [")
    assert (broken.returncode, broken.stdout) == (2, "")
    assert "not valid YAML" in broken.stderr
    twice = run("--schema", "-", "-", cwd=tmp_path, stdin=b"{}")
    assert (twice.returncode, twice.stderr) == (
        2,
        "straightline validate: --schema - and DATA -: standard input can be read once\n",
    )
