"""The object keywords: properties, patternProperties, additionalProperties, required,
minProperties, maxProperties, dependentRequired, dependentSchemas and draft 4-7's
dependencies (names or a schema per property), which 2019-09 and 2020-12 keep too: their
meta-schemas reserve the name for it ("schema authors should avoid redefining it"), so a schema that
uses it means it (the official suite's optional dependencies-compatibility tests).

Planned together (ObjectPlan), because they look at the same names: a closed object
(`additionalProperties: false`) whose required names are all its names is one key-count or key-set
test; any other closed object checked by name counts the names it finds and compares the count
with its size; a large `properties` is a loop over the instance's names through a table (one lookup per
present name instead of a test per declared one), which also rejects the names a closed object does
not list; patternProperties whose patterns are plain prefixes (Swagger's `^x-`) join that loop,
with additionalProperties. Each keyword's emission reads its part of the plan, never its siblings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from .. import ir
from ..codegen import literal
from ..emit.context import (
    AK,
    EV,
    IP,
    KEY,
    KP,
    OUT,
    ErrorContext,
    Evaluation,
    X,
    at_key,
    ecall,
    error_spec,
    merge,
    ptr,
)
from ..emit.tree import (
    NONE,
    RETURN_FALSE,
    Assign,
    BinOp,
    Call,
    Compare,
    Display,
    Expr,
    ExprStmt,
    For,
    If,
    Name,
    Not,
    Paren,
    Pass,
    Stmt,
    Subscript,
    Tuple,
    and_,
    call,
    fail_if,
    if_,
    lit,
    literal_expr,
    method,
    or_,
    truth,
    when,
)
from ..errors import join_pointer
from ..plan import tuning
from ..plan.parts import ObjectNames
from ..static_types import TOP, Obj, Ty, TypeReader, all_but_objects, camel, join_all
from ..values import count_bound, normalize_number
from .base import (
    ALL_DRAFTS,
    CheckKind,
    Keyword,
    Lowering,
    Planning,
    Walk,
    drafts,
)
from .strings import count_fails

if TYPE_CHECKING:
    from ..emit.context import Branch
    from ..emit.module import ModuleEmitter


@dataclass(frozen=True)
class Required(ir.Check):
    names: tuple[str, ...] = ()
    applies_to = "object"


@dataclass(frozen=True)
class Properties(ir.Check):
    entries: tuple[tuple[str, ir.Node], ...] = ()
    applies_to = "object"

    def named_subschemas(self) -> tuple[tuple[str, ir.Node], ...]:
        return self.entries

    def member_steps(self) -> tuple[tuple[ir.Member, ir.Node], ...]:
        return tuple((ir.ByName(name), sub) for name, sub in self.entries)


@dataclass(frozen=True)
class AdditionalProperties(ir.Check):
    known: tuple[str, ...] = ()  # names covered by properties
    schema: ir.Node | None = None
    patterns: tuple[str, ...] = ()  # the patternProperties patterns (ECMA-262 sources)
    applies_to = "object"

    def member_steps(self) -> tuple[tuple[ir.Member, ir.Node], ...]:
        if self.schema is None:
            return ()
        return ((ir.Additional(self.known, self.patterns), self.schema),)


@dataclass(frozen=True)
class PatternProperties(ir.Check):
    entries: tuple[tuple[str, str, ir.Node], ...] = ()  # (ECMA source, Python translation, schema)
    applies_to = "object"

    def member_steps(self) -> tuple[tuple[ir.Member, ir.Node], ...]:
        return tuple((ir.ByPattern(source), sub) for source, _, sub in self.entries)


@dataclass(frozen=True)
class PropertyCount(ir.Check):
    bound: int = 0
    at_least: bool = True  # minProperties (True) or maxProperties (False)
    limit: Any = field(
        default=None, compare=False
    )  # the schema's number (bound: capped to a count)
    applies_to = "object"


@dataclass(frozen=True)
class DependentSchemas(ir.Check):
    entries: tuple[tuple[str, ir.Node], ...] = ()
    applies_to = "object"
    in_place_fields = ("entries",)


# The messages (emit/context.py, "errors"). A member no schema allows is reported at its own
# location, its name (or index) as the parameter, and beside patternProperties the patterns it
# matches none of; dependencies' array form reads as dependentRequired (its own unit).
MESSAGES = {
    "required": "{missingProperty} is a required property",
    "additionalProperties": "additional property {additionalProperty} is not allowed",
    "additionalProperties.patterns": "additional property {additionalProperty} is not allowed: it matches none of "
    "the patterns {patterns}",
    "minProperties": "{instance} has too few properties (minProperties {limit})",
    "maxProperties": "{instance} has too many properties (maxProperties {limit})",
}


# -- the plan -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PatternLoop:
    """One loop over an object's names checks its patternProperties together with its property
    table and/or additionalProperties."""

    table: Properties | None  # the properties looked up in the table (None: the object has none)
    patterns: PatternProperties
    additional: AdditionalProperties | None  # unless it always holds
    others: frozenset[str]  # names additionalProperties knows that the table does not list


@dataclass(frozen=True)
class ObjectPlan(ObjectNames):
    closed: AdditionalProperties | None  # `additionalProperties: false` without patternProperties
    exact_keys: bool  # the required names are exactly the closed names: one test of the keys
    present: frozenset[str]  # the names `required` checks before `properties` runs
    table: Properties | None  # a `properties` checked through a table on the fast path
    closed_table: bool  # the table lists exactly the closed names: its loop rejects the others
    pattern_loop: PatternLoop | None
    # closed and checked by name (no table, not exactly known keys): `properties` counts the names
    # it finds and compares the count with the object's size, in place of a keys view <= the names
    counted: bool

    def closed_names(self) -> frozenset[str] | None:
        return frozenset(self.closed.known) if self.closed is not None else None

    def required_names(self) -> frozenset[str]:
        return self.present


def checked_properties(check: Properties) -> list[tuple[str, ir.Node]]:
    """The properties with something to check: the names a property table lists."""
    return [(prop, sub) for prop, sub in check.entries if not ir.always_true(sub)]


def plan_objects(node: ir.Node, plan: Planning) -> ObjectPlan:
    checks = node.checks
    properties = [c for c in checks if isinstance(c, Properties)]
    closed = next(
        (
            c
            for c in checks
            if isinstance(c, AdditionalProperties)
            and c.schema is not None
            and c.schema.boolean is False
            and not c.patterns
        ),
        None,
    )
    names = [n for c in checks if isinstance(c, Required) for n in c.names]
    exact_keys = (
        closed is not None
        and bool(names)
        and set(closed.known) == set(names)
        and len(set(names)) == len(names)
    )
    # with exactly known keys every property is present: tested by name, it needs no `in` test,
    # which beats a loop over a table at any size
    table = (
        properties[0]
        if len(properties) == 1 and _large(properties[0], plan.dynamic) and not exact_keys
        else None
    )
    closed_table = (
        table is not None
        and closed is not None
        and {n for n, _ in checked_properties(table)} == set(closed.known)
    )
    counted = (
        closed is not None
        and not exact_keys
        and table is None
        and bool(closed.known)
        and len(properties) == 1
        and set(closed.known) == {n for n, _ in properties[0].entries}
    )
    return ObjectPlan(
        closed,
        exact_keys,
        frozenset(names),
        table,
        closed_table,
        _pattern_loop(checks, plan.dynamic),
        counted,
    )


def _large(check: Properties, dynamic: bool) -> bool:
    """A properties checked through a table (not in dynamic mode: every call carries the scope)."""
    return not dynamic and len(checked_properties(check)) >= tuning.PROPERTY_TABLE


def _pattern_loop(checks: tuple[ir.Check, ...], dynamic: bool) -> PatternLoop | None:
    properties = [c for c in checks if isinstance(c, Properties)]
    patterns = [c for c in checks if isinstance(c, PatternProperties)]
    additional = [c for c in checks if isinstance(c, AdditionalProperties)]
    if len(properties) > 1 or len(patterns) != 1 or len(additional) > 1:
        return None
    if additional and (additional[0].schema is None or ir.always_true(additional[0].schema)):
        additional = []  # nothing to check on a name no property or pattern covers
    table = properties[0] if properties and _large(properties[0], dynamic) else None
    if table is None and not additional:
        return None
    if additional and additional[0].patterns != tuple(
        source for source, _, _ in patterns[0].entries
    ):
        return None
    in_table = {n for n, _ in checked_properties(table)} if table is not None else set()
    known = set(additional[0].known) if additional else in_table
    # which known names a pattern matches is decided here, for the patterns that say it plainly
    # (`^x-`): a regex is not run at compile time (a hostile one could hang it)
    prefixes = [_literal_prefix(source) for source, _, _ in patterns[0].entries]
    if not in_table <= known or any(
        prefix is None or name.startswith(prefix) for prefix in prefixes for name in known
    ):
        return None
    return PatternLoop(
        table, patterns[0], additional[0] if additional else None, frozenset(known - in_table)
    )


def _literal_prefix(source: str) -> str | None:
    """The text an ECMA-262 pattern like `^x-` requires a string to start with; None for any other
    pattern (one with a metacharacter or escape past its `^`)."""
    match = re.fullmatch(r"\^([A-Za-z0-9_-]+)", source)
    return match.group(1) if match else None


def _plan(b: Branch | ErrorContext) -> ObjectPlan:
    found: ObjectPlan = b.plan.part(ObjectPlan)
    return found


def property_table(m: ModuleEmitter, check: Properties, error_only: bool = False) -> Name | None:
    """The table of a large `properties`: name -> (fast function, error function), used by both
    paths; or (error_only, for the error path of a smaller one) name -> error function. None when
    there are too few properties (each is then tested by name), and in dynamic mode."""
    memo = m.memo("property_table")
    if (check, error_only) not in memo:
        memo[(check, error_only)] = _property_table(m, check, error_only)
    found: Name | None = memo[(check, error_only)]
    return found


def _property_table(m: ModuleEmitter, check: Properties, error_only: bool) -> Name | None:
    entries = checked_properties(check)
    large = len(entries) >= tuning.PROPERTY_TABLE
    if m.dynamic or len(entries) < tuning.ERROR_TABLE or not (large or error_only):
        return None
    rows: list[tuple[str, Name]]
    if large:
        rows = [(n, m.function_pair(sub)) for n, sub in entries]
    else:
        rows = [(n, m.error_fn(sub)) for n, sub in entries]
    kind = "F" if large else "G"
    table = m.constant(
        kind,
        Display("dict", ()),
        key=kind + repr([(n, r.id) for n, r in rows]),
        annotation="dict[str, tuple[Any, Any]]" if large else "dict[str, Any]",
    )
    m.late_table(
        table,
        lambda: [
            ExprStmt(method(table, "update", Display("dict", tuple((lit(n), r) for n, r in rows))))
        ],
    )
    return table


def _keys(m: ModuleEmitter, names: Any) -> Name:
    """A set of property names, a module constant (simplify.py learns which keys it holds)."""
    return _key_set(m, "K", names)


def _key_set(m: ModuleEmitter, kind: str, names: Any) -> Name:
    table = m.constant(kind, literal_expr(frozenset(names)))
    m.key_sets[table.id] = frozenset(literal(n).text for n in names)
    return table


def _is_str(k: Expr) -> Expr:
    return call("isinstance", k, Name("str"))


# -- preflight ----------------------------------------------------------------------------------------
def check_properties(w: Walk, value: Any, pointer: str, depth: int) -> None:
    if not isinstance(value, dict):
        raise w.fail(
            "bad-keyword-value", pointer, f"properties must be an object, not {w.describe(value)}"
        )
    limit = w.profile.limits.max_properties
    if limit is not None and len(value) > limit:
        raise w.fail(
            "limit-exceeded",
            pointer,
            f"{len(value)} properties, over the limit of {limit} per object",
        )
    for name, sub in value.items():
        if not isinstance(name, str):
            raise w.fail("bad-keyword-value", pointer, f"property name {name!r} is not a string")
        w.schema(sub, join_pointer(pointer, name), depth + 1)


def check_required(w: Walk, value: Any, pointer: str, depth: int) -> None:
    if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
        raise w.fail("bad-keyword-value", pointer, "required must be an array of strings")
    if len(set(value)) != len(value):
        raise w.fail("bad-keyword-value", pointer, "required names must be unique")


def check_additional_properties(w: Walk, value: Any, pointer: str, depth: int) -> None:
    if isinstance(value, bool):
        return
    if not w.profile.schema_additional_properties:
        raise w.fail(
            "bad-keyword-value",
            pointer,
            f"the {w.profile.name} profile takes only true or false for additionalProperties",
        )
    w.schema(value, pointer, depth + 1)


def check_pattern_properties(w: Walk, value: Any, pointer: str, depth: int) -> None:
    from .strings import check_pattern

    w.schema_map(value, pointer, depth)
    for name in value:  # each name is a pattern, held to what `pattern` is held to
        check_pattern(w, name, join_pointer(pointer, name), depth)


def check_schema_map(w: Walk, value: Any, pointer: str, depth: int) -> None:
    w.schema_map(value, pointer, depth)


def check_dependencies(w: Walk, value: Any, pointer: str, depth: int) -> None:
    if not isinstance(value, dict):
        raise w.fail("bad-keyword-value", pointer, "dependencies must be an object")
    for name, sub in value.items():
        if isinstance(sub, list):
            check_required(w, sub, join_pointer(pointer, name), depth)
        else:
            w.schema(sub, join_pointer(pointer, name), depth + 1)


def check_count(w: Walk, value: Any, pointer: str, depth: int) -> None:
    w.count(value, pointer, pointer.rsplit("/", 1)[-1])


# -- lowering -----------------------------------------------------------------------------------------
C = Any  # Context | None


def lower_properties(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C
) -> list[ir.Check]:
    entries = tuple(
        (name, lw.node(sub, join_pointer(where, name), ctx)) for name, sub in value.items()
    )
    return [Properties("properties", entries)] if entries else []


def lower_pattern_properties(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C
) -> list[ir.Check]:
    from .strings import translated as translate  # cached

    entries = tuple(
        (source, translate(source), lw.node(sub, join_pointer(where, source), ctx))
        for source, sub in value.items()
    )
    return [PatternProperties("patternProperties", entries)] if entries else []


def lower_required(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C
) -> list[ir.Check]:
    return [Required("required", tuple(value))] if value else []


def lower_additional_properties(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C
) -> list[ir.Check]:
    if value is True and not lw.profile.dialect.annotations:
        return []

    known = tuple(schema["properties"]) if lw.enforced("properties", schema) else ()
    patterns = (
        tuple(schema["patternProperties"]) if lw.enforced("patternProperties", schema) else ()
    )
    return [
        AdditionalProperties("additionalProperties", known, lw.node(value, where, ctx), patterns)
    ]


def lower_min_properties(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C
) -> list[ir.Check]:
    return (
        [PropertyCount("minProperties", count_bound(value), True, normalize_number(value))]
        if value > 0
        else []
    )


def lower_max_properties(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C
) -> list[ir.Check]:
    return [PropertyCount("maxProperties", count_bound(value), False, normalize_number(value))]


def lower_dependent_schemas(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C
) -> list[ir.Check]:
    entries = tuple(
        (name, lw.node(sub, join_pointer(where, name), ctx)) for name, sub in value.items()
    )
    return [DependentSchemas("dependentSchemas", entries)] if entries else []


def lower_dependencies(
    lw: Lowering, value: Any, schema: dict[str, Any], where: str, ctx: C
) -> list[ir.Check]:
    """An array value is dependentRequired (lowered by that keyword's unit, under this keyword's
    name), a schema value dependentSchemas (every draft)."""
    names = {n: v for n, v in value.items() if isinstance(v, list)}
    schemas = tuple(
        (n, lw.node(v, join_pointer(where, n), ctx))
        for n, v in value.items()
        if not isinstance(v, list)
    )
    checks = [
        replace(check, keyword="dependencies")
        for check in lw.lower_keyword("dependentRequired", names, schema, where, ctx)
    ]
    if schemas:
        checks.append(DependentSchemas("dependencies", schemas))
    return checks


# -- the fast path ------------------------------------------------------------------------------------
def _has(name: str, x: Expr, negate: bool = False) -> Compare:
    return Compare(lit(name), "not in" if negate else "in", x)


def fast_required(b: Branch, check: Required) -> list[Stmt]:
    m, x, plan = b.m, b.x, _plan(b)
    if plan.exact_keys and plan.closed is not None:
        # every allowed property is required: exactly these keys, tested at once, then each
        # property read by name (in pure Python cheaper than a look-up of each before an `if`
        # rule that fails); by count and names up to NAME_TESTS (no keys view is made)
        if len(check.names) <= tuning.NAME_TESTS:
            tests = [
                Compare(call("len", x), "!=", lit(len(check.names))),
                *(_has(n, x, True) for n in check.names),
            ]
            return [fail_if(or_(*tests))]
        return [fail_if(Compare(method(x, "keys"), "!=", _keys(m, plan.closed.known)))]
    by_name = _checked_by_name(b)
    fetched = [n for n in check.names if n in by_name]
    out = _presence_tests(m, x, [n for n in check.names if n not in by_name])
    if not fetched:
        return out
    # each required property that is checked by name is looked up once, here: its value, or
    # _MISSING when the name is not there (the properties' checks below read the local), where
    # `"a" not in x` and then `x["a"]` look it up twice, each comparing the key's text
    missing = m.prim("_MISSING")
    for name in fetched:
        scope = m.new_scope()  # (the scope of the property's checks in place too)
        b.fetched[name] = scope
        out.append(Assign(scope("x"), method(x, "get", lit(name), missing)))
    out.append(fail_if(or_(*(Compare(b.fetched[n]("x"), "is", missing) for n in fetched))))
    return out


def _presence_tests(m: ModuleEmitter, x: Name, names: list[str]) -> list[Stmt]:
    """`names` are all there."""
    if len(names) <= 4:
        return [fail_if(_has(n, x, True)) for n in names]
    if len(names) <= tuning.NAME_TESTS:
        return [fail_if(or_(*(_has(n, x, True) for n in names)))]
    return [fail_if(Not(Compare(method(x, "keys"), ">=", _key_set(m, "R", names))))]


def _checked_by_name(b: Branch) -> dict[str, ir.Node]:
    """The properties whose checks fast_properties writes by name (not through a table): name ->
    subschema."""
    plan = _plan(b)
    if plan.table is not None or (
        plan.pattern_loop is not None and plan.pattern_loop.table is not None
    ):
        return {}  # (fast_properties loops over the names through a table)
    properties = [c for c in b.node.checks if isinstance(c, Properties)]
    return dict(checked_properties(properties[0])) if len(properties) == 1 else {}


def fast_properties(b: Branch, check: Properties) -> list[Stmt]:
    m, x, plan = b.m, b.x, _plan(b)
    if plan.pattern_loop is not None and plan.pattern_loop.table is not None:
        return _pattern_loop_code(b, plan.pattern_loop)
    if plan.table is not None:
        table = property_table(m, check)
        assert table is not None
        k, v, f = b.scope("k"), b.scope("v"), b.scope("f")
        row_fails = Not(Call(Subscript(f, lit(0)), (v,)))
        test = (
            or_(Compare(f, "is", NONE), row_fails)
            if plan.closed_table
            else and_(Compare(f, "is not", NONE), row_fails)
        )
        return [
            For(
                Tuple((k, v), bare=True),
                method(x, "items"),
                (Assign(f, method(table, "get", k)), fail_if(test)),
            )
        ]
    if plan.counted:
        return _counted_properties(b, check)
    out: list[Stmt] = []
    for name, sub in check.entries:
        code = _property_code(b, name, sub)
        if isinstance(code, list):
            out += code if name in plan.present or not code else [if_(_has(name, x), code)]
        else:
            out.append(fail_if(code if name in plan.present else and_(_has(name, x), code)))
    return out


def _counted_properties(b: Branch, check: Properties) -> list[Stmt]:
    """A closed object's properties by name, counting the names found (the required ones are
    there): the object has no other name when its size is that count. A keys view compared with
    the set of names (`x.keys() <= _K3`) costs more in CPython and is a generic call natively;
    the count is one addition in the `if "a" in x` each optional one has."""
    x, plan = b.x, _plan(b)
    # (the required names are there: `required`, of cost 0, is checked before `properties`, of
    # cost 3, as the reads of present names without an `in` test rely on too)
    required = sum(1 for name, _ in check.entries if name in plan.present)
    any_optional = any(name not in plan.present for name, _ in check.entries)
    found = b.scope("found")
    out: list[Stmt] = [Assign(found, lit(required))] if any_optional else []
    for name, sub in check.entries:
        code = _property_code(b, name, sub)
        block = code if isinstance(code, list) else [fail_if(code)]
        if name in plan.present:
            out += block
        else:
            out.append(if_(_has(name, x), [Assign(found, BinOp(found, "+", lit(1))), *block]))
    return out + [fail_if(Compare(call("len", x), "!=", found if any_optional else lit(required)))]


def _property_code(b: Branch, name: str, sub: ir.Node) -> list[Stmt] | Expr:
    """What checks property `name` (subschema `sub`) where it is there: its checks in place, or
    the test that fails it (a call of its function)."""
    m = b.m
    if ir.always_true(sub):
        return []
    scope = b.fetched.get(name)
    value: Expr = scope("x") if scope is not None else Subscript(b.x, lit(name))
    target = m.through_refs(sub)
    if target is not sub and not m.type_only(target):
        sub = target  # a reference to a shared subschema: its function, called directly
    elif m.inlinable(sub):
        if scope is not None:
            return m.check_in_place(sub, None, var=scope("x"), scope=scope)
        return m.check_in_place(sub, value)
    return Not(m.fcall(m.fast_fn(sub), value))


def fast_additional_properties(b: Branch, check: AdditionalProperties) -> list[Stmt]:
    m, x, plan, schema = b.m, b.x, _plan(b), check.schema
    assert schema is not None
    if ir.always_true(schema):
        return []  # kept only for what it evaluates (unevaluatedProperties)
    if schema.boolean is False and plan.closed_table:
        return []  # checked by the loop over the property table
    if plan.pattern_loop is not None:  # (with a table, the properties' loop checks it)
        return _pattern_loop_code(b, plan.pattern_loop) if plan.pattern_loop.table is None else []
    known = _keys(m, check.known) if check.known else None
    if schema.boolean is False and not check.patterns:
        if plan.exact_keys or plan.counted:
            return []  # compared with the whole key set by required, or counted by properties
        return [fail_if(Not(Compare(method(x, "keys"), "<=", known)) if known else x)]
    k, v = b.scope("k"), b.scope("v")
    if not check.patterns and m.inlinable(schema):
        # the subschema checked in place, in the loop; over the values alone when no property is known
        value = Name("value" + m.next_suffix())
        if known:
            return m.check_under(
                [
                    ("for", Tuple((k, value), bare=True), method(x, "items")),
                    ("if", Compare(k, "not in", known), None),
                ],
                schema,
                var=value,
            )
        return m.check_under([("for", value, method(x, "values"))], schema, var=value)
    tests: list[Expr] = [Compare(k, "not in", known)] if known else []
    patterns = check.patterns
    if patterns:  # a name that is not a string matches no pattern
        unmatched = and_(*[m.pattern(pattern, k).negate() for pattern in patterns])
        tests.append(Paren(or_(Not(_is_str(k)), unmatched)))
        if truth(unmatched) is False:
            patterns = ()  # (one matches every name: none is tested, none needs a comment)
    if schema.boolean is not False:  # a false schema fails every name that gets here
        tests.append(Not(m.fcall(m.fast_fn(schema), v)))
    loop = For(Tuple((k, v), bare=True), method(x, "items"), (fail_if(and_(*tests)),))
    return [*m.pattern_notes(patterns), loop]


def fast_pattern_properties(b: Branch, check: PatternProperties) -> list[Stmt]:
    if _plan(b).pattern_loop is not None:
        return []  # checked by the pattern loop
    m, k, v = b.m, b.scope("k"), b.scope("v")
    checked = [(source, sub) for source, _, sub in check.entries if not ir.always_true(sub)]
    if not checked:
        return []  # (kept only for what it evaluates: unevaluatedProperties)
    inner = [
        fail_if(and_(m.pattern(source, k), Not(m.fcall(m.fast_fn(sub), v))))
        for source, sub in checked
    ]
    loop = For(Tuple((k, v), bare=True), method(b.x, "items"), (if_(_is_str(k), inner),))
    return [*m.pattern_notes(source for source, _ in checked), loop]


def _pattern_loop_code(b: Branch, loop: PatternLoop) -> list[Stmt]:
    """`for k, v in x.items():` the table's row for a known name; for another name, its patterns'
    schemas or additionalProperties."""
    m, k, v = b.m, b.scope("k"), b.scope("v")
    table = property_table(m, loop.table) if loop.table is not None else None
    others = _keys(m, loop.others) if loop.others else None
    unknown = _unknown_name_checks(b, loop, k, v)
    body: list[Stmt]
    if table is not None:
        f = b.scope("f")
        row = (Compare(f, "is not", NONE), (fail_if(Not(Call(Subscript(f, lit(0)), (v,)))),))
        rest = ((Compare(k, "not in", others), tuple(unknown)),) if others is not None else ()
        body = [
            Assign(f, method(table, "get", k)),
            If((row, *rest), () if others is not None else tuple(unknown)),
        ]
    elif others is not None:
        body = [if_(Compare(k, "not in", others), unknown)]
    else:
        body = unknown
    notes = m.pattern_notes(source for source, _, _ in loop.patterns.entries)
    return [*notes, For(Tuple((k, v), bare=True), method(b.x, "items"), tuple(body))]


def _unknown_name_checks(b: Branch, loop: PatternLoop, k: Name, v: Name) -> list[Stmt]:
    """The checks of a name the properties do not know (a name that is not a string matches no
    pattern): its patterns' schemas, or additionalProperties."""
    m = b.m
    matches = [(m.pattern(source, k), sub) for source, _, sub in loop.patterns.entries]
    other = loop.additional.schema if loop.additional is not None else None
    checked = [(match, sub) for match, sub in matches if not ir.always_true(sub)]
    if other is not None and other.boolean is False and len(matches) == 1:
        ((match, sub),) = matches  # the one pattern must match, and its schema hold
        tests = [Not(_is_str(k)), match.negate()]
        if checked:
            tests.append(Not(m.fcall(m.fast_fn(sub), v)))
        return [fail_if(or_(*tests))]
    out: list[Stmt] = []
    if other is not None and not ir.always_true(other):
        unmatched = Paren(and_(*[match.negate() for match, _ in matches]))
        fails = (
            [RETURN_FALSE]
            if other.boolean is False
            else [fail_if(Not(m.fcall(m.fast_fn(other), v)))]
        )
        out.append(if_(or_(Not(_is_str(k)), unmatched), fails))
    if checked:
        out.append(
            if_(
                _is_str(k),
                [fail_if(and_(match, Not(m.fcall(m.fast_fn(sub), v)))) for match, sub in checked],
            )
        )
    elif other is None or ir.always_true(other):
        out.append(Pass())
    return out


