"""Translate ECMA-262 regular expressions (``u`` flag, no other flags) into Python ``re`` syntax.

JSON Schema's ``pattern`` and ``patternProperties`` use the ECMA-262 dialect with the ``u``
(unicode) flag.  Python's ``re`` differs in many small ways (``\\d`` and ``\\w`` are Unicode-aware,
``$`` matches before a trailing newline, ``.`` excludes only ``\\n``, ``[^]`` is a syntax error, ...),
so patterns are parsed here with a real tokenizer/parser of the ECMA pattern grammar into a small
tree and re-emitted as an ASCII-only Python pattern whose ``re.compile(p).search(s)`` gives the same
answer as ``new RegExp(source, "u").test(s)``.  Anything that is not valid ECMA-262 ``u``-mode
syntax, or that Python cannot express exactly, raises :class:`RegexTranslationError` carrying the
offending index into the ECMA source.  There is never a silent approximation.

Public API: :class:`RegexTranslationError`, :func:`translate`, :func:`compile_pattern`, and
:func:`parse` (the checked syntax tree, for the analyses in risk.py and nfa.py).

Semantics (u-mode, case-sensitive):

* ``\\d`` = ``[0-9]``, ``\\w`` = ``[A-Za-z0-9_]``, ``\\s`` = ECMA WhiteSpace + LineTerminator,
  and their complements, both inside and outside classes.  Classes are computed as sets of
  code-point intervals and emitted explicitly, so negation and multi-set escapes are exact.
* ``\\b``/``\\B`` use the ASCII word set (emitted as look-arounds); ``\\b`` in a class is U+0008.
* ``.`` excludes only ``\\n \\r \\u2028 \\u2029``; ``^`` is ``\\A``; ``$`` is ``\\Z``.
* ``[^]`` matches any code point, ``[]`` matches nothing.  As u-mode requires, a class escape
  cannot be a range end (``[\\d-x]`` raises; ``[\\d-]`` is digits and ``-``).
* ``\\uXXXX`` (surrogate pairs combine), ``\\u{...}``, ``\\xHH``, ``\\cX``, ``\\0``, control
  escapes and identity escapes of syntax characters (and ``/``; ``\\-`` in classes only).
* Back-references ``\\N`` and ``\\k<name>``.  A reference to a group that has not participated
  matches the empty string (emitted as a Python conditional ``(?(N)\\N)``); a reference evaluated
  before its group closes (forward or self reference) always matches empty and is emitted as
  ``(?:)``; a reference from outside a negative look-around to a group inside it likewise.
* ``\\p{..}``/``\\P{..}``: every General_Category value by short name, long name or alias
  (``Lu``, ``Uppercase_Letter``, ``digit``, ``punct``, ``gc=Lu``, ``General_Category=L``, ...)
  expanded to explicit ranges from :func:`unicodedata.category` (computed once, cached); binary
  properties ``Any``, ``ASCII``, ``Assigned``, ``ASCII_Hex_Digit``, ``Hex_Digit``,
  ``Noncharacter_Code_Point``, ``Pattern_White_Space``, ``White_Space``, ``Join_Control`` and
  ``Regional_Indicator`` (with their ECMA aliases).

Deliberate deviations from ECMA-262 (all fail closed, except 1):

1. Unicode data comes from Python's :mod:`unicodedata` (Unicode 14.0 on Python 3.11), which can
   differ from the Unicode version of a JavaScript engine for recently assigned code points.
2. ``Script``/``Script_Extensions`` and binary properties the standard library cannot compute
   exactly (``Alphabetic``, ``Emoji``, ``ID_Start``, ...) raise, naming the property.
3. ES2025 additions are not accepted: pattern modifiers ``(?i:...)`` and duplicate named groups
   in different alternatives raise.
4. Back-references inside a look-behind raise; so does a back-reference to a group inside a
   repeated atom (max > 1) unless that group participates in every iteration and the repeated
   atom cannot match the empty string (ECMA clears captures at the start of each iteration and
   rejects empty iterations once the minimum is reached; Python keeps the previous value and
   runs one empty iteration).
5. Look-behind bodies must have a fixed width (a Python limitation) and raise otherwise.
6. Quantifier bounds of 2**32-1 or more raise (Python's ``MAXREPEAT``); group nesting deeper than
   ``MAX_NESTING`` raises.
7. Group-name characters are checked with :meth:`str.isidentifier` (XID_Start/XID_Continue)
   plus ``$``, ZWNJ and ZWJ, a few code points off from ECMA's ID_Start/ID_Continue.  Names that
   are not ASCII Python identifiers are renamed in the output (matching is unaffected).
8. Inputs are matched as Python code points: a ``str`` holding a surrogate pair as two separate
   code units (``"\\ud83d\\ude00"``; ``json.loads`` never produces one) is two code points here,
   where ECMA would see one.
"""

from __future__ import annotations

import functools
import re
import sys
import unicodedata
from typing import Iterable, NamedTuple, NoReturn, Optional, Union

__all__ = [
    "RegexTranslationError",
    "translate",
    "compile_pattern",
    "parse",
    "ParsedPattern",
    "MAX_NESTING",
]

MAX_NESTING = 100
"""Deepest group nesting accepted (keeps the recursive parser and Python's sre well clear of
the interpreter's recursion limit)."""

_MAX_CP = 0x10FFFF
_Ranges = tuple[tuple[int, int], ...]  # an interval set (below)
_INF = None  # unbounded quantifier maximum
_SYNTAX_CHARS = frozenset("^$\\.*+?()[]{}|")
_CONTROL_ESCAPES = {"f": 0x0C, "n": 0x0A, "r": 0x0D, "t": 0x09, "v": 0x0B}
_HEX = frozenset("0123456789abcdefABCDEF")
_DIGITS = frozenset("0123456789")


