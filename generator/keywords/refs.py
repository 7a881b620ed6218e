"""References: $ref, $dynamicRef (2020-12) and $recursiveRef (2019-09).

References are resolved at compile time (generator/resolve.py, from registries only, never the
network). A plain reference calls its target's function; a chain of plain `{"$ref": ...}` schemas
is followed at compile time. A dynamic reference whose target has the matching `$dynamicAnchor`
(or `$recursiveAnchor: true`) picks its target at run time from the dynamic scope: every function
then carries the scope, a tuple of the schema resources entered.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .. import ir
from ..emit.context import IP, OUT, ErrorContext, Evaluation, X, merge, through_ref
from ..emit.tree import Call, ExprStmt, Not, Stmt, Subscript, fail_if, lit
from ..static_types import Ty, TypeReader
from .base import ALL_DRAFTS, CheckKind, Keyword, Lowering, Walk, drafts

if TYPE_CHECKING:
    from ..emit.context import General


@dataclass(frozen=True)
class Ref(ir.Check):
    target: str = ""  # graph key of the target node
    where: str = field(default="", compare=False)  # pointer of the reference, for messages
    # Dynamic references: "dynamic" ($dynamicRef) or "recursive" ($recursiveRef), with the anchor
    # name; None for a plain static reference.
    mode: str | None = None
    anchor: str = ""
    enter: tuple[int, ...] = ()  # resources entered by following it (one per hop of a ref chain)
    hops: int = 0  # plain {"$ref"} schemas followed at compile time: each adds "/$ref" to locations
    absolute: str = ""  # the absolute URI of the target (for absolute_keyword_location)
    refers = True

    @property
    def static_reference(self) -> bool:
        return self.mode is None


def check_ref(w: Walk, value: Any, pointer: str, depth: int) -> None:
    if not isinstance(value, str):
        raise w.fail(
            "bad-keyword-value",
            pointer,
            f"{pointer.rsplit('/', 1)[-1]} must be a string (a URI reference)",
        )


# -- lowering -----------------------------------------------------------------------------------------
C = Any  # Context | None


def lower_ref(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C
) -> list[ir.Check]:
    assert lw.registry is not None and ctx is not None
    found = lw.resolve_reference(value, ctx.base, where)
    if found is None:
        return []  # unresolvable: reported with every other one when lowering ends
    _, key, enters, hops = found
    return [Ref("$ref", key, where, enter=enters, hops=hops, absolute=lw.absolute(key))]


def lower_dynamic_ref(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C
) -> list[ir.Check]:
    """$dynamicRef: static unless its target is a $dynamicAnchor of the same name, in which case
    the outermost resource in the dynamic scope with that anchor is chosen at run time."""
    assert lw.registry is not None and ctx is not None
    found = lw.resolve_reference(value, ctx.base, where)
    if found is None:
        return []  # unresolvable: reported with every other one when lowering ends
    location, key, enters, hops = found
    fragment = value.partition("#")[2]
    target = location.schema
    if (
        fragment
        and not fragment.startswith("/")
        and isinstance(target, dict)
        and target.get("$dynamicAnchor") == fragment
    ):
        lw.dynamic_names.add(("dynamic", fragment))
        return [Ref("$dynamicRef", key, where, "dynamic", fragment, enters, hops)]
    return [Ref("$dynamicRef", key, where, enter=enters, hops=hops, absolute=lw.absolute(key))]


def lower_recursive_ref(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C
) -> list[ir.Check]:
    """$recursiveRef (2019-09): like "#", unless that target has $recursiveAnchor: true."""
    assert lw.registry is not None and ctx is not None
    found = lw.resolve_reference(value, ctx.base, where)
    if found is None:
        return []  # unresolvable: reported with every other one when lowering ends
    location, key, enters, hops = found
    target = location.schema
    if isinstance(target, dict) and target.get("$recursiveAnchor") is True:
        lw.dynamic_names.add(("recursive", ""))
        return [Ref("$recursiveRef", key, where, "recursive", enter=enters, hops=hops)]
    return [Ref("$recursiveRef", key, where, enter=enters, hops=hops, absolute=lw.absolute(key))]


# -- emission -----------------------------------------------------------------------------------------
def fast_ref(g: General, check: Ref) -> list[Stmt]:
    m, x = g.m, g.x
    m.has_refs = True
    target = m.target(check)
    if check.mode is None and (not m.dynamic or not check.enter) and m.type_only(target):
        return m.check_in_place(
            target, None, var=x
        )  # a reference to a type alone (FHIR's `boolean`)
    function = m.fast_fn(target) if check.mode is None else Subscript(m.dynamic_pick(check), lit(0))
    return [fail_if(Not(Call(function, (x, *m.ref_scope(check)))))]


def error_ref(e: ErrorContext, check: Ref) -> list[Stmt]:
    m = e.m
    where = through_ref(check)
    function = (
        m.error_fn(m.target(check))
        if check.mode is None
        else Subscript(m.dynamic_pick(check), lit(1))
    )
    # crossing a reference: locations below it are also given absolutely, from its target (a
    # dynamic one's, chosen at run time, from the table)
    absolute = (
        lit(check.absolute) if check.mode is None else Subscript(m.dynamic_pick(check), lit(3))
    )
    return [ExprStmt(Call(function, (X, IP, where, OUT, absolute, *m.ref_scope(check))))]


def evaluates_ref(found: Evaluation, check: Ref) -> None:
    m = found.m
    function = (
        m.annot_fn(m.target(check))
        if check.mode is None
        else Subscript(m.dynamic_pick(check), lit(2))
    )
    found.in_place += merge(Call(function, (X, *m.ref_scope(check))))


MESSAGES: dict[str, str] = {}  # (no errors of their own)
KEYWORDS = [
    Keyword("$ref", "core", ALL_DRAFTS, check_ref, lower_ref),
    Keyword(
        "$dynamicRef",
        "core",
        drafts("draft2020-12"),
        check_ref,
        lower_dynamic_ref,
    ),
    Keyword(
        "$recursiveRef",
        "core",
        drafts("draft2019-09", "draft2019-09"),
        check_ref,
        lower_recursive_ref,
    ),
]
CHECKS = [CheckKind(Ref, cost=6, general=fast_ref, error=error_ref, evaluates=evaluates_ref)]


# -- static types (render/types.py) -------------------------------------------------------------------
# The comments a type may carry: why it is Any (fixed text, never schema text).
TYPE_NOTES = {
    "dynamic": "Any stands for what a $dynamicRef reaches: its target is chosen at run time",
    "recursive": "Any stands for what a $recursiveRef reaches: its target is chosen at run time",
    "unresolved": "Any stands for a reference that does not resolve",
    "cycle": "Any stands for a cycle of references that never reaches a schema",
}


def types(reader: TypeReader, node: ir.Node, hint: str, depth: int) -> list[Ty]:
    """A static reference is the named type it reaches; one whose target is chosen at run time,
    or one that did not lower (it does not resolve: only where the compile never went), is Any."""
    parts: list[Ty] = []
    for word in ("$ref", "$dynamicRef", "$recursiveRef"):
        if word not in node.written:
            continue
        check = next((c for c in node.checks if isinstance(c, Ref) and c.keyword == word), None)
        if check is None:
            parts.append(reader.runtime(TYPE_NOTES["unresolved"]))
        elif check.mode is not None:
            parts.append(reader.runtime(TYPE_NOTES[check.mode]))
        else:
            parts.append(reader.reference(check.target))
    return parts
