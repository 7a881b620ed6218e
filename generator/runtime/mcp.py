"""Protocol tools: contract-guarded tools on either side of the Model Context Protocol.

The seed's ``register_validated_protocol_json_tool``: a tool behind a protocol, whose calls are
completed externally, when the response arrives. MCP tools have the contracts' shape (an
``inputSchema`` and an ``outputSchema``, arguments in, ``structuredContent`` out, ``isError`` for a
failure the model should see), so a protocol tool is a contract-guarded tool that we serve or
one that we call. Everything on the wire is the official SDK's (``mcp``, the ``mcp`` extra): its
low-level server and its client; no protocol code of ours.

**Serve** (:func:`serve`, ``straightline mcp serve MODULE:ATTR``): ``tools/list`` publishes each
tool's contract schemas as they are; ``tools/call`` is ``runtime.call_async``, the runtime's one
path (input checked before a call is reserved, budget, record, output checked before it is
sent). Nothing of the SDK validates: the compiled contract decides. Denied input is an
``isError`` result naming each error's location (best match first), with the errors as JSON in
``structuredContent``; it costs no budget. Rejected output, a handler failure, an exhausted
budget are ``isError`` results with their reason.

**Call** (``ToolRuntime.register_protocol(contract, StdioServer([...]) | HttpServer(url))``):
the contract checks the input before anything is sent (denied input never reaches the server),
the remote ``structuredContent`` (or, without one, its JSON text content) is the handler's output
and is checked against the output contract. An ``isError`` result, a timeout, a server that dies
or a malformed response is a handler failure: recorded as ``handler_error`` and raised as
``HandlerFailed`` whose ``__cause__`` is the typed :class:`ProtocolError` below. The SDK's
client-side check of ``structuredContent`` is not used (the contract is the authority).

The connection lives in a thread of its own (an event loop that holds the SDK's client), so a
synchronous ``runtime.call`` and an ``await runtime.call_async`` both work; it starts on first
use and ends with ``runtime.close()`` (or ``with runtime:``), and after a server died the next
call starts it again.

The SDK is imported only when a server is connected or served; without it,
:class:`SDKNotInstalled` names the extra to install.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import importlib.util
import json
import math
import socket
import sys
import threading
from collections.abc import Awaitable, Callable, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TextIO

from .tools import (
    BudgetExhausted,
    ContractError,
    HandlerFailed,
    OutputRejected,
    ToolDenied,
    ToolRuntime,
    UnknownTool,
)

if TYPE_CHECKING:
    import mcp_types
    from mcp import Client
    from mcp.server.lowlevel import Server

__all__ = [
    "HttpServer",
    "MalformedResponse",
    "ProtocolError",
    "ProtocolTimeout",
    "RemoteError",
    "RemoteToolError",
    "SDKNotInstalled",
    "ServerGone",
    "ServerUnavailable",
    "StdioServer",
    "UnsendableNumber",
    "build_server",
    "list_tools",
    "protocol_handler",
    "serve",
    "serve_async",
]

EXTRA = "straightline[mcp]"
# How long closing a connection may take (the SDK gives a stdio server 2 s to exit on its own
# before it is terminated).
_CLOSE_SECONDS = 15.0


# ----------------------------------------------------------------------------------- errors


class SDKNotInstalled(ImportError):
    """The Model Context Protocol SDK (``mcp``) is not installed."""

    def __init__(self) -> None:
        super().__init__(
            "protocol tools need the Model Context Protocol SDK, which is not installed: "
            f"pip install '{EXTRA}'"
        )


class ProtocolError(Exception):
    """A remote tool's call failed in the protocol; ``tool`` is the remote tool's name and
    ``server`` says which server. The runtime records it as ``handler_error`` and raises
    ``HandlerFailed`` chained to it."""

    def __init__(self, message: str, *, tool: str | None = None, server: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.tool = tool
        self.server = server


class ServerUnavailable(ProtocolError):
    """The server could not be started or connected to, or its handshake failed."""


class ProtocolTimeout(ProtocolError):
    """No response within the tool's timeout (the connection stays usable)."""


