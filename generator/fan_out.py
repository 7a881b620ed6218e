"""Refusing schemas whose validation would take exponential time (`limit-exceeded`).

References let a few bytes of schema reach one subschema many times over. In place, a chain of
`allOf: [{$ref: next}, {$ref: next}]` applies its last link 2**40 times to one value; through the
instance, `allOf: [{items: {$ref: "#"}}, {items: {$ref: "#"}}]` applies itself twice to each item,
so an array nested 40 deep (80 bytes) costs 2**40 calls. Neither is answered in a lifetime
(python-jsonschema hangs on both too), and errors() would list that many errors.
Both are found on the lowered graph, after lower.reject_ref_cycles (the in-place references then
form no cycle), and refused. Real schemas have neither: SchemaStore's 923 schemas and the official
suite compile, the largest in-place count among them 432 (the bound is 100,000). Applying a
subschema twice to one member only behind anyOf, oneOf or if/then/else is let through: those stop
at the first alternative that holds or are told apart by type, and real schemas have it (two of
SchemaStore's, grpc-api-gateway's and web-types').
"""

from __future__ import annotations

from collections import Counter

from . import ir
from .errors import SchemaError
from .keywords.applicators import AllOf
from .keywords.arrays import Contains, Items, PrefixItems
from .keywords.objects import AdditionalProperties, PatternProperties, Properties
from .lower import DynamicTables, reference_targets
from .regex import RegexTranslationError, plan_pattern, plan_search
from .regex.plan import UNSAFE

# How many subschemas checking one value may apply to it (each reached through allOf, anyOf,
# oneOf, not, if/then/else, dependentSchemas and references, counted once per path).
MAX_APPLICATIONS = 100_000

# The checks that apply subschemas to a value's members (propertyNames' subject, a name, has no
# members; contentSchema's is a new document).
_MEMBER_CHECKS = (Properties, PatternProperties, AdditionalProperties, PrefixItems, Items, Contains)


def reject_fan_out(
    graph: dict[str, ir.Node], tables: DynamicTables, root: str, live: set[str]
) -> None:
    """Refuse (`limit-exceeded`) a schema that applies more than MAX_APPLICATIONS subschemas to
    one value (every validation would pay it), or whose subschema applies itself twice or more to
    one member of a value, or to one member of that member, whatever the value (through allOf and
    references, or two keywords on one member; anyOf, oneOf and if/then/else are not counted):
    each level of an instance nested that way doubles the work, so 40 levels (80 bytes) never
    finish. `live`: the keys the root reaches (lower.reachable)."""
    walk = _Walk(graph, tables, live, root.partition("#")[0])
    walk.reject_in_place()
    steps = {key: walk.members_of(walk.closure(key)) for key in sorted(walk.shapes)}
    next_keys = {
        key: {other for member in members for other in member} for key, members in steps.items()
    }
    for key in sorted(walk.shapes):
        if _doubles(key, steps, next_keys, walk):
            raise SchemaError(
                "this subschema applies itself twice or more to one member of a value, or to one member of that "
                "member, whatever the value (through allOf and references, or two keywords such as items and "
                "contains on one member), so each level of an instance nested that way doubles the work: 40 "
                "levels would take 2**40 steps",
                code="limit-exceeded",
                pointer=walk.where(key),
            )


def _doubles(
    key: str, steps: dict[str, list[Counter[str]]], next_keys: dict[str, set[str]], walk: "_Walk"
) -> bool:
    for member in steps[key]:
        if member.get(key, 0) >= 2:
            return True
        # two levels down, only through keys that come back to `key` one level further
        if any(key in next_keys[other] for other in member):
            if key in walk.doubled_below(member):
                return True
    return False


class _Level:
    """What one graph key's subschema does at one value, references not followed: how many
    subschemas it applies there, the targets of its references there, its member checks."""

    __slots__ = ("own", "references", "certain", "members")

    def __init__(self) -> None:
        self.own = 0
        self.references: list[list[str]] = []  # each reference's targets (several: dynamic)
        self.certain: list[list[str]] = []  # those every value meets (not behind anyOf, if, ...)
        self.members: list[ir.Check] = []  # the member checks every value meets


