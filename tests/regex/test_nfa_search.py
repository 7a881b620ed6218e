"""The NFA search (matcher._nfa_search) called directly on the tables the compiler builds,
compared with Python's ``re`` on the translated pattern."""

from __future__ import annotations

import pytest

from generator.regex import compile_pattern
from generator.regex.automaton import CompiledAutomaton, compile_automaton
from generator.regex.ecma import parse
from generator.regex.matcher import _nfa_search


def _nfa(pattern: str) -> CompiledAutomaton:
    compiled = compile_automaton(parse(pattern), max_dfa_cells=0)
    assert compiled.function == "_nfa_search"
    return compiled


def _disagreements(pattern: str, strings: list[str]) -> list[str]:
    table = _nfa(pattern).table
    expected = compile_pattern(pattern).search
    return [s for s in strings if (expected(s) is not None) != _nfa_search(s, table)]  # type: ignore[arg-type]


# Empty string, anchors, line terminators, U+0080 (the first character past the ASCII table),
# a non-BMP character and lone surrogates.
_EDGES = [
    "",
    "\n",
    "\r\n",
    "\u2028",
    "\x7f",
    "\x80",
    "\x80a",
    "a\x80",
    "\U0001f600",
    "\ud83d",
    "\ude00",
]


@pytest.mark.parametrize("pattern", ["^a$", "a", "[^a]", "^\\x80$", "\\x80", "(?:a|\\x80)+$"])
def test_characters_at_and_past_the_ascii_table_agree_with_re(pattern: str) -> None:
    assert _disagreements(pattern, _EDGES + ["a", "aa", "\x80\x80", "b\x80"]) == []


def test_a_word_boundary_search_goes_on_after_a_character_that_starts_nothing() -> None:
    # \b restarts only after a non-word character: after "x" no state is live for a while,
    # yet a later " foo" still matches.
    strings = ["xfoo foo", "xfoo", "foo", " foo", "xx foo", "xfo", "x\nfoo", "\U0001f600foo"]
    assert _disagreements("\\bfoo", strings + _EDGES) == []


_LETTERS = "abcdefghijklmnopq"


@pytest.mark.parametrize("length", range(1, len(_LETTERS) + 1))
def test_literals_over_several_bytes_of_states_agree_with_re(length: int) -> None:
    # The state sets span one to three bytes: a state of every byte is live in turn.
    literal = _LETTERS[:length]
    strings = [literal, "x" + literal, literal[:-1], "a" + literal, literal + literal, literal[1:]]
    strings += [_LETTERS[:i] + _LETTERS[:length] for i in range(length)]
    for pattern in (literal, "^" + literal + "$", literal + "$"):
        assert _disagreements(pattern, strings + _EDGES) == [], pattern


def test_states_of_two_bytes_live_at_once_all_move_on() -> None:
    # After "abcdefghij", a state of the second byte and the search state of the first are live:
    # the "a" that follows must start a new match from the first byte's states.
    literal = _LETTERS
    assert _nfa_search("abcdefghij" + literal, _nfa(literal).table)  # type: ignore[arg-type]
    assert _disagreements(literal, ["abcdefghij" + literal, "abcdefghi" + literal]) == []


def test_states_in_the_same_place_of_different_bytes_move_on_differently() -> None:
    # The states of "a" and of "i" sit at the same bit of the first and second byte.
    pattern = "^" + _LETTERS + "$"
    assert _nfa_search(_LETTERS, _nfa(pattern).table)  # type: ignore[arg-type]
    assert not _nfa_search(_LETTERS[:9] + "b" + _LETTERS[10:], _nfa(pattern).table)  # type: ignore[arg-type]
