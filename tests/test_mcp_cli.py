"""`straightline mcp import` and `straightline mcp serve`'s usage errors; the runtime's protocol
side without the compiler, and without the SDK.

`mcp import` reads a third-party server's tools/list (tests/mcp_fixtures/third_party_server.py,
over stdio) and writes contract files that `straightline compile` compiles; a tool whose schema
is outside the chosen profile is reported at its pointer and not written.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

from generator.cli import main  # noqa: E402

from .conftest import ROOT  # noqa: E402

FIXTURES = ROOT / "tests" / "mcp_fixtures"
THIRD_PARTY = [sys.executable, str(FIXTURES / "third_party_server.py")]
LISTED = ["add", "add.wrong", "add.text", "fail", "slow", "die", "words", "lookup"]


@pytest.fixture()
def call_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "calls.jsonl"
    monkeypatch.setenv("CALL_LOG", str(path))  # the SDK's stdio client passes it on
    return path


def test_import_writes_a_contract_per_tool_that_compile_compiles(
    tmp_path: Path, call_log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "contracts" / "remote"
    assert main(["mcp", "import", "-o", str(out), "--", *THIRD_PARTY]) == 0
    written = sorted(path.name for path in out.iterdir())
    assert written == sorted(f"{name}.json" for name in LISTED)
    add = json.loads((out / "add.json").read_text(encoding="utf-8"))
    assert add == {
        "name": "add",
        "description": "Adds left and right.",
        "profile": "draft2020-12",
        "input": {"type": "object"},
        "output": {"type": "object", "properties": {"total": {"type": "integer"}}},
    }
    # no outputSchema declared: an open output schema that says so (a contract needs one)
    fail = json.loads((out / "fail.json").read_text(encoding="utf-8"))
    assert fail["output"] == {
        "description": "The server declares no outputSchema: any JSON object or array."
    }
    assert f"{len(LISTED)} of {len(LISTED)} tools written" in capsys.readouterr().err
    assert not call_log.exists()  # listing calls no tool
    modules = tmp_path / "modules"
    assert (
        main(["compile", *sorted(str(path) for path in out.iterdir()), "--out", str(modules)]) == 0
    )
    assert (modules / "lookup.py").is_file() and (modules / "add_wrong.py").is_file()


def test_import_reports_a_schema_outside_the_profile_at_its_pointer_and_does_not_write_it(
    tmp_path: Path, call_log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "octoscript"
    assert (
        main(["mcp", "import", "-o", str(out), "--profile", "octoscript", "--", *THIRD_PARTY]) == 1
    )
    err = capsys.readouterr().err
    lookup = out / "lookup.json"
    assert f"{lookup}:/input/properties/code/pattern: " in err
    assert f"{lookup}: not written (tool 'lookup' is outside the octoscript profile)" in err
    assert not lookup.exists()
    written = sorted(path.name for path in out.iterdir())
    assert written == sorted(f"{name}.json" for name in LISTED if name != "lookup")
    assert f"{len(LISTED) - 1} of {len(LISTED)} tools written" in err
    assert (
        main(
            ["compile", *sorted(str(path) for path in out.iterdir()), "--out", str(tmp_path / "m")]
        )
        == 0
    )


def test_import_from_a_server_that_cannot_start_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(["mcp", "import", "-o", str(tmp_path / "out"), "--", str(tmp_path / "no-such-server")])
        == 1
    )
    err = capsys.readouterr().err.strip().splitlines()
    assert (
        len(err) == 1
        and err[0].startswith("straightline mcp import: the server ")
        and "cannot connect" in err[0]
    )
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["mcp", "import", "-o", "OUT"], "give the server as -- COMMAND ARGS... or as --url URL"),
        (
            ["mcp", "import", "-o", "OUT", "--url", "http://127.0.0.1:9/mcp", "--", "server"],
            "one of them",
        ),
        (["mcp", "import", "-o", "OUT", "--url", "ftp://x"], "--url"),
        (
            ["mcp", "import", "-o", "OUT", "--timeout", "inf", "--", "server"],
            "--timeout must be a positive number",
        ),
        (
            ["mcp", "import", "-o", "OUT", "--timeout", "0", "--", "server"],
            "--timeout must be a positive number",
        ),
        (["mcp", "serve", "tests.mcp_fixtures.served"], "expected MODULE:ATTR"),
        (
            ["mcp", "serve", "tests.mcp_fixtures.nowhere:runtime"],
            "no module named 'tests.mcp_fixtures.nowhere'",
        ),
        (["mcp", "serve", "tests.mcp_fixtures.served:nothing"], "has no attribute 'nothing'"),
        (["mcp", "serve", "tests.mcp_fixtures.served:ECHO_IN"], "is a dict, not a ToolRuntime"),
        (["mcp", "serve", "tests.mcp_fixtures.served:_boom"], "calling _boom() failed: TypeError"),
        (
            ["mcp", "serve", "tests.mcp_fixtures.served:runtime", "--http", "127.0.0.1"],
            "--http: expected HOST:PORT",
        ),
    ],
)
def test_usage_errors_are_one_line_and_status_2(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(arguments)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_serve_refuses_a_schema_the_protocol_cannot_carry_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A number no double holds (1e-400 would be sent as 0): status 2 and one line naming the
    tool and where, before any server starts; never a traceback or a changed schema."""
    assert main(["mcp", "serve", "tests.mcp_fixtures.served:build_unsendable"]) == 2
    err = capsys.readouterr().err
    assert "tiny: the input schema holds 1E-400 at /properties/x/minimum" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_import_refuses_an_output_path_that_is_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocking = tmp_path / "file"
    blocking.write_text("", encoding="utf-8")
    with pytest.raises(SystemExit) as exited:
        main(["mcp", "import", "-o", str(blocking), "--", *THIRD_PARTY])
    assert exited.value.code == 2
    assert "not a directory" in capsys.readouterr().err


