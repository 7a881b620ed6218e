"""`straightline validate` through the installed command: every output format, exit status and error
case (files, directories with --glob, JSON Lines with line numbers, YAML, standard input, malformed
and unreadable data, PyYAML missing), escaping, and that --module never imports the compiler."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .conftest import HANG_LIMIT, STRAIGHTLINE, run, write
from .conftest import SCHEMA as SCHEMA_PAIR

VALID = {"left": 1, "right": 2}
MISSING_RIGHT = {"left": 1}
WRONG_TYPE = {"left": "1", "right": 2}


def _lines(text: str) -> list[str]:
    return text.splitlines()


# --- files, text output, exit status ------------------------------------------------------------


def test_valid_files_exit_0_with_a_summary(tmp_path: Path, schema_file: Path) -> None:
    write(tmp_path / "a.json", VALID)
    write(tmp_path / "b.json", {"left": -5, "right": 10**30})
    result = run("--schema", schema_file, "a.json", "b.json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert _lines(result.stdout) == ["2 records in 2 files: 2 valid, 0 invalid, 0 unreadable"]


def test_invalid_file_exit_1_one_line_per_error(tmp_path: Path, schema_file: Path) -> None:
    write(tmp_path / "a.json", VALID)
    write(tmp_path / "bad.json", {"left": "1", "extra": True})
    result = run("--schema", schema_file, "a.json", "bad.json", cwd=tmp_path)
    assert result.returncode == 1
    assert _lines(result.stdout) == [
        'bad.json:(root): "right" is a required property',
        'bad.json:/extra: additional property "extra" is not allowed',
        'bad.json:/left: "1" is not of type "integer"',
        "2 records in 2 files: 1 valid, 1 invalid, 0 unreadable",
    ]
    assert result.stderr == ""


def test_python_m_generator_validate_is_the_same_command(tmp_path: Path, module_file: Path) -> None:
    write(tmp_path / "bad.json", MISSING_RIGHT)
    direct = run("--module", module_file, "bad.json", cwd=tmp_path)
    as_module = run("--module", module_file, "bad.json", cwd=tmp_path, python_m=True)
    assert (
        (as_module.returncode, as_module.stdout)
        == (direct.returncode, direct.stdout)
        == (
            1,
            'bad.json:(root): "right" is a required property\n1 record in 1 file: 0 valid, 1 invalid, 0 unreadable\n',
        )
    )


def test_schema_fragment_and_profile(tmp_path: Path) -> None:
    write(tmp_path / "s.json", {"$defs": {"name": {"type": "string", "maxLength": 3}}})
    write(tmp_path / "d.json", '"toolong"')
    result = run(
        "--schema", "s.json#/$defs/name", "--profile", "draft2020-12", "d.json", cwd=tmp_path
    )
    assert result.returncode == 1, result.stderr
    assert _lines(result.stdout) == [
        'd.json:(root): "toolong" is too long (maxLength 3)',
        "1 record in 1 file: 0 valid, 1 invalid, 0 unreadable",
    ]
    strict = run("--schema", "s.json#/$defs/name", "--profile", "strict", "d.json", cwd=tmp_path)
    assert strict.returncode == 2
    assert (
        "s.json#/$defs/name:/$defs: keyword '$defs' is not in the strict profile" in strict.stderr
    )


# --- directories and --glob ---------------------------------------------------------------------


def test_directory_recursive_default_suffixes(tmp_path: Path, module_file: Path) -> None:
    write(tmp_path / "data" / "a.json", VALID)
    write(tmp_path / "data" / "sub" / "b.JSON", MISSING_RIGHT)
    write(
        tmp_path / "data" / "sub" / "c.ndjson",
        json.dumps(VALID) + "\n" + json.dumps(WRONG_TYPE) + "\n",
    )
    write(tmp_path / "data" / "notes.txt", "not data")
    write(tmp_path / "data" / ".cache" / "x.json", MISSING_RIGHT)
    result = run("--module", module_file, "data", cwd=tmp_path)
    assert result.returncode == 1
    assert _lines(result.stdout) == [
        'data/sub/b.JSON:(root): "right" is a required property',
        'data/sub/c.ndjson:2:/left: "1" is not of type "integer"',
        "4 records in 3 files: 2 valid, 2 invalid, 0 unreadable",
    ]


def test_glob_selects_files_in_directories(tmp_path: Path, module_file: Path) -> None:
    write(tmp_path / "data" / "keep" / "a.txt", VALID)
    write(tmp_path / "data" / "keep" / "b.txt", MISSING_RIGHT)
    write(tmp_path / "data" / "skip" / "c.txt", MISSING_RIGHT)
    write(tmp_path / "data" / "d.json", MISSING_RIGHT)
    result = run(
        "--module", module_file, "--glob", "keep/*.txt", "--glob", "nothing*", "data", cwd=tmp_path
    )
    assert result.returncode == 1
    assert _lines(result.stdout) == [
        'data/keep/b.txt:(root): "right" is a required property',
        "2 records in 2 files: 1 valid, 1 invalid, 0 unreadable",
    ]


def test_no_data_file_found_is_a_usage_error(tmp_path: Path, module_file: Path) -> None:
    (tmp_path / "empty").mkdir()
    result = run("--module", module_file, "empty", cwd=tmp_path)
    assert result.returncode == 2
    assert "no data files found in empty" in result.stderr and result.stdout == ""


# --- JSON Lines ---------------------------------------------------------------------------------


def test_jsonl_reports_line_numbers_and_skips_blank_lines(
    tmp_path: Path, module_file: Path
) -> None:
    lines = [
        json.dumps(VALID),
        "",
        json.dumps(MISSING_RIGHT),
        "   ",
        json.dumps(VALID),
        json.dumps(WRONG_TYPE),
    ]
    write(tmp_path / "d.jsonl", "\n".join(lines) + "\n")
    result = run("--module", module_file, "d.jsonl", cwd=tmp_path)
    assert result.returncode == 1
    assert _lines(result.stdout) == [
        'd.jsonl:3:(root): "right" is a required property',
        'd.jsonl:6:/left: "1" is not of type "integer"',
        "4 records in 1 file: 2 valid, 2 invalid, 0 unreadable",
    ]


def test_empty_jsonl_file_is_zero_records_and_valid(tmp_path: Path, module_file: Path) -> None:
    write(tmp_path / "d.jsonl", "")
    result = run("--module", module_file, "d.jsonl", cwd=tmp_path)
    assert (result.returncode, _lines(result.stdout)) == (
        0,
        ["0 records in 1 file: 0 valid, 0 invalid, 0 unreadable"],
    )


# --- YAML ---------------------------------------------------------------------------------------


def test_yaml_single_and_multi_document(tmp_path: Path, module_file: Path) -> None:
    write(tmp_path / "one.yaml", "left: 1\nright: 2\n")
    write(tmp_path / "many.yml", "left: 1\nright: 2\n---\nleft: 1\n---\nleft: x\nright: 2\n")
    result = run("--module", module_file, "one.yaml", "many.yml", cwd=tmp_path)
    assert result.returncode == 1
    assert _lines(result.stdout) == [
        'many.yml:4:(root): "right" is a required property',
        'many.yml:6:/left: "x" is not of type "integer"',
        "4 records in 2 files: 2 valid, 2 invalid, 0 unreadable",
    ]


def test_a_yaml_schema_scalar_its_explicit_tag_cannot_be_is_refused_not_coerced(
    tmp_path: Path,
) -> None:
    """`const: !!bool yes` was read as false, so {"flag": true} was rejected with no word why."""
    write(tmp_path / "s.yaml", "type: object\nproperties:\n  flag: {const: !!bool yes}\n")
    write(tmp_path / "data.yaml", "flag: !!bool true\n")
    refused = run("--schema", "s.yaml", "data.yaml", cwd=tmp_path)
    assert refused.returncode == 2 and refused.stdout == ""
    assert (
        refused.stderr
        == "s.yaml:(root): 'yes' is not a boolean (true or false) (line 3 column 17) [bad-json]\n"
    )
    write(tmp_path / "s.yaml", "type: object\nproperties:\n  flag: {const: !!bool true}\n")
    write(tmp_path / "more.yaml", "flag: !!null x\n")
    result = run("--schema", "s.yaml", "data.yaml", "more.yaml", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert _lines(result.stdout) == [
        "more.yaml:1:7: invalid YAML: 'x' is not a valid null",
        "1 record in 2 files: 1 valid, 0 invalid, 1 unreadable",
    ]


def test_missing_pyyaml_names_the_extra(tmp_path: Path, module_file: Path) -> None:
    blocker = tmp_path / "blocker"
    write(blocker / "yaml.py", "raise ImportError('No module named yaml (blocked by the test)')\n")
    write(tmp_path / "a.yaml", "left: 1\nright: 2\n")
    write(tmp_path / "b.json", VALID)
    result = run(
        "--module", module_file, "b.json", "a.yaml", cwd=tmp_path, env={"PYTHONPATH": str(blocker)}
    )
    assert result.returncode == 2
    assert "a.yaml is YAML, which needs PyYAML: pip install 'straightline[yaml]'" in result.stderr
    assert result.stdout == ""
    # without YAML data, PyYAML is not needed
    assert (
        run(
            "--module", module_file, "b.json", cwd=tmp_path, env={"PYTHONPATH": str(blocker)}
        ).returncode
        == 0
    )


# --- standard input -----------------------------------------------------------------------------


def test_standard_input_json_and_jsonl(tmp_path: Path, module_file: Path) -> None:
    as_json = run(
        "--module", module_file, "-", cwd=tmp_path, stdin=json.dumps(MISSING_RIGHT).encode()
    )
    assert (as_json.returncode, _lines(as_json.stdout)[0]) == (
        1,
        '<stdin>:(root): "right" is a required property',
    )
    lines = (json.dumps(VALID) + "\n" + json.dumps(WRONG_TYPE) + "\n").encode()
    as_jsonl = run(
        "--module", module_file, "--data-format", "jsonl", "-", cwd=tmp_path, stdin=lines
    )
    assert as_jsonl.returncode == 1
    assert _lines(as_jsonl.stdout) == [
        '<stdin>:2:/left: "1" is not of type "integer"',
        "2 records in 1 file: 1 valid, 1 invalid, 0 unreadable",
    ]
    valid = run("--module", module_file, "-", cwd=tmp_path, stdin=json.dumps(VALID).encode())
    assert valid.returncode == 0


# --- malformed and unreadable data --------------------------------------------------------------


def test_malformed_and_unreadable_data_is_reported_and_the_rest_validated(
    tmp_path: Path, module_file: Path
) -> None:
    write(tmp_path / "a_syntax.json", '{"left": 1,\n  "right" 2}')
    write(tmp_path / "b_bytes.json", b'{"left": "\xff"}')
    os.symlink(tmp_path / "nowhere.json", tmp_path / "c_dangling.json")
    write(
        tmp_path / "d_lines.jsonl",
        json.dumps(VALID) + '\n{"left": 1,\n' + json.dumps(MISSING_RIGHT) + "\nNaN\n",
    )
    write(tmp_path / "e_deep.json", "[" * 100_000 + "]" * 100_000)
    write(tmp_path / "f_ok.json", VALID)
    result = run("--module", module_file, ".", cwd=tmp_path)
    assert result.returncode == 1
    assert _lines(result.stdout) == [
        "./a_syntax.json:2:11: invalid JSON: Expecting ':' delimiter",
        "./b_bytes.json:1:11: not UTF-8 (byte 0xff at byte column 11)",
        "./c_dangling.json: cannot read: No such file or directory",
        "./d_lines.jsonl:2:12: invalid JSON: Expecting property name enclosed in double quotes",
        './d_lines.jsonl:3:(root): "right" is a required property',
        "./d_lines.jsonl:4: invalid JSON: NaN is not a JSON number",
        "./e_deep.json: invalid JSON: nested too deeply to read",
        "3 records in 6 files: 2 valid, 1 invalid, 6 unreadable",
    ]


def test_unreadable_data_in_json_output(tmp_path: Path, module_file: Path) -> None:
    write(tmp_path / "bad.json", "[1,")
    result = run("--module", module_file, "--output", "json", "bad.json", cwd=tmp_path)
    assert result.returncode == 1
    document = json.loads(result.stdout)
    assert document["records"] == [
        {
            "file": "bad.json",
            "line": 1,
            "column": 4,
            "status": "unreadable",
            "problem": "invalid JSON: Expecting value",
        }
    ]
    assert document["files"] == [
        {
            "file": "bad.json",
            "format": "json",
            "valid": False,
            "records": 0,
            "invalid_records": 0,
            "unreadable": 1,
        }
    ]
    assert document["valid"] is False


# --- usage, schema and module errors: exit 2 ----------------------------------------------------


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["nowhere.json"], "nowhere.json: no such file or directory"),
        (["--jobs", "0", "d.json"], "argument --jobs: must be 1 or more, not 0"),
        (["--jobs", "2", "--dask", "tcp://127.0.0.1:1", "d.json"], "--jobs and --dask: choose one"),
        (["--profile", "strict", "d.json"], "--profile: compile options, for --schema only"),
        (["--output", "xml", "d.json"], "invalid choice: 'xml'"),
        (["-", "-"], "standard input (-) can be named only once"),
        (["--jobs", "x", "d.json"], "argument --jobs: not a whole number: 'x'"),
    ],
)
def test_usage_errors_exit_2(
    tmp_path: Path, module_file: Path, extra: list[str], message: str
) -> None:
    write(tmp_path / "d.json", VALID)
    result = run("--module", module_file, *extra, cwd=tmp_path)
    assert result.returncode == 2
    assert message in result.stderr
    assert result.stdout == ""


def test_schema_and_module_errors_exit_2(tmp_path: Path) -> None:
    write(tmp_path / "d.json", VALID)
    write(tmp_path / "bad_schema.json", {"type": "object", "minLength": -1})
    write(tmp_path / "broken.py", "def is_valid(:\n")
    write(tmp_path / "other.py", "X = 1\n")
    write(
        tmp_path / "tool.json",
        {
            "name": "t.x",
            "description": "d",
            "input": {"type": "object"},
            "output": {"type": "object"},
        },
    )
    cases = [
        (["--schema", "bad_schema.json"], "bad_schema.json:/minLength:"),
        (["--schema", "missing.json"], "cannot read missing.json"),
        (
            ["--schema", "tool.json"],
            "a tool contract, not a schema; validate against one of its schemas: "
            "--schema 'tool.json#/input' (or #/output) --profile octoscript",
        ),
        (["--module", "broken.py"], "--module broken.py: cannot load it (SyntaxError"),
        (
            ["--module", "other.py"],
            "not a straightline validator module, it has no is_valid, errors",
        ),
        (["--module", "missing.py"], "no such file"),
    ]
    for args, message in cases:
        result = run(*args, "d.json", cwd=tmp_path)
        assert result.returncode == 2, (args, result.stderr)
        assert message in result.stderr, (args, result.stderr)
        assert result.stdout == ""


def test_a_module_that_exits_while_loading_is_refused_not_taken_for_valid_data(
    tmp_path: Path,
) -> None:
    # SystemExit(0) while importing the --module file must not end the command with status 0
    # ("every record valid") before a record was read.
    write(tmp_path / "d.json", MISSING_RIGHT)
    write(tmp_path / "exits.py", "raise SystemExit(0)\n")
    result = run("--module", "exits.py", "d.json", cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert "--module exits.py: cannot load it (SystemExit: 0)" in result.stderr
    assert result.stdout == ""


def test_with_jobs_a_module_problem_is_reported_as_without(tmp_path: Path) -> None:
    """--jobs N starts the workers before the parent loads the module (they load it while it
    waits): a module that cannot be used is still exit 2 with the same message, and no output."""
    write(tmp_path / "d.jsonl", json.dumps(VALID) + "\n")
    write(tmp_path / "broken.py", "def is_valid(:\n")
    write(tmp_path / "other.py", "X = 1\n")
    write(tmp_path / "exits.py", "raise SystemExit(0)\n")
    for module in ("broken.py", "other.py", "exits.py", "missing.py"):
        alone = run("--module", module, "d.jsonl", cwd=tmp_path)
        jobs = run("--module", module, "--jobs", "2", "d.jsonl", cwd=tmp_path)
        assert alone.returncode == jobs.returncode == 2, (module, jobs.stderr)
        assert jobs.stderr == alone.stderr and jobs.stdout == "", (module, jobs.stderr)


def test_with_jobs_only_the_workers_load_the_module(tmp_path: Path) -> None:
    """The parent of --jobs 2 leaves loading (compiling) the module to its workers: the module
    is executed by two worker processes and never by the parent; without --jobs, by it alone."""
    import generator

    log = tmp_path / "loaded.txt"
    recorder = (
        "\nimport multiprocessing as _mp\n"
        f"with open({str(log)!r}, 'a', encoding='utf-8') as _log:\n"
        "    _log.write('parent\\n' if _mp.parent_process() is None else 'worker\\n')\n"
    )
    write(tmp_path / "m.py", generator.compile_source(SCHEMA_PAIR, format=False) + recorder)
    write(tmp_path / "d.jsonl", "".join(json.dumps(VALID) + "\n" for _ in range(50)))
    result = run("--module", "m.py", "--jobs", "2", "d.jsonl", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert _lines(result.stdout)[-1] == "50 records in 1 file: 50 valid, 0 invalid, 0 unreadable"
    assert sorted(_lines(log.read_text(encoding="utf-8"))) == ["worker", "worker"]
    log.unlink()
    assert run("--module", "m.py", "d.jsonl", cwd=tmp_path).returncode == 0
    assert _lines(log.read_text(encoding="utf-8")) == ["parent"]


def test_a_custom_format_module_that_does_not_import_is_a_usage_error(tmp_path: Path) -> None:
    write(tmp_path / "s.json", {"type": "string", "format": "sku"})
    write(tmp_path / "d.json", "x")
    result = run(
        "--schema",
        "s.json",
        "--format",
        "sku=no_such_package.formats:is_sku",
        "d.json",
        cwd=tmp_path,
    )
    assert result.returncode == 2, result.stderr
    assert (
        "the compiled schema cannot be loaded (ModuleNotFoundError: No module named "
        "'no_such_package')"
    ) in result.stderr
    assert result.stdout == ""


def test_a_custom_format_function_that_raises_is_that_records_problem(tmp_path: Path) -> None:
    # The module's API lets the exception propagate; the command reports the record it raised on
    # (counted as unreadable: it could not be checked), and the others are still validated.
    write(tmp_path / "shopfmt.py", "def is_sku(s):\n    return int(s[4:]) > 0\n")
    write(tmp_path / "s.json", {"properties": {"sku": {"type": "string", "format": "sku"}}})
    write(tmp_path / "d.jsonl", '{"sku": "SKU-12"}\n{"sku": "SKU-xx"}\n{"sku": "SKU-0"}\n')
    write(tmp_path / "one.json", {"sku": "SKU-yy"})
    problem = (
        "cannot be checked: the custom format function shopfmt:is_sku raised ValueError: "
        "invalid literal for int() with base 10: 'xx'"
    )
    env = {
        "PYTHONPATH": os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))
    }
    for jobs in ("1", "2"):
        result = run(
            "--schema",
            "s.json",
            "--format",
            "sku=shopfmt:is_sku",
            "--jobs",
            jobs,
            "d.jsonl",
            "one.json",
            cwd=tmp_path,
            env=env,
        )
        assert result.returncode == 1, result.stderr
        assert _lines(result.stdout) == [
            f"d.jsonl:2: {problem}",
            'd.jsonl:3:/sku: "SKU-0" is not a valid "sku"',
            f"one.json: {problem.replace('xx', 'yy')}",
            "2 records in 2 files: 1 valid, 1 invalid, 2 unreadable",
        ], jobs
        assert result.stderr == ""
    document = json.loads(
        run(
            "--schema",
            "s.json",
            "--format",
            "sku=shopfmt:is_sku",
            "--output",
            "json",
            "d.jsonl",
            cwd=tmp_path,
            env=env,
        ).stdout
    )
    assert document["records"][0] == {
        "file": "d.jsonl",
        "line": 2,
        "column": None,
        "status": "unreadable",
        "problem": problem,
    }
    assert document["summary"] == {
        "files": 1,
        "records": 2,
        "valid_records": 1,
        "invalid_records": 1,
        "unreadable": 1,
    }


def test_a_data_path_that_cannot_be_looked_at_says_why(tmp_path: Path, module_file: Path) -> None:
    # Not "no such file": the path runs through a file, so the system cannot even look.
    write(tmp_path / "d.json", VALID)
    result = run("--module", module_file, "d.json/inner.json", cwd=tmp_path)
    assert result.returncode == 2
    assert "d.json/inner.json: cannot look at it: Not a directory" in result.stderr
    directory = run("--module", tmp_path, "d.json", cwd=tmp_path)
    assert directory.returncode == 2
    assert f"--module {tmp_path}: not a regular file" in directory.stderr


LEGACY_MODULE = '''
"""A module as straightline made them before output formats: is_valid and errors only."""
import importlib.util

_spec = importlib.util.spec_from_file_location("pair_base", {base!r})
_base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_base)
is_valid = _base.is_valid
errors = _base.errors
STRAIGHTLINE = {{"version": "0.0.1"}}
'''


def test_basic_and_detailed_need_the_module_output_function(
    tmp_path: Path, module_file: Path
) -> None:
    write(tmp_path / "d.json", MISSING_RIGHT)
    legacy = write(tmp_path / "legacy.py", LEGACY_MODULE.format(base=str(module_file)))
    for fmt in ("basic", "detailed", "verbose"):
        result = run("--module", legacy, "--output", fmt, "d.json", cwd=tmp_path)
        assert result.returncode == 2
        assert (
            "the module has no output formats (no output() function; made by straightline 0.0.1)"
            in result.stderr
        )
        assert f"--output {fmt} cannot be produced" in result.stderr
    # the text output of such a module: its errors, in its order
    result = run("--module", legacy, "d.json", cwd=tmp_path)
    assert _lines(result.stdout)[0] == 'd.json:(root): "right" is a required property'


# --- JSON output, and the fields newer modules add ----------------------------------------------


def test_json_output_document(tmp_path: Path, module_file: Path, module: Any) -> None:
    write(tmp_path / "a.json", VALID)
    write(tmp_path / "b.jsonl", json.dumps(VALID) + "\n" + json.dumps(WRONG_TYPE) + "\n")
    result = run("--module", module_file, "--output", "json", "a.json", "b.jsonl", cwd=tmp_path)
    assert result.returncode == 1
    document = json.loads(result.stdout)
    expected_errors = [
        {
            "instance_location": e.instance_location,
            "keyword_location": e.keyword_location,
            "absolute_keyword_location": e.absolute_keyword_location,
            "message": e.message,
            "keyword": e.keyword,
            "params": e.params,
        }
        for e in module.errors(WRONG_TYPE)
    ]
    assert expected_errors == [
        {
            "instance_location": "/left",
            "keyword_location": "/properties/left/type",
            "absolute_keyword_location": None,
            "message": '"1" is not of type "integer"',
            "keyword": "type",
            "params": {"type": "integer"},
        }
    ]
    assert document == {
        "records": [
            {
                "file": "b.jsonl",
                "line": 2,
                "status": "invalid",
                "errors": expected_errors,
                "best_match": expected_errors[0],
            }
        ],
        "files": [
            {
                "file": "a.json",
                "format": "json",
                "valid": True,
                "records": 1,
                "invalid_records": 0,
                "unreadable": 0,
            },
            {
                "file": "b.jsonl",
                "format": "jsonl",
                "valid": False,
                "records": 2,
                "invalid_records": 1,
                "unreadable": 0,
            },
        ],
        "summary": {
            "files": 2,
            "records": 3,
            "valid_records": 2,
            "invalid_records": 1,
            "unreadable": 0,
        },
        "valid": False,
    }
    valid = json.loads(
        run("--module", module_file, "--output", "json", "a.json", cwd=tmp_path).stdout
    )
    assert valid["records"] == [] and valid["valid"] is True


RICHER_MODULE = '''
"""A generated module as newer ones will be: errors with keyword and params, best_match, output()."""
import importlib.util

_spec = importlib.util.spec_from_file_location("pair_base", {base!r})
_base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_base)
is_valid = _base.is_valid


class Error:
    def __init__(self, error):
        self.message = error.message
        self.instance_location = error.instance_location
        self.keyword_location = error.keyword_location
        self.absolute_keyword_location = error.absolute_keyword_location
        self.keyword = error.keyword_location.rsplit("/", 1)[-1]
        self.params = {{"at": error.instance_location, "n": 1}}


def errors(instance):
    return [Error(e) for e in _base.errors(instance)]


def best_match(errors):
    return errors[-1]


def output(instance, format):
    return {{"valid": False, "format": format,
             "errors": [{{"instanceLocation": e.instance_location, "keywordLocation": e.keyword_location,
                          "error": e.message}} for e in _base.errors(instance)]}}
'''


@pytest.fixture
def richer_module(tmp_path: Path, module_file: Path) -> Path:
    return write(tmp_path / "richer.py", RICHER_MODULE.format(base=str(module_file)))


def test_keyword_params_and_best_match_are_used_when_the_module_has_them(
    tmp_path: Path, richer_module: Path, module: Any
) -> None:
    write(tmp_path / "d.json", {"left": "1"})
    document = json.loads(
        run("--module", richer_module, "--output", "json", "d.json", cwd=tmp_path).stdout
    )
    (record,) = document["records"]
    expected = [
        {
            "instance_location": e.instance_location,
            "keyword_location": e.keyword_location,
            "absolute_keyword_location": None,
            "message": e.message,
            "keyword": e.keyword_location.rsplit("/", 1)[-1],
            "params": {"at": e.instance_location, "n": 1},
        }
        for e in module.errors({"left": "1"})
    ]
    assert record["errors"] == expected
    assert record["best_match"] == expected[-1]


@pytest.mark.parametrize("fmt", ["basic", "detailed"])
def test_basic_and_detailed_are_the_module_output(
    tmp_path: Path, richer_module: Path, module: Any, fmt: str
) -> None:
    write(tmp_path / "d.jsonl", json.dumps(VALID) + "\n" + json.dumps(MISSING_RIGHT) + "\n")
    result = run("--module", richer_module, "--output", fmt, "d.jsonl", cwd=tmp_path)
    assert result.returncode == 1
    (record,) = json.loads(result.stdout)["records"]
    assert record == {
        "file": "d.jsonl",
        "line": 2,
        "status": "invalid",
        "output": {
            "valid": False,
            "format": fmt,
            "errors": [
                {
                    "instanceLocation": e.instance_location,
                    "keywordLocation": e.keyword_location,
                    "error": e.message,
                }
                for e in module.errors(MISSING_RIGHT)
            ],
        },
    }


# --- escaping -----------------------------------------------------------------------------------


def test_control_characters_cannot_forge_output_lines(tmp_path: Path, module_file: Path) -> None:
    name = "evil\nfake.json:(root): all good\x1b[2K.json"
    write(tmp_path / name, '{"left": 1, "right": 2, "k\\nfake.json:(root): x\\u202e\\ud800": 1}')
    result = run("--module", module_file, ".", cwd=tmp_path)
    assert result.returncode == 1
    lines = _lines(result.stdout)
    assert len(lines) == 2, lines
    assert lines[0] == (
        "./evil\\nfake.json:(root): all good\\x1b[2K.json:/k\\nfake.json:(root): x\\u202e\\ud800: "
        'additional property "k\\nfake.json:(root): x\\u202e\\ud800" is not allowed'
    )
    assert all(ch.isprintable() for ch in lines[0])
    document = run("--module", module_file, "--output", "json", ".", cwd=tmp_path).stdout
    assert document.isascii()
    assert json.loads(document)["records"][0]["file"] == "./" + name


def test_invisible_characters_in_data_are_printed_escaped(
    tmp_path: Path, module_file: Path
) -> None:
    """Tag characters (hidden ASCII), variation selectors, zero-width and bidirectional formatting
    characters, separators and musical format characters in a key, its message and a file name."""
    key = "k\U000e0001\U000e0068\U000e0069\ufe0f\U000e0100\u200b\u2028\u202e\U0001d173"
    shown = "k\\U000e0001\\U000e0068\\U000e0069\\ufe0f\\U000e0100\\u200b\\u2028\\u202e\\U0001d173"
    write(tmp_path / f"d{key}.json", json.dumps({"left": 1, "right": 2, key: 1}))
    write(
        tmp_path / "e.yaml", f'left: 1\nright: 2\n"{ascii(key)[1:-1]}": !!binary aGk=\n'
    )  # its problem names the key
    result = run("--module", module_file, f"d{key}.json", "e.yaml", cwd=tmp_path)
    assert result.returncode == 1
    lines = _lines(result.stdout)
    assert lines[0] == f'd{shown}.json:/{shown}: additional property "{shown}" is not allowed'
    assert lines[1:] == [
        f"e.yaml:1: YAML value at /{shown} is a bytes, which JSON has no type for",
        "1 record in 2 files: 0 valid, 1 invalid, 1 unreadable",
    ]
    assert result.stdout.isascii(), result.stdout
    document = run("--module", module_file, "--output", "json", f"d{key}.json", cwd=tmp_path).stdout
    assert document.isascii()
    assert json.loads(document)["records"][0]["errors"][0]["instance_location"] == "/" + key


def test_invisible_characters_in_messages_on_stderr_are_escaped(
    tmp_path: Path, module_file: Path
) -> None:
    result = run("--module", module_file, "gone\U000e0001\ufe0f\u200b.json", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == (
        "straightline validate: gone\\U000e0001\\ufe0f\\u200b.json: " "no such file or directory\n"
    )


# --- --module never imports the compiler --------------------------------------------------------

BLOCKED = (
    "black",
    "jinja2",
    "generator.api",
    "generator.emit",
    "generator.lower",
    "generator.render",
    "generator.cli.commands",
)


def test_module_path_imports_nothing_of_the_compiler(tmp_path: Path, module_file: Path) -> None:
    """A sitecustomize on PYTHONPATH blocks the compiler in every process the command starts,
    the --jobs workers included."""
    write(tmp_path / "d.jsonl", json.dumps(VALID) + "\n" + json.dumps(MISSING_RIGHT) + "\n")
    blocker = tmp_path / "blocker"
    write(
        blocker / "sitecustomize.py",
        f"""
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if any(name == b or name.startswith(b + ".") for b in {BLOCKED!r}):
            raise ImportError("blocked: " + name)
