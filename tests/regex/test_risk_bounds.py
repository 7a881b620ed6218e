"""The risk analysis fails closed: a pattern too large or too complex to analyse is risky, with
a reason that says which bound it met; a construct flagged while the automaton is built is
reported with its reason and position; and a look-around's body is analysed from where the
look-around stands, not as a search of its own."""

from __future__ import annotations

import pytest

from generator.regex import risk
from generator.regex.ecma import parse


def assess(pattern: str) -> risk.Risk:
    return risk.assess_parsed(parse(pattern))  # (not assess_risk: it caches verdicts)


def test_pattern_over_the_position_bound_is_risky_naming_what_it_needs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(risk, "MAX_POSITIONS", 50)
    # 40 literals, then a repetition of 20 copies that is checked for room before it is built
    assert assess("x" * 40 + "a{20}") == risk.Risk(
        True,
        "the pattern is too large to analyse (it needs 60 automaton positions (the bound is 50))",
    )
    assert assess("x" * 40 + "a{11}").reason.endswith(
        "(it needs 51 automaton positions (the bound is 50))"
    )
    assert assess("x" * 40 + "a{10}") == risk.Risk(False)


def test_pattern_over_the_step_budget_is_risky(monkeypatch: pytest.MonkeyPatch) -> None:
    pattern = "^[ab]*c[ab]*d$"
    assert assess(pattern) == risk.Risk(False)
    monkeypatch.setattr(risk, "BUDGET", 5)
    assert assess(pattern) == risk.Risk(
        True, "the pattern is too complex to analyse for backtracking"
    )


@pytest.mark.parametrize(
    "pattern, position",
    [(r"^(a*)*$", 1), (r"^(?:a|b?)+c$", 1), (r"^x(?:a?|b)*$", 2)],
)
def test_repetition_of_a_part_that_can_match_empty_is_reported_where_it_is(
    pattern: str, position: int
) -> None:
    assert assess(pattern) == risk.Risk(
        True,
        f"the repetition at position {position} repeats a part that can match the empty string",
        position,
    )


@pytest.mark.parametrize("pattern", [r"^(?=a+b)x", r"^(?!a+b)x", r"^(?=\d+\.)"])
def test_look_ahead_body_is_not_analysed_as_an_unanchored_search(pattern: str) -> None:
    # tried once, at the start: its body is not re-read from every later position
    assert assess(pattern) == risk.Risk(False)


@pytest.mark.parametrize(
    "pattern, outer, inner", [(r"x(?=(?=.*a)b)", 1, 4), (r"x(?!(?=.*a)b)", 1, 4)]
)
def test_look_ahead_leading_a_look_ahead_body_is_still_tried_at_every_position(
    pattern: str, outer: int, inner: int
) -> None:
    # the outer look-ahead is tried after every x, so the inner one is too: quadratic on "xxx..."
    assert assess(pattern) == risk.Risk(
        True,
        f"inside the look-ahead at position {outer}: the look-ahead at position {inner} can scan "
        "unboundedly far each time it is tried, at every position",
        outer,
    )


@pytest.mark.parametrize("pattern", [r"(?=^(?=.*a)b)", r"x|(?=^(?!.*a)b)"])
def test_look_ahead_after_a_caret_inside_a_look_ahead_is_tried_once(pattern: str) -> None:
    # the inner ^ fails at every position but the first, so the inner look-ahead runs once
    assert assess(pattern) == risk.Risk(False)
