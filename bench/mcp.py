"""Validation cost per tools/call on the served side of the Model Context Protocol.

The seed's math.add tool, served three ways with the official SDK (`mcp`):

| server | how a tools/call is validated |
|---|---|
| straightline | `generator.runtime.mcp.build_server`: the compiled contract, through the ToolRuntime |
| SDK jsonschema | the same low-level server validating with the SDK's own means: python-jsonschema validators built once (as the SDK's client checks structuredContent: `validator_for(schema)(schema, registry=Registry())`, `best_match(iter_errors(x))`), input then output |
| SDK pydantic | `MCPServer` (the SDK's FastMCP) with `def add(left: int, right: int) -> AddOutput`: its argument model and its output conversion |

Two figures, each per call and per instance (a valid call; a denied one):

- **validation**: the checks one tools/call makes, called directly: the contract's
  `is_valid_input` and `is_valid_output` (its errors too, on denied input), the runtime's whole
  path around a trivial handler (owned copies, budget, record), the jsonschema validators, the
  pydantic argument model and output conversion. Ratios: other / straightline contract.
- **tools/call**: the whole request through the SDK's client, in process (the SDK's direct
  dispatch: no transport), so the share of validation in a call can be read off.

Before any timing, each implementation answers each instance once and is compared with the
expected answer; one that disagrees (pydantic's lax mode takes `"2"` for an int) is reported and
not timed on that instance.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any, TypedDict

from .timing import FULL, QUICK, measure_side_by_side

ADD_OUTPUT = {"total": 3}
INSTANCES: list[tuple[str, dict[str, Any], bool]] = [
    ("valid call", {"left": 1, "right": 2}, True),
    ("denied: missing field", {"left": 1}, False),
    ("denied: string for int", {"left": 1, "right": "2"}, False),
]
STRAIGHTLINE = "straightline contract"


def _available() -> str | None:
    try:
        import mcp  # noqa: F401
    except ImportError:
        return "the mcp SDK is not installed (pip install 'straightline[mcp]')"
    return None


def _validators() -> dict[str, Callable[[dict[str, Any]], bool]]:
    """Each implementation's checks of one tools/call: True if the call is accepted (input
    valid, output checked), False if the input is denied (its errors computed, as a served
    denial needs them)."""
    from jsonschema import exceptions as jsonschema_exceptions
    from jsonschema.validators import validator_for
    from referencing import Registry

    from generated.tools import math_add
    from generator.runtime import ToolDenied, ToolRuntime

    runtime = ToolRuntime(max_records=16)
    runtime.register(math_add, lambda request: ADD_OUTPUT)

    def contract(arguments: dict[str, Any]) -> bool:
        if not math_add.is_valid_input(arguments):
            math_add.input_errors(arguments)
            return False
        return math_add.is_valid_output(ADD_OUTPUT)

    def runtime_path(arguments: dict[str, Any]) -> bool:
        try:
            runtime.call("math.add", arguments)
        except ToolDenied:
            return False
        return True

    input_validator = validator_for(math_add.INPUT_SCHEMA)(
        math_add.INPUT_SCHEMA, registry=Registry()
    )
    output_validator = validator_for(math_add.OUTPUT_SCHEMA)(
        math_add.OUTPUT_SCHEMA, registry=Registry()
    )
    best_match = jsonschema_exceptions.best_match

    def jsonschema_sdk(arguments: dict[str, Any]) -> bool:
        if best_match(input_validator.iter_errors(arguments)) is not None:
            return False
        return best_match(output_validator.iter_errors(ADD_OUTPUT)) is None

    metadata = _pydantic_tool().fn_metadata

    def pydantic_sdk(arguments: dict[str, Any]) -> bool:
        import pydantic

        try:
            metadata.validate_arguments(arguments)
        except pydantic.ValidationError:
            return False
        metadata.convert_result(dict(ADD_OUTPUT))
        return True

    return {
        STRAIGHTLINE: contract,
        "straightline runtime path": runtime_path,
        "SDK jsonschema": jsonschema_sdk,
        "SDK pydantic (MCPServer)": pydantic_sdk,
    }


def _pydantic_tool() -> Any:
    return _pydantic_server()._tool_manager.get_tool("math.add")


class AddOutput(TypedDict):
    total: int


def add(left: int, right: int) -> AddOutput:
    """Adds two integer fields. (The SDK reads the annotations: module level, so they resolve.)"""
    return {"total": left + right}


def _pydantic_server() -> Any:
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("pydantic")
    server.add_tool(add, name="math.add")
    return server


def _servers() -> dict[str, Any]:
    """The three servers, the same tool in each."""
    import mcp_types
    from jsonschema import exceptions as jsonschema_exceptions
    from jsonschema.validators import validator_for
    from mcp.server.lowlevel import Server
    from referencing import Registry

    from generated.tools import math_add
    from generator.runtime import ToolRuntime
    from generator.runtime.mcp import build_server

    runtime = ToolRuntime(max_records=16)
    runtime.register(math_add, lambda request: {"total": request["left"] + request["right"]})
    input_validator = validator_for(math_add.INPUT_SCHEMA)(
        math_add.INPUT_SCHEMA, registry=Registry()
    )
    output_validator = validator_for(math_add.OUTPUT_SCHEMA)(
        math_add.OUTPUT_SCHEMA, registry=Registry()
    )
    best_match = jsonschema_exceptions.best_match

    async def list_tools(ctx: Any, params: Any) -> mcp_types.ListToolsResult:
        return mcp_types.ListToolsResult(
            tools=[
                mcp_types.Tool(
                    name="math.add",
                    input_schema=math_add.INPUT_SCHEMA,
                    output_schema=math_add.OUTPUT_SCHEMA,
                )
            ]
        )

    async def call_tool(
        ctx: Any, params: mcp_types.CallToolRequestParams
    ) -> mcp_types.CallToolResult:
        arguments = params.arguments or {}
        error = best_match(input_validator.iter_errors(arguments))
        if error is not None:
            return mcp_types.CallToolResult(
                content=[mcp_types.TextContent(text=str(error.message))], is_error=True
            )
        output = {"total": arguments["left"] + arguments["right"]}
        error = best_match(output_validator.iter_errors(output))
        if error is not None:
            return mcp_types.CallToolResult(
                content=[mcp_types.TextContent(text=str(error.message))], is_error=True
            )
        return mcp_types.CallToolResult(
            content=[mcp_types.TextContent(text=str(output))], structured_content=output
        )

    return {
        "straightline": build_server(runtime),
        "SDK jsonschema": Server("jsonschema", on_list_tools=list_tools, on_call_tool=call_tool),
        "SDK pydantic (MCPServer)": _pydantic_server(),
    }


def _end_to_end(calls: int, rounds: int) -> dict[str, Any]:
    """Seconds per tools/call through the SDK's in-process client, for each server and instance;
    rounds taken in turns. An answer that disagrees with the expected one is reported."""
    import anyio
    from mcp import Client

    servers = _servers()
    seconds: dict[str, dict[str, list[float]]] = {name: {} for name in servers}
    problems: list[str] = []

    async def run_all() -> None:
        async with (
            Client(servers["straightline"], cache=None) as ours,
            Client(servers["SDK jsonschema"], cache=None) as theirs,
            Client(servers["SDK pydantic (MCPServer)"], cache=None) as pydantic_client,
        ):
            clients = {
                "straightline": ours,
                "SDK jsonschema": theirs,
                "SDK pydantic (MCPServer)": pydantic_client,
            }
            for name, client in clients.items():
                for label, arguments, expected in INSTANCES:
                    result = await client.call_tool("math.add", arguments)
                    if result.is_error == expected:
                        answer = "an isError result" if result.is_error else "a result"
                        problems.append(f"{name}: {label}: answered {answer}")
            for _ in range(rounds):
                for name, client in clients.items():
                    for label, arguments, _expected in INSTANCES:
                        start = time.perf_counter()
                        for _ in range(calls):
                            await client.call_tool("math.add", arguments)
                        seconds[name].setdefault(label, []).append(
                            (time.perf_counter() - start) / calls
                        )

    anyio.run(run_all)
    return {
        "calls_per_sample": calls,
        "rounds": rounds,
        "problems": problems,
        "seconds_per_call": {
            name: {label: statistics.median(values) for label, values in by_label.items()}
            for name, by_label in seconds.items()
        },
    }


def run(*, quick: bool = False, log: Callable[[str], None] = print) -> dict[str, Any]:
    """The MCP section of the bench document."""
    unavailable = _available()
    if unavailable:
        log(f"mcp: skipped: {unavailable}")
        return {"status": "n/a", "reason": unavailable}
    import logging

    logging.getLogger("mcp").setLevel(logging.ERROR)  # MCPServer logs each rejected call
    settings = QUICK if quick else FULL
    validators = _validators()
    instances = []
    for label, arguments, expected in INSTANCES:
        log(f"mcp: validation, {label}")
        answers = {name: check(arguments) for name, check in validators.items()}
        disagree = sorted(name for name, answer in answers.items() if answer != expected)
        timed = {name: check for name, check in validators.items() if name not in disagree}
        timings = measure_side_by_side(timed, arguments, settings)
        base = timings.get(STRAIGHTLINE)
        instances.append(
            {
                "name": label,
                "expected_valid": expected,
                "disagrees": disagree,
                "median_ns": {name: timing.median_ns for name, timing in timings.items()},
                "ratios": {
                    name: (timing.median_ns / base.median_ns if base else None)
                    for name, timing in timings.items()
                    if name != STRAIGHTLINE
                },
            }
        )
    log("mcp: tools/call in process")
    end_to_end = _end_to_end(calls=20 if quick else 500, rounds=1 if quick else 5)
    # the share of a whole served tools/call that the checks take, per instance
    ours = end_to_end["seconds_per_call"]["straightline"]
    for instance in instances:
        whole_ns = ours[instance["name"]] * 1e9
        instance["share_of_tools_call"] = {
            name: median / whole_ns
            for name, median in instance["median_ns"].items()
            if name.startswith("straightline")
        }
    return {
        "status": "ok",
        "tool": "math.add",
        "repeats": settings.repeats,
        "validation": instances,
        "tools_call": end_to_end,
    }


def table(section: dict[str, Any]) -> str:
    """The MCP report as text."""
    if section["status"] != "ok":
        return f"MCP tools/call validation: n/a ({section['reason']})"
    out = [
        "MCP tools/call validation, served side (math.add; per call; ratio: other / straightline contract)"
    ]
    for instance in section["validation"]:
        out.append(f"  {instance['name']}")
        for name, median in instance["median_ns"].items():
            ratio = instance["ratios"].get(name)
            shown = f"  {ratio:6.2f}x" if ratio is not None else ""
            out.append(f"    {name:<28} {median / 1000:9.2f} us{shown}")
        for name in instance["disagrees"]:
            out.append(f"    {name:<28} DISAGREES (not timed)")
        shares = ", ".join(
            f"{name} {share:.2%}" for name, share in instance["share_of_tools_call"].items()
        )
        out.append(f"    share of straightline's whole tools/call: {shares}")
    call = section["tools_call"]
    out.append(
        f"  whole tools/call through the SDK's in-process client (median of {call['rounds']} x "
        f"{call['calls_per_sample']} calls)"
    )
    for name, by_label in call["seconds_per_call"].items():
        cells = ", ".join(f"{label} {value * 1e6:.0f} us" for label, value in by_label.items())
        out.append(f"    {name:<28} {cells}")
    for problem in call["problems"]:
        out.append(f"    DISAGREES: {problem}")
    return "\n".join(out)
