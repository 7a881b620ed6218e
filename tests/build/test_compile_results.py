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

from .helpers import ROOT, write

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


def test_an_orphan_that_cannot_be_removed_is_a_file_failure(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    compile_project(project)
    (project / "schemas" / "good.json").rename(project / "schemas" / "renamed.json")
    orphan = project / "out" / "good.py"
    unlink = Path.unlink

    def refuse(path: Path, missing_ok: bool = False) -> None:
        if path == orphan:
            raise PermissionError(13, "Permission denied", str(path))
        unlink(path, missing_ok)

    monkeypatch.setattr(Path, "unlink", refuse)
    result = _compile(project)
    (failure,) = result.failures
    assert isinstance(failure, FileFailed) and failure.path == orphan
    assert failure.error.message == "cannot remove: Permission denied"
    assert orphan.exists() and not any(isinstance(e, Removed) for e in result.events)


def test_a_package_init_that_cannot_be_written_is_a_file_failure(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import generator.jobs

    write_atomic = generator.jobs.write_atomic

    def full_disk(path: Path, text: str, *args: object, **kwargs: object) -> None:
        if path.name == "__init__.py":
            raise OSError(28, "No space left on device")
        write_atomic(path, text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(generator.jobs, "write_atomic", full_disk)
    result = _compile(project)
    (failure,) = result.failures
    assert isinstance(failure, FileFailed) and failure.path == project / "out" / "__init__.py"
    assert failure.error.message == "cannot write: No space left on device"
    assert [job.shown for job in result.written] == ["schemas/good.json"]


def test_a_tool_contract_given_to_the_c_backend_is_a_native_build_failure(
    project: Path,
) -> None:
    write(project / "pyproject.toml", CONFIG + "native = true\n")
    (project / "schemas" / "good.json").unlink()
    write(
        project / "schemas" / "add.json",
        (ROOT / "contracts" / "tools" / "math.add.json").read_text(encoding="utf-8"),
    )
    result = _compile(project)
    (failure,) = result.failures
    assert isinstance(failure, FileFailed) and failure.path == project / "out" / "add.py"
    assert failure.error.message == (
        "native build failed: the C backend builds a schema's module, not a tool contract's: "
        "use --native=mypyc"
    )
    assert [job.shown for job in result.written] == ["schemas/add.json"]  # the pure module


def test_a_native_build_that_cannot_write_is_a_file_failure(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import generator.native.c_build

    def full_disk(*args: object, **kwargs: object) -> Path:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(generator.native.c_build, "build_c_native", full_disk)
    write(project / "pyproject.toml", CONFIG + "native = true\n")
    result = _compile(project)
    (failure,) = result.failures
    assert isinstance(failure, FileFailed) and failure.path == project / "out" / "good.py"
    assert failure.error.message == "native build failed: cannot write: No space left on device"
    assert (project / "out" / "good.py").is_file()


def test_an_output_package_that_is_a_file_fails_its_writes_and_removes_nothing(
    project: Path,
) -> None:
    write(project / "out", "a file where the package goes\n")
    result = _compile(project)
    assert sorted(f.path.name for f in result.failures if isinstance(f, FileFailed)) == [
        "__init__.py",
        "good.py",
    ]
    assert not result.written and not any(isinstance(e, Removed) for e in result.events)
    assert (project / "out").read_text() == "a file where the package goes\n"


def test_an_extension_module_straightline_did_not_build_is_named_as_shadowing(
    project: Path,
) -> None:
    from generator.native import EXTENSION_SUFFIX

    foreign = write(project / "out" / f"good{EXTENSION_SUFFIX}", b"not ours")
    result = _compile(project)
    (failure,) = result.failures
    assert isinstance(failure, FileFailed) and failure.path == foreign
    assert failure.error.message.endswith(f"it shadows {Path('out', 'good.py')}; remove it")
    assert foreign.read_bytes() == b"not ours"  # never removed: it is not ours


def test_a_native_module_that_cannot_be_removed_is_a_file_failure(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import generator.jobs

    def refuse(*args: object, **kwargs: object) -> list[Path]:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(generator.jobs, "remove_native", refuse)
    result = _compile(project)
    (failure,) = result.failures
    assert isinstance(failure, FileFailed) and failure.path == project / "out" / "good.py"
    assert failure.error.message == "cannot remove its native module: Permission denied"
