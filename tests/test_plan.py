"""The plan stage (generator/plan/): the ordering pass (order.py: each node's checks in order of
cost, an allOf dropped only when every one of its members always holds; answers and error
locations are the schema's, whatever it drops or reorders), the fast path's cost estimates and
the in-place rules they move first (cost.py), and what is inlined (inlining.py)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

import generator
from generator import ir
from generator.api import build, prepare
from generator.keywords.registry import CHECKS, TABLES
from generator.plan import tuning
from generator.plan.cost import CALL, MEMBERS, RECURSIVE, Costs
from generator.plan.order import order
from generator.plan.recursion import recursion_heads
from generator.reference import DraftReference


def _root_keywords(schema: Any) -> list[str]:
    value, chosen, _ = prepare(schema)
    return [check.keyword for check in build(value, chosen).root.checks]


@pytest.mark.parametrize(
    ("schema", "instances", "location"),
    [
        (
            {"allOf": [True, {"type": "string"}]},
            [(1, False), ("a", True), (None, False)],
            "/allOf/1/type",
        ),
        ({"allOf": [{}, {"minimum": 3}]}, [(1, False), (3, True), ("x", True)], "/allOf/1/minimum"),
        ({"allOf": [{"minimum": 3}, True, {}]}, [(1, False), (4, True)], "/allOf/0/minimum"),
    ],
)
def test_an_allof_with_one_member_that_checks_something_is_kept(
    schema: Any, instances: list[Any], location: str
) -> None:
    """A member that always holds beside one that does not: the allOf still rejects, at the
    failing member's own index."""
    assert "allOf" in _root_keywords(schema)
    module = generator.compile_module(schema, format=False)
    reference = DraftReference(schema, "draft2020-12")
    for instance, valid in instances:
        assert module.is_valid(instance) is valid is reference.is_valid(instance), instance
        found = module.errors(instance)
        assert [e.keyword_location for e in found] == ([] if valid else [location]), instance


@pytest.mark.parametrize("schema", [{"allOf": [True, {}]}, {"allOf": [{}]}, {"allOf": [True]}])
def test_an_allof_whose_members_all_always_hold_is_dropped(schema: Any) -> None:
    assert _root_keywords(schema) == []
    module = generator.compile_module(schema, format=False)
    for instance in (1, "a", None, [], {}):
        assert module.is_valid(instance) and module.errors(instance) == []


def test_checks_are_ordered_by_cost_and_the_answers_are_the_schemas() -> None:
    """Sizes before loops and patterns; the order of equal costs is the keyword order."""
    schema = {
        "type": "array",
        "contains": {"type": "string"},
        "items": {"pattern": "^a"},
        "maxItems": 3,
        "minItems": 1,
    }
    keywords = _root_keywords(schema)
    assert keywords.index("maxItems") < keywords.index("contains")
    assert keywords.index("minItems") < keywords.index("items")
    assert keywords.index("maxItems") < keywords.index("minItems")
    module = generator.compile_module(schema, format=False)
    reference = DraftReference(schema, "draft2020-12")
    for instance in ([], ["a"], ["b"], [1], ["a", "a", "a", "a"], "s"):
        assert module.is_valid(instance) is reference.is_valid(instance), instance


# -- the fast path's cost estimates (plan/cost.py) ---------------------------------------------
def _planned(schema: Any) -> tuple[Any, Any, dict[str, Any]]:
    """The root node, the plan and the graph of a compiled schema."""
    value, chosen, _ = prepare(schema)
    built = build(value, chosen)
    return built.root, built.emitter.plan, built.emitter.graph


def _work(check: Any) -> tuple[float, bool]:
    kind = CHECKS[type(check)]
    return kind.work, kind.walks


def test_a_leaf_costs_one_test_and_its_checks_work_and_a_boolean_schema_nothing() -> None:
    root, plan, graph = _planned({"type": "string", "minLength": 1, "maxLength": 9})
    costs = Costs(graph, CHECKS)
    assert costs.node(root) == 1.0 + sum(_work(c)[0] for c in root.checks)
    assert costs.node(_planned(True)[0]) == costs.node(_planned(False)[0]) == 0.0


