"""Stage 5, optimise: passes over the IR that keep its meaning and make the emitted code cheaper.

- order checks cheap first (sizes and bounds before loops, patterns and combinators);
- drop an allOf whose members all always hold (`{}`, `true`).
Identical subschemas are shared by the emitter (nodes compare structurally).
"""

from __future__ import annotations

from dataclasses import fields, replace

from . import ir

# Lower runs first; a stable sort keeps keyword order within one cost class.
_COST = {
    ir.Required: 0, ir.ItemCount: 0, ir.StringLength: 0, ir.NumberBound: 0, ir.PropertyCount: 0,
    ir.MultipleOf: 1, ir.Enum: 1, ir.DependentRequired: 1, ir.AdditionalProperties: 2,
    ir.Properties: 3, ir.PrefixItems: 3, ir.PatternProperties: 3, ir.Pattern: 4, ir.PropertyNames: 4,
    ir.UniqueItems: 5, ir.Items: 5, ir.Contains: 5, ir.DependentSchemas: 5, ir.Ref: 6, ir.Not: 6,
    ir.AllOf: 6, ir.IfThenElse: 7, ir.AnyOf: 7, ir.OneOf: 8,
    ir.Unevaluated: 9, ir.UnevaluatedItems: 9,  # last: they read what the others evaluated
}


def _optimise_value(value: object) -> object:
    if isinstance(value, ir.Node):
        return optimise(value)
    if isinstance(value, tuple):
        return tuple(_optimise_value(v) for v in value)
    return value


def _optimise_check(check: ir.Check) -> ir.Check | None:
    if isinstance(check, ir.AllOf) and all(ir.always_true(s) for s in check.schemas):
        return None  # every member always holds (members are kept otherwise: their index is a location)
    changes = {f.name: _optimise_value(getattr(check, f.name)) for f in fields(check)
               if f.name not in ("keyword", "values")}
    return replace(check, **changes)


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
