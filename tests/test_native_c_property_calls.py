"""A run of an object's properties that each call a fast function on their item
(`if "k" in x: found = found + 1; if not _v3(x["k"]): return False`, one after another) is
written as a table walked by one loop (c_module.py property_calls, docs/native.md "Property calls
as a table"). The answers stay the pure module's: the same callees in the same order, the same
look-ups of a dict changed while the run walks it, the same levels counted against the
recursion limit, for a callee rendered in C and for one that is the pure module's."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
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

NAME = "straightline_c_property_calls"
KEYS = ["a", "b", "c", "d", "e"]
SCHEMA: dict[str, Any] = {
    "$defs": {
        "word": {"type": "string", "minLength": 2},
        # (a generator expression: no C form, so its function is the pure module's)
        "counted": {"type": "array", "contains": {"type": "integer"}, "minContains": 2},
        "node": {
            "type": "object",
            "properties": {
                "left": {"$ref": "#/$defs/node"},
                "right": {"$ref": "#/$defs/node"},
            },
        },
        "pure_node": {
            "type": ["object", "array"],
            "properties": {
                "left": {"$ref": "#/$defs/pure_node"},
                "right": {"$ref": "#/$defs/pure_node"},
            },
            "contains": {"type": "integer"},
            "minContains": 2,
        },
    },
    "type": "object",
    "properties": {
        "a": {"$ref": "#/$defs/word"},
        "b": {"$ref": "#/$defs/word"},
        "c": {"$ref": "#/$defs/counted"},
        "d": {"$ref": "#/$defs/node"},
        "e": {"$ref": "#/$defs/pure_node"},
    },
    "additionalProperties": False,
}


class Recorder:
    """An item that records its key when the pure module's error function reads its
    `__class__` (isinstance does), and may change the object it is in meanwhile."""

    def __init__(self, key: str, order: list[str], change: Any = None) -> None:
        self.key, self.order, self.change = key, order, change

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        if not self.order or self.order[-1] != self.key:
            self.order.append(self.key)
            if self.change is not None:
                self.change()
        return Recorder


@pytest.fixture(scope="module")
def modules(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any, Path]:
    directory = tmp_path_factory.mktemp("c_property_calls")
    native, pure = native_and_pure(directory, SCHEMA, NAME)
    return native, pure, directory


def _c_text() -> str:
    text, built = compile_built(SCHEMA, name=NAME)
    return render_c(SCHEMA, text, NAME, f"{NAME}.py", (text, built), name=NAME).render()


def test_the_run_is_a_table_and_each_callee_says_whether_it_counts() -> None:
    c_text = _c_text()
    tables = re.findall(r"static const sl_property_call R\d+\[(\d+)\] = \{(.*)\};", c_text)
    assert tables, "no property table"
    # the root's five properties are one run: the callees of each, in the schema's order
    root = max(tables, key=lambda table: int(table[0]))
    assert int(root[0]) == len(KEYS)
    callees = re.findall(r"\{-?\d+, \d+, (sl_v\d+), SL_COUNTS_(sl_v\d+)\}", root[1])
    assert len(callees) == len(KEYS) and all(a == b for a, b in callees)
    counts = dict(re.findall(r"enum \{ SL_COUNTS_(sl_v\d+) = ([01]) \};", c_text))
    fallbacks = set(re.findall(r"/\* (_v\d+): the pure module's", c_text))
    assert fallbacks  # (the control: the counted array and the pure node are no C)
    for symbol, count in counts.items():
        assert count == ("0" if symbol.removeprefix("sl") in fallbacks else "1"), symbol
    assert {counts[callee] for callee, _ in callees} == {"0", "1"}


def test_hostile_values_under_each_key_answer_as_the_pure_module(
    modules: tuple[Any, Any, Path],
) -> None:
    native, pure, _ = modules
    good: dict[str, Any] = {"a": "ab", "b": "cd", "c": [1, 2], "d": {}, "e": [1, 2]}
    assert native.is_valid(good) is True and pure.is_valid(good) is True
    for key in KEYS:
        for value in hostile_instances():
            assert_same(native, pure, {**good, key: value})
    for count in range(len(KEYS) + 1):  # (each prefix of the keys present: the count)
        instance = {key: good[key] for key in KEYS[:count]}
        assert_same(native, pure, instance)
        assert_same(native, pure, {**instance, "other": 1})


def test_the_callees_run_in_the_pure_module_s_order_and_stop_at_the_first_failure(
    modules: tuple[Any, Any, Path],
) -> None:
    native, pure, _ = modules
    orders = []
    for module in (native, pure):
        order: list[str] = []
        instance = {key: Recorder(key, order) for key in reversed(KEYS)}
        assert module.is_valid(instance) is False
        orders.append(order)
    assert orders[0] == orders[1] == ["a"]  # (a Recorder is no str: the first callee fails)


def test_a_dict_changed_while_the_run_walks_it_is_looked_up_again(
    modules: tuple[Any, Any, Path],
) -> None:
    """An item's Python code (run by the callee of "c", the pure module's) adds "d" holding an
    invalid value and removes "e": the run must see the dict as it is now, as the pure module's
    statements do."""
    native, pure, _ = modules
    answers = []
    for module in (native, pure):
        order: list[str] = []
        instance: dict[str, Any] = {"a": "ab", "b": "cd", "e": [1, 2]}

        def change(instance: dict[str, Any] = instance) -> None:
            instance["d"] = "not an object"
            instance.pop("e", None)

        instance["c"] = [Recorder("c", order, change), 1, 2]
        answers.append(module.is_valid(instance))
        assert order == ["c"] and "d" in instance and "e" not in instance
    assert answers == [False, False]


_DEPTH = """
import importlib, importlib.util, json, sys
directory, name = sys.argv[1], sys.argv[2]
sys.path.insert(0, directory)
native = importlib.import_module(name)
spec = importlib.util.spec_from_file_location("pure_" + name, directory + "/" + name + ".py")
pure = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pure)


def nest(key, depth):
    x = {{}} if key == "d" else [1, 2]
    for _ in range(depth):
        x = {{"left": x}}
    return {{key: x}}


def boundary(module, key):
    low, high = 1, 6000
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if module.is_valid(nest(key, middle)) else (low, middle)
    return low


print(json.dumps({{key: [boundary(m, key) for m in (pure, native, pure, native)] for key in "de"}}))
"""


def test_the_deepest_instance_accepted_is_the_pure_module_s(
    modules: tuple[Any, Any, Path],
) -> None:
    """Recursion through the run, into a callee rendered in C ("d") and into one that is the pure
    module's ("e"): each call counts the level its pure frame counts, so the deepest instance
    accepted is the same (in a child: fresh, at the default limit)."""
    _, _, directory = modules
    done = subprocess.run(
        [sys.executable, "-c", _DEPTH.format(), str(directory), NAME],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout)
    for key, (pure, native, pure_again, native_again) in found.items():
        assert native == pure == pure_again == native_again, (key, found[key])
        assert 100 < pure < 1000, (key, pure)  # (the control: the limit decides)
