"""A third-party MCP server written with the SDK alone (no straightline): it validates nothing,
and writes each tools/call it receives, as one JSON line, to the file $CALL_LOG, so a test can
prove what reached it.

Over stdio: `python third_party_server.py`; over streamable HTTP: `python third_party_server.py
--http PORT` (127.0.0.1 only).
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import anyio
import mcp_types as types
from mcp import MCPError
from mcp.server.lowlevel import Server

OPEN = {"type": "object"}
TOOLS = [
    types.Tool(
        name="add",
        description="Adds left and right.",
        input_schema=OPEN,
        output_schema={"type": "object", "properties": {"total": {"type": "integer"}}},
    ),
    types.Tool(name="add.wrong", description="Answers with the wrong field.", input_schema=OPEN),
    types.Tool(name="add.text", description="Answers in JSON text only.", input_schema=OPEN),
    types.Tool(name="fail", description="Always fails.", input_schema=OPEN),
    types.Tool(name="slow", description="Takes a minute.", input_schema=OPEN),
    types.Tool(name="die", description="Exits the server.", input_schema=OPEN),
    types.Tool(name="words", description="Answers with text that is not JSON.", input_schema=OPEN),
    # a pattern: outside the octoscript profile, inside draft 2020-12
    types.Tool(
        name="lookup",
        description="Looks a code up.",
        input_schema={
            "type": "object",
            "properties": {"code": {"type": "string", "pattern": "^[A-Z]{3}$"}},
            "required": ["code"],
        },
        output_schema={"type": "object", "properties": {"found": {"type": "boolean"}}},
    ),
]
NAMES = {tool.name for tool in TOOLS}


def _log(name: str, arguments: Any) -> None:
    with open(os.environ["CALL_LOG"], "a", encoding="utf-8") as log:
        log.write(json.dumps({"tool": name, "arguments": arguments}) + "\n")


async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(tools=TOOLS)


async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    arguments = params.arguments or {}
    _log(params.name, arguments)
    if params.name not in NAMES:
        raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {params.name}")
    if params.name == "fail":
        return types.CallToolResult(
            content=[types.TextContent(text="the disk is full")], is_error=True
        )
    if params.name == "slow":
        await anyio.sleep(60)
    if params.name == "die":
        os._exit(3)
    if params.name == "words":
        return types.CallToolResult(content=[types.TextContent(text="three")])
    if params.name == "lookup":
        return types.CallToolResult(
            content=[types.TextContent(text="{}")], structured_content={"found": True}
        )
    total = arguments.get("left", 0) + arguments.get("right", 0)
    if params.name == "add.wrong":
        return types.CallToolResult(
            content=[types.TextContent(text="{}")], structured_content={"sum": total}
        )
    if params.name == "add.text":
        return types.CallToolResult(content=[types.TextContent(text=json.dumps({"total": total}))])
    return types.CallToolResult(
        content=[types.TextContent(text=str(total))], structured_content={"total": total}
    )


server = Server("third-party", on_list_tools=list_tools, on_call_tool=call_tool)


async def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--http":
        import uvicorn

        config = uvicorn.Config(
            server.streamable_http_app(),
            host="127.0.0.1",
            port=int(sys.argv[2]),
            log_level="warning",
        )
        await uvicorn.Server(config).serve()
        return
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
