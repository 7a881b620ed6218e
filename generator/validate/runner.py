"""One task through one generated module, and the serial loop.

The per-record path is lean: each JSON Lines record is parsed with one shared json decoder and
checked with the module's is_valid (its fast path); only a record that fails is run through
errors() (or output()) to build its report. Results carry plain values only (dicts of error
fields), so they pickle to the parent from a worker process or a Dask worker unchanged. A record
on which the module raises (a custom format function's exception: any BaseException, SystemExit
and GeneratorExit included, but KeyboardInterrupt and the command's SIGTERM, which stop the run) is
a Failure with a problem, counted as unreadable: it could not be checked, and the task goes on
with the next record.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Callable, Iterable, Iterator

from ..errors import Terminated
from .causes import Cause, causes
from .modules import SPEC_OUTPUT_FORMATS, ModuleSource
from .readers import (
    JSON_DECODE,
    BlankLine,
    ReadProblem,
    decode_again,
    fast_json_decoder,
    is_blank,
    json_problem,
    jsonl_lines,
    read_documents,
    read_jsonl_line,
)
from .tasks import Task

# What stops the run when validating a record raises it: Ctrl-C, and SIGTERM as the command raises it.
STOPS = (KeyboardInterrupt, Terminated)
# The problem of a file, block or record that does not fit in memory (MemoryError).
TOO_LARGE = "cannot read: too large to hold in memory"


@dataclass(slots=True)
class Failure:
    """A record that is invalid (`errors`, or `output` for basic/detailed/verbose) or could not be read
    (`problem`). `line` is 1-based: relative to its task's first line until merged."""

    line: int | None
    column: int | None = None
    problem: str | None = None
    errors: list[dict[str, Any]] | None = None
    best_match: dict[str, Any] | None = None
    output: Any = None
    causes: list[Cause] | None = None  # text output: what to print of `errors` (validate/causes.py)


@dataclass(slots=True)
class TaskResult:
    """What one task found: its record counts, its failures in order, and the number of lines it
    covered (JSON Lines; the next task of the same file numbers its lines from there)."""

    records: int = 0
    invalid: int = 0
    unreadable: int = 0
    lines: int = 0
    failures: list[Failure] = field(default_factory=list)


def error_fields(error: Any) -> dict[str, Any]:
    """The fields of one ValidationError as plain values. `keyword`, `params` and `context` (the
    errors of a failed anyOf/oneOf's alternatives, or of contains' items, each with its `branch`)
    are taken where the module's errors have them (newer modules), the locations and message
    always."""
    fields: dict[str, Any] = {
        "instance_location": error.instance_location,
        "keyword_location": error.keyword_location,
        "absolute_keyword_location": getattr(error, "absolute_keyword_location", None),
        "message": error.message,
    }
    for name in ("keyword", "params", "branch"):
        value = getattr(error, name, None)
        if value is not None:
            fields[name] = value
    context = getattr(error, "context", None)
    if context:
        fields["context"] = [error_fields(inner) for inner in context]
    return fields


