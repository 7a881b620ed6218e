"""The bench's native implementations: `native` is the extension `straightline compile --native`
builds (the C backend, through generator/native/c_build.py), `native-mypyc` the mypyc build,
built only when asked. No assertion is about time."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from bench import cli, implementations, runner
from bench.cases import select_cases
from bench.implementations import IMPLEMENTATIONS, NATIVE, NATIVE_MYPYC, STRAIGHTLINE

EDGE_VALUES = [
    {"left": 1, "right": 2},
    {"left": 0, "right": -0.0},
    {"left": 1e300, "right": 2},
    {"left": 1, "right": 2.5},
    {"left": 2**100, "right": 2},
    {"left": 1, "right": False},
    {"left": 1, "right": [2]},
    {"left": 1, "right": 2, "total": 3},
    {"right": 2},
    {},
    [1, 2],
    "left",
    None,
]


def _case(name: str) -> Any:
    loaders = dict(select_cases([name])[0])
    return loaders[name]()


def test_the_native_implementation_is_the_c_backends_extension_and_agrees_with_the_pure_module() -> (
    None
):
    pytest.importorskip("setuptools")
    case = _case("math.add.input")
    built = implementations.build(NATIVE, case, native=True, mode="quick")
    if built.short_reason == "no C compiler":
        pytest.skip(built.reason)
    assert built.is_valid is not None, built.reason
    # the record beside the module names the backend that built the imported extension
    assert built.details["native_backend"] == "c"
    assert built.details["extension_bytes"] > 0 and built.details["native_build_ms"] > 0
    assert inspect.isbuiltin(built.is_valid)  # a C function, not the pure module's
    pure = implementations.build(STRAIGHTLINE, case).is_valid
    assert pure is not None and not inspect.isbuiltin(pure)
    values = [instance.value for instance in case.instances] + EDGE_VALUES
    answers = [built.is_valid(value) for value in values]
    assert answers == [pure(value) for value in values]
    assert True in answers and False in answers
    assert [built.is_valid(i.value) for i in case.instances] == [
        i.expected_valid for i in case.instances
    ]


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The backends the harness asks to build, in order (each build answers like the pure one)."""
    asked: list[str] = []

    def native(case: Any, backend: str, timeout: float) -> tuple[Any, dict[str, Any]]:
        asked.append(backend)
        return implementations._straightline(case), {"native_backend": backend}

    monkeypatch.setattr(implementations, "_native", native)
    return asked


@pytest.mark.parametrize(
    ("native", "mypyc", "expected"),
    [(True, False, ["c"]), (True, True, ["c", "mypyc"]), (False, True, []), (False, False, [])],
)
def test_mypyc_is_built_only_when_asked(
    builds: list[str], native: bool, mypyc: bool, expected: list[str]
) -> None:
    case = _case("math.add.output")
    _, entries = runner._evaluate(case, runner.silent, native, "quick", mypyc)
    assert builds == expected
    assert (entries[NATIVE]["status"] == "ok") is native
    mypyc_entry = entries[NATIVE_MYPYC]
    if "mypyc" in expected:
        assert mypyc_entry["status"] == "ok" and mypyc_entry["native_backend"] == "mypyc"
    else:
        assert mypyc_entry["status"] == "n/a"
        assert mypyc_entry["short_reason"] == ("not asked" if native else "not built")


def test_a_run_times_mypyc_beside_the_c_backend_only_when_asked(builds: list[str]) -> None:
    without = runner.run(["math.add.output"], quick=True, log=runner.silent, isolate=False)
    assert builds == [] and without["settings"]["mypyc"] is False
    with_mypyc = runner.run(
        ["math.add.output"], quick=True, log=runner.silent, isolate=False, native=True, mypyc=True
    )
    assert builds == ["c", "mypyc"] and with_mypyc["settings"]["mypyc"] is True
    assert with_mypyc["implementations"] == list(IMPLEMENTATIONS)
    for instance in with_mypyc["cases"][0]["instances"]:
        assert instance["timings"][NATIVE] and instance["timings"][NATIVE_MYPYC]
        # the mypyc build's time over the C backend's, side by side
        assert instance["ratios_native"][NATIVE_MYPYC] is not None


def test_mypyc_without_native_builds_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--quick", "--case", "math.add.output", "--no-native", "--mypyc"]) == 2
    assert "--mypyc needs the native builds" in capsys.readouterr().err


def test_both_backends_of_one_case_are_imported_side_by_side(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Both extensions of a case live in one process: each is the one its own backend built, not
    the other one cached under the same module name."""
    pytest.importorskip("setuptools")
    pytest.importorskip("mypyc")
    from generator.native import c_build

    case = _case("math.add.output")
    c_built = implementations.build(NATIVE, case, native=True, mode="quick")
    if c_built.short_reason == "no C compiler":
        pytest.skip(c_built.reason)
    # the mypyc build itself is slow: the C backend stands in for it, under the mypyc name
    monkeypatch.setattr(
        "generator.native.build_native",
        lambda path, rendered, timeout=None: c_build.build_c_native(
            path, case.schema_text, timeout=timeout, profile=case.profile, format=False
        ),
    )
    other = implementations.build(NATIVE_MYPYC, case, native=True, mypyc=True, mode="quick")
    assert c_built.is_valid is not None and other.is_valid is not None, other.reason
    assert c_built.is_valid is not other.is_valid
    assert c_built.is_valid.__module__ != other.is_valid.__module__
