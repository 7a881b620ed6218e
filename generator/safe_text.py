"""Text safe to print as part of one line of a command's output, whatever data or schema it quotes.

A character is escaped when it could forge, hide or reorder what a terminal shows: every one of
the Unicode general categories Cc (C0, C1, DEL: a newline starts a line of the data's choosing,
ESC drives the terminal), Cf (bidirectional overrides, zero-width characters, tag characters
U+E0000-E007F that carry hidden text), Cs (lone surrogates: not encodable), Co (private use), Cn
(unassigned: a later Unicode may make them any of these), Zl, Zp and Zs but the ASCII space (line
and paragraph separators, spaces a reader cannot tell apart), and the variation selectors (U+FE00-
FE0F, U+E0100-E01EF: marks of category Mn that render as nothing). Each is written as its Python
escape (`\\n`, `\\x1b`, `\\u202e`, `\\U000e0001`).
"""

from __future__ import annotations

import re
import unicodedata

_ESCAPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"})
_VARIATION_SELECTORS = "[\ufe00-\ufe0f\U000e0100-\U000e01ef]"
_HAS_SELECTOR = re.compile(_VARIATION_SELECTORS).search


def must_escape(char: str) -> bool:
    """The rule, on one character."""
    return (unicodedata.category(char) in _ESCAPED_CATEGORIES and char != " ") or re.fullmatch(
        _VARIATION_SELECTORS, char
    ) is not None


class _Table(dict[int, str]):
    """A str.translate table filled as characters are met: the rule is decided once a character
    (a regex over a class of some 700 ranges scans far slower than this)."""

    def __missing__(self, code: int) -> str:
        char = chr(code)
        self[code] = shown = ascii(char)[1:-1] if must_escape(char) else char
        return shown


_TABLE = _Table()


def escape(text: str) -> str:
    """`text` with every character of the rule above written as its Python escape."""
    # str.isprintable() is false exactly for the categories above but the ASCII space (Python's
    # definition), so a plain line costs one C scan for them and one for the selectors
    if text.isprintable() and not _HAS_SELECTOR(text):
        return text
    return text.translate(_TABLE)


__all__ = ["escape", "must_escape"]
