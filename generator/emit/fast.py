"""The fast path: `_vN(x) -> bool`, one test of the value's exact type, then the checks of that
type (each keyword's `if ...: return False` lines), then the in-place checks (allOf, $ref...);
an in-place check estimated cheaper than the typed checks runs before them (plan/cost.py).

The exact built-in types json.loads makes are dispatched on; any other value (a Decimal, a dict
subclass) is handed to the error path, which answers for every type. A small subschema of a
property or item is checked in place: its fast body is emitted again, in a new scope (its locals
get a suffix), with `return False` falling through to the enclosing function.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import ir
from ..codegen import literal
from . import exact as types
from .context import Branch, General
from .fuse import fuse
from .names import Scope
from .simplify import names_read, simplify
from .tree import (
    FALSE,
    NONE,
    RETURN_FALSE,
    TRUE,
    Assign,
    Call,
    Compare,
    Display,
    Expr,
    For,
    If,
    Name,
    Not,
    Paren,
    Pass,
    Return,
    Stmt,
    and_,
    call,
    fail_if,
    if_,
    is_fail,
    lit,
    method,
    or_,
)

if TYPE_CHECKING:
    from .module import Function, ModuleEmitter

# How often fuse.py and simplify run again on a fast function: each round fuses one level of the
# tests two rules share (the property's type, then its key, then its value's type...).
FUSE_ROUNDS = 4

# A type branch: the exact types that share it, and its checks.
Branches = list[tuple[list[str], list[Stmt]]]


def fast_function(m: ModuleEmitter, node: ir.Node) -> Function:
    from .module import Function

    doc = literal("Fast path of the subschema at " + (node.pointer or "the root") + ".")
    body = fast_body(m, node, Name("x"), Scope(), inline=False)
    # the branches a type test made before decides (an inlined subschema's own dispatch) go
    type_sets, key_sets = m.type_sets, m.key_sets
    body = simplify(body, type_sets, key_sets)
    # tests of one value made once (fuse.py), then simplified again, while that changes something
    for _ in range(FUSE_ROUNDS):
        fused = fuse(body)
        if fused is None:
            break
        body = simplify(fused, type_sets, key_sets)
    return Function(m.function_name("fast", node), m.params("fast"), doc, body)


def fast_body(m: ModuleEmitter, node: ir.Node, x: Name, scope: Scope, inline: bool) -> list[Stmt]:
    """The fast checks of a node on `x`: a function body, or (inline) statements that `return
    False` from the enclosing function on failure and fall through on success."""
    if node.boolean is not None:
        return [] if inline and node.boolean else [Return(lit(node.boolean))]
    body = m.prologue(node)
    typed = [c for c in node.checks if c.applies_to is not None or c.on_every_type]
    general = [c for c in node.checks if c.applies_to is None and not c.on_every_type]
    # In-place rules run where their cost estimate puts them among the typed checks (plan/cost.py),
    # so a failing instance is answered before a costlier walk; any order gives the same answer.
    # Where one type alone is checked (others fail), they join its branch; else the cheaper ones
    # run before the dispatch and the others after it.
    if node.types is not None or typed:
        placed, left = dispatch(m, node, x, scope, inline, general)
        early, late = m.plan.costs.split(node, left)
        body += (
            _general_checks(m, node, x, scope, early)
            + placed
            + _general_checks(m, node, x, scope, late)
        )
    else:
        body += _general_checks(m, node, x, scope, general)
    if not inline:
        body.append(Return(TRUE))
    return body


def _general_checks(
    m: ModuleEmitter, node: ir.Node, x: Name, scope: Scope, checks: list[ir.Check]
) -> list[Stmt]:
    kinds = m.checks
    out: list[Stmt] = []
    for check in checks:
        emit = kinds[type(check)].general
        assert emit is not None, type(check)
        out += emit(General(m, node, x, scope), check)
    return out


# A scalar's checks read it through a local declared with its type (`xi: int = x`), in a function's
# own dispatch: mypy, so mypyc, then knows the type (a `t is int` test tells it nothing of x), and
# the native code compares a C integer, or calls str's C functions, instead of Python's
# generic protocols. Pure Python pays a store and a load (local annotations are not evaluated); not
# in inlined copies, where the extra locals of one large function cost its every call
# (docs/performance.md, "Measurements behind the rules").
_TYPED = {"int": ("xi", "int"), "float": ("xf", "float"), "str": ("xs", "str")}


def fast_branch(
    m: ModuleEmitter,
    node: ir.Node,
    exact: str,
    x: Name,
    scope: Scope,
    general: list[ir.Check] | None = None,
    typed: bool = False,
) -> list[Stmt]:
    """The fast checks of `node` for a value of one exact type; with `general`, its in-place
    checks too, each before the first typed check estimated costlier; with `typed`, a scalar's
    checks read a local declared with its type (_TYPED)."""
    kind = types.JSON_KIND[exact]
    out: list[Stmt] = []
    if node.types is not None and kind not in node.types:
        if exact == "float" and "integer" in node.types and node.float_integers:
            out.append(fail_if(Not(method(x, "is_integer"))))
        elif exact == "float" and "integer" in node.types:
            return [RETURN_FALSE]
        elif not (exact == "int" and "integer" in node.types):
            return [RETURN_FALSE]
    kinds = m.checks
    branch: Branch | None = None  # (made when a check of this type is met: most types have none)
    waiting = list(general or ())
    value = scope(_TYPED[exact][0]) if typed and exact in _TYPED else x
    for check in node.checks:
        if check.applies_to == kind or check.on_every_type:
            if branch is None:
                branch = Branch(m, node, m.plan.node(node), exact, value, scope)
            cost = m.plan.costs.check(check)
            while waiting and m.plan.costs.check(waiting[0]) < cost:
                out += _general_checks(m, node, x, scope, [waiting.pop(0)])
            emit = kinds[type(check)].fast
            assert emit is not None, type(check)
            out += emit(branch, check)
    if not out or out[-1] != RETURN_FALSE:  # (else the type fails whatever follows)
        out += _general_checks(m, node, x, scope, waiting)
    if value is not x and value.id in names_read(out):
        out.insert(0, Assign(value, x, _TYPED[exact][1]))
    return out


# -- checking a subschema in place ----------------------------------------------------------------
def next_suffix(m: ModuleEmitter) -> str:
    """The suffix the next inlined copy's scope will have (for a loop variable it is bound to)."""
    return m.next_suffix()


