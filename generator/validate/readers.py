"""Reading data into instances: JSON (one instance per file), JSON Lines (one per line, blank lines
skipped), YAML (one per document, PyYAML as the optional extra `yaml`, read by the YAML 1.2 core
schema as schemas are), TOML (one per file, tomllib) and JSON5 (one per file, the optional extra
`json5`).

Every failure is a ReadProblem with a message and, where known, the 1-based line and column (the
column counts characters, or bytes where the bytes are not UTF-8). Instances are what `json.loads`
makes (duplicate keys: the last wins; numbers: int, or float for a fraction or exponent), except
that NaN and Infinity, which are not JSON, are refused, and that an integer longer than int()
reads is an exact Decimal (json.loads fails on it). YAML scalars PyYAML cannot convert
(`!!timestamp x`), and explicitly tagged ones that are no form of their tag (`!!null x`), are
ReadProblems at their place. TOML's dates and times are strings (JSON has none; see read_toml).
"""

from __future__ import annotations

import json
import math
import re
from decimal import Decimal
from typing import Any, Callable, Iterator

from ..errors import OptionError
from ..yaml_loader import CORE_FORMS, CORE_RESOLVERS, core_integer, is_core_form

FORMATS = ("json", "jsonl", "yaml", "toml", "json5")
SUFFIX_FORMATS = {
    ".json": "json",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".toml": "toml",
    ".json5": "json5",
}
YAML_EXTRA_HINT = "pip install 'straightline[yaml]'"
JSON5_EXTRA_HINT = "pip install 'straightline[json5]'"

_BOM = b"\xef\xbb\xbf"


class ReadProblem(Exception):
    """Data that could not be read or parsed: `message`, and 1-based `line`/`column` where known."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


class YamlMissing(OptionError):
    """YAML data was given but PyYAML is not installed."""


class Json5Missing(OptionError):
    """JSON5 data was given but the json5 package is not installed."""


def format_for(name: str, forced: str | None) -> str:
    """The data format of a file: `forced` (--data-format), else by suffix, else JSON."""
    if forced:
        return forced
    dot = name.rfind(".")
    return SUFFIX_FORMATS.get(name[dot:].lower(), "json") if dot > 0 else "json"


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


# One decoder for every record (json.loads with an argument would build a new one per call).
JSON_DECODE = json.JSONDecoder(parse_constant=_refuse_constant).decode


def _exact_int(text: str) -> int | Decimal:
    """An integer; one longer than int() reads (Python's 4,300-digit guard against its quadratic
    time) as an exact Decimal, read in linear time, which generated modules take as an integer."""
    try:
        return int(text)
    except ValueError:
        return Decimal(text)


_EXACT_DECODE = json.JSONDecoder(parse_constant=_refuse_constant, parse_int=_exact_int).decode


def decode_again(text: str, failure: Exception) -> Any:
    """The value of JSON `text` that JSON_DECODE refused with `failure`, when what it refused is
    an integer too long for int(): read again with such integers exact. Any other failure (a
    JSONDecodeError, NaN, too deep) is raised again as it was. Runs only after a failure, so the
    per-record path stays one JSON_DECODE call."""
    if type(failure) is not ValueError:
        raise failure
    return _EXACT_DECODE(text)


def decode_utf8(data: bytes, *, at_file_start: bool) -> str:
    """UTF-8 text of `data` (a byte-order mark at the start of a file is dropped)."""
    if at_file_start and data.startswith(_BOM):
        data = data[len(_BOM) :]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise ReadProblem(
            f"not UTF-8 (byte {data[exc.start]:#04x} at byte column {column})", line, column
        ) from None


def json_problem(exc: Exception, line_offset: int = 0) -> ReadProblem:
    """The ReadProblem of a failed parse (a JSONDecodeError knows its line and column)."""
    if isinstance(exc, json.JSONDecodeError):
        return ReadProblem(f"invalid JSON: {exc.msg}", exc.lineno + line_offset, exc.colno)
    if isinstance(exc, RecursionError):
        return ReadProblem("invalid JSON: nested too deeply to read", line_offset or None)
    return ReadProblem(f"invalid JSON: {exc}", line_offset or None)


def decode_json(text: str) -> Any:
    """The value of JSON `text` (JSON_DECODE, then decode_again where it refused an integer too
    long for int()); the runner's JSON Lines loop does the same in place, without this call."""
    try:
        return JSON_DECODE(text)
    except ValueError as exc:
        return decode_again(text, exc)


