"""Plain-text tables of a result document, and its JSON file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .implementations import COMPARED, IMPLEMENTATIONS, NATIVE, NATIVE_BACKEND, NATIVE_MYPYC

# Column titles of the ratio columns: `jsonschema/sl` is jsonschema's time over straightline's.
_RATIO_TITLES = {name: f"{name}/sl" for name in COMPARED}


def _microseconds(ns: float) -> str:
    us = ns / 1000
    if us < 10:
        return f"{us:.3f}"
    if us < 1000:
        return f"{us:.1f}"
    return f"{us:,.0f}"


def _ratio(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.2f}x" if value < 100 else f"{value:,.0f}x"


def _unavailable_cell(entry: dict[str, Any]) -> str:
    status = entry["status"]
    if status == "absent":
        return "-"
    if status == "disagrees":
        return "DISAGREES"
    return f"n/a ({entry['short_reason']})"


def _time_cell(entry: dict[str, Any], measured: dict[str, Any] | None) -> str:
    return _microseconds(measured["median_ns"]) if measured else _unavailable_cell(entry)


def _render(header: list[str], rows: list[list[str]], left_columns: int) -> str:
    """Columns padded to their widest cell; the first `left_columns` left-aligned, the rest right."""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        parts = [
            cell.ljust(width) if i < left_columns else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(cells, widths))
        ]
        return "  ".join(parts).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(header), rule, *(line(row) for row in rows)])


def timing_table(results: dict[str, Any]) -> str:
    header = ["case", "instance", "valid", *IMPLEMENTATIONS, *(_RATIO_TITLES[n] for n in COMPARED)]
    rows = []
    for case in results["cases"]:
        entries = case["implementations"]
        if not case["instances"]:
            cells = [
                _unavailable_cell(entries[n]) if entries[n]["status"] != "ok" else "-"
                for n in IMPLEMENTATIONS
            ]
            rows.append([case["name"], "(no instance)", "", *cells, *("-" for _ in COMPARED)])
        for instance in case["instances"]:
            timings = instance["timings"]
            rows.append(
                [
                    case["name"],
                    instance["name"],
                    "yes" if instance["expected_valid"] else "no",
                    *(_time_cell(entries[n], timings[n]) for n in IMPLEMENTATIONS),
                    *(_ratio(instance["ratios"][n]) for n in COMPARED),
                ]
            )
    title = "Per-call median time (microseconds); ratio columns: that implementation's time / straightline's (>1: straightline faster)"
    return title + "\n" + _render(header, rows, left_columns=3)


def _milliseconds(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.2f}" if value < 100 else f"{value:,.0f}"


def build_table(results: dict[str, Any]) -> str:
    """Time to build each implementation's validator once (a single run each)."""
    header = ["case", *IMPLEMENTATIONS]
    rows = []
    for case in results["cases"]:
        entries = case["implementations"]
        rows.append(
            [
                case["name"],
                *(
                    (
                        _milliseconds(entries[n]["build_ms"])
                        if entries[n]["build_ms"] is not None
                        else _unavailable_cell(entries[n])
                    )
                    for n in IMPLEMENTATIONS
                ),
            ]
        )
    return "Validator build time, one run (ms)\n" + _render(header, rows, left_columns=1)


def _mib(value: int | None) -> str:
    return "-" if value is None else f"{value / 2**20:,.0f}"


def native_build_table(results: dict[str, Any]) -> str:
    """Each native build: the backend its record names, wall time, extension size, peak RSS of
    the build's child processes; or why there is none."""
    header = [
        "case",
        "implementation",
        "backend",
        "build s",
        "extension bytes",
        "child peak MiB",
        "process peak MiB",
    ]
    rows = []
    for case in results["cases"]:
        for name in NATIVE_BACKEND:
            entry = case["implementations"][name]
            if "native_build_ms" not in entry:
                cell = _unavailable_cell(entry) if entry["status"] != "ok" else "-"
                rows.append([case["name"], name, NATIVE_BACKEND[name], cell, "", "", ""])
                continue
            rows.append(
                [
                    case["name"],
                    name,
                    str(entry.get("native_backend")),
                    f"{entry['native_build_ms'] / 1000:,.1f}",
                    f"{entry['extension_bytes']:,}",
                    _mib(entry.get("build_peak_rss_bytes")),
                    _mib(entry.get("build_process_peak_rss_bytes")),
                ]
            )
    title = (
        "Native builds (one run each, through the library as `straightline compile --native` "
        "builds: native = the C backend, native-mypyc = mypyc): wall time, extension size, peak "
        "RSS of the build's largest child process (the compiler) and of the bench process when "
        "the build raised it (the C backend renders in process); - when not measurable"
    )
    return title + "\n" + _render(header, rows, left_columns=3)


