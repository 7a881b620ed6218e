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

Only the meetings where the doubling can repeat down the instance are memoized (`repeating`);
one that cannot (alternatives sharing a definition) costs a factor bounded by the schema and stays
plain, inlined. The rule and why the work stays polynomial: docs/hostile-input.md, "Doublings".
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
    """The nodes whose functions are memoized: those applied twice to one value where the
    doubling can repeat down the instance (`_Search.repeating`) and those on a loop. None in the
    common case. `repeating` counts the root as memoized whenever anything is (every derivation
    starts there); it is left plain unless it too can be applied twice to one value (found) or
    is on a loop: applied at most once a value, its wrapper would never find an answer in the
    table. The public functions own the call's table (render/module.py, Root.memo)."""
    search = _Search(graph, tables, live, bool(tables))
    found = search.run(graph[root])
    keys = search.repeating(found, loops, graph[root]) | loops
    if root not in found and root not in loops:
        keys.discard(root)
    return {graph[key] for key in keys}


def in_place_loops(graph: dict[str, ir.Node], tables: DynamicTables, live: set[str]) -> set[str]:
    """The live keys on a cycle of references that consumes none of the instance."""
    edges = {
        key: [target for target, _ in in_place_targets(graph[key], tables) if target in live]
        for key in live
    }
    return _on_cycles(edges, sorted(live))


