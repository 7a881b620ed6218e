"""The run-time side of memoization, copied into a module whose schema can apply one subschema
more than once to one instance value (doubling.py; emit/memo.py names what is copied).

Each such subschema's functions are wrapped: within one validation call, the wrapper evaluates
the subschema once per (value, dynamic scope) and hands the same answer to every later
application, so the work is bounded by (subschemas x instance values) whatever the schema. The
table lives in a thread-local slot for the length of one call: the public function called
(is_valid, errors...) creates it and drops it on the way out, so modules stay thread-safe and
re-entrant, and each entry holds its value, so the value's identity cannot be reused while the
table lives. (A wrapper that finds no table, called other than through them, owns one itself.)

The error path keeps, per (subschema, value, absolute location), the first MAX_ERRORS errors with
locations relative to the value and the exact count of all of them; each application replays them
below its own locations. The list errors() returns is cut at MAX_ERRORS (a module variable), and
its last entry then says how many errors were left out.

A reference loop that consumes nothing (draft profiles compile it, with a warning) is met as a
re-entry of a subschema on the value it is being evaluated on: ReferenceLoopError is raised, a
ValidationError naming the loop's place, never a hang or a RecursionError.
"""

from __future__ import annotations

from _thread import _local
from typing import Any, Callable

from .primitives import ValidationError, _thaw

# What the copied functions need from the standard library, as the module must import it.
PRELUDE_IMPORTS = {
    "_local": "from _thread import _local",
    "Callable": "from typing import Callable",
}


MAX_ERRORS = 1000
# The most nested errors (the context of anyOf, oneOf, contains errors) one application of a
# memoized subschema copies: each level of a doubling holds its alternatives' errors in full.
_MEMO_CONTEXT = 100
# The table of the call running in this thread (None between calls): a thread-local slot whose
# class gives it None before the thread's first call.
_MEMO_TEXT = '_MEMO: Any = type("_MemoState", (_local,), {"table": None})()'
_MEMO: Any = type("_MemoState", (_local,), {"table": None})()


class ReferenceLoopError(ValidationError):
    """Validation reached a loop of references that consumes none of the instance (the schema
    would apply itself to this value for ever): raised by is_valid, errors and validate."""


def _memo_loop(where: str, ip: str, kp: str) -> Any:
    message = (
        "the schema's references at "
        + (where or "the root")
        + " loop back to the same subschema without consuming any of the instance, so this "
        "value can never be validated"
    )
    return ReferenceLoopError(message, ip, kp, None, "$ref", {"subschema": where})


def _memo_owned(run: Any, args: Any) -> Any:
    """run(*args) with a fresh table: the public function called (is_valid, errors...) owns it,
    and puts back the table of the call it was made from, if any (a custom format checker that
    validates: each call gets its own answers). One thread-local read and two writes: this runs
    once per validated value."""
    state = _MEMO
    outer = state.table
    state.table = {}
    try:
        return run(*args)
    finally:
        state.table = outer


def _memo_extra(table: dict[Any, Any]) -> Any:
    """What the table's call holds besides answers, made on first use (under the key None, which
    no answer's key is): the (function, id) pairs being evaluated (a re-entry is a reference
    loop) and `dropped`: id(list) -> [the list, how many errors replays left out of it] (the
    list is held so that its id is not reused while the table lives)."""
    extra = table.get(None)
    if extra is None:
        extra = table[None] = (set(), {})
    return extra


def _memo_fast(
    function: Callable[..., bool], where: str, loops: bool = True, scoped: bool = True
) -> Callable[..., bool]:
    """A fast-path function evaluated once per value and dynamic scope (typed, so a function that
    returns its answer is checked as returning a bool)."""
    memoized: Callable[..., bool] = _memo_once(function, where, loops, scoped)
    return memoized


def _memo_once(function: Any, where: str, loops: bool = True, scoped: bool = True) -> Any:
    """A fast-path or annotation function evaluated once per value and dynamic scope. `loops`:
    whether the schema has a reference loop that consumes nothing, to be met as a re-entry (in a
    schema without one no function re-enters on its own value: the wrapper need not watch, and
    is cheaper on the valid path). `scoped`: whether the functions take a dynamic scope (only
    with dynamic references); without one and without loops, the wrapper takes the value alone."""

    if not loops:
        return _memo_lean(function, scoped)

    def memoized(x: Any, *scope: Any) -> Any:
        table = _MEMO.table
        if table is None:
            return _memo_owned(memoized, (x, *scope))
        key = (function, id(x), scope)
        found = table.get(key)
        if found is not None:
            return found[1]
        busy = (function, id(x))
        active = _memo_extra(table)[0]
        if busy in active:
            raise _memo_loop(where, "", where)
        active.add(busy)
        try:
            result = function(x, *scope)
        finally:
            active.discard(busy)
        table[key] = (x, result)
        return result

    return memoized