def fast_property_count(b: Branch, check: PropertyCount) -> list[Stmt]:
    return [fail_if(count_fails(b.x, check.at_least, check.bound))]


def fast_dependent_schemas(b: Branch, check: DependentSchemas) -> list[Stmt]:
    return [
        fail_if(and_(_has(name, b.x), Not(b.m.fcall(b.m.fast_fn(sub), b.x))))
        for name, sub in check.entries
        if not ir.always_true(sub)
    ]


# -- the error path -----------------------------------------------------------------------------------
def error_required(e: ErrorContext, check: Required) -> list[Stmt]:
    spec = error_spec(e.m, e.node, MESSAGES["required"])
    return [
        ExprStmt(
            call(e.m.prim("_required_errors"), X, literal_expr(check.names), spec, IP, KP, AK, OUT)
        )
    ]


def error_properties(e: ErrorContext, check: Properties) -> list[Stmt]:
    m = e.m
    table = property_table(m, check, error_only=True)
    if table is not None:  # a large one's table also holds the fast functions
        pairs = property_table(m, check) is not None
        return [ExprStmt(call(m.prim("_property_errors"), X, table, lit(pairs), IP, KP, AK, OUT))]
    return [
        if_(
            _has(name, X),
            [ecall(m, sub, Subscript(X, lit(name)), BinOp(IP, "+", ptr(name)), "properties", name)],
        )
        for name, sub in check.entries
        if not ir.always_true(sub)
    ]


