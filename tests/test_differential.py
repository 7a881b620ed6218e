"""Hypothesis: generated modules and the reference interpreter agree, profile by profile."""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import generator
from generator.reference import Reference

from .errors.structure import structure
from .strategies import JSON, instances, schemas

INSTANCES_PER_SCHEMA = 12


def _key(schema: Any) -> str:
    return json.dumps(schema, sort_keys=True, default=repr)


@functools.lru_cache(maxsize=512)
def _compiled(key: str, profile: str, schema_box: "Box") -> Any:
    # Unformatted: black only lays the code out (test_golden checks the formatted text is the same
    # program), and skipping it keeps the property tests fast.
    from .strategies import compile_drawn

    return compile_drawn(schema_box.value, profile=profile, format=False)


class Box:
    """Hashable by the schema's JSON text, so equal schemas share one compiled module."""

    def __init__(self, value: Any) -> None:
        self.value = value
        self.key = _key(value)

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Box) and other.key == self.key


def compiled(schema: Any, profile: str) -> Any:
    box = Box(schema)
    return _compiled(box.key, profile, box)


def locations(errors: list[Any]) -> list[tuple[str, str]]:
    return sorted((e.instance_location, e.keyword_location) for e in errors)


def assert_agree(module: Any, reference: Reference, instance: Any) -> None:
    """Validity, and every error: locations, keyword, params, message and context."""
    valid = module.is_valid(instance)
    found = module.errors(instance)
    expected = reference.errors(instance)
    assert valid == reference.is_valid(instance), (instance, expected)
    assert structure(found) == structure(expected), instance
    assert valid == (not found)
    if valid:
        module.validate(instance)
    else:
        with pytest.raises(module.ValidationError) as raised:
            module.validate(instance)
        assert (raised.value.instance_location, raised.value.keyword_location) in locations(
            expected
        )


@pytest.mark.parametrize("profile", ["octoscript", "strict", "lenient"])
@given(data=st.data())
def test_generated_module_agrees_with_reference(profile: str, data: st.DataObject) -> None:
    schema = data.draw(schemas(profile), label="schema")
    module = compiled(schema, profile)
    reference = Reference(schema, profile)
    for _ in range(INSTANCES_PER_SCHEMA):
        assert_agree(
            module, reference, data.draw(st.one_of(instances(schema), JSON), label="instance")
        )


@given(data=st.data())
def test_strict_accepts_implies_lenient_accepts(data: st.DataObject) -> None:
    schema = data.draw(schemas("strict"), label="schema")
    strict = compiled(schema, "strict")
    lenient = compiled(schema, "lenient")
    for _ in range(INSTANCES_PER_SCHEMA):
        instance = data.draw(st.one_of(instances(schema), JSON), label="instance")
        if strict.is_valid(instance):
            assert lenient.is_valid(instance)
            assert Reference(schema, "lenient").is_valid(instance)


DRAFT_NAMES = ["draft2020-12", "draft2019-09", "draft7", "draft6", "draft4"]


@pytest.mark.parametrize("draft", DRAFT_NAMES)
@given(data=st.data())
def test_drafts_generated_module_agrees_with_reference(draft: str, data: st.DataObject) -> None:
    from hypothesis import assume

    from generator.reference import DraftReference

    from .strategies import REFUSED_GRAPHS, draft_document

    schema = data.draw(draft_document(draft), label="schema")
    try:
        module = compiled(schema, draft)
    except generator.SchemaError as error:
        assume(error.code not in REFUSED_GRAPHS)  # refused at compile time: nothing to compare
        raise
    reference = DraftReference(schema, draft)
    for _ in range(INSTANCES_PER_SCHEMA):
        instance = data.draw(st.one_of(instances(schema), JSON), label="instance")
        valid = module.is_valid(instance)
        found = module.errors(instance)
        expected = reference.errors(instance)  # (an `if` alone looping back: neither evaluates it)
        assert valid == (not expected), (instance, expected)
        assert structure(found) == structure(expected), instance
        assert valid == (not found)
