"""A pytest plugin that `make mutate` loads into mutmut's test runs (pytest_add_cli_args in
[tool.mutmut]); it does nothing in any other run.

mutmut puts every function of a mutated file behind a trampoline that calls the original or the
mutant under test. The functions a generated module copies as source text (generator/outputs.py,
primitives.py, regex/matcher.py, formats/checkers.py, read with `inspect.getsource`) would be
copied as that trampoline, which a generated module cannot run. Here their source is read from
the original file instead, with the function of the mutant under test replaced by its mutated
body, so a generated module runs the mutant as the compiler's own calls do. While mutmut finds
which tests reach which function (its "stats" run), each copied function opens with a line that
records a hit of that function when the copy runs (mutmut's stats only see calls that pass
through a trampoline): a test counts as a copy's test only when it runs the copy, and a mutant of
a copied function is run against those tests alone. (A copy read as part of its whole module,
formats' checkers, records nothing: formats/ parses that text.)

mutmut forks each mutant's run from a server that imported only the test tools ([tool.mutmut]
forkserver_warmup): the compiler and the tests are imported in the run, with the mutant active.
pytest_configure still clears what a run may inherit (caches, copied texts, formats' tables), for
a server that collected the tests first.

In a mutant's run each test has a CPU time limit: TIME_FACTOR times its duration in mutmut's stats
run (mutants/mutmut-stats.json), at least TIME_FLOOR seconds. A test over it ends the run with
mutmut's exit code for a timeout: a mutant that makes the compiler loop is cut in seconds, not
after mutmut's own limit of the whole run (timeout_multiplier x all its tests' time). The tests
run fastest first (mutmut runs them with -x: the first failure ends the run)."""

from __future__ import annotations

import ast
import inspect
import json
import os
import signal
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

# The modules whose functions generated modules copy as source text.
COPIED = (
    "generator.memo_runtime",
    "generator.outputs",
    "generator.primitives",
    "generator.regex.matcher",
    "generator.formats.checkers",
)
# Module globals that hold what a function built once per process (module, name, empty value).
MEMOS = (("generator.validate.readers", "_YAML_LOADER", None),)
_ACTIVE = "MUTANT_UNDER_TEST" in os.environ
_texts: dict[str, str] = {}
# The line a copied function opens with during the stats run: a hit of "module.x_function" (as
# mutmut names the function), recorded by copy_ran where this plugin is loaded and nothing
# elsewhere (a module written by a test may be run by another process: `id` is then called).
_HIT = "getattr(__import__('sys').modules.get({plugin!r}), 'copy_ran', id)({name!r})\n"


# A test of a mutant's run may use TIME_FACTOR times the time it took in the stats run (wall time
# there, with hits recorded: more than its CPU time in a clean run), and TIME_FLOOR seconds at
# least (a test may be the first to build what later tests reuse). CPU time, not wall time: the
# machine's load does not cut a test.
TIME_FACTOR = 10.0
TIME_FLOOR = 10.0
TIMEOUT_EXIT = 36  # (mutmut's exit code for "timeout")
STATS = "mutmut-stats.json"  # (in mutants/, where mutmut runs the tests)
_durations: dict[str, float] = {}


def _mutant() -> str:
    from mutmut.mutation.trampoline import get_mutant_under_test

    return get_mutant_under_test()


def _paths(module: str) -> tuple[Path, Path]:
    """(the mutated copy mutmut imports, the original file beside the workspace's mutants/)."""
    mutated = Path(sys.modules[module].__file__ or "")
    relative = Path(*module.split(".")).with_suffix(".py")
    mutants = mutated.parents[len(relative.parts) - 1]
    return mutated, mutants.parent / relative


def _top_level(tree: ast.Module, name: str) -> ast.FunctionDef | None:
    return next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name), None)


def _lines(text: str, node: ast.FunctionDef) -> tuple[int, int]:
    """The 0-based line range of a top-level function with its decorators."""
    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    return first - 1, node.end_lineno or node.lineno


def module_text(module: str) -> str:
    """The original source of `module`, with the function of the mutant under test mutated."""
    found = _texts.get(module)
    if found is not None:
        return found
    mutated_path, original_path = _paths(module)
    text = original_path.read_text(encoding="utf-8")
    active = _mutant()
    if active == "fail":  # mutmut's check that a failure reaches the tests: the copies fail too
        text = _failing(text)
    owner, _, mutant = active.rpartition(".")
    if owner == module and "__mutmut_" in mutant:
        function = mutant.partition("__mutmut_")[0][len("x_") :]
        mutated = mutated_path.read_text(encoding="utf-8")
        variant = _top_level(ast.parse(mutated), mutant)
        target = _top_level(ast.parse(text), function)
        if variant is not None and target is not None:
            body = mutated.splitlines(keepends=True)
            start, end = variant.lineno - 1, variant.end_lineno or variant.lineno
            replacement = "".join(body[start:end]).replace(f"def {mutant}(", f"def {function}(", 1)
            lines = text.splitlines(keepends=True)
            first, last = _lines(text, target)
            text = "".join(lines[:first] + [replacement] + lines[last:])
    _texts[module] = text
    return text


def _failing(text: str) -> str:
    """The module text with each top-level function raising as it is called (mutmut's forced
    failure makes every trampoline raise; a copied function has none)."""
    lines = text.splitlines(keepends=True)
    functions = [n for n in ast.parse(text).body if isinstance(n, ast.FunctionDef)]
    for node in reversed(functions):
        first = node.body[0]
        indent = " " * first.col_offset
        lines.insert(first.lineno - 1, f"{indent}raise AssertionError('mutmut: forced failure')\n")
    return "".join(lines)


