"""oneOf and anyOf: every alternative is tried, except where the data tells which alternative alone
can pass. Four dispatches, tried in turn (each opens an `if` chain that the general test of every
alternative ends, as an `elif`, for the values the dispatch is not about):

- by type: alternatives with disjoint types (`string`, `array`, `object`) are picked by the value's
  exact type;
- by a discriminating property: object alternatives told apart by one property's string const/enum
  (FHIR's resourceType, GeoJSON's type, Swagger's parameter `in`) are picked from a table (and
  when every such enum holds strings alone, the property as another JSON type fails them all);
- by a key: closed object alternatives (additionalProperties false) that each require a name the
  others do not allow (`{"text": ...}` or `{"refusal": ...}`) are picked by the name the object
  holds;
- counted in place: alternatives whose checks for a type are each a few tests (`{"type": "number",
  "multipleOf": 3}`) are counted without calls, from their tests' negations.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import ir
from ..plan.parts import ObjectNames
from . import exact as types
from .fast import check_in_place, fast_branch, type_test
from .names import Scope
from .tree import (
    FALSE,
    NONE,
    RETURN_FALSE,
    TRUE,
    Assign,
    BoolOp,
    Call,
    Compare,
    Display,
    Expr,
    If,
    Name,
    Not,
    Paren,
    Pass,
    Stmt,
    Subscript,
    Sum,
    and_,
    call,
    fail_if,
    if_,
    is_fail,
    lit,
    method,
    or_,
    without_comments,
)

if TYPE_CHECKING:
    from .module import ModuleEmitter

# A dispatch: statements before an `if` chain, and its arms (test, body); the caller ends the chain.
Dispatch = tuple[list[Stmt], list[tuple[Expr, tuple[Stmt, ...]]]]
Alternatives = tuple[ir.Node, ...]


def alternatives(
    m: ModuleEmitter, schemas: Alternatives, one: bool, x: Name, scope: Scope
) -> list[Stmt]:
    """The fast check of oneOf (`one`) or anyOf."""
    if not one and any(ir.always_true(s) for s in schemas):
        return []
    calls = [m.call(s, x) for s in schemas]
    dispatched = None
    if not m.dynamic and len(schemas) >= 2:  # in dynamic mode a call also needs its scope
        dispatched = (
            _by_type(m, schemas, x, scope)
            or _by_const(m, schemas, x, scope)
            or _by_key(m, schemas, x)
            or _counted(m, schemas, x, scope, one)
        )
    final = Compare(Paren(Sum(tuple(calls))), "!=", lit(1)) if one else Not(Paren(or_(*calls)))
    prelude, arms = dispatched or ([], [])
    return prelude + [If(tuple(arms) + ((final, (RETURN_FALSE,)),))]


def passes_as_expression(
    m: ModuleEmitter, node: ir.Node, exact: str, x: Name, scope: Scope
) -> Expr | None:
    """An expression on `x` that is true when a value of this exact type passes `node`, when its
    fast checks for that type are only `if C: return False` tests (then it is `not C and ...`,
    negated on the tree); else None."""
    if node.boolean is not None:
        return lit(node.boolean)
    block = without_comments(fast_branch(m, node, exact, x, scope))  # (an expression has none)
    if not block:
        return TRUE
    if is_fail(block):
        return FALSE
    from ..plan.tuning import INLINE_CHECKS

    if len(block) > INLINE_CHECKS:
        return None
    tests: list[Expr] = []
    for stmt in block:
        if not (
            isinstance(stmt, If)
            and len(stmt.branches) == 1
            and not stmt.orelse
            and stmt.branches[0][1] == (RETURN_FALSE,)
        ):
            return None
        tests.append(stmt.branches[0][0].negate())
    return and_(*tests)


def _by_type(m: ModuleEmitter, schemas: Alternatives, x: Name, scope: Scope) -> Dispatch | None:
    """Alternatives with disjoint types: a value's exact type picks the one that can pass, or none."""
    nodes = [m.through_refs(n) for n in schemas]
    groups: dict[int | None, list[str]] = {}
    for exact, kind in types.JSON_KIND.items():
        kinds = ("integer", "number") if kind == "number" else (kind,)
        candidates = [i for i, n in enumerate(nodes) if not ir.rejects_kinds(n, kinds)]
        if len(candidates) > 1:
            return None
        groups.setdefault(candidates[0] if candidates else None, []).append(exact)
    t = scope("t")
    arms: list[tuple[Expr, tuple[Stmt, ...]]] = []
    for i, exacts in groups.items():
        if i is None:
            continue
        test = type_test(m, exacts, t, x)
        if ir.always_true(nodes[i]):
            arms.append((test, (Pass(),)))
        elif m.inlinable(nodes[i]):
            arms.append((test, tuple(check_in_place(m, nodes[i], None, var=x)) or (Pass(),)))
        else:
            arms.append((test, (fail_if(Not(m.call(nodes[i], x))),)))
    if None in groups:
        arms.append((type_test(m, groups[None], t, x), (RETURN_FALSE,)))
    return [Assign(t, call("type", x))], arms


