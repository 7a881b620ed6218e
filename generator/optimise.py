"""Stage 5, optimise: passes over the IR that keep its meaning and make the emitted code cheaper.

- order checks cheap first (sizes and bounds before loops, patterns and combinators);
- drop `{}`/`true` members of allOf, which always hold.
Identical subschemas are shared by the emitter (nodes compare structurally).
"""

from __future__ import annotations

from dataclasses import replace

from . import ir

# Lower runs first; a stable sort keeps keyword order within one cost class.
_COST = {
    ir.Required: 0, ir.ItemCount: 0, ir.StringLength: 0, ir.NumberBound: 0, ir.MultipleOf: 1,
    ir.Enum: 1, ir.AdditionalProperties: 2, ir.Properties: 3, ir.PrefixItems: 3, ir.Pattern: 4,
    ir.UniqueItems: 5, ir.Items: 5, ir.Not: 6, ir.AllOf: 6, ir.AnyOf: 7, ir.OneOf: 8,
}


def _always_true(node: ir.Node) -> bool:
    return node.boolean is True or (node.boolean is None and node.types is None and not node.checks)


def _optimise_check(check: ir.Check) -> ir.Check | None:
    if isinstance(check, ir.Properties):
        return replace(check, entries=tuple((n, optimise(s)) for n, s in check.entries))
    if isinstance(check, (ir.AdditionalProperties, ir.Items, ir.Not)):
        assert check.schema is not None
        return replace(check, schema=optimise(check.schema))
    if isinstance(check, ir.AllOf):
        kept = tuple(optimise(s) for s in check.schemas if not _always_true(s))
        return replace(check, schemas=kept) if kept else None
    if isinstance(check, (ir.PrefixItems, ir.AnyOf, ir.OneOf)):
        return replace(check, schemas=tuple(optimise(s) for s in check.schemas))
    return check


def optimise(node: ir.Node) -> ir.Node:
    if node.boolean is not None:
        return node
    kept = []
    for check in node.checks:
        better = _optimise_check(check)
        if better is not None:
            kept.append(better)
    kept.sort(key=lambda c: _COST[type(c)])
    return replace(node, checks=tuple(kept))
