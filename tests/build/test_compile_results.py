"""The library the build hooks run (generator/build compile_project, over generator/jobs.py
compile_jobs): typed results, not text to scrape. What was written, removed or built, the
warnings, and each failure with its typed error; the command prints the same events."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator import SchemaError, SchemaWarning
from generator.build import BuildError, compile_project
from generator.cli.main import main
from generator.jobs import (
    CompileResult,
    FileFailed,
    FileProblem,
    Removed,
    SourceFailed,
    Warned,
    Written,
    compile_jobs,
    event_lines,
)
from generator.project import CONFIG_FILE, load_project

from .helpers import write

CONFIG = '[tool.straightline]\nout = "out"\ncontracts = ["schemas/*.json"]\n'
GOOD = {"type": "object", "minimun": 1}  # compiles, with an unknown-keyword warning
BROKEN = {"type": "strin"}


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "app"
    write(root / "pyproject.toml", CONFIG)
    write(root / "schemas" / "good.json", GOOD)
    monkeypatch.chdir(root)  # (messages show paths relative to the current directory)
    return root


def test_a_build_returns_the_files_the_package_includes(project: Path) -> None:
    files = compile_project(project)
    assert sorted(p.relative_to(project).as_posix() for p in files) == [
        "out/__init__.py",
        "out/good.py",
    ]
    assert all(path.is_file() for path in files)


def test_a_failed_build_carries_each_failure_with_its_typed_error(project: Path) -> None:
    write(project / "schemas" / "broken.json", BROKEN)
    with pytest.raises(BuildError) as failed:
        compile_project(project)
    result = failed.value.result
    (failure,) = result.failures
    assert isinstance(failure, SourceFailed) and failure.source == "schemas/broken.json"
    assert isinstance(failure.error, SchemaError)
    assert (failure.error.code, failure.error.pointer) == ("bad-keyword-value", "/type")
    assert [job.shown for job in result.written] == ["schemas/good.json"]  # the rest still built
    # the message lists the failures, and no warning
    assert failed.value.message.splitlines() == [
        "could not compile the project's contracts:",
        *[line for line, _ in event_lines(failure)],
    ]
    assert "warning" not in failed.value.message


def test_warnings_are_events_with_the_warnings_themselves(project: Path) -> None:
    result = _compile(project)
    (warned,) = [e for e in result.events if isinstance(e, Warned)]
    (warning,) = warned.found
    assert isinstance(warning, SchemaWarning)
    assert (warning.code, warning.pointer) == ("unknown-keyword", "/minimun")
    assert result.ok


def test_a_file_in_the_way_is_a_typed_file_failure(project: Path) -> None:
    write(project / "out" / "good.py", "# the user's own module\n")
    result = _compile(project)
    (failure,) = result.failures
    assert isinstance(failure, FileFailed) and isinstance(failure.error, FileProblem)
    assert failure.path == project / "out" / "good.py"
    assert failure.error.message.startswith(
        "not overwritten: it is not a module straightline wrote"
    )
    assert (project / "out" / "good.py").read_text() == "# the user's own module\n"
    assert not result.written


def test_a_module_no_job_writes_is_removed_as_an_event(project: Path) -> None:
    compile_project(project)
    (project / "schemas" / "good.json").rename(project / "schemas" / "renamed.json")
    result = _compile(project)
    assert [type(e) for e in result.events if not isinstance(e, Warned)] == [Written, Removed]
    removed = result.events[-1]
    assert isinstance(removed, Removed) and removed.path == project / "out" / "good.py"
    assert not removed.path.exists()


def test_the_command_prints_the_events_the_library_reports(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(project / "schemas" / "broken.json", BROKEN)
    expected = _compile(project)
    capsys.readouterr()
    assert main(["compile"]) == 1
    printed = capsys.readouterr()
    lines = [line_err for event in expected.events for line_err in event_lines(event)]
    assert printed.out.splitlines() == [line for line, to_stderr in lines if not to_stderr]
    assert printed.err.splitlines() == [line for line, to_stderr in lines if to_stderr]


def _compile(root: Path) -> CompileResult:
    """compile_jobs() on the project's jobs, as the command and compile_project run it."""
    project = load_project(root / CONFIG_FILE)
    return compile_jobs(project.jobs, project)
