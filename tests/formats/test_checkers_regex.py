"""`_format_regex` against the project's ECMA-262 compiler (generator/regex): every pattern the
compiler translates is valid ECMA-262 u-mode syntax, so the checker must accept it; the checker
may accept more (what Python cannot express exactly, such as \\p{Script=...})."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from generator.formats import checkers
from generator.regex import RegexTranslationError, translate

PIECES = [
    "a",
    "b",
    "0",
    "9",
    ".",
    "^",
    "$",
    "|",
    "*",
    "+",
    "?",
    "{",
    "}",
    "{2}",
    "{1,3}",
    "{2,}",
    "(",
    ")",
    "(?:",
    "(?=",
    "(?!",
    "(?<=",
    "(?<!",
    "(?<n>",
    "(?<m>",
    "\\k<n>",
    "[",
    "]",
    "[^",
    "-",
    "\\",
    "\\d",
    "\\w",
    "\\s",
    "\\b",
    "\\B",
    "\\1",
    "\\2",
    "\\0",
    "\\n",
    "\\cA",
    "\\x41",
    "\\u0041",
    "\\u{1F600}",
    "\\p{L}",
    "\\P{Lu}",
    "\\p{Script=Greek}",
    "\\/",
    "\\-",
    "\\.",
    "\u00e9",
    "\U0001f600",
]


@given(st.lists(st.sampled_from(PIECES), max_size=12).map("".join))
def test_every_pattern_the_compiler_takes_is_valid(pattern: str) -> None:
    try:
        translate(pattern)
    except RegexTranslationError:
        return
    assert checkers._format_regex(pattern), pattern


def test_the_compiler_and_the_checker_both_take_and_refuse_some() -> None:
    for pattern, valid in [
        ("(?<n>a)\\k<n>", True),
        ("[\\d-z]", False),
        ("a{2,1}", False),
        ("(?<=a+)b", True),
    ]:
        assert checkers._format_regex(pattern) is valid
