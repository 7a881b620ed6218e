"""What a keyword unit's emission gets: where the code goes (the node, the value's name, the local
scope, the node's plan) and the shared pieces every keyword writes with (a failure, a call of a
subschema's error function, a pointer suffix)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .. import ir
from ..errors import escape_pointer_token
from ..plan import NodePlan
from .names import Scope
from .tree import BinOp, Call, Expr, ExprStmt, Lit, Name, Stmt, and_, call, lit

if TYPE_CHECKING:
    from .module import ModuleEmitter

# The fixed names of emitted functions: the value, and the error path's instance location, keyword
# location, error list and absolute keyword location.
X, IP, KP, OUT, AK = Name("x"), Name("ip"), Name("kp"), Name("out"), Name("ak")
# Names the error path and the annotation functions use (never inlined, so never renamed).
KEY, EV = Name("key"), Name("ev")


@dataclass
class Branch:
    """The fast checks of one node for a value of one exact Python type: each keyword returns
    `if ...: return False` statements on `x`, in the scope of the body they go into."""

    m: ModuleEmitter
    node: ir.Node
    plan: NodePlan
    exact: str  # "dict", "list", "str", "int", "float", "bool" or "None"
    x: Name
    scope: Scope


@dataclass
class General:
    """The in-place checks of one node (allOf, oneOf, $ref...), on a value of any type."""

    m: ModuleEmitter
    node: ir.Node
    x: Name
    scope: Scope


@dataclass
class ErrorContext:
    """The error checks of one node: `x` at instance location `ip`, keyword location `kp`."""

    m: ModuleEmitter
    node: ir.Node
    plan: NodePlan


@dataclass
class Evaluation:
    """The keys or indices a node's keywords evaluate, for unevaluated*: statements for objects,
    for arrays, and for in-place subschemas (whose annotations count only when they hold)."""

    m: ModuleEmitter
    objects: list[Stmt] = field(default_factory=list)
    arrays: list[Stmt] = field(default_factory=list)
    in_place: list[Stmt] = field(default_factory=list)


def ptr(*tokens: str | int) -> Lit:
    """A literal JSON-pointer suffix, escaped at compile time."""
    return lit("".join("/" + escape_pointer_token(str(t)) for t in tokens))


def short(m: ModuleEmitter, x: Expr = X) -> Call:
    """A bounded text of a value, for a message."""
    return call(m.prim("_short"), x)


def message(m: ModuleEmitter, text: str) -> Expr:
    """`_short(x) + text`: the message of most errors."""
    return BinOp(short(m), "+", lit(text))


def fail(m: ModuleEmitter, text: Expr, suffix: Expr, at: Expr = IP) -> ExprStmt:
    """An error at keyword location kp + suffix (a literal pointer suffix, see ptr)."""
    return ExprStmt(call(m.prim("_fail"), OUT, text, at, KP, AK, suffix))


def at_key(m: ModuleEmitter) -> Expr:
    """The instance location of the member `key` of the current object or array."""
    return BinOp(BinOp(IP, "+", lit("/")), "+", call(m.prim("_esc"), KEY))


def through_ref(ref: ir.Check, *tokens: str | int) -> Expr:
    """The keyword location past a reference at kp + `tokens`: its keyword, and one `$ref` per
    plain reference hop lowering followed."""
    return BinOp(KP, "+", ptr(*tokens, ref.keyword, *["$ref"] * ref.hops))  # type: ignore[attr-defined]


def ecall_parts(m: ModuleEmitter, node: ir.Node, *tokens: str | int) -> tuple[Name, Expr, Expr]:
    """The error function, keyword location and absolute location of a call of `node`'s errors
    at kp + the pointer `tokens`. A plain reference calls its target directly, with the location
    its own error function would pass."""
    ref = m.plan.inlining.plain_ref(node)
    if ref is not None:
        return m.error_fn(m.target(ref)), through_ref(ref, *tokens), lit(ref.absolute)  # type: ignore[attr-defined]
    suffix = ptr(*tokens)
    return m.error_fn(node), BinOp(KP, "+", suffix), and_(AK, BinOp(AK, "+", suffix))


def ecall(m: ModuleEmitter, node: ir.Node, arg: Expr, at: Expr, *tokens: str | int) -> ExprStmt:
    """A call of `node`'s error function on `arg`, at instance location `at`."""
    function, where, absolute = ecall_parts(m, node, *tokens)
    return ExprStmt(Call(function, (arg, at, where, OUT, absolute, *m.scope_args())))
