"""The progress bar (tqdm, on standard error): only when standard error is a terminal, and only
once the work has lasted DELAY_SECONDS, so a quick run and piped or redirected output show none.
It counts the bytes of data done (out of the total where the sizes are known: not for standard
input), and is cleared when the work ends."""

from __future__ import annotations

import os
import sys
from typing import Any, Callable, TextIO

DELAY_SECONDS = 1.0

Write = Callable[[str], object]


def terminal(stream: TextIO) -> bool:
    """Whether `stream` is an interactive terminal a bar can be drawn on."""
    try:
        return stream.isatty() and os.environ.get("TERM") != "dumb"
    except (AttributeError, ValueError):  # a closed or replaced stream
        return False


def _width(stream: TextIO) -> dict[str, Any]:
    """Follow the terminal's width, or assume 80 columns where it reports none (a fresh
    pseudo-terminal says 0, on which tqdm would draw an empty bar)."""
    try:
        columns = os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, ValueError, OSError):
        columns = 0
    return {"dynamic_ncols": True} if columns > 0 else {"ncols": 80, "nrows": 24}


class Progress:
    """A bar over `total` bytes (None: unknown), or nothing at all when disabled."""

    def __init__(self, total: int | None, enabled: bool, stream: TextIO | None = None) -> None:
        self.bar: Any = None
        if enabled:
            from tqdm import tqdm

            stream = stream or sys.stderr
            self.bar = tqdm(
                total=total or None,
                unit="B",
                unit_scale=True,
                unit_divisor=1024,
                desc="validating",
                delay=DELAY_SECONDS,
                leave=False,
                file=stream,
                **_width(stream),
            )

    def advance(self, size: int) -> None:
        if self.bar is not None:
            self.bar.update(size)

    def writer(self, write: Write, flush: Callable[[], None]) -> Write:
        """`write`, but with the bar lifted out of the way while it writes (so output to the same
        terminal is not mixed into the bar)."""
        if self.bar is None:
            return write
        tqdm_class = type(self.bar)

        def write_around_bar(text: str) -> None:
            if text:
                with tqdm_class.external_write_mode():
                    write(text)
                    flush()

        return write_around_bar

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
