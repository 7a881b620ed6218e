"""The wheel ships the templates inside the package and works without the source tree."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from .conftest import ROOT


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(ROOT)],
        capture_output=True, text=True, timeout=300,
    )
    if result.returncode != 0:
        pytest.fail(f"building the wheel failed:\n{result.stderr[-2000:]}")
    (built,) = out.glob("straightline-*.whl")
    return built


def test_wheel_contains_package_templates_and_entry_point(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert "generator/templates/module.py.j2" in names
    assert "generator/api.py" in names
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "straightline = generator.cli:main" in text


def test_installed_wheel_finds_templates_through_the_package(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    script = (
        "import generator, pathlib, sys\n"
        "assert pathlib.Path(generator.__file__).is_relative_to(sys.argv[1]), generator.__file__\n"
        "m = generator.compile_module({'type': 'string', 'maxLength': 2}, profile='strict')\n"
        "print(m.is_valid('ab'), m.is_valid('abc'))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script, str(site)],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
        env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "False"]
