"""The pieces of `make mutate` that decide what a run reports (tests/mutation/run.py) and what a
generated module copies under mutmut (tests/mutation/plugin.py); mutmut itself is not needed."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
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


def _copy(text: str, name: str) -> types.FunctionType:
    namespace: dict[str, object] = {}
    exec(text, namespace)
    function = namespace[name]
    assert isinstance(function, types.FunctionType)
    return function


def test_while_reach_is_counted_a_copy_records_a_hit_each_time_it_runs(
    copied_module: types.ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A test counts as a copied function's test when the copy runs during it, not when some
    module holding the copy was compiled: the copy records each of its runs, as mutmut names the
    function, and nothing while it is not called."""
    hits: list[str] = []
    monkeypatch.setattr(plugin, "copy_ran", hits.append)
    monkeypatch.setattr(plugin, "_mutant", lambda: "stats")
    getsource = plugin._getsource(lambda obj: "unused")
    functions = {}
    for name in ("_pick", "_other"):
        original = types.FunctionType(compile(f"def {name}(): pass", "x", "exec").co_consts[0], {})
        original.__module__ = "generator.outputs"
        functions[name] = _copy(getsource(original), name)
    assert hits == []
    assert functions["_pick"](1, 2) == 2 and functions["_pick"](3, 2) == 3
    assert hits == ["generator.outputs.x__pick"] * 2
    assert functions["_other"](5) == 5
    assert hits[2:] == ["generator.outputs.x__other"]
    # where the plugin is not loaded (a module a test wrote, run by another process) the copy
    # records nothing and runs as it would
    monkeypatch.delitem(sys.modules, plugin.__name__)
    assert functions["_pick"](1, 2) == 2 and len(hits) == 3
    # outside the stats run the copy is the function's text alone
    monkeypatch.setattr(plugin, "_mutant", lambda: "generator.regex.nfa.x_step__mutmut_3")
    plugin._texts.clear()
    original = types.FunctionType(compile("def _pick(): pass", "x", "exec").co_consts[0], {})
    original.__module__ = "generator.outputs"
    assert getsource(original) == "def _pick(a, b):\n    return a if a > b else b\n"


def test_the_hit_goes_before_the_first_statement_below_the_docstring(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hits: list[str] = []
    monkeypatch.setattr(plugin, "copy_ran", hits.append)
    documented = (
        'def f(a):\n    """Doc\n    string."""\n    if a:\n        return 1\n    return 2\n'
    )
    recorded = plugin._recording(documented, "f", "m.x_f")
    function = _copy(recorded, "f")
    assert function.__doc__ == "Doc\n    string."
    assert (function(1), function(0), hits) == (1, 2, ["m.x_f", "m.x_f"])
    assert recorded.splitlines()[:3] == documented.splitlines()[:3]
    assert len(recorded.splitlines()) == len(documented.splitlines()) + 1
    only_doc = _copy(plugin._recording('def g():\n    "Doc."\n', "g", "m.x_g"), "g")
    assert only_doc() is None and only_doc.__doc__ == "Doc." and hits[2:] == ["m.x_g"]
    decorated = "@(lambda f: f)\ndef h(\n    a,\n):\n    return a\n"
    assert _copy(plugin._recording(decorated, "h", "m.x_h"), "h")(4) == 4
    assert hits[3:] == ["m.x_h"]
    # a body on the line of the def, or after the docstring on its line: left as it is
    for unchanged, name in (("def k(a): return a\n", "k"), ('def k():\n    "D"; return 1\n', "k")):
        assert plugin._recording(unchanged, name, "m.x_k") == unchanged


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


def test_mutants_not_run_yet_are_counted_apart_not_as_alive() -> None:
    """A run stopped short (or a record carried from one) leaves mutants no run has tested:
    neither killed nor alive, and the score is of those run."""
    name = "generator.outputs.x__pick__mutmut_{}".format
    statuses = {name(1): "killed", name(2): "survived", name(3): "not checked"}
    statuses[name(4)] = "not checked"
    result = _score(statuses, {name(4): "listed, not run yet"})
    assert result.alive == [name(2)] and result.killed == 1 and result.not_run == 2
    assert result.line("outputs").split()[:6] == ["outputs", "50.0%", "killed", "1", "of", "2"]
    assert "2 not run yet" in result.line("outputs")
    assert "not run yet" not in _score({name(1): "killed"}, {}).line("outputs")


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


class _Item:
    def __init__(self, nodeid: str) -> None:
        self.nodeid = nodeid


@pytest.fixture
def mutant_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, float]:
    """A mutant's run in a workspace's mutants/ (tmp_path) whose stats timed two tests."""
    known = {"tests/t.py::slow": 2.5, "tests/t.py::fast": 0.01}
    (tmp_path / plugin.STATS).write_text(json.dumps({"duration_by_test": known, "other": 1}))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(plugin, "_ACTIVE", True)
    monkeypatch.setattr(plugin, "_mutant", lambda: "generator.doubling.x_memoized__mutmut_1")
    return known


