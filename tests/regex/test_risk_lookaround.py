"""The risk verdicts of risk.py in full: the look-around rules (`_assess_lookaround`: kind,
width limit, place, and a risk found inside the body) and the quadratic-search reason
(`_ambiguous`), each as the exact Risk, and as the plan and the strict profile's refusal show
it (generator/regex/plan.py, the `unsafe-regex` error)."""

from __future__ import annotations

import pytest

import generator
from generator import SchemaError
from generator.regex import assess_risk, plan_pattern
from generator.regex.risk import LOOKAROUND_WIDTH, Risk

WHY = "backtracking can take super-linear time: "


def scans(what: str, position: int, extent: str) -> str:
    return (
        f"the {what} at position {position} can scan {extent} each time it is tried, "
        "at every position"
    )


AMBIGUOUS = (
    "the pattern can match the same text in more than one way{near}, so a failing match "
    "backtracks through every way (exponential or polynomial time)"
)


def quadratic(what: str) -> str:
    return (
        f"when the pattern fails to match, the unanchored search re-reads {what} from every "
        "start position (quadratic time)"
    )


# (pattern, the exact verdict) for look-arounds tried at every position over a wide body.
WIDE = [
    (r"(?=.*x)y", Risk(True, scans("look-ahead", 0, "unboundedly far"), 0)),
    (r"(?!.*x)y", Risk(True, scans("look-ahead", 0, "unboundedly far"), 0)),
    (r"x(?=[a-z]{65})", Risk(True, scans("look-ahead", 1, "65 characters"), 1)),
    (r"(?<=a{65})y", Risk(True, scans("look-behind", 0, "65 characters"), 0)),
    (r"(?<!a{65})y", Risk(True, scans("look-behind", 0, "65 characters"), 0)),
    # the second look-around is the wide one: the verdict points at it, not at the first
    (r"(?<=\d{3})(?=\d{70})", Risk(True, scans("look-ahead", 10, "70 characters"), 10)),
    # a capture group in the body is as wide as what it holds
    (r"(?=(a+))", Risk(True, scans("look-ahead", 0, "unboundedly far"), 0)),
    (r"x(?=(?:(a)b){40})", Risk(True, scans("look-ahead", 1, "80 characters"), 1)),
]


@pytest.mark.parametrize("pattern,verdict", WIDE, ids=[w[0] for w in WIDE])
def test_a_wide_lookaround_names_its_kind_extent_and_place(pattern: str, verdict: Risk) -> None:
    assert assess_risk(pattern) == verdict


def test_the_width_limit_is_inclusive() -> None:
    assert LOOKAROUND_WIDTH == 64  # the patterns below are written for it
    for pattern in (r"(?<=a{64})y", r"(?<!a{64})y", r"(?=a{64})y", r"x(?=[a-z]{64})"):
        assert assess_risk(pattern) == Risk(False), pattern
        assert plan_pattern(pattern).kind == "re", pattern
    assert assess_risk(r"(?=a{65})y") == Risk(True, scans("look-ahead", 0, "65 characters"), 0)


# (pattern, the exact verdict) for a look-around whose own body is ambiguous.
INSIDE = [
    (
        r"^(?=(a+)+b)",
        Risk(
            True,
            "inside the look-ahead at position 1: "
            + AMBIGUOUS.format(near=" (the repetition at position 5)"),
            1,
        ),
    ),
    (
        r"x(?!(?:a|a)bc)",
        Risk(True, "inside the look-ahead at position 1: " + AMBIGUOUS.format(near=""), 1),
    ),
    (
        r"(?<=(?:a|a)bc)d",
        Risk(True, "inside the look-behind at position 0: " + AMBIGUOUS.format(near=""), 0),
    ),
    (
        r"y(?<!(?:a|a)bc)d",
        Risk(True, "inside the look-behind at position 1: " + AMBIGUOUS.format(near=""), 1),
    ),
]


@pytest.mark.parametrize("pattern,verdict", INSIDE, ids=[w[0] for w in INSIDE])
def test_a_risk_inside_a_lookaround_points_at_the_lookaround(pattern: str, verdict: Risk) -> None:
    assert assess_risk(pattern) == verdict


# (pattern, the exact verdict) for a search that re-reads the same run from every start.
QUADRATIC = [
    (r"a+b", Risk(True, quadratic("the repetition at position 0"), 0)),
    (r"-?\d+\.\d+", Risk(True, quadratic("the repetition at position 2"), 2)),
    # the paths part outside any repetition: no position to name
    (r"f.*o", Risk(True, quadratic("its text"), None)),
    (r"aa{0,300}b", Risk(True, quadratic("its text"), None)),
]


@pytest.mark.parametrize("pattern,verdict", QUADRATIC, ids=[w[0] for w in QUADRATIC])
def test_a_quadratic_search_names_what_it_re_reads(pattern: str, verdict: Risk) -> None:
    assert assess_risk(pattern) == verdict


def test_the_plan_carries_the_verdict() -> None:
    # runs on the automaton: the plan's reason and position are the verdict's
    for pattern, verdict in [INSIDE[0], QUADRATIC[0], QUADRATIC[2]]:
        plan = plan_pattern(pattern)
        assert plan.kind == "automaton", pattern
        assert (plan.reason, plan.position) == (WHY + verdict.reason, verdict.position)
    # no linear engine: the plan points at the risk, not at the first unsupported construct (0)
    plan = plan_pattern(r"(?<=\d{3})(?=\d{70})")
    assert plan.kind == "unsafe" and plan.position == 10
    assert plan.reason.startswith(WHY + scans("look-ahead", 10, "70 characters") + "; ")


def test_strict_refuses_a_wide_lookbehind_and_keeps_one_at_the_limit() -> None:
    with pytest.raises(SchemaError) as refused:
        generator.compile_source({"pattern": r"(?<=a{65})y"}, profile="strict")
    assert refused.value.code == "unsafe-regex"
    assert WHY + scans("look-behind", 0, "65 characters") + ";" in refused.value.message
    module = generator.compile_module({"pattern": r"(?<=a{64})y"}, profile="strict")
    assert module.is_valid("a" * 64 + "y") and not module.is_valid("a" * 63 + "y")
