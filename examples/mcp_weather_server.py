"""A third-party MCP server, written with the SDK alone: it checks nothing of what it is sent.

`examples/mcp_guarded_remote.py` calls its tool through a contract; run alone, it serves over
stdio: `.venv/bin/python examples/mcp_weather_server.py`.
"""

from __future__ import annotations

from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

FORECAST = types.Tool(
    name="forecast",
    description="The forecast for a city, in degrees Celsius.",
    input_schema={
        "type": "object",
        "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
    },
)


async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[FORECAST])


async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    arguments = params.arguments or {}
    days = arguments.get("days", 1)
    # a careless server: whatever days it is given, it answers for that many (minus ones too)
    forecast = [{"day": day, "celsius": 20 + day} for day in range(days)]
    return types.CallToolResult(
        content=[types.TextContent(text=str(forecast))],
        structured_content={"city": arguments.get("city"), "forecast": forecast},
    )


server = Server("weather", on_list_tools=list_tools, on_call_tool=call_tool)


async def main() -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
