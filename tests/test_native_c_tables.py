"""The C backend's tables (generator/native/c_module.py's CTable, c_runtime.h's sl_table_*): a
property table (`f = _F0.get(k)` then `f[0](v)`), a dispatch table (`f = _D0.get(d)` then
`f(x)`) and a set of known names (`k not in _K0`) looked up in C by the key's text, and the
entry's C function called directly, answer as the pure module does.

One build of a few modules whose keys share a length and a first character, are non-ASCII,
non-BMP, a lone surrogate or empty: is_valid and errors() against the pure module on every key
with a good and a bad value, unknown keys close to known ones, str subclasses (plain, and lying
about their hash and equality), non-str keys, hostile and generated instances; a table changed
at run time (then looked up as a dict); the depth at which an instance is refused; memory and
reference counts flat over 100,000 calls.
"""

from __future__ import annotations

import gc
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.native import EXTENSION_SUFFIX
from generator.native.c_build import render_c

from .native_hostile import assert_same, hostile_instances
from .strategies import JSON
from .test_native_c import (
    _BOUNDARY,
    _SANITIZED,
    Case,
    Sample,
    _asan_runtime,
    _pure,
    flat_over_100000_calls,
    sanitized_run,
)

pytestmark = pytest.mark.skipif(
    shutil.which("cc") is None and shutil.which("gcc") is None,
    reason="no C compiler on this machine",
)

PACKAGE = "straightline_c_tables"
# Property names: three of length 3 starting "a" (two sharing "aa"), Latin-1 (one code unit
# each, not ASCII), BMP (two bytes each), non-BMP (four), a lone surrogate, the empty name, and
# ASCII names that are prefixes of one another.
KEYS = ["aa1", "aa2", "ab1", "é", "ÿz", "中文", "\u0100", "😀", "a😀", "", "\ud800", "b", "bc"]
KEYS += ["bcd", "Straße"]
# Each property's type, so an entry called for the wrong key answers differently.
TYPES = ["integer", "string", "boolean", "array", "object", "null", "number", "integer", "string"]
TYPES += ["boolean", "array", "object", "null", "string", "integer"]
PROPERTIES = {key: {"type": kind} for key, kind in zip(KEYS, TYPES, strict=True)}
GOOD = {"integer": 1, "string": "s", "boolean": True, "array": [], "object": {}, "null": None}
GOOD["number"] = 1.5
BAD = {"integer": "s", "string": 1, "boolean": None, "array": {}, "object": [], "null": 0}
BAD["number"] = "1"
# Names close to the known ones: a length, a first character or a code unit apart, the same
# text in another normal form, a surrogate pair where the name is one non-BMP character.
UNKNOWN = ["aa3", "aa", "a", "ab2", "é1", "e\u0301", "É", "中", "中文x", "文中", "😁", "a😁"]
UNKNOWN += ["\ud83d\ude00", "\ud801", "bcde", "Strasse", "x-1", "x-é", " ", "\x00", "aa1 "]
# The kinds of the dispatch: each a discriminator's value (its alternative's "v" has a type).
KINDS = {"aa": "integer", "ab": "string", "é": "boolean", "中": "null", "😀": "array", "": "object"}


class Plain(str):
    """A str subclass that changes nothing: the dict finds its entry as for the str."""


class Posing(str):
    """A str subclass that hashes and compares as another name ("aa2"): the dict answers with
    that name's entry, which the text does not say."""

    def __hash__(self) -> int:
        return hash("aa2")

    def __eq__(self, other: object) -> bool:
        return other == "aa2"


class Raising(str):
    """A str subclass whose comparison raises: the dict's look-up of it raises."""

    def __hash__(self) -> int:
        return str.__hash__(self)

    def __eq__(self, other: object) -> bool:
        raise ValueError("no comparison for this name")


def _dispatch(recursive: bool = False) -> dict[str, Any]:
    alternatives = []
    for kind, value_type in KINDS.items():
        properties: dict[str, Any] = {"kind": {"const": kind}, "v": {"type": value_type}}
        if recursive:
            properties["r"] = {"$ref": "#"}
        alternatives.append({"type": "object", "properties": properties, "required": ["kind"]})
    return {"oneOf": alternatives}