class ServerGone(ProtocolError):
    """The connection closed while the call was in flight: the server exited or was closed."""


class MalformedResponse(ProtocolError):
    """The response is not a tools/call result, or it holds no JSON output."""


class RemoteError(ProtocolError):
    """The server answered with a JSON-RPC error (an unknown tool, say); ``code`` is its code."""

    def __init__(
        self, message: str, *, code: int, tool: str | None = None, server: str = ""
    ) -> None:
        super().__init__(message, tool=tool, server=server)
        self.code = code


class RemoteToolError(ProtocolError):
    """The remote tool answered with ``isError: true``; ``text`` is its text content."""

    def __init__(
        self, message: str, *, text: str, tool: str | None = None, server: str = ""
    ) -> None:
        super().__init__(message, tool=tool, server=server)
        self.text = text


class UnsendableNumber(ValueError):
    """A number a tool's schema or output holds that the protocol cannot carry: the SDK sends
    numbers as JSON's ints and doubles, and this one is beyond a double's range (it would
    arrive as infinity or null, or as zero). ``tool`` names the tool and
    ``location`` the JSON pointer, within its ``what`` (input schema, output schema, output)."""

    def __init__(self, number: object, *, tool: str, what: str, location: str) -> None:
        shown = str(number)
        shown = shown if len(shown) <= 40 else shown[:20] + "..." + shown[-12:]
        super().__init__(
            f"{tool}: the {what} holds {shown} at {location or '/'}, a number the protocol "
            "cannot carry (its numbers are sent as ints and doubles, and a double cannot hold "
            "this one)"
        )
        self.tool = tool
        self.what = what
        self.location = location


def require_sdk() -> None:
    """:class:`SDKNotInstalled` unless the SDK can be imported (it is not imported here)."""
    try:
        found = importlib.util.find_spec("mcp") is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        raise SDKNotInstalled()


# ---------------------------------------------------------------------------------- servers


