"""generator.runtime.mcp's client run in this process against servers that are in this process
too: the SDK's low-level server over its in-memory transport, or a stand-in for the session.
tools/list's pages, its errors and what it keeps of each tool; a call cut off by ``close``;
the servers' defaults. (tests/test_mcp_remote.py runs the same code against real processes.)
"""

from __future__ import annotations

import asyncio
import gc
import json
import socket
import sys
import threading
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

pytest.importorskip("mcp")

import mcp_types  # noqa: E402
from mcp import MCPError  # noqa: E402
from mcp.server.lowlevel import Server  # noqa: E402

from generator.runtime import mcp  # noqa: E402
from generator.runtime.mcp import (  # noqa: E402
    HttpServer,
    MalformedResponse,
    ProtocolTimeout,
    RemoteError,
    ServerGone,
    protocol_handler,
)

BOUND = 120  # seconds: catches a hang, never a slow machine

ListHandler = Callable[[Any, Any], Awaitable[mcp_types.ListToolsResult]]


class InMemory(mcp._Server):
    """A server reached through the SDK's in-memory transport; notes each timeout tools/list is
    given."""

    def __init__(self, on_list_tools: ListHandler, **options: Any) -> None:
        super().__init__(connect_timeout=BOUND)
        self.sdk_server = Server("in-memory", on_list_tools=on_list_tools, **options)
        self.timeouts: list[Any] = []

    def _transport(self) -> Any:
        return self.sdk_server

    def __str__(self) -> str:
        return "the in-memory server"

    async def _list_tools(self, timeout: float) -> list[mcp_types.Tool]:
        self.timeouts.append(timeout)
        return await super()._list_tools(timeout)


def _listing(*tools: mcp_types.Tool) -> ListHandler:
    async def on_list_tools(ctx: Any, params: Any) -> mcp_types.ListToolsResult:
        return mcp_types.ListToolsResult(tools=list(tools))

    return on_list_tools


def _failing(exc: BaseException) -> ListHandler:
    async def on_list_tools(ctx: Any, params: Any) -> mcp_types.ListToolsResult:
        raise exc

    return on_list_tools


# ------------------------------------------------------------------------------ list_tools


def test_list_tools_keeps_name_description_and_schemas_and_drops_the_rest() -> None:
    server = InMemory(
        _listing(
            mcp_types.Tool.model_validate(
                {
                    "name": "add",
                    "title": "Addition",
                    "description": "Adds two numbers.",
                    "inputSchema": {"type": "object", "properties": {"left": {"type": "integer"}}},
                    "outputSchema": {"type": "object", "required": ["total"]},
                    "annotations": {"readOnlyHint": True},
                    "_meta": {"origin": "test"},
                }
            ),
            mcp_types.Tool(name="bare", input_schema={"type": "object"}),
        )
    )
    assert mcp.list_tools(server) == [
        {
            "name": "add",
            "description": "Adds two numbers.",
            "inputSchema": {"type": "object", "properties": {"left": {"type": "integer"}}},
            "outputSchema": {"type": "object", "required": ["total"]},
        },
        {"name": "bare", "inputSchema": {"type": "object"}},
    ]
    assert server.timeouts == [30.0]
    assert server._loop is None  # closed after listing


def test_list_tools_gives_each_page_its_timeout() -> None:
    server = InMemory(_listing(mcp_types.Tool(name="one", input_schema={"type": "object"})))
    assert [tool["name"] for tool in mcp.list_tools(server, timeout=7.5)] == ["one"]
    assert server.timeouts == [7.5]


class Parsed(InMemory):
    """tools/list's tools as the client parsed them from the wire (where a server that is not
    the SDK's may have written ``Infinity``, which the parser reads as a float)."""

    def __init__(self, tools: list[mcp_types.Tool]) -> None:
        super().__init__(_listing())
        self.tools = tools

    async def _list_tools(self, timeout: float) -> list[mcp_types.Tool]:
        return self.tools


def test_a_listed_number_json_cannot_hold_comes_out_as_json() -> None:
    """The listing is JSON (``mode="json"``): a float JSON has no text for is its null."""
    wide = mcp_types.Tool.model_validate_json(
        '{"name": "wide", "inputSchema": {"type": "number", "maximum": Infinity}}'
    )
    [tool] = mcp.list_tools(Parsed([wide]))
    assert tool == {"name": "wide", "inputSchema": {"type": "number", "maximum": None}}
    assert json.loads(json.dumps(tool, allow_nan=False)) == tool


