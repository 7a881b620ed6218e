"""The in-place applicators: allOf, anyOf, oneOf, not, and if/then/else. They apply subschemas to
the value itself, whatever its type; oneOf and anyOf dispatch where the data tells which alternative
alone can pass (emit/alternatives.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import ir
from ..emit.context import (
    AK,
    EV,
    IP,
    KP,
    OUT,
    ErrorContext,
    Evaluation,
    X,
    branch_rows,
    ecall,
    error_spec,
    fail,
    merge,
)
from ..emit.tree import (
    NONE,
    RETURN_FALSE,
    TRUE,
    Assign,
    Compare,
    ExprStmt,
    GenExp,
    If,
    ListComp,
    Name,
    Not,
    Pass,
    Stmt,
    Subscript,
    Tuple,
    as_flag,
    call,
    fail_if,
    if_,
    lit,
    method,
)
from ..errors import join_pointer
from ..static_types import TOP, Ty, TypeReader, join_all, join_ty
from .base import (
    ALL_DRAFTS,
    CheckKind,
    Keyword,
    Lowering,
    Walk,
    check_subschema,
    drafts,
)

if TYPE_CHECKING:
    from ..emit.context import General
    from ..emit.module import ModuleEmitter


# The messages (emit/context.py, "errors"). A failed anyOf, or a oneOf no alternative holds,
# carries every alternative's errors as its context; a oneOf several hold names them.
MESSAGES = {
    "anyOf": "{instance} is not valid under any of the given schemas",
    "oneOf": "{instance} is not valid under any of the given schemas",
    "oneOf.several": "{instance} is valid under more than one of the given schemas: {passingSchemas}",
    "not": "{instance} should not be valid under the schema of not",
}


@dataclass(frozen=True)
class AllOf(ir.Check):
    schemas: tuple[ir.Node, ...] = ()
    in_place_fields = ("schemas",)


@dataclass(frozen=True)
class AnyOf(ir.Check):
    schemas: tuple[ir.Node, ...] = ()
    in_place_fields = ("schemas",)


@dataclass(frozen=True)
class OneOf(ir.Check):
    schemas: tuple[ir.Node, ...] = ()
    in_place_fields = ("schemas",)


@dataclass(frozen=True)
class Not_(ir.Check):
    schema: ir.Node | None = None
    in_place_fields = ("schema",)


@dataclass(frozen=True)
class IfThenElse(ir.Check):
    condition: ir.Node | None = None
    then: ir.Node | None = None
    otherwise: ir.Node | None = None
    in_place_fields = ("condition", "then", "otherwise")

    def never_applied(self) -> tuple[ir.Node, ...]:
        """`then` under an `if` that is `false`, `else` under one every value passes."""
        assert self.condition is not None
        if self.condition.boolean is False and self.then is not None:
            return (self.then,)
        if ir.always_true(self.condition) and self.otherwise is not None:
            return (self.otherwise,)
        return ()


# -- preflight and lowering ---------------------------------------------------------------------------
def check_schemas(w: Walk, value: Any, pointer: str, depth: int) -> None:
    w.schema_array(value, pointer, pointer.rsplit("/", 1)[-1], depth)


C = Any  # Context | None


def lower_all_of(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C
) -> list[ir.Check]:
    return [AllOf("allOf", lw.nodes(value, where, ctx))]


def lower_any_of(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C
) -> list[ir.Check]:
    return [AnyOf("anyOf", lw.nodes(value, where, ctx))]


def lower_one_of(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C
) -> list[ir.Check]:
    return [OneOf("oneOf", lw.nodes(value, where, ctx))]


def lower_not(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C
) -> list[ir.Check]:
    return [Not_("not", lw.node(value, where, ctx))]


def lower_if(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C
) -> list[ir.Check]:
    parent = where.rsplit("/", 1)[0]
    then = (
        lw.node(schema["then"], join_pointer(parent, "then"), ctx)
        if lw.enforced("then", schema)
        else None
    )
    otherwise = (
        lw.node(schema["else"], join_pointer(parent, "else"), ctx)
        if lw.enforced("else", schema)
        else None
    )
    if then is None and otherwise is None and not lw.profile.dialect.annotations:
        return []  # `if` alone decides nothing (but what it evaluates may count, from 2019-09)
    return [IfThenElse("if", lw.node(value, where, ctx), then, otherwise)]


# -- the fast path ------------------------------------------------------------------------------------
def fast_all_of(g: General, check: AllOf) -> list[Stmt]:
    return [stmt for sub in check.schemas for stmt in _checked(g.m, sub, g.x)]


def fast_any_of(g: General, check: AnyOf) -> list[Stmt]:
    return g.m.alternatives(check.schemas, False, g.x, g.scope)


def fast_one_of(g: General, check: OneOf) -> list[Stmt]:
    return g.m.alternatives(check.schemas, True, g.x, g.scope)


def fast_not(g: General, check: Not_) -> list[Stmt]:
    assert check.schema is not None
    return [fail_if(g.m.passes_by_type(check.schema, g.x, g.scope) or g.m.call(check.schema, g.x))]


def fast_if(g: General, check: IfThenElse) -> list[Stmt]:
    m, x = g.m, g.x
    assert check.condition is not None
    in_place = _condition_in_place(g, check.condition)
    if in_place is not None:
        setup, flag = in_place
        then = _checked(m, check.then, x)
        otherwise = _checked(m, check.otherwise, x)
        if flag is None:  # the condition holds for every value
            return then
        if not then and not otherwise:
            return []
        return setup + [if_(flag, then, otherwise) if then else if_(Not(flag), otherwise)]
    if check.then is not None and check.otherwise is not None:
        return [
            If(
                (
                    (m.call(check.condition, x), (fail_if(Not(m.call(check.then, x))),)),
                    (Not(m.call(check.otherwise, x)), (RETURN_FALSE,)),
                )
            )
        ]
    out: list[Stmt] = []
    for sub, negate in ((check.then, False), (check.otherwise, True)):
        if sub is not None:
            condition = m.call(check.condition, x)
            out.append(if_(Not(condition) if negate else condition, [fail_if(Not(m.call(sub, x)))]))
    return out


def _condition_in_place(g: General, condition: ir.Node) -> tuple[list[Stmt], Name | None] | None:
    """A small `if` subschema checked in place, its outcome in a flag (`c = True`, its checks
    setting `c = False` where they would fail): no call, and no second test of the value's type
    where the enclosing code decided it. None where it is called; (no statements, None) where
    every value passes it."""
    m = g.m
    if m.dynamic or not m.inlinable(condition):
        return None
    flag = g.scope("c")
    flagged = as_flag(m.check_in_place(condition, None, var=g.x), flag)
    if flagged is None:
        return None
    if not flagged[1]:
        return [], None
    return [Assign(flag, TRUE)] + flagged[0], flag


def _checked(m: ModuleEmitter, sub: ir.Node | None, x: Name) -> list[Stmt]:
    """The checks of an in-place subschema (an allOf member, `then`, `else`) on `x`: in place
    when small, else a call."""
    if sub is None or ir.always_true(sub):
        return []
    if m.inlinable(sub):
        return m.check_in_place(sub, None, var=x)
    return [fail_if(Not(m.call(sub, x)))]


# -- the error path -----------------------------------------------------------------------------------
def error_all_of(e: ErrorContext, check: AllOf) -> list[Stmt]:
    return [
        ecall(e.m, sub, X, IP, "allOf", i)
        for i, sub in enumerate(check.schemas)
        if not ir.always_true(sub)
    ]


def error_any_of(e: ErrorContext, check: AnyOf) -> list[Stmt]:
    return _error_alternatives(e, "anyOf", check.schemas, (MESSAGES["anyOf"],))


def error_one_of(e: ErrorContext, check: OneOf) -> list[Stmt]:
    return _error_alternatives(
        e, "oneOf", check.schemas, (MESSAGES["oneOf"], MESSAGES["oneOf.several"])
    )


def _error_alternatives(
    e: ErrorContext, keyword: str, schemas: tuple[ir.Node, ...], templates: tuple[str, ...]
) -> list[Stmt]:
    """anyOf/oneOf, decided again by _alternatives (which gathers each alternative's errors when
    none holds) from a table of the alternatives."""
    m = e.m
    rows = branch_rows(m, [(sub, (keyword, i)) for i, sub in enumerate(schemas)])
    spec = error_spec(m, e.node, templates)
    return [
        ExprStmt(
            call(
                m.prim("_alternatives"),
                OUT,
                X,
                rows,
                spec,
                IP,
                KP,
                AK,
                lit("/" + keyword),
                *m.scope_args(),
            )
        )
    ]


def error_not(e: ErrorContext, check: Not_) -> list[Stmt]:
    assert check.schema is not None
    return [if_(e.m.call(check.schema, X), [fail(e, "not", MESSAGES["not"])])]


def error_if(e: ErrorContext, check: IfThenElse) -> list[Stmt]:
    m = e.m
    assert check.condition is not None
    if check.then is None and check.otherwise is None:
        return []
    test = m.call(check.condition, X)
    then: list[Stmt] = [ecall(m, check.then, X, IP, "then")] if check.then is not None else [Pass()]
    otherwise = [ecall(m, check.otherwise, X, IP, "else")] if check.otherwise is not None else []
    return [if_(test, then, otherwise)]


# -- what they evaluate -------------------------------------------------------------------------------
def evaluates_each(found: Evaluation, check: AllOf | AnyOf) -> None:
    for sub in check.schemas:
        found.in_place += merge(found.m.annotations(sub, X))


def evaluates_one_of(found: Evaluation, check: OneOf) -> None:
    """oneOf annotates only when it holds: exactly one alternative is valid."""
    r, rs = Name("r"), Name("rs")
    calls = tuple(found.m.annotations(sub, X) for sub in check.schemas)
    found.in_place.append(
        Assign(rs, ListComp(GenExp(r, r, Tuple(calls), Compare(r, "is not", NONE))))
    )
    found.in_place.append(
        if_(
            Compare(call("len", rs), "==", lit(1)),
            [ExprStmt(method(EV, "update", Subscript(rs, lit(0))))],
        )
    )


def evaluates_if(found: Evaluation, check: IfThenElse) -> None:
    assert check.condition is not None
    m, r = found.m, Name("r")
    found.in_place.append(Assign(r, m.annotations(check.condition, X)))
    then: list[Stmt] = [ExprStmt(method(EV, "update", r))]
    if check.then is not None:
        then += merge(m.annotations(check.then, X))
    otherwise = merge(m.annotations(check.otherwise, X)) if check.otherwise is not None else []
    found.in_place.append(if_(Compare(r, "is not", NONE), then, otherwise))


_COMBINATORS = ALL_DRAFTS | {"strict"}
KEYWORDS = [
    Keyword(
        "allOf",
        "applicator",
        _COMBINATORS,
        check_schemas,
        lower_all_of,
        holds="schemas",
    ),
    Keyword(
        "anyOf",
        "applicator",
        _COMBINATORS,
        check_schemas,
        lower_any_of,
        holds="schemas",
    ),
    Keyword(
        "oneOf",
        "applicator",
        _COMBINATORS,
        check_schemas,
        lower_one_of,
        holds="schemas",
    ),
    Keyword(
        "not",
        "applicator",
        _COMBINATORS,
        check_subschema,
        lower_not,
        holds="schema",
    ),
    Keyword(
        "if",
        "applicator",
        drafts("draft7"),
        check_subschema,
        lower_if,
        holds="schema",
    ),
    Keyword("then", "applicator", drafts("draft7"), check_subschema, read_by="if", holds="schema"),
    Keyword("else", "applicator", drafts("draft7"), check_subschema, read_by="if", holds="schema"),
]
CHECKS = [
    CheckKind(AllOf, cost=6, general=fast_all_of, error=error_all_of, evaluates=evaluates_each),
    CheckKind(Not_, cost=6, general=fast_not, error=error_not),
    CheckKind(IfThenElse, cost=7, general=fast_if, error=error_if, evaluates=evaluates_if),
    CheckKind(AnyOf, cost=7, general=fast_any_of, error=error_any_of, evaluates=evaluates_each),
    CheckKind(OneOf, cost=8, general=fast_one_of, error=error_one_of, evaluates=evaluates_one_of),
]


# -- static types (render/types.py) -------------------------------------------------------------------
def types(reader: TypeReader, node: ir.Node, hint: str, depth: int) -> list[Ty]:
    """allOf's schemas each narrow the type; anyOf and oneOf are unions, `if` the union of
    `then` and `else`. `not` narrows nothing."""
    parts: list[Ty] = []
    for kind in (AllOf, AnyOf, OneOf, IfThenElse):
        for check in node.checks:
            if not isinstance(check, kind):
                continue
            if isinstance(check, AllOf):
                parts.extend(reader.ty(sub, hint, depth + 1) for sub in check.schemas)
            elif isinstance(check, (AnyOf, OneOf)):
                parts.append(join_all([reader.ty(sub, hint, depth + 1) for sub in check.schemas]))
            elif isinstance(check, IfThenElse):
                then = TOP if check.then is None else reader.ty(check.then, hint, depth + 1)
                otherwise = (
                    TOP if check.otherwise is None else reader.ty(check.otherwise, hint, depth + 1)
                )
                parts.append(join_ty(then, otherwise))
    return parts
