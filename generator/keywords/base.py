"""What a keyword unit declares: each keyword (who knows it, how its value is checked, what it
lowers to) and each IR check (its cost, its fast and error code, what it evaluates for
unevaluated*). The registry in keywords/__init__.py collects them, and preflight, lowering,
planning and emission read it from there. (The reference interpreter, generator/reference/, has
tables of its own.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from ..emit.context import Branch, ErrorContext, Evaluation, General
    from ..emit.tree import Stmt
    from ..ir import Check
    from ..lower import Context, Lowering
    from ..preflight import Walk

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
