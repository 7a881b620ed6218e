"""Tests of generator.regex: ECMA-262 (u-mode) pattern source -> Python `re`."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.regex import RegexTranslationError, compile_pattern, translate


def matches(pattern: str, text: str) -> bool:
    return compile_pattern(pattern).search(text) is not None


# ---------------------------------------------------------------------------------------------
# Semantics: (ECMA pattern, strings it must match, strings it must not match).  Most rows are
# chosen so that a naive use of Python's `re` on the raw source gets at least one of them wrong.

SEMANTICS = [
    # ^ and $ are input boundaries only; Python's $ also matches before a final newline
    (
        r"^\d+$",
        ["0", "42", "0123456789"],
        ["12\n", "\u0661\u0662", "\u09ea\u09e8", "", "1a", "\n12"],
    ),
    (r"^abc$", ["abc"], ["abc\n", "\nabc", "xabc"]),
    (r"a$", ["a", "ba"], ["a\n", "a\r"]),
    (r"^", ["", "x"], []),
    # \d \D \w \W are ASCII only
    (r"^\D$", ["a", "\u07c0", "\u0661"], ["0", "9"]),
    (r"^\w$", ["a", "Z", "0", "_"], ["\u00e9", "\u0661", "-", "\u212a"]),
    (r"^\W$", ["\u00e9", "-", " "], ["a", "_", "5"]),
    (r"\wcole", ["l'ecole"], ["l'\u00e9cole", "L'\u00c9COLE"]),
    # \s is WhiteSpace + LineTerminator, nothing more
    (
        r"^\s$",
        [
            " ",
            "\t",
            "\n",
            "\v",
            "\f",
            "\r",
            "\u00a0",
            "\u1680",
            "\u2003",
            "\u2028",
            "\u2029",
            "\u202f",
            "\u205f",
            "\u3000",
            "\ufeff",
        ],
        ["\x1c", "\x1f", "\x85", "\u180e", "\u200b", "a"],
    ),
    (r"^\S$", ["\x1c", "\x85", "\u200b", "a"], [" ", "\ufeff", "\u2028"]),
    # classes with class escapes and negation
    (r"^[\d-]+$", ["1-2", "-"], ["a", "\u0661"]),
    (r"^[-\w]$", ["-", "a"], ["\u00e9", "."]),
    (r"^[\w.]+$", ["a.b_1"], ["a-b", "\u00e9"]),
    (r"^[^\s]$", ["a", "\x85"], [" ", "\u3000", "\n"]),
    (r"^[^\d\s]+$", ["abc", "\u0661"], ["a1", "a b"]),
    (r"^[\D]$", ["a"], ["7"]),
    (r"^[^\W]$", ["a", "_"], ["\u00e9", "-"]),
    (r"^[\S\s]$", ["a", "\n", "\U0001f600"], ["", "ab"]),
    (r"^[\u0000-\u001f]$", ["\x00", "\x1f"], [" ", "a"]),
    (r"^[\x41-\x43]+$", ["ABC"], ["D", "a"]),
    (r"^[a-c-e]+$", ["abc-e"], ["d"]),
    (r"^[\]\-\\]+$", ["]-\\"], ["a"]),
    (r"^[.^$|?*+(){}]+$", [".^$|?*+(){}"], ["a", "["]),
    (r"^[# ]+$", ["# #"], ["a"]),
    # \b \B use the ASCII word set; \b in a class is backspace
    (r"\bfoo\b", ["foo", "a foo.", "(foo)", "\u00e9foo"], ["foobar", "_foo", "foo1"]),
    (r"\bcafe\b", ["\u00e9cafe\u00e9"], ["xcafe"]),
    (r"a\B", ["ab", "a_"], ["a", "a-", "a\u00e9"]),
    (r"\B", ["ab", "", "--"], ["a"]),
    (r"^[\b]$", ["\x08"], ["b", "\\b"]),
    (r"^\b$", [], ["", "a"]),
    # . is any code point except line terminators
    (r"^.$", ["a", "\U0001f600", "\x85", "\x00"], ["\n", "\r", "\u2028", "\u2029", "", "ab"]),
    (r"^a.c$", ["abc", "a\u00e9c"], ["a\nc", "a\u2028c"]),
    # [^] is anything, [] is nothing
    (r"^[^]$", ["\n", "a", "\U0001f600", "\u2028"], ["", "ab"]),
    (r"[]", [], ["", "a", "[]"]),
    (r"a[]*b", ["ab"], ["a[]b"]),
    (r"^[^]*$", ["", "a\nb"], []),
    # escapes
    (r"^\uD83D\uDE00$", ["\U0001f600"], ["\ud83d\ude00x", "\ud83d"]),
    (r"^\u{1F600}+$", ["\U0001f600\U0001f600"], ["\ud83d"]),
    (r"^\u{0000041}$", ["A"], ["a"]),
    (r"^\uD83D$", ["\ud83d"], ["\U0001f600"]),
    (r"^\u{D83D}\u{DE00}$", ["\ud83d\ude00"], ["\U0001f600"]),
    (
        r"^[\uD83D\uDE00-\uD83D\uDE4F]$",
        ["\U0001f600", "\U0001f64f", "\U0001f620"],
        ["\U0001f650", "\ud83d"],
    ),
    ("^\U0001f600$", ["\U0001f600"], ["\ud83d"]),
    ("^\ud83d\ude00$", ["\U0001f600"], []),  # a surrogate pair in the source is one code point
    (r"^\x41\x7e$", ["A~"], ["x41"]),
    (r"^\cC\cc\cZ$", ["\x03\x03\x1a"], ["cC"]),
    (r"^[\cA-\cC]$", ["\x01", "\x03"], ["\x04", "A"]),
    (r"^\0$", ["\x00"], ["0", "\\0"]),
    (r"^\t\n\v\f\r$", ["\t\n\v\f\r"], ["tnvfr"]),
    (r"^\^\$\\\.\*\+\?\(\)\[\]\{\}\|\/$", ["^$\\.*+?()[]{}|/"], []),
    (r"^a/b$", ["a/b"], []),
    (r"^#\x20$", ["# "], ["#"]),
    (r"^\u2028$", ["\u2028"], ["\n"]),
    ("^\n$", ["\n"], ["n"]),
    # back-references and named groups
    (r"^(a|b)\1$", ["aa", "bb"], ["ab"]),
    (r"^(?<q>['\x22]).*\k<q>$", ["'x'", '"y"'], ["'x\"", "'"]),
    (r"^(a)?b\1$", ["b", "aba"], ["ab", "bb"]),  # unset group: the reference matches empty
    (r"^\1(a)$", ["a"], ["aa"]),  # forward reference: always empty
    (r"^(a\1)$", ["a"], ["aa"]),  # reference inside its own group: empty
    (r"^(?!(a)b)\1a", ["ac"], ["ab"]),  # capture inside a negative look-ahead is never visible
    (r"^(?:(a)b)+\1$", ["aba", "ababa"], ["ab", "abab"]),
    (r"^(?=(a+))a*b\1$", ["aaabaaa"], ["aaaba", "aaab"]),
    (r"^(?<$x>a)\k<$x>$", ["aa"], ["a"]),
    (r"^(?<\u0061b>a)\k<ab>$", ["aa"], ["ab"]),
    (r"^(?<\u{e9}t\u00e9>x)\k<\u00e9t\u00e9>$", ["xx"], ["x"]),
    (r"^(?<_g1>a)(b)\2\k<_g1>$", ["abba"], ["abab"]),
    # groups and look-arounds
    (r"^(?!.*\.\.)[a-z./]+$", ["a/b.c", "./x"], ["a..b", "A", "a/../b", ""]),
    (r"^(?=.*\d)(?=.*[a-z]).{6,}$", ["abc123"], ["abcdef", "123456", "ab1"]),
    # look-aheads at the start: `$` inside one is the input's end, `^` holds there
    (r"^(?!latest$).+", ["latestx", "xlatest", "1.0", "latest\nx"], ["latest", "", "\n"]),
    (
        r"^(?!/)(?!.*(?:^|/)\.\.(?:/|$))[A-Za-z0-9_./-]+$",
        ["src/main.py", "a..b", "a/b..", "..a/b"],
        ["src/../etc", "..", "../a", "a/..", "/abs", ""],
    ),
    (r"^(?=(?:^|x)y)", ["y", "yx", "xy"], ["", "ay", "xx", "axy"]),
    (r"^(?!\b).", [" a", "-"], ["a", "_b", ""]),
    (r"^(?!latest$)(?!stable$)[a-z]+$", ["latestx", "beta"], ["latest", "stable", "x1"]),
    (r"(?<=\$)\d+", ["$42"], ["42", "\u00a342"]),
    (r"(?<!-)\b\d+", ["x 42", "42"], ["-42"]),
    (r"^(?:ab|cd)+$", ["abcd", "cdab"], ["abc", ""]),
    (r"^(a|)$", ["a", ""], ["b"]),
    (r"^$", [""], ["\n", "a"]),
    (r"", ["", "a"], []),
    # quantifiers
    (r"^a{2}$", ["aa"], ["a", "aaa"]),
    (r"^a{2,}$", ["aa", "aaaa"], ["a"]),
    (r"^a{1,3}$", ["a", "aaa"], ["", "aaaa"]),
    (r"^a{0}$", [""], ["a"]),
    (r"^a{1,3}?b$", ["aab"], ["aaaab"]),
    (r"^x*?y+?z??$", ["xyz", "y", "xxyyy"], ["z"]),
    # unicode properties
    (r"^\p{Lu}$", ["\u00c9", "A", "\u0391"], ["e", "\u00e9", "1"]),
    (r"^\p{Uppercase_Letter}$", ["\u00c9"], ["e"]),
    (r"^\p{gc=Lu}$", ["\u00c9"], ["e"]),
    (r"^\p{General_Category=Letter}+$", ["\u00e9t\u00e9", "\u65e5\u672c"], ["a1"]),
    (r"^\p{L}$", ["a", "\u00e9", "\u4e2d"], ["1", "_"]),
    (r"^\P{L}$", ["1", "_"], ["a", "\u00e9"]),
    (r"^\p{Nd}+$", ["42", "\u09ea\u09e8"], ["-%#", "\u00bd"]),
    (r"^\p{digit}+$", ["42", "\u09ea\u09e8"], ["-%#"]),
    (r"^\p{Decimal_Number}$", ["\u0661"], ["\u00bd"]),
    (r"^\p{N}$", ["\u00bd", "1"], ["a"]),
    (r"^\p{LC}$", ["a", "A", "\u01c5"], ["\u02b0"]),
    (r"^\p{Cased_Letter}$", ["a"], ["\u05d0"]),
    (r"^\p{punct}$", ["!", "\u00bf"], ["+"]),
    (r"^\p{Sm}$", ["+", "\u2200"], ["!"]),
    (r"^\p{Zs}$", [" ", "\u3000"], ["\t"]),
    (r"^\p{Cc}$", ["\x00", "\x85"], ["a"]),
    (r"^\p{Cn}$", ["\U000e0fff"], ["a"]),
    (r"^\p{Any}$", ["\U0010ffff", "\n"], [""]),
    (r"^\p{ASCII}+$", ["\x00\x7f"], ["\x80"]),
    (r"^\P{ASCII}$", ["\x80"], ["a"]),
    (r"^\p{Assigned}$", ["a"], ["\U000e0fff"]),
    (r"^\p{AHex}+$", ["09afAF"], ["g", "\uff10"]),
    (r"^\p{Hex_Digit}$", ["\uff10", "f"], ["g"]),
    (r"^\p{White_Space}$", ["\x85", " "], ["\ufeff", "\u200b"]),
    (r"^\p{NChar}$", ["\ufdd0", "\U0010fffe"], ["\ufffd"]),
    (r"^[\p{Lu}\d]+$", ["A1\u00c9"], ["a"]),
    (r"^[^\p{L}]$", ["1"], ["a", "\u00e9"]),
    (r"^[^\P{L}]$", ["\u00e9"], ["1"]),
    (r"\p{Letter}cole", ["l'ecole", "l'\u00e9cole"], ["L'\u00c9COLE"]),
    # case sensitivity
    (r"^abc$", ["abc"], ["ABC", "Abc"]),
    (r"^[a-z]+$", ["abc"], ["ABC", "\u017f", "\u212a"]),
    (r"^\u212a$", ["\u212a"], ["k", "K"]),
]


@pytest.mark.parametrize("pattern,good,bad", SEMANTICS, ids=[repr(row[0]) for row in SEMANTICS])
def test_semantics(pattern: str, good: list, bad: list) -> None:
    compiled = compile_pattern(pattern)
    for text in good:
        assert compiled.search(text) is not None, (pattern, text, translate(pattern))
    for text in bad:
        assert compiled.search(text) is None, (pattern, text, translate(pattern))


def test_naive_python_differs() -> None:
    # sanity check that the table above exercises real differences
    assert re.search(r"^\d+$", "12\n") and re.search(r"^\d+$", "\u0661\u0662")
    assert re.search(r"^\w$", "\u00e9") and re.search(r"^.$", "\u2028")
    assert not matches(r"^\d+$", "12\n") and not matches(r"^\d+$", "\u0661\u0662")


@pytest.mark.parametrize(
    "pattern,expected",
    [
        (r"^\d+$", r"\A[0-9]+\Z"),
        (r"\D", r"[^0-9]"),
        (r"[\w]", r"[0-9A-Z_a-z]"),
        (r".", r"[^\x0a\x0d\u2028\u2029]"),
        (r"[^]", r"[\x00-\U0010ffff]"),
        (r"[]", r"[^\x00-\U0010ffff]"),
        (r"\uD83D\uDE00", r"\U0001f600"),
        (r"(?<n>a)\k<n>", r"(?P<n>a)(?(1)\1)"),
        (r"\1(a)", r"(?:)(a)"),
        (r"a{2,3}?", r"a{2,3}?"),
        ("#", r"\#"),
        (" ", r"\x20"),
        ("\u00e9", r"\u00e9"),
    ],
)
def test_exact_output(pattern: str, expected: str) -> None:
    assert translate(pattern) == expected


def test_output_is_ascii_and_compiles() -> None:
    for pattern, _, _ in SEMANTICS:
        out = translate(pattern)
        assert out.isascii(), pattern
        re.compile(out)


# ---------------------------------------------------------------------------------------------
# Errors: invalid u-mode syntax, and things Python cannot express exactly.

ERRORS = [
    # (pattern, position, fragment of the message)
    ("a**", 2, "nothing to repeat"),
    ("a*+", 2, "nothing to repeat"),
    ("a++", 2, "nothing to repeat"),
    ("a?+", 2, "nothing to repeat"),
    ("a{2}{3}", 4, "nothing to repeat"),
    ("*a", 0, "nothing to repeat"),
    ("|+", 1, "nothing to repeat"),
    ("{1}", 0, "nothing to repeat"),
    ("a{", 1, "lone quantifier"),
    ("a{1", 1, "lone quantifier"),
    ("a{,5}", 1, "lone quantifier"),
    ("a{x}", 1, "lone quantifier"),
    ("}", 0, "lone '}'"),
    ("]", 0, "lone ']'"),
    ("[]a]", 3, "lone ']'"),
    ("a{3,2}", 1, "out of order"),
    ("^*", 1, "nothing to repeat"),
    ("$+", 1, "nothing to repeat"),
    (r"\b*", 2, "nothing to repeat"),
    ("(?=a)*", 5, "nothing to repeat"),
    ("(?!a){2}", 5, "nothing to repeat"),
    ("(?<=a)?", 6, "nothing to repeat"),
    ("(", 0, "unterminated group"),
    ("(a", 0, "unterminated group"),
    ("a)", 1, "unmatched"),
    ("[a", 0, "unterminated character class"),
    ("[", 0, "unterminated character class"),
    ("[b-a]", 1, "out of order"),
    (r"[\d-x]", 1, "class escape"),
    (r"[a-\d]", 3, "class escape"),
    (r"[\s-\w]", 1, "class escape"),
    (r"[\p{L}-z]", 1, "class escape"),
    ("\\", 0, "end of pattern"),
    (r"\a", 0, "invalid escape"),
    (r"\e", 0, "invalid escape"),
    (r"\z", 0, "invalid escape"),
    (r"\-", 0, "invalid escape"),
    (r"a\_", 1, "invalid escape"),
    (r"\ ", 0, "invalid escape"),
    (r"[\ ]", 1, "invalid escape"),
    (r"[\a]", 1, "invalid escape"),
    (r"[\B]", 1, "invalid escape"),
    (r"[\k<a>]", 1, "invalid escape"),
    (r"[\1]", 1, "decimal escape"),
    (r"\00", 0, "decimal escape"),
    (r"\01", 0, "decimal escape"),
    (r"[\01]", 1, "decimal escape"),
    (r"\c", 0, "control escape"),
    (r"\c1", 0, "control escape"),
    (r"[\c_]", 1, "control escape"),
    (r"\x4", 0, "\\x escape"),
    (r"\xg0", 0, "\\x escape"),
    (r"\u12", 0, "unicode escape"),
    (r"\u{}", 0, "unicode escape"),
    (r"\u{110000}", 0, "out of range"),
    (r"\u{12", 0, "unicode escape"),
    (r"\1", 0, "non-existent group"),
    (r"(a)\2", 3, "non-existent group"),
    (r"\k<a>", 0, "undefined group name"),
    (r"(?<a>x)\k<b>", 7, "undefined group name"),
    (r"\k", 0, "named reference"),
    (r"(?<a>x)(?<a>y)", 7, "duplicate"),
    (r"(?<a>x)|(?<a>y)", 8, "duplicate"),
    ("(?<>x)", 3, "empty group name"),
    ("(?<1a>x)", 3, "invalid character in group name"),
    ("(?<a-b>x)", 4, "invalid character in group name"),
    ("(?<ab", 5, "unterminated group name"),
    ("(?i)a", 0, "modifiers"),
    ("(?i:a)", 0, "modifiers"),
    ("(?P<n>a)", 0, "invalid group"),
    ("(?P=n)", 0, "invalid group"),
    ("(?#comment)", 0, "invalid group"),
    ("(?>a)", 0, "invalid group"),
    ("(?", 0, "invalid group"),
    (r"\p", 0, "property"),
    (r"\p{", 0, "property"),
    (r"\p{}", 0, "property"),
    (r"\p{Foo}", 0, "invalid property name"),
    (r"\p{lu}", 0, "invalid property name"),
    (r"\p{L=Lu}", 0, "invalid property name"),
    (r"\p{gc=Foo}", 0, "General_Category"),
    (r"\p{gc}", 0, "invalid property name"),
    (r"a\p{Script=Latin}", 1, "Script"),
    (r"\p{sc=Grek}", 0, "sc"),
    (r"[\p{Script_Extensions=Latin}]", 1, "Script_Extensions"),
    (r"\p{Alphabetic}", 0, "Alphabetic"),
    (r"\P{Emoji}", 0, "Emoji"),
    (r"\p{RGI_Emoji}", 0, "v flag"),
    (r"(?<=a+)b", 0, "fixed width"),
    (r"(?<!a|bc)d", 0, "fixed width"),
    (r"(a)(?<=\1)", 7, "look-behind"),
    (r"(?:(a)|b)+\1", 10, "repeated"),
    (r"(?:(a)?b)+\1", 10, "repeated"),
    (r"^(a|)*b\1$", 7, "repeated"),
    ("a{4294967295}", 1, "too large"),
    ("(" * 101 + ")" * 101, 100, "nested"),
]


@pytest.mark.parametrize(
    "pattern,position,fragment", ERRORS, ids=[repr(row[0])[:40] for row in ERRORS]
)
def test_errors(pattern: str, position: int, fragment: str) -> None:
    with pytest.raises(RegexTranslationError) as info:
        translate(pattern)
    err = info.value
    assert isinstance(err, ValueError)
    assert fragment.lower() in err.message.lower(), err.message
    assert err.position == position, err
    assert str(position) in str(err)
    with pytest.raises(RegexTranslationError):
        compile_pattern(pattern)


@pytest.mark.parametrize(
    "pattern",
    [
        r"[\d-]",
        r"[-\d]",
        r"[a-]",
        r"[-]",
        r"[--a]",
        r"(?:(a)b)*\1",
        r"(a){0}\1",
        r"((a)|b)\2",
        r"(?<=ab|cd)x",
        r"(?<=(a))\1",
        r"(?=(a+))\1",
        r"a{0,4294967294}",
        r"(?:(a)b){2}\1",
    ],
)
def test_accepted(pattern: str) -> None:
    compile_pattern(pattern)


def test_error_is_value_error_with_attributes() -> None:
    err = RegexTranslationError("boom", 7)
    assert isinstance(err, ValueError)
    assert (err.message, err.position) == ("boom", 7)
    import pickle

    again = pickle.loads(pickle.dumps(err))
    assert (again.message, again.position) == ("boom", 7)


def test_translate_rejects_non_strings() -> None:
    with pytest.raises(TypeError):
        translate(b"abc")  # type: ignore[arg-type]


def test_compile_pattern_is_cached() -> None:
    assert compile_pattern(r"^a+$") is compile_pattern(r"^a+$")
    assert isinstance(compile_pattern(r"^a+$"), re.Pattern)


# ---------------------------------------------------------------------------------------------
# Property-based tests.

_SYNTAX = set("^$\\.*+?()[]{}|/")


def _ecma_literal(text: str, escape_all: bool) -> str:
    out = []
    for ch in text:
        if ch in _SYNTAX:
            out.append("\\" + ch)
        elif escape_all or not ch.isprintable():
            out.append("\\u{%x}" % ord(ch))
        else:
            out.append(ch)
    return "".join(out)


@settings(deadline=None)
@given(st.text(), st.booleans())
def test_literals_match_exactly_themselves(text: str, escape_all: bool) -> None:
    pattern = "^" + _ecma_literal(text, escape_all) + "$"
    out = translate(pattern)
    assert out.isascii()
    compiled = compile_pattern(pattern)
    assert compiled.search(text) is not None
    assert compiled.search(text + "\n") is None
    assert compiled.search("\n" + text) is None


_LINE_TERMINATORS = "\n\r\u2028\u2029"
_ECMA_SPACE = set("\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff") | {
    chr(c) for c in range(0x2000, 0x200B)
}
_ECMA_WORD = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


@settings(deadline=None)
@given(st.characters())
def test_class_escapes_membership(ch: str) -> None:
    assert matches(r"^\d$", ch) == ("0" <= ch <= "9")
    assert matches(r"^\D$", ch) != ("0" <= ch <= "9")
    assert matches(r"^\w$", ch) == (ch in _ECMA_WORD)
    assert matches(r"^[^\w]$", ch) != (ch in _ECMA_WORD)
    assert matches(r"^\s$", ch) == (ch in _ECMA_SPACE)
    assert matches(r"^[\S]$", ch) != (ch in _ECMA_SPACE)
    assert matches(r"^.$", ch) == (ch not in _LINE_TERMINATORS)
    assert matches(r"^[^\d\s]$", ch) == (not "0" <= ch <= "9" and ch not in _ECMA_SPACE)
    assert matches(r"\b", ch) == (ch in _ECMA_WORD)


_GC_SHORT = [
    "C",
    "Cc",
    "Cf",
    "Cn",
    "Co",
    "Cs",
    "L",
    "LC",
    "Ll",
    "Lm",
    "Lo",
    "Lt",
    "Lu",
    "M",
    "Mc",
    "Me",
    "Mn",
    "N",
    "Nd",
    "Nl",
    "No",
    "P",
    "Pc",
    "Pd",
    "Pe",
    "Pf",
    "Pi",
    "Po",
    "Ps",
    "S",
    "Sc",
    "Sk",
    "Sm",
    "So",
    "Z",
    "Zl",
    "Zp",
    "Zs",
]


@settings(deadline=None)
@given(st.characters(min_codepoint=0, max_codepoint=0x10FFFF), st.sampled_from(_GC_SHORT))
def test_general_category_membership(ch: str, value: str) -> None:
    cat = unicodedata.category(ch)
    expected = (
        cat == value
        or (len(value) == 1 and cat[0] == value)
        or (value == "LC" and cat in ("Ll", "Lt", "Lu"))
    )
    assert matches(r"^\p{%s}$" % value, ch) == expected
    assert matches(r"^\P{%s}$" % value, ch) != expected
    assert matches(r"^[^\p{gc=%s}]$" % value, ch) != expected


@settings(deadline=None)
@given(st.integers(0, 0x10FFFF), st.integers(0, 0x10FFFF), st.integers(0, 0x10FFFF), st.booleans())
def test_class_ranges(a: int, b: int, probe: int, negate: bool) -> None:
    lo, hi = min(a, b), max(a, b)
    pattern = "^[%s\\u{%x}-\\u{%x}]$" % ("^" if negate else "", lo, hi)
    assert matches(pattern, chr(probe)) == ((lo <= probe <= hi) != negate)


_FUZZ_ALPHABET = list("ab01^$\\.*+?()[]{}|/-,=!<>:kpPudDwWsSbBcx ") + [
    "\\u{1F600}",
    "\\p{L}",
    "(?<n>",
    "\\k<n>",
]


@settings(deadline=None)
@given(st.lists(st.sampled_from(_FUZZ_ALPHABET), max_size=12).map("".join))
def test_fuzz_never_crashes(pattern: str) -> None:
    try:
        compiled = compile_pattern(pattern)
    except RegexTranslationError as err:
        assert 0 <= err.position <= len(pattern)
        return
    assert translate(pattern).isascii()
    compiled.search("ab01 \U0001f600-")


# ---------------------------------------------------------------------------------------------
# JSON-Schema-Test-Suite pattern cases.


def _suite_dir() -> Path:
    from .suite import suite_dir

    return suite_dir()


_SUITE_FILES = ["optional/ecmascript-regex.json", "pattern.json", "patternProperties.json"]
_JSON_TYPES = {
    "null": lambda v: v is None,
    "boolean": lambda v: isinstance(v, bool),
    "string": lambda v: isinstance(v, str),
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool))
    or (isinstance(v, float) and v.is_integer()),
}


def _leaf_in_scope(sub) -> bool:
    """Subschemas this test can evaluate itself: booleans, {"type": T}, {"maximum": N}."""
    if isinstance(sub, bool):
        return True
    return (
        isinstance(sub, dict)
        and set(sub) <= {"type", "maximum"}
        and sub.get("type", "null") in _JSON_TYPES
    )


def _leaf_valid(sub, value) -> bool:
    if isinstance(sub, bool):
        return sub
    if "type" in sub and not _JSON_TYPES[sub["type"]](value):
        return False
    if "maximum" in sub and _JSON_TYPES["number"](value) and value > sub["maximum"]:
        return False
    return True


def _in_scope(schema) -> bool:
    """A plain `pattern` or `patternProperties` schema (plus $schema, type, additionalProperties)."""
    if not isinstance(schema, dict):
        return False
    keys = set(schema) - {"$schema"}
    if "type" in keys:
        if schema["type"] not in _JSON_TYPES:
            return False
        keys.discard("type")
    if keys == {"pattern"}:
        return True
    if keys in ({"patternProperties"}, {"patternProperties", "additionalProperties"}):
        return all(
            _leaf_in_scope(s) for s in schema["patternProperties"].values()
        ) and _leaf_in_scope(schema.get("additionalProperties", True))
    return False


def _valid_by_translation(schema: dict, data) -> bool:
    """The schema's verdict on ``data``, with every regex evaluated through compile_pattern."""
    if "type" in schema and not _JSON_TYPES[schema["type"]](data):
        return False
    if "pattern" in schema:
        return (
            not isinstance(data, str) or compile_pattern(schema["pattern"]).search(data) is not None
        )
    if not isinstance(data, dict):
        return True
    additional = schema.get("additionalProperties", True)
    for key, value in data.items():
        hits = [
            sub for p, sub in schema["patternProperties"].items() if compile_pattern(p).search(key)
        ]
        if not hits:
            hits = [additional]
        if not all(_leaf_valid(sub, value) for sub in hits):
            return False
    return True