sys.meta_path.insert(0, Block())
""",
    )
    env = {"PYTHONPATH": str(blocker)}
    probe = subprocess.run(
        [sys.executable, "-c", "import generator.api"],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=HANG_LIMIT,
    )
    assert "blocked: generator.api" in probe.stderr  # the blocker works
    for extra in ([], ["--jobs", "2", "--chunk-size", "10"], ["--output", "json"]):
        result = run("--module", module_file, *extra, "d.jsonl", cwd=tmp_path, env=env)
        assert result.returncode == 1, result.stderr
        assert "blocked" not in result.stderr
        if extra == ["--output", "json"]:
            (record,) = json.loads(result.stdout)["records"]
            assert record["best_match"]["message"] == '"right" is a required property'
        else:
            assert 'd.jsonl:2:(root): "right" is a required property' in _lines(result.stdout)


def test_a_closed_pipe_ends_the_command_quietly(tmp_path: Path, module_file: Path) -> None:
    write(tmp_path / "d.jsonl", (json.dumps(MISSING_RIGHT) + "\n") * 200_000)
    proc = subprocess.Popen(
        [str(STRAIGHTLINE), "validate", "--module", str(module_file), "d.jsonl"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    assert proc.wait(timeout=HANG_LIMIT) == 1
    assert first.startswith(b"d.jsonl:1:(root): ")
    assert b"Traceback" not in proc.stderr.read()


def test_messages_on_stderr_are_escaped_too(tmp_path: Path, module_file: Path) -> None:
    result = run("--module", module_file, "missing\nstraightline validate: fine.json", cwd=tmp_path)
    assert result.returncode == 2
    assert (
        result.stderr
        == "straightline validate: missing\\nstraightline validate: fine.json: no such file or directory\n"
    )


# -- what a directory walk finds that cannot be read ------------------------------------------------


def test_a_fifo_or_device_found_in_a_directory_is_reported_not_waited_on(
    tmp_path: Path, module_file: Path
) -> None:
    """A FIFO named like data in a searched directory would block the read until a writer came
    (forever); it is reported as unreadable and the other files are validated."""
    write(tmp_path / "data" / "a.json", VALID)
    os.mkfifo(tmp_path / "data" / "b.json")
    os.symlink("/dev/zero", tmp_path / "data" / "c.json")  # would be read without end
    write(tmp_path / "data" / "d.json", MISSING_RIGHT)
    result = run("--module", module_file, "data", cwd=tmp_path)
    assert result.returncode == 1
    assert _lines(result.stdout) == [
        "data/b.json: a FIFO, not a regular file",
        "data/c.json: a character device, not a regular file",
        'data/d.json:(root): "right" is a required property',
        "2 records in 4 files: 1 valid, 1 invalid, 2 unreadable",
    ]


def test_a_named_device_is_refused_and_a_named_pipe_is_read(
    tmp_path: Path, module_file: Path
) -> None:
    """Named on the command line, a pipe is read to its end (a shell's `<(command)`); a device is
    not read at all."""
    device = run("--module", module_file, "/dev/zero", cwd=tmp_path)
    assert device.returncode == 1
    assert _lines(device.stdout) == [
        "/dev/zero: a character device, not a regular file",
        "0 records in 1 file: 0 valid, 0 invalid, 1 unreadable",
    ]
    os.mkfifo(tmp_path / "pipe.json")
    command = [str(STRAIGHTLINE), "validate", "--module", str(module_file), "pipe.json"]
    with subprocess.Popen(
        command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as proc:
        (tmp_path / "pipe.json").write_text(
            json.dumps(MISSING_RIGHT), encoding="utf-8"
        )  # waits for the reader
        out, err = proc.communicate(timeout=HANG_LIMIT)
    assert proc.returncode == 1, err
    assert _lines(out) == [
        'pipe.json:(root): "right" is a required property',
        "1 record in 1 file: 0 valid, 1 invalid, 0 unreadable",
    ]


def test_a_directory_that_cannot_be_listed_is_reported_in_its_place(
    tmp_path: Path,
    module_file: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """os.walk passes over a directory it cannot list in silence: its files would be missing from
    the run with exit status 0. It is an unreadable entry in its sorted place instead. (In
    process: the tests run as root, whom no directory's mode keeps out.)"""
    from generator.cli.main import main

    write(tmp_path / "data" / "a" / "x.json", VALID)
    write(tmp_path / "data" / "b" / "y.json", VALID)
    write(tmp_path / "data" / "c.json", MISSING_RIGHT)
    real_scandir = os.scandir
    locked = str(tmp_path / "data" / "a")

    def scandir(path: Any = ".") -> Any:
        if os.path.abspath(path) == locked:
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "--module", str(module_file), "data"]) == 1
    assert _lines(capsys.readouterr().out) == [
        'data/c.json:(root): "right" is a required property',
        "data/a: cannot list the directory: Permission denied",
        "2 records in 3 files: 1 valid, 1 invalid, 1 unreadable",
    ]