class _Server:
    """A remote MCP server: one connection, started on first use, in a thread of its own."""

    def __init__(self, *, connect_timeout: float) -> None:
        if (
            isinstance(connect_timeout, bool)
            or not isinstance(connect_timeout, (int, float))
            or not connect_timeout > 0
            or not math.isfinite(connect_timeout)
        ):
            raise ValueError(
                f"connect_timeout must be a positive number of seconds, not {connect_timeout!r}"
            )
        self.connect_timeout = float(connect_timeout)
        self._state_lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        # in the loop: the client, the task that holds it open, and what ends that task
        self._client: Client | None = None
        self._holder: asyncio.Task[None] | None = None
        self._stop: asyncio.Event | None = None
        self._connecting: asyncio.Lock | None = None

    def _transport(self) -> Any:
        raise NotImplementedError

    def __str__(self) -> str:
        raise NotImplementedError

    # -- the loop's thread --------------------------------------------------------------------

    def _submit(self, coroutine: Awaitable[Any]) -> concurrent.futures.Future[Any]:
        """Run ``coroutine`` on the connection's loop, started if need be."""
        with self._state_lock:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                thread = threading.Thread(
                    target=loop.run_forever, name=f"straightline-mcp {self}", daemon=True
                )
                thread.start()
                self._loop, self._thread = loop, thread
            return asyncio.run_coroutine_threadsafe(_as_coroutine(coroutine), self._loop)

    def close(self) -> None:
        """Close the connection and stop its thread (a later call starts both again)."""
        with self._state_lock:
            loop, thread = self._loop, self._thread
            self._loop = self._thread = None
        if loop is None or thread is None:
            return
        try:
            asyncio.run_coroutine_threadsafe(self._shutdown(), loop).result(_CLOSE_SECONDS)
        except (concurrent.futures.TimeoutError, concurrent.futures.CancelledError, Exception):
            pass  # closing anyway: the thread below is stopped whatever the session did
        loop.call_soon_threadsafe(loop.stop)
        thread.join(_CLOSE_SECONDS)
        if not thread.is_alive():
            loop.close()
        with self._state_lock:
            if self._loop is None:  # (unless a call has started a new loop meanwhile)
                # what the stopped loop held: the next starts afresh (an asyncio.Lock is bound to one)
                self._client = self._holder = self._stop = self._connecting = None

    # -- in the loop ----------------------------------------------------------------------------

    async def _connected(self) -> Client:
        """The client, connected (once: concurrent first calls share one connection)."""
        if self._connecting is None:
            self._connecting = asyncio.Lock()
        async with self._connecting:
            if self._client is not None and self._holder is not None and not self._holder.done():
                return self._client
            self._client = None
            ready: asyncio.Future[Client] = asyncio.get_running_loop().create_future()
            self._stop = asyncio.Event()
            self._holder = asyncio.get_running_loop().create_task(self._hold(ready, self._stop))
            try:
                self._client = await asyncio.wait_for(asyncio.shield(ready), self.connect_timeout)
            except asyncio.TimeoutError:
                ready.cancel()
                self._holder.cancel()  # a handshake that never ends: its process is stopped
                raise ServerUnavailable(
                    f"{self}: no connection within {self.connect_timeout:g} s", server=str(self)
                ) from None
            except ProtocolError:
                raise
            except Exception as exc:
                raise ServerUnavailable(
                    f"{self}: cannot connect: {_reason(exc)}", server=str(self)
                ) from exc
            return self._client

    async def _hold(self, ready: asyncio.Future[Client], stop: asyncio.Event) -> None:
        """Open the SDK's client, hand it over, keep it open until ``stop`` (one task enters and
        leaves the client's context, as anyio requires)."""
        from mcp import Client

        try:
            async with Client(self._transport(), cache=None) as client:
                if not ready.done():
                    ready.set_result(client)
                await stop.wait()
        except BaseException as exc:  # a failed connect, or the connection's end
            if not ready.done():
                ready.set_exception(
                    exc
                    if isinstance(exc, Exception)
                    else ServerGone(f"{self}: the connection ended", server=str(self))
                )
            if not isinstance(exc, Exception):
                raise

    async def _shutdown(self) -> None:
        """Close the connection, then cancel every call still on the loop (each caller gets
        :class:`ServerGone`), so that no caller waits for a loop that has stopped."""
        await self._disconnect()
        others = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
        for task in others:
            task.cancel()
        if others:
            await asyncio.wait(others, timeout=_CLOSE_SECONDS)

    async def _disconnect(self) -> None:
        holder, stop = self._holder, self._stop
        self._client = self._holder = self._stop = None
        if stop is not None:
            stop.set()
        if holder is not None:
            try:
                await asyncio.wait_for(holder, _CLOSE_SECONDS)
            except BaseException:
                pass  # the connection is gone either way

    async def _call(self, tool: str, arguments: Any, timeout: float) -> mcp_types.CallToolResult:
        """One tools/call, its result parsed by the SDK but not checked against any schema."""
        import mcp_types
        import pydantic
        from mcp import MCPError

        client = await self._connected()
        request = mcp_types.CallToolRequest(
            params=mcp_types.CallToolRequestParams(name=tool, arguments=arguments)
        )
        where = {"tool": tool, "server": str(self)}
        try:
            return await asyncio.wait_for(
                client.session.send_request(
                    request, mcp_types.CallToolResult, request_read_timeout_seconds=timeout
                ),
                timeout + 1.0,
            )  # the SDK's own timeout is the one that fires; this one only bounds
        except asyncio.TimeoutError:
            raise ProtocolTimeout(
                f"{tool}: no response from {self} within {timeout:g} s", **where
            ) from None
        except MCPError as exc:
            if exc.code == mcp_types.REQUEST_TIMEOUT:
                raise ProtocolTimeout(
                    f"{tool}: no response from {self} within {timeout:g} s", **where
                ) from exc
            if exc.code == mcp_types.CONNECTION_CLOSED:
                if self._client is client:  # (not a connection another call has made since)
                    await self._disconnect()  # the next call connects again
                raise ServerGone(
                    f"{tool}: the connection to {self} closed during the call", **where
                ) from exc
            raise RemoteError(
                f"{tool}: {self} answered with error {exc.code}: {exc.message}",
                code=exc.code,
                **where,
            ) from exc
        except pydantic.ValidationError as exc:
            raise MalformedResponse(
                f"{tool}: {self} sent a response that is not a tools/call result: "
                f"{_first_problem(exc)}",
                **where,
            ) from exc

    async def _list_tools(self, timeout: float) -> list[mcp_types.Tool]:
        """Every tool the server lists (all pages)."""
        import mcp_types

        client = await self._connected()
        tools: list[mcp_types.Tool] = []
        cursor: str | None = None
        for _ in range(10_000):  # a server whose cursor never ends cannot hang us
            params = mcp_types.PaginatedRequestParams(cursor=cursor) if cursor else None
            page = await asyncio.wait_for(client.session.list_tools(params=params), timeout)
            tools.extend(page.tools)
            cursor = page.next_cursor
            if not cursor:
                return tools
        raise MalformedResponse(
            f"{self}: tools/list did not end after 10,000 pages", server=str(self)
        )


