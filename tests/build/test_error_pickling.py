"""The compiler's errors and warnings survive pickling: worker processes, dask and
multiprocessing hand them between processes, and a failure must arrive whole."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from generator.build import BuildError, compile_project
from generator.errors import ConfigError, OptionError, SchemaError, SchemaWarning
from generator.jobs import SourceFailed


def _round_trip(value: BaseException) -> BaseException:
    again = pickle.loads(pickle.dumps(value))
    assert type(again) is type(value)
    assert again.args == value.args
    assert str(again) == str(value)
    return again


def test_schema_warning_keeps_its_fields() -> None:
    warning = SchemaWarning("unknown keyword", code="unknown-keyword", pointer="/a", several="2")
    again = _round_trip(warning)
    assert isinstance(again, SchemaWarning)
    assert (again.code, again.pointer, again.message, again.several) == (
        "unknown-keyword",
        "/a",
        "unknown keyword",
        "2",
    )


@pytest.mark.parametrize("cls", [SchemaError, OptionError, ConfigError])
def test_typed_errors_keep_code_pointer_and_message(cls: type[SchemaError]) -> None:
    again = _round_trip(cls("wrong", code="bad-json", pointer="/x/0"))
    assert isinstance(again, cls)
    assert (again.code, again.pointer, again.message) == ("bad-json", "/x/0", "wrong")


def test_combined_schema_error_keeps_each_problem() -> None:
    combined = SchemaError.combine(
        [
            SchemaError("a", code="bad-ref", pointer="/x"),
            SchemaError("b", code="bad-ref", pointer="/y"),
        ]
    )
    again = _round_trip(combined)
    assert isinstance(again, SchemaError)
    assert [(e.pointer, e.message) for e in again.errors] == [("/x", "a"), ("/y", "b")]
    assert again.what == "problems"


def test_build_error_keeps_its_result(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "p"\nversion = "1"\n'
        '[tool.straightline]\ncontracts = ["c/*.json"]\nout = "pkg"\n'
    )
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "bad.json").write_text('{"type": "strin"}')
    (tmp_path / "c" / "typo.json").write_text('{"minLenght": 1}')
    with pytest.raises(BuildError) as caught:
        compile_project(tmp_path)
    again = _round_trip(caught.value)
    assert isinstance(again, BuildError)
    assert not again.result.ok
    failures = again.result.failures
    assert [(type(f), f.error.code) for f in failures] == [(SourceFailed, "bad-keyword-value")]
    assert [f.source for f in failures if isinstance(f, SourceFailed)] == ["c/bad.json"]
    warned = [w.code for e in again.result.events for w in getattr(e, "found", ())]
    assert warned == ["unknown-keyword"]
