"""Compiling jobs (a source and the module it becomes: generator/project.py) into files: the
library `straightline compile` and the build hooks (generator/build/) both run.

compile_jobs() writes each job's module (atomically), then, in a project, each package's
__init__.py, then builds the native jobs' extensions (generator/native), then removes the
generated modules no job writes any more. It reports what happened as typed events, in order,
each as it happens (`on_event`) and all together in its CompileResult: what was written, built or
removed, the warnings and notes, and each failure with its typed error. The command prints them
(cli/commands.py); a build hook raises on the failures.
"""

from __future__ import annotations

import json
import os
import stat
import time
import warnings
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .api import Built, compile_rendered, compile_source
from .contracts import compile_contract_rendered, compile_contract_source, is_contract
from .errors import SchemaWarning, StraightlineError
from .files import split_source, write_atomic
from .load import read_source
from .native import (
    NativeBuildError,
    backend_of,
    build_native,
    built_files,
    check_toolchain,
    extension_path,
    is_current,
    native_modules,
    remove_native,
)
from .pipeline import PROFILES, get_profile
from .profiles import with_options
from .project import INIT_TEXT, Job, Project, Settings
from .render.header import is_generated
from .render.sections import RenderedModule
from .report import failure_lines, warning_lines
from .resolve import RegistryWarning, file_uri, load_registry_directory
from .yaml_loader import is_yaml_path, yaml_as_json


class FileProblem(StraightlineError):
    """A file that could not be written or removed, or that is in the way; `.message` says why."""

    code = "file-problem"


# -- events ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Written:
    """A job's module was written."""

    job: Job


@dataclass(frozen=True)
class Removed:
    """A file straightline wrote was removed; `why` says why."""

    path: Path
    why: str


@dataclass(frozen=True)
class NativeBuilt:
    """A job's native module was built (in `seconds`)."""

    job: Job
    extension: Path
    seconds: float
    backend: str = "mypyc"  # "c" or "mypyc" (names.NATIVE_BACKENDS)


@dataclass(frozen=True)
class NativeCurrent:
    """A job's native module was up to date already."""

    job: Job
    extension: Path


@dataclass(frozen=True)
class Warned:
    """The warnings of compiling `source` (as messages show it), in the order found."""

    source: str
    found: tuple[Warning, ...]


@dataclass(frozen=True)
class Noted:
    """A note of the remote registry's cache (a cached copy used offline, say)."""

    text: str


@dataclass(frozen=True)
class SourceFailed:
    """A source that did not compile: `error` locates the problem in it."""

    source: str
    error: StraightlineError


@dataclass(frozen=True)
class FileFailed:
    """A file that could not be written, removed or built (`error`: a FileProblem or a
    NativeBuildError)."""

    path: Path
    error: StraightlineError


Event = Written | Removed | NativeBuilt | NativeCurrent | Warned | Noted | SourceFailed | FileFailed
Failure = SourceFailed | FileFailed


@dataclass
class CompileResult:
    """Everything compile_jobs() did, in order."""

    events: list[Event] = field(default_factory=list)

    @property
    def failures(self) -> list[Failure]:
        return [e for e in self.events if isinstance(e, (SourceFailed, FileFailed))]

    @property
    def written(self) -> list[Job]:
        return [e.job for e in self.events if isinstance(e, Written)]

    @property
    def ok(self) -> bool:
        return not self.failures


def shown_path(path: Path) -> str:
    """A path as messages show it: relative to the current directory when inside it."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        return str(path)
    return str(path) if relative.startswith("..") else relative


def event_lines(event: Event) -> list[tuple[str, bool]]:
    """How an event reads: its lines, each with whether it is for standard error (a warning, a
    note, a failure) rather than standard output. Not yet made printable (safe_text.escape)."""
    if isinstance(event, Written):
        return [(f"{event.job.shown} -> {shown_path(event.job.target)}", False)]
    if isinstance(event, Removed):
        return [(f"{shown_path(event.path)}: removed ({event.why})", False)]
    if isinstance(event, NativeBuilt):
        backend = "C" if event.backend == "c" else event.backend
        built = f"{event.extension.name} (native, {backend}, {event.seconds:.1f} s)"
        return [(f"{shown_path(event.job.target)} -> {built}", False)]
    if isinstance(event, NativeCurrent):
        return [(f"{shown_path(event.extension)}: up to date (native)", False)]
    if isinstance(event, Warned):
        # the registry directory's warnings first, then the schema's
        lines = [
            f"straightline: warning: {w}" for w in event.found if isinstance(w, RegistryWarning)
        ]
        lines += warning_lines(
            event.source, [w for w in event.found if isinstance(w, SchemaWarning)]
        )
        return [(line, True) for line in lines]
    if isinstance(event, Noted):
        return [(f"note: {event.text}", True)]
    if isinstance(event, SourceFailed):
        return [(line, True) for line in failure_lines(event.source, event.error)]
    return [(f"{shown_path(event.path)}: {event.error.message}", True)]


# -- reading and compiling one job -----------------------------------------------------------------


class Registries:
    """Registry directories, each read once per command."""

    def __init__(self) -> None:
        self.loaded: dict[tuple[Path, Path | None], dict[str, Any]] = {}

    def get(self, directory: Path | None, uri_root: Path | None = None) -> dict[str, Any]:
        """The registry directory's mapping, its files keyed relative to `uri_root` (file_uri)."""
        if directory is None:
            return {}
        if (directory, uri_root) not in self.loaded:
            # (a file it cannot use is a RegistryWarning and a RegistryProblem, never an error)
            self.loaded[directory, uri_root] = load_registry_directory(directory, uri_root=uri_root)
        return self.loaded[directory, uri_root]


