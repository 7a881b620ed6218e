"""propertyNames (drafts 6 on): every name of an object must be valid under the subschema.

A unit of its own, as an example of the smallest whole keyword: its preflight, lowering, IR check,
cost, fast and error emission, and nothing about it anywhere else in the compiler. Its
errors are the subschema's own, at the name (instance location: the object's; keyword location:
under /propertyNames), as python-jsonschema reports them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import ir
from ..emit.context import IP, KEY, ErrorContext, X, ecall
from ..emit.tree import For, Not, Stmt, fail_if
from .base import (
    CheckKind,
    Context,
    Keyword,
    Lowering,
    check_subschema,
    drafts,
)

if TYPE_CHECKING:
    from ..emit.context import Branch

# No message of its own: a name that fails gives the subschema's errors.
MESSAGES: dict[str, str] = {}


@dataclass(frozen=True)
class PropertyNames(ir.Check):
    schema: ir.Node | None = None
    applies_to = "object"

    def member_steps(self) -> tuple[tuple[ir.Member, ir.Node], ...]:
        return () if self.schema is None else ((ir.PropertyName(), self.schema),)


def lower_property_names(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: Context | None
) -> list[ir.Check]:
    return [] if value is True else [PropertyNames("propertyNames", lw.node(value, where, ctx))]


def fast_property_names(b: Branch, check: PropertyNames) -> list[Stmt]:
    assert check.schema is not None
    k = b.scope("k")
    return [For(k, b.x, (fail_if(Not(b.m.fcall(b.m.fast_fn(check.schema), k))),))]


def error_property_names(e: ErrorContext, check: PropertyNames) -> list[Stmt]:
    assert check.schema is not None
    return [For(KEY, X, (ecall(e.m, check.schema, KEY, IP, "propertyNames"),))]


KEYWORDS = [
    Keyword(
        "propertyNames",
        "applicator",
        drafts("draft6"),
        check_subschema,
        lower_property_names,
        holds="schema",
    ),
]
# cost 4: a walk over every name, each through a subschema (after the cheap object checks)
CHECKS = [
    CheckKind(
        PropertyNames, cost=4, walks=True, fast=fast_property_names, error=error_property_names
    )
]
