"""The plan API (generator/regex/plan.py) and the matcher source a generated module copies."""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import generator
from generator.codegen import literal
from generator.regex import (
    MATCHER_FUNCTIONS,
    RegexTranslationError,
    compile_pattern,
    matcher_sources,
    plan_pattern,
    plan_search,
    translate,
)
from generator.regex.automaton import MAX_DFA_CELLS, MAX_NFA_STATES, compile_automaton
from generator.regex.ecma import parse
from generator.regex.matcher import ALIASES, FUNCTIONS, _DfaTable, _NfaTable

from .patterns import ALPHABET


def test_safe_patterns_keep_re() -> None:
    plan = plan_pattern(r"^[a-z]+$")
    assert plan.kind == "re"
    assert plan.python == translate(r"^[a-z]+$")
    assert plan.reason == "" and plan.function is None and plan.table is None


def test_risky_patterns_get_an_automaton() -> None:
    plan = plan_pattern(r"^(a+)+$")
    assert plan.kind == "automaton"
    assert plan.function == "_dfa_search"
    assert plan.python == translate(r"^(a+)+$")  # still there, for whoever wants it
    assert "position 2" in plan.reason and plan.position == 2


def test_risky_back_references_are_unsafe() -> None:
    plan = plan_pattern(r"^(\w+)\s\1$")
    assert plan.kind == "unsafe"
    assert "a back-reference (at position 8)" in plan.reason
    assert "no linear-time engine exists" in plan.reason
    assert plan.function is None and plan.table is None


def test_risky_look_arounds_are_unsafe() -> None:
    plan = plan_pattern(r"(?=.*x)\w+y")
    assert plan.kind == "unsafe"
    assert "a look-ahead (at position 0)" in plan.reason
    plan = plan_pattern(r"(?<=a)(a|a)*b")
    assert plan.kind == "unsafe" and "a look-behind" in plan.reason


def test_safe_look_arounds_and_back_references_keep_re() -> None:
    assert plan_pattern(r"^(?=.*\d)(?=.*[a-z]).{8,}$").kind == "re"
    assert plan_pattern(r"^(a|b)\1$").kind == "re"


def test_references_that_can_only_match_empty_do_not_prevent_the_automaton() -> None:
    # \1 before its group always matches empty; the pattern is otherwise risky
    plan = plan_pattern(r"\1(a|a)*b")
    assert plan.kind == "automaton"
    search = plan_search(plan)
    assert search("aab") and not search("aaa")


@pytest.mark.parametrize("pattern", [r"^(\S)\1*$", r"^(a)\1*$", r"^(a)\1{0,3}$", r"^(a)(?:\1)*$"])
def test_repeated_back_references_read_text(pattern: str) -> None:
    # A back-reference creates no automaton position, but it reads what its group matched: a
    # repetition of it is not a repetition of nothing (the automaton answered "aa" as no match)
    plan = plan_pattern(pattern)
    assert plan.kind == "unsafe" and "a back-reference" in plan.reason
    search = plan_search(plan)
    assert [search(text) for text in ("a", "aa", "aaa", "ab", "")] == [
        True,
        True,
        True,
        False,
        False,
    ]
    with pytest.warns(UserWarning, match="unsafe"):
        module = generator.compile_module(
            {"pattern": pattern}, profile="draft2020-12", format=False
        )
    assert [module.is_valid(text) for text in ("a", "aa", "aaa", "ab", "")] == [
        True,
        True,
        True,
        False,
        False,
    ]
    assert module.errors("aaa") == [] and len(module.errors("ab")) == 1


def test_huge_repetitions_of_nothing_plan_quickly_and_match_exactly() -> None:
    # Python's re never finishes (?:\b){4294967294}a; the automaton needs one copy of \b
    plan = plan_pattern(r"(?:\b){4294967294}a")
    assert plan.kind == "automaton" and "4294967294 iterations" in plan.reason
    search, small = plan_search(plan), compile_pattern(r"(?:\b){3}a").search
    for text in ("", "a", "ba", " a", "b a", "_a"):
        assert search(text) == (small(text) is not None), text


def test_automata_beyond_the_bounds_are_unsafe() -> None:
    plan = plan_pattern(r"(a|a)*(?:[ab]{60}){60}")
    assert plan.kind == "unsafe"
    assert "too large" in plan.reason


def test_dfa_blow_up_falls_back_to_the_nfa() -> None:
    pattern = r"(a|b)*a(a|b){14}c"  # a DFA needs 2**15 states
    plan = plan_pattern(pattern)
    assert plan.kind == "automaton" and plan.function == "_nfa_search"
    search = plan_search(plan)
    expected = compile_pattern(pattern).search
    rng = random.Random(7)
    for _ in range(300):
        text = "".join(rng.choice("abc") for _ in range(rng.randint(0, 40)))
        assert search(text) == (expected(text) is not None), text


