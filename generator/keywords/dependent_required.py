"""dependentRequired (2019-09 on): when the object has a property, it must have the names listed
for it. (Draft 4-7's `dependencies` lowers its array form to this check under its own name: the
objects unit asks lowering for this keyword's checks.)"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import ir
from ..emit.context import AK, IP, KP, OUT, Branch, ErrorContext, X, error_spec
from ..emit.tree import Compare, Expr, ExprStmt, Not, Stmt, and_, call, fail_if, if_, lit
from ..errors import join_pointer
from .base import CheckKind, Context, Keyword, Lowering, Walk, drafts


@dataclass(frozen=True)
class DependentRequired(ir.Check):
    entries: tuple[tuple[str, tuple[str, ...]], ...] = ()
    applies_to = "object"


MESSAGES = {
    "dependentRequired": "{missingProperty} is a required property when {property} is present",
}


def check_dependent_required(w: Walk, value: Any, pointer: str, depth: int) -> None:
    if not isinstance(value, dict):
        raise w.fail(
            "bad-keyword-value", pointer, "dependentRequired must be an object of string arrays"
        )
    for name, names in value.items():
        check_names(w, names, join_pointer(pointer, name))


def check_names(w: Walk, value: Any, pointer: str) -> None:
    """An array of distinct strings (as `required` takes)."""
    if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
        raise w.fail("bad-keyword-value", pointer, "required must be an array of strings")
    if len(set(value)) != len(value):
        raise w.fail("bad-keyword-value", pointer, "required names must be unique")


def lower_dependent_required(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: Context | None
) -> list[ir.Check]:
    entries = tuple((name, tuple(names)) for name, names in value.items() if names)
    return [DependentRequired("dependentRequired", entries)] if entries else []


def _has(name: str, x: Expr) -> Compare:
    return Compare(lit(name), "in", x)


def fast_dependent_required(b: Branch, check: DependentRequired) -> list[Stmt]:
    return [
        fail_if(and_(_has(name, b.x), Not(and_(*[_has(n, b.x) for n in names]))))
        for name, names in check.entries
    ]


def error_dependent_required(e: ErrorContext, check: DependentRequired) -> list[Stmt]:
    m = e.m
    spec = error_spec(m, e.node, MESSAGES["dependentRequired"])
    return [
        if_(
            _has(name, X),
            [
                ExprStmt(
                    call(
                        m.prim("_dependent_errors"),
                        OUT,
                        X,
                        lit(name),
                        lit(names),
                        spec,
                        IP,
                        KP,
                        AK,
                        lit("/" + check.keyword),
                    )
                )
            ],
        )
        for name, names in check.entries
    ]


KEYWORDS = [
    Keyword(
        "dependentRequired",
        "validation",
        drafts("draft2019-09"),
        check_dependent_required,
        lower_dependent_required,
    ),
]
CHECKS = [
    CheckKind(
        DependentRequired, cost=1, fast=fast_dependent_required, error=error_dependent_required
    ),
]