class StdioServer(_Server):
    """A server run as a command, spoken to over its standard input and output.

    ``command`` is the program and its arguments (``[sys.executable, "server.py"]``); ``env``
    adds to the SDK's default environment; ``errlog`` receives the server's standard error."""

    def __init__(
        self,
        command: Sequence[str],
        *,
        env: dict[str, str] | None = None,
        cwd: str | None = None,
        errlog: TextIO | None = None,
        connect_timeout: float = 30.0,
    ) -> None:
        if (
            isinstance(command, (str, bytes))
            or not isinstance(command, Sequence)
            or not command
            or not all(isinstance(part, str) for part in command)
        ):
            raise TypeError(
                "StdioServer takes the command as a non-empty list of strings, "
                "e.g. StdioServer([sys.executable, 'server.py'])"
            )
        if env is not None and not (
            isinstance(env, dict)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in env.items())
        ):
            raise TypeError("env must be a dict of strings")
        super().__init__(connect_timeout=connect_timeout)
        self.command = list(command)
        self.env = dict(env) if env is not None else None
        self.cwd = cwd
        self.errlog = errlog

    def _transport(self) -> Any:
        from mcp import StdioServerParameters, stdio_client

        parameters = StdioServerParameters(
            command=self.command[0], args=self.command[1:], env=self.env, cwd=self.cwd
        )
        return stdio_client(
            parameters,
            errlog=_with_descriptor(self.errlog if self.errlog is not None else sys.stderr),
        )

    def __str__(self) -> str:
        return f"the server {' '.join(self.command)!r}"

    def __repr__(self) -> str:
        return f"StdioServer({self.command!r})"


class HttpServer(_Server):
    """A server reached over streamable HTTP at ``url`` (``http://127.0.0.1:8000/mcp``)."""

    def __init__(self, url: str, *, connect_timeout: float = 30.0) -> None:
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise ValueError(f"HttpServer takes an http:// or https:// URL, not {url!r}")
        super().__init__(connect_timeout=connect_timeout)
        self.url = url

    def _transport(self) -> Any:
        from mcp.client.streamable_http import streamable_http_client

        return streamable_http_client(self.url)

    def __str__(self) -> str:
        return f"the server at {self.url}"

    def __repr__(self) -> str:
        return f"HttpServer({self.url!r})"


# ------------------------------------------------------------------------------ the caller


