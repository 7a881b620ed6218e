"""Character escapes (ECMA-262 u-mode CharacterEscape, in and out of a class): what each one
reads, and each refusal's message and position (the backslash's index)."""

from __future__ import annotations

import pytest

from generator.regex import compile_pattern, translate

from .patterns import refusal


@pytest.mark.parametrize(
    "pattern, code_point",
    [
        # \c and an ASCII letter of either case, both ends of each range: the letter mod 32
        (r"\ca", 1),
        (r"\cb", 2),
        (r"\cz", 26),
        (r"\cA", 1),
        (r"\cZ", 26),
        (r"[\cz]", 26),
        # \0 not followed by a digit, also at the very end of the pattern
        ("\\0", 0),
        ("[\\0]", 0),
    ],
)
def test_escape_reads_its_code_point(pattern: str, code_point: int) -> None:
    compiled = compile_pattern("^" + pattern + "$")
    assert compiled.search(chr(code_point))
    assert not compiled.search(chr(code_point + 1))


@pytest.mark.parametrize(
    "pattern, message",
    [
        ("x\\c1", "invalid control escape \\c"),
        ("x\\c", "invalid control escape \\c"),
        ("x\\c_", "invalid control escape \\c"),
        ("x\\01", "invalid decimal escape (octal escapes are not allowed)"),
        ("[\\01]", "invalid decimal escape (octal escapes are not allowed)"),
        ("x\\xZ1", "invalid \\x escape"),
        ("x\\x1", "invalid \\x escape"),
        ("[\\1]", "invalid decimal escape"),
        ("[\\9]", "invalid decimal escape"),
        ("x\\q", "invalid escape \\q"),
        ("x\\\u00e9", "invalid escape \\\u00e9"),
        ("x\\\x07", "invalid escape (backslash before U+0007)"),
        ("x\\\u200b", "invalid escape (backslash before U+200B)"),
        # outside a class: a backslash ending the pattern, \k not opening a <name>
        ("x\\", "\\ at end of pattern"),
        ("x\\k", "invalid named reference (\\k needs <name>)"),
        ("x\\ka", "invalid named reference (\\k needs <name>)"),
    ],
)
def test_invalid_escape_is_refused_at_its_backslash(pattern: str, message: str) -> None:
    start = pattern.index("\\")
    assert refusal(pattern) == (message, start)


@pytest.mark.parametrize("pattern", ["a{12", "a{1,", "a{1,23", "x{"])
def test_unclosed_brace_after_an_atom_is_a_lone_bracket(pattern: str) -> None:
    assert refusal(pattern) == ("lone quantifier brackets", 1)


def test_backslash_nine_is_a_back_reference() -> None:
    # the top of the 1-9 range: a reference, refused as one when the group does not exist
    assert refusal(r"(a)\9") == (
        "back-reference \\9 to a non-existent group (the pattern has 1)",
        3,
    )
    compiled = compile_pattern(r"^(a)(b)(c)(d)(e)(f)(g)(h)(i)\9$")
    assert compiled.search("abcdefghii")
    assert not compiled.search("abcdefghi9")


@pytest.mark.parametrize(
    "code_point, python",
    [
        # ASCII letters, digits and _ bare; the other printable ASCII escaped; the rest by number
        (0x20, "\\x20"),
        (0x21, "\\!"),
        (0x2F, "\\/"),
        (0x30, "0"),
        (0x39, "9"),
        (0x3A, "\\:"),
        (0x40, "\\@"),
        (0x41, "A"),
        (0x5A, "Z"),
        (0x5B, "\\["),
        (0x5F, "_"),
        (0x60, "\\`"),
        (0x61, "a"),
        (0x7A, "z"),
        (0x7B, "\\{"),
        (0x7E, "\\~"),
        (0x7F, "\\x7f"),
        (0x80, "\\u0080"),
        (0xFFFF, "\\uffff"),
        (0x10000, "\\U00010000"),
    ],
)
def test_code_point_is_written_bare_escaped_or_by_number(code_point: int, python: str) -> None:
    assert translate(r"\u{%x}" % code_point) == python


def test_back_reference_from_the_hundredth_group_on_is_by_name() -> None:
    # Python reads \100 as an octal escape ("@"): the 100th group and later are referred to by
    # a name given to them, the 99th and earlier by number
    pattern = "(a)" * 98 + r"(b)(c)\99\100"
    assert translate(pattern).endswith(r"(?P<_g100>c)(?(99)\99)(?(100)(?P=_g100))")
    compiled = compile_pattern("^" + pattern + "$")
    assert compiled.search("a" * 98 + "bcbc")
    assert not compiled.search("a" * 98 + "bcb@")


def test_reference_number_of_ten_digits_or_more_is_not_shown_in_the_refusal() -> None:
    assert refusal(r"(a)\999999999") == (
        "back-reference \\999999999 to a non-existent group (the pattern has 1)",
        3,
    )
    assert refusal(r"(a)\1000000000") == (
        "back-reference \\... to a non-existent group (the pattern has 1)",
        3,
    )