def test_a_tools_list_error_is_a_remote_error_with_its_code() -> None:
    server = InMemory(_failing(MCPError(code=-32042, message="no listing today")))
    with pytest.raises(RemoteError) as caught:
        mcp.list_tools(server)
    error = caught.value
    assert str(error) == "the in-memory server: tools/list failed: no listing today"
    assert (error.code, error.server, error.tool) == (-32042, "the in-memory server", None)
    assert isinstance(error.__cause__, MCPError)
    assert server._loop is None


def test_a_tools_list_that_never_answers_is_a_protocol_timeout() -> None:
    never = threading.Event()

    async def on_list_tools(ctx: Any, params: Any) -> mcp_types.ListToolsResult:
        await asyncio.to_thread(never.wait, BOUND)
        return mcp_types.ListToolsResult(tools=[])

    server = InMemory(on_list_tools)
    try:
        with pytest.raises(ProtocolTimeout) as caught:
            mcp.list_tools(server, timeout=0.25)
    finally:
        never.set()
    error = caught.value
    assert str(error) == "the in-memory server: tools/list got no response within 0.25 s"
    assert (error.server, error.tool) == ("the in-memory server", None)
    assert error.__cause__ is None and error.__suppress_context__


class Failing(InMemory):
    """tools/list fails in the client with an exception that is not the protocol's."""

    def __init__(self, exc: Exception) -> None:
        super().__init__(_listing())
        self.exc = exc

    async def _list_tools(self, timeout: float) -> list[mcp_types.Tool]:
        raise self.exc


def test_any_other_failure_of_tools_list_is_a_malformed_response() -> None:
    cause = ValueError("page 2 is not a page\nand more")
    server = Failing(cause)
    with pytest.raises(MalformedResponse) as caught:
        mcp.list_tools(server)
    error = caught.value
    assert str(error) == (
        "the in-memory server: tools/list failed: ValueError: page 2 is not a page"
    )
    assert (error.server, error.tool) == ("the in-memory server", None)
    assert error.__cause__ is cause
    assert server._loop is None


# ------------------------------------------------------------------- _Server._list_tools


class Page:
    def __init__(self, tools: list[str], next_cursor: str | None) -> None:
        self.tools = tools
        self.next_cursor = next_cursor


class Session:
    """A stand-in for the SDK's session: tools/list answered from ``pages`` by cursor (the
    first page under ``None``), each request's params noted."""

    def __init__(self, pages: dict[str | None, Page], *, endless: bool = False) -> None:
        self.pages = pages
        self.endless = endless
        self.params: list[Any] = []

    async def list_tools(self, *, params: Any) -> Page:
        self.params.append(params)
        if self.endless:
            return Page([], f"page {len(self.params)}")
        return self.pages[params.cursor if params is not None else None]


class Paged(mcp._Server):
    def __init__(self, session: Session) -> None:
        super().__init__(connect_timeout=BOUND)
        self.session = session

    def __str__(self) -> str:
        return "the paged server"

    async def _connected(self) -> Any:
        return self  # (the client: what _list_tools reads of it is .session)


def test_tools_list_follows_the_cursor_page_by_page(monkeypatch: pytest.MonkeyPatch) -> None:
    waits: list[Any] = []
    wait_for = asyncio.wait_for

    async def noting_wait_for(awaitable: Any, timeout: Any) -> Any:
        waits.append(timeout)
        return await wait_for(awaitable, timeout)

    monkeypatch.setattr(asyncio, "wait_for", noting_wait_for)
    session = Session(
        {
            None: Page(["a", "b"], "second"),
            "second": Page(["c"], "third"),
            "third": Page(["d"], ""),
        }
    )
    tools: list[Any] = asyncio.run(Paged(session)._list_tools(4.5))
    monkeypatch.undo()
    assert tools == ["a", "b", "c", "d"]
    assert session.params[0] is None
    assert [params.cursor for params in session.params[1:]] == ["second", "third"]
    assert all(isinstance(p, mcp_types.PaginatedRequestParams) for p in session.params[1:])
    assert waits == [4.5, 4.5, 4.5]


def test_a_cursor_that_never_ends_stops_after_10000_pages() -> None:
    session = Session({}, endless=True)
    with pytest.raises(MalformedResponse) as caught:
        asyncio.run(Paged(session)._list_tools(5))
    error = caught.value
    assert str(error) == "the paged server: tools/list did not end after 10,000 pages"
    assert (error.server, error.tool) == ("the paged server", None)
    assert len(session.params) == 10_000


# ------------------------------------------------------------------------ the caller


class Stuck(mcp._Server):
    """Every call waits until the connection is closed."""

    def __init__(self) -> None:
        super().__init__(connect_timeout=BOUND)
        self.calling = threading.Event()

    def __str__(self) -> str:
        return "the stuck server"

    async def _call(self, tool: str, arguments: Any, timeout: float) -> Any:
        self.calling.set()
        await asyncio.Event().wait()


