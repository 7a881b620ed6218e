"""The string keywords: minLength, maxLength (lengths in code points) and pattern (ECMA-262,
translated exactly into Python `re` by generator/regex, or refused)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import ir
from .. import primitives as p
from ..emit.context import ErrorContext, X, fail, message, ptr
from ..emit.tree import NONE, Call, Compare, Stmt, call, fail_if, if_, lit
from ..values import count_bound
from ..reference.results import Error, Results, is_kind
from .base import ALL_DRAFTS, CheckKind, Keyword

if TYPE_CHECKING:
    from ..emit.context import Branch
    from ..lower import Context, Lowering
    from ..preflight import Walk
    from ..reference.drafts import DraftReference, Here


@dataclass(frozen=True)
class StringLength(ir.Check):
    bound: int = 0
    at_least: bool = True  # minLength (True) or maxLength (False)
    applies_to = "string"


@dataclass(frozen=True)
class Pattern(ir.Check):
    source: str = ""  # the ECMA-262 pattern as written
    python: str = ""  # its Python `re` translation
    applies_to = "string"


# -- preflight --------------------------------------------------------------------------------------
def check_count(w: Walk, value: Any, pointer: str, depth: int) -> None:
    w.count(value, pointer, pointer.rsplit("/", 1)[-1])


def check_pattern(w: Walk, value: Any, pointer: str, depth: int) -> None:
    if not isinstance(value, str):
        raise w.fail("bad-keyword-value", pointer, f"pattern must be a string, not {w.describe(value)}")
    from ..regex import RegexTranslationError, compile_pattern

    try:
        compile_pattern(value)
    except RegexTranslationError as exc:
        raise w.fail("bad-regex", pointer, f"pattern {value!r}: {exc.message} (at {exc.position})") from None


# -- lowering ---------------------------------------------------------------------------------------
def lower_min_length(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: Context | None) -> list[ir.Check]:
    return [StringLength("minLength", count_bound(value), True)] if value > 0 else []


def lower_max_length(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: Context | None) -> list[ir.Check]:
    return [StringLength("maxLength", count_bound(value), False)]


def lower_pattern(lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: Context | None) -> list[ir.Check]:
    from ..regex import translate

    return [Pattern("pattern", value, translate(value))]


# -- emission ---------------------------------------------------------------------------------------
def fast_length(b: Branch, check: Any) -> list[Stmt]:
    """minLength/maxLength (and minItems/maxItems, which share the shape)."""
    return [fail_if(Compare(call("len", b.x), "<" if check.at_least else ">", lit(check.bound)))]


def error_length(e: ErrorContext, check: Any) -> list[Stmt]:
    m = e.m
    test = Compare(call("len", X), "<" if check.at_least else ">", lit(check.bound))
    text = " is too short" if check.at_least else " is too long"
    return [if_(test, [fail(m, message(m, text), ptr(check.keyword))])]


def fast_pattern(b: Branch, check: Pattern) -> list[Stmt]:
    return [fail_if(Compare(Call(b.m.regex(check.python), (b.x,)), "is", NONE))]


def error_pattern(e: ErrorContext, check: Pattern) -> list[Stmt]:
    m = e.m
    test = Compare(Call(m.regex(check.python), (call("str", X),)), "is", NONE)
    return [if_(test, [fail(m, message(m, " does not match " + repr(check.source)), ptr("pattern"))])]


# -- the reference ----------------------------------------------------------------------------------
def reference_min_length(r: DraftReference, bound: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str,
                         at: Here) -> Results:
    if is_kind(instance, "string") and len(instance) < bound:
        yield Error(f"{p.short_repr(instance)} is too short", ip, kp)


def reference_max_length(r: DraftReference, bound: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str,
                         at: Here) -> Results:
    if is_kind(instance, "string") and len(instance) > bound:
        yield Error(f"{p.short_repr(instance)} is too long", ip, kp)


def reference_pattern(r: DraftReference, source: Any, instance: Any, schema: dict[str, Any], ip: str, kp: str,
                      at: Here) -> Results:
    from ..regex import compile_pattern

    if is_kind(instance, "string") and compile_pattern(source).search(str(instance)) is None:
        yield Error(f"{p.short_repr(instance)} does not match {source!r}", ip, kp)


KEYWORDS = [
    Keyword("minLength", "validation", ALL_DRAFTS | {"octoscript", "strict"}, check_count, lower_min_length,
            reference=reference_min_length),
    Keyword("maxLength", "validation", ALL_DRAFTS | {"octoscript", "strict"}, check_count, lower_max_length,
            reference=reference_max_length),
    Keyword("pattern", "validation", ALL_DRAFTS | {"strict"}, check_pattern, lower_pattern,
            reference=reference_pattern),
]
CHECKS = [
    CheckKind(StringLength, cost=0, fast=fast_length, error=error_length),
    CheckKind(Pattern, cost=4, work=8, fast=fast_pattern, error=error_pattern),
]
