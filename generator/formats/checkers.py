"""The `format` and content checkers whose source is copied into generated modules.

One function per format, ``_format_<name>(s: str) -> bool`` (``-`` in a name becomes ``_``), and
one per content encoding or media type, ``_content_<name>``. The generated module calls a checker
only on a ``str``; every other value passes ``format`` untouched.

Like generator/primitives.py, the emitter copies the source of the functions a module needs (see
``generator.formats.sources``): each function may use only the standard-library imports at the top
of this file and the other top-level names defined here, and every top-level name starts with
``_format_``, ``_content_``, ``_fmt_`` or ``_FMT_`` so that it cannot clash with a name of the
emitter. Dependencies between names are read from the source (``ast``), never listed by hand.

Every checker runs in time linear in the length of its input: the regular expressions below have
no nested or overlapping quantifiers that can backtrack (each repetition and alternative can be
taken one way only; tests/formats/test_checkers_portable.py checks them with generator/regex's
risk analysis), and nothing Python 3.10 lacks (possessive quantifiers, atomic groups: the copied
code runs on 3.10 like the rest of a module). The few steps that are not linear
(Punycode, per-label context rules) run only on labels already known to be at most 63 characters.
The rules, and every choice where the official test suite leaves one, are in docs/formats.md.
"""

from __future__ import annotations

import binascii as _binascii
import json as _json
import re as _re
import unicodedata as _unicodedata
from bisect import bisect_right as _bisect_right

# ---------------------------------------------------------------------------------------------
# RFC 3339 dates, times and durations.

