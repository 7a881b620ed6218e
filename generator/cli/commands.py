"""The commands that compile: compile, check, preflight and catalog, one function each, taking the
parsed arguments and returning the exit status. compile, check and preflight run jobs (a source
and its module): from SRC... --out DIR, or with no SRC from the project's [tool.straightline]
(generator/project.py); compile_jobs and check_jobs are what the build hooks run too."""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import os
import stat
import sys
import warnings
from pathlib import Path
from typing import Any, Callable

from .. import __version__
from ..api import compile_source
from ..contracts import catalog_entry, compile_contract_source, is_contract, load_contract
from ..errors import ConfigError, OptionError, SchemaWarning, StraightlineError
from ..files import (
    dump_exact,
    file_on_the_way,
    shadowing_package,
    split_source,
    targets,
    write_atomic,
)
from ..load import read_source
from ..names import LIMIT_OPTIONS
from ..profiles import DRAFT_PROFILES, get_profile, with_options
from ..project import INIT_TEXT, Job, Project, Settings, find_config, load_project
from ..render.header import Inputs, is_generated, read_header, recorded_options, registry_hashes
from ..resolve import RegistryWarning, file_uri, load_registry_directory
from ..yaml_loader import is_yaml_path, yaml_as_json
from .files import report, report_warnings, say
from .format_flags import format_settings
from .native import check_toolchain, native_problems, native_step, remove_native

# A tool contract file may be larger than a schema: it holds two of them.
_CONTRACT_BYTES = 64 * 1024 * 1024


def limit_options(args: argparse.Namespace) -> dict[str, Any]:
    """The limit overrides given on the command line."""
    return {k: getattr(args, k) for k in LIMIT_OPTIONS if getattr(args, k) is not None}


def project_for(args: argparse.Namespace) -> Project | None:
    """The configured project when no SRC is given (None when SRCs are)."""
    if args.sources:
        return None
    config = Path(args.config) if getattr(args, "config", None) else find_config(Path.cwd())
    return load_project(config)


def jobs_for(args: argparse.Namespace, project: Project | None) -> list[Job]:
    """The jobs of a command: the project's, or one per SRC with the flags' settings."""
    if project is not None:
        return project.jobs
    settings = format_settings(
        args,
        Settings(
            profile=args.profile,
            registry=Path(args.registry) if args.registry else None,
            limits=tuple(sorted(limit_options(args).items())),
            unknown_keywords=getattr(args, "unknown_keywords", None) or "warn",
            unsafe_patterns=getattr(args, "unsafe_patterns", None),
            native=bool(getattr(args, "native", None)),
            native_backend=getattr(args, "native", None) or "c",
            uri_root=Path.cwd(),
        ),
    )
    out = Path(getattr(args, "out", None) or ".")
    return [
        Job(source, source, target, settings)
        for source, target in targets(args.sources, out).items()
    ]


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
            try:
                self.loaded[directory, uri_root] = load_registry_directory(
                    directory, uri_root=uri_root
                )
            except StraightlineError as error:
                raise type(error)(
                    f"registry {directory}: {error.message}", code=error.code, pointer=error.pointer
                ) from None
        return self.loaded[directory, uri_root]


