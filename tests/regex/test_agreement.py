"""The linear-time automaton answers exactly as Python's `re` on the ECMA translation does.

Every pattern of tests/test_ecma_regex.py (which pins the translation to ECMA-262 semantics, and
to Node.js where it is installed) and of the JSON Schema Test Suite's pattern files, and
Hypothesis-generated patterns, both as a DFA and, forced, as an NFA."""

from __future__ import annotations

import ast
import json
from typing import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.regex import RegexTranslationError, compile_pattern, plan_pattern, plan_search
from generator.regex.automaton import CompiledAutomaton, compile_automaton
from generator.regex.ecma import parse
from generator.regex.matcher import FUNCTIONS
from generator.regex.nfa import TooLarge, Unsupported

from ..conftest import ROOT
from ..suite import MISSING, suite_dir
from .patterns import regular_patterns, subjects

SUITE = suite_dir() / "tests"
SUITE_FILES = (
    "pattern.json",
    "patternProperties.json",
    "optional/ecmascript-regex.json",
    "optional/non-bmp-regex.json",
)


def automaton_search(compiled: CompiledAutomaton) -> Callable[[str], bool]:
    function = FUNCTIONS[compiled.function]
    return lambda s: function(s, compiled.table)


def re_search(pattern: str) -> Callable[[str], bool]:
    search = compile_pattern(pattern).search
    return lambda s: search(s) is not None


def disagreements(pattern: str, strings, compiled: CompiledAutomaton) -> list[str]:
    expected, got = re_search(pattern), automaton_search(compiled)
    return [s for s in strings if expected(s) != got(s)]


# ---------------------------------------------------------------------------------------------
# Every pattern of tests/test_ecma_regex.py.


def _ecma_test_strings() -> list[str]:
    """Every string constant of tests/test_ecma_regex.py: its patterns and its subjects."""
    tree = ast.parse((ROOT / "tests" / "test_ecma_regex.py").read_text(encoding="utf-8"))
    found = {
        n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    }
    return sorted(found)


ECMA_STRINGS = _ecma_test_strings()


def _translatable(pattern: str) -> bool:
    try:
        compile_pattern(pattern)
    except RegexTranslationError:
        return False
    return True


ECMA_PATTERNS = [p for p in ECMA_STRINGS if _translatable(p)]


def test_the_ecma_test_file_is_harvested() -> None:
    # its SEMANTICS table alone has over a hundred patterns; a broken harvest would find few
    assert len(ECMA_PATTERNS) > 300
    assert r"\bfoo\b" in ECMA_PATTERNS and r"^\p{Lu}$" in ECMA_PATTERNS


def test_every_pattern_of_the_ecma_tests_agrees_with_re() -> None:
    unsupported = []
    for pattern in ECMA_PATTERNS:
        try:
            compiled = compile_automaton(parse(pattern))
        except Unsupported as exc:
            unsupported.append((pattern, exc.what))
            continue
        except TooLarge:  # a{0,4294967294}: beyond the automaton's bound, and said so
            assert "4294967294" in pattern
            continue
        assert disagreements(pattern, ECMA_STRINGS, compiled) == [], pattern
    # what has no automaton is exactly what uses a look-around or a back-reference that can
    # match text (a reference that can only match empty, like \1(a), has one)
    for pattern, what in unsupported:
        assert what in ("a look-ahead", "a look-behind", "a back-reference"), pattern
        assert "(?" in pattern or "\\" in pattern, pattern
    assert 0 < len(unsupported) < 60


# ---------------------------------------------------------------------------------------------
# The JSON Schema Test Suite: every pattern / instance pair of its pattern files.


def _collect_patterns(schema, out: set) -> None:
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "pattern" and isinstance(value, str):
                out.add(value)
            elif key == "patternProperties" and isinstance(value, dict):
                out.update(value)
            _collect_patterns(value, out)
    elif isinstance(schema, list):
        for value in schema:
            _collect_patterns(value, out)


def _collect_strings(data, out: set) -> None:
    if isinstance(data, str):
        out.add(data)
    elif isinstance(data, dict):
        for key, value in data.items():
            out.add(key)
            _collect_strings(value, out)
    elif isinstance(data, list):
        for value in data:
            _collect_strings(value, out)


def _suite_pairs() -> list:
    pairs = []
    for draft in sorted(SUITE.iterdir()) if SUITE.is_dir() else []:
        for name in SUITE_FILES:
            path = draft / name
            if not path.is_file():
                continue
            for group in json.loads(path.read_text(encoding="utf-8")):
                patterns: set = set()
                strings: set = set()
                _collect_patterns(group["schema"], patterns)
                for test in group["tests"]:
                    _collect_strings(test["data"], strings)
                for pattern in sorted(patterns):
                    case = f"{draft.name}/{name}: {group['description']} {pattern!r}"
                    pairs.append(pytest.param(pattern, sorted(strings), id=case))
    return pairs


SUITE_PAIRS = _suite_pairs()


@pytest.mark.parametrize("pattern,strings", SUITE_PAIRS or [pytest.param("", [], id="absent")])
def test_json_schema_test_suite_pairs_agree(pattern: str, strings: list) -> None:
    assert SUITE_PAIRS, MISSING.format(suite_dir())
    compiled = compile_automaton(parse(pattern))  # none of them needs a look-around
    assert disagreements(pattern, strings, compiled) == []
    forced_nfa = compile_automaton(parse(pattern), max_dfa_cells=0)
    assert forced_nfa.function == "_nfa_search"
    assert disagreements(pattern, strings, forced_nfa) == []
    # and the plan, whichever engine it picks, answers the same
    plan = plan_search(plan_pattern(pattern))
    expected = re_search(pattern)
    assert [s for s in strings if plan(s) != expected(s)] == []


def test_the_suite_covers_its_regex_files() -> None:
    assert SUITE_PAIRS, MISSING.format(suite_dir())
    ids = [p.id for p in SUITE_PAIRS]
    assert any("ecmascript-regex.json" in i for i in ids)
    assert any("non-bmp-regex.json" in i for i in ids)
    assert sum(len(p.values[1]) for p in SUITE_PAIRS) > 500  # pattern/instance pairs


# ---------------------------------------------------------------------------------------------
# Hypothesis: generated patterns and strings (a bounded, derandomised run).


@settings(max_examples=150, deadline=None, derandomize=True)
@given(regular_patterns, st.lists(subjects, min_size=1, max_size=6))
def test_generated_patterns_agree(pattern: str, strings: list) -> None:
    try:
        compile_pattern(pattern)
    except RegexTranslationError:  # e.g. a quantifier over a bare assertion
        return
    parsed = parse(pattern)
    compiled = compile_automaton(parsed)
    assert disagreements(pattern, strings, compiled) == []
    forced_nfa = compile_automaton(parsed, max_dfa_cells=0)
    assert disagreements(pattern, strings, forced_nfa) == []


@settings(max_examples=60, deadline=None, derandomize=True)
@given(regular_patterns, regular_patterns, st.lists(subjects, min_size=1, max_size=6))
def test_generated_alternations_and_repetitions_agree(left: str, right: str, strings: list) -> None:
    for pattern in (f"^(?:{left}|{right})+$", f"(?:{left})*{right}$", f"\\b(?:{left}){{1,3}}\\B"):
        try:
            compile_pattern(pattern)
        except RegexTranslationError:
            continue
        compiled = compile_automaton(parse(pattern))
        assert disagreements(pattern, strings, compiled) == [], pattern
