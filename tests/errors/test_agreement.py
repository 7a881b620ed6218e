"""Hypothesis, through the differential machinery (tests/test_differential.py compares every error
whole with the reference interpreter's, draft by draft): the structured errors' own properties,
for every schema and instance drawn. Params are JSON values, messages bounded, contexts only on
anyOf/oneOf/contains with a branch on each error in them, best_match one of the errors (or of a
context)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import generator
from generator.reference import DraftReference

from ..strategies import JSON, REFUSED_GRAPHS, draft_document, instances
from ..test_differential import DRAFT_NAMES, compiled
from .structure import structure

CONTEXT_KEYWORDS = {"anyOf", "oneOf", "contains", "minContains"}


def _every(errors: list[Any]) -> list[Any]:
    return [f for e in errors for f in [e, *_every(e.context)]]


def _check(error: Any, in_context: bool) -> None:
    json.dumps(error.params, default=str)  # (a Decimal: a number no float holds exactly)
    assert isinstance(error.keyword, str) and error.keyword
    assert error.keyword_location.endswith("/" + error.keyword) or error.keyword == "false"
    assert len(error.message) <= 1000
    assert (error.branch is not None) == in_context
    if error.context:
        assert error.keyword in CONTEXT_KEYWORDS
    for inner in error.context:
        _check(inner, True)


@pytest.mark.parametrize("draft", DRAFT_NAMES)
@given(data=st.data())
def test_structured_errors_hold_together(draft: str, data: st.DataObject) -> None:
    schema = data.draw(draft_document(draft), label="schema")
    try:
        module = compiled(schema, draft)
    except generator.SchemaError as error:
        assume(error.code not in REFUSED_GRAPHS)
        raise
    for _ in range(6):
        instance = data.draw(st.one_of(instances(schema), JSON), label="instance")
        found = module.errors(instance)
        try:
            assert structure(found) == structure(DraftReference(schema, draft).errors(instance))
        except RecursionError:
            assume(False)  # (an `if` that loops: the compiler never evaluates it)
        for error in found:
            _check(error, False)
        best = module.best_match(found)
        assert (best is None) == (not found)
        if found:
            assert any(best is e for e in _every(found))
