"""The static types every generated module defines (generator/render/types.py): what they say for
each keyword, that names are safe and collision-free, that is_valid is a TypeGuard of the root type
and stays the root function where it was, that mypy --strict accepts generated modules and programs
using them, that every valid instance of the official suite type-checks as a value of its schema's
type (the types are never narrower than the schema), and that the modules run on Python 3.10."""

from __future__ import annotations

import ast
import glob
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import tokenize
import typing
from decimal import Decimal
from pathlib import Path
from typing import Any, Literal, NoReturn

import pytest

import generator
from generator.codegen import literal

from .conftest import ROOT
from .suite import DRAFTS, groups, remotes, suite_files

INTEGER = int | float | Decimal  # what an integer may be as a Python value (2, 2.0, Decimal("2"))
NUMBER = int | float | Decimal
BENCH = ROOT / "bench" / "data"  # the vendored copy (bench/data/ORIGIN.md)
# The bench schemas checked by mypy (fhir.schema.json, 3.3 MB, is left out: it alone would take
# longer than the rest of this file) and the instances that are small enough to type-check.
BENCH_SCHEMAS = {
    "fast_schema.json": ["fast_valid.json"],
    "citm_catalog_schema.json": [],
    "geojson.json": [],
    "swagger.json": [],
    "recursive_schema.json": ["recursive_instance.json"],
    "openapi.json": [],
}


def compiled(schema: Any, **kwargs: Any) -> Any:
    return generator.compile_module(schema, format=False, **kwargs)


def hints_of(module: Any, typed_dict: Any) -> dict[str, Any]:
    """A TypedDict's field types, forward references resolved in the module (a module made by
    compile_module is not in sys.modules, where get_type_hints would look)."""
    return typing.get_type_hints(typed_dict, globalns=vars(module))


def type_statements(source: str) -> str:
    """The type definitions of a module's source, with the comments above them."""
    tree = ast.parse(source)
    lines = source.splitlines()
    out = []
    for node in tree.body:
        is_alias = isinstance(node, ast.AnnAssign) and ast.unparse(node.annotation) == "TypeAlias"
        is_typed_dict = (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call)
            and ast.unparse(node.value.func) == "TypedDict"
        )
        is_class = isinstance(node, ast.ClassDef) and node.name not in (
            "ValidationError",
            "EnvelopeError",
        )
        if is_alias or is_typed_dict or is_class:
            start = node.lineno - 1
            while start > 0 and lines[start - 1].startswith("#"):
                start -= 1
            out.extend(lines[start : node.end_lineno])
    return "\n".join(out)


# -- what the types say ------------------------------------------------------------------------------


def test_required_properties_are_required_keys_and_the_others_optional() -> None:
    module = compiled(
        {
            "type": "object",
            "required": ["id", "extra"],
            "properties": {"id": {"type": "string"}, "note": {"type": "string"}, "when": {}},
        }
    )
    assert module.Instance.__required_keys__ == frozenset(
        {"id", "extra"}
    )  # `extra`: required, not declared
    assert module.Instance.__optional_keys__ == frozenset({"note", "when"})
    assert hints_of(module, module.Instance) == {"id": str, "extra": Any, "note": str, "when": Any}
    assert "Instance" in module.__all__


def test_kinds_literals_and_numbers() -> None:
    def root(schema: Any, **kwargs: Any) -> Any:
        return compiled(schema, **kwargs).Instance

    assert root({"type": ["string", "null"]}) == str | None
    assert root({"type": "integer"}) == INTEGER
    assert root({"type": "integer"}, profile="draft4") is int  # draft 4: 1.0 is not an integer
    assert root({"type": "number"}) == NUMBER
    assert root({"type": "boolean"}) is bool
    assert root({"enum": ["a", "b"]}) == Literal["a", "b"]
    assert (
        root({"enum": ["a", 1, True, None]}) == Literal["a", 1, True] | float | Decimal | None
    )  # 1.0 == 1
    assert root({"const": 1.5}) == float | Decimal
    assert root({"enum": [{"a": 1}, [1]]}) == dict[str, Any] | list[Any]
    assert root({"type": "string", "enum": ["a", 2]}) == Literal["a"]  # type and enum intersected
    assert root(True) is Any
    assert root(False) is NoReturn
    assert root({"enum": ["x"]}, profile="lenient") is Any  # lenient does not enforce enum


