"""The C backend's translation units (generator/native/c_build.py, c_units): a module's C cut into
several units, compiled in parallel and linked, answers as the pure module and as the same module
built from one C file; a unit that does not compile fails the build as one file's failure does,
leaving nothing beside the module."""

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

import generator
from generator.native import EXTENSION_SUFFIX, NativeBuildError, c_build, is_current
from generator.native.c_build import build_c_natives, c_units, render_c
from generator.native.c_module import CUnit

from .conftest import ROOT
from .native_hostile import assert_same, hostile_instances
from .test_native import CHECKS
from .test_native_deep import SCHEMA as REPRO

pytestmark = pytest.mark.skipif(
    shutil.which("cc") is None and shutil.which("gcc") is None,
    reason="no C compiler on this machine",
)

PACKAGE = "straightline_c_units"
DATA = ROOT / "bench" / "data"
# name -> (schema, compile options, instance files of bench/data)
CASES: dict[str, tuple[Any, dict[str, Any], tuple[str, ...]]] = {
    "fast": (
        json.loads((DATA / "fast_schema.json").read_text()),
        {},
        ("fast_valid.json", "fast_invalid.json"),
    ),
    "recursive": (
        json.loads((DATA / "recursive_schema.json").read_text()),
        {},
        ("recursive_instance.json",),
    ),
    "checks": (CHECKS, {"format_assertion": True, "unsafe_patterns": "allow"}, ()),
    "repro": (REPRO, {}, ()),
}
# Small enough that every case's C is cut into several units.
SMALL_UNITS = 3_000


def _pure(path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(f"pure_units_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _write(package: Path, name: str, schema: Any, options: dict[str, Any]) -> Path:
    module = package / f"{name}.py"
    module.write_text(generator.compile_source(schema, name=name, **options))
    return module


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Any, Any, Any]]:
    """Each case as (units build, one-file build, pure module)."""
    directory = tmp_path_factory.mktemp("native_c_units")
    package = directory / PACKAGE
    package.mkdir()
    (package / "__init__.py").write_text("")
    jobs: dict[int, list[tuple[Path, Any, dict[str, Any]]]] = {SMALL_UNITS: [], 10**9: []}
    for name, (schema, options, _) in CASES.items():
        for unit_bytes, suffix in ((SMALL_UNITS, "units"), (10**9, "whole")):
            module = _write(package, f"{name}_{suffix}", schema, options)
            jobs[unit_bytes].append((module, schema, {**options, "name": module.stem}))
    for unit_bytes, modules in jobs.items():
        build_c_natives(modules, unit_bytes=unit_bytes, timeout=1200)
    sys.path.insert(0, str(directory))
    try:
        return {
            name: (
                importlib.import_module(f"{PACKAGE}.{name}_units"),
                importlib.import_module(f"{PACKAGE}.{name}_whole"),
                _pure(package / f"{name}_whole.py"),
            )
            for name in CASES
        }
    finally:
        sys.path.remove(str(directory))


def test_each_case_is_cut_into_several_units_at_a_small_unit_size() -> None:
    for name, (schema, options, _) in CASES.items():
        text = generator.compile_source(schema, name=name, **options)
        module = render_c(schema, text, name, f"{name}.py", name=name, **options)
        c_text, file_units = module.render(), module.units()
        assert "".join(unit.text for unit in file_units) == c_text  # (the units are the file)
        units = c_units(file_units, SMALL_UNITS)
        assert len(units) > 2, name
        assert c_units(file_units, len(c_text)) == [c_text]  # (functions within one unit: not cut)
        # every fast function is defined in exactly one unit, none in the first (the data's)
        defined = [unit.count("*sl_stack) {\n") for unit in units]
        assert defined[0] == 0 and sum(defined) == c_text.count("*sl_stack) {\n"), name
        # stack.h's per-thread state: defined by the first unit, shared by the others
        state = "\n_Thread_local straightline_stack straightline_this_stack;\n"
        assert [unit.count(state) for unit in units] == [1] + [0] * (len(units) - 1)
        assert all(unit.startswith("#define STRAIGHTLINE_STACK_SHARED 1\n") for unit in units)
        _assert_each_unit_where_it_belongs(file_units, units)


def _assert_each_unit_where_it_belongs(file_units: list[CUnit], units: list[str]) -> None:
    """Each function of the file is defined once, in a unit after the first, in file order, not
    static, and declared in every unit; each static datum is defined once, in the first unit, and
    declared `extern` in every unit; the init is the first unit's."""
    functions = [unit for unit in file_units if unit.kind == "function"]
    data = [unit for unit in file_units if unit.kind == "data"]
    (init,) = [unit for unit in file_units if unit.kind == "init"]
    assert functions and data
    found = []
    for function in functions:
        defined = [(index, unit.find(function.shared)) for index, unit in enumerate(units)]
        (where,) = [(index, at) for index, at in defined if at >= 0]
        assert where[0] > 0 and units[where[0]].count(function.shared) == 1
        found.append(where)
        assert all(function.declarator + ";\n" in unit for unit in units)
        assert not any(f"static {function.declarator}" in unit for unit in units)
    assert found == sorted(found)  # (neighbours stay neighbours)
    for datum in data:
        # (`PyObject *sl_g[3];` defined is its extern declaration less `extern `)
        defined = [
            unit.count(datum.shared) - unit.count("extern " + datum.shared) for unit in units
        ]
        assert defined == [1] + [0] * (len(units) - 1)
        assert all(f"extern {datum.declarator};\n" in unit for unit in units)
        assert not any(f"static {datum.declarator}" in unit for unit in units)
    assert [unit.count(init.text) for unit in units] == [1] + [0] * (len(units) - 1)


