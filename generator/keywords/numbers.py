"""The numeric keywords: minimum, maximum, exclusiveMinimum, exclusiveMaximum and multipleOf.

Every comparison is exact: an int, float or Decimal instance is compared with the bound by value
(a float stands for the decimal of its shortest repr), never through float, so a bound like
0.30000000000000000001 or a 30-digit integer decides correctly. In draft 4 exclusiveMinimum and
exclusiveMaximum are booleans that make minimum and maximum strict.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import ir, values
from .. import primitives as p
from ..emit.context import ErrorContext, X, fail
from ..emit.tree import BinOp, Compare, Not, Stmt, call, fail_if, if_, lit, method
from ..values import SAFE_FLOAT_INT, normalize_number
from .base import ALL_DRAFTS, CheckKind, Context, Keyword, Lowering, Walk

if TYPE_CHECKING:
    from ..emit.context import Branch

# The relation the instance must have to the bound -> (the failing operator, the signs of
# _cmp(x, bound) that pass).
_OPS = {">=": ("<", (0, 1)), ">": ("<=", (1,)), "<=": (">", (-1, 0)), "<": (">=", (-1,))}

# The messages (emit/context.py, "errors"); "minimum.exclusive": draft 4's minimum made strict by
# `exclusiveMinimum: true`. Their params: the bound as `limit`, and as `comparison` the relation
# the instance must have to it.
MESSAGES = {
    "minimum": "{instance} is less than the minimum of {limit}",
    "minimum.exclusive": "{instance} is less than or equal to the minimum of {limit}",
    "maximum": "{instance} is greater than the maximum of {limit}",
    "maximum.exclusive": "{instance} is greater than or equal to the maximum of {limit}",
    "exclusiveMinimum": "{instance} is less than or equal to the exclusiveMinimum of {limit}",
    "exclusiveMaximum": "{instance} is greater than or equal to the exclusiveMaximum of {limit}",
    "multipleOf": "{instance} is not a multiple of {multipleOf}",
}


def bound_message(keyword: str, op: str) -> str:
    """The message of a bound's failure: minimum/maximum made strict read differently."""
    return keyword + ".exclusive" if keyword in ("minimum", "maximum") and len(op) == 1 else keyword


@dataclass(frozen=True)
class NumberBound(ir.Check):
    bound: ir.Number = 0  # integral bounds are ints, so comparisons never go through float
    op: str = ">="  # the relation the instance must have to the bound: >=, >, <=, <
    applies_to = "number"


@dataclass(frozen=True)
class MultipleOf(ir.Check):
    divisor: ir.Number = 1
    applies_to = "number"


# -- preflight --------------------------------------------------------------------------------------
def check_number(w: Walk, value: Any, pointer: str, depth: int) -> None:
    keyword = pointer.rsplit("/", 1)[-1]
    if w.profile.dialect.exclusive_flags and keyword.startswith("exclusive"):
        if not isinstance(value, bool):
            raise w.fail("bad-keyword-value", pointer, f"in draft 4 {keyword} is a boolean")
        return
    w.number(value, pointer, keyword)


def check_multiple_of(w: Walk, value: Any, pointer: str, depth: int) -> None:
    w.number(value, pointer, "multipleOf")
    if value <= 0:
        raise w.fail(
            "bad-keyword-value",
            pointer,
            f"multipleOf must be greater than 0, not {values.number_text(value)}",
        )
    if w.profile.integer_multiple_of_only and not p.is_integral(value):
        raise w.fail(
            "bad-keyword-value",
            pointer,
            f"the {w.profile.name} profile takes only integer multipleOf, not {values.number_text(value)}",
        )


# -- lowering ---------------------------------------------------------------------------------------
def _bound(keyword: str, op: str, flag: str = "") -> Any:
    """The lowering of a bound; `flag` is draft 4's boolean sibling that makes it exclusive."""

    def lower_bound(
        lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: Context | None
    ) -> list[ir.Check]:
        if isinstance(value, bool):
            return []  # draft 4's exclusiveMaximum/exclusiveMinimum flags: read by their bound
        chosen = op
        if flag and lw.profile.dialect.exclusive_flags and schema.get(flag) is True:
            chosen = op[0]  # ">=" becomes ">", "<=" becomes "<"
        return [NumberBound(keyword, normalize_number(value), chosen)]

    lower_bound.__name__ = f"lower_{keyword}"
    return lower_bound