class RegexTranslationError(ValueError):
    """An ECMA-262 pattern is invalid (u-mode) or cannot be expressed exactly in Python ``re``."""

    def __init__(self, message: str, position: int):
        super().__init__(f"{message} (at position {position})")
        self.message = message
        self.position = position

    def __reduce__(
        self,
    ) -> tuple[
        type[RegexTranslationError], tuple[str, int]
    ]:  # keep pickling (e.g. multiprocessing) working with two arguments
        return (type(self), (self.message, self.position))


# ---------------------------------------------------------------------------------------------
# Code-point interval sets: sorted tuples of disjoint, non-adjacent (lo, hi) pairs.


def _normalize(ranges: Iterable[tuple[int, int]]) -> _Ranges:
    out: list[list[int]] = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            if hi > out[-1][1]:
                out[-1][1] = hi
        else:
            out.append([lo, hi])
    return tuple((lo, hi) for lo, hi in out)


def _complement(ranges: _Ranges) -> _Ranges:
    out: list[tuple[int, int]] = []
    nxt = 0
    for lo, hi in ranges:
        if lo > nxt:
            out.append((nxt, lo - 1))
        nxt = hi + 1
    if nxt <= _MAX_CP:
        out.append((nxt, _MAX_CP))
    return tuple(out)


_ALL = ((0, _MAX_CP),)
_DIGIT_SET = ((0x30, 0x39),)
_WORD_SET = ((0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A))
_SPACE_SET = _normalize(
    [
        (0x09, 0x0D),
        (0x20, 0x20),
        (0xA0, 0xA0),
        (0x1680, 0x1680),
        (0x2000, 0x200A),
        (0x2028, 0x2029),
        (0x202F, 0x202F),
        (0x205F, 0x205F),
        (0x3000, 0x3000),
        (0xFEFF, 0xFEFF),
    ]
)
_LINE_TERMINATORS = ((0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029))


# ---------------------------------------------------------------------------------------------
# Unicode properties.

# General_Category values (PropertyValueAliases.txt): every alias -> the two-letter categories.
_GC_GROUPS = {
    "C": ("Cc", "Cf", "Cn", "Co", "Cs"),
    "L": ("Ll", "Lm", "Lo", "Lt", "Lu"),
    "LC": ("Ll", "Lt", "Lu"),
    "M": ("Mc", "Me", "Mn"),
    "N": ("Nd", "Nl", "No"),
    "P": ("Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps"),
    "S": ("Sc", "Sk", "Sm", "So"),
    "Z": ("Zl", "Zp", "Zs"),
}
_GC_ALIASES = {
    "Other": "C",
    "Control": "Cc",
    "cntrl": "Cc",
    "Format": "Cf",
    "Unassigned": "Cn",
    "Private_Use": "Co",
    "Surrogate": "Cs",
    "Letter": "L",
    "Cased_Letter": "LC",
    "Lowercase_Letter": "Ll",
    "Modifier_Letter": "Lm",
    "Other_Letter": "Lo",
    "Titlecase_Letter": "Lt",
    "Uppercase_Letter": "Lu",
    "Mark": "M",
    "Combining_Mark": "M",
    "Spacing_Mark": "Mc",
    "Enclosing_Mark": "Me",
    "Nonspacing_Mark": "Mn",
    "Number": "N",
    "Decimal_Number": "Nd",
    "digit": "Nd",
    "Letter_Number": "Nl",
    "Other_Number": "No",
    "Punctuation": "P",
    "punct": "P",
    "Connector_Punctuation": "Pc",
    "Dash_Punctuation": "Pd",
    "Close_Punctuation": "Pe",
    "Final_Punctuation": "Pf",
    "Initial_Punctuation": "Pi",
    "Other_Punctuation": "Po",
    "Open_Punctuation": "Ps",
    "Symbol": "S",
    "Currency_Symbol": "Sc",
    "Modifier_Symbol": "Sk",
    "Math_Symbol": "Sm",
    "Other_Symbol": "So",
    "Separator": "Z",
    "Line_Separator": "Zl",
    "Paragraph_Separator": "Zp",
    "Space_Separator": "Zs",
}
_GC_LEAVES = frozenset(c for group in _GC_GROUPS.values() for c in group)