def read_job(job: Job) -> bytes:
    """The source as JSON bytes (a YAML file converted exactly), within the size limit."""
    profile = (
        get_profile(job.settings.profile) if job.settings.profile else PROFILES["draft2020-12"]
    )
    limits = with_options(profile, job.settings.limit_options()).limits
    path = split_source(job.source)[0]
    raw = read_source(path, max_bytes=limits.max_source_bytes)
    return yaml_as_json(raw) if is_yaml_path(path) else raw


def is_contract_file(source: str, raw: bytes) -> bool:
    """Whether SRC is a tool contract file (which names its own profiles) rather than a schema."""
    if split_source(source)[1]:
        return False
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        return False  # the loader reports it properly (too deep: limit-exceeded)
    return is_contract(value)


def base_uri_of(job: Job) -> str:
    """The URI a schema is compiled as: its file's (relative to the settings' root, as the
    registry's files are), when a registry may refer back to it."""
    return (
        file_uri(Path(split_source(job.source)[0]), job.settings.uri_root)
        if job.settings.registry
        else ""
    )


def fetching_registry(
    registry: dict[str, Any], settings: Settings, uris: tuple[str, ...] = ()
) -> Any:
    """`registry` with http(s) documents retrieved as the compile asks for them, through the
    settings' cache (generator/remote.py); with `uris`, those retrieved at once (the cache's
    notes of doing so are in its `.cache.notes`)."""
    from .remote import cache_for, remote_registry  # (the network stack: only when fetching)

    fetching = remote_registry(dict(registry), cache_for(settings.cache_dir))
    for uri in uris:
        if (
            uri in fetching
            and uri not in registry
            and not isinstance(dict.__getitem__(fetching, uri), dict | bool)
        ):
            dict.__delitem__(
                fetching, uri
            )  # not retrieved: recorded as missing, so the module is stale
    return fetching


def build_job(
    job: Job,
    registries: Registries,
    *,
    name: str | None,
    format: bool = True,
    raw: bytes | None = None,
    registry: Any = None,
    on_event: Callable[[Event], None],
    compile_schema: Callable[..., str] | None = None,
    compile_contract: Callable[..., str] | None = None,
) -> str:
    """The module text for one job: a tool contract file, or a schema (`raw`: its source, already
    read; `registry`: the registry to use, else the settings'). Its warnings (a Warned) and the
    remote cache's notes (Noted) go to `on_event`, also when it fails. `compile_schema`
    (compile_source's arguments) compiles a schema in compile_source's place (the C backend's
    build), `compile_contract` a contract in compile_contract_source's (render_job)."""
    raw = read_job(job) if raw is None else raw
    settings = job.settings
    common: dict[str, Any] = {
        "unknown_keywords": settings.unknown_keywords,
        **settings.compile_options(),
        **settings.format_kwargs(),
    }
    fetching = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", SchemaWarning)
        warnings.simplefilter("always", RegistryWarning)
        try:
            if registry is not None:
                common["registry"] = registry
            elif settings.fetch_remote:
                fetching = common["registry"] = fetching_registry(
                    registries.get(settings.registry, settings.uri_root), settings
                )
            elif settings.registry:
                common["registry"] = registries.get(settings.registry, settings.uri_root)
            if is_contract_file(job.source, raw):
                return (compile_contract or compile_contract_source)(
                    raw, name=name, format=format, **common
                )
            return (compile_schema or compile_source)(
                raw,
                name=name,
                format=format,
                profile=settings.profile,
                base_uri=base_uri_of(job),
                fragment=split_source(job.source)[1],  # ("" for none: the default)
                **common,
            )
        finally:
            found = tuple(
                w.message for w in caught if isinstance(w.message, (RegistryWarning, SchemaWarning))
            )
            if found:
                on_event(Warned(job.shown, found))
            if fetching is not None:
                for note in fetching.cache.notes:
                    on_event(Noted(note))
                fetching.cache.notes.clear()


