"""What a keyword unit declares: each keyword (who knows it, how its value is checked, what it
lowers to) and each IR check (its cost, its fast and error code, what it evaluates for
unevaluated*). The registry (registry.py) collects them into a KeywordTables (below), and the
pipeline hands it to preflight, hygiene, lowering, planning, emission, the static types and the
profiles. (The reference interpreter, generator/reference/, has tables of its own.)

And what a unit receives from those stages, as Protocols: a unit imports none of the stages, so
the stages sit above the units (tests/test_layering.py). The emission contexts (emit/context.py)
are the fourth door.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol

from ..dialects import Dialect, Limits
from ..errors import SchemaError
from ..format_options import FormatOptions
from ..ir import Node
from ..static_types import TypesHook

if TYPE_CHECKING:
    from ..emit.context import Branch, ErrorContext, Evaluation, General
    from ..emit.tree import Stmt
    from ..ir import Check


def check_subschema(w: Walk, value: Any, pointer: str, depth: int) -> None:
    """The preflight check of a keyword whose value is one schema."""
    w.schema(value, pointer, depth + 1)


class ProfileView(Protocol):
    """A profile (profiles.py), as units read it."""

    @property
    def name(self) -> str: ...
    @property
    def draft(self) -> str | None: ...
    @property
    def dialect(self) -> Dialect: ...
    @property
    def limits(self) -> Limits: ...
    @property
    def fail_closed(self) -> bool: ...
    @property
    def type_arrays(self) -> bool: ...
    @property
    def schema_additional_properties(self) -> bool: ...
    @property
    def integer_multiple_of_only(self) -> bool: ...
    @property
    def format_options(self) -> FormatOptions: ...
    def keyword_status(self, keyword: str) -> str: ...


class Walk(Protocol):
    """Preflight's walk of a schema (preflight.py), for a keyword's check of its own value."""

    @property
    def profile(self) -> ProfileView: ...
    def fail(self, code: str, pointer: str, message: str) -> SchemaError: ...
    def unsafe_pattern(self, pointer: str, message: str) -> None: ...
    def describe(self, value: Any) -> str: ...
    def json_value(self, value: Any, pointer: str) -> None: ...
    def number(self, value: Any, pointer: str, keyword: str) -> None: ...
    def count(self, value: Any, pointer: str, keyword: str) -> None: ...
    def schema(self, schema: Any, pointer: str, depth: int) -> None: ...
    def schema_array(self, value: Any, pointer: str, keyword: str, depth: int) -> None: ...
    def schema_map(self, value: Any, pointer: str, depth: int) -> None: ...


@dataclass(frozen=True)
class Context:
    """Where a subschema sits while lowering: its document, pointer and base URI (drafts only).
    Lowering makes them; a unit passes them on and reads `base`."""

    document: str = ""
    pointer: str = ""
    base: str = ""


class Located(Protocol):
    """A location the resolver found (resolve.py Location): the schema there."""

    @property
    def schema(self) -> Any: ...


class Lowering(Protocol):
    """Lowering (lower.py), for a keyword's lowering of its value to IR checks."""

    @property
    def profile(self) -> ProfileView: ...
    @property
    def registry(self) -> object | None: ...  # (None: a schema lowered with no resolver)
    @property
    def dynamic_names(self) -> set[tuple[str, str]]: ...
    def node(self, schema: Any, pointer: str, ctx: Context | None = None) -> Node: ...
    def nodes(self, schemas: list[Any], pointer: str, ctx: Context | None) -> tuple[Node, ...]: ...
    def enforced(self, keyword: str, schema: dict[str, Any]) -> bool: ...
    def absolute(self, key: str) -> str: ...
    def lower_keyword(
        self, keyword: str, value: Any, schema: dict[str, Any], where: str, ctx: Context | None
    ) -> list[Check]: ...
    def resolve_reference(
        self, reference: str, base: str, where: str
    ) -> tuple[Located, str, tuple[int, ...], int] | None: ...


class Inlined(Protocol):
    """The plan's inlining decisions (plan/inlining.py), as a planner reads them."""

    def is_leaf(self, node: Node) -> bool: ...
    def inlinable(self, node: Node, depth: int) -> bool: ...


class Planning(Protocol):
    """The plan of a graph (plan/__init__.py), as a unit's planner reads it."""

    @property
    def dynamic(self) -> bool: ...
    @property
    def inlining(self) -> Inlined: ...


# The profiles and drafts, by name, in the order the drafts appeared.
DRAFTS = ("draft4", "draft6", "draft7", "draft2019-09", "draft2020-12")
SEED_PROFILES = ("octoscript", "strict", "lenient")


def drafts(first: str = "draft4", last: str = "draft2020-12") -> frozenset[str]:
    """The drafts from `first` to `last`, both included."""
    return frozenset(DRAFTS[DRAFTS.index(first) : DRAFTS.index(last) + 1])


ALL_DRAFTS = drafts()