# Binary properties that can be computed exactly (fixed by definition or by Unicode's stability
# policies): canonical name -> ranges, or a callable for the ones derived from unicodedata.
_BINARY_FIXED = {
    "Any": _ALL,
    "ASCII": ((0, 0x7F),),
    "ASCII_Hex_Digit": ((0x30, 0x39), (0x41, 0x46), (0x61, 0x66)),
    "Hex_Digit": (
        (0x30, 0x39),
        (0x41, 0x46),
        (0x61, 0x66),
        (0xFF10, 0xFF19),
        (0xFF21, 0xFF26),
        (0xFF41, 0xFF46),
    ),
    "Pattern_White_Space": (
        (0x09, 0x0D),
        (0x20, 0x20),
        (0x85, 0x85),
        (0x200E, 0x200F),
        (0x2028, 0x2029),
    ),
    "White_Space": (
        (0x09, 0x0D),
        (0x20, 0x20),
        (0x85, 0x85),
        (0xA0, 0xA0),
        (0x1680, 0x1680),
        (0x2000, 0x200A),
        (0x2028, 0x2029),
        (0x202F, 0x202F),
        (0x205F, 0x205F),
        (0x3000, 0x3000),
    ),
    "Join_Control": ((0x200C, 0x200D),),
    "Regional_Indicator": ((0x1F1E6, 0x1F1FF),),
}
_BINARY_ALIASES = {
    "AHex": "ASCII_Hex_Digit",
    "Hex": "Hex_Digit",
    "Pat_WS": "Pattern_White_Space",
    "space": "White_Space",
    "Join_C": "Join_Control",
    "RI": "Regional_Indicator",
    "NChar": "Noncharacter_Code_Point",
}
# The remaining ECMA-262 binary properties: valid syntax, but not computable exactly here.
_BINARY_UNSUPPORTED = frozenset(
    "Alphabetic Alpha Bidi_Control Bidi_C Bidi_Mirrored Bidi_M Case_Ignorable CI Cased "
    "Changes_When_Casefolded CWCF Changes_When_Casemapped CWCM Changes_When_Lowercased CWL "
    "Changes_When_NFKC_Casefolded CWKCF Changes_When_Titlecased CWT Changes_When_Uppercased CWU "
    "Dash Default_Ignorable_Code_Point DI Deprecated Dep Diacritic Dia Emoji Emoji_Component "
    "EComp Emoji_Modifier EMod Emoji_Modifier_Base EBase Emoji_Presentation EPres "
    "Extended_Pictographic ExtPict Extender Ext Grapheme_Base Gr_Base Grapheme_Extend Gr_Ext "
    "IDS_Binary_Operator IDSB IDS_Trinary_Operator IDST IDS_Unary_Operator IDSU ID_Continue IDC "
    "ID_Start IDS Ideographic Ideo InCB Logical_Order_Exception LOE Lowercase Lower Math "
    "Pattern_Syntax Pat_Syn Quotation_Mark QMark Radical Sentence_Terminal STerm Soft_Dotted SD "
    "Terminal_Punctuation Term Unified_Ideograph UIdeo Uppercase Upper Variation_Selector VS "
    "XID_Continue XIDC XID_Start XIDS".split()
)
_STRING_PROPERTIES = frozenset(
    "Basic_Emoji Emoji_Keycap_Sequence RGI_Emoji_Modifier_Sequence RGI_Emoji_Flag_Sequence "
    "RGI_Emoji_Tag_Sequence RGI_Emoji_ZWJ_Sequence RGI_Emoji".split()
)


@functools.lru_cache(maxsize=1)
def _category_table() -> dict[str, _Ranges]:
    """Two-letter General_Category -> interval tuple, over all of 0..0x10FFFF (one pass)."""
    table: dict[str, list[tuple[int, int]]] = {}
    category = unicodedata.category
    prev = category("\x00")
    start = 0
    for cp in range(1, _MAX_CP + 1):
        cat = category(chr(cp))
        if cat != prev:
            table.setdefault(prev, []).append((start, cp - 1))
            prev, start = cat, cp
    table.setdefault(prev, []).append((start, _MAX_CP))
    return {cat: tuple(ranges) for cat, ranges in table.items()}


@functools.lru_cache(maxsize=64)
def _general_category(value: str) -> _Ranges:
    """Interval set of a General_Category value given by its short name (``L``, ``Lu``, ...)."""
    table = _category_table()
    leaves = _GC_GROUPS.get(value, (value,))
    return _normalize(r for leaf in leaves for r in table.get(leaf, ()))


@functools.lru_cache(maxsize=16)
def _binary_property(name: str) -> _Ranges:
    if name in _BINARY_FIXED:
        return _BINARY_FIXED[name]
    if name == "Assigned":
        return _complement(_general_category("Cn"))
    if name == "Noncharacter_Code_Point":
        ranges = [(0xFDD0, 0xFDEF)] + [
            (p + 0xFFFE, p + 0xFFFF) for p in range(0, 0x110000, 0x10000)
        ]
        return _normalize(ranges)
    raise KeyError(name)


def _gc_short(value: str) -> Optional[str]:
    if value in _GC_LEAVES or value in _GC_GROUPS:
        return value
    return _GC_ALIASES.get(value)


# ---------------------------------------------------------------------------------------------
# Syntax tree.


class _Lit:
    __slots__ = ("cp",)

    def __init__(self, cp: int):
        self.cp = cp


class _Set:
    __slots__ = ("ranges",)

    def __init__(self, ranges: _Ranges):
        self.ranges = ranges


class _Assert:
    __slots__ = ("kind",)  # "start", "end", "word", "nonword"

    def __init__(self, kind: str):
        self.kind = kind


class _Group:
    # kind: "capture", "group", "ahead", "nahead", "behind", "nbehind"
    __slots__ = ("kind", "body", "index", "name", "pos", "end")

    def __init__(self, kind: str, pos: int, index: int = 0, name: Optional[str] = None):
        self.kind = kind
        self.body: _Disjunction = []  # set once parsed
        self.index = index
        self.name = name
        self.pos = pos
        self.end = -1  # index of the closing parenthesis


class _Quant:
    __slots__ = ("atom", "min", "max", "lazy", "pos")

    def __init__(self, atom: _Term, lo: int, hi: Optional[int], lazy: bool, pos: int):
        self.atom = atom
        self.min = lo
        self.max = hi
        self.lazy = lazy
        self.pos = pos


class _Ref:
    __slots__ = ("number", "name", "pos", "out")

    def __init__(self, pos: int, number: int = 0, name: Optional[str] = None):
        self.number = number
        self.name = name
        self.pos = pos
        self.out: Optional[str] = None  # emitted text, decided by the analysis pass


