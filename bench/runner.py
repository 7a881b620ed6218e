"""Run the benchmark: for each case build every implementation, check its answers, time the ones
that agree, then measure straightline's compile/import costs and peak memory. Returns one plain
dict (the JSON document described in bench/README.md)."""

from __future__ import annotations

import datetime
import gc
import json
import statistics
import subprocess
import sys
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from . import costs, machine, timing
from .cases import ROOT, Case, Instance, select_cases
from .implementations import (
    COMPARED,
    COMPARED_NATIVE,
    IMPLEMENTATIONS,
    NATIVE,
    NATIVE_BACKEND,
    STRAIGHTLINE,
    Built,
    build,
    describe,
    known_limitation,
)

FORMAT = "straightline-bench/1"

# Statuses of an implementation on a case.
OK = "ok"  # agreed with every expected answer, and was timed
NOT_AVAILABLE = "n/a"  # not installed, could not compile the schema, or raised while validating
ABSENT = "absent"  # has nothing for this case (there is no hand-written validator for it)
DISAGREES = "disagrees"  # answered differently from the expected answer: never timed

Log = Callable[[str], None]


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _check_answers(built: Built, case: Case) -> tuple[str, str, list[dict[str, Any]]]:
    """(status, reason, disagreements) of one built implementation over every instance."""
    assert built.is_valid is not None
    disagreements: list[dict[str, Any]] = []
    for instance in case.instances:
        try:
            answer = built.is_valid(instance.value)
        except Exception as exc:  # an implementation failing on an instance is n/a, not fatal
            instance.restore()
            return NOT_AVAILABLE, f"raised on {instance.name}: {describe(exc)[0]}", []
        if not instance.is_pristine():
            instance.restore()  # the next implementation must see the instance as it was
            disagreements.append(
                _disagreement(instance, answer, "modified the instance it validated")
            )
        elif bool(answer) != instance.expected_valid:
            disagreements.append(_disagreement(instance, answer, ""))
    if disagreements:
        names = ", ".join(d["instance"] for d in disagreements)
        return DISAGREES, f"disagrees with the expected answer on: {names}", disagreements
    return OK, "", []


def _disagreement(instance: Instance, answer: Any, problem: str) -> dict[str, Any]:
    return {
        "instance": instance.name,
        "expected_valid": instance.expected_valid,
        "answer": bool(answer),
        "problem": problem
        or f"expected {_verdict(instance.expected_valid)}, said {_verdict(bool(answer))}",
    }


def _verdict(valid: bool) -> str:
    return "valid" if valid else "invalid"


def _implementation_entry(
    built: Built, status: str, reason: str, disagreements: list[dict[str, Any]]
) -> dict[str, Any]:
    short = built.short_reason if status in (NOT_AVAILABLE, ABSENT) else ""
    if status == NOT_AVAILABLE and not short:
        short = "error"
    return {
        "status": status,
        "reason": reason,
        "short_reason": short,
        "build_ms": None if built.build_ns is None or built.absent else built.build_ns / 1e6,
        "disagreements": disagreements,
        **built.details,
    }


def _evaluate(
    case: Case, log: Log, native: bool, mode: str, mypyc: bool = False
) -> tuple[dict[str, Built], dict[str, dict[str, Any]]]:
    """Build every implementation and check its answers: the ones that built, and an entry for
    each (its status says whether it may be timed, and if not, why)."""
    built_by_name: dict[str, Built] = {}
    entries: dict[str, dict[str, Any]] = {}
    for name in IMPLEMENTATIONS:
        if name in NATIVE_BACKEND and native and (name == NATIVE or mypyc):
            log(f"  {name}: building ({NATIVE_BACKEND[name]} backend: this takes a while)")
        built = build(name, case, native=native, mypyc=mypyc, mode=mode)
        disagreements: list[dict[str, Any]]
        if built.absent:
            status, reason, disagreements = ABSENT, built.reason, []
        elif built.is_valid is None:
            status, reason, disagreements = NOT_AVAILABLE, built.reason, []
        else:
            status, reason, disagreements = _check_answers(built, case)
            if status == DISAGREES and known_limitation(name, case):
                reason += f"; expected: {known_limitation(name, case)}"
        if built.is_valid is not None:
            built_by_name[name] = built
        entries[name] = _implementation_entry(built, status, reason, disagreements)
        log(f"  {name}: {status}{' (' + reason + ')' if reason and status != ABSENT else ''}")
    return built_by_name, entries


