"""Passes over the IR that keep its meaning and make the emitted code cheaper: each node's checks
in order of cost, cheap first (sizes and bounds before loops, patterns and combinators; each unit
declares its checks' costs), and an allOf whose members all always hold dropped. Identical
subschemas are shared by the emitter (nodes compare structurally)."""

from __future__ import annotations

import functools
from dataclasses import fields, replace

from .. import ir


def _order_value(value: object) -> object:
    if isinstance(value, ir.Node):
        return order(value)
    if isinstance(value, tuple):
        ordered = tuple(_order_value(v) for v in value)
        return value if all(a is b for a, b in zip(ordered, value)) else ordered
    return value


@functools.cache
def _costs() -> dict[type, int]:
    """Each check class's cost, as its unit declares it (read once: not an import per node)."""
    from ..keywords.registry import CHECKS

    return {kind: declared.cost for kind, declared in CHECKS.items()}


@functools.cache
def _subschema_fields(kind: type) -> tuple[str, ...]:
    """The fields of a check class that may hold subschemas (what ordering looks into)."""
    return tuple(f.name for f in fields(kind) if f.name not in ("keyword", "values"))


def _order_check(check: ir.Check) -> ir.Check | None:
    if check.keyword == "allOf" and all(ir.always_true(s) for s in ir.in_place(check)):
        return None  # every member always holds (members are kept otherwise: their index is a location)
    changes = {}
    for name in _subschema_fields(type(check)):
        value = getattr(check, name)
        ordered = _order_value(value)
        if ordered is not value:
            changes[name] = ordered
    return replace(check, **changes) if changes else check  # unchanged: the same object, no copy


def order(node: ir.Node) -> ir.Node:
    """`node` and every subschema in it with their checks in order of cost (a stable sort: keyword
    order within one cost; unevaluated* last, as they read what the others evaluated). A node
    already in order is returned as it is (identity kept: nothing below it is copied)."""
    if node.boolean is not None:
        return node
    kept = [better for better in map(_order_check, node.checks) if better is not None]
    costs = _costs()
    kept.sort(key=lambda c: costs[type(c)])
    if len(kept) == len(node.checks) and all(a is b for a, b in zip(kept, node.checks)):
        return node
    return replace(node, checks=tuple(kept))
