"""`straightline check` is exact: a module is stale when anything its compile read differs (the
source, a registry document it looked up or looked for, the options, the profile asked for, the
generator version) or when its own text was edited; each reason is named. Files are written
with the mode a normal file gets (the umask), atomically."""

from __future__ import annotations

import json
import stat
from dataclasses import replace
from pathlib import Path

import pytest

import generator
from generator.render.header import Inputs, document_sha256, parse_header, read_header

from .helpers import needs_cli, run, write

pytestmark = needs_cli

SCHEMA = {
    "type": "object",
    "properties": {"name": {"$ref": "https://example.com/name.json"}},
    "required": ["name"],
}
NAME = {"$id": "https://example.com/name.json", "type": "string", "minLength": 1}
UNUSED = {"$id": "https://example.com/unused.json", "type": "integer"}


@pytest.fixture
def compiled(tmp_path: Path) -> Path:
    """a.json compiled with a registry directory holding the referenced schema and one other."""
    write(tmp_path / "a.json", SCHEMA)
    write(tmp_path / "reg" / "name.json", NAME)
    write(tmp_path / "reg" / "unused.json", UNUSED)
    built = run("compile", "a.json", "--registry", "reg", "--out", "out", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    assert run("check", "a.json", "--registry", "reg", "--out", "out", cwd=tmp_path).returncode == 0
    return tmp_path


def check(directory: Path, *extra: str):
    return run("check", "a.json", "--registry", "reg", "--out", "out", *extra, cwd=directory)


def test_a_changed_registry_document_makes_the_module_stale(compiled: Path) -> None:
    write(compiled / "reg" / "name.json", {**NAME, "minLength": 2})
    stale = check(compiled)
    assert stale.returncode == 1
    assert (
        "out/a.py: stale (registry document https://example.com/name.json changed" in stale.stderr
    )
    # and a fresh compile does differ, so the check was right
    before = (compiled / "out" / "a.py").read_text()
    assert (
        run("compile", "a.json", "--registry", "reg", "--out", "out", cwd=compiled).returncode == 0
    )
    assert (compiled / "out" / "a.py").read_text() != before
    assert check(compiled).returncode == 0


def test_a_registry_document_the_compile_did_not_read_does_not_matter(compiled: Path) -> None:
    write(compiled / "reg" / "unused.json", {**UNUSED, "minimum": 3})
    assert check(compiled).returncode == 0


def test_a_registry_document_appearing_where_the_compile_found_none_makes_it_stale(
    tmp_path: Path,
) -> None:
    # the meta-schema is served from the bundled copies when the registry has none ...
    write(tmp_path / "a.json", {"$ref": "https://json-schema.org/draft/2020-12/schema"})
    write(tmp_path / "reg" / "other.json", UNUSED)
    assert (
        run("compile", "a.json", "--registry", "reg", "--out", "out", cwd=tmp_path).returncode == 0
    )
    header = read_header(tmp_path / "out" / "a.py")
    assert header is not None
    assert (
        header.inputs.registry["https://json-schema.org/draft/2020-12/schema"] is None
    )  # looked for, absent
    assert check(tmp_path).returncode == 0
    # ... so a registry file that now claims its URI changes what a compile would read
    write(
        tmp_path / "reg" / "meta.json",
        {"$id": "https://json-schema.org/draft/2020-12/schema", "type": "string"},
    )
    stale = check(tmp_path)
    assert stale.returncode == 1
    assert "registry document https://json-schema.org/draft/2020-12/schema appeared" in stale.stderr


def test_a_changed_option_makes_the_module_stale(compiled: Path) -> None:
    for extra, reason in (
        (("--max-depth", "20"), 'options {} are not {"max_depth":20}'),
        (("--profile", "draft7"), "compiled with profile (from $schema), now draft7"),
    ):
        stale = check(compiled, *extra)
        assert stale.returncode == 1
        assert reason in stale.stderr, stale.stderr
    # the fragment is an option too
    fragment = run(
        "check", "a.json#/properties/name", "--registry", "reg", "--out", "out", cwd=compiled
    )
    assert fragment.returncode == 1 and "missing" in fragment.stderr  # another module name
    # and a registry that is no longer given
    without = run("check", "a.json", "--out", "out", cwd=compiled)
    assert without.returncode == 1
    assert (
        "base URI" in without.stderr
        and "registry document https://example.com/name.json is gone" in without.stderr
    )


def test_a_hand_edit_of_one_number_makes_the_module_stale(compiled: Path) -> None:
    module = compiled / "out" / "a.py"
    text = module.read_text()
    assert "len(x) < 1" in text  # minLength 1, inlined
    module.write_text(text.replace("len(x) < 1", "len(x) < 2", 1))
    stale = check(compiled)
    assert stale.returncode == 1
    # (one level of parentheses: the reason reads as a clause)
    assert (
        "out/a.py: stale (it was edited by hand: its text is not what straightline wrote; recompile "
        in stale.stderr
    )
    # the header's own lines are covered too
    module.write_text(text.replace("# profile: draft2020-12", "# profile: draft7"))
    assert "edited by hand" in check(compiled).stderr
    module.write_text(text)
    assert check(compiled).returncode == 0


def test_a_module_without_the_module_hash_is_stale(compiled: Path) -> None:
    module = compiled / "out" / "a.py"
    lines = module.read_text().splitlines(keepends=True)
    module.write_text("".join(line for line in lines if not line.startswith("# module-sha256: ")))
    stale = check(compiled)
    assert stale.returncode == 1 and "it has no module hash" in stale.stderr
    module.write_text("x = 1\n")
    assert "not a module straightline wrote" in check(compiled).stderr


def test_another_generator_version_is_named() -> None:
    text = generator.compile_source({"type": "string"}, profile="strict")
    header = parse_header(text)
    assert header is not None and header.intact
    current = Inputs(requested_profile="strict", source_sha256=header.inputs.source_sha256)
    assert header.differences(current) == []
    older = Inputs(
        version="0.0.1", requested_profile="strict", source_sha256=header.inputs.source_sha256
    )
    assert header.differences(older) == [
        f"made by straightline {generator.__version__}, this is 0.0.1"
    ]


def test_a_module_compiled_as_another_base_uri_is_stale() -> None:
    """The base URI is an input like the source: references resolve against it, so a module
    compiled as one URI is stale for another (or for none), with both named; the same URI is
    current."""
    text = generator.compile_source(
        {"$defs": {"a": {"type": "string"}}, "$ref": "#/$defs/a"},
        base_uri="https://example.com/a.json",
    )
    header = parse_header(text)
    assert header is not None and header.intact
    assert header.inputs.base_uri == "https://example.com/a.json"
    same = Inputs(source_sha256=header.inputs.source_sha256, base_uri="https://example.com/a.json")
    assert header.differences(same) == []
    assert header.differences(replace(same, base_uri="https://example.com/b.json")) == [
        "base URI https://example.com/a.json is not https://example.com/b.json"
    ]
    assert header.differences(replace(same, base_uri="")) == [
        "base URI https://example.com/a.json is not (none)"
    ]
    plain = parse_header(generator.compile_source({"type": "string"}))
    assert plain is not None and plain.inputs.base_uri == ""
    expected = Inputs(
        source_sha256=plain.inputs.source_sha256, base_uri="https://example.com/a.json"
    )
    assert plain.differences(expected) == ["base URI (none) is not https://example.com/a.json"]


def test_check_reads_hashes_and_never_compiles(
    compiled: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """check is fast on a large schema because it does not compile: with every compile entry
    point broken, it still decides."""
    import generator.jobs as jobs
    from generator.cli.main import main

    def broken(*args: object, **kwargs: object) -> str:
        raise AssertionError("check compiled a schema")

    monkeypatch.setattr(jobs, "compile_source", broken)  # (what the command's compiles call)
    monkeypatch.setattr(jobs, "compile_contract_source", broken)
    monkeypatch.chdir(compiled)
    assert main(["check", "a.json", "--registry", "reg", "--out", "out"]) == 0
    write(compiled / "reg" / "name.json", {**NAME, "maxLength": 9})
    assert main(["check", "a.json", "--registry", "reg", "--out", "out"]) == 1
    assert "registry document https://example.com/name.json changed" in capsys.readouterr().err


def test_document_hash_tells_apart_what_can_change_the_output() -> None:
    assert document_sha256({"a": 1, "b": 2}) != document_sha256({"b": 2, "a": 1})  # property order
    assert document_sha256({"minimum": 1}) != document_sha256({"minimum": 1.0})
    from decimal import Decimal

    assert document_sha256(Decimal("0.30000000000000000001")) != document_sha256(
        Decimal("0.30000000000000000002")
    )
    assert document_sha256(["ab", "c"]) != document_sha256(["a", "bc"])
    deep: object = {}
    for _ in range(100_000):  # no recursion
        deep = [deep]
    assert len(document_sha256(deep)) == 64


@pytest.mark.parametrize("umask,mode", [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_written_files_get_the_mode_of_a_normal_file(tmp_path: Path, umask: int, mode: int) -> None:
    write(tmp_path / "a.json", {"type": "string"})
    built = run(
        "compile", "a.json", "--out", "out", "--profile", "strict", cwd=tmp_path, umask=umask
    )
    assert built.returncode == 0, built.stderr
    assert stat.S_IMODE((tmp_path / "out" / "a.py").stat().st_mode) == mode
    # rewriting an existing module gives it the same mode (an earlier 0600 one is repaired)
    (tmp_path / "out" / "a.py").chmod(0o600)
    assert (
        run(
            "compile", "a.json", "--out", "out", "--profile", "strict", cwd=tmp_path, umask=umask
        ).returncode
        == 0
    )
    assert stat.S_IMODE((tmp_path / "out" / "a.py").stat().st_mode) == mode
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["a.py"]  # no temporary file left
    catalog = run(
        "catalog",
        str(Path(__file__).resolve().parents[2] / "contracts" / "tools" / "math.add.json"),
        "-o",
        "catalog.json",
        cwd=tmp_path,
        umask=umask,
    )
    assert catalog.returncode == 0, catalog.stderr
    assert stat.S_IMODE((tmp_path / "catalog.json").stat().st_mode) == mode
    assert json.loads((tmp_path / "catalog.json").read_text())[0]["name"] == "math.add"


@pytest.mark.parametrize("init", ["__init__.py", "__init__.pyc", "__init__.abi3.so"])
def test_a_package_that_shadows_the_module_is_named(compiled: Path, init: str) -> None:
    """out/a/ with an __init__ beside out/a.py: `import out.a` loads the package, never the module,
    and check said "up to date"."""
    write(compiled / "out" / "a" / init, "")
    shadowed = check(compiled)
    assert shadowed.returncode == 1
    assert shadowed.stderr.splitlines() == [
        "out/a.py: shadowed by the package out/a/ beside it (`import` loads the package, never this module): "
        "rename or remove the package"
    ]
    assert "up to date" not in shadowed.stdout
    (
        compiled / "out" / "a" / init
    ).unlink()  # a directory without an __init__ is no package: the module wins
    assert check(compiled).returncode == 0
