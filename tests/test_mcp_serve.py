"""Serving a ToolRuntime over the Model Context Protocol (generator.runtime.mcp.serve), driven by
the SDK's own client: in process, over stdio in a subprocess (`straightline mcp serve`), and over
streamable HTTP on 127.0.0.1.

tools/list publishes the contracts' schemas unchanged; tools/call takes the runtime's one path:
denied input is an isError result naming each error (best match first) and costs no budget;
rejected output, a handler failure and an exhausted budget are isError results with their
reason; async and externally completed handlers take the same path; each call leaves one record.
"""

from __future__ import annotations

import asyncio
import logging
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable, Iterator
from decimal import Decimal
from typing import Any

import pytest

pytest.importorskip("mcp")

import anyio  # noqa: E402  (the SDK's dependency)
import mcp_types  # noqa: E402
from mcp import Client, MCPError, StdioServerParameters  # noqa: E402

from generated.tools import math_add  # noqa: E402
from generator.runtime import ToolRuntime  # noqa: E402
from generator.runtime.mcp import (  # noqa: E402
    UnsendableNumber,
    build_server,
    parse_address,
)

from .conftest import ROOT  # noqa: E402
from .mcp_fixtures import served  # noqa: E402

BOUND = 120  # seconds: catches a hang, never a slow machine


def run(body: Callable[[], Awaitable[Any]]) -> Any:
    async def bounded() -> Any:
        with anyio.fail_after(BOUND):
            return await body()

    return anyio.run(bounded)


def in_process(runtime: ToolRuntime, body: Callable[[Client], Awaitable[Any]]) -> Any:
    """``body`` run against ``runtime`` served in this process, through the SDK's client."""

    async def session() -> Any:
        async with Client(build_server(runtime), cache=None) as client:
            return await body(client)

    return run(session)


def _texts(result: mcp_types.CallToolResult) -> str:
    return "\n".join(
        block.text for block in result.content if isinstance(block, mcp_types.TextContent)
    )


def _counting(runtime: ToolRuntime) -> list[Any]:
    """math.add registered with a handler that notes every input it is given."""
    seen: list[Any] = []

    def add(request: Any) -> Any:
        seen.append(request)
        return {"total": request["left"] + request["right"]}

    runtime.register(math_add, add, budget=2)
    return seen


# ------------------------------------------------------------------------------- in process


def test_tools_list_publishes_each_contract_schemas_unchanged() -> None:
    runtime = served.build()

    async def body(client: Client) -> Any:
        return await client.list_tools()

    listed = in_process(runtime, body)
    published = [
        tool.model_dump(by_alias=True, mode="json", exclude_none=True) for tool in listed.tools
    ]
    assert published == [
        {
            "name": entry["name"],
            "description": entry["description"],
            "inputSchema": entry["input_schema"],
            "outputSchema": entry["output_schema"],
        }
        for entry in runtime.catalog()
    ]
    assert published[0]["inputSchema"] == math_add.INPUT_SCHEMA


def test_a_valid_call_returns_the_structured_output_and_one_accepted_record() -> None:
    runtime = ToolRuntime()
    seen = _counting(runtime)

    async def body(client: Client) -> Any:
        return await client.call_tool("math.add", {"left": 40, "right": 2})

    result = in_process(runtime, body)
    assert not result.is_error
    assert result.structured_content == {"total": 42}
    assert _texts(result) == '{"total":42}'
    assert seen == [{"left": 40, "right": 2}]
    assert [r.outcome for r in runtime.records()] == ["accepted"]
    assert runtime.remaining_budget("math.add") == 1


