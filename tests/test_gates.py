"""Gates on our own code, run by `make test`: ruff's lint, black's format check and mypy.

Each reads its settings from pyproject.toml ([tool.ruff], [tool.black], [tool.mypy]), which also
names what they leave out (generated modules and the vendored test suite). A failure prints the
tool's own report, so the fix is `ruff check --fix`, `black`, or the type error mypy names.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUR_CODE = ["generator", "tests", "bench", "examples", "contracts"]


def _run(*command: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *command],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_ruff_finds_nothing_in_our_code() -> None:
    done = _run("ruff", "check", "--no-cache", *OUR_CODE)
    assert done.returncode == 0, done.stdout + done.stderr


def test_black_would_change_nothing_in_our_code() -> None:
    done = _run("black", "--check", "--quiet", *OUR_CODE)
    assert done.returncode == 0, "black would reformat:\n" + done.stderr


def test_mypy_finds_no_type_error_in_the_compiler() -> None:
    # [tool.mypy] names the files (generator/) and the strictness; a cold run (no .mypy_cache)
    # is about 10 s of CPU, the timeout is for a heavily loaded 2-core machine
    done = _run("mypy", timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found" in done.stdout, done.stdout


def test_the_gates_see_a_violation(tmp_path: Path) -> None:
    """The gates are not vacuous: each fails on a file that breaks its rule."""
    bad = tmp_path / "bad.py"
    bad.write_text("import os\nx = {'a':1}\n")
    lint = _run("ruff", "check", "--no-cache", "--config", str(ROOT / "pyproject.toml"), str(bad))
    assert lint.returncode == 1 and "F401" in lint.stdout
    fmt = _run("black", "--check", "--quiet", "--config", str(ROOT / "pyproject.toml"), str(bad))
    assert fmt.returncode == 1


def test_the_gates_cover_folders_named_build() -> None:
    """Both tools skip every folder named `build` by default; ours (generator/build, tests/build)
    are source, and the settings in pyproject.toml keep them in."""
    listed = _run("ruff", "check", "--no-cache", "--show-files", *OUR_CODE)
    assert "generator/build/hatch_hook.py" in listed.stdout
    assert "tests/build/test_build_hooks.py" in listed.stdout
    seen = _run("black", "--check", "--verbose", "generator/build", "tests/build")
    assert "ignored" not in seen.stderr, seen.stderr
    assert "hatch_hook.py" in seen.stderr and "test_build_hooks.py" in seen.stderr


def test_mypy_gate_sees_a_type_error(tmp_path: Path) -> None:
    """mypy with the project's settings (strict) fails on an unannotated function and on a
    wrong type, so the gate above is not vacuous."""
    bad = tmp_path / "bad.py"
    bad.write_text("def untyped(x):\n    return x\n\n\nanswer: int = 'forty-two'\n")
    done = _run(
        "mypy",
        "--config-file",
        str(ROOT / "pyproject.toml"),
        "--no-incremental",
        str(bad),
        timeout=900,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "[no-untyped-def]" in done.stdout and "[assignment]" in done.stdout, done.stdout