# A disjunction is a list of alternatives; an alternative is a list of terms.
_Term = Union[_Lit, _Set, _Assert, _Group, _Quant, _Ref]
_Alternative = list[_Term]
_Disjunction = list[_Alternative]


# ---------------------------------------------------------------------------------------------
# Parser (ECMA-262 Pattern grammar with the [UnicodeMode] parameter).


class _Parser:
    def __init__(self, src: str):
        self.src = src
        self.n = len(src)
        self.pos = 0
        self.depth = 0
        self.groups: list[_Group] = []  # capturing groups, in order of their opening parenthesis
        self.names: dict[str, _Group] = {}
        self.refs: list[_Ref] = []

    # -- helpers --------------------------------------------------------------------------------

    def error(self, message: str, position: Optional[int] = None) -> NoReturn:
        raise RegexTranslationError(message, self.pos if position is None else position)

    def peek(self, offset: int = 0) -> str:
        i = self.pos + offset
        return self.src[i] if i < self.n else ""

    def code_point(self) -> int:
        """Consume one source code point (a surrogate pair in the source counts as one)."""
        o = ord(self.src[self.pos])
        self.pos += 1
        if 0xD800 <= o <= 0xDBFF and self.pos < self.n:
            o2 = ord(self.src[self.pos])
            if 0xDC00 <= o2 <= 0xDFFF:
                self.pos += 1
                return 0x10000 + ((o - 0xD800) << 10) + (o2 - 0xDC00)
        return o

    def hex_digits(self, count: int) -> Optional[int]:
        s = self.src[self.pos : self.pos + count]
        if len(s) == count and all(c in _HEX for c in s):
            return int(s, 16)
        return None

    # -- grammar ----------------------------------------------------------------------------------

    def parse(self) -> _Disjunction:
        body = self.disjunction()
        if self.pos < self.n:  # only a ")" can stop the top-level disjunction early
            self.error("unmatched ')'")
        return body

    def disjunction(self) -> _Disjunction:
        alternatives = [self.alternative()]
        while self.peek() == "|":
            self.pos += 1
            alternatives.append(self.alternative())
        return alternatives

    def alternative(self) -> _Alternative:
        terms: _Alternative = []
        while self.pos < self.n and self.src[self.pos] not in "|)":
            terms.append(self.term())
        return terms

    def term(self) -> _Term:
        start = self.pos
        c = self.src[self.pos]
        if c == "^" or c == "$":
            self.pos += 1
            return self.no_quantifier(_Assert("start" if c == "^" else "end"))
        if c == "\\" and self.peek(1) in ("b", "B"):
            self.pos += 2
            return self.no_quantifier(_Assert("word" if self.src[start + 1] == "b" else "nonword"))
        atom = self.atom()
        if isinstance(atom, _Group) and atom.kind in ("ahead", "nahead", "behind", "nbehind"):
            return self.no_quantifier(atom)
        quant = self.quantifier()
        if quant is None:
            return atom
        lo, hi, lazy = quant
        return _Quant(atom, lo, hi, lazy, start)

    def no_quantifier(self, node: _Term) -> _Term:
        if self.pos < self.n and self.src[self.pos] in "*+?{":
            if self.src[self.pos] == "{" and self.brace_quantifier(probe=True) is None:
                self.error("lone quantifier brackets")
            self.error("nothing to repeat (assertions cannot be quantified)")
        return node

    def quantifier(self) -> Optional[tuple[int, Optional[int], bool]]:
        c = self.peek()
        if c == "*":
            lo, hi = 0, _INF
            self.pos += 1
        elif c == "+":
            lo, hi = 1, _INF
            self.pos += 1
        elif c == "?":
            lo, hi = 0, 1
            self.pos += 1
        elif c == "{":
            start = self.pos
            parsed = self.brace_quantifier()
            if parsed is None:
                self.error("lone quantifier brackets", start)
            lo, hi = parsed
            if hi is not _INF and lo > hi:
                self.error("numbers out of order in {} quantifier", start)
            for bound in (lo, hi):
                if bound is not _INF and bound >= _maxrepeat():
                    self.error("quantifier bound too large for Python re", start)
        else:
            return None
        lazy = False
        if self.peek() == "?":
            lazy = True
            self.pos += 1
        return lo, hi, lazy

    def brace_quantifier(self, probe: bool = False) -> Optional[tuple[int, Optional[int]]]:
        """Parse ``{n}``, ``{n,}`` or ``{n,m}`` at ``pos``; None (nothing consumed) if not one."""
        i = self.pos + 1
        src, n = self.src, self.n
        j = i
        while j < n and src[j] in _DIGITS:
            j += 1
        if j == i:
            return None
        lo = _decimal(src[i:j])
        hi: Optional[int] = lo
        if j < n and src[j] == ",":
            k = j + 1
            j = k
            while j < n and src[j] in _DIGITS:
                j += 1
            hi = _decimal(src[k:j]) if j > k else _INF
        if j >= n or src[j] != "}":
            return None
        if not probe:
            self.pos = j + 1
        return lo, hi

    def atom(self) -> _Term:
        c = self.src[self.pos]
        if c == ".":
            self.pos += 1
            return _Set(_complement(_LINE_TERMINATORS))
        if c == "(":
            return self.group()
        if c == "[":
            return self.char_class()
        if c == "\\":
            return self.atom_escape()
        if c in "*+?":
            self.error("nothing to repeat")
        if c == "{":
            if self.brace_quantifier(probe=True) is not None:
                self.error("nothing to repeat")
            self.error("lone quantifier brackets")
        if c == "}" or c == "]":
            self.error(f"lone '{c}' (must be escaped in unicode mode)")
        return _Lit(self.code_point())

    def group(self) -> _Group:
        start = self.pos
        src = self.src
        if src.startswith("(?", start):
            c = self.peek(2)
            if c == ":":
                node = _Group("group", start)
                self.pos += 3
            elif c == "=" or c == "!":
                node = _Group("ahead" if c == "=" else "nahead", start)
                self.pos += 3
            elif c == "<" and self.peek(3) in ("=", "!"):
                node = _Group("behind" if self.peek(3) == "=" else "nbehind", start)
                self.pos += 4
            elif c == "<":
                self.pos += 3
                name = self.group_name()
                if name in self.names:
                    self.error(f"duplicate capture group name {name!r}", start)
                node = _Group("capture", start, len(self.groups) + 1, name)
                self.groups.append(node)
                self.names[name] = node
            elif c and c in "ims-":
                self.error(
                    "inline flags and pattern modifiers (?flags:...) are not supported", start
                )
            else:
                self.error("invalid group", start)
        else:
            self.pos += 1
            node = _Group("capture", start, len(self.groups) + 1)
            self.groups.append(node)
        self.depth += 1
        if self.depth > MAX_NESTING:
            self.error(f"groups nested more than {MAX_NESTING} deep", start)
        node.body = self.disjunction()
        self.depth -= 1
        if self.peek() != ")":
            self.error("unterminated group", start)
        node.end = self.pos
        self.pos += 1
        return node

    def group_name(self) -> str:
        """RegExpIdentifierName followed by '>' (the '<' is already consumed)."""
        chars: list[str] = []
        while True:
            if self.pos >= self.n:
                self.error("unterminated group name")
            at = self.pos
            if self.src[at] == ">":
                break
            if self.src[at] == "\\":
                self.pos += 1
                if self.peek() != "u":
                    self.error("invalid escape in group name", at)
                self.pos += 1
                cp = self.unicode_escape(at)
            else:
                cp = self.code_point()
            ch = chr(cp)
            if not chars:
                ok = ch in "$_" or ch.isidentifier()
            else:
                ok = ch in "$\u200c\u200d" or ("a" + ch).isidentifier()
            if not ok:
                self.error("invalid character in group name", at)
            chars.append(ch)
        if not chars:
            self.error("empty group name")
        self.pos += 1
        return "".join(chars)

    def unicode_escape(self, start: int) -> int:
        """After ``\\u``: ``XXXX`` (surrogate pairs ``\\uHHHH\\uLLLL`` combine) or ``{X...}``."""
        if self.peek() == "{":
            j = self.pos + 1
            while j < self.n and self.src[j] in _HEX:
                j += 1
            if j == self.pos + 1 or j >= self.n or self.src[j] != "}":
                self.error("invalid unicode escape", start)
            value = int(self.src[self.pos + 1 : j], 16)
            if value > _MAX_CP:
                self.error("unicode escape out of range", start)
            self.pos = j + 1
            return value
        unit = self.hex_digits(4)
        if unit is None:
            self.error("invalid unicode escape", start)
        self.pos += 4
        if 0xD800 <= unit <= 0xDBFF and self.src.startswith("\\u", self.pos):
            save = self.pos
            self.pos += 2
            low = self.hex_digits(4)
            if low is not None and 0xDC00 <= low <= 0xDFFF:
                self.pos += 4
                return 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            self.pos = save
        return unit

    def character_escape(self, start: int, in_class: bool) -> int:
        """CharacterEscape after the backslash (``start`` is the backslash's index); its callers
        have refused a backslash at the end of the pattern."""
        c = self.peek()
        self.pos += 1
        if c in _CONTROL_ESCAPES:
            return _CONTROL_ESCAPES[c]
        if c == "c":
            letter = self.peek()
            if letter and ("a" <= letter <= "z" or "A" <= letter <= "Z"):
                self.pos += 1
                return ord(letter) % 32
            self.error("invalid control escape \\c", start)
        if c == "0":
            if self.peek() in _DIGITS:
                self.error("invalid decimal escape (octal escapes are not allowed)", start)
            return 0
        if c == "x":
            value = self.hex_digits(2)
            if value is None:
                self.error("invalid \\x escape", start)
            self.pos += 2
            return value
        if c == "u":
            return self.unicode_escape(start)
        if c in _SYNTAX_CHARS or c == "/" or (in_class and c == "-"):
            return ord(c)
        if c in _DIGITS:  # (only in a class: outside one, atom_escape reads 1-9 as references)
            self.error("invalid decimal escape", start)
        shown = "\\" + c if c.isprintable() else "(backslash before U+%04X)" % ord(c)
        self.error(f"invalid escape {shown}", start)

    def class_escape_set(self, c: str, start: int) -> Optional[_Ranges]:
        """CharacterClassEscape after the backslash, or None if ``c`` does not start one."""
        ranges: _Ranges
        if c == "d":
            ranges = _DIGIT_SET
        elif c == "w":
            ranges = _WORD_SET
        elif c == "s":
            ranges = _SPACE_SET
        elif c in ("D", "W", "S"):
            self.pos += 1
            return _complement({"D": _DIGIT_SET, "W": _WORD_SET, "S": _SPACE_SET}[c])
        elif c in ("p", "P"):
            ranges = self.property_escape(start)
            return _complement(ranges) if c == "P" else ranges
        else:
            return None
        self.pos += 1
        return ranges

    def property_escape(self, start: int) -> _Ranges:
        self.pos += 1  # the p / P
        if self.peek() != "{":
            self.error("invalid property name (\\p needs {...})", start)
        j = self.pos + 1
        while j < self.n and self.src[j] != "}":
            j += 1
        if j >= self.n:
            self.error("invalid property name (unterminated \\p{...})", start)
        body = self.src[self.pos + 1 : j]
        self.pos = j + 1
        name, eq, value = body.partition("=")
        if eq:
            if not _is_property_token(name, digits=False) or not _is_property_token(
                value, digits=True
            ):
                self.error(f"invalid property name {body!r}", start)
            if name in ("General_Category", "gc"):
                short = _gc_short(value)
                if short is None:
                    self.error(f"invalid General_Category value {value!r}", start)
                return _general_category(short)
            if name in ("Script", "sc", "Script_Extensions", "scx"):
                self.error(
                    f"unicode property {name}={value} is not supported "
                    "(script data is not available in Python's unicodedata)",
                    start,
                )
            self.error(f"invalid property name {name!r}", start)
        if not _is_property_token(body, digits=True):
            self.error(f"invalid property name {body!r}", start)
        short = _gc_short(body)
        if short is not None:
            return _general_category(short)
        canonical = _BINARY_ALIASES.get(body, body)
        try:
            return _binary_property(canonical)
        except KeyError:
            pass
        if body in _BINARY_UNSUPPORTED:
            self.error(
                f"unicode property {body} is not supported "
                "(it cannot be computed exactly with Python's unicodedata)",
                start,
            )
        if body in _STRING_PROPERTIES:
            self.error(f"property of strings {body} needs the v flag", start)
        self.error(f"invalid property name {body!r}", start)

    def atom_escape(self) -> _Term:
        start = self.pos
        self.pos += 1
        c = self.peek()
        if c == "":
            self.error("\\ at end of pattern", start)
        if "1" <= c <= "9":
            j = self.pos
            while j < self.n and self.src[j] in _DIGITS:
                j += 1
            ref = _Ref(start, number=_decimal(self.src[self.pos : j]))
            self.pos = j
            self.refs.append(ref)
            return ref
        if c == "k":
            self.pos += 1
            if self.peek() != "<":
                self.error("invalid named reference (\\k needs <name>)", start)
            self.pos += 1
            ref = _Ref(start, name=self.group_name())
            self.refs.append(ref)
            return ref
        ranges = self.class_escape_set(c, start)
        if ranges is not None:
            return _Set(ranges)
        return _Lit(self.character_escape(start, in_class=False))

    def class_atom(self) -> tuple[Optional[int], _Ranges, int]:
        """One ClassAtom: returns (code point or None, interval set, start index)."""
        start = self.pos
        if self.src[start] != "\\":
            cp = self.code_point()
            return cp, ((cp, cp),), start
        self.pos += 1
        c = self.peek()
        if c == "b":
            self.pos += 1
            return 0x08, ((0x08, 0x08),), start
        if c == "":
            self.error("\\ at end of pattern", start)
        ranges = self.class_escape_set(c, start)
        if ranges is not None:
            return None, ranges, start
        if c in ("B", "k"):
            self.error(f"invalid escape \\{c} in character class", start)
        cp = self.character_escape(start, in_class=True)
        return cp, ((cp, cp),), start

    def char_class(self) -> _Set:
        start = self.pos
        self.pos += 1
        negate = False
        if self.peek() == "^":
            negate = True
            self.pos += 1
        parts: list[tuple[int, int]] = []
        while True:
            if self.pos >= self.n:
                self.error("unterminated character class", start)
            if self.src[self.pos] == "]":
                self.pos += 1
                break
            lo_cp, lo_set, lo_at = self.class_atom()
            if self.peek() == "-" and self.peek(1) not in ("]", ""):
                self.pos += 1
                hi_cp, hi_set, hi_at = self.class_atom()
                if lo_cp is None or hi_cp is None:
                    self.error(
                        "invalid character class range (a class escape cannot be a range end)",
                        lo_at if lo_cp is None else hi_at,
                    )
                if lo_cp > hi_cp:
                    self.error("range out of order in character class", lo_at)
                parts.append((lo_cp, hi_cp))
            else:
                parts.extend(lo_set)
        ranges = _normalize(parts)
        return _Set(_complement(ranges) if negate else ranges)