def test_a_call_awaited_while_the_server_closes_is_server_gone() -> None:
    server = Stuck()
    handler = protocol_handler(server, "slow")

    async def body() -> None:
        task = asyncio.ensure_future(handler({"x": 1}))
        await asyncio.to_thread(server.calling.wait, BOUND)
        await asyncio.to_thread(server.close)
        with pytest.raises(ServerGone) as caught:
            await task
        error = caught.value
        assert str(error) == "slow: the connection to the stuck server was closed during the call"
        assert (error.tool, error.server) == ("slow", "the stuck server")
        assert error.__cause__ is None and error.__suppress_context__

    asyncio.run(asyncio.wait_for(body(), BOUND))


def test_a_call_awaited_by_a_task_that_is_cancelled_is_cancelled() -> None:
    server = Stuck()
    handler = protocol_handler(server, "slow")

    async def body() -> None:
        task = asyncio.ensure_future(handler({"x": 1}))
        await asyncio.to_thread(server.calling.wait, BOUND)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    try:
        asyncio.run(asyncio.wait_for(body(), BOUND))
    finally:
        server.close()


def test_an_http_server_waits_30_seconds_for_a_connection_by_default() -> None:
    server = HttpServer("http://127.0.0.1:9/mcp")
    assert server.connect_timeout == 30.0 and type(server.connect_timeout) is float


# ------------------------------------------------------------------------- serving over HTTP


def test_parse_address_bounds_the_port_and_takes_only_a_bracketed_pair_off() -> None:
    assert mcp.parse_address("127.0.0.1:65535") == ("127.0.0.1", 65535)
    with pytest.raises(ValueError) as caught:
        mcp.parse_address("127.0.0.1:65536")
    assert str(caught.value) == "expected HOST:PORT (e.g. 127.0.0.1:8000), not '127.0.0.1:65536'"
    # one bracket alone is part of the host (which binding then refuses)
    assert mcp.parse_address("[::1:8000") == ("[::1", 8000)
    assert mcp.parse_address("::1]:8000") == ("::1]", 8000)
    with pytest.raises(ValueError) as caught:
        mcp.parse_address(8000)  # type: ignore[arg-type]
    assert str(caught.value) == "expected HOST:PORT, not 8000"


def _host_refused(url: str) -> int:
    """The status of a request to ``url`` that claims another host (a DNS rebinding)."""
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=BOUND)
    try:
        connection.request(
            "POST",
            parts.path,
            body=b"{}",
            headers={
                "Host": "rebound.example:80",
                "Content-Type": "application/json",
                "Accept": "application/json, text/event-stream",
            },
        )
        return connection.getresponse().status
    finally:
        connection.close()


async def _list_names(url: str) -> tuple[str, list[str]]:
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    async with Client(streamable_http_client(url), cache=None) as client:
        assert client.server_info is not None
        listed = await client.list_tools()
        return client.server_info.name, [tool.name for tool in listed.tools]