def error_additional_properties(e: ErrorContext, check: AdditionalProperties) -> list[Stmt]:
    m, plan = e.m, _plan(e)
    assert check.schema is not None
    if ir.always_true(check.schema):
        return []
    # a closed object's property table lists exactly its names: it serves as the set of them
    known = (
        property_table(m, plan.table)
        if check.schema.boolean is False and plan.closed_table and plan.table
        else None
    )
    known = known or _keys(m, check.known)
    if check.schema.boolean is False and not check.patterns:
        spec = error_spec(m, e.node, MESSAGES["additionalProperties"], "additionalProperty")
        return [ExprStmt(call(m.prim("_extra_errors"), X, known, spec, IP, KP, AK, OUT))]
    tests: list[Expr] = [Compare(KEY, "not in", known)]
    tests += [Not(Paren(and_(_is_str(KEY), m.pattern(pattern, KEY)))) for pattern in check.patterns]
    if check.schema.boolean is False:
        spec = error_spec(
            m, e.node, MESSAGES["additionalProperties.patterns"], list(check.patterns)
        )
        inner: Stmt = ExprStmt(call(m.prim("_unmatched_error"), OUT, X, KEY, spec, IP, KP, AK))
    else:
        inner = ecall(m, check.schema, Subscript(X, KEY), at_key(m), "additionalProperties")
    return [For(KEY, X, (if_(and_(*tests), [inner]),))]


