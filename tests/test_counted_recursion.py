"""Every recursion of a generated module makes a counted call (plan/recursion.py): no cycle of
direct calls between the module's validation functions. A module compiled with mypyc calls a
module function named directly in C, uncounted by the recursion limit; a deep instance could then
overflow the C stack and end the process. Any other call (an alias `_v3r`, a function taken from a
table, `map`) goes through the interpreter's call protocol, which counts.

Checked on the emitted text (parsed here, in the test, never by the compiler) of every schema of
the official test suite, every module in generated/, and a few recursive shapes; without the
aliases (a plan with no recursion heads) the check finds cycles, so it can fail.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest

import generator
import generator.plan as plan_module

from .conftest import ROOT
from .suite import DRAFTS, groups, remotes, suite_files

VALIDATION_FUNCTION = re.compile(r"_[a-z0-9]*[veau][0-9]+")  # fast, error, annotation, evaluation


def direct_cycle(text: str) -> list[str] | None:
    """A cycle of direct calls between the module's validation functions, if there is one."""
    tree = ast.parse(text)
    functions = {
        n.name: n
        for n in tree.body
        if isinstance(n, ast.FunctionDef) and VALIDATION_FUNCTION.fullmatch(n.name)
    }
    calls = {
        name: sorted(
            {
                c.func.id
                for c in ast.walk(f)
                if isinstance(c, ast.Call)
                and isinstance(c.func, ast.Name)
                and c.func.id in functions
            }
        )
        for name, f in functions.items()
    }
    state: dict[str, int] = {}  # 1: on the path, 2: done
    for start in functions:
        if start in state:
            continue
        state[start] = 1
        path = [(start, iter(calls[start]))]
        while path:
            name, callees = path[-1]
            callee = next(callees, None)
            if callee is None:
                state[name] = 2
                path.pop()
            elif state.get(callee) == 1:
                return [n for n, _ in path] + [callee]
            elif callee not in state:
                state[callee] = 1
                path.append((callee, iter(calls[callee])))
    return None


def _suite_schemas(draft: str) -> list[tuple[str, Any]]:
    found: dict[str, tuple[str, Any]] = {}
    for path in suite_files(draft):
        for description, schema, _ in groups(path):
            found.setdefault(
                json.dumps(schema, sort_keys=True), (f"{path.name}: {description}", schema)
            )
    return list(found.values())


def _cycles(draft: str) -> list[str]:
    registry = remotes()
    out = []
    for where, schema in _suite_schemas(draft):
        try:
            text = generator.compile_source(schema, profile=draft, registry=registry, format=False)
        except generator.SchemaError:
            continue
        cycle = direct_cycle(text)
        if cycle:
            out.append(f"{where}: {' -> '.join(cycle)}")
    return out


@pytest.mark.parametrize("draft", DRAFTS)
def test_the_suites_schemas_recurse_only_through_counted_calls(draft: str) -> None:
    assert _cycles(draft) == []


@pytest.mark.parametrize("path", sorted((ROOT / "generated").rglob("*.py")), ids=lambda p: p.stem)
def test_generated_modules_recurse_only_through_counted_calls(path: Path) -> None:
    assert direct_cycle(path.read_text(encoding="utf-8")) is None


# Recursive shapes: a head reached through a plain-reference chain, mutual recursion through
# oneOf alternatives, a cycle through items and properties at once, a head beside siblings.
SHAPES: list[Any] = [
    {
        "$defs": {
            "a": {"$ref": "#/$defs/b"},
            "b": {"$ref": "#/$defs/c"},
            "c": {"type": "object", "properties": {"next": {"$ref": "#/$defs/a"}}},
        },
        "$ref": "#/$defs/a",
    },
    {
        "$defs": {
            "t": {
                "oneOf": [{"type": "integer"}, {"type": "array", "items": {"$ref": "#/$defs/u"}}]
            },
            "u": {
                "oneOf": [
                    {"type": "string"},
                    {"type": "object", "additionalProperties": {"$ref": "#/$defs/t"}},
                ]
            },
        },
        "$ref": "#/$defs/t",
    },
    {
        "type": ["array", "object"],
        "items": {"$ref": "#"},
        "properties": {"a": {"$ref": "#"}, "b": {"items": {"$ref": "#"}}},
    },
    {
        "properties": {"x": {"$ref": "#", "minProperties": 1}},
        "anyOf": [{"required": ["x"]}, {"properties": {"y": {"$ref": "#/properties/x"}}}],
    },
]


@pytest.mark.parametrize("index", range(len(SHAPES)))
def test_recursive_shapes_recurse_only_through_counted_calls(index: int) -> None:
    assert direct_cycle(generator.compile_source(SHAPES[index], format=False)) is None


def test_without_recursion_heads_the_check_finds_direct_cycles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The control: the same shapes, planned with no heads, recurse through direct calls (the
    second through the loop over its items)."""
    monkeypatch.setattr(plan_module, "recursion_heads", lambda graph, roots: frozenset())
    found = [direct_cycle(generator.compile_source(schema, format=False)) for schema in SHAPES]
    assert all(cycle is not None for cycle in found), found
