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
import re
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
HOOK_REPO_FILES = (
    "pyproject.toml",
    "README.md",
    "LICENSE",
    ".pre-commit-hooks.yaml",
    "generator",
    "templates",
)


def git(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=600
    )
    return proc


@pytest.fixture(scope="module")
def offline(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of every command: pip with a local wheelhouse and no index, pre-commit's
    cache in a temporary directory, git with an identity and no user configuration."""
    base = tmp_path_factory.mktemp("offline")
    runtime = [r for r in metadata.requires("straightline") or [] if "extra ==" not in r]
    build_wheelhouse([*runtime, "hatchling", "pyyaml"], base / "wheelhouse")
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PIP_", "VIRTUALENV_", "GIT_", "PRE_COMMIT"))
    }
    env.update(
        PIP_CONFIG_FILE=os.devnull,
        PIP_NO_INDEX="1",
        PIP_FIND_LINKS=str(base / "wheelhouse"),
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        VIRTUALENV_NO_PERIODIC_UPDATE="1",
        PRE_COMMIT_HOME=str(base / "pre-commit-cache"),
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="test",
        GIT_AUTHOR_EMAIL="test@example.invalid",
        GIT_COMMITTER_NAME="test",
        GIT_COMMITTER_EMAIL="test@example.invalid",
    )
    return env


@pytest.fixture(scope="module")
def hook_repo(
    tmp_path_factory: pytest.TempPathFactory, offline: dict[str, str]
) -> tuple[Path, str]:
    """A git repository holding this checkout's files as they are now (committed or not)."""
    repo = tmp_path_factory.mktemp("hook-repo")
    for name in HOOK_REPO_FILES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(
                source, repo / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
            )
        else:
            shutil.copy2(source, repo / name)
    for args in (("init", "-q"), ("add", "-A"), ("commit", "-q", "-m", "snapshot")):
        assert git(*args, cwd=repo, env=offline).returncode == 0
    rev = git("rev-parse", "HEAD", cwd=repo, env=offline).stdout.strip()
    return repo, rev


def pre_commit(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )


def test_published_hooks_guard_a_commit(
    tmp_path: Path, offline: dict[str, str], hook_repo: tuple[Path, str]
) -> None:
    repo, rev = hook_repo
    user = tmp_path / "app"
    write(
        user / "pyproject.toml",
        '[tool.straightline]\nout = "gen"\ncontracts = ["schemas/*.json", "schemas/*.yaml"]\n',
    )
    write(
        user / "schemas" / "order.json",
        {"type": "object", "properties": {"id": {"type": "integer"}}},
    )
    write(user / "schemas" / "point.yaml", "type: array\nitems: {type: number}\n")
    write(
        user / ".pre-commit-config.yaml",
        f"repos:\n- repo: {repo}\n  rev: {rev}\n  hooks:\n  - id: straightline-check\n"
        "  - id: straightline-compile\n    stages: [manual]\n",
    )
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
    compiled = pre_commit(
        "run",
        "--hook-stage",
        "manual",
        "straightline-compile",
        "--all-files",
        cwd=user,
        env=offline,
    )
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


DATA_HOOKS = (
    "straightline-validate",
    "check-github-workflows",
    "check-github-actions",
    "check-dependabot",
    "check-pyproject",
)


def test_published_data_hooks_check_workflows_actions_dependabot_pyproject_and_a_schema(
    tmp_path: Path, offline: dict[str, str], hook_repo: tuple[Path, str]
) -> None:
    """Each data hook passes a repository whose files are valid and fails, naming the file and
    the problem, once one of its files is not; files its pattern does not pick are left alone."""
    repo, rev = hook_repo
    user = tmp_path / "app"
    hooks = "".join(f"  - id: {hook}\n" for hook in DATA_HOOKS[1:])
    write(
        user / ".pre-commit-config.yaml",
        f"repos:\n- repo: {repo}\n  rev: {rev}\n  hooks:\n  - id: straightline-validate\n"
        "    files: ^config/\n    args: [--schema, schemas/config.json]\n" + hooks,
    )
    write(
        user / "schemas" / "config.json",
        {"type": "object", "required": ["port"], "properties": {"port": {"type": "integer"}}},
    )
    write(user / "config" / "app.yaml", "port: 8080\n")
    write(user / "config" / "db.toml", "port = 5432\n")
    write(user / "other.json", {"not": "checked"})  # no hook picks it
    write(
        user / ".github" / "workflows" / "ci.yml",
        "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make test\n",
    )
    write(
        user / ".github" / "dependabot.yml",
        "version: 2\nupdates:\n  - package-ecosystem: pip\n    directory: /\n    schedule: {interval: weekly}\n",
    )
    write(
        user / "action.yml", "name: a\ndescription: d\nruns:\n  using: node20\n  main: index.js\n"
    )
    write(user / "pyproject.toml", '[project]\nname = "app"\nversion = "1.0"\n')
    assert git("init", "-q", cwd=user, env=offline).returncode == 0
    assert git("add", "-A", cwd=user, env=offline).returncode == 0
    passed = pre_commit("run", "--all-files", cwd=user, env=offline)
    assert passed.returncode == 0, passed.stdout[-4000:] + passed.stderr[-2000:]
    for hook in DATA_HOOKS:
        assert re.search(
            rf"^{re.escape(_hook_name(repo, hook))}\.+Passed$", passed.stdout, re.M
        ), passed.stdout

    breakages = {
        "straightline-validate": (
            "config/db.toml",
            'port = "5432"\n',
            'config/db.toml:/port: "5432" is not of type',
        ),
        "check-github-workflows": (
            ".github/workflows/ci.yml",
            "on: push\n",
            '.github/workflows/ci.yml:(root): "jobs" is a required property',
        ),
        "check-github-actions": (
            "action.yml",
            "name: a\nruns:\n  using: node20\n  main: index.js\n",
            'action.yml:(root): "description" is a required property',
        ),
        "check-dependabot": (
            ".github/dependabot.yml",
            "version: 3\nupdates: []\n",
            ".github/dependabot.yml:/version",
        ),
        "check-pyproject": (
            "pyproject.toml",
            '[project]\nname = "app"\nversion = 1\n',
            "pyproject.toml:/project/version",
        ),
    }
    for hook, (path, broken, expected) in breakages.items():
        original = (user / path).read_text()
        write(user / path, broken)
        failed = pre_commit("run", hook, "--all-files", cwd=user, env=offline)
        assert failed.returncode == 1, failed.stdout[-4000:]
        assert expected in failed.stdout, failed.stdout[-4000:]
        assert "Traceback" not in failed.stdout + failed.stderr
        write(user / path, original)


def _hook_name(repo: Path, hook: str) -> str:
    """The name pre-commit prints for a hook of the repository's .pre-commit-hooks.yaml."""
    import yaml

    (entry,) = [
        h for h in yaml.safe_load((repo / ".pre-commit-hooks.yaml").read_text()) if h["id"] == hook
    ]
    return str(entry["name"])


def test_the_check_hooks_are_the_builtin_schemas() -> None:
    """One check-NAME hook per built-in schema, running it on the files its catalogue entry names."""
    import yaml

    from generator.builtin import BUILTINS

    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    checks = {hook_id: hook for hook_id, hook in hooks.items() if hook_id.startswith("check-")}
    assert sorted(checks) == sorted(f"check-{builtin.name}" for builtin in BUILTINS)
    for builtin in BUILTINS:
        hook = checks[f"check-{builtin.name}"]
        assert hook["entry"] == f"straightline validate --builtin-schema {builtin.full_name}"
        assert hook["files"] == builtin.files
        assert hook["language"] == "python" and hook.get("pass_filenames", True)