def _memo_lean(function: Any, scoped: bool = True) -> Any:
    """_memo_once where no reference loop can be met."""

    def memoized(x: Any, *scope: Any) -> Any:
        table = _MEMO.table
        if table is None:
            return _memo_owned(memoized, (x, *scope))
        key = (function, id(x), scope)
        found = table.get(key)
        if found is not None:
            return found[1]
        result = function(x, *scope)
        table[key] = (x, result)
        return result

    def unscoped(x: Any) -> Any:  # (the same, without the varargs: most modules)
        table = _MEMO.table
        if table is None:
            return _memo_owned(unscoped, (x,))
        key = (function, id(x))
        found = table.get(key)
        if found is not None:
            return found[1]
        result = function(x)
        table[key] = (x, result)
        return result

    return memoized if scoped else unscoped


def _memo_rebased(error: Any, ip: str, kp: str, room: list[int]) -> Any:
    """A copy of an error recorded relative to a value, below the locations ip and kp, with as
    much of its context (nested errors) as room[0] more error objects allow, the shallowest
    first (breadth first: no alternative is left out for a deeper one)."""
    top = _memo_moved(error, ip, kp)
    pending = [(error, top)]
    for original, copy in pending:  # (the list grows as it is read)
        for inner in original.context:
            if room[0] <= 0:
                return top
            room[0] -= 1
            moved = _memo_moved(inner, ip, kp)
            copy.context.append(moved)
            pending.append((inner, moved))
    return top


def _memo_moved(error: Any, ip: str, kp: str) -> Any:
    """A copy of one error below ip and kp, with an empty context."""
    copy = type(error)(
        error.message,
        ip + error.instance_location,
        kp + error.keyword_location,
        error.absolute_keyword_location,
        error.keyword,
        _thaw(error.params),
        error.instance,
        [],
    )
    copy.branch = error.branch
    copy._matches = error._matches
    return copy


def _memo_errors(function: Any, where: str) -> Any:
    """An error-path function evaluated once per value, absolute location and dynamic scope."""

    def memoized(x: Any, ip: str, kp: str, out: list[Any], ak: Any, *scope: Any) -> None:
        table = _MEMO.table
        if table is None:
            _memo_owned(_memo_errors_owner, (memoized, x, ip, kp, out, ak, scope))
            return
        limit = max(1, MAX_ERRORS)
        key = (function, id(x), ak, scope)
        found = table.get(key)
        active, dropped = _memo_extra(table)
        if found is None:
            busy = (function, id(x))
            if busy in active:
                raise _memo_loop(where, ip, kp)
            active.add(busy)
            errors: list[Any] = []
            try:
                function(x, "", "", errors, ak, *scope)
            finally:
                active.discard(busy)
            slot = dropped.pop(id(errors), None)
            total = len(errors) + (slot[1] if slot is not None else 0)
            found = table[key] = (x, errors[:limit], total)
        # at most _MEMO_CONTEXT nested errors per application: an anyOf's context holds its
        # alternatives' errors, which hold theirs, and so on down a doubling
        room = [_MEMO_CONTEXT]
        kept = found[1][: max(0, limit - len(out))]
        out.extend([_memo_rebased(error, ip, kp, room) for error in kept])
        if found[2] > len(kept):  # (counted against this list only: not a context's)
            slot = dropped.get(id(out))
            if slot is None:
                dropped[id(out)] = [out, found[2] - len(kept)]
            else:
                slot[1] += found[2] - len(kept)

    return memoized


def _memo_errors_owner(
    memoized: Any, x: Any, ip: str, kp: str, out: list[Any], ak: Any, scope: Any
) -> None:
    """The outermost error-path call: the list cut at MAX_ERRORS, the last entry saying how many
    errors were left out."""
    start = len(out)
    memoized(x, ip, kp, out, ak, *scope)
    limit = max(1, MAX_ERRORS)
    slot = _memo_extra(_MEMO.table)[1].pop(id(out), None)
    left_out = (slot[1] if slot is not None else 0) + max(0, len(out) - start - limit)
    if left_out:
        del out[start + limit :]
        out.append(
            ValidationError(
                f"{left_out} more errors were left out (errors() lists at most MAX_ERRORS = "
                f"{limit} of them)",
                ip,
                kp,
                None,
                "maxErrors",
                {"left_out": left_out, "max_errors": limit},
                x,
            )
        )


DEPENDS = {
    "_memo_loop": ("ReferenceLoopError",),
    "ReferenceLoopError": (),
    "_memo_owned": ("_MEMO",),
    "_memo_extra": (),
    "_memo_fast": ("_memo_once", "Callable"),
    "_memo_once": ("_MEMO", "_memo_owned", "_memo_loop", "_memo_lean", "_memo_extra"),
    "_memo_lean": ("_MEMO", "_memo_owned"),
    "_memo_rebased": ("_memo_moved",),
    "_memo_moved": ("_thaw",),
    "_memo_errors": (
        "_MEMO",
        "MAX_ERRORS",
        "_memo_owned",
        "_memo_loop",
        "_memo_rebased",
        "_MEMO_CONTEXT",
        "_memo_errors_owner",
        "_memo_extra",
    ),
    "_memo_errors_owner": ("_MEMO", "MAX_ERRORS", "_memo_extra"),
    "_MEMO": ("_local",),
}

CONSTANTS = {
    "MAX_ERRORS": "MAX_ERRORS = 1000  # the most errors errors() lists (docs/errors.md)",
    "_MEMO": _MEMO_TEXT,
    "_MEMO_CONTEXT": f"_MEMO_CONTEXT = {_MEMO_CONTEXT}",
}
