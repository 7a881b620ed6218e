"""Shared set-up of the `straightline validate` tests: the installed command run as a user runs it,
a schema, and the module compiled from it (written once per session, for --module runs, which
start fast: they never import the compiler)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import generator

STRAIGHTLINE = Path(sys.executable).parent / "straightline"
HANG_LIMIT = 300  # seconds: catches a hang, times nothing

SCHEMA = {
    "type": "object",
    "properties": {"left": {"type": "integer"}, "right": {"type": "integer"}},
    "required": ["left", "right"],
    "additionalProperties": False,
}


def run(
    *args: str | Path,
    cwd: Path,
    stdin: bytes | None = None,
    env: dict[str, str] | None = None,
    python_m: bool = False,
) -> subprocess.CompletedProcess[str]:
    """The command as a subprocess; no Python traceback may ever reach its output."""
    if not STRAIGHTLINE.exists() and not python_m:
        pytest.skip(f"the straightline console script is not installed next to {sys.executable}")
    command = [sys.executable, "-m", "generator"] if python_m else [str(STRAIGHTLINE)]
    full_env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", **(env or {})}
    proc = subprocess.run(
        [*command, "validate", *map(str, args)],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        env=full_env,
        timeout=HANG_LIMIT,
    )
    result = subprocess.CompletedProcess(
        proc.args,
        proc.returncode,
        proc.stdout.decode("utf-8", "surrogateescape"),
        proc.stderr.decode("utf-8", "surrogateescape"),
    )
    assert "Traceback" not in result.stderr, result.stderr
    assert "Traceback" not in result.stdout, result.stdout
    return result


def write(path: Path, content: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_text(json.dumps(content), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def schema_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write(tmp_path_factory.mktemp("schema") / "pair.schema.json", SCHEMA)


@pytest.fixture(scope="session")
def module_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The schema compiled to a module file, as `straightline compile` writes it."""
    path = tmp_path_factory.mktemp("module") / "pair.py"
    path.write_text(generator.compile_source(SCHEMA, format=False), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def module(module_file: Path) -> Any:
    from generator.validate.modules import ModuleSource

    return ModuleSource.from_path(module_file).load()
