"""The error path: `_eN(x, ip, kp, out, ak)` appends every error of the subschema at `x` to `out`,
with its instance location (`ip` + ...), keyword location (`kp` + ...) and absolute keyword
location (`ak`, where a reference was crossed). It is generic (it answers for every Python value,
Decimal and subclasses included) and runs only after the fast path failed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import ir
from ..codegen import literal
from .context import ErrorContext, X, fail
from .tree import Assign, Compare, Expr, Name, Not, Paren, Pass, Stmt, and_, call, if_, lit, or_

if TYPE_CHECKING:
    from .module import Function, ModuleEmitter


def error_function(m: ModuleEmitter, node: ir.Node) -> Function:
    from .module import Function

    messages, kinds = m.messages, m.checks
    name, params = m.function_name("error", node), m.params("error")
    doc = literal("Every error of the subschema at " + (node.pointer or "the root") + ".")
    if node.boolean is True:
        return Function(name, params, doc, [Pass()], "None")
    context = ErrorContext(m, node, m.plan.node(node))
    if node.boolean is False:
        return Function(name, params, doc, [fail(context, "false", messages["false"])], "None")
    body = m.prologue(node)
    k = Name("k")
    if node.types is not None:
        body += _read_plain(m, k)
        body.append(
            if_(
                Not(Paren(or_(*_type_tests(m, node, k)))),
                [fail(context, "type", messages["type"], {"type": type_param(node.types)})],
            )
        )
    elif any(c.applies_to is not None for c in node.checks):
        body += _read_plain(m, k)
    by_kind: dict[str, list[Stmt]] = {}
    for check in node.checks:
        emit = kinds[type(check)].error
        assert emit is not None, type(check)
        by_kind.setdefault(check.applies_to or "", []).extend(emit(context, check))
    for kind, block in by_kind.items():
        if block:
            body += [if_(Compare(k, "==", lit(kind)), block)] if kind else block
    return Function(name, params, doc, body or [Pass()], "None")


def _read_plain(m: ModuleEmitter, k: Name) -> list[Stmt]:
    """`k = _kind(x)`, x first made the JSON value it holds where it is a subclass (of str, list,
    dict, int, float, Decimal): its checks read that value, never what its own methods say."""
    return [
        if_(
            Compare(call("type", X), "not in", m.prim("_JSON_TYPES")),
            [Assign(X, call(m.prim("_plain"), X))],
        ),
        Assign(k, call(m.prim("_kind"), X)),
    ]


def _type_tests(m: ModuleEmitter, node: ir.Node, k: Name) -> list[Expr]:
    """One test per allowed type, on `k`, the value's JSON kind (_kind: "integer" is "number")."""
    assert node.types is not None
    tests: list[Expr] = []
    for name in node.types:
        is_number = Compare(k, "==", lit("number"))
        if name == "integer" and not node.float_integers:  # draft 4: written without a fraction
            tests.append(Paren(and_(is_number, call("isinstance", X, Name("int")))))
        elif name == "integer":
            tests.append(Paren(and_(is_number, call(m.prim("_is_integral"), X))))
        else:
            tests.append(Compare(k, "==", lit(name)))
    return tests


def type_param(types: tuple[str, ...]) -> str | list[str]:
    """The `type` parameter of a type error: the allowed type names as the keyword writes them (one
    name, or a list), in a fixed order, "integer" left out where "number" is allowed."""
    return types[0] if len(types) == 1 else list(types)
