"""Format and content assertion from the command line and the project config: `--formats` /
`--no-formats`, `--format NAME=module:function`, `--unknown-formats`, `--content` on compile,
check, preflight and validate --schema; `formats`, `[tool.straightline.formats]`,
`unknown-formats` and `content` in [tool.straightline]; `straightline check` seeing a change of
any of them; every mistake an error naming the flag or the key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .helpers import needs_cli, run, write

pytestmark = needs_cli

ORDER = {
    "type": "object",
    "properties": {"email": {"type": "string", "format": "email"}, "sku": {"format": "sku"}},
}
FORMATS_MODULE = "def is_sku(s):\n    return s.startswith('SKU-') and s[4:].isdigit()\n"


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    write(tmp_path / "order.json", ORDER)
    write(tmp_path / "shop" / "__init__.py", "")
    write(tmp_path / "shop" / "formats.py", FORMATS_MODULE)
    write(tmp_path / "bad.json", {"email": "nobody", "sku": "SKU-x"})
    write(tmp_path / "good.json", {"email": "a@example.com", "sku": "SKU-12"})
    return tmp_path


def header_options(module: Path) -> dict[str, object]:
    line = next(x for x in module.read_text().splitlines() if x.startswith("# options: "))
    return json.loads(line[len("# options: ") :])  # type: ignore[no-any-return]


def test_compile_flags_reach_the_module_and_check_sees_a_change(workdir: Path) -> None:
    flags = ["--formats", "--format", "sku=shop.formats:is_sku", "--unknown-formats", "error"]
    assert run("compile", "order.json", "--out", "out", *flags, cwd=workdir).returncode == 0
    module = workdir / "out" / "order.py"
    assert header_options(module) == {
        "format_assertion": True,
        "formats": {"sku": "shop.formats:is_sku"},
        "unknown_formats": "error",
    }
    assert "from shop.formats import is_sku as _format_custom_sku\n" in module.read_text()
    assert run("check", "order.json", "--out", "out", *flags, cwd=workdir).returncode == 0
    for changed in (
        flags[:3],
        ["--no-formats", *flags[1:]],
        [*flags[:2], "sku=shop.formats:other", *flags[3:]],
        [*flags, "--content"],
    ):
        stale = run("check", "order.json", "--out", "out", *changed, cwd=workdir)
        assert stale.returncode == 1, changed
        assert "stale (options " in stale.stderr, stale.stderr


def test_validate_schema_takes_the_flags(workdir: Path) -> None:
    env = {"PYTHONPATH": str(workdir)}
    plain = run("validate", "--schema", "order.json", "bad.json", cwd=workdir, env=env)
    assert plain.returncode == 0, plain.stdout + plain.stderr  # format is an annotation by default
    checked = run(
        "validate",
        "--schema",
        "order.json",
        "--format",
        "sku=shop.formats:is_sku",
        "bad.json",
        "good.json",
        cwd=workdir,
        env=env,
    )
    assert checked.returncode == 1
    assert 'bad.json:/email: "nobody" is not a valid "email"' in checked.stdout
    assert 'bad.json:/sku: "SKU-x" is not a valid "sku"' in checked.stdout
    assert "good.json" not in checked.stdout
    assert run("compile", "order.json", "--out", "out", cwd=workdir).returncode == 0
    refused = run("validate", "--module", "out/order.py", "--formats", "bad.json", cwd=workdir)
    assert (
        refused.returncode == 2
        and "--formats/--no-formats: compile options, for --schema only" in refused.stderr
    )


def test_unknown_formats_error_names_the_place(workdir: Path) -> None:
    for command in (["compile", "--out", "out"], ["preflight"]):
        proc = run(*command, "order.json", "--formats", "--unknown-formats=error", cwd=workdir)
        assert proc.returncode == 1
        assert "order.json:/properties/sku/format: unknown format 'sku'" in proc.stderr
        assert "[unknown-format]" in proc.stderr
    assert not (workdir / "out").exists()


@pytest.mark.parametrize(
    "flags,expected",
    [
        (["--format", "sku"], "expected NAME=module:function"),
        (["--format", "sku=shop.formats"], "is not 'module:function'"),
        (["--format", "sku=shop formats:is_sku"], "is not a Python identifier"),
        (["--format", "a=m:f", "--format", "a=m:g"], "--format a=...: given twice"),
        (["--unknown-formats", "warn"], "invalid choice: 'warn'"),
    ],
)
def test_bad_format_flags_are_usage_errors(workdir: Path, flags: list[str], expected: str) -> None:
    proc = run("compile", "order.json", "--out", "out", *flags, cwd=workdir)
    assert proc.returncode == 2
    assert expected in proc.stderr, proc.stderr
    assert not (workdir / "out").exists()


CONFIG = """
[tool.straightline]
out = "gen"
contracts = ["order.json"]
unknown-formats = "error"