def _suite_cases() -> list:
    base = _suite_dir() / "tests" / "draft2020-12"
    cases = []
    for name in _SUITE_FILES:
        path = base / name
        if not path.is_file():
            continue
        for group in json.loads(path.read_text(encoding="utf-8")):
            if not _in_scope(group["schema"]):
                continue
            for test in group["tests"]:
                case_id = f"{name}: {group['description']} / {test['description']}"
                cases.append(pytest.param(group["schema"], test["data"], test["valid"], id=case_id))
    return cases


_CASES = _suite_cases()
# Cases that cannot pass, with the reason (empty: every in-scope case passes).
_SUITE_XFAIL: dict[str, str] = {}


@pytest.mark.parametrize(
    "schema,data,valid", _CASES or [pytest.param(None, None, None, id="absent")]
)
def test_json_schema_test_suite(request, schema, data, valid) -> None:
    assert schema is not None, f"JSON-Schema-Test-Suite not found at {_suite_dir()}"
    reason = _SUITE_XFAIL.get(request.node.callspec.id)
    if reason:
        pytest.xfail(reason)
    assert _valid_by_translation(schema, data) == valid


def test_json_schema_test_suite_ecmascript_regex_file_is_covered() -> None:
    assert _CASES, f"JSON-Schema-Test-Suite not found at {_suite_dir()}"
    ecma = [c for c in _CASES if c.id.startswith("optional/ecmascript-regex.json")]
    assert len(ecma) >= 70  # every case of the file is a plain pattern/patternProperties case


