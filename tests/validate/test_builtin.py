"""Built-in schemas (generator/builtin/): the precompiled modules are what the vendored schemas
compile to, every entry has its files, licence and origin, `--builtin-schema` and
`--list-builtin` work through the command, and SchemaStore's own samples of GitHub workflows,
Dependabot and pyproject.toml (tests/validate/schemastore/, Apache 2.0, its LICENSE beside them)
validate as labelled, both through the built-in schemas and from the vendored schema files."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from generator.builtin import BUILTINS, MODULES, VENDOR, find
from generator.errors import OptionError
from generator.validate.modules import ModuleSource

from .conftest import HANG_LIMIT, run, write
from .test_command import BLOCKED

SAMPLES = Path(__file__).parent / "schemastore"
# (SchemaStore's test directory, the built-in schema, the vendored file it is compiled from)
SAMPLE_SETS = [
    ("github-workflow", "vendor.github-workflows", "schemastore/github-workflow.json"),
    ("dependabot-2.0", "vendor.dependabot", "schemastore/dependabot-2.0.json"),
    ("pyproject", "vendor.pyproject", "schemastore/pyproject.json"),
]


def test_the_precompiled_modules_are_what_the_vendored_schemas_compile_to() -> None:
    from generator.builtin.build import stale

    assert stale() == []  # else: make builtin


def test_every_builtin_has_its_schema_licence_origin_and_a_module_that_loads() -> None:
    origin = (VENDOR / "ORIGIN.md").read_text(encoding="utf-8")
    for builtin in BUILTINS:
        assert (VENDOR / builtin.source).is_file(), builtin.source
        assert (
            "licen" in (VENDOR / builtin.licence).read_text(encoding="utf-8").lower()
        ), builtin.licence
        assert f"| {builtin.full_name} | {Path(builtin.source).name} |" in origin, builtin.name
        module = ModuleSource.from_path(builtin.module_path).load()
        assert callable(module.is_valid) and callable(module.errors), builtin.name
        re.compile(builtin.files)
        assert find(builtin.name) is find(builtin.full_name) is builtin
    assert sorted(path.stem for path in MODULES.glob("*.py") if path.stem != "__init__") == sorted(
        builtin.module for builtin in BUILTINS
    )


def test_the_names_check_jsonschema_users_know_are_there() -> None:
    for name in (
        "vendor.github-workflows",
        "vendor.github-actions",
        "vendor.dependabot",
        "vendor.gitlab-ci",
        "vendor.readthedocs",
        "vendor.renovate",
        "vendor.compose-spec",
        "vendor.pyproject",
    ):
        assert find(name).full_name == name


def test_an_unknown_name_is_refused_with_the_close_ones() -> None:
    with pytest.raises(
        OptionError, match=r"no such built-in schema; did you mean vendor\.github-workflows"
    ):
        find("vendor.github-workflow")
    with pytest.raises(OptionError, match="--list-builtin lists them"):
        find("nothing-like-it")


@pytest.mark.parametrize(("directory", "builtin", "schema"), SAMPLE_SETS)
@pytest.mark.parametrize("through", ["builtin", "schema file"])
def test_schemastore_samples_validate_as_labelled(
    tmp_path: Path, directory: str, builtin: str, schema: str, through: str
) -> None:
    if through == "builtin":
        chosen = ["--builtin-schema", builtin]
    else:
        chosen = ["--schema", VENDOR / schema, "--registry", VENDOR / "schemastore"]
    for label, status in (("valid", 0), ("invalid", 1)):
        folder = SAMPLES / label / directory
        count = len(list(folder.iterdir()))
        result = run(*chosen, "--output", "json", folder, cwd=tmp_path)
        assert result.returncode == status, result.stderr
        report = json.loads(result.stdout)
        wrong = [
            entry["file"]
            for entry in report["files"]
            if entry["valid"] != (label == "valid") or entry["unreadable"] or entry["records"] != 1
        ]
        assert wrong == [], f"{label} samples not {label}: {wrong}"
        assert report["summary"]["files"] == count > 0


def test_list_builtin_lists_every_name_with_what_it_checks(tmp_path: Path) -> None:
    result = run("--list-builtin", cwd=tmp_path)
    assert result.returncode == 0
    assert [line.split()[0] for line in result.stdout.splitlines()] == [
        b.full_name for b in BUILTINS
    ]
    assert re.search(r"^vendor\.github-workflows +GitHub workflows$", result.stdout, re.M)


def test_builtin_schema_through_the_command_never_imports_the_compiler(tmp_path: Path) -> None:
    blocker = tmp_path / "blocker"
    write(
        blocker / "sitecustomize.py",
        f"""
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if any(name == b or name.startswith(b + ".") for b in {BLOCKED!r}):
            raise ImportError("blocked: " + name)
