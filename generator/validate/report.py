"""What `straightline validate` prints: results merged in input order (absolute line numbers, per
file counts) and written by a reporter, as text lines or as one JSON document.

Text: a line per error of a record, `FILE[:LINE]:POINTER: message` (POINTER is the instance
location, the root shown as `(root)`), each error shown as its cause (validate/causes.py: what
the module's best_match descends to from it), the record's best match first. A cause found inside
a failed anyOf/oneOf names the alternative it lies in and where that is in the schema (`(in oneOf
alternative 1 at /funding: package.json#/definitions/fundingWay)`), or says that every alternative
fails at that member; an anyOf/oneOf whose alternatives fail alike lists the best error of each
(`; alternatives: [0] ...; [1] ...`, at most LISTED_ALTERNATIVES). A line that says what an earlier
one of the record said is left out. `-v` prints the tree instead: every error, and beneath each
anyOf/oneOf (and contains) its alternatives (items) and their errors, indented, the alternative
best_match descends into marked "the closest". Then a line per unreadable file or record,
`FILE[:LINE[:COLUMN]]: problem`, and a summary line. Control characters (and lone surrogates,
bidirectional and other invisible format characters, variation selectors:
generator/safe_text.py) are printed escaped, so data can never forge or hide an output line.

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
from .causes import Cause
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
    return (
        f"{_plural(totals.records, 'record')} in {_plural(files, 'file')}: {totals.valid} valid, "
        f"{totals.invalid} invalid, {totals.unreadable} unreadable"
    )


class TextReporter(Reporter):
    """One line per cause (see the module docstring); `verbose`: the tree of every error."""

    def __init__(self, write: Write, verbose: bool = False) -> None:
        super().__init__(write)
        self.verbose = verbose

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
                causes = failure.causes or _plain_causes(failure.errors, failure.best_match)
                if self.verbose:
                    lines += _tree_lines(where, failure.errors, causes)
                else:
                    lines += _cause_lines(where, failure.errors, causes)
        self.write("".join(lines))

    def finish(self, totals: Counts, files: int) -> None:
        self.write(summary_line(totals, files) + "\n")


# Alternatives a line lists where best_match found none of them closer than the others.
LISTED_ALTERNATIVES = 5
_REFERENCES = ("$ref", "$dynamicRef", "$recursiveRef")
_MEMBER_ERRORS = ("additionalProperties", "unevaluatedProperties", "unevaluatedItems")


def _plain_causes(errors: list[dict[str, Any]], best: dict[str, Any] | None) -> list[Cause]:
    """The errors themselves, the best match's first, from a module that gave no causes (one
    without best_match)."""
    order = list(range(len(errors)))
    if best is not None and best in errors:
        order.remove(errors.index(best))
        order.insert(0, errors.index(best))
    return [([index], []) for index in order]


def _at(errors: list[dict[str, Any]], path: list[int]) -> dict[str, Any]:
    error = errors[path[0]]
    for index in path[1:]:
        error = error["context"][index]
    return error


def _pointer(error: dict[str, Any]) -> str:
    return escape(error["instance_location"]) or "(root)"


def _cause_lines(where: str, errors: list[dict[str, Any]], causes: list[Cause]) -> list[str]:
    """One line per error of the record: its cause (naming the alternatives it was found in), or
    for an anyOf/oneOf whose alternatives fail alike, the best error of each; a line that says
    what an earlier one said (a cause also listed on its own) is left out."""
    lines: list[str] = []
    said: set[tuple[str, str]] = set()
    # a cause that is also one of the record's own errors needs no alternative named
    own = {
        (errors[path[0]]["instance_location"], errors[path[0]]["message"])
        for path, _ in causes
        if len(path) == 1
    }
    for path, alternatives in causes:
        cause = _at(errors, path)
        if (cause["instance_location"], cause["message"]) in said:
            continue
        said.add((cause["instance_location"], cause["message"]))
        text = cause["message"] + (
            "" if (cause["instance_location"], cause["message"]) in own else _via(errors, path)
        )
        if alternatives:
            text += _listed(cause, [_at(errors, each) for each in alternatives])
        lines.append(f"{where}:{_pointer(cause)}: {escape(text)}\n")
    return lines


def _via(errors: list[dict[str, Any]], path: list[int]) -> str:
    """Which alternative of each anyOf/oneOf on the way to the cause it lies in:
    ` (in oneOf alternative 1 at /funding: s.json#/$defs/fundingWay)`, or that every alternative
    fails at the cause's location."""
    steps = []
    error = errors[path[0]]
    cause = _at(errors, path)
    for index in path[1:]:
        inner = error["context"][index]
        if error.get("keyword") in ("anyOf", "oneOf") and inner.get("branch") is not None:
            if _everywhere(error, cause["instance_location"]):
                steps.append(
                    f"every {error['keyword']} alternative at {_pointer(error)} fails here"
                )
            else:
                steps.append(
                    f"in {error['keyword']} alternative {inner['branch']} at {_pointer(error)}: "
                    f"{_short(_alternative_location(error, inner['branch'], cause))}"
                )
        error = inner
    return f" ({'; '.join(steps)})" if steps else ""


def _everywhere(weak: dict[str, Any], location: str) -> bool:
    """Whether every alternative of `weak` fails at `location`, a member below weak's own (then
    the cause is not one alternative's: best_match took the member every alternative fails at).
    A name no schema allows is no failure there: best_match ranks it at its object."""
    if location == weak["instance_location"]:
        return False
    branches = {inner.get("branch") for inner in weak["context"]}
    there = {
        inner.get("branch")
        for inner in weak["context"]
        if inner["instance_location"] == location
        and not (
            inner.get("keyword") in _MEMBER_ERRORS
            and inner["keyword_location"].endswith("/" + inner["keyword"])
        )
    }
    return len(branches) > 1 and there == branches


