"""The C backend (generator/native/c_module.py, c_build.py): a module's fast path rendered as C
from its code tree, built into the extension beside the module, answers as the pure module does.

One build for the file (several modules, compiled in parallel): issue 29's reproducer, three bench
schemas, the native tests' formats-and-patterns and content schemas, and the first schema of every
file of the official suite for 2020-12 and draft 4 (STRAIGHTLINE_NATIVE_C_SUITE=1: every schema of
every draft, a long run). Checked: is_valid and errors() against the pure module on the suite's
instances, on generated ones and on hostile ones (subclasses whose methods lie, huge and
non-finite numbers, Decimals, lone surrogates, non-BMP text); the depth at which an instance is
refused as too deep; small C stacks and a raised limit; an AddressSanitizer and
UndefinedBehaviorSanitizer build of a sample, run in a child process with the sanitizer's
runtime; memory and reference counts flat over 100,000 calls; the build's failures.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import generator
from generator.native import (
    EXTENSION_SUFFIX,
    CompilerNotFound,
    NativeBuildError,
    is_current,
    record_path,
)
from generator.native.c_build import build_c_native, build_c_natives, render_c

from .conftest import ROOT
from .native_hostile import Int, LyingDict, LyingStr, assert_same, hostile_instances
from .strategies import JSON
from .suite import DRAFTS, groups, remotes, suite_files
from .test_native import CHECKS, CONTENT
from .test_native_deep import SCHEMA as REPRO

pytestmark = pytest.mark.skipif(
    shutil.which("cc") is None and shutil.which("gcc") is None,
    reason="no C compiler on this machine",
)

PACKAGE = "straightline_c_sample"
BENCH = ("fast_schema.json", "citm_catalog_schema.json", "recursive_schema.json")
# A contains count: a generator expression, which the C backend renders no C for (its function is
# the pure module's).
COUNTED = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "contains": {"const": 1},
    "minContains": 2,
}
# Recursive schemas of several shapes, each with the instance of a given depth it nests (a Python
# expression of `depth` and `leaf`): the deepest instance each accepts is compared.
DEEP = {
    "d_items": (
        {"type": "array", "items": {"$ref": "#"}},
        "nest(depth, lambda x: [x, [], []], [])",
    ),
    "d_any": (
        {"anyOf": [{"type": "integer"}, {"type": "array", "items": {"$ref": "#"}}]},
        "nest(depth, lambda x: [leaf, x], leaf)",
    ),
    "d_pattern": (
        {
            "type": "object",
            "patternProperties": {"^x": {"$ref": "#"}},
            "additionalProperties": {"type": "integer"},
        },
        "nest(depth, lambda x: {'xa': x, 'n': leaf}, {})",
    ),
    "d_float": (
        {
            "type": "object",
            "properties": {"n": {"type": "integer", "maximum": 5}, "r": {"$ref": "#"}},
        },
        "nest(depth, lambda x: {'n': leaf, 'r': x}, {})",
    ),
    "d_values": (
        {
            "type": "object",
            "additionalProperties": {"$ref": "#"},
            "propertyNames": {"maxLength": 3},
        },
        "nest(depth, lambda x: {'a': x, 'b': {}}, {})",
    ),
    # uniqueItems of dicts read in C, its deepest level the pure function's call of items()
    "d_unique": (
        {
            "type": "object",
            "properties": {
                "n": {"type": "integer", "maximum": 5},
                "r": {"type": "array", "uniqueItems": True, "items": {"$ref": "#"}},
            },
        },
        "nest(depth, lambda x: {'n': leaf, 'r': [x, {'s': 'a'}]}, {})",
    ),
}
FULL_SUITE = os.environ.get("STRAIGHTLINE_NATIVE_C_SUITE", "") not in ("", "0")
# The constructs the C backend reads in C once a value's exact type is known: int and float
# bounds against small literals (C compares), a closed object's count of the properties it found
# (a C size), the properties read in one PyDict_Next pass (a switch on the key's length), an array
# of fixed length unpacked (`a, b = x`), sets of types tested by pointer, lengths read from the
# object. Its instances sit on each side of every bound.
CONSTRUCTS = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "properties": {
        "i": {"type": "integer", "minimum": 3, "maximum": 100, "multipleOf": 1},
        "s": {"type": "number", "exclusiveMaximum": 10.5, "minimum": -2.25},
        "r": {
            "type": "object",
            "properties": {"i": {"type": "integer"}, "j": {"type": "string", "maxLength": 2}},
            "required": ["i"],
            "additionalProperties": False,
        },
        "u": {"enum": ["x", "y", 1, None]},
        "a": {"type": "array", "minItems": 2, "items": {"type": "number", "maximum": 7}},
        "foo": {"type": ["string", "array"], "minLength": 1, "maxItems": 2},
        "bar": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}]},
        "tags": {"type": "array", "uniqueItems": True},
    },
    "required": ["i"],
}
CONSTRUCT_TESTS: list[Any] = [
    {"i": i}
    for i in (2, 3, 3.0, 2.999, 100, 100.0, 100.5, 101, True, 2**64, -(2**64), float("nan"))
]
CONSTRUCT_TESTS += [
    {"i": 5, "s": s} for s in (10.5, 10.499, 10, -2.25, -2.26, -3, 11, float("inf"), False)
]
CONSTRUCT_TESTS += [
    {"i": 5, "r": r}
    for r in ({"i": 1}, {"i": 1, "j": "ab"}, {"i": 1, "j": "abc"}, {"j": ""}, {"i": 1, "k": 2}, {})
]
CONSTRUCT_TESTS += [
    {"i": 5, "a": a} for a in ([], [1], [1, 2], [1, 8], [7.0, 7.5], [1, 2, 3], [1, "x"], [1, True])
]
CONSTRUCT_TESTS += [{"i": 5, "u": u} for u in ("x", "z", 1, 1.0, True, None, [])]
CONSTRUCT_TESTS += [{"i": 5, "foo": v} for v in ("", "a", [], [1, 2], [1, 2, 3], 1, None)]
CONSTRUCT_TESTS += [{"i": 5, "bar": v} for v in ([], [1], [1, "a"], ["a", 1], [1, "a", None])]
# uniqueItems: lists of exact strs are compared in C (pairs up to 8 items, a set beyond)
CONSTRUCT_TESTS += [
    {"i": 5, "tags": v}
    for v in (
        [],
        ["a"],
        ["a", "a"],
        ["a", "b"],
        ["\ud83d", "\ud83d"],
        ["\ud83d", "\udc00"],
        [str(n) for n in range(9)],
        [str(n) for n in range(9)] + ["3"],
        ["1", 1],
        [1, 1.0],
        [True, 1],
        [{"a": "x"}, {"a": "x"}],
    )
]
# uniqueItems of exact dicts: C answers True where the items' sets of (key, str value) pairs
# have pairwise different hashes (the pure function's sets would compare nothing); anything
# else (equal hashes, a key or value not of an exact JSON type, mixed items) calls it
_MANY = [{"name": f"p{n}", "in": "query", "n": n} for n in range(20)]
_WIDE = {f"k{n}": f"v{n}" for n in range(20)}
_DICT_TAGS: list[Any] = [
    [{"a": "x"}],
    [{"a": "x"}, {"a": "y"}],
    [{"a": "x"}, {"b": "x"}],
    [{"a": "x", "b": "y"}, {"a": "y", "b": "x"}],
    [{"a": "x", "b": "y"}, {"b": "y", "a": "x"}],
    [{"a": "x"}, {"a": "y"}, {"a": "x"}],
    [{"a": "x", "n": 1}, {"a": "x", "n": 2}],
    [{"a": "x", "n": 1}, {"a": "x", "n": 1}],
    [{"a": "x", "n": 1}, {"a": "x", "n": 1.0}],
    [{"a": "x", "n": True}, {"a": "x", "n": 1}],
    [{}, {}],
    [{}, {"n": None}],
    [{}, {"a": "x"}],
    [{"a": "x", "d": {"a": 1}, "l": [1]}, {"a": "y", "d": {"a": 1}, "l": [1]}],
    [{"a": "x", "d": {"a": "z"}}, {"a": "x", "d": {"a": "z"}}],
    [{"a": "\ud83d"}, {"a": "\udc00"}, {"a": "\U0001f600"}],
    [{"a": "x"}, "x"],
    [{"a": "x"}, {"a": "x"}, ["x"]],
    [{1: "x"}, {2: "x"}],
    [{1: "x"}, {1: "x"}],
    [{"a": LyingStr("x")}, {"a": "x"}],
    [{"a": LyingStr("x")}, {"a": "y"}],
    [{"a": "x", "n": Int(1)}, {"a": "y", "n": 1}],
    [{"a": "x"}, LyingDict({"a": "x"})],
    _MANY,
    _MANY + [{"name": "p3", "in": "query", "n": 3}],
    _MANY + [{"name": "p3", "in": "query", "n": 4}],
    [_WIDE, {**_WIDE, "k7": "w"}],
    [_WIDE, dict(reversed(_WIDE.items()))],
]
CONSTRUCT_TESTS += [{"i": 5, "tags": v} for v in _DICT_TAGS]


class Case:
    """A module of the sample: its schema, compile options, and the instances the suite gives."""

    def __init__(self, name: str, schema: Any, options: dict[str, Any], tests: list[Any]) -> None:
        self.name, self.schema, self.options, self.tests = name, schema, options, tests


DOUBLING = {
    "allOf": [{"items": {"$ref": "#"}}, {"items": {"$ref": "#"}}],
    "type": ["array", "integer"],
}


def _nested(depth: int, leaf: Any) -> Any:
    for _ in range(depth):
        leaf = [leaf]
    return leaf


def _cases() -> list[Case]:
    cases = [
        Case("repro", REPRO, {}, []),
        Case("checks", CHECKS, {"format_assertion": True, "unsafe_patterns": "allow"}, []),
        Case("content", CONTENT, {"content_assertion": True}, []),
        Case("counted", COUNTED, {}, [[1, 1], [1], [1, 2, 1, 1], [], "a", [1.0, True, 1]]),
        # a doubling (issue 29): its memo wrapper's C form (sl_memo_lean) calls the C
        Case(
            "doubling",
            DOUBLING,
            {},
            [_nested(depth, leaf) for depth in (0, 1, 5, 40) for leaf in (1, "s")],
        ),
        Case("constructs", CONSTRUCTS, {}, CONSTRUCT_TESTS),
        Case(
            "structured",
            json.loads((ROOT / "contracts" / "strict" / "structured_completion.json").read_text()),
            {"profile": "strict"},
            [],
        ),
        Case("geojson", json.loads((ROOT / "bench" / "data" / "geojson.json").read_text()), {}, []),
    ]
    cases += [Case(name, schema, {}, []) for name, (schema, _) in DEEP.items()]
    for file in BENCH:
        cases.append(
            Case(
                file.split("_")[0], json.loads((ROOT / "bench" / "data" / file).read_text()), {}, []
            )
        )
    registry = remotes()
    for draft in DRAFTS if FULL_SUITE else ("draft2020-12", "draft4"):
        for path in suite_files(draft):
            for index, (_, schema, tests) in enumerate(groups(path)):
                if index and not FULL_SUITE:
                    break
                name = f"s{len(cases)}"
                cases.append(
                    Case(
                        name,
                        schema,
                        {"profile": draft, "registry": registry},
                        [test["data"] for test in tests],
                    )
                )
    return cases


class Sample:
    """The sample modules, built by the C backend (imported by name) and pure (the same files,
    executed)."""

    def __init__(
        self,
        directory: Path,
        cases: list[Case],
        sanitize: bool = False,
        package_name: str = PACKAGE,
    ) -> None:
        self.directory = directory
        self.package_name = package_name
        package = directory / package_name
        package.mkdir()
        (package / "__init__.py").write_text("")
        self.cases = [case for case in cases if self._write(package, case)]
        self.extensions = build_c_natives(
            [
                (package / f"{case.name}.py", case.schema, {**case.options, "name": case.name})
                for case in self.cases
            ],
            sanitize=sanitize,
            timeout=3000,
        )
        self.native: dict[str, Any] = {}
        self.pure: dict[str, Any] = {}
        if sanitize:
            return  # (imported only by a child process that has the sanitizers' runtime)
        # Each test file names its own package: a second one of the same name would be
        # answered from sys.modules, where the first file's package already is.
        assert package_name not in sys.modules, f"{package_name} is already imported"
        sys.path.insert(0, str(directory))
        try:
            for case in self.cases:
                self.native[case.name] = importlib.import_module(f"{package_name}.{case.name}")
        finally:
            sys.path.remove(str(directory))
        for case in self.cases:
            self.pure[case.name] = _pure(package / f"{case.name}.py")

    @staticmethod
    def _write(package: Path, case: Case) -> bool:
        try:
            text = generator.compile_source(case.schema, name=case.name, **case.options)
        except generator.SchemaError:
            return False  # (a schema the compiler refuses: the suite's known failures)
        (package / f"{case.name}.py").write_text(text)
        return True


def _pure(path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(f"pure_c_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Sample:
    return Sample(tmp_path_factory.mktemp("native_c"), _cases())


# -- the sample answers as the pure modules ------------------------------------------------------------


def test_the_extensions_are_the_c_backends_and_replace_the_fast_functions(sample: Sample) -> None:
    for case, extension in zip(sample.cases, sample.extensions):
        native = sample.native[case.name]
        assert native.__file__ == str(extension) and extension.name.endswith(EXTENSION_SUFFIX)
        record = json.loads(record_path(extension).read_text())
        assert record["backend"] == "c" and "mypy" not in record
        assert is_current(extension.with_name(f"{case.name}.py"))
    repro = sample.native["repro"]
    # the root's fast function is C, under its own name and its alias; the error path is Python
    assert type(repro._v0).__name__ == "builtin_function_or_method" and repro._v0r is repro._v0
    assert type(repro._e0).__name__ == "function" and type(repro.errors).__name__ == "function"


def test_a_doubling_s_memoized_functions_are_called_from_the_c(sample: Sample) -> None:
    """The lean memo wrappers' C form stands under the aliases (the C's and the public
    functions' calls: tests/test_native_c_memo.py); 40 levels (2**40 steps without the table)
    answer as the pure module does."""
    native, pure = sample.native["doubling"], sample.pure["doubling"]
    assert type(native._v0r).__name__ == "builtin_function_or_method"
    assert native._v0r.__name__ == "_v0r" and native._v0r is not native._v0
    for leaf, valid in ((1, True), ("s", False)):
        assert native.is_valid(_nested(40, leaf)) is pure.is_valid(_nested(40, leaf)) is valid


def test_the_suite_sample_answers_as_the_pure_modules(sample: Sample) -> None:
    compared = 0
    for case in sample.cases:
        for instance in case.tests:
            assert_same(sample.native[case.name], sample.pure[case.name], instance)
            compared += 1
    assert compared > 100


def test_hostile_instances_answer_as_the_pure_modules(sample: Sample) -> None:
    for case in sample.cases:
        for instance in hostile_instances():
            assert_same(sample.native[case.name], sample.pure[case.name], instance)


@settings(max_examples=100)
@given(st.data())
def test_generated_instances_answer_as_the_pure_modules(
    sample: Sample, data: st.DataObject
) -> None:
    case = data.draw(st.sampled_from(sample.cases))
    instance = data.draw(JSON)
    assert_same(sample.native[case.name], sample.pure[case.name], instance)


def test_bench_instances_answer_as_the_pure_modules(sample: Sample) -> None:
    data = ROOT / "bench" / "data"
    for name, files in (
        ("fast", ["fast_valid.json", "fast_invalid.json"]),
        ("citm", ["citm_catalog.json"]),
        ("recursive", ["recursive_instance.json"]),
        ("geojson", ["canada.json"]),
    ):
        for file in files:
            instance = json.loads((data / file).read_text())
            for one in instance if name == "fast" else [instance]:
                assert_same(sample.native[name], sample.pure[name], one)


def test_functions_without_a_c_form_are_the_pure_modules(sample: Sample) -> None:
    """A function holding a construct the renderer has no C form for (here a generator
    expression: a contains count) calls the pure module's, and answers as it does."""
    text = (sample.directory / PACKAGE / "counted.py").read_text()
    rendered = render_c(COUNTED, text, "counted", "counted.py", name="counted")
    assert (
        list(rendered.fallbacks) == ["_v0"] and "generator expression" in rendered.fallbacks["_v0"]
    )
    native, pure = sample.native["counted"], sample.pure["counted"]
    assert type(native._v0).__name__ == "function"  # (not replaced)
    tests = next(case for case in sample.cases if case.name == "counted").tests
    answers = [native.is_valid(instance) for instance in tests]
    assert (
        answers
        == [pure.is_valid(instance) for instance in tests]
        == [True, False, True, False, True, True]
    )


