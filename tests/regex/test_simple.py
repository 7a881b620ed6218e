"""Patterns as str tests (generator/regex/simple.py, emitted by generator/emit/patterns.py) are
exactly the regex: the class methods are checked over every code point, the shapes over
Hypothesis strings biased to the class boundaries (non-ASCII digits and letters included: `\\d`
is ASCII in ECMA, Python's isdigit is not), and the emitted code of generated modules against
Python `re` on the translation."""

from __future__ import annotations

import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import generator
from generator.reference import DraftReference
from generator.regex import compile_pattern
from generator.regex.simple import (
    CLASS_METHODS,
    AsciiAccept,
    CaselessTest,
    LiteralTest,
    RunTest,
    always_matches,
    ascii_accept,
    ascii_accepts,
    simple_search,
    simple_tests,
)

# Characters at and around the edges of the ASCII classes, and non-ASCII characters that Python's
# str methods count as digits, letters, lower or upper case (each is outside every ECMA class here).
BOUNDARY = (
    "/09:@AZ[`az{_-. \n\t\x00\x7f"
    "\u0660\u0661\u0669\u06f1\u0966\uff10\uff19\u00b2\u00b9\u2460"  # other digits: isdigit() is true
    "\u00aa\u00b5\u00ba\u00c0\u00df\u00e9\u00ff\u0130\u0131\u017f\u212a\u212b\u01c5\u1e9e"  # letters
    "\uff21\uff41\u0391\u03b1\u0410\u0430\u00bd\u2160"  # fullwidth, Greek, Cyrillic, numerals
    "\U0001d7ce\U0001d400\U0001f600\ud800\udfff"
)
LITERALS = [
    "x-",
    "a",
    "ab",
    "get",
    "put",
    "$ref",
    "a.b",
    "\u00e9",
    "\U0001f600",
    "",
    "x",
    "YeS",
    "a-B",
    "no1",
    "S",
    "\u212a",
    "\u017f",
]  # (the Kelvin sign lowers to k, long s uppers to S: not ASCII letters)


def _ecma(text: str) -> str:
    return "".join("\\" + c if c in "^$\\.*+?()[]{}|/" else c for c in text)


@st.composite
def simple_patterns(draw: st.DrawFn) -> str:
    """Patterns of the str-test shapes: literal alternatives with anchors, and class runs."""
    alternatives = []
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.booleans()):
            start, end = draw(st.booleans()), draw(st.booleans())
            # (at most 3 texts found anywhere: more than 4 stay on re)
            texts = draw(
                st.lists(st.sampled_from(LITERALS), min_size=1, max_size=3 if start or end else 1)
            )
            body = _ecma(texts[0]) if len(texts) == 1 else "(" + "|".join(map(_ecma, texts)) + ")"
            alternatives.append(("^" if start else "") + body + ("$" if end else ""))
        elif draw(st.integers(0, 3)) == 0:  # a whole text in any ASCII case
            texts = draw(
                st.lists(st.sampled_from(["yes", "k", "a-b", "no1", "s"]), min_size=1, max_size=3)
            )
            caseless = [
                "".join(f"[{c.upper()}{c}]" if c.isalpha() else _ecma(c) for c in text)
                for text in texts
            ]
            alternatives.append("^(" + "|".join(caseless) + ")$")
        else:
            cls = draw(
                st.sampled_from(
                    [r"\d", "[0-9]", "[a-zA-Z]", "[A-Za-z0-9]", "[0-9a-zA-Z]", "[a-z]", "[A-Z]"]
                )
            )
            two = cls in ("[a-z]", "[A-Z]")  # (two methods: only with a small maximum count)
            count = draw(
                st.sampled_from(
                    ["", "?", "{2}", "{1,3}", "{0,2}"] + ([] if two else ["+", "*", "{2,}", "+?"])
                )
            )
            run = draw(st.sampled_from(["{}", "({})", "(?:{})", "((?:{}))"])).format(cls + count)
            alternatives.append("^" + run + "$")
    return "|".join(alternatives)


SUBJECTS = (
    st.text(alphabet=BOUNDARY + "xgetpurf$.", max_size=8)
    | st.sampled_from(LITERALS)
    | st.builds(
        lambda a, b: a + b, st.sampled_from(LITERALS), st.text(alphabet=BOUNDARY, max_size=3)
    )
)


