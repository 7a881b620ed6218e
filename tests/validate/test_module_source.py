"""ModuleSource hands worker processes the code the parent compiled (for_workers), so no worker
compiles a module again, and names the module by its key only in each task (by_key). A worker's
module is the one the parent loaded: the same answers, the same file attributes, even when the
file has changed since. Nothing here is timed."""

from __future__ import annotations

import multiprocessing
import pickle
from pathlib import Path
from typing import Any

import pytest

import generator
from generator.errors import OptionError
from generator.validate import modules
from generator.validate.modules import ModuleSource
from generator.validate.runner import run_task
from generator.validate.tasks import Task

from .conftest import SCHEMA, write

# A module whose answer shows which text it was executed from.
FIRST = "def is_valid(x):\n    return x == 1\n\ndef errors(x):\n    return []\n"
SECOND = FIRST.replace("x == 1", "x == 2")


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """This process as a worker starts: no module loaded yet (restored afterwards)."""
    monkeypatch.setattr(modules, "_LOADED", {})
    monkeypatch.setattr(modules, "_CODE", {})


def _as_worker(source: ModuleSource, monkeypatch: pytest.MonkeyPatch) -> Any:
    """`source` as a worker receives it (pickled), loaded in a process that has loaded nothing."""
    received = pickle.loads(pickle.dumps(source))
    monkeypatch.setattr(modules, "_LOADED", {})
    monkeypatch.setattr(modules, "_CODE", {})
    return received.load()


def test_a_worker_runs_the_parents_code_of_a_module_file(
    tmp_path: Path, fresh: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path / "mod.py", FIRST)
    source = ModuleSource.from_path(path)
    parent = source.load()
    shipped = source.for_workers()
    assert shipped.code is not None and source.code is None
    assert shipped == source and shipped.key == source.key  # the same module, by its key
    path.write_text(SECOND, encoding="utf-8")  # changed after the parent loaded it
    worker = _as_worker(shipped, monkeypatch)
    assert worker.is_valid(1) and not worker.is_valid(2)  # the parent's module, not the file's
    assert worker.__file__ == parent.__file__ == str(path.resolve())
    assert worker.__name__ == parent.__name__
    # without the parent's code a worker reads the file as it is now
    assert _as_worker(source, monkeypatch).is_valid(2)


def test_a_worker_runs_the_parents_code_of_a_compiled_schema(
    fresh: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = generator.compile_source(SCHEMA, format=False)
    source = ModuleSource.from_text(text)
    assert source.for_workers() is source  # nothing compiled here yet: nothing to hand over
    source.load()
    shipped = source.for_workers()
    assert shipped.code is not None
    worker = _as_worker(shipped, monkeypatch)
    assert worker.__source__ == text
    assert worker.is_valid({"left": 1, "right": 2})
    assert [error.message for error in worker.errors({"left": 1})] == [
        '"right" is a required property'
    ]


def test_a_module_that_fails_to_load_from_shipped_code_is_named(
    tmp_path: Path, fresh: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path / "mod.py", FIRST + "\nraise_on_load = {}['missing']\n")
    source = ModuleSource.from_path(path)
    with pytest.raises(OptionError, match=r"mod\.py: cannot load it \(KeyError: 'missing'\)"):
        source.load()
    assert source.for_workers() is source  # it never loaded: nothing is handed over


def test_tasks_name_the_module_by_key_and_find_the_loaded_one(tmp_path: Path, fresh: None) -> None:
    text = generator.compile_source(SCHEMA, format=False)
    source = ModuleSource.from_text(text)
    named = source.by_key()
    assert named.text is None and named.code is None and named.key == source.key
    assert len(pickle.dumps(named)) < 1000 < len(pickle.dumps(source))
    data = write(tmp_path / "d.jsonl", '{"left": 1, "right": 2}\n{"left": 1}\n')
    task = Task(0, str(data), "jsonl", first=True, last=True, size=data.stat().st_size)
    with pytest.raises(OptionError, match="is not loaded in this process"):
        run_task(task, named, "json")  # a process that never loaded it says so
    source.load()  # as a worker's initializer does
    result = run_task(task, named, "json")
    assert (result.records, result.invalid, [f.line for f in result.failures]) == (2, 1, [2])


def _answers(source: ModuleSource, values: list[Any]) -> list[bool]:
    module = source.load()
    return [bool(module.is_valid(value)) for value in values]


def test_a_spawned_process_gets_the_same_answers_from_shipped_code(tmp_path: Path) -> None:
    """Across a real process boundary (spawn, as --jobs starts workers): marshal's code is read
    by the same Python, and the module answers as the parent's does."""
    path = write(tmp_path / "pair.py", generator.compile_source(SCHEMA, format=False))
    source = ModuleSource.from_path(path)
    values: list[Any] = [{"left": 1, "right": 2}, {"left": 1}, {"left": 1, "right": "x"}, 3]
    here = _answers(source, values)
    shipped = source.for_workers()
    path.write_text("raise SystemExit('this file is not read again')\n", encoding="utf-8")
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        there = pool.apply(_answers, (shipped, values))
    assert here == there == [True, False, False, False]
