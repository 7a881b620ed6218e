"""Unit tests of the data side of `straightline validate`: the readers (JSON, JSON Lines, YAML),
directory discovery, the byte ranges JSON Lines files are cut into, and the text escaping."""

from __future__ import annotations

import io
import json
import os
import sys
import threading
import types
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.validate.discover import STDIN, DataFile, discover
from generator.validate.readers import (
    ReadProblem,
    format_for,
    jsonl_lines,
    read_json,
    read_json5,
    read_jsonl,
    read_toml,
    read_yaml,
)
from generator.validate.report import dumps, escape
from generator.validate.tasks import Task, plan

from .conftest import HANG_LIMIT, write

# --- formats ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "forced", "expected"),
    [
        ("a.json", None, "json"),
        ("a.JSONL", None, "jsonl"),
        ("a.ndjson", None, "jsonl"),
        ("a.yml", None, "yaml"),
        ("a.yaml", None, "yaml"),
        ("a.txt", None, "json"),
        (".json", None, "json"),
        ("a.json", "jsonl", "jsonl"),
        ("a.yaml", "json", "json"),
        ("a.b.jsonl", None, "jsonl"),
        ("v1.2.YML", None, "yaml"),
        (".jsonl", None, "json"),
        (".yaml", None, "json"),
    ],
)
def test_format_is_forced_else_by_suffix_else_json(
    name: str, forced: str | None, expected: str
) -> None:
    assert format_for(name, forced) == expected


# --- JSON ---------------------------------------------------------------------------------------


def test_json_document_is_read_exactly_as_json_loads_reads_it() -> None:
    text = '{"a": [1, 2.5, "x\\u00e9", null, true], "b": {"c": 12345678901234567890}}'
    assert read_json(text.encode()) == json.loads(text)


def test_json_syntax_error_names_its_line_and_column() -> None:
    with pytest.raises(ReadProblem) as caught:
        read_json(b'{\n  "a": 1,\n  "b" 2\n}')
    assert (caught.value.line, caught.value.column) == (3, 7)
    assert "Expecting ':' delimiter" in caught.value.message


def test_json_byte_order_mark_is_dropped_and_other_encodings_refused() -> None:
    assert read_json(b"\xef\xbb\xbf[1]") == [1]
    with pytest.raises(ReadProblem) as caught:
        read_json(b'["ok",\n "\xff"]')
    assert (caught.value.line, caught.value.column) == (2, 3)
    assert "not UTF-8" in caught.value.message


@pytest.mark.parametrize(
    ("data", "line", "column"),
    [
        (b'\n[\n "ok",\n  "\xff"\n]\n', 4, 4),  # newlines before and after, one at the very start
        (b'\n\n"\xff"', 3, 2),
        (b'"\xff"\n\n', 1, 2),
        (b'\n"\xff"', 2, 2),  # the only newline before it opens the data
    ],
)
def test_json_bytes_that_are_not_utf8_are_placed_by_the_newlines_before_them(
    data: bytes, line: int, column: int
) -> None:
    with pytest.raises(ReadProblem) as caught:
        read_json(data)
    assert (caught.value.line, caught.value.column) == (line, column)


@pytest.mark.parametrize("text", ["NaN", "[Infinity]", '{"a": -Infinity}'])
def test_json_nan_and_infinity_are_refused(text: str) -> None:
    with pytest.raises(ReadProblem, match="^invalid JSON: .* is not a JSON number") as caught:
        read_json(text.encode())
    assert caught.value.line is None  # (json names no place for it)


@pytest.mark.parametrize("text", ["", "   ", "[1] [2]", "{'a': 1}"])
def test_json_empty_or_malformed_is_a_problem(text: str) -> None:
    with pytest.raises(ReadProblem, match="invalid JSON"):
        read_json(text.encode())


def test_json_nested_too_deeply_is_a_problem_not_a_crash() -> None:
    with pytest.raises(ReadProblem) as caught:
        read_json(b"[" * 200_000 + b"]" * 200_000)
    assert (caught.value.message, caught.value.line) == (
        "invalid JSON: nested too deeply to read",
        None,
    )
    records = list(read_jsonl(b"1\n" + b"[" * 200_000 + b"]" * 200_000 + b"\n3\n"))
    assert records[0] == (1, 1) and records[2] == (3, 3)
    problem = records[1][1]
    assert isinstance(problem, ReadProblem)
    assert (records[1][0], problem.message, problem.line) == (
        2,
        "invalid JSON: nested too deeply to read",
        2,
    )


# --- JSON Lines ---------------------------------------------------------------------------------


def test_jsonl_records_by_line_with_blank_lines_skipped() -> None:
    data = b'{"a": 1}\n\n  \t\r\n[2]\r\n"three"\n'
    assert list(read_jsonl(data)) == [(1, {"a": 1}), (4, [2]), (5, "three")]


@pytest.mark.parametrize("space", ["\x0c", "\xa0", "\x0b", "\u3000", "\u2028", " \x0c\t"])
def test_jsonl_a_line_of_whitespace_json_does_not_allow_is_invalid_json_not_skipped(
    space: str,
) -> None:
    """Only JSON's whitespace (space, tab, and the CR of a CRLF) makes a line blank: a form feed or a
    no-break space is not JSON, so the line is a record that fails, never silently lost."""
    records = list(read_jsonl(b'{"a": 1}\n' + space.encode() + b"\n2\n"))
    assert [line for line, _ in records] == [1, 2, 3]
    problem = records[1][1]
    assert isinstance(problem, ReadProblem) and problem.line == 2
    assert problem.message.startswith("invalid JSON")
    assert records[2] == (3, 2)


def test_jsonl_last_line_without_newline_is_a_record() -> None:
    assert list(read_jsonl(b"1\n2")) == [(1, 1), (2, 2)]
    assert jsonl_lines(b"", at_file_start=True) == []


def test_jsonl_malformed_line_is_a_problem_in_place_and_the_others_are_read() -> None:
    records = list(read_jsonl(b'1\n{"a" 1}\n3\n'))
    assert [line for line, _ in records] == [1, 2, 3]
    problem = records[1][1]
    assert isinstance(problem, ReadProblem)
    assert (problem.line, problem.column) == (2, 6)
    assert records[2] == (3, 3)