def test_denied_input_is_an_is_error_result_naming_the_field_and_costs_no_budget() -> None:
    runtime = ToolRuntime()
    seen = _counting(runtime)

    async def body(client: Client) -> Any:
        return await client.call_tool("math.add", {"left": 1, "right": "2"})

    result = in_process(runtime, body)
    [error] = math_add.input_errors({"left": 1, "right": "2"})
    assert (error.instance_location, error.keyword_location) == ("/right", "/properties/right/type")
    assert result.is_error
    assert _texts(result).splitlines() == [
        "math.add: input rejected:",
        f"- at /right: {error.message}",
    ]
    assert result.structured_content == {
        "outcome": "denied",
        "message": "math.add: input rejected",
        "errors": [
            {
                "instanceLocation": "/right",
                "keywordLocation": "/properties/right/type",
                "message": error.message,
            }
        ],
    }
    assert seen == []
    assert runtime.remaining_budget("math.add") == 2
    assert [(r.outcome, r.errors) for r in runtime.records()] == [
        ("denied", (("/right", "/properties/right/type", error.message),))
    ]


def test_denied_input_lists_every_error_the_best_match_first() -> None:
    runtime = ToolRuntime()
    _counting(runtime)
    bad = {"left": "1", "carry": 1}

    async def body(client: Client) -> Any:
        return await client.call_tool("math.add", bad)

    result = in_process(runtime, body)
    errors = math_add.input_errors(bad)
    best = math_add.best_match(errors)
    assert best is not None and len(errors) == 3
    listed = result.structured_content["errors"]
    assert len(listed) == 3
    assert (listed[0]["instanceLocation"], listed[0]["message"]) == (
        best.instance_location,
        best.message,
    )
    assert sorted(e["message"] for e in listed) == sorted(e.message for e in errors)
    assert (
        _texts(result).splitlines()[1]
        == f"- at {best.instance_location or 'the root'}: {best.message}"
    )


def test_missing_arguments_are_an_empty_object_to_the_contract() -> None:
    runtime = ToolRuntime()
    seen = _counting(runtime)

    async def body(client: Client) -> Any:
        return await client.call_tool("math.add")

    result = in_process(runtime, body)
    assert result.is_error and result.structured_content["outcome"] == "denied"
    assert {e["message"] for e in result.structured_content["errors"]} == {
        '"left" is a required property',
        '"right" is a required property',
    }
    assert seen == [] and runtime.remaining_budget("math.add") == 2


def test_rejected_output_a_failing_handler_and_an_exhausted_budget_are_is_error_results() -> None:
    runtime = served.build()

    async def body(client: Client) -> list[Any]:
        calls = [
            ("echo.wrong", {"text": "a"}),
            ("echo.boom", {"text": "a"}),
            ("math.add", {"left": 1, "right": 1}),
            ("math.add", {"left": 1, "right": 1}),
            ("math.add", {"left": 1, "right": 1}),
        ]
        return [await client.call_tool(name, arguments) for name, arguments in calls]

    wrong, boom, first, second, third = in_process(runtime, body)
    assert wrong.is_error and wrong.structured_content["outcome"] == "output_rejected"
    [error] = runtime.contract("echo.wrong").output_errors({"text": 5})
    assert wrong.structured_content["errors"] == [
        {
            "instanceLocation": "/text",
            "keywordLocation": "/properties/text/type",
            "message": error.message,
        }
    ]
    assert _texts(wrong).splitlines() == [
        "echo.wrong: the tool's output was rejected:",
        f"- at /text: {error.message}",
    ]
    assert boom.is_error and boom.structured_content["outcome"] == "handler_error"
    assert _texts(boom) == "echo.boom: the handler failed: RuntimeError: the handler broke"
    assert not first.is_error and not second.is_error
    assert third.is_error and third.structured_content["outcome"] == "budget_exhausted"
    assert _texts(third) == "math.add: the call budget is exhausted"
    assert [(r.tool, r.outcome) for r in runtime.records()] == [
        ("echo.wrong", "output_rejected"),
        ("echo.boom", "handler_error"),
        ("math.add", "accepted"),
        ("math.add", "accepted"),
        ("math.add", "budget_exhausted"),
    ]


