"""A hostile-input property suite that grows (GitHub-style issue 15): for malformed and
adversarial schemas (tests/strategies.py: hostile_schemas) and instances, compiling gives either
a SchemaError with a code and a JSON pointer, or a module that agrees with the reference
interpreter, whose is_valid, validate and errors agree with each other; all of it in bounded time
and memory (each example runs in a forked child with a generous time limit and an address-space
limit: tests/bounded.py), and no other exception."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import generator
from generator.errors import CODES
from generator.reference import DraftReference, Reference

from .bounded import bounded
from .strategies import HOSTILE_INSTANCES, JSON, hostile_schemas, instances

PROFILES = ("draft2020-12", "draft2019-09", "draft7", "draft4", "strict", "octoscript", "lenient")
DRAFTS = ("draft2020-12", "draft2019-09", "draft7", "draft6", "draft4")
# Per profile: modest in the ci profile, more with HYPOTHESIS_PROFILE=dev.
EXAMPLES = max(8, settings().max_examples // 5)


def _verdict(schema: Any, profile: str, values: list[Any]) -> list[str]:
    """What is wrong with compiling `schema` and validating `values` (empty: nothing)."""
    try:
        module = generator.compile_module(schema, profile=profile, format=False)
    except generator.SchemaError as error:
        problems = []
        if error.code not in CODES:
            problems.append(f"unknown code {error.code!r}")
        if not isinstance(error.pointer, str) or (
            error.pointer and not error.pointer.startswith("/")
        ):
            problems.append(f"not a JSON pointer: {error.pointer!r}")
        if not error.message:
            problems.append("no message")
        return problems
    reference = DraftReference(schema, profile) if profile in DRAFTS else Reference(schema, profile)
    problems = []
    for value in values:
        valid = module.is_valid(value)
        errors = list(module.errors(value))
        try:
            module.validate(value)
            raised = False
        except module.ValidationError:
            raised = True
        try:
            expected = reference.is_valid(value)
        except RecursionError:  # the reference is plainly recursive; the module is not
            expected = valid
        if valid != expected or valid == bool(errors) or raised == valid:
            problems.append(
                f"{generator.primitives.short_repr(value)}: module {valid}, reference {expected}, "
                f"{len(errors)} errors, validate raised {raised}"
            )
        for error in errors:
            if not isinstance(error.instance_location, str) or not isinstance(
                error.keyword_location, str
            ):
                problems.append("an error without locations")
    return problems


@pytest.mark.parametrize("profile", PROFILES)
@settings(max_examples=EXAMPLES)
@given(data=st.data())
def test_hostile_schemas_and_instances(profile: str, data: st.DataObject) -> None:
    schema, base = data.draw(hostile_schemas(profile), label="schema")
    values = data.draw(
        st.lists(st.one_of(instances(base), HOSTILE_INSTANCES, JSON), max_size=4), label="instances"
    )
    outcome = bounded(_verdict, schema, profile, values)
    assert outcome.kind is None, f"{outcome.kind}: {outcome.message}\n{outcome.trace}"
    assert outcome.value == []
