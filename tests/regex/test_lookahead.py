"""Look-aheads right after the start anchor (`^(?!X)Y`, `^(?=X)Y`, chains of them) compile to a
DFA, the product of `^(?:X)`'s and `^Y`'s (generator/regex/automaton.py), that answers as
Python's `re` on the ECMA translation (tests/test_ecma_regex.py pins the translation to ECMA,
and to Node.js where it is installed): on chosen strings, seeded random ones and Hypothesis'."""

from __future__ import annotations

import random
from typing import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.regex import RegexTranslationError, compile_pattern, plan_pattern, plan_search
from generator.regex.automaton import compile_automaton
from generator.regex.ecma import _Group, parse
from generator.regex.matcher import FUNCTIONS
from generator.regex.nfa import TooLarge, Unsupported

from .patterns import regular_patterns, subjects

ENTRY_PATH = r"^(?!/)(?!.*(?:^|/)\.\.(?:/|$))[A-Za-z0-9_./-]+$"
VERSION = r"^(?!latest$).+"
# Each with the part that the look-aheads take away (or add): the pattern without them answers
# otherwise on some chosen string.
LOOKAHEADS = [
    VERSION,  # `$` inside the look-ahead: "latestx" passes, "latest" fails
    ENTRY_PATH,  # `^` inside it, and a look-ahead that scans
    r"^(?!yy$)y+$",
    r"^(?=.*\d)(?=.*[a-z]).{6,}$",
    r"^(?!.*\.\.)[a-z./]+$",
    r"^(?!.*ab)(?=.*\bb).*x",
    r"^(?!$)",
    r"^(?=a$)",
    r"^(?!a)",
    r"^(?=(?:^|x)y)",
    r"^(?!\b).",
    r"^(?=\w+\b-)\w",
    r"^(?!(?:ab)+$)[ab]*$",
    r"^(?!.*\u{1F600})\S+$",
    r"^(?!\u{1F600})(?=.{2})",
    r"^(?=a|b$)..",
    r"^(?!latest$)(?!stable$)[a-z]+$",
    r"^(?=[^.]*\.[^.]*$)(?!\.)[\w.]+$",
]
STRINGS = [
    "",
    "a",
    "b",
    "x",
    "y",
    "yy",
    "xy",
    "xyy",
    "ab",
    "ba",
    "abab",
    "aba",
    "bx",
    "abx",
    "bax",
    "b x",
    " bx",
    "latest",
    "latestx",
    "latest\n",
    "xlatest",
    "stable",
    "stablex",
    "src/main.py",
    "src/../etc",
    "src/..",
    "../src",
    "..",
    "a..b",
    "a/..b",
    "a/b..",
    "/abs",
    "a/b",
    "./x",
    "abc123",
    "abcdef",
    "123456",
    "ab1",
    " ",
    "-",
    "-a",
    "ab-",
    "ab -",
    "\n",
    "\U0001f600",
    "\U0001f600a",
    "a\U0001f600",
    "\ud83d",
    "é",
    "a.b",
    "a.b.c",
    ".ab",
    "ab.",
]
ALPHABET = "ab1xy ./-\n\u00e9\U0001f600\ud83dlatesn"


def dfa_search(pattern: str) -> Callable[[str], bool]:
    compiled = compile_automaton(parse(pattern))
    assert compiled.function == "_dfa_search", pattern
    function = FUNCTIONS["_dfa_search"]
    return lambda s: function(s, compiled.table)


def re_search(pattern: str) -> Callable[[str], bool]:
    search = compile_pattern(pattern).search
    return lambda s: search(s) is not None


def _without_lookaheads(pattern: str) -> str:
    """The pattern with its leading look-aheads taken out (`^` and the rest kept)."""
    terms = parse(pattern).body[0]
    ends = [t.end for t in terms if isinstance(t, _Group) and t.kind in ("ahead", "nahead")]
    return "^" + pattern[max(ends) + 1 :]


@pytest.mark.parametrize("pattern", LOOKAHEADS)
def test_chosen_lookaheads_answer_as_re(pattern: str) -> None:
    expected, got = re_search(pattern), dfa_search(pattern)
    assert [s for s in STRINGS if expected(s) != got(s)] == []
    # the strings tell the pattern apart: it matches some and fails some, and the look-aheads
    # change the answer of the pattern without them on some
    assert {expected(s) for s in STRINGS} == {True, False}, pattern
    plain = re_search(_without_lookaheads(pattern))
    assert any(plain(s) != expected(s) for s in STRINGS), pattern


@pytest.mark.parametrize("pattern", LOOKAHEADS)
def test_random_strings_answer_as_re(pattern: str) -> None:
    rng = random.Random(pattern)
    strings = ["".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 10))) for _ in range(800)]
    expected, got = re_search(pattern), dfa_search(pattern)
    assert [s for s in strings if expected(s) != got(s)] == []


def test_the_tool_package_s_two_patterns() -> None:
    path, version = dfa_search(ENTRY_PATH), dfa_search(VERSION)
    for s in ("src/main.py", "a..b", "a/b..", "..a/b", "x"):
        assert path(s), s
    for s in ("src/../etc", "..", "../a", "a/..", "/abs", "", "a b", "a/\n"):
        assert not path(s), s
    for s in ("1.0", "latestx", "xlatest", "latest\nx", "lates"):
        assert version(s), s
    for s in ("latest", "", "\n"):
        assert not version(s), s
    # each is a small table: the C backend runs it (its cells are unsigned shorts)
    for pattern in (ENTRY_PATH, VERSION):
        compiled = compile_automaton(parse(pattern))
        assert compiled.states * compiled.classes < 64, (pattern, compiled.states)


