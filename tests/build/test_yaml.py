"""YAML schema sources (.yaml/.yml, PyYAML as the extra `yaml`): read with the YAML 1.2 core
schema, numbers exact, and everything JSON cannot hold refused with a clear error."""

from __future__ import annotations

import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

import generator
from generator.yaml_loader import exact_json, load_yaml

from .helpers import ROOT, needs_cli, run, write

SCHEMA_YAML = """\
# a comment
type: object
properties:
  price:
    type: number
    exclusiveMinimum: 0.30000000000000000001
  count: {type: integer, maximum: 123456789012345678901234567890}
  answer: {enum: [yes, no, on, off, 1e3]}
required: [price]
"""


def test_numbers_stay_exact_and_scalars_follow_the_core_schema() -> None:
    value = load_yaml(SCHEMA_YAML)
    price = value["properties"]["price"]["exclusiveMinimum"]
    assert price == Decimal("0.30000000000000000001") and isinstance(price, Decimal)
    assert value["properties"]["count"]["maximum"] == 123456789012345678901234567890
    assert value["properties"]["answer"]["enum"] == ["yes", "no", "on", "off", 1000.0]
    assert load_yaml("a: 0.5\nb: 7\nc: ~\nd: true\ne: '7'\nf: 0x10") == {
        "a": 0.5,
        "b": 7,
        "c": None,
        "d": True,
        "e": "7",
        "f": 16,
    }
    assert exact_json(value).count("0.30000000000000000001") == 1


@pytest.mark.parametrize("source", [5, None, {}, [1], 1.5])
def test_a_source_that_is_not_text_is_a_schema_error(source: object) -> None:
    """As compile_source refuses it (not-a-schema), never PyYAML's ReaderError or a TypeError."""
    with pytest.raises(generator.SchemaError) as raised:
        load_yaml(source)  # type: ignore[arg-type]
    assert raised.value.code == "not-a-schema"
    assert type(source).__name__ in raised.value.message


def test_the_compiled_bound_is_exact() -> None:
    module = generator.compile_module(load_yaml(SCHEMA_YAML))
    assert not module.is_valid({"price": 0.3})  # 0.3 < 0.30000000000000000001
    assert not module.is_valid({"price": Decimal("0.30000000000000000001")})
    assert module.is_valid({"price": Decimal("0.30000000000000000002")})
    assert module.is_valid({"price": 1, "answer": "no"}) and not module.is_valid(
        {"price": 1, "answer": False}
    )


@pytest.mark.parametrize(
    "text,message",
    [
        ("type: object\ntype: string\n", "duplicate key 'type' (line 2 column 1)"),
        (
            "a: &x {type: string}\nb: *x\n",
            "YAML aliases (*x) (line 2 column 4) are not supported: use $ref",
        ),
        (
            "properties:\n  200: {}\n",
            "the key 200 (line 2 column 3) is not a string (JSON keys are): quote it",
        ),
        ("minimum: .inf\n", ".inf is not a JSON number"),
        ("default: 2001-12-14\n", None),  # a plain string in the core schema: accepted
        (
            "default: !!timestamp 2001-12-14\n",
            "the YAML tag tag:yaml.org,2002:timestamp (line 1 column 10) is not a JSON value",
        ),
        ("x: !!python/object/apply:os.system ['true']\n", "is not a JSON value"),
        ("type: [string\n", "the schema is not valid YAML:"),
        ("", "the schema YAML holds no document"),
        ("a: 1\n---\nb: 2\n", "expected a single document"),
        ("[" * 3000 + "]" * 3000, "nested too deeply"),
    ],
)
def test_what_json_cannot_hold_is_refused(text: str, message: str | None) -> None:
    if message is None:
        assert load_yaml(text) == {"default": "2001-12-14"}
        return
    with pytest.raises(generator.SchemaError) as refused:
        load_yaml(text)
    assert message in refused.value.message


@pytest.mark.parametrize(
    "number", [".inf", ".Inf", ".INF", "-.Inf", "+.INF", ".nan", ".NaN", ".NAN"]
)
def test_infinity_and_nan_in_every_case_the_core_schema_reads_are_refused(number: str) -> None:
    """The core schema reads .inf, .Inf and .INF (and NaN's three spellings) as floats: each is
    refused as bad JSON with its place, never passed to Decimal (a raw InvalidOperation)."""
    with pytest.raises(generator.SchemaError) as refused:
        load_yaml(f"minimum: {number}\n")
    assert refused.value.code == "bad-json"
    assert refused.value.message == f"{number} is not a JSON number (line 1 column 10)"