def read_json(data: bytes) -> Any:
    """The one instance of a JSON document."""
    text = decode_utf8(data, at_file_start=True)
    try:
        return decode_json(text)
    except (ValueError, RecursionError) as exc:
        raise json_problem(exc) from None


def jsonl_lines(data: bytes, *, at_file_start: bool) -> list[str | ReadProblem]:
    """The lines of a block of JSON Lines (whole lines; a final newline ends the last one, it does
    not start another). A line that is not UTF-8 is a ReadProblem in its place (line relative
    to the block)."""
    try:
        text = decode_utf8(data, at_file_start=at_file_start)
    except ReadProblem:
        return _lines_one_by_one(data, at_file_start)
    lines: list[str | ReadProblem] = list(text.split("\n"))
    if lines[-1] == "":
        lines.pop()
    return lines


def _lines_one_by_one(data: bytes, at_file_start: bool) -> list[str | ReadProblem]:
    """jsonl_lines for a block with bytes that are not UTF-8: only the bad lines are lost."""
    raw = data.split(b"\n")
    if raw[-1] == b"":
        raw.pop()
    lines: list[str | ReadProblem] = []
    for index, line in enumerate(raw):
        try:
            lines.append(decode_utf8(line, at_file_start=at_file_start and index == 0))
        except ReadProblem as problem:
            problem.line = index + 1
            lines.append(problem)
    return lines


_FAST_DECODE: Any = None


def fast_json_decoder() -> Callable[[bytes], Any] | None:
    """msgspec's JSON decoder (the extra `fast`), or None where it is not installed. It parses
    2-3 times as fast as json.loads and, where it gives a value, gives json.loads' value: the
    same correctly rounded floats, integers exact at any length it takes, the last of duplicate
    keys. Whatever it refuses (a byte-order mark, an integer longer than it reads, a number
    beyond a float's range, a lone surrogate, a blank line, NaN, malformed JSON) is read again
    by read_jsonl_line, as if it were not there (tests/validate/test_fast_jsonl.py)."""
    global _FAST_DECODE
    if _FAST_DECODE is None:
        try:
            import msgspec
        except ImportError:
            _FAST_DECODE = False
        else:
            _FAST_DECODE = msgspec.json.Decoder().decode
    return _FAST_DECODE or None


class BlankLine(Exception):
    """A JSON Lines line with only whitespace: skipped, not a record."""


def read_jsonl_line(line: bytes, *, at_file_start: bool) -> Any:
    """The instance on one line of JSON Lines as bytes, read as the JSON reader reads it;
    BlankLine for a blank line, a ReadProblem (line number unset) for one that cannot be read."""
    text = decode_utf8(line, at_file_start=at_file_start)
    if is_blank(text):
        raise BlankLine
    try:
        return decode_json(text)
    except (ValueError, RecursionError) as exc:
        raise json_problem(exc) from None


def is_blank(line: str) -> bool:
    """A JSON Lines line with only JSON whitespace: skipped, not a record."""
    return not line.strip(" \t\r")


def parse_jsonl_line(line: str, number: int) -> Any:
    """The instance on one line (`number` is 1-based, for the ReadProblem)."""
    try:
        return decode_json(line)
    except (ValueError, RecursionError) as exc:
        problem = json_problem(exc)
        problem.line = number
        raise problem from None


