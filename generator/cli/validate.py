"""`straightline validate`: data files against a schema (compiled here, once; `--schema -` reads it
from standard input), an already compiled module (`--module`), or a built-in schema
(`--builtin-schema vendor.NAME`, precompiled in generator/builtin/; with --module and
--builtin-schema the compiler is never imported).

Exit status: 0 every record valid; 1 some record invalid, or some data file or record unreadable
or malformed, or a record a custom format function raised on (reported as that record's problem,
and every other file and record is still validated); 2 a usage error
(bad option, a DATA path that does not exist, no data file found, PyYAML or Dask missing, standard
input named but closed, standard output closed), a schema the compiler rejects or a module that
cannot be loaded: the command itself could not do its work, so nothing was validated; also 2 when
the report cannot be written (a full disk: it is incomplete).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, TypeVar, cast

from ..errors import OptionError, SchemaError, StraightlineError, shown_pointer
from ..names import LIMIT_OPTIONS, PROFILE_NAMES
from ..safe_text import escape
from ..validate.discover import STDIN, DataFile, Skipped, discover
from ..validate.modules import ModuleSource, check_module
from ..validate.progress import Progress, terminal
from ..validate.readers import FORMATS, require_json5, require_yaml
from ..validate.report import JsonReporter, Merger, Reporter, TextReporter
from ..validate.runner import TaskResult, run_serial
from ..validate.tasks import CHUNK_BYTES, DASK_CHUNK_BYTES, Task, plan
from .files import drop_output
from .format_flags import (
    FORMAT_FLAGS,
    add_format_flags,
    add_limit_flags,
    add_unsafe_patterns,
    format_settings,
)

if TYPE_CHECKING:
    from ..validate.parallel import Workers

OUTPUTS = ("text", "json", "basic", "detailed", "verbose")

EPILOG = """\
DATA: files, directories (searched recursively; hidden entries skipped) or - for standard input.
Formats by suffix: .json (one instance), .jsonl/.ndjson (one per line, blank lines skipped),
.yaml/.yml (one per document, YAML 1.2; needs PyYAML: pip install 'straightline[yaml]'), .toml
(one instance), .json5 (one instance; pip install 'straightline[json5]'); other files and
standard input are JSON unless --data-format says otherwise. What a directory search passes
over is named on standard error, with the reason.

