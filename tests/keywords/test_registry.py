"""The keyword registry is complete: every keyword a profile knows has a unit that declares every
part of it, and every IR check a unit can produce has its cost and its code."""

from __future__ import annotations

import dataclasses
import inspect
import typing

import pytest

from generator import ir
from generator.keywords import base, registry
from generator.pipeline import PROFILES
from generator.profiles import DIALECTS

KEYWORDS = sorted(registry.KEYWORDS)


@pytest.mark.parametrize("name", KEYWORDS)
def test_a_keyword_declares_every_part(name: str) -> None:
    keyword = registry.KEYWORDS[name]
    assert keyword.name == name
    assert keyword.vocabulary in {
        "core",
        "applicator",
        "validation",
        "unevaluated",
        "meta-data",
        "format",
        "content",
    }
    assert callable(keyword.check), "preflight needs a checker"
    assert keyword.known_by or keyword.annotation, "no profile knows it"
    assert not (
        keyword.known_by & keyword.annotation
    ), "a profile cannot both enforce it and ignore it"
    assert keyword.known_by <= set(PROFILES)
    assert keyword.annotation <= set(PROFILES)
    assert (
        keyword.optional <= keyword.known_by | keyword.annotation
    ), "an optional assertion is known"
    if (
        keyword.known_by or keyword.optional
    ):  # a check (maybe by option): lowered (the oracle's tables: tests/reference/)
        assert (keyword.lower is None) == bool(
            keyword.read_by
        ), "a lowering, or the sibling that reads it"
        if keyword.read_by:
            assert registry.KEYWORDS[keyword.read_by].lower is not None
            assert keyword.known_by <= registry.KEYWORDS[keyword.read_by].known_by
    else:
        assert keyword.lower is None, "an annotation is never a check"
    assert keyword.holds in ("", "schema", "schemas", "schema or schemas", "map")


def _check_classes() -> list[type]:
    found: set[type] = set()
    for unit in registry.UNITS:
        for _, value in inspect.getmembers(unit, inspect.isclass):
            if issubclass(value, ir.Check) and value is not ir.Check and value is not ir.Types:
                found.add(value)
    return sorted(found, key=lambda c: c.__qualname__)


@pytest.mark.parametrize("check", _check_classes(), ids=lambda c: c.__qualname__)
def test_every_ir_check_has_its_code(check: type) -> None:
    kind = registry.CHECKS.get(check)
    assert kind is not None, f"{check.__qualname__} has no CheckKind in its unit"
    assert dataclasses.is_dataclass(check) and check.__dataclass_params__.frozen  # type: ignore[attr-defined]
    assert isinstance(kind.cost, int) and kind.cost >= 0
    assert kind.error is not None, "the error path"
    typed = check.applies_to is not None or check.on_every_type
    assert (kind.fast is not None) == typed, "a typed check has fast code for its type's branch"
    assert (kind.general is not None) == (not typed), "an in-place check has general fast code"


def test_every_enforced_keyword_has_a_unit() -> None:
    for profile in PROFILES.values():
        for name in profile.enforced | profile.annotations:
            assert name in registry.KEYWORDS, (profile.name, name)


def test_dialects_name_every_draft_difference() -> None:
    """The drafts differ only through named flags; their values are the drafts' rules."""
    assert [d.ref_alone for d in map(DIALECTS.get, base.DRAFTS)] == [True, True, True, False, False]
    assert [d.tuple_items for d in map(DIALECTS.get, base.DRAFTS)] == [
        True,
        True,
        True,
        True,
        False,
    ]
    assert [d.float_integers for d in map(DIALECTS.get, base.DRAFTS)] == [
        False,
        True,
        True,
        True,
        True,
    ]
    assert [d.annotations for d in map(DIALECTS.get, base.DRAFTS)] == [
        False,
        False,
        False,
        True,
        True,
    ]
    assert DIALECTS["draft4"].id_keyword == "id" and DIALECTS["draft6"].id_keyword == "$id"


def test_a_unit_missing_a_part_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The completeness test above is not vacuous: a keyword without its lowering fails it."""
    broken = dataclasses.replace(registry.KEYWORDS["minLength"], lower=None)
    monkeypatch.setitem(registry.KEYWORDS, "minLength", broken)
    with pytest.raises(AssertionError, match="lowering"):
        test_a_keyword_declares_every_part("minLength")


def _member_fields(check: type) -> list[str]:
    """The fields of a check class holding subschemas it does not apply in place."""
    hints = typing.get_type_hints(check)
    return [
        f.name
        for f in dataclasses.fields(check)
        if "Node" in str(hints[f.name]) and f.name not in check.in_place_fields
    ]


@pytest.mark.parametrize("check", _check_classes(), ids=lambda c: c.__qualname__)
def test_a_check_applying_subschemas_to_members_says_which(check: type) -> None:
    """doubling.py pairs the member steps a check declares (ir.Check.member_steps); one holding a
    subschema outside its in-place fields that declares none would reach every member (correct,
    but what lies under it would be memoized for nothing)."""
    declares = check.member_steps is not ir.Check.member_steps  # type: ignore[attr-defined]
    assert declares == bool(_member_fields(check))


def test_the_member_steps_name_the_members() -> None:
    from generator.api import build, prepare

    schema = {
        "properties": {"a": {"type": "string"}},
        "patternProperties": {"^x": {"type": "integer"}},
        "additionalProperties": {"type": "null"},
        "propertyNames": {"minLength": 1},
        "unevaluatedProperties": {"type": "boolean"},
        "prefixItems": [{"type": "string"}],
        "items": {"type": "integer"},
        "contains": {"const": 1},
        "unevaluatedItems": {"type": "null"},
    }
    value, chosen, _ = prepare(schema)
    steps = {
        check.keyword: [(member, node.pointer) for member, node in check.member_steps() or ()]
        for check in build(value, chosen).root.checks
    }
    assert steps == {
        "properties": [(ir.ByName("a"), "/properties/a")],
        "patternProperties": [(ir.ByPattern("^x"), "/patternProperties/^x")],
        "additionalProperties": [(ir.Additional(("a",), ("^x",)), "/additionalProperties")],
        "propertyNames": [(ir.PropertyName(), "/propertyNames")],
        "unevaluatedProperties": [(ir.AnyProperty(), "/unevaluatedProperties")],
        "prefixItems": [(ir.AtIndex(0), "/prefixItems/0")],
        "items": [(ir.FromIndex(1), "/items")],
        "contains": [(ir.FromIndex(0), "/contains")],
        "unevaluatedItems": [(ir.FromIndex(0), "/unevaluatedItems")],
    }