def render_job(
    job: Job, registries: Registries, *, on_event: Callable[[Event], None]
) -> RenderedModule:
    """build_job's module for one job (named by its file), as tagged sections: what the mypyc
    build reads (generator/native/source.py)."""
    return render_job_built(job, registries, on_event=on_event)[0]


def render_job_built(
    job: Job, registries: Registries, *, on_event: Callable[[Event], None]
) -> tuple[RenderedModule, Built | None]:
    """render_job's module and the Built it was rendered from (its code tree, which the C
    backend renders as C: generator/native/c_build.py); None for a tool contract's module."""
    found: list[tuple[RenderedModule, Built | None]] = []

    def schema(raw: Any, **options: Any) -> str:
        found.append(compile_rendered(raw, **options))
        return found[-1][0].text

    def contract(raw: Any, **options: Any) -> str:
        found.append((compile_contract_rendered(raw, **options), None))
        return found[-1][0].text

    build_job(
        job,
        registries,
        name=job.target.stem,
        on_event=on_event,
        compile_schema=schema,
        compile_contract=contract,
    )
    return found[-1]


# -- compiling jobs into files ---------------------------------------------------------------------


def compile_jobs(
    jobs: list[Job],
    project: Project | None = None,
    *,
    on_event: Callable[[Event], None] | None = None,
) -> CompileResult:
    """Compile every job (atomic writes), then build the native ones (generator/native); in a
    project, also write each package's __init__.py (if missing) and remove generated modules no
    job writes any more. Every event goes to `on_event` as it happens, and into the result. With a
    native job and no C compiler, CompilerNotFound is raised before anything is written."""
    result = CompileResult()

    def record(event: Event) -> None:
        result.events.append(event)
        if on_event is not None:
            on_event(event)

    if any(job.settings.native for job in jobs):
        check_toolchain(
            mypyc=any(
                job.settings.native and job.settings.native_backend == "mypyc" for job in jobs
            )
        )
    registries = Registries()
    written: list[Job] = []
    # by id(job), what a native job's build reads: the module as rendered (mypyc), or its text
    # and the code tree it was rendered from (the C backend, so the schema is compiled once; None
    # for a tool contract). Held until the builds: FHIR's Built is about 37 MB, its C 16 MB.
    rendered: dict[int, RenderedModule] = {}
    trees: dict[int, tuple[str, Built] | None] = {}
    for job in jobs:
        try:
            module, built = render_job_built(job, registries, on_event=record)
        except StraightlineError as error:
            record(SourceFailed(job.shown, error))
            continue
        if job.settings.native and job.settings.native_backend == "mypyc":
            rendered[id(job)] = module
        elif job.settings.native:
            trees[id(job)] = None if built is None else (module.text, built)
        problem = _write_module(job, module.text)
        if problem is not None:
            record(FileFailed(job.target, problem))
            continue
        record(Written(job))
        written.append(job)
    if project is not None:
        _write_packages(project, record)  # before the native builds: a package names its modules
    _native_step(written, record, rendered, trees)
    if project is not None:
        for orphan in orphans(project):
            try:
                remove_native(orphan)
                orphan.unlink()
            except OSError as error:
                record(FileFailed(orphan, FileProblem(f"cannot remove: {error.strerror or error}")))
                continue
            record(Removed(orphan, "no contract compiles to it any more"))
    return result


def project_files(project: Project) -> list[Path]:
    """The files a package built from `project` must include once it compiled: each job's module,
    each package's __init__.py, and the native modules built for the running interpreter."""
    native = [
        path for job in project.jobs if job.settings.native for path in built_files(job.target)
    ]
    return (
        [job.target for job in project.jobs]
        + [package / "__init__.py" for package in project.packages]
        + native
    )


def _write_module(job: Job, text: str) -> FileProblem | None:
    """Write one module atomically; the problem if it cannot be written, or if a file that
    straightline did not write is in its place: that file is the user's, never overwritten."""
    if _is_foreign(job.target):
        return FileProblem(
            "not overwritten: it is not a module straightline wrote (move it away, or choose "
            f"another --out, to compile {job.shown})"
        )
    try:
        write_atomic(job.target, text)
    except OSError as error:
        return FileProblem(f"cannot write: {error.strerror or error}")
    return None