def check_in_place(
    m: ModuleEmitter,
    node: ir.Node,
    value: Expr | None,
    var: Name | None = None,
    scope: Scope | None = None,
) -> list[Stmt]:
    """Statements that check `node` on `value` (or on the name `var`) without a call: the node's
    fast body in a new scope (or in `scope`, one made for `var` and used by nothing else)."""
    if scope is None:
        scope = m.new_scope()
    target = var or scope("x")
    m.inline_depth += 1
    try:
        body = fast_body(m, node, target, scope, inline=True)
    finally:
        m.inline_depth -= 1
    if not body:
        return []
    return ([Assign(target, value)] if value is not None else []) + body


# An enclosing statement of an inlined check: ("if", test, None) or ("for", target, iterable).
Header = tuple[str, Expr, "Expr | None"]


def check_under(
    m: ModuleEmitter,
    headers: list[Header],
    node: ir.Node,
    value: Expr | None = None,
    var: Name | None = None,
    scope: Scope | None = None,
) -> list[Stmt]:
    """check_in_place under `headers` (each nested in the one before), emitted only when the node
    has something to check."""
    block = check_in_place(m, node, value, var=var, scope=scope)
    if not block:
        return []
    for kind, first, second in reversed(headers):
        if kind == "if":
            block = [if_(first, block)]
        else:
            assert second is not None
            block = [For(first, second, tuple(block))]
    return block


