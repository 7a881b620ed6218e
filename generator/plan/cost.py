"""A cost estimate of each subschema's fast path, and the order of a node's checks it gives.

The fast path answers only valid or invalid, so its checks may run in any order; a failing
instance is answered sooner when the checks likely to be cheap run first. Within one type the
checks already run by their kind's rank (plan/order.py: sizes and bounds, then enums, then walks,
patterns and combinators). What the rank cannot see is size: an in-place rule (allOf, if/then,
anyOf, not, a $ref beside siblings) is run after every typed check of its node, however small the
rule and however large the walk before it (the seed tool-package contract: six if/then rules on
top-level properties behind a walk of seventeen properties, three regexes among them). Here each
check gets an estimate, in units of one simple test (a comparison, a dict lookup), from what its
unit declares (CheckKind.work, CheckKind.walks) and from the estimates of the subschemas it
applies; an in-place rule cheaper than the node's typed checks runs before them.

Only the fast path is reordered: the error path keeps its order, so errors() reports the same
errors in the same order. Valid instances run every check either way.
"""

from __future__ import annotations

from typing import Mapping, Protocol

from .. import ir

# The members a walk is assumed to visit (items, additionalProperties, patternProperties...).
MEMBERS = 8
# A subschema met again while its own estimate is being made (recursion): walked without end, so
# as expensive as it gets; rules that recurse stay after the typed checks.
RECURSIVE = 10_000.0
# A call of another subschema's function, beside the work the function does.
CALL = 2.0


class CheckCost(Protocol):
    """What a check class declares for the estimate (keywords/base.py CheckKind)."""

    @property
    def work(self) -> float: ...

    @property
    def walks(self) -> bool: ...


class Costs:
    """Estimates over one graph, each node's made once; `checks`: each check class's CheckCost
    (the keyword registry's CHECKS)."""

    def __init__(self, graph: dict[str, ir.Node], checks: Mapping[type, CheckCost]) -> None:
        self.graph = graph
        self.kinds = checks
        self._nodes: dict[ir.Node, float] = {}
        self._open: set[ir.Node] = set()
        # id(check) -> (the check, its estimate), for estimates asked with no node open: the
        # emitter asks for each check once per exact type and per inlined copy, and with no
        # estimate under way every node it reads is already settled (the check is kept, so its
        # id stays its own)
        self._checks: dict[int, tuple[ir.Check, float]] = {}

    def node(self, node: ir.Node) -> float:
        """The fast path of `node` on a value of its costliest type."""
        if node.boolean is not None:
            return 0.0
        known = self._nodes.get(node)  # (one lookup: see Plan.node)
        if known is not None:
            return known
        if node in self._open:
            return RECURSIVE
        self._open.add(node)
        try:
            general = sum(self.check(c) for c in node.checks if _general(c))
            cost = 1.0 + self.typed(node) + general
        finally:
            self._open.discard(node)
        self._nodes[node] = cost
        return cost

    def typed(self, node: ir.Node) -> float:
        """The checks of one JSON type of `node` (the costliest type's)."""
        by_type: dict[str | None, float] = {}
        for check in node.checks:
            if not _general(check):
                by_type[check.applies_to] = by_type.get(check.applies_to, 0.0) + self.check(check)
        every = by_type.pop(None, 0.0)  # enum/const: checked in every type's branch
        return every + max(by_type.values(), default=0.0)

    def check(self, check: ir.Check) -> float:
        """One check: its own work and the subschemas it applies, per member for a walk."""
        if self._open:  # (inside an estimate: what it reads may still be open)
            return self._estimate(check)
        known = self._checks.get(id(check))
        if known is None:
            known = self._checks[id(check)] = (check, self._estimate(check))
        return known[1]

    def _estimate(self, check: ir.Check) -> float:
        kind = self.kinds[type(check)]
        in_place = ir.in_place(check)
        applied: float = sum(self.node(sub) for sub in in_place)
        members = [sub for sub in ir.subschemas(check) if not any(sub is s for s in in_place)]
        applied += sum(self.node(sub) for sub in members)
        if check.refers:
            applied += CALL + self.node(self.graph[check.target])  # type: ignore[attr-defined]
        work: float = kind.work  # (kind is the registry's CheckKind, typed Any here)
        return (work + applied) * (MEMBERS if kind.walks else 1)

    def split(
        self, node: ir.Node, general: list[ir.Check]
    ) -> tuple[list[ir.Check], list[ir.Check]]:
        """The in-place checks of `node` to run before its typed checks (each cheaper than all of
        them) and those to run after, each list in its given order."""
        typed = self.typed(node)
        early = [c for c in general if self.check(c) < typed]
        return early, [c for c in general if not any(c is e for e in early)]


def _general(check: ir.Check) -> bool:
    """An in-place check: applies to any value and is not checked in each type's branch."""
    return check.applies_to is None and not check.on_every_type