def _time_instances(
    case: Case, timed: dict[str, Built], settings: timing.TimingSettings, log: Log
) -> list[dict[str, Any]]:
    rows = []
    for instance in case.instances:
        timings: dict[str, dict[str, Any] | None] = {name: None for name in IMPLEMENTATIONS}
        log(f"  timing {', '.join(timed) or 'nothing'} on {instance.name}")
        calls = {
            name: built.is_valid for name, built in timed.items() if built.is_valid is not None
        }
        # A fresh parse, after a collection: what earlier cases left in the heap does not scatter
        # this instance's objects (a traversal's cache misses are most of a fast validator's time).
        gc.collect()
        instance.restore()
        for name, measured in timing.measure_side_by_side(calls, instance.value, settings).items():
            timings[name] = measured.to_json()
        rows.append(
            {
                "name": instance.name,
                "bytes": instance.size_bytes,
                "expected_valid": instance.expected_valid,
                "timings": timings,
                "ratios": _ratios(timings),
                "ratios_native": _ratios(timings, NATIVE, COMPARED_NATIVE),
            }
        )
    return rows


def _ratios(
    timings: dict[str, dict[str, Any] | None],
    over: str = STRAIGHTLINE,
    names: tuple[str, ...] = COMPARED,
) -> dict[str, float | None]:
    """Each implementation's time over straightline's (or the native module's, `over`): above 1
    means straightline is faster. The median of the ratios of samples taken in the same round
    (side by side in time), which a slow spell of the machine changes far less than it changes
    either median alone."""
    base = timings.get(over)
    ratios: dict[str, float | None] = {}
    for name in names:
        other = timings.get(name)
        pairs = list(zip(other["samples_ns"], base["samples_ns"])) if base and other else []
        ratios[name] = (
            statistics.median(o / b for o, b in pairs)
            if pairs and all(b > 0 for _, b in pairs)
            else None
        )
    return ratios


def _straightline_module(
    case: Case, compiled: bool, entry: dict[str, Any], runs: dict[str, int], log: Log
) -> dict[str, Any]:
    if not compiled:
        return {
            "status": NOT_AVAILABLE,
            "reason": entry["reason"],
            "short_reason": entry["short_reason"],
        }
    log("  straightline: compile and import times")
    try:
        source, compile_figures = costs.compile_times(case, runs["compile"], runs["budget_ns"])
        imports = costs.import_times(source, runs["import"], runs["budget_ns"])
    except Exception as exc:  # measuring costs must not end the run
        reason, short = describe(exc)
        return {"status": NOT_AVAILABLE, "reason": reason, "short_reason": short}
    return {
        "status": OK,
        "reason": "",
        "short_reason": "",
        **compile_figures,
        "module_bytes": costs.module_bytes(source),
        "module_lines": source.count("\n"),
        "import": imports,
    }


def _peak_memory(case: Case, timed: dict[str, Built], log: Log) -> dict[str, Any] | None:
    largest = case.largest_instance()
    if largest is None:
        return None
    peaks: dict[str, int | None] = {name: None for name in IMPLEMENTATIONS}
    log(f"  peak memory on {largest.name}")
    for name, built in timed.items():
        assert built.is_valid is not None
        peaks[name] = costs.peak_memory_bytes(built.is_valid, largest.value)
    return {
        "instance": largest.name,
        "bytes": largest.size_bytes,
        "method": "tracemalloc peak over one is_valid call (Python heap only)",
        "peak_bytes": peaks,
    }


def run_case(
    case: Case,
    settings: timing.TimingSettings,
    runs: dict[str, int],
    log: Log,
    native: bool = True,
    mypyc: bool = False,
) -> dict[str, Any]:
    log(f"case {case.name} (straightline profile {case.profile}): building, checking answers")
    mode = "quick" if settings is timing.QUICK else "full"
    built, entries = _evaluate(case, log, native, mode, mypyc)
    timed = {name: b for name, b in built.items() if entries[name]["status"] == OK}
    straightline = entries[STRAIGHTLINE]
    compiled = STRAIGHTLINE in built
    return {
        "name": case.name,
        "source": case.source,
        "profile": case.profile,
        "note": case.note,
        "implementations": entries,
        "instances": _time_instances(case, timed, settings, log),
        "straightline_module": _straightline_module(case, compiled, straightline, runs, log),
        "memory": _peak_memory(case, timed, log),
    }


