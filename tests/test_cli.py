"""The `straightline` command, run as a user runs it: the installed console script, in a temp dir.

Every invocation goes through run(), which also asserts that no Python traceback ever reaches
stderr: a user sees `FILE:POINTER: message [code]` lines or a usage message, nothing else.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import keyword
import os
import re
import subprocess
import sys
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import generator

STRAIGHTLINE = Path(sys.executable).parent / "straightline"

pytestmark = pytest.mark.skipif(
    not STRAIGHTLINE.exists(),
    reason=f"the straightline console script is not installed next to {sys.executable}",
)

GOOD_A = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "minLength": 1},
        "n": {"type": "integer", "minimum": 0},
    },
    "required": ["name"],
    "additionalProperties": False,
}
GOOD_B = {"type": "array", "items": {"enum": ["x", "y"]}, "maxItems": 2}
HOSTILE_C = (  # JSON text: a lone surrogate and code-looking names, as a file would carry them
    '{"type": "object", "properties": {"\\"); import os; #": {"const": "\\ud800"},'
    ' "a/b": {"type": "integer"}}, "required": ["\\"); import os; #"]}'
)


def run(*args: str, cwd: Path, env: dict[str, str] | None = None, python_m: bool = False):
    command = [sys.executable, "-m", "generator", *args] if python_m else [str(STRAIGHTLINE), *args]
    full_env = dict(os.environ)
    full_env.pop("PYTHONHASHSEED", None)
    full_env["PYTHONDONTWRITEBYTECODE"] = "1"
    if env:
        full_env.update(env)
    proc = subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, env=full_env, timeout=300
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stdout, proc.stdout
    return proc


def run_many(calls, cwd: Path):
    """run() for several (args, env) at once (each is a separate process; the CLI is slow to
    start because it imports black)."""
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = [pool.submit(run, *args, cwd=cwd, env=env) for args, env in calls]
        return [f.result() for f in futures]


def write(path: Path, value) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(value, bytes):
        path.write_bytes(value)
    else:
        path.write_text(value if isinstance(value, str) else json.dumps(value), encoding="utf-8")
    return path


def listing(directory: Path) -> set[str]:
    """Every entry, hidden ones included."""
    return {p.name for p in directory.iterdir()} if directory.exists() else set()


def load(path: Path):
    """Import a generated module from its file, as a user vendoring it would."""
    spec = importlib.util.spec_from_file_location(f"{path.stem}_{uuid.uuid4().hex}", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    old = sys.dont_write_bytecode
    sys.dont_write_bytecode = True
    try:
        spec.loader.exec_module(module)
    finally:
        sys.dont_write_bytecode = old
    return module


def header(path: Path) -> dict[str, str]:
    found = {}
    for line in path.read_text(encoding="utf-8").splitlines()[:20]:
        m = re.match(r"^# (straightline-version|profile|options|source-sha256): (.*)$", line)
        if m:
            found[m.group(1)] = m.group(2)
    return found


def error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.strip()]


def assert_reported(stderr: str, source: str, pointer: str, code: str | None = None) -> None:
    """stderr has a `SOURCE:POINTER: message [code]` line."""
    code_re = re.escape(code) if code else r"[a-z][a-z-]*"
    pattern = re.compile(rf"^{re.escape(source)}:{re.escape(pointer)}: \S.* \[{code_re}\]$")
    assert any(pattern.match(line) for line in error_lines(stderr)), (source, pointer, code, stderr)


# -- compile --------------------------------------------------------------------------------------


def test_compile_writes_importable_modules(tmp_path):
    write(tmp_path / "a.json", GOOD_A)
    write(tmp_path / "b.json", GOOD_B)
    write(tmp_path / "math.add.input.json", GOOD_B)
    write(tmp_path / "1st.json", GOOD_B)
    write(tmp_path / "class.json", GOOD_B)
    write(tmp_path / "c.json", HOSTILE_C)
    sources = ["a.json", "b.json", "math.add.input.json", "1st.json", "class.json", "c.json"]
    proc = run("compile", *sources, "--out", "out", "--profile", "strict", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = tmp_path / "out"
    names = listing(out)
    # atomic writes: only the modules, no temporary or hidden leftovers
    assert all(n.endswith(".py") and not n.startswith(".") for n in names), names
    assert len(names) == len(sources)
    assert {"a.py", "b.py", "c.py", "math_add_input.py"} <= names
    for stem in ("1st", "class"):
        made = [n[:-3] for n in names if n[:-3].endswith(stem) and n[:-3] != stem]
        assert len(made) == 1, (stem, names)
        assert made[0].isidentifier() and not keyword.iskeyword(made[0])
    for name in names:
        assert name in proc.stdout, f"stdout does not name {name}: {proc.stdout!r}"

    a = load(out / "a.py")
    assert a.is_valid({"name": "x", "n": 3}) and a.validate({"name": "x"}) is None
    assert (
        not a.is_valid({"name": ""})
        and not a.is_valid({"n": 1})
        and not a.is_valid({"name": "x", "z": 1})
    )
    assert [
        (e.instance_location, e.keyword_location) for e in a.errors({"name": "x", "n": -1})
    ] == [("/n", "/properties/n/minimum")]
    with pytest.raises(a.ValidationError):
        a.validate({"name": 5})
    assert issubclass(a.ValidationError, ValueError)
    b = load(out / "b.py")
    assert b.is_valid(["x", "y"]) and not b.is_valid(["x", "z"]) and not b.is_valid(["x", "x", "x"])
    assert [e.instance_location for e in b.errors(["x", "z"])] == ["/1"]
    m = load(out / "math_add_input.py")
    assert m.is_valid(["y"]) and not m.is_valid("y")
    c = load(out / "c.py")
    assert c.is_valid({'"); import os; #': "\ud800", "a/b": 1})
    assert not c.is_valid({'"); import os; #': "\udfff"}) and not c.is_valid({})
    assert [
        (e.instance_location, e.keyword_location)
        for e in c.errors({'"); import os; #': "\ud800", "a/b": "1"})
    ] == [("/a~1b", "/properties/a~1b/type")]


def test_failing_contracts_are_reported_and_not_written(tmp_path):
    write(tmp_path / "good.json", GOOD_A)
    write(tmp_path / "syntax.json", '{"type": "object",')
    write(tmp_path / "keyword.json", {"properties": {"a/b": {"type": "string", "foo": 1}}})
    write(tmp_path / "value.json", {"type": "object", "minimum": "3"})
    write(tmp_path / "dup.json", '{"properties": {"m~n": {"type": "string", "type": "integer"}}}')
    write(tmp_path / "latin1.json", b'{"title": "caf\xe9"}')
    write(tmp_path / "regex2.json", {"prefixItems": [{}, {"pattern": "("}]})
    (tmp_path / "adir.json").mkdir()
    write(tmp_path / "good2.json", GOOD_B)
    sources = [
        "syntax.json",
        "good.json",
        "keyword.json",
        "value.json",
        "dup.json",
        "latin1.json",
        "regex2.json",
        "missing.json",
        "adir.json",
        "good.json/under.json",
        "good2.json",
    ]
    proc = run("compile", *sources, "--out", "out", "--profile", "strict", cwd=tmp_path)
    assert proc.returncode != 0
    assert_reported(proc.stderr, "syntax.json", "(root)", "bad-json")
    assert_reported(proc.stderr, "keyword.json", "/properties/a~1b/foo", "keyword-not-in-profile")
    assert_reported(proc.stderr, "value.json", "/minimum", "bad-keyword-value")
    assert_reported(proc.stderr, "dup.json", "/properties/m~0n", "bad-json")
    assert_reported(proc.stderr, "latin1.json", "(root)", "bad-json")
    assert_reported(proc.stderr, "regex2.json", "/prefixItems/1/pattern", "bad-regex")
    # a file that cannot be read is not malformed JSON: its own code
    assert_reported(proc.stderr, "missing.json", "(root)", "unreadable")
    assert_reported(proc.stderr, "adir.json", "(root)", "unreadable")
    assert_reported(proc.stderr, "good.json/under.json", "(root)", "unreadable")
    # one line per failing contract, none for the good ones
    assert len(error_lines(proc.stderr)) == len(sources) - 2, proc.stderr
    assert "good.json:" not in proc.stderr and "good2.json" not in proc.stderr
    # the good contracts are still written, nothing else (no partial or temporary files)
    assert listing(tmp_path / "out") == {"good.py", "good2.py"}
    assert load(tmp_path / "out" / "good.py").is_valid({"name": "x"})
    assert "good.json" in proc.stdout and "good2.json" in proc.stdout


def test_nested_bad_regex_is_reported_with_pointer(tmp_path):
    write(tmp_path / "regex.json", {"items": {"pattern": "("}})
    proc = run("compile", "regex.json", "--out", "out", "--profile", "strict", cwd=tmp_path)
    assert proc.returncode != 0
    assert_reported(proc.stderr, "regex.json", "/items/pattern", "bad-regex")
    assert listing(tmp_path / "out") == set()


def test_failing_contract_leaves_existing_module_untouched(tmp_path):
    write(tmp_path / "a.json", GOOD_A)
    write(tmp_path / "b.json", GOOD_B)
    assert (
        run(
            "compile", "a.json", "b.json", "--out", "out", "--profile", "strict", cwd=tmp_path
        ).returncode
        == 0
    )
    before = (tmp_path / "out" / "a.py").read_bytes()
    write(tmp_path / "a.json", {"type": "object", "properties": {"x": {"$ref": "#"}}})
    write(tmp_path / "b.json", {"type": "array", "maxItems": 1})
    proc = run("compile", "a.json", "b.json", "--out", "out", "--profile", "strict", cwd=tmp_path)
    assert proc.returncode != 0
    assert_reported(proc.stderr, "a.json", "/properties/x/$ref", "keyword-not-in-profile")
    assert (tmp_path / "out" / "a.py").read_bytes() == before
    assert listing(tmp_path / "out") == {"a.py", "b.py"}
    b = load(tmp_path / "out" / "b.py")  # the good one was rewritten
    assert b.is_valid([1]) and not b.is_valid([1, 2])


def test_colliding_module_names_are_refused(tmp_path):
    write(tmp_path / "a-b.json", GOOD_A)
    write(tmp_path / "a_b.json", GOOD_B)
    proc = run(
        "compile", "a-b.json", "a_b.json", "--out", "out", "--profile", "strict", cwd=tmp_path
    )
    assert proc.returncode != 0
    assert "a-b.json" in proc.stderr and "a_b.json" in proc.stderr
    assert not (tmp_path / "out" / "a_b.py").exists()


# -- check ------------------------------------------------------------------------------------------


def test_check_up_to_date_missing_and_stale(tmp_path):
    write(tmp_path / "a.json", GOOD_A)
    write(tmp_path / "b.json", GOOD_B)
    common = ("--out", "out", "--profile", "strict")
    assert run("compile", "a.json", "b.json", *common, cwd=tmp_path).returncode == 0

    ok = run("check", "a.json", "b.json", *common, cwd=tmp_path)
    assert ok.returncode == 0, ok.stderr
    assert ok.stderr.strip() == ""

    # a missing module
    (tmp_path / "out" / "b.py").unlink()
    missing = run("check", "a.json", "b.json", *common, cwd=tmp_path)
    assert missing.returncode != 0
    assert "b.py" in missing.stderr and "a.py" not in missing.stderr
    assert run("compile", "b.json", *common, cwd=tmp_path).returncode == 0

    # the source changed (same meaning, different bytes counts too: the hash is of the file)
    write(tmp_path / "a.json", json.dumps(GOOD_A, indent=2))
    changed = run("check", "a.json", "b.json", *common, cwd=tmp_path)
    assert changed.returncode != 0
    assert "a.py" in changed.stderr or "a.json" in changed.stderr
    assert "b.py" not in changed.stderr
    assert run("compile", "a.json", *common, cwd=tmp_path).returncode == 0
    assert run("check", "a.json", "b.json", *common, cwd=tmp_path).returncode == 0

    # another profile
    other = run("check", "a.json", "--out", "out", "--profile", "lenient", cwd=tmp_path)
    assert other.returncode != 0
    assert "a.py" in other.stderr or "a.json" in other.stderr


def test_check_options_must_match(tmp_path):
    write(tmp_path / "a.json", GOOD_A)
    assert (
        run(
            "compile",
            "a.json",
            "--out",
            "out",
            "--profile",
            "strict",
            "--max-depth",
            "10",
            cwd=tmp_path,
        ).returncode
        == 0
    )
    assert header(tmp_path / "out" / "a.py")["options"] == '{"max_depth":10}'
    without = run("check", "a.json", "--out", "out", "--profile", "strict", cwd=tmp_path)
    assert without.returncode != 0
    assert "a.py" in without.stderr or "a.json" in without.stderr
    other = run(
        "check", "a.json", "--out", "out", "--profile", "strict", "--max-depth", "11", cwd=tmp_path
    )
    assert other.returncode != 0
    same = run(
        "check", "a.json", "--out", "out", "--profile", "strict", "--max-depth", "10", cwd=tmp_path
    )
    assert same.returncode == 0, same.stderr


def test_check_missing_source(tmp_path):
    proc = run("check", "nope.json", "--out", "out", "--profile", "strict", cwd=tmp_path)
    assert proc.returncode != 0
    assert "nope.json" in proc.stderr


# -- preflight --------------------------------------------------------------------------------------


def test_preflight(tmp_path):
    write(tmp_path / "a.json", GOOD_A)
    write(
        tmp_path / "octo.json",
        {"type": "object", "properties": {"x": {"type": "string"}}, "additionalProperties": False},
    )
    ok = run("preflight", "a.json", "octo.json", "--profile", "octoscript", cwd=tmp_path)
    assert ok.returncode == 0, ok.stderr
    assert "ok" in ok.stdout and "a.json" in ok.stdout and "octo.json" in ok.stdout

    write(tmp_path / "bad.json", {"properties": {"a": {"type": ["string", "null"]}}})
    bad = run("preflight", "a.json", "bad.json", "--profile", "octoscript", cwd=tmp_path)
    assert bad.returncode != 0
    assert_reported(bad.stderr, "bad.json", "/properties/a/type", "bad-keyword-value")
    assert "a.json" in bad.stdout and "ok" in bad.stdout
    assert listing(tmp_path) == {"a.json", "octo.json", "bad.json"}  # preflight writes nothing

    limit = run("preflight", "a.json", "--profile", "strict", "--max-depth", "1", cwd=tmp_path)
    assert limit.returncode != 0
    assert_reported(limit.stderr, "a.json", "/properties/name", "limit-exceeded")


def test_check_with_a_profile_does_not_apply_it_to_a_tool_contract(tmp_path):
    """compile ignores --profile for a contract file (it names its own), and so does check."""
    source = Path(__file__).resolve().parent.parent / "contracts" / "tools" / "math.add.json"
    (tmp_path / "math.add.json").write_bytes(source.read_bytes())
    built = run("compile", "--profile", "strict", "--out", "out", "math.add.json", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    checked = run("check", "--profile", "strict", "--out", "out", "math.add.json", cwd=tmp_path)
    assert checked.returncode == 0, checked.stderr
    assert "up to date" in checked.stdout


def test_deeply_nested_file_is_a_schema_error_not_a_traceback(tmp_path):
    (tmp_path / "deep.json").write_text("[" * 200_000 + "]" * 200_000, encoding="utf-8")
    for command in (("preflight",), ("compile", "--out", "out")):
        result = run(*command, "deep.json", cwd=tmp_path)
        assert result.returncode != 0
        assert "Traceback" not in result.stderr, result.stderr
        assert "[limit-exceeded]" in result.stderr, result.stderr
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


# -- usage errors -----------------------------------------------------------------------------------

USAGE_ERRORS = {
    "no-subcommand": [],
    "unknown-subcommand": ["frobnicate", "a.json"],
    "unknown-profile": ["compile", "a.json", "--out", "out", "--profile", "draft3"],
    "missing-out": ["compile", "a.json", "--profile", "strict"],
    "no-sources": ["compile", "--out", "out", "--profile", "strict"],
    "unknown-flag": ["compile", "a.json", "--out", "out", "--profile", "strict", "--bogus"],
    "max-depth-abc": [
        "compile",
        "a.json",
        "--out",
        "out",
        "--profile",
        "strict",
        "--max-depth",
        "abc",
    ],
    "compile-max-depth-0": [
        "compile",
        "a.json",
        "--out",
        "out",
        "--profile",
        "strict",
        "--max-depth",
        "0",
    ],
    "check-max-depth-0": [
        "check",
        "a.json",
        "--out",
        "out",
        "--profile",
        "strict",
        "--max-depth",
        "0",
    ],
    "preflight-max-depth-0": ["preflight", "a.json", "--profile", "strict", "--max-depth", "0"],
    "max-depth-over-the-hard-limit": ["compile", "a.json", "--out", "out", "--max-depth", "201"],
    "validate-max-properties-0": [
        "validate",
        "--schema",
        "a.json",
        "--max-properties",
        "0",
        "a.json",
    ],
}
# the flag each limit case names, as the user wrote it (never the Python name max_depth)
LIMIT_FLAG = {
    "max-depth-abc": "--max-depth",
    "compile-max-depth-0": "--max-depth",
    "check-max-depth-0": "--max-depth",
    "preflight-max-depth-0": "--max-depth",
    "max-depth-over-the-hard-limit": "--max-depth",
    "validate-max-properties-0": "--max-properties",
}


@pytest.fixture(scope="module")
def usage_runs(tmp_path_factory):
    """Every usage-error case, each in its own directory, run concurrently."""
    dirs = {}
    for name in USAGE_ERRORS:
        dirs[name] = tmp_path_factory.mktemp(name)
        write(dirs[name] / "a.json", GOOD_A)
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = {
            name: pool.submit(run, *args, cwd=dirs[name]) for name, args in USAGE_ERRORS.items()
        }
        return {name: (f.result(), dirs[name]) for name, f in futures.items()}


@pytest.mark.parametrize("case", list(USAGE_ERRORS))
def test_usage_errors(usage_runs, case):
    proc, directory = usage_runs[case]
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert re.search(r"usage|error", proc.stderr, re.I), proc.stderr
    assert listing(directory) == {"a.json"}, "a usage error must write nothing"
    if case in LIMIT_FLAG:
        problem = (
            "may be at most 200"
            if case == "max-depth-over-the-hard-limit"
            else "must be a positive integer"
        )
        assert f"argument {LIMIT_FLAG[case]}: {problem}" in proc.stderr, proc.stderr
        assert "max_" not in proc.stderr


# -- help and version -------------------------------------------------------------------------------


@pytest.mark.parametrize("command", [None, "compile", "check", "preflight"])
def test_help(tmp_path, command):
    args = ["--help"] if command is None else [command, "--help"]
    proc = run(*args, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "usage" in proc.stdout.lower()
    assert "straightline" in proc.stdout
    if command is None:
        for sub in ("compile", "check", "preflight"):
            assert sub in proc.stdout
    else:
        assert command in proc.stdout and "--profile" in proc.stdout
        assert ("--out" in proc.stdout) == (command != "preflight")


def test_version(tmp_path):
    proc = run("--version", cwd=tmp_path)
    assert proc.returncode == 0
    assert generator.__version__ in proc.stdout


def test_python_m_generator_help(tmp_path):
    proc = run("--help", cwd=tmp_path, python_m=True)
    assert proc.returncode == 0, proc.stderr
    assert "usage" in proc.stdout.lower() and "compile" in proc.stdout


# -- reproducibility and the header ----------------------------------------------------------------


def _big_contract() -> dict:
    words = [f"field_{i:03d}" for i in range(16)]
    colours = [
        "red",
        "green",
        "blue",
        "cyan",
        "magenta",
        "yellow",
        "black",
        "white",
        "orange",
        "purple",
        "pink",
        "brown",
        "grey",
        "olive",
        "navy",
        "teal",
        "lime",
        "maroon",
    ]
    properties = {}
    for i, w in enumerate(words):
        if i % 4 == 0:
            properties[w] = {"enum": colours[i % 7 :] + colours[: i % 7]}
        elif i % 4 == 1:
            properties[w] = {
                "type": "object",
                "properties": {c: {"type": "string"} for c in colours},
                "required": colours[: 3 + i % 9],
                "additionalProperties": False,
            }
        elif i % 4 == 2:
            properties[w] = {"type": ["integer", "null"], "minimum": -i, "maximum": 10 ** (i % 25)}
        else:
            properties[w] = {
                "type": "array",
                "items": {"enum": colours + [1, 2.5, None, True]},
                "uniqueItems": True,
            }
    return {
        "type": "object",
        "properties": properties,
        "required": words[::3],
        "additionalProperties": {"enum": colours[::-1]},
    }


def test_output_is_byte_identical_across_runs_and_hash_seeds(tmp_path):
    write(tmp_path / "big.json", _big_contract())
    seeds = ("0", "12345")
    procs = run_many(
        [
            (
                ("compile", "big.json", "--out", f"out{seed}", "--profile", "strict"),
                {"PYTHONHASHSEED": seed},
            )
            for seed in seeds
        ],
        cwd=tmp_path,
    )
    outputs = []
    for seed, proc in zip(seeds, procs):
        assert proc.returncode == 0, proc.stderr
        outputs.append((tmp_path / f"out{seed}" / "big.py").read_bytes())
    assert outputs[0] == outputs[1]
    in_process = generator.compile_source(
        (tmp_path / "big.json").read_bytes(), profile="strict", name="big"
    )
    assert in_process.encode("utf-8") == outputs[0]


def test_header_records_version_profile_options_and_source_hash(tmp_path):
    raw = (
        '\ufeff{\r\n  "type": "object",\r\n  "properties": {"a": {"type": "string"}}\r\n}\r\n'
    ).encode("utf-8")
    write(tmp_path / "h.json", raw)
    proc = run(
        "compile",
        "h.json",
        "--out",
        "out",
        "--profile",
        "lenient",
        "--max-depth",
        "7",
        "--max-properties",
        "50",
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    found = header(tmp_path / "out" / "h.py")
    assert found["straightline-version"] == generator.__version__
    assert found["profile"] == "lenient"
    assert json.loads(found["options"]) == {"max_depth": 7, "max_properties": 50}
    assert found["source-sha256"] == hashlib.sha256(raw).hexdigest()
    module = load(tmp_path / "out" / "h.py")
    assert module.STRAIGHTLINE["source_sha256"] == hashlib.sha256(raw).hexdigest()
    assert module.STRAIGHTLINE["profile"] == "lenient"
    assert module.STRAIGHTLINE["version"] == generator.__version__
    assert module.is_valid({"a": "x"}) and not module.is_valid({"a": 1})
    ok = run(
        "check",
        "h.json",
        "--out",
        "out",
        "--profile",
        "lenient",
        "--max-depth",
        "7",
        "--max-properties",
        "50",
        cwd=tmp_path,
    )
    assert ok.returncode == 0, ok.stderr


# -- the drafts: profile from $schema, FILE#pointer, --registry ------------------------------------


def test_profile_comes_from_schema_and_fragments_and_registry_work(tmp_path):
    write(
        tmp_path / "defs" / "common.json",
        {
            "$id": "https://example.com/common.json",
            "$defs": {"id": {"type": "string", "pattern": "^[a-z]+$"}},
        },
    )
    write(
        tmp_path / "api.json",
        {
            "$schema": "http://json-schema.org/draft-04/schema#",
            "definitions": {
                "item": {
                    "type": "object",
                    "properties": {"id": {"$ref": "https://example.com/common.json#/$defs/id"}},
                    "required": ["id"],
                }
            },
            "type": "array",
            "items": {"$ref": "#/definitions/item"},
        },
    )
    proc = run(
        "compile",
        "api.json",
        "api.json#/definitions/item",
        "--out",
        "out",
        "--registry",
        "defs",
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    api, item = load(tmp_path / "out" / "api.py"), load(tmp_path / "out" / "api_item.py")
    assert api.STRAIGHTLINE["profile"] == "draft4"
    assert (
        api.is_valid([{"id": "abc"}])
        and not api.is_valid([{"id": "ABC"}])
        and not api.is_valid([{}])
    )
    assert item.is_valid({"id": "abc"}) and not item.is_valid({"id": 1})
    assert item.STRAIGHTLINE["options"] == {"fragment": "/definitions/item"}
    check = run(
        "check",
        "api.json",
        "api.json#/definitions/item",
        "--out",
        "out",
        "--registry",
        "defs",
        cwd=tmp_path,
    )
    assert check.returncode == 0, check.stderr
    # without the registry the compile would differ (the reference would not resolve): stale
    without = run("check", "api.json", "api.json#/definitions/item", "--out", "out", cwd=tmp_path)
    assert without.returncode == 1
    assert "registry document https://example.com/common.json is gone" in without.stderr
    # without the registry the remote reference cannot resolve: reported with its pointer, no file
    proc = run("compile", "api.json", "--out", "out2", cwd=tmp_path)
    assert proc.returncode != 0
    assert_reported(
        proc.stderr, "api.json", "/definitions/item/properties/id/$ref", "unresolvable-ref"
    )
    assert not (tmp_path / "out2" / "api.py").exists()
    missing = run(
        "compile",
        "api.json#/definitions/nothing",
        "api.json#nowhere",
        "--out",
        "out3",
        cwd=tmp_path,
    )
    assert missing.returncode != 0 and "Traceback" not in missing.stderr
    # the fragment is the user's own, not a $ref of the schema: said so
    assert (
        "api.json#/definitions/nothing:(root): the fragment '#/definitions/nothing' names no subschema: "
        "nothing at '/definitions/nothing' in this document [unresolvable-ref]"
    ) in missing.stderr
    assert (
        "api.json#nowhere:(root): the fragment '#nowhere' names no subschema: no anchor of that name in "
        "this document [unresolvable-ref]"
    ) in missing.stderr
    bad_registry = run(
        "compile", "api.json", "--out", "out4", "--registry", "nowhere", cwd=tmp_path
    )
    assert bad_registry.returncode == 2 and "Traceback" not in bad_registry.stderr


def test_a_problem_in_a_registry_file_is_named_by_that_file(tmp_path):
    """`FILE:POINTER` named the compiled file at a pointer that is in the registry's document: the
    location is that document's URI (its `$id`, else its file's) with the pointer."""
    write(
        tmp_path / "defs" / "item.json",
        {"$id": "https://example.com/item.json", "properties": {"n": {"pattern": "(a"}}},
    )
    write(tmp_path / "defs" / "plain.json", {"properties": {"m": {"maxLength": -1}}})
    write(tmp_path / "a.json", {"properties": {"item": {"$ref": "https://example.com/item.json"}}})
    write(tmp_path / "b.json", {"properties": {"plain": {"$ref": "defs/plain.json"}}})
    compiled = run(
        "compile", "a.json", "b.json", "--out", "out", "--registry", "defs", cwd=tmp_path
    )
    assert compiled.returncode == 1
    assert compiled.stderr.splitlines() == [
        "a.json:https://example.com/item.json#/properties/n/pattern: pattern '(a': unterminated group (at 0) "
        "[bad-regex]",
        "b.json:file:///defs/plain.json#/properties/m/maxLength: maxLength must be a non-negative integer, not -1 "
        "[bad-keyword-value]",
    ]
    assert not (tmp_path / "out").exists()


def test_a_uri_that_is_no_uri_is_a_schema_error_in_every_command(tmp_path):
    """urllib cannot split `http://[::1/x` (its ValueError was a traceback): in a reference it does
    not resolve, in an identifier it is a bad value, at the keyword (in its registry document)."""
    draft = {
        "2020": "https://json-schema.org/draft/2020-12/schema",
        "2019": "https://json-schema.org/draft/2019-09/schema",
        "7": "http://json-schema.org/draft-07/schema#",
        "4": "http://json-schema.org/draft-04/schema#",
    }
    cases = {  # file -> (schema, pointer, code)
        "ref.json": ({"$ref": "http://[::1/x"}, "/$ref", "unresolvable-ref"),
        "dynamic.json": (
            {"$schema": draft["2020"], "items": {"$dynamicRef": "http://[foo]/x"}},
            "/items/$dynamicRef",
            "unresolvable-ref",
        ),
        "recursive.json": (
            {"$schema": draft["2019"], "items": {"$recursiveRef": "http://[::1/x"}},
            "/items/$recursiveRef",
            "unresolvable-ref",
        ),
        "id7.json": (
            {"$schema": draft["7"], "properties": {"a": {"$id": "http://[::1/x"}}},
            "/properties/a/$id",
            "bad-keyword-value",
        ),
        "id4.json": ({"$schema": draft["4"], "id": "http://[foo]/x"}, "/id", "bad-keyword-value"),
        "via_id.json": (
            {"$ref": "https://example.com/item.json"},
            "https://example.com/item.json#/properties/a/$ref",
            "unresolvable-ref",
        ),
        "via_path.json": (
            {"$ref": "defs/bad_id.json"},
            "file:///defs/bad_id.json#/$id",
            "bad-keyword-value",
        ),
    }
    for file, (schema, _, _) in cases.items():
        write(tmp_path / file, schema)
    write(
        tmp_path / "defs" / "item.json",
        {"$id": "https://example.com/item.json", "properties": {"a": {"$ref": "http://[::1/x"}}},
    )
    write(tmp_path / "defs" / "bad_id.json", {"$id": "http://[::1/y", "type": "string"})
    write(
        tmp_path / "contract.json",
        {
            "name": "t",
            "profile": "draft2020-12",
            "output": {"type": "object"},
            "input": {"properties": {"a": {"$ref": "http://[foo]/x"}}},
        },
    )
    write(tmp_path / "data.json", {"a": 1})
    files = [*cases, "contract.json"]
    common = ("--registry", "defs")
    compiled, preflighted, *validated = run_many(
        [
            (("compile", *files, "--out", "out", *common), None),
            (("preflight", *files, *common), None),
        ]
        + [(("validate", "--schema", file, *common, "data.json"), None) for file in cases],
        cwd=tmp_path,
    )
    for proc in (compiled, preflighted):
        assert proc.returncode == 1, proc.stderr
        for file, (_, pointer, code) in cases.items():
            assert_reported(proc.stderr, file, pointer, code)
        assert_reported(
            proc.stderr, "contract.json", "/input/properties/a/$ref", "unresolvable-ref"
        )
    assert not (tmp_path / "out").exists()
    for proc, (file, (_, pointer, code)) in zip(validated, cases.items()):
        assert proc.returncode == 2, proc.stderr
        assert_reported(proc.stderr, file, pointer, code)

    # check reads the registry directory (the file whose $id is no URI among them) and the edited
    # contract: stale, never a traceback
    write(
        tmp_path / "good.json",
        {
            "name": "t",
            "profile": "draft2020-12",
            "input": {"$ref": "file:///defs/plain.json"},
            "output": {"type": "object"},
        },
    )
    write(tmp_path / "defs" / "plain.json", {"type": "object"})
    assert run("compile", "good.json", "--out", "out", *common, cwd=tmp_path).returncode == 0
    write(
        tmp_path / "good.json",
        {
            "name": "t",
            "profile": "draft2020-12",
            "input": {"$ref": "http://[::1/x"},
            "output": {"type": "object"},
        },
    )
    checked = run("check", "good.json", "ref.json", "--out", "out", *common, cwd=tmp_path)
    assert checked.returncode == 1
    assert "good.py: stale" in checked.stderr and "ref.py: missing" in checked.stderr


@pytest.mark.parametrize("limit", [str(2**63), str(sys.maxsize - 1), "10" + "0" * 30])
def test_a_huge_source_size_limit_reads_the_file_as_it_is(tmp_path, limit):
    """A source size limit far beyond any file (past what one read can allocate, or past an index)
    is no limit in practice: the schema is read, compiled and checked, never a MemoryError or
    OverflowError traceback."""
    write(tmp_path / "a.json", GOOD_A)
    write(tmp_path / "registry" / "b.json", {"$id": "urn:b", "type": "integer"})
    compiled = run(
        "compile",
        "a.json",
        "--out",
        "out",
        "--max-source-bytes",
        limit,
        "--registry",
        "registry",
        cwd=tmp_path,
    )
    assert compiled.returncode == 0, compiled.stderr
    assert (tmp_path / "out" / "a.py").is_file()
    checked = run(
        "check",
        "a.json",
        "--out",
        "out",
        "--max-source-bytes",
        limit,
        "--registry",
        "registry",
        cwd=tmp_path,
    )
    assert checked.returncode == 0, checked.stderr
    write(tmp_path / "data.json", {"left": 1})
    validated = run(
        "validate", "--schema", "a.json", "--max-source-bytes", limit, "data.json", cwd=tmp_path
    )
    assert (
        validated.returncode == 1 and "1 record in 1 file: 0 valid, 1 invalid" in validated.stdout
    ), validated.stdout


@pytest.mark.parametrize("out", ["taken", "taken/deeper/still"])
def test_a_file_in_the_output_directory_s_place_is_named(tmp_path, out):
    """mkdir's "File exists" (or "Not a directory") said nothing of which file was in the way."""
    write(tmp_path / "a.json", GOOD_A)
    (tmp_path / "taken").write_text("mine\n", encoding="utf-8")
    result = run("compile", "a.json", "--out", out, cwd=tmp_path)
    assert result.returncode == 1
    assert (
        f"{out}/a.py: cannot write: taken is a file, not a directory" in result.stderr
    ), result.stderr
    assert (tmp_path / "taken").read_text(encoding="utf-8") == "mine\n"