def test_async_and_externally_completed_handlers_take_the_same_path() -> None:
    runtime = served.build()

    async def body(client: Client) -> list[Any]:
        return [
            await client.call_tool("echo.async", {"text": "hi"}),
            await client.call_tool("echo.deferred", {"text": "there"}),
            await client.call_tool("echo.deferred", {"text": "far too long"}),
        ]

    async_result, deferred, denied = in_process(runtime, body)
    assert async_result.structured_content == {"text": "hi"}
    assert deferred.structured_content == {"text": "there"}
    assert denied.is_error and denied.structured_content["errors"][0]["instanceLocation"] == "/text"
    assert [(r.tool, r.outcome) for r in runtime.records()] == [
        ("echo.async", "accepted"),
        ("echo.deferred", "accepted"),
        ("echo.deferred", "denied"),
    ]
    assert runtime.pending() == []


def test_an_unknown_tool_is_a_protocol_error_and_a_denied_record() -> None:
    runtime = ToolRuntime()
    _counting(runtime)

    async def body(client: Client) -> Any:
        with pytest.raises(MCPError) as raised:
            await client.call_tool("math.subtract", {"left": 1, "right": 2})
        return raised.value

    error = in_process(runtime, body)
    assert error.code == mcp_types.INVALID_PARAMS and "math.subtract" in error.message
    assert [(r.tool, r.outcome, r.detail) for r in runtime.records()] == [
        ("math.subtract", "denied", "unknown tool")
    ]


def test_a_number_only_a_decimal_holds_is_published_and_sent_as_the_nearest_float() -> None:
    import generator

    contract = generator.compile_contract_module(
        '{"name": "exact", "profile": "draft2020-12", "input": {"type": "object", "properties": '
        '{"x": {"maximum": 0.30000000000000000001}}}, "output": {"type": "object"}}',
        format=False,
    )
    assert contract.INPUT_SCHEMA["properties"]["x"]["maximum"] == Decimal("0.30000000000000000001")
    runtime = ToolRuntime()
    runtime.register(
        contract,
        lambda request: {"exact": Decimal("0.30000000000000000001"), "whole": Decimal("2")},
    )

    async def body(client: Client) -> Any:
        return await client.list_tools(), await client.call_tool("exact", {"x": 0.3})

    listed, result = in_process(runtime, body)
    assert listed.tools[0].input_schema == {"type": "object", "properties": {"x": {"maximum": 0.3}}}
    assert result.structured_content == {"exact": 0.3, "whole": 2}
    assert type(result.structured_content["whole"]) is int
    assert _texts(result) == '{"exact":0.3,"whole":2}'


def _contract_with(number: str) -> Any:
    import generator

    return generator.compile_contract_module(
        '{"name": "edge", "profile": "draft2020-12", "input": {"type": "object", "properties": '
        '{"a b": {"type": "array", "prefixItems": [{"maximum": '
        + number
        + '}]}}}, "output": {"type": "object"}}',
        format=False,
    )


HUGE = "1" + "0" * 309 + ".5"  # (a double's largest is about 1.8e308: this one is infinity)


@pytest.mark.parametrize("number", [HUGE, "-" + HUGE, "1e-400", "-2.5e-330"])
def test_a_schema_number_no_double_holds_is_refused_before_the_server_starts(number: str) -> None:
    """Sent as the nearest double, it would arrive as infinity (which the SDK writes as null)
    or as zero: a changed schema. Refused instead, naming the tool and the location."""
    runtime = ToolRuntime()
    runtime.register(_contract_with(number), lambda request: {})
    with pytest.raises(UnsendableNumber) as caught:
        build_server(runtime)
    error = caught.value
    assert (error.tool, error.what, error.location) == (
        "edge",
        "input schema",
        "/properties/a b/prefixItems/0/maximum",
    )
    assert "edge: the input schema holds" in str(error) and "/properties/a b/prefixItems/0" in str(
        error
    )