def _on_cycles(edges: dict[Any, list[Any]], order: list[Any]) -> set[Any]:
    """The vertices on a cycle of `edges` (Tarjan's strongly connected components, iteratively;
    `order`: every vertex, in the order the search starts from them)."""
    index: dict[Any, int] = {}
    low: dict[Any, int] = {}
    on_stack: set[Any] = set()
    stack: list[Any] = []
    loops: set[Any] = set()
    for start in order:
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            key, i = work.pop()
            if i == 0:
                index[key] = low[key] = len(index)
                stack.append(key)
                on_stack.add(key)
            out = edges.get(key, ())
            if i < len(out):
                work.append((key, i + 1))
                target = out[i]
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
                if len(component) > 1 or key in out:
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
        self._thru: dict[int, ir.Node] = {}
        self._named: dict[int, tuple[dict[str, list[ir.Node]], list[tuple[Any, ir.Node]]]] = {}
        # what `repeating` reads: the graph of pairs searched, the pairs where two derivations
        # part (by the node they part at) and those where they meet (by the node they meet at)
        self.gave_up = False
        self.rank: dict[int, int] | None = None
        self.pair_edges: dict[Any, list[Any]] = {}
        self.sides: dict[Any, tuple[int, int]] = {}
        self.parting: dict[int, list[Any]] = {}
        self.meeting: dict[Any, int] = {}
        self.nodes: dict[int, ir.Node] = {}

    def _ranks(self, root: ir.Node) -> dict[int, int] | None:
        """A rank for each node that every in-place step raises (a topological order of the
        in-place steps), or None where they form a cycle."""
        order: list[int] = []
        state: dict[int, bool] = {}  # (False: on the path being walked; True: done)
        for start in self._reached(root):
            if id(start) in state:
                continue
            work = [(start, 0)]
            state[id(start)] = False
            while work:
                node, i = work.pop()
                in_place = self.edges(node)[0]
                if i < len(in_place):
                    work.append((node, i + 1))
                    target = in_place[i]
                    done = state.get(id(target))
                    if done is None:
                        state[id(target)] = False
                        work.append((target, 0))
                    elif not done:
                        return None
                    continue
                state[id(node)] = True
                order.append(id(node))
        return {node: len(order) - i for i, node in enumerate(order)}

    def _reached(self, root: ir.Node) -> list[ir.Node]:
        reached = [root]
        seen = {id(root)}
        for node in reached:
            in_place, members = self.edges(node)
            for target in in_place + [t for _, t in members]:
                if id(target) not in seen:
                    seen.add(id(target))
                    reached.append(target)
        return reached

    def run(self, root: ir.Node) -> set[str]:
        """The live graph keys some instance value can have applied to it more than once in one
        validation (not counting a reference loop that consumes nothing: `in_place_loops`)."""
        self.rank = None if self.dynamic else self._ranks(root)
        found: set[str] = set()
        seen_same: set[int] = {id(root)}
        same = [root]
        seen: set[tuple[Any, ...]] = set()
        pairs: list[tuple[Any, Any]] = []
        parting: list[Any] = []  # (the pairs the node being scanned starts)
        edges: list[Any] = parting  # (where `add` records the pairs it reaches)

        def add(a: Any, b: Any) -> None:
            if self.rank is not None:  # (a plain reference is its target: one pair for both)
                a, b = self._through(a), self._through(b)
            if not (self._alive(a) and self._alive(b)):
                return
            key = (self._id(a), self._id(b))
            if key[0] > key[1]:
                key = (key[1], key[0])
            edges.append(key)
            if key not in seen:
                seen.add(key)
                pairs.append((a, b))
                self.sides[key] = (self._node_id(a), self._node_id(b))

        while same:
            node = same.pop()
            self.nodes[id(node)] = node
            in_place, members = self.edges(node)
            for target in in_place + [t for _, t in members]:
                if id(target) not in seen_same:
                    seen_same.add(id(target))
                    same.append(target)
            # two derivations part here: two different steps
            parting = edges = []
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
            if parting:
                self.parting[id(node)] = parting
            while pairs:
                if len(seen) > MAX_PAIRS:
                    self.gave_up = True
                    return set(self.live)
                a, b = pairs.pop()
                key = self._id(a), self._id(b)
                key = key if key[0] <= key[1] else (key[1], key[0])
                edges = self.pair_edges.setdefault(key, [])
                if a is b:
                    keys = self.keys.get(id(a))
                    if keys:
                        found.update(keys)
                        self.meeting[key] = id(a)
                        if self.dynamic or self._plain_ref(a) is None:
                            continue  # (what follows goes on as one: memoized, or `repeating` (i))
                self._step(a, b, add)
        return found

    def _through(self, side: Any) -> Any:
        if isinstance(side, _Pending):
            node = self._through(side.node)
            return side if node is side.node else _Pending(side.kind, node)
        known = self._thru.get(id(side))
        if known is not None:
            return known
        start = side
        for _ in range(len(self.rank or ())):  # (ranks: no cycle of references in place)
            if self._plain_ref(side) is None:
                break
            targets = self.edges(side)[0]
            if len(targets) != 1:
                break
            side = targets[0]
        self._thru[id(start)] = side
        return side

    def _node_id(self, side: Any) -> int:
        return id(side.node) if isinstance(side, _Pending) else id(side)

    def repeating(self, found: set[str], loops: set[str], root: ir.Node) -> set[str]:
        """The found keys whose doubling can repeat down the instance, and so must be memoized;
        the others are left plain (inlined as any subschema). A plain key K is one where
        (i) no node that derivations part at (and meet again after) is reached from K without
        passing a memoized node, K included: the derivations that met at K go on as one; and
        (ii) no pair on a cycle of the pair graph leads, through a pair with a side where a
        derivation starts afresh (a parting node or a memoized one), to K's meeting: the
        derivations that meet at K started within a bounded distance of each other. Then every
        subschema is evaluated on a value at most (pairs x parting and memoized nodes x their
        steps) times: a constant of the schema (docs/hostile-input.md, "Doublings")."""
        if self.gave_up or self.rank is None or not found:
            return found
        keys_of: dict[int, list[str]] = {}
        for key in found:
            keys_of.setdefault(id(self.graph[key]), []).append(key)
        # the pairs from which derivations can still meet, and the nodes they part at
        back: dict[Any, list[Any]] = {}
        for pair, out in self.pair_edges.items():
            for target in out:
                back.setdefault(target, []).append(pair)
        meets = _closure(list(self.meeting), back)
        parting = {node for node, starts in self.parting.items() if any(p in meets for p in starts)}
        # (only the pairs that can still meet matter below)
        useful = {p: [t for t in self.pair_edges.get(p, ()) if t in meets] for p in meets}
        after_cycle = _closure(list(_on_cycles(useful, list(useful))), useful)
        # the nodes' graph, backwards, for what reaches a parting node (i)
        into: dict[int, list[int]] = {}
        for node_id in self.nodes:
            in_place, members = self._edges[node_id]
            for target in in_place + [t for _, t in members]:
                into.setdefault(id(target), []).append(node_id)
        memo = {id(self.graph[key]) for key in loops} | {n for n in keys_of if n in parting}
        while True:
            # (i): the found nodes that reach a parting node, not through a memoized one
            reaching = set()
            stack = [node for node in parting if node not in memo]
            while stack:
                node_id = stack.pop()
                if node_id in reaching:
                    continue
                reaching.add(node_id)
                stack.extend(n for n in into.get(node_id, ()) if n not in memo)
            # (ii): the meetings after a cycle of pairs and a fresh start
            starts = parting | memo
            fresh = [
                pair
                for pair in after_cycle
                if self.sides[pair][0] in starts or self.sides[pair][1] in starts
            ]
            after = _closure(fresh, useful)
            late = {self.meeting[pair] for pair in after if pair in self.meeting}
            more = {n for n in keys_of if n not in memo and (n in reaching or n in late)}
            if not more and memo and id(root) not in memo:
                more = {id(root)}  # (where every derivation starts: counted as memoized)
            if not more:
                break
            memo |= more
        return {key for node, keys in keys_of.items() if node in memo for key in keys}

    def _step(self, a: Any, b: Any, add: Any) -> None:
        if self.rank is not None and not isinstance(a, _Pending) and not isinstance(b, _Pending):
            # one order of the two sides' in-place steps (the side of lower rank steps, in place
            # or to a member) still finds every meeting, and never pairs a node with a side that
            # is past it on the value (two derivations that already met)
            if (self.rank[id(b)], self._id(b)) < (self.rank[id(a)], self._id(a)):
                a, b = b, a
            in_place, members = self.edges(a)
            for target in in_place:
                add(target, b)
            b_in_place = self.edges(b)[0]
            for kind, target in members:
                if b_in_place:
                    add(_Pending(kind, target), b)
                    continue
                for other in self.meeting_members(b, kind):  # (b can only step to a member)
                    add(target, other)
            return
        if not isinstance(a, _Pending):
            for target in self.edges(a)[0]:
                add(target, b)
        if not isinstance(b, _Pending):
            for target in self.edges(b)[0]:
                add(a, target)
        if isinstance(a, _Pending):
            a, b = b, a
        if isinstance(b, _Pending):
            for target in self.meeting_members(a, b.kind):
                add(target, b.node)
            return
        for kind, target in self.edges(a)[1]:
            for other in self.meeting_members(b, kind):
                add(target, other)

    def meeting_members(self, node: ir.Node, kind: tuple[Any, ...]) -> list[ir.Node]:
        """The subschemas `node` applies to members that a member step of `kind` may reach."""
        index = self._named.get(id(node))
        if index is None:
            index = self._named[id(node)] = ({}, [])
            for other_kind, other in self.edges(node)[1]:
                if other_kind[0] == "name":
                    index[0].setdefault(other_kind[1], []).append(other)
                else:
                    index[1].append((other_kind, other))
        if kind[0] == "name":
            found = list(index[0].get(kind[1], ()))
        else:
            found = [o for k, o in self.edges(node)[1] if k[0] == "name" and _compatible(kind, k)]
        return found + [other for k, other in index[1] if _compatible(kind, k)]

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


def _closure(starts: list[Any], edges: dict[Any, list[Any]]) -> set[Any]:
    """`starts` and everything `edges` lead to from them."""
    reached = set(starts)
    stack = list(starts)
    while stack:
        for target in edges.get(stack.pop(), ()):
            if target not in reached:
                reached.add(target)
                stack.append(target)
    return reached


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