class _ProtocolHandler:
    """The handler of a protocol tool. Called where no event loop runs (``runtime.call``) it
    waits for the response; called on a running loop (``runtime.call_async``) it returns a
    coroutine, awaited there, which sends the request only when it runs (so a coroutine the
    runtime discards unawaited never reached the server)."""

    def __init__(self, server: _Server, tool: str, timeout: float) -> None:
        self.server = server
        self.tool = tool
        self.timeout = timeout

    def __call__(self, arguments: Any) -> Any:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return self._wait(self.server._submit(self._exchange(arguments)))
        return self._await(arguments)

    async def _await(self, arguments: Any) -> Any:
        future = self.server._submit(self._exchange(arguments))
        try:
            return await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            if future.cancelled() and not _current_task_cancelling():
                raise ServerGone(
                    f"{self.tool}: the connection to {self.server} was closed during the call",
                    tool=self.tool,
                    server=str(self.server),
                ) from None
            raise

    def _wait(self, future: concurrent.futures.Future[Any]) -> Any:
        try:
            return future.result()
        except concurrent.futures.CancelledError:
            raise ServerGone(
                f"{self.tool}: the connection to {self.server} was closed during the call",
                tool=self.tool,
                server=str(self.server),
            ) from None

    async def _exchange(self, arguments: Any) -> Any:
        result = await self.server._call(self.tool, arguments, self.timeout)
        return _output(result, self.tool, self.server)


def protocol_handler(server: Any, tool: Any, *, timeout: float = 30.0) -> Callable[[Any], Any]:
    """The handler ``ToolRuntime.register_protocol`` registers: ``tool`` of ``server``."""
    if not isinstance(server, _Server):
        raise TypeError(
            f"server must be a StdioServer or an HttpServer, not {type(server).__name__}"
        )
    if not isinstance(tool, str) or not tool:
        raise TypeError("the remote tool's name must be a non-empty string")
    if (
        isinstance(timeout, bool)
        or not isinstance(timeout, (int, float))
        or not timeout > 0
        or not math.isfinite(timeout)
    ):
        raise ValueError(f"timeout must be a positive number of seconds, not {timeout!r}")
    require_sdk()
    return _ProtocolHandler(server, tool, float(timeout))


def _output(result: mcp_types.CallToolResult, tool: str, server: _Server) -> Any:
    """The remote tool's output: its structuredContent, else its one JSON text content."""
    import mcp_types

    texts = [block.text for block in result.content if isinstance(block, mcp_types.TextContent)]
    where = {"tool": tool, "server": str(server)}
    if result.is_error:
        text = "\n".join(texts)
        raise RemoteToolError(
            f"{tool}: the remote tool failed: {text or '(no text)'}", text=text, **where
        )
    if result.structured_content is not None:
        return result.structured_content
    if len(texts) != 1:
        raise MalformedResponse(
            f"{tool}: the result has no structuredContent and {len(texts)} text contents "
            "(one JSON text is taken as the output)",
            **where,
        )
    try:
        return json.loads(texts[0])
    except ValueError as exc:
        raise MalformedResponse(
            f"{tool}: the result has no structuredContent and its text is not JSON: {exc}", **where
        ) from exc


def list_tools(server: Any, *, timeout: float = 30.0) -> list[dict[str, Any]]:
    """The tools ``server`` lists, as JSON (``name``, ``description``, ``inputSchema``, and
    ``outputSchema`` where the server declares one). Connects, lists, closes."""
    if not isinstance(server, _Server):
        raise TypeError(
            f"server must be a StdioServer or an HttpServer, not {type(server).__name__}"
        )
    require_sdk()
    try:
        tools = server._submit(server._list_tools(timeout)).result()
    except asyncio.TimeoutError:
        raise ProtocolTimeout(
            f"{server}: tools/list got no response within {timeout:g} s", server=str(server)
        ) from None
    except ProtocolError:
        raise
    except Exception as exc:
        from mcp import MCPError

        if isinstance(exc, MCPError):
            raise RemoteError(
                f"{server}: tools/list failed: {exc.message}", code=exc.code, server=str(server)
            ) from exc
        raise MalformedResponse(
            f"{server}: tools/list failed: {_reason(exc)}", server=str(server)
        ) from exc
    finally:
        server.close()
    return [
        tool.model_dump(
            by_alias=True,
            mode="json",
            exclude_none=True,
            include={"name", "description", "input_schema", "output_schema"},
        )
        for tool in tools
    ]


# ------------------------------------------------------------------------------ the server


