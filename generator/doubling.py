"""Which subschemas can apply more than once to one instance value (their functions are then
memoized, emit/memo.py), and which reference loops consume nothing.

References let one subschema reach a value along two paths: `allOf: [{items: R}, {items: R}]`
applies R twice to each item, and so each level of an array nested that way doubles the work.
A subschema (a graph key: only references make two paths meet) is found applied twice when two
different derivations can both end at it on the same value. The search runs on pairs of positions
in the schema, both at the same value: each side steps in place (allOf, anyOf, oneOf, not,
if/then/else, dependentSchemas, references...) on its own, and both step to a member together,
where the members can be one (a property name two keywords both name, two `items`, `contains` and
`items`, a pattern and a name it may match...; what cannot be told apart counts as one member).
It starts where two derivations part: two different steps from one position. Polynomial in the
schema's size; a schema too large for the search has every subschema memoized instead (correct,
only slower).
"""

from __future__ import annotations

import warnings
from typing import Any

from . import ir
from .errors import SchemaError, SchemaWarning
from .lower import (
    DynamicTables,
    in_place_targets,
    reachable,
    reference_targets,
    reject_ref_cycles,
)
from .profiles import Profile
from .regex import RegexTranslationError, plan_pattern, plan_search
from .regex.plan import UNSAFE

# Pairs of positions searched before the search gives up and memoizes every subschema.
MAX_PAIRS = 200_000

_ANY = ("any",)


def loops_allowed(
    graph: dict[str, ir.Node],
    tables: DynamicTables,
    root: str,
    chain_cycles: dict[str, SchemaError],
    profile: Profile,
) -> tuple[set[str], set[str]]:
    """The keys the root reaches, and those on a reference loop that consumes nothing. A draft
    profile compiles such a loop with a SchemaWarning naming it (an instance that reaches it gets
    ReferenceLoopError there: memo_runtime.py); the others (strict, seed, lenient) refuse it
    (`ref-cycle`, lower.reject_ref_cycles)."""
    try:
        return reject_ref_cycles(graph, tables, root=root, chain_cycles=chain_cycles), set()
    except SchemaError as error:
        if profile.draft is None or error.code != "ref-cycle":
            raise
        warnings.warn(
            SchemaWarning(
                error.message + ": an instance that reaches it gets a ReferenceLoopError there",
                code="ref-cycle",
                pointer=error.pointer,
            ),
            stacklevel=2,
        )
    live = reachable(graph, tables, root)
    return live, in_place_loops(graph, tables, live)


def memoized(
    graph: dict[str, ir.Node], tables: DynamicTables, root: str, live: set[str], loops: set[str]
) -> set[ir.Node]:
    """The nodes whose functions are memoized: those applied twice to one value, those on a
    loop, and then the root (its wrapper owns the table of one call). None in the common case."""
    keys = applied_twice(graph, tables, root, live, bool(tables)) | loops
    if not keys:
        return set()
    return {graph[key] for key in keys} | {graph[root]}


def applied_twice(
    graph: dict[str, ir.Node], tables: DynamicTables, root: str, live: set[str], dynamic: bool
) -> set[str]:
    """The live graph keys some instance value can have applied to it more than once in one
    validation (not counting a reference loop that consumes nothing: `in_place_loops`)."""
    return _Search(graph, tables, live, dynamic).run(graph[root])


def in_place_loops(graph: dict[str, ir.Node], tables: DynamicTables, live: set[str]) -> set[str]:
    """The live keys on a cycle of references that consumes none of the instance."""
    edges = {
        key: [target for target, _ in in_place_targets(graph[key], tables) if target in live]
        for key in live
    }
    # Tarjan's strongly connected components, iteratively
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    loops: set[str] = set()
    for start in sorted(live):
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            key, i = work.pop()
            if i == 0:
                index[key] = low[key] = len(index)
                stack.append(key)
                on_stack.add(key)
            if i < len(edges[key]):
                work.append((key, i + 1))
                target = edges[key][i]
                if target not in index:
                    work.append((target, 0))
                elif target in on_stack:
                    low[key] = min(low[key], index[target])
                continue
            if low[key] == index[key]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == key:
                        break
                if len(component) > 1 or key in edges[key]:
                    loops.update(component)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[key])
    return loops


