"""The C backend's patterns (generator/native/c_module.py, c_runtime.h): a pattern the pure module
runs with `re` or with its `_dfa_search` matcher, whose automaton (generator/regex/automaton.py)
is a DFA (look-aheads right after `^` included), is run in C over the str's code points from
static tables; an NFA, another look-around and a pattern reduced to str tests stay as they were. The gate: the C is_valid (and errors()) answer
as the pure module does, on chosen strings (empty, long, lone surrogates, non-BMP, line
terminators, at every bound of a counted repeat) and on generated ones, at the depth the pure
module refuses, and under AddressSanitizer and UndefinedBehaviorSanitizer.

Two builds of one module each (a schema with a property per pattern, and a recursive one), and a
sanitized build of the first where gcc's sanitizer runtime is installed.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import generator
from generator.native import EXTENSION_SUFFIX
from generator.native.c_build import build_c_natives, render_c
from generator.regex import plan_pattern
from generator.regex.guard import literal_guard
from generator.regex.simple import always_matches, simple_tests

from .conftest import ROOT
from .native_hostile import LyingStr, assert_same
from .regex import patterns as regex_patterns
from .suite import DRAFTS, groups, optional_files, suite_files
from .test_native_c import _asan_runtime

pytestmark = pytest.mark.skipif(
    shutil.which("cc") is None and shutil.which("gcc") is None,
    reason="no C compiler on this machine",
)

PACKAGE = "straightline_c_patterns"
SHA256 = "^[a-f0-9]{64}$"
# Patterns the pure module runs with `re` (its plan "re"), each with a DFA: the C runs it.
RE_DFA = [
    SHA256,
    "^[a-z][a-z0-9_.-]+$",
    "\\bword\\b",
    "\\Bx\\B",
    "^[\\u{1F600}-\\u{1F64F}]+$",
    "[\\u{10000}-\\u{10FFFF}]",
    "^[^a-z]*$",
    "colou?r",
    "^(foo|bar|baz)+$",
    "^\\d{3}-\\d{4}$",
    "\\s",
    "^\\S+$",
    "^.{2,5}$",
    "^[\\ud800-\\udbff]",
    "[^\\x00-\\x7f]",
    "^\\p{L}+$",
    "^\\p{Lu}\\P{L}$",
    "^[A-Z]{2}\\d{2}[A-Z0-9]{1,30}$",
    "^(?:a|b)*c?$",
    "[\\-\\]]",
    ".",
    "^(ab|a)(bc|c)$",
    "^([a-z0-9]+\\.)*[a-z]{2,}$",
    "\\b\\w+\\b$",
    "^[^\\s]{3}\\b",
    "[\\u{1F600}\\u00e9]{2}",
    "^(?:[0-9]{1,3}\\.){3}[0-9]{1,3}$",
    "^[\\s\\S]{0,3}$",
    "(a|b|c|d){3,6}$",
    "^\\D\\W$",
    "[^\\u{10000}-\\u{10FFFF}]$",
    "^.*\\u2028",
    "^a{0,200}$",
    "^([a-z]{1,8}-)*[a-z]{1,8}$",
    "(?:^|,)x(?:,|$)",
    "^\\x41\\0?",
]
# Patterns the pure module runs with its `_dfa_search` (backtracking could be super-linear).
MATCHER_DFA = [
    "\\w+@\\w+\\.com",
    "a{2,}b{0,3}c",
    "^(a+)+$",
    "^(a|aa)*b$",
    "(x+x+)+y",
    "^(\\w+\\s?)*$",
    "é+$",
    "^(?!.*(?:foo)+bar).*$",  # a look-ahead: backtracking in it is super-linear
]
# Look-aheads right after `^`, run by the pure module with `re` (where guarded, regex/guard.py,
# the pattern without the scanning look-ahead is a DFA too): their product DFA runs in C.
ENTRY_PATH = "^(?!/)(?!.*(?:^|/)\\.\\.(?:/|$))[A-Za-z0-9_./-]+$"
LOOKAHEAD_DFA = [
    "^(?!x)y+$",
    ENTRY_PATH,
    "^(?!latest$).+",
    "^(?=.*\\d)(?=.*[a-z]).{6,}$",
    "^(?!.*ab)(?=.*\\bb).*x",
    "^(?!\\b).",
    "^(?!.*\\u{1F600})\\S+$",
]
# What stays as it was: str tests, a pattern every string matches, NFAs (`_nfa_search`), and
# look-arounds elsewhere than right after `^` (`re`).
UNCHANGED = [
    "abc",
    "^abc",
    "abc$",
    "\\ud83d",
    "^$",
    "\\u{10FFFF}",
    "x*$",
    "[ab]*a[ab]{12}$",
    "^([ab]*a[ab]{12})+$",
    "a(?!b)",
    "(?<=a)b",
    "^(?!a)b|c",
]
PATTERNS = RE_DFA + MATCHER_DFA + LOOKAHEAD_DFA + UNCHANGED
# Keys tested by patternProperties (a pattern on an object's keys).
KEY_PATTERNS = [SHA256, "^(a+)+$", "\\bword\\b", "[\\u{10000}-\\u{10FFFF}]"]
SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "properties": {f"p{i}": {"pattern": p} for i, p in enumerate(PATTERNS)},
    "patternProperties": {p: {"type": "integer"} for p in KEY_PATTERNS},
}
# A string held as a property of each level, and the recursion.
DEEP = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "properties": {
        "s": {"pattern": SHA256},
        "m": {"pattern": "^(a+)+$"},
        "r": {"$ref": "#"},
    },
}
HEX = "0123456789abcdef" * 4
STRINGS = [
    "",
    "a",
    "abc",
    "xabcx",
    HEX,
    HEX[:-1],
    HEX + "0",
    HEX.upper(),
    HEX + "\n",
    "\n" + HEX,
    HEX[:-1] + "g",
    HEX[:-1] + "\u0660",  # (an Arabic-Indic digit: \d is ASCII only)
    "word",
    " word ",
    "sword",
    "words",
    "a word.",
    "xx",
    "axa",
    "é",
    "ée",
    "éé\n",
    "\U0001f600",
    "\U0001f64f\U0001f600",
    "\U0001f650",
    "\ud83d",
    "\udc00",
    "\ud83d\ude00",
    "\udbff\udfff",
    "\u2028",
    "a\u2028",
    "\u2029",
    "\n",
    "\r\n",
    "\t",
    "\x0b",
    "\xa0",
    "\ufeff",
    "color",
    "colour",
    "colouur",
    "123-4567",
    "123-456",
    "foo",
    "foobarbaz",
    "foobar!",
    "x@y.com",
    "xy.com",
    "aab",
    "aaaa",
    "aaaab",
    "xaabbbc",
    "aabbbbc",
    "aaa\n",
    "xxxy",
    "xy",
    "1.2.3.4",
    "999.1.1.1",
    "1.2.3",
    "a.b.cc",
    "ÉCOLE",
    "Ab",
    "A1",
    "\x00",
    "A\x00",
    "\x7f",
    "\x80",
    "\uffff",
    "\U00010000",
    "\U0010ffff",
    "x,y",
    ",x",
    "y,x,",
    "$^",
    "abcd",
    "ab-cd-ef",
    "abcdefghi-a",
    "GB82WEST12345698765432",
    "GB82",
    "ab" * 6 + "a" + "b" * 12,
    "a" * 200,
    "a" * 201,
    "a" * 10_000,
    "a" * 10_000 + "!",
    "ab" * 5_000,
    "é" * 5_000 + "\U0001f600",
    HEX * 100,
    "no/../dots",
    "path/to/file",
    "/abs",
    "xyyy",
    "yyy",
    "latest",
    "latestx",
    "src/../etc",
    "src/..",
    "abc123",
    "bx",
    "ab",
    "b",
]
# The official suite's files of patterns: their patterns, and the strings of their instances.
SUITE_FILES = {
    "pattern.json",
    "patternProperties.json",
    "ecmascript-regex.json",
    "non-bmp-regex.json",
}


def _suite_patterns() -> tuple[list[str], list[str]]:
    patterns: set[str] = set()
    strings: set[str] = set()

    def in_schema(schema: Any) -> None:
        if isinstance(schema, dict):
            for key, value in schema.items():
                if key == "pattern" and isinstance(value, str):
                    patterns.add(value)
                elif key == "patternProperties" and isinstance(value, dict):
                    patterns.update(value)
                in_schema(value)
        elif isinstance(schema, list):
            for value in schema:
                in_schema(value)

    def in_data(data: Any) -> None:
        if isinstance(data, str):
            strings.add(data)
        elif isinstance(data, dict):
            strings.update(data)
            for value in data.values():
                in_data(value)
        elif isinstance(data, list):
            for value in data:
                in_data(value)

    for draft in DRAFTS:
        for path in suite_files(draft) + optional_files(draft):
            if path.name in SUITE_FILES:
                for _, schema, tests in groups(path):
                    in_schema(schema)
                    for test in tests:
                        in_data(test["data"])
    return sorted(patterns), sorted(strings)


SUITE_PATTERNS, SUITE_STRINGS = _suite_patterns()
SUITE_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "properties": {f"s{i}": {"pattern": p} for i, p in enumerate(SUITE_PATTERNS)},
}


def _random_patterns(count: int, seed: int) -> list[str]:
    """Distinct patterns made as tests/regex's strategy makes them (atoms and assertions joined,
    alternated, quantified, grouped), from a fixed seed: the same module every run."""
    rng = random.Random(seed)
    leaves = regex_patterns.ATOMS + regex_patterns.ASSERTIONS

    def make(depth: int) -> str:
        if depth == 0 or rng.random() < 0.3:
            return rng.choice(leaves)
        parts = [make(depth - 1) for _ in range(rng.randint(2, 3))]
        shape = rng.randrange(4)
        if shape == 0:
            return "".join(parts)
        if shape == 1:
            return "(?:" + "|".join(parts) + ")"
        if shape == 2:
            return "(?:" + parts[0] + ")" + rng.choice(regex_patterns.QUANTIFIERS)
        return "(" + parts[0] + ")"

    found: list[str] = []
    while len(found) < count:
        pattern = make(3)
        if pattern not in found:
            found.append(pattern)
    return found


RANDOM_PATTERNS = _random_patterns(150, 32)
RANDOM_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "properties": {f"r{i}": {"pattern": p} for i, p in enumerate(RANDOM_PATTERNS)},
}
# Characters the patterns tell apart, for the generated strings.
ALPHABET = sorted(set("".join(STRINGS[:60])) | set("abcdefxyz019AZ _-.,@/$^!"))


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Any, Any]]:
    """(native, pure) module of each schema, built in one C build."""
    directory = tmp_path_factory.mktemp("native_c_patterns")
    package = directory / PACKAGE
    package.mkdir()
    (package / "__init__.py").write_text("")
    schemas = {"patterns": SCHEMA, "deep": DEEP, "suite": SUITE_SCHEMA, "random": RANDOM_SCHEMA}
    jobs = []
    for name, schema in schemas.items():
        path = package / f"{name}.py"
        path.write_text(generator.compile_source(schema, name=name, unsafe_patterns="allow"))
        jobs.append((path, schema, {"name": name, "unsafe_patterns": "allow"}))
    extensions = build_c_natives(jobs, timeout=1200)
    assert all(e.name.endswith(EXTENSION_SUFFIX) for e in extensions)
    found = {}
    sys.path.insert(0, str(directory))
    try:
        for name in schemas:
            native = importlib.import_module(f"{PACKAGE}.{name}")
            spec = importlib.util.spec_from_file_location(f"pure_p_{name}", package / f"{name}.py")
            assert spec is not None and spec.loader is not None
            pure = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(pure)
            found[name] = (native, pure)
    finally:
        sys.path.remove(str(directory))
    return found


def test_the_dfas_are_rendered_in_c_and_the_rest_stays() -> None:
    """Every pattern with a DFA that the pure module runs with `re` or `_dfa_search` is a C
    search, a look-ahead right after `^` too; str tests, NFAs and other look-arounds are what
    they were (a call, or no call at all)."""
    text = generator.compile_source(SCHEMA, name="patterns", unsafe_patterns="allow")
    module = render_c(
        SCHEMA, text, "patterns", "patterns.py", name="patterns", unsafe_patterns="allow"
    )
    c_text = module.render()
    assert not module.fallbacks
    by_source: dict[str, list[tuple[str, str | None]]] = {}
    for (constant, called), symbol in module.dfas.items():
        by_source.setdefault(module.pattern_sources[constant], []).append((called, symbol))
    for source in RE_DFA:
        assert plan_pattern(source).kind == "re" and not simple_tests(source), source
        assert [(called, bool(symbol)) for called, symbol in by_source[source]] == [
            ("search", True)
        ], source
    for source in MATCHER_DFA:
        assert plan_pattern(source).function == "_dfa_search", source
        assert [(called, bool(symbol)) for called, symbol in by_source[source]] == [
            ("matcher", True)
        ], source
    # (a scanning negative look-ahead is guarded: the pattern without it first, emit/patterns.py)
    guards = [guard for guard in map(literal_guard, LOOKAHEAD_DFA) if guard is not None]
    assert "^(?!/)[A-Za-z0-9_./-]+$" in [guard.reduced for guard in guards]
    for source in LOOKAHEAD_DFA + [guard.reduced for guard in guards]:
        assert plan_pattern(source).kind == "re" and not simple_tests(source), source
        assert [(called, bool(symbol)) for called, symbol in by_source[source]] == [
            ("search", True)
        ], source
    for source in UNCHANGED:
        assert all(symbol is None for _, symbol in by_source.get(source, [])), source
        assert (
            always_matches(source)
            or simple_tests(source)
            or plan_pattern(source).function == "_nfa_search"
            or "(?" in source
        ), source
    # the other look-arounds' searches are still called (`_nfa_search` never asks for a DFA)
    still_called = {module.pattern_sources[c] for (c, _), s in module.dfas.items() if s is None}
    assert still_called == {"a(?!b)", "(?<=a)b", "^(?!a)b|c"}
    assert "_nfa_search" in c_text
    rendered = sum(1 for s in module.dfas.values() if s)
    # (a reduced pattern that is one of RE_DFA's, `^\S+$`, is the same constant)
    dfas = len({*RE_DFA, *MATCHER_DFA, *LOOKAHEAD_DFA, *(guard.reduced for guard in guards)})
    assert c_text.count("static const sl_dfa ") == rendered == dfas
    assert c_text.count("sl_pattern_search(") >= len(RE_DFA)
    assert c_text.count("sl_matcher_search(") >= len(MATCHER_DFA)


def test_the_sha256_pattern_is_a_table_of_65_states() -> None:
    """`^[a-f0-9]{64}$`: one state a character, two classes (the digits and a-f, the rest)."""
    text = generator.compile_source({"pattern": SHA256}, name="sha")
    module = render_c({"pattern": SHA256}, text, "sha", "sha.py", name="sha")
    c_text = module.render()
    assert "static const unsigned short sl_dfa0_cells[130]" in c_text
    assert "static const sl_dfa sl_dfa0 = {0, 130, 2, 1," in c_text


def test_chosen_strings_answer_as_the_pure_module(built: dict[str, tuple[Any, Any]]) -> None:
    native, pure = built["patterns"]
    checked = 0
    for index in range(len(PATTERNS)):
        for text in STRINGS + [LyingStr(s) for s in STRINGS[:20]]:
            assert_same(native, pure, {f"p{index}": text})
            checked += 1
    for text in STRINGS:
        assert_same(native, pure, {text: 1})
        assert_same(native, pure, {text: "x"})
        assert_same(native, pure, {f"p{i}": text for i in range(len(PATTERNS))})
    # (the answers are not all alike: each pattern both matches and fails among the strings)
    for index, source in enumerate(PATTERNS):
        answers = {pure.is_valid({f"p{index}": text}) for text in STRINGS}
        assert answers == {True, False} or always_matches(source), source
    assert checked > 5000


def test_the_suite_s_patterns_answer_as_the_pure_module(
    built: dict[str, tuple[Any, Any]],
) -> None:
    """The official suite's pattern files (every draft): each pattern on each string of their
    instances and on the chosen strings."""
    native, pure = built["suite"]
    assert len(SUITE_PATTERNS) > 20 and len(SUITE_STRINGS) > 50
    for index in range(len(SUITE_PATTERNS)):
        for text in SUITE_STRINGS + STRINGS:
            assert_same(native, pure, {f"s{index}": text})


@settings(max_examples=150, deadline=None)
@given(
    st.text(
        alphabet=st.one_of(
            st.sampled_from(ALPHABET), st.characters(blacklist_categories=()), st.just("a")
        ),
        max_size=80,
    )
)
def test_generated_strings_answer_as_the_pure_module(
    built: dict[str, tuple[Any, Any]], text: str
) -> None:
    native, pure = built["patterns"]
    for index in range(len(PATTERNS)):
        instance = {f"p{index}": text}
        assert native.is_valid(instance) == pure.is_valid(instance), (PATTERNS[index], text)
    assert_same(native, pure, {text: 1})
    suite_native, suite_pure = built["suite"]
    for index in range(len(SUITE_PATTERNS)):
        instance = {f"s{index}": text}
        assert suite_native.is_valid(instance) == suite_pure.is_valid(instance), text
    hexes = "".join(c for c in text if c in "0123456789abcdef")
    for candidate in (HEX[: 64 - len(hexes)] + hexes, hexes):
        assert native.is_valid({"p0": candidate}) == pure.is_valid({"p0": candidate})


@settings(max_examples=150, deadline=None)
@given(
    st.text(
        alphabet=st.one_of(
            st.sampled_from(regex_patterns.ALPHABET), st.sampled_from("\ud83d\ude00\u2028A")
        ),
        max_size=12,
    )
)
def test_generated_patterns_answer_as_the_pure_module(
    built: dict[str, tuple[Any, Any]], text: str
) -> None:
    """150 patterns made as tests/regex makes them (most run with `re` by the pure module, their
    DFAs in C), on strings of the characters they tell apart."""
    native, pure = built["random"]
    for index in range(len(RANDOM_PATTERNS)):
        instance = {f"r{index}": text}
        assert native.is_valid(instance) == pure.is_valid(instance), (RANDOM_PATTERNS[index], text)


def test_values_other_than_strs_answer_as_the_pure_module(
    built: dict[str, tuple[Any, Any]],
) -> None:
    native, pure = built["patterns"]
    for value in (None, 1, 1.5, [HEX], {"a": HEX}, b"abc", True):
        for index in range(len(PATTERNS)):
            assert_same(native, pure, {f"p{index}": value})


_BOUNDARY = """
import importlib, importlib.util, json, sys
sys.path.insert(0, sys.argv[1])
native = importlib.import_module({package!r} + ".deep")
assert native.__file__.endswith({suffix!r})
spec = importlib.util.spec_from_file_location("pure_deep", native.__file__.rsplit("/", 1)[0] + "/deep.py")
pure = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pure)


