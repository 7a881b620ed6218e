"""The units of work: a whole JSON or YAML file, a byte range of a JSON Lines file, or a block of
standard input. Tasks are small and picklable, so the same ones run in this process, in worker
processes (--jobs) or on a Dask cluster (--dask), and the results are the same in each.

A byte range [start, end) holds the lines that begin in it: a worker skips the end of a line begun
before `start` and finishes the line it is in at `end`. Line numbers in a range's results are
relative to its first line and made absolute, in input order, by whoever merges them (each result
says how many lines its range held).
"""

from __future__ import annotations

import io
import os
import stat
import sys
from dataclasses import dataclass
from typing import BinaryIO, Iterator, Sequence

from .discover import STDIN, DataFile

# Bytes of JSON Lines per task: large enough that a task's overhead is small, small enough that
# the work spreads over the workers and memory stays bounded.
CHUNK_BYTES = 1 << 20
DASK_CHUNK_BYTES = 16 << 20


@dataclass(frozen=True)
class Task:
    """One unit of work on the data file numbered `file`: the whole file, the byte range
    [start, end) of it (end None: to its end), or `data` itself (standard input: its range
    [start, end) says where `data` was in the input)."""

    file: int
    path: str
    format: str
    first: bool  # the file's first task (a byte-order mark may open it)
    last: bool  # the file's last task (its summary can be reported after it)
    size: int  # bytes it covers, for the progress bar
    start: int = 0
    end: int | None = None
    data: bytes | None = None
    problem: str | None = None  # the file cannot be read, and why (found before reading it)
    regular: bool = False  # found a regular file (a named FIFO is read as it comes)

    def read(self) -> bytes:
        """The bytes of this task (OSError when the file cannot be read, or is no longer the
        regular file it was found as: a FIFO put in its place would block the open forever)."""
        if self.data is not None:
            return self.data
        if not self.regular:
            handle = open(self.path, "rb")
        else:
            flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
            descriptor = os.open(self.path, flags)
            try:
                if not stat.S_ISREG(os.fstat(descriptor).st_mode):
                    raise OSError("no longer a regular file")
            except OSError:
                os.close(descriptor)
                raise
            handle = open(descriptor, "rb")
        with handle:
            if self.start == 0 and self.end is None:
                return handle.read()
            return _read_range(handle, self.start, self.end)


def _read_range(handle: BinaryIO, start: int, end: int | None) -> bytes:
    """The lines that begin in [start, end)."""
    if start > 0:
        handle.seek(start - 1)
        if handle.read(1) != b"\n" and not _skip_past_newline(handle, end):
            return b""  # no line begins in the range: it is inside one begun before
    begin = handle.tell()
    if end is None:
        return handle.read()
    if begin >= end:
        return b""
    data = handle.read(end - begin)
    if data and not data.endswith(b"\n"):
        data += handle.readline()
    return data


_SKIP_BLOCK = 1 << 16


def _skip_past_newline(handle: BinaryIO, end: int | None) -> bool:
    """Move past the rest of a line begun before the range, looking no further than `end`: False
    when the line goes on past it. (readline() would read the whole line, however long, in every
    range it crosses: a file of one huge line took each range a read of the rest of the file.)"""
    while end is None or handle.tell() < end:
        at = handle.tell()
        block = handle.read(_SKIP_BLOCK if end is None else min(_SKIP_BLOCK, end - at))
        if not block:
            return False
        newline = block.find(b"\n")
        if newline >= 0:
            handle.seek(at + newline + 1)
            return True
    return False


def plan(files: Sequence[DataFile], chunk_bytes: int = CHUNK_BYTES) -> Iterator[Task]:
    """Every task, in input order: JSON Lines files cut into ranges of about `chunk_bytes`,
    standard input read as it comes, other files whole."""
    for number, data in enumerate(files):
        if data.problem is not None:
            yield Task(
                number, data.path, data.format, first=True, last=True, size=0, problem=data.problem
            )
        elif data.path == STDIN:
            yield from _stdin_tasks(number, data.format, chunk_bytes)
        elif data.format == "jsonl" and data.size is not None and data.size > chunk_bytes:
            starts = range(0, data.size, chunk_bytes)
            for start in starts:
                last = start + chunk_bytes >= data.size
                yield Task(
                    number,
                    data.path,
                    data.format,
                    first=start == 0,
                    last=last,
                    size=min(chunk_bytes, data.size - start),
                    start=start,
                    end=None if last else start + chunk_bytes,
                    regular=True,
                )
        else:
            yield Task(
                number,
                data.path,
                data.format,
                first=True,
                last=True,
                size=data.size or 0,
                regular=data.size is not None,
            )


def _stdin_tasks(number: int, format: str, chunk_bytes: int) -> Iterator[Task]:
    """Standard input: JSON Lines in blocks of whole lines as they arrive, else all of it. A read
    that fails (a descriptor open for writing only, a device error) ends it with a task that
    says why, after the whole lines read before."""
    stream: io.BufferedReader = sys.stdin.buffer  # type: ignore[assignment]  # read1: not on BinaryIO
    if format != "jsonl":
        try:
            data = stream.read()
        except OSError as exc:
            yield Task(
                number, STDIN, format, first=True, last=True, size=0, problem=_cannot_read(exc)
            )
            return
        yield Task(number, STDIN, format, first=True, last=True, size=len(data), data=data)
        return
    first = True
    blocks: list[bytes] = []  # read since the last task
    held = 0  # their bytes
    cut = 0  # the end of the last newline among them (0: none)
    offset = 0  # where they begin in the input (a task's byte range names it in a report)
    while True:
        try:
            block = stream.read1(chunk_bytes)
        except OSError as exc:
            if cut:
                yield Task(
                    number,
                    STDIN,
                    format,
                    first=first,
                    last=False,
                    size=cut,
                    start=offset,
                    end=offset + cut,
                    data=b"".join(blocks)[:cut],
                )
            yield Task(
                number,
                STDIN,
                format,
                first=first and not cut,
                last=True,
                size=0,
                problem=_cannot_read(exc),
            )
            return
        if not block:
            break
        # each block is searched once and joined once or twice: time linear in the input, however
        # long its lines (a carry grown by `+=` and searched whole at every read was quadratic)
        newline = block.rfind(b"\n")
        if newline >= 0:
            cut = held + newline + 1
        blocks.append(block)
        held += len(block)
        if cut and held >= chunk_bytes // 4:
            data = b"".join(blocks)
            yield Task(
                number,
                STDIN,
                format,
                first=first,
                last=False,
                size=cut,
                start=offset,
                end=offset + cut,
                data=data[:cut],
            )
            rest = data[cut:]  # the start of a line: no newline in it
            offset += cut
            blocks, held, cut, first = [rest] if rest else [], len(rest), 0, False
    data = b"".join(blocks)
    yield Task(
        number, STDIN, format, first=first, last=True, size=len(data), start=offset, data=data
    )


def _cannot_read(exc: OSError) -> str:
    return f"cannot read: {exc.strerror or exc}"
