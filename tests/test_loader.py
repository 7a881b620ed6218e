"""The exact JSON loader (docs/ARCHITECTURE.md, "The pipeline": load): ints stay int, a decimal becomes a float
only when the float is the same number, otherwise a Decimal keeping every digit; duplicate keys,
NaN/Infinity, bad encodings, syntax errors and oversized sources are SchemaErrors."""

from __future__ import annotations

import errno
import os
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

import generator
from generator.load import load_json


def bad(source: Any, code: str = "bad-json", **kwargs: Any) -> generator.SchemaError:
    with pytest.raises(generator.SchemaError) as info:
        load_json(source, **kwargs)
    err = info.value
    assert err.code == code, f"{err.code}: {err.message}"
    assert isinstance(err.message, str) and err.message.strip()
    return err


def both(text: str) -> list[Any]:
    """The value of `text` loaded as str and as UTF-8 bytes (they must agree)."""
    a, b = load_json(text), load_json(text.encode("utf-8"))
    assert type(a) is type(b) and a == b
    return [a, b]


# ---------------------------------------------------------------------------------------------
# exact numbers
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, value",
    [
        ("0", 0),
        ("-0", 0),
        ("1", 1),
        ("-17", -17),
        ("9007199254740993", 2**53 + 1),
        ("18446744073709551616", 2**64),
        ("1234567890123456789012345678901234567890", 1234567890123456789012345678901234567890),
        ("-1234567890123456789012345678901234567890", -1234567890123456789012345678901234567890),
        ("1" + "0" * 100, 10**100),
    ],
)
def test_integers_stay_int(text: str, value: int) -> None:
    for got in both(text):
        assert type(got) is int and got == value


def test_integer_past_python_digit_limit_stays_exact() -> None:
    # Python's int() refuses more than 4300 digits by default (its conversion is quadratic);
    # JSON has no such limit: an integer literal over 4000 characters is an exact Decimal of its
    # digits, exponent 0, read in linear time
    for got in both("1" + "0" * 5000):
        assert type(got) is Decimal and got.as_tuple().exponent == 0
        assert got == Decimal(10**5000) and len(got.as_tuple().digits) == 5001
    for got in both("-" + "7" * 3999):
        assert type(got) is int and got == -int("7" * 3999)


def test_a_megabyte_integer_literal_loads_in_linear_time() -> None:
    # int(Decimal(text)) of a million digits takes about half a minute; the loader never does it
    for got in both("9" * 1_000_000):
        assert type(got) is Decimal and got.as_tuple() == (0, (9,) * 1_000_000, 0)


@pytest.mark.parametrize(
    "text, value",
    [
        ("0.1", 0.1),
        ("2.5", 2.5),
        ("-2.5e-3", -0.0025),
        ("1e21", 1e21),
        ("1E2", 100.0),
        ("0.30000000000000004", 0.30000000000000004),
        ("1.7976931348623157e308", 1.7976931348623157e308),
        ("5e-324", 5e-324),
        ("123.456", 123.456),
    ],
)
def test_decimals_a_float_keeps_are_floats(text: str, value: float) -> None:
    for got in both(text):
        assert type(got) is float and got == value
        assert Decimal(repr(got)) == Decimal(text)  # the float is the very number written


@pytest.mark.parametrize(
    "text",
    [
        "0.30000000000000000001",
        "0.1000000000000000000000001",
        "1e400",
        "-1e400",
        "1e-400",
        "9007199254740993.0",
        "123456789012345678901234567890.5",
        "2.00000000000000000001",
        "1.0000000000000000000000000000000000000000000000001e-5",
        "1.7976931348623159e308",
    ],
)
def test_decimals_a_float_would_round_are_exact(text: str) -> None:
    for got in both(text):
        assert isinstance(got, Decimal), f"{text} loaded as {type(got).__name__} {got!r}"
        assert got == Decimal(text)


def test_floats_and_decimals_tell_apart_what_they_should() -> None:
    a = load_json("0.30000000000000000001")
    b = load_json("0.30000000000000000002")
    c = load_json("0.3")
    assert a != b and a != c and b != c
    assert a < b and c < a


def test_numbers_in_structures() -> None:
    value = load_json(
        '{"a": [0.1, 0.30000000000000000001, 10000000000000000000000000000001, 1e400, -0.0], "b": {"c": 2}}'
    )
    a = value["a"]
    assert type(a[0]) is float and a[0] == 0.1
    assert isinstance(a[1], Decimal) and a[1] == Decimal("0.30000000000000000001")
    assert type(a[2]) is int and a[2] == 10**31 + 1
    assert isinstance(a[3], Decimal) and a[3] == Decimal("1e400")
    assert a[4] == 0
    assert type(value["b"]["c"]) is int