def test_class_methods_are_exactly_the_classes_on_every_code_point() -> None:
    # every class is ASCII, and isascii() is false from U+0080 on: the methods decide the rest
    assert all(hi < 0x80 for ranges in CLASS_METHODS for _, hi in ranges)
    assert not any(chr(cp).isascii() for cp in range(0x80, sys.maxunicode + 1))
    for ranges, methods in CLASS_METHODS.items():
        wrong = []
        for cp in range(0x80):
            c = chr(cp)
            inside = any(lo <= cp <= hi for lo, hi in ranges)
            if (c.isascii() and all(getattr(c, m)() for m in methods)) != inside:
                wrong.append(hex(cp))
        assert not wrong, (ranges, methods, wrong[:10])
        # without isascii() the methods are not the class: isdigit() holds for U+0661, ...
        assert any(
            all(getattr(chr(cp), m)() for m in methods) for cp in range(0x80, 0x2000)
        ), methods


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(BOUNDARY), min_size=1, max_size=6).map("".join))
def test_class_methods_hold_for_whole_strings(s: str) -> None:
    """On strings (not only characters): islower/isupper count cased characters, so with isalpha
    they still mean every letter has that case."""
    for ranges, methods in CLASS_METHODS.items():
        every = all(any(lo <= ord(c) <= hi for lo, hi in ranges) for c in s)
        assert (s.isascii() and all(getattr(s, m)() for m in methods)) == every, (s, methods)


@settings(max_examples=400, deadline=None)
@given(simple_patterns(), st.lists(SUBJECTS, max_size=12))
def test_simple_patterns_agree_with_re(pattern: str, subjects: list[str]) -> None:
    tests = simple_tests(pattern)
    assert tests is not None, pattern
    search, expected = simple_search(tests), compile_pattern(pattern).search
    for s in subjects:
        assert search(s) == (expected(s) is not None), (pattern, s)


SHAPES = {
    "^x-": (LiteralTest("x-", True, False),),
    r"^\$ref$": (LiteralTest("$ref", True, True),),
    r"\.json$": (LiteralTest(".json", False, True),),
    "type": (LiteralTest("type", False, False),),
    "^(get|put)$": (LiteralTest("get", True, True), LiteralTest("put", True, True)),
    "^(?:a(b))$": (LiteralTest("ab", True, True),),
    "^true|false$": (LiteralTest("true", True, False), LiteralTest("false", False, True)),
    "^[$]ref": (LiteralTest("$ref", True, False),),
    r"^\d+$": (RunTest(("isdigit",), 1, None),),
    "^[A-Z]{2}$": (RunTest(("isalpha", "isupper"), 2, 2),),
    "^[a-z]{0,16}$": (RunTest(("isalpha", "islower"), 0, 16),),
    "^[a-z]*$": None,  # two scans of a long string: slower than re
    "^[A-Z]{17}$": None,
    "^[A-Za-z]*$": (RunTest(("isalpha",), 0, None),),
    "^[0-9A-Za-z]{1,64}$": (RunTest(("isalnum",), 1, 64),),
    "^([0-9]{3})$|^(default)$": (
        RunTest(("isdigit",), 3, 3),
        LiteralTest("default", True, True),
    ),  # Swagger
    "^(?:([A-Z]))$": (RunTest(("isalpha", "isupper"), 1, 1),),
    "^([Pp][Rr][Ee][Ss][Ee][Nn][Tt]|[Aa][Bb][Ss][Ee][Nn][Tt])$": (
        CaselessTest("present"),
        CaselessTest("absent"),
    ),
    r"^(#[Mm][Ss]\.[Gg]1)$": (CaselessTest("#ms.g1"),),  # (non-letters as they are)
    "^[Pp]resent$": None,  # a letter of one case: not caseless
    "^([Aa][-])$": (CaselessTest("a-"),),  # a one-character class of no letter
    "^([Aa][+-/])$": None,  # a class of several characters
    "^([Aa][\\x80])$": None,  # a class of a non-ASCII character
    "^([Aa]\\x80)$": None,  # a non-ASCII literal
    "^([Yy]|no)$": None,
    "[Yy][Ee][Ss]": None,  # (only the whole string)
    "^[Yy][Ee][Ss]": None,  # (anchored at one end only)
    "^(-|[Cc])$": None,  # an alternative with no letter class
    "^[Zz][Ii][Pp]$": (CaselessTest("zip"),),  # (Z, the last upper-case letter)
    r"^[\[{][Aa]$": None,  # [ and { are 0x20 apart too, and no letters
    "^a(?:bc)d$": (LiteralTest("abcd", True, True),),  # a group of one literal alternative
}


