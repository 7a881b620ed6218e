"""The cyclic garbage collector held off while a compile runs.

A compile builds millions of small objects that all live until it ends (the loaded schema, IR
nodes, code trees, their texts) and makes almost no cyclic garbage; CPython's collector, triggered
by allocation counts, walks those live objects again and again for nothing (a large share of a
large schema's compile: docs/performance.md, "Compile speed"). `paused()` disables it for the
compile and restores it after, as it was when the outermost compile began (compiles in several
threads share one process-wide switch: the last one to finish turns it back on). Whatever cyclic
garbage a compile makes is collected by the next collection after it.
"""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterator

_LOCK = threading.Lock()
_depth = 0  # compiles running with the collector held off
_was_enabled = False  # the collector's state when the outermost of them began


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """Run the body with the cyclic collector disabled (reentrant and thread-safe)."""
    global _depth, _was_enabled
    with _LOCK:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _LOCK:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.enable()
