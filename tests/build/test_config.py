"""The project configuration, [tool.straightline] in pyproject.toml: `straightline compile` and
`check` with no SRC do the whole project, found from the current directory upwards; the output
directory is an importable package; every mistake is an error naming the file and the key."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from .helpers import import_from, needs_cli, run, write

pytestmark = needs_cli

ORDER = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "properties": {
        "id": {"type": "integer", "minimum": 1},
        "note": {"$ref": "https://example.com/note.json"},
    },
    "required": ["id"],
    "$defs": {"line": {"type": "string", "maxLength": 3}},
}
NOTE = {"$id": "https://example.com/note.json", "type": "string", "maxLength": 5}
CONFIG = """
[project]
name = "app"

[tool.straightline]
out = "src/app/contracts"
contracts = ["schemas/*.json", "schemas/order.json#/$defs/line"]
registry = "shared"
max-depth = 40

[tool.straightline.groups.draft2020-12]
profile = "strict"
contracts = ["strict/*.json"]
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    write(tmp_path / "pyproject.toml", CONFIG)
    write(tmp_path / "schemas" / "order.json", ORDER)
    write(tmp_path / "shared" / "note.json", NOTE)
    write(
        tmp_path / "strict" / "point-2d.json",
        {"type": "array", "items": {"type": "number"}, "maxItems": 2},
    )
    (tmp_path / "src" / "app").mkdir(parents=True)
    (tmp_path / "src" / "app" / "__init__.py").write_text("")
    return tmp_path


def test_compile_and_check_with_no_arguments_do_the_whole_project(project: Path) -> None:
    below = project / "schemas"  # found from the current directory upwards
    built = run("compile", cwd=below)
    assert built.returncode == 0, built.stderr
    out = project / "src" / "app" / "contracts"
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*.py")) == [
        "__init__.py",
        "draft2020_12/__init__.py",
        "draft2020_12/point_2d.py",
        "order.py",
        "order_line.py",
    ]
    checked = run("check", cwd=below)
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.count("up to date") == 3
    # the settings were applied: the registry, the limit, the fragment, the group's profile
    order_header = (out / "order.py").read_text()
    assert '# options: {"max_depth":40}' in order_header
    assert (
        "# registry-document: " in order_header
        and '"https://example.com/note.json"' in order_header
    )
    assert (
        '# options: {"fragment":"/$defs/line","max_depth":40}'
        in (out / "order_line.py").read_text()
    )
    assert "# requested-profile: strict" in (out / "draft2020_12" / "point_2d.py").read_text()
    # the output is an importable package (only the standard library besides it)
    code = (
        "from app.contracts import order, order_line\n"
        "from app.contracts.draft2020_12 import point_2d\n"
        "print(order.is_valid({'id': 1, 'note': 'short'}), order.is_valid({'id': 1, 'note': 'too long'}),\n"
        "      order_line.is_valid('abc'), order_line.is_valid('abcd'),\n"
        "      point_2d.is_valid([1, 2]), point_2d.is_valid([1, 2, 3]))\n"
    )
    imported = import_from(project / "src", code, cwd=project)
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout.split() == ["True", "False", "True", "False", "True", "False"]


def test_check_in_a_project_reports_what_compile_repairs(project: Path) -> None:
    assert run("compile", cwd=project).returncode == 0
    out = project / "src" / "app" / "contracts"
    # a registry document changed, an __init__.py is missing, a contract was removed
    write(project / "shared" / "note.json", {**NOTE, "maxLength": 6})
    (out / "draft2020_12" / "__init__.py").unlink()
    write(project / "pyproject.toml", CONFIG.replace(', "schemas/order.json#/$defs/line"', ""))
    checked = run("check", cwd=project)
    assert checked.returncode == 1
    lines = checked.stderr.splitlines()
    assert any(
        line.startswith(
            "src/app/contracts/order.py: stale (registry document https://example.com/note.json changed"
        )
        for line in lines
    ), checked.stderr
    assert "src/app/contracts/draft2020_12/__init__.py: missing" in checked.stderr
    assert (
        "src/app/contracts/order_line.py: stale (no contract compiles to it any more"
        in checked.stderr
    )
    # a user's own module in the package is left alone
    write(out / "helpers.py", "VALUE = 1\n")
    built = run("compile", cwd=project)
    assert built.returncode == 0, built.stderr
    assert "order_line.py: removed" in built.stdout
    assert not (out / "order_line.py").exists() and (out / "helpers.py").exists()
    assert run("check", cwd=project).returncode == 0


