"""The seed's math.add tool served over the Model Context Protocol, guarded by its contract.

From the repository root, over stdio (what an MCP client's configuration starts):
`.venv/bin/straightline mcp serve examples.mcp_math_server:runtime`, or
`.venv/bin/python -m examples.mcp_math_server`; over streamable HTTP:
`.venv/bin/straightline mcp serve examples.mcp_math_server:runtime --http 127.0.0.1:8000`.
"""

from __future__ import annotations

from examples.math_add_handler import build
from generator.runtime.mcp import serve

# tools/list publishes the contract's schemas; every tools/call takes the runtime's one path, so
# denied input is an isError result naming the field and costs none of the 100 calls
runtime = build(budget=100)

if __name__ == "__main__":
    serve(runtime)
