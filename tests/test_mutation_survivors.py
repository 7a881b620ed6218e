"""Tests for behaviour that mutation testing showed no other test pinned (GitHub-style issue 15):
each one fails on the named mutant. The atomic write of the CLI, its exit status after a write
error, the locations of the too-deep error, and the property table that also checks
`additionalProperties: false` (no second pass over the names)."""

from __future__ import annotations

import errno
import os
import re
from pathlib import Path
from typing import Any

import pytest

import generator
from generator.cli import main
from generator.plan import tuning
from generator.reference import DraftReference

SCHEMA_A = '{"type": "object", "properties": {"n": {"type": "integer"}}}'
SCHEMA_B = '{"type": "array", "maxItems": 2}'


def _sources(tmp_path: Path) -> tuple[Path, Path, Path]:
    (tmp_path / "a.json").write_text(SCHEMA_A, encoding="utf-8")
    (tmp_path / "b.json").write_text(SCHEMA_B, encoding="utf-8")
    return tmp_path / "a.json", tmp_path / "b.json", tmp_path / "out"


def _compile(*args: Any) -> int:
    return main(["compile", *map(str, args)])


# -- write_atomic: mutant `open(target, "w")` -----------------------------------------------
@pytest.mark.parametrize("failing", ["replace", "fsync"])
def test_a_failing_write_leaves_the_old_module_and_no_temporary_file(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    failing: str,
) -> None:
    a, _, out = _sources(tmp_path)
    assert _compile(a, "--out", out) == 0
    old = (out / "a.py").read_bytes()
    a.write_text('{"type": "string"}', encoding="utf-8")  # a recompile would change the module

    def fail(*args: Any, **kwargs: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, failing, fail)
    capsys.readouterr()
    assert _compile(a, "--out", out) == 1
    monkeypatch.undo()
    assert (out / "a.py").read_bytes() == old
    assert sorted(p.name for p in out.iterdir()) == ["a.py"]  # no temporary file left
    assert f"{out / 'a.py'}: cannot write: No space left on device" in capsys.readouterr().err


def test_a_recompile_replaces_the_module_file_never_rewrites_it(tmp_path: Path) -> None:
    a, _, out = _sources(tmp_path)
    assert _compile(a, "--out", out) == 0
    before = os.stat(out / "a.py")
    os.link(out / "a.py", tmp_path / "reader-holds-this")  # a reader's view of the old file
    old = (tmp_path / "reader-holds-this").read_bytes()
    a.write_text('{"type": "string"}', encoding="utf-8")
    assert _compile(a, "--out", out) == 0
    assert os.stat(out / "a.py").st_ino != before.st_ino  # a new inode, renamed into place
    assert (tmp_path / "reader-holds-this").read_bytes() == old  # the old file was not touched
    assert (out / "a.py").read_bytes() != old


# -- compile_command: mutant without `failed += 1` after a write OSError -----------------------
def test_a_write_error_fails_the_run_but_the_other_modules_are_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b, out = _sources(tmp_path)
    (out / "a.py").mkdir(parents=True)  # a directory where a.py must go
    assert _compile(a, b, "--out", out) == 1
    err = capsys.readouterr().err
    assert re.search(
        re.escape(str(out / "a.py")) + r": cannot write: (Is a directory|.+)$", err, re.M
    ), err
    assert (out / "a.py").is_dir() and (out / "b.py").is_file()
    assert "def errors(instance: Any)" in (out / "b.py").read_text(encoding="utf-8")


# -- the too-deep error: its locations, asserted directly ---------------------------------------
def test_the_too_deep_error_is_located_at_the_root() -> None:
    module = generator.compile_module({"type": "array", "items": {"$ref": "#"}}, format=False)
    deep: Any = []
    for _ in range(10_000):
        deep = [deep]
    (error,) = module.errors(deep)
    assert (error.instance_location, error.keyword_location, error.absolute_keyword_location) == (
        "",
        "",
        None,
    )
    with pytest.raises(module.ValidationError) as raised:
        module.validate(deep)
    assert (raised.value.instance_location, raised.value.keyword_location) == ("", "")


# -- fast_AdditionalProperties: mutant without the closed-table skip ------------------------------
def _closed_table_schema() -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "properties": {f"p{i}": {"type": "integer"} for i in range(tuning.PROPERTY_TABLE)},
    }


def test_a_closed_property_table_checks_additional_properties_in_its_one_loop() -> None:
    # enough properties for a table and additionalProperties false: the loop over the instance's
    # names through the property table fails a name the table does not hold, so the fast path
    # makes no second pass over the names (`x.keys() <= K`) for additionalProperties
    schema = _closed_table_schema()
    source = generator.compile_source(schema, format=False)
    root = source[source.index('"Fast path of the subschema at the root."') :]
    root = root[: root.index("\ndef ")]
    assert ".get(k)" in root and "for k, v in x.items():" in root
    assert ".keys()" not in source  # (nor a key-set constant to compare with)
    assert not [line for line in source.splitlines() if "frozenset" in line and '"p0"' in line]
    module = generator.compile_module(schema, format=False)
    reference = DraftReference(schema, "draft2020-12")
    last, beyond = f"p{tuning.PROPERTY_TABLE - 1}", f"p{tuning.PROPERTY_TABLE}"
    for instance in ({"p0": 1}, {"p0": 1, beyond: 1}, {last: "x"}, {1: 2}, {}, {"p0": 1, "": 0}):
        assert module.is_valid(instance) is reference.is_valid(instance)
        assert sorted(
            (e.instance_location, e.keyword_location) for e in module.errors(instance)
        ) == sorted((e.instance_location, e.keyword_location) for e in reference.errors(instance))
