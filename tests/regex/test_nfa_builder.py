"""The position automaton builder (generator/regex/nfa.py) as its two users see it: which
patterns the exact automaton refuses (a live back-reference, also under a repetition of a part
that reads nothing) and the answers of those it accepts; and the risk model's verdicts and
reasons for back-references, folded repetitions and repetitions of parts that read nothing."""

from __future__ import annotations

import pytest

from generator.regex import Risk, assess_risk, compile_pattern
from generator.regex.automaton import compile_automaton
from generator.regex.ecma import parse
from generator.regex.matcher import FUNCTIONS
from generator.regex.nfa import Unsupported

_AMBIGUOUS = (
    "the pattern can match the same text in more than one way{}, so a failing match backtracks "
    "through every way (exponential or polynomial time)"
)

# -- the exact automaton: live back-references ------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "position"),
    [
        (r"^(a)\1*$", 4),
        # the reference sits under a repetition inside the repeated part
        (r"^(a)(?:\1*)*$", 7),
        (r"^(a)(?:\1?)*$", 7),
        # ... or inside a capturing group of it
        (r"^(a)(\1)*$", 5),
    ],
)
def test_a_live_back_reference_in_a_part_without_positions_is_refused(
    pattern: str, position: int
) -> None:
    # The repeated part has no position, and zero copies of it are built, yet it reads the
    # group's text ("aaa" matches `^(a)\1*$`): an automaton of the rest would answer wrongly.
    assert compile_pattern(pattern).search("aaa") is not None
    with pytest.raises(Unsupported) as caught:
        compile_automaton(parse(pattern))
    assert caught.value.what == "a back-reference"
    assert caught.value.position == position
    assert str(caught.value) == f"a back-reference (at position {position})"


@pytest.mark.parametrize(
    "pattern",
    [
        r"^\1*(a)$",  # the reference comes before its group: it always matches empty
        r"^(a)(?:\1{0})*$",  # repeated zero times: it reads nothing
        r"^(a)(?:(?=\1))*$",  # inside a look-ahead: it reads nothing
    ],
)
def test_a_back_reference_that_reads_nothing_is_no_reason_to_refuse(pattern: str) -> None:
    compiled = compile_automaton(parse(pattern))
    search = FUNCTIONS[compiled.function]
    expected = compile_pattern(pattern).search
    strings = ["", "a", "aa", "aaa", "b", "ab", "ba"]
    answers = [search(s, compiled.table) for s in strings]
    assert answers == [expected(s) is not None for s in strings]
    assert True in answers and False in answers


# -- the risk model: back-references ----------------------------------------------------------


@pytest.mark.parametrize(
    "pattern",
    [
        r"^(a)(b*)\1$",  # \1 is the one-character first group, not the unbounded second
        r"^(a{64})\1$",  # a group as wide as the bound
        r"^(a)\1b$",  # the reference matches "a" or nothing: one way to "b" either way
    ],
)
def test_back_references_to_narrow_groups_are_safe(pattern: str) -> None:
    assert assess_risk(pattern) == Risk(False)


@pytest.mark.parametrize(
    ("pattern", "width", "position"),
    [(r"^(\w+)\1$", "unbounded", 6), (r"^(a{65})\1$", "up to 65 characters'", 8)],
)
def test_back_references_to_wide_groups_are_risky_with_the_width_named(
    pattern: str, width: str, position: int
) -> None:
    assert assess_risk(pattern) == Risk(
        True,
        f"the back-reference at position {position} compares text of {width} length each time "
        "it is tried",
        position,
    )


def test_a_back_reference_too_large_to_copy_is_refused_with_the_size_it_needs() -> None:
    # The group takes 12,000 positions, its copy as many again: 24,000 of the 20,000 allowed,
    # refused before the copy is built.
    pattern = "^(" + "a{250}" * 48 + ")\\1$"
    assert assess_risk(pattern) == Risk(
        True,
        "the pattern is too large to analyse (it needs 24000 automaton positions (the bound is "
        "20000))",
    )


