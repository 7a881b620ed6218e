"""The plan stage's ordering pass (generator/plan/order.py): each node's checks in order of cost,
and an allOf dropped only when every one of its members always holds. Answers and error
locations are the schema's, whatever the pass drops or reorders."""

from __future__ import annotations

from typing import Any

import pytest

import generator
from generator.api import build, prepare
from generator.reference import DraftReference


def _root_keywords(schema: Any) -> list[str]:
    value, chosen, _ = prepare(schema)
    return [check.keyword for check in build(value, chosen).root.checks]


@pytest.mark.parametrize(("schema", "instances", "location"), [
    ({"allOf": [True, {"type": "string"}]}, [(1, False), ("a", True), (None, False)], "/allOf/1/type"),
    ({"allOf": [{}, {"minimum": 3}]}, [(1, False), (3, True), ("x", True)], "/allOf/1/minimum"),
    ({"allOf": [{"minimum": 3}, True, {}]}, [(1, False), (4, True)], "/allOf/0/minimum"),
])
def test_an_allof_with_one_member_that_checks_something_is_kept(schema: Any, instances: list[Any],
                                                                location: str) -> None:
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
    schema = {"type": "array", "contains": {"type": "string"}, "items": {"pattern": "^a"}, "maxItems": 3,
              "minItems": 1}
    keywords = _root_keywords(schema)
    assert keywords.index("maxItems") < keywords.index("contains")
    assert keywords.index("minItems") < keywords.index("items")
    assert keywords.index("maxItems") < keywords.index("minItems")
    module = generator.compile_module(schema, format=False)
    reference = DraftReference(schema, "draft2020-12")
    for instance in ([], ["a"], ["b"], [1], ["a", "a", "a", "a"], "s"):
        assert module.is_valid(instance) is reference.is_valid(instance), instance