def error_pattern_properties(e: ErrorContext, check: PatternProperties) -> list[Stmt]:
    m, at = e.m, at_key(e.m)
    inner = [
        stmt
        for source, _, sub in check.entries
        for stmt in when(
            m.pattern(source, KEY),
            [ecall(m, sub, Subscript(X, KEY), at, "patternProperties", source)],
        )
    ]
    return [For(KEY, X, (if_(_is_str(KEY), inner),))]


def error_property_count(e: ErrorContext, check: PropertyCount) -> list[Stmt]:
    from .strings import error_length

    return error_length(e, check)


def error_dependent_schemas(e: ErrorContext, check: DependentSchemas) -> list[Stmt]:
    return [
        if_(_has(name, X), [ecall(e.m, sub, X, IP, check.keyword, name)])
        for name, sub in check.entries
        if not ir.always_true(sub)
    ]


# -- what they evaluate (for unevaluatedProperties) -------------------------------------------------
def evaluates_properties(found: Evaluation, check: Properties) -> None:
    names = _keys(found.m, (n for n, _ in check.entries))
    found.objects.append(ExprStmt(method(EV, "update", BinOp(method(X, "keys"), "&", names))))


def evaluates_pattern_properties(found: Evaluation, check: PatternProperties) -> None:
    tests = [found.m.pattern(source, KEY) for source, _, _ in check.entries]
    test = and_(_is_str(KEY), Paren(or_(*tests)))
    found.objects.append(For(KEY, X, (if_(test, [ExprStmt(method(EV, "add", KEY))]),)))


