"""The C backend's memoized fast functions (c_module.py's memo callers, c_runtime.h's
sl_memo_lean): where a subschema's fast function is wrapped by memo_runtime's lean wrapper, the
C keeps the call's answers in a table of its own (made by the module's `_memo_owned`, C too),
never through the Python wrapper or its dict (the bench's Recursive spent most of its call
there), and answers as the pure module does: the same evaluations, the same depth, the same
reference-loop errors, no leak.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

from generator.native import EXTENSION_SUFFIX
from generator.native.c_build import render_c

from .conftest import ROOT
from .native_hostile import assert_same, hostile_instances
from .test_doubling import SCHEMA as SHARED_D
from .test_native_c import (
    _BOUNDARY,
    _SANITIZED,
    DOUBLING,
    Case,
    Sample,
    _asan_runtime,
    _nested,
    flat_over_100000_calls,
    sanitized_run,
)

pytestmark = pytest.mark.skipif(
    shutil.which("cc") is None and shutil.which("gcc") is None,
    reason="no C compiler on this machine",
)

RECURSIVE = json.loads((ROOT / "bench" / "data" / "recursive_schema.json").read_text())
RECURSIVE_INSTANCE = json.loads((ROOT / "bench" / "data" / "recursive_instance.json").read_text())
R = {"$ref": "#"}
# Recursive's shape, small: a oneOf whose object branches each apply the definition to the same
# member (memoized: it can repeat down the instance), beside an array of it.
NODE = {"$ref": "#/$defs/node"}
TREE = {
    "$defs": {
        "node": {
            "oneOf": [
                {"type": "string"},
                {"type": "array", "items": NODE},
                {
                    "type": "object",
                    "oneOf": [
                        {
                            "required": ["tag"],
                            "properties": {"tag": {"const": tag}, "content": NODE},
                            "additionalProperties": False,
                        }
                        for tag in ("a", "b", "c")
                    ],
                },
            ]
        }
    },
    "type": "array",
    "items": NODE,
}
# A reference loop that consumes nothing beside a doubling: the wrapper watches for a re-entry
# (memo_runtime's _memo_once, not the lean one): the C calls it in Python.
LOOPED = {
    "$defs": {"loop": {"allOf": [{"$ref": "#/$defs/loop"}]}},
    "properties": {"never": {"$ref": "#/$defs/loop"}},
    "allOf": [{"items": R}, {"items": R}],
    "type": ["array", "integer", "object"],
}
DYNAMIC = {"$dynamicRef": "#n"}
SCOPED = {
    "$dynamicAnchor": "n",
    "allOf": [{"items": DYNAMIC}, {"items": DYNAMIC}],
    "type": ["array", "integer"],
}


def _tree(depth: int, leaf: Any) -> Any:
    """Nested nodes of every branch, in an array (TREE's root): object in array in object...
    with `leaf` at the bottom."""
    for level in range(depth):
        leaf = {"tag": "abc"[level % 3], "content": [leaf, "s"]} if level % 2 else [leaf]
    return [leaf]


TREE_TESTS: list[Any] = [_tree(depth, leaf) for depth in (0, 1, 2, 7, 30) for leaf in ("s", 1)]
TREE_TESTS += [
    [{"tag": "a"}],
    [{"tag": "d"}],
    [{"tag": "a", "content": {"tag": "b", "content": "x"}}],
    [{"tag": "a", "content": {"tag": "b", "other": 1}}],
    [{"content": "x", "tag": "c"}],
    [{"content": [1], "tag": "c"}],
    [[["s", ["s"]], {"tag": "b", "content": [[{"tag": "z"}]]}]],
    [],
    {},
    "s",
]
PACKAGE = "straightline_c_memo"  # (not test_native_c's: both may be imported in one run)
ARRAYS: list[Any] = [_nested(depth, leaf) for depth in (0, 1, 5, 40) for leaf in (1, "s", None)]


def _cases() -> list[Case]:
    return [
        Case("recursive", RECURSIVE, {}, [RECURSIVE_INSTANCE, [RECURSIVE_INSTANCE[0][:7]]]),
        Case("tree", TREE, {"profile": "draft2020-12"}, TREE_TESTS),
        Case("doubling", DOUBLING, {}, ARRAYS),
        Case("shared", SHARED_D, {"profile": "draft2020-12"}, [{"a": a} for a in ARRAYS]),
        Case("looped", LOOPED, {"profile": "draft2020-12"}, [*ARRAYS, {"never": 1}, {"x": 1}]),
        Case("scoped", SCOPED, {"profile": "draft2020-12"}, ARRAYS),
    ]


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Sample:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (the loop's own warning)
        return Sample(tmp_path_factory.mktemp("native_c_memo"), _cases(), package_name=PACKAGE)


def _python_calls(run: Any, instance: Any) -> list[str]:
    """The names of the Python functions that ran during run(instance)."""
    names: list[str] = []

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event == "call":
            names.append(frame.f_code.co_name)

    sys.setprofile(profile)
    try:
        run(instance)
    finally:
        sys.setprofile(None)
    return names


@pytest.mark.parametrize(
    "name,instances",
    [
        ("recursive", [RECURSIVE_INSTANCE]),
        ("tree", [_tree(30, "s"), _tree(7, 1)]),
        ("doubling", [_nested(40, 1), _nested(40, "s")]),
        ("shared", [{"a": _nested(40, 1)}]),
    ],
)
def test_lean_memoized_functions_run_in_c_through_the_call_s_table(
    sample: Sample, name: str, instances: list[Any]
) -> None:
    """is_valid runs no Python at all: not itself (C too), not the table's owner, no memo
    wrapper, no pure function (the memoized subschema, 2**40 evaluations without its table, is C
    too), and its answer is the pure module's."""
    native, pure = sample.native[name], sample.pure[name]
    assert [n for n in dir(native) if n.endswith("r") and n.startswith("_v")]  # (memoized ones)
    assert type(native._memo_owned).__name__ == "builtin_function_or_method"
    for instance in instances:
        assert _python_calls(native.is_valid, instance) == []
        assert native.is_valid(instance) is pure.is_valid(instance)
    # (the control: the pure module runs its wrappers and functions in Python)
    assert len(set(_python_calls(pure.is_valid, instances[0]))) > 3


class _Leaf(int):
    """An int the fast path does not read in C: each evaluation of it calls the pure `_ok`, a
    Python function, so its calls count the memoized function's evaluations of the leaf."""


@pytest.mark.parametrize(
    "name,instance,leaves",
    [
        ("doubling", _nested(12, _Leaf(1)), 1),
        ("doubling", [_nested(3, _Leaf(1)), _nested(3, _Leaf(1)), [[_Leaf(2)]]], 3),
        ("shared", {"a": _nested(12, _Leaf(1))}, 1),
    ],
)
def test_the_c_table_evaluates_each_value_once_as_the_pure_module_does(
    sample: Sample, name: str, instance: Any, leaves: int
) -> None:
    """Each application after the first answers from the call's C table: each leaf (a distinct
    object) is evaluated once, as the pure module evaluates it (each doubling level applies the
    subschema twice: 2**12 evaluations of the leaf without a table)."""
    native, pure = sample.native[name], sample.pure[name]
    evaluated = [_python_calls(m.is_valid, instance).count("_ok") for m in (native, pure)]
    assert evaluated == [leaves, leaves]
    assert native.is_valid(instance) is pure.is_valid(instance)


def test_the_c_table_holds_each_value_it_keys_until_the_call_ends(sample: Sample) -> None:
    """An entry is keyed by its value's address, so it holds the value: a value made and dropped
    during the call leaves its address to no other (the next one made would take it, and be
    answered the first one's answer), and is let go when the call returns."""
    native, pure = sample.native["tree"], sample.pure["tree"]

    def fresh_values(module: Any) -> list[bool]:
        answers = []
        for number in range(40):  # (each dropped before the next is made)
            answers.append(module._v1r(["s"] if number % 2 else [1]))
        return answers

    for module in (native, pure):
        assert module._memo_owned(fresh_values, (module,)) == [False, True] * 20
    value = ["s"]
    counts = [sys.getrefcount(value)]

    def held(x: Any) -> bool:
        counts.append(sys.getrefcount(x))
        answer = bool(native._v1r(x))
        counts.append(sys.getrefcount(x))
        return answer

    assert native._memo_owned(held, (value,)) is True
    counts.append(sys.getrefcount(value))
    assert counts[2] == counts[1] + 1 and counts[3] == counts[0]


def test_the_c_table_is_not_the_python_wrappers_dict(sample: Sample) -> None:
    """The owner gives each call a fresh dict (the error path's Python wrappers keep theirs in
    it) and a C table: the C writes nothing into the dict, and both are gone after the call."""
    native = sample.native["tree"]
    assert type(native._v1r).__name__ == "builtin_function_or_method"
    node = _tree(7, "s")
    tables: list[Any] = []

    def keep_table(x: Any) -> bool:
        tables.append(native._MEMO.table)
        valid = native._v0(x)
        tables.append(dict(native._MEMO.table))
        return bool(valid)

    assert native._memo_owned(keep_table, ([node],)) is True
    assert tables == [{}, {}]
    assert native._MEMO.table is None
    # (an owner inside an owner: the inner call's tables, then the outer's again)
    inner: list[Any] = []

    def nested(x: Any) -> bool:
        outer = native._MEMO.table
        inner.append(native.is_valid(x) is True)
        inner.append(native._MEMO.table is outer)
        return bool(native._v0(x))

    assert native._memo_owned(nested, ([node],)) is True
    assert inner == [True, True]
    assert native._memo_owned(nested, ([{"tag": "d"}],)) is False


def test_without_a_table_the_c_calls_the_wrapper_which_makes_one(sample: Sample) -> None:
    """The C root called directly (no public function, no table): each memoized call goes to the
    Python wrapper, which owns a table for its call; the answers are the pure function's."""
    native, pure = sample.native["tree"], sample.pure["tree"]
    assert type(native._v0).__name__ == "builtin_function_or_method"
    for instance in TREE_TESTS:
        assert native._v0(instance) is pure._v0(instance), instance
        assert native._MEMO.table is None


def test_the_sample_answers_as_the_pure_modules(sample: Sample) -> None:
    """is_valid and errors() on each case's instances and on hostile ones (lying subclasses,
    huge numbers, lone surrogates) as members of the recursive shapes."""
    hostile = hostile_instances()[:60]
    compared = 0
    for case in sample.cases:
        native, pure = sample.native[case.name], sample.pure[case.name]
        more = [[value] for value in hostile] + [[{"tag": "a", "content": v}] for v in hostile]
        for instance in [*case.tests, *more]:
            assert_same(native, pure, instance)
            compared += 1
    assert compared > 500


@pytest.mark.parametrize("instance", [{"never": 1}, {"never": []}, [{"never": 1}]])
def test_a_reference_loop_is_raised_as_the_pure_module_raises_it(
    sample: Sample, instance: Any
) -> None:
    native, pure = sample.native["looped"], sample.pure["looped"]
    for function in ("is_valid", "validate", "errors"):
        raised = []
        for module in (native, pure):
            with pytest.raises(module.ReferenceLoopError) as caught:
                getattr(module, function)(instance)
            error = caught.value
            raised.append((error.message, error.instance_location, error.keyword_location))
        assert raised[0] == raised[1], function


def test_deep_instances_are_refused_where_the_pure_module_refuses_them(sample: Sample) -> None:
    """A memoized call counts the wrapper's level and the function's, as the pure module's two
    frames do (and a table hit, one): the deepest instance is_valid accepts is the pure
    module's (in a child process: fresh, default limit)."""
    shapes = [
        ("doubling", "nest(depth, lambda x: [x, leaf], leaf)", [1, 1.0]),
        ("shared", "{'a': nest(depth, lambda x: [x, [x]], leaf)}", [1]),
        ("tree", "[nest(depth, lambda x: {'tag': 'b', 'content': [x, 's']}, leaf)]", ["s"]),
        ("tree", "nest(depth, lambda x: [x], leaf)", ["s"]),
    ]
    script = _BOUNDARY.format(package=PACKAGE, suffix=EXTENSION_SUFFIX)
    done = subprocess.run(
        [sys.executable, "-c", script, str(sample.directory), json.dumps(shapes)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout)
    assert len(found) == 4  # (the two tree shapes share a key: eight boundaries)
    for key, boundaries in found.items():
        pairs = list(zip(boundaries[::2], boundaries[1::2]))
        assert all(pure == native for pure, native in pairs), (key, boundaries)
        assert all(50 < b < 1000 for b in boundaries), (key, boundaries)  # (the limit's)


def test_memory_and_reference_counts_stay_flat(sample: Sample) -> None:
    """100,000 calls: traced memory and RSS do not grow; the instance's, True's, False's and
    None's reference counts are unchanged (each table entry holds its value until the call
    ends)."""
    calls = [
        ("tree", ["valid", *_tree(7, "s")]),
        ("tree", ["invalid", *_tree(7, 1)]),
        ("doubling", _nested(12, 1)),
        ("doubling", _nested(12, "s")),
    ]
    results = flat_over_100000_calls(sample.directory, PACKAGE, calls)
    assert sorted(valid for valid, *_ in results.values()) == [0, 0, 100_000, 100_000]


def test_the_memo_callers_are_rendered_for_lean_wrappers_only(sample: Sample) -> None:
    """The C file calls sl_memo_lean for the lean unscoped wrappers; a module whose wrappers
    watch for loops or take a scope has none (its C calls the Python wrappers)."""
    sources = {
        case.name: Path(sample.directory / PACKAGE / f"{case.name}.py").read_text()
        for case in sample.cases
    }
    for case in sample.cases:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (the loop's own warning)
            module = render_c(
                case.schema,
                sources[case.name],
                f"{PACKAGE}.{case.name}",
                f"{case.name}.py",
                name=case.name,
                **case.options,
            )
        lean = case.name in ("recursive", "tree", "doubling", "shared")
        assert bool(module.memos) is lean, case.name
        assert ("sl_memo_lean(x, " in module.render()) is lean, case.name
        # (the C owner only where the C keeps a table: elsewhere the Python one, and its dict)
        assert ('{"_memo_owned", sl_py_memo_owned' in module.render()) is lean, case.name
        assert (type(sample.native[case.name]._memo_owned).__name__ == "function") is not lean


# (after _SANITIZED's checks: values made and dropped during one call, each keyed by its address)
_FRESH = """
tree = importlib.import_module({package!r} + ".tree")
def fresh(module):
    return [module._v1r(["s"] if number % 2 else [1]) for number in range(200)]
assert tree._memo_owned(fresh, (tree,)) == [False, True] * 100
doubling = importlib.import_module({package!r} + ".doubling")
wide = [[number] for number in range(600)]  # (601 entries: the table grows 128 -> 1,024)
for _ in range(20):
    assert doubling.is_valid(wide) is True and doubling.is_valid([*wide, ["s"]]) is False
print(checked + 1)
"""


@pytest.mark.skipif(
    _asan_runtime() is None, reason="gcc's AddressSanitizer runtime is not installed"
)
def test_an_address_and_undefined_behaviour_sanitized_build_agrees(tmp_path: Path) -> None:
    """The memoized cases built with -fsanitize=address,undefined (no recovery from undefined
    behaviour), run in a child process with the sanitizers' runtime preloaded: the cases' and
    hostile instances answer as the pure modules, values made and dropped during a call are
    answered each for itself, and no sanitizer reports anything (the C table's entries, its
    growth past its first 128 entries, and its release)."""
    memoized = ("tree", "recursive", "doubling", "shared")
    cases = sorted((c for c in _cases() if c.name in memoized), key=lambda c: c.name != "tree")
    built = Sample(tmp_path, cases, sanitize=True, package_name=PACKAGE)
    script = _SANITIZED.format(package=PACKAGE, suffix=EXTENSION_SUFFIX)
    script += _FRESH.format(package=PACKAGE)
    payload = json.dumps([(case.name, case.tests) for case in built.cases])
    assert sanitized_run(tmp_path, script, payload) > 200


def test_only_the_lean_unscoped_memo_wrapper_is_called_from_c_directly() -> None:
    """_memo_fast(_vN, pointer, False, False) is the lean wrapper the C calls past; the same
    call with a loop or a scope flag set, or any other call, is left to the interpreter."""
    from generator.emit import tree as t
    from generator.native.c_module import _lean_memo

    def wrapper(*flags: bool) -> t.Expr:
        return t.Call(t.Name("_memo_fast"), (t.Name("_v3"), t.lit("/$defs/a"), *map(t.lit, flags)))

    assert _lean_memo(wrapper(False, False)) == "_v3"
    assert _lean_memo(wrapper(True, False)) is None
    assert _lean_memo(wrapper(False, True)) is None
    assert _lean_memo(t.Call(t.Name("_memo_fast"), (t.Name("_v3"),))) is None
    assert _lean_memo(t.Name("_v3")) is None