def _decimal(digits: str) -> int:
    """int() of an ASCII digit string of any length (int() alone refuses very long strings)."""
    value = 0
    for k in range(0, len(digits), 1000):
        chunk = digits[k : k + 1000]
        value = value * 10 ** len(chunk) + int(chunk)
    return value


def _is_property_token(s: str, digits: bool) -> bool:
    if not s:
        return False
    for c in s:
        if not ("a" <= c <= "z" or "A" <= c <= "Z" or c == "_" or (digits and "0" <= c <= "9")):
            return False
    return True


@functools.lru_cache(maxsize=1)
def _maxrepeat() -> int:
    """Python's repeat-count limit (counts must stay below it): 2**32-1 on CPython."""
    import importlib

    try:
        constants = importlib.import_module("re._constants")  # Python >= 3.11
    except ImportError:  # pragma: no cover - older Pythons
        constants = importlib.import_module("sre_constants")
    return int(constants.MAXREPEAT)


# ---------------------------------------------------------------------------------------------
# Analysis: resolve back-references and check what Python cannot express.


class _Analysis:
    def __init__(self, parser: _Parser):
        self.p = parser
        self.group_info: dict[int, tuple[bool, tuple[int, ...]]] = (
            {}
        )  # index -> (tainted, negative look-around ids)
        self.ref_info: dict[int, tuple[bool, tuple[int, ...]]] = (
            {}
        )  # id(ref) -> (in look-behind, negative look-around ids)
        self.lookbehinds: list[_Group] = []

    def run(self, body: _Disjunction) -> None:
        self.walk_disjunction(body, False, False, False, ())
        p = self.p
        total = len(p.groups)
        for ref in p.refs:
            if ref.name is not None:
                group = p.names.get(ref.name)
                if group is None:
                    p.error(f"reference to undefined group name {ref.name!r}", ref.pos)
            else:
                if ref.number > total:
                    p.error(
                        f"back-reference \\{ref.number if ref.number < 10**9 else '...'} to a "
                        "non-existent group "
                        f"(the pattern has {total})",
                        ref.pos,
                    )
                group = p.groups[ref.number - 1]
            in_behind, ref_negs = self.ref_info[id(ref)]
            if in_behind:
                p.error("back-references inside look-behind cannot be translated exactly", ref.pos)
            tainted, group_negs = self.group_info[group.index]
            if group.end > ref.pos or not set(group_negs) <= set(ref_negs):
                # Evaluated before the group closes, or the group sits in a negative look-around
                # the reference is outside of: the capture is always undefined -> empty match.
                ref.out = "(?:)"
                continue
            if tainted:
                p.error(
                    "back-reference to a group inside a repeated atom that may not participate "
                    "in every iteration (ECMA clears captures on each iteration, Python does not)",
                    ref.pos,
                )
            ref.number = group.index
        for node in self.lookbehinds:
            lo, hi = _width(node.body)
            if lo != hi:
                p.error("look-behind must have a fixed width in Python re", node.pos)

    def walk_disjunction(
        self,
        alternatives: _Disjunction,
        in_loop: bool,
        tainted: bool,
        in_behind: bool,
        negs: tuple[int, ...],
    ) -> None:
        if in_loop and len(alternatives) > 1:
            tainted = True
        for terms in alternatives:
            for term in terms:
                self.walk(term, in_loop, tainted, in_behind, negs)

    def walk(
        self, node: _Term, in_loop: bool, tainted: bool, in_behind: bool, negs: tuple[int, ...]
    ) -> None:
        if isinstance(node, _Quant):
            if in_loop and node.min == 0:
                tainted = True
            if node.max is _INF or node.max > 1:
                in_loop = True
                if _term_width(node.atom)[0] == 0:
                    # ECMA rejects an empty iteration once the minimum is reached; Python runs
                    # one, which can overwrite captures inside it with empty strings.
                    tainted = True
            self.walk(node.atom, in_loop, tainted, in_behind, negs)
        elif isinstance(node, _Group):
            kind = node.kind
            if kind in ("nahead", "nbehind"):
                negs = negs + (id(node),)
                if in_loop:
                    tainted = True
            if kind in ("behind", "nbehind"):
                in_behind = True
                self.lookbehinds.append(node)
            if kind == "capture":
                self.group_info[node.index] = (tainted, negs)
            self.walk_disjunction(node.body, in_loop, tainted, in_behind, negs)
        elif isinstance(node, _Ref):
            self.ref_info[id(node)] = (in_behind, negs)


