"""The `straightline` command (also `python -m generator`): the parser and the dispatch to the
commands. A user's mistake is a one-line message and exit status 2, never a traceback."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Sequence

from .. import __version__
from ..errors import OptionError, StraightlineError
from ..profiles import DRAFT_PROFILES, LIMIT_OPTIONS, PROFILES, get_profile, with_options
from .validate import add_validate_parser, validate_command


def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("sources", metavar="SRC", nargs="+",
                        help="contract files (JSON); FILE#/json/pointer names one subschema of FILE")
    parser.add_argument("--profile", choices=sorted(PROFILES),
                        help="the schema profile the contracts are written in (default: the draft "
                             "their $schema names, else draft2020-12)")
    parser.add_argument("--registry", metavar="DIR",
                        help="a directory of schema files that $ref may name (never the network)")
    for option in LIMIT_OPTIONS:
        parser.add_argument("--" + option.replace("_", "-"), dest=option, type=int, metavar="N",
                            help=f"override the profile's {option.replace('_', ' ')} limit")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="straightline",
        description="Compile JSON contracts into standalone Python validator modules.",
    )
    parser.add_argument("--version", action="version", version=f"straightline {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    compile_ = commands.add_parser("compile", help="compile contracts into modules",
                                   description="Compile each contract into DIR/<name>.py (atomic writes).")
    _add_common(compile_)
    compile_.add_argument("--out", required=True, metavar="DIR", help="directory for the generated modules")

    check = commands.add_parser("check", help="fail if a generated module is missing or stale",
                                description="Exit non-zero, naming the files, if any module in DIR is "
                                            "missing or was made from another source or with other options.")
    _add_common(check)
    check.add_argument("--out", required=True, metavar="DIR", help="directory of the generated modules")

    catalog = commands.add_parser("catalog", help="the tool catalog of contract files, as JSON",
                                  description="Write the catalog entries (name, description, input "
                                              "and output schema) of tool contract files as a JSON array.")
    catalog.add_argument("sources", metavar="SRC", nargs="+", help="tool contract files (JSON)")
    catalog.add_argument("-o", "--output", metavar="FILE", help="write to FILE (atomically) instead of stdout")

    preflight = commands.add_parser("preflight", help="validate contracts against their profile only",
                                    description="Check each contract against the profile; write nothing.")
    _add_common(preflight)

    add_validate_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "validate":  # imports the compiler only for --schema
        try:
            return validate_command(args)
        except KeyboardInterrupt:
            return 130
    # the compile commands (imported here: they load the compiler)
    from .commands import catalog_command, check_command, compile_command, limit_options, preflight_command

    try:
        if args.command == "catalog":
            return catalog_command(args)
        with_options(get_profile(args.profile) if args.profile else DRAFT_PROFILES["draft2020-12"], limit_options(args))
        if args.registry and not Path(args.registry).is_dir():
            raise OptionError(f"--registry {args.registry}: not a directory")
    except OptionError as error:
        parser.error(error.message)  # a usage error: exit status 2
    try:
        return {"compile": compile_command, "check": check_command, "preflight": preflight_command}[args.command](args)
    except StraightlineError as error:
        print(f"straightline: {error.message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
