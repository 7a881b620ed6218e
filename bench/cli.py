"""`python -m bench`: run the benchmark, print the tables, write the JSON document."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import report, runner
from .cases import ALL_CASE_NAMES, ROOT, unknown_patterns

DEFAULT_JSON = ROOT / "bench" / "results" / "latest.json"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description="Time straightline's generated validators against python-jsonschema, "
        "fastjsonschema, jsonschema-rs and a hand-written validator, side by side.",
    )
    parser.add_argument("--quick", action="store_true", help="few, short samples (for tests)")
    parser.add_argument(
        "--case",
        action="append",
        metavar="NAME",
        help="run only this case (repeatable); a prefix selects a group, e.g. math.add. "
        f"Cases: {', '.join(ALL_CASE_NAMES)}",
    )
    parser.add_argument(
        "--json",
        type=Path,
        default=DEFAULT_JSON,
        metavar="PATH",
        help=f"where to write the results as JSON (default: {DEFAULT_JSON.relative_to(ROOT)})",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    unknown = unknown_patterns(args.case or [])
    if unknown:
        print(
            f"unknown case(s): {', '.join(unknown)}; known: {', '.join(ALL_CASE_NAMES)}",
            file=sys.stderr,
        )
        return 2
    log = runner.silent if args.quiet else None
    results = runner.run(args.case, quick=args.quick, log=log)
    print(report.text(results), end="")
    report.write_json(results, args.json)
    print(f"\nwrote {args.json}")
    if not results["cases"]:
        print("no case could run", file=sys.stderr)
        return 1
    return 0