class _Pending:
    """A side that has stepped to a member the other side has not reached yet."""

    __slots__ = ("kind", "node")

    def __init__(self, kind: tuple[Any, ...], node: ir.Node) -> None:
        self.kind = kind
        self.node = node


class _Search:
    def __init__(
        self, graph: dict[str, ir.Node], tables: DynamicTables, live: set[str], dynamic: bool
    ) -> None:
        self.graph = graph
        self.tables = tables
        self.live = live
        self.dynamic = dynamic
        self.keys: dict[int, list[str]] = {}
        for key in live:
            self.keys.setdefault(id(graph[key]), []).append(key)
        self._edges: dict[int, tuple[list[ir.Node], list[tuple[tuple[Any, ...], ir.Node]]]] = {}
        self._refers: dict[int, bool] = {}
        self._groups: dict[int, list[int]] = {}

    def run(self, root: ir.Node) -> set[str]:
        found: set[str] = set()
        seen_same: set[int] = {id(root)}
        same = [root]
        seen: set[tuple[Any, ...]] = set()
        pairs: list[tuple[Any, Any]] = []

        def add(a: Any, b: Any) -> None:
            if not (self._alive(a) and self._alive(b)):
                return
            key = (self._id(a), self._id(b))
            if key[0] > key[1]:
                key = (key[1], key[0])
            if key not in seen:
                seen.add(key)
                pairs.append((a, b))

        while same:
            node = same.pop()
            in_place, members = self.edges(node)
            for target in in_place + [t for _, t in members]:
                if id(target) not in seen_same:
                    seen_same.add(id(target))
                    same.append(target)
            # two derivations part here: two different steps
            groups = self._groups[id(node)]
            for i, first in enumerate(in_place):
                for j in range(i + 1, len(in_place)):
                    if groups[i] != groups[j]:  # (one reference's targets: one is taken)
                        add(first, in_place[j])
                for kind, target in members:
                    add(first, _Pending(kind, target))
            live_members = [(k, t) for k, t in members if self.refers(t)]
            for i, (kind, target) in enumerate(live_members):
                for other_kind, other in live_members[i + 1 :]:
                    if _compatible(kind, other_kind):
                        add(target, other)
            while pairs:
                if len(seen) > MAX_PAIRS:
                    return set(self.live)
                a, b = pairs.pop()
                if a is b:
                    keys = self.keys.get(id(a))
                    if keys:
                        found.update(keys)
                        if self.dynamic or self._plain_ref(a) is None:
                            continue  # memoized: what follows is evaluated once
                self._step(a, b, add)
        return found

    def _step(self, a: Any, b: Any, add: Any) -> None:
        if not isinstance(a, _Pending):
            for target in self.edges(a)[0]:
                add(target, b)
        if not isinstance(b, _Pending):
            for target in self.edges(b)[0]:
                add(a, target)
        if isinstance(a, _Pending):
            a, b = b, a
        if isinstance(b, _Pending):
            for kind, target in self.edges(a)[1]:
                if _compatible(kind, b.kind):
                    add(target, b.node)
            return
        b_members = self.edges(b)[1]
        for kind, target in self.edges(a)[1]:
            for other_kind, other in b_members:
                if _compatible(kind, other_kind):
                    add(target, other)

    @staticmethod
    def _id(side: Any) -> Any:
        return ("p", side.kind, id(side.node)) if isinstance(side, _Pending) else ("n", id(side))

    def _alive(self, side: Any) -> bool:
        return self.refers(side.node if isinstance(side, _Pending) else side)

    def _plain_ref(self, node: ir.Node) -> ir.Check | None:
        if (
            node.boolean is None
            and node.types is None
            and len(node.checks) == 1
            and node.checks[0].static_reference
        ):
            return node.checks[0]
        return None

    def refers(self, node: ir.Node) -> bool:
        """Whether a reference lies in or under `node` (else no key can be reached from it)."""
        known = self._refers.get(id(node))
        if known is not None:
            return known
        order: list[ir.Node] = []
        stack = [node]
        while stack:
            current = stack.pop()
            if id(current) in self._refers:
                continue
            self._refers[id(current)] = False  # (provisional: a node holds no cycle)
            order.append(current)
            for check in current.checks:
                stack.extend(ir.subschemas(check))
        for current in reversed(order):
            self._refers[id(current)] = any(
                check.refers or any(self._refers[id(sub)] for sub in ir.subschemas(check))
                for check in current.checks
            )
        return self._refers[id(node)]

    def edges(self, node: ir.Node) -> tuple[list[ir.Node], list[tuple[tuple[Any, ...], ir.Node]]]:
        """The subschemas `node` applies to the same value (references followed), and those it
        applies to members, each with the kind of member."""
        cached = self._edges.get(id(node))
        if cached is not None:
            return cached
        in_place: list[ir.Node] = []
        groups: list[int] = []  # the check each in-place step is made by
        members: list[tuple[tuple[Any, ...], ir.Node]] = []
        for check in node.checks:
            if check.refers:
                # (a dynamic reference ends at one of its targets: never at two of them)
                targets = dict.fromkeys(reference_targets(check, self.tables))
                here = [self.graph[t] for t in targets if t in self.live]
                in_place += here
                groups += [id(check)] * len(here)
                continue
            here = ir.applied_in_place(check)
            in_place += here
            groups += [-1 - len(groups) - i for i in range(len(here))]
            steps = check.member_steps()
            if steps is not None:
                members += [(_kind(member), sub) for member, sub in steps]
            else:
                members += [
                    (_ANY, sub)
                    for sub in ir.applied_subschemas(check)
                    if not any(sub is h for h in here)
                ]
        kept = [i for i, n in enumerate(in_place) if self.refers(n)]
        found = ([in_place[i] for i in kept], [m for m in members if self.refers(m[1])])
        self._groups[id(node)] = [groups[i] for i in kept]
        self._edges[id(node)] = found
        return found