def test_a_pattern_the_lookahead_always_fails_matches_nothing() -> None:
    # `a*` matches the empty prefix of every string, so `(?!a*)` fails everywhere; `(?=)` and
    # `(?=a*)` hold everywhere
    never = dfa_search(r"^(?!a*)b")
    always = dfa_search(r"^(?=a*)(?=)")
    for s in STRINGS:
        assert not never(s) and always(s), s


@pytest.mark.parametrize(
    "pattern,what",
    [
        (r"a(?!b)", "a look-ahead"),  # not at the start
        (r"(?!a)b", "a look-ahead"),  # no `^`: evaluated at every position
        (r"^(?!a)b|c", "a look-ahead"),  # one alternative only
        (r"^(?<!a)b", "a look-behind"),
        (r"^(?!a)b(?=c)", "a look-ahead"),  # another look-around after the rest
        (r"^(?!a(?=b))c", "a look-ahead"),  # nested
        (r"^(?=(a+))a*b\1$", "a look-ahead"),  # a back-reference
        (r"^\b(?!a)", "a look-ahead"),
    ],
)
def test_other_lookarounds_have_no_automaton(pattern: str, what: str) -> None:
    with pytest.raises(Unsupported) as raised:
        compile_automaton(parse(pattern))
    assert raised.value.what == what


def test_a_lookahead_product_respects_the_size_bounds() -> None:
    # no NFA form: a DFA beyond the cells allowed is too large, for the look-ahead or the rest
    with pytest.raises(TooLarge):
        compile_automaton(parse(VERSION), max_dfa_cells=0)
    with pytest.raises(TooLarge) as raised:
        compile_automaton(parse(r"^(?!x)[ab]*a[ab]{12}$"))
    assert (raised.value.size, raised.value.limit) == (4097, 4096)  # one past the bound
    assert str(raised.value) == (
        "the DFA of one of its look-aheads' parts needs more than 4096 cells "
        "(a look-ahead has no NFA form)"
    )
    with pytest.raises(TooLarge):
        compile_automaton(parse(r"^(?![ab]*a[ab]{12}$)x"))
    compiled = compile_automaton(parse(VERSION))
    needed = compiled.states * compiled.classes
    with pytest.raises(TooLarge):
        compile_automaton(parse(VERSION), max_dfa_cells=needed - 1)
    # the positions are counted over all the parts together
    with pytest.raises(TooLarge):
        compile_automaton(parse(r"^(?=a{6})a{6}"), max_positions=11)
    assert compile_automaton(parse(r"^(?=a{6})a{6}"), max_positions=12).states > 0


def test_the_product_s_cell_bound_is_exact() -> None:
    # VERSION's product before it is settled: the start and a state per prefix of "latest" read
    # (the rest has matched by then), over 7 classes (l, a, t, e, s, line terminators, others);
    # a part that has its answer leaves the product's state, so no other state is made
    cells = 7 * 7
    assert compile_automaton(parse(VERSION), max_dfa_cells=cells).function == "_dfa_search"
    with pytest.raises(TooLarge) as raised:
        compile_automaton(parse(VERSION), max_dfa_cells=cells - 1)
    assert (raised.value.size, raised.value.limit) == (cells, cells - 1)
    assert str(raised.value) == (
        f"the DFA of its look-aheads needs more than {cells - 1} cells "
        "(a look-ahead has no NFA form)"
    )


def test_a_risky_lookahead_pattern_plans_as_the_dfa() -> None:
    pattern = r"^(?!.*(?:foo)+bar).*$"  # backtracking in the look-ahead is super-linear
    plan = plan_pattern(pattern)
    assert plan.kind == "automaton" and plan.function == "_dfa_search"
    search, expected = plan_search(plan), re_search(pattern)
    for s in ("foobar", "xfoofoobar", "foo bar", "", "fobar\nfoobar"):
        assert search(s) == expected(s), s
    slow = "foo" * 5000
    assert search(slow) and not search(slow + "bar")
    # one too large for its DFA stays unsafe, saying why
    plan = plan_pattern(r"^(?!x)(?:a|a)*[ab]*a[ab]{12}$")
    assert plan.kind == "unsafe" and "too large" in plan.reason


LOOKAHEAD_PATTERNS = st.tuples(
    st.lists(st.tuples(st.booleans(), regular_patterns), min_size=1, max_size=2),
    regular_patterns,
).map(lambda t: "^" + "".join(("(?!" if neg else "(?=") + x + ")" for neg, x in t[0]) + t[1])


@settings(max_examples=200, deadline=None, derandomize=True)
@given(LOOKAHEAD_PATTERNS, st.lists(subjects, min_size=1, max_size=8))
def test_generated_lookahead_patterns_answer_as_re(pattern: str, strings: list[str]) -> None:
    try:
        compile_pattern(pattern)
    except RegexTranslationError:  # e.g. a quantifier over a bare assertion
        return
    try:
        compiled = compile_automaton(parse(pattern))
    except TooLarge:
        return
    assert compiled.function == "_dfa_search"
    expected, got = re_search(pattern), FUNCTIONS["_dfa_search"]
    assert [s for s in strings if expected(s) != got(s, compiled.table)] == [], pattern


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.sampled_from(LOOKAHEADS), subjects | st.sampled_from(STRINGS))
def test_generated_strings_answer_as_re(pattern: str, s: str) -> None:
    assert dfa_search(pattern)(s) == re_search(pattern)(s)