def build_server(
    runtime: ToolRuntime, *, name: str = "straightline", version: str = ""
) -> Server[Any]:
    """The SDK's low-level server for ``runtime``: its tools listed with their contracts'
    schemas, and each call made through ``runtime.call_async``."""
    if not isinstance(runtime, ToolRuntime):
        raise TypeError(f"serve takes a ToolRuntime, not {type(runtime).__name__}")
    require_sdk()
    import mcp_types
    from mcp import MCPError
    from mcp.server.lowlevel import Server

    def listed() -> list[mcp_types.Tool]:
        return [
            mcp_types.Tool(
                name=entry["name"],
                description=entry["description"] or None,
                input_schema=_wire(entry["input_schema"], entry["name"], "input schema"),
                output_schema=_wire(entry["output_schema"], entry["name"], "output schema"),
            )
            for entry in runtime.catalog()
        ]

    listed()  # (a schema a double cannot carry is refused before the server starts)

    async def on_list_tools(ctx: Any, params: Any) -> mcp_types.ListToolsResult:
        return mcp_types.ListToolsResult(tools=listed())

    async def on_call_tool(
        ctx: Any, params: mcp_types.CallToolRequestParams
    ) -> mcp_types.CallToolResult:
        arguments = params.arguments if params.arguments is not None else {}
        try:
            output = await runtime.call_async(params.name, arguments)
        except UnknownTool:
            raise MCPError(
                code=mcp_types.INVALID_PARAMS, message=f"Unknown tool: {params.name}"
            ) from None
        except ToolDenied as denied:
            errors = _best_first(runtime, params.name, denied.errors)
            return _error_result("denied", f"{params.name}: input rejected", errors)
        except OutputRejected as rejected:
            errors = _best_first(runtime, params.name, rejected.errors)
            return _error_result(
                "output_rejected", f"{params.name}: the tool's output was rejected", errors
            )
        except BudgetExhausted as exhausted:
            return _error_result("budget_exhausted", exhausted.message, ())
        except HandlerFailed as failed:
            return _error_result("handler_error", failed.message, ())
        try:
            sent = _wire(output, params.name, "output")
        except UnsendableNumber as unsendable:
            return _error_result("output_rejected", str(unsendable), ())
        return mcp_types.CallToolResult(
            content=[mcp_types.TextContent(text=_json_text(sent))], structured_content=sent
        )

    return Server(name, version=version, on_list_tools=on_list_tools, on_call_tool=on_call_tool)


def _error_result(
    outcome: str, message: str, errors: Sequence[ContractError]
) -> mcp_types.CallToolResult:
    """An isError result: the reason, and each error's location and message, in text (for a
    model) and as JSON in structuredContent."""
    import mcp_types

    listed = [
        {
            "instanceLocation": e.instance_location,
            "keywordLocation": e.keyword_location,
            "message": e.message,
        }
        for e in errors
    ]
    lines = [message + (":" if listed else "")]
    lines += [f"- at {e['instanceLocation'] or 'the root'}: {e['message']}" for e in listed]
    return mcp_types.CallToolResult(
        content=[mcp_types.TextContent(text="\n".join(lines))],
        structured_content={"outcome": outcome, "message": message, "errors": listed},
        is_error=True,
    )


def _best_first(
    runtime: ToolRuntime, name: str, errors: Sequence[ContractError]
) -> list[ContractError]:
    """``errors`` with the contract module's best match first (as generated modules choose it)."""
    ordered = list(errors)
    try:
        best_match = getattr(runtime.contract(name), "best_match", None)
        best = best_match(ordered) if callable(best_match) and len(ordered) > 1 else None
    except Exception:  # the order is a courtesy: never a reason to fail the answer
        best = None
    if best is not None:
        for index, error in enumerate(ordered):
            if error is best:
                ordered.insert(0, ordered.pop(index))
                break
    return ordered