def test_the_typed_cost_is_the_costliest_types_and_enum_is_paid_in_every_type() -> None:
    """Only one type's checks run on a value: the estimate is the costliest type's, plus the
    checks every type's branch runs (enum, const), plus the in-place rules."""
    schema = {
        "minLength": 1,
        "maxLength": 9,
        "pattern": "^a",
        "minimum": 1,
        "enum": ["ab", 2],
        "allOf": [{"maxLength": 5}],
    }
    root, _, graph = _planned(schema)
    costs = Costs(graph, CHECKS)
    by_type: dict[Any, float] = {}
    general = 0.0
    for check in root.checks:
        if check.applies_to is None and not check.on_every_type:
            general += costs.check(check)
        else:
            by_type[check.applies_to] = by_type.get(check.applies_to, 0.0) + costs.check(check)
    every = by_type.pop(None)
    assert (
        set(by_type) == {"string", "number"}
        and by_type["string"] != by_type["number"]
        and every > 0
    )
    assert costs.typed(root) == every + max(by_type.values())
    assert costs.node(root) == 1.0 + costs.typed(root) + general
    # no typed check: nothing typed to pay but the enum; an in-place rule alone is no typed check
    for schema, paid in (({"enum": ["a", 1]}, "enum"), ({"allOf": [{"minLength": 1}]}, None)):
        node, _, node_graph = _planned(schema)
        node_costs = Costs(node_graph, CHECKS)
        assert node_costs.typed(node) == (node_costs.check(node.checks[0]) if paid else 0.0), schema


def test_a_walk_costs_its_work_and_its_members_per_assumed_member() -> None:
    root, _, graph = _planned(
        {
            "type": "array",
            "items": {"type": "string", "minLength": 1},
            "contains": {"maxLength": 3},
            "maxItems": 4,
        }
    )
    costs = Costs(graph, CHECKS)
    for check in root.checks:
        work, walks = _work(check)
        below = sum(costs.node(sub) for sub in ir.subschemas(check))
        assert costs.check(check) == (work + below) * (MEMBERS if walks else 1), check.keyword
    assert any(_work(c)[1] for c in root.checks) and not all(_work(c)[1] for c in root.checks)


def test_an_in_place_rule_costs_what_it_applies_and_a_reference_a_call_more() -> None:
    schema = {
        "$defs": {"s": {"type": "string", "minLength": 2}},
        "minLength": 1,
        "allOf": [{"maxLength": 5}, {"pattern": "^a"}],
        "not": {"$ref": "#/$defs/s"},
    }
    root, _, graph = _planned(schema)
    costs = Costs(graph, CHECKS)
    all_of = next(c for c in root.checks if c.keyword == "allOf")
    assert costs.check(all_of) == _work(all_of)[0] + sum(costs.node(s) for s in ir.in_place(all_of))
    not_ = next(c for c in root.checks if c.keyword == "not")
    (inner,) = ir.in_place(not_)
    assert costs.check(not_) == _work(not_)[0] + costs.node(inner)  # its one subschema counted once
    (ref,) = inner.checks
    assert costs.check(ref) == _work(ref)[0] + CALL + costs.node(graph[ref.target])
    assert costs.node(graph[ref.target]) == 1.0 + _work(graph[ref.target].checks[0])[0]


def test_a_rule_that_recurses_is_estimated_as_costly_as_it_gets() -> None:
    root, _, graph = _planned(
        {
            "type": "object",
            "properties": {"a": {"type": "string"}},
            "anyOf": [{"properties": {"next": {"$ref": "#"}}}, {"required": ["a"]}],
        }
    )
    costs = Costs(graph, CHECKS)
    any_of = next(c for c in root.checks if c.keyword == "anyOf")
    assert costs.check(any_of) >= RECURSIVE
    assert costs.node(root) >= RECURSIVE


