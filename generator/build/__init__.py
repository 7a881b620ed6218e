"""Build-time integration: compile a project's contracts ([tool.straightline] in its
pyproject.toml) while its package is built, so the generated modules ship inside the wheel.

compile_project() is what the hooks run: the hatch build hook (hatch_hook.py, registered through
the `hatch` entry point group as `straightline`) and the setuptools build_py command
(setuptools_command.py)."""

from __future__ import annotations

import sys
from pathlib import Path

from ..errors import StraightlineError
from ..jobs import CompileResult, Event, compile_jobs, event_lines, project_files
from ..project import CONFIG_FILE, load_project
from ..safe_text import escape


class BuildError(StraightlineError):
    """The contracts could not all be compiled while building the package. `result`: what the
    compile did, its failures (each with its typed error) among it."""

    code = "build-failed"

    def __init__(self, message: str, result: CompileResult) -> None:
        super().__init__(message)
        self.result = result


def _to_build_log(event: Event) -> None:
    """An event's lines, as the command prints them: the build log shows the warnings too."""
    for line, to_stderr in event_lines(event):
        print(escape(line), file=sys.stderr if to_stderr else sys.stdout)


def compile_project(root: str | Path) -> list[Path]:
    """Compile every contract of the project whose pyproject.toml is in `root` (the directory
    being built, not a parent of it). Returns the files the package must include (the modules,
    each package's __init__.py, and the native modules of the jobs that are native: see
    is_native); raises BuildError naming every failure."""
    project = load_project(Path(root) / CONFIG_FILE)
    result = compile_jobs(project.jobs, project, on_event=_to_build_log)
    if not result.ok:
        failures = [escape(line) for failure in result.failures for line, _ in event_lines(failure)]
        raise BuildError(
            "could not compile the project's contracts:\n" + "\n".join(failures), result
        )
    return project_files(project)


def compile_for_build(root: str | Path) -> list[Path]:
    """compile_project for a build hook, which runs inside the build backend's process: a failure
    ends that process with SystemExit and the message (exit status 1, the message alone on
    standard error), since any other exception reaches the user as a traceback of the backend
    around it (in `python -m build`, `pip wheel`, `pip install`)."""
    try:
        return compile_project(root)
    except StraightlineError as error:
        raise SystemExit(f"straightline: {error.message}") from None


def is_native(path: Path) -> bool:
    """A file compile_project returns that is a native extension (the wheel is then no longer
    pure Python: it is tagged for this interpreter and platform)."""
    return path.suffix in (".so", ".pyd")
