"""A negative lookahead that scans (`^(?!.*(?:^|/)\\.\\.(?:/|$))[A-Za-z0-9_./-]+$`, "no `..`
segment") tested only where it can fail: when the text it needs is in the string.

Every match of the lookahead's body contains some literal text (here ".."): where the string does
not contain it, the body matches nowhere, so `(?!body)` holds everywhere and the pattern means the
same as the pattern without it. And without it the pattern can only match more (a negative
lookahead only takes matches away). So, for the pattern P and P' (P without the lookahead):

    P matches s  <=>  P' matches s  and  (".." not in s  or  P matches s)

The common string (no "..") costs P' and one `in` test, where P re-scans it from every position
the `.*` can stop at (bench/patterns.py times both; docs/regex.md has the figures). The emitted
code (emit/patterns.py) tests P' as any pattern is tested (str tests where its shape allows), and
P with `re` as before.

Only lookaheads that scan are taken out (an unbounded repetition in their body: `(?!/)` is one
character's test, cheaper than an `in` over the string), only at the top level of the pattern (in
a group the argument holds too, but a lookahead inside a negative lookahead would turn it around),
and only in a pattern without back-references (taking a group out renumbers the groups after it).
Where taking it out would join the terms on either side into another (`\\0` and a digit, a lead
and a trail surrogate), an empty group `(?:)` takes its place.
The literal text is the longest run of literal characters that the body needs, read from its
parse: consecutive characters, through groups of one alternative and repetitions of at least one.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Optional

from .ecma import _Disjunction, _Group, _Lit, _Quant, _Set, parse

__all__ = ["LiteralGuard", "literal_guard"]


@dataclass(frozen=True)
class LiteralGuard:
    """`reduced` (the pattern's source without its scanning negative lookaheads) means the same
    as the pattern on every string that contains none of `texts` (one per lookahead taken out)."""

    texts: tuple[str, ...]
    reduced: str


def literal_guard(source: str) -> Optional[LiteralGuard]:
    """The guard of an ECMA-262 pattern (see the module docstring), or None when it has no
    negative lookahead of that kind. Raises RegexTranslationError for an invalid pattern."""
    return _literal_guard(source)


@functools.lru_cache(maxsize=512)
def _literal_guard(source: str) -> Optional[LiteralGuard]:
    parsed = parse(source)
    if parsed.parser.refs:
        return None
    taken: list[tuple[_Group, str, str]] = []  # (lookahead, the text it needs, what replaces it)
    for alternative in parsed.body:
        kept: object = None  # the last term before this one that stays
        for at, term in enumerate(alternative):
            if isinstance(term, _Group) and term.kind == "nahead" and _scans(term.body):
                texts = _needed_texts(term.body)
                if texts:  # (one that needs no text stays in the pattern)
                    glue = "(?:)" if _extendable(kept) and at + 1 < len(alternative) else ""
                    taken.append((term, max(sorted(texts), key=len), glue))
                    continue
            kept = term
    if not taken:
        return None
    reduced = source
    for group, _, glue in sorted(taken, key=lambda found: found[0].pos, reverse=True):
        reduced = reduced[: group.pos] + glue + reduced[group.end + 1 :]
    return LiteralGuard(tuple(dict.fromkeys(text for _, text, _ in taken)), reduced)


def _extendable(term: object) -> bool:
    """Whether the source of `term` could be read on into the term after it, were they adjacent:
    the only u-mode terms read past their end are `\\0` (not followed by a digit: `\\0(?!.*x)1`
    without its lookahead would be the octal escape `\\01`, an error) and a lead surrogate (raw or
    `\\uD83D`: followed by a trail one it is one astral code point, no longer two). An empty group
    keeps such a term apart from the next."""
    return isinstance(term, _Lit) and (term.cp == 0 or 0xD800 <= term.cp <= 0xDBFF)


def _scans(disjunction: _Disjunction) -> bool:
    """Whether an unbounded repetition is anywhere in it."""
    for alternative in disjunction:
        for term in alternative:
            if isinstance(term, _Quant) and (term.max is None or _scans([[term.atom]])):
                return True
            if isinstance(term, _Group) and _scans(term.body):
                return True
    return False


def _needed_texts(disjunction: _Disjunction) -> set[str]:
    """Texts that every match of the disjunction contains (only of a single alternative)."""
    if len(disjunction) != 1:
        return set()
    texts: set[str] = set()
    run: list[str] = []
    for term in disjunction[0]:
        char = _character(term)
        if char is not None:
            run.append(char)
            continue
        texts.add("".join(run))
        run = []
        if isinstance(term, _Group) and term.kind in ("capture", "group"):
            texts |= _needed_texts(term.body)
        elif isinstance(term, _Quant) and term.min >= 1:
            texts |= _needed_texts([[term.atom]])
    texts.add("".join(run))
    texts.discard("")
    return texts


def _character(term: object) -> Optional[str]:
    """The one character a term matches (a literal, or a class of one), outside the surrogates."""
    if isinstance(term, _Lit):
        cp = term.cp
    elif (
        isinstance(term, _Set) and len(term.ranges) == 1 and term.ranges[0][0] == term.ranges[0][1]
    ):
        cp = term.ranges[0][0]
    else:
        return None
    return None if 0xD800 <= cp <= 0xDFFF else chr(cp)