def test_in_place_rules_cheaper_than_the_typed_checks_run_first_in_their_order() -> None:
    """split(): each in-place rule estimated below the node's typed checks runs before them, the
    others after; each list keeps the order it was given."""
    schema = {
        "type": "object",
        "properties": {f"p{i}": {"type": "string", "pattern": f"^{i}"} for i in range(6)},
        "allOf": [{"required": ["p1"]}],
        "not": {"required": ["p2"]},
        "anyOf": [
            {"properties": {f"q{i}": {"pattern": f"^{i}"} for i in range(30)}},
            {"required": ["p0"]},
        ],
    }
    root, plan, graph = _planned(schema)
    costs = Costs(graph, CHECKS)
    general = [c for c in root.checks if c.applies_to is None and not c.on_every_type]
    early, late = costs.split(root, general)
    typed = costs.typed(root)
    assert (
        [c.keyword for c in early]
        == [c.keyword for c in general if costs.check(c) < typed]
        == ["allOf", "not"]
    )
    assert [c.keyword for c in late] == ["anyOf"]
    assert costs.split(root, list(reversed(general)))[0] == list(reversed(early))
    # a rule estimated at exactly what the typed checks cost is not cheaper: it stays after them
    tie, _, tie_graph = _planned(
        {
            "type": "string",
            "minLength": 1,
            "maxLength": 9,
            "const": "x",
            "allOf": [{"maxLength": 3}],
        }
    )
    tie_costs = Costs(tie_graph, CHECKS)
    (rule,) = [c for c in tie.checks if c.keyword == "allOf"]
    assert tie_costs.check(rule) == tie_costs.typed(tie) and tie_costs.split(tie, [rule]) == (
        [],
        [rule],
    )
    # the answers do not depend on the order
    module = generator.compile_module(schema, format=False)
    reference = DraftReference(schema, "draft2020-12")
    for instance in (
        {},
        {"p1": "1"},
        {"p1": "1", "p2": "2"},
        {"p1": "1", "p0": "0"},
        {"p1": "x", "p0": "0"},
        [],
    ):
        assert module.is_valid(instance) is reference.is_valid(instance), instance


# -- inlining (plan/inlining.py) ------------------------------------------------------------------
def _member(schema: Any) -> tuple[Any, Any]:
    """The subschema of property "a" and the plan, in a schema where "a" is its only property."""
    root, plan, _ = _planned({"properties": {"a": schema}})
    return root.checks[0].entries[0][1], plan


def test_type_only_and_leaf_subschemas() -> None:
    type_only, plan = _member({"type": "string"})
    assert plan.inlining.type_only(type_only) and plan.inlining.is_leaf(type_only)
    leaf, _ = _member({"type": "string", "minLength": 1})
    assert not plan.inlining.type_only(leaf) and plan.inlining.is_leaf(leaf)
    walk, _ = _member({"items": {"minLength": 1}})
    assert not plan.inlining.type_only(walk) and not plan.inlining.is_leaf(walk)
    resource, _ = _member({"$id": "https://example.com/a", "type": "string"})
    assert not plan.inlining.type_only(resource)
    false, _ = _member(False)
    assert not plan.inlining.type_only(false) and not plan.inlining.is_leaf(false)


def test_the_weight_of_a_subschema_counts_its_checks_and_subschemas() -> None:
    leaf, plan = _member({"minLength": 1, "maxLength": 3})
    assert plan.inlining.weight(leaf) == 1 + 2  # the node and its two checks
    walk, plan = _member({"items": {"minLength": 1}, "contains": {"maxLength": 3}})
    assert plan.inlining.weight(walk) == 1 + 2 * (1 + plan.inlining.weight(walk.checks[0].schema))


def _shared(uses: int, members: int) -> tuple[Any, Any]:
    """A subschema (an allOf of `members` leaves) that `uses` properties hold."""
    shared = {"allOf": [{"minLength": i + 1} for i in range(members)]}
    root, plan, _ = _planned({"properties": {f"p{i}": shared for i in range(uses)}})
    return root.checks[0].entries[0][1], plan