def _property_enums(m: ModuleEmitter, node: ir.Node) -> dict[str, tuple[frozenset[str], bool]]:
    """The properties of `node` whose schema has a const or enum: the strings each may be, and
    whether it allows strings alone. An object that has the property, as another string (or, with
    strings alone, as anything else), fails the node (the dispatch only happens when the property
    is there, so it need not be required)."""
    found: dict[str, tuple[frozenset[str], bool]] = {}
    if node.boolean is not None:
        return found
    for check in node.checks:
        for name, sub in check.named_subschemas():
            sub = m.through_refs(sub)
            for other in sub.checks if sub.boolean is None else ():
                allowed = other.constant_values()
                if allowed is not None:
                    strings = frozenset(v for v in allowed if type(v) is str)
                    found[name] = (strings, all(type(v) is str for v in allowed))
    return found


def _by_const(m: ModuleEmitter, schemas: Alternatives, x: Name, scope: Scope) -> Dispatch | None:
    """Object alternatives told apart by one property whose schema names its string values: a dict
    whose property is a string can only pass the alternative that lists that string."""
    if len(schemas) < 3:
        return None
    # alternatives that no object passes (`{"type": "null"}`) take no part
    candidates = [
        n for n in (m.through_refs(s) for s in schemas) if not ir.rejects_kinds(n, ("object",))
    ]
    if len(candidates) < 2:
        return None
    values = [_property_enums(m, node) for node in candidates]
    for prop in sorted(set.intersection(*(set(v) for v in values))):
        entries = [
            (s, m.fast_fn(node)) for node, v in zip(candidates, values) for s in sorted(v[prop][0])
        ]
        if len({s for s, _ in entries}) == len(entries):  # each string names one alternative
            break
    else:
        return None
    table = m.constant(
        "D",
        Display("dict", ()),
        key="D" + repr((prop, [(s, f.id) for s, f in entries])),
        annotation="dict[str, Any]",
    )
    m.late_table(table, lambda: [Assign(Subscript(table, lit(value)), fn) for value, fn in entries])
    # the property's value, looked up once (_MISSING when x is no dict or has no such name): the
    # simplify pass drops the type test where the branch decided it, and copies the look-up from
    # a local that already holds it (the alternatives' own checks of the property, in place)
    f, d, missing = scope("f"), scope("d"), m.prim("_MISSING")
    looked_up = Assign(d, method(x, "get", lit(prop), missing))
    prelude: list[Stmt] = [
        if_(type_test(m, ["dict"], call("type", x), x), [looked_up], [Assign(d, missing)])
    ]
    body = (
        Assign(f, method(table, "get", d)),
        fail_if(or_(Compare(f, "is", NONE), Not(Call(f, (x,))))),
    )
    arms: list[tuple[Expr, tuple[Stmt, ...]]] = [
        (Compare(call("type", d), "is", Name("str")), body)
    ]
    if all(v[prop][1] for v in values):
        # the property there as another JSON type (`"resourceType": 0`) is no string of any
        # alternative's enum: every alternative fails, without trying them (_MISSING is of no
        # JSON type)
        others = [e for e in types.JSON_KIND if e != "str"]
        arms.append((type_test(m, others, call("type", d), d), (RETURN_FALSE,)))
    return prelude, arms


def _closed_names(m: ModuleEmitter, node: ir.Node) -> tuple[frozenset[str] | None, list[str]]:
    """(the only names an object passing `node` may have, where its own additionalProperties is
    false with no patternProperties, else None; the names it requires, sorted): its object plan's
    closed and present names (keywords/objects.py)."""
    names = m.plan.node(node).part(ObjectNames)
    return names.closed_names(), sorted(names.required_names())