class Checker:
    """A module's functions for one output format, looked up once."""

    def __init__(self, module: Any, output_format: str) -> None:
        self.globals: dict[str, Any] = vars(module)
        self.is_valid: Callable[[Any], bool] = module.is_valid
        self.errors: Callable[[Any], list[Any]] = module.errors
        self.output: Callable[[Any, str], Any] | None = getattr(module, "output", None)
        self.best_match: Callable[[list[Any]], Any] | None = getattr(module, "best_match", None)
        self.spec_format = output_format if output_format in SPEC_OUTPUT_FORMATS else None
        self.text = output_format == "text"

    def failure(self, value: Any, line: int | None) -> Failure:
        """The report of an instance is_valid rejected."""
        if self.spec_format is not None:
            assert self.output is not None  # checked when the module was loaded
            return Failure(line, output=self.output(value, self.spec_format))
        errors = self.errors(value)
        best = self.best_match(errors) if self.best_match is not None and errors else None
        return Failure(
            line,
            errors=[error_fields(error) for error in errors],
            best_match=error_fields(best) if best is not None else None,
            causes=(
                causes(errors, self.best_match)
                if self.text and self.best_match is not None and errors
                else None
            ),
        )

    def check(self, value: Any, line: int | None) -> Failure | None:
        """None for a valid instance, else its report; a Failure with a problem when checking it
        raised (a custom format function's exception propagates from the module's API, but here
        it is one record's problem: the other records are still validated)."""
        try:
            return None if self.is_valid(value) else self.failure(value, line)
        except STOPS:
            raise
        except BaseException as exc:  # SystemExit(0) included: it must not end the run as a success
            return Failure(line, problem=self.raised(exc))

    def raised(self, exc: BaseException) -> str:
        """What went wrong, naming the custom format function the exception came out of."""
        function = _custom_format_raising(exc.__traceback__, self.globals)
        try:
            detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        except Exception:  # an exception whose str() fails too
            detail = type(exc).__name__
        if function is not None:
            return f"cannot be checked: the custom format function {function} raised {detail}"
        return f"cannot be checked: validating it raised {detail}"


def _custom_format_raising(
    traceback: TracebackType | None, module_globals: dict[str, Any]
) -> str | None:
    """`module:function` of the custom format function (imported by the generated module as
    `_format_custom_*`) that the traceback left the module through, or None."""
    called = None
    while traceback is not None:
        frame = traceback.tb_frame
        if frame.f_globals is module_globals:
            called = traceback.tb_next.tb_frame.f_code if traceback.tb_next is not None else None
        traceback = traceback.tb_next
    if called is None:
        return None
    for name, value in module_globals.items():
        if name.startswith("_format_custom_") and getattr(value, "__code__", None) is called:
            return f"{getattr(value, '__module__', '?')}:{getattr(value, '__qualname__', name)}"
    return None


_CHECKERS: dict[tuple[str, str], Checker] = {}


def checker_for(source: ModuleSource, output_format: str) -> Checker:
    """The Checker of a module in this process (the module is loaded once per process)."""
    key = (source.key, output_format)
    checker = _CHECKERS.get(key)
    if checker is None:
        checker = _CHECKERS[key] = Checker(source.load(), output_format)
    return checker


def run_task(task: Task, source: ModuleSource, output_format: str) -> TaskResult:
    """Read, parse and validate one task. Never raises for bad data: an unreadable file or a
    malformed record is a Failure with a problem."""
    checker = checker_for(source, output_format)
    if task.problem is not None:
        return TaskResult(unreadable=1, failures=[Failure(None, problem=task.problem)])
    try:
        data = task.read()
    except OSError as exc:
        return TaskResult(
            unreadable=1, failures=[Failure(None, problem=f"cannot read: {exc.strerror or exc}")]
        )
    except MemoryError:
        return TaskResult(unreadable=1, failures=[Failure(None, problem=TOO_LARGE)])
    if task.format == "jsonl":
        try:
            return _run_jsonl(data, task.first, checker)
        except MemoryError:  # the block as a whole (a record is its own problem in the loop)
            lines = data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)
            return TaskResult(
                unreadable=1, lines=lines, failures=[Failure(1 if lines else None, None, TOO_LARGE)]
            )
    try:
        records = read_documents(task.format, data)
    except ReadProblem as problem:
        return TaskResult(
            unreadable=1, failures=[Failure(problem.line, problem.column, problem.message)]
        )
    except MemoryError:
        return TaskResult(unreadable=1, failures=[Failure(None, problem=TOO_LARGE)])
    result = TaskResult(records=len(records))
    for line, value in records:
        failure = checker.check(value, line)
        if failure is not None:
            result.failures.append(failure)
            if failure.problem is None:
                result.invalid += 1
            else:  # could not be checked: counted as unreadable, not as a record
                result.records -= 1
                result.unreadable += 1
    return result