def test_catalog_output_in_a_missing_directory_is_a_usage_error(tmp_path):
    """`catalog -o` with a typo in its directory created the directories and exited 0."""
    tool = {
        "name": "t",
        "description": "d",
        "input": {"type": "object"},
        "output": {"type": "object"},
    }
    write(tmp_path / "tool.json", tool)
    (tmp_path / "taken").write_text("mine\n", encoding="utf-8")
    cases = {
        "missing/dir/x.json": "-o missing/dir/x.json: no such directory missing/dir",
        f"{tmp_path}/missing/x.json": f"-o {tmp_path}/missing/x.json: no such directory {tmp_path}/missing",
        "taken/x.json": "-o taken/x.json: taken is a file, not a directory",
        "taken/deeper/x.json": "-o taken/deeper/x.json: taken is a file, not a directory",
    }
    for output, message in cases.items():
        result = run("catalog", "tool.json", "-o", output, cwd=tmp_path)
        assert result.returncode == 2, (output, result.stderr)
        assert message in result.stderr, result.stderr
    assert listing(tmp_path) == {"tool.json", "taken"}  # nothing created
    assert (tmp_path / "taken").read_text(encoding="utf-8") == "mine\n"
    written = run("catalog", "tool.json", "-o", "x.json", cwd=tmp_path)
    assert written.returncode == 0, written.stderr
    assert json.loads((tmp_path / "x.json").read_text())[0]["name"] == "t"


