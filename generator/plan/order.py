"""Passes over the IR that keep its meaning and make the emitted code cheaper: each node's checks
in order of cost, cheap first (sizes and bounds before loops, patterns and combinators; each unit
declares its checks' costs), and an allOf whose members all always hold dropped. Identical
subschemas are shared by the emitter (nodes compare structurally)."""

from __future__ import annotations

from dataclasses import fields, replace

from .. import ir


def _order_value(value: object) -> object:
    if isinstance(value, ir.Node):
        return order(value)
    if isinstance(value, tuple):
        return tuple(_order_value(v) for v in value)
    return value


def _order_check(check: ir.Check) -> ir.Check | None:
    if check.keyword == "allOf" and all(ir.always_true(s) for s in ir.in_place(check)):
        return None  # every member always holds (members are kept otherwise: their index is a location)
    changes = {f.name: _order_value(getattr(check, f.name)) for f in fields(check)
               if f.name not in ("keyword", "values")}
    return replace(check, **changes)


def order(node: ir.Node) -> ir.Node:
    """`node` and every subschema in it with their checks in order of cost (a stable sort: keyword
    order within one cost; unevaluated* last, as they read what the others evaluated)."""
    from ..keywords.registry import CHECKS

    if node.boolean is not None:
        return node
    kept = [better for better in map(_order_check, node.checks) if better is not None]
    kept.sort(key=lambda c: CHECKS[type(c)].cost)
    return replace(node, checks=tuple(kept))
