"""The `format` keyword: an annotation by default in every profile that knows it, a check where the
format options (generator/format_options.py, applied by profiles.with_formats) make it one. A check
calls one checker on string values: the draft's checker from generator/formats (its source copied
into the module, only for the formats the schema uses), or the user's own function for a custom
format (imported by the module). Any other value passes. A format with no checker in the draft in
force is an annotation, or, with unknown_formats="error", a SchemaError (`unknown-format`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import ir
from .. import primitives as p
from ..emit.context import ErrorContext, X, fail
from ..emit.tree import Call, Not, Stmt, call, fail_if, if_
from ..errors import SchemaError
from .base import (
    ALL_DRAFTS,
    CheckKind,
    Context,
    Keyword,
    Lowering,
    ProfileView,
    Walk,
)

if TYPE_CHECKING:
    from ..emit.context import Branch

# The rules a profile that is no draft (strict) checks formats by: it reads its keywords as
# 2020-12 does.
SEED_DRAFT = "draft2020-12"

# The message (emit/context.py, "errors"): the format as the schema names it.
MESSAGES = {"format": "{instance} is not a valid {format}"}


@dataclass(frozen=True)
class Format(ir.Check):
    name: str = ""  # the format, as the schema writes it (for the message)
    function: str = (
        ""  # the checker's name in the module: a formats/checkers.py function or an alias
    )
    module: str = ""  # a custom format: the module its function is imported from
    attribute: str = ""  # a custom format: the function's name in that module
    applies_to = "string"


@dataclass(frozen=True)
class Checker:
    """What checks one format in one profile: a function of formats/checkers.py, or a custom one."""

    function: str
    module: str = ""
    attribute: str = ""


def checker_for(name: Any, profile: ProfileView) -> Checker | None:
    """The checker of format `name` in `profile`: the user's (custom formats win), else the one of
    the draft in force; None when the format is unknown there."""
    if not isinstance(name, str):
        return None
    custom = profile.format_options.custom_format(name)
    if custom is not None:
        return Checker(custom.alias, custom.module, custom.function)
    from ..formats import FORMATS

    spec = FORMATS.get(name)
    function = spec.checker_for(profile.draft or SEED_DRAFT) if spec is not None else None
    return Checker(function) if function is not None else None


# -- preflight ------------------------------------------------------------------------------------
def check_format(w: Walk, value: Any, pointer: str, depth: int) -> None:
    """A string; where `format` asserts and unknown formats are refused, one with a checker."""
    if not isinstance(value, str):
        raise w.fail(
            "bad-keyword-value", pointer, f"format must be a string, not {w.describe(value)}"
        )
    profile = w.profile
    if profile.format_options.unknown != "error" or profile.keyword_status("format") != "enforced":
        return
    if checker_for(value, profile) is None:
        raise w.fail("unknown-format", pointer, _unknown_message(value, profile))


def _unknown_message(name: str, profile: ProfileView) -> str:
    from ..formats import FORMATS

    draft = profile.draft or SEED_DRAFT
    spec = FORMATS.get(name)
    why = (
        f"{draft} does not define it (it is a format of {', '.join(spec.drafts)})"
        if spec is not None
        else "no draft defines it, and it is not a custom format"
    )
    return (
        f"unknown format {p.short_repr(name)}: {why}; with unknown_formats='error' a format "
        "that cannot be checked is refused (give its checker as a custom format)"
    )


# -- lowering -------------------------------------------------------------------------------------
def lower_format(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: Context | None
) -> list[ir.Check]:
    found = checker_for(value, lw.profile)
    if found is not None:
        return [Format("format", value, found.function, found.module, found.attribute)]
    if lw.profile.format_options.unknown == "error":  # (a subschema of another draft: preflight
        # walked it by the root's draft, which may know the format)
        raise SchemaError(_unknown_message(value, lw.profile), code="unknown-format", pointer=where)
    return []  # an unknown format is an annotation


# -- emission -------------------------------------------------------------------------------------
def fast_format(b: Branch, check: Format) -> list[Stmt]:
    function = b.m.format_function(check.function, check.module, check.attribute)
    return [fail_if(Not(Call(function, (b.x,))))]


def error_format(e: ErrorContext, check: Format) -> list[Stmt]:
    m = e.m
    function = m.format_function(check.function, check.module, check.attribute)
    test = Not(Call(function, (call("str", X),)))
    return [if_(test, [fail(e, "format", MESSAGES["format"], {"format": check.name})])]


_FORMAT_PROFILES = ALL_DRAFTS | {"strict"}
KEYWORDS = [
    Keyword(
        "format",
        "format",
        frozenset(),
        check_format,
        lower_format,
        annotation=_FORMAT_PROFILES,
        optional=_FORMAT_PROFILES,
    ),
]
CHECKS = [CheckKind(Format, cost=5, work=8, fast=fast_format, error=error_format)]