BLOCKER = r"""
import sys
BLOCKED = {blocked!r}

class Block:
    def find_spec(self, name, path=None, target=None):
        if any(name == b or name.startswith(b + ".") for b in BLOCKED):
            raise ModuleNotFoundError("blocked: " + name, name=name)
        return None

sys.meta_path.insert(0, Block())
"""


def _run(program: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", program, *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_without_the_sdk_protocol_tools_are_a_typed_error_naming_the_extra() -> None:
    program = BLOCKER.format(blocked=["mcp", "mcp_types"]) + r"""
from generated.tools import math_add
from generator.runtime import ToolRuntime
from generator.runtime.mcp import SDKNotInstalled, StdioServer, serve
runtime = ToolRuntime()
for attempt in (lambda: runtime.register_protocol(math_add, StdioServer(["server"])), lambda: serve(runtime)):
    try:
        attempt()
    except SDKNotInstalled as error:
        assert isinstance(error, ImportError)
        print(error)
    else:
        raise AssertionError("no SDKNotInstalled")
assert runtime.tools() == []
from generator.cli import main
sys.exit(main(["mcp", "serve", "tests.mcp_fixtures.served:runtime"]))
"""
    result = _run(program)
    assert result.returncode == 2, result.stderr
    expected = (
        "protocol tools need the Model Context Protocol SDK, which is not installed: "
        "pip install 'straightline[mcp]'"
    )
    assert result.stdout.splitlines() == [expected, expected]
    assert result.stderr.strip() == f"straightline mcp: {expected}"


def test_the_protocol_runtime_imports_nothing_of_the_compiler_nor_the_sdk_until_used() -> None:
    blocked = [
        "black",
        "jinja2",
        "generator.api",
        "generator.emit",
        "generator.lower",
        "generator.render",
        "generator.preflight",
        "generator.resolve",
        "generator.contracts",
        "generator.regex",
        "generator.plan",
        "generator.keywords",
        "generator.codegen",
        "generator.profiles",
    ]
    program = BLOCKER.format(blocked=blocked) + r"""
import generator.runtime.mcp as protocol
from generated.tools import math_add
assert "mcp" not in sys.modules and "mcp_types" not in sys.modules
runtime = protocol.ToolRuntime()
runtime.register(math_add, lambda request: {"total": request["left"] + request["right"]})
remote = protocol.ToolRuntime()
remote.register_protocol(math_add, protocol.StdioServer(["server"]), tool="add")  # connects on first use
assert "mcp" not in sys.modules
protocol.build_server(runtime)
assert "mcp" in sys.modules
print("ok")
"""
    result = _run(program)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


@pytest.mark.parametrize("redirection", [">&-", ">/dev/full"])
def test_import_writes_every_contract_when_standard_output_is_lost(
    tmp_path: Path, redirection: str
) -> None:
    # the first contract's line is refused: the later tools are still imported, then exit 2
    if redirection == ">/dev/full" and not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    out = tmp_path / "contracts"
    command = " ".join(
        f"'{part}'"
        for part in (
            Path(sys.executable).parent / "straightline",
            "mcp",
            "import",
            "-o",
            out,
            "--",
            *THIRD_PARTY,
        )
    )
    errors = tmp_path / "stderr.txt"
    proc = subprocess.run(
        ["sh", "-c", f"exec {command} 2>'{errors}' {redirection}"],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=300,
    )
    stderr = errors.read_text(encoding="utf-8")
    assert proc.returncode == 2, stderr
    assert "Traceback" not in stderr
    assert f"{len(LISTED)} of {len(LISTED)} tools written" in stderr
    assert stderr.endswith("\n") and "cannot write to standard output: " in stderr.splitlines()[-1]
    assert sorted(path.name for path in out.iterdir()) == sorted(f"{n}.json" for n in LISTED)


TOOL = {"type": "object", "properties": {"a": {"type": "integer"}}}


def test_import_writes_each_usable_tool_once_and_names_the_others(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tool whose name is no file name, one listed twice, one whose file cannot be written:
    each is named on standard error and the others are written; a schema warning is shown at
    its pointer, and the tool still written."""
    import generator.cli.mcp as cli_mcp
    import generator.runtime.mcp

    tools = [
        {"name": "../escape", "inputSchema": TOOL},
        {"name": "add", "inputSchema": TOOL},
        {"name": "add", "inputSchema": {"type": "string"}},
        {"name": "full", "inputSchema": TOOL},
        {"name": "typo", "inputSchema": {"type": "object", "minProperty": 1}},
    ]
    monkeypatch.setattr(generator.runtime.mcp, "list_tools", lambda server, timeout: tools)
    write_atomic = cli_mcp.write_atomic

    def no_space(path: Path, data: str) -> None:
        if path.name == "full.json":
            raise OSError(28, "No space left on device")
        write_atomic(path, data)

    monkeypatch.setattr(cli_mcp, "write_atomic", no_space)
    out = tmp_path / "out"
    assert main(["mcp", "import", "-o", str(out), "--", "server-not-started"]) == 1
    err = capsys.readouterr().err
    assert "tool '../escape': the name is not a file-safe tool name" in err
    assert "tool 'add': listed twice: written once" in err
    assert f"{out / 'full.json'}: cannot write: No space left on device" in err
    assert "warning: unknown keyword" in err and "[unknown-keyword]" in err
    assert sorted(p.name for p in out.iterdir()) == ["add.json", "typo.json"]
    assert json.loads((out / "add.json").read_text())["input"] == TOOL  # the first listed


def test_a_runtime_module_that_fails_to_import_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """MODULE is imported from the current directory (as `python -m` would): a module that
    raises, or that imports a module that is not there, is named in one line, status 2."""
    (tmp_path / "raises_at_import.py").write_text("raise RuntimeError('no config')\n")
    (tmp_path / "needs_a_package.py").write_text("import not_installed_anywhere\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    for target, message in (
        ("raises_at_import:runtime", "importing raises_at_import failed: RuntimeError: no config"),
        (
            "needs_a_package:runtime",
            "importing needs_a_package failed: ModuleNotFoundError: "
            "No module named 'not_installed_anywhere'",
        ),
    ):
        with pytest.raises(SystemExit) as exited:
            main(["mcp", "serve", target])
        assert exited.value.code == 2
        assert f"{target}: {message}" in capsys.readouterr().err
    assert sys.path[0] == str(tmp_path)  # the current directory, put first once


def test_serve_says_what_it_serves_and_an_interrupt_is_status_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import generator.runtime.mcp

    def serve(runtime: Any, *, http: Any, name: Any, announce: Any) -> None:
        announce("stdio")

    monkeypatch.setattr(generator.runtime.mcp, "serve", serve)
    assert main(["mcp", "serve", "tests.mcp_fixtures.served:runtime"]) == 0
    assert "straightline mcp: serving " in capsys.readouterr().err

    def interrupted(*args: Any, **kwargs: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(generator.runtime.mcp, "serve", interrupted)
    assert main(["mcp", "serve", "tests.mcp_fixtures.served:runtime"]) == 130
