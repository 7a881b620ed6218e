"""Per-call medians with adaptive repetition (timeit's autorange, then repeats; take the median).

The garbage collector is off while timing, as timeit does, so a collection triggered by one
implementation's garbage is not billed to whichever call happens to run next.
"""

from __future__ import annotations

import gc
import itertools
import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class TimingSettings:
    repeats: int  # samples per measurement; the median of them is reported
    target_ns: int  # a sample runs enough calls to last at least this long
    slow_call_ns: int  # a single call longer than this...
    slow_repeats: int  # ...gets only this many samples (minutes per case otherwise)


FULL = TimingSettings(repeats=7, target_ns=50_000_000, slow_call_ns=1_000_000_000, slow_repeats=3)
QUICK = TimingSettings(repeats=3, target_ns=1_000_000, slow_call_ns=100_000_000, slow_repeats=1)


@dataclass(frozen=True)
class Timing:
    median_ns: float  # per call
    samples_ns: list[float]  # per call, one per sample
    loops: int  # calls per sample

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _time_loops(call: Callable[[Any], Any], argument: Any, loops: int) -> int:
    """Nanoseconds for `loops` calls (itertools.repeat: the cheapest Python loop, as timeit)."""
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.perf_counter_ns()
        for _ in itertools.repeat(None, loops):
            call(argument)
        return time.perf_counter_ns() - start
    finally:
        if gc_was_enabled:
            gc.enable()


def _autorange(call: Callable[[Any], Any], argument: Any, target_ns: int) -> tuple[int, int]:
    """(loops, elapsed ns) for the first loop count in 1, 2, 5, 10, 20, 50, ... reaching target_ns."""
    for exponent in itertools.count():
        for factor in (1, 2, 5):
            loops = factor * 10**exponent
            elapsed = _time_loops(call, argument, loops)
            if elapsed >= target_ns:
                return loops, elapsed
    raise AssertionError("unreachable")


def measure(call: Callable[[Any], Any], argument: Any, settings: TimingSettings) -> Timing:
    loops, first_elapsed = _autorange(call, argument, settings.target_ns)
    one_call_ns = first_elapsed / loops
    repeats = settings.slow_repeats if one_call_ns > settings.slow_call_ns else settings.repeats
    # The autorange sample is a real sample: for a 10-second call, throwing it away costs 10 s.
    samples = [first_elapsed / loops]
    samples += [_time_loops(call, argument, loops) / loops for _ in range(repeats - 1)]
    return Timing(median_ns=statistics.median(samples), samples_ns=samples, loops=loops)


def loop_overhead_ns(settings: TimingSettings) -> float:
    """The per-call cost of the timing loop and a trivial call, included in every figure."""
    return measure(_nothing, None, settings).median_ns


def _nothing(argument: Any) -> None:
    return None
