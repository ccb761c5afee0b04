#!/usr/bin/env python3
"""A minimal modern (2026-07-28) stdio MCP server with no dependencies.

It starts in a few milliseconds, so the benchmark measures the harness rather than a server's
own start-up (a Node.js process costs ~130 ms of CPU to boot, which on a 2-core machine
dominates everything at high concurrency).

With the argument report_cpu=PATH it appends, as it exits (stdin ended, or SIGTERM), one JSON line
to PATH with the CPU it used, for the benchmarks' account of what the servers cost
(bench/probe.mjs reports the same for Node.js processes).
"""
import json
import os
import signal
import sys
import time

STARTED_MS = time.monotonic() * 1000
TOOL = {
    "name": "lookup",
    "description": "Look up a value by key",
    "inputSchema": {"type": "object", "properties": {"key": {"type": "string", "description": "The key"}}, "required": ["key"]},
}
CACHE = {"ttlMs": 0, "cacheScope": "public"}
REPORT_CPU = next((arg.split("=", 1)[1] for arg in sys.argv[1:] if arg.startswith("report_cpu=")), None)


def send(message):
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")
    sys.stdout.flush()


def report_cpu(*_):
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    line = {"role": "server", "pid": os.getpid(), "started_ms": STARTED_MS, "exited_ms": time.monotonic() * 1000, "cpu_ms": (usage.ru_utime + usage.ru_stime) * 1000, "max_rss_mb": usage.ru_maxrss / 1024}
    with open(REPORT_CPU, "a") as out:
        out.write(json.dumps(line) + "\n")
    os._exit(0)


if REPORT_CPU:
    signal.signal(signal.SIGTERM, report_cpu)

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

if REPORT_CPU:
    report_cpu()
