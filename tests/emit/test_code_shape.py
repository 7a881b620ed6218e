"""The emitter stays readable: no function over 60 lines, no class over 400 lines, no dispatch by
method name, and nothing in emission or rendering that parses emitted code back (the tree is the
only representation until the text is written)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from ..conftest import ROOT

EMISSION = sorted(
    [
        *(ROOT / "generator" / "emit").glob("*.py"),
        *(ROOT / "generator" / "keywords").glob("*.py"),
        *(ROOT / "generator" / "plan").glob("*.py"),
        *(ROOT / "generator" / "render").glob("*.py"),
    ]
)


def _definitions(path: Path) -> list[ast.AST]:
    return [
        node
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    ]


@pytest.mark.parametrize("path", EMISSION, ids=lambda p: str(p.relative_to(ROOT)))
def test_functions_and_classes_stay_small(path: Path) -> None:
    for node in _definitions(path):
        length = node.end_lineno - node.lineno + 1  # type: ignore[attr-defined]
        limit = 400 if isinstance(node, ast.ClassDef) else 60
        assert length <= limit, f"{path.name}: {node.name} is {length} lines (at most {limit})"  # type: ignore[attr-defined]


@pytest.mark.parametrize("path", EMISSION, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_emitted_code_is_parsed_back(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
    } | {
        node.module.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module
    }
    assert not imported & {"ast", "tokenize"}, f"{path.name} imports a parser"


def test_no_dispatch_by_method_name() -> None:
    for path in (ROOT / "generator").rglob("*.py"):
        assert "getattr(self" not in path.read_text(encoding="utf-8"), path
