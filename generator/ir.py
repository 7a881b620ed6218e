"""The intermediate representation: a schema lowered to typed checks (frozen dataclasses).

A Node is one subschema. Its checks are grouped by the JSON type they apply to; checks of other
types are ignored for a value, as JSON Schema says. Equality of nodes is structural (locations are
excluded), so identical subschemas can share one emitted function; values that JSON equality must
tell apart (true vs 1) are compared through their canonical JSON text, never Python ==.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from decimal import Decimal
from typing import Any, Union

Number = Union[int, float, Decimal]


@dataclass(frozen=True)
class Node:
    pointer: str = field(compare=False)  # where the subschema is, for comments only
    boolean: bool | None = None  # a true/false schema
    types: tuple[str, ...] | None = None  # allowed JSON types, None: any
    checks: tuple["Check", ...] = ()
    float_integers: bool = True  # a float like 1.0 counts as "integer" (not in draft 4)
    resource: int | None = None  # id of the schema resource this node is the root of (dynamic scope)


@dataclass(frozen=True)
class Check:
    keyword: str  # the keyword, for keyword_location

    # The JSON type a check applies to ("object", "array", "string", "number") or None: any value.
    applies_to = None


@dataclass(frozen=True)
class Required(Check):
    names: tuple[str, ...] = ()
    applies_to = "object"


@dataclass(frozen=True)
class Properties(Check):
    entries: tuple[tuple[str, Node], ...] = ()
    applies_to = "object"


@dataclass(frozen=True)
class AdditionalProperties(Check):
    known: tuple[str, ...] = ()  # names covered by properties
    schema: Node | None = None
    patterns: tuple[str, ...] = ()  # Python translations of the patternProperties patterns
    applies_to = "object"


@dataclass(frozen=True)
class PatternProperties(Check):
    entries: tuple[tuple[str, str, Node], ...] = ()  # (ECMA source, Python translation, schema)
    applies_to = "object"


@dataclass(frozen=True)
class PropertyNames(Check):
    schema: Node | None = None
    applies_to = "object"


@dataclass(frozen=True)
class PropertyCount(Check):
    bound: int = 0
    at_least: bool = True  # minProperties (True) or maxProperties (False)
    applies_to = "object"


@dataclass(frozen=True)
class DependentRequired(Check):
    entries: tuple[tuple[str, tuple[str, ...]], ...] = ()
    applies_to = "object"


@dataclass(frozen=True)
class DependentSchemas(Check):
    entries: tuple[tuple[str, Node], ...] = ()
    applies_to = "object"


@dataclass(frozen=True)
class Contains(Check):
    schema: Node | None = None
    minimum: int = 1
    maximum: int | None = None
    min_keyword: str = "contains"  # where a too-small count is reported
    annotates: bool = False  # contains' matches count as evaluated items (2020-12)
    applies_to = "array"


@dataclass(frozen=True)
class Unevaluated(Check):
    schema: Node | None = None
    applies_to = "object"  # "array" for unevaluatedItems (set per instance)


@dataclass(frozen=True)
class UnevaluatedItems(Unevaluated):
    applies_to = "array"


@dataclass(frozen=True)
class Ref(Check):
    target: str = ""  # graph key of the target node
    where: str = field(default="", compare=False)  # pointer of the reference, for messages
    # Dynamic references: "dynamic" ($dynamicRef) or "recursive" ($recursiveRef), with the
    # anchor name; None for a plain static reference.
    mode: str | None = None
    anchor: str = ""
    enter: tuple[int, ...] = ()  # resources entered by following it (one per hop of a ref chain)
    hops: int = 0  # plain {"$ref"} schemas followed at compile time: each adds "/$ref" to locations
    absolute: str = ""  # the absolute URI of the target (for absolute_keyword_location)


@dataclass(frozen=True)
class IfThenElse(Check):
    condition: Node | None = None
    then: Node | None = None
    otherwise: Node | None = None


@dataclass(frozen=True)
class PrefixItems(Check):
    schemas: tuple[Node, ...] = ()
    applies_to = "array"


@dataclass(frozen=True)
class Items(Check):
    start: int = 0  # items before `start` are prefixItems' business
    schema: Node | None = None
    applies_to = "array"


@dataclass(frozen=True)
class ItemCount(Check):
    bound: int = 0
    at_least: bool = True  # minItems (True) or maxItems (False)
    applies_to = "array"


@dataclass(frozen=True)
class UniqueItems(Check):
    applies_to = "array"


@dataclass(frozen=True)
class StringLength(Check):
    bound: int = 0
    at_least: bool = True  # minLength (True) or maxLength (False)
    applies_to = "string"


@dataclass(frozen=True)
class Pattern(Check):
    source: str = ""  # the ECMA-262 pattern as written
    python: str = ""  # its Python `re` translation
    applies_to = "string"


@dataclass(frozen=True)
class NumberBound(Check):
    bound: Number = 0  # integral bounds are ints, so comparisons never go through float
    op: str = ">="  # the relation the instance must have to the bound: >=, >, <=, <
    applies_to = "number"


@dataclass(frozen=True)
class MultipleOf(Check):
    divisor: Number = 1
    applies_to = "number"


@dataclass(frozen=True)
class Enum(Check):
    values: tuple[Any, ...] = field(default=(), compare=False)
    canonical: str = ""  # canonical JSON of the values: what equality of checks looks at


@dataclass(frozen=True)
class AllOf(Check):
    schemas: tuple[Node, ...] = ()


@dataclass(frozen=True)
class AnyOf(Check):
    schemas: tuple[Node, ...] = ()


@dataclass(frozen=True)
class OneOf(Check):
    schemas: tuple[Node, ...] = ()


@dataclass(frozen=True)
class Not(Check):
    schema: Node | None = None


def always_true(node: Node) -> bool:
    """A subschema every value passes: `true`, or `{}` with nothing to check."""
    return node.boolean is True or (node.boolean is None and node.types is None and not node.checks)


def in_place(check: Check) -> list[Node]:
    """The subschemas a check applies to the same instance (in-place applicators)."""
    if isinstance(check, (AllOf, AnyOf, OneOf)):
        return list(check.schemas)
    if isinstance(check, Not):
        return [check.schema] if check.schema is not None else []
    if isinstance(check, IfThenElse):
        return [n for n in (check.condition, check.then, check.otherwise) if n is not None]
    if isinstance(check, DependentSchemas):
        return [sub for _, sub in check.entries]
    return []


def subschemas(check: Check) -> list[Node]:
    """Every subschema a check holds (in place or on properties/items), references not followed."""
    found: list[Node] = []

    def collect(value: Any) -> None:
        if isinstance(value, Node):
            found.append(value)
        elif isinstance(value, tuple):
            for part in value:
                collect(part)

    for f in fields(check):
        collect(getattr(check, f.name))
    return found
