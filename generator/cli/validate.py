"""`straightline validate`: data files against a schema (compiled here, once) or an already compiled
module (`--module`: then the compiler is never imported).

Exit status: 0 every record valid; 1 some record invalid, or some data file or record unreadable
or malformed, or a record a custom format function raised on (reported as that record's problem,
and every other file and record is still validated); 2 a usage error
(bad option, a DATA path that does not exist, no data file found, PyYAML or Dask missing), a
schema the compiler rejects or a module that cannot be loaded: the command itself could not do
its work, so nothing was validated.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
import os
import sys
from typing import Any, Iterator

from ..errors import OptionError, SchemaError, StraightlineError, shown_pointer
from ..names import LIMIT_OPTIONS, PROFILE_NAMES
from .format_flags import FORMAT_FLAGS, add_format_flags, add_limit_flags, add_unsafe_patterns, format_settings
from ..validate.discover import STDIN, DataFile, discover
from ..validate.modules import ModuleSource, check_module
from ..validate.progress import Progress, terminal
from ..validate.readers import FORMATS, require_yaml
from ..validate.report import JsonReporter, Merger, Reporter, TextReporter, escape
from ..validate.runner import TaskResult, run_serial
from ..validate.tasks import CHUNK_BYTES, DASK_CHUNK_BYTES, Task, plan

OUTPUTS = ("text", "json", "basic", "detailed", "verbose")

EPILOG = """\
DATA: files, directories (searched recursively; hidden entries skipped) or - for standard input.
Formats by suffix: .json (one instance), .jsonl/.ndjson (one per line, blank lines skipped),
.yaml/.yml (one per document; needs PyYAML: pip install 'straightline[yaml]'); other files and
standard input are JSON unless --data-format says otherwise.