def test_arrays_objects_without_properties_and_boolean_subschemas() -> None:
    def root(schema: Any, **kwargs: Any) -> Any:
        return compiled(schema, **kwargs).Instance

    assert root({"type": "array", "items": {"type": "string"}}) == list[str]
    assert (
        root(
            {"type": "array", "prefixItems": [{"type": "string"}, {"type": "null"}], "items": False}
        )
        == list[str | None]
    )
    assert (
        root(
            {
                "type": "array",
                "items": [{"type": "string"}],
                "additionalItems": {"type": "boolean"},
            },
            profile="draft7",
        )
        == list[str | bool]
    )
    assert root({"type": "object", "additionalProperties": {"type": "string"}}) == dict[str, str]
    assert root({"type": "object", "additionalProperties": False}) == dict[str, NoReturn]
    assert (
        root(
            {
                "type": "object",
                "patternProperties": {"^a": {"type": "string"}},
                "additionalProperties": {"type": "null"},
            }
        )
        == dict[str, None | str]
    )
    assert (
        root({"type": "object", "patternProperties": {"^a": {"type": "string"}}}) == dict[str, Any]
    )
    assert (
        root({"type": "object", "required": ["a"]}) == dict[str, Any]
    )  # no properties: no TypedDict
    module = compiled({"type": "object", "properties": {"gone": False}})
    assert module.Instance.__annotations__ == {"gone": NoReturn}  # the key can only be absent


def test_a_schema_without_type_admits_every_kind() -> None:
    module = compiled({"properties": {"a": {"type": "string"}}})
    members = set(typing.get_args(module.Instance))
    assert members == {module.InstanceObject, list[Any], str, int, float, Decimal, bool, type(None)}
    assert module.InstanceObject.__annotations__ == {"a": str}


def test_combinators() -> None:
    module = compiled(
        {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "integer"}}]}
    )
    assert module.Instance == list[INTEGER] | str
    module = compiled({"oneOf": [{"const": "a"}, {"const": "b"}]})
    assert module.Instance == Literal["a", "b"]
    module = compiled({"if": {"type": "string"}, "then": {"const": "x"}, "else": {"type": "null"}})
    assert module.Instance == Literal["x"] | None
    module = compiled({"type": "string", "not": {"const": "x"}})
    assert module.Instance is str  # `not` narrows nothing
    module = compiled(
        {
            "allOf": [
                {
                    "type": "object",
                    "properties": {"a": {"type": "string"}, "n": {"type": "number"}},
                    "required": ["a"],
                },
                {
                    "properties": {"b": {"type": "boolean"}, "n": {"type": "integer"}},
                    "required": ["b"],
                },
            ]
        }
    )
    assert module.Instance.__required_keys__ == frozenset({"a", "b"})
    assert hints_of(module, module.Instance) == {"a": str, "n": INTEGER, "b": bool}


def test_all_of_with_closed_objects_keeps_what_both_allow() -> None:
    """additionalProperties: false in one branch refuses the other branch's names (a JSON Schema
    classic): the merged type says so rather than allowing them."""
    module = compiled(
        {
            "allOf": [
                {
                    "type": "object",
                    "properties": {"a": {"type": "string"}},
                    "additionalProperties": False,
                },
                {"type": "object", "properties": {"b": {"type": "string"}}},
            ]
        }
    )
    assert hints_of(module, module.Instance) == {"a": str, "b": NoReturn}


def test_references_become_named_types_and_recursion_works() -> None:
    schema = {
        "$defs": {
            "node": {
                "type": "object",
                "required": ["value"],
                "properties": {
                    "value": {"type": "string"},
                    "next": {"$ref": "#/$defs/node"},
                    "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}},
                },
            },
            "unused-but-named": {"type": "integer"},
        },
        "$ref": "#/$defs/node",
    }
    module = compiled(schema)
    assert module.Instance is module.Node
    assert module.UnusedButNamed == INTEGER
    hints = hints_of(module, module.Node)
    assert hints == {"value": str, "next": module.Node, "kids": list[module.Node]}
    assert module.Node.__required_keys__ == frozenset({"value"})
    assert module.is_valid({"value": "a", "next": {"value": "b"}, "kids": [{"value": "c"}]})