@pytest.mark.parametrize("pattern", list(SHAPES))
def test_shapes(pattern: str) -> None:
    assert simple_tests(pattern) == SHAPES[pattern]


def test_many_alternatives_stay_simple_only_as_a_set() -> None:
    words = [f"w{i}" for i in range(3000)]
    equal = simple_tests("^(?:" + "|".join(words) + ")$")
    assert equal is not None and len(equal) == 3000  # one set lookup
    assert simple_tests("^(?:" + "|".join(words[:33]) + ")") is None  # a startswith of 33 texts
    assert simple_tests("|".join(words[:5])) is None  # five substring searches
    assert simple_tests("|".join(["^[a-z]$"] * 5)) is None


@pytest.mark.parametrize(
    "pattern",
    [
        "^[a-f0-9]{64}$",
        "^[a-z][a-z0-9_.-]+$",
        r"^\w+$",
        "^a+$",
        r"^\d+",
        r"\d+$",
        "^.$",
        "^[^a]$",
        r"\bx",
        "^a{2}$",
        "^(a|b+)$",
        "^x-(?=y)",
        r"^(a)\1$",
        "^[A-Z]{0}$",
        "a^",
        "^^a",
        "(?:)+",
        "^([0-9]|[a-z])$",
        "^([0-9]{2}x)$",
        "^(?:[0-9]+)+$",
    ],
)
def test_other_patterns_stay_on_the_regex_engines(pattern: str) -> None:
    assert simple_tests(pattern) is None


# -- through generated modules: the emitted tests are the regex too --------------------------------

MODULE_PATTERNS = [
    "^x-",
    r"^\$ref$",
    r"\.json$",
    "type",
    "^(get|put|post|delete)$",
    "^true|false$",
    r"^\d+$",
    "^[A-Z]{2}$",
    "^[a-z]{0,9}$",
    "^[0-9A-Za-z]{1,4}$",
    "^[a-zA-Z]?$",
    "^$",
    r"^\d{3}$|^x-|end$|^(a|b)$",
    "^([Yy][Ee][Ss]|[Kk])$",
    "^([Aa]-[Bb])$",
]


def in_both_places(pattern: str) -> dict[str, object]:
    """The pattern on property v's value, and as patternProperties of property o (with
    additionalProperties false, so the pattern loop's code runs)."""
    return {
        "properties": {
            "v": {"type": "string", "pattern": pattern},
            "o": {
                "type": "object",
                "patternProperties": {pattern: {"type": "integer"}},
                "additionalProperties": False,
            },
        }
    }


@pytest.fixture(scope="module")
def modules() -> dict[str, object]:
    """A module per pattern: `pattern` on the value, and the same pattern in patternProperties
    (with additionalProperties false, so the pattern loop's code runs), draft 2020-12."""
    out = {}
    for pattern in MODULE_PATTERNS:
        out[pattern] = generator.compile_module(in_both_places(pattern), format=False)
        source = out[pattern].__source__  # type: ignore[attr-defined]
        assert "str tests" in source and "_re.compile" in source  # (the error path keeps re)
    return out


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(MODULE_PATTERNS), SUBJECTS)
def test_emitted_str_tests_agree_with_re(modules: dict, pattern: str, s: str) -> None:
    module = modules[pattern]
    matches = compile_pattern(pattern).search(s) is not None
    assert module.is_valid({"v": s}) is matches, (pattern, s)
    assert module.is_valid({"o": {s: 1}}) is matches, (pattern, s)
    assert module.is_valid({"o": {s: "x"}}) is False
    expected = [] if matches else [("/v", "/properties/v/pattern")]
    assert [(e.instance_location, e.keyword_location) for e in module.errors({"v": s})] == expected


# -- ASCII first: the strings a wide class's run surely matches -----------------------------------