CLOSED = {"type": "object", "properties": PROPERTIES, "additionalProperties": False}
SCHEMAS: dict[str, Any] = {
    "closed": CLOSED,
    "open": {"type": "object", "properties": PROPERTIES},
    "patterned": {
        "type": "object",
        "properties": PROPERTIES,
        "patternProperties": {"^x-": {"type": "integer"}},
        "additionalProperties": {"type": "string"},
    },
    "known": {
        "type": "object",
        "properties": {key: PROPERTIES[key] for key in KEYS[:6] + ["", "\ud800"]},
        "patternProperties": {"^x-": {"type": "integer"}},
        "additionalProperties": False,
    },
    "dispatch": _dispatch(),
    # (changed at run time by a test: modules of their own)
    "mutated": CLOSED,
    "mutated_dispatch": _dispatch(),
}
# Recursive schemas whose recursion goes through a table, with the instance of a given depth
# they nest (test_native_c's _BOUNDARY script).
DEEP = {
    "d_table": (
        {"type": "object", "properties": {**PROPERTIES, "r": {"$ref": "#"}}},
        "nest(depth, lambda x: {'r': x, '中文': None, 'aa1': leaf}, {})",
    ),
    "d_dispatch": (
        _dispatch(recursive=True),
        "nest(depth, lambda x: {'kind': 'aa', 'v': leaf, 'r': x}, {'kind': '中'})",
    ),
    "d_known": (
        {
            "type": "object",
            "properties": {"a": {"type": "integer"}, "é": {"type": "integer"}},
            "patternProperties": {"^x-": {"$ref": "#"}},
            "additionalProperties": False,
        },
        "nest(depth, lambda x: {'x-r': x, 'é': leaf}, {})",
    ),
}


def _instances(name: str) -> list[Any]:
    """Every key with a good and a bad value, the unknown names, str subclasses and non-str
    keys, alone and beside good members."""
    if name.endswith("dispatch"):
        found: list[Any] = []
        for kind, value_type in KINDS.items():
            for value in (GOOD[value_type], BAD[value_type]):
                found += [{"kind": kind, "v": value}, {"kind": Plain(kind), "v": value}]
        found += [{"kind": kind, "v": 1} for kind in UNKNOWN + [Posing("zz"), 1, None, b"aa"]]
        return found + [{"v": 1}, {"kind": Raising("aa")}, {}]
    all_good = {key: GOOD[kind] for key, kind in zip(KEYS, TYPES)}
    found = [{}, all_good]
    for key, kind in zip(KEYS, TYPES):
        for value in (GOOD[kind], BAD[kind]):
            found += [{key: value}, {**all_good, key: value}, {Plain(key): value}]
    for key in UNKNOWN:
        found += [{key: 1}, {key: "s"}, {**all_good, key: "s"}]
    found += [{Posing("b"): 1}, {Posing("b"): "s"}, {Posing("zz"): 1}, {Raising("aa1"): 1}]
    found += [{1: 1}, {None: "s"}, {(1, 2): 1}, {1.5: 1}, {True: 1}, {b"aa1": 1}]
    return found


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Sample:
    cases = [Case(name, schema, {}, _instances(name)) for name, schema in SCHEMAS.items()]
    cases += [Case(name, schema, {}, []) for name, (schema, _) in DEEP.items()]
    return Sample(tmp_path_factory.mktemp("native_c_tables"), cases, package_name=PACKAGE)


def _c_text(sample: Sample, name: str) -> tuple[str, dict[str, str]]:
    text = (sample.directory / PACKAGE / f"{name}.py").read_text()
    schema = SCHEMAS[name] if name in SCHEMAS else DEEP[name][0]
    rendered = render_c(schema, text, name, f"{name}.py", name=name)
    return rendered.render(), rendered.fallbacks


def _held_by_python(value: Any) -> int:
    """How many references to `value` the objects the collector knows hold."""
    held = 0
    for referrer in gc.get_referrers(value):
        if isinstance(referrer, dict):
            held += sum(item is value for item in referrer.values())
            held += sum(key is value for key in referrer)
        elif isinstance(referrer, (list, tuple)):
            held += sum(item is value for item in referrer)
    return held