def read_jsonl(data: bytes) -> Iterator[tuple[int, Any]]:
    """(line number, instance or ReadProblem) for each record of a whole JSON Lines file; blank
    lines are skipped. (The runner does the same inline, block by block.)"""
    for index, line in enumerate(jsonl_lines(data, at_file_start=True)):
        if isinstance(line, ReadProblem):
            yield index + 1, line
        elif not is_blank(line):
            try:
                yield index + 1, parse_jsonl_line(line, index + 1)
            except ReadProblem as problem:
                yield index + 1, problem


# --- YAML -------------------------------------------------------------------------------------

_YAML_LOADER: Any = None


def require_yaml(what: str) -> None:
    """Raise YamlMissing (naming the extra) unless PyYAML can be imported."""
    try:
        _yaml_loader()
    except ImportError:
        raise YamlMissing(f"{what} is YAML, which needs PyYAML: {YAML_EXTRA_HINT}") from None


def _yaml_loader() -> Any:
    """PyYAML's safe loader (the C one where built) resolving plain scalars by the YAML 1.2 core
    schema, as schemas are read (generator.yaml_loader.CORE_RESOLVERS): `on`, `yes`, `NO`, `1_000`
    and timestamps are strings, `012` is twelve. The merge key `<<` stays (GitLab CI and Compose
    files use it; ruamel.yaml, which check-jsonschema reads with, keeps it in 1.2 too), and
    GitLab CI's `!reference [job, key]` is the list it holds (as check-jsonschema's gitlab-ci
    transform reads it); any other tag that is not YAML's own is refused at its place."""
    global _YAML_LOADER
    if _YAML_LOADER is None:
        import yaml

        base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        resolvers: dict[Any, list[tuple[str, Any]]] = {}
        for tag, pattern, firsts in CORE_RESOLVERS:
            for first in firsts:
                resolvers.setdefault(first, []).append((tag, pattern))
        resolvers.setdefault("<", []).extend(
            entry for entry in base.yaml_implicit_resolvers.get("<", []) if entry[0] == _MERGE_TAG
        )
        constructors = {
            tag: _marked(tag, construct) for tag, construct in base.yaml_constructors.items()
        }
        for tag, construct in _CORE_CONSTRUCTORS.items():
            constructors[tag] = _marked(tag, construct)
        constructors[_GITLAB_REFERENCE] = _marked(_GITLAB_REFERENCE, _gitlab_reference)
        _YAML_LOADER = type(
            "JsonYamlLoader",
            (base,),
            {"yaml_implicit_resolvers": resolvers, "yaml_constructors": constructors},
        )
    return _YAML_LOADER


_CORE = "tag:yaml.org,2002:"
_MERGE_TAG = _CORE + "merge"
_GITLAB_REFERENCE = "!reference"


def _gitlab_reference(loader: Any, node: Any) -> list[Any]:
    """GitLab CI's `!reference [.job, script]`: the sequence it tags, as a list."""
    if node.id != "sequence":
        raise ValueError("not a sequence")
    return loader.construct_sequence(node, deep=True)  # type: ignore[no-any-return]


Constructor = Callable[[Any, Any], Any]

# The core tags' values; a scalar reaches one only as a core form of its tag (_marked checks an
# explicitly tagged one). Floats are float() of the text, as json.loads reads them; `.inf` and
# `.nan` are refused at their place afterwards (_check_json_value).
_CORE_CONSTRUCTORS: dict[str, Constructor] = {
    _CORE + "null": lambda loader, node: None,
    _CORE + "bool": lambda loader, node: node.value.lower() == "true",
    _CORE + "int": lambda loader, node: core_integer(node.value),
    _CORE + "float": lambda loader, node: _core_float(node.value),
}


def _core_float(text: str) -> float:
    """A core-schema float: float() of its text, `.inf`/`.nan` in any of its cases too."""
    lowered = text.lower()
    if lowered.endswith((".inf", ".nan")):
        return (
            math.nan
            if lowered.endswith("nan")
            else (-math.inf if text.startswith("-") else math.inf)
        )
    return float(text)


