"""Which subschemas can be entered again while they are being checked: the nodes on a cycle of
the graph (subschemas held, and references followed to their targets).

A call of such a node's function is the one place validation can recurse without bound (as deep
as the instance is nested). In a pure-Python module every call counts against the recursion
limit, and `is_valid`/`errors` turn RecursionError into a refusal. A module compiled with mypyc
(generator/native) calls its own functions directly, in C, with no such count: an instance nested
deeply enough would overflow the C stack and crash the process. So the emitter calls these nodes'
functions through a module-level alias (`_v3r = _v3`), which mypyc calls as any Python callable,
through the interpreter's call protocol, which does count; in CPython the alias costs nothing.
"""

from __future__ import annotations

from typing import Iterable

from .. import ir


def _successors(node: ir.Node, graph: dict[str, ir.Node]) -> list[ir.Node]:
    found: list[ir.Node] = []
    for check in node.checks:
        found += ir.subschemas(check)
        if check.refers:
            found.append(graph[check.target])  # type: ignore[attr-defined]
    return found


def recursive_nodes(graph: dict[str, ir.Node], roots: Iterable[ir.Node]) -> frozenset[ir.Node]:
    """The nodes reachable from `roots` that lie on a cycle (Tarjan's strongly connected
    components, iteratively: a deep schema must not exhaust the compiler's stack)."""
    index: dict[ir.Node, int] = {}
    low: dict[ir.Node, int] = {}
    on_stack: set[ir.Node] = set()
    stack: list[ir.Node] = []
    cyclic: set[ir.Node] = set()
    for root in roots:
        if root in index:
            continue
        work = [(root, iter(_successors(root, graph)))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            step = next(successors, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(_successors(step, graph))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                    if step == node:
                        cyclic.add(node)  # a node that leads to itself
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = _pop_component(stack, on_stack, node)
                if len(component) > 1:
                    cyclic.update(component)
    return frozenset(cyclic)


def _pop_component(stack: list[ir.Node], on_stack: set[ir.Node], head: ir.Node) -> list[ir.Node]:
    component = []
    while True:
        member = stack.pop()
        on_stack.discard(member)
        component.append(member)
        if member == head:
            return component
