#!/usr/bin/env python3
"""A minimal modern (2026-07-28) stdio MCP server with no dependencies.

It starts in a few milliseconds, so the benchmark measures the harness rather than a server's
own start-up (a Node.js process costs ~130 ms of CPU to boot, which on a 2-core machine
dominates everything at high concurrency).
"""
import json
import sys

TOOL = {
    "name": "lookup",
    "description": "Look up a value by key",
    "inputSchema": {"type": "object", "properties": {"key": {"type": "string", "description": "The key"}}, "required": ["key"]},
}
CACHE = {"ttlMs": 0, "cacheScope": "public"}


def send(message):
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    if not line.strip():
        continue
    msg = json.loads(line)
    if "id" not in msg:
        continue
    method = msg.get("method")
    if method == "server/discover":
        send({"id": msg["id"], "result": {"resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}, **CACHE}})
    elif method == "tools/list":
        send({"id": msg["id"], "result": {"resultType": "complete", "tools": [TOOL], **CACHE}})
    elif method == "tools/call":
        key = msg["params"].get("arguments", {}).get("key")
        send({"id": msg["id"], "result": {"resultType": "complete", "content": [{"type": "text", "text": f"value of {key}"}]}})
    else:
        send({"id": msg["id"], "error": {"code": -32601, "message": f"Method not found: {method}"}})