# -- dispatch on the exact type ---------------------------------------------------------------------
def type_test(m: ModuleEmitter, exacts: list[str], t: Expr, x: Expr, negate: bool = False) -> Expr:
    """`t` (the value's type, a name or `type(x)`) is one of `exacts` (or, negated, none)."""
    if len(exacts) >= types.TYPE_SET:  # one set lookup instead of a long chain of `is` tests
        members = Display("set", tuple(types.type_value(e) for e in exacts))
        table = m.constant("Y", call("frozenset", members), key="Y" + " ".join(exacts))
        m.type_sets[table.id] = frozenset(exacts)  # (for simplify.py)
        return Compare(t, "not in" if negate else "in", table)
    tests = [
        (
            Compare(x, "is not" if negate else "is", NONE)
            if e == "None"
            else Compare(t, "is not" if negate else "is", Name(types.TYPE_NAMES[e]))
        )
        for e in exacts
    ]
    return and_(*tests) if negate else or_(*tests)


def ok_call(m: ModuleEmitter, node: ir.Node, x: Expr) -> Call:
    """Whether the error path finds no error: the answer for a value of no exact JSON type."""
    return Call(m.prim("_ok"), (m.error_fn(node), x, *m.scope_args()))


def dispatch(
    m: ModuleEmitter, node: ir.Node, x: Name, scope: Scope, inline: bool, general: list[ir.Check]
) -> tuple[list[Stmt], list[ir.Check]]:
    """One branch per group of exact types with the same checks, the common type first; and the
    in-place checks it did not place (it places them in the branch of the one type checked, when
    every other type fails outright)."""
    order = list(types.JSON_KIND)
    if node.types is not None:
        preferred = [e for t in node.types for e in types.EXACT_OF[t]]
        order = list(dict.fromkeys(preferred + order))
    # a node of one type that has one exact type (an object, an array, a string...): every other
    # type fails, so its in-place checks go into that type's branch
    single = node.types is not None and len({e for t in node.types for e in types.EXACT_OF[t]}) == 1
    branches: Branches = []
    for exact in order:
        block = fast_branch(
            m, node, exact, x, scope, general if single and exact == order[0] else None, not inline
        )
        if branches and branches[-1][1] == block:
            branches[-1][0].append(exact)
        else:
            branches.append(([exact], block))
    left = [] if single else general
    shortcut = _dispatch_type_only(m, node, branches, x, inline)
    if shortcut is not None:
        return shortcut, left
    one = _one_checked_type(branches)
    if one is not None:
        return _dispatch_one_type(m, node, branches, one, x), left
    return _dispatch_all(m, node, branches, x, scope, inline), left


def _dispatch_all(
    m: ModuleEmitter, node: ir.Node, branches: Branches, x: Name, scope: Scope, inline: bool
) -> list[Stmt]:
    """The general dispatch: `t = type(x)`, then a branch per group of types."""
    outer: Expr | None = None
    if not branches[0][1]:
        # the first type passes with nothing to check: test only it on the common path,
        # `if type(x) is not int:`, and dispatch the others below that
        outer = type_test(m, branches[0][0], call("type", x), x, negate=True)
        branches = branches[1:]
    t = scope("t")
    last: Stmt = fail_if(Not(ok_call(m, node, x))) if inline else Return(ok_call(m, node, x))
    first: list[tuple[Expr, tuple[Stmt, ...]]] = []
    if branches[0][0] in (["dict"], ["list"]) and len(branches) > 1:
        # an object or array tested on `type(x)` itself, the others on `t` past it: the same one
        # type() for a value of that type, and mypy (so mypyc) knows x's type in its branch (`t is
        # dict` tells it nothing of x: a native dict branch would look keys up generically). (Not
        # for a scalar: its branch gains little natively, and a value of another type would pay a
        # second type() in pure Python.)
        (exacts, block), branches = branches[0], branches[1:]
        first = [(type_test(m, exacts, call("type", x), x), tuple(block) or (Pass(),))]
    if first and len(branches) == 1:  # one test past it: on type(x) too, no local
        chain: list[Stmt] = [
            If(
                (
                    *first,
                    (
                        type_test(m, branches[0][0], call("type", x), x),
                        tuple(branches[0][1]) or (Pass(),),
                    ),
                ),
                (last,),
            )
        ]
    else:
        arms = tuple(
            (type_test(m, exacts, t, x), tuple(block) or (Pass(),)) for exacts, block in branches
        )
        chain = [Assign(t, call("type", x)), If(arms, (last,))]
        if first:
            chain = [If(tuple(first), tuple(chain))]
    return [if_(outer, chain)] if outer is not None else chain