class _Walk:
    def __init__(
        self, graph: dict[str, ir.Node], tables: DynamicTables, live: set[str], document: str
    ) -> None:
        self.tables = tables
        self.document = document
        self.shapes = {key: self._level(graph[key]) for key in live}
        self.closures: dict[str, Counter[str]] = {}
        self.members: dict[frozenset[tuple[str, int]], list[Counter[str]]] = (
            {}
        )  # members_of's answers
        self.doubled: dict[frozenset[tuple[str, int]], frozenset[str]] = {}  # doubled_below's
        self.in_place: dict[int, list[list[str]]] = {}  # id(member node) -> its references' targets

    def _level(self, node: ir.Node) -> _Level:
        level = _Level()
        stack = [(node, True)]
        while stack:
            current, certain = stack.pop()
            level.own += 1
            for check in current.checks:
                if check.refers:
                    level.references.append(reference_targets(check, self.tables))
                    if certain:
                        level.certain.append(level.references[-1])
                elif certain and isinstance(check, _MEMBER_CHECKS):
                    level.members.append(check)
                # allOf applies every member to every value; anyOf stops at the first that
                # holds, oneOf's alternatives are told apart by type or a tag where they can
                # be, and if/then/else, not, dependentSchemas apply where they apply
                inherited = certain and isinstance(check, AllOf)
                stack.extend((inner, inherited) for inner in ir.applied_in_place(check))
        return level

    def where(self, key: str) -> str:
        """A key as an error's location: its pointer in the compiled document, else the key."""
        uri, _, pointer = key.partition("#")
        return pointer if uri == self.document else key

    def reject_in_place(self) -> None:
        """Each key's count of subschemas applied to one value, from the leaves up (iteratively:
        in-place chains can be thousands long); the first over MAX_APPLICATIONS is refused."""
        counts: dict[str, int] = {}
        for start in sorted(self.shapes):
            stack: list[tuple[str, bool]] = [(start, False)]
            while stack:
                key, ready = stack.pop()
                if key in counts:
                    continue
                level = self.shapes[key]
                if not ready:
                    stack.append((key, True))
                    stack.extend(
                        (t, False)
                        for targets in level.references
                        for t in targets
                        if t in self.shapes and t not in counts
                    )
                    continue
                # (a reference that may end at several targets, $dynamicRef, counts its largest)
                total = level.own + sum(
                    max(counts.get(t, 1) for t in targets) for targets in level.references
                )
                if total > MAX_APPLICATIONS:
                    raise SchemaError(
                        f"checking one value against this subschema applies {_at_least(total)} subschemas to "
                        "it (its allOf, anyOf, oneOf, not, if/then/else and references reach the same ones again "
                        f"and again), over the limit of {MAX_APPLICATIONS:,}: validation would take exponential "
                        "time",
                        code="limit-exceeded",
                        pointer=self.where(key),
                    )
                counts[key] = total

    def closure(self, key: str) -> Counter[str]:
        """The keys one application of `key` applies to the same value, with how many times
        (itself once; a dynamic reference as its largest target). Iterative, memoised; small, as
        reject_in_place bounds it."""
        stack: list[tuple[str, bool]] = [(key, False)]
        while stack:
            current, ready = stack.pop()
            if current in self.closures:
                continue
            level = self.shapes[current]
            if not ready:
                stack.append((current, True))
                stack.extend(
                    (t, False)
                    for targets in level.certain
                    for t in targets
                    if t in self.shapes and t not in self.closures
                )
                continue
            found: Counter[str] = Counter({current: 1})
            for targets in level.certain:
                found.update(self._one_of([self.closures.get(t, Counter()) for t in targets]))
            self.closures[current] = found
        return self.closures[key]

    def members_of(self, applied: Counter[str]) -> list[Counter[str]]:
        """For every key applied to one value (a closure: with how many times), the keys applied
        to each kind of member the value can have (see _kinds), with how many times (closed too)."""
        memo = frozenset((key, min(times, 2)) for key, times in applied.items())
        cached = self.members.get(memo)
        if cached is not None:
            return cached
        checks: list[ir.Check] = []
        for key, times in applied.items():
            checks.extend(self.shapes[key].members * min(times, 2))  # (twice is enough to tell)
        found = []
        for nodes in _kinds(checks):
            member: Counter[str] = Counter()
            for node in nodes:
                for targets in self._references_in_place(node):
                    member.update(self._one_of([self.closure(t) for t in targets]))
            if member:
                found.append(member)
        self.members[memo] = found  # (many members apply the same keys: a recursive schema's "#")
        return found

    def doubled_below(self, applied: Counter[str]) -> frozenset[str]:
        """The keys applied twice or more to one member of a value these keys are applied to."""
        memo = frozenset((key, min(times, 2)) for key, times in applied.items())
        found = self.doubled.get(memo)
        if found is None:
            found = frozenset(
                k
                for member in self.members_of(applied)
                for k, times in member.items()
                if times >= 2
            )
            self.doubled[memo] = found
        return found

    @staticmethod
    def _one_of(closures: list[Counter[str]]) -> Counter[str]:
        """What a reference applies: its target's closure; a dynamic one ends at one of its
        targets, so each key counts as often as the target applying it most (never their sum)."""
        if len(closures) == 1:
            return closures[0]
        merged: Counter[str] = Counter()
        for closure in closures:
            merged |= closure
        return merged

    def _references_in_place(self, node: ir.Node) -> list[list[str]]:
        """The targets of each reference a member's subschema follows in place, every value."""
        cached = self.in_place.get(id(node))
        if cached is not None:
            return cached
        found: list[list[str]] = []
        stack = [node]
        while stack:
            current = stack.pop()
            for check in current.checks:
                if check.refers:
                    targets = [t for t in reference_targets(check, self.tables) if t in self.shapes]
                    if targets:
                        found.append(targets)
                elif isinstance(check, AllOf):
                    stack.extend(ir.applied_in_place(check))
        self.in_place[id(node)] = found  # (the graph's nodes live as long as the walk)
        return found