def test_a_test_s_cpu_limit_is_ten_times_its_stats_time_and_ten_seconds_at_least(
    tmp_path: Path, mutant_run: dict[str, float]
) -> None:
    assert plugin.durations(tmp_path / plugin.STATS) == mutant_run
    assert plugin.durations(tmp_path / "absent.json") == {}
    (tmp_path / "bad.json").write_text("{")
    assert plugin.durations(tmp_path / "bad.json") == {}
    assert plugin.time_limit("tests/t.py::slow", mutant_run) == 25.0
    assert plugin.time_limit("tests/t.py::fast", mutant_run) == plugin.TIME_FLOOR == 10.0
    assert plugin.time_limit("tests/t.py::new", mutant_run) == 10.0


@pytest.mark.parametrize("mutant", ["generator.doubling.x_memoized__mutmut_1", "stats", "fail", ""])
def test_a_mutant_s_run_takes_its_tests_fastest_first(
    mutant_run: dict[str, float], monkeypatch: pytest.MonkeyPatch, mutant: str
) -> None:
    """(only a mutant's: the stats run, the clean run and the forced failure keep pytest's order)"""
    monkeypatch.setattr(plugin, "_mutant", lambda: mutant)
    items = [_Item(n) for n in ("tests/t.py::new", "tests/t.py::slow", "tests/t.py::fast")]
    plugin.pytest_collection_modifyitems(items)  # type: ignore[arg-type]
    order = [item.nodeid for item in items]
    if mutant == "stats" or "__mutmut_" not in mutant:
        assert order == ["tests/t.py::new", "tests/t.py::slow", "tests/t.py::fast"]
    else:
        assert order == ["tests/t.py::fast", "tests/t.py::slow", "tests/t.py::new"]


def _spin(limit_seconds: float) -> None:
    """Use CPU time until a signal handler raises (or `limit_seconds` of it pass)."""
    import time

    end = time.process_time() + limit_seconds
    while time.process_time() < end:
        pass


def test_a_test_over_its_cpu_limit_ends_a_mutant_s_run_as_a_timeout(
    mutant_run: dict[str, float], monkeypatch: pytest.MonkeyPatch
) -> None:
    import signal

    monkeypatch.setattr(plugin, "TIME_FLOOR", 0.2)
    plugin.pytest_collection_modifyitems([])
    before = signal.getsignal(signal.SIGPROF)
    call = plugin.pytest_runtest_call(_Item("tests/t.py::fast"))  # type: ignore[arg-type]
    next(call)
    with pytest.raises(pytest.exit.Exception) as stopped:
        _spin(30.0)
    assert stopped.value.returncode == plugin.TIMEOUT_EXIT == 36
    assert "tests/t.py::fast: over its limit of 0.2 s of CPU time" in str(stopped.value)
    with pytest.raises(StopIteration):
        call.send(None)
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGPROF) is before
    # a test within its limit runs to its end, and leaves no timer behind
    call = plugin.pytest_runtest_call(_Item("tests/t.py::slow"))  # type: ignore[arg-type]
    next(call)
    _spin(0.3)
    with pytest.raises(StopIteration):
        call.send(None)
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)


def test_outside_a_mutant_s_run_no_test_has_a_cpu_limit(
    mutant_run: dict[str, float], monkeypatch: pytest.MonkeyPatch
) -> None:
    import signal

    monkeypatch.setattr(plugin, "_mutant", lambda: "stats")
    call = plugin.pytest_runtest_call(_Item("tests/t.py::fast"))  # type: ignore[arg-type]
    next(call)
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
    with pytest.raises(StopIteration):
        call.send(None)


# -- the committed record of results --------------------------------------------------------------

_TOY = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n"
# mutmut's own step that makes a file's mutants and keeps or drops its recorded results
_MAKE_MUTANTS = (
    "from pathlib import Path\n"
    "from mutmut.__main__ import create_mutants_for_file\n"
    "create_mutants_for_file(Path('generator/toy.py'), Path('mutants/generator/toy.py'))\n"
)


def _toy_workspace(where: Path, source: str) -> Path:
    (where / "generator").mkdir(parents=True)
    (where / "generator" / "toy.py").write_text(source)
    (where / "pyproject.toml").write_text('[tool.mutmut]\nsource_paths = ["generator"]\n')
    return where