def _one_checked_type(branches: Branches) -> int | None:
    """The index of the one branch with checks, when every other fails outright."""
    checked = [i for i, (_, block) in enumerate(branches) if not is_fail(block)]
    if len(checked) != 1 or not branches[checked[0]][1]:
        return None
    return checked[0]


def _dispatch_one_type(
    m: ModuleEmitter, node: ir.Node, branches: Branches, one: int, x: Name
) -> list[Stmt]:
    """A node with checks for one type and every other type failing outright (an object with
    properties, an array with items) is two tests, with no local: `if type(x) is list: ...`
    then `elif type(x) in _Y or not _ok(_eN, x): return False` (the error path answers for a
    value of no exact JSON type, every check of the node included)."""
    (first, block), rest = branches[one], branches[:one] + branches[one + 1 :]
    tx = call("type", x)
    test = type_test(m, first, tx, x)
    other = Not(ok_call(m, node, x))
    rejected = [e for exacts, _ in rest for e in exacts]
    otherwise = or_(type_test(m, rejected, tx, x), other) if rejected else other
    return [If(((test, tuple(block)), (otherwise, (RETURN_FALSE,))))]


def _dispatch_type_only(
    m: ModuleEmitter, node: ir.Node, branches: Branches, x: Name, inline: bool
) -> list[Stmt] | None:
    """A node whose only fast check is its type (every exact type passes or fails outright) is one
    test, with no local: `if type(x) is not float and type(x) is not int: ...`."""
    accepted = [e for exacts, block in branches if not block for e in exacts]
    rejected = [e for exacts, block in branches if is_fail(block) for e in exacts]
    if not accepted or len(accepted) + len(rejected) != len(types.JSON_KIND):
        return None
    tx = call("type", x)
    test = type_test(m, accepted, tx, x, negate=True)
    other = ok_call(m, node, x)
    inner: Stmt
    if inline:
        inner = fail_if(or_(type_test(m, rejected, tx, x), Not(other)) if rejected else Not(other))
    else:
        inner = Return(
            and_(type_test(m, rejected, tx, x, negate=True), other) if rejected else other
        )
    return [if_(test, [inner])]


def passes_by_type(m: ModuleEmitter, node: ir.Node, x: Name, scope: Scope) -> Expr | None:
    """For a type alone (`not: {type: null}`): an expression that is true when `x` passes it,
    without a call; values of no plain JSON type (subclasses, Decimal) ask its error path."""
    from .alternatives import passes_as_expression

    if not m.type_only(node) or m.dynamic:
        return None
    outcomes = {exact: passes_as_expression(m, node, exact, x, scope) for exact in types.JSON_KIND}
    accepted = [exact for exact, passes in outcomes.items() if passes == TRUE]
    if not accepted or any(passes not in (TRUE, FALSE) for passes in outcomes.values()):
        return None
    tx = call("type", x)
    other = Paren(
        and_(
            type_test(m, list(types.JSON_KIND), tx, x, negate=True),
            Call(m.prim("_ok"), (m.error_fn(node), x)),
        )
    )
    return or_(type_test(m, accepted, tx, x), other)