def test_an_output_schema_s_number_is_refused_with_its_escaped_location() -> None:
    import generator

    contract = generator.compile_contract_module(
        '{"name": "edge", "profile": "draft2020-12", "input": {"type": "object"}, "output": '
        '{"type": "object", "properties": {"m~x": {"maximum": 1e-400}}}}',
        format=False,
    )
    runtime = ToolRuntime()
    runtime.register(contract, lambda request: {})
    with pytest.raises(UnsendableNumber) as caught:
        build_server(runtime)
    error = caught.value
    assert (error.tool, error.what, error.location) == (
        "edge",
        "output schema",
        "/properties/m~0x/maximum",
    )
    assert str(error).startswith("edge: the output schema holds 1E-400 at /properties/m~0x/")


def test_a_schema_number_a_double_holds_near_its_limits_is_sent() -> None:
    """The largest and smallest numbers a double holds (subnormals included) are sent as the
    nearest double, and an integral one of any size as its int."""
    for number, sent in [
        ("1.7976931348623157e308", 1.7976931348623157e308),
        ("5e-324", 5e-324),
        ("-2.2250738585072014e-308", -2.2250738585072014e-308),
        ("1e400", 10**400),
    ]:
        runtime = ToolRuntime()
        runtime.register(_contract_with(number), lambda request: {})

        async def body(client: Client) -> Any:
            return await client.list_tools()

        listed = in_process(runtime, body)
        items = listed.tools[0].input_schema["properties"]["a b"]["prefixItems"]
        assert items == [{"maximum": sent}], number


@pytest.mark.parametrize(
    "output,location",
    [
        ({"x": Decimal(HUGE)}, "/x"),
        ({"x": [1, Decimal("1e-400")]}, "/x/1"),
        ({"a/b": {"c": Decimal("-" + HUGE)}}, "/a~1b/c"),
    ],
)
def test_an_output_number_no_double_holds_is_an_is_error_result(
    output: dict[str, Any], location: str
) -> None:
    """Never sent as "Infinity", null or 0: an isError result naming where it is. (A float
    infinity or NaN never gets this far: the contract refuses it as no JSON number.)"""
    runtime = ToolRuntime()
    runtime.register(_contract_with("1"), lambda request: output)

    async def body(client: Client) -> Any:
        return await client.call_tool("edge", {})

    result = in_process(runtime, body)
    assert result.is_error is True
    text = _texts(result)
    assert "edge: the output holds" in text and f"at {location}," in text, text
    assert "Infinity" not in text and "NaN" not in text
    assert result.structured_content == {
        "outcome": "output_rejected",
        "message": text,
        "errors": [],
    }


def test_serve_takes_a_tool_runtime() -> None:
    with pytest.raises(TypeError, match="ToolRuntime"):
        build_server(math_add)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "address",
    ["127.0.0.1", "127.0.0.1:", ":80", "localhost:http", "127.0.0.1:70000", "127.0.0.1:٨٠"],
)
def test_a_bad_http_address_is_refused(address: str) -> None:
    with pytest.raises(ValueError, match="HOST:PORT"):
        parse_address(address)


def test_http_addresses() -> None:
    assert parse_address("127.0.0.1:0") == ("127.0.0.1", 0)
    assert parse_address("[::1]:8000") == ("::1", 8000)


# -------------------------------------------------------------------------- out of process

SERVE = [sys.executable, "-m", "generator", "mcp", "serve", "tests.mcp_fixtures.served:build"]


