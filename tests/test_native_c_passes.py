"""The C backend's one-pass key reads (c_module.py, CFunction.prefetch) run at a branch's first
key look-up, not at its start, and a return before any local or temporary is set skips their
releases: a closed object with a key missing is refused by its size alone, as the pure module
refuses it, with no walk of the dict (issue 32's "missing provenance"). The answers stay the pure
module's."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from generator.api import compile_built
from generator.native.c_build import render_c

from .native_hostile import assert_same, hostile_instances, native_and_pure

pytestmark = pytest.mark.skipif(
    shutil.which("cc") is None and shutil.which("gcc") is None,
    reason="no C compiler on this machine",
)

KEYS = ("alpha", "beta", "gamma", "delta")
# every key required and no other: the root tests the size before it looks any key up
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "alpha": {"type": "integer", "minimum": 0},
        "beta": {"type": "string", "maxLength": 3},
        "gamma": {"type": "object", "properties": {"x": {"type": "integer"}}},
        "delta": {"type": "array", "items": {"type": "string"}},
    },
    "required": list(KEYS),
    "additionalProperties": False,
}
NAME = "straightline_c_passes"
# a fast function's C, whole
_FAST_FUNCTION = (
    r"static int sl_v\d+\(PyObject \*x, const straightline_stack \*sl_stack\) \{\n(?:.*\n)*?\}\n"
)


def _root_c() -> tuple[str, str]:
    """The C of the root's fast function and of the file."""
    text, built = compile_built(SCHEMA, name=NAME)
    module = render_c(SCHEMA, text, NAME, f"{NAME}.py", compiled=(text, built))
    c_text = module.render()
    start = c_text.index("static int sl_v0(PyObject *x, const straightline_stack *sl_stack) {")
    return c_text[start : c_text.index("\n}\n", start)], c_text


def test_the_root_tests_the_size_before_its_key_pass_runs() -> None:
    root, c_text = _root_c()
    size_test = root.index(f"PyDict_GET_SIZE(x) != {len(KEYS)}")
    first_pass = root.index("sl_pass_sl_v0_0(x, P0, &V0)")
    assert size_test < first_pass
    assert "PyDict_Next" not in root[:first_pass]  # (the pass is a function of its own)
    assert re.search(
        r"static int sl_pass_sl_v0_0\(PyObject \*d, PyObject \*\*P, uint64_t \*V\) \{\n"
        r"(.*\n)*?    while \(PyDict_Next\(d, &position, &key, &item\)\)",
        c_text,
    )
    # the branch marks its pass as not run yet, and each look-up runs it when it has not run
    assert root.index("ok0 = -1;") < size_test
    runs = root.count("if (ok0 < 0) ok0 = sl_pass_sl_v0_0(x, P0, &V0);")
    assert runs >= len(KEYS)
    assert runs == len(re.findall(r"q\d+ = P0\[\d\];", root))


def test_a_refusal_before_any_reference_is_held_skips_their_releases() -> None:
    root, _ = _root_c()
    refusal = re.search(r"if \(b0\) \{\n\s*result = 0;\n\s*goto (\w+);", root)
    assert refusal is not None and refusal.group(1) == "released"
    released, done = root.index("  released:"), root.index("  done:")
    assert done < released
    # every local and temporary is released between `done` and `released`, and nothing after
    between = root[done:released]
    assert between.count("Py_XDECREF(") >= 1
    assert "Py_XDECREF(" not in root[released:]


def test_a_pass_s_slots_are_borrowed_and_read_only_while_the_dict_is_unchanged() -> None:
    """A pass keeps no reference (the dict holds its items while its version is the one the pass
    saw, and a slot is read only then), so nothing releases the slots."""
    root, c_text = _root_c()
    start = c_text.index("static int sl_pass_sl_v0_0(")
    pass_text = c_text[start : c_text.index("\n}\n", start)]
    assert pass_text.count("P[") == len(KEYS) + 1  # (each key's slot, and the loop that empties)
    assert "Py_NewRef" not in pass_text and "Py_XSETREF" not in pass_text
    assert "P0[" not in root[root.index("  done:") :]
    reads = re.findall(r"if \(ok0 > 0 && SL_DICT_VERSION\(x\) == V0\) (q\d+) = P0\[\d\];", root)
    assert len(reads) >= len(KEYS)


@pytest.mark.parametrize(
    "schema",
    [
        SCHEMA,
        {"type": "array", "items": {"type": "integer"}},
        {"type": "object", "patternProperties": {"^a": {"type": "string"}}},
        {"type": "object", "additionalProperties": {"type": "integer"}, "maxProperties": 3},
        {"type": "array", "items": {"type": "array", "items": {"enum": [1, "a"]}}},
    ],
)
def test_no_return_inside_a_loop_skips_the_releases(schema: Any) -> None:
    """A return in a loop's body may run after an earlier round set a local or a temporary:
    every return from the first loop on releases them (`goto done`), whatever the loop's head
    holds."""
    text, built = compile_built(schema, name=NAME)
    c_text = render_c(schema, text, NAME, f"{NAME}.py", compiled=(text, built)).render()
    functions = re.findall(_FAST_FUNCTION, c_text)
    looping = [f for f in functions if "for (;;)" in f]
    assert looping  # (the control: the schema's functions do loop)
    for function in looping:
        assert "goto released;" not in function[function.index("for (;;)") :], function