def test_draft_rules_decide_what_a_reference_means() -> None:
    schema = {"$defs": {"s": {"type": "string"}}, "$ref": "#/$defs/s", "enum": ["a", 1]}
    assert compiled(schema).Instance == Literal["a"]  # 2020-12: $ref and enum both apply
    legacy = {"definitions": {"s": {"type": "string"}}, "$ref": "#/definitions/s", "enum": ["a", 1]}
    assert (
        compiled(legacy, profile="draft7").Instance is str
    )  # draft 7: the $ref's siblings are ignored


def test_remote_documents_and_base_uri_changes_resolve_as_the_compiler_resolves_them() -> None:
    registry = {
        "http://example.com/geo/point.json": {
            "type": "object",
            "required": ["x"],
            "properties": {"x": {"type": "number"}},
        },
        "http://example.com/other/point.json": {"type": "string"},
    }
    schema = {
        "$id": "http://example.com/root.json",
        "type": "object",
        "properties": {
            "at": {"$ref": "geo/point.json"},
            "nested": {
                "$id": "other/",
                "properties": {"p": {"$ref": "point.json"}},
                "type": "object",
            },
        },
    }
    module = compiled(schema, registry=registry)
    hints = hints_of(module, module.Instance)
    assert hints["at"] is module.Point and hints_of(module, module.Point) == {"x": NUMBER}
    assert hints_of(module, hints["nested"]) == {"p": module.Point2}
    assert module.Point2 is str  # the base changed: `point.json` is the other document
    assert module.is_valid({"at": {"x": 1}, "nested": {"p": "q"}})


def test_dynamic_references_are_any_with_the_reason_in_a_comment() -> None:
    schema = {
        "$dynamicAnchor": "node",
        "type": "object",
        "properties": {"kids": {"type": "array", "items": {"$dynamicRef": "#node"}}},
    }
    source = generator.compile_source(schema)
    types = type_statements(source)
    assert "# Any stands for what a $dynamicRef reaches: its target is chosen at run time" in types
    assert 'Instance = TypedDict("Instance", {"kids": list[Any]}, total=False)' in types
    source = generator.compile_source(
        {"$recursiveAnchor": True, "type": "array", "items": {"$recursiveRef": "#"}},
        profile="draft2019-09",
    )
    assert (
        "$recursiveRef reaches" in type_statements(source)
        and "Instance: TypeAlias = list[Any]" in source
    )


def test_names_are_safe_identifiers_without_collisions_and_never_schema_text() -> None:
    hostile = 'x"]); import os; os.system("echo")  # '
    keys = [
        "Instance",
        "instance",
        "ValidationError",
        "RecursionError",
        "None",
        "class",
        "1st",
        "é",
        "a b",
        "",
        "TypedDict",
        "Any",
        "_Decimal",
        hostile,
    ]
    schema = {
        "$defs": {k: {"type": "object", "properties": {hostile: {"const": hostile}}} for k in keys},
        "type": "object",
        "properties": {
            k: {"$ref": "#/$defs/" + k.replace("~", "~0").replace("/", "~1")} for k in keys if k
        },
    }
    source = generator.compile_source(schema)
    module = compiled(schema)
    names = [
        n
        for n in module.__dict__
        if not n.startswith("_")
        and isinstance(module.__dict__[n], type)
        and hasattr(module.__dict__[n], "__required_keys__")
    ]
    assert len(names) == len(keys) + 1  # a TypedDict per definition, and the root's
    assert all(n.isidentifier() and n.isascii() for n in names)
    assert issubclass(module.ValidationError, ValueError) and "RecursionError" not in vars(
        module
    )  # not shadowed
    tokens = {
        t.string
        for t in tokenize.generate_tokens(io.StringIO(source).readline)
        if t.type == tokenize.NAME
    }
    assert (
        "os" not in tokens and "system" not in tokens
    )  # the hostile text is only ever inside strings
    assert module.is_valid({"class": {hostile: hostile}}) and not module.is_valid(
        {"class": {hostile: "y"}}
    )