exit status: 0 all records valid; 1 a record invalid, or a file or record unreadable or
malformed, or a custom format function raised on it (reported, the others still validated);
2 usage error, schema error, or a module that cannot be loaded (nothing validated), or the
report cannot be written to standard output.
"""


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


# Worker processes --jobs may ask for, per CPU this process may run on: validating is CPU bound,
# so more only cost memory and start-up; a slip like --jobs 10000 started that many Pythons (and
# 2**31 failed in a traceback).
JOBS_PER_CPU = 8


def _usable_cpus() -> int:
    """The CPUs this process may run on (its affinity where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _jobs(text: str) -> int:
    value = _positive(text)
    cpus = _usable_cpus()
    if value > JOBS_PER_CPU * cpus:
        raise argparse.ArgumentTypeError(
            f"at most {JOBS_PER_CPU * cpus} ({JOBS_PER_CPU} per usable CPU: {cpus} here), "
            f"not {value}"
        )
    return value


def add_validate_parser(commands: Any) -> None:
    """The `validate` subcommand and its options (registered by main's parser)."""
    parser = commands.add_parser(
        "validate",
        help="validate data files against a schema or a compiled module",
        description="Validate JSON, JSON Lines, YAML, TOML and JSON5 data against a schema (compiled "
        "once), an already compiled module or a built-in schema.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    chosen = parser.add_mutually_exclusive_group()
    chosen.add_argument(
        "--schema",
        metavar="SCHEMA",
        help="the schema file (FILE#/json/pointer: one subschema of it), compiled here; "
        "- reads it (JSON or YAML) from standard input",
    )
    chosen.add_argument(
        "--module",
        metavar="FILE",
        help="an already compiled module (straightline compile's output)",
    )
    chosen.add_argument(
        "--builtin-schema",
        metavar="NAME",
        help="a built-in schema, precompiled: vendor.github-workflows, vendor.dependabot, "
        "vendor.pyproject, ... (check-jsonschema's names; see --list-builtin)",
    )
    chosen.add_argument(
        "--list-builtin", action="store_true", help="list the built-in schemas and exit"
    )
    parser.add_argument(
        "data", metavar="DATA", nargs="*", help="files, directories, or - (standard input)"
    )
    parser.add_argument(
        "--profile",
        choices=PROFILE_NAMES,
        help="the schema's profile (default: the draft its $schema names, else draft2020-12)",
    )
    parser.add_argument(
        "--registry", metavar="DIR", help="a directory of schema files that $ref may name"
    )
    parser.add_argument(
        "--fetch-remote",
        action="store_true",
        default=None,
        help="retrieve the http(s) documents $ref names that the registry does not hold, "
        "at compile time, cached with the compiled module (without it nothing is fetched)",
    )
    parser.add_argument(
        "--cache-dir",
        metavar="DIR",
        help="where --fetch-remote caches (default: $XDG_CACHE_HOME/straightline, "
        "else ~/.cache/straightline)",
    )
    add_limit_flags(parser)

    add_unsafe_patterns(parser)
    parser.add_argument(
        "--unknown-keywords",
        choices=("ignore", "warn", "error"),
        help="keywords the draft in force does not know, a typo such as minLenght "
        "(default: warn; --schema only)",
    )
    add_format_flags(parser)  # compile options: --schema only
    parser.add_argument(
        "--glob",
        action="append",
        default=[],
        metavar="PATTERN",
        help="in directories, read the files matching PATTERN (repeatable; default: "
        "*.json *.jsonl *.ndjson *.yaml *.yml *.toml *.json5, any case)",
    )
    parser.add_argument("--data-format", choices=FORMATS, help="read every DATA in this format")
    parser.add_argument(
        "--output",
        choices=OUTPUTS,
        default="text",
        help="text (default): one line per error, each shown as its deepest cause, each "
        "record's best match first; json: "
        "one JSON document (errors with keyword, params and context, and best_match); "
        "basic, detailed, verbose: the JSON Schema output formats, from the module's "
        "output()",
    )
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="text output: every error, and beneath each anyOf/oneOf its alternatives' "
        "errors (the tree of causes)",
    )
    parser.add_argument(
        "--jobs",
        type=_jobs,
        default=1,
        metavar="N",
        help="validate in N worker processes (large JSON Lines files are split); at most "
        f"{JOBS_PER_CPU} per CPU",
    )
    parser.add_argument(
        "--chunk-size",
        type=_positive,
        metavar="BYTES",
        help=f"bytes of a JSON Lines file per task (default: {CHUNK_BYTES} bytes, "
        f"{DASK_CHUNK_BYTES} on Dask)",
    )
    parser.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="validate on the Dask cluster whose scheduler is at ADDRESS "
        "(pip install 'straightline[dask]'; the workers must see the data paths)",
    )


def validate_command(args: argparse.Namespace) -> int:
    if sys.stdout is None:  # started with it closed (`>&-`)
        _complain("straightline validate: standard output is closed: the report has nowhere to go")
        return 2
    if args.list_builtin:
        from ..builtin import listing

        try:
            _written(sys.stdout.write)(listing())
            _written(sys.stdout.flush)()  # (a full device refuses at the flush: here, not at exit)
        except BrokenPipeError:
            drop_output()
            return 1
        except _ReportLost as lost:
            drop_output()
            _complain(f"straightline validate: cannot write the report to standard output: {lost}")
            return 2
        return 0
    try:
        files, source, workers = _prepare(args)
    except SchemaError as error:
        for each in error.errors:  # a line for each problem (every unresolvable reference)
            _complain(f"{args.schema}:{shown_pointer(each.pointer)}: {each.message} [{each.code}]")
        return 2
    except StraightlineError as error:
        _complain(f"straightline validate: {error.message}")
        return 2
    try:
        return _run(args, files, source, workers)
    except OptionError as error:  # found once running: an unreachable Dask scheduler
        _complain(f"straightline validate: {error.message}")
        return 2
    except BrokenPipeError:
        # the reader went away (`| head`): stop quietly, and keep Python's exit from failing too
        drop_output()
        return 1
    except _ReportLost as lost:  # a full disk, a device error: the report is incomplete
        drop_output()
        _complain(f"straightline validate: cannot write the report to standard output: {lost}")
        return 2
    finally:
        if workers is not None:  # (ended by a run that finished; killed where it stopped)
            workers.stop()


class _ReportLost(Exception):
    """Standard output refused the report (other than a reader gone away: BrokenPipeError)."""


_Guarded = TypeVar("_Guarded", bound=Callable[..., object])


def _written(function: _Guarded) -> _Guarded:
    """`function` (standard output's write or flush), its OSError a _ReportLost."""

    def guarded(*args: Any) -> object:
        try:
            return function(*args)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _ReportLost(exc.strerror or exc) from None

    return cast(_Guarded, guarded)  # (called as `function` is)


