"""A scanning negative lookahead tested only where the text it needs is in the string
(generator/regex/guard.py, emitted by generator/emit/patterns.py): the pattern without it means
the same on every string without that text, and never matches less; the emitted modules agree
with Python `re` on the whole pattern."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import generator
from generator.emit.tree import lit
from generator.regex import compile_pattern, plan_pattern
from generator.regex.guard import LiteralGuard, literal_guard

# Patterns with a negative lookahead that scans, as real schemas write them.
GUARDED = {
    r"^(?!/)(?!.*(?:^|/)\.\.(?:/|$))[A-Za-z0-9_./-]+$": LiteralGuard(
        ("..",), r"^(?!/)[A-Za-z0-9_./-]+$"
    ),
    r"^(?!.*--)[a-z-]+$": LiteralGuard(("--",), "^[a-z-]+$"),
    r"^(?!.*\.\.)(?!.*//)[a-z./]*$": LiteralGuard(("..", "//"), "^[a-z./]*$"),
    r"^(?!.*(?:foo)+bar).*$": LiteralGuard(("bar",), "^.*$"),  # the longest text it needs
    r"^(?!\s*$).+|^(?!.*é)x": LiteralGuard(("é",), r"^(?!\s*$).+|^x"),
    r"(?!.*[ab]ab)c": LiteralGuard(("ab",), "c"),
    # an empty group where the terms either side would join: `\01` is an invalid octal escape,
    # and two surrogate escapes side by side are one astral character
    r"^\0(?!.*x)1": LiteralGuard(("x",), r"^\0(?:)1"),
    r"\uD83D(?!.*x)\uDE00": LiteralGuard(("x",), r"\uD83D(?:)\uDE00"),
    "\ud83d(?!.*x)\ude00": LiteralGuard(("x",), "\ud83d(?:)\ude00"),
    # the bounds of the lead surrogates: the first and last are read on, a trail one is not
    r"\uD800(?!.*x)\uDC00": LiteralGuard(("x",), r"\uD800(?:)\uDC00"),
    r"\uDBFF(?!.*x)\uDFFF": LiteralGuard(("x",), r"\uDBFF(?:)\uDFFF"),
    r"\uDC00(?!.*x)\uDC00": LiteralGuard(("x",), r"\uDC00\uDC00"),
    # a scan inside a group, or inside a bounded repetition of one
    r"^(?!(?:.*--))[a-z-]+$": LiteralGuard(("--",), "^[a-z-]+$"),
    r"^(?!(.*--))[a-z-]+$": LiteralGuard(("--",), "^[a-z-]+$"),
    r"^(?!(?:.*--){2})[a-z-]+$": LiteralGuard(("--",), "^[a-z-]+$"),
    # texts read through a repetition of at least one, beside texts read before it
    r"^(?!.*(?:ab)+$)[a-z]+$": LiteralGuard(("ab",), "^[a-z]+$"),
    r"^(?!.*ab(?:c)+)x": LiteralGuard(("ab",), "^x"),
    r"^(?!.*[-][-])[a-z-]+$": LiteralGuard(("--",), "^[a-z-]+$"),  # classes of one character
    r"^(?!.*\uE000)a": LiteralGuard(("\ue000",), "^a"),  # the first character past the surrogates
}
# A lookahead between two terms that are one without it: a string each pattern matches.
JOINED = {
    r"^\0(?!.*x)1": "\x001",
    r"\uD83D(?!.*x)\uDE00": "a\ud83d\ude00",
    "\ud83d(?!.*x)\ude00": "\ud83d\ude00",
}
# No guard: the lookahead does not scan, the body needs no text, a back-reference renumbers.
UNGUARDED = [
    r"^(?!latest$).+",
    r"^(?!/)[a-z]+$",
    r"^(?!.*[._]{2})\w+$",
    r"^(?!.*(?:foo|bar))",
    r"(a)(?!.*x)\1",
    r"^(?=.*x).*$",
    "^[a-z]+$",
    r"^(?:(?!.*x)a)+$",
    # a lone surrogate is no text to look for (the first and the last)
    r"^(?!.*\uD800)a",
    r"^(?!.*\uDFFF)a",
]


def test_guards() -> None:
    for pattern, guard in GUARDED.items():
        assert literal_guard(pattern) == guard, pattern
    for pattern in UNGUARDED:
        assert literal_guard(pattern) is None, pattern


SUBJECTS = st.text(alphabet="ab./-_xcéfoor \n", max_size=10) | st.sampled_from(
    [
        "src/tools/pdf/main.py",
        "a/../b",
        "..",
        "a..b",
        "/abs",
        "a//b",
        "foobar",
        "fooxbar",
        "é",
        "  ",
        "",
        "\x001",
        "\ud83d\ude00",
        "\U0001f600",
    ]
)


@given(st.sampled_from(sorted(GUARDED)), SUBJECTS)
def test_without_the_text_the_reduced_pattern_is_the_pattern(pattern: str, s: str) -> None:
    guard = GUARDED[pattern]
    whole = compile_pattern(pattern).search(s) is not None
    reduced = compile_pattern(guard.reduced).search(s) is not None
    assert not whole or reduced, (pattern, s)  # never matches less
    if all(text not in s for text in guard.texts):
        assert whole is reduced, (pattern, s)


@pytest.fixture(scope="module")
def modules() -> dict[str, object]:
    """A module per guarded pattern: on a value, and in patternProperties (with
    additionalProperties false, so the loop's test is the pattern's), draft 2020-12."""
    out = {}
    for pattern in GUARDED:
        schema = {
            "properties": {
                "v": {"type": "string", "pattern": pattern},
                "o": {
                    "type": "object",
                    "patternProperties": {pattern: {"type": "integer"}},
                    "additionalProperties": False,
                },
            }
        }
        out[pattern] = module = generator.compile_module(schema, format=False)
        fast = module.__source__[module.__source__.index("def _v0(") :]  # type: ignore[attr-defined]
        texts = GUARDED[pattern].texts
        if plan_pattern(pattern).kind == "automaton":  # linear already: no guard (emit/patterns)
            assert "_dfa_search(" in fast, fast
            assert all(f"{lit(text).render()} not in" not in fast for text in texts), fast
            continue
        assert all(
            re.search(rf"{re.escape(lit(text).render())} not in \w+", fast) for text in texts
        ), fast
    return out


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(GUARDED)), SUBJECTS)
def test_emitted_guards_agree_with_re(modules: dict, pattern: str, s: str) -> None:
    module = modules[pattern]
    matches = compile_pattern(pattern).search(s) is not None
    assert module.is_valid({"v": s}) is matches, (pattern, s)
    assert module.is_valid({"o": {s: 1}}) is matches, (pattern, s)
    expected = [] if matches else [("/v", "/properties/v/pattern")]
    assert [(e.instance_location, e.keyword_location) for e in module.errors({"v": s})] == expected


def test_taking_a_lookahead_out_does_not_join_its_neighbours(modules: dict) -> None:
    for pattern, s in JOINED.items():
        assert compile_pattern(pattern).search(s) is not None
        module = modules[pattern]
        assert module.is_valid({"v": s}) and module.is_valid({"o": {s: 1}}), (pattern, s)  # type: ignore[attr-defined]
        assert not module.is_valid({"v": s + "x"}), pattern  # type: ignore[attr-defined]
        assert not module.is_valid({"v": "\U0001f600"}), pattern  # type: ignore[attr-defined]