def test_jsonl_a_line_that_is_not_utf8_is_lost_alone() -> None:
    records = list(read_jsonl(b'"a"\n"\xc3("\n"c"\n'))
    assert [line for line, _ in records] == [1, 2, 3]
    assert records[0] == (1, "a") and records[2] == (3, "c")
    assert isinstance(records[1][1], ReadProblem) and records[1][1].line == 2


@pytest.mark.parametrize("end", [b"", b"\n"])
def test_jsonl_lines_of_a_block_with_a_bad_line_keep_the_rest_and_the_file_start_rule(
    end: bytes,
) -> None:
    """Decoded line by line: the other lines whole (spaces included), the byte-order mark dropped
    from the file's first line only, no empty line after a final newline."""
    data = b'\xef\xbb\xbf[1, 2]\n\xff\n\xef\xbb\xbf"c d"' + end
    at_start = jsonl_lines(data, at_file_start=True)
    assert len(at_start) == 3 and at_start[0] == "[1, 2]" and at_start[2] == '\ufeff"c d"'
    assert isinstance(at_start[1], ReadProblem) and at_start[1].line == 2
    later = jsonl_lines(data, at_file_start=False)
    assert len(later) == 3 and later[0] == "\ufeff[1, 2]" and later[2] == '\ufeff"c d"'


def test_jsonl_a_byte_order_mark_opens_only_the_file() -> None:
    assert list(read_jsonl(b"\xef\xbb\xbf1\n2\n")) == [(1, 1), (2, 2)]
    second = list(read_jsonl(b"1\n\xef\xbb\xbf2\n"))
    assert second[0] == (1, 1) and isinstance(second[1][1], ReadProblem)


def test_jsonl_a_line_of_letters_is_no_blank_line() -> None:
    ((line, problem),) = read_jsonl(b"XX\n")
    assert (
        line == 1
        and isinstance(problem, ReadProblem)
        and problem.message.startswith("invalid JSON")
    )


@pytest.mark.parametrize(
    ("document", "message"),
    [
        (b"{1: 2}\n", "YAML key 1 at (root) is not a string"),
        (b"x~y:\n  c/d: .nan\n", "YAML value nan at /x~0y/c~1d is not a JSON number"),
        (b"!!set {a, b}\n", "YAML value at (root) is a set, which JSON has no type for"),
        (b"&x [*x]\n", "YAML value at /0 contains itself"),
    ],
)
def test_yaml_a_value_json_cannot_hold_is_named_with_its_documents_line(
    document: bytes, message: str
) -> None:
    """In the second document (line 3), by its JSON pointer (~ and / escaped)."""
    with pytest.raises(ReadProblem) as caught:
        read_yaml(b"a: 1\n---\n" + document)
    assert (caught.value.message, caught.value.line) == (message, 3)


def test_yaml_errors_are_worded_and_placed() -> None:
    with pytest.raises(ReadProblem) as caught:
        read_yaml(b"[1, 2\n")
    assert (
        caught.value.message
        == "invalid YAML: while parsing a flow sequence did not find expected ',' or ']'"
    )
    assert (caught.value.line, caught.value.column) == (2, 1)
    with pytest.raises(ReadProblem) as caught:
        read_yaml(b"a: \x01\n")
    assert caught.value.message.startswith("invalid YAML: unacceptable character #x0001")
    with pytest.raises(ReadProblem) as caught:
        read_yaml(b"")
    assert caught.value.message == "no YAML document"
    assert read_yaml(b"\xef\xbb\xbfa: 1\n") == [(1, {"a": 1})]  # a byte-order mark opens the file


def test_yaml_aliases_are_refused_past_the_budget_of_values_visited() -> None:
    from generator.validate.readers import _check_json_value

    _check_json_value([1, [2]], 4, budget=4)  # the list, 1, the inner list, 2
    with pytest.raises(ReadProblem) as caught:
        _check_json_value([1, [2]], 4, budget=3)
    assert (caught.value.message, caught.value.line) == (
        "YAML aliases expand to too many values",
        4,
    )


def _aliased(zeros: int, aliases: int, extra: int, padding: int) -> tuple[bytes, int]:
    """A YAML document whose list of `zeros` zeros is aliased `aliases` times, with a list of
    `extra` zeros and a comment of `padding` bytes; and the number of values it expands to."""
    text = (
        f"a: &x [{', '.join(['0'] * zeros)}]\nb: [{', '.join(['*x'] * aliases)}]\n"
        f"c: [{', '.join(['0'] * extra)}]\n#{'p' * padding}\n"
    )
    return (
        text.encode(),
        4 + zeros + aliases * (1 + zeros) + extra,
    )  # the root, a, b, c and their members


def test_yaml_aliases_may_expand_to_ten_values_a_byte_and_ten_thousand_more() -> None:
    """The walk's budget: 10 values for each byte of the stream, plus 10,000."""
    exact = [
        (aliases, extra, padding)
        for aliases in range(200, 240)
        for extra in range(1, 30)
        for padding in range(3, 13)
        if _aliased(99, aliases, extra, padding)[1]
        == 10 * len(_aliased(99, aliases, extra, padding)[0]) + 10_000
    ]
    assert exact
    aliases, extra, padding = exact[0]
    data, values = _aliased(99, aliases, extra, padding)
    assert read_yaml(data)[0][1]["c"] == [0] * extra  # exactly the budget
    over, more = _aliased(99, aliases, extra + 1, padding - 3)  # one value more in as many bytes
    assert len(over) == len(data) and more == values + 1
    with pytest.raises(ReadProblem, match="YAML aliases expand to too many values"):
        read_yaml(over)


def test_yaml_long_integers_are_read_exactly_and_underscores_make_a_string() -> None:
    """YAML 1.2's core schema: digits past Python's int limit are still one exact number, and
    `11_111` is no integer form there (YAML 1.1's), so it stays the string it is written as."""
    digits = "1" * 5000
    ((_, value),) = read_yaml(f"a: {digits}\n".encode())
    assert value == {"a": Decimal(digits)}
    ((_, value),) = read_yaml(f"a: {digits[:2]}_{digits[2:]}\n".encode())
    assert value == {"a": f"{digits[:2]}_{digits[2:]}"}


