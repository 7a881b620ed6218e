"""Stage 1, load: JSON text or bytes to a Python value, exactly.

Integers of up to 4000 characters are `int`; longer ones are exact `Decimal`s (converting that
many digits to an int takes time quadratic in their number: a megabyte literal would take
minutes; primitives.py compares a huge Decimal and an int exactly). A decimal literal becomes a `float` only when the float's shortest repr is the
same number (so 0.1 is 0.1), otherwise a `Decimal` that keeps every digit. Duplicate keys, NaN and
Infinity, bad encodings and sources over the size limit are rejected with a SchemaError.
"""

from __future__ import annotations

import errno
import json
import math
import os
import stat
from decimal import Decimal
from typing import Any, Callable

from .errors import SchemaError, join_pointer
from .values import dumps_exact


class _Duplicate(dict[str, Any]):
    """Stands in for an object that had a duplicate key, so its pointer can be found afterwards."""

    def __init__(self, pairs: list[tuple[str, Any]], key: str) -> None:
        super().__init__(pairs)
        self.duplicate_key = key


def _parse_float(text: str) -> float | Decimal:
    exact = Decimal(text)
    as_float = float(text)
    if math.isfinite(as_float) and Decimal(repr(as_float)) == exact:
        return as_float
    return exact


def _parse_int(text: str) -> int | Decimal:
    # Python refuses int() of more than 4300 digits (a DoS guard, as the conversion is quadratic);
    # Decimal reads any length in linear time and keeps every digit.
    return int(text) if len(text) <= 4000 else Decimal(text)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def _find_duplicate(value: Any) -> tuple[str, str]:
    """Pointer and key of the first object (in document order) that had a duplicate key (there is
    one: pairs_hook made it, and an object holding it that lost it to a duplicate key is one)."""
    stack: list[tuple[str, Any]] = [("", value)]
    while True:
        pointer, node = stack.pop()
        if isinstance(node, _Duplicate):
            return pointer, node.duplicate_key
        if isinstance(node, dict):
            children = [(join_pointer(pointer, k), v) for k, v in node.items()]
        elif isinstance(node, list):
            children = [(join_pointer(pointer, i), v) for i, v in enumerate(node)]
        else:
            continue
        stack.extend(reversed(children))


