"""Where an ambiguous pattern's risk is reported (generator/regex/risk.py's `_ambiguous`): two
paths that read the same text went apart, and the verdict names the repetition they last shared,
else the innermost one the first path was in, else the second's, else no position at all."""

from __future__ import annotations

import pytest

from generator.regex import assess_risk

_BACKTRACKS = "so a failing match backtracks through every way (exponential or polynomial time)"


def near(position: int) -> str:
    return (
        "the pattern can match the same text in more than one way (the repetition at position "
        f"{position}), {_BACKTRACKS}"
    )


@pytest.mark.parametrize(
    "pattern, position",
    [
        # both paths inside the group at 1, then in different a+ (4 and 2): the shared group
        (r"^(a+a+)+$", 1),
        (r"^((a+)(a+))+$", 1),
        # the same innermost repetition on both paths
        (r"^(a+)+$", 2),
        (r"^(?:x|x+)+y$", 6),
        # nothing shared: the first path's innermost repetition (the a+ at 4, not its group at 1)
        (r"^(b?a+)+a+$", 4),
        (r"^\d+\d+x$", 1),
        (r"^a*a*$", 1),
        # the first path in no repetition: the second's innermost
        (r"^(?:a|(a+))b$", 7),
        (r"^a(?:b|b+)c$", 7),
    ],
)
def test_ambiguity_names_the_repetition_the_paths_share_or_their_innermost(
    pattern: str, position: int
) -> None:
    risk = assess_risk(pattern)
    assert (risk.risky, risk.position, risk.reason) == (True, position, near(position))


@pytest.mark.parametrize(
    "pattern",
    [
        # "abc" is a+bc or ab+c: two ways that part outside any repetition of their own
        r"^x(?:a|ab)(?:c|bc)*$",
        r"^(?:x(a+)|xa*)a$",
        # two empty alternatives: two ways through the same point, counted as two
        r"^x(?:|)y$",
        # the same, reached after a part that may read nothing: one way times two
        r"^(?:x|)(?:|)a$",
        r"^x?(?:|)a$",
        r"^a(?:(?:|)b)c$",
        r"^a(?:x?(?:|))b$",
        r"^(?:x?(?:|)a)$",
    ],
)
def test_ambiguity_outside_any_repetition_names_no_position(pattern: str) -> None:
    risk = assess_risk(pattern)
    assert (risk.risky, risk.position) == (True, None)
    assert risk.reason == f"the pattern can match the same text in more than one way, {_BACKTRACKS}"
