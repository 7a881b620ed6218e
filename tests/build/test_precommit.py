"""The published pre-commit hooks (.pre-commit-hooks.yaml), run by pre-commit itself on a
temporary git repository, against a snapshot of this checkout, with no network.

The hooks are `language: python`, as pre-commit users expect (pre-commit makes an environment
and pip-installs the hook repository into it). To run exactly that offline, pip is given a local
wheelhouse packed from this environment's installed distributions (tests/build/wheelhouse.py)
and no index (PIP_NO_INDEX, PIP_FIND_LINKS, no pip configuration): the hook environment is built
as a user's would be (an isolated build of straightline with hatchling, then jinja2, black and
PyYAML), only from local files."""

from __future__ import annotations

import importlib.metadata as metadata
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .helpers import ROOT, write
from .wheelhouse import build_wheelhouse

pytest.importorskip("pre_commit")
pytest.importorskip("hatchling")
if shutil.which("git") is None:
    pytest.skip("git is not installed", allow_module_level=True)

# What the hook repository needs to be pip-installed (what the sdist holds, less the tests).
HOOK_REPO_FILES = ("pyproject.toml", "README.md", "LICENSE", ".pre-commit-hooks.yaml", "generator", "templates")


def git(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=600)
    return proc


@pytest.fixture(scope="module")
def offline(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of every command: pip with a local wheelhouse and no index, pre-commit's
    cache in a temporary directory, git with an identity and no user configuration."""
    base = tmp_path_factory.mktemp("offline")
    runtime = [r for r in metadata.requires("straightline") or [] if "extra ==" not in r]
    build_wheelhouse([*runtime, "hatchling", "pyyaml"], base / "wheelhouse")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "VIRTUALENV_", "GIT_", "PRE_COMMIT"))}
    env.update(
        PIP_CONFIG_FILE=os.devnull, PIP_NO_INDEX="1", PIP_FIND_LINKS=str(base / "wheelhouse"),
        PIP_DISABLE_PIP_VERSION_CHECK="1", VIRTUALENV_NO_PERIODIC_UPDATE="1",
        PRE_COMMIT_HOME=str(base / "pre-commit-cache"),
        GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="test", GIT_AUTHOR_EMAIL="test@example.invalid",
        GIT_COMMITTER_NAME="test", GIT_COMMITTER_EMAIL="test@example.invalid",
    )
    return env


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory, offline: dict[str, str]) -> tuple[Path, str]:
    """A git repository holding this checkout's files as they are now (committed or not)."""
    repo = tmp_path_factory.mktemp("hook-repo")
    for name in HOOK_REPO_FILES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, repo / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(source, repo / name)
    for args in (("init", "-q"), ("add", "-A"), ("commit", "-q", "-m", "snapshot")):
        assert git(*args, cwd=repo, env=offline).returncode == 0
    rev = git("rev-parse", "HEAD", cwd=repo, env=offline).stdout.strip()
    return repo, rev


def pre_commit(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pre_commit", *args], cwd=cwd, capture_output=True, text=True,
                          env=env, timeout=900)


def test_published_hooks_guard_a_commit(tmp_path: Path, offline: dict[str, str], hook_repo: tuple[Path, str]) -> None:
    repo, rev = hook_repo
    user = tmp_path / "app"
    write(user / "pyproject.toml", '[tool.straightline]\nout = "gen"\ncontracts = ["schemas/*.json", "schemas/*.yaml"]\n')
    write(user / "schemas" / "order.json", {"type": "object", "properties": {"id": {"type": "integer"}}})
    write(user / "schemas" / "point.yaml", "type: array\nitems: {type: number}\n")
    write(user / ".pre-commit-config.yaml",
          f"repos:\n- repo: {repo}\n  rev: {rev}\n  hooks:\n  - id: straightline-check\n"
          "  - id: straightline-compile\n    stages: [manual]\n")
    assert git("init", "-q", cwd=user, env=offline).returncode == 0
    installed = pre_commit("install", cwd=user, env=offline)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    assert git("add", "-A", cwd=user, env=offline).returncode == 0

    # nothing generated yet: the check hook stops the commit, naming the missing modules
    refused = git("commit", "-q", "-m", "contracts", cwd=user, env=offline)
    assert refused.returncode != 0, refused.stdout
    output = refused.stdout + refused.stderr
    assert "straightline check" in output and "gen/order.py: missing" in output, output[-4000:]
    assert "Traceback" not in output

    # the compile hook writes them; with them added the commit goes through
    compiled = pre_commit("run", "--hook-stage", "manual", "straightline-compile", "--all-files", cwd=user, env=offline)
    assert compiled.returncode == 0, compiled.stdout[-4000:]
    assert (user / "gen" / "order.py").is_file() and (user / "gen" / "point.py").is_file()
    assert git("add", "-A", cwd=user, env=offline).returncode == 0
    accepted = git("commit", "-q", "-m", "contracts", cwd=user, env=offline)
    assert accepted.returncode == 0, (accepted.stdout + accepted.stderr)[-4000:]

    # a contract changes without its module: stopped again, with the reason
    write(user / "schemas" / "point.yaml", "type: array\nitems: {type: integer}\n")
    assert git("add", "-A", cwd=user, env=offline).returncode == 0
    stale = git("commit", "-q", "-m", "integers", cwd=user, env=offline)
    assert stale.returncode != 0
    assert "gen/point.py: stale (the source changed" in stale.stdout + stale.stderr