def _marked(tag: str | None, construct: Constructor) -> Constructor:
    """PyYAML's constructor for `tag`, its failures on a malformed scalar (`!!int abc`,
    `!!timestamp nope`: a ValueError, KeyError or AttributeError of the conversion inside) turned
    into a YAML error at the value's line and column. An explicitly tagged null, bool, int or
    float must be a form the YAML 1.2 core schema gives that tag (the schema loader's rule,
    generator.yaml_loader.is_core_form), or PyYAML would coerce it: `!!null x` None, `!!bool yes`
    true, `!!int " 12"` 12."""
    from yaml.constructor import ConstructorError

    name = (tag or "value").rsplit(":", 1)[-1]
    judged = tag in CORE_FORMS

    def constructor(loader: Any, node: Any) -> Any:
        try:
            if judged and (
                not isinstance(node.value, str) or not is_core_form(node.tag, node.value)
            ):
                raise ValueError(node.value)
            return construct(loader, node)
        except (ValueError, KeyError, AttributeError, TypeError, IndexError):
            if not isinstance(node.value, str):  # a tag on a mapping or a sequence
                shown = f"a {node.id}"
            else:
                shown = repr(node.value) if len(node.value) <= 40 else repr(node.value[:40]) + "..."
            raise ConstructorError(
                None, None, f"{shown} is not a valid {name}", node.start_mark
            ) from None

    return constructor


def read_yaml(data: bytes) -> list[tuple[int, Any]]:
    """(line where the document starts, instance) for each document of a YAML stream. A value JSON
    has no counterpart for (a non-string key, a set, binary, NaN) is a ReadProblem naming where."""
    import yaml

    loader = _yaml_loader()(decode_utf8(data, at_file_start=True))
    documents: list[tuple[int, Any]] = []
    try:
        while loader.check_node():
            node = loader.get_node()
            line = node.start_mark.line + 1
            value = loader.construct_document(node)
            _check_json_value(value, line, budget=10 * len(data) + 10_000)
            documents.append((line, value))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        message = " ".join(part for part in (exc.context, exc.problem) if part) or "malformed"
        raise ReadProblem(
            f"invalid YAML: {message}", mark and mark.line + 1, mark and mark.column + 1
        ) from None
    except yaml.YAMLError as exc:
        raise ReadProblem(f"invalid YAML: {exc}") from None
    except RecursionError:
        raise ReadProblem("invalid YAML: nested too deeply to read") from None
    finally:
        loader.dispose()
    if not documents:
        raise ReadProblem("no YAML document")
    return documents


def _check_json_value(value: Any, line: int | None, budget: int, what: str = "YAML") -> None:
    """Refuse what JSON cannot hold, iteratively; aliases make a YAML value a graph, so a cycle is
    refused and the values visited are bounded (an alias bomb is refused, not expanded)."""
    on_path: set[int] = set()  # the containers between the root and the node visited
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        node, pointer = stack.pop()
        if node is _LEAVE:
            on_path.discard(int(pointer))
            continue
        budget -= 1
        if budget < 0:
            raise ReadProblem(f"{what} aliases expand to too many values", line)
        where = pointer or "(root)"
        if isinstance(node, (dict, list)):
            if id(node) in on_path:
                raise ReadProblem(f"{what} value at {where} contains itself", line)
            on_path.add(id(node))
            stack.append((_LEAVE, str(id(node))))
            if isinstance(node, dict):
                for key, item in node.items():
                    if not isinstance(key, str):
                        raise ReadProblem(f"{what} key {key!r} at {where} is not a string", line)
                    stack.append((item, pointer + "/" + key.replace("~", "~0").replace("/", "~1")))
            else:
                stack.extend((item, f"{pointer}/{index}") for index, item in enumerate(node))
        elif isinstance(node, float):
            if not math.isfinite(node):
                raise ReadProblem(f"{what} value {node!r} at {where} is not a JSON number", line)
        elif not (node is None or isinstance(node, (str, int, Decimal))):
            raise ReadProblem(
                f"{what} value at {where} is a {type(node).__name__}, which JSON has no type for",
                line,
            )