ASCII_SHAPES = {
    r"^\S*$": AsciiAccept(" ", 0, None, printable=True),  # FHIR's uri (\s holds 6 ASCII characters)
    r"^[ \r\n\t\S]+$": AsciiAccept(
        "\x0b\x0c", 1, None, printable=False
    ),  # FHIR's string and markdown
    r"^[^\s]+(\s[^\s]+)*$": AsciiAccept(
        " ", 1, None, printable=True
    ),  # FHIR's code: the run without the tail
    r"^.{1,64}$": AsciiAccept("\n\r", 1, 64, printable=False),
    "^[^/]+$": AsciiAccept("/", 1, None, printable=False),
    "^(?:[^ab]{2})$": AsciiAccept("ab", 2, 2, printable=False),
    r"^[^~\x7f]+$": AsciiAccept("~\x7f", 1, None, printable=False),  # (the last two)
    r"^[\s\S]{3}$": AsciiAccept("", 3, 3, printable=False),
    r"^[^\x00-\x1f]+$": AsciiAccept(
        "", 1, None, printable=True
    ),  # (32 controls left out, no printable one)
    r"^x?\S+(?:-y)?$": AsciiAccept(" ", 1, None, printable=True),
    r"^\S*(\s\S+)*$": AsciiAccept(" ", 0, None, printable=True),
    r"^\s?\S*$": AsciiAccept(
        " ", 0, None, printable=True
    ),  # (the first run, \s, leaves out too much)
    # no such run: the class leaves out too many printable characters, a term must match other
    # text, an assertion or a reference is there, or there are alternatives
    r"^[A-Za-z0-9\-\.]{1,64}$": None,
    "^[^abc]+$": None,
    r"^\S+x$": None,
    r"^(?!x)\S+$": None,
    r"^\S+\b$": None,
    r"^(\S)\1$": None,
    r"^\S+$|^x$": None,
    r"\S+$": None,
    r"^\S+": None,
    "^$": None,
    "^(a|b)+$": None,
}


@pytest.mark.parametrize("pattern", list(ASCII_SHAPES))
def test_ascii_shapes(pattern: str) -> None:
    assert ascii_accept(pattern) == ASCII_SHAPES[pattern]


WIDE_CLASSES = [r"\S", r"[^\s]", ".", "[^/]", r"[ \r\n\t\S]", "[^ab]", r"[\s\S]", r"[^\d\s]"]
# printable ASCII, and strings of the characters the classes leave out or tell apart: controls
# (\v and \f, which [ \r\n\t\S] leaves out; \x1c, which ECMA's \S holds and Python's str.isspace
# does not), DEL, NUL, and non-ASCII spaces, letters and an astral character
WIDE_RUN_SUBJECTS = st.text(alphabet=[chr(c) for c in range(0x20, 0x7F)], max_size=6) | st.text(
    alphabet="ab/ x-1\t\n\x0b\x0c\x1c\x7f\x00\u00a0\u00e9\u2028\ufeff\U0001f600", max_size=6
)


@st.composite
def wide_runs(draw: st.DrawFn) -> str:
    """Anchored runs of a wide class, with optional terms around them."""
    cls = draw(st.sampled_from(WIDE_CLASSES))
    count = draw(st.sampled_from(["", "*", "+", "?", "{2}", "{1,3}", "{0,2}", "{2,}", "+?"]))
    run = draw(st.sampled_from(["{}", "({})", "(?:{})"])).format(cls + count)
    before = draw(st.sampled_from(["", "x?", "(?:ab)*", r"(\s)?"]))
    after = draw(st.sampled_from(["", r"(\s[^\s]+)*", "(?:-y)?", "a{0,2}"]))
    return "^" + before + run + after + "$"


@settings(max_examples=400, deadline=None)
@given(wide_runs(), st.lists(WIDE_RUN_SUBJECTS, max_size=12))
def test_what_ascii_first_accepts_the_regex_matches(pattern: str, subjects: list[str]) -> None:
    accept = ascii_accept(pattern)
    if r"[^\d\s]" in pattern:
        assert accept is None  # ten digits and the space left out: more than MAX_EXCLUDED
        return
    assert accept is not None, pattern
    search = compile_pattern(pattern).search
    for s in subjects:
        if ascii_accepts(accept, s):
            assert search(s) is not None, (pattern, s)


ASCII_MODULE_PATTERNS = [
    r"^\S*$",
    r"^[ \r\n\t\S]+$",
    r"^[^\s]+(\s[^\s]+)*$",
    "^.{1,4}$",
    "^[^/]{2}$",
    r"^\S+$",
    "^[^/]{2,8}$",
]


