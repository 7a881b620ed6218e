"""The build hooks, as a user's build runs them: a small example project's wheel is built
OFFLINE (pip without build isolation and without an index, using the hatchling/setuptools and
straightline installed here), installed into a temporary target, and its generated contract
module imported from there in a fresh interpreter."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from generator.build.setuptools_command import package_name

from .helpers import import_from, write

pytest.importorskip("hatchling")

ORDER = {
    "type": "object",
    "properties": {"id": {"type": "integer", "minimum": 1}},
    "required": ["id"],
}
HATCH_PROJECT = """
[build-system]
requires = ["hatchling", "straightline"]
build-backend = "hatchling.build"

[project]
name = "example-app"
version = "0.1.0"

[tool.hatch.build.targets.wheel]
packages = ["src/example_app"]

[tool.hatch.build.hooks.straightline]

[tool.straightline]
out = "src/example_app/contracts"
contracts = ["schemas/*.json", "schemas/*.yaml"]
"""
SETUPTOOLS_PROJECT = """
[build-system]
requires = ["setuptools>=70.1", "straightline"]
build-backend = "setuptools.build_meta"

[project]
name = "example-app"
version = "0.1.0"

[tool.setuptools]
package-dir = {"" = "src"}
packages = ["example_app"]

[tool.setuptools.cmdclass]
build_py = "generator.build.setuptools_command.build_py"

[tool.straightline]
out = "src/example_app/contracts"
contracts = ["schemas/*.json", "schemas/*.yaml"]
"""
CHECK = (
    "import example_app.contracts.order as order, example_app.contracts.point as point\n"
    "print(order.__file__)\n"
    "print(order.is_valid({'id': 1}), order.is_valid({'id': 0}), point.is_valid([1, 2]), point.is_valid([1]))\n"
)


def offline_env() -> dict[str, str]:
    """pip that cannot reach any index, whatever the machine's pip configuration says."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env.update(
        PIP_CONFIG_FILE=os.devnull,
        PIP_NO_INDEX="1",
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        PYTHONDONTWRITEBYTECODE="1",
    )
    return env


