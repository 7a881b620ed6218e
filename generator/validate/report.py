"""What `straightline validate` prints: results merged in input order (absolute line numbers, per
file counts) and written by a reporter, as text lines or as one JSON document.

Text: one line per error, `FILE[:LINE]:POINTER: message` (POINTER is the instance location, the
root shown as `(root)`), a record's best match (the module's best_match, where it has one) first:
from inside a failed anyOf/oneOf it names the likely cause, which the record's own errors may not;
one line per unreadable file or record, `FILE[:LINE[:COLUMN]]: problem`, and a summary line. Control characters (and lone surrogates, bidirectional and other invisible
format characters, variation selectors: generator/safe_text.py) are printed escaped, so data can
never forge or hide an output line.

JSON (`json`, `basic`, `detailed`, `verbose`): one document, written as the results arrive:
`{"records": [...], "files": [...], "summary": {...}, "valid": bool}`. `records` lists each
record that is invalid (its `errors` and `best_match`, or its `output` for the output formats) or
unreadable (its `problem`); valid records are counted, not listed. ASCII only (\\u escapes), so it
is safe too.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Callable, Sequence

from ..safe_text import escape  # every character that could break or hide an output line
from .discover import DataFile
from .runner import Failure, TaskResult
from .tasks import Task



def dumps(value: Any, indent: int | None = None) -> str:
    """JSON text, ASCII only, Decimal numbers written exactly (json.dumps would fail on them)."""
    try:
        return json.dumps(value, ensure_ascii=True, allow_nan=False, indent=indent)
    except (TypeError, ValueError):
        pass
    token = uuid.uuid4().hex
    numbers: dict[str, str] = {}

    def plain(node: Any) -> Any:
        if isinstance(node, Decimal) and node.is_finite():
            marker = f"{token}:{len(numbers)}"
            numbers[json.dumps(marker)] = str(node)
            return marker
        if isinstance(node, dict):
            return {str(key): plain(item) for key, item in node.items()}
        if isinstance(node, (list, tuple)):
            return [plain(item) for item in node]
        if node is None or isinstance(node, (str, int, bool)):
            return node
        if isinstance(node, float) and node == node and node not in (float("inf"), float("-inf")):
            return node
        return repr(node)  # no JSON counterpart: shown, not lost

    text = json.dumps(plain(value), ensure_ascii=True, indent=indent)
    for marker, digits in numbers.items():
        text = text.replace(marker, digits)
    return text


@dataclass
class Counts:
    """Records of one file, or of the whole run."""

    records: int = 0
    invalid: int = 0
    unreadable: int = 0

    @property
    def valid(self) -> int:
        return self.records - self.invalid

    @property
    def ok(self) -> bool:
        return self.invalid == 0 and self.unreadable == 0

    def add(self, result: TaskResult | "Counts") -> None:
        self.records += result.records
        self.invalid += result.invalid
        self.unreadable += result.unreadable


Write = Callable[[str], object]


class Reporter:
    """Receives failures with absolute line numbers, each file's counts after its last task, and
    the totals at the end."""

    def __init__(self, write: Write) -> None:
        self.write = write

    def start(self) -> None:
        pass

    def failures(self, data: DataFile, failures: Sequence[Failure]) -> None:
        raise NotImplementedError

    def file_done(self, data: DataFile, counts: Counts) -> None:
        pass

    def finish(self, totals: Counts, files: int) -> None:
        raise NotImplementedError


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def summary_line(totals: Counts, files: int) -> str:
    return (f"{_plural(totals.records, 'record')} in {_plural(files, 'file')}: {totals.valid} valid, "
            f"{totals.invalid} invalid, {totals.unreadable} unreadable")


class TextReporter(Reporter):
    def failures(self, data: DataFile, failures: Sequence[Failure]) -> None:
        name = escape(data.display)
        lines: list[str] = []
        for failure in failures:
            where = name if failure.line is None else f"{name}:{failure.line}"
            if failure.problem is not None:
                column = f":{failure.column}" if failure.column is not None else ""
                lines.append(f"{where}{column}: {escape(failure.problem)}\n")
            elif not failure.errors:
                lines.append(f"{where}:(root): invalid (the module reported no error)\n")
            else:
                lines += [_error_line(where, error) for error in _best_first(failure.errors, failure.best_match)]
        self.write("".join(lines))

    def finish(self, totals: Counts, files: int) -> None:
        self.write(summary_line(totals, files) + "\n")


def _best_first(errors: list[dict[str, Any]], best: dict[str, Any] | None) -> list[dict[str, Any]]:
    """A record's errors with its best match first (once: it may be one of them, or come from the
    context of one)."""
    if best is None:
        return errors
    rest = list(errors)
    if best in rest:
        rest.remove(best)
    return [best, *rest]


def _error_line(where: str, error: dict[str, Any]) -> str:
    pointer = escape(error["instance_location"]) or "(root)"
    return f"{where}:{pointer}: {escape(error['message'])}\n"


class JsonReporter(Reporter):
    """The JSON document, streamed: records as they come, then files, summary and verdict."""

    def __init__(self, write: Write) -> None:
        super().__init__(write)
        self.files: list[dict[str, Any]] = []
        self.listed = 0

    def start(self) -> None:
        self.write('{"records": [')

    def failures(self, data: DataFile, failures: Sequence[Failure]) -> None:
        parts = []
        for failure in failures:
            parts.append(("\n  " if self.listed == 0 else ",\n  ") + dumps(_record(data, failure)))
            self.listed += 1
        self.write("".join(parts))

    def file_done(self, data: DataFile, counts: Counts) -> None:
        self.files.append({"file": data.display, "format": data.format, "valid": counts.ok,
                           "records": counts.records, "invalid_records": counts.invalid,
                           "unreadable": counts.unreadable})

    def finish(self, totals: Counts, files: int) -> None:
        summary = {"files": files, "records": totals.records, "valid_records": totals.valid,
                   "invalid_records": totals.invalid, "unreadable": totals.unreadable}
        listed_files = "".join(("\n  " if i == 0 else ",\n  ") + dumps(f) for i, f in enumerate(self.files))
        self.write(("\n ]" if self.listed else "]") + ',\n "files": [' + listed_files
                   + ("\n ]" if self.files else "]") + f',\n "summary": {dumps(summary)},\n'
                   + f' "valid": {dumps(totals.ok)}}}\n')


def _record(data: DataFile, failure: Failure) -> dict[str, Any]:
    entry: dict[str, Any] = {"file": data.display, "line": failure.line}
    if failure.problem is not None:
        entry.update(column=failure.column, status="unreadable", problem=failure.problem)
    elif failure.output is not None:
        entry.update(status="invalid", output=failure.output)
    else:
        entry.update(status="invalid", errors=failure.errors or [])
        if failure.best_match is not None:
            entry["best_match"] = failure.best_match
    return entry


class Merger:
    """Turns (task, result) pairs, in input order, into reporter calls: line numbers made absolute
    per file, per-file counts, and the totals."""

    def __init__(self, files: Sequence[DataFile], reporter: Reporter) -> None:
        self.files = files
        self.reporter = reporter
        self.totals = Counts()
        self.file_counts = Counts()
        self.line_base = 0
        reporter.start()

    def add(self, task: Task, result: TaskResult) -> None:
        data = self.files[task.file]
        if task.first:
            self.file_counts, self.line_base = Counts(), 0
        if result.failures:
            if self.line_base:
                for failure in result.failures:
                    if failure.line is not None:
                        failure.line += self.line_base
            self.reporter.failures(data, result.failures)
        self.line_base += result.lines
        self.file_counts.add(result)
        self.totals.add(result)
        if task.last:
            self.reporter.file_done(data, self.file_counts)

    def finish(self) -> Counts:
        self.reporter.finish(self.totals, len(self.files))
        return self.totals
