"""Which data DATA names: files as given, directories searched recursively for the --glob patterns
(by default every file whose suffix, in any case, is .json, .jsonl, .ndjson, .yaml, .yml, .toml or
.json5), `-` for standard input.

Directory walks are sorted (the same order on every run and machine), skip hidden entries (a name
starting with '.': .git, editor files) and do not follow symbolic links to directories (no loops).
A pattern without '/' matches a file's name; one with '/' matches its path relative to the
directory searched ('*' also crosses '/'). A named path that does not exist is a usage error.
Whatever a walk passes over (a file of another suffix or not matching --glob, a hidden entry, a
link to a directory) is a Skipped entry with the reason, for the command to name.

What cannot be read is never passed over in silence: a directory of the walk that cannot be
listed, and a file found there that is not a regular file (a FIFO would block the read, a device
never end it), are DataFiles with a `problem`, reported as unreadable. A named FIFO is read (a
shell's `<(command)`); a named device or socket is not.
"""

from __future__ import annotations

import fnmatch
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from ..errors import OptionError
from .readers import SUFFIX_FORMATS, format_for

STDIN = "-"


@dataclass(frozen=True)
class DataFile:
    """One data file (or standard input): where to read it, how to show it, its format and size
    in bytes (None for standard input)."""

    path: str
    display: str
    format: str
    size: int | None
    problem: str | None = None  # why it cannot be read, found before reading it


@dataclass(frozen=True)
class Skipped:
    """An entry of a directory walk that is not read, shown as found, and why."""

    display: str
    reason: str


def discover(
    operands: Sequence[str],
    globs: Sequence[str],
    forced_format: str | None,
    skipped: list[Skipped] | None = None,
) -> list[DataFile]:
    """Every data file DATA names, in command-line order (a directory's files sorted); what the
    directory walks pass over is appended to `skipped` where given."""
    patterns = tuple(globs)
    found: list[DataFile] = []
    for operand in operands:
        if operand == STDIN:
            found.append(DataFile(STDIN, "<stdin>", forced_format or "json", None))
        elif os.path.isdir(operand):
            found.extend(
                _walk(operand, patterns, forced_format, [] if skipped is None else skipped)
            )
        else:
            _must_exist(operand)
            found.append(_data_file(operand, forced_format, named=True))
    if sum(1 for data in found if data.path == STDIN) > 1:
        raise OptionError("standard input (-) can be named only once")
    return found


def _must_exist(operand: str) -> None:
    """Refuse (OptionError) a DATA path that is not there, or that cannot be looked at (a directory
    on its way that cannot be searched), saying which."""
    try:
        os.lstat(operand)
    except FileNotFoundError:
        raise OptionError(f"{operand}: no such file or directory") from None
    except OSError as exc:
        raise OptionError(f"{operand}: cannot look at it: {exc.strerror or exc}") from None


def _data_file(path: str, forced_format: str | None, *, named: bool) -> DataFile:
    """The DataFile of a file named (`named`) or found in a directory walk."""
    problem = None
    size: int | None = None
    try:
        info = os.stat(path)
    except OSError:
        pass  # reported when it is read
    else:
        if stat.S_ISREG(info.st_mode):
            size = info.st_size
        elif not (named and stat.S_ISFIFO(info.st_mode)):
            problem = f"{_kind(info.st_mode)}, not a regular file"
    # read by absolute path (a Dask worker runs elsewhere), shown as given
    return DataFile(
        os.path.abspath(path),
        path,
        format_for(os.path.basename(path), forced_format),
        size,
        problem,
    )


_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "a special file")


def _why_not(name: str, relative: str, patterns: tuple[str, ...]) -> str | None:
    """None for a file found in a directory that is data (by the patterns given, else by its
    suffix, in any case: DATA.JSON is JSON too), else why it is passed over."""
    if patterns:
        if any(fnmatch.fnmatchcase(relative if "/" in p else name, p) for p in patterns):
            return None
        return "does not match --glob " + " ".join(patterns)
    dot = name.rfind(".")
    suffix = name[dot:].lower() if dot > 0 else ""
    if suffix in SUFFIX_FORMATS:
        return None
    shown = f"suffix {name[dot:]}" if suffix else "no suffix"
    return f"not a data file by its name ({shown}; --glob and --data-format read it)"


def _walk(
    directory: str, patterns: tuple[str, ...], forced_format: str | None, skipped: list[Skipped]
) -> list[DataFile]:
    """The data files below `directory`, sorted, and a DataFile with its problem in the place of
    each directory that cannot be listed (os.walk would skip it in silence); each entry passed
    over is appended to `skipped`."""
    matched: list[DataFile] = []

    def unlisted(error: OSError) -> None:
        where = error.filename if isinstance(error.filename, str) else directory
        matched.append(
            DataFile(
                os.path.abspath(where),
                where,
                "json",
                None,
                f"cannot list the directory: {error.strerror or error}",
            )
        )

    for root, dirnames, filenames in os.walk(directory, onerror=unlisted):
        walked = []
        for name in sorted(dirnames):
            path = os.path.join(root, name)
            if name.startswith("."):
                skipped.append(Skipped(path, "hidden (a name starting with '.'), not searched"))
            elif os.path.islink(path):
                skipped.append(Skipped(path, "a symbolic link to a directory, not followed"))
            else:
                walked.append(name)
        dirnames[:] = walked
        for name in sorted(filenames):
            path = os.path.join(root, name)
            if name.startswith("."):
                skipped.append(
                    Skipped(path, "hidden (a name starting with '.'); name it to read it")
                )
                continue
            relative = Path(os.path.relpath(path, directory)).as_posix()
            reason = _why_not(name, relative, patterns)
            if reason is None:
                matched.append(_data_file(path, forced_format, named=False))
            else:
                skipped.append(Skipped(path, reason))
    return matched
