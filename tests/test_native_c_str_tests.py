"""The C backend's str tests (generator/native/c_module.py, c_runtime.h): the tests a pattern
becomes (emit/patterns.py: `x.isascii() and x.isprintable() and " " not in x` for `^\\S*$`,
`x.isdigit()`, `x.endswith("abc")`, `"x" in x`, ...) are C over an exact str's code units, and
calls of the method (or `in`) for anything else. The gate: the C is_valid (and errors()) answer
as the pure module does on chosen strings (ASCII controls, DEL, space, non-ASCII printable and
not, unassigned, non-BMP, lone surrogates), str subclasses, non-strs and generated strings, and
under AddressSanitizer and UndefinedBehaviorSanitizer.

In the generated code each class test comes after `isascii()`, so a second module is built from
the same code tree without its `isascii()` tests and its `re` searches ("bare"): there every
method's C runs on any str, non-ASCII ones too, and answers as the same tree run by Python.

One build of the two modules, and a sanitized build of both where gcc's sanitizer runtime is
installed.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import generator
from generator.api import compile_built
from generator.emit import tree as t
from generator.native import EXTENSION_SUFFIX
from generator.native.c_build import build_c_natives, render_c
from generator.native.c_module import is_fast
from generator.pipeline import Built
from generator.regex import plan_pattern
from generator.regex.simple import ascii_accept, simple_tests

from .conftest import ROOT
from .native_hostile import LyingStr, assert_same, outcome
from .test_native_c import _asan_runtime

pytestmark = pytest.mark.skipif(
    shutil.which("cc") is None and shutil.which("gcc") is None,
    reason="no C compiler on this machine",
)

PACKAGE = "straightline_c_str_tests"
# Patterns run as ASCII str tests, then `re` for any other string (regex/simple.py ascii_accept).
ASCII_FIRST = ["^\\S*$", "^\\S+$", "^\\S{2,5}$", "^[ \\r\\n\\t\\S]+$"]
# Patterns that are str tests alone (regex/simple.py simple_tests).
STR_TESTS = [
    "^[0-9]+$",
    "^[a-zA-Z]*$",
    "^[a-zA-Z0-9]{1,10}$",
    "^[a-z]{0,8}$",
    "^[A-Z]{3}$",
    "^[a-z]{1,16}$",
    "^[A-Z]{1,16}$",
    "abc$",
    "^ab",
    "^(?:ab|cd)",
    "x",
    "\\u2028",
    "\\u{1F600}",
    "é",
    "\\ud800",
    "\\u0378",
    "ab|cd$",
    "^[Yy][Ee][Ss]$",
]
PATTERNS = ASCII_FIRST + STR_TESTS
KEY_PATTERNS = ["^\\S*$", "^[a-z]{0,8}$", "\\u{1F600}"]
SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "properties": {
        **{f"p{i}": {"pattern": p} for i, p in enumerate(PATTERNS)},
        "keys": {"patternProperties": {p: {"type": "integer"} for p in KEY_PATTERNS}},
    },
}
STRINGS = [
    "",
    "a",
    "abc",
    "ab cd",
    "~",
    " ",
    "\t",
    "\n",
    "\r",
    "\x0b",
    "\x0c",
    "\x00",
    "\x1f",
    "\x7f",
    "ab\x7f",
    "\x7fab",
    "a\x00b",
    "\x80",
    "\xa0",
    "a\xa0",
    "é",
    "ée",
    "Ée",
    "\u2028",
    "a\u2028b",
    "\u2029",
    "\u0378",
    "a\u0378",
    "\u0660",
    "\u00b2",
    "\u216b",
    "\u01c5",
    "\u01c6",
    "ß",
    "\u212a",
    "\ufeff",
    "\u200b",
    "\U0001f600",
    "a\U0001f600",
    "\U0001f600 ",
    "\U00010000",
    "\U000e0001",
    "\U0010ffff",
    "\ud800",
    "a\ud800",
    "\udfff",
    "\ud83d\ude00",
    "yes",
    "YES",
    "Yes",
    "yés",
    "0123456789",
    "12",
    "123ab",
    "1\u0660",
    "AAA",
    "AAAA",
    "aaa",
    "aA",
    "a1",
    "a" * 8,
    "a" * 9,
    "a" * 16,
    "a" * 17,
    "A" * 16,
    "A" * 17,
    "abcd",
    "xabc",
    "abcx",
    "cd",
    "xcd",
    "cdx",
    "x",
    "xx",
    "x\x0bx",
    "x\x0cx",
    "x\ny",
    "x" * 10_000,
    "x" * 9_999 + "\x7f",
    "x" * 9_999 + " ",
    "é" * 100,
    "é" * 99 + "\xa0",
    "\x00" * 3,
]


class Str(str):
    """A str subclass that keeps every method."""


class LyingMethods(str):
    """A str subclass whose tests all lie."""

    def isascii(self) -> bool:
        return True

    def isprintable(self) -> bool:
        return True

    def isdigit(self) -> bool:
        return True

    def endswith(self, *args: Any) -> bool:
        return True

    def __contains__(self, item: object) -> bool:
        return False


NOT_STRS: list[Any] = [None, 1, 1.5, True, b"abc", ["a"], {"a": 1}]


def _is_ascii_test(node: object) -> bool:
    return (
        isinstance(node, t.Call)
        and isinstance(node.func, t.Attr)
        and node.func.attr == "isascii"
        and not node.args
    )


def _is_search(node: object) -> bool:
    return (
        isinstance(node, t.Compare)
        and node.op == "is not"
        and isinstance(node.left, t.Call)
        and isinstance(node.left.func, t.Name)
        and node.left.func.id.startswith("_P")
    )


def _bare(node: Any) -> Any:
    """The tree without its `isascii()` tests (each True) and the `re` search after the ASCII
    str tests (`(tests) or _P0(x) is not None`: the tests alone)."""
    if isinstance(node, t.Lit):
        return node
    if isinstance(node, (list, tuple)):
        return type(node)(_bare(e) for e in node)
    if _is_ascii_test(node):
        return t.TRUE
    if isinstance(node, t.BoolOp) and node.op == "or" and len(node.values) == 2:
        if _is_search(node.values[1]):
            return _bare(node.values[0])
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        changes = {
            f.name: _bare(getattr(node, f.name))
            for f in dataclasses.fields(node)
            if isinstance(getattr(node, f.name), (list, tuple, t.Expr, t.Stmt))
        }
        return dataclasses.replace(node, **changes)
    return node


def _bare_built(schema: Any, **options: Any) -> tuple[str, Built, dict[str, str]]:
    """compile_built's answer with its fast functions made bare (_bare), and the bare functions
    as Python text, by name."""
    text, built = compile_built(schema, **options)
    functions = built.emitter.functions
    texts = {}
    for index, function in enumerate(functions):
        bare = dataclasses.replace(function, body=_bare(function.body))
        if is_fast(function) and bare.body != function.body:
            functions[index] = bare
            lines = t.render_block(bare.body, 1)
            texts[function.name.id] = f"def {function.name.id}(x):\n" + "\n".join(lines)
    return text, built, texts


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The native and pure modules (`strs`); each bare fast function as C and as Python, by
    name (`bare`), and the bare function of each pattern's property (`bare_of`); one C build."""
    directory = tmp_path_factory.mktemp("native_c_str_tests")
    package = directory / PACKAGE
    package.mkdir()
    (package / "__init__.py").write_text("")
    strs = package / "strs.py"
    strs.write_text(generator.compile_source(SCHEMA, name="strs"))
    bare_text, bare_tree, bare_functions = _bare_built(SCHEMA, name="bare")
    bare = package / "bare.py"
    bare.write_text(bare_text)
    build_c_natives(
        [(strs, SCHEMA, {"name": "strs"}), (bare, SCHEMA, {"name": "bare"})],
        timeout=1200,
        compiled=[None, (bare_text, bare_tree)],
    )
    sys.path.insert(0, str(directory))
    try:
        native = importlib.import_module(f"{PACKAGE}.strs")
        native_bare = importlib.import_module(f"{PACKAGE}.bare")
    finally:
        sys.path.remove(str(directory))
    assert str(native.__file__).endswith(EXTENSION_SUFFIX)
    assert str(native_bare.__file__).endswith(EXTENSION_SUFFIX)
    pure = _load(strs, "pure_str_tests_strs")
    namespace = vars(_load(bare, "pure_str_tests_bare"))
    assert len(bare_functions) > len(PATTERNS) // 2
    for text in bare_functions.values():
        exec(text, namespace)  # noqa: S102 - the bare tree, as Python
    bare_of = _fast_of(bare_text)
    assert set(bare_of) == {*(f"p{i}" for i in range(len(PATTERNS))), "keys"}
    functions = {}
    for name in sorted(set(bare_functions) | set(bare_of.values())):
        in_c = getattr(native_bare, name)
        assert type(in_c).__name__ == "builtin_function_or_method", name  # (the C's)
        functions[name] = (in_c, namespace[name])
    return {"strs": (native, pure), "bare": functions, "bare_of": bare_of}


