"""Groups: each refusal's message and position (the group's opening parenthesis), and the
nesting bound, which counts the groups open around a point, not every group seen so far."""

from __future__ import annotations

import pytest

from generator.regex import translate
from generator.regex.ecma import MAX_NESTING

from .patterns import refusal

_FLAGS = "inline flags and pattern modifiers (?flags:...) are not supported"


@pytest.mark.parametrize(
    "pattern, message",
    [
        ("x(?i:a)", _FLAGS),
        ("x(?-i:a)", _FLAGS),
        ("x(?m)", _FLAGS),
        ("x(?s:a)", _FLAGS),
        # anything else after (? is no group at all
        ("x(?X)", "invalid group"),
        ("x(?P<a>b)", "invalid group"),
        ("x(?#c)", "invalid group"),
        ("x(a", "unterminated group"),
        ("x(?:a", "unterminated group"),
        ("x(?=a", "unterminated group"),
    ],
)
def test_bad_group_is_refused_at_its_parenthesis(pattern: str, message: str) -> None:
    assert refusal(pattern) == (message, 1)


def test_groups_one_after_another_do_not_add_up_to_the_nesting_bound() -> None:
    translate("(a)" * (MAX_NESTING + 5))
    translate("(?:a)" * (MAX_NESTING + 5))


def test_nesting_bound_counts_the_groups_open_after_an_inner_group_closed() -> None:
    def nested(depth_after: int) -> str:
        # two groups open, one opened and closed inside them, then depth_after more
        return "((" + "(a)" + "(" * depth_after + "b" + ")" * depth_after + "))"

    translate(nested(MAX_NESTING - 2))  # MAX_NESTING deep at most: accepted
    first_too_deep = 5 + MAX_NESTING - 2
    assert refusal(nested(MAX_NESTING - 1)) == (
        f"groups nested more than {MAX_NESTING} deep",
        first_too_deep,
    )


def test_nesting_bound_after_closed_groups_still_holds() -> None:
    deep = MAX_NESTING + 1
    assert refusal("()" * 3 + "(" * deep + ")" * deep) == (
        f"groups nested more than {MAX_NESTING} deep",
        6 + MAX_NESTING,
    )


@pytest.mark.parametrize(
    "pattern, python",
    [
        # a group without a name stays unnamed, also when referred to (below the 100th)
        (r"(a)\1", r"(a)(?(1)\1)"),
        # a name Python does not take is replaced by _g and the group's number
        (r"(?<é>a)\k<é>", r"(?P<_g1>a)(?(1)\1)"),
        # ... with underscores before it while that is a name the pattern already uses
        (r"(?<_g2>a)(?<é>b)", "(?P<_g2>a)(?P<__g2>b)"),
        (r"(?<_g3>a)(?<__g3>c)(?<é>b)", "(?P<_g3>a)(?P<__g3>c)(?P<___g3>b)"),
    ],
)
def test_groups_are_named_in_python_only_as_needed(pattern: str, python: str) -> None:
    assert translate(pattern) == python