def _short(location: str) -> str:
    """A schema location as a line shows it: a URI's document by its last path segment
    (`https://json.schemastore.org/dependabot-2.0.json#/definitions/update` as
    `dependabot-2.0.json#/definitions/update`); the JSON output keeps it whole."""
    document, hash_, fragment = location.partition("#")
    if "/" in document.rstrip("/"):
        document = document.rstrip("/").rsplit("/", 1)[1]
    return document + hash_ + fragment


def _listed(weak: dict[str, Any], best_of_each: list[dict[str, Any]]) -> str:
    """The best error of each alternative of an anyOf/oneOf, as the end of its line."""
    parts = []
    for inner in best_of_each[:LISTED_ALTERNATIVES]:
        at = (
            ""
            if inner["instance_location"] == weak["instance_location"]
            else f"{_pointer(inner)}: "
        )
        parts.append(f"[{inner.get('branch')}] {at}{inner['message']}")
    more = len(best_of_each) - LISTED_ALTERNATIVES
    if more > 0:
        parts.append(f"and {more} more (-v lists them)")
    return "; alternatives: " + "; ".join(parts)


def _alternative_location(weak: dict[str, Any], branch: int, below: dict[str, Any]) -> str:
    """Where alternative `branch` of the anyOf/oneOf error `weak` is in the schema: the target of
    the reference it is, when the error `below` (found in it) shows that target's absolute
    location (`https://example.com/s.json#/$defs/job`), else the alternative's own location
    (absolute, or `#` and its keyword location in the schema validated)."""
    base = f"{weak['keyword_location']}/{branch}"
    absolute = weak.get("absolute_keyword_location")
    own = f"{absolute}/{branch}" if absolute else "#" + base
    below_absolute: str | None = below.get("absolute_keyword_location")
    if not below_absolute or not below["keyword_location"].startswith(base + "/"):
        return own
    tokens = below["keyword_location"][len(base) + 1 :].split("/")
    hops = 0
    while hops < len(tokens) and tokens[hops] == "$ref":
        hops += 1
    rest = "".join("/" + token for token in tokens[hops:])
    if (
        hops == 0
        or any(token in _REFERENCES for token in tokens[hops:])
        or not below_absolute.endswith(rest)
    ):
        return own
    return below_absolute[: len(below_absolute) - len(rest)]


def _tree_lines(where: str, errors: list[dict[str, Any]], causes: list[Cause]) -> list[str]:
    """Every error of the record, the best match's first, and beneath each anyOf/oneOf (and
    contains) its alternatives (items) with their errors, indented, the alternative holding the
    cause marked. Iterative: a tree of contexts is as deep as the instance."""
    lines: list[str] = []
    for path, _ in causes:
        top = errors[path[0]]
        lines.append(f"{where}:{_pointer(top)}: {escape(top['message'])}\n")
        # work items: a line to write, or an error whose context to expand (at its path and depth)
        stack: list[tuple[str, Any, list[int], int]] = [("expand", top, path[:1], 1)]
        while stack:
            kind, item, at, depth = stack.pop()
            if kind == "line":
                lines.append(item)
                continue
            groups: dict[Any, list[int]] = {}
            for index, inner in enumerate(item.get("context") or ()):
                groups.setdefault(inner.get("branch"), []).append(index)
            work: list[tuple[str, Any, list[int], int]] = []
            for branch, indices in groups.items():
                if item.get("keyword") in ("anyOf", "oneOf"):
                    place = _alternative_location(item, branch, item["context"][indices[0]])
                    label = f"{item['keyword']} alternative {branch} ({_short(place)})"
                else:
                    label = f"{item.get('keyword')} item {branch}"
                closest = len(path) > len(at) and path[: len(at)] == at and path[len(at)] in indices
                work.append(
                    (
                        "line",
                        f"{'  ' * depth}{escape(label)}{', the closest' if closest else ''}:\n",
                        at,
                        0,
                    )
                )
                for index in indices:
                    inner = item["context"][index]
                    work.append(
                        (
                            "line",
                            f"{'  ' * (depth + 1)}{_pointer(inner)}: {escape(inner['message'])}\n",
                            at,
                            0,
                        )
                    )
                    work.append(("expand", inner, at + [index], depth + 2))
            stack.extend(reversed(work))
    return lines


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
        self.files.append(
            {
                "file": data.display,
                "format": data.format,
                "valid": counts.ok,
                "records": counts.records,
                "invalid_records": counts.invalid,
                "unreadable": counts.unreadable,
            }
        )

    def finish(self, totals: Counts, files: int) -> None:
        summary = {
            "files": files,
            "records": totals.records,
            "valid_records": totals.valid,
            "invalid_records": totals.invalid,
            "unreadable": totals.unreadable,
        }
        listed_files = "".join(
            ("\n  " if i == 0 else ",\n  ") + dumps(f) for i, f in enumerate(self.files)
        )
        self.write(
            ("\n ]" if self.listed else "]")
            + ',\n "files": ['
            + listed_files
            + ("\n ]" if self.files else "]")
            + f',\n "summary": {dumps(summary)},\n'
            + f' "valid": {dumps(totals.ok)}}}\n'
        )


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
