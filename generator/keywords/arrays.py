"""The array keywords: prefixItems, items (one schema, or before 2020-12 an array of them),
additionalItems, contains with minContains/maxContains, minItems, maxItems and uniqueItems.

Planned together: a short array of leaf items with a small minItems (a point's two coordinates) is
most often exactly that long, so its items are unpacked into names at that length (`a, b = x`),
which also checks minItems; other lengths take the usual loop.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .. import ir
from ..emit.context import (
    AK,
    EV,
    IP,
    KP,
    OUT,
    ErrorContext,
    Evaluation,
    X,
    branch_rows,
    ecall,
    ecall_parts,
    error_spec,
    ptr,
)
from ..emit.tree import (
    RETURN_FALSE,
    Assign,
    BinOp,
    Break,
    Compare,
    ExprStmt,
    For,
    GenExp,
    If,
    Name,
    Not,
    Stmt,
    Subscript,
    Tuple,
    and_,
    call,
    count_lines,
    fail_if,
    if_,
    lit,
    method,
    or_,
)
from ..errors import join_pointer
from ..plan import tuning
from ..static_types import TOP, Ty, TypeReader, all_but_arrays, join_all
from ..values import count_bound, normalize_number
from .base import (
    ALL_DRAFTS,
    CheckKind,
    Keyword,
    Lowering,
    Planning,
    Walk,
    check_subschema,
    drafts,
)
from .strings import check_count, error_length, fast_length

if TYPE_CHECKING:
    from ..emit.context import Branch


@dataclass(frozen=True)
class PrefixItems(ir.Check):
    schemas: tuple[ir.Node, ...] = ()
    applies_to = "array"

    def member_steps(self) -> tuple[tuple[ir.Member, ir.Node], ...]:
        return tuple((ir.AtIndex(i), sub) for i, sub in enumerate(self.schemas))


@dataclass(frozen=True)
class Items(ir.Check):
    start: int = 0  # items before `start` are prefixItems' business
    schema: ir.Node | None = None
    applies_to = "array"

    def member_steps(self) -> tuple[tuple[ir.Member, ir.Node], ...]:
        return () if self.schema is None else ((ir.FromIndex(self.start), self.schema),)


@dataclass(frozen=True)
class ItemCount(ir.Check):
    bound: int = 0
    at_least: bool = True  # minItems (True) or maxItems (False)
    limit: Any = field(
        default=None, compare=False
    )  # the schema's number (bound: capped to a length)
    applies_to = "array"


@dataclass(frozen=True)
class UniqueItems(ir.Check):
    applies_to = "array"


@dataclass(frozen=True)
class Contains(ir.Check):
    schema: ir.Node | None = None
    minimum: int = 1
    maximum: int | None = None
    min_keyword: str = "contains"  # where a too-small count is reported
    annotates: bool = False  # contains' matches count as evaluated items (2020-12)
    applies_to = "array"

    def member_steps(self) -> tuple[tuple[ir.Member, ir.Node], ...]:
        return () if self.schema is None else ((ir.FromIndex(0), self.schema),)


# The messages (emit/context.py, "errors"). contains' params: how many items match, and the bound.
MESSAGES = {
    "minItems": "{instance} has too few items (minItems {limit})",
    "maxItems": "{instance} has too many items (maxItems {limit})",
    "uniqueItems": "{instance} has non-unique elements: items {duplicates} are equal",
    "contains.none": "{instance} has no item that matches the contains schema",
    "contains.few": "{instance} has too few items that match the contains schema ({matches}, minContains {minContains})",
    "maxContains": "{instance} has too many items that match the contains schema ({matches}, maxContains {maxContains})",
}


# -- the plan -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ArrayPlan:
    unrolled: int | None  # the length at which the items are unpacked (minItems checked there)


def plan_arrays(node: ir.Node, plan: Planning) -> ArrayPlan:
    bounds = [c.bound for c in node.checks if isinstance(c, ItemCount) and c.at_least]
    items = [c for c in node.checks if isinstance(c, Items)]
    if len(bounds) != 1 or not 1 <= bounds[0] <= tuning.UNROLL_ITEMS or len(items) != 1:
        return ArrayPlan(None)
    schema = items[0].schema
    if (
        items[0].start
        or schema is None
        or ir.always_true(schema)
        or schema.boolean is not None
        or not plan.inlining.is_leaf(schema)
        or not plan.inlining.inlinable(schema, 0)
    ):
        return ArrayPlan(None)
    return ArrayPlan(bounds[0])


def _unrolled(b: Branch) -> int | None:
    plan: ArrayPlan = b.plan.part(ArrayPlan)
    return plan.unrolled


# -- preflight ----------------------------------------------------------------------------------------
def check_items(w: Walk, value: Any, pointer: str, depth: int) -> None:
    if isinstance(value, list) and w.profile.dialect.tuple_items:
        for i, sub in enumerate(value):
            w.schema(sub, join_pointer(pointer, i), depth + 1)
        return
    if isinstance(value, list):
        raise w.fail(
            "bad-keyword-value", pointer, "items must be one schema (use prefixItems for tuples)"
        )
    w.schema(value, pointer, depth + 1)


def check_prefix_items(w: Walk, value: Any, pointer: str, depth: int) -> None:
    w.schema_array(value, pointer, "prefixItems", depth)


def check_unique_items(w: Walk, value: Any, pointer: str, depth: int) -> None:
    if not isinstance(value, bool):
        raise w.fail(
            "bad-keyword-value", pointer, f"uniqueItems must be a boolean, not {w.describe(value)}"
        )


# -- lowering -----------------------------------------------------------------------------------------
C = Any  # Context | None


def lower_prefix_items(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C
) -> list[ir.Check]:
    return [PrefixItems("prefixItems", lw.nodes(value, where, ctx))]


def lower_items(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C
) -> list[ir.Check]:
    if isinstance(value, list):  # the array form, before 2020-12
        return [PrefixItems("items", lw.nodes(value, where, ctx))]
    if value is True and not lw.profile.dialect.annotations:
        return []
    start = len(schema["prefixItems"]) if lw.enforced("prefixItems", schema) else 0
    return [Items("items", start, lw.node(value, where, ctx))]


def lower_additional_items(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C
) -> list[ir.Check]:
    items = schema.get("items")
    if (
        (value is True and not lw.profile.dialect.annotations)
        or not isinstance(items, list)
        or not lw.enforced("items", schema)
    ):
        return []  # additionalItems means something only after an array of items
    return [Items("additionalItems", len(items), lw.node(value, where, ctx))]


def lower_contains(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C
) -> list[ir.Check]:
    minimum, maximum, min_keyword = 1, None, "contains"
    if lw.enforced("minContains", schema):
        minimum, min_keyword = count_bound(schema["minContains"]), "minContains"
    if lw.enforced("maxContains", schema):
        maximum = count_bound(schema["maxContains"])
    annotates = lw.profile.dialect.contains_evaluates
    return [
        Contains("contains", lw.node(value, where, ctx), minimum, maximum, min_keyword, annotates)
    ]


def lower_min_items(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C
) -> list[ir.Check]:
    return (
        [ItemCount("minItems", count_bound(value), True, normalize_number(value))]
        if value > 0
        else []
    )


def lower_max_items(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C
) -> list[ir.Check]:
    return [ItemCount("maxItems", count_bound(value), False, normalize_number(value))]


def lower_unique_items(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C
) -> list[ir.Check]:
    return [UniqueItems("uniqueItems")] if value else []


# -- the fast path ------------------------------------------------------------------------------------
def fast_prefix_items(b: Branch, check: PrefixItems) -> list[Stmt]:
    m, x = b.m, b.x
    checked = [(i, sub) for i, sub in enumerate(check.schemas) if not ir.always_true(sub)]
    out: list[Stmt] = []
    size: Any = call("len", x)
    if len(checked) > 1:  # the length, once
        size = b.scope("size")
        out.append(Assign(size, call("len", x)))
    for i, sub in checked:
        longer = Compare(size, ">", lit(i))
        if m.inlinable(sub):
            out += m.check_under([("if", longer, None)], sub, Subscript(x, lit(i)))
        else:
            out.append(fail_if(and_(longer, Not(m.fcall(m.fast_fn(sub), Subscript(x, lit(i)))))))
    return out


def fast_items(b: Branch, check: Items) -> list[Stmt]:
    m, x, schema = b.m, b.x, check.schema
    assert schema is not None
    if ir.always_true(schema):
        return []  # kept only for what it evaluates (unevaluatedItems)
    if schema.boolean is False:
        return [fail_if(Compare(call("len", x), ">", lit(check.start)))]
    target = m.through_refs(schema)
    if target is not schema and not m.type_only(target) and not check.start:
        return _each_item(b, m.fast_fn(target))  # items by reference to a shared subschema
    if m.inlinable(schema):
        length = _unrolled(b)
        if length is not None and not check.start:
            return _unrolled_items(b, schema, length)
        if check.start:  # by index: a slice would copy the list on the valid path
            index = Name("index" + m.next_suffix())
            return m.check_under(
                [("for", index, call("range", lit(check.start), call("len", x)))],
                schema,
                Subscript(x, index),
            )
        item = Name("item" + m.next_suffix())
        return m.check_under([("for", item, x)], schema, var=item)
    fn = m.fast_fn(schema)
    if check.start:
        i = b.scope("i")
        return [
            For(
                i,
                call("range", lit(check.start), call("len", x)),
                (fail_if(Not(m.fcall(fn, Subscript(x, i)))),),
            )
        ]
    return _each_item(b, fn)


def _each_item(b: Branch, fn: Name) -> list[Stmt]:
    """A loop calling the items' fast function on each, stopping at the first failure. (Faster
    than `all(map(fn, x))` in CPython 3.11, whose bytecode calls a Python function without a C
    frame between, by about a third on lists of 1 to 20 items; and natively a C call.)"""
    v = b.scope("v")
    return [For(v, b.x, (fail_if(Not(b.m.fcall(fn, v))),))]


def _unrolled_items(b: Branch, schema: ir.Node, length: int) -> list[Stmt]:
    """`if len(x) == n:` unpack and check each item in place; `elif len(x) < n:` fail (the
    minItems check, which emits nothing itself here); `else:` the usual loop."""
    m, x = b.m, b.x
    item = Name("item" + m.next_suffix())
    loop = m.check_under([("for", item, x)], schema, var=item)
    too_short = Compare(call("len", x), "<", lit(length))
    if not loop or length * (count_lines(loop) - 1) > tuning.UNROLL_LINES:
        return [fail_if(too_short), *loop]  # nothing to check on an item, or too much to repeat
    names = [Name(item.id + "_" + str(j)) for j in range(length)]
    unpacked: list[Stmt] = [Assign(Tuple(tuple(names), bare=True), x)]
    for name in names:
        unpacked += m.check_in_place(schema, None, var=name)
    return [
        If(
            (
                (Compare(call("len", x), "==", lit(length)), tuple(unpacked)),
                (too_short, (RETURN_FALSE,)),
            ),
            tuple(loop),
        )
    ]


def fast_item_count(b: Branch, check: ItemCount) -> list[Stmt]:
    if check.at_least and _unrolled(b) is not None:
        return []  # checked by the unrolled items
    return fast_length(b, check)


def fast_unique_items(b: Branch, check: UniqueItems) -> list[Stmt]:
    return [fail_if(Not(call(b.m.prim("_unique"), b.x)))]


def fast_contains(b: Branch, check: Contains) -> list[Stmt]:
    assert check.schema is not None
    m, x = b.m, b.x
    fn = m.fast_fn(check.schema)
    v, n = b.scope("v"), b.scope("n")
    if check.maximum is None and check.minimum <= 1:
        if check.minimum == 1:  # a plain loop: no generator object on the valid path
            return [For(v, x, (if_(m.fcall(fn, v), [Break()]),), (RETURN_FALSE,))]
        return []
    tests = [Compare(n, "<", lit(check.minimum))] if check.minimum else []
    if check.maximum is not None:
        tests.append(Compare(n, ">", lit(check.maximum)))
    return [Assign(n, call("sum", GenExp(lit(1), v, x, m.fcall(fn, v)))), fail_if(or_(*tests))]


# -- the error path -----------------------------------------------------------------------------------
def error_prefix_items(e: ErrorContext, check: PrefixItems) -> list[Stmt]:
    return [
        if_(
            Compare(call("len", X), ">", lit(i)),
            [ecall(e.m, sub, Subscript(X, lit(i)), BinOp(IP, "+", ptr(i)), check.keyword, i)],
        )
        for i, sub in enumerate(check.schemas)
        if not ir.always_true(sub)
    ]


def error_items(e: ErrorContext, check: Items) -> list[Stmt]:
    m = e.m
    assert check.schema is not None
    if ir.always_true(check.schema):
        return []
    if not m.dynamic:  # (in dynamic mode each call also takes the scope)
        function, where, absolute = ecall_parts(m, check.schema, check.keyword)
        return [
            ExprStmt(
                call(
                    m.prim("_items_errors"),
                    X,
                    lit(check.start),
                    function,
                    IP,
                    where,
                    absolute,
                    Name("out"),
                )
            )
        ]
    i = Name("i")
    at = BinOp(BinOp(IP, "+", lit("/")), "+", call("str", i))
    return [
        For(
            i,
            call("range", lit(check.start), call("len", X)),
            (ecall(m, check.schema, Subscript(X, i), at, check.keyword),),
        )
    ]


def error_unique_items(e: ErrorContext, check: UniqueItems) -> list[Stmt]:
    m = e.m
    spec = error_spec(m, e.node, MESSAGES["uniqueItems"])
    return [
        if_(
            Not(call(m.prim("_unique"), X)),
            [ExprStmt(call(m.prim("_unique_error"), OUT, X, spec, IP, KP, AK))],
        )
    ]


def error_contains(e: ErrorContext, check: Contains) -> list[Stmt]:
    """Counted after a failure by _contains_errors, which also gathers why the other items fail."""
    m = e.m
    assert check.schema is not None
    templates = (MESSAGES["contains.none"], MESSAGES["contains.few"], MESSAGES["maxContains"])
    spec = error_spec(m, e.node, templates)
    row = branch_rows(m, [(check.schema, ("contains",))])
    return [
        ExprStmt(
            call(
                m.prim("_contains_errors"),
                OUT,
                X,
                Subscript(row, lit(0)),
                lit(check.minimum),
                lit(check.maximum),
                spec,
                IP,
                KP,
                AK,
                lit("/" + check.min_keyword),
                *m.scope_args(),
            )
        )
    ]


# -- what they evaluate (for unevaluatedItems) --------------------------------------------------------
def evaluates_prefix_items(found: Evaluation, check: PrefixItems) -> None:
    size = call("min", call("len", X), lit(len(check.schemas)))
    found.arrays.append(ExprStmt(method(EV, "update", call("range", size))))


def evaluates_items(found: Evaluation, check: Items) -> None:
    found.arrays.append(
        ExprStmt(method(EV, "update", call("range", lit(check.start), call("len", X))))
    )


def evaluates_contains(found: Evaluation, check: Contains) -> None:
    if check.annotates:
        assert check.schema is not None
        i, v = Name("i"), Name("v")
        matches = GenExp(
            i,
            Tuple((i, v), bare=True),
            call("enumerate", X),
            found.m.fcall(found.m.fast_fn(check.schema), v),
        )
        found.arrays.append(ExprStmt(method(EV, "update", matches)))


_ARRAYS = ALL_DRAFTS | {"octoscript", "strict"}
KEYWORDS = [
    Keyword(
        "prefixItems",
        "applicator",
        drafts("draft2020-12") | {"strict"},
        check_prefix_items,
        lower_prefix_items,
        holds="schemas",
    ),
    Keyword(
        "items",
        "applicator",
        _ARRAYS,
        check_items,
        lower_items,
        holds="schema or schemas",
    ),
    Keyword(
        "additionalItems",
        "applicator",
        drafts("draft4", "draft2019-09"),
        check_subschema,
        lower_additional_items,
        holds="schema",
    ),
    Keyword(
        "contains",
        "applicator",
        drafts("draft6"),
        check_subschema,
        lower_contains,
        holds="schema",
    ),
    Keyword("minContains", "validation", drafts("draft2019-09"), check_count, read_by="contains"),
    Keyword("maxContains", "validation", drafts("draft2019-09"), check_count, read_by="contains"),
    Keyword(
        "minItems",
        "validation",
        _ARRAYS,
        check_count,
        lower_min_items,
    ),
    Keyword(
        "maxItems",
        "validation",
        _ARRAYS,
        check_count,
        lower_max_items,
    ),
    Keyword(
        "uniqueItems",
        "validation",
        ALL_DRAFTS | {"strict"},
        check_unique_items,
        lower_unique_items,
    ),
]
CHECKS = [
    CheckKind(ItemCount, cost=0, fast=fast_item_count, error=error_length),
    CheckKind(
        PrefixItems,
        cost=3,
        fast=fast_prefix_items,
        error=error_prefix_items,
        evaluates=evaluates_prefix_items,
    ),
    CheckKind(UniqueItems, cost=5, walks=True, fast=fast_unique_items, error=error_unique_items),
    CheckKind(
        Items, cost=5, walks=True, fast=fast_items, error=error_items, evaluates=evaluates_items
    ),
    CheckKind(
        Contains,
        cost=5,
        walks=True,
        fast=fast_contains,
        error=error_contains,
        evaluates=evaluates_contains,
    ),
]
PLANNER = plan_arrays


# -- static types (render/types.py) -------------------------------------------------------------------
_ARRAY_WORDS = ("prefixItems", "items", "additionalItems")


def types(reader: TypeReader, node: ir.Node, hint: str, depth: int) -> list[Ty]:
    """A list of the union of every item schema (positional ones and the rest); any other kind
    besides. A keyword that lowered to nothing (`"items": true`) still makes the list."""
    if not any(word in node.written for word in _ARRAY_WORDS):
        return []
    positional: list[Ty] = []
    rest = TOP
    for word in ("prefixItems", "items"):  # (one of them: `items` as an array, before 2020-12)
        for check in node.checks:
            if isinstance(check, PrefixItems) and check.keyword == word:
                positional = [reader.ty(s, hint + "Item", depth + 1) for s in check.schemas]
    for word in ("additionalItems", "items"):  # (one of them: additionalItems after an array)
        for check in node.checks:
            if isinstance(check, Items) and check.keyword == word and check.schema is not None:
                rest = reader.ty(check.schema, hint + "Item", depth + 1)
    return [all_but_arrays(join_all([rest, *positional]))]