def _unseen_references(table: dict[Any, Any]) -> list[tuple[int, int]]:
    """For each key, the references to its entry no object the collector knows holds, and how
    often the table holds the entry (computed outside an assert: pytest's rewriting of one
    holds values too)."""
    found = []
    for key in list(table):
        references = sys.getrefcount(table[key]) - 1  # (less getrefcount's argument)
        held = _held_by_python(table[key])
        found.append((references - held, sum(entry is table[key] for entry in table.values())))
    return found


def test_the_tables_are_looked_up_and_called_in_c(sample: Sample) -> None:
    """The property and dispatch tables and the set of known names are C's (a find function
    of the keys, the calls of the entries), nothing falls back to the pure module, and each
    table's entries are held by the C once the module is imported (its init read the table:
    one reference more than Python's objects hold)."""
    for name, forms in (
        ("closed", ("sl_tfind0(", "sl_tcall0(", "sl_table_ready(")),
        ("open", ("sl_tfind0(", "sl_tcall0(")),
        ("patterned", ("sl_tfind0(", "sl_tcall0(")),
        ("dispatch", ("sl_tfind0(", "sl_tcall0(")),
        ("known", ("sl_sfind0(",)),
    ):
        c_text, fallbacks = _c_text(sample, name)
        assert fallbacks == {}, name
        for form in forms:
            assert form in c_text, (name, form)
    for name in ("closed", "open", "patterned", "dispatch"):
        native, pure = sample.native[name], sample.pure[name]
        (table,) = [n for n in vars(pure) if re.fullmatch(r"_[FD]\d+", n)]
        assert len(getattr(native, table)) == len(KEYS if name != "dispatch" else KINDS)
        hidden = {module: _unseen_references(getattr(module, table)) for module in (native, pure)}
        unseen = [unseen for unseen, _ in hidden[native]]
        assert unseen == [count for _, count in hidden[native]], name  # (one a key)
        assert {unseen for unseen, _ in hidden[pure]} == {0}, name


def test_every_key_answers_as_the_pure_module(sample: Sample) -> None:
    compared = 0
    for case in sample.cases:
        for instance in case.tests:
            assert_same(sample.native[case.name], sample.pure[case.name], instance)
            compared += 1
    assert compared > 400
    # (the control: the instances reach both answers, and a good value under a known name
    # passes where the same value under a name close to it does not)
    closed = sample.native["closed"]
    assert closed.is_valid({"中文": None}) and not closed.is_valid({"中": None})
    assert closed.is_valid({"ab1": True}) and not closed.is_valid({"aa1": True})
    assert closed.is_valid({"": False}) and not closed.is_valid({" ": False})
    assert closed.is_valid({"\ud800": []}) and not closed.is_valid({"\ud801": []})
    assert closed.is_valid({"a😀": "s"}) and not closed.is_valid({"a😁": "s"})
    assert closed.is_valid({"😀": 1}) and not closed.is_valid({"\ud83d\ude00": 1})
    assert closed.is_valid({Posing("b"): 1}) is False  # (the dict's answer: "aa2", a string)
    assert sample.native["open"].is_valid({Posing("b"): "s"}) is True
    dispatch = sample.native["dispatch"]
    assert dispatch.is_valid({"kind": "😀", "v": []}) and not dispatch.is_valid(
        {"kind": "😀"} | {"v": 1}
    )


def test_hostile_instances_answer_as_the_pure_module(sample: Sample) -> None:
    for case in sample.cases:
        for instance in hostile_instances():
            assert_same(sample.native[case.name], sample.pure[case.name], instance)


_NAMES = st.sampled_from(KEYS + UNKNOWN) | st.text(max_size=4)


@settings(max_examples=150)
@given(st.data())
def test_generated_objects_answer_as_the_pure_module(sample: Sample, data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(["closed", "open", "patterned", "known", "dispatch"]))
    instance = data.draw(st.dictionaries(_NAMES, JSON, max_size=6))
    if name == "dispatch" and data.draw(st.booleans()):
        instance["kind"] = data.draw(st.sampled_from(list(KINDS) + UNKNOWN))
    assert_same(sample.native[name], sample.pure[name], instance)


