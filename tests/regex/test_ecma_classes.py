"""Character classes (ECMA-262 u-mode): `[\\b]` and ranges, each refusal's message and position,
and counts and group numbers longer than int() reads at once."""

from __future__ import annotations

import pytest

from generator.regex import compile_pattern, translate

from .patterns import refusal


def test_backspace_escape_in_a_class_is_u0008_alone_and_as_a_range_end() -> None:
    alone = compile_pattern(r"^[\b]$")
    assert alone.search("\b") and not alone.search("\t") and not alone.search("b")
    low_end = compile_pattern(r"^[\b-\t]+$")
    assert low_end.search("\b\t") and not low_end.search("\n")


@pytest.mark.parametrize(
    "pattern, message, position",
    [
        ("[a", "unterminated character class", 0),
        ("x[^", "unterminated character class", 1),
        # a "-" before the end is a literal, and the class is still unterminated
        ("x[a-", "unterminated character class", 1),
        ("[\\d-z]", "invalid character class range (a class escape cannot be a range end)", 1),
        ("[a-\\d]", "invalid character class range (a class escape cannot be a range end)", 3),
        ("[z-a]", "range out of order in character class", 1),
        ("x[\\B]", "invalid escape \\B in character class", 2),
        ("x[\\k]", "invalid escape \\k in character class", 2),
    ],
)
def test_invalid_class_is_refused_where_it_goes_wrong(
    pattern: str, message: str, position: int
) -> None:
    assert refusal(pattern) == (message, position)


def test_count_of_more_than_a_thousand_digits_is_read_whole() -> None:
    # 1,000 leading zeros and a 2: int() is fed 1,000 digits at a time
    two = compile_pattern("^a{" + "0" * 1000 + "2}$")
    assert two.search("aa") and not two.search("a") and not two.search("")
    three = compile_pattern("^a{" + "0" * 1998 + "3}$")
    assert three.search("aaa") and not three.search("aa")


def test_count_past_python_limit_is_refused_however_many_digits() -> None:
    # 10**1000 + 3: the first thousand digits count, not only the last ones
    huge = "0" * 999 + "1" + "0" * 999 + "3"
    assert refusal("a{" + huge + "}") == ("quantifier bound too large for Python re", 1)
    assert refusal("a{2," + huge + "}") == ("quantifier bound too large for Python re", 1)


@pytest.mark.parametrize(
    "pattern, translated",
    [
        ("[a-cd-f]", "[a-f]"),
        ("[a-cc-e]", "[a-e]"),
        ("[d-fa-c]", "[a-f]"),
        ("[a-ce]", "[a-ce]"),
        ("[a-zc-e]", "[a-z]"),  # a range inside another: nothing added
        ("[a-z\\d0-5]", "[0-9a-z]"),
    ],
)
def test_adjacent_and_overlapping_ranges_are_merged(pattern: str, translated: str) -> None:
    assert translate(pattern) == translated
