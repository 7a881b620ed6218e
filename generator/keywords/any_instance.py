"""The keywords for any instance type: type, enum and const.

`type` is not a check of its own: lowering puts it in the node (`Node.types`), and the fast path's
type dispatch and the error path's first test read it there. enum and const are one IR check
(`Enum`): JSON equality with a list of values, compared per exact type on the fast path.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any, cast

from .. import ir
from ..emit.context import ErrorContext, X, fail
from ..emit.tree import (
    RETURN_FALSE,
    Compare,
    Display,
    Expr,
    Name,
    Not,
    Stmt,
    call,
    fail_if,
    if_,
    lit,
)
from ..static_types import ANY_OBJECT, TOP, Ty, TypeReader, join_all
from ..values import SAFE_FLOAT_INT, canonical, dumps_exact, normalize_number
from .base import (
    ALL_DRAFTS,
    CheckKind,
    Context,
    Keyword,
    Lowering,
    Walk,
    drafts,
)

if TYPE_CHECKING:
    from ..emit.context import Branch

# The messages of type (the error path's first test, emit/error_path.py), enum, const, and of a false
# schema (which allows no instance); see emit/context.py, "errors".
MESSAGES = {
    "type": "{instance} is not of type {type}",
    "enum": "{instance} is not one of {allowedValues}",
    "const": "{instance} is not the expected value {allowedValue}",
    "false": "{instance} is not allowed: the schema is false",
}


@dataclass(frozen=True)
class Enum(ir.Check):
    """enum and const: the value must be JSON-equal to one of `values`."""

    values: tuple[Any, ...] = field(default=(), compare=False)
    # what equality of checks looks at: the values' canonical JSON, then their text as written
    # (`[1]` and `[1.0]` accept the same values, but their errors show them as the schema wrote them)
    identity: str = ""
    on_every_type = True

    def constant_values(self) -> tuple[Any, ...]:
        return self.values


# -- type ------------------------------------------------------------------------------------------
def check_type(w: Walk, value: Any, pointer: str, depth: int) -> None:
    if isinstance(value, str):
        if value not in ir.TYPE_NAMES:
            raise w.fail(
                "bad-keyword-value",
                pointer,
                f"unknown type {value!r}; types are {', '.join(ir.TYPE_NAMES)}",
            )
        return
    if not isinstance(value, list):
        raise w.fail(
            "bad-keyword-value",
            pointer,
            f"type must be a string or an array of strings, not {w.describe(value)}",
        )
    if not w.profile.type_arrays:
        raise w.fail(
            "bad-keyword-value",
            pointer,
            f"the {w.profile.name} profile takes one type name, not an array",
        )
    if not value:
        raise w.fail("bad-keyword-value", pointer, "type must not be an empty array")
    for i, name in enumerate(value):
        if not isinstance(name, str) or name not in ir.TYPE_NAMES:
            raise w.fail("bad-keyword-value", f"{pointer}/{i}", f"unknown type {name!r}")
    if len(set(value)) != len(value):
        raise w.fail("bad-keyword-value", pointer, "type names must be unique")


def lower_type(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: Context | None
) -> list[ir.Check]:
    names = {value} if isinstance(value, str) else set(value)
    if "number" in names:
        names.discard("integer")  # every integer is a number
    return [ir.Types("type", tuple(n for n in ir.TYPE_NAMES if n in names))]


# -- enum and const -------------------------------------------------------------------------------
def check_enum(w: Walk, value: Any, pointer: str, depth: int) -> None:
    if not isinstance(value, list):
        raise w.fail(
            "bad-keyword-value", pointer, f"enum must be an array, not {w.describe(value)}"
        )
    limit = w.profile.limits.max_enum_values
    if limit is not None and len(value) > limit:
        raise w.fail(
            "limit-exceeded", pointer, f"{len(value)} enum values, over the limit of {limit}"
        )
    w.json_value(value, pointer)


def check_const(w: Walk, value: Any, pointer: str, depth: int) -> None:
    w.json_value(value, pointer)


def lower_enum(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: Context | None
) -> list[ir.Check]:
    return [Enum("enum", tuple(value), _identity(value))]


def lower_const(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: Context | None
) -> list[ir.Check]:
    return [Enum("const", (value,), _identity([value]))]


def _identity(values: list[Any]) -> str:
    return canonical(values) + " " + dumps_exact(values)


def _json_kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float, Decimal)):
        return "number"
    return "string" if isinstance(value, str) else "array" if isinstance(value, list) else "object"


def fast_enum(b: Branch, check: Enum) -> list[Stmt]:
    m, x, exact = b.m, b.x, b.exact
    kind = b.kind
    values = [
        normalize_number(v) if kind == "number" else v
        for v in check.values
        if _json_kind(v) == kind
    ]
    if not values:
        return [RETURN_FALSE]
    if exact == "None":
        return []
    if exact == "bool":
        return [fail_if(Compare(x, "is not", lit(values[0])))] if len(set(values)) == 1 else []
    # Numbers are normalised (integral ones are ints), so an int instance compares exactly with
    # every table value; a float only with floats and with ints it can represent exactly.
    if exact == "float":
        values = [v for v in values if not isinstance(v, Decimal)]
    simple = exact in ("str", "int") or (
        exact == "float" and all(not isinstance(v, int) or abs(v) <= SAFE_FLOAT_INT for v in values)
    )
    if simple and not values:
        return [RETURN_FALSE]
    if simple and len(values) == 1:
        return [fail_if(Compare(x, "!=", m.value(values[0])))]
    if simple:
        return [fail_if(Compare(x, "not in", m.constant("S", m.value(frozenset(values)))))]
    return [fail_if(Not(call(m.prim("_in_table"), x, enum_table(b.m, check))))]


def enum_values(m: Any, check: Enum) -> Name:
    """An enum's values as a module constant (the lookup table and the errors' params share it)."""
    return cast(Name, m.constant("L", m.value(list(check.values)), key="L" + check.identity))


def enum_table(m: Any, check: Enum) -> Name:
    """The lookup table of an enum's values (frozen keys with JSON equality), a module constant."""
    table = m.constant("T", call(m.prim("_table"), enum_values(m, check)), key="T" + check.identity)
    return cast(Name, table)