async def serve_async(
    runtime: ToolRuntime,
    *,
    http: str | None = None,
    name: str = "straightline",
    announce: Callable[[str], None] | None = None,
) -> None:
    """Serve ``runtime`` over stdio, or over streamable HTTP at ``http`` (``HOST:PORT``; port 0
    picks a free one), until the client leaves (stdio) or the task is cancelled. ``announce``
    is given the URL once the HTTP server listens."""
    server = build_server(runtime, name=name)
    if http is None:
        import contextlib

        from mcp.server.stdio import stdio_server

        async with stdio_server() as (read_stream, write_stream):
            # standard output is the protocol's: a handler's print goes to standard error
            with contextlib.redirect_stdout(sys.stderr):
                await server.run(read_stream, write_stream, server.create_initialization_options())
        return
    host, port = parse_address(http)
    import uvicorn

    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
        listener.listen(128)
        bound = listener.getsockname()[1]
        shown = f"[{host}]" if ":" in host else host
        app = server.streamable_http_app(host=host)
        config = uvicorn.Config(app, log_level="warning", lifespan="on")
        if announce is not None:
            announce(f"http://{shown}:{bound}/mcp")
        await uvicorn.Server(config).serve(sockets=[listener])
    finally:
        listener.close()


def serve(
    runtime: ToolRuntime,
    *,
    http: str | None = None,
    name: str = "straightline",
    announce: Callable[[str], None] | None = None,
) -> None:
    """:func:`serve_async`, run to its end in an event loop of its own."""
    build_server(
        runtime, name=name
    )  # a wrong argument or a missing SDK is raised here, before any loop
    asyncio.run(serve_async(runtime, http=http, name=name, announce=announce))


def parse_address(address: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6) as (host, port); ValueError saying why not."""
    if not isinstance(address, str):
        raise ValueError(f"expected HOST:PORT, not {address!r}")
    host, colon, port_text = address.rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if (
        not colon
        or not host
        or not port_text.isdigit()
        or not port_text.isascii()
        or int(port_text) > 65535
    ):
        raise ValueError(f"expected HOST:PORT (e.g. 127.0.0.1:8000), not {address!r}")
    return host, int(port_text)


# ------------------------------------------------------------------------------- JSON values


def _wire(value: Any, tool: str, what: str, at: str = "") -> Any:
    """``value`` as the SDK can send it: a Decimal (a number a float would round) as the
    nearest float, an integral one as its int; the rest as it is. UnsendableNumber for a
    Decimal no double holds (one that would become infinity or zero), never a changed schema or
    output (`tool`, `what` and the location `at` name where it is). (A float is finite here:
    contracts refuse infinity and NaN as no JSON number.)"""
    if isinstance(value, Decimal):
        if value.is_finite() and value == value.to_integral_value():
            return int(value)
        near = float(value)
        if not math.isfinite(near) or near == 0.0:  # (a value here is not integral: not 0)
            raise UnsendableNumber(value, tool=tool, what=what, location=at)
        return near
    if isinstance(value, dict):
        return {
            key: _wire(member, tool, what, at + "/" + _escaped(key))
            for key, member in value.items()
        }
    if isinstance(value, list):
        return [_wire(member, tool, what, f"{at}/{index}") for index, member in enumerate(value)]
    return value


def _escaped(key: Any) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def _json_text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _with_descriptor(stream: TextIO) -> TextIO:
    """``stream``, if a process can write to it; else the process's own standard error (a
    replaced sys.stderr, as under a test runner's capture, has no file descriptor)."""
    try:
        stream.fileno()
    except (AttributeError, OSError, ValueError):
        return sys.__stderr__ if sys.__stderr__ is not None else stream
    return stream


def _reason(exc: BaseException) -> str:
    """One line for an exception (an exception group: its first leaf)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def _first_problem(exc: Any) -> str:
    try:
        first = exc.errors()[0]
        where = "/".join(str(part) for part in first.get("loc", ()))
        return f"{first.get('msg', '')} at {where or 'the root'}"
    except Exception:
        return _reason(exc)


def _current_task_cancelling() -> bool:
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


async def _as_coroutine(awaitable: Awaitable[Any]) -> Any:
    return await awaitable