def test_every_capitalised_builtin_of_this_python_is_reserved() -> None:
    """Type names avoid the builtins from a fixed list (names must not depend on the Python that
    compiles): a Python with a new one fails here until the list has it."""
    import builtins

    from generator.render.types import _BUILTINS

    assert {n for n in dir(builtins) if n[:1].isupper()} <= _BUILTINS


def test_contract_sides_share_one_set_of_names() -> None:
    contract = {
        "name": "search",
        "profile": "draft2020-12",
        "input": {
            "$defs": {"q": {"type": "string"}},
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
    assert hints_of(module, module.Input) == {"query": module.Q}
    assert module.Q is str and module.Output == list[module.Q2] and module.Q2 == INTEGER
    source = generator.compile_contract_source(contract)
    assert "def is_valid_input(instance: Any) -> TypeGuard[Input]:" in source
    clash = {
        **contract,
        "input": {"$defs": {"output": {"type": "string"}}, "$ref": "#/$defs/output"},
    }
    module = generator.compile_contract_module(clash)  # a definition named like the other root
    assert module.Output == list[module.Q] and module.Input is module.Output2 is str
    assert "def is_valid_output(instance: Any) -> TypeGuard[Output]:" in source


def test_is_valid_is_a_type_guard_and_stays_the_root_function_where_it_was() -> None:
    direct = compiled({"type": "object", "properties": {"a": {"type": "string"}}})
    assert direct.is_valid is direct._v0  # no wrapper: the call costs what it cost before
    source = generator.compile_source({"type": "object", "properties": {"a": {"type": "string"}}})
    # a cast, not a TYPE_CHECKING branch: mypyc compiles it (generator/native)
    assert '\nis_valid = cast("Callable[[Any], TypeGuard[Instance]]", _v0)\n' in source
    assert "TYPE_CHECKING" not in source
    referring = compiled(
        {"$defs": {"s": {"type": "string"}}, "$ref": "#/$defs/s"}
    )  # not direct: a wrapper
    assert typing.get_type_hints(referring.is_valid)["return"] == typing.TypeGuard[str]
    recursive = compiled(
        {"$defs": {"t": {"type": "array", "items": {"$ref": "#/$defs/t"}}}, "$ref": "#/$defs/t"}
    )
    assert recursive.Instance == "T" and recursive.T == "list[T]"  # recursive: forward references
    assert recursive.is_valid([[], [[]]]) and not recursive.is_valid([1])


def test_deep_schemas_compile_and_the_reader_stays_within_the_stack(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The types are read from the lowered IR, as deep as the profile's max_depth lets a schema
    compile; past the reader's own depth cut (_MAX_DEPTH, lowered here to reach it) a subschema
    is Any, wider, and the reading never goes deeper."""

    def nested(levels: int) -> Any:
        schema: Any = {"type": "string"}
        for level in range(levels):
            schema = (
                {"type": "object", "properties": {"p": schema}}
                if level % 2
                else {"type": "array", "items": schema}
            )
        return schema

    module = compiled(nested(120), profile="draft2020-12")
    assert module.is_valid({}) and "Instance" in module.__all__
    import generator.render.types as render_types
    from generator.pipeline import PROFILES, TABLES
    from generator.render.types import TypedRoot, module_types

    root = [TypedRoot("Instance", nested(120), PROFILES["draft2020-12"])]
    whole = module_types(root, tables=TABLES)
    assert not any("Any" in d.text for d in whole.definitions)  # read to the innermost `str`
    monkeypatch.setattr(render_types, "_MAX_DEPTH", 20)
    cut = module_types(root, tables=TABLES)
    assert any("Any" in d.text for d in cut.definitions)  # past the reader's depth: Any, wider
    assert len(cut.definitions) < len(whole.definitions)


def test_reference_chains_and_wide_enums_are_read_in_one_pass() -> None:
    """A chain of 20,000 plain references names one type (not one alias per hop), and an enum of
    100,000 values is one Literal: the reader stays linear (a quadratic one would not finish)."""
    from generator.pipeline import PROFILES, TABLES
    from generator.render.types import TypedRoot, module_types

    defs: dict[str, Any] = {f"d{i}": {"$ref": f"#/$defs/d{i + 1}"} for i in range(20_000)}
    defs["d20000"] = {"type": "string"}
    chain = {"$defs": defs, "properties": {"x": {"$ref": "#/$defs/d0"}}, "type": "object"}
    types = module_types([TypedRoot("Instance", chain, PROFILES["draft2020-12"])], tables=TABLES)
    assert [d.text for d in types.definitions] == [
        "D20000: TypeAlias = str",
        'Instance = TypedDict("Instance", {"x": D20000}, total=False)',
    ]
    wide = {"enum": [f"v{i}" for i in range(100_000)]}
    (only,) = module_types(
        [TypedRoot("Instance", wide, PROFILES["draft2020-12"])], tables=TABLES
    ).definitions
    assert only.text.count('"v') == 100_000


def _typing_names_unused(source: str) -> list[str]:
    tree = ast.parse(source)
    imported = [
        a.asname or a.name
        for n in tree.body
        if isinstance(n, ast.ImportFrom) and n.module == "typing"
        for a in n.names
    ]
    body = "\n".join(
        line for line in source.splitlines() if not line.startswith("from typing import")
    )
    return [name for name in imported if not re.search(rf"\b{name}\b", body)]


def test_the_typing_import_names_only_what_the_module_uses() -> None:
    sources = [
        p.read_text(encoding="utf-8")
        for p in sorted((ROOT / "generated").glob("*/*.py"))
        if p.name != "__init__.py"
    ]
    sources += [
        generator.compile_source(s) for s in (True, False, {"enum": ["a"]}, {"type": "integer"})
    ]
    for source in sources:
        assert len(re.findall(r"^from typing import", source, flags=re.M)) == 1
        assert _typing_names_unused(source) == []


# -- mypy --strict -----------------------------------------------------------------------------------

USAGE = '''
"""Uses a generated module's types as an application would."""
from typing import Any, Literal

import math_add
import tool_package


def operations(document: Any) -> int:
    if tool_package.is_valid(document):  # a TypeGuard: document is a tool_package.Instance below
        key: str = document["tool_key"]  # a required key of a TypedDict
        effect: Literal["compute", "case_artifacts", "connector"] = document["effect"]  # a Literal
        entry: tool_package.InstanceEntry = document["entry"]  # a named TypedDict
        if effect == "connector" and entry["artifact"] == "binary":
            return len(document["connector_operations"]) + len(key)
        return int(document["version"])
    return -1


def add(request: math_add.Input) -> math_add.Output:
    return {"total": int(request["left"]) + int(request["right"])}


print(operations({}), add({"left": 1, "right": 2.0}))
'''

# Each line marked `# E` must be an error, and no other line.
MISUSE = """
from typing import Any, Literal

import math_add
import tool_package


def wrong(document: Any) -> None:
    if tool_package.is_valid(document):
        number: int = document["tool_key"]  # E: a str
        document["no_such_key"]  # E: not a key of the TypedDict
        effect: Literal["compute"] = document["effect"]  # E: the Literal has three values
        print(number, effect)


bad: math_add.Input = {"left": 1, "right": "2"}  # E: a str for an integer
missing: math_add.Input = {"left": 1}  # E: a required key missing
"""


def _mypy(*arguments: str, cwd: Path, timeout: int = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "--cache-dir",
            os.devnull,
            "--python-version",
            "3.10",
            *arguments,
        ],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_mypy_strict_accepts_a_program_using_the_types_and_flags_one_misusing_them(
    tmp_path: Path,
) -> None:
    pytest.importorskip("mypy")
    schema = (ROOT / "contracts" / "draft2020-12" / "tool-package.schema.json").read_bytes()
    (tmp_path / "tool_package.py").write_text(generator.compile_source(schema))
    contract = (ROOT / "contracts" / "tools" / "math.add.json").read_bytes()
    (tmp_path / "math_add.py").write_text(generator.compile_contract_source(contract))
    (tmp_path / "usage.py").write_text(USAGE)
    (tmp_path / "misuse.py").write_text(MISUSE)
    done = _mypy("tool_package.py", "math_add.py", "usage.py", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (
        subprocess.run(
            [sys.executable, "usage.py"], cwd=tmp_path, capture_output=True, text=True, timeout=60
        ).stdout
        == "-1 {'total': 3}\n"
    )
    done = _mypy("misuse.py", cwd=tmp_path)
    flagged = {
        int(line.split(":")[1])
        for line in done.stdout.splitlines()
        if line.startswith("misuse.py:") and ": error:" in line
    }
    marked = {number for number, line in enumerate(MISUSE.splitlines(), 1) if "# E" in line}
    assert flagged == marked and len(marked) == 5, done.stdout


def test_mypy_strict_accepts_enums_and_consts_of_empty_arrays_and_objects(tmp_path: Path) -> None:
    # their values' list is a module constant whose type mypy cannot infer (`[[]]`) unless annotated
    pytest.importorskip("mypy")
    for index, schema in enumerate(
        [{"const": []}, {"const": {}}, {"enum": [[], {}]}, {"enum": [1, {"a": [[]]}]}]
    ):
        source = generator.compile_source(schema, format=False)
        assert re.search(r"^_L\d+: Final\[list\[Any\]\] = ", source, re.M), schema
        (tmp_path / f"empty_{index}.py").write_text(source)
    done = _mypy(*sorted(p.name for p in tmp_path.glob("empty_*.py")), cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


# Keywords whose subschemas narrow no type (render/types.py): names declared there are no keys.
_UNTYPED = {
    "not",
    "if",
    "dependencies",
    "dependentSchemas",
    "contains",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
}


def _declared_key_sets(value: Any) -> list[set[str]]:
    """The names each `properties`/`required` of a schema declares together."""
    found: list[set[str]] = [set()]
    stack = [value]
    while stack:
        current = stack.pop()
        if isinstance(current, dict):
            names: set[str] = set()
            if isinstance(current.get("properties"), dict):
                names |= set(current["properties"])
            if isinstance(current.get("required"), list):
                names |= {n for n in current["required"] if isinstance(n, str)}
            if names:
                found.append(names)
            stack.extend(v for k, v in current.items() if k not in _UNTYPED)
        elif isinstance(current, list):
            stack.extend(current)
    return found


def _only_declared_keys(instance: Any, declared: list[set[str]]) -> bool:
    """Whether each object in the instance has only names one schema object declares together: a
    TypedDict cannot say that other names are allowed (the README's documented choice), so mypy
    refuses a literal with them whatever the schema says."""
    stack = [instance]
    while stack:
        current = stack.pop()
        if isinstance(current, dict):
            if not any(set(current) <= names for names in declared):
                return False
            stack.extend(current.values())
        elif isinstance(current, list):
            stack.extend(current)
    return True


def _suite_sample() -> list[tuple[str, str, Any, list[dict[str, Any]]]]:
    """Every other group of every file of the five drafts, and every group of the files about
    references: about 750 schemas. (module name, draft, schema, tests)"""
    chosen = []
    for draft in DRAFTS:
        for path in suite_files(draft):
            about_refs = path.stem in (
                "ref",
                "refRemote",
                "dynamicRef",
                "recursiveRef",
                "defs",
                "anchor",
                "id",
            )
            for index, (_, schema, tests) in enumerate(groups(path)):
                if about_refs or index % 2 == 0:
                    name = re.sub(r"\W", "_", f"s_{draft}_{path.stem}_{index}")
                    chosen.append((name, draft, schema, tests))
    return chosen


def _check_program(module: str, instances: list[Any]) -> str:
    """A program that states each instance is a value of the module's root type."""
    lines = ["from decimal import Decimal as _Decimal", f"from {module} import Instance", ""]
    lines += [f"v{i}: Instance = {literal(value).text}" for i, value in enumerate(instances)]
    return "\n".join(lines) + "\n"


def test_mypy_strict_passes_on_suite_and_bench_modules_and_their_valid_instances(
    tmp_path: Path,
) -> None:
    """One mypy run (as for Python 3.10) over ~750 modules compiled from the official suite, the
    bench schemas, and programs that assign every valid instance of them to the root type: mypy
    accepting those proves the types are no narrower than the schemas (objects with names no
    single schema object declares aside, see _only_declared_keys)."""
    pytest.importorskip("mypy")
    registry = remotes()
    declared_remotely = _declared_key_sets(list(registry.values()))
    checked = skipped = 0
    for name, profile, schema, tests in _suite_sample():
        (tmp_path / f"{name}.py").write_text(
            generator.compile_source(schema, profile=profile, registry=registry, format=False)
        )
        remote = "localhost:1234" in json.dumps(schema)
        declared = _declared_key_sets(schema) + (declared_remotely if remote else [])
        valid = [t["data"] for t in tests if t["valid"]]
        fitting = [v for v in valid if _only_declared_keys(v, declared)]
        checked, skipped = checked + len(fitting), skipped + len(valid) - len(fitting)
        (tmp_path / f"check_{name}.py").write_text(_check_program(name, fitting))
    for file, instances in BENCH_SCHEMAS.items():
        name = "bench_" + file.split(".")[0]
        (tmp_path / f"{name}.py").write_text(
            generator.compile_source((BENCH / file).read_bytes(), format=False)
        )
        values = [
            json.loads((BENCH / i).read_text(encoding="utf-8"), parse_float=Decimal)
            for i in instances
        ]
        (tmp_path / f"check_{name}.py").write_text(_check_program(name, values))
        checked += len(values)
    assert len(list(tmp_path.glob("s_*.py"))) > 700 and checked > 1400 and skipped < checked / 5
    done = _mypy(
        "--disable-error-code",
        "typeddict-unknown-key",
        "--explicit-package-bases",
        ".",
        cwd=tmp_path,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-20000:] + done.stderr


# -- Python 3.10 ---------------------------------------------------------------------------------------


def _python_310() -> str | None:
    """A Python 3.10 interpreter on this machine, if there is one (pyenv's, or on PATH)."""
    candidates = [
        os.environ.get("STRAIGHTLINE_PYTHON310", ""),
        shutil.which("python3.10") or "",
        *sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.10*/bin/python3.10"))),
        *sorted(glob.glob("/usr/local/bin/python3.10")),
        "/usr/bin/python3.10",
    ]
    for candidate in filter(None, candidates):
        try:
            done = subprocess.run(
                [candidate, "-c", "import sys; print(sys.version_info[:2] == (3, 10))"],
                capture_output=True,
                text=True,
                timeout=30,
            )
        except OSError:
            continue
        if done.stdout.strip() == "True":
            return candidate
    return None


RUN_ON_310 = """
import importlib, json, sys, typing
sys.path.insert(0, ".")
out = {}
for name, instances in json.load(open("cases.json")).items():
    module = importlib.import_module(name)
    is_valid = getattr(module, "is_valid", None) or module.is_valid_input
    out[name] = [bool(is_valid(i)) for i in instances]
    if "# strings" not in open(name + ".py").read():
        for value in vars(module).values():
            if isinstance(value, type) and hasattr(value, "__required_keys__"):
                typing.get_type_hints(value)  # every TypedDict's fields evaluate on 3.10
json.dump(out, sys.stdout)
"""


def test_generated_modules_run_on_python_3_10(tmp_path: Path) -> None:
    """Generated modules support Python 3.10 and later (README, pyproject.toml): the modules of
    generated/ and of every other suite group import there, their TypedDicts' fields evaluate, and
    they give the verdicts they give here."""
    python = _python_310()
    if python is None:
        pytest.skip("no Python 3.10 on this machine (set STRAIGHTLINE_PYTHON310 to one)")
    registry = remotes()
    cases: dict[str, list[Any]] = {}
    expected: dict[str, list[bool]] = {}
    for name, profile, schema, tests in _suite_sample()[::2]:
        source = generator.compile_source(schema, profile=profile, registry=registry, format=False)
        strings = (
            'TypeAlias = "' in source or 'TypeAlias = (\n    "' in source
        )  # recursive: strings at run time
        (tmp_path / f"{name}.py").write_text(source + ("# strings\n" if strings else ""))
        instances = [json.loads(json.dumps(t["data"], default=float)) for t in tests]
        module = compiled(schema, profile=profile, registry=registry)
        cases[name], expected[name] = instances, [bool(module.is_valid(i)) for i in instances]
    for path in sorted(p for p in (ROOT / "generated").glob("*/*.py") if p.name != "__init__.py"):
        name = f"g_{path.parent.name.replace('-', '_')}_{path.stem}"
        shutil.copy(path, tmp_path / f"{name}.py")
        module = _load(tmp_path / f"{name}.py")
        is_valid = getattr(module, "is_valid", None) or module.is_valid_input
        cases[name] = [{}, [], "x", 1, {"left": 1, "right": 2}]
        expected[name] = [bool(is_valid(i)) for i in cases[name]]
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    done = subprocess.run(
        [python, "-c", textwrap.dedent(RUN_ON_310)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-5000:]
    verdicts = json.loads(done.stdout)
    assert len(verdicts) == len(cases) > 350
    for name, answers in expected.items():
        assert verdicts[name] == answers, name


def _load(path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_types_come_from_the_units_and_the_reader_names_no_keyword() -> None:
    """render/types.py reads the lowered IR through the units' `types` hooks: no string in its
    code is a keyword, and it imports no resolver (references are lowering's business)."""
    from generator.keywords.registry import KEYWORDS, TABLES

    source = (ROOT / "generator" / "render" / "types.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    body = tree.body[1:]  # (the module docstring describes the rules in the schema's words)
    strings = {
        node.value
        for top in body
        for node in ast.walk(top)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }
    assert not strings & set(KEYWORDS)
    imported = {top.module for top in body if isinstance(top, ast.ImportFrom) and top.module}
    assert "resolve" not in imported and "preflight" not in imported  # (at run time)
    assert {hook.__module__.rpartition(".")[2] for hook in TABLES.type_hooks} == {
        "refs",
        "any_instance",
        "objects",
        "arrays",
        "applicators",
    }


@pytest.mark.parametrize(
    "schema",
    [{"properties": {}}, {"additionalProperties": True}, {"items": True}, {"required": []}],
)
def test_a_keyword_that_lowers_to_nothing_still_shapes_the_type(schema: dict[str, Any]) -> None:
    """`"properties": {}` lowers to no check, but the type read from the IR (Node.written) is
    still the object's dict in a union with every other kind, as the schema's own words say."""
    source = generator.compile_source(schema, profile="draft7", format=False)
    (alias,) = [line for line in source.splitlines() if line.startswith("Instance: TypeAlias")]
    assert "Any" in alias and "|" in alias and "None" in alias, alias


def test_definitions_no_reference_reaches_leave_the_registry_record_alone() -> None:
    """A definition no reference reaches is lowered for its type alone: the documents it refers
    to are not recorded in the module's header (only what the validator read is), and a
    reference of its that does not resolve makes its type Any, with a comment saying why."""
    from generator.pipeline import TABLES

    schema = {
        "$defs": {"loose": {"properties": {"a": {"$ref": "other.json#/x"}}, "type": "object"}},
        "type": "integer",
    }
    source = generator.compile_source(schema, format=False, registry={})
    assert "registry-document" not in source
    types = type_statements(source)
    assert "# " + TABLES.type_notes["unresolved"] in types and "Loose = TypedDict(" in types, types


def test_types_of_a_root_lowered_apart_match_the_compiles_own() -> None:
    """module_types lowers a root given without the compile's lowering itself: for a profile
    that is no draft (strict: no references, the root alone) and for a subschema a fragment
    names, the types are those the compile writes."""
    from generator.pipeline import PROFILES, TABLES
    from generator.render.types import TypedRoot, module_types

    schema = {
        "type": "object",
        "properties": {"n": {"type": "integer"}, "s": {"enum": ["a", "b"]}},
        "required": ["n"],
        "additionalProperties": False,
    }
    alone = module_types(
        [TypedRoot("Instance", schema, PROFILES["strict"])], tables=TABLES
    ).definitions
    compiled = generator.compile_source(schema, profile="strict")
    assert len(alone) == 3 and all(definition.text in compiled for definition in alone)
    document = {"$defs": {"point": {"type": "array", "items": {"type": "number"}}}}
    (point,) = module_types(
        [
            TypedRoot(
                "Instance",
                document,
                PROFILES["draft2020-12"],
                fragment="/$defs/point",
            )
        ],
        tables=TABLES,
    ).definitions
    assert point.text == "Instance: TypeAlias = list[int | float | _Decimal]"