def _is_foreign(target: Path) -> bool:
    """Whether a regular file other than a generated module is at `target` (anything else there,
    a FIFO included, is never opened: replacing it loses no one's text)."""
    try:
        regular = stat.S_ISREG(os.stat(target).st_mode)
    except OSError:
        return False  # nothing there (or it cannot be looked at: the write says why)
    return regular and not is_generated(target)


def _write_packages(project: Project, record: Callable[[Event], None]) -> None:
    for package in project.packages:
        init = package / "__init__.py"
        if init.exists():
            continue  # the user's own, or ours: never overwritten
        try:
            write_atomic(init, INIT_TEXT)
        except OSError as error:
            record(FileFailed(init, FileProblem(f"cannot write: {error.strerror or error}")))


def orphans(project: Project) -> list[Path]:
    """Generated modules under the output package that no job writes."""
    written = {job.target.resolve() for job in project.jobs}
    if not project.out.is_dir():
        return []
    found = [p for p in sorted(project.out.rglob("*.py")) if p.name != "__init__.py"]
    return [p for p in found if p.resolve() not in written and is_generated(p)]


# -- the native step -------------------------------------------------------------------------------


def _native_step(
    jobs: list[Job],
    record: Callable[[Event], None],
    rendered: dict[int, RenderedModule],
    trees: dict[int, tuple[str, Built] | None],
) -> None:
    """Build the native jobs' extensions, each by its backend (mypyc's from `rendered`, the C
    backend's from `trees`, by id(job)), and remove the others' (generator/native). A module whose
    build fails keeps no extension: the pure module is used."""
    wanted: list[Job] = []
    for job in jobs:
        try:
            for removed in remove_native(job.target, keep_current=job.settings.native):
                why = (
                    "built from another version of the module"
                    if job.settings.native
                    else "not native"
                )
                record(Removed(removed, why))
        except OSError as error:
            record(
                FileFailed(
                    job.target,
                    FileProblem(f"cannot remove its native module: {error.strerror or error}"),
                )
            )
            continue
        foreign = [f for f in native_modules(job.target) if not f.recorded]
        for found in foreign:
            problem = f"{found.problem}: it shadows {shown_path(job.target)}; remove it"
            record(FileFailed(found.path, FileProblem(problem)))
        if job.settings.native and not foreign:
            if is_current(job.target) and backend_of(job.target) == job.settings.native_backend:
                record(NativeCurrent(job, extension_path(job.target)))
            else:
                wanted.append(job)
    if not wanted:
        return
    # mypyc's several at a time (a build is mostly the C compiler); the C backend's in turn, as
    # before (a large module's units are compiled in parallel within its build); in job order
    mypyc = [job for job in wanted if job.settings.native_backend == "mypyc"]
    workers = max(1, min(len(mypyc), os.cpu_count() or 1))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        outcomes = dict(
            zip(
                map(id, mypyc),
                pool.map(lambda job: _build_one(job, rendered=rendered[id(job)]), mypyc),
            )
        )
    for job in wanted:
        if id(job) not in outcomes:  # (its code tree let go once built)
            outcomes[id(job)] = _build_one(job, tree=trees.pop(id(job)))
    for job in wanted:
        outcome = outcomes[id(job)]
        if isinstance(outcome, StraightlineError):
            record(FileFailed(job.target, outcome))
        else:
            record(NativeBuilt(job, *outcome, backend=job.settings.native_backend))


def _build_one(
    job: Job, rendered: RenderedModule | None = None, tree: tuple[str, Built] | None = None
) -> tuple[Path, float] | StraightlineError:
    """One job's extension: mypyc's (of the module as `rendered`), or the C backend's (of the
    module text and code tree `tree`, None for a tool contract's module)."""
    started = time.monotonic()
    try:
        built = (
            build_native(job.target, rendered)
            if job.settings.native_backend == "mypyc"
            else _build_c(job, tree)
        )
    except StraightlineError as error:  # (NativeBuildError and the compiler's typed errors)
        return NativeBuildError(f"native build failed: {error.message}", code=error.code)
    except OSError as error:
        return NativeBuildError(f"native build failed: cannot write: {error.strerror or error}")
    return built, time.monotonic() - started


def _build_c(job: Job, tree: tuple[str, Built] | None) -> Path:
    """The C backend's extension of a job's module (written by compile_jobs), from the module text
    and code tree `tree` that compile rendered it from (generator/native/c_build): the schema is
    not compiled again. None: the module is a tool contract's, which has no C form."""
    from .native.c_build import build_c_native

    if tree is None:
        raise NativeBuildError(
            "the C backend builds a schema's module, not a tool contract's: use --native=mypyc"
        )
    return build_c_native(job.target, None, compiled=tree)