def read_job(job: Job) -> bytes:
    """The source as JSON bytes (a YAML file converted exactly), within the size limit."""
    profile = (
        get_profile(job.settings.profile)
        if job.settings.profile
        else DRAFT_PROFILES["draft2020-12"]
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


def _base_uri(job: Job) -> str:
    """The URI a schema is compiled as: its file's (relative to the settings' root, as the
    registry's files are), when a registry may refer back to it."""
    return (
        file_uri(Path(split_source(job.source)[0]), job.settings.uri_root)
        if job.settings.registry
        else ""
    )


def _build_c(job: Job, registries: Registries) -> Path:
    """The C backend's extension of a job's module (written by build_job with its settings): the
    schema compiled again, with the same options, for its code tree (generator/native/c_build)."""
    from ..native import NativeBuildError
    from ..native.c_build import build_c_native

    built: list[Path] = []

    def build(raw: Any, **options: Any) -> str:
        built.append(build_c_native(job.target, raw, **options))
        return ""

    if is_contract_file(job.source, read_job(job)):
        raise NativeBuildError(
            "the C backend builds a schema's module, not a tool contract's: use --native=mypyc"
        )
    build_job(job, registries, name=job.target.stem, compile_schema=build, warn=False)
    return built[0]


def build_job(
    job: Job,
    registries: Registries,
    *,
    name: str | None,
    format: bool = True,
    raw: bytes | None = None,
    registry: Any = None,
    compile_schema: Callable[..., str] | None = None,
    warn: bool = True,
) -> str:
    """The module text for one job: a tool contract file, or a schema (`raw`: its source, already
    read; `registry`: the registry to use, else the settings'); warnings printed (unless not
    `warn`). `compile_schema` (compile_source's arguments) compiles a schema in compile_source's
    place (the C backend's build)."""
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
                fetching = common["registry"] = _fetching(
                    registries.get(settings.registry, settings.uri_root), settings
                )
            elif settings.registry:
                common["registry"] = registries.get(settings.registry, settings.uri_root)
            if is_contract_file(job.source, raw):
                return compile_contract_source(raw, name=name, format=format, **common)
            fragment = split_source(job.source)[1]
            return (compile_schema or compile_source)(
                raw,
                name=name,
                format=format,
                profile=settings.profile,
                base_uri=_base_uri(job),
                **({"fragment": fragment} if fragment else {}),
                **common,
            )
        finally:
            # never as Python warnings (the compiler's file and line): the command's own lines
            for caught_warning in caught if warn else ():
                if isinstance(caught_warning.message, RegistryWarning):
                    say(f"straightline: warning: {caught_warning.message}", sys.stderr)
            report_warnings(
                job.shown,
                [w.message for w in caught if warn and isinstance(w.message, SchemaWarning)],
            )
            if fetching is not None:
                _say_notes(fetching)


def _fetching(registry: dict[str, Any], settings: Settings, uris: tuple[str, ...] = ()) -> Any:
    """`registry` with http(s) documents retrieved as the compile asks for them, through the
    settings' cache (generator/remote.py); with `uris`, those retrieved at once (and the notes
    of doing so printed)."""
    from ..remote import cache_for, remote_registry

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
    if uris:
        _say_notes(fetching)
    return fetching


def _say_notes(fetching: Any) -> None:
    """The notes of a retrieving registry's cache (a cached copy used offline), once each."""
    for note in fetching.cache.notes:
        say(f"note: {note}", sys.stderr)
    fetching.cache.notes.clear()


def _shown(path: Path) -> str:
    """A path as messages show it: relative to the current directory when inside it."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        return str(path)
    return str(path) if relative.startswith("..") else relative


# -- compile -----------------------------------------------------------------------------------------


def compile_jobs(jobs: list[Job], project: Project | None = None) -> int:
    """Compile every job (atomic writes), then build the native ones (generator/native); in a
    project, also write each package's __init__.py (if missing) and remove generated modules no
    job writes any more. 0 if all went well. With a native job and no C compiler, CompilerNotFound
    is raised before anything is written."""
    if any(job.settings.native for job in jobs):
        check_toolchain(
            mypyc=any(
                job.settings.native and job.settings.native_backend == "mypyc" for job in jobs
            )
        )
    failed = 0
    registries = Registries()
    written: list[Job] = []
    for job in jobs:
        try:
            text = build_job(job, registries, name=job.target.stem)
        except StraightlineError as error:
            report(job.shown, error)
            failed += 1
            continue
        if not _write_module(job, text):
            failed += 1
            continue
        say(f"{job.shown} -> {_shown(job.target)}")
        written.append(job)
    if project is not None:
        failed += _write_packages(project)  # before the native builds: a package names its modules
    failed += native_step(written, _shown, functools.partial(_build_c, registries=registries))
    if project is not None:
        for orphan in _orphans(project):
            try:
                remove_native(orphan)
                orphan.unlink()
            except OSError as error:
                say(f"{_shown(orphan)}: cannot remove: {error.strerror or error}", sys.stderr)
                failed += 1
                continue
            say(f"{_shown(orphan)}: removed (no contract compiles to it any more)")
    return 1 if failed else 0


def _write_module(job: Job, text: str) -> bool:
    """Write one module atomically; False (reported) if it cannot be written, or if a file that
    straightline did not write is in its place: that file is the user's, never overwritten."""
    if _is_foreign(job.target):
        say(
            f"{_shown(job.target)}: not overwritten: it is not a module straightline wrote (move it "
            f"away, or choose another --out, to compile {job.shown})",
            sys.stderr,
        )
        return False
    try:
        write_atomic(job.target, text)
    except OSError as error:
        say(f"{_shown(job.target)}: cannot write: {error.strerror or error}", sys.stderr)
        return False
    return True


def _is_foreign(target: Path) -> bool:
    """Whether a regular file other than a generated module is at `target` (anything else there,
    a FIFO included, is never opened: replacing it loses no one's text)."""
    try:
        regular = stat.S_ISREG(os.stat(target).st_mode)
    except OSError:
        return False  # nothing there (or it cannot be looked at: the write says why)
    return regular and not is_generated(target)


def _write_packages(project: Project) -> int:
    failed = 0
    for package in project.packages:
        init = package / "__init__.py"
        if init.exists():
            continue  # the user's own, or ours: never overwritten
        try:
            write_atomic(init, INIT_TEXT)
        except OSError as error:
            say(f"{_shown(init)}: cannot write: {error.strerror or error}", sys.stderr)
            failed += 1
    return failed


def _orphans(project: Project) -> list[Path]:
    """Generated modules under the output package that no job writes."""
    written = {job.target.resolve() for job in project.jobs}
    if not project.out.is_dir():
        return []
    found = [p for p in sorted(project.out.rglob("*.py")) if p.name != "__init__.py"]
    return [p for p in found if p.resolve() not in written and is_generated(p)]


def compile_command(args: argparse.Namespace) -> int:
    project = project_for(args)
    return compile_jobs(jobs_for(args, project), project)


# -- check ---------------------------------------------------------------------------------------------


def expected_inputs(job: Job, raw: bytes, recorded: Inputs, registries: Registries) -> Inputs:
    """What the header of an up-to-date module for `job` records, computed without compiling:
    the registry documents are the ones the module's own header names, hashed as they are now."""
    fragment = split_source(job.source)[1]
    contract = is_contract_file(job.source, raw)
    # a registry directory is read only when the module records documents it looked up
    registry = (
        registries.get(job.settings.registry, job.settings.uri_root) if recorded.registry else {}
    )
    if recorded.registry and job.settings.fetch_remote:
        registry = _fetching(registry, job.settings, tuple(recorded.registry))
    return Inputs(
        version=__version__,
        requested_profile=None if contract else job.settings.profile,
        options=recorded_options(
            {**job.settings.compile_options(), **job.settings.format_options().recorded()}, fragment
        ),
        source_sha256=hashlib.sha256(raw).hexdigest(),
        base_uri="" if contract else _base_uri(job),
        registry=registry_hashes(registry, recorded.registry),
    )


def check_jobs(jobs: list[Job], project: Project | None = None) -> int:
    """Report each job's module as up to date, missing or stale (naming every reason); in a
    project, also a missing __init__.py and generated modules no job writes. 0 if all is current."""
    stale = 0
    registries = Registries()
    for job in jobs:
        shown = _shown(job.target)
        try:
            raw = read_job(job)
            header = read_header(job.target)
            if header is None:
                if job.target.exists():
                    say(
                        f"{shown}: not a module straightline wrote (move it away, then compile {job.shown})",
                        sys.stderr,
                    )
                else:
                    say(f"{shown}: missing (compile {job.shown})", sys.stderr)
                stale += 1
                continue
            reasons = header.differences(expected_inputs(job, raw, header.inputs, registries))
        except StraightlineError as error:
            report(job.shown, error)
            stale += 1
            continue
        reasons += native_problems(job)
        package = shadowing_package(job.target)
        if package is not None:
            say(
                f"{shown}: shadowed by the package {_shown(package)}/ beside it (`import` loads the package, "
                "never this module): rename or remove the package",
                sys.stderr,
            )
            stale += 1
        if reasons:
            say(f"{shown}: stale ({'; '.join(reasons)}; recompile {job.shown})", sys.stderr)
            stale += 1
        elif package is None:
            say(
                f"{shown}: up to date" + (" (and its native module)" if job.settings.native else "")
            )
    if project is not None:
        for package in project.packages:
            if not (package / "__init__.py").exists():
                say(
                    f"{_shown(package / '__init__.py')}: missing (the output package needs it: "
                    "run straightline compile)",
                    sys.stderr,
                )
                stale += 1
        for orphan in _orphans(project):
            say(
                f"{_shown(orphan)}: stale (no contract compiles to it any more: "
                "straightline compile removes it)",
                sys.stderr,
            )
            stale += 1
    return 1 if stale else 0


def check_command(args: argparse.Namespace) -> int:
    project = project_for(args)
    return check_jobs(jobs_for(args, project), project)


# -- preflight and catalog ----------------------------------------------------------------------------


def preflight_command(args: argparse.Namespace) -> int:
    failed = 0
    registries = Registries()
    for job in jobs_for(args, project_for(args)):
        try:
            build_job(job, registries, name=None, format=False)
        except StraightlineError as error:
            report(job.shown, error)
            failed += 1
            continue
        say(f"{job.shown}: ok")
    return 1 if failed else 0


def catalog_command(args: argparse.Namespace) -> int:
    if args.output:
        _check_output_directory(args.output)
    entries = []
    failed = 0
    for source in args.sources:
        try:
            contract, _ = load_contract(read_source(source, max_bytes=_CONTRACT_BYTES))
        except StraightlineError as error:
            report(source, error)
            failed += 1
            continue
        entries.append(catalog_entry(contract))
    if failed:
        return 1
    text = dump_exact(entries)
    if args.output:
        try:
            write_atomic(Path(args.output), text)
        except OSError as error:
            say(f"{args.output}: cannot write: {error.strerror or error}", sys.stderr)
            return 1
    else:
        sys.stdout.write(text)
    return 0


def _check_output_directory(output: str) -> None:
    """-o FILE's directory must exist (OptionError, a usage error, before any work): write_atomic
    would create it, and a typo would quietly put the catalog where no one looks. (compile's --out
    DIR is the package directory itself, which it creates.)"""
    parent = Path(output).parent
    if not parent.is_dir():
        blocking = file_on_the_way(parent)
        reason = (
            f"{blocking} is a file, not a directory"
            if blocking.exists()
            else f"no such directory {parent}"
        )
        raise OptionError(f"-o {output}: {reason}")


__all__ = [
    "ConfigError",
    "check_command",
    "check_jobs",
    "compile_command",
    "compile_jobs",
    "preflight_command",
    "catalog_command",
    "limit_options",
    "jobs_for",
    "project_for",
]
