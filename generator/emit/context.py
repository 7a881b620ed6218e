"""What a keyword unit's emission gets: where the code goes (the node, the value's name, the local
scope, the node's plan) and the shared pieces every keyword writes with (an error and its spec
constant, a call of a subschema's error function, the rows of subschemas a primitive tries, a
pointer suffix)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Protocol

from .. import ir
from ..errors import escape_pointer_token
from ..plan.parts import NodePlan
from .exact import JSON_KIND
from .names import Scope
from .tree import (
    NONE,
    Assign,
    BinOp,
    Call,
    Compare,
    Expr,
    ExprStmt,
    Lit,
    Name,
    Stmt,
    Tuple,
    and_,
    call,
    if_,
    lit,
    method,
)

if TYPE_CHECKING:
    from .module import ModuleEmitter

# The fixed names of emitted functions: the value, and the error path's instance location, keyword
# location, error list and absolute keyword location.
X, IP, KP, OUT, AK = Name("x"), Name("ip"), Name("kp"), Name("out"), Name("ak")
# Names the error path and the annotation functions use (never inlined, so never renamed).
KEY, EV = Name("key"), Name("ev")


class CheckEmitters(Protocol):
    """What the emitter reads of a check class's entry in the keyword registry (CheckKind)."""

    @property
    def fast(self) -> Callable[[Branch, Any], list[Stmt]] | None: ...

    @property
    def general(self) -> Callable[[General, Any], list[Stmt]] | None: ...

    @property
    def error(self) -> Callable[[ErrorContext, Any], list[Stmt]] | None: ...

    @property
    def evaluates(self) -> Callable[[Evaluation, Any], None] | None: ...


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
    # required properties already looked up (`x1 = x.get("a", _MISSING)`): name -> the scope of
    # the property's checks, whose `x` (scope("x")) holds the value they read instead of `x["a"]`
    fetched: dict[str, Scope] = field(default_factory=dict)

    @property
    def kind(self) -> str:
        """The JSON type of the exact type ("int" and "float": "number")."""
        return JSON_KIND[self.exact]


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


def merge(call_: Expr) -> list[Stmt]:
    """Add what an annotation function found (`m.annotations`) to `ev`, if its subschema held."""
    r = Name("r")
    return [Assign(r, call_), if_(Compare(r, "is not", NONE), [ExprStmt(method(EV, "update", r))])]


def ptr(*tokens: str | int) -> Lit:
    """A literal JSON-pointer suffix, escaped at compile time."""
    return lit(pointer(*tokens))


def pointer(*tokens: str | int) -> str:
    return "".join("/" + escape_pointer_token(str(t)) for t in tokens)


# -- errors ------------------------------------------------------------------------------------------
# Every error is made after a failure by a primitive (primitives.py: _fail, _required_errors,
# _alternatives...) from a module constant of its call site, the *spec*: (message template, params,
# the subschema's `type` names). A template is fixed text with `{instance}` (the failing value) and
# `{name}` (params[name]) placeholders, filled with JSON text when the error is made; the keyword
# is the last token of the keyword location the call passes. A keyword unit declares its templates
# in its MESSAGES (the reference interpreter fills the same ones).
def error_spec(
    m: ModuleEmitter, node: ir.Node, template: str | tuple[str, ...], params: Any = None
) -> Name:
    """The spec constant of an error site of `node`. params: a dict of JSON values (or an
    expression of one, naming module constants), or what the primitive that makes the error reads
    there (_member_error: the parameter's name)."""
    types = tuple(node.types) if node.types is not None else None
    value = (
        Tuple((lit(template), params, lit(types)))
        if isinstance(params, Expr)
        else m.value((template, params, types))
    )
    return m.constant("A", value)


def fail(
    e: ErrorContext, keyword: str, template: str, params: dict[str, Any] | Expr | None = None
) -> ExprStmt:
    """An error of `keyword` (at kp + /keyword; "false": the false schema, at kp) on the value x."""
    m = e.m
    spec = error_spec(m, e.node, template, params if params is not None else {})
    return ExprStmt(
        call(
            m.prim("_fail"), OUT, X, spec, IP, KP, AK, ptr() if keyword == "false" else ptr(keyword)
        )
    )


def member_error(m: ModuleEmitter, spec: Name, keyword: str) -> Stmt:
    """The error of the member `key` of x, which no schema allows (a false additionalProperties,
    unevaluatedProperties or unevaluatedItems)."""
    return ExprStmt(
        call(m.prim("_member_error"), OUT, X, KEY, spec, IP, KP, AK, lit("/" + keyword))
    )


def at_key(m: ModuleEmitter) -> Expr:
    """The instance location of the member `key` of the current object or array."""
    return BinOp(BinOp(IP, "+", lit("/")), "+", call(m.prim("_esc"), KEY))


def through_ref(ref: ir.Check, *tokens: str | int) -> Expr:
    """The keyword location past a reference at kp + `tokens`: its keyword, and one `$ref` per
    plain reference hop lowering followed."""
    return BinOp(KP, "+", ptr(*tokens, ref.keyword, *["$ref"] * ref.hops))  # type: ignore[attr-defined]


def branch_parts(
    m: ModuleEmitter, node: ir.Node, *tokens: str | int
) -> tuple[Name, str, str | None]:
    """The error function of a call of `node`'s errors at kp + the pointer `tokens`, the keyword
    location suffix it is called with, and its absolute location (None: ak + the suffix). A plain
    reference calls its target directly, with the location its own error function would pass."""
    ref = m.plan.inlining.plain_ref(node)
    if ref is not None:
        suffix = pointer(*tokens, ref.keyword, *["$ref"] * ref.hops)  # type: ignore[attr-defined]
        return m.error_fn(m.target(ref)), suffix, ref.absolute  # type: ignore[attr-defined]
    return m.error_fn(node), pointer(*tokens), None


def ecall_parts(m: ModuleEmitter, node: ir.Node, *tokens: str | int) -> tuple[Name, Expr, Expr]:
    """The error function, keyword location and absolute location of a call of `node`'s errors
    at kp + the pointer `tokens` (see branch_parts)."""
    function, suffix, absolute = branch_parts(m, node, *tokens)
    if absolute is not None:
        return function, BinOp(KP, "+", lit(suffix)), lit(absolute)
    return function, BinOp(KP, "+", lit(suffix)), and_(AK, BinOp(AK, "+", lit(suffix)))


def ecall(m: ModuleEmitter, node: ir.Node, arg: Expr, at: Expr, *tokens: str | int) -> ExprStmt:
    """A call of `node`'s error function on `arg`, at instance location `at`."""
    function, where, absolute = ecall_parts(m, node, *tokens)
    return ExprStmt(Call(function, (arg, at, where, OUT, absolute, *m.scope_args())))


def branch_rows(m: ModuleEmitter, nodes: list[tuple[ir.Node, tuple[str | int, ...]]]) -> Name:
    """A module constant (after the functions) of rows for the primitives that try subschemas
    after a failure (_alternatives, _contains_errors): per subschema at kp + its tokens,
    (fast function, error function, keyword location suffix, absolute location or None)."""
    rows = []
    for node, tokens in nodes:
        function, suffix, absolute = branch_parts(m, node, *tokens)
        rows.append(Tuple((m.fast_fn(m.through_refs(node)), function, lit(suffix), lit(absolute))))
    return m.consts.late_constant("B", Tuple(tuple(rows)))