def test_the_units_build_answers_as_the_one_file_build_and_the_pure_module(
    built: dict[str, tuple[Any, Any, Any]],
) -> None:
    for name, (_, _, files) in CASES.items():
        units, whole, pure = built[name]
        assert units.__file__.endswith(EXTENSION_SUFFIX)
        assert whole.__file__.endswith(EXTENSION_SUFFIX)
        assert is_current(Path(units.__file__).with_name(f"{name}_units.py"))
        assert type(units._v0).__name__ == "builtin_function_or_method"
        instances = [json.loads((DATA / file).read_text()) for file in files]
        for instance in instances + hostile_instances():
            assert_same(units, pure, instance)
            assert_same(units, whole, instance)
        answers = {units.is_valid(instance) for instance in instances}
        assert answers == ({True, False} if name == "fast" else {True} if instances else set())


def _nest(depth: int) -> Any:
    instance: Any = {"i": 1}
    for _ in range(depth):
        instance = {"i": 1, "r": instance}
    return instance


def test_deep_instances_are_refused_where_the_one_file_build_refuses_them(
    built: dict[str, tuple[Any, Any, Any]],
) -> None:
    units, whole, pure = built["repro"]
    for depth in (50, 400, 900, 1000, 2500):
        assert_same(units, pure, _nest(depth))
        assert_same(units, whole, _nest(depth))


_SMALL_STACK = """
import importlib, json, sys, threading
sys.path.insert(0, sys.argv[1])
x = {"i": 1}
for _ in range(5000):
    x = {"i": 1, "r": x}
found = []
def run():
    sys.setrecursionlimit(1_000_000)
    for name in ("repro_units", "repro_whole"):
        module = importlib.import_module(%r + "." + name)
        found.append((module.is_valid(x), [e.message for e in module.errors(x)][:1]))
threading.stack_size(256 * 1024)
thread = threading.Thread(target=run)
thread.start()
thread.join()
print(json.dumps(found))
"""


def test_a_small_thread_stack_is_checked_in_every_unit_never_a_crash(
    built: dict[str, tuple[Any, Any, Any]],
) -> None:
    """The stack check's state is one for all units: each answers on a 256 KiB thread stack with a
    raised limit as the one-file build does, in a child process."""
    directory = Path(built["repro"][0].__file__).parent.parent
    done = subprocess.run(
        [sys.executable, "-c", _SMALL_STACK % PACKAGE, str(directory)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    units, whole = json.loads(done.stdout)
    assert units == whole and units[0] in (True, False)
    assert units[1] == [] or "deep" in units[1][0]


def test_a_unit_that_does_not_compile_fails_the_build_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    schema, options, _ = CASES["fast"]
    module = _write(tmp_path, "m", schema, options)
    cut: list[list[str]] = []

    def broken_last_unit(file_units: list[CUnit], unit_bytes: int) -> list[str]:
        units = c_units(file_units, unit_bytes)
        cut.append(units)
        return units[:-1] + [units[-1] + "\n#error a unit that does not compile\n"]

    monkeypatch.setattr(c_build, "c_units", broken_last_unit)
    with pytest.raises(NativeBuildError, match="C build of m failed") as raised:
        c_build.build_c_native(module, schema, name="m", unit_bytes=SMALL_UNITS, **options)
    assert "a unit that does not compile" in raised.value.message
    assert len(cut[0]) > 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.py"]


def _function(number: int) -> CUnit:
    declarator = f"int sl_f{number}(PyObject *x)"
    return CUnit(
        "function", f"static {declarator} {{\n    return {number};\n}}\n", declarator, lead="\n"
    )


def test_a_file_with_a_part_the_cut_does_not_know_stays_one_file() -> None:
    known = [
        CUnit("directive", '#include "straightline_c.h"\n'),
        CUnit("prototype", "static int sl_f0(PyObject *x);\n", "int sl_f0(PyObject *x)"),
        *map(_function, range(4)),
        CUnit("data", "static int sl_d = 1;\n", "int sl_d"),
        CUnit("init", "PyMODINIT_FUNC PyInit_m(void) { return NULL; }\n"),
    ]
    units = c_units(known, 40)
    assert len(units) > 2
    _assert_each_unit_where_it_belongs(known, units)
    pointer = "int (*sl_pointer)(PyObject *)"
    for unknown in (
        CUnit("type", "struct sl_pair { int a, b; };\n"),  # type: ignore[arg-type]  # (where?)
        CUnit("data", pointer + ";\n", pointer),  # (not static: declared as what?)
        CUnit("data", "static int sl_d = 1;\n"),  # (no declarator: nothing to declare)
        CUnit("directive", "#if 1\n"),  # (a directive among the definitions: may guard them)
    ):
        file_units = known + [unknown, _function(9)]
        assert c_units(file_units, 40) == ["".join(unit.text for unit in file_units)], unknown


def test_a_module_cut_into_units_is_compiled_at_its_own_level_with_hidden_names() -> None:
    from generator.native import worker

    if os.name == "nt":
        pytest.skip("the flags are gcc's and clang's")

    def flags(sources: str, *levels: str) -> list[str]:
        args = worker.argparse.Namespace(
            opt_level=levels[0], units_opt_level=levels[1], sanitize=False
        )
        return worker.c_extension("m", sources, args).extra_compile_args  # type: ignore[attr-defined,no-any-return]

    assert flags("m.c", "2", "1") == ["-O2", "-g0"]
    units = flags("m.c,m__unit1.c,m__unit2.c", "2", "1")
    assert units[:2] == ["-O1", "-g0"] and "-fvisibility=hidden" in units
    assert "-Werror=implicit-function-declaration" in units
    assert flags("m.c,m__unit1.c", "2", None)[0] == "-O2"