def test_catalog_output_that_cannot_be_written_is_named_and_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`catalog -o DIR` (an existing directory, not a file): the write fails, the command says
    so in one line and exits 1, and the directory is left as it was."""
    from generator.cli.main import main

    tool = {"name": "t", "description": "d", "input": {"type": "object"}, "output": {}}
    write(tmp_path / "tool.json", tool)
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "mine.txt").write_text("mine\n", encoding="utf-8")
    output = str(tmp_path / "taken")
    assert main(["catalog", str(tmp_path / "tool.json"), "-o", output]) == 1
    captured = capsys.readouterr()
    assert captured.err == f"{output}: cannot write: Is a directory\n" and captured.out == ""
    assert listing(tmp_path / "taken") == {"mine.txt"}


def test_catalog_without_output_prints_the_entries_on_standard_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from generator.cli.main import main

    tool = {"name": "t", "description": "d", "input": {"type": "object"}, "output": {}}
    write(tmp_path / "tool.json", tool)
    assert main(["catalog", str(tmp_path / "tool.json")]) == 0
    captured = capsys.readouterr()
    assert [entry["name"] for entry in json.loads(captured.out)] == ["t"] and captured.err == ""


def test_catalog_to_a_reader_that_went_away_ends_quietly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A reader gone (`catalog a.json | head -c0`) is the quiet exit 1 of every command, not the
    one-line complaint of a full or closed standard output."""
    from generator.cli.main import main

    class Gone:  # (no fileno: drop_output leaves the test's own standard output alone)
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self) -> None:
            raise BrokenPipeError(32, "Broken pipe")

    tool = {"name": "t", "description": "d", "input": {"type": "object"}, "output": {}}
    write(tmp_path / "tool.json", tool)
    monkeypatch.setattr(sys, "stdout", Gone())
    assert main(["catalog", str(tmp_path / "tool.json")]) == 1
    monkeypatch.undo()
    assert capsys.readouterr().err == ""


