"""The pieces of `make mutate` that decide what a run reports (tests/mutation/run.py) and what a
generated module copies under mutmut (tests/mutation/plugin.py); mutmut itself is not needed."""

from __future__ import annotations

import ast
import sys
import tomllib
import types
from pathlib import Path

import pytest

from . import plugin, run

MUTATED = """\
def _pick(a, b):
    return a if a > b else b


def x__pick__mutmut_orig(a, b):
    return a if a > b else b


def x__pick__mutmut_1(a, b):
    return a if a >= b else b


def _other(a):
    return a
"""
ORIGINAL = '''\
"""A module whose functions are copied."""


def _pick(a, b):
    return a if a > b else b


def _other(a):
    return a
'''


@pytest.fixture
def copied_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    """generator/outputs.py as a workspace has it: mutmut's copy under mutants/, the original
    beside mutants/."""
    (tmp_path / "mutants" / "generator").mkdir(parents=True)
    (tmp_path / "generator").mkdir()
    (tmp_path / "mutants" / "generator" / "outputs.py").write_text(MUTATED)
    (tmp_path / "generator" / "outputs.py").write_text(ORIGINAL)
    module = types.ModuleType("generator.outputs")
    module.__file__ = str(tmp_path / "mutants" / "generator" / "outputs.py")
    monkeypatch.setitem(sys.modules, "generator.outputs", module)
    plugin._texts.clear()
    yield module
    plugin._texts.clear()


def test_a_copied_module_is_its_original_text_when_no_mutant_of_it_is_active(
    copied_module: types.ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    for active in ("", "stats", "generator.regex.nfa.x_step__mutmut_3"):
        monkeypatch.setattr(plugin, "_mutant", lambda active=active: active)
        plugin._texts.clear()
        assert plugin.module_text("generator.outputs") == ORIGINAL


def test_the_active_mutant_replaces_its_function_and_nothing_else(
    copied_module: types.ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(plugin, "_mutant", lambda: "generator.outputs.x__pick__mutmut_1")
    text = plugin.module_text("generator.outputs")
    assert text == ORIGINAL.replace("a > b", "a >= b")
    assert [n.name for n in ast.parse(text).body if isinstance(n, ast.FunctionDef)] == [
        "_pick",
        "_other",
    ]
    function = types.FunctionType(compile("def _other(a): pass", "x", "exec").co_consts[0], {})
    function.__module__ = "generator.outputs"
    assert plugin._getsource(lambda obj: "unused")(function) == "def _other(a):\n    return a\n"


def test_under_the_forced_failure_every_copied_function_fails(
    copied_module: types.ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """mutmut checks its setup by making every trampoline raise and requiring a test to fail; the
    tests of outputs.py reach it through the copies in generated modules, which must fail too."""
    monkeypatch.setattr(plugin, "_mutant", lambda: "fail")
    namespace: dict[str, object] = {}
    exec(plugin.module_text("generator.outputs"), namespace)
    for name, args in (("_pick", (1, 2)), ("_other", (1,))):
        function = namespace[name]
        assert callable(function)
        with pytest.raises(AssertionError, match="mutmut: forced failure"):
            function(*args)


def _score(statuses: dict[str, str], listed: dict[str, str]) -> run.Score:
    module = run.Module("outputs", ["generator/outputs.py"], ["tests/errors"])
    return run.score(statuses, listed, module)


def test_the_score_counts_kills_of_the_mutants_not_listed_as_equivalent() -> None:
    name = "generator.outputs.x__pick__mutmut_{}".format
    statuses = {
        name(1): "killed",
        name(2): "timeout",
        name(3): "survived",
        name(4): "no tests",
        name(5): "survived",
        name(6): "skipped",
    }
    result = _score(
        statuses,
        {
            name(5): "same answer",
            name(1): "no longer alive",
            "generator.doubling.x_memoized__mutmut_1": "another module's",
        },
    )
    assert result.killed == 2 and sorted(result.alive) == [name(3), name(4)]
    assert result.equivalent == {name(5): "same answer"} and result.stale == [name(1)]
    assert result.line("outputs").split()[:6] == ["outputs", "50.0%", "killed", "2", "of", "4"]


def test_equivalent_mutants_are_matched_to_a_module_by_its_file_patterns() -> None:
    module = run.Module("plan", ["generator/plan/*"], ["tests/test_plan.py"])
    statuses = {
        "generator.plan.cost.x__general__mutmut_1": "survived",
        "generator.plan.x\u01c1Plan\u01c1node__mutmut_1": "survived",
    }
    result = run.score(
        statuses,
        {
            "generator.plan.cost.x__general__mutmut_1": "a reason",
            "generator.plan.x\u01c1Plan\u01c1node__mutmut_1": "another",
            "generator.planner.x_f__mutmut_1": "not this module's",
        },
        module,
    )
    assert (
        sorted(result.equivalent) == sorted(statuses) and result.stale == [] and result.alive == []
    )


def test_every_module_names_files_and_tests_that_exist() -> None:
    root = run.ROOT
    for module in run.modules().values():
        assert module.mutate and module.tests, module.name
        for pattern in module.mutate:
            assert list(root.glob(pattern)), pattern
        for test in module.tests:
            assert (root / test).exists(), test
    listed = tomllib.loads((run.HERE / "equivalent.toml").read_text())
    assert set(listed) <= set(run.modules())
    for section in listed.values():
        assert all(isinstance(reason, str) and reason for reason in section.values())


def test_a_workspace_config_is_the_projects_with_the_modules_files_and_tests(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(run, "WORK", tmp_path)
    module = run.Module("outputs", ["generator/outputs.py"], ["tests/errors"])
    where = run.workspace(module)
    config = tomllib.loads((where / "pyproject.toml").read_text())
    project = tomllib.loads((run.ROOT / "pyproject.toml").read_text())
    assert config["tool"]["mutmut"] == {
        **project["tool"]["mutmut"],
        "only_mutate": ["generator/outputs.py"],
        "pytest_add_cli_args_test_selection": ["tests/errors"],
    }
    assert config["tool"]["pytest"] == project["tool"]["pytest"]
    assert not (where / "generator").is_symlink()
    for path in ("generator/api.py", "templates/module.py.j2", "tests/mutation/plugin.py"):
        assert (where / path).read_bytes() == (run.ROOT / path).read_bytes()
