"""The import graph of generator/, read from the source (every import statement: at module level,
in a function, or under TYPE_CHECKING), and the rooms it joins: each subpackage and each top-level
module is one room. tests/test_layering.py checks the rules on it; run this file to print the
graph's circles."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Iterable, Mapping

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "generator"

Graph = Mapping[str, frozenset[str]]


def module_names(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for path in sorted((root / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _imported(module: str, is_package: bool, tree: ast.AST, known: Iterable[str]) -> set[str]:
    known = set(known)
    base = module if is_package else module.rpartition(".")[0]
    targets: set[str] = set()

    def add(name: str) -> None:
        # the longest known module the name starts with (an attribute import names its module)
        while name and name not in known:
            name = name.rpartition(".")[0]
        if name:
            targets.add(name)

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = base
                for _ in range(node.level - 1):
                    anchor = anchor.rpartition(".")[0]
                source = anchor + ("." + node.module if node.module else "")
            else:
                source = node.module or ""
            for alias in node.names:
                # `from . import ir` names a module; `from .ir import Node` names an attribute
                if source + "." + alias.name in known:
                    targets.add(source + "." + alias.name)
                else:
                    add(source)
    targets.discard(module)
    return targets


def module_graph(root: Path = ROOT) -> dict[str, frozenset[str]]:
    """module -> the package's modules it imports."""
    names = module_names(root)
    graph: dict[str, frozenset[str]] = {}
    for name, path in names.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        graph[name] = frozenset(_imported(name, path.name == "__init__.py", tree, names))
    return graph


def room(module: str) -> str:
    """generator.emit.fast -> generator.emit; generator.lower -> generator.lower."""
    parts = module.split(".")
    return ".".join(parts[:2])


def room_graph(modules: Graph) -> dict[str, frozenset[str]]:
    edges: dict[str, set[str]] = {}
    for source, targets in modules.items():
        here = room(source)
        edges.setdefault(here, set()).update(room(t) for t in targets if room(t) != here)
    return {k: frozenset(v) for k, v in edges.items()}


def circles(graph: Graph) -> list[frozenset[str]]:
    """The strongly connected components of more than one vertex (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            vertex, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    break
                if child in on_stack:
                    low[vertex] = min(low[vertex], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[vertex])
                if low[vertex] == index[vertex]:
                    component = set()
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        component.add(top)
                        if top == vertex:
                            break
                    if len(component) > 1:
                        found.append(frozenset(component))
    return found


if __name__ == "__main__":
    modules = module_graph()
    for circle in circles(modules):
        print(f"module circle of {len(circle)}:", " ".join(sorted(circle)))
    for circle in circles(room_graph(modules)):
        print(f"room circle of {len(circle)}:", " ".join(sorted(circle)))
