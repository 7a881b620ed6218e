"""A remote tool guarded by a contract: the third-party server's `forecast`
(examples/mcp_weather_server.py), called through a ToolRuntime.

From the repository root: `.venv/bin/python -m examples.mcp_guarded_remote`. The contract is
stricter than the server: a city of 1 to 40 characters and 1 to 7 days, nothing else; at least
one day of forecast back. Denied input never reaches the server and costs no budget.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import generator
from generator.runtime import ToolDenied, ToolRuntime
from generator.runtime.mcp import StdioServer

FORECAST = {
    "name": "weather.forecast",
    "description": "The forecast for a city, in degrees Celsius.",
    "input": {
        "type": "object",
        "properties": {
            "city": {"type": "string", "minLength": 1, "maxLength": 40},
            "days": {"type": "integer", "minimum": 1, "maximum": 7},
        },
        "required": ["city", "days"],
        "additionalProperties": False,
    },
    "output": {
        "type": "object",
        "properties": {
            "city": {"type": "string"},
            "forecast": {
                "type": "array",
                "minItems": 1,
                "maxItems": 7,
                "items": {
                    "type": "object",
                    "properties": {"day": {"type": "integer"}, "celsius": {"type": "number"}},
                    "required": ["day", "celsius"],
                    "additionalProperties": False,
                },
            },
        },
        "required": ["city", "forecast"],
        "additionalProperties": False,
    },
}
SERVER = Path(__file__).with_name("mcp_weather_server.py")


def build(budget: int | None = 10) -> ToolRuntime:
    """A runtime with the remote tool registered (in a service: a module `straightline compile`
    wrote from the contract file, instead of compiling here)."""
    contract: Any = generator.compile_contract_module(FORECAST)
    runtime = ToolRuntime()
    runtime.register_protocol(
        contract,
        StdioServer([sys.executable, str(SERVER)]),
        tool="forecast",
        budget=budget,
        timeout=30,
    )
    return runtime


if __name__ == "__main__":
    with build() as runtime:  # the server process starts on the first call, ends here
        print(runtime.call("weather.forecast", {"city": "Lyon", "days": 2}))
        try:
            runtime.call(
                "weather.forecast", {"city": "Lyon", "days": 0}
            )  # the server would answer []
        except ToolDenied as denied:
            print(
                denied
            )  # weather.forecast: input rejected: 0 is less than the minimum of 1 at /days
        print(runtime.remaining_budget("weather.forecast"), [r.outcome for r in runtime.records()])
