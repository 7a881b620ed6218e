"""`straightline check` is exact: a module is stale when anything its compile read differs (the
source, a registry document it looked up or looked for, the options, the profile asked for, the
generator version) or when its own text was edited; each reason is named. Files are written
with the mode a normal file gets (the umask), atomically."""

from __future__ import annotations

import json
import stat
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import generator
from generator.render.header import (
    Header,
    Inputs,
    document_sha256,
    header_fields,
    header_text,
    is_generated,
    parse_header,
    read_header,
    recorded_options,
    registry_hashes,
    seal,
)

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


# -- the header, written and read back (generator/render/header.py) -----------------------------


def test_the_document_hash_is_this_encoding_of_the_document() -> None:
    """Spelled out: a module compiled by one build of straightline must check as current by any
    other of the same version, so the encoding is part of the header's format."""
    import hashlib
    from decimal import Decimal

    document = {
        "a": [None, True, False, "s\u00e9", "\ud800", 1, 1.5, Decimal("2.0")],
        "b": {},
        "c": (1,),
    }
    encoded = (  # (a lone surrogate, which JSON allows, is hashed as its UTF-8-like bytes)
        b"{s1:a[ntfs3:s\xc3\xa9s3:\xed\xa0\x80i1;f1.5;d2.0;]"
        + b"s1:b{}"
        + b"s1:c?"
        + repr(("tuple", (1,))).encode()
        + b";}"
    )
    assert document_sha256(document) == hashlib.sha256(encoded).hexdigest()

    class Odd:  # no JSON value (the Python API takes any object), its repr no UTF-8
        def __repr__(self) -> str:
            return "\ud800"

    assert document_sha256(Odd()) == hashlib.sha256(b"?('Odd', ?);").hexdigest()
    # null, true and false are told apart, wherever they are
    assert len({document_sha256(v) for v in (None, True, False, [None], [True], [False])}) == 6


def test_the_header_opens_the_module_with_its_fields_in_order() -> None:
    fields = header_fields("draft7", '{"a":1}', "ab" * 32)
    assert fields == {
        "straightline-version": generator.__version__,
        "profile": "draft7",
        "options": '{"a":1}',
        "source-sha256": "ab" * 32,
    }
    assert header_text(dict(reversed(fields.items()))).splitlines() == [
        f"# Generated by straightline {generator.__version__}. Do not edit: regenerate with "
        "`straightline compile`.",
        f"# straightline-version: {generator.__version__}",
        "# profile: draft7",
        '# options: {"a":1}',
        "# source-sha256: " + "ab" * 32,
    ]


def test_a_header_line_is_one_ascii_line() -> None:
    for bad in (
        "\r",
        "\n",
        "\x0b",
        "\x0c",
        "\x1c",
        "\x1d",
        "\x1e",
        "\x85",
        "\u2028",
        "\u2029",
        "é",
    ):
        with pytest.raises(ValueError, match="^header lines must be single ASCII lines$"):
            header_text(header_fields(f"a{bad}b", "{}", "0" * 64))
    assert "# profile: a\tb ~X" in header_text(header_fields("a\tb ~X", "{}", "0" * 64))


def test_options_are_recorded_sorted_and_compact_with_the_fragment() -> None:
    assert recorded_options({"b": [1, 2], "a": "x"}) == '{"a":"x","b":[1,2]}'
    assert recorded_options({"b": 1}, "/$defs/x") == '{"b":1,"fragment":"/$defs/x"}'
    assert recorded_options({}, "") == "{}"


