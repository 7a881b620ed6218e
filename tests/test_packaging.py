"""The wheel and the sdist build OFFLINE from the checkout (pip and hatchling as installed here,
no build isolation, no index), ship the templates, the LICENSE and the metadata, and work
installed without the source tree."""

from __future__ import annotations

import email
import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from .conftest import ROOT

pytest.importorskip("hatchling")


def _offline_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    return env


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        args, capture_output=True, text=True, timeout=600, cwd=cwd, env=_offline_env()
    )
    if result.returncode != 0:
        pytest.fail(f"{' '.join(args)} failed:\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}")
    return result


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "--quiet",
            "-w",
            str(out),
            str(ROOT),
        ],
        cwd=out,
    )
    (built,) = out.glob("straightline-*.whl")
    return built


@pytest.fixture(scope="module")
def sdist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sdist")
    # the PEP 517 hook itself, as `python -m build --sdist --no-isolation` would call it
    _run(
        [
            sys.executable,
            "-c",
            "import sys, hatchling.build as b; print(b.build_sdist(sys.argv[1]))",
            str(out),
        ],
        cwd=ROOT,
    )
    (built,) = out.glob("straightline-*.tar.gz")
    return built


def test_wheel_contains_package_templates_and_entry_point(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert "generator/templates/module.py.j2" in names
    assert "generator/api.py" in names
    assert "generator/build/hatch_hook.py" in names
    assert "generator/native/guard.h" in names  # (a native build includes it in the C it compiles)
    assert "generator/native/stack.h" in names
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "straightline = generator.cli:main" in text
    assert "[hatch]\nstraightline = generator.build.hatch_hook" in text


def test_wheel_ships_the_builtin_schemas_precompiled_with_their_licences(wheel: Path) -> None:
    from generator.builtin import BUILTINS

    names = set(zipfile.ZipFile(wheel).namelist())
    for builtin in BUILTINS:
        assert f"generator/builtin/modules/{builtin.module}.py" in names
        assert f"generator/builtin/vendor/{builtin.licence}" in names
    assert "generator/builtin/vendor/ORIGIN.md" in names


def test_wheel_metadata_license_and_readme(wheel: Path) -> None:
    archive = zipfile.ZipFile(wheel)
    names = archive.namelist()
    license_file = next(n for n in names if n.endswith(".dist-info/licenses/LICENSE"))
    assert "Copyright (c) 2026 the straightline authors" in archive.read(license_file).decode()
    metadata = email.message_from_bytes(
        archive.read(next(n for n in names if n.endswith(".dist-info/METADATA")))
    )
    assert metadata["License-Expression"] == "MIT"
    assert metadata["Requires-Python"] == ">=3.11"
    assert metadata["Description-Content-Type"] == "text/markdown"
    assert metadata.get_payload().startswith("# straightline")
    classifiers = metadata.get_all("Classifier")
    assert (
        "Programming Language :: Python :: 3.11" in classifiers
        and "Framework :: Hatch" in classifiers
    )
    assert metadata.get_all("Project-URL") is None  # no URL is known yet: none is invented
    assert "yaml" in metadata.get_all("Provides-Extra")


def test_sdist_has_the_license_hooks_manifest_and_sources(sdist: Path) -> None:
    names = {name.split("/", 1)[1] for name in tarfile.open(sdist).getnames() if "/" in name}
    assert {
        "LICENSE",
        "README.md",
        "pyproject.toml",
        ".pre-commit-hooks.yaml",
        "generator/api.py",
        "templates/module.py.j2",
    } <= names


def _works_installed(site: Path, tmp_path: Path) -> None:
    script = (
        "import generator, pathlib, sys\n"
        "assert pathlib.Path(generator.__file__).is_relative_to(sys.argv[1]), generator.__file__\n"
        "m = generator.compile_module({'type': 'string', 'maxLength': 2}, profile='strict')\n"
        "print(m.is_valid('ab'), m.is_valid('abc'))\n"
    )
    # the dependencies (jinja2, black) come from this environment, after the installed copy
    deps = [p for p in sys.path if p.endswith("site-packages")]
    result = subprocess.run(
        [sys.executable, "-S", "-c", script, str(site)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={"PYTHONPATH": os.pathsep.join([str(site), *deps]), "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "False"]


def test_installed_wheel_finds_templates_through_the_package(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--no-index",
            "--target",
            str(site),
            str(wheel),
        ],
        cwd=tmp_path,
    )
    _works_installed(site, tmp_path)


def test_sdist_builds_and_installs_offline(sdist: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--no-index",
            "--no-build-isolation",
            "--target",
            str(site),
            str(sdist),
        ],
        cwd=tmp_path,
    )
    assert (site / "generator" / "templates" / "module.py.j2").is_file()
    _works_installed(site, tmp_path)