def test_a_file_too_large_for_memory_is_unreadable_not_a_traceback(
    tmp_path: Path, module_file: Path
) -> None:
    """A 4 GiB file (sparse: it takes no disk) read under a 1.5 GiB address-space limit: the read's
    MemoryError is that file's problem, and the command goes on to the next file."""
    resource = pytest.importorskip("resource")
    with open(tmp_path / "huge.json", "wb") as huge:
        huge.truncate(4 << 30)
    write(tmp_path / "small.json", MISSING_RIGHT)

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1536 << 20, 1536 << 20))

    proc = subprocess.run(
        [str(STRAIGHTLINE), "validate", "--module", str(module_file), "huge.json", "small.json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=HANG_LIMIT,
        preexec_fn=limited,
    )
    assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr
    assert proc.returncode == 1, proc.stderr
    assert _lines(proc.stdout) == [
        "huge.json: cannot read: too large to hold in memory",
        'small.json:(root): "right" is a required property',
        "1 record in 2 files: 0 valid, 1 invalid, 1 unreadable",
    ]


def test_long_integers_and_malformed_yaml_scalars_through_the_command(
    tmp_path: Path, module_file: Path
) -> None:
    """The command's own JSON Lines loop reads an integer of 5,000 digits exactly (it is an
    integer, so the record is valid); a YAML scalar its type cannot be is an unreadable record
    with its place, not a traceback."""
    digits = "9" * 5000
    write(tmp_path / "a.jsonl", f'{{"left": {digits}, "right": 1}}\n{{"left": {digits}}}\n')
    write(
        tmp_path / "b.yaml", "left: 1\nright: !!int 0x_\n"
    )  # (untagged, YAML 1.2 reads `0x_` as a string)
    result = run("--module", module_file, "--jobs", "2", "a.jsonl", "b.yaml", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert _lines(result.stdout) == [
        'a.jsonl:2:(root): "right" is a required property',
        "b.yaml:2:8: invalid YAML: '0x_' is not a valid int",
        "2 records in 2 files: 1 valid, 1 invalid, 1 unreadable",
    ]


# -- closed and full standard streams -------------------------------------------------------------


def _with_streams(
    redirections: str, *args: str | Path, cwd: Path
) -> subprocess.CompletedProcess[str]:
    """The command run by a shell with `redirections` (`<&-`, `>&-`, `>/dev/full`...) applied to
    it; its stderr captured through a file (unless the redirections close it)."""
    if not STRAIGHTLINE.exists():
        pytest.skip(f"the straightline console script is not installed next to {sys.executable}")
    command = " ".join(f"'{part}'" for part in (STRAIGHTLINE, "validate", *map(str, args)))
    errors = cwd / "stderr.txt"
    script = f"exec {command} 2>'{errors}' {redirections}"
    proc = subprocess.run(
        ["sh", "-c", script],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        timeout=HANG_LIMIT,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    stderr = errors.read_text(encoding="utf-8") if errors.exists() else ""
    for text in (stderr, proc.stdout.decode("utf-8", "replace")):
        assert "Traceback" not in text and "Exception ignored" not in text, text
    return subprocess.CompletedProcess(
        script, proc.returncode, proc.stdout.decode("utf-8", "replace"), stderr
    )


def test_closed_standard_input_named_as_data_is_one_line_and_exit_2(
    tmp_path: Path, module_file: Path
) -> None:
    write(tmp_path / "d.json", MISSING_RIGHT)
    for extra in ([], ["--data-format", "jsonl"]):
        result = _with_streams("<&-", "--module", module_file, *extra, "-", cwd=tmp_path)
        assert result.returncode == 2, result.stderr
        assert result.stderr == "straightline validate: standard input (-) is closed\n"
        assert result.stdout == ""
    # not named: a closed standard input is nobody's business
    result = _with_streams("<&-", "--module", module_file, "d.json", cwd=tmp_path)
    assert (
        result.returncode == 1 and 'd.json:(root): "right" is a required property' in result.stdout
    )


def test_standard_input_that_cannot_be_read_is_reported_as_unreadable(
    tmp_path: Path, module_file: Path
) -> None:
    """A descriptor 0 open for writing only: every read fails (EBADF)."""
    for extra in ([], ["--data-format", "jsonl"]):
        result = _with_streams(
            f"0>'{tmp_path / 'sink'}'", "--module", module_file, *extra, "-", cwd=tmp_path
        )
        assert result.returncode == 1, result.stderr
        assert _lines(result.stdout) == [
            "<stdin>: cannot read: Bad file descriptor",
            "0 records in 1 file: 0 valid, 0 invalid, 1 unreadable",
        ]
        assert result.stderr == ""


def test_closed_standard_output_is_one_line_and_exit_2(tmp_path: Path, module_file: Path) -> None:
    write(tmp_path / "d.json", MISSING_RIGHT)
    result = _with_streams(">&-", "--module", module_file, "d.json", cwd=tmp_path)
    assert result.returncode == 2
    assert (
        result.stderr
        == "straightline validate: standard output is closed: the report has nowhere to go\n"
    )
    # and with standard error closed too, nothing to say it on, and nothing said elsewhere
    both = _with_streams(">&- 2>&-", "--module", module_file, "d.json", cwd=tmp_path)
    assert both.returncode == 2 and both.stderr == ""


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
@pytest.mark.parametrize("extra", [[], ["--output", "json"], ["--jobs", "2"]], ids=repr)
def test_a_full_standard_output_is_one_line_and_exit_2(
    tmp_path: Path, module_file: Path, extra: list[str]
) -> None:
    write(tmp_path / "d.jsonl", (json.dumps(MISSING_RIGHT) + "\n") * 3)
    result = _with_streams(">/dev/full", "--module", module_file, *extra, "d.jsonl", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == (
        "straightline validate: cannot write the report to standard output: "
        "No space left on device\n"
    )


# -- what a custom format function or a worker's death does to one record, or one task --------------

BASE_EXCEPTIONS = """
import os, signal

class Mine(BaseException):
    pass

def is_sku(s):
    if s == "EXIT0":
        raise SystemExit(0)
    if s == "CLOSE":
        raise GeneratorExit("closing")
    if s == "MINE":
        raise Mine()
    if s == "KILL":
        os.kill(os.getpid(), signal.SIGKILL)
    if s == "QUIT":
        os._exit(3)
    return s.startswith("SKU-")
"""


def _format_env(tmp_path: Path) -> dict[str, str]:
    write(tmp_path / "shopfmt.py", BASE_EXCEPTIONS)
    write(tmp_path / "s.json", {"properties": {"sku": {"type": "string", "format": "sku"}}})
    return {
        "PYTHONPATH": os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))
    }


def test_a_format_functions_base_exception_is_that_records_problem(tmp_path: Path) -> None:
    """SystemExit(0) out of a custom format function ended the run with exit status 0 and no
    output; any BaseException but KeyboardInterrupt is now the record's problem, and the records
    after it are still validated."""
    env = _format_env(tmp_path)
    skus = ["SKU-1", "EXIT0", "CLOSE", "MINE", "bad"]
    write(tmp_path / "d.jsonl", "".join(json.dumps({"sku": sku}) + "\n" for sku in skus))
    write(tmp_path / "one.json", {"sku": "EXIT0"})
    raised = "cannot be checked: the custom format function shopfmt:is_sku raised"
    for jobs in ("1", "2"):
        result = run(
            "--schema",
            "s.json",
            "--format",
            "sku=shopfmt:is_sku",
            "--jobs",
            jobs,
            "d.jsonl",
            "one.json",
            cwd=tmp_path,
            env=env,
        )
        assert result.returncode == 1, result.stderr
        assert _lines(result.stdout) == [
            f"d.jsonl:2: {raised} SystemExit: 0",
            f"d.jsonl:3: {raised} GeneratorExit: closing",
            f"d.jsonl:4: {raised} Mine",
            'd.jsonl:5:/sku: "bad" is not a valid "sku"',
            f"one.json: {raised} SystemExit: 0",
            "2 records in 2 files: 1 valid, 1 invalid, 4 unreadable",
        ], jobs
        assert result.stderr == ""


def test_sigterm_inside_a_format_function_still_ends_the_run(tmp_path: Path) -> None:
    """The command's SIGTERM is a SystemExit too, raised wherever the main thread stands: in a
    format function it ends the command (143), it is not that record's problem."""
    env = _format_env(tmp_path)
    write(
        tmp_path / "slow.py",
        "import sys, time\ndef is_sku(s):\n    print('started', file=sys.stderr, flush=True)\n"
        "    time.sleep(60)\n    return True\n",
    )
    write(
        tmp_path / "d.jsonl",
        json.dumps({"sku": "SKU-1"}) + "\n" + json.dumps({"sku": "bad"}) + "\n",
    )
    proc = subprocess.Popen(
        [
            str(STRAIGHTLINE),
            "validate",
            "--schema",
            "s.json",
            "--format",
            "sku=slow:is_sku",
            "d.jsonl",
        ],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **env},
    )
    assert proc.stderr is not None and proc.stdout is not None
    assert proc.stderr.readline() == b"started\n"
    proc.terminate()
    assert proc.wait(timeout=HANG_LIMIT) == 143
    assert proc.stdout.read() == b"" and b"Traceback" not in proc.stderr.read()


@pytest.mark.parametrize(
    "killer, death", [("KILL", "killed by SIGKILL"), ("QUIT", "exit status 3")]
)
def test_a_worker_that_dies_is_reported_by_its_file_and_byte_range(
    tmp_path: Path, killer: str, death: str
) -> None:
    """A worker process that dies (the out-of-memory killer, a crash) broke the pool and the run
    ended in a BrokenProcessPool traceback. Now the tasks in flight are run again one by one; the
    one that kills its worker is reported by its file and byte range, and everything else is
    validated: the line numbers after it are right, and the run fails."""
    env = _format_env(tmp_path)

    def line(sku: str) -> str:  # 100 bytes with its newline
        return json.dumps({"sku": sku, "pad": "x" * (77 - len(sku))})

    lines = [line(f"SKU-{i:04d}") for i in range(1000)]
    lines[450], lines[900] = line(killer), line("bad")
    assert all(len(text) == 99 for text in lines)
    write(tmp_path / "d.jsonl", "".join(line + "\n" for line in lines))
    write(tmp_path / "one.json", {"sku": killer})
    write(tmp_path / "two.json", {"sku": "bad"})
    result = run(
        "--schema",
        "s.json",
        "--format",
        "sku=shopfmt:is_sku",
        "--jobs",
        "2",
        "--chunk-size",
        "10000",
        "d.jsonl",
        "one.json",
        "two.json",
        cwd=tmp_path,
        env=env,
    )
    assert result.returncode == 1, result.stderr
    # line 451 begins at byte 45000: the range [40000, 50000) holds lines 401 to 500
    assert _lines(result.stdout) == [
        "d.jsonl:401: the 100 lines from here (those that begin between byte 40000 and byte 50000) could not "
        f"be checked: the worker process validating them died ({death})",
        'd.jsonl:901:/sku: "bad" is not a valid "sku"',
        f"one.json: could not be checked: the worker process validating it died ({death})",
        'two.json:/sku: "bad" is not a valid "sku"',
        "901 records in 3 files: 899 valid, 2 invalid, 2 unreadable",
    ]
    assert result.stderr == ""
    # on standard input too, whose blocks are named by where they were in it
    piped = run(
        "--schema",
        "s.json",
        "--format",
        "sku=shopfmt:is_sku",
        "--jobs",
        "2",
        "--chunk-size",
        "40000",
        "--data-format",
        "jsonl",
        "-",
        cwd=tmp_path,
        env=env,
        stdin=(tmp_path / "d.jsonl").read_bytes(),
    )
    assert piped.returncode == 1, piped.stderr
    dead, *rest = _lines(piped.stdout)
    found = re.fullmatch(
        r"<stdin>:(\d+): the (\d+) lines from here \(those that begin between byte (\d+) and "
        r"(byte \d+|its end)\) could not be checked: the worker process validating them died "
        + re.escape(f"({death})"),
        dead,
    )
    assert found, dead
    first, count, start = int(found[1]), int(found[2]), int(found[3])
    end = 100_000 if found[4] == "its end" else int(found[4].split()[1])
    assert (
        start <= 45_000 < end and start % 100 == end % 100 == 0
    )  # the range holds the killer, whole lines
    assert (first, count) == (start // 100 + 1, (end - start) // 100)
    assert rest == [
        *(['<stdin>:901:/sku: "bad" is not a valid "sku"'] if end <= 90_000 else []),
        f"{1000 - count} records in 1 file: {999 - count if end <= 90_000 else 1000 - count} valid, "
        f"{1 if end <= 90_000 else 0} invalid, 1 unreadable",
    ]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
def test_the_builtin_listing_to_a_full_standard_output_is_one_line_and_exit_2(
    tmp_path: Path,
) -> None:
    result = _with_streams(">/dev/full", "--list-builtin", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == (
        "straightline validate: cannot write the report to standard output: "
        "No space left on device\n"
    )


def test_a_registry_that_is_no_directory_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from generator.cli.main import main

    write(tmp_path / "s.json", {"type": "string"})
    write(tmp_path / "d.json", '"x"')
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "--schema", "s.json", "--registry", "nowhere", "d.json"]) == 2
    assert "--registry nowhere: not a directory" in capsys.readouterr().err


def test_a_module_cached_with_fetch_remote_is_keyed_by_its_registry_files_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """--fetch-remote caches the compiled module; a registry file that changes (its name or
    its bytes) is a new key, so the module is compiled anew, never reused stale."""
    from generator.cli.main import main

    write(tmp_path / "s.json", {"$ref": "https://example.com/word.json"})
    write(
        tmp_path / "shared" / "word.json",
        {"$id": "https://example.com/word.json", "type": "string"},
    )
    write(tmp_path / "d.json", '"x"')
    monkeypatch.chdir(tmp_path)
    command = ["validate", "--schema", "s.json", "--fetch-remote", "--cache-dir", "cache"]
    command += ["--registry", "shared", "d.json"]
    assert main(command) == 0
    assert main(command) == 0  # reused
    assert len(list((tmp_path / "cache" / "modules").iterdir())) == 1
    write(
        tmp_path / "shared" / "word.json",
        {"$id": "https://example.com/word.json", "type": "integer"},
    )
    assert main(command) == 1  # compiled anew: "x" is no integer
    assert len(list((tmp_path / "cache" / "modules").iterdir())) == 2


def test_a_schema_on_standard_input_that_is_not_json_without_pyyaml_is_a_schema_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io

    from generator.cli.main import main

    write(tmp_path / "d.json", '"x"')
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, "yaml", None)  # (PyYAML not installed)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"type: string\n")))
    assert main(["validate", "--schema", "-", "d.json"]) == 2
    err = capsys.readouterr().err
    assert "not valid JSON" in err and "Traceback" not in err


