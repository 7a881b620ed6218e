"""The intermediate representation: a schema lowered to typed checks (frozen dataclasses).

A Node is one subschema. Its checks are grouped by the JSON type they apply to; checks of other
types are ignored for a value, as JSON Schema says. Equality of nodes is structural (locations are
excluded), so identical subschemas can share one emitted function; values that JSON equality must
tell apart (true vs 1) are compared through their canonical JSON text, never Python ==.

The check classes live with their keywords, in the units of generator/keywords/; this module holds
what every stage shares: the node, the check base class and its class-level facts.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, fields
from decimal import Decimal
from typing import Any, ClassVar, Union

Number = Union[int, float, Decimal]

# The names `type` takes, in the order the error path lists them.
TYPE_NAMES = ("null", "boolean", "object", "array", "number", "integer", "string")


@dataclass(frozen=True)
class Node:
    pointer: str = field(compare=False)  # where the subschema is, for comments only
    boolean: bool | None = None  # a true/false schema
    types: tuple[str, ...] | None = None  # allowed JSON types, None: any
    checks: tuple["Check", ...] = ()
    float_integers: bool = True  # a float like 1.0 counts as "integer" (not in draft 4)
    resource: int | None = (
        None  # id of the schema resource this node is the root of (dynamic scope)
    )
    # the enforced keywords the subschema wrote, lowered or not (`"properties": {}` lowers to no
    # check but still says "an object" to the static types, render/types.py)
    written: tuple[str, ...] = field(default=(), compare=False)

    # (not a field: the class's None until the instance's own hash is stored)
    _hash = None

    def __hash__(self) -> int:
        """Structural, and computed once: nodes key the emitter's tables, and a large schema's
        nodes are deep (the generated hash would walk the whole subtree at every lookup)."""
        cached: int | None = self._hash
        if cached is None:
            cached = hash(
                (self.boolean, self.types, self.checks, self.float_integers, self.resource)
            )
            object.__setattr__(self, "_hash", cached)
        return cached

    def __getstate__(self) -> dict[str, Any]:
        """Pickled and copied without the cached hash (str hashes differ between processes)."""
        return {name: value for name, value in self.__dict__.items() if name != "_hash"}


@dataclass(frozen=True)
class Check:
    keyword: str  # the keyword, for keyword_location

    # The JSON type a check applies to ("object", "array", "string", "number") or None: any value.
    applies_to: ClassVar[str | None] = None
    # Whether the check leads to another node of the graph (a reference) rather than holding one.
    refers: ClassVar[bool] = False
    # Whether the fast path checks it in every type's branch, though it applies to any value
    # (enum/const: each type compares with its own values).
    on_every_type: ClassVar[bool] = False
    # The fields holding subschemas applied to the same instance (allOf's schemas, not's schema...).
    in_place_fields: ClassVar[tuple[str, ...]] = ()
    # For unevaluated*: the JSON type whose members all count as evaluated once the node holds.
    evaluates_all: ClassVar[str | None] = None

    @property
    def leaf(self) -> bool:
        """A check that holds no subschema and leads to none: cheap to copy anywhere."""
        return not self.refers and not subschemas(self)

    @property
    def static_reference(self) -> bool:
        """A reference whose target is known at compile time (not $dynamicRef/$recursiveRef)."""
        return False

    def named_subschemas(self) -> tuple[tuple[str, Node], ...]:
        """The subschemas it applies to an object's members by name (`properties`), else ()."""
        return ()

    def member_steps(self) -> tuple[tuple[Member, Node], ...] | None:
        """The subschemas it applies to members of the value, each with the members it reaches
        (see Member); None: not said, so each subschema it holds past the in-place ones may reach
        any member (doubling.py pairs the steps)."""
        return None

    def constant_values(self) -> tuple[Any, ...] | None:
        """The values it allows, all others failing (`enum`, `const`), else None."""
        return None

    def never_applied(self) -> tuple[Node, ...]:
        """The subschemas this check holds but applies to no value at all (the `then` of an `if`
        that no value passes): what lies only there is unreachable (see lower.reject_ref_cycles)."""
        return ()


# The members of a value a check applies a subschema to (Check.member_steps).


@dataclass(frozen=True)
class ByName:
    """The property of this name (`properties`)."""

    name: str


@dataclass(frozen=True)
class ByPattern:
    """The properties whose names this pattern (an ECMA-262 source) matches."""

    source: str


@dataclass(frozen=True)
class Additional:
    """The properties neither named in `known` nor matched by one of `patterns`."""

    known: tuple[str, ...]
    patterns: tuple[str, ...]


@dataclass(frozen=True)
class AtIndex:
    """The item at this index (`prefixItems`)."""

    index: int


@dataclass(frozen=True)
class FromIndex:
    """Any item at this index or after it (`items`, `contains`, `unevaluatedItems`)."""

    start: int


@dataclass(frozen=True)
class AnyProperty:
    """Any property's value (`unevaluatedProperties`)."""


@dataclass(frozen=True)
class PropertyName:
    """The property names themselves, as strings (`propertyNames`)."""


Member = Union[ByName, ByPattern, Additional, AtIndex, FromIndex, AnyProperty, PropertyName]


@dataclass(frozen=True)
class Types(Check):
    """`type`: the JSON types a value may have. Lowering moves it into `Node.types` (the fast path
    dispatches on it, the error path tests it first); it is never a check of its own."""

    names: tuple[str, ...] = ()


def always_true(node: Node) -> bool:
    """A subschema every value passes: `true`, or `{}` with nothing to check."""
    return node.boolean is True or (node.boolean is None and node.types is None and not node.checks)


def rejects_kinds(node: Node, kinds: tuple[str, ...]) -> bool:
    """No value of these JSON types passes `node` (its `type` excludes them all)."""
    return node.boolean is False or (
        node.types is not None and not any(k in node.types for k in kinds)
    )


def in_place(check: Check) -> list[Node]:
    """The subschemas a check applies to the same instance (in-place applicators)."""
    found: list[Node] = []
    for name in check.in_place_fields:
        _collect(getattr(check, name), found)
    return found


def _collect(value: Any, found: list[Node]) -> None:
    if isinstance(value, Node):
        found.append(value)
    elif isinstance(value, tuple):
        for part in value:
            _collect(part, found)


def applied_in_place(check: Check) -> list[Node]:
    """in_place(check) less what it never applies."""
    dead = check.never_applied()
    return [node for node in in_place(check) if not any(node is d for d in dead)]


def applied_subschemas(check: Check) -> list[Node]:
    """subschemas(check) less what it never applies."""
    dead = check.never_applied()
    return [node for node in subschemas(check) if not any(node is d for d in dead)]


def subschemas(check: Check) -> list[Node]:
    """Every subschema a check holds (in place or on properties/items), references not followed.
    Found once per check (every stage asks, many times): kept beside its fields, out of its
    comparison and hash."""
    cached: tuple[Node, ...] | None = check.__dict__.get("_subschemas")
    if cached is None:
        found: list[Node] = []
        kind: type = type(check)  # (mypy takes a dataclass's own type for unhashable)
        for name in _field_names(kind):
            _collect(getattr(check, name), found)
        cached = tuple(found)
        object.__setattr__(check, "_subschemas", cached)
    return list(cached)


@functools.cache
def _field_names(kind: type) -> tuple[str, ...]:
    """The field names of a check class (dataclasses.fields() builds them anew at each call)."""
    return tuple(f.name for f in fields(kind))