def test_copies_of_a_shared_subschema_are_allowed_up_to_the_copy_budget() -> None:
    """uses x weight within COPY_BUDGET: copied in each place; over it, one shared function; a
    subschema used once or twice is always copied."""
    # weight: the node, its allOf, and each member's node and check: 2 + 2 * members
    members = (tuning.COPY_BUDGET // 4 - 2) // 2
    node, plan = _shared(4, members)
    assert (
        plan.inlining.weight(node) == 2 + 2 * members
        and 4 * (2 + 2 * members) == tuning.COPY_BUDGET
    )
    assert plan.inlining.copies_allowed(node)  # exactly the budget
    node, plan = _shared(4, members + 1)
    assert 4 * plan.inlining.weight(node) > tuning.COPY_BUDGET and not plan.inlining.copies_allowed(
        node
    )
    big, plan = _shared(2, 200)
    assert plan.inlining.copies_allowed(big)  # twice: copied, however large
    big, plan = _shared(3, 200)
    assert not plan.inlining.copies_allowed(big)
    alone, plan = _shared(1, 200)
    assert plan.inlining.copies_allowed(alone)


def test_what_is_inlined_at_which_depth() -> None:
    leaf, plan = _member({"type": "string", "minLength": 1})
    assert plan.inlining.inlinable(leaf, tuning.INLINE_DEPTH + 5)  # a leaf at any depth
    walk, plan = _member({"items": {"minLength": 1}})
    assert plan.inlining.inlinable(walk, tuning.INLINE_DEPTH - 1)
    assert not plan.inlining.inlinable(walk, tuning.INLINE_DEPTH)
    most, plan = _member(
        {
            "minLength": 1,
            "maxLength": 9,
            "pattern": "^a",
            "minimum": 1,
            "maximum": 9,
            "multipleOf": 2,
        }
    )
    assert len(most.checks) == tuning.INLINE_CHECKS and plan.inlining.inlinable(most, 0)
    many, plan = _member(
        {
            "minLength": 1,
            "maxLength": 9,
            "pattern": "^a",
            "minimum": 1,
            "maximum": 9,
            "multipleOf": 2,
            "minItems": 1,
            "maxItems": 3,
        }
    )
    assert len(many.checks) > tuning.INLINE_CHECKS and not plan.inlining.inlinable(many, 0)
    resource, plan = _member({"$id": "https://example.com/a", "minLength": 1})
    assert not plan.inlining.inlinable(resource, 0)
    false, plan = _member(False)
    assert not plan.inlining.inlinable(false, 0)
    big, plan = _shared(3, 200)
    assert not plan.inlining.inlinable(big, 0)
    # a type test alone is in place however often it is used
    root, plan, _ = _planned(
        {"properties": {f"p{i}": {"type": "string"} for i in range(tuning.COPY_BUDGET + 1)}}
    )
    type_only = root.checks[0].entries[0][1]
    assert not plan.inlining.copies_allowed(type_only) and plan.inlining.inlinable(type_only, 0)


def test_a_recursion_head_is_never_inlined() -> None:
    root, plan, graph = _planned({"type": "array", "items": {"$ref": "#"}})
    assert root in plan.recursive
    assert not plan.inlining.inlinable(root, 0)


def test_plain_references_are_followed_to_their_end_and_nothing_else_is() -> None:
    schema = {
        "$defs": {
            "a": {"$ref": "#/$defs/b"},
            "b": {"$ref": "#/$defs/c"},
            "c": {"type": "string", "minLength": 2},
            "typed": {"type": "string", "$ref": "#/$defs/c"},
        },
        "properties": {
            "p": {"$ref": "#/$defs/a"},
            "q": {"$ref": "#/$defs/typed"},
            "r": {"minLength": 3},
        },
    }
    root, plan, graph = _planned(schema)
    entries = dict(root.checks[0].entries)
    end, followed = plan.inlining.through_refs(entries["p"])
    assert followed and end == graph["#/$defs/c"] and end.checks[0].keyword == "minLength"
    assert plan.inlining.inlinable(end, 0)  # a target no subschema holds counts as used once
    assert plan.inlining.ref_chain(entries["p"])[-1] == end
    typed = graph[entries["q"].checks[0].target]
    assert plan.inlining.plain_ref(typed) is None  # a reference beside a type is no plain reference
    assert plan.inlining.through_refs(entries["r"]) == (entries["r"], False)
    assert plan.inlining.ref_chain(entries["r"]) == []


def test_in_dynamic_scope_no_reference_is_followed_at_compile_time() -> None:
    schema = {
        "$id": "https://example.com/d",
        "$dynamicAnchor": "n",
        "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"minLength": 2}},
        "properties": {"p": {"$ref": "#/$defs/a"}, "q": {"$dynamicRef": "#n"}},
    }
    root, plan, _ = _planned(schema)
    assert plan.dynamic
    p = dict(root.checks[0].entries)["p"]
    assert plan.inlining.plain_ref(p) is None and plan.inlining.through_refs(p) == (p, False)


def test_every_subschema_at_any_depth_has_its_checks_in_order_of_cost() -> None:
    """Ordering reaches into properties, items and applicators: a nested node's checks are in
    cost order like the root's, so its errors come in that order too."""
    inner = {"pattern": "^a", "minLength": 3}
    schema = {"properties": {"a": inner}, "items": inner, "allOf": [{"properties": {"b": inner}}]}
    root, _, _ = _planned(schema)
    top, _, _ = _planned(inner)
    ordered = [c.keyword for c in top.checks]
    assert ordered == [
        "minLength",
        "pattern",
    ]  # a size before a pattern, whatever the keyword order
    assert [
        c.keyword
        for c in order(replace(top, checks=tuple(reversed(top.checks))), TABLES.ranks).checks
    ] == ordered
    properties = next(c for c in root.checks if c.keyword == "properties")
    items = next(c for c in root.checks if c.keyword == "items")
    all_of = next(c for c in root.checks if c.keyword == "allOf")
    nested = [properties.entries[0][1], items.schema, all_of.schemas[0].checks[0].entries[0][1]]
    assert [[c.keyword for c in node.checks] for node in nested] == [ordered] * 3
    module = generator.compile_module(schema, format=False)
    found = module.errors({"a": "b"})
    assert [e.keyword for e in found] == ["minLength", "pattern"]


def test_uses_are_counted_at_any_depth_and_once_per_holding_subschema() -> None:
    """A subschema is counted once for each place that holds it, however deep and however many
    times its holder is itself used: a large subschema inside a shared one is copied once."""
    big = {"allOf": [{"minLength": i + 1} for i in range(49)]}  # weight 100
    shared = {"items": big}
    root, plan, _ = _planned({"properties": {f"p{i}": shared for i in range(4)}})
    holder = root.checks[0].entries[0][1]
    inner = holder.checks[0].schema
    assert plan.inlining.weight(inner) == 100 and plan.inlining.copies_allowed(inner)
    assert not plan.inlining.copies_allowed(holder)  # 4 x 102 over the budget
    # the same four places one level deeper: still counted
    root, plan, _ = _planned(
        {"properties": {"x": {"properties": {f"p{i}": big for i in range(4)}}}}
    )
    deep = root.checks[0].entries[0][1].checks[0].entries[0][1]
    assert not plan.inlining.copies_allowed(deep)


@pytest.mark.parametrize(
    "schema",
    [
        {"items": {"$ref": "#"}, "contains": {"type": "string"}, "maxItems": 3},
        {
            "properties": {"a": {"$ref": "#"}},
            "additionalProperties": {"type": "string"},
            "maxProperties": 3,
        },
        {
            "allOf": [{"properties": {"a": {"$ref": "#/$defs/b"}}}],
            "$defs": {"b": {"items": {"$ref": "#"}}},
        },
    ],
)
def test_a_cycle_through_any_check_of_a_node_has_a_head(schema: Any) -> None:
    """Every cycle passes through a recursion head, whichever of a node's checks it leaves by
    (plan/recursion.py); the head is never inlined."""
    root, plan, graph = _planned(schema)
    assert root in recursion_heads(graph, [root, *graph.values()]) and root in plan.recursive
    assert not plan.inlining.inlinable(root, 0)


# -- each unit's part of a node's plan (plan/parts.py) -----------------------------------------
def test_a_nodes_plan_part_is_found_by_its_class_or_a_base_it_shares() -> None:
    """The object unit's part is found as ObjectPlan and as ObjectNames (what oneOf's dispatch
    reads); a class no planner made is a LookupError, never another unit's part."""
    from generator.keywords.arrays import ArrayPlan
    from generator.keywords.objects import ObjectPlan
    from generator.plan.parts import ObjectNames

    root, plan, _ = _planned(
        {
            "type": "object",
            "properties": {"a": {"type": "string"}},
            "required": ["a"],
            "additionalProperties": False,
        }
    )
    node_plan = plan.node(root)
    objects = node_plan.part(ObjectPlan)
    assert node_plan.part(ObjectNames) is objects
    assert objects.closed_names() == frozenset({"a"})
    assert objects.required_names() == frozenset({"a"})
    assert node_plan.part(ArrayPlan).unrolled is None
    with pytest.raises(LookupError, match="no int"):
        node_plan.part(int)


def test_the_oneof_dispatch_reads_properties_and_allowed_values_from_the_ir() -> None:
    """emit/alternatives.py reads no unit's class: a check names the subschemas it applies by
    name and the values it allows; other checks name none."""
    value, chosen, _ = prepare(
        {"type": "object", "properties": {"kind": {"const": "a"}}, "minProperties": 1}
    )
    root = build(value, chosen).root
    by_keyword = {check.keyword: check for check in root.checks}
    ((name, sub),) = by_keyword["properties"].named_subschemas()
    assert name == "kind"
    assert [c.constant_values() for c in sub.checks] == [("a",)]
    assert by_keyword["minProperties"].named_subschemas() == ()
    assert by_keyword["minProperties"].constant_values() is None