@pytest.fixture(scope="module")
def ascii_modules() -> dict[str, object]:
    out = {}
    for pattern in ASCII_MODULE_PATTERNS:
        out[pattern] = generator.compile_module(in_both_places(pattern), format=False)
        source = out[pattern].__source__  # type: ignore[attr-defined]
        accept = ascii_accept(pattern)
        assert accept is not None and "ASCII tested as str tests" in source, source
        # (a call per character only where the accepted strings are the printable ones)
        assert (".isprintable()" in source) is accept.printable, source
    return out


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(ASCII_MODULE_PATTERNS), WIDE_RUN_SUBJECTS | SUBJECTS)
def test_emitted_ascii_first_agrees_with_re(ascii_modules: dict, pattern: str, s: str) -> None:
    module = ascii_modules[pattern]
    matches = compile_pattern(pattern).search(s) is not None
    assert module.is_valid({"v": s}) is matches, (pattern, s)
    assert module.is_valid({"o": {s: 1}}) is matches, (pattern, s)  # (a property name)
    expected = [] if matches else [("/v", "/properties/v/pattern")]
    assert [(e.instance_location, e.keyword_location) for e in module.errors({"v": s})] == expected


# Strings at and around each length bound, of a printable character, an excluded one, a control
# character and a non-ASCII one, alone and at either end of an accepted run.
BOUND_SUBJECTS = sorted(
    {
        text
        for n in range(11)
        for c in "a/ ~\t\n\x0b\x0c\x7f\u00e9"
        for text in (c * n, "a" * (n - 1) + c if n else "", c + "a" * (n - 1) if n else "")
    }
)


@pytest.mark.parametrize("pattern", ASCII_MODULE_PATTERNS)
def test_emitted_ascii_first_at_the_length_bounds(ascii_modules: dict, pattern: str) -> None:
    """Each emitted length test (`!= ""`, `len(s) == n`, `>= n`, `<= n`) and excluded character, on
    every string near the bounds, where a random draw may miss one."""
    module = ascii_modules[pattern]
    search = compile_pattern(pattern).search
    for s in BOUND_SUBJECTS:
        matches = search(s) is not None
        assert module.is_valid({"v": s}) is matches, (pattern, s)
        assert module.is_valid({"o": {s: 1}}) is matches, (pattern, s)
        assert (module.errors({"o": {s: 1}}) == []) is matches, (pattern, s)


@pytest.mark.parametrize("pattern", ["^.{1,4}$", "^[^/]{2,8}$", "^(?:[^ab]{2})$", r"^[\s\S]{3}$"])
def test_ascii_accepts_answers_as_the_pattern_on_ascii_strings(pattern: str) -> None:
    """A run of a class that holds every ASCII character but the excluded ones (no printable
    form): on an ASCII string, ascii_accepts is the pattern's answer, both ways."""
    accept = ascii_accept(pattern)
    assert accept is not None and not accept.printable, pattern
    search = compile_pattern(pattern).search
    for s in BOUND_SUBJECTS:
        if s.isascii():
            assert ascii_accepts(accept, s) is (search(s) is not None), (pattern, s)


# -- patterns every string matches: no check at all --------------------------------------------

ALWAYS = {
    ".*": True,
    "^.*": True,
    ".*$": True,
    "x?": True,
    "a|.*": True,
    "": True,
    "(a*)*": True,
    "^(?:ab)*": True,
    "^.*$": False,  # a line terminator: `.` does not match it and `$` is the end of the string
    "^$": False,
    ".+": False,
    r"\b.*": False,
    "a*b": False,
    "^x?$": False,
    "(?:)": False,
}


@pytest.mark.parametrize("pattern", list(ALWAYS))
def test_patterns_every_string_matches(pattern: str) -> None:
    assert always_matches(pattern) is ALWAYS[pattern]


# Patterns one anchor, one term or one line terminator away from matching every string.
NEARLY_ALWAYS = [
    "^.*$",
    "^$",
    ".+",
    r"\b.*",
    "a*b",
    "^x?$",
    "x{1,}",
    "a|^$",
    "^(?:ab)*$",
    "^.*\\n?$",
]
NEAR_SUBJECTS = ["", "a", "x", "xx", "ab", "abab", "\n", "a\nb", "b\n", "\u2028", " ", "-"]