def test_yaml_data_is_read_with_the_c_loader_where_pyyaml_has_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import yaml

    from generator.validate import readers

    monkeypatch.setattr(readers, "_YAML_LOADER", None)
    if hasattr(yaml, "CSafeLoader"):
        assert issubclass(readers._yaml_loader(), yaml.CSafeLoader)
    monkeypatch.setattr(readers, "_YAML_LOADER", None)
    monkeypatch.delattr(yaml, "CSafeLoader", raising=False)  # PyYAML built without libyaml
    loader = readers._yaml_loader()
    assert issubclass(loader, yaml.SafeLoader) and read_yaml(b"a: 1\n") == [(1, {"a": 1})]
    monkeypatch.setattr(readers, "_YAML_LOADER", None)


def test_yaml_data_without_pyyaml_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    from generator.validate import readers

    monkeypatch.setattr(readers, "_YAML_LOADER", None)
    monkeypatch.setitem(sys.modules, "yaml", None)  # (an import of it raises ImportError)
    with pytest.raises(readers.YamlMissing) as missing:
        readers.require_yaml("data.yaml")
    assert (
        missing.value.message
        == "data.yaml is YAML, which needs PyYAML: pip install 'straightline[yaml]'"
    )


def test_jsonl_unicode_line_separators_inside_strings_do_not_split_lines() -> None:
    data = '"a\u2028b"\n"c\x85d"\n'.encode()
    assert [value for _, value in read_jsonl(data)] == ["a\u2028b", "c\x85d"]


# --- TOML and JSON5 ------------------------------------------------------------------------------


def test_toml_is_one_instance_its_dates_rfc_3339_text() -> None:
    data = (
        b'name = "x"\nversion = 2\nratio = 0.5\nbig = 12345678901234567890\n'
        b"at = 1979-05-27T07:32:00-08:00\nutc = 1979-05-27T07:32:00Z\nlocal = 1979-05-27T07:32:00\n"
        b'day = 1979-05-27\ntime = 07:32:00.5\n[tool.x]\nlist = [1, "a", {b = true}]\n'
    )
    assert read_toml(data) == {
        "name": "x",
        "version": 2,
        "ratio": 0.5,
        "big": 12345678901234567890,
        "at": "1979-05-27T07:32:00-08:00",
        "utc": "1979-05-27T07:32:00+00:00",
        "local": "1979-05-27T07:32:00",
        "day": "1979-05-27",
        "time": "07:32:00.500000",
        "tool": {"x": {"list": [1, "a", {"b": True}]}},
    }


@pytest.mark.parametrize(
    ("data", "message", "line", "column"),
    [
        (b'a = 1\nb = [1,\nc = "x"\n', "invalid TOML: Invalid value", 3, 1),
        (b"a = 1\na = 2\n", "invalid TOML: Cannot overwrite a value", 2, 6),
        (b'a = "open\n', "invalid TOML: Illegal character", 1, 10),
        (b"x = [1, inf]\n", "TOML value inf at /x/1 is not a JSON number", None, None),
        (b"[t]\ny = nan\n", "TOML value nan at /t/y is not a JSON number", None, None),
        (b"a = \xff\n", "not UTF-8", 1, 5),
    ],
)
def test_toml_problems_are_read_problems_with_their_place(
    data: bytes, message: str, line: int | None, column: int | None
) -> None:
    with pytest.raises(ReadProblem) as caught:
        read_toml(data)
    assert caught.value.message.startswith(message)
    assert caught.value.line == line
    if column is not None:
        assert caught.value.column == column


def test_json5_comments_trailing_commas_and_names_read_as_json() -> None:
    pytest.importorskip("json5")
    data = b"// config\n{extends: ['config:base'], 'n': 0x10, f: .5, e: 1e3, big: 123456789012345678901234,}\n"
    assert read_json5(data) == {
        "extends": ["config:base"],
        "n": 16,
        "f": 0.5,
        "e": 1000.0,
        "big": 123456789012345678901234,
    }


@pytest.mark.parametrize(
    ("data", "message", "line", "column"),
    [
        (b"{a: 1,\n b: }\n", 'invalid JSON5: Unexpected "}"', 2, 5),
        (b"[1, Infinity]", "invalid JSON5: Infinity is not a JSON number", None, None),
        (b"{a: NaN}", "invalid JSON5: NaN is not a JSON number", None, None),
    ],
)
def test_json5_problems_are_read_problems_with_their_place(
    data: bytes, message: str, line: int | None, column: int | None
) -> None:
    pytest.importorskip("json5")
    with pytest.raises(ReadProblem) as caught:
        read_json5(data)
    assert (caught.value.message, caught.value.line, caught.value.column) == (message, line, column)


# --- YAML ---------------------------------------------------------------------------------------


def test_yaml_documents_with_their_start_lines() -> None:
    data = b"left: 1\nright: 2\n---\n- a\n- b\n---\n7\n"
    assert read_yaml(data) == [(1, {"left": 1, "right": 2}), (4, ["a", "b"]), (7, 7)]


def test_yaml_timestamps_stay_strings_as_json_has_no_dates() -> None:
    assert read_yaml(b"when: 2024-01-02\nat: 2024-01-02T03:04:05Z\n") == [
        (1, {"when": "2024-01-02", "at": "2024-01-02T03:04:05Z"})
    ]