def test_serve_runs_until_cancelled_under_its_default_name_quietly(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """serve in a thread of its own: the URL it announces, the default name, the DNS rebinding
    protection of a loopback host, uvicorn's info lines not written."""
    from .mcp_fixtures import served

    runtime = served.build()
    announced: list[tuple[str, asyncio.AbstractEventLoop, asyncio.Task[Any] | None]] = []
    listening = threading.Event()
    ended: list[BaseException | None] = []

    def announce(url: str) -> None:
        announced.append((url, asyncio.get_running_loop(), asyncio.current_task()))
        listening.set()

    def run() -> None:
        try:
            mcp.serve(runtime, http="127.0.0.1:0", announce=announce)
            ended.append(None)
        except BaseException as exc:  # noqa: BLE001  (what ended it is asserted below)
            ended.append(exc)
            listening.set()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert listening.wait(BOUND) and announced, ended
    [(url, loop, task)] = announced
    try:
        assert url.startswith("http://127.0.0.1:") and url.endswith("/mcp")
        name, tools = asyncio.run(asyncio.wait_for(_list_names(url), BOUND))
        assert name == "straightline"
        assert tools == [entry["name"] for entry in runtime.catalog()]
        assert _host_refused(url) == 421
    finally:
        assert task is not None
        loop.call_soon_threadsafe(task.cancel)
        thread.join(BOUND)
    assert not thread.is_alive()
    [end] = ended
    assert isinstance(end, asyncio.CancelledError)
    err = capsys.readouterr().err
    assert "Uvicorn running" not in err and "Application startup" not in err


def _has_ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


@pytest.mark.skipif(not _has_ipv6_loopback(), reason="this machine has no IPv6 loopback")
def test_serve_async_over_ipv6_loopback_announces_a_bracketed_url() -> None:
    from .mcp_fixtures import served

    async def body() -> None:
        announced: list[str] = []
        task = asyncio.ensure_future(
            mcp.serve_async(served.build(), http="[::1]:0", announce=announced.append)
        )
        while not announced:
            assert not task.done(), task
            await asyncio.sleep(0.05)
        [url] = announced
        assert url.startswith("http://[::1]:") and url.endswith("/mcp")
        name, tools = await _list_names(url)
        assert name == "straightline" and "math.add" in tools
        assert await asyncio.to_thread(_host_refused, url) == 421
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(asyncio.wait_for(body(), BOUND))


# ------------------------------------------------------------------------ serving over stdio


def test_serve_async_over_stdio_answers_and_sends_a_handlers_print_to_standard_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """serve_async's stdio branch in this process: the SDK's stdio_server replaced by memory
    streams (the real one takes over the process's descriptors 0 and 1)."""
    from contextlib import asynccontextmanager

    from mcp import Client
    from mcp.server import stdio as sdk_stdio
    from mcp.shared.memory import create_client_server_memory_streams

    from .mcp_fixtures import served

    async def body() -> None:
        async with create_client_server_memory_streams() as (client_streams, server_streams):

            @asynccontextmanager
            async def stdio_server() -> Any:
                yield server_streams

            @asynccontextmanager
            async def transport() -> Any:
                yield client_streams

            monkeypatch.setattr(sdk_stdio, "stdio_server", stdio_server)
            task = asyncio.ensure_future(mcp.serve_async(served.build(), name="piped"))
            async with Client(transport(), cache=None, mode="legacy") as client:
                assert client.server_info is not None and client.server_info.name == "piped"
                printed = await client.call_tool("echo.print", {"text": "still"})
                assert printed.structured_content == {"text": "still"}
            await client_streams[1].aclose()  # the client leaves: the server's input ends
            await task  # (returns: the client left)
            assert task.exception() is None

    asyncio.run(asyncio.wait_for(body(), BOUND))
    captured = capsys.readouterr()
    assert "a handler's print must not reach the protocol's standard output" in captured.err
    assert "a handler's print" not in captured.out


# ---------------------------------------------------------------------------- _Server._call


class Sending(mcp._Server):
    """tools/call through a stand-in session: ``answer`` returns a result or raises; each
    request and the SDK timeout it was given noted."""

    def __init__(self, answer: Callable[[], Awaitable[Any]]) -> None:
        super().__init__(connect_timeout=BOUND)
        self.answer = answer
        self.sent: list[tuple[Any, Any]] = []
        self.session = self

    def __str__(self) -> str:
        return "the stand-in server"

    async def _connected(self) -> Any:
        # the client (what _call reads of it is .session), held as a connected one is
        self._client = self  # type: ignore[assignment]
        return self

    async def send_request(
        self, request: Any, result_type: Any, *, request_read_timeout_seconds: Any
    ) -> Any:
        self.sent.append((request, request_read_timeout_seconds))
        return await self.answer()


def _raising(exc: BaseException) -> Callable[[], Awaitable[Any]]:
    async def answer() -> Any:
        raise exc

    return answer


def test_a_call_gives_the_sdk_its_timeout_and_bounds_it_a_second_later(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def answer() -> Any:
        return mcp_types.CallToolResult(content=[], structured_content={"y": 2})

    waits: list[Any] = []
    wait_for = asyncio.wait_for

    async def noting_wait_for(awaitable: Any, timeout: Any) -> Any:
        waits.append(timeout)
        return await wait_for(awaitable, timeout)

    server = Sending(answer)
    monkeypatch.setattr(asyncio, "wait_for", noting_wait_for)
    result = asyncio.run(server._call("t", {"a": 1}, 2.5))
    monkeypatch.undo()
    assert result.structured_content == {"y": 2}
    [(request, read_timeout)] = server.sent
    assert (request.params.name, request.params.arguments, read_timeout) == ("t", {"a": 1}, 2.5)
    assert waits == [3.5]


def test_a_response_that_is_no_call_result_is_malformed_naming_its_first_problem() -> None:
    async def answer() -> Any:
        return mcp_types.CallToolResult.model_validate({"content": 5})  # (raises)

    with pytest.raises(MalformedResponse) as caught:
        asyncio.run(asyncio.wait_for(Sending(answer)._call("t", {}, BOUND), BOUND))
    error = caught.value
    assert str(error) == (
        "t: the stand-in server sent a response that is not a tools/call result: "
        "Input should be a valid list at content"
    )
    assert (error.tool, error.server) == ("t", "the stand-in server")


def test_a_call_the_sdk_never_times_out_is_bounded_by_ours() -> None:
    async def never() -> Any:
        await asyncio.Event().wait()

    with pytest.raises(ProtocolTimeout) as caught:
        asyncio.run(asyncio.wait_for(Sending(never)._call("t", {}, 0.05), BOUND))
    error = caught.value
    assert str(error) == "t: no response from the stand-in server within 0.05 s"
    assert (error.tool, error.server) == ("t", "the stand-in server")
    assert error.__cause__ is None and error.__suppress_context__


def test_the_sdks_timeout_is_a_protocol_timeout() -> None:
    cause = MCPError(code=mcp_types.REQUEST_TIMEOUT, message="timed out")
    with pytest.raises(ProtocolTimeout) as caught:
        asyncio.run(Sending(_raising(cause))._call("t", {}, 4))
    error = caught.value
    assert str(error) == "t: no response from the stand-in server within 4 s"
    assert (error.tool, error.server, error.__cause__) == ("t", "the stand-in server", cause)


def test_an_error_response_is_a_remote_error_with_its_code() -> None:
    cause = MCPError(code=-32050, message="not today")
    with pytest.raises(RemoteError) as caught:
        asyncio.run(Sending(_raising(cause))._call("t", {}, 4))
    error = caught.value
    assert str(error) == "t: the stand-in server answered with error -32050: not today"
    assert (error.code, error.tool, error.server) == (-32050, "t", "the stand-in server")
    assert error.__cause__ is cause


def test_a_connection_closed_during_a_call_is_server_gone_and_dropped() -> None:
    cause = MCPError(code=mcp_types.CONNECTION_CLOSED, message="closed")
    server = Sending(_raising(cause))
    with pytest.raises(ServerGone) as caught:
        asyncio.run(server._call("t", {}, 4))
    error = caught.value
    assert str(error) == "t: the connection to the stand-in server closed during the call"
    assert (error.tool, error.server, error.__cause__) == ("t", "the stand-in server", cause)
    assert server._client is None  # the next call connects again


def test_a_connection_that_fails_is_server_unavailable_with_its_reason() -> None:
    class Unreachable(InMemory):
        def _transport(self) -> Any:
            raise OSError("no route to the server\nmore")

    server = Unreachable(_listing())
    with pytest.raises(mcp.ServerUnavailable) as caught:
        mcp.list_tools(server)
    error = caught.value
    assert str(error) == "the in-memory server: cannot connect: OSError: no route to the server"
    assert (error.tool, error.server) == (None, "the in-memory server")
    assert isinstance(error.__cause__, OSError)


def test_a_failed_connection_still_closing_does_not_stop_the_next_from_connecting() -> None:
    class Lingering(InMemory):
        """The first connection fails but its task lingers (its transport still closing)."""

        attempts = 0

        async def _hold(self, ready: asyncio.Future[Any], stop: asyncio.Event) -> None:
            self.attempts += 1
            if self.attempts > 1:
                return await super()._hold(ready, stop)
            ready.set_exception(OSError("refused"))
            await asyncio.Event().wait()  # until close cancels it

    async def on_call_tool(ctx: Any, params: Any) -> mcp_types.CallToolResult:
        return mcp_types.CallToolResult(content=[], structured_content={"n": params.arguments})

    server = Lingering(_listing(), on_call_tool=on_call_tool)
    handler = protocol_handler(server, "count")  # (list_tools would close after each failure)
    try:
        with pytest.raises(mcp.ServerUnavailable):
            handler({"i": 1})
        assert handler({"i": 2}) == {"n": {"i": 2}}
        assert server.attempts == 2
    finally:
        server.close()


def test_a_connection_not_made_in_time_is_server_unavailable_naming_the_server() -> None:
    class Silent(InMemory):
        """A connection that never completes (its handshake never answered)."""

        async def _hold(self, ready: asyncio.Future[Any], stop: asyncio.Event) -> None:
            await asyncio.Event().wait()

    server = Silent(_listing())
    server.connect_timeout = 0.25
    try:
        with pytest.raises(mcp.ServerUnavailable) as caught:
            protocol_handler(server, "t")({})
    finally:
        server.close()
    error = caught.value
    assert str(error) == "the in-memory server: no connection within 0.25 s"
    assert (error.tool, error.server) == (None, "the in-memory server")
    assert error.__cause__ is None and error.__suppress_context__


def test_calls_share_one_connection_while_it_lasts() -> None:
    async def on_call_tool(ctx: Any, params: Any) -> mcp_types.CallToolResult:
        return mcp_types.CallToolResult(content=[], structured_content={"n": params.arguments})

    class Counting(InMemory):
        connections = 0

        def _transport(self) -> Any:
            self.connections += 1
            return super()._transport()

    server = Counting(_listing(), on_call_tool=on_call_tool)
    handler = protocol_handler(server, "count")
    try:
        assert [handler({"i": i}) for i in range(3)] == [{"n": {"i": i}} for i in range(3)]
        assert server.connections == 1
    finally:
        server.close()


def test_a_call_waited_for_while_the_server_closes_is_server_gone() -> None:
    server = Stuck()
    handler = protocol_handler(server, "slow")
    outcome: list[BaseException] = []

    def call() -> None:
        try:
            handler({"x": 1})
        except BaseException as exc:  # noqa: BLE001  (asserted below)
            outcome.append(exc)

    caller = threading.Thread(target=call, daemon=True)
    caller.start()
    assert server.calling.wait(BOUND)
    server.close()
    caller.join(BOUND)
    [error] = outcome
    assert isinstance(error, ServerGone)
    assert str(error) == "slow: the connection to the stuck server was closed during the call"
    assert (error.tool, error.server) == ("slow", "the stuck server")
    assert error.__cause__ is None and error.__suppress_context__


def test_a_stdio_servers_transport_has_its_command_cwd_and_error_stream(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    import mcp as sdk

    made: list[tuple[Any, Any]] = []

    def stdio_client(parameters: Any, *, errlog: Any) -> str:
        made.append((parameters, errlog))
        return "the transport"

    monkeypatch.setattr(sdk, "stdio_client", stdio_client)
    with open(tmp_path / "given", "w") as given, open(tmp_path / "stderr", "w") as stderr:
        monkeypatch.setattr(sys, "stderr", stderr)
        server = mcp.StdioServer(["python", "s.py", "-q"], env={"A": "1"}, cwd="/srv", errlog=given)
        assert server._transport() == "the transport"
        assert mcp.StdioServer(["python"])._transport() == "the transport"
        [(parameters, errlog), (plain, plain_errlog)] = made
        assert (parameters.command, parameters.args, parameters.env, parameters.cwd) == (
            "python",
            ["s.py", "-q"],
            {"A": "1"},
            "/srv",
        )
        assert errlog is given
        assert (plain.command, plain.args, plain.env, plain.cwd) == ("python", [], None, None)
        assert plain_errlog is stderr  # (the standard error of the moment)


def test_remote_errors_name_no_server_unless_told() -> None:
    assert RemoteError("m", code=1).server == ""
    assert mcp.RemoteToolError("m", text="t").server == ""


def test_a_remote_tools_failure_names_the_tool_and_the_server() -> None:
    async def on_call_tool(ctx: Any, params: Any) -> mcp_types.CallToolResult:
        return mcp_types.CallToolResult(content=[mcp_types.TextContent(text="boom")], is_error=True)

    server = InMemory(_listing(), on_call_tool=on_call_tool)
    try:
        with pytest.raises(mcp.RemoteToolError) as caught:
            protocol_handler(server, "fails")({})
    finally:
        server.close()
    error = caught.value
    assert (str(error), error.text) == ("fails: the remote tool failed: boom", "boom")
    assert (error.tool, error.server) == ("fails", "the in-memory server")


def test_text_that_is_not_json_names_the_tool_and_the_server() -> None:
    result = mcp_types.CallToolResult(content=[mcp_types.TextContent(text="{oops")])
    with pytest.raises(MalformedResponse) as caught:
        mcp._output(result, "t", Sending(_raising(ValueError())))
    assert (caught.value.tool, caught.value.server) == ("t", "the stand-in server")


def test_a_built_server_is_named_straightline_with_no_version() -> None:
    from mcp import Client

    from generator.runtime import ToolRuntime

    async def body() -> Any:
        async with Client(mcp.build_server(ToolRuntime()), cache=None, mode="legacy") as client:
            return client.server_info

    info = asyncio.run(asyncio.wait_for(body(), BOUND))
    assert info is not None and (info.name, info.version) == ("straightline", "")


def test_a_connection_ended_by_what_is_not_an_exception_is_server_gone() -> None:
    class Ended(BaseException):
        pass

    class Ending(InMemory):
        def _transport(self) -> Any:
            raise Ended()

    server = Ending(_listing())
    with pytest.raises(ServerGone) as caught:
        mcp.list_tools(server)
    error = caught.value
    assert str(error) == "the in-memory server: the connection ended"
    assert (error.tool, error.server) == (None, "the in-memory server")


def test_the_connections_thread_never_keeps_the_process_alive() -> None:
    server = InMemory(_listing())

    async def nothing() -> int:
        return 1

    try:
        assert server._submit(nothing()).result(BOUND) == 1
        assert server._thread is not None and server._thread.daemon is True
    finally:
        server.close()


def test_without_a_process_standard_error_the_stream_is_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import io

    stream = io.StringIO()
    monkeypatch.setattr(sys, "__stderr__", None)
    assert mcp._with_descriptor(stream) is stream


class _Contract:
    @staticmethod
    def best_match(errors: list[Any]) -> Any:
        return errors[-1]


class _Runtime:
    def contract(self, name: str) -> Any:
        return _Contract()


def test_the_best_of_two_errors_comes_first() -> None:
    first, second = object(), object()
    ordered = mcp._best_first(_Runtime(), "t", [first, second])  # type: ignore[arg-type,list-item]
    assert ordered == [second, first]


class _Problem:
    def __init__(self, location: str) -> None:
        self.instance_location = location
        self.keyword_location = "/type"
        self.message = f"{location} is wrong"


class _Ranked:
    """A contract stand-in that rejects what its side names (input or output) with two errors,
    the second of them its best match."""

    DESCRIPTION = ""
    EnvelopeError = ValueError

    def __init__(self, side: str) -> None:
        self.side = side
        self.NAME = f"ranked.{side}"
        self.CATALOG_ENTRY = {
            "name": self.NAME,
            "description": "",
            "input_schema": {"type": "object"},
            "output_schema": {"type": "object"},
        }

    def best_match(self, errors: list[Any]) -> Any:
        return errors[1]

    def is_valid_input(self, instance: Any) -> bool:
        return self.side != "input"

    def input_errors(self, instance: Any) -> list[Any]:
        return [_Problem("/first"), _Problem("/second")]

    def is_valid_output(self, instance: Any) -> bool:
        return self.side != "output"

    output_errors = input_errors


def test_a_served_call_lists_the_contracts_best_match_first() -> None:
    from mcp import Client

    from generator.runtime import ToolRuntime

    runtime = ToolRuntime()
    for side in ("input", "output"):
        runtime.register(_Ranked(side), lambda request: request)

    async def body() -> list[mcp_types.CallToolResult]:
        async with Client(mcp.build_server(runtime), cache=None) as client:
            return [await client.call_tool(f"ranked.{side}", {}) for side in ("input", "output")]

    denied, rejected = asyncio.run(asyncio.wait_for(body(), BOUND))
    for result, outcome in ((denied, "denied"), (rejected, "output_rejected")):
        assert result.is_error and result.structured_content is not None
        assert result.structured_content["outcome"] == outcome
        listed = result.structured_content["errors"]
        assert [e["instanceLocation"] for e in listed] == ["/second", "/first"]


def test_serve_hands_its_arguments_to_serve_async(monkeypatch: pytest.MonkeyPatch) -> None:
    from generator.runtime import ToolRuntime

    given: list[tuple[Any, ...]] = []

    async def serve_async(runtime: Any, *, http: Any, name: Any, announce: Any) -> None:
        given.append((runtime, http, name, announce))

    monkeypatch.setattr(mcp, "serve_async", serve_async)
    runtime = ToolRuntime()
    mcp.serve(runtime, http="127.0.0.1:0", name="other", announce=print)
    assert given == [(runtime, "127.0.0.1:0", "other", print)]


# ------------------------------------------------------------------ closing, and what it waits for


class Connecting(InMemory):
    """Calls answered with their arguments; counts its connections."""

    def __init__(self) -> None:
        async def on_call_tool(ctx: Any, params: Any) -> mcp_types.CallToolResult:
            return mcp_types.CallToolResult(content=[], structured_content={"n": params.arguments})

        super().__init__(_listing(), on_call_tool=on_call_tool)
        self.connections = 0

    def _transport(self) -> Any:
        self.connections += 1
        return super()._transport()


def _in_thread(function: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    """``function`` run in a thread of its own; the list gets what it returned or raised."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(function())
        except BaseException as exc:  # noqa: BLE001  (the caller asserts on it)
            outcome.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, outcome


def test_a_close_that_cannot_stop_the_loop_in_time_gives_up_and_the_next_call_starts_afresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A loop held up by a callback that blocks its thread: close waits _CLOSE_SECONDS (made
    short here) for the session, as long for the thread, then returns without closing the loop
    that still runs, and forgets that loop's connection: the next call connects in a new one."""
    monkeypatch.setattr(mcp, "_CLOSE_SECONDS", 0.2)
    server = Connecting()
    handler = protocol_handler(server, "count", timeout=30)
    blocking, released = threading.Event(), threading.Event()

    async def block() -> None:
        blocking.set()
        released.wait()  # (blocks the loop's own thread)

    old_loop = old_thread = None
    try:
        assert handler({"i": 1}) == {"n": {"i": 1}}
        old_loop, old_thread = server._loop, server._thread
        assert old_loop is not None and old_thread is not None
        server._submit(block())
        assert blocking.wait(BOUND)
        closing, closed = _in_thread(server.close)
        closing.join(BOUND)
        assert closed == [None]  # returned, and raised nothing
        assert not old_loop.is_closed() and server._loop is None
        released.set()
        old_thread.join(BOUND)
        assert not old_thread.is_alive()
        assert handler({"i": 2}) == {"n": {"i": 2}}
        assert server._loop is not None and server._loop is not old_loop
        assert server.connections == 2  # (not the connection of the loop that was stopped)
    finally:
        released.set()
        server.close()
        if old_loop is not None and old_thread is not None and not old_thread.is_alive():
            # what the stopped loop still held: ended here, so nothing is left pending
            left = asyncio.all_tasks(old_loop)
            for task in left:
                task.cancel()
            if left:
                old_loop.run_until_complete(asyncio.wait(left, timeout=BOUND))
            old_loop.close()


def test_a_normal_close_closes_the_loop_and_ends_its_thread() -> None:
    server = Connecting()
    handler = protocol_handler(server, "count")
    try:
        assert handler({"i": 1}) == {"n": {"i": 1}}
        loop, thread = server._loop, server._thread
        assert loop is not None and thread is not None
    finally:
        server.close()
    assert loop.is_closed() and not thread.is_alive()
    assert server._loop is None and server._thread is None


def test_a_failed_connection_leaves_no_task_error_for_asyncio_to_report(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The holder hands its failure to the caller through ``ready`` and keeps none of its own
    (else asyncio logs "Task exception was never retrieved" once the task is dropped)."""

    class Unreachable(InMemory):
        def _transport(self) -> Any:
            raise OSError("refused")

    server = Unreachable(_listing())
    handler = protocol_handler(server, "t")
    try:
        for _ in range(3):  # (each new attempt drops the task of the one before)
            with pytest.raises(mcp.ServerUnavailable) as caught:
                handler({})
            assert str(caught.value) == "the in-memory server: cannot connect: OSError: refused"
    finally:
        server.close()
    gc.collect()
    assert [r.getMessage() for r in caplog.records if "never retrieved" in r.getMessage()] == []


class Closing(mcp._Server):
    """A connection whose every call finds it closed, and whose transport then takes forever to
    close (until cancelled); notes what closing it went through."""

    def __init__(self) -> None:
        super().__init__(connect_timeout=BOUND)
        self.session = self
        self.closing: list[str] = []

    def __str__(self) -> str:
        return "the closing server"

    async def _hold(self, ready: asyncio.Future[Any], stop: asyncio.Event) -> None:
        ready.set_result(self)  # (the client: what _call reads of it is .session)
        await stop.wait()
        self.closing.append("asked")
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            self.closing.append("cancelled")
            raise

    async def send_request(self, request: Any, result_type: Any, **options: Any) -> Any:
        raise MCPError(code=mcp_types.CONNECTION_CLOSED, message="closed")


def test_a_connection_closed_during_a_call_is_given_close_seconds_to_end_then_cancelled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Before the call's ServerGone is raised, the closed connection's task is asked to end,
    waited for _CLOSE_SECONDS (made short here) and, still running, cancelled."""
    monkeypatch.setattr(mcp, "_CLOSE_SECONDS", 0.2)
    server = Closing()
    handler = protocol_handler(server, "t")
    try:
        calling, outcome = _in_thread(lambda: handler({}))
        calling.join(BOUND)
        [error] = outcome
        assert isinstance(error, ServerGone)
        assert str(error) == "t: the connection to the closing server closed during the call"
        assert server.closing == ["asked", "cancelled"]
        assert server._client is None
    finally:
        server.close()


class SlowToLeave(Stuck):
    """Every call waits until cancelled, then takes a moment to give its request up."""

    async def _call(self, tool: str, arguments: Any, timeout: float) -> Any:
        self.calling.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            await asyncio.sleep(0.5)
            raise


def test_close_waits_for_a_cancelled_call_to_end_so_its_caller_hears_server_gone() -> None:
    server = SlowToLeave()
    handler = protocol_handler(server, "slow")
    calling, outcome = _in_thread(lambda: handler({"x": 1}))
    assert server.calling.wait(BOUND)
    server.close()
    calling.join(BOUND)
    [error] = outcome
    assert isinstance(error, ServerGone)
    assert str(error) == "slow: the connection to the stuck server was closed during the call"
