"""The flags of how a schema is read that compile, check, preflight and validate --schema share:
the format flags `--formats` / `--no-formats`, `--format NAME=module:function` (repeatable),
`--unknown-formats` and `--content` / `--no-content`, read into the Settings fields the project
config also sets (generator/project.py), and `--unsafe-patterns`. Nothing of the compiler is
imported."""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..errors import OptionError
from ..format_options import (
    UNKNOWN_FORMAT_POLICIES,
    custom_formats,
    format_options,
    parse_format_flag,
)
from ..names import LIMIT_OPTIONS, UNSAFE_PATTERN_POLICIES, limit_problem

if TYPE_CHECKING:
    from ..project import Settings

# (flag, argparse dest) of every format flag: with no SRC, each is a usage error (the project's
# config says it), and `validate --module` refuses them (the module is compiled already).
FORMAT_FLAGS = (
    ("--formats/--no-formats", "format_assertion"),
    ("--format", "custom_formats"),
    ("--unknown-formats", "unknown_formats"),
    ("--content/--no-content", "content_assertion"),
)


def add_limit_flags(parser: argparse.ArgumentParser) -> None:
    """`--max-depth N` and the other limits, refused by argparse under the flag's own name when
    not a limit (names.limit_problem)."""
    for option in LIMIT_OPTIONS:
        parser.add_argument(
            "--" + option.replace("_", "-"),
            dest=option,
            metavar="N",
            type=_limit(option),
            help=f"override the profile's {option.replace('_', ' ')} limit",
        )


def _limit(option: str) -> Any:
    def limit(text: str) -> int | str:
        value: int | str
        try:
            value = int(text)
        except ValueError:
            value = text
        problem = limit_problem(option, value)
        if problem is not None:
            raise argparse.ArgumentTypeError(problem)
        return value

    return limit


def add_format_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("format and content assertion")
    group.add_argument(
        "--formats",
        dest="format_assertion",
        action="store_const",
        const=True,
        help="make `format` a check (default: an annotation, unless the schema's "
        "meta-schema asks for format assertion)",
    )
    group.add_argument(
        "--no-formats",
        dest="format_assertion",
        action="store_const",
        const=False,
        help="keep `format` an annotation, even under a format-assertion meta-schema",
    )
    group.add_argument(
        "--format",
        dest="custom_formats",
        action="append",
        metavar="NAME=MODULE:FUNCTION",
        help="check format NAME with your function (repeatable); it turns --formats on",
    )
    group.add_argument(
        "--unknown-formats",
        choices=UNKNOWN_FORMAT_POLICIES,
        help="a format that is asserted but unknown: ignore (default: an annotation) "
        "or error (the schema is refused, naming its place)",
    )
    group.add_argument(
        "--content",
        dest="content_assertion",
        action="store_const",
        const=True,
        help="make draft 7's contentEncoding (base64) and contentMediaType "
        "(application/json) checks",
    )
    group.add_argument(
        "--no-content",
        dest="content_assertion",
        action="store_const",
        const=False,
        help="keep them annotations (the default)",
    )


def format_settings(args: argparse.Namespace, settings: Settings | None = None) -> Settings:
    """`settings` (or defaults) with the format flags given; OptionError for a bad --format."""
    from ..project import Settings

    base = settings if settings is not None else Settings()
    specs: dict[str, str] = {}
    for text in getattr(args, "custom_formats", None) or []:
        name, spec = parse_format_flag(text)
        if name in specs:
            raise OptionError(f"--format {name}=...: given twice")
        specs[name] = spec
    found = custom_formats(specs)  # checks every spec
    chosen = replace(
        base,
        formats=tuple((c.name, c.spec) for c in found),
        format_assertion=getattr(args, "format_assertion", None),
        unknown_formats=getattr(args, "unknown_formats", None) or "ignore",
        content_assertion=getattr(args, "content_assertion", None),
    )
    format_options(**chosen.format_kwargs())
    return chosen


def add_unsafe_patterns(parser: argparse.ArgumentParser) -> None:
    """--unsafe-patterns: what the draft profiles do with a pattern no linear-time engine runs."""
    parser.add_argument(
        "--unsafe-patterns",
        choices=UNSAFE_PATTERN_POLICIES,
        help="a pattern whose backtracking can take super-linear time and that no "
        "linear-time engine runs (a risky look-around or back-reference): run it "
        "in re with a warning (default), allow it silently, or refuse it; strict "
        "always refuses it (docs/regex.md)",
    )