def test_yaml_syntax_error_names_its_line_and_column() -> None:
    with pytest.raises(ReadProblem) as caught:
        read_yaml(b"a: 1\nb: [1, 2\nc: 3\n")
    assert caught.value.message.startswith("invalid YAML")
    assert caught.value.line is not None and caught.value.line >= 2
    assert caught.value.column is not None


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        (b"{1: a}", "key 1 at (root) is not a string"),
        (b"a: {b: !!binary aGk=}", "at /a/b is a bytes"),
        (b"a: !!set {x: null}", "at /a is a set"),
        (b"a: [.nan]", "at /a/0 is not a JSON number"),
        (b"a: &x [*x]", "contains itself"),
    ],
)
def test_yaml_values_json_cannot_hold_are_refused_with_their_place(
    text: bytes, fragment: str
) -> None:
    with pytest.raises(ReadProblem) as caught:
        read_yaml(text)
    assert fragment in caught.value.message


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        (b"a: !!int 0x_\n", "'0x_' is not a valid int", 4),
        (b"a: !!int 1_000\n", "'1_000' is not a valid int", 4),  # a YAML 1.1 int, not a 1.2 one
        (b"a: !!bool yes\n", "'yes' is not a valid bool", 4),  # a YAML 1.1 bool
        (b"a: !!float 1_000.5\n", "'1_000.5' is not a valid float", 4),
        (b"a: 1\nb: !!int abc\n", "'abc' is not a valid int", 4),
        (b"- !!float abc\n", "'abc' is not a valid float", 3),
        (b"a: !!bool maybe\n", "'maybe' is not a valid bool", 4),
        (b"a: !!timestamp nope\n", "'nope' is not a valid timestamp", 4),
        (b"a: !!null x\n", "'x' is not a valid null", 4),  # PyYAML made it None
        (b"a: !!null false\n", "'false' is not a valid null", 4),
        (b"a: !!int ' 12'\n", "' 12' is not a valid int", 4),  # int() strips spaces
        (
            b"a: !!int \xd9\xa1\xd9\xa2\n",
            "'\u0661\u0662' is not a valid int",
            4,
        ),  # and reads other digits
        (b"a: !!float ' 1.5'\n", "' 1.5' is not a valid float", 4),
        (b"a: !!float Infinity\n", "'Infinity' is not a valid float", 4),
        (b"a: !!bool YeS\n", "'YeS' is not a valid bool", 4),  # .lower() of it was a YAML 1.1 bool
    ],
)
def test_yaml_scalars_its_tag_cannot_be_are_problems_with_their_place(
    text: bytes, message: str, column: int
) -> None:
    """PyYAML's own constructors raise ValueError, KeyError or AttributeError on these (a plain
    `0x_` among them): each is a ReadProblem at the value, never an exception out of the reader."""
    with pytest.raises(ReadProblem) as caught:
        read_yaml(text)
    assert caught.value.message == f"invalid YAML: {message}"
    assert (caught.value.line, caught.value.column) == (text.count(b"\n"), column)


@pytest.mark.parametrize("length", [39, 40, 41, 200])
def test_yaml_a_long_bad_scalar_is_shown_by_its_first_40_characters(length: int) -> None:
    value = "ab" * (length // 2) + "a" * (length % 2)
    with pytest.raises(ReadProblem) as caught:
        read_yaml(f"a: !!int {value}\n".encode())
    shown = repr(value) if length <= 40 else repr(value[:40]) + "..."
    assert caught.value.message == f"invalid YAML: {shown} is not a valid int"


def test_yaml_explicit_tags_hold_their_forms_as_the_schema_loader_has_them() -> None:
    """A tagged scalar is read when it is a YAML 1.2 core form of its tag (the schema loader's
    rule); `!!str` makes anything a string."""
    text = (
        b"a: !!bool true\nb: !!bool FALSE\nc: !!null\nd: !!null ~\ne: !!int -12\nf: !!int 0o17\n"
        b"g: !!int 0x1F\nh: !!float 1\ni: !!float 1e5\nj: !!str yes\nk: !!str 12\n"
    )
    assert read_yaml(text) == [
        (
            1,
            {
                "a": True,
                "b": False,
                "c": None,
                "d": None,
                "e": -12,
                "f": 15,
                "g": 31,
                "h": 1.0,
                "i": 100000.0,
                "j": "yes",
                "k": "12",
            },
        )
    ]


def test_yaml_data_is_read_by_the_yaml_1_2_core_schema() -> None:
    """YAML 1.1's booleans (`on`, `yes`, `NO`, `y`), sexagesimal and underscored numbers, `0x_`
    and timestamps are strings, as in the schema loader and in check-jsonschema; a leading zero
    is decimal, not octal. A GitHub workflow's `on:` key is the string "on"."""
    text = (
        b"on: push\ncountry: NO\nenabled: yes\nshort: y\nOff: off\ntime: 1:30\nbig: 1_000\n"
        b"hex: 0x_\nzero: 012\noctal: 0o12\nwhen: 2024-01-02\nexp: 1e3\nfrac: .5\nneg: -.5E1\n"
        b"plus: +12\nempty:\nt: TRUE\n"
    )
    assert read_yaml(text) == [
        (
            1,
            {
                "on": "push",
                "country": "NO",
                "enabled": "yes",
                "short": "y",
                "Off": "off",
                "time": "1:30",
                "big": "1_000",
                "hex": "0x_",
                "zero": 12,
                "octal": 10,
                "when": "2024-01-02",
                "exp": 1000.0,
                "frac": 0.5,
                "neg": -5.0,
                "plus": 12,
                "empty": None,
                "t": True,
            },
        )
    ]
    with pytest.raises(ReadProblem, match="key True at /x is not a string"):
        read_yaml(b"x: {true: 1}\n")


def test_gitlab_references_are_the_lists_they_tag_and_other_tags_refused() -> None:
    text = b".setup:\n  script: [make]\njob:\n  script:\n    - !reference [.setup, script]\n    - make test\n"
    assert read_yaml(text) == [
        (
            1,
            {
                ".setup": {"script": ["make"]},
                "job": {"script": [[".setup", "script"], "make test"]},
            },
        )
    ]
    for data, message in (
        (b"x: !reference {a: 1}\n", "invalid YAML: a mapping is not a valid !reference"),
        (b"x: !reference abc\n", "invalid YAML: 'abc' is not a valid !reference"),
        (b"x: !!int [1]\n", "invalid YAML: a sequence is not a valid int"),
    ):
        with pytest.raises(ReadProblem) as caught:
            read_yaml(data)
        assert (caught.value.message, caught.value.line, caught.value.column) == (message, 1, 4)
    with pytest.raises(ReadProblem, match="could not determine a constructor for the tag '!other'"):
        read_yaml(b"x: !other [1]\n")


def test_yaml_merge_keys_are_read_as_check_jsonschema_reads_them() -> None:
    """`<<: *base` (GitLab CI, Compose files) merges the anchored mapping; the keys given win."""
    text = b"base: &b {image: x, stage: test}\njob:\n  <<: *b\n  stage: deploy\n"
    assert read_yaml(text) == [
        (1, {"base": {"image": "x", "stage": "test"}, "job": {"image": "x", "stage": "deploy"}})
    ]


@pytest.mark.parametrize(
    "text",
    [
        "true",
        "False",
        "NULL",
        "~",
        "",
        "-12",
        "0o17",
        "0x1F",
        "1",
        ".5e3",
        "1.5",
        "abc",
        "y",
        "1.",
        " 12",
        "Infinity",
        "NaN",
        "\u0661",
        "tRUE",
        "0x",
    ],
)
@pytest.mark.parametrize("tag", ["null", "bool", "int", "float"])
def test_yaml_a_core_form_is_read_by_both_loaders_and_a_non_form_by_neither(
    tag: str, text: str
) -> None:
    """Data and schema loaders share the rule (generator.yaml_loader.is_core_form)."""
    from generator import SchemaError
    from generator.yaml_loader import is_core_form, load_yaml

    source = f"x: !!{tag} {json.dumps(text)}\n"
    try:
        schema_reads = load_yaml(source) is not None
    except SchemaError:
        schema_reads = False
    try:
        data_reads = read_yaml(source.encode()) is not None
    except ReadProblem:
        data_reads = False
    expected = is_core_form(f"tag:yaml.org,2002:{tag}", text)
    assert (schema_reads, data_reads) == (expected, expected)


def test_integers_longer_than_int_reads_are_read_exactly() -> None:
    """Python's int() refuses more than 4,300 digits (json.loads with it: "Exceeds the limit ...
    use sys.set_int_max_str_digits()"); such integers are read as exact Decimals, in JSON, JSON
    Lines and YAML, and a malformed record is still refused as before."""
    digits = "9" * 5000
    assert read_json(f'{{"n": {digits}, "m": 1.5}}'.encode()) == {"n": Decimal(digits), "m": 1.5}
    assert list(read_jsonl(f"[-{digits}]\n[1]\n".encode())) == [
        (1, [Decimal("-" + digits)]),
        (2, [1]),
    ]
    assert read_yaml(f"n: {digits}\nm: 0x10\n".encode()) == [(1, {"n": Decimal(digits), "m": 16})]
    with pytest.raises(ReadProblem, match="invalid JSON: Expecting"):
        read_json(f"[{digits},]".encode())
    with pytest.raises(ReadProblem, match="NaN is not a JSON number"):
        read_json(f"[{digits}, NaN]".encode())


def test_yaml_alias_bomb_is_refused_not_expanded() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join(f'*a{i - 1}' for _ in range(10))}]" for i in range(1, 9)]
    with pytest.raises(ReadProblem, match="aliases expand to too many values"):
        read_yaml("\n".join(lines).encode())


