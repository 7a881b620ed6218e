"""The oracle's tables (generator/reference/) are written apart from the keyword units; here they
are held against the compiler's declarations, so that a keyword one side enforces and the other
does not, a changed message, or a changed draft rule shows as a failure naming the table."""

from __future__ import annotations

from dataclasses import fields

import pytest

from generator.format_options import format_options
from generator.keywords import registry
from generator.pipeline import PROFILES
from generator.profiles import DIALECTS, with_formats
from generator.reference import dialects, drafts, messages
from generator.reference.validator import rules

OPTIONS = {
    "default": format_options(),
    "format": format_options(format_assertion=True),
    "content": format_options(content_assertion=True),
    "both": format_options(format_assertion=True, content_assertion=True),
}


@pytest.mark.parametrize("options", sorted(OPTIONS))
@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_a_profile_enforces_the_same_keywords_in_both(profile: str, options: str) -> None:
    compiler = with_formats(PROFILES[profile], OPTIONS[options], registry.TABLES)
    oracle = rules(drafts.TABLES[profile], OPTIONS[options])
    assert set(oracle.checks) == set(compiler.enforced)


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_a_keyword_read_by_a_sibling_has_no_function_of_its_own(profile: str) -> None:
    for name, function in drafts.TABLES[profile].keywords.items():
        assert (function is None) == bool(registry.KEYWORDS[name].read_by), name


def test_the_tables_are_not_vacuous() -> None:
    """The comparison above fails on a table that misses a keyword."""
    table = drafts.TABLES["draft7"]
    keywords = {k: f for k, f in table.keywords.items() if k != "propertyNames"}
    smaller = rules(drafts.Table(table.name, table.dialect, keywords), OPTIONS["default"])
    assert set(smaller.checks) != set(PROFILES["draft7"].enforced)


def test_the_messages_are_the_units_messages() -> None:
    assert messages.MESSAGES == registry.TABLES.messages


def test_the_subschema_shapes_are_the_units_shapes() -> None:
    assert dialects.HOLDING == registry.TABLES.holding


@pytest.mark.parametrize("draft", [*sorted(dialects.DIALECTS), "seed"])
def test_the_draft_rules_are_the_compilers(draft: str) -> None:
    oracle = dialects.DIALECTS.get(draft, dialects.SEED)
    for field in fields(dialects.Dialect):
        assert getattr(oracle, field.name) == getattr(DIALECTS[draft], field.name), field.name


def test_the_validation_vocabulary_is_the_units() -> None:
    assert drafts.VALIDATION == registry.TABLES.vocabulary("validation")