def _run_jsonl(data: bytes, at_file_start: bool, checker: Checker) -> TaskResult:
    """The hot loop: parse each line, is_valid it, build a report only for a failure (with
    msgspec's decoder where it is installed: _run_jsonl_fast)."""
    fast = fast_json_decoder()
    if fast is not None:
        return _run_jsonl_fast(data, at_file_start, checker, fast)
    lines = jsonl_lines(data, at_file_start=at_file_start)
    is_valid = checker.is_valid
    decode = JSON_DECODE
    failures: list[Failure] = []
    skipped = unreadable = 0
    for index, line in enumerate(lines):
        try:
            try:
                value = decode(line)  # type: ignore[arg-type]  # a ReadProblem raises TypeError
            except ValueError as exc:
                value = decode_again(line, exc)  # type: ignore[arg-type]  # (a str here)
        except MemoryError:
            unreadable += 1
            failures.append(Failure(index + 1, problem=TOO_LARGE))
            continue
        except (ValueError, RecursionError, TypeError) as exc:
            problem = _line_problem(line, exc, index + 1)
            if problem is None:
                skipped += 1
            else:
                unreadable += 1
                failures.append(problem)
            continue
        try:
            if is_valid(value):
                continue
            failures.append(checker.failure(value, index + 1))
        except STOPS:
            raise
        except (
            BaseException
        ) as exc:  # a custom format function raised: this record cannot be checked
            unreadable += 1
            failures.append(Failure(index + 1, problem=checker.raised(exc)))
    invalid = len(failures) - unreadable
    return TaskResult(len(lines) - skipped - unreadable, invalid, unreadable, len(lines), failures)


def _run_jsonl_fast(
    data: bytes, at_file_start: bool, checker: Checker, fast: Callable[[bytes], Any]
) -> TaskResult:
    """_run_jsonl with each line's bytes parsed by `fast`; a line it refuses is read again by
    read_jsonl_line, which gives the value, the blank line or the problem the JSON reader would."""
    lines = data.split(b"\n")
    if lines[-1] == b"":  # a final newline ends the last line, it does not start another
        lines.pop()
    is_valid = checker.is_valid
    failures: list[Failure] = []
    skipped = unreadable = 0
    for index, line in enumerate(lines):
        try:
            try:
                value = fast(line)
            except (ValueError, RecursionError):
                value = read_jsonl_line(line, at_file_start=at_file_start and index == 0)
        except BlankLine:
            skipped += 1
            continue
        except ReadProblem as problem:
            unreadable += 1
            failures.append(Failure(index + 1, problem.column, problem.message))
            continue
        except MemoryError:
            unreadable += 1
            failures.append(Failure(index + 1, problem=TOO_LARGE))
            continue
        try:
            if is_valid(value):
                continue
            failures.append(checker.failure(value, index + 1))
        except STOPS:
            raise
        except (
            BaseException
        ) as exc:  # a custom format function raised: this record cannot be checked
            unreadable += 1
            failures.append(Failure(index + 1, problem=checker.raised(exc)))
    invalid = len(failures) - unreadable
    return TaskResult(len(lines) - skipped - unreadable, invalid, unreadable, len(lines), failures)


def _line_problem(line: str | ReadProblem, exc: Exception, number: int) -> Failure | None:
    """The Failure of a line that did not parse, or None for a blank line (skipped)."""
    if isinstance(line, ReadProblem):
        return Failure(number, line.column, line.message)
    if is_blank(line):
        return None
    problem = json_problem(exc)
    return Failure(number, problem.column, problem.message)


def run_serial(
    tasks: Iterable[Task], source: ModuleSource, output_format: str
) -> Iterator[tuple[Task, TaskResult]]:
    """Each task and its result, in order, in this process."""
    for task in tasks:
        yield task, run_task(task, source, output_format)