def evaluates_additional_properties(found: Evaluation, check: AdditionalProperties) -> None:
    found.objects.append(ExprStmt(method(EV, "update", X)))  # (when valid, it covers the rest)


def evaluates_dependent_schemas(found: Evaluation, check: DependentSchemas) -> None:
    for name, sub in check.entries:
        found.objects.append(if_(_has(name, X), merge(found.m.annotations(sub, X))))


_OBJECTS = ALL_DRAFTS | {"octoscript", "strict"}
KEYWORDS = [
    Keyword(
        "properties",
        "applicator",
        _OBJECTS | {"lenient"},
        check_properties,
        lower_properties,
        holds="map",
    ),
    Keyword(
        "patternProperties",
        "applicator",
        ALL_DRAFTS,
        check_pattern_properties,
        lower_pattern_properties,
        holds="map",
    ),
    Keyword(
        "additionalProperties",
        "applicator",
        _OBJECTS,
        check_additional_properties,
        lower_additional_properties,
        holds="schema",
    ),
    Keyword(
        "required",
        "validation",
        _OBJECTS | {"lenient"},
        check_required,
        lower_required,
    ),
    Keyword(
        "minProperties",
        "validation",
        ALL_DRAFTS,
        check_count,
        lower_min_properties,
    ),
    Keyword(
        "maxProperties",
        "validation",
        ALL_DRAFTS,
        check_count,
        lower_max_properties,
    ),
    Keyword(
        "dependentSchemas",
        "applicator",
        drafts("draft2019-09"),
        check_schema_map,
        lower_dependent_schemas,
        holds="map",
    ),
    Keyword(
        "dependencies",
        "applicator",
        ALL_DRAFTS,
        check_dependencies,
        lower_dependencies,
        holds="map",
    ),
]
CHECKS = [
    CheckKind(Required, cost=0, fast=fast_required, error=error_required),
    CheckKind(PropertyCount, cost=0, fast=fast_property_count, error=error_property_count),
    CheckKind(
        AdditionalProperties,
        cost=2,
        walks=True,
        fast=fast_additional_properties,
        error=error_additional_properties,
        evaluates=evaluates_additional_properties,
    ),
    CheckKind(
        Properties,
        cost=3,
        fast=fast_properties,
        error=error_properties,
        evaluates=evaluates_properties,
    ),
    CheckKind(
        PatternProperties,
        cost=3,
        work=8,
        walks=True,
        fast=fast_pattern_properties,
        error=error_pattern_properties,
        evaluates=evaluates_pattern_properties,
    ),
    CheckKind(
        DependentSchemas,
        cost=5,
        fast=fast_dependent_schemas,
        error=error_dependent_schemas,
        evaluates=evaluates_dependent_schemas,
    ),
]
PLANNER = plan_objects