def test_the_exact_type_forms_are_rendered_and_nothing_falls_back(sample: Sample) -> None:
    """Where a value's exact type is known, the C reads it in C (the forms named in CONSTRUCTS),
    and the geojson schema's fixed-length arrays (`a, b = x`, once the pure module's) are C."""
    text = (sample.directory / PACKAGE / "constructs.py").read_text()
    c_text = render_c(CONSTRUCTS, text, "constructs", "constructs.py", name="constructs").render()
    for form in (
        "sl_compare_small(",  # an int or float against a small int literal
        "sl_compare_double(",  # against a float literal
        "sl_dict_find(",  # a key by its precomputed hash (where no pass ran)
        "switch (PyUnicode_GET_LENGTH(key))",  # the object's keys read in one pass
        "SL_DICT_VERSION(",  # the pass's items used while the dict is unchanged
        "sl_unique(",  # uniqueItems of exact strs
        "Py_ssize_t S_found",  # the closed object's count
        "PyUnicode_GET_LENGTH(",  # maxLength of a string known exact
        "PyList_GET_SIZE(",  # minItems of a list known exact
        "sl_builtin_type_in(",  # a set of built-in types tested by its bits
    ):
        assert form in c_text, form
    geojson = next(case for case in sample.cases if case.name == "geojson")
    geojson_text = (sample.directory / PACKAGE / "geojson.py").read_text()
    assert ", item" in geojson_text and "= x" in geojson_text  # (the unpacking is there)
    rendered = render_c(geojson.schema, geojson_text, "geojson", "geojson.py", name="geojson")
    assert "->ob_item;" in rendered.render()  # (an exact list unpacked in place)
    assert rendered.fallbacks == {}


