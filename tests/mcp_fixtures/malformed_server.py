"""A misbehaving stdio server, speaking JSON-RPC by hand (the SDK cannot be made to send this):
it completes the handshake, lists one tool, and answers every tools/call with a result that is
not a tools/call result (`content` is a number)."""

from __future__ import annotations

import json
import sys


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message:
        continue  # a notification
    method = message.get("method")
    if method == "initialize":
        send(
            {
                "jsonrpc": "2.0",
                "id": message["id"],
                "result": {
                    "protocolVersion": message["params"]["protocolVersion"],
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "malformed", "version": "0"},
                },
            }
        )
    elif method == "tools/list":
        send(
            {
                "jsonrpc": "2.0",
                "id": message["id"],
                "result": {"tools": [{"name": "add", "inputSchema": {"type": "object"}}]},
            }
        )
    elif method == "tools/call":
        send({"jsonrpc": "2.0", "id": message["id"], "result": {"content": 5}})
    else:
        send(
            {
                "jsonrpc": "2.0",
                "id": message["id"],
                "error": {"code": -32601, "message": "Method not found"},
            }
        )