# What each part of a unit is, as a function type.
Checker = Callable[["Walk", Any, str, int], None]  # preflight: raise SchemaError on a bad value
Lower = Callable[["Lowering", Any, dict[str, Any], str, "Context | None"], "list[Check]"]
FastEmit = Callable[
    ["Branch", Any], "list[Stmt]"
]  # checks of one exact type (`if ...: return False`)
GeneralEmit = Callable[["General", Any], "list[Stmt]"]  # in-place checks on any value
ErrorEmit = Callable[["ErrorContext", Any], "list[Stmt]"]
EvaluateEmit = Callable[["Evaluation", Any], None]


@dataclass(frozen=True)
class Keyword:
    """One keyword of a schema."""

    name: str
    vocabulary: str  # core, applicator, validation, unevaluated, meta-data, format, content
    known_by: frozenset[str]  # the profiles and drafts that enforce it
    check: Checker  # its value, checked by preflight
    lower: Lower | None = None  # its IR checks; None when a sibling reads it (`read_by`)
    read_by: str = ""  # the keyword whose lowering reads this one (then/else by if)
    annotation: frozenset[str] = frozenset()  # profiles where it is an annotation, never a check
    # profiles where it is an optional assertion: an option (format_options.py) makes it a check
    # (then `lower` is used) or leaves it an annotation (format, content)
    optional: frozenset[str] = frozenset()
    holds: str = ""  # where its value holds subschemas: "schema", "schemas" or "map" (resolve.py)


@dataclass(frozen=True)
class CheckKind:
    """How one kind of IR check becomes code."""

    ir: type  # the IR check class
    cost: int  # checks of a node run cheapest first (a stable order within one cost)
    # For the fast path's cost estimate (plan/cost.py), in units of one simple test: the check's
    # own work (a regex search is several), and whether it walks every member of the value (its
    # work and subschemas then count once per member).
    work: float = 1.0
    walks: bool = False
    fast: FastEmit | None = None  # for a check of one JSON type (applies_to)
    general: GeneralEmit | None = None  # for an in-place check (applies_to is None)
    error: ErrorEmit | None = None
    evaluates: EvaluateEmit | None = None  # the keys/indices it evaluates, for unevaluated*


@dataclass(frozen=True, eq=False)
class KeywordTables:
    """The registry's tables (registry.py builds the one instance, TABLES, from the units), as the
    pipeline hands them to the stages: preflight reads each keyword's check, lowering its lowering
    and the definitions, planning and emission the checks, planners and messages, the static types
    the hooks and notes, the profiles who knows each keyword. A stage reads these and imports no
    unit. (Compared and hashed by identity: stages cache what they derive from it.)"""

    keywords: Mapping[str, Keyword]
    checks: Mapping[type, CheckKind]
    # message name ("type", "oneOf.several") -> its template (emit/context.py, "errors")
    messages: Mapping[str, str]
    # each planner (node, plan) -> that unit's part of the node's plan (plan/parts.py)
    planners: tuple[Callable[..., Any], ...]
    # the `types` hooks (render/types.py), in the order a node's types are read and intersected
    type_hooks: tuple[TypesHook, ...]
    type_notes: Mapping[str, str]  # why a type is Any, as a comment says it
    # a schema's definitions ($defs), as pointer paths: each is a named type (render/types.py)
    definitions: Callable[[Any], list[tuple[str, ...]]]

    @functools.cached_property
    def ranks(self) -> dict[type, int]:
        """Check class -> its rank in a node's order (plan/order.py)."""
        return {kind: c.cost for kind, c in self.checks.items()}

    @functools.cached_property
    def holding(self) -> dict[str, tuple[bool, bool, bool]]:
        """Keyword -> whether its value may be a schema, an array of schemas, a map of schemas
        (Keyword.holds), for the resolver's index (resolve.KeywordReading)."""
        table = {}
        for name, keyword in self.keywords.items():
            forms = keyword.holds.split(" or ")
            if keyword.holds:
                table[name] = ("schema" in forms, "schemas" in forms, keyword.holds == "map")
        return table

    @functools.cached_property
    def holders(self) -> frozenset[str]:
        """The keywords whose values hold subschemas."""
        return frozenset(name for name, keyword in self.keywords.items() if keyword.holds)

    def enforced_by(self, profile: str) -> frozenset[str]:
        """The keywords a profile or draft enforces."""
        return frozenset(k.name for k in self.keywords.values() if profile in k.known_by)

    def annotations_of(self, profile: str) -> frozenset[str]:
        """The keywords a profile or draft knows as annotations (values checked, never a check)."""
        return frozenset(k.name for k in self.keywords.values() if profile in k.annotation)

    def optional_assertions(self, profile: str) -> list[Keyword]:
        """The keywords that are optional assertions in a profile or draft (format; content in
        draft 7): an option makes them checks (see profiles.with_formats)."""
        return [k for k in self.keywords.values() if profile in k.optional]

    def vocabulary(self, name: str) -> frozenset[str]:
        """The keywords of one vocabulary (a custom meta-schema's $vocabulary can leave it out)."""
        return frozenset(
            k.name for k in self.keywords.values() if k.vocabulary == name and k.known_by
        )
