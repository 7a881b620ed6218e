"""Every checker answers every string with a bool and never raises: arbitrary text (lone
surrogates included, as json.loads can make them) and text drawn from the characters the
grammars care about, so that the deep paths (escapes, A-labels, literals, offsets) run."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.formats import checkers

CHECKERS = sorted(name for name in dir(checkers) if name.startswith(("_format_", "_content_")))

# The characters of the grammars, and a few non-ASCII ones with context rules or Bidi classes.
GRAMMAR = list("09afxnAFXNPTWYMDHSZz+-.:/?#[]{}()<>@!$&'*,;=%~_\\\"|^ `")
GRAMMAR += [
    "xn--",
    "\\u{",
    "\\p{",
    "(?<",
    "\\k<",
    "[IPv6:",
    "\u00b7",
    "\u0375",
    "\u05d0",
    "\u05f3",
    "\u0628",
    "\u0660",
    "\u06f0",
    "\u200c",
    "\u200d",
    "\u30fb",
    "\u3002",
    "\u0301",
    "\u00e9",
    "\ud800",
    "\ue000",
    "\U0001f600",
    "\ufffe",
    "\u094d",
    "==",
]

ANY_TEXT = st.text(st.characters(blacklist_categories=()), max_size=60)
GRAMMAR_TEXT = st.lists(st.sampled_from(GRAMMAR), max_size=30).map("".join)


def _answer(name: str, text: str) -> Any:
    return getattr(checkers, name)(text)


@pytest.mark.parametrize("name", CHECKERS)
@given(text=st.one_of(ANY_TEXT, GRAMMAR_TEXT))
def test_checker_answers_without_raising(name: str, text: str) -> None:
    result = _answer(name, text)
    if name == "_content_base64_decode":
        assert result is None or isinstance(result, str)
    else:
        assert result is True or result is False
