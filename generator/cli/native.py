"""The native step of `straightline compile` and `check` (generator/native): after the modules
are written, each native job's module is compiled with mypyc into an extension beside it (several
at a time: a build is mostly the C compiler), and every other module loses the extensions
straightline built for it, so an extension never shadows a module it was not built from."""

from __future__ import annotations

import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable

from ..native import (
    NativeBuildError,
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


def native_step(jobs: list[Job], shown: Callable[[Path], str]) -> int:
    """Build the native jobs' extensions and remove the others'; the number of failures (each
    reported on stderr). A module whose build fails keeps no extension: the pure module is used."""
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
            if is_current(job.target):
                say(f"{shown(extension_path(job.target))}: up to date (native)")
            else:
                wanted.append(job)
    return failed + _build_all(wanted, shown)


def _build_all(jobs: list[Job], shown: Callable[[Path], str]) -> int:
    """Build each job's extension, several at a time; report each in job order."""
    if not jobs:
        return 0
    workers = max(1, min(len(jobs), os.cpu_count() or 1))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        outcomes = list(pool.map(_build_one, jobs))
    failed = 0
    for job, (message, ok) in zip(jobs, outcomes):
        if ok:
            say(f"{shown(job.target)} -> {message}")
        else:
            say(f"{shown(job.target)}: native build failed: {message}", sys.stderr)
            failed += 1
    return failed


def _build_one(job: Job) -> tuple[str, bool]:
    started = time.monotonic()
    try:
        built = build_native(job.target)
    except NativeBuildError as error:
        return error.message, False
    except OSError as error:
        return f"cannot write: {error.strerror or error}", False
    return f"{built.name} (native, {time.monotonic() - started:.1f} s)", True


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