def _width(alternatives: _Disjunction) -> tuple[int, Optional[int]]:
    """(min, max) width in code points of a disjunction; max is None when unbounded."""
    lo_all: Optional[int] = None
    hi_all: Optional[int] = 0
    for terms in alternatives:
        lo = 0
        hi: Optional[int] = 0
        for term in terms:
            tlo, thi = _term_width(term)
            lo += tlo
            hi = None if hi is None or thi is None else hi + thi
        lo_all = lo if lo_all is None else min(lo_all, lo)
        hi_all = None if hi_all is None or hi is None else max(hi_all, hi)
    return (lo_all or 0), hi_all


def _term_width(node: _Term) -> tuple[int, Optional[int]]:
    if isinstance(node, (_Lit, _Set)):
        return 1, 1
    if isinstance(node, _Assert):
        return 0, 0
    if isinstance(node, _Group):
        if node.kind in ("capture", "group"):
            return _width(node.body)
        return 0, 0
    if isinstance(node, _Quant):
        lo, hi = _term_width(node.atom)
        if hi == 0:
            return 0, 0
        if hi is None or node.max is _INF:
            return lo * node.min, None
        return lo * node.min, hi * node.max
    return 0, None  # back-reference: unknown width


# ---------------------------------------------------------------------------------------------
# Emitter.


