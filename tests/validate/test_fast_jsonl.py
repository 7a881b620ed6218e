"""The JSON Lines loop with msgspec's decoder (the extra `fast`) reads every line as the loop with
json alone does: the same values of the same types (exact integers of any length, the same
floats, -0.0, the last duplicate key), the same blank lines skipped, and the same problems at the
same places (a byte-order mark, bytes that are not UTF-8, NaN, a number beyond a float's range, a
lone surrogate, nesting too deep, malformed JSON)."""

from __future__ import annotations

import json
import math
import types
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.validate import readers, runner

msgspec = pytest.importorskip("msgspec")


def _typed(value: Any) -> Any:
    """`value` with every leaf's type beside it (1 and 1.0 and True differ; so do 0.0 and -0.0)."""
    if isinstance(value, dict):
        return ("dict", [(key, _typed(item)) for key, item in value.items()])
    if isinstance(value, list):
        return ("list", [_typed(item) for item in value])
    if isinstance(value, float):
        return ("float", math.copysign(1.0, value), repr(value))
    return (type(value).__name__, str(value) if isinstance(value, Decimal) else value)


def _read(data: bytes, fast: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, list[Any]]:
    """The loop's result on `data` and the values it handed to is_valid, in order."""
    seen: list[Any] = []

    def is_valid(value: Any) -> bool:
        seen.append(_typed(value))
        return True

    module = types.SimpleNamespace(is_valid=is_valid, errors=lambda value: [])
    checker = runner.Checker(module, "text")
    monkeypatch.setattr(readers, "_FAST_DECODE", None if fast else False)
    result = runner._run_jsonl(data, True, checker)
    failures = [(f.line, f.column, f.problem) for f in result.failures]
    return (result.records, result.invalid, result.unreadable, result.lines, failures), seen


EDGE_LINES = [
    b'\xef\xbb\xbf{"a": 1}',
    b"",
    b"   ",
    b"\r",
    b'{"a": 1}\r',
    b"18446744073709551616",
    b"-9223372036854775809",
    b"9" * 5000,
    b"1e400",
    b"-1e400",
    b"1e-400",
    b"NaN",
    b"[Infinity]",
    b'"\\ud800"',
    b'"\xed\xa0\x80"',
    b'"\xff"',
    b"[" * 3000 + b"]" * 3000,
    b'{"a": 1, "a": 2.5}',
    b"-0",
    b"-0.0",
    b"1.0",
    b"1E2",
    b"[1,]",
    b'{"a" 1}',
    b"true false",
    b'"\\u0000\\/"',
    b"2.2250738585072011e-308",
    b"4.9e-324",
    b"0.1",
    b"123456789012345678901234567890.5",
    b'{"x": [1, {"y": null}]}',
    b'"a\tb"',
]


def test_edge_lines_read_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    data = b"\n".join(EDGE_LINES) + b"\n"
    fast = _read(data, True, monkeypatch)
    plain = _read(data, False, monkeypatch)
    assert fast == plain
    assert fast[0][2] > 5 and len(fast[1]) > 15  # both problems and values were met


def test_the_decoder_is_msgspecs_where_installed_and_none_without(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(readers, "_FAST_DECODE", None)
    decode = readers.fast_json_decoder()
    assert decode is not None and decode(b'{"n": 123456789012345678901234567890}') == {
        "n": 123456789012345678901234567890
    }
    monkeypatch.setattr(readers, "_FAST_DECODE", False)
    assert readers.fast_json_decoder() is None


_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=4), children, max_size=4),
    max_leaves=12,
)
_number_text = st.from_regex(
    r"-?(0|[1-9][0-9]{0,30})(\.[0-9]{1,20})?([eE][-+]?[0-9]{1,3})?", fullmatch=True
)


@settings(max_examples=200, deadline=None)
@given(
    values=st.lists(_json, max_size=8),
    numbers=st.lists(_number_text, max_size=8),
    junk=st.lists(st.binary(max_size=8), max_size=3),
)
def test_any_lines_read_alike(values: list[Any], numbers: list[str], junk: list[bytes]) -> None:
    lines = [json.dumps(value).encode() for value in values] + [n.encode() for n in numbers] + junk
    data = b"\n".join(line.replace(b"\n", b" ") for line in lines) + b"\n"
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert _read(data, True, monkeypatch) == _read(data, False, monkeypatch)


class _Raised(BaseException):
    pass


def test_a_raising_check_is_the_records_problem_with_either_decoder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The two loops write their per-record check apart (the valid path stays inline in each); both
    take any BaseException out of the module, SystemExit(0) included, as that record's problem and
    go on, and both let KeyboardInterrupt stop the run (the msgspec loop once caught Exception only).
    """
    raised = {"2": SystemExit(0), "3": GeneratorExit("closing"), "4": _Raised()}

    def is_valid(value: Any) -> bool:
        if value in raised:
            raise raised[value]
        if value == "stop":
            raise KeyboardInterrupt
        return value != "bad"

    module = types.SimpleNamespace(is_valid=is_valid, errors=lambda value: [], best_match=None)
    checker = runner.Checker(module, "text")
    data = b'"1"\n"2"\n"3"\n"4"\n"bad"\n"5"\n'
    results = []
    for fast in (True, False):
        monkeypatch.setattr(readers, "_FAST_DECODE", None if fast else False)
        result = runner._run_jsonl(data, True, checker)
        results.append(
            (
                result.records,
                result.invalid,
                result.unreadable,
                [(f.line, f.problem is not None) for f in result.failures],
            )
        )
        with pytest.raises(KeyboardInterrupt):
            runner._run_jsonl(b'"1"\n"stop"\n"2"\n', True, checker)
    assert results[0] == results[1] == (3, 1, 3, [(2, True), (3, True), (4, True), (5, False)])