exit status: 0 all records valid; 1 a record invalid, or a file or record unreadable or
malformed, or a custom format function raised on it (reported, the others still validated);
2 usage error, schema error, or a module that cannot be loaded (nothing validated).
"""


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def add_validate_parser(commands: Any) -> None:
    """The `validate` subcommand and its options (registered by main's parser)."""
    parser = commands.add_parser(
        "validate", help="validate data files against a schema or a compiled module",
        description="Validate JSON, JSON Lines and YAML data against a schema (compiled once) "
                    "or an already compiled module.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    chosen = parser.add_mutually_exclusive_group(required=True)
    chosen.add_argument("--schema", metavar="SCHEMA",
                        help="the schema file (FILE#/json/pointer: one subschema of it), compiled here")
    chosen.add_argument("--module", metavar="FILE",
                        help="an already compiled module (straightline compile's output)")
    parser.add_argument("data", metavar="DATA", nargs="+", help="files, directories, or - (standard input)")
    parser.add_argument("--profile", choices=PROFILE_NAMES,
                        help="the schema's profile (default: the draft its $schema names, else draft2020-12)")
    parser.add_argument("--registry", metavar="DIR",
                        help="a directory of schema files that $ref may name (never the network)")
    add_limit_flags(parser)

    add_unsafe_patterns(parser)
    parser.add_argument("--unknown-keywords", choices=("ignore", "warn", "error"),
                        help="keywords the draft in force does not know, a typo such as minLenght "
                             "(default: warn; --schema only)")
    add_format_flags(parser)  # compile options: --schema only
    parser.add_argument("--glob", action="append", default=[], metavar="PATTERN",
                        help="in directories, read the files matching PATTERN (repeatable; default: "
                             "*.json *.jsonl *.ndjson *.yaml *.yml, any case)")
    parser.add_argument("--data-format", choices=FORMATS, help="read every DATA in this format")
    parser.add_argument("--output", choices=OUTPUTS, default="text",
                        help="text (default): one line per error, each shown as its deepest cause, each "
                             "record's best match first; json: "
                             "one JSON document (errors with keyword, params and context, and best_match); "
                             "basic, detailed, verbose: the JSON Schema output formats, from the module's "
                             "output()")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="text output: every error, and beneath each anyOf/oneOf its alternatives' "
                             "errors (the tree of causes)")
    parser.add_argument("--jobs", type=_positive, default=1, metavar="N",
                        help="validate in N worker processes (large JSON Lines files are split)")
    parser.add_argument("--chunk-size", type=_positive, metavar="BYTES",
                        help=f"bytes of a JSON Lines file per task (default: {CHUNK_BYTES} bytes, "
                             f"{DASK_CHUNK_BYTES} on Dask)")
    parser.add_argument("--dask", metavar="ADDRESS",
                        help="validate on the Dask cluster whose scheduler is at ADDRESS "
                             "(pip install 'straightline[dask]'; the workers must see the data paths)")


def validate_command(args: argparse.Namespace) -> int:
    try:
        files, source = _prepare(args)
    except SchemaError as error:
        for each in error.errors:  # a line for each problem (every unresolvable reference)
            print(escape(f"{args.schema}:{shown_pointer(each.pointer)}: {each.message} [{each.code}]"), file=sys.stderr)
        return 2
    except StraightlineError as error:
        print(escape(f"straightline validate: {error.message}"), file=sys.stderr)
        return 2
    try:
        return _run(args, files, source)
    except OptionError as error:  # found once running: an unreachable Dask scheduler
        print(escape(f"straightline validate: {error.message}"), file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader went away (`| head`): stop quietly, and keep Python's exit from failing too
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


def _prepare(args: argparse.Namespace) -> tuple[list[DataFile], ModuleSource]:
    """The data files and the module, checked before any data is read: every usage, schema or
    module problem is raised here (exit status 2)."""
    _check_options(args)
    files = discover(args.data, args.glob, args.data_format)
    if not files:
        raise OptionError(f"no data files found in {' '.join(args.data)}"
                          + (f" matching {' '.join(args.glob)}" if args.glob else ""))
    yaml_files = [data for data in files if data.format == "yaml"]
    if yaml_files:
        require_yaml(yaml_files[0].display)
    if args.dask:
        from ..validate.dask import require_dask

        require_dask()
    if args.module:
        source, where = ModuleSource.from_path(args.module), f"--module {args.module}"
    else:
        source, where = _compiled_source(args), f"--schema {args.schema}"
    check_module(source.load(), args.output, where)
    return files, source


def _check_options(args: argparse.Namespace) -> None:
    if args.module:
        given = ["--" + name.replace("_", "-") for name in ("profile", "registry", "unsafe_patterns", "unknown_keywords",
                                                             *LIMIT_OPTIONS)
                 if getattr(args, name) is not None]
        given += [flag for flag, dest in FORMAT_FLAGS if getattr(args, dest) is not None]
        if given:
            options = ", ".join(given)
            raise OptionError(f"{options}: compile options, for --schema only (a --module is already compiled)")
    if args.registry and not os.path.isdir(args.registry):
        raise OptionError(f"--registry {args.registry}: not a directory")
    if args.dask and args.jobs != 1:
        raise OptionError("--jobs and --dask: choose one (the Dask cluster has its own workers)")


def _compiled_source(args: argparse.Namespace) -> ModuleSource:
    """The schema compiled once, here, into module text (format=False: nobody reads it), as
    `straightline compile` would compile it with the same flags."""
    from ..project import Job, Settings
    from .commands import Registries, build_job, is_contract_file, limit_options, read_job

    settings = format_settings(args, Settings(
        profile=args.profile, registry=Path(args.registry) if args.registry else None,
        limits=tuple(sorted(limit_options(args).items())), unknown_keywords=args.unknown_keywords or "warn",
        unsafe_patterns=args.unsafe_patterns, uri_root=Path.cwd()))
    job = Job(args.schema, args.schema, Path("."), settings)
    raw = read_job(job)
    if is_contract_file(args.schema, raw):
        profile = json.loads(raw).get("profile", "octoscript")
        raise OptionError(f"--schema {args.schema}: a tool contract, not a schema; validate against one "
                          f"of its schemas: --schema '{args.schema}#/input' (or #/output) --profile {profile}")
    return ModuleSource.from_text(build_job(job, Registries(), name=None, format=False))


def _run(args: argparse.Namespace, files: list[DataFile], source: ModuleSource) -> int:
    out = sys.stdout
    if hasattr(out, "reconfigure"):
        out.reconfigure(errors="backslashreplace")  # a terminal that cannot show a character
    sizes = [data.size for data in files]
    total = None if any(data.path == STDIN for data in files) else sum(size or 0 for size in sizes)
    progress = Progress(total, enabled=terminal(sys.stderr))
    write = progress.writer(out.write, out.flush)
    reporter: Reporter = TextReporter(write, args.verbose) if args.output == "text" else JsonReporter(write)
    merger = Merger(files, reporter)
    try:
        for task, result in _results(args, files, source):
            merger.add(task, result)
            progress.advance(task.size)
    finally:
        progress.close()
    totals = merger.finish()
    out.flush()
    return 0 if totals.ok else 1


def _results(args: argparse.Namespace, files: list[DataFile], source: ModuleSource) -> Iterator[tuple[Task, TaskResult]]:
    if args.dask:
        from ..validate.dask import run_on_dask

        return run_on_dask(plan(files, args.chunk_size or DASK_CHUNK_BYTES), source, args.output, args.dask)
    if args.jobs > 1:
        from ..validate.parallel import run_parallel

        return run_parallel(plan(files, args.chunk_size or CHUNK_BYTES), source, args.output, args.jobs)
    return run_serial(plan(files, args.chunk_size or CHUNK_BYTES), source, args.output)