def test_json_values() -> None:
    assert load_json('{"a": [true, false, null, "s", {}, []]}') == {
        "a": [True, False, None, "s", {}, []]
    }
    assert load_json(" \n\t[1] \r\n") == [1]
    assert (
        load_json('"\\ud83d\\ude00"') == "\U0001f600"
    )  # an escaped surrogate pair is one code point
    assert load_json('"\\u00e9"') == "é" == load_json('"é"'.encode())
    assert load_json('{"a/b": {"~": 1}}') == {"a/b": {"~": 1}}


# ---------------------------------------------------------------------------------------------
# duplicate keys: rejected, with the pointer of the object that has them
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, pointer",
    [
        ('{"a": 1, "a": 2}', ""),
        ('{"a": 1, "a": 1}', ""),
        ('{"a": 1, "\\u0061": 2}', ""),  # the same key after unescaping
        ('{"x": {"y": {"k": 1, "k": 2}}}', "/x/y"),
        ('[0, {"k": 1, "k": 1}]', "/1"),
        ('{"a/b": {"~": {"k": 1, "b": 0, "k": 2}}}', "/a~1b/~0"),
        ('{"properties": {"x": {"type": "string", "type": "integer"}}}', "/properties/x"),
        ('{"items": [{}, {}, {"enum": [{"z": 1, "z": 1}]}]}', "/items/2/enum/0"),
        ('{"": {"": 1, "": 2}}', "/"),
    ],
)
def test_duplicate_keys_rejected_with_pointer(text: str, pointer: str) -> None:
    for source in (text, text.encode()):
        err = bad(source)
        assert err.pointer == pointer


def test_duplicate_key_first_in_document_order() -> None:
    err = bad('{"a": {"k": 1, "k": 2}, "b": {"j": 1, "j": 2}}')
    assert err.pointer == "/a"


def test_same_key_in_different_objects_is_fine() -> None:
    assert load_json('{"a": {"k": 1}, "b": {"k": 2}, "k": [{"k": 3}, {"k": 4}]}')["k"][1] == {
        "k": 4
    }


# ---------------------------------------------------------------------------------------------
# NaN / Infinity, bad encodings, syntax errors
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "NaN",
        "Infinity",
        "-Infinity",
        "[1, NaN]",
        '{"minimum": Infinity}',
        '{"a": [-Infinity]}',
        "nan",
        "inf",
    ],
)
def test_nan_and_infinity_rejected(text: str) -> None:
    bad(text)
    bad(text.encode())


@pytest.mark.parametrize(
    "source",
    [
        b'"\xff"',
        b'{"a": "\xc3\x28"}',
        b"\x80",
        b'["\xed\xa0\x80"]',
        b'{"a": 1, "b": "\xf8\x88\x80\x80\x80"}',
    ],
)
def test_invalid_utf8_rejected(source: bytes) -> None:
    bad(source)


def _line_and_column(message: str) -> tuple[int, int]:
    line = re.search(r"\bline (\d+)", message)
    column = re.search(r"\bcolumn (\d+)", message)
    assert line and column, f"no line and column in {message!r}"
    return int(line.group(1)), int(column.group(1))


def test_invalid_utf8_message_names_line_and_column() -> None:
    err = bad(b'{\n  "a": "\xff"\n}')
    assert _line_and_column(err.message) == (2, 9)


@pytest.mark.parametrize(
    "text, where",
    [
        ('{"a": 1}\n  x', (2, 3)),
        ('{\n"a": tru}', (2, 6)),
        ("[1, 2,\n\n   @]", (3, 4)),
        ('{"a" 1}', (1, 6)),
        ("[1 2]", (1, 4)),
        ("{'a': 1}", (1, 2)),
        ("[1,]", (1, 4)),
        ('{"a": 1,}', (1, 9)),
        ("01", (1, 2)),
        ("+1", (1, 1)),
        (".5", (1, 1)),
        ("", (1, 1)),
        ("   ", (1, 4)),
        ('["a\tb"]', (1, 4)),
        ("[1] // comment", (1, 5)),
        ("0x10", (1, 2)),
    ],
)
def test_syntax_errors_name_line_and_column(text: str, where: tuple[int, int]) -> None:
    for source in (text, text.encode()):
        err = bad(source)
        assert _line_and_column(err.message) == where


@pytest.mark.parametrize("text", ['"unterminated', '{"a": 1', "[", "{", '{"a":', "[1, [2, [3]]"])
def test_truncated_input(text: str) -> None:
    err = bad(text)
    _line_and_column(err.message)