_LEAVE = object()  # marks, on the walk's stack, the end of a container's children


# --- TOML -------------------------------------------------------------------------------------

_TOML_PLACE = re.compile(r"\s*\((?:at line (\d+), column (\d+)|at end of document)\)$")


def read_toml(data: bytes) -> Any:
    """The one instance of a TOML document (tomllib). Dates and times, which JSON has no type
    for, become their RFC 3339 text (datetime.isoformat: `1979-05-27T07:32:00-08:00`; a local
    date-time or time has no offset, and none is made up); `inf` and `nan` are refused at their
    place."""
    import tomllib

    text = decode_utf8(data, at_file_start=True)
    try:
        value = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc).splitlines()[0] if str(exc) else "malformed"
        place = _TOML_PLACE.search(message)
        if place is None:
            raise ReadProblem(f"invalid TOML: {message}") from None
        if place[1] is None:  # at the end of the document: its last line
            raise ReadProblem(
                f"invalid TOML: {message[:place.start()]}", text.count("\n") + 1
            ) from None
        raise ReadProblem(
            f"invalid TOML: {message[:place.start()]}", int(place[1]), int(place[2])
        ) from None
    except (ValueError, RecursionError) as exc:  # an integer too long for int(), nesting too deep
        raise ReadProblem(f"invalid TOML: {exc}" if str(exc) else "invalid TOML") from None
    value = _dates_as_text(value)
    _check_json_value(value, None, budget=10 * len(data) + 10_000, what="TOML")
    return value


def _dates_as_text(value: Any) -> Any:
    """`value` with every date, time and date-time replaced by its isoformat() text."""
    import datetime

    if isinstance(value, dict):
        return {key: _dates_as_text(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_dates_as_text(item) for item in value]
    if isinstance(value, (datetime.date, datetime.time)):  # (datetime is a date)
        return value.isoformat()
    return value


# --- JSON5 ------------------------------------------------------------------------------------


def require_json5(what: str) -> None:
    """Raise Json5Missing (naming the extra) unless the json5 package can be imported."""
    try:
        import json5  # noqa: F401
    except ImportError:
        raise Json5Missing(
            f"{what} is JSON5, which needs the json5 package: {JSON5_EXTRA_HINT}"
        ) from None


def read_json5(data: bytes) -> Any:
    """The one instance of a JSON5 document (comments, trailing commas, unquoted names, single
    quotes, hexadecimal numbers). Numbers and duplicate names are read as the JSON reader reads
    them (a fraction or exponent a float; the last of two names wins); Infinity and NaN, which
    JSON5 allows and JSON has no counterpart for, are refused."""
    import json5

    text = decode_utf8(data, at_file_start=True)
    try:
        value = json5.loads(text, parse_constant=_refuse_constant)
    except ValueError as exc:
        message = str(exc).splitlines()[0] if str(exc) else "malformed"
        line = re.match(r"<string>:(\d+) ", message)
        column = re.search(r" at column (\d+)$", message)
        shown = message[line.end() if line else 0 : column.start() if column else len(message)]
        raise ReadProblem(
            f"invalid JSON5: {shown}", line and int(line[1]), column and int(column[1])
        ) from None
    except RecursionError:
        raise ReadProblem("invalid JSON5: nested too deeply to read") from None
    _check_json_value(value, None, budget=10 * len(data) + 10_000, what="JSON5")
    return value


def read_documents(format: str, data: bytes) -> list[tuple[int | None, Any]]:
    """The instances of a whole file of `format` (not JSON Lines), each with the line its document
    starts on, or None for a file that holds one instance (reported without a line)."""
    if format == "json":
        return [(None, read_json(data))]
    if format == "toml":
        return [(None, read_toml(data))]
    if format == "json5":
        return [(None, read_json5(data))]
    documents: list[tuple[int | None, Any]] = list(read_yaml(data))
    return [(None, documents[0][1])] if len(documents) == 1 else documents
