"""The tables automaton.py builds, read as matcher.py (and the C backend) reads them: each
character's class is in range, each cell is a state's code or one of the two stops, and the DFA
is minimal, the match and no-match stops counted as states (a state from which every input
matches, or none does, has been settled into them)."""

from __future__ import annotations

import pytest

from generator.regex.automaton import CompiledAutomaton, compile_automaton
from generator.regex.ecma import parse

from .test_lookahead import LOOKAHEADS
from .test_plan import RISKY_SAMPLE

_BASE = 48  # the code of state 0 and of class 0 (matcher.py)
# DFAs of every kind: look-ahead products, a start that always matches (`a*`) or never does
# (an empty class), classes past the ASCII table and past the BMP, scans that settle.
DFA_PATTERNS = [
    *LOOKAHEADS,
    *(p for p in RISKY_SAMPLE if p != r"(a|b)*a(a|b){14}c"),
    "a*",
    "[]",
    r"(\w+\s?)*$",
    r"^[\u0080-\u00ff]+\u0100$",
    r"[\u007f\u0080]x",
    r"^\d{1,3}(?:\.\d{1,3}){3}$",
]


def _dfa(pattern: str) -> CompiledAutomaton:
    compiled = compile_automaton(parse(pattern))
    assert compiled.function == "_dfa_search", pattern
    return compiled


def _rows(compiled: CompiledAutomaton) -> list[list[int]]:
    """The DFA's cells as state numbers, with n for the match stop and n + 1 for no match."""
    _, _, _, table, _, stop, at_end, width = compiled.table  # type: ignore[misc]
    n = len(at_end)

    def state(code: int) -> int:
        if code >= stop:
            return n if code == stop else n + 1
        assert (code - _BASE) % width == 0, code
        return (code - _BASE) // width

    return [[state(ord(table[2 * _BASE + i * width + k])) for k in range(width)] for i in range(n)]


@pytest.mark.parametrize("pattern", DFA_PATTERNS)
def test_dfa_tables_keep_the_matcher_s_encoding(pattern: str) -> None:
    compiled = _dfa(pattern)
    ascii_classes, bounds, classes, table, start, stop, at_end, width = compiled.table  # type: ignore[misc]
    assert (compiled.states, compiled.classes) == (len(at_end), width)
    assert len(ascii_classes) == 128  # one class per ASCII character
    # past the ASCII table: increasing interval starts from U+0080, each with its class
    assert ord(bounds[0]) == 128 and len(classes) == len(bounds)
    assert all(ord(a) < ord(b) for a, b in zip(bounds, bounds[1:])), pattern
    # each class of 0 .. width - 1 is some character's, and no other is
    assert {ord(c) - _BASE for c in ascii_classes + classes} == set(range(width)), pattern
    assert stop == _BASE + len(at_end) * width
    assert len(table) == 2 * _BASE + len(at_end) * width
    codes = {_BASE + i * width for i in range(len(at_end))} | {stop, stop + 1}
    assert start in codes and {ord(c) for c in table[2 * _BASE :]} <= codes, pattern


@pytest.mark.parametrize("pattern", DFA_PATTERNS)
def test_dfa_tables_are_minimal(pattern: str) -> None:
    compiled = _dfa(pattern)
    at_end_text = compiled.table[6]
    assert isinstance(at_end_text, str)
    rows, at_end = _rows(compiled), [e == "1" for e in at_end_text]
    n = len(rows)
    # the two stops as states: every input matches from the first, none from the second
    rows += [[n] * compiled.classes, [n + 1] * compiled.classes]
    at_end += [True, False]
    apart = {(p, q) for p in range(n + 2) for q in range(p) if at_end[p] != at_end[q]}
    grown = True
    while grown:  # states are told apart when some class leads to states told apart
        grown = False
        for p in range(n + 2):
            for q in range(p):
                if (p, q) not in apart and any(
                    (max(s, t), min(s, t)) in apart for s, t in zip(rows[p], rows[q])
                ):
                    apart.add((p, q))
                    grown = True
    together = [(p, q) for p in range(n + 2) for q in range(p) if (p, q) not in apart]
    assert together == [], pattern
    # no two classes are alike in every state
    assert len({tuple(row[k] for row in rows[:n]) for k in range(compiled.classes)}) == (
        compiled.classes if n else 1
    ), pattern


def test_a_dfa_of_one_cell_fits_a_bound_of_one() -> None:
    # `a*` matches at the start of every input: its DFA is its start, the match stop
    compiled = compile_automaton(parse("a*"), max_dfa_cells=1)
    assert compiled.function == "_dfa_search" and compiled.states == 0
    assert compile_automaton(parse("a*"), max_dfa_cells=0).function == "_nfa_search"


def test_nfa_tables_count_their_states_and_classes() -> None:
    compiled = compile_automaton(parse(r"(a|b)*a(a|b){14}c"))
    assert compiled.function == "_nfa_search"
    ascii_classes, _, classes, successors, reads, accept, _, restart, _ = compiled.table  # type: ignore[misc]
    assert compiled.states == len(successors)
    assert compiled.classes == len(reads) == len(restart) == len(accept) - 1
    assert {ord(c) - _BASE for c in ascii_classes + classes} == set(range(compiled.classes))
