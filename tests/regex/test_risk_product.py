"""The product construction of the risk analysis (generator/regex/risk.py's `_paths` and
`_product`): routes that come in two ways, which paths are dropped at sure states, where the
search moves on, the pairs already seen, and the exact step budget."""

from __future__ import annotations

import pytest

from generator.regex import risk
from generator.regex.ecma import parse

_BACKTRACKS = "so a failing match backtracks through every way (exponential or polynomial time)"
_QUADRATIC = "from every start position (quadratic time)"


def ambiguous(position: int | None) -> risk.Risk:
    near = f" (the repetition at position {position})" if position is not None else ""
    return risk.Risk(
        True,
        f"the pattern can match the same text in more than one way{near}, {_BACKTRACKS}",
        position,
    )


def quadratic(what: str, position: int | None) -> risk.Risk:
    return risk.Risk(
        True,
        f"when the pattern fails to match, the unanchored search re-reads {what} {_QUADRATIC}",
        position,
    )


def assess(pattern: str) -> risk.Risk:
    """The verdict, computed afresh (assess_risk caches it)."""
    return risk.assess_parsed(parse(pattern))


@pytest.mark.parametrize(
    "pattern, verdict",
    [
        # one route from the start to b that skips the group and one that enters it and skips
        # a?: a route of two ways, found before any product, and outside any repetition
        (r"^(?:a?)?b$", ambiguous(None)),
        (r"^a?(?:b?)?c", ambiguous(None)),
        # the start is sure (the empty match): the paths through the two a's meet at y, which is
        # sure too, and only the next x shows the ambiguity (paths through sure states count)
        (r"^(?:x(?:a|a)y)*", ambiguous(1)),
        # the first attempt: [ab] and a read the same "a" (found before any pair that went
        # through a sure state; the paths from the sure states meet in the .\d loop)
        (r"(?:[ab]|(?:.\d){2,}|a)+", ambiguous(0)),
        # paths from a sure state (any [^a][^a] ends a match) split the same run two ways
        (r"^(?:(?:[^a]){2,}){1,3}", ambiguous(4)),
        # classes read by one path and not the other are skipped, not the end of the pairs
        (r"(?:(?:[^a]){2}\d\w[^a](?:b)*.){2}", ambiguous(0)),
        # \w, b and a\d?\w: a sure target of one path does not end the other's
        (r"(?:\w|b|a(?:\d)?\w){2}", ambiguous(0)),
        # the search moving on: "bb" is one (bb)* iteration, or b at the next start
        (r"(?:bb)*b(?:a)?", quadratic("the repetition at position 0", 0)),
        # the first path's innermost repetition: the ambiguity found first in the pairs' order
        (r"\w+\s?\w+$", ambiguous(0)),
    ],
)
def test_ambiguity_found_by_the_product(pattern: str, verdict: risk.Risk) -> None:
    assert assess(pattern) == verdict


@pytest.mark.parametrize(
    "pattern",
    [
        # the start is sure: the search never moves on, so its re-reading of aa does not count
        r"(?:(?:aa)?){2}",
        # from the start, b's paths reach sure states and stop there: the search moving on from
        # "." re-reads nothing a sure state has not ended already
        r".(?:bba$|(?:$|b)?){0,2}",
        r"(?:a|a)*",
    ],
)
def test_paths_cut_at_sure_states_are_safe(pattern: str) -> None:
    assert assess(pattern) == risk.Risk(False)


# `(?:a|a)*`: the start is sure, so one product from it: the start pair reads "a" into 2 x 2
# pairs (4 steps), and each of the 5 pairs it reaches ((1, 1), (2, 2), (1, 2), each unflagged
# or flagged, the flagged (1, 2) once) reads "a" into 2 x 2 again: 4 + 5 x 4 = 24 steps.
STEPS = 24


def test_the_budget_is_exactly_the_steps_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(risk, "BUDGET", STEPS)
    assert assess(r"(?:a|a)*") == risk.Risk(False)
    monkeypatch.setattr(risk, "BUDGET", STEPS - 1)
    assert assess(r"(?:a|a)*") == risk.Risk(
        True, "the pattern is too complex to analyse for backtracking"
    )


def test_a_pair_is_read_from_its_first_state_when_both_have_as_many_classes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The search moving on re-reads `x(?:[^a](?:|x)){2}$`'s text: found within 20 steps when a
    # pair's classes are read from its first state unless the second has fewer; reading from the
    # second on a tie (the same pairs, another order) takes 21, over a budget of 20.
    verdict = quadratic("its text", None)
    monkeypatch.setattr(risk, "BUDGET", 20)
    assert assess(r"x(?:[^a](?:|x)){2}$") == verdict
    monkeypatch.setattr(risk, "BUDGET", 19)
    assert assess(r"x(?:[^a](?:|x)){2}$") == risk.Risk(
        True, "the pattern is too complex to analyse for backtracking"
    )