# -- closed and full standard output ---------------------------------------------------------------


def _shell(redirections: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The command run by a shell with `redirections` (`>&-`, `>/dev/full`) applied; its stderr
    captured through a file (a closed stdout cannot carry it)."""
    command = " ".join(f"'{part}'" for part in (STRAIGHTLINE, *args))
    errors = cwd / "stderr.txt"
    proc = subprocess.run(
        ["sh", "-c", f"exec {command} 2>'{errors}' {redirections}"],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=300,
    )
    stderr = errors.read_text(encoding="utf-8")
    assert "Traceback" not in stderr + proc.stderr and "Exception ignored" not in stderr, stderr
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout, stderr)


@pytest.mark.parametrize(
    "redirection, reason",
    [(">&-", "standard output is closed"), (">/dev/full", "No space left on device")],
)
def test_compile_and_check_name_a_lost_standard_output_in_one_line(
    tmp_path: Path, redirection: str, reason: str
) -> None:
    if redirection == ">/dev/full" and not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    (tmp_path / "s.json").write_text('{"type": "string"}', encoding="utf-8")
    compiled = _shell(redirection, "compile", "s.json", "--out", "out", cwd=tmp_path)
    assert compiled.returncode == 2
    assert compiled.stderr == f"straightline: cannot write to standard output: {reason}\n"
    # the module was written whole before its report line was refused
    assert (tmp_path / "out" / "s.py").is_file()
    checked = _shell(redirection, "check", "s.json", "--out", "out", cwd=tmp_path)
    assert checked.returncode == 2
    assert checked.stderr == f"straightline: cannot write to standard output: {reason}\n"
    # with standard error closed too there is nothing to say it on, and nothing said elsewhere
    both = _shell(f"{redirection} 2>&-", "check", "s.json", "--out", "out", cwd=tmp_path)
    assert both.returncode == 2 and both.stdout == ""


@pytest.mark.parametrize("redirection", [">&-", ">/dev/full"])
def test_compile_writes_every_module_when_standard_output_is_lost(
    tmp_path: Path, redirection: str
) -> None:
    # the first module's report line is refused: the later modules are still compiled
    if redirection == ">/dev/full" and not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    for name in ("a", "b", "c"):
        (tmp_path / f"{name}.json").write_text('{"type": "string"}', encoding="utf-8")
    compiled = _shell(
        redirection, "compile", "a.json", "b.json", "c.json", "--out", "out", cwd=tmp_path
    )
    assert compiled.returncode == 2
    assert compiled.stderr.startswith("straightline: cannot write to standard output: ")
    assert sorted(p.name for p in (tmp_path / "out").glob("*.py")) == ["a.py", "b.py", "c.py"]
    checked = run("check", "a.json", "b.json", "c.json", "--out", "out", cwd=tmp_path)
    assert checked.returncode == 0, checked.stderr


@pytest.mark.parametrize(
    "redirection, reason",
    [(">&-", "standard output is closed"), (">/dev/full", "No space left on device")],
)
def test_catalog_names_a_lost_standard_output_in_one_line(
    tmp_path: Path, redirection: str, reason: str
) -> None:
    if redirection == ">/dev/full" and not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    contract = {"name": "t", "description": "d", "input": {"type": "object"}, "output": {}}
    (tmp_path / "tool.json").write_text(json.dumps(contract), encoding="utf-8")
    listed = _shell(redirection, "catalog", "tool.json", cwd=tmp_path)
    assert listed.returncode == 2
    assert listed.stderr == f"straightline: cannot write to standard output: {reason}\n"


def test_native_with_a_value_that_is_no_backend(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--native=VALUE` must name a backend; `--native VALUE` (a SRC after a bare --native)
    is the C backend and a source."""
    from generator.cli.main import main

    schema = tmp_path / "a.json"
    schema.write_text('{"type": "string"}', encoding="utf-8")
    with pytest.raises(SystemExit) as exited:
        main(["check", "--native=fast", str(schema), "--out", str(tmp_path / "out")])
    assert exited.value.code == 2
    assert "argument --native: must be one of c, mypyc" in capsys.readouterr().err
    assert main(["check", "--native", str(schema), "--out", str(tmp_path / "out")]) == 1
    assert "a.py" in capsys.readouterr().err  # checked as a source: its module is missing


def test_config_with_sources_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from generator.cli.main import main

    with pytest.raises(SystemExit) as exited:
        main(["compile", "--config", str(tmp_path / "pyproject.toml"), "a.json"])
    assert exited.value.code == 2
    assert "--config reads the project's contracts: give it without SRC" in capsys.readouterr().err


def test_a_reader_going_away_and_an_interrupt_end_the_command_quietly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    cli_main = importlib.import_module("generator.cli.main")  # (the module, not its main)

    def gone(argv: object) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(cli_main, "_main", gone)
    assert cli_main.main(["check"]) == 1
    monkeypatch.undo()

    def interrupted(args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_main, "validate_command", interrupted)
    assert cli_main.main(["validate", "--schema", "s.json", "d.json"]) == 130
    assert "Traceback" not in capsys.readouterr().err


def test_the_command_runs_outside_the_main_thread_without_a_signal_handler(
    tmp_path: Path,
) -> None:
    """SIGTERM's handler can only be set in the main thread: elsewhere (a build hook's thread)
    the command runs without it, and leaves the process's handler as it was."""
    import signal

    from generator.cli.main import main

    schema = tmp_path / "a.json"
    schema.write_text('{"type": "string"}', encoding="utf-8")
    before = signal.getsignal(signal.SIGTERM)
    with ThreadPoolExecutor(max_workers=1) as pool:
        status = pool.submit(main, ["compile", str(schema), "--out", str(tmp_path / "out")])
        assert status.result(timeout=300) == 0
    assert (tmp_path / "out" / "a.py").is_file()
    assert signal.getsignal(signal.SIGTERM) is before
