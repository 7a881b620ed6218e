"""Group names and \\u escapes in generator/regex/ecma.py: the whole message and position of each
refusal, as translate() raises it and as the compiler reports it for a schema's `pattern`, and
how surrogate-pair escapes combine (or do not)."""

from __future__ import annotations

import pytest

import generator
from generator.regex import RegexTranslationError, compile_pattern, translate
from generator.regex.ecma import parse


def assert_refused(pattern: str, message: str, position: int) -> None:
    """translate() raises exactly (message, position), and a schema with that pattern is refused
    with the same message and position in its bad-regex SchemaError."""
    with pytest.raises(RegexTranslationError) as info:
        translate(pattern)
    err = info.value
    assert (err.message, err.position) == (message, position)
    assert str(err) == f"{message} (at position {position})"
    with pytest.raises(generator.SchemaError) as refused:
        generator.compile_source({"pattern": pattern}, profile="strict", format=False)
    schema_err = refused.value
    assert (schema_err.code, schema_err.pointer) == ("bad-regex", "/pattern")
    assert schema_err.message == f"pattern {pattern!r}: {message} (at {position})"


def assert_same_as(pattern: str, python: str, matching: str, failing: str) -> None:
    """The translation is `python`; it and a compiled schema match `matching`, not `failing`."""
    assert translate(pattern) == python
    assert compile_pattern(pattern).search(matching) is not None
    assert compile_pattern(pattern).search(failing) is None
    module = generator.compile_module({"pattern": pattern}, profile="strict", format=False)
    assert module.is_valid(matching) is True
    assert module.is_valid(failing) is False


# -- group names ---------------------------------------------------------------------------------


@pytest.mark.parametrize("pattern, position", [(r"(?<\x41>a)", 3), (r"(?<a\n>b)", 4)])
def test_group_name_escape_other_than_u_is_refused_at_its_backslash(
    pattern: str, position: int
) -> None:
    assert_refused(pattern, "invalid escape in group name", position)


@pytest.mark.parametrize("pattern, position", [("(?<ab", 5), ("(?<", 3)])
def test_unterminated_group_name_is_refused_at_the_end_of_the_pattern(
    pattern: str, position: int
) -> None:
    assert_refused(pattern, "unterminated group name", position)


@pytest.mark.parametrize("pattern, position", [("(?<1a>x)", 3), ("(?<a-b>x)", 4)])
def test_group_name_character_that_is_not_an_identifier_is_refused_at_it(
    pattern: str, position: int
) -> None:
    assert_refused(pattern, "invalid character in group name", position)


def test_empty_group_name_is_refused_at_its_closing_bracket() -> None:
    assert_refused("(?<>x)", "empty group name", 3)


@pytest.mark.parametrize(
    "pattern, message, position",
    [
        (r"(?<\u{110000}>x)", "unicode escape out of range", 3),
        (r"(?<a\u00g>x)", "invalid unicode escape", 4),
        (r"(?<a\u{}>x)", "invalid unicode escape", 4),
    ],
)
def test_bad_unicode_escape_in_group_name_is_refused_at_its_backslash(
    pattern: str, message: str, position: int
) -> None:
    assert_refused(pattern, message, position)


def test_group_name_of_several_characters_is_kept_whole() -> None:
    assert parse(r"(?<ab>x)\k<ab>").groups[0].name == "ab"
    assert translate(r"(?<ab>x)\k<ab>") == r"(?P<ab>x)(?(1)\1)"
    assert_refused("(?<ab>x)(?<ab>y)", "duplicate capture group name 'ab'", 8)


# -- \u escapes ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "pattern, position",
    [
        (r"\u{12", 0),  # no closing brace
        (r"a\u{}", 1),  # no digit
        (r"\u{g1}", 0),  # the first character after the brace is not a hex digit
    ],
)
def test_braced_unicode_escape_without_hex_digits_and_brace_is_refused_at_its_backslash(
    pattern: str, position: int
) -> None:
    assert_refused(pattern, "invalid unicode escape", position)


def test_braced_unicode_escape_above_10ffff_is_refused_at_its_backslash() -> None:
    assert_refused(r"a\u{110000}", "unicode escape out of range", 1)