def test_yaml_shared_aliases_within_bounds_are_read() -> None:
    assert read_yaml(b"base: &b {x: 1}\nuse: *b\n") == [(1, {"base": {"x": 1}, "use": {"x": 1}})]


def test_yaml_empty_stream_is_a_problem() -> None:
    with pytest.raises(ReadProblem, match="no YAML document"):
        read_yaml(b"# only a comment\n")


# --- discovery ----------------------------------------------------------------------------------


def _tree(root: Path) -> None:
    for name in [
        "a.json",
        "b.JSONL",
        "c.yml",
        "notes.txt",
        "sub/d.ndjson",
        "sub/deeper/e.yaml",
        ".hidden.json",
        ".git/f.json",
        "sub/x.data",
    ]:
        write(root / name, "1")


def test_directories_are_searched_recursively_sorted_skipping_hidden(tmp_path: Path) -> None:
    _tree(tmp_path)
    found = discover([str(tmp_path)], [], None)
    relative = [os.path.relpath(d.path, tmp_path) for d in found]
    assert relative == ["a.json", "b.JSONL", "c.yml", "sub/d.ndjson", "sub/deeper/e.yaml"]
    assert [d.format for d in found] == ["json", "jsonl", "yaml", "jsonl", "yaml"]


def test_what_a_directory_search_passes_over_is_named_with_the_reason(tmp_path: Path) -> None:
    from generator.validate.discover import Skipped

    _tree(tmp_path)
    (tmp_path / "sub" / "linked").symlink_to(tmp_path / "sub" / "deeper", target_is_directory=True)
    write(tmp_path / "README", "no suffix")
    skipped: list[Skipped] = []
    discover([str(tmp_path)], [], None, skipped)
    reasons = {os.path.relpath(entry.display, tmp_path): entry.reason for entry in skipped}
    assert reasons == {
        ".git": "hidden (a name starting with '.'), not searched",
        ".hidden.json": "hidden (a name starting with '.'); name it to read it",
        "README": "not a data file by its name (no suffix; --glob and --data-format read it)",
        "notes.txt": "not a data file by its name (suffix .txt; --glob and --data-format read it)",
        "sub/linked": "a symbolic link to a directory, not followed",
        "sub/x.data": "not a data file by its name (suffix .data; --glob and --data-format read it)",
    }
    by_glob: list[Skipped] = []
    discover([str(tmp_path)], ["*.yml"], None, by_glob)
    assert {
        os.path.relpath(entry.display, tmp_path): entry.reason
        for entry in by_glob
        if not entry.reason.startswith(("hidden", "a symbolic"))
    } == {
        name: "does not match --glob *.yml"
        for name in [
            "README",
            "a.json",
            "b.JSONL",
            "notes.txt",
            "sub/d.ndjson",
            "sub/deeper/e.yaml",
            "sub/x.data",
        ]
    }


def test_toml_and_json5_files_are_data_by_their_suffix(tmp_path: Path) -> None:
    for name in ("pyproject.toml", "renovate.json5", "other.TOML"):
        write(tmp_path / name, "")
    found = discover([str(tmp_path)], [], None)
    assert [(os.path.basename(d.path), d.format) for d in found] == [
        ("other.TOML", "toml"),
        ("pyproject.toml", "toml"),
        ("renovate.json5", "json5"),
    ]


