"""Tool contracts: the file format, the envelope rule, both sides validated, typed definitions,
the catalog, and mypy --strict on the generated modules."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

import generator

from .conftest import ROOT

MATH_ADD = json.loads((ROOT / "contracts" / "tools" / "math.add.json").read_text())


def test_math_add_contract_validates_input_and_output() -> None:
    module = generator.compile_contract_module(MATH_ADD)
    assert (module.NAME, module.DESCRIPTION, module.PROFILE) == (
        "math.add",
        "Adds two integer fields.",
        "octoscript",
    )
    assert module.is_valid_input({"left": 1, "right": 2})
    assert not module.is_valid_input({"left": 1})
    assert not module.is_valid_input({"left": 1, "right": 2, "extra": 3})
    assert module.is_valid_output({"total": 3})
    assert not module.is_valid_output({"total": "3"})
    assert [
        (e.instance_location, e.keyword_location) for e in module.output_errors({"total": 1.5})
    ] == [("/total", "/properties/total/type")]
    with pytest.raises(module.ValidationError):
        module.validate_input({"left": True, "right": 2})
    assert module.validate_output({"total": 5}) is None
    assert module.CATALOG_ENTRY == {
        "name": "math.add",
        "description": "Adds two integer fields.",
        "input_schema": MATH_ADD["input"],
        "output_schema": MATH_ADD["output"],
    }


@pytest.mark.parametrize("value", ["x", 1, 1.5, None, True, (1, 2)])
def test_envelope_rule_comes_before_the_contract(value: Any) -> None:
    permissive = {"name": "t", "input": {}, "output": {}, "profile": "lenient"}
    module = generator.compile_contract_module(permissive)
    assert module.is_valid_input([]) and module.is_valid_input({}) and module.is_valid_output([1])
    for side in ("input", "output"):
        assert not getattr(module, f"is_valid_{side}")(value)
        (error,) = getattr(module, f"{side}_errors")(value)
        assert isinstance(error, module.EnvelopeError) and isinstance(error, module.ValidationError)
        assert f"the {side} must be a JSON object or array" in error.message
        assert str(error) == f"(root): {error.message}"
        with pytest.raises(module.EnvelopeError):
            getattr(module, f"validate_{side}")(value)


class _Mapping(dict):  # a dict subclass: the envelope and the contract both take it as an object
    pass


@pytest.mark.parametrize(
    "side_schema,envelope_test",
    [
        ({"type": "object"}, False),  # the side's own type refuses what the envelope refuses
        ({"type": "array", "items": {"type": "integer"}}, False),
        ({"type": ["array", "object"], "minProperties": 1}, False),
        (
            {"type": ["object", "string"]},
            True,
        ),  # a string passes the type: the envelope must refuse it
        ({"properties": {"a": {"type": "integer"}}}, True),
    ],
)
def test_envelope_rule_holds_where_the_side_type_makes_it(
    side_schema: dict[str, Any], envelope_test: bool
) -> None:
    contract = {"name": "t", "input": side_schema, "output": {}, "profile": "draft2020-12"}
    source = generator.compile_contract_source(contract, format=False)
    is_valid_text = re.search(
        r"^(def )?is_valid_input\b.*?(?=^def input_errors)", source, re.M | re.S
    )[0]
    # is_valid_input keeps its own envelope test only where the side's type does not do its work
    assert ("isinstance(instance, (dict, list))" in is_valid_text) is envelope_test
    module = generator.compile_contract_module(contract)
    for value in ["x", 1, 1.5, None, True, (1, 2), Decimal("1")]:
        assert not module.is_valid_input(value)
        (error,) = module.input_errors(value)
        assert isinstance(error, module.EnvelopeError)
    for value in [{"a": 1}, _Mapping(a=1), [1], {}]:
        assert module.is_valid_input(value) is (not module.input_errors(value))


@pytest.mark.parametrize(
    "contract,pointer,code",
    [
        ({"name": "t", "input": {}, "output": {}, "extra": 1}, "/extra", "bad-contract"),
        ({"name": "t", "input": {}}, "", "bad-contract"),
        ({"name": "", "input": {}, "output": {}}, "/name", "bad-contract"),
        ({"name": "t", "input": {}, "output": {}, "profile": "draft3"}, "/profile", "bad-contract"),
        (
            {"name": "t", "input": {"pattern": "a"}, "output": {}},
            "/input/pattern",
            "keyword-not-in-profile",
        ),
        (
            {"name": "t", "input": {}, "output": {"properties": {"a": {"$ref": "#"}}}},
            "/output/properties/a/$ref",
            "keyword-not-in-profile",
        ),
        (
            {"name": "t", "input": {}, "output": {"minimum": float("nan")}},
            "/output/minimum",
            "bad-keyword-value",
        ),
        ([1, 2], "", "bad-contract"),
    ],
)
def test_malformed_contracts_are_schema_errors_naming_the_place(
    contract: Any, pointer: str, code: str
) -> None:
    with pytest.raises(generator.SchemaError) as raised:
        generator.compile_contract_source(contract)
    assert (raised.value.code, raised.value.pointer) == (code, pointer)


def test_contract_profiles_and_shared_names_do_not_collide() -> None:
    contract = {
        "name": "search",
        "profile": "draft2020-12",
        "input": {
            "$defs": {"q": {"type": "string", "minLength": 1}},
            "type": "object",
            "properties": {"query": {"$ref": "#/$defs/q"}},
            "required": ["query"],
        },
        "output": {
            "$defs": {"q": {"type": "integer"}},
            "type": "array",
            "items": {"$ref": "#/$defs/q"},
        },
    }
    module = generator.compile_contract_module(contract)
    assert module.is_valid_input({"query": "x"}) and not module.is_valid_input({"query": ""})
    assert module.is_valid_output([1, 2]) and not module.is_valid_output(["x"])


def test_typed_dicts_follow_the_schema() -> None:
    """The contract's types (render/types.py): required keys, optional ones, Literal for an enum,
    and integers as every value the schema accepts for them (1.0 and Decimal("1") included)."""
    contract = {
        "name": "media.resize",
        "input": json.loads(
            (ROOT / "contracts" / "octoscript" / "media.resize.input.json").read_text()
        ),
        "output": {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]},
    }
    module = generator.compile_contract_module(contract)
    from decimal import Decimal
    from typing import Literal

    integer = int | float | Decimal
    fields = module.Input.__annotations__
    assert fields["source"] is str and fields["width"] == integer and fields["height"] == integer
    assert fields["scale"] == integer
    assert fields["format"] == Literal["png", "jpeg", "webp"]
    assert fields["tags"] == list[str]
    assert fields["watermark"] is type(None)
    assert fields["crop"] is module.InputCrop
    assert module.InputCrop.__annotations__ == {"x": integer, "y": integer}
    assert module.InputCrop.__required_keys__ == frozenset({"x", "y"})
    assert module.Input.__required_keys__ == frozenset({"source", "width", "height"})
    assert module.Input.__optional_keys__ == frozenset(
        {"scale", "budget", "format", "keep_metadata", "watermark", "tags", "crop"}
    )
    assert module.Output.__annotations__ == {"ok": bool}


def test_cli_compiles_contract_files_next_to_schemas_and_writes_the_catalog(tmp_path: Path) -> None:
    cli = Path(sys.executable).parent / "straightline"
    (tmp_path / "add.json").write_text(json.dumps(MATH_ADD))
    (tmp_path / "plain.json").write_text(json.dumps({"type": "string"}))
    done = subprocess.run(
        [str(cli), "compile", "add.json", "plain.json", "--out", "out", "--profile", "strict"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "is_valid_input" in (tmp_path / "out" / "add.py").read_text()
    plain = (tmp_path / "out" / "plain.py").read_text()
    assert "is_valid_input" not in plain and ("def is_valid(" in plain or "\nis_valid = " in plain)
    done = subprocess.run(
        [str(cli), "catalog", "add.json", "-o", "catalog.json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "catalog.json").read_text()) == [
        {
            "name": "math.add",
            "description": "Adds two integer fields.",
            "input_schema": MATH_ADD["input"],
            "output_schema": MATH_ADD["output"],
        }
    ]
    (tmp_path / "bad.json").write_text(json.dumps({**MATH_ADD, "outputs": {}}))
    done = subprocess.run(
        [str(cli), "catalog", "bad.json"], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert (
        done.returncode == 1 and "bad.json:/outputs: unknown contract key 'outputs'" in done.stderr
    )
    done = subprocess.run(
        [str(cli), "catalog", "plain.json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr


def test_mypy_strict_passes_on_every_generated_module() -> None:
    pytest.importorskip("mypy")
    # paths relative to the root, so that `generated.tools.math_add` (as the example imports it)
    # and the file are one module to mypy
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "generated").glob("*/*.py"))
    examples = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "examples").glob("*.py"))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "--explicit-package-bases",
            *files,
            *examples,
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr
