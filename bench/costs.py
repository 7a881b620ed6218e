"""What a validator costs besides its per-call time: straightline's compile time, the size and
import time of the generated module, and each implementation's peak memory on one instance."""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .cases import Case

MODULE_NAME = "straightline_bench_module"

# Run in a fresh interpreter: the import time of the module alone, its standard-library imports
# included (they are part of what importing it costs), nothing else of this process cached.
_IMPORT_PROBE = """
import sys, time
sys.path.insert(0, sys.argv[1])
start = time.perf_counter_ns()
import {name}
elapsed = time.perf_counter_ns() - start
assert callable({name}.is_valid)
print(elapsed)
"""


def _forget_formatting() -> bool:
    """straightline caches black's output per top-level chunk of a module, so compiling the same
    schema again would format nothing. Clearing it makes every run cost what a first compile of
    that schema costs. (A private hook, looked up defensively: False if it is gone.)"""
    from generator import api

    cache_clear = getattr(getattr(api, "_format_chunk", None), "cache_clear", None)
    if cache_clear is None:
        return False
    cache_clear()
    return True


def compile_times(case: Case, runs: int, budget_ns: int) -> tuple[str, dict[str, Any]]:
    """The module source as `straightline compile` writes it (black-formatted), and compile
    times: formatted (black cache cleared before each run) and unformatted (format=False)."""
    import generator

    cleared: list[bool] = []
    sources: list[str] = []

    def formatted() -> None:
        cleared.append(_forget_formatting())
        sources.append(generator.compile_source(case.schema_text, profile=case.profile))

    def unformatted() -> None:
        generator.compile_source(case.schema_text, profile=case.profile, format=False)

    formatted_ns = _runs_within(lambda: _elapsed_ns(formatted), runs, budget_ns)
    unformatted_ns = _runs_within(lambda: _elapsed_ns(unformatted), runs, budget_ns)
    return sources[-1], {
        "compile_ms": statistics.median(formatted_ns) / 1e6,
        "compile_unformatted_ms": statistics.median(unformatted_ns) / 1e6,
        "compile_runs_ms": [t / 1e6 for t in formatted_ns],
        "compile_unformatted_runs_ms": [t / 1e6 for t in unformatted_ns],
        "black_cache_cleared": all(cleared),
    }


def _elapsed_ns(action: Callable[[], None]) -> int:
    start = time.perf_counter_ns()
    action()
    return time.perf_counter_ns() - start


def _import_once(directory: Path, *, write_bytecode: bool) -> int:
    flags = ["-I"] if write_bytecode else ["-I", "-B"]  # -I: no PYTHONPATH, no user site
    probe = _IMPORT_PROBE.format(name=MODULE_NAME)
    completed = subprocess.run(
        [sys.executable, *flags, "-c", probe, str(directory)],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    return int(completed.stdout.strip().splitlines()[-1])


def import_times(source: str, runs: int, budget_ns: int) -> dict[str, Any]:
    """Import time of the module in fresh subprocesses: from source (no bytecode cache, so the
    module is compiled to bytecode on every import) and from the cached bytecode."""
    with tempfile.TemporaryDirectory(prefix="straightline-bench-") as temp:
        directory = Path(temp)
        (directory / f"{MODULE_NAME}.py").write_text(source, encoding="utf-8")
        from_source = _runs_within(
            lambda: _import_once(directory, write_bytecode=False), runs, budget_ns
        )
        _import_once(directory, write_bytecode=True)  # writes __pycache__
        from_bytecode = _runs_within(
            lambda: _import_once(directory, write_bytecode=True), runs, budget_ns
        )
    return {
        "from_source_ms": statistics.median(from_source) / 1e6,
        "from_bytecode_ms": statistics.median(from_bytecode) / 1e6,
        "from_source_runs_ms": [t / 1e6 for t in from_source],
        "from_bytecode_runs_ms": [t / 1e6 for t in from_bytecode],
    }


def _runs_within(measure_once: Callable[[], int], runs: int, budget_ns: int) -> list[int]:
    """Up to `runs` self-timed measurements, fewer once `budget_ns` is spent (at least one):
    a 3 MB schema may take minutes to compile and format, and its module seconds to import."""
    times: list[int] = []
    while len(times) < runs and sum(times) < budget_ns:
        times.append(measure_once())
    return times


def peak_memory_bytes(is_valid: Callable[[Any], bool], instance: Any) -> int:
    """tracemalloc's peak over one call: what the call allocates on the Python heap at most.
    (A native extension's own heap, such as jsonschema-rs's Rust allocations, is not seen.)"""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        is_valid(instance)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def module_bytes(source: str) -> int:
    return len(source.encode("utf-8"))