def _kind(member: ir.Member) -> tuple[Any, ...]:
    """The search's key for a member step (what _compatible compares)."""
    if isinstance(member, ir.ByName):
        return ("name", member.name)
    if isinstance(member, ir.ByPattern):
        return ("pattern", member.source)
    if isinstance(member, ir.Additional):
        return ("other", member.known, member.patterns)
    if isinstance(member, ir.AtIndex):
        return ("index", member.index)
    if isinstance(member, ir.FromIndex):
        return ("from", member.start)
    if isinstance(member, ir.AnyProperty):
        return ("anyprop",)
    return ("propname",)


_OBJECT = {"name", "pattern", "other", "anyprop"}
_ARRAY = {"index", "from"}


def _compatible(first: tuple[Any, ...], second: tuple[Any, ...]) -> bool:
    """Whether two member steps from one value may reach the same member."""
    a: str = first[0]
    b: str = second[0]
    if a == "any" or b == "any":
        return True
    if a == "propname" or b == "propname":
        return a == b
    if (a in _OBJECT) != (b in _OBJECT):
        return False
    if a in _ARRAY:
        if a == "index" and b == "index":
            return bool(first[1] == second[1])
        if a == "index":
            return bool(first[1] >= second[1])
        if b == "index":
            return bool(second[1] >= first[1])
        return True
    if a == "anyprop" or b == "anyprop":
        return True
    if a == "name" and b == "name":
        return bool(first[1] == second[1])
    if b == "name":
        first, second, a, b = second, first, b, a
    if a == "name":
        if b == "pattern":
            return _may_match(second[1], first[1])
        # additionalProperties: names no sibling properties or pattern takes
        return first[1] not in second[1] and not any(_matches(p, first[1]) for p in second[2])
    if a == "pattern" and b == "other":
        return first[1] not in second[2]
    if a == "other" and b == "pattern":
        return second[1] not in first[2]
    return True


def _may_match(source: str, name: str) -> bool:
    """Whether a pattern may match a name (a pattern only `re` can run counts as matching)."""
    try:
        plan = plan_pattern(source)
    except RegexTranslationError:
        return True
    return plan.kind == UNSAFE or plan_search(plan)(name)


def _matches(source: str, name: str) -> bool:
    """Whether a pattern certainly matches a name, by its linear-time plan (a pattern only `re`
    can run is never run here: the schema's own names could make it backtrack for ever)."""
    try:
        plan = plan_pattern(source)
    except RegexTranslationError:
        return False
    return plan.kind != UNSAFE and plan_search(plan)(name)