def _at_least(count: int) -> str:
    return f"{count:,}" if count < 10**12 else f"about 2**{count.bit_length() - 1}"


def _kinds(checks: list[ir.Check]) -> list[list[ir.Node]]:
    """For each kind of member a value can have (a name some `properties` holds, a name a pattern
    matches, a name no other keyword takes, an index `prefixItems` names, a later index), the
    subschemas the checks apply to that member. Kinds that may be different members are kept
    apart (two patterns, a pattern and `additionalProperties`): only what certainly meets on one
    member is counted, so no schema is refused for a doubling it does not have."""
    by_name: dict[str, list[ir.Node]] = {}
    by_pattern: dict[str, list[ir.Node]] = {}
    others: list[ir.Node] = []  # additionalProperties
    prefixes: list[PrefixItems] = []
    every: list[tuple[int, ir.Node]] = []  # (first index, schema) of items and contains
    for c in checks:
        if isinstance(c, Properties):
            for name, node in c.entries:
                by_name.setdefault(name, []).append(node)
        elif isinstance(c, PatternProperties):
            for source, _, node in c.entries:
                by_pattern.setdefault(source, []).append(node)
        elif isinstance(c, AdditionalProperties) and c.schema is not None:
            others.append(c.schema)
        elif isinstance(c, PrefixItems):
            prefixes.append(c)
        elif isinstance(c, Items) and c.schema is not None:
            every.append((c.start, c.schema))
        elif isinstance(c, Contains) and c.schema is not None:
            every.append((0, c.schema))
    kinds: list[list[ir.Node]] = []
    for name, nodes in by_name.items():
        kinds.append(
            nodes
            + [n for source, more in by_pattern.items() if _matches(source, name) for n in more]
        )
    kinds.extend(by_pattern.values())
    kinds.append(others)
    prefix = max((len(c.schemas) for c in prefixes), default=0)
    for index in range(prefix + 1):  # each index prefixItems names, and the first one after them
        kinds.append(
            [c.schemas[index] for c in prefixes if index < len(c.schemas)]
            + [node for start, node in every if index >= start]
        )
    return [kind for kind in kinds if kind]


def _matches(source: str, name: str) -> bool:
    """Whether a patternProperties pattern matches a name `properties` holds, by the pattern's
    plan (the linear-time automaton where `re` could backtrack for ever); a pattern only `re`
    can run, with that risk, counts as matching no name (the schema's own name and pattern
    could otherwise hang this check)."""
    try:
        plan = plan_pattern(source)
    except RegexTranslationError:
        return False
    return plan.kind != UNSAFE and plan_search(plan)(name)