async def _served_scenario(client: Client) -> None:
    """What the issue asks of a served tool, through a real transport."""
    listed = await client.list_tools()
    math = next(tool for tool in listed.tools if tool.name == "math.add")
    assert (math.input_schema, math.output_schema, math.description) == (
        math_add.INPUT_SCHEMA,
        math_add.OUTPUT_SCHEMA,
        math_add.DESCRIPTION,
    )
    denied = await client.call_tool("math.add", {"left": 1})
    assert denied.is_error
    assert '- at the root: "right" is a required property' in _texts(denied)
    # the budget of 2 is untouched by the denied call: two calls get through, the third not
    for left in (1, 2):
        result = await client.call_tool("math.add", {"left": left, "right": 40})
        assert not result.is_error and result.structured_content == {"total": left + 40}
    exhausted = await client.call_tool("math.add", {"left": 3, "right": 40})
    assert exhausted.is_error and exhausted.structured_content["outcome"] == "budget_exhausted"
    deferred = await client.call_tool("echo.deferred", {"text": "ok"})
    assert deferred.structured_content == {"text": "ok"}
    printed = await client.call_tool("echo.print", {"text": "still"})
    assert printed.structured_content == {"text": "still"}


def test_served_over_stdio_by_the_command(caplog: pytest.LogCaptureFixture) -> None:
    parameters = StdioServerParameters(command=SERVE[0], args=SERVE[1:], cwd=str(ROOT))

    async def session() -> None:
        async with Client(parameters, cache=None) as client:
            await _served_scenario(client)

    with caplog.at_level(logging.ERROR, logger="mcp.client.stdio"):
        run(session)
    # the SDK's client logs each line of the server's standard output that is not a message:
    # echo.print's print went to standard error instead
    assert [
        record.getMessage() for record in caplog.records if record.name == "mcp.client.stdio"
    ] == []


def test_served_over_stdio_in_the_handshake_era() -> None:
    parameters = StdioServerParameters(command=SERVE[0], args=SERVE[1:], cwd=str(ROOT))

    async def session() -> None:
        async with Client(parameters, cache=None, mode="legacy") as client:
            await _served_scenario(client)

    run(session)


@pytest.fixture()
def http_server() -> Iterator[str]:
    """`straightline mcp serve --http 127.0.0.1:0` in a subprocess; its URL, read from the line it
    prints once it listens."""
    process = subprocess.Popen(
        [*SERVE, "--http", "127.0.0.1:0"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    lines: queue.Queue[str] = queue.Queue()
    assert process.stderr is not None
    stderr = process.stderr
    threading.Thread(target=lambda: [lines.put(line) for line in stderr], daemon=True).start()
    try:
        line = lines.get(timeout=BOUND)
        assert line.startswith("straightline mcp: serving 6 tools at http://127.0.0.1:"), line
        url = line.rsplit(" ", 1)[1].strip()
        assert url.endswith("/mcp")
        yield url
    finally:
        process.terminate()
        process.wait(timeout=BOUND)


def test_served_over_streamable_http(http_server: str) -> None:
    async def session() -> None:
        async with Client(http_server, cache=None) as client:
            await _served_scenario(client)

    run(session)


def test_serve_async_over_http_in_this_process_announces_its_url_and_answers() -> None:
    """serve_async's HTTP branch run in this process (the subprocess tests above run it where no
    mutant of the runtime is active): the URL it announces, the name it serves under, and the
    served scenario; cancelling the task stops it."""
    from mcp.client.streamable_http import streamable_http_client

    from generator.runtime.mcp import serve_async

    async def body() -> None:
        announced: list[str] = []
        task = asyncio.ensure_future(
            serve_async(served.build(), http="127.0.0.1:0", name="here", announce=announced.append)
        )
        while not announced:
            assert not task.done(), task
            await asyncio.sleep(0.05)
        [url] = announced
        assert url.startswith("http://127.0.0.1:") and url.endswith("/mcp")
        assert int(url.removeprefix("http://127.0.0.1:").removesuffix("/mcp")) > 0
        async with Client(streamable_http_client(url), cache=None) as client:
            assert client.server_info is not None and client.server_info.name == "here"
            await _served_scenario(client)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(asyncio.wait_for(body(), BOUND))
