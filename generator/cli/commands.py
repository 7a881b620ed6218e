"""The commands that compile: compile, check, preflight and catalog, one function each, taking the
parsed arguments and returning the exit status. compile, check and preflight run jobs (a source
and its module): from SRC... --out DIR, or with no SRC from the project's [tool.straightline]
(generator/project.py). Compiling jobs into files is library code (generator/jobs.py, which the
build hooks run too); this prints what it reports."""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path
from typing import Any

from .. import __version__, jobs
from ..contracts import catalog_entry, load_contract
from ..errors import ConfigError, OptionError, StraightlineError
from ..files import (
    dump_exact,
    file_on_the_way,
    shadowing_package,
    split_source,
    targets,
    write_atomic,
)
from ..jobs import (
    Event,
    Registries,
    base_uri_of,
    event_lines,
    fetching_registry,
    is_contract_file,
    orphans,
    read_job,
    shown_path,
)
from ..load import read_source
from ..names import LIMIT_OPTIONS
from ..project import Job, Project, Settings, find_config, load_project
from ..render.header import Inputs, read_header, recorded_options, registry_hashes
from .files import OutputLost, report, say
from .format_flags import format_settings
from .native import native_problems

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


# -- compiling one job, and compile -----------------------------------------------------------------


def say_event(event: Event, stdout: bool = True) -> None:
    """Print one event of a compile (generator/jobs.py) as its lines (those for standard output
    only when `stdout`)."""
    for line, to_stderr in event_lines(event):
        if to_stderr:
            say(line, sys.stderr)
        elif stdout:
            say(line)


def build_job(
    job: Job,
    registries: Registries,
    *,
    name: str | None,
    format: bool = True,
    raw: bytes | None = None,
    registry: Any = None,
) -> str:
    """The module text for one job (generator/jobs.py's build_job), its warnings printed."""
    return jobs.build_job(
        job, registries, name=name, format=format, raw=raw, registry=registry, on_event=say_event
    )


def _fetching(registry: dict[str, Any], settings: Settings, uris: tuple[str, ...]) -> Any:
    """fetching_registry, with the notes of retrieving `uris` printed."""
    fetching = fetching_registry(registry, settings, uris)
    for note in fetching.cache.notes:
        say(f"note: {note}", sys.stderr)
    fetching.cache.notes.clear()
    return fetching


def compile_jobs(jobs_: list[Job], project: Project | None = None) -> int:
    """Compile every job (generator/jobs.py), printing what happens as it happens; 0 if all went
    well. A standard output that refuses a line stops the printing, not the compile: every job is
    still written (and the packages and orphans seen to), then the first refusal is raised."""
    lost: list[OSError | OutputLost] = []

    def print_event(event: Event) -> None:
        try:  # (an event's lines are all for one stream)
            say_event(event, stdout=not lost)
        except (OutputLost, BrokenPipeError) as error:
            lost.append(error)

    result = jobs.compile_jobs(jobs_, project, on_event=print_event)
    if lost:
        raise lost[0]
    return 0 if result.ok else 1


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
        base_uri="" if contract else base_uri_of(job),
        registry=registry_hashes(registry, recorded.registry),
    )


def check_jobs(jobs: list[Job], project: Project | None = None) -> int:
    """Report each job's module as up to date, missing or stale (naming every reason); in a
    project, also a missing __init__.py and generated modules no job writes. 0 if all is current."""
    stale = 0
    registries = Registries()
    for job in jobs:
        shown = shown_path(job.target)
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
                f"{shown}: shadowed by the package {shown_path(package)}/ beside it (`import` loads the package, "
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
                    f"{shown_path(package / '__init__.py')}: missing (the output package needs it: "
                    "run straightline compile)",
                    sys.stderr,
                )
                stale += 1
        for orphan in orphans(project):
            say(
                f"{shown_path(orphan)}: stale (no contract compiles to it any more: "
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
    elif sys.stdout is None:  # started with it closed (`>&-`)
        raise OutputLost("standard output is closed")
    else:
        try:
            sys.stdout.write(text)
            sys.stdout.flush()  # (a full device refuses at the flush: here, not at exit)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise OutputLost(error.strerror or str(error)) from None
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