# ---------------------------------------------------------------------------------------------
# size limit
# ---------------------------------------------------------------------------------------------
def test_size_limit_bytes() -> None:
    assert load_json(b"[1, 2, 3]", max_bytes=9) == [1, 2, 3]
    bad(b"[1, 2, 3]", "limit-exceeded", max_bytes=8)
    assert load_json(b"[1, 2, 3]", max_bytes=None) == [1, 2, 3]


def test_size_limit_counts_utf8_bytes_of_text() -> None:
    text = '"éé"'  # 4 characters, 6 bytes
    assert load_json(text, max_bytes=6) == "éé"
    bad(text, "limit-exceeded", max_bytes=5)
    bad(text.encode(), "limit-exceeded", max_bytes=5)


def test_size_limit_checked_before_parsing() -> None:
    # an oversized source is refused for its size, whatever it contains
    bad("[" * 1000, "limit-exceeded", max_bytes=100)
    bad(b"\xff" * 200, "limit-exceeded", max_bytes=100)


def test_size_limit_via_compile_module() -> None:
    with pytest.raises(generator.SchemaError) as info:
        generator.compile_module(
            '{"type": "string"}', profile="strict", max_source_bytes=10, format=False
        )
    assert info.value.code == "limit-exceeded"


def test_a_file_over_the_source_limit_is_refused_reading_one_byte_more(tmp_path: Path) -> None:
    from generator.load import read_source

    path = tmp_path / "s.json"
    path.write_bytes(b'{"type": "string"}   ')  # 21 bytes
    assert read_source(str(path), max_bytes=21) == path.read_bytes()
    with pytest.raises(generator.SchemaError) as info:
        read_source(str(path), max_bytes=20)
    assert info.value.code == "limit-exceeded"
    assert info.value.message == "the file is over the source limit of 20 bytes"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_put_in_place_of_a_checked_file_is_refused_without_blocking(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file was regular when its type was checked, and a FIFO (which no writer opens) when it
    was opened: the opened descriptor's own type refuses it, and the non-blocking open means
    nothing waited for a writer."""
    from generator.load import read_regular

    regular, fifo = tmp_path / "s.json", tmp_path / "fifo"
    regular.write_text("{}")
    os.mkfifo(fifo)
    real_stat = os.stat
    monkeypatch.setattr(
        os, "stat", lambda path, *a, **k: real_stat(regular if path == fifo else path, *a, **k)
    )
    with pytest.raises(OSError) as raised:
        read_regular(fifo)
    monkeypatch.undo()
    assert raised.value.errno == errno.EINVAL
    assert raised.value.strerror == "a FIFO, not a regular file"


@pytest.mark.parametrize(
    "schema, kind", [([{"type": "string"}], "list"), (3, "int"), (None, "NoneType")]
)
def test_a_schema_that_is_no_object_boolean_or_text_is_refused(schema: Any, kind: str) -> None:
    with pytest.raises(generator.SchemaError) as info:
        generator.compile_source(schema)
    assert info.value.code == "not-a-schema"
    assert info.value.message == (
        f"a schema must be JSON text, bytes, an object or a boolean, not {kind}"
    )


def test_a_schema_object_nested_past_the_recursion_limit_is_a_schema_error() -> None:
    """Given as Python objects (no parser bounds its depth), 100,000 levels of `not`: the copy
    into exact types is refused as too deep, never a RecursionError."""
    schema: dict[str, Any] = {}
    for _ in range(100_000):
        schema = {"not": schema}
    with pytest.raises(generator.SchemaError) as info:
        generator.compile_source(schema)
    assert info.value.code == "limit-exceeded"
    assert info.value.message == "the schema is nested too deeply"


# ---------------------------------------------------------------------------------------------
# deep nesting: a SchemaError, never a RecursionError
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000,
        "[" * 100_000 + "]" * 100_000,
        '{"a":' * 100_000 + "1" + "}" * 100_000,
        "[{" * 50_000,
    ],
)
def test_very_deep_nesting_is_a_schema_error(text: str) -> None:
    with pytest.raises(generator.SchemaError):
        load_json(text)
    with pytest.raises(generator.SchemaError):
        load_json(text.encode())


def test_moderate_nesting_loads() -> None:
    value = load_json("[" * 500 + "]" * 500)
    depth = 0
    while value:
        value = value[0]
        depth += 1
    assert depth == 499 and value == []


def test_deep_duplicate_key_reports_pointer() -> None:
    text = '{"a":' * 400 + '{"k": 1, "k": 2}' + "}" * 400
    err = bad(text)
    assert err.pointer == "/a" * 400
