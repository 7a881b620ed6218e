"""Shared helpers of the build tests: running the installed `straightline` command in a
directory (no traceback may ever reach the user), and writing small projects."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ..conftest import ROOT

STRAIGHTLINE = Path(sys.executable).parent / "straightline"
needs_cli = pytest.mark.skipif(
    not STRAIGHTLINE.exists(),
    reason=f"the straightline console script is not installed next to {sys.executable}",
)

__all__ = ["ROOT", "STRAIGHTLINE", "needs_cli", "run", "write", "import_from"]


def run(
    *args: str,
    cwd: Path,
    umask: int | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 300,
) -> subprocess.CompletedProcess[str]:
    """The installed console script, as a user runs it; asserts no traceback reached them."""
    full_env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", **(env or {})}
    preexec = (lambda: os.umask(umask)) if umask is not None else None
    proc = subprocess.run(
        [str(STRAIGHTLINE), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=full_env,
        timeout=timeout,
        preexec_fn=preexec,
    )
    assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr + proc.stdout
    return proc


def write(path: Path, value: Any) -> Path:
    """A file (JSON for a dict or list), its directory made first."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(value, bytes):
        path.write_bytes(value)
    else:
        path.write_text(value if isinstance(value, str) else json.dumps(value), encoding="utf-8")
    return path


def import_from(path_entry: Path, code: str, *, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run `code` in a fresh interpreter that sees only the standard library and `path_entry`
    (no site-packages, so a module can only come from there)."""
    return subprocess.run(
        [sys.executable, "-S", "-c", code],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={
            "PYTHONPATH": str(path_entry),
            "PATH": os.environ.get("PATH", ""),
            "PYTHONDONTWRITEBYTECODE": "1",
        },
    )
