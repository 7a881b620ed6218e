"""Sizes of terms in automaton positions (nfa.Builder.size) and what they decide: whether sre mode
folds a counted repetition (at more than ``fold_above`` positions), the room checked before an
expansion (TooLarge names what it needs), and which repetitions enclose each position."""

from __future__ import annotations

import pytest

from generator.regex import risk
from generator.regex.ecma import _Group, _Quant, _Term, parse
from generator.regex.nfa import Builder, TooLarge, Unsupported, split_automaton


def _built(pattern: str, mode: str, max_positions: int = 1000, fold_above: int = 0) -> Builder:
    parsed = parse(pattern)
    builder = Builder(parsed, mode, max_positions=max_positions, fold_above=fold_above)
    builder.pattern(parsed.body)
    return builder


def _size_of_first_term(pattern: str, mode: str, fold_above: int = 0) -> int:
    parsed = parse(pattern)
    builder = Builder(parsed, mode, max_positions=1000, fold_above=fold_above)
    return builder.size(parsed.body[0][0])


def _too_large(pattern: str, mode: str, max_positions: int, fold_above: int = 0) -> str:
    with pytest.raises(TooLarge) as caught:
        _built(pattern, mode, max_positions, fold_above)
    return str(caught.value)


# -- sizes --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "size"),
    [
        ("a{0}", 0),  # never built
        ("a?", 1),  # one optional copy
        ("a{3}", 3),
        ("a{2,5}", 5),  # the bound, not the minimum, counts the copies
        ("a+", 2),  # one copy for the minimum and the loop's body
        ("a*", 1),  # the loop's body alone
        ("(?:ab){2,}", 6),  # two copies and the loop's body, of two positions each
        ("(?:(?=a)b)", 1),  # a look-ahead reads nothing
    ],
)
def test_size_counts_the_copies_an_expansion_makes(pattern: str, size: int) -> None:
    assert _size_of_first_term(pattern, "exact") == size
    # far from any fold, sre mode expands the same way
    assert _size_of_first_term(pattern, "sre", fold_above=100) == size


def test_size_in_sre_mode_counts_one_copy_of_a_repetition_over_the_fold() -> None:
    assert _size_of_first_term("a{300}", "sre", fold_above=256) == 1
    assert _size_of_first_term("a{300}", "exact", fold_above=256) == 300
    # ... a bound of 2 is no exception
    assert _size_of_first_term("(?:ab){2}", "sre", fold_above=3) == 2


def test_positions_built_match_the_sizes() -> None:
    # `a+` builds the copy and the loop's body: 2 positions
    assert len(_built("a+", "exact").sets) == 2
    # `(?:ab){3}` with a fold at 6: 2 * 3 = 6 is not over it, all 6 built
    assert len(_built("(?:ab){3}", "sre", fold_above=6).sets) == 6


# -- the fold decision, and sizes under an enclosing repetition ------------------------------


@pytest.mark.parametrize(
    ("pattern", "fold_above", "positions"),
    [
        ("a{300}", 256, 1),  # 300 > 256: one folded copy
        ("a{4}", 4, 4),  # 4 is not over 4: expanded
        ("a{5}", 4, 1),
        ("(?:ab){2}", 4, 4),
        ("(?:ab){2}", 3, 2),  # a bound of 2 folds like any other
        ("a{2,5}", 4, 1),  # counted by its bound: 5 > 4
        ("a{2,5}", 5, 5),
        ("(?:ab)+", 4, 4),  # one copy and the loop's body: 2 * 2 = 4, not over 4
        ("(?:ab)+", 3, 2),
        ("(?:a{300}){2}", 256, 2),  # the inner one folds to 1, so the outer 2 * 1 expands
        ("(?:a{4}){2}", 4, 4),  # the inner one expands to 4, the outer 2 * 4 folds
        ("(?:a{2,5}){2}", 9, 5),  # the inner one is 5 (its bound): the outer 10 > 9 folds
        ("(?:a{3}){2}", 5, 3),  # the inner one is 3: the outer 6 > 5 folds
        ("(a)(bcd)(?:\\2){2}", 5, 7),  # the reference is 3 (group 2): 6 > 5 folds to one copy
    ],
)
def test_sre_mode_folds_a_repetition_over_the_fold_size(
    pattern: str, fold_above: int, positions: int
) -> None:
    assert len(_built(pattern, "sre", fold_above=fold_above).sets) == positions


