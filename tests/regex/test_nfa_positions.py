"""Every term of a pattern makes positions of its own, in both modes: the first and last tables
that an alternation joins never share a position (nfa._union relies on it and adds no route
counts), and every position is made once."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.regex import nfa
from generator.regex.ecma import parse

from .patterns import regular_patterns

# back-references (copies of their group) and look-arounds, which regular_patterns leaves out
_EXTRA = [r"(a|b)\1", r"(a+)x\1|(a)\2", r"(?=a|ab)(?:a|ab)", r"(?:a|b?)(a|b)\1", r"(?:(a)|b)\1+"]


def _build_checking_disjoint(pattern: str, mode: str, monkeypatch: pytest.MonkeyPatch) -> int:
    joined: list[int] = []
    original = nfa._union

    def union(tables: list[Any]) -> Any:
        seen: set[int] = set()
        for table in tables:
            assert not seen & table.keys(), f"{pattern!r}: an alternation repeats a position"
            seen |= table.keys()
        joined.append(len(tables))
        return original(tables)

    monkeypatch.setattr(nfa, "_union", union)
    parsed = parse(pattern)
    builder = nfa.Builder(parsed, mode, max_positions=5000, fold_above=40, backref_width=8)
    fragment = builder.pattern(parsed.body)
    assert set(fragment.first) <= set(range(len(builder.sets)))
    assert len(builder.origin) == len(builder.sets)
    return len(joined)


@settings(max_examples=150, deadline=None)
@given(regular_patterns, st.sampled_from(["exact", "sre"]))
def test_alternatives_never_share_a_position(pattern: str, mode: str) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        _build_checking_disjoint(pattern, mode, monkeypatch)


@pytest.mark.parametrize("pattern", _EXTRA)
def test_copies_of_a_group_get_positions_of_their_own(
    pattern: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _build_checking_disjoint(pattern, "sre", monkeypatch) >= 1


def _nested_zero_width(depth: int) -> str:
    pattern = r"\b"
    for _ in range(depth):
        pattern = r"(?:\b" + pattern + "){2,3}"
    return pattern


@pytest.mark.parametrize("mode", ["exact", "sre"])
def test_nested_zero_width_repetitions_build_each_part_once(
    mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # each level used to build its part once per copy (up to three): 3**depth terms, so a
    # 200-character pattern held the risk analysis for days
    built: list[int] = []
    term = nfa.Builder.term

    def counting(self: nfa.Builder, node: Any) -> nfa.Fragment:
        built.append(1)
        return term(self, node)

    monkeypatch.setattr(nfa.Builder, "term", counting)
    counts = []
    for depth in (5, 10, 20, 40):
        built.clear()
        parsed = parse(_nested_zero_width(depth))
        nfa.Builder(parsed, mode, max_positions=100).pattern(parsed.body)
        counts.append(len(built))
    assert counts == [3 * depth + 1 for depth in (5, 10, 20, 40)]


def test_nested_zero_width_repetitions_are_assessed_as_one_level_is() -> None:
    from generator.regex import assess_risk

    # the optional third iteration is a second way through the same point at every level (in
    # Python's re a failing search of this pattern does not end), reported as for one level
    one_level = assess_risk("^" + _nested_zero_width(1) + "a$")
    assert one_level.risky
    assert assess_risk("^" + _nested_zero_width(60) + "a$") == one_level