def test_a_table_changed_at_run_time_is_looked_up_as_a_dict(sample: Sample) -> None:
    """A table changed after import (its entries moved, one added, one removed) is no longer
    read in C: the C looks it up as the dict it is, as the pure module does."""
    for name, key_changes in (
        ("mutated", (("aa1", "aa2"), ("new", "b"), ("ab1", None))),
        ("mutated_dispatch", (("aa", "ab"), ("zz", "中"), ("😀", None))),
    ):
        instances = [
            {"aa1": 1},
            {"aa1": "s"},
            {"new": None},
            {"ab1": True},
            {"kind": "aa", "v": "s"},
            {"kind": "aa", "v": 1},
            {"kind": "zz", "v": None},
            {"kind": "😀", "v": []},
        ]
        before = [sample.pure[name].is_valid(instance) for instance in instances]
        for module in (sample.native[name], sample.pure[name]):
            (table_name,) = [n for n in vars(module) if re.fullmatch(r"_[FD]\d+", n)]
            table = getattr(module, table_name)
            for key, source in key_changes:
                if source is None:
                    del table[key]
                else:
                    table[key] = table[source]
        for instance in instances:
            assert_same(sample.native[name], sample.pure[name], instance)
        after = [sample.pure[name].is_valid(instance) for instance in instances]
        assert after != before, name  # (the control: the change changes answers)