_FMT_DATE_RE = _re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_FMT_TIME_RE = _re.compile(
    r"([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]+)?(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))"
)
_FMT_DATE_TIME_RE = _re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]"
    r"([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]+)?(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))"
)
# Days in each month of a common year (index 0 unused).
_FMT_MONTH_DAYS = (0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
# RFC 3339 appendix A: the date part is Y[M[D]] or M[D] or D; the time part H[M[S]] or M[S] or S.
_FMT_DURATION_RE = _re.compile(
    r"P(?:"
    r"(?:[0-9]+Y(?:[0-9]+M(?:[0-9]+D)?)?|[0-9]+M(?:[0-9]+D)?|[0-9]+D)"
    r"(?:T(?:[0-9]+H(?:[0-9]+M(?:[0-9]+S)?)?|[0-9]+M(?:[0-9]+S)?|[0-9]+S))?"
    r"|T(?:[0-9]+H(?:[0-9]+M(?:[0-9]+S)?)?|[0-9]+M(?:[0-9]+S)?|[0-9]+S)"
    r"|[0-9]+W)"
)


def _fmt_valid_date(year: int, month: int, day: int) -> bool:
    """RFC 3339 date-month 01-12 and date-mday 01-28/29/30/31 (appendix C leap years)."""
    if month < 1 or month > 12 or day < 1:
        return False
    if month == 2 and year % 4 == 0 and (year % 100 != 0 or year % 400 == 0):
        return day <= 29
    return day <= _FMT_MONTH_DAYS[month]


def _fmt_valid_time(
    hour: int, minute: int, second: int, sign: str | None, off_hour: int, off_minute: int
) -> bool:
    """RFC 3339 partial-time and time-offset ranges; a leap second (second 60) only where the
    time is 23:59 in UTC."""
    if hour > 23 or minute > 59 or second > 60 or off_hour > 23 or off_minute > 59:
        return False
    if second == 60:
        total = hour * 60 + minute
        if sign == "+":
            total -= off_hour * 60 + off_minute
        elif sign == "-":
            total += off_hour * 60 + off_minute
        return total % 1440 == 1439
    return True


def _format_date(s: str) -> bool:
    """RFC 3339 full-date (YYYY-MM-DD)."""
    m = _FMT_DATE_RE.fullmatch(s)
    return m is not None and _fmt_valid_date(int(m[1]), int(m[2]), int(m[3]))


def _format_time(s: str) -> bool:
    """RFC 3339 full-time: partial-time with a required offset (Z or +hh:mm / -hh:mm)."""
    m = _FMT_TIME_RE.fullmatch(s)
    if m is None:
        return False
    sign = m[4]
    return _fmt_valid_time(
        int(m[1]), int(m[2]), int(m[3]), sign, int(m[5]) if sign else 0, int(m[6]) if sign else 0
    )


def _format_date_time(s: str) -> bool:
    """RFC 3339 date-time: full-date "T" full-time (T and Z in either case)."""
    m = _FMT_DATE_TIME_RE.fullmatch(s)
    if m is None or not _fmt_valid_date(int(m[1]), int(m[2]), int(m[3])):
        return False
    sign = m[7]
    return _fmt_valid_time(
        int(m[4]), int(m[5]), int(m[6]), sign, int(m[8]) if sign else 0, int(m[9]) if sign else 0
    )


def _format_duration(s: str) -> bool:
    """RFC 3339 appendix A duration (ISO 8601 durations without fractions or signs)."""
    return _FMT_DURATION_RE.fullmatch(s) is not None


# ---------------------------------------------------------------------------------------------
# UUID (RFC 4122 / RFC 9562): the hyphenated hex form, any version and variant.

_FMT_UUID_RE = _re.compile(
    r"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}"
)


def _format_uuid(s: str) -> bool:
    """RFC 9562 section 4: 8-4-4-4-12 hex digits, either case."""
    return _FMT_UUID_RE.fullmatch(s) is not None


# ---------------------------------------------------------------------------------------------
# JSON pointers (RFC 6901) and relative JSON pointers (draft-handrews-relative-json-pointer-01).

# A "~" that does not start "~0" or "~1".
_FMT_BAD_TILDE_RE = _re.compile(r"~(?![01])")
_FMT_RELATIVE_POINTER_RE = _re.compile(r"(?:0|[1-9][0-9]*)(#?)")


def _format_json_pointer(s: str) -> bool:
    """RFC 6901: empty, or "/" reference tokens in which "~" is only "~0" or "~1"."""
    if not s:
        return True
    return s[0] == "/" and _FMT_BAD_TILDE_RE.search(s) is None


def _format_relative_json_pointer(s: str) -> bool:
    """A non-negative integer (no leading zeros), then "#" or a JSON pointer (maybe empty)."""
    m = _FMT_RELATIVE_POINTER_RE.match(s)
    if m is None:
        return False
    rest = s[m.end() :]
    if m[1]:
        return not rest
    return not rest or (rest[0] == "/" and _FMT_BAD_TILDE_RE.search(rest) is None)


# ---------------------------------------------------------------------------------------------
# IP addresses.

_FMT_IPV4_RE = _re.compile(
    r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"
    r"(?:\.(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}"
)
_FMT_IPV6_CHARS_RE = _re.compile(r"[0-9A-Fa-f:.]{2,45}")
_FMT_HEX_GROUP_RE = _re.compile(r"[0-9A-Fa-f]{1,4}")


def _format_ipv4(s: str) -> bool:
    """RFC 2673 dotted-quad: four decimal octets 0-255, without leading zeros."""
    return _FMT_IPV4_RE.fullmatch(s) is not None


def _format_ipv6(s: str) -> bool:
    """RFC 4291 section 2.2 text forms: eight 1-4 digit hex groups, one "::" at most, and a
    dotted-quad IPv4 address as the last 32 bits; no zone id, no prefix length, no brackets."""
    if _FMT_IPV6_CHARS_RE.fullmatch(s) is None:
        return False
    if "." in s:
        last = s.rfind(":")
        if last < 0 or _FMT_IPV4_RE.fullmatch(s, last + 1) is None:
            return False
        s = s[: last + 1] + "0:0"  # the IPv4 address stands for two groups
    halves = s.split("::")
    if len(halves) > 2:
        return False
    groups = [g for half in halves if half for g in half.split(":")]
    for group in groups:
        if _FMT_HEX_GROUP_RE.fullmatch(group) is None:
            return False
    if len(halves) == 2:
        return len(groups) <= 7
    return len(groups) == 8


# ---------------------------------------------------------------------------------------------
# Host names: RFC 1123 section 2.1 labels, and IDNA 2008 (RFC 5890-5893) for A-labels and
# internationalized names. Unicode data comes from unicodedata, computed per code point on first
# use and cached; only the Joining_Type values (not in unicodedata) are a table.

_FMT_LDH_NAME_RE = _re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)(?:\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*")
# RFC 5892 appendix B.1 exceptions (section 2.6): PVALID 1, CONTEXTO 3, DISALLOWED 0.
_FMT_IDNA_EXCEPTIONS = {
    0x00DF: 1,
    0x03C2: 1,
    0x06FD: 1,
    0x06FE: 1,
    0x0F0B: 1,
    0x3007: 1,
    0x00B7: 3,
    0x0375: 3,
    0x05F3: 3,
    0x05F4: 3,
    0x30FB: 3,
    0x0660: 3,
    0x0661: 3,
    0x0662: 3,
    0x0663: 3,
    0x0664: 3,
    0x0665: 3,
    0x0666: 3,
    0x0667: 3,
    0x0668: 3,
    0x0669: 3,
    0x06F0: 3,
    0x06F1: 3,
    0x06F2: 3,
    0x06F3: 3,
    0x06F4: 3,
    0x06F5: 3,
    0x06F6: 3,
    0x06F7: 3,
    0x06F8: 3,
    0x06F9: 3,
    0x0640: 0,
    0x07FA: 0,
    0x302E: 0,
    0x302F: 0,
    0x3031: 0,
    0x3032: 0,
    0x3033: 0,
    0x3034: 0,
    0x3035: 0,
    0x303B: 0,
}
# Default_Ignorable_Code_Point characters whose General_Category would otherwise make them PVALID
# (RFC 5892 section 2.3, IgnorableProperties); the other ignorables are Cf, Zs or Cn anyway.
_FMT_IDNA_IGNORABLE = frozenset(
    [0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180F, 0x3164, 0xFFA0]
    + list(range(0xFE00, 0xFE10))
    + list(range(0xE0100, 0xE01F0))
)
# Per-character caches stop growing at this size (hostile input cannot make them large).
_FMT_CACHE_LIMIT = 4096
_FMT_IDNA_CLASS_CACHE: dict[str, int] = {}
# Joining_Type (Unicode 17.0 ArabicShaping.txt) of every code point whose type is not the default
# one, as "start[-end]:type" in hex: the default is T for General_Category Mn, Me and Cf (as
# unicodedata gives it) and U otherwise. Only RFC 5892's ZERO WIDTH NON-JOINER rule reads them.
_FMT_JOINING_TYPES = (
    "600-605:U 620:D 622-625:R 626:D 627:R 628:D 629:R 62a-62e:D 62f-632:R 633-63f:D 640:C "
    "641-647:D 648:R 649-64a:D 66e-66f:D 671-673:R 675-677:R 678-687:D 688-699:R 69a-6bf:D "
    "6c0:R 6c1-6c2:D 6c3-6cb:R 6cc:D 6cd:R 6ce:D 6cf:R 6d0-6d1:D 6d2-6d3:R 6d5:R 6dd:U "
    "6ee-6ef:R 6fa-6fc:D 6ff:D 710:R 712-714:D 715-719:R 71a-71d:D 71e:R 71f-727:D 728:R 729:D "
    "72a:R 72b:D 72c:R 72d-72e:D 72f:R 74d:R 74e-758:D 759-75b:R 75c-76a:D 76b-76c:R 76d-770:D "
    "771:R 772:D 773-774:R 775-777:D 778-779:R 77a-77f:D 7ca-7ea:D 7fa:C 840:R 841-845:D "
    "846-847:R 848:D 849:R 84a-853:D 854:R 855:D 856-858:R 860:D 862-865:D 867:R 868:D "
    "869-86a:R 870-882:R 883-885:C 886:D 889-88d:D 88e:R 88f:D 890-891:U 897:T 8a0-8a9:D "
    "8aa-8ac:R 8ae:R 8af-8b0:D 8b1-8b2:R 8b3-8b8:D 8b9:R 8ba-8c8:D 8e2:U ece:T 1807:D 180a:C "
    "180e:U 1820-1878:D 1887-18a8:D 18aa:D 1acf-1add:T 1ae0-1aeb:T 200c:U 200d:C 2066-2069:U "
    "a840-a871:D a872:L 10ac0-10ac4:D 10ac5:R 10ac7:R 10ac9-10aca:R 10acd:L 10ace-10ad2:R "
    "10ad3-10ad6:D 10ad7:L 10ad8-10adc:D 10add:R 10ade-10ae0:D 10ae1:R 10ae4:R 10aeb-10aee:D "
    "10aef:R 10b80:D 10b81:R 10b82:D 10b83-10b85:R 10b86-10b88:D 10b89:R 10b8a-10b8b:D 10b8c:R "
    "10b8d:D 10b8e-10b8f:R 10b90:D 10b91:R 10ba9-10bac:R 10bad-10bae:D 10d00:L 10d01-10d21:D "
    "10d22:R 10d23:D 10d69-10d6d:T 10ec2:R 10ec3-10ec4:D 10ec6-10ec7:D 10efa-10eff:T "
    "10f30-10f32:D 10f33:R 10f34-10f44:D 10f51-10f53:D 10f54:R 10f70-10f73:D 10f74-10f75:R "
    "10f76-10f81:D 10fb0:D 10fb2-10fb3:D 10fb4-10fb6:R 10fb8:D 10fb9-10fba:R 10fbb-10fbc:D "
    "10fbd:R 10fbe-10fbf:D 10fc1:D 10fc2-10fc3:R 10fc4:D 10fc9:R 10fca:D 10fcb:L 110bd:U "
    "110cd:U 11241:T 113bb-113c0:T 113ce:T 113d0:T 113d2:T 113e1-113e2:T 1171e:U 11b60:T "
    "11b62-11b64:T 11b66:T 11f00-11f01:T 11f36-11f3a:T 11f40:T 11f42:T 11f5a:T 13439-13440:T "
    "13447-13455:T 1611e-16129:T 1612d-1612f:T 1e08f:T 1e4ec-1e4ef:T 1e5ee-1e5ef:T 1e6e3:T "
    "1e6e6:T 1e6ee-1e6ef:T 1e6f5:T 1e900-1e943:D 1e94b:T"
)
_FMT_JOINING_TABLE: list[tuple[list[int], list[int], list[str]]] = []
# Scripts of RFC 5892's context rules, read from character names (unicodedata.name): the prefix
# of the name of every PVALID letter or mark of that script, and the code points whose names
# do not say their script.
_FMT_SCRIPT_PREFIXES = {
    "Greek": ("GREEK ",),
    "Hebrew": ("HEBREW ",),
    "Hiragana": ("HIRAGANA ", "HENTAIGANA "),
    "Katakana": ("KATAKANA ",),
    "Han": ("CJK UNIFIED IDEOGRAPH-", "CJK COMPATIBILITY IDEOGRAPH-"),
}
_FMT_SCRIPT_EXTRA = {
    0x30FB: "",
    0x3005: "Han",
    0x3007: "Han",
    0x16FE3: "Han",
    0x16FF0: "Han",
    0x16FF1: "Han",
}
_FMT_SCRIPT_CACHE: dict[str, str] = {}
# IDNA 2008 label separators (RFC 3490 section 3.1, which RFC 5891 section 5.2 leaves to
# applications): FULL STOP, IDEOGRAPHIC FULL STOP, FULLWIDTH FULL STOP, HALFWIDTH IDEOGRAPHIC
# FULL STOP.
_FMT_IDN_DOTS_RE = _re.compile("[\u3002\uff0e\uff61]")
_FMT_WIDTH_RE = _re.compile("[\u3000\uff00-\uffef]")
_FMT_BIDI_RTL = frozenset(("R", "AL", "AN"))
_FMT_BIDI_RTL_ALLOWED = frozenset(("R", "AL", "AN", "EN", "ES", "CS", "ET", "ON", "BN", "NSM"))
_FMT_BIDI_LTR_ALLOWED = frozenset(("L", "EN", "ES", "CS", "ET", "ON", "BN", "NSM"))


def _fmt_idna_class(c: str) -> int:
    """RFC 5892 derived property of one character: 1 PVALID, 2 CONTEXTJ, 3 CONTEXTO, 0 otherwise
    (DISALLOWED or UNASSIGNED), computed from unicodedata (section 3) and cached."""
    cached = _FMT_IDNA_CLASS_CACHE.get(c)
    if cached is not None:
        return cached
    cp = ord(c)
    value = _FMT_IDNA_EXCEPTIONS.get(cp)
    if value is None:
        category = _unicodedata.category(c)
        if category == "Cn" or category == "Cs":
            value = 0
        elif cp < 0x80:
            value = 1 if c in "abcdefghijklmnopqrstuvwxyz0123456789-" else 0
        elif cp == 0x200C or cp == 0x200D:
            value = 2
        elif _unicodedata.normalize("NFKC", _unicodedata.normalize("NFKC", c).casefold()) != c:
            value = 0  # Unstable
        elif (
            cp in _FMT_IDNA_IGNORABLE
            or 0x20D0 <= cp <= 0x20FF
            or 0x1D100 <= cp <= 0x1D24F
            or 0x1100 <= cp <= 0x11FF
            or 0xA960 <= cp <= 0xA97F
            or 0xD7B0 <= cp <= 0xD7FF
        ):
            value = 0  # IgnorableProperties, IgnorableBlocks, OldHangulJamo
        elif category in ("Ll", "Lu", "Lo", "Nd", "Lm", "Mn", "Mc"):
            value = 1  # LetterDigits
        else:
            value = 0
    if len(_FMT_IDNA_CLASS_CACHE) < _FMT_CACHE_LIMIT:
        _FMT_IDNA_CLASS_CACHE[c] = value
    return value


def _fmt_joining_type(c: str) -> str:
    """Unicode Joining_Type of a character: one of D, R, L, C, T, U."""
    if not _FMT_JOINING_TABLE:
        starts: list[int] = []
        ends: list[int] = []
        kinds: list[str] = []
        for item in _FMT_JOINING_TYPES.split():
            span, kind = item.split(":")
            first, _, last = span.partition("-")
            starts.append(int(first, 16))
            ends.append(int(last or first, 16))
            kinds.append(kind)
        _FMT_JOINING_TABLE.append((starts, ends, kinds))
    starts, ends, kinds = _FMT_JOINING_TABLE[0]
    cp = ord(c)
    at = _bisect_right(starts, cp) - 1
    if at >= 0 and cp <= ends[at]:
        return kinds[at]
    return "T" if _unicodedata.category(c) in ("Mn", "Me", "Cf") else "U"


def _fmt_script(c: str) -> str:
    """The script of a character, as far as RFC 5892's rules ask: Greek, Hebrew, Hiragana,
    Katakana, Han, or "" for any other."""
    cached = _FMT_SCRIPT_CACHE.get(c)
    if cached is not None:
        return cached
    script = _FMT_SCRIPT_EXTRA.get(ord(c))
    if script is None:
        script = ""
        name = _unicodedata.name(c, "")
        for candidate, prefixes in _FMT_SCRIPT_PREFIXES.items():
            if name.startswith(prefixes):
                script = candidate
                break
    if len(_FMT_SCRIPT_CACHE) < _FMT_CACHE_LIMIT:
        _FMT_SCRIPT_CACHE[c] = script
    return script


def _fmt_contextj_ok(label: str, i: int) -> bool:
    """RFC 5892 appendix A.1 (ZERO WIDTH NON-JOINER) and A.2 (ZERO WIDTH JOINER) at label[i]."""
    if i > 0 and _unicodedata.combining(label[i - 1]) == 9:  # after a Virama
        return True
    if label[i] == "\u200d":
        return False
    before = i - 1
    while before >= 0 and _fmt_joining_type(label[before]) == "T":
        before -= 1
    if before < 0 or _fmt_joining_type(label[before]) not in ("L", "D"):
        return False
    after = i + 1
    while after < len(label) and _fmt_joining_type(label[after]) == "T":
        after += 1
    return after < len(label) and _fmt_joining_type(label[after]) in ("R", "D")


def _fmt_contexto_ok(label: str, i: int) -> bool:
    """RFC 5892 appendix A.3-A.9, the CONTEXTO rules, at label[i]."""
    c = label[i]
    if c == "\u00b7":  # MIDDLE DOT: between two "l"
        return 0 < i < len(label) - 1 and label[i - 1] == "l" and label[i + 1] == "l"
    if c == "\u0375":  # GREEK LOWER NUMERAL SIGN (KERAIA): before a Greek character
        return i < len(label) - 1 and _fmt_script(label[i + 1]) == "Greek"
    if c == "\u05f3" or c == "\u05f4":  # HEBREW GERESH, GERSHAYIM: after a Hebrew character
        return i > 0 and _fmt_script(label[i - 1]) == "Hebrew"
    if c == "\u30fb":  # KATAKANA MIDDLE DOT: with a Hiragana, Katakana or Han character
        for other in label:
            if _fmt_script(other) in ("Hiragana", "Katakana", "Han"):
                return True
        return False
    if "\u0660" <= c <= "\u0669":  # ARABIC-INDIC DIGITS: not with EXTENDED ARABIC-INDIC
        for other in label:
            if "\u06f0" <= other <= "\u06f9":
                return False
        return True
    for other in label:  # EXTENDED ARABIC-INDIC DIGITS: not with ARABIC-INDIC
        if "\u0660" <= other <= "\u0669":
            return False
    return True


def _fmt_ulabel_ok(label: str) -> bool:
    """RFC 5891 section 5.4 checks of one label of at most 63 code points: NFC, hyphens (section
    4.2.3.1), no leading combining mark (4.2.3.2), and every code point PVALID or allowed by its
    context rule (4.2.3.3, 4.2.2). Bidi is checked over the whole name (_fmt_bidi_ok)."""
    if not label or len(label) > 63:
        return False
    if label[0] == "-" or label[-1] == "-" or label[2:4] == "--":
        return False
    if _unicodedata.category(label[0])[0] == "M":
        return False
    if not label.isascii() and _unicodedata.normalize("NFC", label) != label:
        return False
    for i, c in enumerate(label):
        value = _fmt_idna_class(c)
        if value == 1:
            continue
        if value == 2:
            if not _fmt_contextj_ok(label, i):
                return False
        elif value == 3:
            if not _fmt_contexto_ok(label, i):
                return False
        else:
            return False
    return True


def _fmt_bidi_ok(labels: list[str]) -> bool:
    """RFC 5893 section 2: in a name with any R, AL or AN character, every label satisfies the
    six Bidi rules."""
    bidirectional = _unicodedata.bidirectional
    if not any(bidirectional(c) in _FMT_BIDI_RTL for label in labels for c in label):
        return True
    for label in labels:
        classes = [bidirectional(c) for c in label]
        first = classes[0]
        while classes and classes[-1] == "NSM":
            classes.pop()
        if not classes:
            return False
        last = classes[-1]
        if first == "R" or first == "AL":
            if not set(classes) <= _FMT_BIDI_RTL_ALLOWED:  # rule 2
                return False
            if last not in ("R", "AL", "EN", "AN"):  # rule 3
                return False
            if "EN" in classes and "AN" in classes:  # rule 4
                return False
        elif first == "L":
            if not set(classes) <= _FMT_BIDI_LTR_ALLOWED:  # rule 5
                return False
            if last not in ("L", "EN"):  # rule 6
                return False
        else:  # rule 1
            return False
    return True


def _fmt_alabel_decode(label: str) -> str | None:
    """The U-label of an A-label ("xn--" and Punycode, any case), or None if the label is not a
    valid A-label: the Punycode must decode, hold a non-ASCII character, and encode back to the
    same text (RFC 5890 section 2.3.2.1, RFC 5891 section 5.4)."""
    payload = label[4:].lower()
    if len(label) > 63 or not payload.isascii():
        return None
    try:
        decoded = payload.encode("ascii").decode("punycode")
        if decoded.isascii() or decoded.encode("punycode").decode("ascii") != payload:
            return None
    except (UnicodeError, ValueError, OverflowError):
        return None
    return decoded


def _fmt_alabel_length(label: str, exact: bool) -> int:
    """The length of the A-label of a non-ASCII U-label, or (unless `exact`) an upper bound of
    it when that bound is at most 63: Punycode writes each non-ASCII code point as one delta
    below 64 * 0x110000, in digits of base 10 at least, so in at most 9 characters."""
    basic = len(label.encode("ascii", "ignore"))
    bound = 4 + basic + (1 if basic else 0) + 9 * (len(label) - basic)
    if bound <= 63 and not exact:
        return bound
    return 4 + len(label.encode("punycode"))


def _fmt_idn_labels_ok(labels: list[str]) -> bool:
    """IDNA 2008 validity of the labels of a name whose every label is an NR-LDH label, an
    A-label, or a U-label: the label rules, the Bidi rule, and the 63-octet A-label limit."""
    ulabels = []
    for label in labels:
        if label.isascii():
            if label[:4].lower() == "xn--":
                decoded = _fmt_alabel_decode(label)
                if decoded is None or not _fmt_ulabel_ok(decoded):
                    return False
                ulabels.append(decoded)
                continue
            if (
                not label
                or len(label) > 63
                or label[0] == "-"
                or label[-1] == "-"
                or label[2:4] == "--"
                or _FMT_LDH_NAME_RE.fullmatch(label) is None
            ):
                return False
            ulabels.append(label)
        else:
            if len(label) > 59 or not _fmt_ulabel_ok(label):
                return False
            if _fmt_alabel_length(label, False) > 63:
                return False
            ulabels.append(label)
    return _fmt_bidi_ok(ulabels)


def _format_hostname_rfc1034(s: str) -> bool:
    """Drafts 4 and 6: RFC 1034 section 3.1 as RFC 1123 section 2.1 relaxes it: labels of 1-63
    letters, digits and hyphens, not starting or ending with a hyphen, at most 253 in all."""
    return len(s) <= 253 and _FMT_LDH_NAME_RE.fullmatch(s) is not None


def _format_hostname(s: str) -> bool:
    """Draft 7 on: RFC 1123 host names, where a label with "--" in its third and fourth places
    must be a valid A-label (RFC 5890 section 2.3.1, RFC 5891 section 4.4)."""
    if len(s) > 253 or _FMT_LDH_NAME_RE.fullmatch(s) is None:
        return False
    if "--" not in s:
        return True
    labels = s.split(".")
    for label in labels:
        if label[2:4] == "--":
            return _fmt_idn_labels_ok(labels)
    return True


def _fmt_idn_map(s: str) -> str:
    """RFC 5895 section 2 mapping, before IDNA 2008 validation: lower case, the <wide> and
    <narrow> characters (U+3000 and U+FF00-U+FFEF) to their decompositions, NFC, and the label
    separators to "."."""
    s = s.lower()
    if s.isascii():
        return s
    if _FMT_WIDTH_RE.search(s) is not None:
        mapped = []
        for c in s:
            decomposition = _unicodedata.decomposition(c)
            if decomposition.startswith(("<wide>", "<narrow>")):  # one code point each
                c = chr(int(decomposition.split()[1], 16))
            mapped.append(c)
        s = "".join(mapped)
    return _FMT_IDN_DOTS_RE.sub(".", _unicodedata.normalize("NFC", s))


def _format_idn_hostname(s: str) -> bool:
    """RFC 5890-5893 (IDNA 2008) internationalized host names, after the RFC 5895 mapping: each
    label an NR-LDH label, an A-label or a U-label, the Bidi rule over the name, at most 63
    octets per label and 253 in all in A-label form."""
    name = _fmt_idn_map(s)
    if not name or len(name) > 253:
        return False
    labels = name.split(".")
    if "" in labels:
        return False
    if name.isascii() and "--" not in name:
        return len(name) <= 253 and _FMT_LDH_NAME_RE.fullmatch(name) is not None
    if not _fmt_idn_labels_ok(labels):
        return False
    for exact in (False, True):  # the bounds first; the Punycode only when they are too long
        total = len(labels) - 1
        for label in labels:
            total += len(label) if label.isascii() else _fmt_alabel_length(label, exact)
        if total <= 253:
            return True
    return False


# ---------------------------------------------------------------------------------------------
# E-mail addresses: RFC 5321 section 4.1.2 Mailbox (RFC 6531 section 3.3 for idn-email).

_FMT_EMAIL_RE = _re.compile(
    r"(?:[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
    r'|"(?:[ !#-\[\]-~]|\\[ -~])*")@([^@]+)'
)
_FMT_IDN_EMAIL_RE = _re.compile(
    r"(?:[A-Za-z0-9!#$%&'*+/=?^_`{|}~\x80-\U0010ffff-]+"
    r"(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~\x80-\U0010ffff-]+)*"
    r'|"(?:[ !#-\[\]-~\x80-\U0010ffff]|\\[ -~])*")@([^@]+)'
)


def _fmt_email_literal_ok(domain: str) -> bool:
    """An RFC 5321 address literal: "[" IPv4 address "]" or "[IPv6:" IPv6 address "]"."""
    if domain[0] != "[" or domain[-1] != "]":
        return False
    literal = domain[1:-1]
    if literal[:5].lower() == "ipv6:":
        return _format_ipv6(literal[5:])
    return _format_ipv4(literal)


def _format_email(s: str) -> bool:
    """RFC 5321 Mailbox: a dot-string or quoted-string local part of at most 64 octets, "@",
    and a host name or an IPv4 / "IPv6:" address literal."""
    if len(s) > 320:  # 64 octets, "@", and at most 255 for any domain this accepts
        return False
    m = _FMT_EMAIL_RE.fullmatch(s)
    if m is None or m.start(1) > 65:
        return False
    domain = m[1]
    return _fmt_email_literal_ok(domain) if domain[0] == "[" else _format_hostname(domain)


def _format_idn_email(s: str) -> bool:
    """RFC 6531: the Mailbox of RFC 5321 where the local part may hold any non-ASCII character
    and the domain is an internationalized host name (idn-hostname)."""
    m = _FMT_IDN_EMAIL_RE.fullmatch(s)
    if m is None:
        return False
    local = s[: m.start(1) - 1]
    if len(local) > 64:
        return False
    try:
        if len(local.encode("utf-8")) > 64:
            return False
    except UnicodeError:  # a lone surrogate
        return False
    domain = m[1]
    return _fmt_email_literal_ok(domain) if domain[0] == "[" else _format_idn_hostname(domain)


# ---------------------------------------------------------------------------------------------
# URIs (RFC 3986) and IRIs (RFC 3987).

# RFC 3986 appendix B: scheme, authority, path, query, fragment (always matches).
_FMT_URI_SPLIT_RE = _re.compile(
    r"(?:([^:/?#]+):)?(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?", _re.DOTALL
)
_FMT_SCHEME_RE = _re.compile(r"[A-Za-z][A-Za-z0-9+.-]*")
_FMT_PORT_RE = _re.compile(r"[0-9]*")
_FMT_IPVFUTURE_RE = _re.compile(r"[vV][0-9A-Fa-f]+\.[A-Za-z0-9._~!$&'()*+,;=:-]+")
# unreserved / pct-encoded / sub-delims, plus the extra characters each part admits.
_FMT_URI_USERINFO_RE = _re.compile(r"(?:[A-Za-z0-9._~!$&'()*+,;=:-]|%[0-9A-Fa-f]{2})*")
_FMT_URI_REG_NAME_RE = _re.compile(r"(?:[A-Za-z0-9._~!$&'()*+,;=-]|%[0-9A-Fa-f]{2})*")
_FMT_URI_PATH_RE = _re.compile(r"(?:[A-Za-z0-9._~!$&'()*+,;=:@/-]|%[0-9A-Fa-f]{2})*")
_FMT_URI_QUERY_RE = _re.compile(r"(?:[A-Za-z0-9._~!$&'()*+,;=:@/?-]|%[0-9A-Fa-f]{2})*")
# The same with RFC 3987 ucschar (and iprivate in the query); _FMT_IRI_EXCLUDED_RE takes out the
# code points of these ranges that are neither.
_FMT_IRI_USERINFO_RE = _re.compile(
    "(?:[A-Za-z0-9._~!$&'()*+,;=:\u00a0-\ud7ff\uf900-\ufdcf\ufdf0-\uffef"
    "\U00010000-\U000efffd-]|%[0-9A-Fa-f]{2})*"
)
_FMT_IRI_REG_NAME_RE = _re.compile(
    "(?:[A-Za-z0-9._~!$&'()*+,;=\u00a0-\ud7ff\uf900-\ufdcf\ufdf0-\uffef"
    "\U00010000-\U000efffd-]|%[0-9A-Fa-f]{2})*"
)
_FMT_IRI_PATH_RE = _re.compile(
    "(?:[A-Za-z0-9._~!$&'()*+,;=:@/\u00a0-\ud7ff\uf900-\ufdcf\ufdf0-\uffef"
    "\U00010000-\U000efffd-]|%[0-9A-Fa-f]{2})*"
)
_FMT_IRI_FRAGMENT_RE = _re.compile(
    "(?:[A-Za-z0-9._~!$&'()*+,;=:@/?\u00a0-\ud7ff\uf900-\ufdcf\ufdf0-\uffef"
    "\U00010000-\U000efffd-]|%[0-9A-Fa-f]{2})*"
)
_FMT_IRI_QUERY_RE = _re.compile(
    "(?:[A-Za-z0-9._~!$&'()*+,;=:@/?\u00a0-\ud7ff\ue000-\ufdcf\ufdf0-\uffef"
    "\U00010000-\U0010fffd-]|%[0-9A-Fa-f]{2})*"
)
# Code points of the last two ranges that are not ucschar / iprivate: the last two code points
# of every plane, and E0000-E0FFF.
_FMT_IRI_EXCLUDED_RE = _re.compile(
    "[\U0001fffe\U0001ffff\U0002fffe\U0002ffff\U0003fffe\U0003ffff\U0004fffe\U0004ffff"
    "\U0005fffe\U0005ffff\U0006fffe\U0006ffff\U0007fffe\U0007ffff\U0008fffe\U0008ffff"
    "\U0009fffe\U0009ffff\U000afffe\U000affff\U000bfffe\U000bffff\U000cfffe\U000cffff"
    "\U000dfffe\U000dffff\U000e0000-\U000e0fff\U000efffe\U000effff\U000ffffe\U000fffff]"
)
# The common shape of a URI, scheme://reg-name[:port][/path][?query][#fragment], in one pass;
# anything else goes through _fmt_uri_parts_ok.
_FMT_URI_FAST_RE = _re.compile(
    r"[A-Za-z][A-Za-z0-9+.-]*://(?:[A-Za-z0-9._~!$&'()*+,;=-]|%[0-9A-Fa-f]{2})*(?::[0-9]*)?"
    r"(?:/(?:[A-Za-z0-9._~!$&'()*+,;=:@/-]|%[0-9A-Fa-f]{2})*)?"
    r"(?:\?(?:[A-Za-z0-9._~!$&'()*+,;=:@/?-]|%[0-9A-Fa-f]{2})*)?"
    r"(?:#(?:[A-Za-z0-9._~!$&'()*+,;=:@/?-]|%[0-9A-Fa-f]{2})*)?"
)
# userinfo, reg-name, path, query, fragment
_FMT_URI_PARTS = (
    _FMT_URI_USERINFO_RE,
    _FMT_URI_REG_NAME_RE,
    _FMT_URI_PATH_RE,
    _FMT_URI_QUERY_RE,
    _FMT_URI_QUERY_RE,
)
_FMT_IRI_PARTS = (
    _FMT_IRI_USERINFO_RE,
    _FMT_IRI_REG_NAME_RE,
    _FMT_IRI_PATH_RE,
    _FMT_IRI_QUERY_RE,
    _FMT_IRI_FRAGMENT_RE,
)


def _fmt_uri_parts_ok(s: str, absolute: bool, parts: tuple[_re.Pattern[str], ...]) -> bool:
    """RFC 3986 section 4.1 URI-reference, with `parts` the patterns of userinfo, reg-name, path,
    query and fragment (those of RFC 3987 for an IRI-reference); with `absolute`, a URI (a
    scheme is required)."""
    userinfo_re, reg_name_re, path_re, query_re, fragment_re = parts
    m = _FMT_URI_SPLIT_RE.match(s)  # the whole of s (see _FMT_URI_SPLIT_RE)
    if m is None:
        return False
    scheme, authority, path, query, fragment = m.groups()
    if scheme is None:
        if absolute:
            return False
        # relative-ref: the first segment of a path-noscheme has no ":"
        if ":" in path.partition("/")[0]:
            return False
    elif _FMT_SCHEME_RE.fullmatch(scheme) is None:
        return False
    if path_re.fullmatch(path) is None:
        return False
    if query is not None and query_re.fullmatch(query) is None:
        return False
    if fragment is not None and fragment_re.fullmatch(fragment) is None:
        return False
    if authority is None:
        return True
    userinfo, at, hostport = authority.rpartition("@")
    if at and userinfo_re.fullmatch(userinfo) is None:
        return False
    if hostport[:1] == "[":
        close = hostport.find("]")
        if close < 0:
            return False
        literal = hostport[1:close]
        port = hostport[close + 1 :]
        if port and port[0] != ":":
            return False
        if not _format_ipv6(literal) and _FMT_IPVFUTURE_RE.fullmatch(literal) is None:
            return False
        return _FMT_PORT_RE.fullmatch(port[1:]) is not None
    host, _, port = hostport.partition(":")
    return reg_name_re.fullmatch(host) is not None and _FMT_PORT_RE.fullmatch(port) is not None


def _format_uri(s: str) -> bool:
    """RFC 3986 section 3 URI: scheme ":" hier-part ["?" query] ["#" fragment]."""
    if _FMT_URI_FAST_RE.fullmatch(s) is not None:
        return True
    return s.isascii() and _fmt_uri_parts_ok(s, True, _FMT_URI_PARTS)


def _format_uri_reference(s: str) -> bool:
    """RFC 3986 section 4.1 URI-reference: a URI or a relative reference."""
    if _FMT_URI_FAST_RE.fullmatch(s) is not None:
        return True
    return s.isascii() and _fmt_uri_parts_ok(s, False, _FMT_URI_PARTS)


def _format_iri(s: str) -> bool:
    """RFC 3987 section 2.2 IRI: a URI that may also hold ucschar (iprivate in the query)."""
    if _FMT_URI_FAST_RE.fullmatch(s) is not None:
        return True
    if not s.isascii() and _FMT_IRI_EXCLUDED_RE.search(s) is not None:
        return False
    return _fmt_uri_parts_ok(s, True, _FMT_IRI_PARTS)


def _format_iri_reference(s: str) -> bool:
    """RFC 3987 section 2.2 IRI-reference."""
    if _FMT_URI_FAST_RE.fullmatch(s) is not None:
        return True
    if not s.isascii() and _FMT_IRI_EXCLUDED_RE.search(s) is not None:
        return False
    return _fmt_uri_parts_ok(s, False, _FMT_IRI_PARTS)


# ---------------------------------------------------------------------------------------------
# URI templates (RFC 6570 section 2, level 4).

_FMT_URI_TEMPLATE_RE = _re.compile(
    "(?:[!#$&'()*+,\\-./0-9:;=?@A-Z\\[\\]_a-z~\u00a0-\ud7ff\ue000-\ufdcf\ufdf0-\uffef"
    "\U00010000-\U0010fffd]|%[0-9A-Fa-f]{2}"
    r"|\{[+#./;?&=,!@|]?"
    r"(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*(?::[1-9][0-9]{0,3}|\*)?"
    r"(?:,(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*(?::[1-9][0-9]{0,3}|\*)?)*"
    r"\})*"
)


def _format_uri_template(s: str) -> bool:
    """RFC 6570 URI Template: literals (ucschar, iprivate, pct-encoded and the ASCII the grammar
    allows, the apostrophe included as the suite requires) and level-4 expressions."""
    if _FMT_URI_TEMPLATE_RE.fullmatch(s) is None:
        return False
    return s.isascii() or _FMT_IRI_EXCLUDED_RE.search(s) is None


# ---------------------------------------------------------------------------------------------
# ECMA-262 regular expressions (the u-mode grammar, section 22.2.1), checked without compiling.

_FMT_REGEX_SYNTAX = "^$\\.*+?()[]{}|/"
_FMT_REGEX_QUANTIFIER_RE = _re.compile(r"\{([0-9]+)(?:(,)([0-9]*))?\}")
_FMT_HEX4_RE = _re.compile(r"[0-9A-Fa-f]{4}")
_FMT_HEX2_RE = _re.compile(r"[0-9A-Fa-f]{2}")
_FMT_REGEX_CONTROL = {"f": 12, "n": 10, "r": 13, "t": 9, "v": 11}
# General_Category values (long names, short names and aliases).
_FMT_REGEX_GC = frozenset(
    "C Other Cc Control cntrl Cf Format Cn Unassigned Co Private_Use Cs Surrogate L Letter LC "
    "Cased_Letter Ll Lowercase_Letter Lm Modifier_Letter Lo Other_Letter Lt Titlecase_Letter Lu "
    "Uppercase_Letter M Mark Combining_Mark Mc Spacing_Mark Me Enclosing_Mark Mn Nonspacing_Mark "
    "N Number Nd Decimal_Number digit Nl Letter_Number No Other_Number P Punctuation punct Pc "
    "Connector_Punctuation Pd Dash_Punctuation Pe Close_Punctuation Pf Final_Punctuation Pi "
    "Initial_Punctuation Po Other_Punctuation Ps Open_Punctuation S Symbol Sc Currency_Symbol Sk "
    "Modifier_Symbol Sm Math_Symbol So Other_Symbol Z Separator Zl Line_Separator Zp "
    "Paragraph_Separator Zs Space_Separator".split()
)
# ECMA-262 table-binary-unicode-properties (names and aliases).
_FMT_REGEX_BINARY = frozenset(
    "ASCII ASCII_Hex_Digit AHex Alphabetic Alpha Any Assigned Bidi_Control Bidi_C Bidi_Mirrored "
    "Bidi_M Case_Ignorable CI Cased Changes_When_Casefolded CWCF Changes_When_Casemapped CWCM "
    "Changes_When_Lowercased CWL Changes_When_NFKC_Casefolded CWKCF Changes_When_Titlecased CWT "
    "Changes_When_Uppercased CWU Dash Default_Ignorable_Code_Point DI Deprecated Dep Diacritic "
    "Dia Emoji Emoji_Component EComp Emoji_Modifier EMod Emoji_Modifier_Base EBase "
    "Emoji_Presentation EPres Extended_Pictographic ExtPict Extender Ext Grapheme_Base Gr_Base "
    "Grapheme_Extend Gr_Ext Hex_Digit Hex IDS_Binary_Operator IDSB IDS_Trinary_Operator IDST "
    "IDS_Unary_Operator IDSU ID_Continue IDC ID_Start IDS Ideographic Ideo Join_Control Join_C "
    "Logical_Order_Exception LOE Lowercase Lower Math Noncharacter_Code_Point NChar "
    "Pattern_Syntax Pat_Syn Pattern_White_Space Pat_WS Quotation_Mark QMark Radical "
    "Regional_Indicator RI Sentence_Terminal STerm Soft_Dotted SD Terminal_Punctuation Term "
    "Unified_Ideograph UIdeo Uppercase Upper Variation_Selector VS White_Space space "
    "XID_Continue XIDC XID_Start XIDS".split()
)
# Script values (PropertyValueAliases.txt of Unicode 14.0, and the scripts of 15.0 and 16.0).
_FMT_REGEX_SCRIPTS = frozenset(
    "Adlm Adlam Aghb Caucasian_Albanian Ahom Arab Arabic Armi Imperial_Aramaic Armn Armenian Avst "
    "Avestan Bali Balinese Bamu Bamum Bass Bassa_Vah Batk Batak Beng Bengali Bhks Bhaiksuki Bopo "
    "Bopomofo Brah Brahmi Brai Braille Bugi Buginese Buhd Buhid Cakm Chakma Cans "
    "Canadian_Aboriginal Cari Carian Cham Cher Cherokee Chrs Chorasmian Copt Coptic Qaac Cpmn "
    "Cypro_Minoan Cprt Cypriot Cyrl Cyrillic Deva Devanagari Diak Dives_Akuru Dogr Dogra Dsrt "
    "Deseret Dupl Duployan Egyp Egyptian_Hieroglyphs Elba Elbasan Elym Elymaic Ethi Ethiopic Geor "
    "Georgian Glag Glagolitic Gong Gunjala_Gondi Gonm Masaram_Gondi Goth Gothic Gran Grantha Grek "
    "Greek Gujr Gujarati Guru Gurmukhi Hang Hangul Hani Han Hano Hanunoo Hatr Hatran Hebr Hebrew "
    "Hira Hiragana Hluw Anatolian_Hieroglyphs Hmng Pahawh_Hmong Hmnp Nyiakeng_Puachue_Hmong Hrkt "
    "Katakana_Or_Hiragana Hung Old_Hungarian Ital Old_Italic Java Javanese Kali Kayah_Li Kana "
    "Katakana Khar Kharoshthi Khmr Khmer Khoj Khojki Kits Khitan_Small_Script Knda Kannada Kthi "
    "Kaithi Lana Tai_Tham Laoo Lao Latn Latin Lepc Lepcha Limb Limbu Lina Linear_A Linb Linear_B "
    "Lisu Lyci Lycian Lydi Lydian Mahj Mahajani Maka Makasar Mand Mandaic Mani Manichaean Marc "
    "Marchen Medf Medefaidrin Mend Mende_Kikakui Merc Meroitic_Cursive Mero Meroitic_Hieroglyphs "
    "Mlym Malayalam Modi Mong Mongolian Mroo Mro Mtei Meetei_Mayek Mult Multani Mymr Myanmar Nand "
    "Nandinagari Narb Old_North_Arabian Nbat Nabataean Newa Nkoo Nko Nshu Nushu Ogam Ogham Olck "
    "Ol_Chiki Orkh Old_Turkic Orya Oriya Osge Osage Osma Osmanya Ougr Old_Uyghur Palm Palmyrene "
    "Pauc Pau_Cin_Hau Perm Old_Permic Phag Phags_Pa Phli Inscriptional_Pahlavi Phlp "
    "Psalter_Pahlavi Phnx Phoenician Plrd Miao Prti Inscriptional_Parthian Rjng Rejang Rohg "
    "Hanifi_Rohingya Runr Runic Samr Samaritan Sarb Old_South_Arabian Saur Saurashtra Sgnw "
    "SignWriting Shaw Shavian Shrd Sharada Sidd Siddham Sind Khudawadi Sinh Sinhala Sogd Sogdian "
    "Sogo Old_Sogdian Sora Sora_Sompeng Soyo Soyombo Sund Sundanese Sylo Syloti_Nagri Syrc Syriac "
    "Tagb Tagbanwa Takr Takri Tale Tai_Le Talu New_Tai_Lue Taml Tamil Tang Tangut Tavt Tai_Viet "
    "Telu Telugu Tfng Tifinagh Tglg Tagalog Thaa Thaana Thai Tibt Tibetan Tirh Tirhuta Tnsa Tangsa "
    "Toto Ugar Ugaritic Vaii Vai Vith Vithkuqi Wara Warang_Citi Wcho Wancho Xpeo Old_Persian Xsux "
    "Cuneiform Yezi Yezidi Yiii Yi Zanb Zanabazar_Square Zinh Inherited Qaai Zyyy Common Zzzz "
    "Unknown Kawi Nagm Nag_Mundari Gara Garay Gukh Gurung_Khema Krai Kirat_Rai Onao Ol_Onal Sunu "
    "Sunuwar Todr Todhri Tutg Tulu_Tigalari".split()
)


def _fmt_regex_property_ok(body: str) -> bool:
    """The inside of \\p{...}: a General_Category value or binary property, or gc=, sc=, scx=."""
    name, eq, value = body.partition("=")
    if not eq:
        return name in _FMT_REGEX_GC or name in _FMT_REGEX_BINARY
    if name == "General_Category" or name == "gc":
        return value in _FMT_REGEX_GC
    if name in ("Script", "sc", "Script_Extensions", "scx"):
        return value in _FMT_REGEX_SCRIPTS
    return False


def _fmt_regex_unicode_escape(s: str, i: int) -> tuple[int, int]:
    """A RegExpUnicodeEscapeSequence after "\\u" at s[i]: (end, code point), or (-1, 0)."""
    if s[i : i + 1] == "{":
        close = s.find("}", i + 1)
        digits = s[i + 1 : close]
        if close < 0 or not digits or digits.strip("0123456789abcdefABCDEF"):
            return -1, 0
        digits = digits.lstrip("0") or "0"
        if len(digits) > 6 or int(digits, 16) > 0x10FFFF:
            return -1, 0
        return close + 1, int(digits, 16)
    if _FMT_HEX4_RE.fullmatch(s, i, i + 4) is None:
        return -1, 0
    value = int(s[i : i + 4], 16)
    if (
        0xD800 <= value <= 0xDBFF
        and s[i + 4 : i + 6] == "\\u"
        and _FMT_HEX4_RE.fullmatch(s, i + 6, i + 10)
    ):
        low = int(s[i + 6 : i + 10], 16)
        if 0xDC00 <= low <= 0xDFFF:
            return i + 10, 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
    return i + 4, value


def _fmt_regex_escape(s: str, i: int, in_class: bool) -> tuple[int, int]:
    """The escape after a backslash at s[i - 1] (not a back-reference or \\k): (end, code point),
    code point -1 for a class escape (\\d, \\p{..}, ...), end -1 when invalid."""
    if i >= len(s):
        return -1, 0
    c = s[i]
    if c in "dDsSwW":
        return i + 1, -1
    if c == "p" or c == "P":
        close = s.find("}", i + 2)
        if s[i + 1 : i + 2] != "{" or close < 0 or not _fmt_regex_property_ok(s[i + 2 : close]):
            return -1, 0
        return close + 1, -1
    if c in "fnrtv":
        return i + 1, _FMT_REGEX_CONTROL[c]
    if c == "c":
        if i + 1 < len(s) and s[i + 1].isascii() and s[i + 1].isalpha():
            return i + 2, ord(s[i + 1]) % 32
        return -1, 0
    if c == "0":
        if i + 1 < len(s) and s[i + 1] in "0123456789":
            return -1, 0
        return i + 1, 0
    if c == "x":
        if _FMT_HEX2_RE.fullmatch(s, i + 1, i + 3) is None:
            return -1, 0
        return i + 3, int(s[i + 1 : i + 3], 16)
    if c == "u":
        return _fmt_regex_unicode_escape(s, i + 1)
    if c in _FMT_REGEX_SYNTAX or (in_class and c == "-"):
        return i + 1, ord(c)
    if in_class and c == "b":
        return i + 1, 8
    return -1, 0


def _fmt_regex_class(s: str, i: int) -> int:
    """A character class whose "[" is at s[i - 1]: the index after its "]", or -1."""
    n = len(s)
    if i < n and s[i] == "^":
        i += 1
    while i < n and s[i] != "]":
        i, low = _fmt_regex_class_atom(s, i)
        if i < 0:
            return -1
        if i + 1 < n and s[i] == "-" and s[i + 1] != "]":
            i, high = _fmt_regex_class_atom(s, i + 1)
            if i < 0 or low < 0 or high < 0 or low > high:
                return -1
    return i + 1 if i < n else -1


def _fmt_regex_class_atom(s: str, i: int) -> tuple[int, int]:
    """One ClassAtom at s[i]: (end, code point), code point -1 for a class escape."""
    c = s[i]
    if c != "\\":
        # (code points, not surrogate literals: mypyc refuses those in a native module)
        if 0xD800 <= ord(c) <= 0xDBFF and i + 1 < len(s) and 0xDC00 <= ord(s[i + 1]) <= 0xDFFF:
            return i + 2, 0x10000 + ((ord(c) - 0xD800) << 10) + (ord(s[i + 1]) - 0xDC00)
        return i + 1, ord(c)
    return _fmt_regex_escape(s, i + 1, True)


def _fmt_regex_group_name(s: str, i: int) -> tuple[int, str]:
    """A RegExpIdentifierName and its ">" at s[i]: (end, name), or (-1, "")."""
    close = s.find(">", i)
    if close <= i:
        return -1, ""
    raw = s[i:close]
    name = []
    j = 0
    while j < len(raw):
        if raw[j] == "\\":
            if raw[j + 1 : j + 2] != "u":
                return -1, ""
            end, value = _fmt_regex_unicode_escape(raw, j + 2)
            if end < 0 or 0xD800 <= value <= 0xDFFF:
                return -1, ""
            name.append(chr(value))
            j = end
        else:
            name.append(raw[j])
            j += 1
    for k, c in enumerate(name):
        if c == "$" or c == "_" or (k > 0 and c in "\u200c\u200d"):
            continue
        if not (c if k == 0 else "a" + c).isidentifier():
            return -1, ""
    return close + 1, "".join(name)


def _format_regex(s: str) -> bool:
    """ECMA-262 (u flag) Pattern syntax with its early errors: balanced groups, valid escapes,
    quantifiers only after atoms and with min <= max, ordered class ranges without class escapes,
    back-references to existing groups, unique group names, known \\p{...} properties."""
    n = len(s)
    i = 0
    open_groups: list[bool] = []  # per open group: is it a look-around (not quantifiable)
    groups = 0
    names: set[str] = set()
    named_refs: list[str] = []
    max_ref = 0
    atom = False  # whether the last term can take a quantifier
    while i < n:
        c = s[i]
        if c == "\\":
            if i + 1 < n and s[i + 1] in "123456789":
                j = i + 1
                while j < n and s[j] in "0123456789":
                    j += 1
                max_ref = max(max_ref, int(s[i + 1 : j]) if j - i < 12 else 1 << 40)
                i, atom = j, True
            elif s[i + 1 : i + 2] == "k":
                if s[i + 2 : i + 3] != "<":
                    return False
                i, name = _fmt_regex_group_name(s, i + 3)
                if i < 0:
                    return False
                named_refs.append(name)
                atom = True
            elif s[i + 1 : i + 2] in ("b", "B"):
                i, atom = i + 2, False
            else:
                i, _ = _fmt_regex_escape(s, i + 1, False)
                if i < 0:
                    return False
                atom = True
        elif c == "[":
            i = _fmt_regex_class(s, i + 1)
            if i < 0:
                return False
            atom = True
        elif c == "(":
            lookaround = False
            if s[i + 1 : i + 2] == "?":
                kind = s[i + 2 : i + 3]
                if kind == ":":
                    i += 3
                elif kind == "=" or kind == "!":
                    i, lookaround = i + 3, True
                elif kind == "<" and s[i + 3 : i + 4] in ("=", "!"):
                    i, lookaround = i + 4, True
                elif kind == "<":
                    i, name = _fmt_regex_group_name(s, i + 3)
                    if i < 0 or name in names:
                        return False
                    names.add(name)
                    groups += 1
                else:
                    return False
            else:
                i += 1
                groups += 1
            open_groups.append(lookaround)
            atom = False
        elif c == ")":
            if not open_groups:
                return False
            atom = not open_groups.pop()
            i += 1
        elif c in "*+?{":
            if not atom:
                return False
            if c == "{":
                m = _FMT_REGEX_QUANTIFIER_RE.match(s, i)
                if m is None:
                    return False
                if m[3]:  # min <= max, compared as digit strings (any length)
                    low, high = m[1].lstrip("0"), m[3].lstrip("0")
                    if (len(low), low) > (len(high), high):
                        return False
                i = m.end()
            else:
                i += 1
            if i < n and s[i] == "?":
                i += 1
            atom = False
        elif c in "}]":
            return False
        else:
            atom = c not in "|^$"
            i += 1
    if open_groups or max_ref > groups:
        return False
    for name in named_refs:
        if name not in names:
            return False
    return True


# ---------------------------------------------------------------------------------------------
# Content: contentEncoding "base64" and contentMediaType "application/json" (draft 7).

_FMT_BASE64_RE = _re.compile(
    r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/][AQgw]==|[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=)?"
)


def _content_base64(s: str) -> bool:
    """RFC 4648 section 4 base64: the standard alphabet, padded to a multiple of four, no
    whitespace, and zero bits after the last byte (the canonical encoding)."""
    return _FMT_BASE64_RE.fullmatch(s) is not None


def _content_base64_decode(s: str) -> str | None:
    """The text a base64 string encodes (UTF-8), or None when it is not base64 or not UTF-8."""
    if _FMT_BASE64_RE.fullmatch(s) is None:
        return None
    try:
        return _binascii.a2b_base64(s).decode("utf-8")
    except (ValueError, UnicodeError):
        return None


def _fmt_json_constant(name: str) -> None:
    """json.loads hook for NaN, Infinity and -Infinity, which RFC 8259 does not have."""
    raise ValueError(name)


def _content_application_json(s: str) -> bool:
    """RFC 8259 JSON text (numbers are not converted: any length of digits is valid)."""
    try:
        _json.loads(s, parse_int=len, parse_float=len, parse_constant=_fmt_json_constant)
    except (ValueError, RecursionError):
        return False
    return True
