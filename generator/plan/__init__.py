"""Stage 5, plan: decisions about the shape of the code, taken on the IR before any code exists.

The order of a node's checks, cheap first (order; in the fast path, by estimate: cost), which
subschemas are checked in place and which are shared functions (inlining), which can recurse
(recursion: called through an alias), and how keywords that look at the same data are checked
together: each keyword unit that combines keywords (objects: a closed object by key count, a property table,
a pattern loop; arrays: unrolled items) plans its part of a node here, and its emission reads that
part. The emitter maps the plan to code; it decides nothing that the plan can.
"""

from __future__ import annotations

from typing import Callable, Iterable, Mapping

from .. import ir
from .cost import CheckCost, Costs
from .inlining import Inlining
from .parts import NodePlan
from .recursion import recursion_heads

# A unit's planner: (node, the plan) -> that unit's part of the node's plan.
Planner = Callable[[ir.Node, "Plan"], object]


class Plan:
    """The plan of one graph: inlining, and each node's plan (computed once, when first asked).
    `checks` (the cost facts of each check class) and `planners` come from the keyword registry,
    handed in by the pipeline."""

    def __init__(
        self,
        graph: dict[str, ir.Node],
        roots: Iterable[ir.Node],
        dynamic: bool,
        *,
        checks: Mapping[type, CheckCost],
        planners: Iterable[Planner],
        memo: Iterable[ir.Node] = (),
        memo_loops: bool = True,
    ) -> None:
        roots = list(roots)
        self.planners = tuple(planners)
        self.dynamic = dynamic
        self.inlining = Inlining(graph, roots, dynamic)
        # the nodes evaluated once per value (doubling.py), where plain references lead
        self.memo = frozenset(self.inlining.through_refs(node)[0] for node in memo)
        # whether a reference loop that consumes nothing is among them (its wrappers watch for
        # the re-entry that meets it: memo_runtime.py)
        self.memo_loops = memo_loops
        # the heads of the graph's cycles, called through an alias and never inlined (recursion),
        # and the memoized nodes (their aliases are the wrappers: emit/memo.py)
        self.recursive = self.inlining.counted(recursion_heads(graph, roots) | self.memo)
        self.costs = Costs(graph, checks)  # the fast path's estimates: cheap in-place rules first
        self._nodes: dict[ir.Node, NodePlan] = {}

    def node(self, node: ir.Node) -> NodePlan:
        # (one lookup: a node equal to a key but not the same object is compared field by field)
        found = self._nodes.get(node)
        if found is None:
            found = self._nodes[node] = NodePlan(tuple(plan(node, self) for plan in self.planners))
        return found


__all__ = ["CheckCost", "Costs", "Inlining", "NodePlan", "Plan", "Planner"]