def module_table(results: dict[str, Any]) -> str:
    header = [
        "case",
        "profile",
        "compile ms",
        "compile ms (format=False)",
        "module bytes",
        "import ms (source)",
        "import ms (bytecode)",
    ]
    rows = []
    for case in results["cases"]:
        module = case["straightline_module"]
        if module["status"] != "ok":
            rows.append(
                [
                    case["name"],
                    case["profile"],
                    f"n/a ({module['short_reason']})",
                    "",
                    "",
                    "",
                    "",
                ]
            )
            continue
        imports = module["import"]
        rows.append(
            [
                case["name"],
                case["profile"],
                _milliseconds(module["compile_ms"]),
                _milliseconds(module["compile_unformatted_ms"]),
                f"{module['module_bytes']:,}",
                _milliseconds(imports["from_source_ms"]),
                _milliseconds(imports["from_bytecode_ms"]),
            ]
        )
    title = "straightline: compile time, size and import time (fresh subprocess) of the generated module"
    return title + "\n" + _render(header, rows, left_columns=2)


def targets_table(results: dict[str, Any]) -> str:
    """The two targets, per instance: the native module against jsonschema-rs (at least 1x), the
    pure module against fastjsonschema (at least 5x); `no` marks a miss."""
    header = [
        "case",
        "instance",
        "valid",
        "pure/native",
        "mypyc/native",
        "rs/native",
        ">=1",
        "fjs/pure",
        ">=5",
    ]
    rows = []
    for case in results["cases"]:
        for instance in case["instances"]:
            native = instance.get("ratios_native", {})
            rs, fjs = native.get("jsonschema-rs"), instance["ratios"].get("fastjsonschema")
            rows.append(
                [
                    case["name"],
                    instance["name"],
                    "yes" if instance["expected_valid"] else "no",
                    _ratio(native.get("straightline")),
                    _ratio(native.get(NATIVE_MYPYC)),
                    _ratio(rs),
                    _met(rs, 1.0),
                    _ratio(fjs),
                    _met(fjs, 5.0),
                ]
            )
    title = (
        f"Targets: rs/native = jsonschema-rs time / {NATIVE} module time (the C backend; target "
        ">= 1); fjs/pure = fastjsonschema time / pure module time (target >= 5); pure/native = "
        "the native speed-up; mypyc/native = the mypyc build's time / the C backend's"
    )
    return title + "\n" + _render(header, rows, left_columns=3)


def _met(ratio: float | None, target: float) -> str:
    return "" if ratio is None else "yes" if ratio >= target else "no"


def _kib(value: int | None) -> str:
    return "-" if value is None else f"{value / 1024:,.1f}"


def memory_table(results: dict[str, Any]) -> str:
    header = ["case", "largest instance", "bytes", *IMPLEMENTATIONS]
    rows = []
    for case in results["cases"]:
        memory = case["memory"]
        if memory is None:
            continue
        entries = case["implementations"]
        peaks = memory["peak_bytes"]
        cells = [
            _kib(peaks[n]) if peaks[n] is not None else _unavailable_cell(entries[n])
            for n in IMPLEMENTATIONS
        ]
        rows.append([case["name"], memory["instance"], f"{memory['bytes']:,}", *cells])
    title = "Peak memory of one is_valid call on the largest instance (KiB, tracemalloc: Python heap only, so jsonschema-rs's Rust heap is not counted)"
    return title + "\n" + _render(header, rows, left_columns=2)


def notes(results: dict[str, Any]) -> str:
    lines = [f"note: {note}" for note in results["notes"]]
    for case in results["cases"]:
        if case["note"]:
            lines.append(f"note: {case['name']}: {case['note']}")
        for name, entry in case["implementations"].items():
            if entry["status"] in ("n/a", "disagrees"):
                lines.append(f"{entry['status']}: {case['name']} / {name}: {entry['reason']}")
    for found in results["disagreements"]:
        lines.append(
            f"DISAGREEMENT: {found['case']} / {found['implementation']} on {found['instance']!r}: {found['problem']}"
        )
    if not results["disagreements"]:
        lines.append(
            "agreement: every implementation that ran gave the expected answer on every instance"
        )
    return "\n".join(lines)


def header(results: dict[str, Any]) -> str:
    machine, python, packages = results["machine"], results["python"], results["packages"]
    versions = ", ".join(
        f"{name} {version or 'not installed'}" for name, version in packages.items()
    )
    settings = results["settings"]
    return "\n".join(
        [
            f"straightline benchmark ({results['mode']}), {results['created']}",
            f"machine: {machine['cpu_model']}, {machine['cores']} cores ({machine['usable_cores']} usable), {machine['platform']}",
            f"python {python['version']} ({python['implementation']}); {versions}",
            f"timing: median of {settings['repeats']} samples ({settings['slow_repeats']} when one call takes over "
            f"{settings['slow_call_ns'] / 1e9:g} s), each at least {settings['target_ns'] / 1e6:g} ms; "
            f"loop and call overhead {results['loop_overhead_ns']:.0f} ns per call, included in every figure",
        ]
    )


def text(results: dict[str, Any]) -> str:
    sections = [
        header(results),
        timing_table(results),
        targets_table(results),
        build_table(results),
        module_table(results),
        native_build_table(results),
        memory_table(results),
        notes(results),
    ]
    return "\n\n".join(sections) + "\n"


def write_json(results: dict[str, Any], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(results, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    temporary.replace(path)  # atomic: a reader never sees half a file
