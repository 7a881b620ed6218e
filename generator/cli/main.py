"""The `straightline` command (also `python -m generator`): the parser and the dispatch to the
commands. A user's mistake is a one-line message and exit status 2, never a traceback."""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import threading
from pathlib import Path
from typing import Iterator, NoReturn, Sequence

from .. import __version__
from ..errors import OptionError, StraightlineError, Terminated
from ..names import LIMIT_OPTIONS, NATIVE_BACKENDS, PROFILE_NAMES
from .files import OutputLost, drop_output, printable, say, warnings_reported
from .format_flags import (
    FORMAT_FLAGS,
    add_format_flags,
    add_limit_flags,
    add_unsafe_patterns,
    format_settings,
)
from .mcp import add_mcp_parser, mcp_command
from .validate import add_validate_parser, validate_command


class _Parser(argparse.ArgumentParser):
    """argparse, with its error lines made printable (they quote the user's arguments)."""

    def error(self, message: str) -> NoReturn:
        super().error(printable(message))


class _NativeAction(argparse.Action):
    """`--native` (the C backend) or `--native=BACKEND`. A bare `--native` followed by a SRC
    takes that SRC as its value (argparse's optional value): _native_value gives it back."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        setattr(namespace, self.dest, self.const if values is None else values)


def _native_value(
    args: argparse.Namespace, argv: Sequence[str], parser: argparse.ArgumentParser
) -> None:
    """args.native a backend: a value `--native` took that is not one is a SRC, unless it was
    written `--native=VALUE`."""
    value = getattr(args, "native", None)
    if value is None or value in NATIVE_BACKENDS:
        return
    if any(arg.startswith("--native=") for arg in argv):
        parser.error(f"argument --native: must be one of {', '.join(NATIVE_BACKENDS)}")
    args.native = "c"
    args.sources = [value, *args.sources]


def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "sources",
        metavar="SRC",
        nargs="*",
        help="contract files (JSON or YAML); FILE#/json/pointer names one subschema of "
        "FILE; none: every contract of the project ([tool.straightline] in the "
        "nearest pyproject.toml)",
    )
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="the pyproject.toml to read [tool.straightline] from (with no SRC)",
    )
    parser.add_argument(
        "--profile",
        choices=PROFILE_NAMES,
        help="the schema profile the contracts are written in (default: the draft "
        "their $schema names, else draft2020-12)",
    )
    parser.add_argument(
        "--registry",
        metavar="DIR",
        help="a directory of schema files that $ref may name (never the network)",
    )
    add_limit_flags(parser)
    add_unsafe_patterns(parser)
    add_format_flags(parser)


def _add_unknown_keywords(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--unknown-keywords",
        choices=("ignore", "warn", "error"),
        help="keywords the draft in force does not know, in the draft profiles " "(default: warn)",
    )


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="straightline",
        description="Compile JSON contracts into standalone Python validator modules.",
    )
    parser.add_argument("--version", action="version", version=f"straightline {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    compile_ = commands.add_parser(
        "compile",
        help="compile contracts into modules",
        description="Compile each contract into DIR/<name>.py (atomic writes).",
    )
    _add_common(compile_)
    _add_unknown_keywords(compile_)
    compile_.add_argument(
        "--out", metavar="DIR", help="directory for the generated modules (with SRC)"
    )
    compile_.add_argument(
        "--native",
        nargs="?",
        const="c",
        action=_NativeAction,
        default=None,
        metavar="BACKEND",
        help="also build each module's C extension beside it, which Python imports in its "
        "place: its fast path rendered as C (c, the default) or the module compiled with "
        "mypyc (--native=mypyc); needs a C compiler; with SRC",
    )

    check = commands.add_parser(
        "check",
        help="fail if a generated module is missing or stale",
        description="Exit non-zero, naming the files and the reasons, if any "
        "module is missing, was edited, or was made from other inputs "
        "(source, registry documents, options, version).",
    )
    _add_common(check)
    check.add_argument("--out", metavar="DIR", help="directory of the generated modules (with SRC)")
    check.add_argument(
        "--native",
        nargs="?",
        const="c",
        action=_NativeAction,
        default=None,
        metavar="BACKEND",
        help="also require each module's native extension, built from its current text "
        "(by either backend)",
    )

    catalog = commands.add_parser(
        "catalog",
        help="the tool catalog of contract files, as JSON",
        description="Write the catalog entries (name, description, input "
        "and output schema) of tool contract files as a JSON array.",
    )
    catalog.add_argument("sources", metavar="SRC", nargs="+", help="tool contract files (JSON)")
    catalog.add_argument(
        "-o", "--output", metavar="FILE", help="write to FILE (atomically) instead of stdout"
    )

    preflight = commands.add_parser(
        "preflight",
        help="validate contracts against their profile only",
        description="Check each contract against the profile; write nothing.",
    )
    _add_common(preflight)
    _add_unknown_keywords(preflight)

    add_validate_parser(commands)
    add_mcp_parser(commands)
    return parser


def _check_project_flags(args: argparse.Namespace) -> None:
    """With SRC, compile and check need --out; without, every setting comes from the project."""
    if args.sources:
        if args.config:
            raise OptionError("--config reads the project's contracts: give it without SRC")
        if args.command in ("compile", "check") and not args.out:
            raise OptionError("--out DIR is required with SRC")
        return
    given = [
        flag
        for flag, value in (
            ("--out", getattr(args, "out", None)),
            ("--profile", args.profile),
            ("--registry", args.registry),
            ("--unknown-keywords", getattr(args, "unknown_keywords", None)),
            ("--unsafe-patterns", getattr(args, "unsafe_patterns", None)),
            ("--native", getattr(args, "native", None)),
            *(("--" + k.replace("_", "-"), getattr(args, k)) for k in LIMIT_OPTIONS),
            *((flag, getattr(args, dest)) for flag, dest in FORMAT_FLAGS),
        )
        if value is not None
    ]
    if given:
        raise OptionError(
            f"{', '.join(given)}: with no SRC the settings come from [tool.straightline] "
            "in pyproject.toml; give SRC... to use flags"
        )


def main(argv: Sequence[str] | None = None) -> int:
    """The command; its exit status. SIGTERM (a `timeout`, a CI job cancelled, `kill`) ends it as
    Ctrl-C does, through every clean-up on the way (a temporary file of a write removed, a native
    build's compiler stopped): its default action would end the process where it stands."""
    with _terminate_as_exit():
        try:
            return _main(argv)
        except BrokenPipeError:  # the reader went away (`| head`): stop quietly
            drop_output()
            return 1
        except OutputLost as lost:  # a closed or full standard output: the report is incomplete
            drop_output()
            say(f"straightline: cannot write to standard output: {lost}", sys.stderr)
            return 2


@contextlib.contextmanager
def _terminate_as_exit() -> Iterator[None]:
    """Inside, SIGTERM raises SystemExit(143) (128 + the signal's number, as a shell reports a
    process the signal ended). Only where Python lets a handler be set: in the main thread."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGTERM"):
        yield
        return

    def terminate(signum: int, frame: object) -> None:
        raise Terminated(128 + signum)

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _main(argv: Sequence[str] | None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    _native_value(args, sys.argv[1:] if argv is None else argv, parser)
    if args.command == "mcp":  # the compiler only for `mcp import`
        return mcp_command(args, parser)
    if args.command == "validate":  # imports the compiler only for --schema
        try:
            return validate_command(args)
        except KeyboardInterrupt:
            return 130
    try:
        # the compile commands (imported here: they load the compiler, which takes a moment that
        # Ctrl-C may fall in)
        from ..pipeline import PROFILES, get_profile
        from ..profiles import with_options
        from .commands import (
            catalog_command,
            check_command,
            compile_command,
            limit_options,
            preflight_command,
        )
    except KeyboardInterrupt:
        return 130
    try:
        if args.command == "catalog":
            return catalog_command(args)
        with_options(
            get_profile(args.profile) if args.profile else PROFILES["draft2020-12"],
            limit_options(args),
        )
        format_settings(args)  # a bad --format is a usage error
        if args.registry and not Path(args.registry).is_dir():
            raise OptionError(f"--registry {args.registry}: not a directory")
        _check_project_flags(args)
    except OptionError as error:
        parser.error(error.message)  # a usage error: exit status 2
    try:
        with warnings_reported():
            return {
                "compile": compile_command,
                "check": check_command,
                "preflight": preflight_command,
            }[args.command](args)
    except StraightlineError as error:
        say(f"straightline: {error.message}", sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