# -- static types (render/types.py) -------------------------------------------------------------------
_OBJECT_WORDS = ("properties", "required", "additionalProperties", "patternProperties")


def types(reader: TypeReader, node: ir.Node, hint: str, depth: int) -> list[Ty]:
    """An object shape: declared properties, required names, and (where additionalProperties
    says) the type of every other value, patternProperties' joined in; any other kind besides.
    A keyword that lowered to nothing (`"properties": {}`) still makes the shape."""
    if not any(word in node.written for word in _OBJECT_WORDS):
        return []
    properties: list[tuple[str, Ty]] = []
    names: tuple[str, ...] = ()
    additional: AdditionalProperties | None = None
    patterns: PatternProperties | None = None
    for check in node.checks:
        if isinstance(check, Properties):
            properties = [
                (name, reader.ty(sub, hint + camel(name, "Field"), depth + 1))
                for name, sub in check.entries
            ]
        elif isinstance(check, Required):
            names = tuple(dict.fromkeys(check.names))
        elif isinstance(check, AdditionalProperties):
            additional = check
        elif isinstance(check, PatternProperties):
            patterns = check
    rest: Ty | None = None
    if "additionalProperties" in node.written:
        rest = (
            reader.ty(additional.schema, hint + "Value", depth + 1)
            if additional is not None and additional.schema is not None
            else TOP  # `true`, which lowers to nothing
        )
        if patterns is not None:
            rest = join_all(
                [
                    rest,
                    *(reader.ty(sub, hint + "Value", depth + 1) for _, _, sub in patterns.entries),
                ]
            )
        if rest.top:
            rest = None
    return [all_but_objects((Obj(tuple(properties), names, rest, hint),))]