def _escape_cp(cp: int) -> str:
    if cp < 0x80:
        if 0x30 <= cp <= 0x39 or 0x41 <= cp <= 0x5A or 0x61 <= cp <= 0x7A or cp == 0x5F:
            return chr(cp)
        if 0x21 <= cp <= 0x7E:
            return "\\" + chr(cp)
        return "\\x%02x" % cp
    if cp <= 0xFFFF:
        return "\\u%04x" % cp
    return "\\U%08x" % cp


def _class_body(ranges: _Ranges) -> str:
    out = []
    for lo, hi in ranges:
        if lo == hi:
            out.append(_escape_cp(lo))
        elif hi == lo + 1:
            out.append(_escape_cp(lo) + _escape_cp(hi))
        else:
            out.append(_escape_cp(lo) + "-" + _escape_cp(hi))
    return "".join(out)


def _emit_set(ranges: _Ranges) -> str:
    if not ranges:
        return "[^\\x00-\\U0010ffff]"  # matches nothing, but is still a quantifiable atom
    if len(ranges) == 1 and ranges[0][0] == ranges[0][1]:
        return _escape_cp(ranges[0][0])
    complement = _complement(ranges)
    if complement and len(complement) < len(ranges):
        return "[^" + _class_body(complement) + "]"
    return "[" + _class_body(ranges) + "]"


