"""Calling a remote MCP tool guarded by a contract (ToolRuntime.register_protocol): the seed's
register_validated_protocol_json_tool.

The remote side is a third-party server written with the SDK alone
(tests/mcp_fixtures/third_party_server.py), run over stdio and over streamable HTTP on
127.0.0.1; it validates nothing and writes every tools/call it receives to a log file, so the
tests see what reached it. Denied input never reaches it and costs no budget; bad output is
rejected; an isError result, a timeout, a server that dies, a malformed response are typed
errors; each outcome is one record.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

from generated.tools import math_add  # noqa: E402
from generator.runtime import (
    BudgetExhausted,
    HandlerFailed,
    OutputRejected,
    ToolDenied,  # noqa: E402
    ToolRuntime,
)
from generator.runtime.mcp import (
    HttpServer,
    MalformedResponse,
    ProtocolTimeout,
    RemoteError,  # noqa: E402
    RemoteToolError,
    ServerGone,
    ServerUnavailable,
    StdioServer,
)

from .conftest import ROOT  # noqa: E402

FIXTURES = ROOT / "tests" / "mcp_fixtures"
BOUND = 120  # seconds: catches a hang, never a slow machine


class CallLog:
    """The third-party server's log of the tools/call requests it received."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def calls(self) -> list[dict[str, Any]]:
        if not self.path.exists():
            return []
        return [json.loads(line) for line in self.path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture()
def log(tmp_path: Path) -> CallLog:
    return CallLog(tmp_path / "calls.jsonl")


def third_party(log: CallLog, **options: Any) -> StdioServer:
    return StdioServer(
        [sys.executable, str(FIXTURES / "third_party_server.py")],
        env={"CALL_LOG": str(log.path)},
        **options,
    )


def _mcp_threads() -> list[threading.Thread]:
    return [
        thread for thread in threading.enumerate() if thread.name.startswith("straightline-mcp")
    ]


@pytest.fixture(autouse=True)
def _no_connection_left() -> Iterator[None]:
    yield
    assert _mcp_threads() == []


def _outcomes(runtime: ToolRuntime) -> list[str]:
    return [record.outcome for record in runtime.records()]


# --------------------------------------------------------------------------------- over stdio


def test_a_guarded_remote_tool_denied_input_never_reaches_the_server(log: CallLog) -> None:
    runtime = ToolRuntime()
    server = third_party(log)
    runtime.register_protocol(math_add, server, tool="add", budget=2)
    assert _mcp_threads() == []  # nothing is started before the first call
    with runtime:
        with pytest.raises(ToolDenied) as denied:
            runtime.call("math.add", {"left": 1, "right": "2"})
        assert denied.value.errors[0].instance_location == "/right"
        assert log.calls() == [] and _mcp_threads() == []  # not even connected
        assert runtime.remaining_budget("math.add") == 2
        assert runtime.call("math.add", {"left": 40, "right": 2}) == {"total": 42}
        with pytest.raises(ToolDenied):
            runtime.call("math.add", {"left": 1, "right": 2, "carry": 1})
        assert runtime.call("math.add", {"left": 1, "right": 2}) == {"total": 3}
        with pytest.raises(BudgetExhausted):
            runtime.call("math.add", {"left": 1, "right": 2})
    assert log.calls() == [
        {"tool": "add", "arguments": {"left": 40, "right": 2}},
        {"tool": "add", "arguments": {"left": 1, "right": 2}},
    ]
    assert _outcomes(runtime) == ["denied", "accepted", "denied", "accepted", "budget_exhausted"]
    assert [r.errors[0][0] for r in runtime.records() if r.outcome == "denied"] == [
        "/right",
        "/carry",
    ]


def test_bad_output_from_the_remote_tool_is_rejected_with_one_record(log: CallLog) -> None:
    runtime = ToolRuntime()
    runtime.register_protocol(math_add, third_party(log), tool="add.wrong", budget=5)
    with runtime, pytest.raises(OutputRejected) as rejected:
        runtime.call("math.add", {"left": 1, "right": 2})
    expected = math_add.output_errors({"sum": 3})  # total missing, sum not allowed
    assert [(e.instance_location, e.message) for e in rejected.value.errors] == [
        (e.instance_location, e.message) for e in expected
    ]
    assert log.calls() == [{"tool": "add.wrong", "arguments": {"left": 1, "right": 2}}]
    assert _outcomes(runtime) == ["output_rejected"]
    assert runtime.remaining_budget("math.add") == 4  # the call was made: it is consumed


def test_json_text_content_is_the_output_where_there_is_no_structured_content(log: CallLog) -> None:
    runtime = ToolRuntime()
    runtime.register_protocol(math_add, third_party(log), tool="add.text")
    with runtime:
        assert runtime.call("math.add", {"left": 2, "right": 3}) == {"total": 5}
    assert _outcomes(runtime) == ["accepted"]


def test_remote_failures_are_typed_errors_each_recorded(log: CallLog) -> None:
    """isError, a JSON-RPC error, text that is not JSON, a timeout: each a HandlerFailed chained
    to its typed error, one handler_error record each; the connection stays usable."""
    runtime = ToolRuntime()
    server = third_party(log)
    for name, tool, timeout in [
        ("fail", "fail", 30.0),
        ("nosuch", "nosuch", 30.0),
        ("words", "words", 30.0),
        ("slow", "slow", 1.0),
        ("add", "add", 30.0),
    ]:
        contract = _renamed(name)
        runtime.register_protocol(contract, server, tool=tool, timeout=timeout)
    causes: dict[str, BaseException | None] = {}
    with runtime:
        for name in ("fail", "nosuch", "words", "slow"):
            with pytest.raises(HandlerFailed) as failed:
                runtime.call(name, {"left": 1, "right": 2})
            causes[name] = failed.value.__cause__
        assert runtime.call("add", {"left": 1, "right": 2}) == {"total": 3}  # after the timeout too
    assert isinstance(causes["fail"], RemoteToolError) and causes["fail"].text == "the disk is full"
    assert isinstance(causes["nosuch"], RemoteError) and causes["nosuch"].code == -32602
    assert isinstance(causes["words"], MalformedResponse) and "not JSON" in causes["words"].message
    assert isinstance(causes["slow"], ProtocolTimeout)
    records = runtime.records()
    assert [(r.tool, r.outcome) for r in records] == [
        ("fail", "handler_error"),
        ("nosuch", "handler_error"),
        ("words", "handler_error"),
        ("slow", "handler_error"),
        ("add", "accepted"),
    ]
    assert records[0].detail == "RemoteToolError: fail: the remote tool failed: the disk is full"
    assert records[3].detail.startswith("ProtocolTimeout: slow: no response from the server")
    assert [call["tool"] for call in log.calls()] == ["fail", "nosuch", "words", "slow", "add"]


def _renamed(name: str) -> Any:
    """math.add's contract under another name (a compiled contract module)."""
    import generator

    return generator.compile_contract_module(
        {"name": name, "input": math_add.INPUT_SCHEMA, "output": math_add.OUTPUT_SCHEMA},
        format=False,
    )


def test_a_server_that_dies_is_a_typed_error_and_the_next_call_starts_it_again(
    log: CallLog,
) -> None:
    runtime = ToolRuntime()
    server = third_party(log)
    runtime.register_protocol(_renamed("die"), server, tool="die")
    runtime.register_protocol(math_add, server, tool="add")
    with runtime:
        with pytest.raises(HandlerFailed) as failed:
            runtime.call("die", {"left": 1, "right": 2})
        assert isinstance(failed.value.__cause__, ServerGone)
        assert runtime.call("math.add", {"left": 1, "right": 2}) == {"total": 3}
    assert [(r.tool, r.outcome) for r in runtime.records()] == [
        ("die", "handler_error"),
        ("math.add", "accepted"),
    ]
    assert [call["tool"] for call in log.calls()] == ["die", "add"]


def test_a_malformed_response_is_a_typed_error() -> None:
    runtime = ToolRuntime()
    runtime.register_protocol(
        math_add, StdioServer([sys.executable, str(FIXTURES / "malformed_server.py")]), tool="add"
    )
    with runtime, pytest.raises(HandlerFailed) as failed:
        runtime.call("math.add", {"left": 1, "right": 2})
    assert isinstance(failed.value.__cause__, MalformedResponse)
    assert "not a tools/call result" in failed.value.__cause__.message
    assert _outcomes(runtime) == ["handler_error"]


def test_a_server_that_cannot_start_is_a_typed_error(tmp_path: Path) -> None:
    runtime = ToolRuntime()
    runtime.register_protocol(
        math_add, StdioServer([str(tmp_path / "no-such-server")]), tool="add", budget=3
    )
    with runtime, pytest.raises(HandlerFailed) as failed:
        runtime.call("math.add", {"left": 1, "right": 2})
    assert isinstance(failed.value.__cause__, ServerUnavailable)
    assert "no-such-server" in failed.value.__cause__.message
    assert _outcomes(runtime) == ["handler_error"]
    assert runtime.remaining_budget("math.add") == 2


def test_a_handshake_that_never_comes_is_a_typed_error_within_the_connect_timeout(
    tmp_path: Path,
) -> None:
    silent = tmp_path / "silent.py"
    silent.write_text("import time\ntime.sleep(600)\n", encoding="utf-8")
    runtime = ToolRuntime()
    runtime.register_protocol(
        math_add, StdioServer([sys.executable, str(silent)], connect_timeout=1), tool="add"
    )
    with runtime, pytest.raises(HandlerFailed) as failed:
        runtime.call("math.add", {"left": 1, "right": 2})
    assert isinstance(failed.value.__cause__, ServerUnavailable)
    assert "no connection within 1 s" in failed.value.__cause__.message


def test_call_async_and_threads_share_one_connection(log: CallLog) -> None:
    runtime = ToolRuntime()
    server = third_party(log)
    runtime.register_protocol(math_add, server, tool="add")

    async def calls() -> list[Any]:
        denied = runtime.call_async("math.add", {"left": "x", "right": 1})
        with pytest.raises(ToolDenied):
            await denied
        return list(
            await asyncio.gather(
                *(runtime.call_async("math.add", {"left": n, "right": 1}) for n in range(4))
            )
        )

    results: list[Any] = []
    with runtime:
        assert asyncio.run(asyncio.wait_for(calls(), BOUND)) == [{"total": n + 1} for n in range(4)]
        threads = [
            threading.Thread(
                target=lambda n=n: results.append(runtime.call("math.add", {"left": n, "right": 0}))
            )
            for n in range(3)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(BOUND)
        assert len(_mcp_threads()) == 1
    assert sorted(r["total"] for r in results) == [0, 1, 2]
    assert _outcomes(runtime).count("accepted") == 7 and _outcomes(runtime)[0] == "denied"
    assert len(log.calls()) == 7


def test_close_ends_the_connection_and_a_later_call_starts_it_again(log: CallLog) -> None:
    runtime = ToolRuntime()
    runtime.register_protocol(math_add, third_party(log), tool="add")
    assert runtime.call("math.add", {"left": 1, "right": 1}) == {"total": 2}
    assert len(_mcp_threads()) == 1
    runtime.close()
    assert _mcp_threads() == []
    runtime.close()  # twice is fine
    assert runtime.call("math.add", {"left": 2, "right": 2}) == {"total": 4}
    runtime.close()
    assert _mcp_threads() == []


def test_register_protocol_refuses_what_is_not_a_server_or_a_timeout() -> None:
    runtime = ToolRuntime()
    with pytest.raises(TypeError, match="StdioServer or an HttpServer"):
        runtime.register_protocol(math_add, "python server.py")
    with pytest.raises(ValueError, match="timeout"):
        runtime.register_protocol(math_add, StdioServer(["server"]), timeout=0)
    with pytest.raises(TypeError, match="list of strings"):
        StdioServer("python server.py")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="http"):
        HttpServer("ftp://127.0.0.1/mcp")
    assert runtime.tools() == []


# ----------------------------------------------------------------------- over streamable HTTP


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture()
def http_third_party(log: CallLog) -> Iterator[str]:
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, str(FIXTURES / "third_party_server.py"), "--http", str(port)],
        env={**os.environ, "CALL_LOG": str(log.path)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + BOUND
        while True:  # bounded wait for it to listen
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert (
                    process.poll() is None and time.monotonic() < deadline
                ), "the server did not start"
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=BOUND)


