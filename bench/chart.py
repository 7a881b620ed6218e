"""The benchmark summary as a chart: for each case's valid instance, each implementation's time per
call relative to straightline's pure-Python module (1 = as fast; log scale), as the SVG the README
shows (docs/images/bench.svg). `make bench` draws it from the run it just made:

    .venv/bin/python -m bench.chart                                  # bench/results/latest.json
    .venv/bin/python -m bench.chart bench/published.json -o docs/images/bench.svg

bench/published.json holds the figures of the last full run the documentation quotes, in the
shape of a results document (the ratios alone). Needs matplotlib (the bench extra).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .cases import ROOT

DEFAULT_RESULTS = ROOT / "bench" / "results" / "latest.json"
DEFAULT_CHART = ROOT / "docs" / "images" / "bench.svg"
# The implementations drawn, in the legend's order, with their labels and colours.
SERIES = (
    ("native", "straightline, native (mypyc)", "#1b7837"),
    ("jsonschema-rs", "jsonschema-rs (Rust)", "#762a83"),
    ("fastjsonschema", "fastjsonschema", "#e08214"),
    ("jsonschema", "python-jsonschema", "#b2182b"),
)
# Since 2026-12-06 the bench's `native` is the C backend's extension and mypyc's is
# `native-mypyc` (bench/implementations.py); a document of that bench says so in its settings.
# Older ones, bench/published.json among them, timed mypyc's as `native`.
NATIVE_C = ("native", "straightline, native (C)", "#1b7837")
NATIVE_MYPYC = ("native-mypyc", "straightline, native (mypyc)", "#a6dba0")


def series(
    results: dict[str, Any], rows: list[tuple[str, dict[str, float]]]
) -> tuple[tuple[str, str, str], ...]:
    """The implementations drawn: `native` labelled by the backend the document timed as it, and
    the mypyc build beside it where that document timed it."""
    if "mypyc" not in results.get("settings", {}):
        return SERIES
    mypyc = (NATIVE_MYPYC,) if any(NATIVE_MYPYC[0] in ratios for _, ratios in rows) else ()
    return (NATIVE_C, *mypyc, *SERIES[1:])


def figures(results: dict[str, Any]) -> list[tuple[str, dict[str, float]]]:
    """(case name, {implementation: its time / straightline's}) for each case's first valid
    instance, the implementations that were timed on it."""
    rows = []
    for case in results.get("cases", []):
        for instance in case.get("instances", []):
            if instance.get("expected_valid"):
                ratios = {
                    name: float(value)
                    for name, value in instance.get("ratios", {}).items()
                    if value is not None
                }
                rows.append((case.get("label") or case["name"], ratios))
                break
    return rows


def draw(
    rows: list[tuple[str, dict[str, float]]],
    path: Path,
    note: str = "",
    drawn: tuple[tuple[str, str, str], ...] = SERIES,
) -> None:
    """The chart as an SVG file (text kept as text, no date: the same figures draw the same file)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "straightline", "font.size": 9})
    height = 1.4 + 0.42 * len(rows)
    figure, axes = plt.subplots(figsize=(8, height))
    bar = 0.8 / len(drawn)
    for index, (name, label, colour) in enumerate(drawn):
        positions = [row - 0.4 + bar * (index + 0.5) for row in range(len(rows))]
        values = [ratios.get(name) for _, ratios in rows]
        shown = [(p, v) for p, v in zip(positions, values) if v is not None]
        axes.barh(
            [p for p, _ in shown],
            [v for _, v in shown],
            height=bar,
            color=colour,
            label=label,
            left=0,
        )
    axes.axvline(1, color="black", linewidth=1)
    axes.set_xscale("log")
    axes.set_yticks(range(len(rows)), [name for name, _ in rows])
    axes.invert_yaxis()
    axes.set_xlabel(
        "time per call relative to straightline's pure-Python module (1 = as fast; log scale)"
    )
    axes.set_title(
        "Validating each case's valid instance" + (f" ({note})" if note else ""), fontsize=10
    )
    axes.legend(
        loc="upper center",
        bbox_to_anchor=(0.4, -0.09 - 1.2 / height / 10),
        ncol=2,
        fontsize=8,
        frameon=False,
    )
    axes.grid(axis="x", which="major", linewidth=0.3)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, format="svg", metadata={"Date": None})
    plt.close(figure)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.chart", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "results",
        nargs="?",
        type=Path,
        default=DEFAULT_RESULTS,
        help="a results document of `python -m bench` (default: bench/results/latest.json)",
    )
    parser.add_argument("-o", "--output", type=Path, default=DEFAULT_CHART, help="the SVG to write")
    args = parser.parse_args(argv)
    try:
        results = json.loads(args.results.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        print(f"{args.results}: cannot read the results: {error}", file=sys.stderr)
        return 2
    rows = figures(results)
    if not rows:
        print(f"{args.results}: no case with a timed valid instance", file=sys.stderr)
        return 2
    draw(rows, args.output, str(results.get("note", "")), series(results, rows))
    print(f"{args.output}: {len(rows)} cases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