_WORD = "[0-9A-Z_a-z]"
_ASSERTIONS = {
    "start": "\\A",
    "end": "\\Z",
    "word": f"(?:(?<={_WORD})(?!{_WORD})|(?<!{_WORD})(?={_WORD}))",
    "nonword": f"(?:(?<={_WORD})(?={_WORD})|(?<!{_WORD})(?!{_WORD}))",
}
_GROUP_OPEN = {"group": "(?:", "ahead": "(?=", "nahead": "(?!", "behind": "(?<=", "nbehind": "(?<!"}


class _Emitter:
    def __init__(self, parser: _Parser):
        self.py_names: dict[int, str] = {}
        used = {g.name for g in parser.groups if g.name is not None and _plain_name(g.name)}
        needed = {ref.number for ref in parser.refs if ref.out is None and ref.number >= 100}
        for g in parser.groups:
            if g.name is not None and _plain_name(g.name):
                self.py_names[g.index] = g.name
            elif g.name is not None or g.index in needed:
                synthetic = f"_g{g.index}"
                while synthetic in used:
                    synthetic = "_" + synthetic
                used.add(synthetic)
                self.py_names[g.index] = synthetic

    def disjunction(self, alternatives: _Disjunction) -> str:
        return "|".join("".join(self.term(t) for t in terms) for terms in alternatives)

    def term(self, node: _Term) -> str:
        if isinstance(node, _Lit):
            return _escape_cp(node.cp)
        if isinstance(node, _Set):
            return _emit_set(node.ranges)
        if isinstance(node, _Assert):
            return _ASSERTIONS[node.kind]
        if isinstance(node, _Group):
            if node.kind == "capture":
                name = self.py_names.get(node.index)
                head = f"(?P<{name}>" if name is not None else "("
            else:
                head = _GROUP_OPEN[node.kind]
            return head + self.disjunction(node.body) + ")"
        if isinstance(node, _Ref):
            if node.out is not None:
                return node.out
            n = node.number
            inner = f"\\{n}" if n < 100 else f"(?P={self.py_names[n]})"
            return f"(?({n}){inner})"
        if isinstance(node, _Quant):
            atom = self.term(node.atom)
            if node.min == 0 and node.max is _INF:
                q = "*"
            elif node.min == 1 and node.max is _INF:
                q = "+"
            elif node.min == 0 and node.max == 1:
                q = "?"
            elif node.max is _INF:
                q = "{%d,}" % node.min
            elif node.min == node.max:
                q = "{%d}" % node.min
            else:
                q = "{%d,%d}" % (node.min, node.max)
            return atom + q + ("?" if node.lazy else "")
        raise AssertionError(f"unexpected node {node!r}")  # pragma: no cover


def _plain_name(name: str) -> bool:
    return name.isascii() and name.isidentifier()


# ---------------------------------------------------------------------------------------------
# Public API.


class ParsedPattern(NamedTuple):
    """The checked syntax tree of a pattern, for analyses beside the translation (risk.py,
    nfa.py): ``body`` is the top-level disjunction (a list of alternatives, each a list of
    ``_Lit``/``_Set``/``_Assert``/``_Group``/``_Quant``/``_Ref`` terms) and ``groups`` the
    capturing groups in order.  Back-references are resolved as :func:`translate` emits them:
    ``ref.out`` is ``"(?:)"`` for one that always matches empty, else ``ref.number`` is the
    index of its group.  ``parser`` is the parser that built it (the emitter reads it)."""

    body: _Disjunction
    groups: list[_Group]
    parser: "_Parser"


def parse(pattern: str) -> ParsedPattern:
    """Parse and check ``pattern`` as :func:`translate` does (same errors), without emitting.

    The result is shared: the planners, the guard and the emitter each parse the same pattern,
    and none of them changes the nodes (only the analysis, inside the parse, writes to them)."""
    if not isinstance(pattern, str):
        raise TypeError(f"pattern must be a str, not {type(pattern).__name__}")
    return _parse(pattern)


@functools.lru_cache(maxsize=512)
def _parse(pattern: str) -> ParsedPattern:
    parser = _Parser(pattern)
    body = parser.parse()
    _Analysis(parser).run(body)
    return ParsedPattern(body, parser.groups, parser)


def translate(pattern: str) -> str:
    """ECMA-262 (u-mode) pattern source -> Python ``re`` pattern source with the same meaning
    when used with ``re.compile(result).search(s)``.

    The result is ASCII-only.  Raises :class:`RegexTranslationError` for anything that is not
    valid ECMA-262 u-mode syntax or that cannot be expressed exactly in Python ``re``.
    """
    parsed = parse(pattern)
    return _Emitter(parsed.parser).disjunction(parsed.body)


@functools.lru_cache(maxsize=256)
def compile_pattern(pattern: str) -> "re.Pattern[str]":
    """:func:`translate` then :func:`re.compile`; any ``re.error`` (or overflow/recursion
    failure inside Python's compiler) becomes :class:`RegexTranslationError`."""
    source = translate(pattern)
    try:
        return re.compile(source)
    except re.error as exc:
        raise RegexTranslationError(f"Python re rejected the translation: {exc.msg}", 0) from None
    except (OverflowError, RecursionError) as exc:  # pragma: no cover - defensive
        raise RegexTranslationError(
            f"Python re could not compile the translation: {exc}", 0
        ) from None


if __name__ == "__main__":  # pragma: no cover - manual use: python -m generator.regex PATTERN
    for _arg in sys.argv[1:]:
        print(translate(_arg))