def _complain(line: str) -> None:
    """One line on standard error; nothing when it is closed (print would then write to stdout)."""
    if sys.stderr is not None:
        print(escape(line), file=sys.stderr)


def _prepare(args: argparse.Namespace) -> tuple[list[DataFile], ModuleSource, Workers | None]:
    """The data files and the module, checked before any data is read: every usage, schema or
    module problem is raised here (exit status 2). With --jobs N (not --dask), the worker
    processes too: they load the module while the parent does not (start_workers)."""
    _check_options(args)
    skipped: list[Skipped] = []
    files = discover(args.data, args.glob, args.data_format, skipped)
    for entry in skipped:  # named before any result, so a file passed over is never a surprise
        print(escape(f"{entry.display}: skipped: {entry.reason}"), file=sys.stderr)
    if not files:
        raise OptionError(
            f"no data files found in {' '.join(args.data)}"
            + (f" matching {' '.join(args.glob)}" if args.glob else "")
        )
    if sys.stdin is None and any(data.path == STDIN for data in files):
        raise OptionError("standard input (-) is closed")
    for format, require in (("yaml", require_yaml), ("json5", require_json5)):
        named = [data for data in files if data.format == format]
        if named:
            require(named[0].display)
    if args.dask is not None:  # ("" too: refused, never taken for no --dask)
        from ..validate.dask import check_address, require_dask

        require_dask()
        check_address(args.dask)
    if args.module:
        source, where = ModuleSource.from_path(args.module), f"--module {args.module}"
    elif args.builtin_schema:
        from ..builtin import find

        builtin = find(args.builtin_schema)
        source, where = (
            ModuleSource.from_path(builtin.module_path),
            f"--builtin-schema {builtin.full_name}",
        )
    else:
        source, where = _compiled_source(args), f"--schema {args.schema}"
    if args.jobs > 1 and args.dask is None:
        from ..validate.parallel import start_workers

        return files, source, start_workers(source, args.output, args.jobs, where)
    check_module(source.load(), args.output, where)
    return files, source, None


def _check_options(args: argparse.Namespace) -> None:
    if not (args.schema or args.module or args.builtin_schema):
        raise OptionError(
            "say what to validate against: --schema FILE, --module FILE or --builtin-schema NAME"
        )
    if not args.data:
        raise OptionError(
            "no DATA: name the files or directories to validate, or - for standard input"
        )
    if args.schema == STDIN and STDIN in args.data:
        raise OptionError("--schema - and DATA -: standard input can be read once")
    if args.module or args.builtin_schema:
        given = [
            "--" + name.replace("_", "-")
            for name in (
                "profile",
                "registry",
                "unsafe_patterns",
                "unknown_keywords",
                "fetch_remote",
                "cache_dir",
                *LIMIT_OPTIONS,
            )
            if getattr(args, name) is not None
        ]
        given += [flag for flag, dest in FORMAT_FLAGS if getattr(args, dest) is not None]
        if given:
            options = ", ".join(given)
            compiled = "a --module" if args.module else "a built-in schema"
            raise OptionError(
                f"{options}: compile options, for --schema only ({compiled} is already compiled)"
            )
    if args.cache_dir and not args.fetch_remote and args.schema:
        raise OptionError("--cache-dir: the cache of --fetch-remote, which was not given")
    if args.registry and not os.path.isdir(args.registry):
        raise OptionError(f"--registry {args.registry}: not a directory")
    if args.dask is not None and args.jobs != 1:
        raise OptionError("--jobs and --dask: choose one (the Dask cluster has its own workers)")


def _compiled_source(args: argparse.Namespace) -> ModuleSource:
    """The schema compiled once, here, into module text (format=False: nobody reads it), as
    `straightline compile` would compile it with the same flags; with --fetch-remote, a module
    cached with the documents it was compiled from is reused while they are unchanged (then the
    compiler is never imported)."""
    stdin = sys.stdin.buffer.read() if args.schema == STDIN else None
    if not args.fetch_remote:
        return ModuleSource.from_text(_compile(args, stdin))
    from ..remote import CompiledCache, cache_for

    cache = cache_for(args.cache_dir)
    compiled = CompiledCache(cache)
    key = _cache_key(args, stdin)
    text = compiled.reuse(key) if key is not None else None
    if text is None:
        from ..jobs import Registries
        from ..remote import remote_registry

        registry = remote_registry(
            Registries().get(Path(args.registry) if args.registry else None, Path.cwd()), cache
        )
        text = _compile(args, stdin, registry)
        if key is not None:
            compiled.save(key, text, registry.retrieved)
    for note in cache.notes:
        print(escape(f"straightline validate: note: {note}"), file=sys.stderr)
    return ModuleSource.from_text(text)