def test_an_optional_part_is_never_folded() -> None:
    # `?` has a bound of 1: nothing to fold, whatever its size
    assert len(_built("(?:a{4})?", "sre", fold_above=100).sets) == 4
    assert len(_built("(?:abc)?", "sre", fold_above=1).sets) == 3


def test_risk_analysis_folds_over_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    # at the fold size `a{8}` expands, within the bound of 8 positions
    monkeypatch.setattr(risk, "MAX_POSITIONS", 8)
    monkeypatch.setattr(risk, "FOLD_ABOVE", 8)
    assert not risk.assess_parsed(parse("^a{8}$")).risky
    # one over: folded to one position, else 9 positions exceed the bound of 8
    assert not risk.assess_parsed(parse("^a{9}$")).risky
    monkeypatch.setattr(risk, "FOLD_ABOVE", 9)
    verdict = risk.assess_parsed(parse("^a{9}$"))
    assert verdict.risky
    assert verdict.reason == (
        "the pattern is too large to analyse (it needs 9 automaton positions (the bound is 8))"
    )


# -- the room checked before building ------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "mode", "max_positions", "needs"),
    [
        # the whole expansion is checked first, so the message names all it needs, not the
        # first position over the bound
        ("a{5}", "exact", 2, 5),
        ("(?:a{3}){2}", "exact", 4, 6),
        ("(?:a{4})?", "exact", 2, 4),
        ("(?:(?:ab){2})?", "exact", 3, 4),
        ("(?:a{0}b){3}", "exact", 2, 3),  # `a{0}` is nothing
        ("a+", "exact", 1, 2),
    ],
)
def test_too_large_names_the_positions_the_expansion_needs(
    pattern: str, mode: str, max_positions: int, needs: int
) -> None:
    assert _too_large(pattern, mode, max_positions) == (
        f"it needs {needs} automaton positions (the bound is {max_positions})"
    )


def test_a_folded_part_is_checked_at_its_folded_size() -> None:
    # `(?:ab){2}` folds to 2 positions at a fold of 3: the optional copy needs 2, within 3
    assert len(_built("(?:(?:ab){2})?", "sre", max_positions=3, fold_above=3).sets) == 2
    # `a{4}` folds at 3, so `(?:a{4}){2}` is 2 * 1 and expands into 2 positions
    assert len(_built("(?:a{4}){2}", "sre", max_positions=2, fold_above=3).sets) == 2
    # the group `((?:ab){2})` folds to 2 positions; its back-reference copies them: 4 in all
    assert len(_built("((?:ab){2})\\1", "sre", max_positions=5, fold_above=3).sets) == 4


# -- back-references and look-arounds -----------------------------------------------------------


def test_a_reference_to_a_group_that_cannot_have_matched_has_no_size() -> None:
    # `\1` before its group matches empty: the repetition of it reads nothing, built once
    for mode in ("exact", "sre"):
        assert len(_built("(?:\\1){3}(a)", mode, max_positions=1).sets) == 1


def test_a_live_back_reference_has_no_size_in_exact_mode() -> None:
    # it has no position: its repetition is one that reads nothing, refused as a
    # back-reference rather than as too large
    parsed = parse("(a)(?:\\1){3}")
    builder = Builder(parsed, "exact", max_positions=1)
    with pytest.raises(Unsupported) as caught:
        builder.pattern(parsed.body)
    assert caught.value.what == "a back-reference"
    assert caught.value.position == 6  # the backslash


def test_a_back_reference_in_sre_mode_is_the_size_of_its_group() -> None:
    parsed = parse("(a)(bcd)\\1\\2")
    builder = Builder(parsed, "sre", max_positions=1000)
    first, second = parsed.body[0][2], parsed.body[0][3]
    assert (builder.size(first), builder.size(second)) == (1, 3)


def test_a_repeated_look_ahead_is_a_part_that_reads_nothing() -> None:
    # no position: it is built once, not three times checked for room, and is not reported
    # as a loop over a part that can match empty
    assert len(_built("(?:(?=a)){3}b", "sre", max_positions=1).sets) == 1
    assert _built("(?:(?=a))*b", "sre", fold_above=100).flags == []


