"""`\\p{...}` and `\\P{...}` escapes that are refused: each refusal's message and position, and the
name and value tokens the parser accepts before it looks a property up (ECMA-262's
UnicodePropertyName is letters and `_`; UnicodePropertyValue may also hold digits)."""

from __future__ import annotations

import pytest

from generator.api import compile_source
from generator.errors import SchemaError
from generator.regex import compile_pattern

from .patterns import refusal

_SCRIPTS = "(script data is not available in Python's unicodedata)"


@pytest.mark.parametrize(
    "pattern, message, position",
    [
        # no brace after \p, or none closing it: the whole escape is refused at its backslash
        (r"\pL", "invalid property name (\\p needs {...})", 0),
        (r"ab\PL", "invalid property name (\\p needs {...})", 2),
        (r"a\p{L", "invalid property name (unterminated \\p{...})", 1),
        (r"a\p{", "invalid property name (unterminated \\p{...})", 1),
        # an empty body is a name that is not there, not a brace still to find
        (r"\p{}", "invalid property name ''", 0),
        (r"\p{}}", "invalid property name ''", 0),
    ],
)
def test_malformed_property_escape_is_refused_at_its_backslash(
    pattern: str, message: str, position: int
) -> None:
    assert refusal(pattern) == (message, position)


@pytest.mark.parametrize(
    "pattern, message",
    [
        # a name must be letters and _ only: no digits, no punctuation between Z and a
        (r"x\p{g^=L}", "invalid property name 'g^=L'"),
        (r"x\p{gc1=L}", "invalid property name 'gc1=L'"),
        (r"x\p{=L}", "invalid property name '=L'"),
        # a value must be letters, digits and _, and not empty
        (r"x\p{gc=L^}", "invalid property name 'gc=L^'"),
        (r"x\p{gc=L`}", "invalid property name 'gc=L`'"),
        (r"x\p{gc=L[}", "invalid property name 'gc=L['"),
        (r"x\p{sc=A:}", "invalid property name 'sc=A:'"),
        (r"x\p{sc=A@}", "invalid property name 'sc=A@'"),
        (r"x\p{gc=}", "invalid property name 'gc='"),
        (r"x\p{gc=L=L}", "invalid property name 'gc=L=L'"),
    ],
)
def test_name_or_value_that_is_not_a_token_is_refused_whole(pattern: str, message: str) -> None:
    assert refusal(pattern) == (message, 1)


@pytest.mark.parametrize(
    "value",
    ["Yezi", "Yezidi", "Zanabazar_Square", "A0", "A9", "Abc1", "Old_Persian", "z"],
)
def test_script_value_with_lower_z_or_digits_is_a_token(value: str) -> None:
    # Such a value gets past the token check and reaches the script refusal, which names it.
    for name in ("sc", "Script", "scx", "Script_Extensions"):
        assert refusal(rf"x\p{{{name}={value}}}") == (
            f"unicode property {name}={value} is not supported {_SCRIPTS}",
            1,
        )


def test_general_category_value_that_is_a_token_but_unknown_names_the_value() -> None:
    assert refusal(r"\p{gc=Lz}") == ("invalid General_Category value 'Lz'", 0)
    assert refusal(r"\p{General_Category=L_}") == ("invalid General_Category value 'L_'", 0)


def test_lone_property_names_of_every_letter_class_are_looked_up() -> None:
    # tokens with upper case, lower case (z included) and _ get to the look-up, which finds these
    for pattern, inside, outside in [
        (r"^\p{Ll}$", "z", "Z"),
        (r"^\p{Zs}$", " ", "z"),
        (r"^\p{Space_Separator}$", "\u3000", "_"),
        (r"^\p{Join_C}$", "\u200d", "z"),
        (r"^\p{Pat_WS}$", "\u200e", "_"),
    ]:
        compiled = compile_pattern(pattern)
        assert compiled.search(inside) and not compiled.search(outside), pattern
    assert refusal(r"\p{Lz}") == ("invalid property name 'Lz'", 0)


def test_refused_property_escape_reaches_the_schema_error_with_its_pointer() -> None:
    with pytest.raises(SchemaError) as caught:
        compile_source({"properties": {"a": {"pattern": r"x\p{g^=L}"}}})
    assert caught.value.code == "bad-regex"
    assert caught.value.pointer == "/properties/a/pattern"
    assert "invalid property name 'g^=L' (at 1)" in caught.value.message


@pytest.mark.parametrize("body", ["Lowercase", "Alpha", "ID_Start", "XID_Continue"])
def test_binary_property_without_exact_data_is_refused_with_the_reason(body: str) -> None:
    assert refusal(rf"a\P{{{body}}}") == (
        f"unicode property {body} is not supported "
        "(it cannot be computed exactly with Python's unicodedata)",
        1,
    )


@pytest.mark.parametrize("pattern", ["[a\\", "x[\\"])
def test_backslash_ending_a_pattern_inside_a_class_is_refused_at_itself(pattern: str) -> None:
    assert refusal(pattern) == ("\\ at end of pattern", 2)