def test_a_guarded_remote_tool_over_streamable_http(http_third_party: str, log: CallLog) -> None:
    runtime = ToolRuntime()
    runtime.register_protocol(math_add, HttpServer(http_third_party), tool="add", budget=3)
    runtime.register_protocol(_renamed("wrong"), HttpServer(http_third_party), tool="add.wrong")
    with runtime:
        with pytest.raises(ToolDenied):
            runtime.call("math.add", {"left": 1})
        assert runtime.call("math.add", {"left": 1, "right": 2}) == {"total": 3}
        with pytest.raises(OutputRejected):
            runtime.call("wrong", {"left": 1, "right": 2})
    assert runtime.remaining_budget("math.add") == 2
    assert _outcomes(runtime) == ["denied", "accepted", "output_rejected"]
    assert log.calls() == [
        {"tool": "add", "arguments": {"left": 1, "right": 2}},
        {"tool": "add.wrong", "arguments": {"left": 1, "right": 2}},
    ]


def test_import_reads_a_server_over_streamable_http(
    http_third_party: str, log: CallLog, tmp_path: Path
) -> None:
    from generator.cli import main

    out = tmp_path / "remote"
    assert main(["mcp", "import", "-o", str(out), "--url", http_third_party]) == 0
    assert json.loads((out / "add.json").read_text(encoding="utf-8"))["output"] == {
        "type": "object",
        "properties": {"total": {"type": "integer"}},
    }
    assert len(list(out.iterdir())) == 8
    assert log.calls() == []
