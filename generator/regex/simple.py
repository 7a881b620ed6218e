"""Patterns that plain `str` operations decide exactly, and faster than Python's `re`.

A call of a compiled pattern's `search` costs more before it reads a character than the `str`
methods below cost in all, and those that scan (`isdigit`, `isalpha`, ...) are C loops near
`re`'s speed on short strings. So a pattern that is one of these shapes is tested without the
regex engine (bench/patterns.py measures each shape against `re` on typical inputs;
docs/regex.md has the figures):

* a literal text, anchored or not: `^x-` is ``s.startswith("x-")``, `^\\$ref$` is
  ``s == "$ref"``, `\\.json$` is ``s.endswith(".json")``, `type` is ``"type" in s``; literal
  alternatives with the same anchors join (`^(get|put|post)$` is ``s in {...}``, several
  prefixes one ``startswith`` of a tuple), top-level alternatives with different anchors are
  ``or``-ed (FHIR's `^true|false$` is ``s.startswith("true") or s.endswith("false")``);
* a whole string that is a literal in any ASCII case, every letter a class of its two cases
  (`^([Pp][Rr][Ee][Ss][Ee][Nn][Tt]|[Aa][Bb][Ss][Ee][Nn][Tt])$`, common in SchemaStore's
  schemas): ``s.isascii() and s.lower() in {...}``;
* a whole string of one ASCII class that `str` methods name exactly, with a count:
  `^\\d+$` is ``s.isascii() and s.isdigit()``, `^[A-Z]{2}$` is
  ``len(s) == 2 and s.isascii() and s.isalpha() and s.isupper()`` (a class that takes two
  methods, `[a-z]` and `[A-Z]`, only with a count of at most MAX_SCANNED_TWICE).

Only classes whose method test is *exactly* the class are used: `str.isdigit` alone is not
`\\d` (ECMA's `\\d` is ASCII; Python's isdigit is true for '٣' and '²'), but ``isascii() and
isdigit()`` is exactly `[0-9]` on a non-empty string. Classes such as `[a-f0-9]` or
`[a-z0-9_.-]` have no exact method test; the alternatives (`strip`/`translate` with a table, set
inclusion) are slower than `re` on typical inputs, so those patterns stay on `re`.

:func:`simple_tests` gives the tests of a pattern (None when it is not one of these shapes) and
:func:`simple_search` runs them in Python (tests and the reference use it; the compiler emits
the same tests as code).

A pattern that is one run of a wide class (FHIR's `^\\S*$`) is not decided by str tests, but
:func:`ascii_accept` names ASCII strings it surely matches (a length, and a few
characters left out), which the emitted code accepts before asking `re` ("ASCII first",
below; :func:`ascii_accepts` is that test in Python).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable, Optional, Union

from .ecma import _Alternative, _Assert, _Group, _Lit, _Quant, _Set, parse

__all__ = [
    "CLASS_METHODS",
    "AsciiAccept",
    "CaselessTest",
    "LiteralTest",
    "RunTest",
    "SimpleTest",
    "always_matches",
    "ascii_accept",
    "ascii_accepts",
    "simple_search",
    "simple_tests",
]

# The ASCII classes (as code-point intervals) that `str` methods decide exactly, with those
# methods: on a non-empty string, ``s.isascii()`` and each method all true means every character
# is in the class. (ASCII's only digits are 0-9, its only letters A-Z and a-z, its only
# alphanumerics those; with isalpha, islower/isupper say every letter has that case.)
CLASS_METHODS: dict[tuple[tuple[int, int], ...], tuple[str, ...]] = {
    ((0x30, 0x39),): ("isdigit",),
    ((0x41, 0x5A), (0x61, 0x7A)): ("isalpha",),
    ((0x30, 0x39), (0x41, 0x5A), (0x61, 0x7A)): ("isalnum",),
    ((0x61, 0x7A),): ("isalpha", "islower"),
    ((0x41, 0x5A),): ("isalpha", "isupper"),
}


@dataclass(frozen=True)
class LiteralTest:
    """The text occurs: at the start (`start`), at the end (`end`), as the whole string (both),
    or anywhere (neither)."""

    text: str
    start: bool
    end: bool


@dataclass(frozen=True)
class RunTest:
    """The whole string is `least` to `most` (None: any number of) characters of the ASCII class
    that ``isascii()`` and `methods` decide."""

    methods: tuple[str, ...]
    least: int
    most: Optional[int]


@dataclass(frozen=True)
class CaselessTest:
    """The whole string is `text` (lower case) in any mix of ASCII case: every letter of the
    pattern a class of its two cases (`^([Pp][Rr][Ee][Ss][Ee][Nn][Tt])$`), ``s.isascii() and
    s.lower() == text`` (`isascii` first: `lower()` maps the Kelvin sign U+212A to `k`)."""

    text: str


SimpleTest = Union[LiteralTest, RunTest, CaselessTest]


def simple_tests(source: str) -> Optional[tuple[SimpleTest, ...]]:
    """The tests of a pattern of the shapes above (it matches when any one holds), or None.
    Raises RegexTranslationError for an invalid pattern, as :func:`parse` does."""
    return _simple_tests(source)


# Beyond these, a pattern stays on `re`: each contained text and each run is a test of its own,
# and a startswith/endswith tuple is tried in order (equal texts are one set lookup, any number).
MAX_CONTAINED = 4
MAX_AFFIXES = 32
MAX_RUNS = 4
# A run is scanned by isascii() (free: a flag of the string) and its methods, each slower per
# character than re's class loop: one method beats re's call overhead on the short runs of typical
# values, two (isalpha and islower) only on shorter ones, so those are used only where the count
# is at most this (docs/regex.md, "Timings", has the break-even lengths).
MAX_SCANNED_TWICE = 16


@functools.lru_cache(maxsize=512)
def _simple_tests(source: str) -> Optional[tuple[SimpleTest, ...]]:
    found: list[SimpleTest] = []
    for alternative in parse(source).body:
        tests = _alternative(alternative)
        if tests is None:
            return None
        found.extend(tests)
    literals = [t for t in found if isinstance(t, LiteralTest)]
    contained = {t.text for t in literals if not t.start and not t.end}
    prefixes = {t.text for t in literals if t.start and not t.end}
    suffixes = {t.text for t in literals if t.end and not t.start}
    runs = [t for t in found if isinstance(t, RunTest)]
    if (
        len(contained) > MAX_CONTAINED
        or max(len(prefixes), len(suffixes)) > MAX_AFFIXES
        or len(runs) > MAX_RUNS
    ):
        return None
    return tuple(found)


def _alternative(terms: _Alternative) -> Optional[list[SimpleTest]]:
    """One top-level alternative: `^`? middle `$`?, where the middle is literal text, a group of
    literal alternatives, or (anchored at both ends) one run of a class."""
    start = bool(terms) and isinstance(terms[0], _Assert) and terms[0].kind == "start"
    middle = terms[1:] if start else terms
    end = bool(middle) and isinstance(middle[-1], _Assert) and middle[-1].kind == "end"
    middle = middle[:-1] if end else middle
    texts = _literal_alternatives(middle)
    if texts is not None:
        return [LiteralTest(text, start, end) for text in texts]
    caseless = _texts(middle, _caseless_text) if start and end else None
    if caseless is not None:
        return [CaselessTest(text) for text in caseless]
    run = _run(middle) if start and end else None
    return [run] if run is not None else None


def _literal_alternatives(terms: _Alternative) -> Optional[list[str]]:
    """The texts of terms that are literal text, or one group of literal alternatives."""
    return _texts(terms, _literal_text)


def _texts(
    terms: _Alternative, text_of: Callable[[_Alternative], Optional[str]]
) -> Optional[list[str]]:
    """The text `text_of` reads in terms, or in each alternative of their one group; None where
    it reads none."""
    if len(terms) == 1 and isinstance(terms[0], _Group) and terms[0].kind in ("capture", "group"):
        texts = [text_of(alternative) for alternative in terms[0].body]
        return None if any(text is None for text in texts) else [t for t in texts if t is not None]
    text = text_of(terms)
    return None if text is None else [text]


def _literal_text(terms: _Alternative) -> Optional[str]:
    """The text terms match exactly (characters, one-character classes, groups of one literal
    alternative), or None."""
    out: list[str] = []
    for term in terms:
        if isinstance(term, _Lit):
            out.append(chr(term.cp))
        elif (
            isinstance(term, _Set)
            and len(term.ranges) == 1
            and term.ranges[0][0] == term.ranges[0][1]
        ):
            out.append(chr(term.ranges[0][0]))
        elif isinstance(term, _Group) and term.kind in ("capture", "group") and len(term.body) == 1:
            inner = _literal_text(term.body[0])
            if inner is None:
                return None
            out.append(inner)
        else:
            return None
    return "".join(out)


def _caseless_text(terms: _Alternative) -> Optional[str]:
    """The lower-case text of terms whose every ASCII letter is a class of its two cases (`[Pp]`)
    and every other character an ASCII literal that is no letter; None for any other terms, and
    for a text with no such letter (a plain literal)."""
    out: list[str] = []
    caseless = False
    for term in terms:
        ranges = tuple(term.ranges) if isinstance(term, _Set) else None
        if isinstance(term, _Lit) and term.cp < 0x80 and not chr(term.cp).isalpha():
            out.append(chr(term.cp))
        elif (
            ranges is not None
            and len(ranges) == 1
            and ranges[0][0] == ranges[0][1]
            and ranges[0][0] < 0x80
            and not chr(ranges[0][0]).isalpha()
        ):
            out.append(chr(ranges[0][0]))
        elif (
            ranges is not None
            and len(ranges) == 2
            and all(lo == hi for lo, hi in ranges)
            and 0x41 <= ranges[0][0] <= 0x5A
            and ranges[1][0] == ranges[0][0] + 0x20
        ):
            out.append(chr(ranges[1][0]))
            caseless = True
        else:
            return None
    return "".join(out) if caseless else None


# A class's code-point intervals, repeated `least` to `most` (None: unbounded) times.
_ClassRun = tuple[tuple[tuple[int, int], ...], int, Optional[int]]


def _class_run(terms: _Alternative) -> Optional[_ClassRun]:
    """(the class's ranges, least, most) of terms that are one class, repeated or not (in groups
    of one alternative), or None: the run that str tests (_run) and ASCII first read."""
    while (
        len(terms) == 1 and isinstance(terms[0], _Group) and terms[0].kind in ("capture", "group")
    ):
        if len(terms[0].body) != 1:
            return None
        terms = terms[0].body[0]
    if len(terms) != 1:
        return None
    term = terms[0]
    if isinstance(term, _Set):
        return tuple(term.ranges), 1, 1
    if isinstance(term, _Quant) and isinstance(term.atom, _Set):
        return tuple(term.atom.ranges), term.min, term.max
    return None


def _run(terms: _Alternative) -> Optional[RunTest]:
    """A class with an exact method test, alone or repeated (in groups of one alternative:
    Swagger's `^([0-9]{3})$`)."""
    run = _class_run(terms)
    if run is None:
        return None
    ranges, least, most = run
    methods = CLASS_METHODS.get(ranges)
    if methods is None or (most is not None and most == 0):
        return None
    if len(methods) > 1 and (most is None or most > MAX_SCANNED_TWICE):
        return None  # two scans of a long string cost more than re's one
    return RunTest(methods, least, most)


# -- patterns every string matches -------------------------------------------------------------
def always_matches(source: str) -> bool:
    """Whether every string matches the pattern: an alternative whose terms can all match
    nothing (`.*`, `^.*`, `x?`), with an anchor at its start or at its end but not both (`.*$`
    matches at the end of any string; `^.*$` not where there is a line terminator). Raises
    RegexTranslationError for an invalid pattern, as :func:`parse` does."""
    return _always_matches(source)


@functools.lru_cache(maxsize=512)
def _always_matches(source: str) -> bool:
    for terms in parse(source).body:
        start = bool(terms) and isinstance(terms[0], _Assert) and terms[0].kind == "start"
        end = len(terms) > int(start) and isinstance(terms[-1], _Assert) and terms[-1].kind == "end"
        middle = terms[int(start) : len(terms) - int(end)]
        if not (start and end) and all(isinstance(t, _Quant) and t.min == 0 for t in middle):
            return True
    return False


# -- ASCII first -------------------------------------------------------------------------------
# A pattern that is one run of a wide class, such as FHIR's `^\\S*$` (uri), `^[ \\r\\n\\t\\S]+$`
# (string) or `^[^\\s]+(\\s[^\\s]+)*$` (code), has no exact str test (the class holds most of
# Unicode), but on ASCII it is all the characters but a few: a string of those, of the run's
# length, matches, and is answered without the engine (faster than `re` on such values:
# docs/regex.md has the figures); any other string asks `re`. Where the class leaves out at most
# MAX_EXCLUDED of the 128 ASCII characters (`[ \\r\\n\\t\\S]`: \\v and \\f; `.`: \\n and \\r), an ASCII
# string without them is accepted (`isascii()` reads a flag of the string, each `c not in s` is one
# memchr); else, where it leaves out at most MAX_EXCLUDED printable ones (`\\S`: the space, besides
# the controls \\t \\n \\v \\f \\r), a printable ASCII string (U+0020 to U+007E, what `isascii() and
# isprintable()` say of a whole string: a call per character) without them. A term that may match
# nothing (`(\\s[^\\s]+)*`) is left out of the run: what matches without it matches the pattern.
ASCII = (0x00, 0x7F)
PRINTABLE = (0x20, 0x7E)
# Each character the class leaves out is one `c not in s` test.
MAX_EXCLUDED = 2


@dataclass(frozen=True)
class AsciiAccept:
    """An ASCII string (`printable`: a printable ASCII string) of `least` to `most` (None: any
    number of) characters, none of them in `excluded`, matches the pattern."""

    excluded: str
    least: int
    most: Optional[int]
    printable: bool


def ascii_accept(source: str) -> Optional[AsciiAccept]:
    """The ASCII strings a pattern surely matches, as one run of its class (above), or None.
    Raises RegexTranslationError for an invalid pattern, as :func:`parse` does."""
    return _ascii_accept(source)


@functools.lru_cache(maxsize=512)
def _ascii_accept(source: str) -> Optional[AsciiAccept]:
    body = parse(source).body
    if len(body) != 1:
        return None
    terms = body[0]
    if len(terms) < 3 or not (isinstance(terms[0], _Assert) and isinstance(terms[-1], _Assert)):
        return None
    if (terms[0].kind, terms[-1].kind) != ("start", "end"):
        return None
    optional = [isinstance(t, _Quant) and t.min == 0 for t in terms[1:-1]]  # each may match nothing
    required = [t for t, skip in zip(terms[1:-1], optional) if not skip]
    # the one term that must match, or (all may match nothing: `^\S*$`) the first class run
    runs = [_class_run(required)] if required else [_class_run([t]) for t in terms[1:-1]]
    return next((accept for accept in map(_accept, runs) if accept is not None), None)


def _accept(run: Optional[_ClassRun]) -> Optional[AsciiAccept]:
    """The ASCII (else printable ASCII) strings of the run, where its class leaves out at most
    MAX_EXCLUDED of those characters and it can match at least one character; else None."""
    if run is None:
        return None
    ranges, least, most = run
    if most is not None and most < max(least, 1):
        return None
    for (low, high), printable in ((ASCII, False), (PRINTABLE, True)):
        inside = {cp for cp in range(low, high + 1) if any(lo <= cp <= hi for lo, hi in ranges)}
        excluded = "".join(chr(cp) for cp in range(low, high + 1) if cp not in inside)
        if inside and len(excluded) <= MAX_EXCLUDED:
            return AsciiAccept(excluded, least, most, printable)
    return None


def ascii_accepts(accept: AsciiAccept, s: str) -> bool:
    """Whether `s` is one of the strings `accept` names, in Python (what the emitted code tests)."""
    if (
        not s.isascii()
        or (accept.printable and not s.isprintable())
        or any(c in s for c in accept.excluded)
    ):
        return False
    return len(s) >= accept.least and (accept.most is None or len(s) <= accept.most)


def simple_search(tests: tuple[SimpleTest, ...]) -> Callable[[str], bool]:
    """``s -> bool``: whether any test holds, in Python (what the emitted code computes)."""

    def holds(test: SimpleTest, s: str) -> bool:
        if isinstance(test, LiteralTest):
            if test.start and test.end:
                return s == test.text
            if test.start:
                return s.startswith(test.text)
            if test.end:
                return s.endswith(test.text)
            return test.text in s
        if isinstance(test, CaselessTest):
            return s.isascii() and s.lower() == test.text
        if test.least == 0 and s == "":
            return True
        if len(s) < max(test.least, 1) or (test.most is not None and len(s) > test.most):
            return False
        return s.isascii() and all(getattr(s, method)() for method in test.methods)

    return lambda s: any(holds(test, s) for test in tests)
