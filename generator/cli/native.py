"""The native part of `straightline check` (generator/native): an extension beside a module that
does not match it, or a native job's missing one, makes the module stale. (compile's native step,
building and removing extensions, is library code: generator/jobs.py.)"""

from __future__ import annotations

from ..native import extension_path, is_current, native_modules
from ..project import Job

__all__ = ["native_problems"]


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
