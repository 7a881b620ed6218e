"""The registry built from the keyword units: every keyword and every IR check, by name and by
class. Preflight, lowering, planning and emission read it; a test
(tests/keywords/test_registry.py) fails if a unit leaves a part out."""

from typing import Any, Callable

from ..static_types import TypesHook
from . import (
    annotations,
    any_instance,
    applicators,
    arrays,
    content,
    dependent_required,
    format,
    numbers,
    objects,
    property_names,
    refs,
    strings,
    unevaluated,
)
from .annotations import definitions
from .base import CheckKind, Keyword

# Each unit module declares KEYWORDS and CHECKS, and PLANNER if it plans keywords together.
UNITS = (
    any_instance,
    numbers,
    strings,
    format,
    content,
    arrays,
    objects,
    dependent_required,
    property_names,
    applicators,
    refs,
    unevaluated,
    annotations,
)

KEYWORDS: dict[str, Keyword] = {k.name: k for unit in UNITS for k in unit.KEYWORDS}
CHECKS: dict[type, CheckKind] = {c.ir: c for unit in UNITS for c in unit.CHECKS}
# message name ("type", "oneOf.several") -> its template (emit/context.py, "errors"): the messages
# of every unit, which the generated code fills (reference/messages.py holds the oracle's copy)
MESSAGES: dict[str, str] = {name: text for unit in UNITS for name, text in unit.MESSAGES.items()}
# check class -> its rank in a node's order (plan/order.py)
RANKS: dict[type, int] = {kind: c.cost for kind, c in CHECKS.items()}
# each planner (node, plan) -> that unit's part of the node's plan (plan/parts.py NodePlan.part)
PLANNERS: tuple[Callable[..., Any], ...] = tuple(
    unit.PLANNER for unit in UNITS if hasattr(unit, "PLANNER")
)


# The units' static-type hooks (render/types.py), in the order a node's types are read and
# intersected: references, kinds and values, objects, arrays, in-place applicators.
TYPE_HOOKS: tuple[TypesHook, ...] = (
    refs.types,
    any_instance.types,
    objects.types,
    arrays.types,
    applicators.types,
)
TYPE_NOTES: dict[str, str] = refs.TYPE_NOTES  # why a type is Any, as a comment says it
# a schema's definitions ($defs), as pointer paths: each is a named type (render/types.py)
DEFINITIONS: Callable[[Any], list[tuple[str, ...]]] = definitions


def enforced_by(profile: str) -> frozenset[str]:
    """The keywords a profile or draft enforces."""
    return frozenset(k.name for k in KEYWORDS.values() if profile in k.known_by)


def annotations_of(profile: str) -> frozenset[str]:
    """The keywords a profile or draft knows as annotations (values checked, never a check)."""
    return frozenset(k.name for k in KEYWORDS.values() if profile in k.annotation)


def optional_assertions(profile: str) -> list[Keyword]:
    """The keywords that are optional assertions in a profile or draft (format; content in draft
    7): an option makes them checks (see profiles.with_formats)."""
    return [k for k in KEYWORDS.values() if profile in k.optional]


def vocabulary(name: str) -> frozenset[str]:
    """The keywords of one vocabulary (a custom meta-schema's $vocabulary can leave it out)."""
    return frozenset(k.name for k in KEYWORDS.values() if k.vocabulary == name and k.known_by)
