"""The native step of `straightline compile` and `check` (generator/native): after the modules
are written, each native job's module gets an extension beside it, built by its backend: the C
backend (its fast path rendered as C: generator/native/c_build.py; one job at a time, each C
build a process of its own) or mypyc (several at a time: a build is mostly the C compiler), and
every other module loses the extensions straightline built for it, so an extension never shadows
a module it was not built from."""

from __future__ import annotations

import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable

from ..errors import StraightlineError
from ..native import (
    backend_of,
    build_native,
    check_toolchain,
    extension_path,
    is_current,
    native_modules,
    remove_native,
)
from ..project import Job
from .files import say

__all__ = ["check_toolchain", "native_problems", "native_step", "remove_native"]


def native_step(
    jobs: list[Job], shown: Callable[[Path], str], build_c: Callable[[Job], Path]
) -> int:
    """Build the native jobs' extensions (`build_c`: a job's with the C backend) and remove the
    others'; the number of failures (each reported on stderr). A module whose build fails keeps
    no extension: the pure module is used."""
    failed = 0
    wanted: list[Job] = []
    for job in jobs:
        try:
            for removed in remove_native(job.target, keep_current=job.settings.native):
                why = (
                    "built from another version of the module"
                    if job.settings.native
                    else "not native"
                )
                say(f"{shown(removed)}: removed ({why})")
        except OSError as error:
            say(
                f"{shown(job.target)}: cannot remove its native module: {error.strerror or error}",
                sys.stderr,
            )
            failed += 1
            continue
        foreign = [f for f in native_modules(job.target) if not f.recorded]
        for found in foreign:
            say(
                f"{shown(found.path)}: {found.problem}: it shadows {shown(job.target)}; remove it",
                sys.stderr,
            )
        failed += bool(foreign)
        if job.settings.native and not foreign:
            if is_current(job.target) and backend_of(job.target) == job.settings.native_backend:
                say(f"{shown(extension_path(job.target))}: up to date (native)")
            else:
                wanted.append(job)
    return failed + _build_all(wanted, shown, build_c)


def _build_all(
    jobs: list[Job], shown: Callable[[Path], str], build_c: Callable[[Job], Path]
) -> int:
    """Build each job's extension (mypyc's several at a time; the C backend's in turn: its
    schema is compiled again, which prints and reads registries in this process); report each
    in job order."""
    if not jobs:
        return 0
    mypyc = [job for job in jobs if job.settings.native_backend == "mypyc"]
    workers = max(1, min(len(mypyc), os.cpu_count() or 1))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        outcomes = dict(zip(map(id, mypyc), pool.map(_build_one, mypyc)))
    for job in jobs:
        if id(job) not in outcomes:
            outcomes[id(job)] = _build_one(job, build_c)
    failed = 0
    for job, (message, ok) in ((job, outcomes[id(job)]) for job in jobs):
        if ok:
            say(f"{shown(job.target)} -> {message}")
        else:
            say(f"{shown(job.target)}: native build failed: {message}", sys.stderr)
            failed += 1
    return failed


def _build_one(job: Job, build_c: Callable[[Job], Path] | None = None) -> tuple[str, bool]:
    started = time.monotonic()
    try:
        built = build_native(job.target) if build_c is None else build_c(job)
    except StraightlineError as error:  # (the C backend compiles the schema again)
        return error.message, False
    except OSError as error:
        return f"cannot write: {error.strerror or error}", False
    backend = "native, mypyc" if build_c is None else "native, C"
    return f"{built.name} ({backend}, {time.monotonic() - started:.1f} s)", True


def native_problems(job: Job) -> list[str]:
    """Why the extensions beside a job's module make it stale (`check`): one that does not match
    the module, or, for a native job, none for this interpreter."""
    reasons = [
        f"{found.path.name}: {found.problem}"
        for found in native_modules(job.target)
        if found.problem
    ]
    if job.settings.native and not reasons and not is_current(job.target):
        reasons.append(f"its native module {extension_path(job.target).name} is missing")
    return reasons
