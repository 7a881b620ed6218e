"""`python -m bench`: run the benchmark, print the tables, write the JSON document."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import jsonl, mcp, report, runner
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
    native = parser.add_mutually_exclusive_group()
    native.add_argument(
        "--native",
        action="store_true",
        default=None,
        help="build and time each case's native module as `straightline compile --native` builds "
        "it (the C backend; needs a C compiler, seconds to minutes a case): the default, except "
        "with --quick",
    )
    native.add_argument(
        "--no-native", dest="native", action="store_false", help="leave the native modules out"
    )
    parser.add_argument(
        "--mypyc",
        action="store_true",
        help="also build and time the mypyc build of each module (native-mypyc, as "
        "`--native=mypyc` builds it; tens of seconds to minutes a case); not with --no-native",
    )
    parser.add_argument(
        "--jsonl",
        action="store_true",
        help="run the JSON Lines throughput report (`straightline validate` against parsing alone); "
        "a run without --case includes it, a run with --case only when this is given, and "
        "--jsonl alone runs only it",
    )
    parser.add_argument(
        "--jsonl-lines",
        type=int,
        metavar="N",
        help=f"lines per JSON Lines file (default {jsonl.FULL_LINES:,}; {jsonl.QUICK_LINES:,} with --quick)",
    )
    parser.add_argument(
        "--mcp",
        action="store_true",
        help="run the MCP tools/call validation report (bench/mcp.py; needs the mcp extra): a run "
        "without --case includes it, a run with --case only when this is given, and --mcp alone "
        "runs only it",
    )
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
    only_jsonl = args.jsonl and not args.case and not args.mcp
    only_mcp = args.mcp and not args.case and not args.jsonl
    only_sections = (args.jsonl or args.mcp) and not args.case
    if args.mypyc and args.native is False:
        print("--mypyc needs the native builds: drop --no-native", file=sys.stderr)
        return 2
    native = True if args.mypyc and args.quick and args.native is None else args.native
    results = runner.run(
        [] if only_sections else args.case,
        quick=args.quick,
        log=log,
        native=native,
        mypyc=args.mypyc,
    )
    progress = runner.silent if args.quiet else runner._stderr
    if args.jsonl or not (args.case or args.mcp):
        results["jsonl"] = jsonl.run(quick=args.quick, lines=args.jsonl_lines, log=progress)
    if args.mcp or not (args.case or args.jsonl):
        results["mcp"] = mcp.run(quick=args.quick, log=progress)
    if not only_sections:
        print(report.text(results), end="")
    if "jsonl" in results:
        print(("\n" if not only_jsonl else "") + jsonl.table(results["jsonl"]))
    if "mcp" in results:
        print(("\n" if not only_mcp else "") + mcp.table(results["mcp"]))
    report.write_json(results, args.json)
    print(f"\nwrote {args.json}")
    if not results["cases"] and not only_sections:
        print("no case could run", file=sys.stderr)
        return 1
    if "jsonl" in results and any(
        entry["problem"]
        for entry in results["jsonl"]["files"] + results["jsonl"].get("schemas", [])
    ):
        print("straightline validate gave a wrong answer on the JSON Lines data", file=sys.stderr)
        return 1
    if results.get("mcp", {}).get("status") == "ok" and _mcp_straightline_disagrees(results["mcp"]):
        print("straightline gave a wrong answer in the MCP report", file=sys.stderr)
        return 1
    return 0


def _mcp_straightline_disagrees(section: dict[str, object]) -> bool:
    validation = section["validation"]
    calls = section["tools_call"]
    assert isinstance(validation, list) and isinstance(calls, dict)
    return any(
        name.startswith("straightline") for instance in validation for name in instance["disagrees"]
    ) or any(problem.startswith("straightline") for problem in calls["problems"])