def _releases(function: str) -> dict[str, set[str]]:
    """What each exit label of a C fast function releases: the names of the Py_XDECREFs after
    it, to the end."""
    tail = function[function.index("\n  done:") :]
    found: dict[str, set[str]] = {}
    label, names = "", []
    for line in reversed(tail.splitlines()):
        released = re.fullmatch(r"\s*Py_XDECREF\((\w+)\);", line)
        if released:
            names.append(released.group(1))
        elif re.fullmatch(r"  (\w+):", line):
            label = line.strip()[:-1]
            found[label] = set(names)
    return found


def _return_exits(function: str) -> list[tuple[str, set[str]]]:
    """Each return's label and the names it must release: those set on a line before it, and,
    inside a loop, those set anywhere in its outermost loop (an earlier round ran them)."""
    lines = function[: function.index("\n  error:")].splitlines()
    set_before: list[set[str]] = []
    seen: set[str] = set()
    for line in lines:
        seen |= set(re.findall(r"Py_XSETREF\((\w+), ", line))
        set_before.append(set(seen))
    exits = []
    depth, loop_depth, pending = 0, None, []
    for index, line in enumerate(lines):
        if "for (;;) {" in line and loop_depth is None:
            loop_depth = depth
        depth += line.count("{") - line.count("}")
        exit_ = re.fullmatch(r"\s*goto (\w+);", line)
        if exit_ and index and lines[index - 1].strip().startswith("result = "):
            if loop_depth is not None:
                pending.append(exit_.group(1))
            else:
                exits.append((exit_.group(1), set_before[index]))
        if loop_depth is not None and depth <= loop_depth:  # (the outermost loop closed)
            exits += [(label, set_before[index]) for label in pending]
            loop_depth, pending = None, []
    return exits


RELEASE_SCHEMAS = [
    SCHEMA,
    {"type": "array", "items": {"type": "integer"}},
    {"type": "array", "items": {"type": "array", "items": {"enum": [1, "a"]}}},
    {
        "type": "object",
        "properties": {"a": {"type": "array", "items": {"type": "object", "required": ["b"]}}},
        "additionalProperties": {"type": "string", "maxLength": 2},
    },
]


@pytest.mark.parametrize("schema", RELEASE_SCHEMAS + ["strict"])
def test_every_return_releases_what_may_have_been_set_before_it(schema: Any) -> None:
    """A return releases only the locals and temporaries set before it (`rel_<count>`), and one
    inside a loop all its outermost loop sets: checked here from the C's own lines."""
    if schema == "strict":
        path = Path(__file__).parents[1] / "contracts/strict/structured_completion.json"
        schema = json.loads(path.read_text(encoding="utf-8"))
    text, built = compile_built(schema, name=NAME)
    c_text = render_c(schema, text, NAME, f"{NAME}.py", compiled=(text, built)).render()
    functions = re.findall(_FAST_FUNCTION, c_text)
    assert functions
    partial = 0
    for function in functions:
        releases = _releases(function)
        every = releases["done"]
        for label, needed in _return_exits(function):
            assert needed <= releases[label], (label, needed - releases[label], function)
            partial += releases[label] < every
    assert partial  # (the control: some return releases less than everything)


@pytest.fixture(scope="module")
def modules(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    """(the C build, the pure module) of SCHEMA."""
    return native_and_pure(tmp_path_factory.mktemp("native_c_passes"), SCHEMA, NAME)


VALID = {"alpha": 1, "beta": "ab", "gamma": {"x": 2}, "delta": ["a"]}


def _instances() -> list[Any]:
    found: list[Any] = [VALID, {}]
    for key in KEYS:
        missing = {k: v for k, v in VALID.items() if k != key}
        found += [missing, {**missing, "other": 1}, {**missing, key.upper(): VALID[key]}]
        found.append({**VALID, key: "x" * 4 if key != "beta" else 5})
    found += [{**VALID, "other": 1}, {1: 1, **missing}, {"alph\u00e9": 1, **missing}]
    return found + hostile_instances()


def test_answers_are_the_pure_modules(modules: tuple[Any, Any]) -> None:
    native, pure = modules
    assert native.is_valid(VALID) is True
    assert native.is_valid({k: VALID[k] for k in KEYS[:3]}) is False
    for instance in _instances():
        assert_same(native, pure, instance)


def test_a_dict_changed_between_calls_is_read_again(modules: tuple[Any, Any]) -> None:
    native, pure = modules
    instance = dict(VALID)
    assert native.is_valid(instance) is True
    del instance["gamma"]
    assert native.is_valid(instance) is pure.is_valid(instance) is False
    instance["gamma"] = {"x": "no"}
    assert native.is_valid(instance) is pure.is_valid(instance) is False
    instance["gamma"] = {"x": 3}
    assert native.is_valid(instance) is pure.is_valid(instance) is True