# -- depth --------------------------------------------------------------------------------------------

_BOUNDARY = """
import importlib, importlib.util, json, sys
sys.path.insert(0, sys.argv[1])


def nest(depth, wrap, x):
    for _ in range(depth):
        x = wrap(x)
    return x


def boundary(accepts):
    low, high = 1, 6000
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if accepts(middle) else (low, middle)
    return low


found = {{}}
for name, shape, leaves in json.loads(sys.argv[2]):
    native = importlib.import_module({package!r} + "." + name)
    assert native.__file__.endswith({suffix!r})
    spec = importlib.util.spec_from_file_location("pure_" + name, native.__file__.rsplit("/", 1)[0] + "/" + name + ".py")
    pure = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pure)
    for leaf in leaves:
        make = lambda depth: eval(shape, {{"nest": nest, "depth": depth, "leaf": leaf}})
        for module in (pure, native, pure, native):
            found.setdefault(f"{{name}} {{leaf}}", []).append(boundary(lambda depth: module.is_valid(make(depth))))
        if name == "repro" and leaf == 11:
            for module in (pure, native):
                errors = boundary(lambda depth: "deep" not in module.errors(make(depth))[0].message)
                found.setdefault(f"{{name}} {{leaf}} errors", []).append(errors)
print(json.dumps(found))
"""