def error_enum(e: ErrorContext, check: Enum) -> list[Stmt]:
    m = e.m
    test = Not(call(m.prim("_in_table"), X, enum_table(m, check)))
    params: Expr
    if check.keyword == "enum":
        params = Display("dict", ((lit("allowedValues"), enum_values(m, check)),))
    else:
        params = Display("dict", ((lit("allowedValue"), m.value(check.values[0])),))
    return [if_(test, [fail(e, check.keyword, MESSAGES[check.keyword], params)])]


KEYWORDS = [
    Keyword(
        "type",
        "validation",
        ALL_DRAFTS | {"octoscript", "strict", "lenient"},
        check_type,
        lower_type,
    ),
    Keyword(
        "enum",
        "validation",
        ALL_DRAFTS | {"octoscript", "strict"},
        check_enum,
        lower_enum,
    ),
    Keyword(
        "const",
        "validation",
        drafts("draft6") | {"strict"},
        check_const,
        lower_const,
    ),
]
CHECKS = [CheckKind(Enum, cost=1, fast=fast_enum, error=error_enum)]


# -- static types (render/types.py) -------------------------------------------------------------------
def types(reader: TypeReader, node: ir.Node, hint: str, depth: int) -> list[Ty]:
    """`type` is the union of its kinds (`integer` is also float and Decimal where 1.0 is an
    integer); an enum or const is its values' Literal, as JSON equality reads them."""
    parts: list[Ty] = []
    if node.types is not None:
        parts.append(_type_of_names(node.types, node.float_integers))
    for word in ("enum", "const"):
        for check in node.checks:
            if isinstance(check, Enum) and check.keyword == word:
                parts.append(_type_of_values(list(check.values)))
    return parts


def _type_of_names(names: tuple[str, ...], float_integers: bool) -> Ty:
    parts: list[Ty] = []
    for name in names:
        if name == "null":
            part = Ty(null=True)
        elif name == "boolean":
            part = Ty(bools=(False, True))
        elif name == "integer":
            part = Ty(all_ints=True, floats=float_integers, decimals=float_integers)
        elif name == "number":
            part = Ty(all_ints=True, floats=True, decimals=True)
        elif name == "string":
            part = Ty(all_strs=True)
        elif name == "array":
            part = Ty(array=True)
        elif name == "object":
            part = Ty(objs=(ANY_OBJECT,))
        else:
            return TOP  # preflight refuses unknown names; whatever it let through narrows nothing
        parts.append(part)
    return join_all(parts)


def _type_of_values(values: list[Any]) -> Ty:
    """The type of an enum: JSON equality, so an integer also stands for its float and Decimal."""
    null = array = obj = numbers = False
    bools: set[bool] = set()
    ints: dict[int, None] = {}
    strs: dict[str, None] = {}
    for value in values:
        if value is None:
            null = True
        elif value is True or value is False:
            bools.add(value)
        elif isinstance(value, str):
            strs[value] = None
        elif isinstance(value, (int, float, Decimal)):
            numbers = True
            integral = _integral_number(value)
            if integral is not None:
                ints[integral] = None
        elif isinstance(value, list):
            array = True
        elif isinstance(value, dict):
            obj = True
        else:
            return TOP
    return Ty(
        null=null,
        bools=tuple(v for v in (False, True) if v in bools),
        ints=tuple(ints),
        floats=numbers,
        decimals=numbers,
        strs=tuple(strs),
        array=array,
        objs=(ANY_OBJECT,) if obj else (),
    )


def _integral_number(value: Any) -> int | None:
    """The int an integral number stands for; None for any other number, and for an integral one of
    4000 digits or more (values.normalize_number keeps those Decimal: never materialised)."""
    number = normalize_number(value)
    return number if isinstance(number, int) else None
