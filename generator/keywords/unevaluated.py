"""unevaluatedProperties and unevaluatedItems (2019-09 on): they apply to the members that the
node's other keywords, and its valid in-place subschemas, did not evaluate. The emitted code asks
the node's evaluation function (`_uN`, emit/annotations.py) what was evaluated; they run last."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from .. import ir
from ..emit.context import EV, KEY, ErrorContext, X, at_key, ecall, error_spec, member_error
from ..emit.tree import (
    Assign,
    Compare,
    Expr,
    For,
    Not,
    Stmt,
    Subscript,
    Tuple,
    and_,
    call,
    fail_if,
    if_,
    method,
)
from .base import CheckKind, Keyword, Lowering, check_subschema, drafts

if TYPE_CHECKING:
    from ..emit.context import Branch


# The messages (emit/context.py, "errors"): a member no schema evaluated and a false
# unevaluated* allows, reported at its own location, its name (index) as the parameter.
MESSAGES = {
    "unevaluatedProperties": "unevaluated property {unevaluatedProperty} is not allowed",
    "unevaluatedItems": "unevaluated item {unevaluatedItem} is not allowed",
}
_PARAMS = {"unevaluatedProperties": "unevaluatedProperty", "unevaluatedItems": "unevaluatedItem"}


@dataclass(frozen=True)
class Unevaluated(ir.Check):
    """unevaluatedProperties."""

    schema: ir.Node | None = None
    applies_to = "object"
    evaluates_all: ClassVar[str] = "object"  # when the node holds, every member counts as evaluated

    def member_steps(self) -> tuple[tuple[ir.Member, ir.Node], ...]:
        return () if self.schema is None else ((ir.AnyProperty(), self.schema),)


@dataclass(frozen=True)
class UnevaluatedItems(Unevaluated):
    applies_to = "array"
    evaluates_all = "array"

    def member_steps(self) -> tuple[tuple[ir.Member, ir.Node], ...]:
        return () if self.schema is None else ((ir.FromIndex(0), self.schema),)


def lower_properties(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: Any
) -> list[ir.Check]:
    return [Unevaluated("unevaluatedProperties", lw.node(value, where, ctx))]


def lower_items(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: Any
) -> list[ir.Check]:
    return [UnevaluatedItems("unevaluatedItems", lw.node(value, where, ctx))]


def fast_unevaluated(b: Branch, check: Unevaluated) -> list[Stmt]:
    assert check.schema is not None
    if ir.always_true(check.schema):
        return []
    m, x, ev = b.m, b.x, b.scope("ev")
    out: list[Stmt] = [Assign(ev, m.fcall(m.eval_fn(b.node), x))]
    tests: list[Expr]
    if isinstance(check, UnevaluatedItems):
        i = b.scope("i")
        tests = [Compare(i, "not in", ev)]
        if check.schema.boolean is not False:
            tests.append(Not(m.fcall(m.fast_fn(check.schema), Subscript(x, i))))
        out.append(For(i, call("range", call("len", x)), (fail_if(and_(*tests)),)))
    else:
        k, v = b.scope("k"), b.scope("v")
        tests = [Compare(k, "not in", ev)]
        if check.schema.boolean is not False:
            tests.append(Not(m.fcall(m.fast_fn(check.schema), v)))
        out.append(For(Tuple((k, v), bare=True), method(x, "items"), (fail_if(and_(*tests)),)))
    return out


def error_unevaluated(e: ErrorContext, check: Unevaluated) -> list[Stmt]:
    m = e.m
    assert check.schema is not None
    if ir.always_true(check.schema):
        return []
    out: list[Stmt] = [Assign(EV, m.fcall(m.eval_fn(e.node), X))]
    if check.schema.boolean is False:
        spec = error_spec(m, e.node, MESSAGES[check.keyword], _PARAMS[check.keyword])
        inner: Stmt = member_error(m, spec, check.keyword)
    else:
        inner = ecall(m, check.schema, Subscript(X, KEY), at_key(m), check.keyword)
    members = call("range", call("len", X)) if isinstance(check, UnevaluatedItems) else X
    return out + [For(KEY, members, (if_(Compare(KEY, "not in", EV), [inner]),))]


KEYWORDS = [
    Keyword(
        "unevaluatedItems",
        "unevaluated",
        drafts("draft2019-09"),
        check_subschema,
        lower_items,
        holds="schema",
    ),
    Keyword(
        "unevaluatedProperties",
        "unevaluated",
        drafts("draft2019-09"),
        check_subschema,
        lower_properties,
        holds="schema",
    ),
]
CHECKS = [
    CheckKind(
        Unevaluated, cost=9, work=4, walks=True, fast=fast_unevaluated, error=error_unevaluated
    ),
    CheckKind(
        UnevaluatedItems, cost=9, work=4, walks=True, fast=fast_unevaluated, error=error_unevaluated
    ),
]