def test_deep_instances_are_refused_where_the_pure_module_refuses_them(sample: Sample) -> None:
    """Each C fast function counts a level against the recursion limit as its pure frame does (and
    a call the pure module makes of a C method, as CPython counts it), so the deepest instance
    is_valid accepts (and for the reproducer, the deepest whose errors() are listed rather than
    refused as too deep) is the pure module's, for recursion through properties, items, anyOf,
    patternProperties, additionalProperties, with ints, floats and ints outside 63 bits at the
    leaves (in a child process: fresh, default limit)."""
    shapes = [
        ("repro", "nest(depth, lambda x: {'i': leaf, 'r': x}, {'i': leaf})", [1, 1.0, -(2**70), 11])
    ]
    shapes += [(name, shape, [1, 1.0, 2**70]) for name, (_, shape) in DEEP.items()]
    script = _BOUNDARY.format(package=PACKAGE, suffix=EXTENSION_SUFFIX)
    done = subprocess.run(
        [sys.executable, "-c", script, str(sample.directory), json.dumps(shapes)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout)
    for key, (pure, native, pure_again, native_again) in (
        (k, v) for k, v in found.items() if len(v) == 4
    ):
        assert native == pure == pure_again == native_again, (key, found[key])
    refused = {key: found[key] for key in found if key.endswith("errors")}
    assert refused and all(len(set(values)) == 1 for values in refused.values()), refused
    # (the control: where an instance is accepted, the boundary is the recursion limit's)
    assert all(100 < found[f"{name} 1"][0] < 1000 for name in ["repro", *DEEP]), found


_STACKS = """
import importlib, json, sys, threading
sys.path.insert(0, sys.argv[1])
native = importlib.import_module({package!r} + ".repro")
x = {{"i": 1}}
for _ in range(int(sys.argv[2])):
    x = {{"i": 1, "r": x}}
found = []
def run():
    sys.setrecursionlimit(int(sys.argv[4]))
    found.append((native.is_valid(x), [e.message for e in native.errors(x)]))
threading.stack_size(int(sys.argv[3]) * 1024)
thread = threading.Thread(target=run)
thread.start()
thread.join()
print(json.dumps(found[0]))
"""


@pytest.mark.parametrize(
    ("depth", "kib", "limit"), [(300, 64, 1000), (5000, 256, 1_000_000), (200, 8192, 1000)]
)
def test_small_stacks_and_a_raised_limit_are_refused_never_a_crash(
    sample: Sample, depth: int, kib: int, limit: int
) -> None:
    script = _STACKS.format(package=PACKAGE)
    done = subprocess.run(
        [sys.executable, "-c", script, str(sample.directory), str(depth), str(kib), str(limit)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    valid, messages = json.loads(done.stdout)
    if kib >= 8192:
        assert (valid, messages) == (True, [])  # (room enough: the answer itself)
    else:
        assert valid in (True, False) and (messages == [] or "deep" in messages[0])


# -- memory ---------------------------------------------------------------------------------------------

_FLAT = """
import gc, importlib, json, sys, tracemalloc
sys.path.insert(0, sys.argv[1])


def rss():
    with open("/proc/self/statm") as file:
        return int(file.read().split()[1]) * 4096


def counts(instance):
    return [sys.getrefcount(instance), sys.getrefcount(True), sys.getrefcount(False), sys.getrefcount(None)]


results = {{}}
for name, instance in json.loads(sys.argv[2]):
    module = importlib.import_module({package!r} + "." + name)
    for _ in range(1000):
        module.is_valid(instance)
    gc.collect()
    before = counts(instance)
    valid = 0
    for _ in range(100_000):
        valid += module.is_valid(instance)
    after = counts(instance)
    tracemalloc.start()
    before_rss, snapshot = rss(), tracemalloc.take_snapshot()
    for _ in range(100_000):
        module.is_valid(instance)
    gc.collect()
    grown = sum(stat.size_diff for stat in tracemalloc.take_snapshot().compare_to(snapshot, "filename"))
    after_rss = rss()
    tracemalloc.stop()
    del snapshot
    results[name + json.dumps(instance)[:40]] = [valid, grown, after_rss - before_rss, before, after]
print(json.dumps(results))
"""


def test_memory_and_reference_counts_stay_flat_over_100000_calls(sample: Sample) -> None:
    """The same call repeated 100,000 times, valid and invalid: traced memory and RSS do not grow,
    and the instance's, True's, False's and None's reference counts are unchanged (a reference
    leaked or freed twice in a call would show as many times over)."""
    calls = [
        ("repro", {"i": 1, "s": "AB", "r": {"i": 2, "u": [1, 2], "e": [1], "x-a": "s"}}),
        ("repro", {"i": 1, "s": "ab", "r": {"i": 12}}),
        ("repro", {"i": 2**70}),
        ("fast", json.loads((ROOT / "bench" / "data" / "fast_valid.json").read_text())[0]),
        ("fast", json.loads((ROOT / "bench" / "data" / "fast_invalid.json").read_text())[0]),
        # (the one-pass key read, C sizes, unpacking, uniqueItems: valid, then invalid late)
        ("constructs", {"i": 5, "r": {"i": 1}, "a": [1, 2], "tags": ["a", "b"], "bar": [1, "a"]}),
        ("constructs", {"tags": ["a", "b", "a"], "i": 5, "r": {"i": 1}, "a": [1, 2]}),
        # (uniqueItems of dicts: different shapes in C, equal shapes through the pure function)
        ("constructs", {"tags": [{"a": "y"}, {"a": "x", "n": 1}, {"b": "x"}], "i": 5}),
        ("constructs", {"tags": [{"a": "x", "n": 1}, {"a": "x", "n": 1}], "i": 5}),
        (
            "checks",
            {"date": "2020-01-01", "risky": "aab", "unique": [1, 2], "enum": [1, 2], "any": "ab"},
        ),
        ("checks", {"date": "2020-13-01", "unique": [1, 1], "one": {"a": 1, "b": 1}}),
    ]
    results = flat_over_100000_calls(sample.directory, PACKAGE, calls)
    # (valid and invalid instances both ran)
    assert {valid for valid, *_ in results.values()} == {0, 100_000}


def flat_over_100000_calls(
    directory: Path, package: str, calls: list[tuple[str, Any]]
) -> dict[str, Any]:
    """Each (module, instance) of `calls` run 100,000 times in a child (_FLAT): traced memory, RSS
    and the reference counts must stay flat. Each call's results, by key, valid count first."""
    done = subprocess.run(
        [sys.executable, "-c", _FLAT.format(package=package), str(directory), json.dumps(calls)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    results: dict[str, Any] = json.loads(done.stdout)
    assert len(results) == len(calls)
    for key, (_, grown, rss_grown, counts, counts_after) in results.items():
        assert grown < 64 * 1024, (key, grown)
        assert rss_grown < 4 * 1024 * 1024, (key, rss_grown)
        assert counts_after == counts, key
    return results


# -- sanitizers -----------------------------------------------------------------------------------------


def _asan_runtime() -> str | None:
    compiler = shutil.which("gcc")
    if compiler is None:
        return None
    found = subprocess.run(
        [compiler, "-print-file-name=libasan.so"], capture_output=True, text=True
    ).stdout.strip()
    return found if os.path.isabs(found) and os.path.exists(found) else None


_SANITIZED = """
import importlib, importlib.util, json, sys
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
from tests.native_hostile import hostile_instances, outcome, errors_of
cases = json.loads(sys.argv[3])
checked = 0
for name, tests in cases:
    native = importlib.import_module({package!r} + "." + name)
    assert native.__file__.endswith({suffix!r}), native.__file__
    spec = importlib.util.spec_from_file_location("pure_" + name, native.__file__.rsplit("/", 1)[0] + "/" + name + ".py")
    pure = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pure)
    for instance in tests + hostile_instances():
        assert outcome(native.is_valid, instance) == outcome(pure.is_valid, instance), (name, instance)
        assert errors_of(native, instance) == errors_of(pure, instance), (name, instance)
        checked += 1
print(checked)
"""


@pytest.mark.skipif(
    _asan_runtime() is None, reason="gcc's AddressSanitizer runtime is not installed"
)
def test_an_address_and_undefined_behaviour_sanitized_build_agrees(tmp_path: Path) -> None:
    """A sample built with -fsanitize=address,undefined (and no recovery from undefined
    behaviour), run in a child process with the sanitizers' runtime preloaded: its suite and
    hostile instances answer as the pure modules, and no sanitizer reports anything."""
    sampled = ("repro", "checks", "fast", "recursive", "constructs", "geojson")
    cases = [case for case in _cases() if case.name in sampled]
    cases += [case for case in _cases() if case.name.startswith("s")][:: 1 if FULL_SUITE else 6]
    built = Sample(tmp_path, cases, sanitize=True)
    script = _SANITIZED.format(package=PACKAGE, suffix=EXTENSION_SUFFIX)
    payload = json.dumps([(case.name, case.tests) for case in built.cases])
    assert sanitized_run(tmp_path, script, payload) > 500


def sanitized_run(directory: Path, script: str, payload: str) -> int:
    """`script` (_SANITIZED's, importing the sanitized build in `directory`) run in a child with
    gcc's ASan runtime preloaded: it must end well with no sanitizer report. The number of
    instances it checked (the last word it prints)."""
    environment = {
        **os.environ,
        "LD_PRELOAD": _asan_runtime() or "",
        "PYTHONMALLOC": "malloc",
        "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=0:exitcode=99",
        "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1:exitcode=98",
    }
    done = subprocess.run(
        [sys.executable, "-c", script, str(directory), str(ROOT), payload],
        capture_output=True,
        text=True,
        timeout=1800,
        env=environment,
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-4000:])
    assert "ERROR: AddressSanitizer" not in done.stderr and "runtime error:" not in done.stderr
    return int(done.stdout.split()[-1])


# -- the build ------------------------------------------------------------------------------------------


def test_a_module_that_is_not_the_schemas_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(generator.compile_source({"type": "object"}, name="m"))
    with pytest.raises(NativeBuildError, match="not what this schema compiles to"):
        build_c_native(module, {"type": "array"}, name="m")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.py"]


def test_no_c_compiler_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = tmp_path / "m.py"
    module.write_text(generator.compile_source({"type": "object"}, name="m"))
    monkeypatch.setenv("CC", "no-such-compiler-here")
    with pytest.raises(CompilerNotFound, match="no-such-compiler-here"):
        build_c_native(module, {"type": "object"}, name="m")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.py"]


def test_a_failing_c_compiler_is_a_typed_error_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = tmp_path / "m.py"
    module.write_text(generator.compile_source({"type": "object"}, name="m"))
    monkeypatch.setenv("CC", "false")
    with pytest.raises(NativeBuildError, match="C build of m failed"):
        build_c_native(module, {"type": "object"}, name="m")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.py"]


def test_only_a_module_file_named_as_an_identifier_is_built_in_c(tmp_path: Path) -> None:
    text = generator.compile_source({"type": "object"}, name="m")
    for name in ("not-a-name.py", "m.txt"):
        (tmp_path / name).write_text(text)
        with pytest.raises(NativeBuildError) as raised:
            build_c_native(tmp_path / name, {"type": "object"}, name="m")
        assert raised.value.message == (
            f"{tmp_path / name}: a native build needs a module file NAME.py, NAME an identifier"
        )
    (tmp_path / "folder.py").mkdir()
    for missing in ("missing.py", "folder.py"):
        with pytest.raises(NativeBuildError) as raised:
            build_c_native(tmp_path / missing, {"type": "object"}, name="m")
        assert raised.value.message == f"{tmp_path / missing}: not a file"
    (tmp_path / "latin.py").write_bytes(b"# caf\xe9\n")
    with pytest.raises(NativeBuildError) as raised:
        build_c_native(tmp_path / "latin.py", {"type": "object"}, name="latin")
    assert raised.value.message == (
        f"{tmp_path / 'latin.py'}: not a module straightline wrote (not UTF-8)"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "folder.py",
        "latin.py",
        "m.txt",
        "not-a-name.py",
    ]


def test_one_c_build_refuses_two_modules_of_the_same_name(tmp_path: Path) -> None:
    """Two m.py outside any package are both the module `m`: one build cannot hold both."""
    jobs: list[tuple[Path, Any, dict[str, Any]]] = []
    for directory in ("a", "b"):
        (tmp_path / directory).mkdir()
        module = tmp_path / directory / "m.py"
        module.write_text(generator.compile_source({"type": "object"}, name="m"))
        jobs.append((module, {"type": "object"}, {"name": "m"}))
    with pytest.raises(NativeBuildError) as raised:
        build_c_natives(jobs)
    assert raised.value.message == "one build cannot hold two modules of the same name: m, m"
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["a", "b", "m.py", "m.py"]


def _fake_c_worker(
    edit: Path | None, status: int | None
) -> Any:  # (the worker's run, as c_build calls it)
    def run(command: list[str], work: Path, timeout: float | None) -> tuple[int | None, str]:
        if edit is not None:
            edit.write_text(edit.read_text() + "# edited\n")
        (work / "lib").mkdir()
        (work / "lib" / ("m" + EXTENSION_SUFFIX)).write_bytes(b"not a real extension")
        return status, ""

    return run


def test_a_module_changed_while_its_c_was_compiled_is_not_installed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from generator.native import c_build

    module = tmp_path / "m.py"
    module.write_text(generator.compile_source({"type": "object"}, name="m"))
    monkeypatch.setattr(c_build, "_run", _fake_c_worker(module, 0))
    with pytest.raises(NativeBuildError) as raised:
        build_c_native(module, {"type": "object"}, name="m")
    assert raised.value.message == (
        f"{module}: the module changed while it was being compiled; build it again"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.py"]


def test_a_c_build_over_its_time_is_stopped_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from generator.native import c_build

    module = tmp_path / "m.py"
    module.write_text(generator.compile_source({"type": "object"}, name="m"))
    monkeypatch.setattr(c_build, "_run", _fake_c_worker(None, None))  # (_run: None when stopped)
    with pytest.raises(NativeBuildError) as raised:
        build_c_native(module, {"type": "object"}, name="m", timeout=1.5)
    assert raised.value.message == (
        "the C build of m took over 1.5 s and was stopped; the pure-Python module is used"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.py"]


# -- the command line -----------------------------------------------------------------------------------


def _straightline(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    command = [str(Path(sys.executable).with_name("straightline")), *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=900)


def _backend(extension: Path) -> str:
    record = json.loads(record_path(extension).read_text())
    return "mypyc" if "mypy" in record else record["backend"]


def test_native_on_the_command_line_is_the_c_backend_and_mypyc_stays_reachable(
    tmp_path: Path,
) -> None:
    """`compile --native` builds the C backend's extension (a bare --native before a SRC leaves
    the SRC a SRC), `check --native` accepts it, `--native=mypyc` rebuilds the same module with
    mypyc, and `--native` again goes back to C: a module's extension is rebuilt when the
    backend asked for is not the one that built it."""
    source = str(ROOT / "contracts" / "octoscript" / "math.add.input.json")
    out = tmp_path / "out"
    common = ["--profile", "octoscript", "--out", str(out)]
    done = _straightline("compile", "--native", source, *common, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    module = out / "math_add_input.py"
    extension = module.with_name("math_add_input" + EXTENSION_SUFFIX)
    assert f"-> {extension.name} (native, C," in done.stdout and _backend(extension) == "c"
    assert _straightline("check", source, *common, "--native", cwd=tmp_path).returncode == 0
    probe = (
        f"import sys; sys.path.insert(0, {str(out)!r}); import math_add_input as m; "
        "print(m.__file__, type(m._v0).__name__, m.is_valid({'left': 1, 'right': 2}), "
        "m.is_valid({'left': 1, 'right': 2.5}), m.errors({'left': 1})[0].keyword)"
    )

    def imported() -> list[str]:
        answer = subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120
        )
        return answer.stdout.split()

    assert imported() == [str(extension), "builtin_function_or_method", "True", "False", "required"]
    again = _straightline("compile", source, *common, "--native=c", cwd=tmp_path)
    assert again.returncode == 0 and "up to date (native)" in again.stdout

    mypyc = _straightline("compile", source, *common, "--native=mypyc", cwd=tmp_path)
    assert mypyc.returncode == 0, mypyc.stderr
    assert f"-> {extension.name} (native, mypyc," in mypyc.stdout and _backend(extension) == "mypyc"
    assert imported()[0] == str(extension) and imported()[2:] == ["True", "False", "required"]
    back = _straightline("compile", source, *common, "--native", cwd=tmp_path)
    assert back.returncode == 0 and "(native, C," in back.stdout and _backend(extension) == "c"


def test_a_native_compile_runs_the_pipeline_once_per_schema(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`compile --native` builds each C extension from the code tree of the compile that wrote
    its module, never compiling the schema again: the pipeline (generator/api.py's compile_text,
    which every schema's compile runs) runs once per schema, and the modules are byte for byte
    those of a compile without --native."""
    from generator import api
    from generator.cli.main import main

    schemas = {
        "point": {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]},
        "names": {"type": "array", "items": {"type": "string", "pattern": "^[a-z]+$"}},
    }
    sources = []
    for stem, schema in schemas.items():
        (tmp_path / f"{stem}.json").write_text(json.dumps(schema))
        sources.append(str(tmp_path / f"{stem}.json"))
    runs: list[Any] = []
    pipeline = api.compile_text

    def counted(*args: Any, **kwargs: Any) -> Any:
        runs.append(args[0])
        return pipeline(*args, **kwargs)

    monkeypatch.setattr(api, "compile_text", counted)
    native, pure = tmp_path / "native", tmp_path / "pure"
    assert main(["compile", *sources, "--out", str(native), "--native"]) == 0
    assert sorted(json.loads(part.schema)["type"] for (part,) in runs) == ["array", "object"]
    assert main(["compile", *sources, "--out", str(pure)]) == 0
    assert len(runs) == 4
    for stem in schemas:
        module = native / f"{stem}.py"
        assert module.read_bytes() == (pure / module.name).read_bytes()
        assert is_current(module) and _backend(module.with_name(stem + EXTENSION_SUFFIX)) == "c"


def test_a_native_backend_that_does_not_exist_is_a_usage_error(tmp_path: Path) -> None:
    source = str(ROOT / "contracts" / "octoscript" / "math.add.input.json")
    done = _straightline(
        "compile", source, "--out", str(tmp_path / "out"), "--native=rust", cwd=tmp_path
    )
    assert done.returncode == 2 and "argument --native: must be one of c, mypyc" in done.stderr
    assert not (tmp_path / "out").exists()


def test_a_tool_contract_file_asks_for_mypyc(tmp_path: Path) -> None:
    """The C backend renders a schema's code tree; a tool contract file's module is two
    schemas': its build fails with a message naming mypyc, and the pure module stays."""
    source = str(ROOT / "contracts" / "tools" / "math.add.json")
    out = tmp_path / "out"
    done = _straightline("compile", source, "--out", str(out), "--native", cwd=tmp_path)
    assert done.returncode == 1 and "use --native=mypyc" in done.stderr
    assert [p.name for p in out.iterdir() if p.suffix != ".pyc" and p.is_file()] == ["math_add.py"]


def test_the_native_backend_is_a_project_setting(tmp_path: Path) -> None:
    from generator.errors import ConfigError
    from generator.project import load_project

    (tmp_path / "a.json").write_text("{}")
    config = tmp_path / "pyproject.toml"
    config.write_text(
        '[tool.straightline]\nout = "out"\ncontracts = ["a.json"]\nnative = "mypyc"\n'
        '[tool.straightline.groups.g]\ncontracts = ["a.json"]\nnative = "c"\n'
        '[tool.straightline.groups.h]\ncontracts = ["a.json"]\nnative = true\n'
    )
    project = load_project(config)
    assert [(job.settings.native, job.settings.native_backend) for job in project.jobs] == [
        (True, "mypyc"),
        (True, "c"),
        (True, "mypyc"),  # (true: native, with the backend the table above names)
    ]
    config.write_text('[tool.straightline]\nout = "out"\ncontracts = ["a.json"]\nnative = "cc"\n')
    with pytest.raises(
        ConfigError, match=r'native: must be true, false, "c" or "mypyc", not \'cc\''
    ):
        load_project(config)


# -- an instance changed while it is validated ------------------------------------------------------

# The dict the format function below changes, and how (set by the test).
_CHANGED: dict[str, Any] = {}


def _mutating_format(value: Any) -> bool:
    """A custom format that changes the instance being validated (_CHANGED["target"]): the
    pure module reads the instance as it is when it gets there, and so must the C, whose
    one-pass key read is stale once the dict has changed."""
    target = _CHANGED["target"]
    if _CHANGED["how"] == "delete":
        del target["b"]
    else:
        target["b"] = "not an integer"
    return True


def test_a_dict_changed_during_validation_is_read_again(tmp_path: Path) -> None:
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"a": {"type": "string", "format": "mutate"}, "b": {"type": "integer"}},
    }
    options = {"formats": {"mutate": "tests.test_native_c:_mutating_format"}}
    module = tmp_path / "mutating_c.py"
    module.write_text(generator.compile_source(schema, name="mutating_c", **options))
    extension = build_c_native(module, schema, name="mutating_c", timeout=600, **options)
    assert (
        "SL_DICT_VERSION("
        in render_c(
            schema, module.read_text(), "mutating_c", module.name, name="mutating_c", **options
        ).render()
    )  # (the keys are read in one pass)
    sys.path.insert(0, str(tmp_path))
    try:
        native = importlib.import_module("mutating_c")
    finally:
        sys.path.remove(str(tmp_path))
    assert native.__file__ == str(extension)
    pure = _pure(module)
    answers = []
    for how, b in (("delete", "not an integer"), ("set", 1)):
        for validator in (pure, native):
            instance = {"a": "x", "b": b}
            _CHANGED.update(target=instance, how=how)
            answers.append(validator.is_valid(instance))
    # deleted before b is read: valid; b made a string before it is read: invalid
    assert answers == [True, True, False, False]


# -- constructs with no C form ------------------------------------------------------------------------


def _no_c_form_cases() -> list[Any]:
    from generator.emit import tree as t

    x = t.Name("x")
    return [
        pytest.param([t.Assign(t.Name("y"), x)], "a body that can end without a return", id="end"),
        pytest.param([t.Return()], "return without a value", id="bare-return"),
        pytest.param([t.Break(), t.Return(t.TRUE)], "break outside a loop", id="break"),
        pytest.param(
            [t.Assign(t.Attr(x, "y"), t.TRUE), t.Return(t.TRUE)],
            "an assignment to something other than a local name",
            id="assign-attribute",
        ),
        pytest.param(
            [t.Return(t.Compare(t.BinOp(x, "*", x), "==", t.lit(1)))],
            "the operator *",
            id="operator",
        ),
        pytest.param(
            [t.For(t.Attr(x, "a"), x, (t.Pass(),)), t.Return(t.TRUE)],
            "a loop target other than names",
            id="loop-target",
        ),
        pytest.param([t.Header("if", x), t.Return(t.TRUE)], "Header", id="statement"),
        pytest.param(
            [t.Return(t.Compare(x, "==", t.Display("list", ())))], "Display", id="expression"
        ),
    ]


@pytest.mark.parametrize("body, why", _no_c_form_cases())
def test_a_construct_with_no_c_form_leaves_its_function_the_pure_modules(
    body: list[Any], why: str
) -> None:
    """A fast function whose tree holds a construct the renderer has no C form for is not
    rendered: the C module fetches the pure function instead, and records why."""
    from generator.codegen import Code
    from generator.emit import tree as t
    from generator.emit.module import Function
    from generator.native.c_module import CModule

    function = Function(t.Name("_v0"), ("x: Any",), Code('"""d"""'), body)
    module = CModule("m", "X = 1\n", [function], [], "m.py")
    text = module.render()
    assert module.fallbacks == {"_v0": why} and module.rendered == {}
    assert "sl__v0(PyObject *x) {" not in text and "_v0" in module.symbols.globals


def _forms_the_emitter_does_not_write() -> dict[str, list[Any]]:
    """Fast-function bodies (as code trees) with C forms that no schema's module holds today."""
    from generator.emit import tree as t

    x = t.Name("x")
    key, v, a, b, c, kind = (t.Name(s) for s in ("key", "v", "a", "b", "c", "kind"))

    def of_type(name: str, *body: Any) -> Any:
        return t.If(((t.Compare(t.Call(t.Name("type"), (x,)), "is", t.Name(name)), body),))

    def length(e: Any) -> Any:
        return t.Call(t.Name("len"), (e,))

    def when(test: Any, *body: Any) -> Any:
        return t.If(((test, body),))

    yes, no = t.Return(t.TRUE), t.Return(t.FALSE)
    return {
        # for key in x.items(): one name over an exact dict's items
        "_v0": [
            of_type(
                "dict",
                t.For(
                    key,
                    t.Call(t.Attr(x, "items"), ()),
                    (when(t.Compare(t.Subscript(key, t.lit(1)), "==", t.lit(0)), no),),
                ),
            ),
            yes,
        ],
        # for a, b, c in x: three names unpacked
        "_v1": [
            of_type(
                "list", t.For(t.Tuple((a, b, c), bare=True), x, (when(t.Compare(a, "==", c), no),))
            ),
            yes,
        ],
        # a test's bool held in a local, returned
        "_v2": [t.Assign(v, t.Compare(x, "==", t.lit(1))), t.Return(v)],
        # a size as a test: if len(x)
        "_v3": [of_type("str", when(length(x), no)), yes],
        # an expression statement, an attribute
        "_v4": [
            of_type(
                "int",
                t.ExprStmt(t.Call(t.Name("abs"), (x,))),
                t.Return(t.Compare(t.Attr(x, "real"), ">", t.lit(2))),
            ),
            yes,
        ],
        # sizes in parentheses
        "_v5": [
            of_type(
                "list",
                t.Return(
                    t.Compare(t.Paren(length(x)), "<", t.Paren(t.BinOp(t.lit(3), "-", length(x))))
                ),
            ),
            yes,
        ],
        # a local read where it may be unbound
        "_v6": [when(t.Compare(x, "==", t.lit(1)), t.Assign(v, t.TRUE)), t.Return(v)],
        # sums that are not counts: a test plus a number, a size plus a float
        "_v7": [
            of_type(
                "int", t.Return(t.Compare(t.Sum((t.Compare(x, ">", t.lit(1)), x)), ">", t.lit(2)))
            ),
            yes,
        ],
        "_v8": [
            of_type("list", t.Return(t.Compare(t.Sum((length(x), t.lit(1.5))), ">", t.lit(2)))),
            yes,
        ],
        # len() of a value of no known type
        "_v9": [t.Return(t.Compare(length(x), ">", t.lit(1)))],
        # get() with a key that is no literal, and with no default
        "_v10": [
            of_type(
                "dict",
                t.Return(
                    t.Compare(
                        t.Call(
                            t.Attr(x, "get"), (t.Call(t.Attr(x, "get"), (t.lit("k"),)), t.lit(0))
                        ),
                        "==",
                        t.lit(0),
                    )
                ),
            ),
            yes,
        ],
        # `x is dict`: a test that tells nothing of x's type
        "_v11": [when(t.Compare(x, "is", t.Name("dict")), no), yes],
        # a local's type read, then the local assigned again: the type no longer its
        "_v12": [
            t.Assign(v, x),
            t.Assign(kind, t.Call(t.Name("type"), (v,))),
            t.Assign(v, t.lit(1)),
            when(t.Compare(kind, "is", t.Name("int")), t.Return(t.Compare(v, "==", t.lit(1)))),
            no,
        ],
    }


def test_c_forms_no_module_holds_today_answer_as_their_python(tmp_path: Path) -> None:
    """Code trees with C forms the emitter writes no schema's module with today (an items() loop
    over one name, three names unpacked, a bool or a size where an object is wanted, an
    attribute, an unbound local, a get with a key that is no literal...), rendered in C and built:
    each C function answers, or raises, as the same tree rendered as Python."""
    from generator.codegen import Code
    from generator.emit import tree as t
    from generator.emit.module import Function
    from generator.native.c_build import _compile, c_units
    from generator.native.c_module import CModule

    bodies = _forms_the_emitter_does_not_write()
    functions = [Function(t.Name(n), ("x: Any",), Code('"""d"""'), b) for n, b in bodies.items()]
    text = "from typing import Any\n\n" + "".join(
        f"def {f.name.id}(x: Any) -> bool:\n" + "\n".join(t.render_block(f.body, 1)) + "\n\n"
        for f in functions
    )
    module = CModule("sl_c_forms", text, functions, [], "sl_c_forms.py")
    module.render()
    assert module.fallbacks == {} and sorted(module.rendered) == sorted(bodies)
    (extension,) = _compile(tmp_path, [("sl_c_forms", c_units(module.units()))], None, False, 600)
    lib = tmp_path / "installed"
    lib.mkdir()
    (lib / ("sl_c_forms" + EXTENSION_SUFFIX)).write_bytes(extension)
    spec = importlib.util.spec_from_file_location(
        "sl_c_forms", lib / ("sl_c_forms" + EXTENSION_SUFFIX)
    )
    assert spec is not None and spec.loader is not None
    built = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(built)
    pure: dict[str, Any] = {}
    exec(compile(text, "sl_c_forms.py", "exec"), pure)
    instances = [{"a": 0}, {"a": 1}, {"k": "a", "a": 0}, {"k": "a", "a": 5}, {"k": [1]}]
    instances += [[[1, 2, 3]], [[1, 2, 1]], [[1, 2]], [], 1, 2, 5, "", "ab", [1, 2], None, True]

    def answer(function: Any, instance: Any) -> Any:
        try:
            return function(instance)
        except Exception as error:  # (the same exception type both ways)
            return type(error).__name__

    for name in bodies:
        assert type(getattr(built, name)) is not type(pure[name])  # (the C function)
        for instance in instances:
            assert answer(getattr(built, name), instance) == answer(pure[name], instance), (
                name,
                instance,
            )