def test_a_users_own_init_is_never_overwritten(project: Path) -> None:
    init = project / "src" / "app" / "contracts" / "__init__.py"
    write(init, "from .order import is_valid as order_is_valid\n")
    assert run("compile", cwd=project).returncode == 0
    assert init.read_text() == "from .order import is_valid as order_is_valid\n"


def test_a_users_own_module_in_a_contracts_place_is_never_overwritten(project: Path) -> None:
    # order.py written by hand where schemas/order.json compiles to: refused, kept byte for byte,
    # and the other contracts are still written (the failure is reported, exit status 1).
    mine = project / "src" / "app" / "contracts" / "order.py"
    write(mine, "def helper():\n    return 42\n")
    built = run("compile", cwd=project)
    assert built.returncode == 1
    assert (
        "src/app/contracts/order.py: not overwritten: it is not a module straightline wrote "
        "(move it away, or choose another --out, to compile schemas/order.json)"
    ) in built.stderr
    assert mine.read_text() == "def helper():\n    return 42\n"
    assert (project / "src" / "app" / "contracts" / "order_line.py").exists()
    checked = run("check", cwd=project)
    assert (
        checked.returncode == 1
        and "order.py: not a module straightline wrote (move it away" in checked.stderr
    )
    mine.unlink()
    assert run("compile", cwd=project).returncode == 0
    assert run("compile", cwd=project).returncode == 0  # its own module is rewritten freely


