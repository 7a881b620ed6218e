"""Where validation can recurse: a set of nodes that every cycle of the graph (subschemas held,
and references followed to their targets) passes through, the heads of the cycles.

Validation recurses without bound (as deep as the instance is nested) only around a cycle. In a pure-Python module every call counts against the recursion
limit, and `is_valid`/`errors` turn RecursionError into a refusal. A module compiled with mypyc
(generator/native) calls its own functions directly, in C, with no such count: an instance nested
deeply enough would overflow the C stack and crash the process. So the emitter calls the heads'
functions through a module-level alias (`_v3r = _v3`), which mypyc calls as any Python callable,
through the interpreter's call protocol, which does count; in CPython the alias costs nothing.
A head is never checked in place (plan/inlining.py), so every turn around a cycle makes at least
one counted call; the other nodes of a cycle are called directly, at C speed.
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


def recursion_heads(graph: dict[str, ir.Node], roots: Iterable[ir.Node]) -> frozenset[ir.Node]:
    """Nodes that every cycle of the graph passes through at least one of: the targets of the
    back edges of a depth-first walk from `roots` (each cycle holds a back edge of any such walk).
    Iterative: a deep schema must not exhaust the compiler's stack."""
    state: dict[ir.Node, int] = {}  # 1: on the walk's path, 2: done
    heads: set[ir.Node] = set()
    for root in roots:
        if root in state:
            continue
        state[root] = 1
        path = [(root, iter(_successors(root, graph)))]
        while path:
            node, successors = path[-1]
            step = next(successors, None)
            if step is None:
                state[node] = 2
                path.pop()
            elif state.get(step) == 1:
                heads.add(step)  # a back edge: a cycle closes at `step`
            elif step not in state:
                state[step] = 1
                path.append((step, iter(_successors(step, graph))))
    return frozenset(heads)
