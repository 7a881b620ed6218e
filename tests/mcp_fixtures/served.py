"""Runtimes that the tests serve (`straightline mcp serve tests.mcp_fixtures.served:ATTR`)."""

from __future__ import annotations

import asyncio
import threading
from decimal import Decimal
from typing import Any

import generator
from generated.tools import math_add
from generator.runtime import ToolRuntime


def _contract(name: str, input: dict[str, Any], output: dict[str, Any]) -> Any:
    return generator.compile_contract_module(
        {"name": name, "description": f"The {name} tool.", "input": input, "output": output},
        format=False,
    )


ECHO_IN = {
    "type": "object",
    "properties": {"text": {"type": "string", "maxLength": 10}},
    "required": ["text"],
    "additionalProperties": False,
}
ECHO_OUT = {
    "type": "object",
    "properties": {"text": {"type": "string"}},
    "required": ["text"],
    "additionalProperties": False,
}


def add(request: Any) -> Any:
    return {"total": int(request["left"]) + int(request["right"])}


async def echo_async(request: Any) -> Any:
    await asyncio.sleep(0)
    return {"text": request["text"]}


def echo_deferred(request: Any) -> Any:
    """Completed externally: the output arrives from another thread, on a future."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Any] = loop.create_future()
    threading.Thread(
        target=lambda: loop.call_soon_threadsafe(future.set_result, {"text": request["text"]})
    ).start()
    return future


def build() -> ToolRuntime:
    runtime = ToolRuntime()
    runtime.register(math_add, add, budget=2)
    runtime.register(_contract("echo.async", ECHO_IN, ECHO_OUT), echo_async)
    runtime.register(_contract("echo.deferred", ECHO_IN, ECHO_OUT), echo_deferred)
    runtime.register(_contract("echo.wrong", ECHO_IN, ECHO_OUT), lambda request: {"text": 5})
    runtime.register(_contract("echo.boom", ECHO_IN, ECHO_OUT), _boom)
    runtime.register(_contract("echo.print", ECHO_IN, ECHO_OUT), _printing)
    return runtime


def build_unsendable() -> ToolRuntime:
    """A tool whose input schema holds a number no double holds: `mcp serve` refuses it."""
    runtime = ToolRuntime()
    tiny = {"type": "object", "properties": {"x": {"minimum": Decimal("1e-400")}}}
    runtime.register(_contract("tiny", tiny, ECHO_OUT), echo_async)
    return runtime


def _printing(request: Any) -> Any:
    print("a handler's print must not reach the protocol's standard output")
    return {"text": request["text"]}


def _boom(request: Any) -> Any:
    raise RuntimeError("the handler broke")


runtime = build()