def test_no_configuration_is_a_clear_error(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", "[project]\nname = 'x'\n")  # no [tool.straightline]
    for command in ("compile", "check", "preflight"):
        proc = run(command, cwd=tmp_path)
        assert proc.returncode == 2
        assert "no pyproject.toml with a [tool.straightline] table in" in proc.stderr, proc.stderr
        # what to do instead fits every command (preflight takes no --out)
        assert "or name the contracts: SRC... (and --out DIR to compile or check)" in proc.stderr
    named = run("check", "--config", str(tmp_path / "pyproject.toml"), cwd=tmp_path)
    assert named.returncode == 2 and "has no [tool.straightline] table" in named.stderr


BAD_CONFIGS = {
    "unknown key, with the one it looks like": (
        'out = "gen"\ncontracts = ["a.json"]\nprofil = "strict"\n',
        "[tool.straightline] unknown key 'profil' (did you mean 'profile'?)",
    ),
    "snake case key": (
        'out = "gen"\ncontracts = ["a.json"]\nmax_depth = 3\n',
        "unknown key 'max_depth' (did you mean 'max-depth'?)",
    ),
    "unknown key in a group": (
        'out = "gen"\n[tool.straightline.groups.g]\ncontracts = ["a.json"]\nregistery = "x"\n',
        "[tool.straightline.groups.g] unknown key 'registery' (did you mean 'registry'?)",
    ),
    "unknown profile": (
        'out = "gen"\ncontracts = ["a.json"]\nprofile = "draft2021"\n',
        "profile: unknown profile 'draft2021'; choose one of:",
    ),
    "limit of the wrong type": (
        'out = "gen"\ncontracts = ["a.json"]\nmax-depth = "5"\n',
        "max-depth: must be a positive integer, not '5'",
    ),
    "limit out of range": (
        'out = "gen"\ncontracts = ["a.json"]\nmax-depth = 500\n',
        "max-depth: may be at most",
    ),
    "policy": (
        'out = "gen"\ncontracts = ["a.json"]\nunknown-keywords = "loud"\n',
        "unknown-keywords: must be one of ignore, warn, error, not 'loud'",
    ),
    "unsafe-pattern policy": (
        'out = "gen"\ncontracts = ["a.json"]\nunsafe-patterns = "never"\n',
        "unsafe-patterns: must be one of allow, warn, error, not 'never'",
    ),
    "no out": ('contracts = ["a.json"]\n', "needs `out`"),
    "out not a package name": (
        'out = "gen/my-contracts"\ncontracts = ["a.json"]\n',
        "out: 'my-contracts' is not an importable package name (try 'my_contracts')",
    ),
    "out outside the project": (
        'out = "../gen"\ncontracts = ["a.json"]\n',
        "out: '../gen' must be a directory inside the project",
    ),
    "out an absolute path": (
        'out = "/tmp/gen"\ncontracts = ["a.json"]\n',
        "out: '/tmp/gen' must be a directory inside the project",
    ),
    "contracts not a list": (
        'out = "gen"\ncontracts = "a.json"\n',
        "contracts: must be a non-empty list",
    ),
    "glob matching nothing": (
        'out = "gen"\ncontracts = ["schemas/*.json"]\n',
        "contracts: 'schemas/*.json' matches no file",
    ),
    "missing file": ('out = "gen"\ncontracts = ["b.json"]\n', "contracts: 'b.json' is not a file"),
    "path outside the project": (
        'out = "gen"\ncontracts = ["../a.json"]\n',
        "must be a path inside the project",
    ),
    "bad fragment": (
        'out = "gen"\ncontracts = ["a.json#defs"]\n',
        "the part after '#' must be a JSON pointer",
    ),
    "registry not a directory": (
        'out = "gen"\ncontracts = ["a.json"]\nregistry = "nowhere"\n',
        "registry: 'nowhere' is not a directory",
    ),
    "two contracts, one module": (
        'out = "gen"\ncontracts = ["a.json", "x/a.json"]\n',
        "contracts a.json and x/a.json would both be written to gen/a.py",
    ),
    "two groups, one package": (
        'out = "gen"\n[tool.straightline.groups.a-b]\ncontracts = ["a.json"]\n'
        '[tool.straightline.groups.a_b]\ncontracts = ["x/a.json"]\n',
        "[tool.straightline.groups.a_b] is written to a_b/, as group 'a-b' is",
    ),
    "a module named as a group's package": (
        'out = "gen"\ncontracts = ["a.json"]\n[tool.straightline.groups.a]\ncontracts = ["x/a.json"]\n',
        "[tool.straightline.groups.a] its package gen/a/ has the name of the module gen/a.py of contract a.json",
    ),
    "no contracts at all": ('out = "gen"\n', "lists no contracts"),
    "not TOML": ('out = "gen\n', "not valid TOML"),
}


@pytest.mark.parametrize("case", list(BAD_CONFIGS))
def test_a_wrong_key_or_value_is_an_error_naming_it(tmp_path: Path, case: str) -> None:
    table, expected = BAD_CONFIGS[case]
    write(tmp_path / "a.json", {"type": "string"})
    write(tmp_path / "x" / "a.json", {"type": "string"})
    write(tmp_path / "pyproject.toml", "[tool.straightline]\n" + table)
    proc = run("compile", "--config", "pyproject.toml", cwd=tmp_path)
    assert proc.returncode == 2, proc.stdout
    assert "pyproject.toml" in proc.stderr
    assert expected in proc.stderr, proc.stderr
    assert not (tmp_path / "gen").exists(), "a configuration error must write nothing"


def test_a_group_package_that_would_shadow_a_module_is_refused(tmp_path: Path) -> None:
    """A group named like a module of `out` (its name made an identifier: group "a-b", contract
    a_b.json): compile wrote both gen/a_b.py and the package gen/a_b/, and the import found the
    package only. compile, check and preflight refuse it, and nothing is written."""
    write(tmp_path / "schemas" / "a_b.json", {"type": "string"})
    write(tmp_path / "tools" / "t.json", {"type": "integer"})
    write(
        tmp_path / "pyproject.toml",
        '[tool.straightline]\nout = "pkg/contracts"\ncontracts = ["schemas/*.json"]\n'
        '[tool.straightline.groups.a-b]\ncontracts = ["tools/*.json"]\n',
    )
    for command in ("compile", "check", "preflight"):
        proc = run(command, cwd=tmp_path)
        assert proc.returncode == 2, (command, proc.stdout, proc.stderr)
        assert (
            "[tool.straightline.groups.a-b] its package pkg/contracts/a_b/ has the name of the module "
            "pkg/contracts/a_b.py of contract schemas/a_b.json"
        ) in proc.stderr, (command, proc.stderr)
        assert not (tmp_path / "pkg").exists(), command


def test_flags_do_not_mix_with_the_project(project: Path) -> None:
    proc = run("compile", "--profile", "strict", "--max-depth", "3", cwd=project)
    assert proc.returncode == 2
    assert (
        "--profile, --max-depth: with no SRC the settings come from [tool.straightline]"
        in proc.stderr
    )
    assert run("compile", "a.json", cwd=project).returncode == 2  # SRC without --out
    assert "--out DIR is required with SRC" in run("check", "a.json", cwd=project).stderr


def test_the_modules_do_not_record_where_the_checkout_is(
    project: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """With a registry, a schema is compiled as its file's URI and the registry's files are keyed
    by theirs: relative to the project (file:///schemas/order.json), so that another checkout of the
    same project (CI, a colleague's, a wheel built from an sdist) finds its modules up to date."""
    write(
        project / "schemas" / "order.json",
        {**ORDER, "properties": {**ORDER["properties"], "memo": {"$ref": "../shared/note.json"}}},
    )
    assert run("compile", cwd=project).returncode == 0
    out = project / "src" / "app" / "contracts"
    text = (out / "order.py").read_text()
    assert '# base-uri: "file:///schemas/order.json"' in text
    assert str(project) not in text and project.as_uri() not in text
    assert '"file:///shared/note.json"' in text  # the registry file the relative $ref named
    copy = tmp_path_factory.mktemp("elsewhere") / "checkout"
    shutil.copytree(project, copy)
    checked = run("check", cwd=copy)
    assert checked.returncode == 0, checked.stderr
    assert run("compile", cwd=copy).returncode == 0
    assert (copy / "src" / "app" / "contracts" / "order.py").read_text() == text
    # without the project, relative to the directory the command runs in
    plain = run("compile", "schemas/order.json", "--registry", "shared", "--out", "plain", cwd=copy)
    assert plain.returncode == 0, plain.stderr
    assert '# base-uri: "file:///schemas/order.json"' in (copy / "plain" / "order.py").read_text()
    code = (
        "from app.contracts import order\n"
        "print(order.is_valid({'id': 1, 'memo': 'short'}), order.is_valid({'id': 1, 'memo': 'too long'}))\n"
    )
    imported = import_from(copy / "src", code, cwd=copy)
    assert imported.stdout.split() == ["True", "False"], imported.stderr


def test_an_output_package_a_symbolic_link_takes_out_of_the_project_is_refused(
    tmp_path: Path,
) -> None:
    """`out` (or a group's package) that is, or lies through, a symbolic link to a directory
    outside the project: compile would write there and remove, as no longer listed, every module
    straightline generated below that directory (the link made `out` /tmp: other people's modules
    went). It is a configuration error (exit status 2) and nothing there is touched; a symbolic
    link inside the output package is not followed when orphans are looked for."""
    elsewhere = tmp_path / "elsewhere"
    plain = {"type": "string"}
    assert (
        run(
            "compile",
            "a.json",
            "--out",
            str(elsewhere),
            cwd=write(tmp_path / "a.json", plain).parent,
        ).returncode
        == 0
    )
    before = sorted(p.name for p in elsewhere.iterdir())
    project = tmp_path / "project"
    write(project / "schemas" / "order.json", plain)
    (project / "src").mkdir()
    (project / "src" / "contracts").symlink_to(elsewhere)
    cases = {
        'out = "src/contracts"\ncontracts = ["schemas/*.json"]': "[tool.straightline] out: 'src/contracts' leads outside the project, to ",
        'out = "gen"\ncontracts = ["schemas/*.json"]\n[tool.straightline.groups.linked]\ncontracts = ["schemas/*.json"]': "[tool.straightline.groups.linked] its package 'gen/linked' leads outside the project, to ",
    }
    (project / "gen").mkdir()
    (project / "gen" / "linked").symlink_to(elsewhere)
    for table, message in cases.items():
        write(project / "pyproject.toml", f"[tool.straightline]\n{table}\n")
        for command in ("compile", "check"):
            refused = run(command, cwd=project)
            assert refused.returncode == 2, (command, refused.stdout, refused.stderr)
            assert message + str(elsewhere.resolve()) in refused.stderr, refused.stderr
            assert sorted(p.name for p in elsewhere.iterdir()) == before
    # a link below the output package that is not one of its packages: never walked
    (project / "gen" / "linked").unlink()
    (project / "gen" / "other").symlink_to(elsewhere)
    write(
        project / "pyproject.toml",
        '[tool.straightline]\nout = "gen"\ncontracts = ["schemas/*.json"]\n',
    )
    built = run("compile", cwd=project)
    assert built.returncode == 0, built.stderr
    assert "removed" not in built.stdout
    assert sorted(p.name for p in elsewhere.iterdir()) == before == ["a.py"]


NOT_TABLES = {
    "the table a value": ("[tool]\nstraightline = 5\n", "[tool.straightline] must be a table"),
    "groups a value": (
        '[tool.straightline]\nout = "gen"\ncontracts = ["a.json"]\ngroups = 5\n',
        "[tool.straightline] groups: must be a table of tables ([tool.straightline.groups.NAME])",
    ),
    "a group a value": (
        '[tool.straightline]\nout = "gen"\n[tool.straightline.groups]\ng = 5\n',
        "[tool.straightline.groups.g] must be a table",
    ),
    "a group without contracts": (
        '[tool.straightline]\nout = "gen"\n[tool.straightline.groups.g]\nprofile = "strict"\n',
        "[tool.straightline.groups.g] needs `contracts`, a list of files, globs or FILE#/pointer",
    ),
    "out not a string": (
        '[tool.straightline]\nout = 5\ncontracts = ["a.json"]\n',
        "[tool.straightline] out: must be a non-empty string, not 5",
    ),
    "out empty": (
        '[tool.straightline]\nout = ""\ncontracts = ["a.json"]\n',
        "[tool.straightline] out: must be a non-empty string, not ''",
    ),
}


@pytest.mark.parametrize("case", list(NOT_TABLES))
def test_a_table_or_value_of_the_wrong_kind_is_an_error_naming_it(
    tmp_path: Path, case: str
) -> None:
    from generator.errors import ConfigError
    from generator.project import load_project

    text, expected = NOT_TABLES[case]
    write(tmp_path / "a.json", {"type": "string"})
    write(tmp_path / "pyproject.toml", text)
    with pytest.raises(ConfigError) as raised:
        load_project(tmp_path / "pyproject.toml")
    assert raised.value.message == f"{tmp_path / 'pyproject.toml'}: {expected}"


def test_a_configuration_that_cannot_be_read_is_an_error_naming_it(tmp_path: Path) -> None:
    from generator.errors import ConfigError
    from generator.project import load_project

    (tmp_path / "pyproject.toml").mkdir()  # (a directory in its place)
    with pytest.raises(ConfigError) as raised:
        load_project(tmp_path / "pyproject.toml")
    assert raised.value.message == f"{tmp_path / 'pyproject.toml'}: cannot read: Is a directory"
