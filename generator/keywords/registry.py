"""The registry built from the keyword units: every keyword and every IR check, by name and by
class, gathered in one KeywordTables that the pipeline hands to preflight, lowering, planning,
emission and the static types; a test (tests/keywords/test_registry.py) fails if a unit leaves a
part out."""

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
from .base import CheckKind, Keyword, KeywordTables

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

# The tables the pipeline hands to the stages (generator/pipeline.py): the one importer of this
# module outside the keyword units' package.
TABLES = KeywordTables(
    keywords=KEYWORDS,
    checks=CHECKS,
    # the messages of every unit, which the generated code fills (reference/messages.py holds
    # the oracle's copy)
    messages={name: text for unit in UNITS for name, text in unit.MESSAGES.items()},
    planners=tuple(unit.PLANNER for unit in UNITS if hasattr(unit, "PLANNER")),
    # references, kinds and values, objects, arrays, in-place applicators
    type_hooks=(refs.types, any_instance.types, objects.types, arrays.types, applicators.types),
    type_notes=refs.TYPE_NOTES,
    definitions=definitions,
)