# An explicit core tag holds only the scalars the 1.2 core schema resolves to it: PyYAML's
# conversions would coerce the rest (bool() of anything but "true" was False, `!!null x` None,
# int()/Decimal() take spaces, underscores, other digits than ASCII ones, Infinity and NaN).
@pytest.mark.parametrize(
    "text, message",
    [
        ("x: !!bool yes\n", "'yes' is not a boolean (true or false) (line 1 column 4)"),
        ("x: !!bool on\n", "'on' is not a boolean"),
        ("x: !!bool y\n", "'y' is not a boolean"),
        ("x: !!bool 1\n", "'1' is not a boolean"),
        ("x: !!bool abc\n", "'abc' is not a boolean"),
        ("x: !!bool tRUE\n", "'tRUE' is not a boolean"),
        ("a: 1\nx: !!null x\n", "'x' is not null (line 2 column 4)"),
        ("x: !!null false\n", "'false' is not null"),
        ("x: !!int abc\n", "'abc' is not an integer (line 1 column 4)"),
        ("x: !!int 0x_\n", "'0x_' is not an integer"),
        ("x: !!int 0x1_0\n", "'0x1_0' is not an integer"),
        ("x: !!int ' 12'\n", "' 12' is not an integer"),
        ("x: !!int \u0661\u0662\n", "'\u0661\u0662' is not an integer"),
        ("x: !!int 1.5\n", "'1.5' is not an integer"),
        ("x: !!float 1_0\n", "'1_0' is not a number (line 1 column 4)"),
        ("x: !!float ' 1.5'\n", "' 1.5' is not a number"),
        ("x: !!float Infinity\n", "'Infinity' is not a number"),
        ("x: !!float NaN\n", "'NaN' is not a number"),
        ("x: !!float .inf\n", ".inf is not a JSON number (line 1 column 4)"),
        (
            "x: !!seq abc\n",
            "the YAML tag tag:yaml.org,2002:seq (line 1 column 4) is on a scalar, not a sequence",
        ),
        (
            "x: !!map [1, 2]\n",
            "the YAML tag tag:yaml.org,2002:map (line 1 column 4) is on a sequence, not a mapping",
        ),
        ("x: !!null [1]\n", "expected a scalar node, but found sequence"),
    ],
)
def test_a_scalar_its_explicit_tag_cannot_be_is_refused_with_its_place(
    text: str, message: str
) -> None:
    with pytest.raises(generator.SchemaError) as refused:
        load_yaml(text)
    assert refused.value.code == "bad-json"
    assert message in refused.value.message


def test_explicit_tags_keep_the_core_forms() -> None:
    text = (
        "a: !!bool true\nb: !!bool FALSE\nc: !!null\nd: !!null ~\ne: !!null NULL\nf: !!int -12\n"
        "g: !!int 0o17\nh: !!int 0x1F\ni: !!float 1\nj: !!float .5e3\nk: !!float 0.30000000000000000001\n"
        "l: !!str yes\nm: !!str 12\nn: !!seq [1]\no: !!map {p: 1}\n"
    )
    assert load_yaml(text) == {
        "a": True,
        "b": False,
        "c": None,
        "d": None,
        "e": None,
        "f": -12,
        "g": 15,
        "h": 31,
        "i": 1.0,
        "j": 500.0,
        "k": Decimal("0.30000000000000000001"),
        "l": "yes",
        "m": "12",
        "n": [1],
        "o": {"p": 1},
    }


@needs_cli
def test_cli_compiles_and_checks_yaml_sources(tmp_path: Path) -> None:
    write(tmp_path / "price.yaml", SCHEMA_YAML)
    write(tmp_path / "pyproject.toml", '[tool.straightline]\nout = "gen"\ncontracts = ["*.yaml"]\n')
    built = run("compile", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    assert "price.yaml -> gen/price.py" in built.stdout
    assert run("check", cwd=tmp_path).returncode == 0
    write(
        tmp_path / "price.yaml",
        SCHEMA_YAML.replace("0.30000000000000000001", "0.30000000000000000002"),
    )
    stale = run("check", cwd=tmp_path)
    assert stale.returncode == 1 and "gen/price.py: stale (the source changed" in stale.stderr
    write(tmp_path / "bad.yml", "type: object\ntype: string\n")
    bad = run("compile", "bad.yml", "--out", "gen", cwd=tmp_path)
    assert bad.returncode == 1
    assert bad.stderr.strip() == "bad.yml:(root): duplicate key 'type' (line 2 column 1) [bad-json]"


def test_without_pyyaml_the_error_names_the_extra(tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['yaml'] = None\n"
        "import generator\n"
        "try:\n    generator.load_yaml('type: string')\n"
        "except generator.SchemaError as error:\n    print(error.message, error.code)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert "install straightline[yaml]" in proc.stdout
    assert proc.stdout.split()[-1] == "unreadable"  # (a missing extra, not malformed JSON)


def test_the_public_loader_stays_a_function_once_the_cli_and_the_data_reader_are_imported() -> None:
    """The module was named load_yaml: importing it (the CLI and the data reader do) made
    `generator.load_yaml` that module, so `generator.load_yaml(text)` said "module is not callable".
    """
    code = (
        "import generator, generator.cli.commands, generator.validate.readers, generator.yaml_loader\n"
        "print(generator.load_yaml('type: string'))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "{'type': 'string'}"