def test_glob_patterns_by_name_or_by_relative_path(tmp_path: Path) -> None:
    _tree(tmp_path)
    by_name = discover([str(tmp_path)], ["*.data", "*.txt"], None)
    assert sorted(os.path.relpath(d.path, tmp_path) for d in by_name) == ["notes.txt", "sub/x.data"]
    by_path = discover([str(tmp_path)], ["sub/*.yaml"], None)
    assert [os.path.relpath(d.path, tmp_path) for d in by_path] == ["sub/deeper/e.yaml"]


def test_named_files_are_read_whatever_their_name_and_missing_ones_refused(tmp_path: Path) -> None:
    from generator.errors import OptionError

    _tree(tmp_path)
    found = discover([str(tmp_path / "notes.txt"), "-"], ["*.json"], "jsonl")
    assert [(d.display, d.format) for d in found] == [
        (str(tmp_path / "notes.txt"), "jsonl"),
        ("<stdin>", "jsonl"),
    ]
    with pytest.raises(OptionError, match="no such file or directory"):
        discover([str(tmp_path / "missing.json")], [], None)
    with pytest.raises(OptionError, match="only once"):
        discover(["-", "-"], [], None)


# --- ranges of JSON Lines files -----------------------------------------------------------------


@given(
    lines=st.lists(st.text(alphabet="ab\r ", max_size=12), max_size=30),
    chunk=st.integers(min_value=1, max_value=40),
    final_newline=st.booleans(),
)
def test_byte_ranges_hold_every_line_exactly_once_in_order(
    tmp_path_factory: pytest.TempPathFactory, lines: list[str], chunk: int, final_newline: bool
) -> None:
    from generator.validate.discover import DataFile

    text = "\n".join(lines) + ("\n" if final_newline and lines else "")
    path = tmp_path_factory.mktemp("ranges") / "data.jsonl"
    path.write_bytes(text.encode())
    tasks = list(plan([DataFile(str(path), "data.jsonl", "jsonl", len(text))], chunk_bytes=chunk))
    assert tasks[0].first and tasks[-1].last and not any(t.last for t in tasks[:-1])
    joined = b"".join(task.read() for task in tasks)
    assert joined == text.encode()
    pieces = [task.read() for task in tasks]
    for index, piece in enumerate(pieces):  # whole lines: only the end of the file may lack "\n"
        if piece and not piece.endswith(b"\n"):
            assert not any(pieces[index + 1 :])
    counted = sum(len(jsonl_lines(piece, at_file_start=t.first)) for piece, t in zip(pieces, tasks))
    assert counted == len(jsonl_lines(text.encode(), at_file_start=True))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_put_in_place_of_a_planned_file_is_refused_not_waited_on(tmp_path: Path) -> None:
    """A data file replaced by a FIFO between discovery and reading blocked open() for ever (in
    the command, or in a --jobs worker); a task of a file found regular now refuses what is no
    longer one. A FIFO named as DATA is still read (test_a_named_device_is_refused_and_a_named_
    pipe_is_read)."""
    write(tmp_path / "a.json", {"left": 1})
    write(tmp_path / "b.jsonl", '{"left": 1}\n' * 20)
    planned = list(plan(discover([str(tmp_path)], [], None), chunk_bytes=100))
    assert [task.path for task in planned] == [str(tmp_path / "a.json")] + [
        str(tmp_path / "b.jsonl")
    ] * 3
    for name in ("a.json", "b.jsonl"):
        (tmp_path / name).unlink()
        os.mkfifo(tmp_path / name)
    refusals: list[str] = []

    def read_all() -> None:
        for task in planned:
            try:
                task.read()
            except OSError as exc:
                refusals.append(str(exc))

    reader = threading.Thread(target=read_all, daemon=True)
    reader.start()
    reader.join(HANG_LIMIT)
    while reader.is_alive():  # open each FIFO for writing: the blocked open() returns
        for name in ("a.json", "b.jsonl"):
            try:
                os.close(os.open(tmp_path / name, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:  # no reader on this one (yet)
                pass
        reader.join(0.1)
        refusals.append("blocked")
    assert refusals == ["no longer a regular file"] * 4


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_task_of_a_file_not_found_regular_reads_it_as_it_comes(tmp_path: Path) -> None:
    """A FIFO named as DATA (a task not marked regular) is opened as it is and read to its end,
    whole, as its writer sends it; a regular file read so gives its bytes, whole or by range."""
    fifo = tmp_path / "lines.jsonl"
    os.mkfifo(fifo)
    sent = b'{"left": 1}\n{"left": 2}\n'

    def send() -> None:
        with open(fifo, "wb") as writer:
            writer.write(sent)

    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    task = Task(0, str(fifo), "jsonl", True, True, 0)
    assert task.regular is False and task.read() == sent
    sender.join(HANG_LIMIT)
    plain = tmp_path / "plain.jsonl"
    plain.write_bytes(sent)
    assert Task(1, str(plain), "jsonl", True, True, len(sent)).read() == sent
    second = Task(1, str(plain), "jsonl", False, True, 12, start=12, end=None)
    assert second.read() == b'{"left": 2}\n'


def test_the_plan_numbers_each_file_and_cuts_only_large_json_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each file's tasks carry its number; a file with a problem is one task that carries it;
    JSON Lines over the chunk size are byte ranges that cover it once; anything else is whole."""
    big = write(tmp_path / "big.jsonl", "1\n22\n333\n4444\n")  # 16 bytes
    small = write(tmp_path / "small.jsonl", "1\n")
    whole = write(tmp_path / "doc.json", "[1, 2]")
    monkeypatch.setattr(sys, "stdin", types.SimpleNamespace(buffer=_Pieces([b"5\n"])))
    files = [
        DataFile(str(big), "big.jsonl", "jsonl", 16),
        DataFile("missing.json", "missing.json", "json", None, problem="no such file"),
        DataFile(str(small), "small.jsonl", "jsonl", 2),
        DataFile(STDIN, "<stdin>", "jsonl", None),
        DataFile(str(whole), "doc.json", "json", 6),
        DataFile(str(whole), "doc.json", "json", None),
    ]
    tasks = list(plan(files, chunk_bytes=6))
    assert [(t.file, t.first, t.last, t.size, t.start, t.end) for t in tasks] == [
        (0, True, False, 6, 0, 6),
        (0, False, False, 6, 6, 12),
        (0, False, True, 4, 12, None),
        (1, True, True, 0, 0, None),
        (2, True, True, 2, 0, None),
        (3, True, False, 2, 0, 2),
        (3, False, True, 0, 2, None),
        (4, True, True, 6, 0, None),
        (5, True, True, 0, 0, None),
    ]
    assert tasks[3].problem == "no such file" and tasks[3].path == "missing.json"
    assert [t.problem for t in tasks if t.file != 1] == [None] * 8
    assert b"".join(t.read() for t in tasks[:3]) == big.read_bytes() and tasks[4].read() == b"1\n"
    assert tasks[5].read() == b"5\n" and tasks[7].read() == b"[1, 2]"
    assert [t.format for t in tasks] == ["jsonl"] * 3 + ["json"] + ["jsonl"] * 3 + ["json"] * 2


class _Counted(io.BytesIO):
    """A file that counts the bytes read from it."""

    read_bytes = 0

    def read(self, size: int | None = -1) -> bytes:
        data = super().read(size)
        self.read_bytes += len(data)
        return data

    def readline(self, size: int | None = -1) -> bytes:
        data = super().readline(size)
        self.read_bytes += len(data)
        return data


def test_a_range_inside_a_long_line_reads_no_further_than_its_end() -> None:
    """A range that a line begun before it crosses whole holds no line: found by reading that
    range alone (never the rest of a line of any length), and one that holds the end of such a
    line reads up to its own end and the line it ends in."""
    from generator.validate.tasks import _read_range

    data = b"x" * 200_000 + b"\n1\n22\n"
    handle = _Counted(data)
    assert _read_range(handle, 1000, 2000) == b"" and handle.read_bytes <= 1001
    handle = _Counted(data)
    assert _read_range(handle, 199_990, 200_004) == b"1\n22\n" and handle.read_bytes <= 2 * 14 + 3
    assert (
        _read_range(_Counted(data), 0, 10) == data[:200_001]
    )  # the line begun in the range, whole


def test_a_task_of_standard_input_carries_its_bytes() -> None:
    task = Task(0, "-", "jsonl", first=True, last=True, size=3, data=b"1\n2")
    assert task.read() == b"1\n2"


class _Pieces(io.RawIOBase):
    """Standard input that arrives in the given pieces (a pipe: read1 returns what is there)."""

    def __init__(self, pieces: list[bytes]) -> None:
        self.pieces = list(pieces)

    def readable(self) -> bool:
        return True

    def read1(self, size: int = -1) -> bytes:
        return self.pieces.pop(0) if self.pieces else b""

    def read(self, size: int = -1) -> bytes:
        data = b"".join(self.pieces)
        self.pieces = []
        return data


def _stdin_tasks(
    monkeypatch: pytest.MonkeyPatch, pieces: list[bytes], format: str, chunk: int
) -> list[Task]:
    monkeypatch.setattr(sys, "stdin", types.SimpleNamespace(buffer=_Pieces(pieces)))
    return list(plan([DataFile(STDIN, "<stdin>", format, None)], chunk_bytes=chunk))


def test_standard_input_is_read_a_chunk_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each read asks for at most a chunk: a task holds at most a chunk and the line it ends in."""
    data = b"".join(b"%d\n" % i for i in range(3000))
    monkeypatch.setattr(
        sys, "stdin", types.SimpleNamespace(buffer=io.BufferedReader(io.BytesIO(data)))
    )
    tasks = list(plan([DataFile(STDIN, "<stdin>", "jsonl", None)], chunk_bytes=64))
    assert b"".join(t.read() for t in tasks) == data
    assert len(tasks) > 100 and max(t.size for t in tasks) <= 64 + 5


@pytest.mark.parametrize("format", ["json", "yaml"])
def test_standard_input_of_a_whole_document_is_one_task(
    monkeypatch: pytest.MonkeyPatch, format: str
) -> None:
    tasks = _stdin_tasks(monkeypatch, [b'{"a":', b" 1}\n"], format, 4)
    assert [(t.file, t.path, t.format, t.first, t.last, t.size, t.read()) for t in tasks] == [
        (0, STDIN, format, True, True, 9, b'{"a": 1}\n')
    ]


@pytest.mark.parametrize(
    ("pieces", "chunk", "expected"),
    [
        # each block ends at a line's end once a quarter of a chunk has arrived; the rest is the last
        ([b"1\n2\n3", b"\n4\n"], 8, [b"1\n2\n", b"3\n4\n", b""]),
        ([b"12345\n", b"6\n"], 8, [b"12345\n", b"6\n", b""]),
        ([b"1", b"\n", b"22\n"], 32, [b"1\n22\n"]),  # never a quarter of 32 bytes: one task
        ([b"1\n2", b"2\n3"], 4, [b"1\n", b"22\n", b"3"]),  # the last line without its newline
        ([b"abc", b"def"], 4, [b"abcdef"]),  # no newline at all: nothing to cut at
        ([], 8, [b""]),
        ([b"\n", b"1\n"], 6, [b"\n", b"1\n", b""]),  # a quarter of 6 is 1 byte
        ([b"\n", b"2\n"], 8, [b"\n2\n", b""]),  # and of 8, 2
    ],
)
def test_standard_input_json_lines_is_cut_into_blocks_of_whole_lines_as_they_arrive(
    monkeypatch: pytest.MonkeyPatch, pieces: list[bytes], chunk: int, expected: list[bytes]
) -> None:
    tasks = _stdin_tasks(monkeypatch, pieces, "jsonl", chunk)
    assert [t.read() for t in tasks] == expected
    assert [(t.first, t.last) for t in tasks] == [
        (i == 0, i == len(tasks) - 1) for i in range(len(tasks))
    ]
    assert all(t.size == len(t.read()) and t.path == STDIN and t.format == "jsonl" for t in tasks)


# --- escaping and JSON text ---------------------------------------------------------------------


def test_escape_leaves_no_control_format_or_surrogate_character() -> None:
    hostile = "a\nb\rc\td\x1b[31m\x85\u2028\u202e\ud800\ufeff"
    escaped = escape(hostile)
    assert escaped == "a\\nb\\rc\\td\\x1b[31m\\x85\\u2028\\u202e\\ud800\\ufeff"
    assert escape("plain é ✓ /a~1b") == "plain é ✓ /a~1b"


# What report.py escaped before the rule was one on Unicode categories: all of it stays escaped.
_ESCAPED_BEFORE = (
    "\x00-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064"
    "\u2066-\u206f\ufeff\ufff9-\ufffb\ud800-\udfff"
)


def test_escape_follows_the_unicode_category_rule_on_every_code_point() -> None:
    import re
    import unicodedata

    from generator.cli.files import printable

    escaped_before = re.compile(f"[{_ESCAPED_BEFORE}]")
    for code in range(0x110000):
        char = chr(code)
        category = unicodedata.category(char)
        must = (
            (category in {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
            or (category == "Zs" and char != " ")
            or 0xFE00 <= code <= 0xFE0F
            or 0xE0100 <= code <= 0xE01EF
        )
        shown = escape(char)
        assert shown == (ascii(char)[1:-1] if must else char), hex(code)
        assert printable(char) == shown  # compile's and check's messages: the same rule
        assert must or not escaped_before.match(char), hex(code)


def test_escape_leaves_no_invisible_character() -> None:
    hostile = "k\U000e0001\U000e0068\U000e0069\U000e007fi\ufe0f\U000e0100\u200b\u2028\u202e\U0001d173\xa0\u3000"
    assert escape(hostile) == (
        "k\\U000e0001\\U000e0068\\U000e0069\\U000e007fi\\ufe0f\\U000e0100\\u200b"
        "\\u2028\\u202e\\U0001d173\\xa0\\u3000"
    )
    assert escape("plain é ✓ 名前 \U0001f600 a b") == "plain é ✓ 名前 \U0001f600 a b"


def test_dumps_is_ascii_and_keeps_decimals_exact() -> None:
    from decimal import Decimal

    text = dumps({"x": Decimal("0.30000000000000000001"), "k\n": "\ud800é"})
    assert text.isascii()
    assert text == '{"x": 0.30000000000000000001, "k\\n": "\\ud800\\u00e9"}'


def test_yaml_nested_too_deeply_for_the_python_loader_is_a_problem_not_a_crash(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """PyYAML without libyaml composes a node by recursion: 900 levels (under the scanner's
    limit of 1000) exhaust Python's stack there, which is a ReadProblem, as it is in JSON."""
    import yaml

    from generator.validate import readers

    monkeypatch.setattr(readers, "_YAML_LOADER", None)
    monkeypatch.delattr(yaml, "CSafeLoader", raising=False)
    with pytest.raises(ReadProblem) as caught:
        read_yaml(b"[" * 900 + b"]" * 900)
    assert caught.value.message == "invalid YAML: nested too deeply to read"
    monkeypatch.setattr(readers, "_YAML_LOADER", None)


@pytest.mark.parametrize(
    ("data", "message", "line"),
    [
        (b"a = 1\nb = [1,", "invalid TOML: Invalid value", 2),  # at the end of the document
        (b"a = 1" + b"0" * 5000 + b"\n", "invalid TOML: Exceeds the limit (4300 digits)", None),
        (b"a = " + b"[" * 100_000 + b"]" * 100_000, "invalid TOML: maximum recursion depth", None),
    ],
)
def test_toml_problems_at_the_end_too_long_or_too_deep(
    data: bytes, message: str, line: int | None
) -> None:
    with pytest.raises(ReadProblem) as caught:
        read_toml(data)
    assert caught.value.message.startswith(message) and caught.value.line == line


def test_json5_nested_too_deeply_is_a_problem_not_a_crash() -> None:
    pytest.importorskip("json5")
    with pytest.raises(ReadProblem) as caught:
        read_json5(b"[" * 100_000 + b"]" * 100_000)
    assert (caught.value.message, caught.value.line) == (
        "invalid JSON5: nested too deeply to read",
        None,
    )


def test_jsonl_is_read_without_msgspec_as_well(monkeypatch: pytest.MonkeyPatch) -> None:
    """msgspec is optional: without it, lines are read by json alone, to the same records."""
    from generator.validate import readers

    data = b'{"a": 1}\n[1, 2.5]\n"x"\n'
    with_msgspec = list(read_jsonl(data))
    monkeypatch.setattr(readers, "_FAST_DECODE", None)
    monkeypatch.setitem(sys.modules, "msgspec", None)  # (its import fails)
    assert readers.fast_json_decoder() is None
    assert list(read_jsonl(data)) == with_msgspec == [(1, {"a": 1}), (2, [1, 2.5]), (3, "x")]
    monkeypatch.setattr(readers, "_FAST_DECODE", None)


def test_dumps_writes_lists_floats_and_what_json_cannot_hold() -> None:
    """A value JSON cannot write (a non-finite float, a set) is shown by its repr rather than
    lost; lists and finite floats beside a Decimal are written as JSON writes them."""
    from decimal import Decimal

    text = dumps([Decimal("1.10"), 2.5, (3, "a"), float("nan"), {1}])
    assert text == '[1.10, 2.5, [3, "a"], "nan", "{1}"]'


def test_the_text_report_of_a_module_that_gives_no_error_or_no_causes(tmp_path: Path) -> None:
    """A record a module calls invalid with no error is said so; a module that gives errors but
    no causes (no best_match of its own) has them listed, the best match first."""
    from generator.validate.discover import DataFile
    from generator.validate.report import TextReporter
    from generator.validate.runner import Failure

    written: list[str] = []
    reporter = TextReporter(written.append)
    data = DataFile(str(tmp_path / "d.jsonl"), "d.jsonl", "jsonl", 10)
    first = {"instance_location": "/a", "message": "1 is not of type 'string'"}
    best = {"instance_location": "/b", "message": "'b' is a required property"}
    reporter.failures(
        data,
        [Failure(1, errors=[]), Failure(2, errors=[first, best], best_match=best)],
    )
    assert "".join(written).splitlines() == [
        "d.jsonl:1:(root): invalid (the module reported no error)",
        "d.jsonl:2:/b: 'b' is a required property",
        "d.jsonl:2:/a: 1 is not of type 'string'",
    ]