def _fast_of(text: str) -> dict[str, str]:
    """Each property's fast function in a module's text, by the property's name."""
    found = re.findall(
        r'def (_v\d+)\(x: Any\) -> bool:\n    "Fast path of the subschema at /properties/(\w+)\."',
        text,
    )
    return {path: name for name, path in found}


def _load(path: Path, name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _instances(text: Any) -> list[Any]:
    """Each pattern's property holding `text`, and `text` as a key of the pattern properties."""
    found: list[Any] = [{f"p{i}": text} for i in range(len(PATTERNS))]
    if isinstance(text, str):
        found += [{"keys": {text: 1}}, {"keys": {text: "x"}}]
    return found


def test_the_str_tests_are_c_and_the_patterns_what_they_were() -> None:
    """Each pattern is a str test (or ASCII str tests, then `re`) in the pure module; in the C
    every str method of them is a test in C (a call only for a value that is not an exact str),
    `lower()` (an object, compared) aside, and each one-character `in` too."""
    for source in ASCII_FIRST:
        assert plan_pattern(source).kind == "re" and not simple_tests(source), source
        assert ascii_accept(source) is not None, source
    for source in STR_TESTS:
        assert simple_tests(source), source
    text = generator.compile_source(SCHEMA, name="strs")
    module = render_c(SCHEMA, text, "strs", "strs.py", name="strs")
    c_text = module.render()
    assert not module.fallbacks
    for method in (
        "isascii",
        "isprintable",
        "isdigit",
        "isalpha",
        "isalnum",
        "islower",
        "isupper",
        "startswith",
        "endswith",
    ):
        assert f".{method}(" in text, method
        assert f"sl_{method}(" in c_text, method
    calls = [line for line in c_text.splitlines() if "PyObject_VectorcallMethod(" in line]
    lower = module.symbols.names["lower"]
    assert calls and all(f"PyObject_VectorcallMethod(sl_n[{lower}]," in c for c in calls)
    for character in (" ", "x", "\x0b", "\x0c", "\u2028", "\U0001f600", "é", "\ud800"):
        assert "sl_str_has_char(" in c_text and f", 0x{ord(character):X}, " in c_text, character
    # (the two-character texts `in` a str stay the sequence's test)
    assert c_text.count("PySequence_Contains(") == text.count('"ab" in ')


def test_chosen_strings_answer_as_the_pure_module(built: dict[str, Any]) -> None:
    native, pure = built["strs"]
    checked = 0
    for text in STRINGS:
        for value in (text, Str(text), LyingStr(text), LyingMethods(text)):
            for instance in _instances(value):
                assert_same(native, pure, instance)
                checked += 1
        assert_same(native, pure, {f"p{i}": text for i in range(len(PATTERNS))})
    for value in NOT_STRS:
        for instance in _instances(value):
            assert_same(native, pure, instance)
    # (each pattern both matches and fails among the strings)
    for index, source in enumerate(PATTERNS):
        answers = {pure.is_valid({f"p{index}": text}) for text in STRINGS}
        assert answers == {True, False}, source
    assert checked == len(STRINGS) * 4 * (len(PATTERNS) + 2)


def test_the_bare_str_tests_answer_as_python_on_any_str(built: dict[str, Any]) -> None:
    """Without `isascii()` first, each C test meets non-ASCII strs too (isprintable's
    Py_UNICODE_ISPRINTABLE, the class tests' calls): the same tree run by Python answers alike."""
    for name, (native, pure) in built["bare"].items():
        for text in STRINGS:
            for value in (text, Str(text), LyingMethods(text), {text: 1}):
                assert outcome(native, value) == outcome(pure, value), (name, value)
        for value in NOT_STRS:
            assert outcome(native, value) == outcome(pure, value), (name, value)
    # (the control: isprintable alone tells the non-ASCII strings apart, printable or not;
    # isdigit Unicode's digits from its other numerals)
    native, pure = built["bare"][built["bare_of"]["p0"]]
    texts = ("é", "\U0001f600", "\xa0", "\u0378", "\ud800", "\u2028")
    assert [native(text) for text in texts] == [True, True, False, False, False, False]
    assert [pure(text) for text in texts] == [True, True, False, False, False, False]
    native, _ = built["bare"][built["bare_of"]["p4"]]
    assert native("\u0660\u00b2") is True and native("\u216b") is False


_ODD = " \t\n\x00\x0b\x0c\x1f\x7f\x80\xa0\u2028\u0378\u0660\u01c5\u212a\ufeff\U0001f600\ud800\udfff"


@settings(max_examples=200, deadline=None)
@given(
    st.text(
        alphabet=st.one_of(
            st.characters(blacklist_categories=()),
            st.sampled_from(_ODD),
            st.sampled_from("abcdxyzAZ09éyesYES"),
        ),
        max_size=24,
    )
)
def test_generated_strings_answer_as_the_pure_module(built: dict[str, Any], text: str) -> None:
    native, pure = built["strs"]
    for instance in _instances(text):
        assert native.is_valid(instance) == pure.is_valid(instance), instance
    for name, (bare_native, bare_pure) in built["bare"].items():
        assert outcome(bare_native, text) == outcome(bare_pure, text), (name, text)


_SANITIZED = """
import importlib, json, sys
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
from tests.native_hostile import outcome
found = {{}}
with open(sys.argv[3], encoding="utf-8") as file:
    instances = json.load(file)
native = importlib.import_module({package!r} + ".strs")
assert native.__file__.endswith({suffix!r}), native.__file__
found["is_valid"] = [list(outcome(native.is_valid, instance)) for instance in instances]
bare = importlib.import_module({package!r} + ".bare")
for name in sys.argv[4].split(","):
    found[name] = [list(outcome(getattr(bare, name), instance)) for instance in instances]
print(json.dumps(found))
"""


@pytest.mark.skipif(
    _asan_runtime() is None, reason="gcc's AddressSanitizer runtime is not installed"
)
def test_an_address_and_undefined_behaviour_sanitized_build_agrees(
    built: dict[str, Any], tmp_path: Path
) -> None:
    """Both modules built with -fsanitize=address,undefined, run in a child process with the
    sanitizers' runtime: every chosen string answers as the pure module (the bare one as the
    bare tree in Python), and no sanitizer reports anything."""
    package = tmp_path / PACKAGE
    package.mkdir()
    (package / "__init__.py").write_text("")
    strs = package / "strs.py"
    strs.write_text(generator.compile_source(SCHEMA, name="strs"))
    bare_text, bare_tree, _ = _bare_built(SCHEMA, name="bare")
    bare = package / "bare.py"
    bare.write_text(bare_text)
    build_c_natives(
        [(strs, SCHEMA, {"name": "strs"}), (bare, SCHEMA, {"name": "bare"})],
        sanitize=True,
        timeout=1200,
        compiled=[None, (bare_text, bare_tree)],
    )
    instances = [instance for text in STRINGS for instance in [text, *_instances(text)]]
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
        [
            sys.executable,
            "-c",
            script,
            str(tmp_path),
            str(ROOT),
            str(payload),
            ",".join(built["bare"]),
        ],
        capture_output=True,
        text=True,
        timeout=1800,
        env=environment,
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-4000:])
    assert "ERROR: AddressSanitizer" not in done.stderr and "runtime error:" not in done.stderr
    found = json.loads(done.stdout)
    instances = json.loads(payload.read_text(encoding="utf-8"))  # (a surrogate pair: joined)
    _, pure = built["strs"]
    expected: dict[str, Callable[[Any], Any]] = {"is_valid": pure.is_valid}
    expected.update((name, python) for name, (_, python) in built["bare"].items())
    assert set(found) == set(expected)
    for name, answers in found.items():
        assert len(answers) == len(instances)
        for instance, answer in zip(instances, answers, strict=True):
            assert tuple(answer) == outcome(expected[name], instance), (name, instance)
