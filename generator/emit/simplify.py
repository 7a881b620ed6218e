"""A pass over a function's tree that removes the branches decided by a type test made before.

The fast path tests a value's exact type once, then emits each keyword's checks for that type; a
subschema checked in place (an alternative of oneOf, an allOf member) dispatches on the type again,
inside a branch that has already decided it: `if t is dict: if type(x) is not dict: ...` can never
run. This pass follows what each `if` arm tells about a value's exact type (`type(x) is dict`,
`t in _Y1` where `t = type(x)`, `x is None`, their `and`/`or`/`not`) down the tree, and drops the
arms that cannot run, keeping a decided arm's body in place of its `if`. Type tests have no side
effects, so dropping one changes no answer; only tests decided by types alone are evaluated.
What follows a statement that always leaves its block (a `return`, a `break`, an `if` whose every
arm does) goes too, as does an `else:` left holding only `pass`.

It also shares look-ups: a value read again by key (`x9 = x["entry"]`, or `x.get("entry",
_MISSING)`) where a local read before still holds it (`x3 = x["entry"]` earlier on every way here,
neither name bound since) is copied from that local (`x9 = x3`): an `if` rule reads the
properties that the walk over them reads again, and each look-up compares the key's text.
(Validation never changes the instance.)
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass
from operator import attrgetter
from typing import Callable, Sequence

from .tree import (
    NONE,
    Assign,
    Attr,
    BoolOp,
    Break,
    Call,
    Compare,
    Expr,
    For,
    If,
    Lit,
    Name,
    Not,
    Paren,
    Pass,
    Return,
    Stmt,
    Subscript,
    Tuple,
    truth,
)

# The exact types the fast path tells apart, and "other" for every other type (Decimal, subclasses).
EXACTS = frozenset({"dict", "list", "str", "int", "float", "bool", "None", "other"})
MISSING = Name("_MISSING")  # (primitives.py: what `x.get(name, _MISSING)` gives for an absent name)
_TYPE_NAMES = {"dict", "list", "str", "int", "float", "bool"}


@dataclass
class Facts:
    """What is known at a point of the code: the exact types each value may have, and which names
    hold `type(value)`."""

    possible: dict[str, frozenset[str]] = field(default_factory=dict)
    type_of: dict[str, str] = field(default_factory=dict)  # `t` -> `x` after `t = type(x)`
    # the keys a dict is known to hold (their literal text), after `if "a" not in x: return False`
    # or `if x.keys() != _K0: return False`
    present: dict[str, frozenset[str]] = field(default_factory=dict)
    # `x1` -> (`x`, the key's literal text) after `x1 = x.get("a", _MISSING)`: `x1 is _MISSING`
    # is then a test of whether x holds "a"
    fetched: dict[str, tuple[str, str]] = field(default_factory=dict)
    # (`x`, the key's literal text) -> `x3` after `x3 = x["a"]`: a later `x["a"]` is `x3`
    held: dict[tuple[str, str], str] = field(default_factory=dict)

    def copy(self) -> Facts:
        copied = Facts.__new__(Facts)  # (the dataclass's __init__ would build default dicts first)
        copied.possible, copied.type_of, copied.present = (
            dict(self.possible),
            dict(self.type_of),
            dict(self.present),
        )
        copied.fetched, copied.held = dict(self.fetched), dict(self.held)
        return copied

    def take(self, other: Facts) -> None:
        """Know what `other` knows (a narrowed copy of these facts)."""
        if other is not self:
            self.possible, self.type_of, self.present = other.possible, other.type_of, other.present
            self.fetched, self.held = other.fetched, other.held

    def forget(self, name: str) -> None:
        """`name` is bound anew: nothing is known of it, nor of a `type()` taken of it."""
        self.possible.pop(name, None)
        self.type_of.pop(name, None)
        self.present.pop(name, None)
        self.fetched.pop(name, None)
        for alias in [a for a, value in self.type_of.items() if value == name]:
            del self.type_of[alias]
        for local in [k for k, (value, _) in self.fetched.items() if value == name]:
            del self.fetched[local]
        if self.held:
            for read in [r for r, local in self.held.items() if r[0] == name or local == name]:
                del self.held[read]


class Simplifier:
    def __init__(
        self, type_sets: dict[str, frozenset[str]], key_sets: dict[str, frozenset[str]]
    ) -> None:
        self.type_sets = type_sets  # module constant name -> the exact types its set holds
        self.key_sets = key_sets  # module constant name -> the keys (literal text) its set holds
        # id(statement) -> (the statement, the names it binds): a nested chain's names are asked
        # for again by every chain around it (the statement is kept, so its id stays its own)
        self._bound: dict[int, tuple[Stmt, frozenset[str]]] = {}
        # id(test) -> (the test, what keys_test makes of it), kept the same way
        self._keys: dict[int, tuple[Expr, tuple[str, frozenset[str], bool] | None]] = {}

    def keys_test(self, test: Expr, facts: Facts) -> tuple[str, frozenset[str], bool] | None:
        """(dict, keys, whether they are all there when `test` holds, or when it does not) of a
        test of keys: `"a" in x`, `x.keys() != _K0`, `x.keys() >= _R1`, `x1 is _MISSING` (after
        `x1 = x.get("a", _MISSING)`, a fact). (The others are read once per test: an arm's test is
        asked whether it is decided, then narrowed both ways.)"""
        if (
            isinstance(test, Compare)
            and test.op in ("is", "is not")
            and isinstance(test.left, Name)
            and test.left.id in facts.fetched
            and test.right == MISSING
        ):
            value, key = facts.fetched[test.left.id]
            return value, frozenset({key}), test.op == "is not"
        known = self._keys.get(id(test))
        if known is None:
            known = self._keys[id(test)] = (test, self._keys_test(test))
        return known[1]

    def _keys_test(self, test: Expr) -> tuple[str, frozenset[str], bool] | None:
        if not isinstance(test, Compare):
            return None
        if (
            test.op in ("in", "not in")
            and isinstance(test.left, Lit)
            and isinstance(test.right, Name)
        ):
            return test.right.id, frozenset({test.left.code.text}), test.op == "in"
        left = test.left
        if (
            isinstance(left, Call)
            and isinstance(left.func, Attr)
            and left.func.attr == "keys"
            and not left.args
            and isinstance(left.func.value, Name)
            and isinstance(test.right, Name)
            and test.right.id in self.key_sets
            and test.op in ("==", "!=", ">=")
        ):
            return left.func.value.id, self.key_sets[test.right.id], test.op != "!="
        return None

    # -- what a test says -------------------------------------------------------------------------
    def subject(self, expr: Expr, facts: Facts) -> str | None:
        """The value whose exact type `expr` is (`type(x)`, or a name bound to it)."""
        if (
            isinstance(expr, Call)
            and isinstance(expr.func, Name)
            and expr.func.id == "type"
            and len(expr.args) == 1
            and isinstance(expr.args[0], Name)
        ):
            return expr.args[0].id
        if isinstance(expr, Name):
            return facts.type_of.get(expr.id)
        return None

    def atom(self, test: Expr, facts: Facts) -> tuple[str, frozenset[str]] | None:
        """(value, the exact types for which `test` holds) of a single type test."""
        if not isinstance(test, Compare):
            return None
        if test.op in ("is", "is not") and test.right == NONE and isinstance(test.left, Name):
            held = frozenset({"None"})
            return test.left.id, held if test.op == "is" else EXACTS - held
        value = self.subject(test.left, facts)
        if value is None:
            return None
        if (
            test.op in ("is", "is not")
            and isinstance(test.right, Name)
            and test.right.id in _TYPE_NAMES
        ):
            held = frozenset({test.right.id})
            return value, held if test.op == "is" else EXACTS - held
        if (
            test.op in ("in", "not in")
            and isinstance(test.right, Name)
            and test.right.id in self.type_sets
        ):
            held = self.type_sets[test.right.id]
            return value, held if test.op == "in" else EXACTS - held
        return None

    def decide(self, test: Expr, facts: Facts) -> bool | None:
        """True or False when the known types decide `test` (or it is a constant), else None."""
        constant = truth(test)
        if constant is not None:
            return constant
        if type(test) is Not:
            decided = self.decide(test.operand, facts)
            return None if decided is None else not decided
        if type(test) is not BoolOp and type(test) is not Compare:
            return None  # (a call, a name...: no test of types or keys)
        if type(test) is BoolOp:
            values = [self.decide(v, facts) for v in test.values]
            stop = test.op == "or"  # or: one true decides; and: one false decides
            if stop in values:
                return stop
            return (not stop) if all(v is not None for v in values) else None
        keys = self.keys_test(test, facts)
        if keys is not None and test.op in ("in", "not in", "is", "is not"):
            there = keys[1] <= facts.present.get(keys[0], frozenset())
            return keys[2] if there else None
        found = self.atom(test, facts)
        if found is None:
            return None
        value, held = found
        possible = facts.possible.get(value, EXACTS)
        if possible <= held:
            return True
        return False if not possible & held else None

    def reduce(self, test: Expr, facts: Facts) -> Expr:
        """`test` without the members of an `and` that the facts decide true, or of an `or` that
        they decide false (`len(x) != 1 or "a" not in x` where "a" is known there); `test` itself
        when none is. (Each member is a test of types, keys, names or calls: leaving out one that
        is decided changes no other.)"""
        if type(test) is Paren:
            inner = self.reduce(test.inner, facts)
            return (
                test
                if inner is test.inner
                else inner if type(inner) is not BoolOp else Paren(inner)
            )
        if type(test) is not BoolOp:
            return test
        idle = test.op == "and"  # (what a member that adds nothing is decided to be)
        kept = tuple(
            self.reduce(member, facts)
            for member in test.values
            if self.decide(member, facts) is not idle
        )
        if kept == test.values:
            return test
        return kept[0] if len(kept) == 1 else BoolOp(test.op, kept)

    def narrow(self, test: Expr, facts: Facts, holds: bool) -> Facts:
        """The facts after `test` was found to hold (or not)."""
        if type(test) is Not:
            return self.narrow(test.operand, facts, not holds)
        if type(test) is not BoolOp and type(test) is not Compare:
            return facts  # (a call, a name...: tells nothing of types or keys)
        if type(test) is BoolOp:
            if (test.op == "and") == holds:  # every member holds (and), or none does (not or)
                for member in test.values:
                    facts = self.narrow(member, facts, holds)
            return facts
        keys = self.keys_test(test, facts)
        if keys is not None:
            if keys[2] == holds:  # the keys are all there
                narrowed = facts.copy()
                narrowed.present[keys[0]] = facts.present.get(keys[0], frozenset()) | keys[1]
                return narrowed
            return facts
        found = self.atom(test, facts)
        if found is None:
            return facts
        value, held = found
        narrowed = facts.copy()
        possible = facts.possible.get(value, EXACTS)
        narrowed.possible[value] = possible & held if holds else possible - held
        return narrowed

    # -- the tree ---------------------------------------------------------------------------------
    def block(
        self, block: tuple[Stmt, ...] | list[Stmt], facts: Facts, fresh: bool = False
    ) -> list[Stmt]:
        """`block` simplified where `facts` hold (`fresh`: facts made for it alone, which it may
        change; else it works on a copy)."""
        out: list[Stmt] = []
        if not fresh:
            facts = facts.copy()
        statement = self.statement
        for stmt in block:
            out.extend(statement(stmt, facts))
            if out and _leaves(out[-1]):
                break  # the rest of the block never runs
        return out

    def statement(self, stmt: Stmt, facts: Facts) -> list[Stmt]:
        """`stmt` simplified; `facts` is updated with what it binds."""
        # (tree nodes are never subclassed: exact types are enough)
        if type(stmt) is If:
            return self.if_chain(stmt, facts)
        if type(stmt) is not For and type(stmt) is not Assign:
            return [stmt]  # (a return, a call...: binds nothing)
        if type(stmt) is For:
            for name in self.assigned([stmt]):  # (the body runs again with what it bound)
                facts.forget(name)
            body = tuple(self.block(stmt.body, facts)) or (Pass(),)
            orelse = tuple(self.block(stmt.orelse, facts))
            return [For(stmt.target, stmt.source, body, orelse)]
        if isinstance(stmt, Assign):
            target = stmt.target.id if type(stmt.target) is Name else None
            read, fetched = _read_by_key(stmt.value), _fetched(stmt.value)
            key = read or fetched
            if target is not None and key is not None:
                holder = self.holder(key, facts, subscript=read is not None)
                if holder is not None and holder != target:
                    stmt = Assign(stmt.target, Name(holder), stmt.annotation)
            for name in targets(stmt.target):
                facts.forget(name)
            if target is None:
                return [stmt]
            # (what the value tells is of the name it reads: nothing, when the target is that name,
            # `x = x["a"]`, since the name then holds another value)
            if read is not None and read[0] != target and read not in facts.held:
                facts.held[read] = target
            value = self.subject(stmt.value, facts) if isinstance(stmt.value, Call) else None
            if value is not None and value != target:
                facts.type_of[target] = value
            if fetched is not None and fetched[0] != target:
                facts.fetched[target] = fetched
        return [stmt]

    def holder(self, read: tuple[str, str], facts: Facts, subscript: bool) -> str | None:
        """The local that holds `x["a"]` (`subscript`) or `x.get("a", _MISSING)` here (`read`: x
        and the key's text): one bound to `x["a"]` (which found the key), or to the same
        `x.get("a", _MISSING)`: the same answer, whether or not the key is there, so for `x["a"]`
        only where the key is known to be there."""
        local = facts.held.get(read)
        if local is None and (not subscript or read[1] in facts.present.get(read[0], ())):
            local = next((k for k, fetched in facts.fetched.items() if fetched == read), None)
        return local

    def if_chain(self, stmt: If, facts: Facts) -> list[Stmt]:
        """The chain simplified; `facts` becomes what holds after it."""
        arms: list[tuple[Expr, tuple[Stmt, ...]]] = []
        falling = facts  # the facts where every arm so far was not taken
        for test, body in stmt.branches:
            decided = self.decide(test, falling)
            if decided is False:
                continue  # never runs
            if decided is None:
                test = self.reduce(test, falling)
            narrowed = self.narrow(
                test, falling, True
            )  # (a new Facts, unless the test told nothing)
            if decided is True and not arms:
                # the body runs whenever the chain does: it takes the chain's place, and what it
                # binds is known after it (`falling` is `facts` while no arm is kept)
                facts.take(narrowed)
                return self.block(body, facts, fresh=True)
            inner = tuple(self.block(body, narrowed, fresh=narrowed is not falling)) or (Pass(),)
            if decided is True:  # runs whenever it is reached: the rest of the chain never does
                return self.after(_chain(arms, inner), facts, falling)
            arms.append((test, inner))
            falling = self.narrow(test, falling, False)
        return self.after(_chain(arms, tuple(self.block(stmt.orelse, falling))), facts, falling)

    def after(self, chain: list[Stmt], facts: Facts, falling: Facts) -> list[Stmt]:
        """`chain`, with `facts` updated to what holds after it: when every arm leaves the block
        (`if t is not dict: return False`), only the way past them goes on, where `falling` holds.
        """
        if (
            len(chain) == 1
            and isinstance(chain[0], If)
            and not chain[0].orelse
            and all(_leaves(body[-1]) for _, body in chain[0].branches)
        ):
            facts.possible, facts.type_of = dict(falling.possible), dict(falling.type_of)
            facts.present = dict(falling.present)
        for name in self.assigned(chain):
            facts.forget(name)
        return chain

    def assigned(self, block: Sequence[Stmt]) -> set[str]:
        """The names a block binds anywhere within it."""
        names: set[str] = set()
        for stmt in block:
            known = self._bound.get(id(stmt))
            if known is None:
                known = self._bound[id(stmt)] = (stmt, frozenset(self._binds(stmt)))
            names.update(known[1])
        return names

    def _binds(self, stmt: Stmt) -> set[str]:
        if isinstance(stmt, Assign):
            return set(targets(stmt.target))
        if isinstance(stmt, For):
            return set(targets(stmt.target)) | self.assigned(stmt.body) | self.assigned(stmt.orelse)
        if isinstance(stmt, If):
            return self.assigned([s for _, body in stmt.branches for s in body]) | self.assigned(
                stmt.orelse
            )
        return set()


def _read_by_key(value: Expr) -> tuple[str, str] | None:
    """(dict, key text) of `x["a"]`."""
    if type(value) is Subscript and type(value.value) is Name and type(value.index) is Lit:
        return value.value.id, value.index.code.text
    return None


def _fetched(value: Expr) -> tuple[str, str] | None:
    """(dict, key text) of `x.get("a", _MISSING)`."""
    if (
        isinstance(value, Call)
        and isinstance(value.func, Attr)
        and value.func.attr == "get"
        and isinstance(value.func.value, Name)
        and len(value.args) == 2
        and isinstance(value.args[0], Lit)
        and value.args[1] == MISSING
    ):
        return value.func.value.id, value.args[0].code.text
    return None


def _chain(arms: list[tuple[Expr, tuple[Stmt, ...]]], orelse: tuple[Stmt, ...]) -> list[Stmt]:
    """The `if` of the arms left, or the `else` alone when none is."""
    if not arms:
        return list(orelse)
    if all(isinstance(s, Pass) for s in orelse):
        orelse = ()  # `else: pass` says nothing
    return [If(tuple(arms), orelse)]


def _leaves(stmt: Stmt) -> bool:
    """Whether `stmt` always leaves the block it is in (so nothing after it runs)."""
    if type(stmt) is Return or type(stmt) is Break:
        return True
    if type(stmt) is If:
        arms = [body for _, body in stmt.branches]
        return bool(stmt.orelse) and all(
            body and _leaves(body[-1]) for body in [*arms, stmt.orelse]
        )
    return False


def targets(target: Expr) -> list[str]:
    """The names an assignment or loop target binds (fuse.py counts them too)."""
    if isinstance(target, Name):
        return [target.id]
    if isinstance(target, Tuple):
        return [n for element in target.elements for n in targets(element)]
    return []


def simplify(
    body: list[Stmt],
    type_sets: dict[str, frozenset[str]],
    key_sets: dict[str, frozenset[str]] | None = None,
) -> list[Stmt]:
    """A function body without the branches its own type tests decide, nor the `t = type(x)`
    lines their removal left unread."""
    simplified = Simplifier(type_sets, key_sets or {}).block(body, Facts(), fresh=True) or [Pass()]
    taken = _types_taken(simplified)
    if not taken:
        return simplified  # (no `t = type(x)` to drop: the walk over every name read is spared)
    read = names_read(simplified, until=taken)
    if read >= taken:
        return simplified
    return _without_unread_types(simplified, read) or [Pass()]


def _types_taken(block: Sequence[Stmt]) -> set[str]:
    """The names bound by `t = type(x)` anywhere in a block."""
    names: set[str] = set()
    for stmt in block:
        if _is_type_of(stmt):
            names.add(stmt.target.id)  # type: ignore[attr-defined]
        elif isinstance(stmt, If):
            names.update(
                *(_types_taken(body) for _, body in stmt.branches), _types_taken(stmt.orelse)
            )
        elif isinstance(stmt, For):
            names.update(_types_taken(stmt.body), _types_taken(stmt.orelse))
    return names


def _is_type_of(stmt: Stmt) -> bool:
    """`t = type(x)`: a binding with no effect but the name."""
    return (
        isinstance(stmt, Assign)
        and isinstance(stmt.target, Name)
        and isinstance(stmt.value, Call)
        and stmt.value.func == Name("type")
        and len(stmt.value.args) == 1
        and isinstance(stmt.value.args[0], Name)
    )


def _without_unread_types(block: Sequence[Stmt], read: set[str]) -> list[Stmt]:
    out: list[Stmt] = []
    for stmt in block:
        if _is_type_of(stmt) and stmt.target.id not in read:  # type: ignore[attr-defined]
            continue
        if isinstance(stmt, If):
            stmt = If(
                tuple(
                    (test, tuple(_without_unread_types(body, read)) or (Pass(),))
                    for test, body in stmt.branches
                ),
                tuple(_without_unread_types(stmt.orelse, read)),
            )
        elif isinstance(stmt, For):
            stmt = For(
                stmt.target,
                stmt.source,
                tuple(_without_unread_types(stmt.body, read)) or (Pass(),),
                tuple(_without_unread_types(stmt.orelse, read)),
            )
        out.append(stmt)
    return out


def names_read(tree: object, until: set[str] | None = None) -> set[str]:
    """Every name a tree reads (a name bound by `t = type(x)` is not read by that binding); with
    `until`, the walk may stop as soon as every one of those names is found read. The tree is
    walked in the order of its text, so a `t = type(x)` is met shortly before the test reading t."""
    found: set[str] = set()
    stack = [tree]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is Name:
            found.add(node.id)  # type: ignore[attr-defined]
            if until is not None and node.id in until and found >= until:  # type: ignore[attr-defined]
                break
        elif kind is tuple or kind is list:
            stack.extend(reversed(node))  # type: ignore[call-overload]
        elif kind is Assign and type(node.target) is Name:  # type: ignore[attr-defined]
            stack.append(node.value)  # type: ignore[attr-defined]
        elif kind is not Lit:
            stack.extend(reversed(children(node)))
    return found


def children(node: object) -> tuple[object, ...]:
    """The values of a tree node's fields (those that may hold other nodes)."""
    getter = _CHILDREN.get(type(node))
    if getter is None:
        getter = _children(type(node))
    return getter(node)


# tree node class -> a function giving the tuple of its fields' values (the ones that may hold
# other nodes): one attrgetter call per node instead of a getattr per field
_CHILDREN: dict[type, Callable[[object], tuple[object, ...]]] = {}


def _children(kind: type) -> Callable[[object], tuple[object, ...]]:
    """The fields of a tree node's class that may hold other nodes, as a getter of their values."""
    names = tuple(f.name for f in fields(kind)) if is_dataclass(kind) else ()
    getter: Callable[[object], tuple[object, ...]]
    if not names:
        getter = _no_children
    elif len(names) == 1:
        single = attrgetter(names[0])
        getter = lambda node: (single(node),)  # noqa: E731
    else:
        getter = attrgetter(*names)
    _CHILDREN[kind] = getter
    return getter


def _no_children(node: object) -> tuple[object, ...]:
    return ()
