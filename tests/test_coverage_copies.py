"""tests/coverage_copies.py: the coverage.py plugin that counts a copied function's run in a
generated module at the function's own lines. Each run measures a fresh Python process through
coverage's API (the test's own process may be measured by pytest-cov already)."""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from generator import memo_runtime, primitives
from generator.emit.sources import primitive_sources
from generator.render.header import FIRST_LINE

ROOT = Path(__file__).resolve().parents[1]
COPIED = ("_show", "_required_errors", "_memo_once", "_memo_lean")

# Calls made on the copied functions, natively (`ns` holds generator's own functions) or in a
# generated module (`ns` is the module): both runs must report the same lines and branches.
SCENARIO = """
ns.result = [
    ns._show({"a": [1, "x", None, 2.5], "b": True}, 20),
    ns._show("y" * 100),
    ns._show([]),
]
doubled = ns._memo_once(lambda x: 2 * x, "/w", loops=True)
ns.result.append(doubled(3))
lean = ns._memo_once(lambda x: x + 1, "/w", loops=False, scoped=False)
ns.result.append(lean(4))
out = []
spec = ("{missingProperty} is missing", None, None)
ns._required_errors({"a": 1}, ("a", "b"), spec, "", "", None, out)
ns._required_errors({"a": 1}, ("a",), spec, "", "", None, out)
ns.result.append(len(out))
"""

RUNNER = """
import importlib.util, json, sys, types
import coverage
config, data, mode, module_path, report = sys.argv[1:6]
NAMES = sys.argv[6:]
cov = coverage.Coverage(data_file=data, config_file=config)
cov.start()
if mode == "memory":  # as generator.compile_module executes a module's text
    ns = types.ModuleType("copies")
    with open(module_path, encoding="utf-8") as file:
        exec(compile(file.read(), "<straightline copies>", "exec"), ns.__dict__)
elif mode == "native":
    from generator import memo_runtime, primitives
    ns = types.SimpleNamespace(
        **{n: getattr(primitives, n, None) or getattr(memo_runtime, n) for n in NAMES}
    )
else:
    spec = importlib.util.spec_from_file_location("copies", module_path)
    ns = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ns)
exec(sys.stdin.read(), {"ns": ns})
cov.stop()
cov.save()
cov.json_report(outfile=report, include=["*/generator/primitives.py", "*/generator/memo_runtime.py"])
print(json.dumps(ns.result))
"""


def _module_text() -> str:
    imports, constants, functions = primitive_sources(COPIED, False, False)
    own = "class ValidationError(ValueError):\n    pass"  # (the template writes it)
    parts = [FIRST_LINE + "test module", *(c.text for c in imports + constants), own]
    parts += [c.text for c in functions]
    return "\n\n".join(parts) + "\n"


def _measure(tmp_path: Path, mode: str, module_text: str = "", scenario: str = SCENARIO) -> Any:
    """The JSON report of the copied files after the scenario, and the scenario's results."""
    config = tmp_path / "coverage.toml"
    config.write_text(
        '[tool.coverage.run]\nbranch = true\nplugins = ["tests.coverage_copies"]\n'
        'source = ["generator"]\n',
        encoding="utf-8",
    )
    module = tmp_path / f"copies_{mode}.py"
    module.write_text(module_text or _module_text(), encoding="utf-8")
    report = tmp_path / f"report_{mode}.json"
    run = subprocess.run(
        [sys.executable, "-c", RUNNER, str(config), str(tmp_path / f".cov_{mode}"), mode]
        + [str(module), str(report), *COPIED],
        input=scenario,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        # (not measured again by a `make coverage` run's own subprocess patch)
        env={k: v for k, v in os.environ.items() if not k.startswith("COVERAGE_PROCESS")},
    )
    assert run.returncode == 0, run.stderr
    return json.loads(report.read_text(encoding="utf-8"))["files"], json.loads(run.stdout)


def _in_body(function: Any, files: dict[str, Any]) -> dict[str, set[Any]]:
    """The lines and branches the report gives inside `function`'s body (its def line runs when
    the module is imported, natively only)."""
    lines, first = inspect.getsourcelines(function)
    body = range(first + 1, first + len(lines))
    name = str(Path(inspect.getfile(function)).relative_to(ROOT))
    file = files.get(name, {"executed_lines": [], "executed_branches": [], "missing_branches": []})
    return {
        "executed": {n for n in file["executed_lines"] if n in body},
        "branches": {tuple(b) for b in file["executed_branches"] if b[0] in body},
        "missing": {tuple(b) for b in file["missing_branches"] if b[0] in body},
    }


FUNCTIONS = (
    primitives._show,
    primitives._show_into,
    primitives._show_members,
    primitives._required_errors,
    memo_runtime._memo_once,
    memo_runtime._memo_lean,
)


def test_a_copy_counts_as_its_source(tmp_path: Path) -> None:
    native, native_results = _measure(tmp_path, "native")
    copied, copied_results = _measure(tmp_path, "copy")
    assert copied_results == native_results
    for function in FUNCTIONS:
        expected = _in_body(function, native)
        found = _in_body(function, copied)
        assert expected["executed"], function  # (the scenario runs each)
        assert found == expected, function.__name__
    # the closures of _memo_once (the scenario calls one of each function) are mapped too
    lean, first = inspect.getsourcelines(memo_runtime._memo_lean)
    unscoped = first + next(i for i, line in enumerate(lean) if "def unscoped" in line)
    assert unscoped + 1 in _in_body(memo_runtime._memo_lean, copied)["executed"]


def test_a_copy_in_a_module_compiled_from_text_counts_as_its_source(tmp_path: Path) -> None:
    """A module executed from its text under `<straightline NAME>` (compile_module's file name),
    which coverage would not trace, is given a file by the plugin: its copies count too."""
    native, native_results = _measure(tmp_path, "native")
    compiled, compiled_results = _measure(tmp_path, "memory")
    assert compiled_results == native_results
    for function in FUNCTIONS:
        assert _in_body(function, compiled) == _in_body(function, native), function.__name__


def test_an_edited_copy_is_not_attributed(tmp_path: Path) -> None:
    text = _module_text()
    original = inspect.getsource(primitives._show)
    edited = original.replace("\n", "\n    # edited\n", 2)
    assert edited != original and original in text
    files, _ = _measure(tmp_path, "edited", text.replace(original, edited))
    assert not _in_body(primitives._show, files)["executed"]
    # the unchanged copies still count
    assert _in_body(memo_runtime._memo_once, files)["executed"]


def test_a_module_of_its_own_code_is_not_attributed(tmp_path: Path) -> None:
    # a function of a copied name whose text is not the copy's, and the module's own code
    text = FIRST_LINE + "test module\n\ndef _show(x, limit=80):\n    return repr(x)\n"
    text += "\n\ndef _memo_once(function, where, loops=True, scoped=True):\n    return function\n"
    text += "\n\ndef _required_errors(x, names, spec, ip, kp, ak, out):\n    out.append(names)\n"
    files, results = _measure(tmp_path, "own", text)
    assert results[:5] == [
        "{'a': [1, 'x', None, 2.5], 'b': True}",
        "'" + "y" * 100 + "'",
        "[]",
        6,
        5,
    ]
    for function in FUNCTIONS:
        assert not _in_body(function, files)["executed"], function.__name__