[tool.straightline.formats]
sku = "shop.formats:is_sku"

[tool.straightline.groups.plain]
contracts = ["legacy/*.json"]
formats = false

[tool.straightline.groups.content]
contracts = ["blobs/*.json"]
content = true
"""


def test_the_project_config_sets_the_options(workdir: Path) -> None:
    write(workdir / "pyproject.toml", CONFIG)
    write(workdir / "legacy" / "old.json", {"format": "email"})
    write(
        workdir / "blobs" / "blob.json",
        {"$schema": "http://json-schema.org/draft-07/schema#", "contentEncoding": "base64"},
    )
    built = run("compile", cwd=workdir)
    assert built.returncode == 0, built.stderr
    gen = workdir / "gen"
    assert header_options(gen / "order.py") == {
        "formats": {"sku": "shop.formats:is_sku"},
        "unknown_formats": "error",
    }
    assert header_options(gen / "plain" / "old.py") == {
        "format_assertion": False,
        "formats": {"sku": "shop.formats:is_sku"},
        "unknown_formats": "error",
    }
    assert "def _format_email" not in (gen / "plain" / "old.py").read_text()
    assert "def _content_base64" in (gen / "content" / "blob.py").read_text()
    assert run("check", cwd=workdir).returncode == 0
    write(workdir / "pyproject.toml", CONFIG.replace("content = true", "content = false"))
    stale = run("check", cwd=workdir)
    assert (
        stale.returncode == 1 and "gen/content/blob.py: stale (options" in stale.stderr
    ), stale.stderr
    flags = run("compile", "--formats", cwd=workdir)
    assert flags.returncode == 2 and "--formats/--no-formats: with no SRC" in flags.stderr


BAD_CONFIGS = {
    "formats of the wrong type": (
        'formats = "yes"\n',
        "formats: must be true, false, or a table of custom formats",
    ),
    "bad custom format": (
        '[tool.straightline.formats]\nsku = "shop.formats"\n',
        "formats: custom format 'sku': 'shop.formats' is not 'module:function'",
    ),
    "custom format not a string": (
        "[tool.straightline.formats]\nsku = 1\n",
        "formats: custom format 'sku'",
    ),
    "unknown-formats policy": (
        'unknown-formats = "warn"\n',
        "unknown-formats: must be one of ignore, error",
    ),
    "content not a boolean": ('content = "on"\n', "content: must be true or false"),
    "a misspelt key": ("format = true\n", "unknown key 'format' (did you mean 'formats'?)"),
}


@pytest.mark.parametrize("case", list(BAD_CONFIGS))
def test_a_wrong_format_setting_is_an_error_naming_it(workdir: Path, case: str) -> None:
    table, expected = BAD_CONFIGS[case]
    top = 'out = "gen"\ncontracts = ["order.json"]\n'
    body = top + table if not table.startswith("[") else top + "\n" + table
    write(workdir / "pyproject.toml", "[tool.straightline]\n" + body)
    proc = run("compile", cwd=workdir)
    assert proc.returncode == 2, proc.stdout
    assert expected in proc.stderr, proc.stderr
    assert not (workdir / "gen").exists()