def _make_mutants(where: Path) -> dict[str, int | None]:
    """mutmut's mutants of the toy file made in `where`, and their results as its .meta holds."""
    copy = where / "mutants" / "generator" / "toy.py"
    copy.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(where / "generator" / "toy.py", copy)  # (as mutmut copies: same mtime)
    subprocess.run([sys.executable, "-c", _MAKE_MUTANTS], cwd=where, check=True)
    codes: dict[str, int | None] = json.loads(
        (where / "mutants/generator/toy.py.meta").read_text()
    )["exit_code_by_key"]
    return codes


def test_a_record_carries_results_to_a_new_workspace_while_their_function_is_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(run, "RECORDS", tmp_path / "records")
    module = run.Module("toy", ["generator/toy.py"], ["tests"])
    first = _toy_workspace(tmp_path / "first", _TOY)
    codes = _make_mutants(first)
    add, sub = "generator.toy.x_add__mutmut_1", "generator.toy.x_sub__mutmut_1"
    assert codes == {add: None, sub: None}
    meta = first / "mutants/generator/toy.py.meta"
    body = json.loads(meta.read_text())
    body["exit_code_by_key"] = {add: 1, sub: 0}  # add's mutant killed, sub's alive
    meta.write_text(json.dumps(body))
    assert run.save_record(module, first) == 2
    # a new machine's workspace, where sub has changed since
    second = _toy_workspace(tmp_path / "second", _TOY.replace("a - b", "b - a"))
    assert run.restore_record(module, second) == 2
    assert _make_mutants(second) == {add: 1, sub: None}
    # the same source again: both results kept
    third = _toy_workspace(tmp_path / "third", _TOY)
    run.restore_record(module, third)
    assert _make_mutants(third) == {add: 1, sub: 0}


def test_a_record_keeps_only_results_of_the_module_s_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(run, "RECORDS", tmp_path / "records")
    module = run.Module("toy", ["generator/toy*.py"], ["tests"])
    untested = {"generator.toy.x_f__mutmut_2": None}
    for source, codes in (
        ("generator/toy.py", {"generator.toy.x_f__mutmut_1": 1, **untested}),
        ("generator/toy_two.py", {"generator.toy_two.x_g__mutmut_1": 0}),
        ("generator/other.py", {"generator.other.x_h__mutmut_1": 1}),
        ("generator/toy_none.py", {"generator.toy_none.x_k__mutmut_1": None}),
    ):
        meta = tmp_path / "ws" / "mutants" / (source + ".meta")
        meta.parent.mkdir(parents=True, exist_ok=True)
        hashes = {"x_" + source[-4]: "abc"}
        meta.write_text(json.dumps({"exit_code_by_key": codes, "hash_by_function_name": hashes}))
    assert run.save_record(module, tmp_path / "ws") == 2
    record = json.loads((tmp_path / "records" / "toy.json").read_text())
    assert record == {
        "generator/toy.py": {
            "exit_code_by_key": {"generator.toy.x_f__mutmut_1": 1},
            "hash_by_function_name": {"x_y": "abc"},
        },
        "generator/toy_two.py": {
            "exit_code_by_key": {"generator.toy_two.x_g__mutmut_1": 0},
            "hash_by_function_name": {"x_o": "abc"},
        },
    }
    # a workspace with results of its own keeps them; one without takes the record's
    (tmp_path / "ws" / "generator").mkdir()
    for source in ("generator/toy.py", "generator/toy_two.py"):
        (tmp_path / "ws" / source).write_text("")
    kept = (tmp_path / "ws" / "mutants/generator/toy.py.meta").read_text()
    (tmp_path / "ws" / "mutants/generator/toy_two.py.meta").unlink()
    assert run.restore_record(module, tmp_path / "ws") == 1
    assert (tmp_path / "ws" / "mutants/generator/toy.py.meta").read_text() == kept
    restored = json.loads((tmp_path / "ws" / "mutants/generator/toy_two.py.meta").read_text())
    assert restored["exit_code_by_key"] == {"generator.toy_two.x_g__mutmut_1": 0}
    assert not list((tmp_path / "records").glob("*.part"))


def test_a_meta_file_caught_half_written_is_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """mutmut rewrites a .meta file in place after each result: a record saved while it runs
    may meet one half-written, and reads it again."""
    meta = tmp_path / "toy.py.meta"
    whole = json.dumps({"exit_code_by_key": {"m": 1}, "hash_by_function_name": {}})
    meta.write_text(whole)
    reads = [whole[: len(whole) // 2], ""]
    real = Path.read_text

    def read_text(self: Path, *args: object, **kwargs: object) -> str:
        if self == meta and reads:
            return reads.pop(0)
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "read_text", read_text)
    monkeypatch.setattr(run.time, "sleep", lambda seconds: None)
    assert run._read_meta(meta)["exit_code_by_key"] == {"m": 1}
    assert reads == []
    reads[:] = ["{"] * 60
    with pytest.raises(SystemExit, match="not JSON"):
        run._read_meta(meta)
