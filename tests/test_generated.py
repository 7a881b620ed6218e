"""generated/ is exactly what `make generate` emits (golden files), and the emitted text is
black-stable and the same program with or without formatting."""

from __future__ import annotations

import ast
import importlib.util
import json
from pathlib import Path

import black
import pytest

import generator
from generator.contracts import is_contract
from generator.files import split_source
from generator.names import module_name_for
from generator.project import Job, load_project
from generator.render.module import _BLACK_MODE

from .conftest import ROOT

CONTRACTS = sorted(p for p in (ROOT / "contracts").glob("*/*.json") if p.parent.name != "tools")
PROFILES = ("octoscript", "strict", "lenient", "draft2020-12")
# What `make generate` compiles: the project's [tool.straightline] jobs.
JOBS = load_project(ROOT / "pyproject.toml").jobs


def test_every_profile_has_example_contracts() -> None:
    assert {c.parent.name for c in CONTRACTS} == set(PROFILES)


def test_the_project_config_compiles_every_contract_into_its_profile_package() -> None:
    by_source = {Path(split_source(job.source)[0]): job for job in JOBS}
    for contract in CONTRACTS:
        job = by_source[contract]
        assert job.settings.profile == contract.parent.name
        assert job.target.parent == ROOT / "generated" / module_name_for(contract.parent.name)
    assert any(split_source(job.source)[1] == "/$defs/invocation" for job in JOBS)
    assert {job.target.parent.name for job in JOBS} >= {"tools", "draft2020_12"}


@pytest.mark.parametrize("job", JOBS, ids=lambda job: job.shown)
def test_generated_module_is_what_make_generate_emits(job: Job) -> None:
    """Each module in generated/ is byte for byte what the API compiles from its contract, with
    the settings the project config gives it (so the CLI and the API agree)."""
    path, fragment = split_source(job.source)
    raw = Path(path).read_bytes()
    assert job.target.exists(), f"{job.target} is missing: run `make generate`"
    if is_contract(json.loads(raw)):
        emitted = generator.compile_contract_source(raw, name=job.target.stem)
    else:
        emitted = generator.compile_source(
            raw, profile=job.settings.profile, name=job.target.stem, fragment=fragment
        )
    assert (
        job.target.read_text(encoding="utf-8") == emitted
    ), f"{job.target} is stale: run `make generate`"


@pytest.mark.parametrize("contract", CONTRACTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_emitted_text_is_black_stable_and_same_program_unformatted(contract: Path) -> None:
    profile = contract.parent.name
    formatted = generator.compile_source(contract.read_bytes(), profile=profile)
    assert black.format_str(formatted, mode=_BLACK_MODE) == formatted
    plain = generator.compile_source(contract.read_bytes(), profile=profile, format=False)
    assert ast.dump(ast.parse(plain)) == ast.dump(ast.parse(formatted))


def _load(path: Path):
    spec = importlib.util.spec_from_file_location(f"golden_{path.parent.name}_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_modules_import_only_the_standard_library() -> None:
    import sys

    allowed = set(sys.stdlib_module_names)
    for path in sorted((ROOT / "generated").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert all(a.name.split(".")[0] in allowed for a in node.names), path
            elif isinstance(node, ast.ImportFrom):
                assert node.level == 0 and (node.module or "").split(".")[0] in allowed, path


def test_math_add_modules_behave_as_the_seed_says() -> None:
    add_in = _load(ROOT / "generated" / "octoscript" / "math_add_input.py")
    add_out = _load(ROOT / "generated" / "octoscript" / "math_add_output.py")
    assert add_in.is_valid({"left": 2, "right": 3})
    assert not add_in.is_valid({"left": 2})
    assert not add_in.is_valid({"left": 2, "right": "3"})
    assert not add_in.is_valid({"left": 2, "right": 3, "extra": 0})
    assert not add_in.is_valid({"left": True, "right": 3})
    assert add_out.is_valid({"total": 5})
    with pytest.raises(add_out.ValidationError) as raised:
        add_out.validate({"total": 5.5})
    assert (raised.value.instance_location, raised.value.keyword_location) == (
        "/total",
        "/properties/total/type",
    )
    header = json.loads(json.dumps(add_in.STRAIGHTLINE))
    assert header["profile"] == "octoscript" and header["version"] == generator.__version__


# -- the emitter writes black's style itself (black runs only on sections with long lines) ----------
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from .strategies import draft_document, schemas  # noqa: E402


@given(st.one_of(st.text(), st.floats(allow_nan=False, allow_infinity=False), st.integers()))
def test_literals_are_written_as_black_writes_them(value: object) -> None:
    from generator.codegen import literal

    text = literal(value).text
    assert (
        ast.literal_eval(text) == value
        if not text.startswith("-")
        else ast.literal_eval(text[1:]) == -value
    )
    line = f"x = {text}\n"
    assert black.format_str(line, mode=_BLACK_MODE) == line


@settings(max_examples=25)
@given(
    st.one_of(
        schemas("strict"),
        schemas("octoscript"),
        draft_document("draft2020-12"),
        draft_document("draft7"),
    )
)
def test_formatted_output_of_any_schema_is_black_stable(schema: object) -> None:
    profile = None
    if isinstance(schema, dict) and not ("$defs" in schema or "definitions" in schema):
        profile = "strict"
    try:
        text = generator.compile_source(schema, profile=profile)
    except generator.SchemaError:
        return  # e.g. a reference cycle: nothing emitted
    assert black.format_str(text, mode=_BLACK_MODE) == text


LONG = st.text(alphabet="abcdefghij_/~\"'\\é", min_size=30, max_size=70)


@settings(max_examples=25)
@given(
    st.dictionaries(
        LONG,
        st.sampled_from(
            [
                {"type": "string"},
                {"enum": ["a" * 60, 'b"' * 30]},
                {"minimum": 10**40},
                {"items": {"type": "integer"}},
                {"pattern": "^" + "a" * 90},
            ]
        ),
        min_size=1,
        max_size=4,
    ),
    st.lists(LONG, max_size=3, unique=True),
)
def test_long_names_and_values_are_laid_out_as_black_would(
    properties: dict[str, object], required: list[str]
) -> None:
    """Long lines are laid out by generator/layout.py, not black: the result must be black's."""
    schema = {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
        "enum": [{"x" * 80: 1}],
    }
    text = generator.compile_source(schema, profile="strict")
    assert black.format_str(text, mode=_BLACK_MODE) == text
