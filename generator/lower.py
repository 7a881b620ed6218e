"""Stage 4, lower: a preflighted schema to IR nodes.

The walk is here; what each keyword lowers to is declared by its unit (generator/keywords/). A
lowering function receives the keyword's value and the whole schema object (for keywords that
read a sibling, as `items` reads `prefixItems`) and returns the checks it contributes. For the
drafts, every schema a reference reaches is lowered too, into one graph keyed by location.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterable, Iterator
from urllib.parse import urldefrag

from . import ir
from .dialects import DIALECTS
from .errors import SchemaError, join_pointer
from .keywords.base import Context, KeywordTables
from .preflight import preflight
from .profiles import Profile, profile_below
from .resolve import KeywordReading, Location, Registry, embedded_draft


class Lowering:
    """Lowers one schema, and (for the drafts) every schema its references reach, into `graph`."""

    def __init__(
        self,
        profile: Profile,
        registry: Registry | None = None,
        preflighted: tuple[str, set[str]] = ("", set()),
        *,
        tables: KeywordTables,
    ) -> None:
        self.root_profile = profile
        self.tables = tables  # the registry's: what each keyword lowers to
        # the profile of the schema being lowered: a document or embedded resource of another
        # draft is lowered by that draft's rules (see in_draft)
        self.profile = profile
        self.registry = registry
        self.graph: dict[str, ir.Node] = {}  # location key -> node, for reference targets
        self.pending: list[Location] = []
        self._scheduled: set[str] = set()  # keys in graph or pending
        self.resource_ids: dict[str, int] = {}
        self.dynamic_names: set[tuple[str, str]] = set()  # (mode, anchor) of dynamic references
        # (document URI, pointers): the subschemas of the compiled document that preflight
        # already checked under the root's profile (api.prepare)
        self._root_checked = preflighted
        # unresolvable references met so far: lowering goes on past them so that every one is
        # reported together (one SchemaError whose .errors lists each) when it ends
        self.unresolved: list[SchemaError] = []
        # a location that starts a cycle of plain {"$ref"} schemas -> the error of the first
        # reference that reached it (raised by reject_ref_cycles if an instance can get there)
        self.chain_cycles: dict[str, SchemaError] = {}
        self._referred_from: dict[str, str] = (
            {}
        )  # target key -> pointer of the first reference to it

    # -- nodes --------------------------------------------------------------------------------
    def node(self, schema: Any, pointer: str, ctx: Context | None = None) -> ir.Node:
        if isinstance(schema, bool):
            return ir.Node(pointer=pointer, boolean=schema)
        resource = None
        if ctx is not None and self.registry is not None:
            key = ctx.document + "#" + pointer
            # a schema the registry did not index (one in an unknown keyword, reached by a
            # pointer) has the base it is in: its `$id` identifies nothing, as python-jsonschema,
            # jsonschema-rs and the reference read it (2020-12 leaves it undefined, 9.4.2)
            base = self.registry.bases.get(key, ctx.base)
            ctx = Context(ctx.document, pointer, base)
            if key in self.registry.resource_of:
                resource = self.resource_id(self.registry.resource_of[key])
        embedded = embedded_draft(schema, pointer) if ctx is not None else None
        if embedded is not None:
            # an embedded resource of another draft (a document's own draft is set by lower_pending)
            with self.in_draft(embedded):
                return self._node(schema, pointer, ctx, resource)
        return self._node(schema, pointer, ctx, resource)

    def _node(
        self, schema: dict[str, Any], pointer: str, ctx: Context | None, resource: int | None
    ) -> ir.Node:
        types: tuple[str, ...] | None = None
        checks: list[ir.Check] = []
        written: list[str] = []
        entries: Iterable[tuple[str, Any]] = schema.items()
        if self.profile.dialect.ref_alone and "$ref" in schema:
            entries = [("$ref", schema["$ref"])]  # before 2019-09 a $ref's siblings are ignored
        for keyword, value in entries:
            if self.profile.keyword_status(keyword) != "enforced":
                continue  # annotations, and unknown keywords of a fail-open profile
            written.append(keyword)
            lowering = self.tables.keywords[keyword].lower
            if lowering is None:
                continue  # read by a sibling's lowering (then/else by if)
            for check in lowering(self, value, schema, join_pointer(pointer, keyword), ctx):
                if isinstance(check, ir.Types):
                    types = check.names
                else:
                    checks.append(check)
        return ir.Node(
            pointer=pointer,
            types=types,
            checks=tuple(checks),
            float_integers=self.profile.float_integers,
            resource=resource,
            written=tuple(written),
        )

    def lower_keyword(
        self, keyword: str, value: Any, schema: dict[str, Any], where: str, ctx: Context | None
    ) -> list[ir.Check]:
        """The checks `keyword`'s unit lowers `value` to: for a keyword that reads as another
        (dependencies' array form is dependentRequired)."""
        lowering = self.tables.keywords[keyword].lower
        assert lowering is not None, keyword
        return lowering(self, value, schema, where, ctx)

    def enforced(self, keyword: str, schema: dict[str, Any]) -> bool:
        """Whether a sibling keyword is in the schema and enforced by the profile in force."""
        return keyword in schema and self.profile.keyword_status(keyword) == "enforced"

    @contextmanager
    def in_draft(self, draft: str | None) -> Iterator[None]:
        """Lower by `draft`'s rules inside: the root's profile for its own draft (with the
        vocabularies it leaves out), else that draft's profile with the root's limits (and its
        unsafe-pattern policy). An
        unknown meta-schema (None) keeps the draft in force."""
        outer = self.profile
        self.profile = profile_below(draft, outer, self.root_profile, self.tables)
        try:
            yield
        finally:
            self.profile = outer

    def draft_at(self, location: Location) -> str:
        """The draft in force at a location: its document's, or an embedded `$schema`'s above it."""
        assert self.registry is not None
        pointer = location.pointer
        while True:
            found = self.registry.dialects.get(location.document.uri + "#" + pointer)
            if found is not None:
                return found
            if not pointer:
                return location.document.draft
            pointer = pointer.rpartition("/")[0]

    def nodes(self, schemas: list[Any], pointer: str, ctx: Context | None) -> tuple[ir.Node, ...]:
        return tuple(self.node(s, join_pointer(pointer, i), ctx) for i, s in enumerate(schemas))

    def absolute(self, key: str) -> str:
        """The absolute URI of a location: its resource's URI and the pointer within it."""
        assert self.registry is not None
        document, _, pointer = key.partition("#")
        best, best_length = document, 0
        for uri, (doc, root) in self.registry.resources.items():
            if (
                doc == document
                and (pointer == root or pointer.startswith(root + "/"))
                and len(root) >= best_length
            ):
                if len(root) > best_length or best == document:
                    best, best_length = uri, len(root)
        return best + "#" + pointer[best_length:]

    def enters(self, location: Location) -> int:
        """The resource a reference to `location` enters (the one that contains it)."""
        return self.resource_id(urldefrag(location.base)[0])

    def resource_id(self, uri: str) -> int:
        return self.resource_ids.setdefault(uri, len(self.resource_ids))

    # -- references -----------------------------------------------------------------------
    def target(self, location: Location, where: str) -> str:
        """The graph key of a location, scheduling its lowering (no chain is followed)."""
        if location.key not in self._scheduled:
            self._scheduled.add(location.key)
            self.pending.append(location)
            self._referred_from[location.key] = where
        return location.key

    def resolve_reference(
        self, reference: str, base: str, where: str
    ) -> tuple[Location, str, tuple[int, ...], int] | None:
        """A reference's target location, and `follow`'s answer for it; None (the reference
        recorded in `unresolved`, reported when lowering ends) when it does not resolve."""
        assert self.registry is not None
        try:
            location = self.registry.lookup(reference, base, where)
            return (location, *self.follow(location, where))
        except SchemaError as error:
            if error.code != "unresolvable-ref":
                raise
            self.unresolved.append(error)
            return None

    def follow(self, location: Location, where: str) -> tuple[str, tuple[int, ...], int]:
        """The graph key of a reference target and the resources the reference enters. A target
        that is only another reference is followed at compile time (so long chains cost nothing
        at run time; each hop still enters its resource); a chain that comes back to itself can
        never finish and is a SchemaError."""
        assert self.registry is not None
        seen: set[str] = set()
        enters = [self.enters(location)]
        while True:
            schema = location.schema
            if not (
                isinstance(schema, dict)
                and set(schema) == {"$ref"}
                and isinstance(schema["$ref"], str)
            ):
                break
            if location.key in seen:
                # an error only if an instance can reach it (reject_ref_cycles decides), so the
                # chain stops here: its members are lowered as the references they are
                self.chain_cycles.setdefault(
                    location.key,
                    SchemaError(
                        "this $ref starts a cycle of references that never reaches a schema",
                        code="ref-cycle",
                        pointer=where,
                    ),
                )
                break
            seen.add(location.key)
            location = self.registry.lookup(
                schema["$ref"], location.base, location.pointer + "/$ref"
            )
            enters.append(self.enters(location))
        return self.target(location, where), tuple(dict.fromkeys(enters)), len(seen)

    def lower_pending(self) -> None:
        """Lower every scheduled reference target (iteratively: no recursion through refs)."""
        assert self.registry is not None
        while True:
            while self.pending:
                location = self.pending.pop()  # (each key is scheduled once: see target)
                with self.in_draft(self.draft_at(location)), self.located(location):
                    self.check_target(location)
                    ctx = Context(location.document.uri, location.pointer, location.base)
                    self.graph[location.key] = self.node(location.schema, location.pointer, ctx)
            added = False
            for mode, anchor in sorted(self.dynamic_names):
                for _, location in self.dynamic_candidates(mode, anchor):
                    if location.key not in self._scheduled:
                        self.target(location, "")
                        added = True
            if not added:
                break
        if self.unresolved:
            raise SchemaError.combine(self.unresolved, "unresolvable references")

    @contextmanager
    def located(self, location: Location) -> Iterator[None]:
        """Inside: what is found wrong while lowering a location of another document than the
        compiled one (a registry's file) is located in that document, by its URI (the pointers
        of a document's own lowering are its own; a pointer alone would name a place in the
        compiled file)."""
        uri = location.document.uri
        if uri == self._root_checked[0]:
            yield
            return
        unresolved, cycles = len(self.unresolved), set(self.chain_cycles)
        try:
            yield
        except SchemaError as error:
            raise error.in_document(uri) from None
        finally:
            self.unresolved[unresolved:] = [
                error.in_document(uri) for error in self.unresolved[unresolved:]
            ]
            for key in set(self.chain_cycles) - cycles:
                self.chain_cycles[key] = self.chain_cycles[key].in_document(uri)

    def check_target(self, location: Location) -> None:
        """Preflight a reference target (it may lie in another document or an unknown keyword);
        lower_pending asks once a location."""
        document, checked = self._root_checked
        if (
            self.profile is self.root_profile
            and location.document.uri == document
            and location.pointer in checked
        ):
            return  # preflight checked it already, by the same rules
        try:
            preflight(  # by the rules it is lowered by
                location.schema, self.profile, tables=self.tables, pointer=location.pointer
            )
        except SchemaError as error:
            referrer = self._referred_from.get(location.key)
            if error.code != "not-a-schema" or error.pointer != location.pointer or not referrer:
                raise
            # a non-schema that only a reference makes a schema (an entry of $defs, say)
            raise SchemaError(
                f"{error.message}, and the reference at {referrer} names it as one",
                code=error.code,
                pointer=error.pointer,
            ) from None

    def dynamic_candidates(self, mode: str, anchor: str) -> list[tuple[str, Location]]:
        """Every (resource, location) a dynamic reference could end at: each resource's anchor of
        that name ($dynamicRef), or each resource with `$recursiveAnchor: true` ($recursiveRef)."""
        assert self.registry is not None
        found = []
        if mode == "dynamic":
            for resource, names in sorted(self.registry.dynamic_anchors.items()):
                if anchor in names:
                    document, _, pointer = names[anchor].partition("#")
                    found.append((resource, self.registry.location(document, pointer)))
        else:
            for resource in sorted(self.registry.recursive_anchors):
                document, pointer = self.registry.resources[resource]
                found.append((resource, self.registry.location(document, pointer)))
        return found

    def dynamic_tables(self) -> DynamicTables:
        """For each dynamic reference (mode, anchor): (resource id, graph key) of every target it
        may pick at run time."""
        return {
            (mode, anchor): [
                (self.resource_id(resource), location.key)
                for resource, location in self.dynamic_candidates(mode, anchor)
            ]
            for mode, anchor in sorted(self.dynamic_names)
        }


# (mode, anchor) of a dynamic reference -> [(resource id, graph key of a possible target)]
DynamicTables = dict[tuple[str, str], list[tuple[int, str]]]


def reject_ref_cycles(
    graph: dict[str, ir.Node],
    tables: DynamicTables,
    root: str | None = None,
    chain_cycles: dict[str, SchemaError] | None = None,
) -> set[str]:
    """A reference that leads back to its own schema without descending into the instance would
    make validation run forever: refuse it (`ref-cycle`), naming the reference. Only a cycle that
    some instance can reach counts: with `root`, the search starts from what the root reaches
    (through every applied subschema and reference, `reachable`), so a cycle that lies only
    behind a branch nothing applies (the `then` of `"if": false`) is no error. `chain_cycles`
    (Lowering.chain_cycles): the cycles of plain references lowering met, by where they start.
    Returns the keys searched (what the root reaches: doubling.py searches them too)."""
    edges = {key: in_place_targets(node, tables) for key, node in graph.items()}
    live = set(graph) if root is None else reachable(graph, tables, root)
    for key, error in (chain_cycles or {}).items():  # in the order lowering met them
        if key in live:
            raise error
    starts = sorted(live)
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for start in starts:
        if start in state:
            continue
        stack: list[tuple[str, int]] = [(start, 0)]
        state[start] = 1
        while stack:
            key, index = stack.pop()
            if index >= len(edges[key]):
                state[key] = 2
                continue
            stack.append((key, index + 1))
            target, where = edges[key][index]
            if state.get(target) == 1:
                raise SchemaError(
                    "this reference loops back to itself without consuming any of the instance, "
                    "so validation could never finish",
                    code="ref-cycle",
                    pointer=where,
                )
            if target not in state and target in edges:
                state[target] = 1
                stack.append((target, 0))
    return live


def reference_targets(check: ir.Check, tables: DynamicTables) -> list[str]:
    """The graph keys a reference check may lead to (every candidate of a dynamic one)."""
    found = [check.target]  # type: ignore[attr-defined]
    mode = check.mode  # type: ignore[attr-defined]
    if mode:
        found += [key for _, key in tables.get((mode, check.anchor), [])]  # type: ignore[attr-defined]
    return found


def reachable(graph: dict[str, ir.Node], tables: DynamicTables, root: str) -> set[str]:
    """The graph keys an instance can reach from `root`: through every subschema a check may
    apply (in place or to a member) and every reference, but not through a subschema that is
    never applied (`Check.never_applied`)."""
    seen = {root}
    pending = [root]
    while pending:
        nodes = [graph[pending.pop()]]
        while nodes:
            node = nodes.pop()
            for check in node.checks:
                if check.refers:
                    for key in reference_targets(check, tables):
                        if key not in seen and key in graph:
                            seen.add(key)
                            pending.append(key)
                nodes.extend(ir.applied_subschemas(check))
    return seen


def in_place_targets(node: ir.Node, tables: DynamicTables) -> list[tuple[str, str]]:
    """(target key, reference pointer) of every reference a node reaches without descending into
    the instance: following those in a cycle would never end."""
    found: list[tuple[str, str]] = []
    stack = [node]
    while stack:
        current = stack.pop()
        for check in current.checks:
            if check.refers:
                found += [(key, check.where) for key in reference_targets(check, tables)]  # type: ignore[attr-defined]
            stack.extend(ir.applied_in_place(check))
    return found


def compiler_reading(tables: KeywordTables) -> KeywordReading:
    """What the resolver's index reads of the keywords, for the compiler: the dialects, and where
    each keyword holds subschemas as its unit declares it."""
    return KeywordReading(dialects=DIALECTS, holding=tables.holding)


# -- for the static types (render/types.py) ----------------------------------------------------------


@dataclass(frozen=True)
class Lowered:
    """A lowering and the graph key of the root it started from (for a seed profile, without
    references, the root is lowered alone under the key "")."""

    lowering: Lowering
    root: str


def lower_root(
    schema: Any,
    profile: Profile,
    tables: KeywordTables,
    supplied: Any = None,
    base_uri: str = "",
    fragment: str = "",
    indexed: Registry | None = None,
) -> Lowered:
    """Lower a schema that compiled as api.build lowers it (the registry mapping `supplied`, the
    document under `base_uri`, the subschema `fragment` names), for its static types. `indexed`:
    the compile's registry with the document alone indexed (api.Built.indexed), reused. Whatever
    does not lower (what the compile never reached) is left out of the graph."""
    if profile.draft is None:
        lowering = Lowering(profile, tables=tables)
        lowering.graph[""] = lowering.node(schema, "")
        return Lowered(lowering, "")
    supplied = dict(supplied or {})
    if indexed is not None and indexed.draft == profile.draft:
        registry = indexed.copy(supplied)  # (the same tables: no second walk)
    else:
        registry = Registry(
            draft=profile.draft, reading=compiler_reading(tables), supplied=supplied
        )
    document = registry.add(base_uri, schema, profile.draft)
    if fragment:
        start = registry.lookup("#" + fragment.lstrip("#"), document.uri, "")
    else:
        start = registry.location(document.uri, "")
    lowering = Lowering(profile, registry, tables=tables)
    lower_targets(lowering, [start])
    return Lowered(lowering, start.key)


def lower_targets(lowering: Lowering, locations: list[Location]) -> None:
    """Lower these locations too, and what they reach, into `lowering.graph` (definitions no
    reference named, say). A location that fails to lower is left out; the others go on."""
    for location in locations:
        lowering.target(location, "")
    while True:
        try:
            lowering.lower_pending()
            return
        except SchemaError:
            if not lowering.pending:
                return  # (lowering ended, with references that do not resolve)


def lower_definitions(lowered: Lowered) -> list[tuple[str, str]]:
    """The definitions of a lowered root's document below the root (and theirs), in document
    order, as (graph key, entry name), each lowered (the units say which keywords hold them:
    KeywordTables.definitions). Documents they reach are read from a copy of the registry's
    mapping: what the compile never read stays out of the module's header (a ReadLog records what
    it is asked)."""
    registry = lowered.lowering.registry
    assert registry is not None
    document, _, pointer = lowered.root.partition("#")
    start = registry.location(document, pointer)
    locations = [
        (registry.location(document, join_pointer(pointer, *path)), path[-1])
        for path in lowered.lowering.tables.definitions(start.schema)
    ]
    recording = registry.supplied
    registry.supplied = dict(recording)
    try:
        lower_targets(lowered.lowering, [location for location, _ in locations])
    finally:
        registry.supplied = recording
    return [(location.key, entry) for location, entry in locations]