def test_deep_instances_are_refused_where_the_pure_module_refuses_them(sample: Sample) -> None:
    """A C entry called directly counts the level its call through the table would: the deepest
    instance is_valid accepts is the pure module's, through a property table, a dispatch table
    and a set of known names (in a child process: fresh, default limit)."""
    shapes = [(name, shape, [1, 1.0, 2**70]) for name, (_, shape) in DEEP.items()]
    script = _BOUNDARY.format(package=PACKAGE, suffix=EXTENSION_SUFFIX)
    done = subprocess.run(
        [sys.executable, "-c", script, str(sample.directory), json.dumps(shapes)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout)
    assert len(found) == 3 * len(DEEP)
    for key, (pure, native, pure_again, native_again) in found.items():
        assert native == pure == pure_again == native_again, (key, found[key])
    # (the control: where an instance is accepted, the boundary is the recursion limit's)
    assert all(100 < found[f"{name} 1"][0] < 1000 for name in DEEP), found


def test_memory_and_reference_counts_stay_flat_over_100000_calls(sample: Sample) -> None:
    all_good = {key: GOOD[kind] for key, kind in zip(KEYS, TYPES)}
    calls = [
        ("closed", all_good),
        # (the script tells the calls apart by their first 40 characters)
        ("closed", {"aa3": 1, **all_good}),
        ("patterned", {"x-1": 1, "other": "s", **all_good}),
        ("patterned", {"x-1": "s", **all_good}),
        ("known", {"aa1": 1, "中文": None, "x-1": 2}),
        ("known", {"aa1": 1, "中": None}),
        ("dispatch", {"kind": "中", "v": None}),
        ("dispatch", {"kind": "中", "v": 1}),
    ]
    results = flat_over_100000_calls(sample.directory, PACKAGE, calls)
    assert {valid for valid, *_ in results.values()} == {0, 100_000}


def test_the_tables_c_is_not_written_for_a_module_without_tables(tmp_path: Path) -> None:
    """(the control for the forms above: a small object has no table, so no table C)"""
    import generator

    schema = {"type": "object", "properties": {"a": {"type": "integer"}}}
    text = generator.compile_source(schema, name="small")
    c_text = render_c(schema, text, "small", "small.py", name="small").render()
    assert "sl_tfind" not in c_text and "sl_table_ready(" not in c_text


def test_the_tables_cut_into_units_answer_as_the_pure_module(tmp_path: Path) -> None:
    """A module whose C is cut into translation units (c_build.c_units): the tables' entries and
    versions are the first unit's data, their find and call functions are shared with the units
    that look them up."""
    import importlib

    import generator
    from generator.native.c_build import build_c_natives, c_units

    package_name = "straightline_c_tables_units"
    package = tmp_path / package_name
    package.mkdir()
    (package / "__init__.py").write_text("")
    names = ("patterned", "known", "dispatch")
    jobs: list[tuple[Any, Any, dict[str, Any]]] = []
    for name in names:
        module = package / f"{name}.py"
        module.write_text(generator.compile_source(SCHEMAS[name], name=name))
        rendered = render_c(SCHEMAS[name], module.read_text(), name, module.name, name=name)
        assert len(c_units(rendered.units(), 3_000)) > 2, name  # (the control: cut)
        jobs.append((module, SCHEMAS[name], {"name": name}))
    build_c_natives(jobs, unit_bytes=3_000, timeout=1200)
    sys.path.insert(0, str(tmp_path))
    try:
        native = {name: importlib.import_module(f"{package_name}.{name}") for name in names}
    finally:
        sys.path.remove(str(tmp_path))
    for name in names:
        assert str(native[name].__file__).endswith(EXTENSION_SUFFIX)
        pure = _pure(package / f"{name}.py")
        for instance in _instances(name):
            assert_same(native[name], pure, instance)
        tables = [n for n in vars(pure) if re.fullmatch(r"_[FD]\d+", n)]
        for table in tables:  # (the init, in the first unit, read the table)
            hidden = _unseen_references(getattr(native[name], table))
            assert [unseen for unseen, _ in hidden] == [count for _, count in hidden], name
        assert len(tables) == (name != "known"), name


@pytest.mark.skipif(
    _asan_runtime() is None, reason="gcc's AddressSanitizer runtime is not installed"
)
def test_an_address_and_undefined_behaviour_sanitized_build_agrees(tmp_path: Path) -> None:
    """The tables' C built with -fsanitize=address,undefined, run in a child process with the
    sanitizers' runtime: the instances (as JSON carries them) answer as the pure modules, and no
    sanitizer reports anything (the switches' reads stay within each key)."""
    package_name = "straightline_c_tables_asan"
    names = ("closed", "patterned", "known", "dispatch")
    cases = [Case(name, SCHEMAS[name], {}, _instances(name)) for name in names]
    built = Sample(tmp_path, cases, sanitize=True, package_name=package_name)
    script = _SANITIZED.format(package=package_name, suffix=EXTENSION_SUFFIX)
    # (str subclasses become strs, keys JSON cannot hold are left out)
    payload = json.dumps(
        [(case.name, case.tests) for case in built.cases], skipkeys=True, default=repr
    )
    assert sanitized_run(tmp_path, script, payload) > 300


def test_a_table_read_in_c_is_filled_only_with_literal_keys_and_one_kind_of_entry() -> None:
    """_tables (no compiler run): a table filled with str-literal keys, each entry a function,
    is read in C; one whose entries mix pairs and functions, one a row of which has a key that is
    no literal, and one another statement names, are left to the interpreter's dict."""
    from generator.emit import tree as t
    from generator.native.c_module import _tables

    def empty(name: str) -> t.Stmt:
        return t.Assign(t.Name(name), t.Display("dict", ()))

    def update(name: str, *rows: tuple[t.Expr, str]) -> t.Stmt:
        items = tuple((key, t.Name(value)) for key, value in rows)
        return t.ExprStmt(t.Call(t.Attr(t.Name(name), "update"), (t.Display("dict", items),)))

    constants = [empty(n) for n in ("_F0", "_F1", "_F2", "_F3")]
    late = [
        t.Assign(t.Name("_Q0"), t.Tuple((t.Name("_v1"), t.Name("_e1")))),
        update("_F0", (t.lit("a"), "_v1"), (t.lit("b"), "_v2")),
        update("_F1", (t.lit("a"), "_Q0"), (t.lit("b"), "_v2")),  # a pair and a function
        update("_F2", (t.Name("_K"), "_v1")),  # a key that is no literal
        update("_F3", (t.lit("a"), "_v1")),
        t.ExprStmt(t.Call(t.Name("print"), (t.Name("_F3"),))),  # named elsewhere
    ]
    tables = _tables(constants, late)
    assert list(tables) == ["_F0"]
    assert (tables["_F0"].kind, tables["_F0"].keys, tables["_F0"].callees) == (
        "function",
        ("a", "b"),
        ("_v1", "_v2"),
    )