def pip(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "pip", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=offline_env(),
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc


def example(tmp_path: Path, config: str) -> Path:
    project = tmp_path / "example"
    write(project / "pyproject.toml", config)
    write(project / "src" / "example_app" / "__init__.py", '"""An application with contracts."""\n')
    write(project / "schemas" / "order.json", ORDER)
    write(project / "schemas" / "point.yaml", "type: array\nminItems: 2\nitems: {type: number}\n")
    write(
        project / ".gitignore", "src/example_app/contracts/\n"
    )  # generated files are not committed
    return project


def build_install_import(project: Path, tmp_path: Path) -> list[str]:
    """Build the wheel offline, install it into a fresh target, import from there."""
    dist = tmp_path / "dist"
    pip(
        "wheel",
        "--no-build-isolation",
        "--no-deps",
        "--no-index",
        "-w",
        str(dist),
        str(project),
        cwd=tmp_path,
    )
    (wheel,) = dist.glob("example_app-0.1.0-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {
        "example_app/contracts/__init__.py",
        "example_app/contracts/order.py",
        "example_app/contracts/point.py",
    } <= names, names
    target = tmp_path / "target"
    pip("install", "--no-deps", "--no-index", "--target", str(target), str(wheel), cwd=tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    imported = import_from(target, CHECK, cwd=elsewhere)
    assert imported.returncode == 0, imported.stderr
    module_file, answers = imported.stdout.splitlines()
    assert Path(module_file).is_relative_to(target)  # from the installed wheel, not the project
    return answers.split()


def test_hatch_hook_compiles_the_contracts_into_the_wheel(tmp_path: Path) -> None:
    project = example(tmp_path, HATCH_PROJECT)
    assert build_install_import(project, tmp_path) == ["True", "False", "True", "False"]


def failed_build(project: Path, tmp_path: Path) -> str:
    """Build the wheel offline, which must fail; the build's output (no wheel may be left)."""
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-build-isolation",
            "--no-deps",
            "--no-index",
            "-w",
            str(tmp_path / "dist"),
            str(project),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=offline_env(),
        timeout=600,
    )
    assert proc.returncode != 0
    assert not (tmp_path / "dist").exists() or not list((tmp_path / "dist").glob("*.whl"))
    return proc.stdout + proc.stderr


@pytest.mark.parametrize("config", [HATCH_PROJECT, SETUPTOOLS_PROJECT], ids=["hatch", "setuptools"])
def test_a_failing_contract_fails_the_build_with_its_message_alone(
    config: str, tmp_path: Path
) -> None:
    """The hook ends the build backend with the message (SystemExit), so the frontend shows the
    contract's place and no traceback of the backend around it."""
    if config is SETUPTOOLS_PROJECT:
        pytest.importorskip("setuptools", minversion="70.1")
    project = example(tmp_path, config)
    write(project / "schemas" / "broken.json", {"type": "strin"})
    output = failed_build(project, tmp_path)
    assert "straightline: could not compile the project's contracts:\n" in "\n".join(
        line.strip() for line in output.splitlines()
    ), output
    assert "schemas/broken.json:/type: unknown type 'strin'" in output
    assert "Traceback" not in output and "BuildError" not in output, output


def test_a_bad_project_table_fails_the_build_with_its_message_alone(tmp_path: Path) -> None:
    project = example(
        tmp_path,
        HATCH_PROJECT.replace(
            'contracts = ["schemas/*.json", "schemas/*.yaml"]',
            'contracts = ["schemas/*.json"]\nprofil = "strict"',
        ),
    )
    output = failed_build(project, tmp_path)
    assert "[tool.straightline] unknown key 'profil' (did you mean 'profile'?)" in output, output
    assert "Traceback" not in output and "ConfigError" not in output, output


def test_setuptools_build_py_compiles_the_contracts_into_the_wheel(tmp_path: Path) -> None:
    pytest.importorskip("setuptools", minversion="70.1")
    project = example(tmp_path, SETUPTOOLS_PROJECT)
    assert build_install_import(project, tmp_path) == ["True", "False", "True", "False"]


def test_package_names_follow_package_dir(tmp_path: Path) -> None:
    root = tmp_path.resolve()
    assert package_name(root / "src" / "app" / "contracts", root, {"": "src"}) == "app.contracts"
    assert package_name(root / "app" / "contracts", root, {}) == "app.contracts"
    assert package_name(root / "lib" / "x", root, {"app": "lib"}) == "app.x"
    assert package_name(root / "lib", root, {"app": "lib"}) == "app"


NATIVE_PROJECT = HATCH_PROJECT.replace(
    'contracts = ["schemas/*.json", "schemas/*.yaml"]',
    'contracts = ["schemas/order.json"]\nnative = true',
)


@pytest.mark.skipif(
    shutil.which("cc") is None and shutil.which("gcc") is None, reason="no C compiler"
)
def test_hatch_hook_builds_native_modules_into_a_platform_wheel(tmp_path: Path) -> None:
    """native = true: the C extension is in the wheel (a C build has no separate library, unlike
    mypyc's), the wheel is tagged for this interpreter and platform, and the installed package
    imports the extension."""
    from generator.native import EXTENSION_SUFFIX

    project = example(tmp_path, NATIVE_PROJECT)
    dist = tmp_path / "dist"
    pip(
        "wheel",
        "--no-build-isolation",
        "--no-deps",
        "--no-index",
        "-w",
        str(dist),
        str(project),
        cwd=tmp_path,
    )
    (wheel,) = dist.glob("example_app-0.1.0-*.whl")
    assert not wheel.name.endswith("-py3-none-any.whl"), wheel.name
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {
        "example_app/contracts/order.py",
        f"example_app/contracts/order{EXTENSION_SUFFIX}",
    } <= names, names
    assert not any("__mypyc" in name for name in names), names  # C is the default backend
    assert not any(name.endswith(".json") for name in names)  # the build record stays in the tree
    target = tmp_path / "target"
    pip("install", "--no-deps", "--no-index", "--target", str(target), str(wheel), cwd=tmp_path)
    probe = "import example_app.contracts.order as order\nprint(order.__file__, order.is_valid({'id': 1}), order.is_valid({'id': 0}))\n"
    (tmp_path / "elsewhere").mkdir()
    imported = import_from(target, probe, cwd=tmp_path / "elsewhere")
    assert imported.returncode == 0, imported.stderr
    module_file, valid, invalid = imported.stdout.split()
    assert module_file.endswith(EXTENSION_SUFFIX) and Path(module_file).is_relative_to(target)
    assert (valid, invalid) == ("True", "False")
