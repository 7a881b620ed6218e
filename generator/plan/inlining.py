"""Which subschemas are checked in place and which are called, decided before any code exists.

A small subschema of a property or item is cheaper in place than behind a call; a subschema used
in many places is cheaper as one shared function than as a copy in each (module size and import
time). A plain reference (`{"$ref": ...}` alone) checks exactly what its target checks, so it is
followed at compile time: the target is called (or inlined) directly.
"""

from __future__ import annotations

from typing import Iterable

from .. import ir
from . import tuning


class Inlining:
    """The inlining policy over one graph of subschemas."""

    def __init__(self, graph: dict[str, ir.Node], roots: Iterable[ir.Node], dynamic: bool) -> None:
        self.graph = graph
        # In dynamic mode ($dynamicRef/$recursiveRef) a call carries the dynamic scope: references
        # are not followed at compile time there.
        self.dynamic = dynamic
        self._uses = _count_uses(roots)
        self._weights: dict[ir.Node, int] = {}
        self._called: frozenset[ir.Node] = frozenset()  # recursion heads: always called (counted)

    @staticmethod
    def type_only(node: ir.Node) -> bool:
        """A subschema that is a type test alone: cheaper in place than a call, at any size."""
        return node.boolean is None and not node.checks and node.resource is None

    @staticmethod
    def is_leaf(node: ir.Node) -> bool:
        """A subschema whose checks hold no subschema: inlined at any depth (it adds one level)."""
        return node.boolean is None and all(check.leaf for check in node.checks)

    def counted(self, heads: frozenset[ir.Node]) -> frozenset[ir.Node]:
        """The recursion heads (plan/recursion.py) with the nodes their plain-reference chains
        lead to (a call of a head is made at the chain's end): from now on never inlined, so
        each turn around a cycle is a call of one of them. Returns them."""
        called = set(heads)
        for head in heads:
            called.update(self.ref_chain(head))
        self._called = frozenset(called)
        return self._called

    def inlinable(self, node: ir.Node, depth: int) -> bool:
        """Whether `node` is checked in place, `depth` inlined copies deep."""
        return (
            (depth < tuning.INLINE_DEPTH or self.is_leaf(node))
            and node.resource is None
            and node not in self._called
            and node.boolean is None
            and len(node.checks) <= tuning.INLINE_CHECKS
            and (self.type_only(node) or self.copies_allowed(node))
        )

    def copies_allowed(self, node: ir.Node) -> bool:
        """Whether copies of `node` in each place that uses it stay within the copy budget."""
        uses = self._uses.get(node, 1)
        return uses <= 2 or uses * self.weight(node) <= tuning.COPY_BUDGET

    def weight(self, node: ir.Node) -> int:
        """IR checks and subschemas under `node` (references not followed)."""
        known = self._weights.get(node)  # (one lookup: see Plan.node)
        if known is None:
            known = self._weights[node] = 1 + sum(
                1 + sum(self.weight(sub) for sub in ir.subschemas(check)) for check in node.checks
            )
        return known

    def plain_ref(self, node: ir.Node) -> ir.Check | None:
        """The static reference `node` is made of, if it is one alone (not in dynamic mode)."""
        if (
            not self.dynamic
            and node.boolean is None
            and node.types is None
            and len(node.checks) == 1
            and node.checks[0].static_reference
        ):
            return node.checks[0]
        return None

    def ref_chain(self, node: ir.Node) -> list[ir.Node]:
        """The nodes a chain of plain references from `node` passes to, in order (at most
        tuning.REF_CHAIN of them; empty when `node` is no plain reference)."""
        chain: list[ir.Node] = []
        for _ in range(tuning.REF_CHAIN):
            ref = self.plain_ref(node)
            if ref is None:
                break
            node = self.graph[ref.target]  # type: ignore[attr-defined]
            chain.append(node)
        return chain

    def through_refs(self, node: ir.Node) -> tuple[ir.Node, bool]:
        """The node a chain of plain references leads to, and whether one was followed."""
        chain = self.ref_chain(node)
        return (chain[-1], True) if chain else (node, False)


def _count_uses(roots: Iterable[ir.Node]) -> dict[ir.Node, int]:
    """How many distinct subschemas (or roots) hold each subschema: the copies inlining makes."""
    uses: dict[ir.Node, int] = {}
    seen: set[ir.Node] = set()
    stack = list(dict.fromkeys(roots))
    seen.update(stack)
    while stack:
        for check in stack.pop().checks:
            for sub in ir.subschemas(check):
                uses[sub] = uses.get(sub, 0) + 1
                if sub not in seen:
                    seen.add(sub)
                    stack.append(sub)
    return uses