@pytest.mark.parametrize("pattern", NEARLY_ALWAYS)
def test_a_pattern_some_string_fails_is_checked_wherever_it_runs(pattern: str) -> None:
    """A pattern taken for one every string matches is not checked at all, so each that some
    string fails must answer as the engine does on the strings that fail it: as `pattern`, as a
    patternProperties key (beside additionalProperties) and under propertyNames."""
    assert not always_matches(pattern)
    search = compile_pattern(pattern).search
    assert any(search(s) is None for s in NEAR_SUBJECTS), pattern
    values = {"properties": {"v": {"type": "string", "pattern": pattern}}}
    keys = {
        "patternProperties": {pattern: {"type": "integer"}},
        "additionalProperties": {"type": "boolean"},
    }
    names = {"propertyNames": {"pattern": pattern}}
    modules = [
        (generator.compile_module(schema, format=False), DraftReference(schema, "draft2020-12"))
        for schema in (values, keys, names)
    ]
    for s in NEAR_SUBJECTS:
        matches = search(s) is not None
        for (module, reference), instance in zip(modules, ({"v": s}, {s: 1}, {s: None})):
            assert module.is_valid(instance) is matches is reference.is_valid(instance), (
                pattern,
                s,
            )
            assert (module.errors(instance) == []) is matches, (pattern, s)
        module, _ = modules[1]
        assert module.is_valid({s: True}) is (not matches), (
            pattern,
            s,
        )  # additionalProperties took it


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([p for p, always in ALWAYS.items() if always]), WIDE_RUN_SUBJECTS | SUBJECTS)
def test_what_always_matches_matches_every_string(pattern: str, s: str) -> None:
    assert compile_pattern(pattern).search(s) is not None


def test_a_pattern_every_string_matches_is_no_check() -> None:
    schema = {"type": "string", "pattern": ".*", "maxLength": 3}
    source = generator.compile_source(schema, format=False)
    assert (
        "_re.compile" not in source
        and "import re" not in source
        and "pattern" not in source.split('"Fast path')[1].split("def _e")[0]
    )
    module = generator.compile_module(schema, format=False)
    for value, valid in (("", True), ("a\nb", True), ("abcd", False), (1, False)):
        assert module.is_valid(value) is valid and (module.errors(value) == []) is valid


# The places a patternProperties key runs (alone, with additionalProperties, with another pattern,
# under unevaluatedProperties), each with `.*` as a key: no engine, the answers of the reference.
ALWAYS_KEY_SCHEMAS = [
    {"patternProperties": {".*": {"type": "string"}}},
    {"patternProperties": {".*": {"type": "string"}}, "additionalProperties": False},
    {
        "properties": {"a": {}},
        "patternProperties": {".*": True, "^x": {"type": "integer"}},
        "additionalProperties": {"type": "number"},
    },
    {
        "patternProperties": {"": {"type": "string"}, "^x-": {"maxLength": 2}},
        "additionalProperties": False,
    },
    {"patternProperties": {".*": {"type": "string"}}, "unevaluatedProperties": False},
    {"propertyNames": {"pattern": "^.*"}, "patternProperties": {"x?": {"type": "integer"}}},
]
ALWAYS_KEY_INSTANCES = [
    {},
    {"a": 1},
    {"a": "s"},
    {"b": 1.5},
    {"x1": 2},
    {"x1": 2.5},
    {"x-y": "abc"},
    {"x-y": "ab"},
    {"\n": "s", "": 1},
    7,
]


@pytest.mark.parametrize("schema", ALWAYS_KEY_SCHEMAS, ids=range(len(ALWAYS_KEY_SCHEMAS)))
def test_a_pattern_every_name_matches_is_no_test_of_the_name(schema: dict) -> None:
    module = generator.compile_module(schema, profile="draft2020-12", format=False)
    source = module.__source__  # type: ignore[attr-defined]
    assert "_re.compile" not in source and "_P0" not in source and "if True" not in source
    reference = DraftReference(schema, "draft2020-12")
    for instance in ALWAYS_KEY_INSTANCES:
        expected = sorted(
            (e.instance_location, e.keyword_location) for e in reference.errors(instance)
        )
        found = sorted((e.instance_location, e.keyword_location) for e in module.errors(instance))
        assert found == expected, (schema, instance)
        assert module.is_valid(instance) is (not expected), (schema, instance)
