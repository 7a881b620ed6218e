"""Annotations, for unevaluatedProperties and unevaluatedItems: `_aN(x)` is None when x fails the
subschema, else the keys (or indices) its keywords evaluated; `_uN(x)` collects what the keywords
other than the node's own unevaluated* evaluated (each keyword unit says what it evaluates)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import ir
from ..codegen import literal
from .context import EV, Evaluation, X
from .tree import (
    NONE,
    Assign,
    Compare,
    Name,
    Not,
    Return,
    Stmt,
    call,
    if_,
    lit,
)

if TYPE_CHECKING:
    from .module import Function, ModuleEmitter

K = Name("k")


def annot_function(m: ModuleEmitter, node: ir.Node) -> Function:
    """`_aN(x)`: None if x fails the subschema, else the keys/indices it evaluated."""
    from .module import Function

    name, params = m.function_name("annot", node), m.params("fast")
    doc = literal(
        "Evaluated keys or indices of the subschema at "
        + (node.pointer or "the root")
        + ", or None."
    )
    if node.boolean is not None:
        return Function(
            name, params, doc, [Return(call("set") if node.boolean else NONE)], "set[Any] | None"
        )
    body: list[Stmt] = [if_(Not(m.call(node, X)), [Return(NONE)])]
    # a node with unevaluated* evaluates every member of that kind when it holds
    everything = {c.evaluates_all for c in node.checks} - {None}
    if everything:
        body.append(Assign(K, call(m.prim("_kind"), X)))
        if "object" in everything:
            body.append(if_(Compare(K, "==", lit("object")), [Return(call("set", X))]))
        if "array" in everything:
            body.append(
                if_(
                    Compare(K, "==", lit("array")),
                    [Return(call("set", call("range", call("len", X))))],
                )
            )
    body.append(Return(m.fcall(m.eval_fn(node), X)))
    return Function(name, params, doc, body, "set[Any] | None")


def eval_function(m: ModuleEmitter, node: ir.Node) -> Function:
    """`_uN(x)`: the keys/indices evaluated by the subschema's keywords other than its own
    unevaluated* ones: its own property/item keywords, and every valid in-place subschema."""
    from .module import Function

    doc = literal(
        "Keys or indices evaluated at " + (node.pointer or "the root") + " (before unevaluated*)."
    )
    body = m.prologue(node)
    body.append(Assign(EV, call("set"), "set[Any]"))
    body.append(Assign(K, call(m.prim("_kind"), X)))
    found = Evaluation(m)
    for check in node.checks:
        evaluates = m.checks[type(check)].evaluates
        if evaluates is not None:
            evaluates(found, check)
    if found.objects:
        body.append(if_(Compare(K, "==", lit("object")), found.objects))
    if found.arrays:
        body.append(if_(Compare(K, "==", lit("array")), found.arrays))
    body += found.in_place
    body.append(Return(EV))
    return Function(m.function_name("eval", node), m.params("fast"), doc, body, "set[Any]")
