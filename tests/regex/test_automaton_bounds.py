"""The size bounds of the linear-time matcher (generator/regex/automaton.py): a DFA is built while
it fits ``max_dfa_cells`` exactly, else the NFA is used while it has at most ``max_nfa_states``
states, else the pattern is too large, with both sizes in the message."""

from __future__ import annotations

import pytest

from generator.regex.automaton import _determinize, compile_automaton
from generator.regex.ecma import parse
from generator.regex.nfa import Builder, TooLarge, split_automaton

# the n-th character from the end is an "a": a DFA of 2**4 subsets, an NFA of few states
PATTERN = r"(?:a|b)*a(?:a|b){3}"


def _cells_and_states(pattern: str) -> tuple[int, int]:
    """(cells of the DFA's subset construction, states of the NFA) of a pattern."""
    parsed = parse(pattern)
    builder = Builder(parsed, "exact", max_positions=2000)
    automaton = split_automaton(builder, builder.pattern(parsed.body))
    dfa = _determinize(automaton, 10**6)
    assert dfa is not None
    _, rows, _ = dfa
    return len(rows) * automaton.n_classes, len(automaton.edges)


def test_the_dfa_is_built_while_its_cells_fit_the_bound_exactly() -> None:
    cells, _ = _cells_and_states(PATTERN)
    assert cells > 16
    assert compile_automaton(parse(PATTERN), max_dfa_cells=cells).function == "_dfa_search"
    assert compile_automaton(parse(PATTERN), max_dfa_cells=cells - 1).function == "_nfa_search"


def test_the_nfa_is_used_while_its_states_fit_the_bound_exactly() -> None:
    cells, states = _cells_and_states(PATTERN)
    small = cells - 1
    compiled = compile_automaton(parse(PATTERN), max_dfa_cells=small, max_nfa_states=states)
    assert compiled.function == "_nfa_search"
    with pytest.raises(TooLarge) as refused:
        compile_automaton(parse(PATTERN), max_dfa_cells=small, max_nfa_states=states - 1)
    assert (refused.value.size, refused.value.limit) == (states, states - 1)
    assert str(refused.value) == (
        f"its DFA needs more than {small} cells and its NFA has {states} states "
        f"(the bound is {states - 1})"
    )