def test_dfa_tables_respect_the_cell_bound() -> None:
    compiled = compile_automaton(parse(r"(a|b)*a(a|b){8}c"))
    assert compiled.function == "_dfa_search"
    assert compiled.states * compiled.classes <= MAX_DFA_CELLS
    nfa = compile_automaton(parse(r"(a|b)*a(a|b){14}c"))
    assert nfa.function == "_nfa_search" and nfa.states <= MAX_NFA_STATES


def test_invalid_patterns_raise() -> None:
    for bad in ("a**", "(?<=a+)b", r"\p{Alphabetic}", "(?:(a)|b)+\\1"):
        with pytest.raises(RegexTranslationError):
            plan_pattern(bad)


def test_plans_are_cached_and_deterministic() -> None:
    assert plan_pattern(r"(a|a)*b") is plan_pattern(r"(a|a)*b")
    fresh = compile_automaton(parse(r"(a|a)*b"))
    assert fresh.table == plan_pattern(r"(a|a)*b").table


# ---------------------------------------------------------------------------------------------
# Tables are plain literals; the matcher source stands alone.

RISKY_SAMPLE = [
    r"^(a+)+$",
    r"\bfoo.*\s+$",
    r"^\p{Lu}(\p{Ll}+\s?)*$",
    r"(a|b)*a(a|b){14}c",
    r"(\u{1F600}|\u{1F600})*\d$",
]


def _plain(value) -> bool:
    if isinstance(value, tuple):
        return all(_plain(v) for v in value)
    return type(value) in (int, str)


@pytest.mark.parametrize("pattern", RISKY_SAMPLE)
def test_tables_are_plain_literals(pattern: str) -> None:
    plan = plan_pattern(pattern)
    assert plan.kind == "automaton"
    assert _plain(plan.table)
    text = literal(plan.table).text
    assert text.isascii()
    assert eval(text, {"__builtins__": {}}) == plan.table  # noqa: S307 - our own literal


def _standalone_namespace(functions=MATCHER_FUNCTIONS) -> dict:
    imports, aliases, sources = matcher_sources(functions)
    namespace: dict = {}
    exec("\n".join(imports + aliases) + "\n\n" + "\n\n".join(sources), namespace)  # noqa: S102
    return namespace


@pytest.mark.parametrize("pattern", RISKY_SAMPLE)
def test_matcher_source_works_in_a_fresh_namespace(pattern: str) -> None:
    plan = plan_pattern(pattern)
    namespace = _standalone_namespace()
    copied = namespace[plan.function]
    assert copied is not FUNCTIONS[plan.function]
    expected = compile_pattern(pattern).search
    rng = random.Random(pattern)
    alphabet = ALPHABET + "foAB\u00e9\u00c9c"
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 20)))
        assert copied(text, plan.table) == (expected(text) is not None), (pattern, text)


def test_matcher_sources_give_only_what_is_asked() -> None:
    imports, aliases, sources = matcher_sources(["_dfa_search"])
    assert imports == ["from bisect import bisect_right as _bisect_right"]
    assert len(aliases) == 1 and aliases[0].startswith("_DfaTable = ")
    assert len(sources) == 1 and sources[0].startswith("def _dfa_search(")
    assert matcher_sources([]) == ([], [], [])
    with pytest.raises(ValueError, match=r"^unknown matcher functions: \['_no_such_matcher'\]$"):
        matcher_sources(["_no_such_matcher", "_dfa_search"])
    namespace = _standalone_namespace(["_nfa_search"])
    assert "_nfa_search" in namespace and "_dfa_search" not in namespace


def test_alias_sources_are_the_aliases() -> None:
    namespace: dict = {}
    for name, (alias, source) in ALIASES.items():
        exec(source, namespace)  # noqa: S102
        assert namespace[alias] == {"_DfaTable": _DfaTable, "_NfaTable": _NfaTable}[alias], name


def test_a_module_using_the_matchers_passes_mypy_strict(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    imports, aliases, sources = matcher_sources()
    dfa = plan_pattern(r"^(a+)+$")
    nfa = plan_pattern(r"(a|b)*a(a|b){14}c")
    body = "\n".join(imports + [""] + aliases) + "\n\n" + "\n\n".join(sources)
    body += f"\n_P0 = {literal(dfa.table).text}\n_P1 = {literal(nfa.table).text}\n"
    body += textwrap.dedent("""
        def is_valid(x: str) -> bool:
            return _dfa_search(x, _P0) and not _nfa_search(x, _P1)
        """)
    module = tmp_path / "uses_matchers.py"
    module.write_text(body, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(module)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