def _all_disagreements(case_results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found = []
    for case in case_results:
        for name, entry in case["implementations"].items():
            for disagreement in entry["disagreements"]:
                found.append({"case": case["name"], "implementation": name, **disagreement})
    return found


def silent(message: str) -> None:
    return None


def _runs(quick: bool) -> dict[str, int]:
    """Run counts for compile and import times, cut short once a measurement has used its budget."""
    if quick:
        return {"compile": 2, "import": 1, "budget_ns": 2 * 10**9}
    return {"compile": 5, "import": 5, "budget_ns": 20 * 10**9}


def run_one(
    name: str,
    *,
    quick: bool = False,
    log: Log | None = None,
    native: bool | None = None,
    mypyc: bool = False,
) -> dict[str, Any]:
    """One case by its exact name, in this process: its result, or {"note": why it was skipped}.
    `native` (default: not `quick`): build and time the native module (C backend) too; `mypyc`:
    and the mypyc one (only with `native`)."""
    log = log or _stderr
    loaders = [load for case_name, load in select_cases([name])[0] if case_name == name]
    if not loaders:
        return {"note": f"skipped {name}: not found"}
    try:
        case = loaders[0]()
    except (OSError, ValueError) as exc:  # unreadable or malformed data: note it, go on
        return {"note": f"skipped {name}: could not load it: {describe(exc)[0]}"}
    native = not quick if native is None else native
    settings = timing.QUICK if quick else timing.FULL
    return run_case(case, settings, _runs(quick), log, native, mypyc)


def _run_isolated(
    name: str, quick: bool, log: Log, native: bool | None = None, mypyc: bool = False
) -> dict[str, Any]:
    """run_one in a fresh interpreter (bench/worker.py), so that no case's figures depend on the
    cases that ran before it: earlier cases' garbage and fragmented heap slowed straightline's
    traversal of the CITM instance by a fifth, and the other implementations less."""
    command = [
        sys.executable,
        "-m",
        "bench.worker",
        name,
        *(["--quick"] if quick else []),
        *([] if native is None else ["--native" if native else "--no-native"]),
        *(["--mypyc"] if mypyc else []),
    ]
    if log is silent:
        command.append("--quiet")
    finished = subprocess.run(command, cwd=ROOT, stdout=subprocess.PIPE, text=True, check=False)
    if finished.returncode != 0:
        return {"note": f"skipped {name}: its worker process failed (exit {finished.returncode})"}
    result: dict[str, Any] = json.loads(finished.stdout)
    return result


def run(
    patterns: list[str] | None = None,
    *,
    quick: bool = False,
    log: Log | None = None,
    isolate: bool = True,
    native: bool | None = None,
    mypyc: bool = False,
) -> dict[str, Any]:
    """Every selected case (all for None, none for []), each in a process of its own unless
    `isolate` is False; `native` (default: not `quick`) builds and times the native modules (the
    C backend's, as `--native` builds them), and `mypyc` the mypyc ones too."""
    log = log or _stderr
    settings = timing.QUICK if quick else timing.FULL
    runs = _runs(quick)
    loaders, notes = select_cases(patterns) if patterns != [] else ([], [])
    for note in notes:
        log(f"note: {note}")
    case_results = []
    for name, _ in loaders:
        result = (
            _run_isolated(name, quick, log, native, mypyc)
            if isolate
            else run_one(name, quick=quick, log=log, native=native, mypyc=mypyc)
        )
        if "note" in result and "name" not in result:
            notes.append(result["note"])
            log(f"note: {notes[-1]}")
        else:
            case_results.append(result)
    return {
        "format": FORMAT,
        "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "mode": "quick" if quick else "full",
        "machine": machine.machine_info(),
        "python": machine.python_info(),
        "packages": machine.package_versions(),
        "settings": {
            **asdict(settings),
            "native": not quick if native is None else native,
            "mypyc": mypyc and (not quick if native is None else native),
            "compile_runs": runs["compile"],
            "import_runs": runs["import"],
            "cost_budget_ns": runs["budget_ns"],
        },
        "loop_overhead_ns": timing.loop_overhead_ns(settings),
        "implementations": list(IMPLEMENTATIONS),
        "cases": case_results,
        "notes": notes,
        "disagreements": _all_disagreements(case_results),
    }