def load_json(source: str | bytes, *, max_bytes: int | None = None, what: str = "schema") -> Any:
    """Parse JSON exactly. `max_bytes` bounds the UTF-8 size of the source."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        raw = bytes(source)
        if max_bytes is not None and len(raw) > max_bytes:
            raise SchemaError(
                f"the {what} source is {len(raw)} bytes, over the limit of {max_bytes} bytes",
                code="limit-exceeded",
            )
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = raw.count(b"\n", 0, exc.start) + 1
            column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
            raise SchemaError(
                f"the {what} source is not UTF-8: invalid byte at line {line} column {column}",
                code="bad-json",
            ) from None
    else:
        text = source
        if max_bytes is not None:
            size = len(text.encode("utf-8", "surrogatepass"))
            if size > max_bytes:
                raise SchemaError(
                    f"the {what} source is {size} bytes, over the limit of {max_bytes} bytes",
                    code="limit-exceeded",
                )
    found_duplicate = False

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal found_duplicate
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                found_duplicate = True
                return _Duplicate(pairs, key)
            seen.add(key)
        return dict(pairs)

    try:
        value = json.loads(
            text,
            object_pairs_hook=pairs_hook,
            parse_float=_parse_float,
            parse_int=_parse_int,
            parse_constant=_reject_constant,
        )
    except json.JSONDecodeError as exc:
        raise SchemaError(
            f"the {what} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}",
            code="bad-json",
        ) from None
    except RecursionError:
        raise SchemaError(
            f"the {what} is nested too deeply to parse", code="limit-exceeded"
        ) from None
    except ValueError as exc:  # NaN/Infinity, or an integer literal over Python's digit limit
        raise SchemaError(f"the {what} is not valid JSON: {exc}", code="bad-json") from None
    if found_duplicate:
        pointer, key = _find_duplicate(value)
        raise SchemaError(
            f"duplicate key {key!r} in an object of the {what}", code="bad-json", pointer=pointer
        )
    return value


_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def _not_regular(mode: int) -> OSError:
    kind = next((name for test, name in _KINDS if test(mode)), "a special file")
    return OSError(errno.EINVAL, f"{kind}, not a regular file")


def read_regular(path: str | os.PathLike[str], limit: int | None = None) -> bytes:
    """Up to `limit` bytes (all when None) of a regular file; OSError for anything else.

    The file's type is checked before it is opened (opening a FIFO blocks until a writer comes,
    reading a device may never end), and again on the opened descriptor, which is opened
    non-blocking: a FIFO put in its place in between cannot block either."""
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        raise _not_regular(mode)
    flags = (
        os.O_RDONLY
        | getattr(os, "O_NONBLOCK", 0)
        | getattr(os, "O_NOCTTY", 0)
        | getattr(os, "O_CLOEXEC", 0)
    )
    descriptor = os.open(path, flags)
    with os.fdopen(descriptor, "rb") as handle:
        mode = os.fstat(handle.fileno()).st_mode
        if not stat.S_ISREG(mode):
            raise _not_regular(mode)
        return handle.read() if limit is None else _read_at_most(handle, limit)


# The most read at once under a limit: read(limit) allocates `limit` bytes first, which a large
# limit (`--max-source-bytes 10**12`) turns into a MemoryError or an OverflowError.
_READ_BLOCK = 1 << 20


def _read_at_most(handle: Any, limit: int) -> bytes:
    """Up to `limit` bytes of `handle`, in blocks: memory follows the file, not the limit."""
    blocks: list[bytes] = []
    left = limit
    while left > 0:
        block = handle.read(min(left, _READ_BLOCK))
        if not block:
            break
        blocks.append(block)
        left -= len(block)
    return b"".join(blocks)


def read_source(path: str, *, max_bytes: int | None = None) -> bytes:
    """The bytes of a contract file; an unreadable, special (directory, FIFO, device) or oversized
    file is a SchemaError naming it. Only `max_bytes + 1` bytes are ever read, so a huge file
    cannot exhaust memory, and nothing but a regular file is opened, so nothing blocks."""
    try:
        raw = read_regular(path, None if max_bytes is None else max_bytes + 1)
    except OSError as exc:
        raise SchemaError(f"cannot read {path}: {exc.strerror or exc}", code="unreadable") from None
    if max_bytes is not None and len(raw) > max_bytes:
        raise SchemaError(
            f"the file is over the source limit of {max_bytes} bytes", code="limit-exceeded"
        )
    return raw


def load_schema(
    schema: Any, limit: int | None, check_value: Callable[[Any], None]
) -> tuple[Any, bytes]:
    """A schema given as JSON text or bytes (read exactly, within `limit` bytes), or as Python
    objects (checked by `check_value`, then copied into exact built-in types): the value and the
    bytes its hash is taken over."""
    if isinstance(schema, (str, bytes, bytearray, memoryview)):
        raw = schema.encode("utf-8", "surrogatepass") if isinstance(schema, str) else bytes(schema)
        return load_json(raw, max_bytes=limit), raw
    if isinstance(schema, (dict, bool)):
        check_value(schema)
        try:
            schema = _plain(schema)
            raw = dumps_exact(schema, ensure_ascii=True, separators=(",", ":")).encode()
        except RecursionError:
            raise SchemaError("the schema is nested too deeply", code="limit-exceeded") from None
        return schema, raw
    raise SchemaError(
        f"a schema must be JSON text, bytes, an object or a boolean, not {type(schema).__name__}",
        code="not-a-schema",
    )


def _plain(value: Any) -> Any:
    """A copy of a JSON value (one check_value accepted) in the exact built-in types, read
    through the base types' own methods: subclasses in a schema given as Python objects (a str
    whose __repr__ returns code, a dict whose items() lies) never reach the compiler."""
    if value is None or value is True or value is False:
        return value
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int):
        return int.__int__(value)
    if isinstance(value, float):
        return float.__float__(value)
    if isinstance(value, Decimal):
        return Decimal(Decimal.__str__(value))
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in dict.items(value)}
    return [_plain(v) for v in list.__iter__(value)]  # (a list: check_value refused all else)
