"""Running a call with a hang guard: in a forked child process with an address-space limit, its
result sent back through a pipe, the child killed if it has not answered within a generous time.
A hang or a runaway allocation fails the test that asked instead of stalling the suite (a call
stuck inside C code, like int() of a billion-digit Decimal, cannot be interrupted in-process)."""

from __future__ import annotations

import multiprocessing
import os
import resource
import traceback
from dataclasses import dataclass
from typing import Any, Callable

# Generous: a hang guard, not a timing assertion.
SECONDS = 60.0
# Memory the call may allocate on top of what the process already has mapped.
EXTRA_BYTES = 1 << 30


@dataclass
class Outcome:
    """What the call did: returned `value`, or raised an exception of `kind` (its str, and its
    code and pointer when it is a StraightlineError)."""

    value: Any = None
    kind: str | None = None
    message: str = ""
    code: str | None = None
    pointer: str | None = None
    trace: str = ""


def _mapped_bytes() -> int:
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


def _child(
    connection: Any, function: Callable[..., Any], args: tuple[Any, ...], extra: int
) -> None:
    limit = _mapped_bytes() + extra
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    try:
        outcome = Outcome(value=function(*args))
    except BaseException as exc:  # reported to the parent, which decides
        outcome = Outcome(
            kind=type(exc).__name__,
            message=str(exc),
            code=getattr(exc, "code", None),
            pointer=getattr(exc, "pointer", None),
            trace=traceback.format_exc(),
        )
    try:
        connection.send(outcome)
    except Exception as exc:  # an unpicklable value
        connection.send(Outcome(kind="UnpicklableResult", message=repr(exc)))
    connection.close()


def bounded(
    function: Callable[..., Any],
    *args: Any,
    seconds: float = SECONDS,
    extra_bytes: int = EXTRA_BYTES,
) -> Outcome:
    """function(*args) in a forked child: its Outcome; AssertionError if it hangs or dies."""
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(sender, function, args, extra_bytes))
    process.start()
    sender.close()
    try:
        if not receiver.poll(seconds):
            raise AssertionError(
                f"{getattr(function, '__name__', function)}{args!r:.200}: no answer "
                f"within {seconds} s (a hang)"
            )
        try:
            return receiver.recv()  # type: ignore[no-any-return]
        except EOFError:
            raise AssertionError(
                f"{getattr(function, '__name__', function)}{args!r:.200}: the child "
                f"died (exit code {process.exitcode}): out of memory?"
            ) from None
    finally:
        if process.is_alive():
            process.kill()
        process.join()
        receiver.close()