# -- the repetitions enclosing each position ---------------------------------------------------


def test_each_position_records_the_repetitions_around_it() -> None:
    parsed = parse("(?:(?:(?:a)*b)*c)*d")
    builder = Builder(parsed, "exact", max_positions=1000)
    builder.pattern(parsed.body)
    outer = parsed.body[0][0]
    middle = _repeated_first(outer)
    inner = _repeated_first(middle)
    assert isinstance(outer, _Quant) and isinstance(middle, _Quant) and isinstance(inner, _Quant)
    nest = (outer.pos, middle.pos, inner.pos)
    # `*` builds its body once: positions a, b, c, d in order
    assert builder.origin == [nest, nest[:2], nest[:1], ()]


@pytest.mark.parametrize("pattern", [r"(?:(?:a)*b)*c", r"\b(?:(?:\w)*-)*x"])
def test_each_state_records_the_repetitions_around_its_position(pattern: str) -> None:
    # the search states (the start and one per kind of character, two with \b) are in none
    parsed = parse(pattern)
    builder = Builder(parsed, "sre", max_positions=1000)
    automaton = split_automaton(builder, builder.pattern(parsed.body))
    search = [s for s in range(len(automaton.state_kind)) if automaton.is_search_state(s)]
    assert len(search) == (3 if builder.uses_word else 2)
    assert [automaton.origin[s] for s in search] == [()] * len(search)
    assert [automaton.origin[s] for s, p in enumerate(automaton.state_position) if p >= 0] == [
        builder.origin[p] for p in automaton.state_position if p >= 0
    ]


def _repeated_first(node: _Term) -> _Term:
    """The first term of the group a repetition repeats."""
    assert isinstance(node, _Quant) and isinstance(node.atom, _Group)
    assert node.atom.body is not None
    return node.atom.body[0][0]


@pytest.mark.parametrize(
    "max_edges, needed",
    # (a|b) then (c|d): 2 x 2 routes; then (c|d) then e: 2 more, 6 in all
    [(3, 4), (4, 6), (5, 6)],
)
def test_route_bound_is_checked_before_each_link_with_what_it_would_reach(
    max_edges: int, needed: int
) -> None:
    parsed = parse("(?:a|b)(?:c|d)e")
    builder = Builder(parsed, "exact", max_positions=100, max_edges=max_edges)
    with pytest.raises(TooLarge) as caught:
        builder.pattern(parsed.body)
    assert (caught.value.size, caught.value.limit) == (needed, max_edges)
    assert str(caught.value) == (
        f"it needs up to {needed} automaton edges (the bound is {max_edges})"
    )


def test_route_bound_met_exactly_is_enough() -> None:
    parsed = parse("(?:a|b)(?:c|d)e")
    builder = Builder(parsed, "exact", max_positions=100, max_edges=6)
    builder.pattern(parsed.body)
    assert len(builder.follow) == 6


def test_first_positions_of_a_part_after_one_that_reads_are_not_first() -> None:
    # x(?:ab): a is first of (?:ab), b is not (a is not optional): routes x->a and a->b only
    parsed = parse("x(?:ab)")
    builder = Builder(parsed, "exact", max_positions=100, max_edges=2)
    builder.pattern(parsed.body)
    assert set(builder.follow) == {(0, 1), (1, 2)}


def test_a_mode_other_than_exact_or_sre_is_refused_by_name() -> None:
    with pytest.raises(ValueError) as caught:
        Builder(parse("a"), "fast", max_positions=10)
    assert str(caught.value) == "unknown mode 'fast'"


def test_sre_mode_without_a_reference_width_bounds_every_reference_that_reads() -> None:
    # risk.py passes BACKREF_WIDTH; left out, the bound is 0: even a one-character group's
    # reference is flagged (compared text of up to 1 character), an empty group's is not
    flagged = _built(r"(a)\1", "sre")
    assert flagged.flags == [
        (
            "the back-reference at position 3 compares text of up to 1 characters' length "
            "each time it is tried",
            3,
        )
    ]
    assert _built(r"()\1", "sre").flags == []
