"""How the CLI reports: one printable line per message, a failure as FILE:POINTER, warnings once.
Which module a source becomes and how it is written are library code (generator/files.py)."""

from __future__ import annotations

import contextlib
import os
import sys
import warnings
from typing import Any, Iterator, TextIO

from ..errors import StraightlineError
from ..report import failure_lines
from ..safe_text import escape


def printable(text: str) -> str:
    """`text` safe to print as part of one line: each control, format, separator, private-use,
    unassigned or surrogate character and each variation selector is written as its Python escape
    (`\\n`, `\\x1b`, `\\u2028`, `\\udc80`), so a property name or a file name can never forge or
    hide a line of the command's output (the rule: generator/safe_text.py, as validate prints)."""
    return escape(text)


class OutputLost(Exception):
    """Standard output refused a line (a full disk, a device error), so the command's report is
    incomplete. A reader gone away (`| head`) stays a BrokenPipeError."""


_STDOUT: Any = object()  # say()'s default stream: a closed stderr (None) is not stdout


def say(text: str, stream: TextIO | None = _STDOUT) -> None:
    """Print one line of the command's output (stdout unless `stream`), made printable. Nothing
    when `stream` is a closed standard error (None); OutputLost when standard output is closed or
    cannot take the line."""
    if stream is not _STDOUT:
        if stream is not None:
            print(printable(text), file=stream)
        return
    if sys.stdout is None:  # started with it closed (`>&-`)
        raise OutputLost("standard output is closed")
    try:
        print(printable(text), file=sys.stdout)
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputLost(exc.strerror or str(exc)) from None


def drop_output() -> None:
    """Point standard output at /dev/null, so Python's own flush at exit does not fail again and
    print a traceback of its own (after a full or closed standard output, or a reader gone)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # closed (None), or a stream with no descriptor
        pass


def report(path: str, error: StraightlineError) -> None:
    """`FILE:POINTER: message [code]` on standard error, a line for each problem a SchemaError
    lists (every unresolvable reference of a schema, say): generator/report.py."""
    for line in failure_lines(path, error):
        say(line, sys.stderr)


@contextlib.contextmanager
def warnings_reported() -> Iterator[None]:
    """Inside: each distinct RegistryWarning is printed once, as `straightline: warning: ...`
    (a registry directory is read again for each source; its warnings are said once)."""
    from ..resolve import RegistryWarning

    said: set[str] = set()

    def show(
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: TextIO | None = None,
        line: str | None = None,
    ) -> None:
        text = str(message)
        if text not in said:
            said.add(text)
            say(f"straightline: warning: {text}", sys.stderr)

    with warnings.catch_warnings():
        warnings.simplefilter("always", RegistryWarning)
        warnings.showwarning = show
        yield