@pytest.mark.parametrize("pattern, position", [(r"\u12", 0), (r"a\u004", 1)])
def test_unicode_escape_with_fewer_than_four_hex_digits_is_refused_at_its_backslash(
    pattern: str, position: int
) -> None:
    assert_refused(pattern, "invalid unicode escape", position)


def test_high_surrogate_escape_then_a_bad_escape_is_refused_at_the_second_backslash() -> None:
    # the high surrogate stands alone; the escape after it is parsed (and refused) on its own
    assert_refused(r"\uD800\uZZZZ", "invalid unicode escape", 6)


@pytest.mark.parametrize(
    "pattern, python, astral, units",
    [
        (r"^\uD800\uDC00$", r"\A\U00010000\Z", "\U00010000", "\ud800\udc00"),  # the lowest pair
        (r"^\uDBFF\uDFFF$", r"\A\U0010ffff\Z", "\U0010ffff", "\udbff\udfff"),  # the highest pair
    ],
)
def test_surrogate_pair_escapes_are_one_astral_character(
    pattern: str, python: str, astral: str, units: str
) -> None:
    assert_same_as(pattern, python, astral, units)


@pytest.mark.parametrize(
    "pattern, python, matching, failing",
    [
        # a pair written as two code units of the source, not escaped: the lowest and highest
        ("^\ud800\udc00$", r"\A\U00010000\Z", "\U00010000", "\ud800\udc00"),
        ("^\udbff\udfff$", r"\A\U0010ffff\Z", "\U0010ffff", "\udbff\udfff"),
        # the quantifier repeats the whole astral character, not its low half
        ("^\udbff\udc00+$", r"\A\U0010fc00+\Z", "\U0010fc00\U0010fc00", "\udbff\udc00\udc00"),
        # a low surrogate is no lead: two of them stay two lone code points
        ("^\udc00\udc00$", r"\A\udc00\udc00\Z", "\udc00\udc00", "\udc00"),
        # U+E000 is no low surrogate: the lead before it stays alone
        ("^\ud800\ue000$", r"\A\ud800\ue000\Z", "\ud800\ue000", "\U00010400"),
    ],
)
def test_surrogate_pair_in_the_source_is_one_astral_character(
    pattern: str, python: str, matching: str, failing: str
) -> None:
    assert_same_as(pattern, python, matching, failing)


@pytest.mark.parametrize(
    "pattern, python, lone, other",
    [
        # U+E000 is just above the low surrogates
        (r"^\uD800\uE000$", r"\A\ud800\ue000\Z", "\ud800\ue000", "\U00010400"),
        # a plain character after the high surrogate: both stay, in order
        (r"^\uD800\u0041$", r"\A\ud800A\Z", "\ud800A", "\ud800"),
    ],
)
def test_high_surrogate_escape_before_a_non_low_surrogate_escape_stays_alone(
    pattern: str, python: str, lone: str, other: str
) -> None:
    assert_same_as(pattern, python, lone, other)


# -- quantified assertions -----------------------------------------------------------------------

_NOTHING_TO_REPEAT = "nothing to repeat (assertions cannot be quantified)"


@pytest.mark.parametrize(
    "pattern, position",
    [
        ("a^*", 2),
        ("$*", 1),
        (r"\b+", 2),
        (r"x\B?", 3),
        (r"\b{2}", 2),
        ("(?=a)*", 5),
        ("(?!a)+", 5),
        ("(?<=a)?", 6),
        ("(?<!a)*", 6),
        ("b(?<!a){1,2}", 7),
    ],
)
def test_quantified_assertion_is_refused_at_its_quantifier(pattern: str, position: int) -> None:
    assert_refused(pattern, _NOTHING_TO_REPEAT, position)


@pytest.mark.parametrize("pattern", [r"\b{", r"\b{2"])
def test_brace_after_an_assertion_that_is_no_quantifier_is_a_lone_bracket(pattern: str) -> None:
    assert_refused(pattern, "lone quantifier brackets", 2)


def test_an_assertion_before_a_plain_character_is_not_quantified() -> None:
    assert_same_as("^X", r"\AX", "X", "aX")


# -- back-references into repeated parts ---------------------------------------------------------