# ---------------------------------------------------------------------------------------------
# Optional differential check against a real ECMAScript engine (Node.js), when one is installed.

_NODE_PATTERNS = [row[0] for row in SEMANTICS if "\ud83d" not in row[0]] + [
    r"^(?:(a)|b)(?:c\1)?$",
    r"(?<=a(?=b))b",
    r"^(a)?(?(1)b)",
    r"^(?:a|ab)(?:c|bcd)(d*)$",
    r"^(?=(\w+))\1:",
    r"[\d-z]",
    r"^\p{Lu}\p{Ll}+$",
    r"(?<![\w$])\d{2,}(?![\w$])",
]
_NODE_STRINGS = [
    "",
    "a",
    "ab",
    "aba",
    "abcd",
    "abc",
    "Ab1",
    "\u00c9t\u00e9",
    "12\n",
    "\u0661",
    "a..b",
    "a/b.c",
    "$42",
    "x 42",
    "-42",
    "\U0001f600",
    "\u2028",
    "\n",
    " \u00a0",
    "abc123",
    "'x'",
    "aa",
    "b",
    "ac",
    "abab",
    "Hello",
    "aaabaaa",
    "\x08",
    "foo bar",
    "(foo)",
    "^$.*",
]
_NODE_SCRIPT = r"""
const data = JSON.parse(require('fs').readFileSync(0, 'utf8'));
function search(r, s) {  // try code point boundaries only, as the u-mode spec does
  for (let i = 0; ; ) {
    r.lastIndex = i;
    if (r.test(s)) return true;
    if (i >= s.length) return false;
    i += s.codePointAt(i) > 0xffff ? 2 : 1;
  }
}
process.stdout.write(JSON.stringify(data.patterns.map(p => {
  let r;
  try { r = new RegExp(p, 'uy'); } catch (e) { return null; }
  return data.strings.map(s => search(r, s));
})));
"""


@pytest.mark.skipif(
    shutil.which("node") is None, reason="node (an ECMAScript engine) is not installed"
)
def test_differential_against_node() -> None:
    payload = json.dumps({"patterns": _NODE_PATTERNS, "strings": _NODE_STRINGS})
    try:
        proc = subprocess.run(
            ["node", "-e", _NODE_SCRIPT],
            input=payload,
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        )
    except (OSError, subprocess.SubprocessError) as exc:  # pragma: no cover - broken node install
        pytest.skip(f"node failed: {exc}")
    results = json.loads(proc.stdout)
    for pattern, expected in zip(_NODE_PATTERNS, results):
        if expected is None:  # node rejects it: so must we
            with pytest.raises(RegexTranslationError):
                translate(pattern)
            continue
        compiled = compile_pattern(pattern)
        got = [compiled.search(s) is not None for s in _NODE_STRINGS]
        assert got == expected, (
            pattern,
            [s for s, g, e in zip(_NODE_STRINGS, got, expected) if g != e],
        )
