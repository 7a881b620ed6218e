"""Two tests of the same value made one: a pass over a fast function's tree, between two runs of
simplify.

An allOf of if/then rules on one property (the seed tool-package: `entry.artifact` is "source"
then ..., is "binary" then ...; `effect` is "compute", is "connector") checks each rule's `if` in
place, its outcome in a flag (`c1 = True` ... `if c1:`), and each such condition reads the
property again and tests its type again: `if type(x3) is dict: if "artifact" in x3: ...` once per
rule. This pass
- propagates copies: simplify shares a second look-up of a key as `x9 = x3`; x9 is then x3 where
  nothing can tell them apart (x9 bound there alone, read only after it, x3 not bound again);
- moves a rule's condition up, past the `if c1:` that uses the rule before it, to sit next to an
  `if` that makes the same first test (only past `if`s that test names alone and statements
  `name = literal`: simplify learns nothing from them, so the moved code relies on nothing they
  did, and it runs exactly as before, only earlier; a moved `if` never returns or breaks, so it
  only binds names: a fast function has no statement with an effect, which is why this pass runs
  on fast functions alone);
- fuses two adjacent `if`s with the same first test: `if T: A1 else: R1` and `if T: A2 else: R2`
  become `if T: A1; A2 else: R1; R2` (T has no effect, and neither A1 nor R1 binds anything T
  reads).
Simplify then runs again on the result, and shares the look-ups and type tests that now sit in one
branch; the rounds repeat (fast.py) while this pass changes something.

Only the fast path is changed, where the order of checks is free (a boolean answer); the error path
keeps its keyword order. What it gains is measured in docs/performance.md, "Measurements behind
the rules".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import is_dataclass
from typing import Any

from .simplify import children, targets
from .tree import (
    Assign,
    BoolOp,
    Break,
    Call,
    Comment,
    Compare,
    Expr,
    For,
    GenExp,
    If,
    Lit,
    Name,
    Not,
    Pass,
    Return,
    Stmt,
)

# How many statements (flag tests and flag settings) a condition may be moved up past.
MOST_PASSED = 4
_PURE_CALLS = frozenset({"type", "len"})


def fuse(body: list[Stmt]) -> list[Stmt] | None:
    """`body` with copies propagated and same-test `if`s fused, or None when nothing changed."""
    changed = False
    if _has_copies(body):
        copies = _Copies(body)
        propagated = copies.block(body)
        if propagated is not None:
            body, changed = _rename(propagated, copies.renamed), True
    fused = _fuse_block(body)
    if fused is not None:
        body, changed = fused, True
    return body if changed else None


# -- names --------------------------------------------------------------------------------------
def _count(node: Any, bound: Counter[str], read: Counter[str]) -> None:
    """Counts the names a tree binds (assignment and loop targets) and reads."""
    stack = [node]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is Name:
            read[item.id] += 1
        elif kind is tuple or kind is list:
            stack.extend(item)
        elif kind is Assign:
            for name in targets(item.target):
                bound[name] += 1
            stack.append(item.value)
        elif kind is For or kind is GenExp:
            for name in targets(item.target):
                bound[name] += 1
            stack.extend(children(item))  # (its target is also counted as a read: harmless here)
        elif kind is not Lit and kind is not Comment and kind is not str:
            stack.extend(children(item))


def _counted(node: Any) -> tuple[Counter[str], Counter[str]]:
    bound: Counter[str] = Counter()
    read: Counter[str] = Counter()
    _count(node, bound, read)
    return bound, read


def _names(node: Any) -> tuple[set[str], set[str]]:
    bound, read = _counted(node)
    return set(bound), set(read)


def _rename(node: Any, renamed: dict[str, str]) -> Any:
    """The tree with each name read as `renamed` says (the same object where it holds none)."""
    kind = type(node)
    if kind is Name:
        return Name(renamed[node.id]) if node.id in renamed else node
    if kind is tuple or kind is list:
        items = [_rename(item, renamed) for item in node]
        if all(a is b for a, b in zip(items, node)):
            return node
        return kind(items)
    if kind is Lit or kind is str or kind is Comment or not is_dataclass(node):
        return node
    values = children(node)
    new = [_rename(value, renamed) for value in values]
    if all(a is b for a, b in zip(new, values)):
        return node
    return kind(*new)


def _has_copies(block: Sequence[Stmt]) -> bool:
    """Whether a block holds a statement `a = b` (two names) anywhere (statements alone are walked)."""
    for stmt in block:
        kind = type(stmt)
        if kind is Assign and type(stmt.target) is Name and type(stmt.value) is Name:  # type: ignore[attr-defined]
            return True
        if kind is If and (_has_copies(stmt.orelse) or any(_has_copies(b) for _, b in stmt.branches)):  # type: ignore[attr-defined]
            return True
        if kind is For and (_has_copies(stmt.body) or _has_copies(stmt.orelse)):  # type: ignore[attr-defined]
            return True
    return False


class _Copies:
    """Copy propagation over one function body."""

    def __init__(self, body: Sequence[Stmt]) -> None:
        self.bound: Counter[str] = Counter()
        self.read: Counter[str] = Counter()
        _count(body, self.bound, self.read)
        # each copy's name -> the name it is read as (one walk renames them all, at the end)
        self.renamed: dict[str, str] = {}

    def block(self, block: Sequence[Stmt]) -> list[Stmt] | None:
        out = list(block)
        # each statement's (bound, read) counts, made when the block's first copy is met: what
        # follows a copy is counted from them (statements after one are not yet rewritten)
        counts: list[tuple[Counter[str], Counter[str]]] | None = None
        changed = False
        index = 0
        while index < len(out):
            stmt = out[index]
            if self.copy(stmt):
                if counts is None:
                    counts = [_counted(s) for s in out]
                if self.propagates(stmt, counts[index + 1 :]):  # type: ignore[arg-type]
                    old, new = stmt.target.id, stmt.value.id  # type: ignore[attr-defined]
                    self.renamed[old] = self.renamed.get(
                        new, new
                    )  # (`z = y` after `y = x`: z is x)
                    del out[index], counts[index]
                    changed = True
                    continue
            inner = self.statement(stmt)
            if inner is not None:
                out[index], changed = inner, True
            index += 1
        return out if changed else None

    def copy(self, stmt: Stmt) -> bool:
        """`a = b`, a bound there alone."""
        return (
            type(stmt) is Assign
            and type(stmt.target) is Name
            and type(stmt.value) is Name
            and not stmt.annotation
            and stmt.target.id != stmt.value.id
            and self.bound[stmt.target.id] == 1
        )

    def propagates(self, copy: Assign, rest: list[tuple[Counter[str], Counter[str]]]) -> bool:
        """a read only after `a = b` in this block, and b not bound again there: a holds b's value
        wherever it is read. (Counts of the names as written: the renames are made at the end; b
        read as c must not be bound again either.)"""
        target, source = copy.target.id, copy.value.id  # type: ignore[attr-defined]
        final = self.renamed.get(source, source)
        return sum(read[target] for _, read in rest) == self.read[target] and not any(
            bound[source] or bound[final] for bound, _ in rest
        )

    def statement(self, stmt: Stmt) -> Stmt | None:
        return _within(stmt, self.block)


def _within(stmt: Stmt, rewrite: Callable[[Sequence[Stmt]], list[Stmt] | None]) -> Stmt | None:
    """An `if` or a loop with each of its blocks rewritten (`rewrite` gives None for a block it
    leaves as it is), or None when none changes."""
    if type(stmt) is If:
        arms = [(test, rewrite(body)) for test, body in stmt.branches]
        orelse = rewrite(stmt.orelse)
        if orelse is None and all(body is None for _, body in arms):
            return None
        return If(
            tuple(
                (test, tuple(body) if body is not None else old)
                for (test, body), (_, old) in zip(arms, stmt.branches)
            ),
            tuple(orelse) if orelse is not None else stmt.orelse,
        )
    if type(stmt) is For:
        body, orelse = rewrite(stmt.body), rewrite(stmt.orelse)
        if body is None and orelse is None:
            return None
        return For(
            stmt.target,
            stmt.source,
            tuple(body) if body is not None else stmt.body,
            tuple(orelse) if orelse is not None else stmt.orelse,
        )
    return None


# -- fusing -------------------------------------------------------------------------------------
def _fuse_block(block: Sequence[Stmt]) -> list[Stmt] | None:
    out: list[Stmt] = []
    changed = False
    for stmt in block:
        inner = _fuse_inside(stmt)
        if inner is not None:
            stmt, changed = inner, True
        if type(stmt) is If and _fusable_test(stmt.branches[0][0]):
            placed = _place(out, stmt)
            if placed is not None:
                out, changed = placed, True
                continue
        out.append(stmt)
    return out if changed else None


def _fuse_inside(stmt: Stmt) -> Stmt | None:
    return _within(stmt, _fuse_block)


def _place(out: list[Stmt], second: If) -> list[Stmt] | None:
    """`out` (the statements before `second`) with `second` fused into an earlier `if` of the same
    first test, moved up to it with the flag settings just before it that it sets; or None."""
    test = second.branches[0][0]
    index = len(out) - 1
    while index >= 0 and not (type(out[index]) is If and out[index].branches[0][0] == test):  # type: ignore[attr-defined]
        if len(out) - index > MOST_PASSED or not _passable(out[index]):
            return None  # (the cheap look first: most ifs have no such partner)
        index -= 1
    if index < 0 or (index < len(out) - 1 and _may_leave([second])):
        return None  # (moved up, it must not leave: adjacent, it may)
    first = out[index]
    assert type(first) is If
    second_bound, second_read = _names(second)
    start = len(out)
    while start > index + 1 and _sets_flag(out[start - 1]) and out[start - 1].target.id in second_bound:  # type: ignore[attr-defined]
        start -= 1
    moved = out[start:]
    moved_bound = second_bound | _names(moved)[0]
    for passed in out[index + 1 : start]:
        passed_bound, passed_read = _names(passed)
        if moved_bound & (passed_bound | passed_read) or second_read & passed_bound:
            return None
    first_bound, first_read = _names(first)
    if first_bound & _names(test)[1]:
        return (
            None  # an arm of it binds what the test reads (`second` made the test again after it)
        )
    if moved_bound & (first_bound | first_read):
        return None
    return out[:index] + moved + [_fused(first, second)] + out[index + 1 : start]


def _passable(stmt: Stmt) -> bool:
    """A statement a condition may be moved up past: a flag test or setting, a comment."""
    return _tests_flags(stmt) or _sets_flag(stmt) or type(stmt) is Comment


def _fused(first: If, second: If) -> If:
    (test, body), *_ = first.branches
    joined = [s for s in (*body, *second.branches[0][1]) if type(s) is not Pass]
    joined = _fuse_block(joined) or joined
    rest = [s for s in (*_rest(first), *_rest(second)) if type(s) is not Pass]
    rest = _fuse_block(rest) or rest
    if len(rest) == 1 and type(rest[0]) is If:  # `else: if ...` is an `elif`
        return If(((test, tuple(joined) or (Pass(),)), *rest[0].branches), rest[0].orelse)
    return If(((test, tuple(joined) or (Pass(),)),), tuple(rest))


def _rest(stmt: If) -> list[Stmt]:
    """What runs where the first test of `stmt` does not hold."""
    if len(stmt.branches) > 1:
        arms = stmt.branches[1:]
        if len(arms) == 1 and stmt.orelse and all(type(s) is Pass for s in arms[0][1]):
            # `elif U: pass else: E` is `elif not U: E` (U made once either way)
            return [If(((arms[0][0].negate(), stmt.orelse),))]
        return [If(arms, stmt.orelse)]
    return list(stmt.orelse)


def _fusable_test(test: Expr) -> bool:
    """A test without effects and cheap to make: names, literals, comparisons, `type()`, `len()`."""
    kind = type(test)
    if kind is Name or kind is Lit:
        return True
    if type(test) is Compare:
        return _fusable_test(test.left) and _fusable_test(test.right)
    if type(test) is BoolOp:
        return all(_fusable_test(v) for v in test.values)
    if type(test) is Not:
        return _fusable_test(test.operand)
    if type(test) is Call:
        return (
            type(test.func) is Name
            and test.func.id in _PURE_CALLS
            and all(_fusable_test(a) for a in test.args)
        )
    return False


def _sets_flag(stmt: Stmt) -> bool:
    """`c = True` (a name set to a literal)."""
    return (
        type(stmt) is Assign
        and type(stmt.target) is Name
        and type(stmt.value) is Lit
        and not stmt.annotation
    )


def _tests_flags(stmt: Stmt) -> bool:
    """An `if` whose tests are each a name or its `not` (`if c1: ...`): simplify learns nothing
    from it about types or keys, so nothing after it relies on it."""
    return type(stmt) is If and all(
        type(t) is Name or (type(t) is Not and type(t.operand) is Name) for t, _ in stmt.branches
    )


def _may_leave(block: Sequence[Stmt], in_loop: bool = False) -> bool:
    """Whether a block may return, or break out of a loop around it (`in_loop`: a loop of the
    block's own, whose break leaves only that loop)."""
    for stmt in block:
        kind = type(stmt)
        if kind is Return or (kind is Break and not in_loop):
            return True
        if type(stmt) is If and (
            _may_leave(stmt.orelse, in_loop)
            or any(_may_leave(b, in_loop) for _, b in stmt.branches)
        ):
            return True
        if type(stmt) is For and (_may_leave(stmt.body, True) or _may_leave(stmt.orelse, in_loop)):
            return True
    return False
