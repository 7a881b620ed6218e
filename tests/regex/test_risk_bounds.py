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


def _nested_lookaheads(depth: int) -> str:
    pattern = "a"
    for _ in range(depth):
        pattern = "(?:(?=" + pattern + ")a){20}"
    return "^" + pattern + "$"


def test_look_ahead_in_a_counted_repetition_is_assessed_once_per_node(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # each of the 20 copies met the look-ahead again, and each assessed its body again: 20**depth
    assessed: list[int] = []
    assess_lookaround = risk._assess_lookaround

    def counting(*args: object, **kwargs: object) -> risk.Risk:
        assessed.append(1)
        return assess_lookaround(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(risk, "_assess_lookaround", counting)
    for depth in (1, 2, 3):
        assessed.clear()
        assert assess(_nested_lookaheads(depth)) == risk.Risk(False)
        assert len(assessed) == depth


def test_look_aheads_nested_in_counted_repetitions_multiply_their_runs() -> None:
    # Python's re runs the innermost look-ahead 20**depth times on a match: 0.2 ms at depth 3,
    # about 1 s at 6, minutes at 8
    positions = [4 + 6 * level for level in range(4)]  # each level opens with "(?:(?="
    inner = "the look-ahead at position {} runs 160000 times each time the pattern is tried "
    inner += "(look-arounds in counted repetitions, nested in look-arounds)"
    reason = inner.format(positions[3])
    for outer in reversed(positions[:3]):
        reason = f"inside the look-ahead at position {outer}: {reason}"
    assert assess(_nested_lookaheads(4)) == risk.Risk(True, reason, positions[0])
    for depth in (5, 12):
        assert assess(_nested_lookaheads(depth)).risky


def test_nested_look_aheads_may_run_up_to_the_limit_and_no_more() -> None:
    def nested(depth: int, count: int) -> str:
        pattern = "a"
        for _ in range(depth):
            pattern = "(?:(?=" + pattern + ")a){%d}" % count
        return "^" + pattern + "$"

    assert risk.LOOKAROUND_EVALUATIONS == 10_000 == 10**4
    assert assess(nested(4, 10)) == risk.Risk(False)  # 10,000 runs: at the limit
    over = assess(nested(4, 11))  # 14,641 runs
    assert over.risky and "runs 14641 times each time the pattern is tried" in over.reason


def test_an_unbounded_folded_repetition_counts_its_look_aheads_once_a_round() -> None:
    # the + is folded (its 201 positions twice would be over FOLD_ABOVE) into one copy run in a
    # loop: a round runs the innermost look-ahead 200 x 6 x 5 times, as the copy does
    def pattern(middle: int) -> str:
        inner = "(?:(?=(?:(?=(?:(?=a)a){5})a){%d})a){200}" % middle
        return "^(?=(?:" + inner + "b)+)"

    assert risk.FOLD_ABOVE < 2 * 201
    assert assess(pattern(6)) == risk.Risk(False)  # 6,000 runs a round
    over = assess(pattern(12))  # 12,000
    assert over.risky and "runs 12000 times each time the pattern is tried" in over.reason


def test_a_zero_width_repetition_run_once_counts_its_look_aheads_once() -> None:
    # (?:(?=W)){1} reads nothing: its one iteration runs W's look-aheads 20 x 20 x 20 times
    nested = "(?:(?=(?:(?=(?:(?=a)a){20})a){20})a){20}"
    assert assess("^(?:(?=" + nested + ")){1}a") == risk.Risk(False)  # 8,000 runs
    twice = assess("^(?:(?=" + nested + ")){2}a")  # 16,000
    assert twice.risky and "runs 16000 times each time the pattern is tried" in twice.reason


def test_folded_counted_repetition_multiplies_by_its_bound() -> None:
    # 300 copies of one position are folded into a loop, which still runs the look-ahead 300 times
    inner = "(?:(?=(?:(?=a)a){30})a){30}"
    assert assess("^(?:(?=" + inner + ")a){10}$") == risk.Risk(False)  # 9,000 runs
    folded = assess("^(?:(?=" + inner + ")a){300}$")  # 270,000 runs
    assert folded.risky and "runs 270000 times" in folded.reason


def test_repetition_of_a_look_ahead_alone_runs_it_once_per_iteration() -> None:
    # (?:(?=X)){64} reads nothing, yet Python runs X 64 times: 64**3 runs at depth 3 (3 ms),
    # 64**5 at depth 5 (seconds), 64**6 at depth 6 (minutes)
    def nested(depth: int, quantifier: str) -> str:
        pattern = "a"
        for _ in range(depth):
            pattern = "(?:(?=" + pattern + "))" + quantifier
        return "^" + pattern

    assert assess(nested(2, "{64}")) == risk.Risk(False)  # 4,096 runs
    deep = assess(nested(3, "{64}"))
    assert deep.risky and "the look-ahead at position 16 runs 262144 times" in deep.reason
    # {2,3}: two iterations, and a third tried: 3 runs per level
    assert assess(nested(8, "{2,3}")) == risk.Risk(False)  # 3**8 = 6,561
    assert "runs 19683 times" in assess(nested(9, "{2,3}")).reason
    assert assess(nested(12, "?")) == risk.Risk(False)  # tried once a level


def test_literals_past_the_position_bound_are_refused_at_the_first_one_over(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(risk, "MAX_POSITIONS", 50)
    assert assess("x" * 50) == risk.Risk(False)
    assert assess("x" * 51) == risk.Risk(
        True,
        "the pattern is too large to analyse (it needs 51 automaton positions (the bound is 50))",
    )


@pytest.mark.parametrize(
    "pattern, once",
    [
        # right after a ^ that opens an alternative, past other assertions: tried once
        (r"^(?=.*x)(?!.*y)", True),
        (r"^\b(?=.*a)", True),
        (r"^^(?=.*x)", True),
        (r"x|^(?=.*a)", True),
        # after a group that reads (capturing or not), the rule stops looking
        (r"^(a)(?=.*x)", False),
        (r"^(?:a)(?=.*x)", False),
    ],
)
def test_only_look_arounds_leading_after_a_caret_count_as_tried_once(
    pattern: str, once: bool
) -> None:
    verdict = assess(pattern)
    assert verdict.risky is not once
    if not once:
        at = pattern.index("(?=")
        assert verdict == risk.Risk(
            True,
            f"the look-ahead at position {at} can scan unboundedly far each time it is tried, "
            "at every position",
            at,
        )


def test_look_ahead_in_a_long_counted_repetition_at_the_top_level_is_not_multiplied() -> None:
    # 20,000 runs, but each copy reads a character on, as [ab]{20000} does: no more than linear
    assert assess("^(?:(?=a)[ab]){20000}$") == risk.Risk(False)
    assert assess("^(?:(?=a)){20000}$").reason.startswith("the repetition at position 1 runs")