def _compile(args: argparse.Namespace, stdin: bytes | None, registry: Any = None) -> str:
    """The module text of --schema (`stdin`: its bytes when read from standard input;
    `registry`: the registry to compile with, else --registry's)."""
    from ..jobs import Registries, is_contract_file, read_job
    from ..project import Job, Settings
    from .commands import build_job, limit_options

    settings = format_settings(
        args,
        Settings(
            profile=args.profile,
            registry=Path(args.registry) if args.registry else None,
            limits=tuple(sorted(limit_options(args).items())),
            unknown_keywords=args.unknown_keywords or "warn",
            unsafe_patterns=args.unsafe_patterns,
            uri_root=Path.cwd(),
        ),
    )
    job = Job(args.schema, "<stdin>" if args.schema == STDIN else args.schema, Path("."), settings)
    raw = _stdin_schema(stdin) if stdin is not None else read_job(job)
    if is_contract_file(args.schema, raw):
        profile = json.loads(raw).get("profile", "octoscript")
        raise OptionError(
            f"--schema {args.schema}: a tool contract, not a schema; validate against one "
            f"of its schemas: --schema '{args.schema}#/input' (or #/output) --profile {profile}"
        )
    return build_job(job, Registries(), name=None, format=False, raw=raw, registry=registry)


def _cache_key(args: argparse.Namespace, stdin: bytes | None) -> str | None:
    """The compiled-module cache key of --schema: its bytes, every compile option given, the
    directory it runs in (file URIs are written relative to it) and the registry directory's
    files; None when a file cannot be read (the compile then says why)."""
    import hashlib

    from ..files import split_source
    from ..remote import CompiledCache

    options = {
        name: getattr(args, name)
        for name in (
            "schema",
            "profile",
            "registry",
            "unsafe_patterns",
            *LIMIT_OPTIONS,
            *(dest for _, dest in FORMAT_FLAGS),
        )
    }
    try:
        source = stdin if stdin is not None else Path(split_source(args.schema)[0]).read_bytes()
        registry = hashlib.sha256()
        if args.registry:
            root = Path(args.registry)
            for path in sorted(root.rglob("*")):
                if path.is_file():
                    registry.update(
                        f"{path.relative_to(root).as_posix()}\0".encode("utf-8", "replace")
                    )
                    registry.update(hashlib.sha256(path.read_bytes()).digest())
    except OSError:
        return None
    return CompiledCache.key(
        source, {**options, "cwd": os.getcwd(), "registry_files": registry.hexdigest()}
    )


def _stdin_schema(raw: bytes) -> bytes:
    """The schema read from standard input as JSON bytes: JSON as it is, else YAML converted
    exactly."""
    from ..yaml_loader import yaml_as_json

    try:
        json.loads(raw)
    except (ValueError, RecursionError):
        try:
            import yaml  # noqa: F401
        except ImportError:
            return raw  # not JSON, and no YAML reader: the loader says what is wrong with it
        return yaml_as_json(raw)
    return raw


def _run(
    args: argparse.Namespace, files: list[DataFile], source: ModuleSource, workers: Workers | None
) -> int:
    out = sys.stdout
    if hasattr(out, "reconfigure"):
        out.reconfigure(errors="backslashreplace")  # a terminal that cannot show a character
    sizes = [data.size for data in files]
    total = None if any(data.path == STDIN for data in files) else sum(size or 0 for size in sizes)
    progress = Progress(total, enabled=terminal(sys.stderr))
    flush = _written(out.flush)
    write = progress.writer(_written(out.write), flush)
    reporter: Reporter = (
        TextReporter(write, args.verbose) if args.output == "text" else JsonReporter(write)
    )
    merger = Merger(files, reporter)
    try:
        for task, result in _results(args, files, source, workers):
            merger.add(task, result)
            progress.advance(task.size)
    finally:
        progress.close()
    totals = merger.finish()
    flush()
    return 0 if totals.ok else 1


def _results(
    args: argparse.Namespace, files: list[DataFile], source: ModuleSource, workers: Workers | None
) -> Iterator[tuple[Task, TaskResult]]:
    if args.dask is not None:
        from ..validate.dask import run_on_dask

        return run_on_dask(
            plan(files, args.chunk_size or DASK_CHUNK_BYTES), source, args.output, args.dask
        )
    if workers is not None:
        from ..validate.parallel import run_parallel

        return run_parallel(plan(files, args.chunk_size or CHUNK_BYTES), workers)
    return run_serial(plan(files, args.chunk_size or CHUNK_BYTES), source, args.output)
