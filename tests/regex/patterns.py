"""Shared test data for tests/regex: Hypothesis strategies for small ECMA-262 patterns and the
strings to match them against, and the adversarial inputs that make backtracking blow up."""

from __future__ import annotations

import pytest
from hypothesis import strategies as st

from generator.regex import RegexTranslationError, translate

ATOMS = [
    "a",
    "b",
    "x",
    "-",
    ".",
    r"\d",
    r"\w",
    r"\s",
    r"\W",
    "[ab]",
    "[^a]",
    "[a-c]",
    "\u00e9",
    r"\u{1F600}",
]
ASSERTIONS = ["^", "$", r"\b", r"\B"]
QUANTIFIERS = ["*", "+", "?", "{2}", "{0,2}", "{1,3}", "{2,}", "*?", "+?", "??", "{0}"]
ALPHABET = "ab1 _x-\n.\u00e9\U0001f600"


def _extend(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    parts = st.lists(children, min_size=2, max_size=3)
    return st.one_of(
        parts.map("".join),
        parts.map(lambda xs: "(?:" + "|".join(xs) + ")"),
        st.tuples(children, st.sampled_from(QUANTIFIERS)).map(lambda t: "(?:" + t[0] + ")" + t[1]),
        children.map(lambda c: "(" + c + ")"),
    )


# Patterns without look-arounds or back-references: every one has a linear automaton.
regular_patterns = st.recursive(st.sampled_from(ATOMS + ASSERTIONS), _extend, max_leaves=8)
subjects = st.text(alphabet=ALPHABET, max_size=14)


def adversarial_inputs(length: int) -> list[str]:
    """Long strings that make a backtracking search of a risky pattern fail slowly: runs of one
    or two repeated units, then a character that breaks the match."""
    units = ["a", "1", " ", "_", "-", "x", "ab", "a ", "a-", "a.", "a1", "1.", "a@", "aab"]
    out = []
    for unit in units:
        body = unit * (length // len(unit))
        for tail in ("", "!", "\n", " "):
            out.append(body + tail)
    return out


def refusal(pattern: str) -> tuple[str, int]:
    """The message and position of the RegexTranslationError that translating ``pattern`` raises
    (the test fails if it raises none)."""
    with pytest.raises(RegexTranslationError) as caught:
        translate(pattern)
    return caught.value.message, caught.value.position