def _by_key(m: ModuleEmitter, schemas: Alternatives, x: Name) -> Dispatch | None:
    """Closed object alternatives told apart by a name each requires and the others do not
    allow (`{"text": ...}` or `{"refusal": ...}`): a dict holding that name can only pass that
    alternative, and a dict holding none of the names passes none."""
    nodes = [m.through_refs(s) for s in schemas]
    candidates = [i for i, n in enumerate(nodes) if not ir.rejects_kinds(n, ("object",))]
    names = [_closed_names(m, nodes[i]) for i in candidates]
    if len(candidates) < 2 or any(allowed is None for allowed, _ in names):
        return None
    keys: list[str] = []
    for position, (_, required) in enumerate(names):
        others = [allowed for other, (allowed, _) in enumerate(names) if other != position]
        key = next(
            (
                k
                for k in required
                if all(allowed is not None and k not in allowed for allowed in others)
            ),
            None,
        )
        if key is None:
            return None
        keys.append(key)
    arms: list[tuple[Expr, tuple[Stmt, ...]]] = []
    for i, key in zip(candidates, keys):
        node = nodes[i]
        block = (
            check_in_place(m, node, None, var=x)
            if m.inlinable(node)
            else [fail_if(Not(m.call(node, x)))]
        )
        arms.append((Compare(lit(key), "in", x), tuple(block) or (Pass(),)))
    return [], [(type_test(m, ["dict"], call("type", x), x), (If(tuple(arms), (RETURN_FALSE,)),))]


def _counted(
    m: ModuleEmitter, schemas: Alternatives, x: Name, scope: Scope, one: bool
) -> Dispatch | None:
    """For the types where every alternative is a few tests, count them in place: `t = type(x)` /
    `if t is int: if (not (x % 3)) + (not (x % 5)) != 1: return False`."""
    nodes = [m.through_refs(n) for n in schemas]
    if any(
        n.resource is not None
        or any(c.applies_to is None and not c.on_every_type for c in n.checks)
        for n in nodes
        if n.boolean is None
    ):
        return None  # an alternative with in-place applicators (allOf, $ref...) is called
    if any(n in m.plan.recursive for n in nodes):
        return None  # a recursion head is always called (plan/recursion.py)
    groups: dict[tuple[str, Expr | None], list[str]] = {}
    for exact in types.JSON_KIND:
        tests = [passes_as_expression(m, n, exact, x, scope) for n in nodes]
        if all(t is not None for t in tests):  # (else the calls decide for this type)
            groups.setdefault(_count_outcome([t for t in tests if t is not None], one), []).append(
                exact
            )
    if not any(kind == "test" for kind, _ in groups):
        return None
    t = scope("t")
    arms: list[tuple[Expr, tuple[Stmt, ...]]] = []
    # the types with something to test first, the ones that fail outright last
    for (kind, condition), exacts in sorted(
        groups.items(), key=lambda group: group[0][0] == "fail"
    ):
        body: Stmt = Pass() if kind == "pass" else RETURN_FALSE if kind == "fail" else fail_if(condition)  # type: ignore[arg-type]
        arms.append((type_test(m, exacts, t, x), (body,)))
    return [Assign(t, call("type", x))], arms


def _count_outcome(tests: list[Expr], one: bool) -> tuple[str, Expr | None]:
    """What oneOf (`one`) or anyOf makes of its alternatives' pass expressions for one type:
    ("pass", None), ("fail", None) or ("test", the condition on which it fails)."""
    passing = sum(t == TRUE for t in tests)
    open_tests = [t for t in tests if t not in (TRUE, FALSE)]
    if not one:
        if passing:
            return ("pass", None)
        return ("test", or_(*open_tests).negate()) if open_tests else ("fail", None)
    if passing > 1 or (passing == 0 and not open_tests):
        return ("fail", None)
    if passing == 1:
        return ("test", or_(*open_tests)) if open_tests else ("pass", None)
    if len(open_tests) == 1:
        return ("test", open_tests[0].negate())
    return ("test", Compare(Sum(tuple(_as_bool(t) for t in open_tests)), "!=", lit(1)))


def _as_bool(test: Expr) -> Expr:
    """`test` as a term of a count: a value's truth (`x`, the negation of minLength 1's `not x`)
    is a str, list or dict, which `+` would concatenate or refuse, so it is counted as `bool(x)`."""
    if isinstance(test, Name):
        return call("bool", test)
    if isinstance(test, BoolOp):
        return BoolOp(test.op, tuple(_as_bool(value) for value in test.values))
    return test
