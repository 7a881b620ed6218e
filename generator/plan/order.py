"""Passes over the IR that keep its meaning and make the emitted code cheaper: each node's checks
in order of cost, cheap first (sizes and bounds before loops, patterns and combinators; each unit
declares its checks' costs), and an allOf whose members all always hold dropped. Identical
subschemas are shared by the emitter (nodes compare structurally)."""

from __future__ import annotations

from dataclasses import fields, replace
from functools import cache
from typing import Any, Mapping

from .. import ir


class Ordering:
    """Orders every node once, however many places share it (a large schema's subschemas are
    shared by hundreds of nodes). `costs`: each check class's rank (the keyword registry's
    CheckKind.cost, handed in by the pipeline)."""

    def __init__(self, costs: Mapping[type, int]) -> None:
        self._cost = costs
        self._done: dict[int, ir.Node] = {}

    def node(self, node: ir.Node) -> ir.Node:
        """`node` and every subschema in it with their checks in order of cost (a stable sort:
        keyword order within one cost; unevaluated* last, as they read what the others evaluated).
        """
        if node.boolean is not None:
            return node
        done = self._done.get(id(node))
        if done is None:
            kept = [better for better in map(self._check, node.checks) if better is not None]
            kept.sort(key=lambda c: self._cost[type(c)])
            unchanged = len(kept) == len(node.checks) and all(
                a is b for a, b in zip(kept, node.checks)
            )
            done = node if unchanged else replace(node, checks=tuple(kept))
            self._done[id(node)] = done
            self._done[id(done)] = done
        return done

    def _check(self, check: ir.Check) -> ir.Check | None:
        if check.keyword == "allOf" and all(ir.always_true(s) for s in ir.in_place(check)):
            return None  # every member always holds (members are kept otherwise: their index is a location)
        changes: dict[str, Any] = {}
        kind: type = type(check)  # (mypy takes a dataclass's own type for unhashable)
        for name in _subschema_fields(kind):
            value = getattr(check, name)
            better = self._value(value)
            if better is not value:
                changes[name] = better
        return replace(check, **changes) if changes else check

    def _value(self, value: object) -> object:
        if isinstance(value, ir.Node):
            return self.node(value)
        if isinstance(value, tuple):
            parts = tuple(self._value(v) for v in value)
            return value if all(a is b for a, b in zip(parts, value)) else parts
        return value


@cache
def _subschema_fields(kind: type) -> tuple[str, ...]:
    """The fields of a check that may hold subschemas (everything but its keyword and values)."""
    return tuple(f.name for f in fields(kind) if f.name not in ("keyword", "values"))


def order(node: ir.Node, costs: Mapping[type, int]) -> ir.Node:
    """One node ordered on its own (see Ordering)."""
    return Ordering(costs).node(node)
