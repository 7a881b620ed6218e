"""The string keywords: minLength, maxLength (lengths in code points) and pattern (ECMA-262,
translated exactly into Python `re` by generator/regex, or refused; run as its plan says: `re`,
str tests, or a linear-time automaton where `re` could take super-linear time, emit/patterns.py)."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .. import ir
from .. import primitives as p
from ..emit.context import ErrorContext, X, fail
from ..emit.tree import Compare, Expr, Not, Stmt, call, fail_if, if_, lit
from ..regex.simple import always_matches
from ..values import count_bound, normalize_number
from .base import ALL_DRAFTS, CheckKind, Context, Keyword, Lowering, Walk

if TYPE_CHECKING:
    from ..emit.context import Branch


# The messages (emit/context.py, "errors"): the limit as the schema gives it, the pattern as written.
MESSAGES = {
    "minLength": "{instance} is too short (minLength {limit})",
    "maxLength": "{instance} is too long (maxLength {limit})",
    "pattern": "{instance} does not match the pattern {pattern}",
}


@dataclass(frozen=True)
class StringLength(ir.Check):
    bound: int = 0
    at_least: bool = True  # minLength (True) or maxLength (False)
    limit: Any = field(
        default=None, compare=False
    )  # the schema's number (bound: capped to a length)
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
    """A valid ECMA-262 pattern that Python can express exactly; one that has no linear-time
    engine (an "unsafe" plan: generator/regex/plan.py) goes to the profile's policy."""
    if not isinstance(value, str):
        raise w.fail(
            "bad-keyword-value", pointer, f"pattern must be a string, not {w.describe(value)}"
        )
    from ..regex import RegexTranslationError, plan_pattern

    try:
        plan = plan_pattern(value)
    except RegexTranslationError as exc:
        raise w.fail(
            "bad-regex", pointer, f"pattern {value!r}: {exc.message} (at {exc.position})"
        ) from None
    if plan.kind == "unsafe":
        w.unsafe_pattern(pointer, f"pattern {p.short_repr(value)} is unsafe: {plan.reason}")


# -- lowering ---------------------------------------------------------------------------------------
def lower_min_length(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: Context | None
) -> list[ir.Check]:
    return (
        [StringLength("minLength", count_bound(value), True, normalize_number(value))]
        if value > 0
        else []
    )


def lower_max_length(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: Context | None
) -> list[ir.Check]:
    return [StringLength("maxLength", count_bound(value), False, normalize_number(value))]


@functools.lru_cache(maxsize=4096)
def translated(pattern: str) -> str:
    """The Python `re` translation of an ECMA-262 pattern, checked to compile (else
    RegexTranslationError). Cached: real schemas repeat their patterns (a UUID pattern hundreds of
    times), and preflight, reference targets and lowering all ask for each."""
    from ..regex import compile_pattern

    return compile_pattern(pattern).pattern


def lower_pattern(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: Context | None
) -> list[ir.Check]:
    python = translated(
        value
    )  # (first: an invalid pattern is refused even where it would be dropped)
    if always_matches(value):
        return []  # (`.*`: every string matches, so there is nothing to check)
    return [Pattern("pattern", value, python)]


# -- emission ---------------------------------------------------------------------------------------
def fast_length(b: Branch, check: Any) -> list[Stmt]:
    """minLength/maxLength (and minItems/maxItems, which share the shape)."""
    return [fail_if(count_fails(b.x, check.at_least, check.bound))]


def count_fails(x: Expr, at_least: bool, bound: int) -> Expr:
    """Whether the length of `x`, a value of an exact type (str, list or dict: a fast branch's),
    is under (at_least) or over `bound`. At the bounds 1 and 0 (minLength 1, maxItems 0) the
    value's truth is the test: an exact str, list or dict is false exactly when it is empty, and
    `not x` is one test where `len(x) < 1` is a call and a comparison."""
    if at_least and bound == 1:
        return Not(x)
    if not at_least and bound == 0:
        return x
    return Compare(call("len", x), "<" if at_least else ">", lit(bound))


def error_length(e: ErrorContext, check: Any) -> list[Stmt]:
    """minLength/maxLength, and minItems/maxItems and min/maxProperties (their units' messages,
    from the registry's table the emitter holds)."""
    test = Compare(call("len", X), "<" if check.at_least else ">", lit(check.bound))
    limit = check.limit if check.limit is not None else check.bound
    return [if_(test, [fail(e, check.keyword, e.m.messages[check.keyword], {"limit": limit})])]


def fast_pattern(b: Branch, check: Pattern) -> list[Stmt]:
    return [*b.m.pattern_notes([check.source]), fail_if(b.m.pattern(check.source, b.x).negate())]


def error_pattern(e: ErrorContext, check: Pattern) -> list[Stmt]:
    m = e.m
    test = m.pattern(check.source, call("str", X)).negate()
    return [if_(test, [fail(e, "pattern", MESSAGES["pattern"], {"pattern": check.source})])]


KEYWORDS = [
    Keyword(
        "minLength",
        "validation",
        ALL_DRAFTS | {"octoscript", "strict"},
        check_count,
        lower_min_length,
    ),
    Keyword(
        "maxLength",
        "validation",
        ALL_DRAFTS | {"octoscript", "strict"},
        check_count,
        lower_max_length,
    ),
    Keyword(
        "pattern",
        "validation",
        ALL_DRAFTS | {"strict"},
        check_pattern,
        lower_pattern,
    ),
]
CHECKS = [
    CheckKind(StringLength, cost=0, fast=fast_length, error=error_length),
    CheckKind(Pattern, cost=4, work=8, fast=fast_pattern, error=error_pattern),
]