sys.meta_path.insert(0, Block())
""",
    )
    write(
        tmp_path / ".github" / "dependabot.yml",
        "version: 2\nupdates:\n  - package-ecosystem: pip\n    directory: /\n    schedule: {interval: daily}\n",
    )
    write(tmp_path / "bad.yml", "version: 2\nupdates:\n  - package-ecosystem: pip\n")
    result = run(
        "--builtin-schema",
        "vendor.dependabot",
        ".github/dependabot.yml",
        "bad.yml",
        cwd=tmp_path,
        env={"PYTHONPATH": str(blocker)},
    )
    assert result.returncode == 1, result.stderr
    assert "blocked" not in result.stderr
    assert result.stdout.startswith("bad.yml:/updates/0: ")
    assert result.stdout.endswith("2 records in 2 files: 1 valid, 1 invalid, 0 unreadable\n")


def test_builtin_schema_takes_no_compile_options_and_one_schema_only(tmp_path: Path) -> None:
    write(tmp_path / "a.json", {})
    refused = run(
        "--builtin-schema", "vendor.dependabot", "--profile", "draft7", "a.json", cwd=tmp_path
    )
    assert refused.returncode == 2
    assert refused.stderr == (
        "straightline validate: --profile: compile options, for --schema only "
        "(a built-in schema is already compiled)\n"
    )
    unknown = run("--builtin-schema", "vendor.nope", "a.json", cwd=tmp_path)
    assert (unknown.returncode, unknown.stdout) == (2, "")
    assert "--builtin-schema vendor.nope: no such built-in schema" in unknown.stderr
    both = run("--builtin-schema", "vendor.dependabot", "--module", "m.py", "a.json", cwd=tmp_path)
    assert both.returncode == 2 and "not allowed with argument" in both.stderr
    neither = run("a.json", cwd=tmp_path)
    assert (neither.returncode, neither.stderr) == (
        2,
        "straightline validate: say what to validate against: --schema FILE, --module FILE or "
        "--builtin-schema NAME\n",
    )
    no_data = run("--builtin-schema", "vendor.dependabot", cwd=tmp_path)
    assert no_data.returncode == 2 and "no DATA" in no_data.stderr


def test_a_github_workflow_in_yaml_is_read_with_its_on_key(tmp_path: Path) -> None:
    """YAML 1.2: `on:` is the key "on" (YAML 1.1 made it true, and every workflow unreadable)."""
    write(
        tmp_path / "ci.yml",
        "name: ci\non:\n  push:\n    branches: [main]\njobs:\n  test:\n"
        "    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n",
    )
    write(tmp_path / "no-jobs.yml", "on: push\n")
    result = run(
        "--builtin-schema", "vendor.github-workflows", "ci.yml", "no-jobs.yml", cwd=tmp_path
    )
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        'no-jobs.yml:(root): "jobs" is a required property',
        "2 records in 2 files: 1 valid, 1 invalid, 0 unreadable",
    ]


def test_a_pyproject_toml_is_validated_by_the_builtin_schema(tmp_path: Path) -> None:
    write(
        tmp_path / "good" / "pyproject.toml",
        '[project]\nname = "app"\nversion = "1.0"\n' '[build-system]\nrequires = ["hatchling"]\n',
    )
    write(tmp_path / "bad" / "pyproject.toml", '[project]\nname = "app"\nversion = 1\n')
    result = run("--builtin-schema", "vendor.pyproject", "good", "bad", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith(os.path.join("bad", "pyproject.toml") + ":/project/version: ")
    assert lines[-1] == "2 records in 2 files: 1 valid, 1 invalid, 0 unreadable"
    assert result.stderr == ""


def test_the_modules_import_as_a_package(tmp_path: Path) -> None:
    """The modules are part of the package: importable as generator.builtin.modules.NAME."""
    code = (
        "import importlib, generator.builtin as b\n"
        "for x in b.BUILTINS: importlib.import_module('generator.builtin.modules.' + x.module)\n"
        "print(len(b.BUILTINS))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=HANG_LIMIT,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(len(BUILTINS))


def test_check_jsonschemas_custom_timeout_schema_is_there_too(tmp_path: Path) -> None:
    write(
        tmp_path / "ok.yml",
        "on: push\njobs:\n  a:\n    runs-on: x\n    timeout-minutes: 5\n    steps: []\n",
    )
    write(tmp_path / "no-timeout.yml", "on: push\njobs:\n  a:\n    runs-on: x\n    steps: []\n")
    result = run(
        "--builtin-schema",
        "custom.github-workflows-require-timeout",
        "ok.yml",
        "no-timeout.yml",
        cwd=tmp_path,
    )
    assert result.returncode == 1, result.stderr
    assert result.stdout.startswith("no-timeout.yml:/jobs/a: ")
    assert result.stdout.endswith("2 records in 2 files: 1 valid, 1 invalid, 0 unreadable\n")


def test_a_gitlab_ci_file_with_anchors_merges_and_references(tmp_path: Path) -> None:
    write(
        tmp_path / ".gitlab-ci.yml",
        "stages: [test]\n.base: &base\n  image: python:3.12\n  before_script: [pip install .]\n"
        "test:\n  <<: *base\n  stage: test\n  script:\n    - !reference [.base, before_script]\n"
        "    - pytest\n",
    )
    write(tmp_path / "bad" / ".gitlab-ci.yml", "test:\n  stage: test\n  script: 7\n")
    result = run(
        "--builtin-schema", "vendor.gitlab-ci", ".gitlab-ci.yml", "bad/.gitlab-ci.yml", cwd=tmp_path
    )
    assert result.returncode == 1, result.stderr
    assert result.stdout.startswith("bad/.gitlab-ci.yml:")
    assert result.stdout.endswith("2 records in 2 files: 1 valid, 1 invalid, 0 unreadable\n")


@pytest.fixture
def one_builtin_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """generator.builtin.build with its modules directory in tmp_path (tmp_path/modules) and one
    built-in schema, the smallest (its compile is quick)."""
    import generator.builtin
    from generator.builtin import build

    smallest = min(BUILTINS, key=lambda b: (VENDOR / b.source).stat().st_size)
    modules = tmp_path / "modules"
    modules.mkdir()
    monkeypatch.setattr(generator.builtin, "MODULES", modules)
    monkeypatch.setattr(build, "MODULES", modules)
    monkeypatch.setattr(build, "BUILTINS", [smallest])
    return build, smallest


def test_make_builtin_writes_the_modules_and_check_names_each_stale_one(
    one_builtin_in: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build, builtin = one_builtin_in
    modules = tmp_path / "modules"
    (modules / "retired.py").write_text("# a module no built-in compiles to any more\n")
    assert build.main([]) == 0
    assert sorted(p.name for p in modules.iterdir()) == ["__init__.py", builtin.module + ".py"]
    module = ModuleSource.from_path(modules / f"{builtin.module}.py").load()
    assert callable(module.is_valid)
    assert build.main(["--check"]) == 0 and capsys.readouterr().err == ""

    (modules / f"{builtin.module}.py").write_text("# edited\n")
    (modules / "__init__.py").write_text("")
    (modules / "extra.py").write_text("")
    assert build.main(["--check"]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"generator/builtin/modules/{builtin.module}.py: stale (regenerate: make builtin)",
        "generator/builtin/modules/__init__.py: missing or changed (regenerate: make builtin)",
        "generator/builtin/modules/extra.py: no built-in schema compiles to it "
        "(regenerate: make builtin)",
    ]
    (modules / f"{builtin.module}.py").unlink()
    assert f"modules/{builtin.module}.py: missing" in build.stale()[0]


def test_make_builtin_refuses_arguments_it_does_not_know(
    one_builtin_in: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build, _ = one_builtin_in
    assert build.main(["--chek"]) == 2
    assert "usage: python -m generator.builtin.build [--check]" in capsys.readouterr().err
    assert list((tmp_path / "modules").iterdir()) == []  # nothing built


def test_a_module_that_cannot_be_written_leaves_no_temporary_file(tmp_path: Path) -> None:
    from generator.builtin.build import _write

    (tmp_path / "taken.py").mkdir()  # a directory where the module goes: the rename fails
    with pytest.raises(OSError):
        _write(tmp_path / "taken.py", "x = 1\n")
    assert [p.name for p in tmp_path.iterdir()] == ["taken.py"]