def nest(depth, leaf):
    x = dict(leaf)
    for _ in range(depth):
        x = {{**leaf, "r": x}}
    return x


def boundary(accepts):
    low, high = 1, 6000
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if accepts(middle) else (low, middle)
    return low


found = {{}}
for leaf in json.loads(sys.argv[2]):
    for module in (pure, native, pure, native):
        found.setdefault(json.dumps(leaf), []).append(
            boundary(lambda depth: module.is_valid(nest(depth, leaf)))
        )
print(json.dumps(found))
"""


def test_deep_instances_are_refused_where_the_pure_module_refuses_them(
    built: dict[str, tuple[Any, Any]],
) -> None:
    """A pattern run in C counts the levels the pure module's call counts (one for `re`'s
    search, two for the `_dfa_search` frame), so the deepest instance accepted is the pure
    module's (in a child process: fresh, default limit)."""
    native, _ = built["deep"]
    directory = Path(native.__file__).parent.parent
    leaves = [{}, {"s": HEX}, {"m": "aaa"}, {"s": HEX, "m": ""}, {"s": "x" * 64}, {"m": "\ud83d"}]
    script = _BOUNDARY.format(package=PACKAGE, suffix=EXTENSION_SUFFIX)
    done = subprocess.run(
        [sys.executable, "-c", script, str(directory), json.dumps(leaves)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout)
    assert len(found) == len(leaves)
    for leaf, (pure, native_, pure_again, native_again) in found.items():
        assert native_ == pure == pure_again == native_again, (leaf, found[leaf])
    # (the control: the valid leaves' boundaries are the recursion limit's, and differ with the
    # levels the patterns' calls take)
    assert all(100 < found[key][0] < 1000 for key in ('{"s": "' + HEX + '"}', "{}"))
    assert found["{}"][0] > found['{"s": "' + HEX + '"}'][0]


_SANITIZED = """
import importlib, importlib.util, json, sys
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
from tests.native_hostile import outcome, errors_of
native = importlib.import_module({package!r} + ".patterns")
assert native.__file__.endswith({suffix!r}), native.__file__
spec = importlib.util.spec_from_file_location("pure_patterns", native.__file__.rsplit("/", 1)[0] + "/patterns.py")
pure = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pure)
checked = 0
with open(sys.argv[3], encoding="utf-8") as file:
    instances = json.load(file)
for instance in instances:
    assert outcome(native.is_valid, instance) == outcome(pure.is_valid, instance), instance
    assert errors_of(native, instance) == errors_of(pure, instance), instance
    checked += 1
print(checked)
"""


@pytest.mark.skipif(
    _asan_runtime() is None, reason="gcc's AddressSanitizer runtime is not installed"
)
def test_an_address_and_undefined_behaviour_sanitized_build_agrees(tmp_path: Path) -> None:
    """The patterns' module built with -fsanitize=address,undefined, run in a child process with
    the sanitizers' runtime: every chosen string under every pattern answers as the pure module,
    and no sanitizer reports anything (the tables are read within their bounds)."""
    package = tmp_path / PACKAGE
    package.mkdir()
    (package / "__init__.py").write_text("")
    path = package / "patterns.py"
    path.write_text(generator.compile_source(SCHEMA, name="patterns", unsafe_patterns="allow"))
    build_c_natives(
        [(path, SCHEMA, {"name": "patterns", "unsafe_patterns": "allow"})],
        sanitize=True,
        timeout=1200,
    )
    instances = [{f"p{i}": s} for i in range(len(PATTERNS)) for s in STRINGS]
    instances += [{s: 1} for s in STRINGS]
    environment = {
        **os.environ,
        "LD_PRELOAD": _asan_runtime() or "",
        "PYTHONMALLOC": "malloc",
        "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=0:exitcode=99",
        "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1:exitcode=98",
    }
    script = _SANITIZED.format(package=PACKAGE, suffix=EXTENSION_SUFFIX)
    # (lone surrogates survive JSON as escapes: json.dumps writes them so)
    payload = tmp_path / "instances.json"
    payload.write_text(json.dumps(instances), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path), str(ROOT), str(payload)],
        capture_output=True,
        text=True,
        timeout=1800,
        env=environment,
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-4000:])
    assert "ERROR: AddressSanitizer" not in done.stderr and "runtime error:" not in done.stderr
    assert int(done.stdout.split()[-1]) == len(instances)


def test_only_a_pattern_whose_automaton_is_a_dfa_gets_c_tables() -> None:
    """CModule.dfa (no compiler run): a pattern constant whose automaton is a DFA gets its C
    tables; a back-reference (no automaton), a constant with no recorded source, or a `matcher`
    call of a pattern the pure module does not run with _dfa_search gets none: the call stays."""
    from generator.native.c_module import CModule

    sources = {"_P0": "^a+$", "_P1": "(a)\\1"}
    module = CModule("m", "X = 1\n", [], [], "m.py", pattern_sources=sources)
    assert module.dfa("_P0", "search") == "sl_dfa0"
    assert module.dfa("_P1", "search") is None
    assert module.dfa("_P2", "search") is None
    assert module.dfa("_P0", "matcher") is None
    assert module.dfa("_P0", "search") == "sl_dfa0" and len(module.dfa_tables) == 1  # (once)
