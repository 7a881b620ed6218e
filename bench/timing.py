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


FULL = TimingSettings(repeats=15, target_ns=20_000_000, slow_call_ns=1_000_000_000, slow_repeats=3)
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


def measure_side_by_side(
    calls: dict[str, Callable[[Any], Any]], argument: Any, settings: TimingSettings
) -> dict[str, Timing]:
    """measure() for several implementations of one call, their samples taken in turns (one
    sample of each, then the next round), so that a slow spell of a shared machine falls on all
    of them alike instead of on whichever was being timed then: the ratios are what counts."""
    loops: dict[str, int] = {}
    samples: dict[str, list[float]] = {}
    wanted: dict[str, int] = {}
    for name, call in calls.items():
        loops[name], first_elapsed = _autorange(call, argument, settings.target_ns)
        samples[name] = [first_elapsed / loops[name]]
        slow = first_elapsed / loops[name] > settings.slow_call_ns
        wanted[name] = settings.slow_repeats if slow else settings.repeats
    for round_ in range(1, max(wanted.values(), default=0)):
        for name, call in calls.items():
            if round_ < wanted[name]:
                samples[name].append(_time_loops(call, argument, loops[name]) / loops[name])
    return {
        name: Timing(
            median_ns=statistics.median(samples[name]), samples_ns=samples[name], loops=loops[name]
        )
        for name in calls
    }


def loop_overhead_ns(settings: TimingSettings) -> float:
    """The per-call cost of the timing loop and a trivial call, included in every figure."""
    return measure(_nothing, None, settings).median_ns


def _nothing(argument: Any) -> None:
    return None