def lower_multiple_of(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: Context | None
) -> list[ir.Check]:
    return [MultipleOf("multipleOf", normalize_number(value))]


# -- emission ---------------------------------------------------------------------------------------
def fast_number_bound(b: Branch, check: NumberBound) -> list[Stmt]:
    m, x, bound = b.m, b.x, check.bound
    fails, signs = _OPS[check.op]
    exact_native = (
        b.exact == "int"
        or isinstance(bound, float)
        or (isinstance(bound, int) and -SAFE_FLOAT_INT <= bound <= SAFE_FLOAT_INT)
    )
    if exact_native and b.exact == "int":
        return [fail_if(Compare(x, fails, m.value(bound)))]
    if exact_native:  # a float: written so that NaN fails
        return [fail_if(Not(Compare(x, check.op, m.value(bound))))]
    return [fail_if(Compare(call(m.prim("_cmp"), x, m.value(bound)), "not in", lit(signs)))]


def error_number_bound(e: ErrorContext, check: NumberBound) -> list[Stmt]:
    m = e.m
    _, signs = _OPS[check.op]
    test = Compare(call(m.prim("_cmp"), X, m.value(check.bound)), "not in", lit(signs))
    params = {"limit": check.bound, "comparison": check.op}
    return [
        if_(
            test, [fail(e, check.keyword, MESSAGES[bound_message(check.keyword, check.op)], params)]
        )
    ]


def fast_multiple_of(b: Branch, check: MultipleOf) -> list[Stmt]:
    if check.divisor == 1 and type(check.divisor) is int:  # (1.0 is normalized to 1)
        # a multiple of 1 is an integral number: every int, and a float that is_integer()
        if b.exact == "int":
            return []
        if b.exact == "float":
            types = b.node.types
            if types is not None and "integer" in types and "number" not in types:
                return []  # (the branch tested is_integer() for the type: emit/fast.py fast_branch)
            return [fail_if(Not(method(b.x, "is_integer")))]
    if b.exact == "int" and isinstance(check.divisor, int):
        return [fail_if(BinOp(b.x, "%", lit(check.divisor)))]
    return [fail_if(Not(call(b.m.prim("_is_multiple"), b.x, b.m.value(check.divisor))))]


def error_multiple_of(e: ErrorContext, check: MultipleOf) -> list[Stmt]:
    m = e.m
    test = Not(call(m.prim("_is_multiple"), X, m.value(check.divisor)))
    return [
        if_(test, [fail(e, "multipleOf", MESSAGES["multipleOf"], {"multipleOf": check.divisor})])
    ]


_BOUNDED = ALL_DRAFTS | {"octoscript", "strict"}
KEYWORDS = [
    Keyword(
        "minimum",
        "validation",
        _BOUNDED,
        check_number,
        _bound("minimum", ">=", "exclusiveMinimum"),
    ),
    Keyword(
        "maximum",
        "validation",
        _BOUNDED,
        check_number,
        _bound("maximum", "<=", "exclusiveMaximum"),
    ),
    Keyword(
        "exclusiveMinimum",
        "validation",
        ALL_DRAFTS | {"strict"},
        check_number,
        _bound("exclusiveMinimum", ">"),
    ),
    Keyword(
        "exclusiveMaximum",
        "validation",
        ALL_DRAFTS | {"strict"},
        check_number,
        _bound("exclusiveMaximum", "<"),
    ),
    Keyword(
        "multipleOf",
        "validation",
        ALL_DRAFTS | {"strict"},
        check_multiple_of,
        lower_multiple_of,
    ),
]
CHECKS = [
    CheckKind(NumberBound, cost=0, fast=fast_number_bound, error=error_number_bound),
    CheckKind(MultipleOf, cost=1, fast=fast_multiple_of, error=error_multiple_of),
]