class _Recording(dict):  # type: ignore[type-arg]
    """A registry that records the URIs looked up in it (as the compile's recording one does)."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.asked: list[str] = []

    def __contains__(self, uri: object) -> bool:
        self.asked.append(str(uri))
        return super().__contains__(uri)

    def __getitem__(self, uri: str) -> Any:
        self.asked.append(uri)
        return super().__getitem__(uri)


def test_registry_documents_are_hashed_without_counting_as_lookups() -> None:
    from collections.abc import Mapping

    registry = _Recording({"u:a": {"type": "string"}, "u:b": {}})
    assert registry_hashes(registry, ["u:b", "u:none"]) == {
        "u:b": document_sha256({}),
        "u:none": None,
    }
    assert registry.asked == []

    class Documents(Mapping[str, Any]):  # any other mapping is asked as a mapping
        def __getitem__(self, uri: str) -> Any:
            if uri != "u:a":
                raise KeyError(uri)
            return {"type": "string"}

        def __iter__(self) -> Any:
            return iter(["u:a"])

        def __len__(self) -> int:
            return 1

    assert registry_hashes(Documents(), ["u:a", "u:b"]) == {
        "u:a": document_sha256({"type": "string"}),
        "u:b": None,
    }


def _sealed(**inputs: Any) -> str:
    text = header_text(header_fields("draft7", "{}", "ab" * 32)) + "\nx = 1\n"
    return seal(text, **inputs)


def test_the_seal_adds_the_inputs_and_last_the_hash_of_the_text() -> None:
    import hashlib

    text = _sealed(
        requested_profile="draft7",
        base_uri="https://example.com/\u00e9.json",
        registry={"u:b": {"type": "string"}, "u:a": {}},
        asked=["u:b", "u:c", "u:a", "u:\u00e9 x"],
    )
    lines = text.splitlines(keepends=True)
    assert lines[5:11] == [
        "# requested-profile: draft7\n",
        '# base-uri: "https://example.com/\\u00e9.json"\n',
        f'# registry-document: {document_sha256({})} "u:a"\n',
        f'# registry-document: {document_sha256({"type": "string"})} "u:b"\n',
        '# registry-document: absent "u:c"\n',
        '# registry-document: absent "u:\\u00e9 x"\n',
    ]
    module_line = lines[11]
    unsealed = "".join(lines[:11] + lines[12:])
    assert module_line == f"# module-sha256: {hashlib.sha256(unsealed.encode()).hexdigest()}\n"
    assert lines[12:] == ["x = 1\n"]
    plain = _sealed().splitlines()
    assert plain[5:7] == ["# requested-profile: -", '# base-uri: ""']
    assert plain[7].startswith("# module-sha256: ")
    with pytest.raises(ValueError, match="^the module text has no header to seal$"):
        seal("x = 1\n")


def test_a_sealed_header_reads_back_as_written() -> None:
    text = _sealed(
        requested_profile="draft7",
        base_uri="https://example.com/a.json",
        registry={"u:a": {}},
        asked=["u:a", "u:gone away"],
    )
    header = parse_header(text)
    assert header == parse_header(text) and header is not None
    assert (header.profile, header.sealed, header.intact) == ("draft7", True, True)
    assert header.inputs == Inputs(
        version=generator.__version__,
        requested_profile="draft7",
        options="{}",
        source_sha256="ab" * 32,
        base_uri="https://example.com/a.json",
        registry={"u:a": document_sha256({}), "u:gone away": None},
    )
    plain = parse_header(_sealed())
    assert plain is not None
    assert plain.inputs.requested_profile is None and plain.inputs.base_uri == ""
    # an edit anywhere, the header's lines included, breaks the seal
    for edited in (text.replace("x = 1", "x = 2"), text.replace("draft7", "draft6", 1)):
        broken = parse_header(edited)
        assert broken is not None and broken.sealed and not broken.intact


def test_a_text_holding_a_lone_surrogate_is_sealed_and_read_back() -> None:
    """(A str the compiler holds may carry one: JSON allows "\\ud800"; it is hashed as the
    UTF-8-like bytes of its code point, never refused.)"""
    text = header_text(header_fields("draft7", "{}", "ab" * 32)) + "\nx = '\ud800'\n"
    sealed = seal(text)
    header = parse_header(sealed)
    assert header is not None and header.intact
    edited = parse_header(sealed.replace("\ud800", "\ud801"))
    assert edited is not None and not edited.intact


def test_a_header_of_other_fields_or_without_the_inputs_reads_back() -> None:
    """Every field as written (another version, options, a value ending in any letter); a header
    without the input lines (as an older straightline wrote it): no profile asked for, no base
    URI, no registry, and unsealed."""
    fields = {
        "straightline-version": "0.0.1",
        "profile": "draftX",
        "options": '{"a":1}',
        "source-sha256": "ab" * 32,
    }
    header = parse_header(header_text(fields) + "\nx = 1\n")
    assert header is not None and header.profile == "draftX"
    assert header.inputs == Inputs(version="0.0.1", options='{"a":1}', source_sha256="ab" * 32)
    assert header.sealed is False and header.intact is False


def test_only_the_opening_comment_lines_are_the_header() -> None:
    text = _sealed()
    lines = text.splitlines(keepends=True)
    assert parse_header(" " + text) is None  # not the first line of a generated module
    for field in ("straightline-version", "profile", "options", "source-sha256"):
        without = "".join(line for line in lines if not line.startswith(f"# {field}: "))
        assert parse_header(without) is None, field
    # a field again, or a module hash again, further down the header: the first one counts
    at = text.index("# module-sha256")
    repeated = text[:at] + "# profile: other\n" + text[at:]
    header = parse_header(repeated)
    assert header is not None and header.profile == "draft7" and not header.intact
    module_line = next(line for line in lines if line.startswith("# module-sha256"))
    twice = text.replace(module_line, module_line + "# module-sha256: " + "0" * 64 + "\n")
    header = parse_header(twice)
    assert header is not None and header.sealed
    # (the second line is part of the text the first one seals, so it no longer matches)
    assert not header.intact
    # below the header, comments are the module's own
    moved = "".join(line for line in lines if line is not module_line) + module_line
    header = parse_header(moved)
    assert header is not None and not header.sealed and not header.intact
    unsealed = "".join(line for line in lines if line is not module_line)
    assert parse_header(unsealed) == header


def test_a_registry_line_or_base_uri_that_is_no_json_string_is_read_as_written() -> None:
    text = _sealed()
    at = text.index("# module-sha256")
    odd = '# base-uri: not json\n# registry-document: absent 12\n# registry-document: f0 "u:a"\n'
    header = parse_header(text[:at].replace('# base-uri: ""\n', "") + odd + text[at:])
    assert header is not None
    assert header.inputs.base_uri == "not json"
    assert header.inputs.registry == {"12": None, "u:a": "f0"}


def test_each_difference_from_the_expected_inputs_is_named() -> None:
    recorded = Inputs(
        version="0.0.1",
        requested_profile=None,
        options="{}",
        source_sha256="a" * 64,
        base_uri="",
        registry={"u:appears": None, "u:changes": "1" * 64, "u:goes": "2" * 64, "u:same": None},
    )
    expected = Inputs(
        requested_profile="draft7",
        options='{"max_depth":3}',
        source_sha256="b" * 64,
        base_uri="https://example.com/a.json",
        registry={"u:appears": "3" * 64, "u:changes": "4" * 64, "u:goes": None, "u:same": None},
    )
    header = Header(profile="draft7", inputs=recorded, sealed=False, intact=False)
    assert header.differences(expected) == [
        "it has no module hash: an older straightline wrote it, or not straightline",
        f"made by straightline 0.0.1, this is {generator.__version__}",
        "the source changed",
        "compiled with profile (from $schema), now draft7",
        'options {} are not {"max_depth":3}',
        "base URI (none) is not https://example.com/a.json",
        "registry document u:appears appeared",
        "registry document u:changes changed",
        "registry document u:goes is gone",
    ]
    edited = Header(profile="draft7", inputs=expected, sealed=True, intact=False)
    assert edited.differences(expected) == [
        "it was edited by hand: its text is not what straightline wrote"
    ]
    assert Header(profile="draft7", inputs=expected, sealed=True, intact=True).differences(
        replace(expected, requested_profile=None)
    ) == ["compiled with profile draft7, now (from $schema)"]


def test_a_registry_document_only_one_side_holds_appeared_or_is_gone() -> None:
    """A URI only the expected inputs hold is a document that appeared; one only the recorded
    inputs hold, a document that is gone; on the side that does not hold it there is no
    document, as for a URI looked up and found absent, so absent against not held is no
    difference. (`straightline check` hashes the URIs the header names, so both sides hold the
    same ones; the method is exact for any two.)"""
    recorded = Inputs(registry={"u:held": "1" * 64, "u:looked": None, "u:same": "5" * 64})
    expected = Inputs(registry={"u:new": "3" * 64, "u:none": None, "u:same": "5" * 64})
    header = Header(profile="draft7", inputs=recorded, sealed=True, intact=True)
    assert header.differences(expected) == [
        "registry document u:held is gone",
        "registry document u:new appeared",
    ]
    assert Header(profile="draft7", inputs=expected, sealed=True, intact=True).differences(
        recorded
    ) == ["registry document u:held appeared", "registry document u:new is gone"]
    assert header.differences(Inputs()) == [
        "registry document u:held is gone",
        "registry document u:same is gone",
    ]


def test_a_header_value_is_its_line_without_the_line_end() -> None:
    """A module whose line ends a checkout turned into "\r\n" reads back the same inputs (its
    text is no longer what straightline wrote, and only that is reported); a blank ending a
    value is part of the value, as every other character of the line."""
    text = _sealed(
        requested_profile="draft7",
        base_uri="https://example.com/a.json",
        registry={"u:a": {}},
        asked=["u:a"],
    )
    header = parse_header(text)
    crlf = parse_header(text.replace("\n", "\r\n"))
    assert header is not None and crlf is not None
    assert crlf.inputs == header.inputs and crlf.profile == "draft7"
    assert crlf.sealed and not crlf.intact
    assert crlf.differences(header.inputs) == [
        "it was edited by hand: its text is not what straightline wrote"
    ]
    blank = parse_header(text.replace("# profile: draft7\n", "# profile: draft7 \t\n"))
    assert blank is not None and blank.profile == "draft7 \t"
    lone_cr = parse_header(text.replace("# profile: draft7\n", "# profile: draft7\r"))
    assert lone_cr is not None and lone_cr.profile == "draft7"


def test_a_file_is_read_as_a_module_only_when_it_opens_as_one(tmp_path: Path) -> None:
    module = tmp_path / "a.py"
    module.write_text(_sealed())
    header = read_header(module)
    assert header is not None and header.intact and is_generated(module)
    other = tmp_path / "b.py"
    other.write_text("# Generated by straightlin")
    assert not is_generated(other) and read_header(other) is None
    latin = tmp_path / "c.py"
    latin.write_bytes(_sealed().encode() + b"# \xe9\n")
    assert read_header(latin) is None and is_generated(latin)
    assert read_header(tmp_path / "missing.py") is None
    assert not is_generated(tmp_path / "missing.py") and not is_generated(tmp_path)
    assert read_header(tmp_path) is None