def _recording(function_text: str, function: str, name: str) -> str:
    """The text of the top-level function `function` with a hit of `name` recorded before its
    first statement (below its docstring). Unchanged where the statement shares a line with
    what comes before it: no line to put the hit on."""
    node = _top_level(ast.parse(function_text), function)
    if node is None:
        return function_text
    lines = function_text.splitlines(keepends=True)
    first = node.body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
        if isinstance(first.value.value, str):  # the docstring stays first: the hit goes below
            end = first.end_lineno or first.lineno
            if lines[end - 1][first.end_col_offset :].strip():
                return function_text
            hit = " " * first.col_offset + _HIT.format(plugin=__name__, name=name)
            return "".join(lines[:end] + [hit] + lines[end:])
    if lines[first.lineno - 1][: first.col_offset].strip():
        return function_text
    hit = " " * first.col_offset + _HIT.format(plugin=__name__, name=name)
    return "".join(lines[: first.lineno - 1] + [hit] + lines[first.lineno - 1 :])


def copy_ran(name: str) -> None:
    """A copied function ran in a generated module: a hit of it for the test under way."""
    from mutmut.stats import record_trampoline_hit

    record_trampoline_hit(name)


def _owner(obj: Any) -> str | None:
    name = obj.__name__ if inspect.ismodule(obj) else getattr(obj, "__module__", None)
    return name if name in COPIED else None


def _getsource(original: Callable[[Any], str]) -> Callable[[Any], str]:
    def getsource(obj: Any) -> str:
        module = _owner(obj)
        if module is None:
            return original(obj)
        text = module_text(module)
        if inspect.ismodule(obj):
            return text
        node = _top_level(ast.parse(text), obj.__name__)
        if node is None:
            return original(obj)
        first, last = _lines(text, node)
        copied = "".join(text.splitlines(keepends=True)[first:last])
        if _mutant() == "stats":
            return _recording(copied, obj.__name__, f"{module}.x_{obj.__name__}")
        return copied

    return getsource


if _ACTIVE:
    inspect.getsource = _getsource(inspect.getsource)


def _forget_memos() -> None:
    """The compiler's caches and memos emptied: what built them runs again (and is seen again)."""
    for module_name, name, empty in MEMOS:
        module = sys.modules.get(module_name)
        if module is not None:
            setattr(module, name, empty)
    for name, module in list(sys.modules.items()):
        if name == "generator" or name.startswith("generator."):
            for value in list(vars(module).values()):
                if (
                    callable(getattr(value, "cache_clear", None))
                    and getattr(value, "__module__", "") == name
                ):
                    value.cache_clear()


def pytest_configure(config: pytest.Config) -> None:
    """Each mutant's run forgets what its process may have computed before it knew the mutant:
    the copied texts, the compiler's caches, and the checkers' sources formats/ reads when it is
    imported."""
    if not _ACTIVE:
        return
    # mutmut's trampoline adds two frames to each call of a mutated function: the regex parser's
    # 100 nested groups, refused by its own limit, would otherwise end in a RecursionError
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 3 * 1000 + 1000))
    _texts.clear()
    _forget_memos()
    formats = sys.modules.get("generator.formats")
    if formats is not None:
        formats.IMPORTS, formats.CONSTANTS, formats.FUNCTIONS, formats._ORDER = (
            formats._read_checkers()
        )
        formats.DEPENDS = formats._read_depends(formats._ORDER)


def pytest_runtest_setup(item: pytest.Item) -> None:
    """While mutmut finds which tests reach which function, each test starts without the memos
    (a YAML loader, a cached plan) an earlier test built: a function that builds one is then
    counted as reached by every test that needs it, not by the first alone."""
    if _ACTIVE and _mutant() == "stats":
        _forget_memos()


def durations(stats: Path) -> dict[str, float]:
    """Each test's duration in mutmut's stats run, by node id ({} without a stats file)."""
    try:
        found = json.loads(stats.read_text(encoding="utf-8"))["duration_by_test"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    return {str(test): float(seconds) for test, seconds in found.items()}


def time_limit(nodeid: str, known: dict[str, float]) -> float:
    """The CPU seconds a test may use in a mutant's run."""
    return max(TIME_FLOOR, TIME_FACTOR * known.get(nodeid, 0.0))


def _limited() -> bool:
    """A run of one mutant (not the stats run, the clean run or the forced failure)."""
    return _ACTIVE and "__mutmut_" in _mutant()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """In a mutant's run: the tests fastest first, those the stats run did not time last."""
    if not _limited():
        return
    _durations.clear()
    _durations.update(durations(Path.cwd() / STATS))
    items.sort(key=lambda item: _durations.get(item.nodeid, float("inf")))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Any:
    """In a mutant's run: the test ends the run as a timeout once over its CPU time limit."""
    if not _limited():
        yield
        return
    limit = time_limit(item.nodeid, _durations)

    def over(signum: int, frame: Any) -> None:
        pytest.exit(
            f"{item.nodeid}: over its limit of {limit:.1f} s of CPU time under the mutant "
            f"(tests/mutation/plugin.py TIME_FACTOR): a hang",
            returncode=TIMEOUT_EXIT,
        )

    previous = signal.signal(signal.SIGPROF, over)
    signal.setitimer(signal.ITIMER_PROF, limit)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