_MAY_NOT_PARTICIPATE = (
    "back-reference to a group inside a repeated atom that may not participate in every "
    "iteration (ECMA clears captures on each iteration, Python does not)"
)


@pytest.mark.parametrize("pattern", [r"(?:(a*)\1)*", r"(?:(a?)\1)+"])
def test_reference_in_a_repeated_part_that_can_read_nothing_is_refused(pattern: str) -> None:
    # the group and its reference can both read nothing: Python runs an empty iteration, which
    # sets the group to "" where ECMA keeps the last iteration's text
    assert_refused(pattern, _MAY_NOT_PARTICIPATE, 7)


@pytest.mark.parametrize(
    "pattern, position",
    [
        (r"(?:(a)|b){2}\1", 12),
        (r"(?:(a)|b){0,2}\1", 14),
        # the optional part's skip reaches a group nested in a group inside it
        (r"(?:(?:(a))?b){2}\1", 16),
    ],
)
def test_reference_to_a_group_an_iteration_may_skip_is_refused(pattern: str, position: int) -> None:
    # "ab": ECMA's second iteration clears the group, Python keeps "a"
    assert_refused(pattern, _MAY_NOT_PARTICIPATE, position)


def test_reference_to_a_group_in_an_optional_part_is_kept() -> None:
    # ? runs its part at most once: nothing to clear
    assert_same_as(r"^(?:(a)|b)?\1$", r"\A(?:(a)|b)?(?(1)\1)\Z", "aa", "a")


def test_reference_in_a_repeated_part_of_a_look_behind_is_refused_at_itself() -> None:
    assert_refused(
        r"(a)(?<=(?:\1)?b)c", "back-references inside look-behind cannot be translated exactly", 10
    )


@pytest.mark.parametrize(
    "pattern, python",
    [
        (r"(?!(a)b)\1", r"(?!(a)b)(?:)"),
        (r"(?<!(a))\1", r"(?<!(a))(?:)"),
        # ... also in another negative look-around
        (r"(?!(a)b)(?!\1)c", r"(?!(a)b)(?!(?:))c"),
    ],
)
def test_reference_to_a_group_in_a_negative_look_around_matches_empty(
    pattern: str, python: str
) -> None:
    # the group has never matched where the look-around lets the match go on
    assert translate(pattern) == python


@pytest.mark.parametrize("pattern, position", [("a{2,1}", 1), ("x(?:ab){10,9}", 7)])
def test_brace_quantifier_with_its_bounds_reversed_is_refused_at_its_brace(
    pattern: str, position: int
) -> None:
    assert_refused(pattern, "numbers out of order in {} quantifier", position)


def test_reference_in_a_negative_look_ahead_of_a_repeated_part_is_refused() -> None:
    # a group in a negative look-around of a repeated part counts as one an iteration may skip
    assert_refused(r"(?:(?!(a)\1)b)*", _MAY_NOT_PARTICIPATE, 9)


def test_references_after_one_that_matches_empty_are_still_checked() -> None:
    # \1 comes before its group (it matches empty); \2 after it names no group
    assert_refused(r"\1(a)\2", "back-reference \\2 to a non-existent group (the pattern has 1)", 5)


@pytest.mark.parametrize("pattern, position", [(r"(?<=a+)b", 0), (r"x(?<=a|bc)", 1)])
def test_look_behind_of_varying_width_is_refused_at_its_parenthesis(
    pattern: str, position: int
) -> None:
    assert_refused(pattern, "look-behind must have a fixed width in Python re", position)


@pytest.mark.parametrize(
    "pattern, position", [("*a", 0), ("x|+", 2), ("a(?:?)", 4), ("{1}", 0), ("a|{2,3}", 2)]
)
def test_quantifier_with_no_atom_before_it_is_refused_at_itself(
    pattern: str, position: int
) -> None:
    assert_refused(pattern, "nothing to repeat", position)


@pytest.mark.parametrize("pattern, position", [("{", 0), ("a|{x", 2)])
def test_brace_opening_an_alternative_that_is_no_quantifier_is_a_lone_bracket(
    pattern: str, position: int
) -> None:
    assert_refused(pattern, "lone quantifier brackets", position)