def test_a_schema_that_cannot_be_read_with_fetch_remote_is_a_schema_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """(its cache key cannot be made either: nothing is reused, nothing cached)"""
    from generator.cli.main import main

    (tmp_path / "schema-dir").mkdir()
    write(tmp_path / "d.json", '"x"')
    monkeypatch.chdir(tmp_path)
    command = ["validate", "--schema", "schema-dir", "--fetch-remote", "--cache-dir", "cache"]
    assert main([*command, "d.json"]) == 2
    assert "Traceback" not in capsys.readouterr().err
    assert not (tmp_path / "cache" / "modules").exists()


def test_the_builtin_listing_to_a_reader_gone_ends_quietly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io

    from generator.cli.main import main

    class Gone:
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self) -> None:
            raise BrokenPipeError(32, "Broken pipe")

        def fileno(self) -> int:  # (no descriptor: the test's own output stays as it is)
            raise io.UnsupportedOperation("fileno")

    monkeypatch.setattr(sys, "stdout", Gone())
    assert main(["validate", "--list-builtin"]) == 1
    assert capsys.readouterr().err == ""


def test_a_module_is_known_by_its_text_or_its_file_and_refused_without_either(
    tmp_path: Path,
) -> None:
    import types

    import generator
    from generator.errors import OptionError
    from generator.validate.modules import ModuleSource, check_module

    compiled = generator.compile_module({"type": "string"})
    source = ModuleSource.of(compiled)
    assert source.text == compiled.__source__ and ModuleSource.of(source) is source
    write(tmp_path / "m.py", compiled.__source__)
    by_path = ModuleSource.of(str(tmp_path / "m.py"))
    assert by_path.path == str((tmp_path / "m.py").resolve())
    assert by_path.load().is_valid("x") and not by_path.load().is_valid(1)
    with pytest.raises(OptionError, match="neither its source text .* nor a file"):
        ModuleSource.of(types.ModuleType("bare"))
    write(tmp_path / "m.txt", compiled.__source__)
    with pytest.raises(OptionError, match="m.txt: not a Python module file"):
        ModuleSource.from_path(tmp_path / "m.txt").load()
    tool = types.ModuleType("tool")
    tool.is_valid_input = lambda value: True  # type: ignore[attr-defined]
    with pytest.raises(OptionError, match="a tool contract module: compile its input or output"):
        check_module(tool, "text", "--module tool.py")
