"""Build-time integration: compile a project's contracts ([tool.straightline] in its
pyproject.toml) while its package is built, so the generated modules ship inside the wheel.

compile_project() is what the hooks run: the hatch build hook (hatch_hook.py, registered through
the `hatch` entry point group as `straightline`) and the setuptools build_py command
(setuptools_command.py)."""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path

from ..errors import StraightlineError
from ..native import built_files
from ..project import CONFIG_FILE, load_project


class BuildError(StraightlineError):
    """The contracts could not all be compiled while building the package."""

    code = "build-failed"


def compile_project(root: str | Path) -> list[Path]:
    """Compile every contract of the project whose pyproject.toml is in `root` (the directory
    being built, not a parent of it). Returns the files the package must include (the modules,
    each package's __init__.py, and the native modules of the jobs that are native: see
    is_native); raises BuildError naming every failure."""
    from ..cli.commands import compile_jobs

    project = load_project(Path(root) / CONFIG_FILE)
    messages = io.StringIO()
    with contextlib.redirect_stderr(messages):
        status = compile_jobs(project.jobs, project)
    sys.stderr.write(messages.getvalue())  # warnings, and failures, still reach the build log
    if status != 0:
        failures = [line for line in messages.getvalue().splitlines() if ": warning: " not in line]
        raise BuildError("could not compile the project's contracts:\n" + "\n".join(failures))
    native = [path for job in project.jobs if job.settings.native for path in built_files(job.target)]
    return ([job.target for job in project.jobs] + [package / "__init__.py" for package in project.packages]
            + native)


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