# -- the risk model: ambiguity, folded repetitions --------------------------------------------


def test_ambiguity_inside_a_repetition_is_not_taken_for_the_search_re_reading() -> None:
    # The two paths part at the first positions of the pattern (position 0), not at the search.
    assert assess_risk("(a|a)*b") == Risk(
        True, _AMBIGUOUS.format(" (the repetition at position 0)"), 0
    )


@pytest.mark.parametrize(
    "pattern",
    [
        # (?:|) is two ways through nothing; each group joins it to what comes before or after
        # it in the group, and the ways must survive into the route from a to b
        r"^(?:a(?:\B(?:|))b)*$",  # \B then two ways: two ways through the group
        r"^(?:a(?:(?:|)(?:|))b)*$",  # two ways, twice: more than one way
        r"^(?:b(?:\B(?:(?:|)a)))*$",  # two ways to a, after \B: two routes from b to a
        r"^(?:(?:(?:a(?:|))\B)b)*$",  # two ways from a, then \B: two routes from a to b
    ],
)
def test_ways_through_parts_that_read_nothing_multiply_into_the_routes(pattern: str) -> None:
    # Python backtracks into the other way at each iteration: exponential on a failing input
    assert assess_risk(pattern) == Risk(
        True, _AMBIGUOUS.format(" (the repetition at position 1)"), 1
    )


@pytest.mark.parametrize(
    ("pattern", "risky"),
    [
        # zero iterations and the empty alternative: two ways to read nothing before "b"
        (r"^(?:a{0,300}|)b$", True),
        # at least one iteration: the optional group is the only way to read nothing
        (r"^(?:a{1,300})?a$", False),
        # zero iterations are one way to reach "c"
        (r"^[ab]{0,300}c$", False),
    ],
)
def test_folded_repetitions_read_nothing_as_their_minimum_says(pattern: str, risky: bool) -> None:
    # Each repetition needs more than FOLD_ABOVE (256) positions: the model folds it.
    assert assess_risk(pattern).risky is risky
    # the same verdict as the small repetition of the same shape, which is expanded
    assert assess_risk(pattern.replace("300", "3")).risky is risky


def test_a_folded_repetition_of_a_part_that_can_match_empty_is_risky() -> None:
    assert assess_risk("(?:a?){300}") == Risk(
        True, "the repetition at position 0 repeats a part that can match the empty string", 0
    )


# -- the risk model: repetitions of parts that read nothing -----------------------------------


@pytest.mark.parametrize("pattern", [r"^(?:\b){2}a$", r"^(?:\b){64}a$"])
def test_a_few_iterations_that_read_nothing_are_safe(pattern: str) -> None:
    assert assess_risk(pattern) == Risk(False)


def test_more_iterations_that_read_nothing_than_the_bound_are_risky() -> None:
    assert assess_risk(r"^(?:\b){65}a$") == Risk(
        True,
        "the repetition at position 1 runs 65 iterations that read nothing each time it is tried",
        1,
    )


def test_a_reference_to_an_empty_group_is_a_part_that_reads_nothing_for_python() -> None:
    # The exact automaton refuses live references; the risk model only analyses them.
    assert assess_risk(r"^(\b)\1{2}a$") == Risk(False)


@pytest.mark.parametrize(
    ("pattern", "risky"),
    [
        # Python tries \B and the skip at each "a": exponential on a failing "aaa...a!"
        (r"^(?:(?:\B)?a)*$", True),
        (r"^(?:(?:\B)*a)*$", True),
        # exactly two iterations: one way through
        (r"^(?:(?:\B){2}a)*$", False),
    ],
)
def test_python_may_run_one_more_iteration_that_reads_nothing(pattern: str, risky: bool) -> None:
    assert assess_risk(pattern).risky is risky
