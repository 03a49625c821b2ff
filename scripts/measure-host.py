#!/usr/bin/env python3
"""Measure the native MCP host: the figures mcp-host/README.md quotes.

    cargo build --release -p mcp-validation-server
    python3 scripts/measure-host.py [--binary target/release/mcp-validation-server] [--rows 100000]

Standard library only. Prints:
  - cold start to tools/list, with an empty compiled-module cache (the
    module compiles in the background meanwhile) and with a warm cache;
  - time to the first tools/call answer in each case;
  - a ROWS-row, 4-column validate_rows: wall time seen by the client, and the
    server's own figures for the sandbox (time, fuel, peak linear memory),
    read from its "call finished" log line on stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CALL_LINE = re.compile(r"call finished .*elapsed_ms=(\d+) fuel=(\d+) peak_memory_mib=([\d.]+)")


class Session:
    """One server process spoken to over stdio."""

    def __init__(self, binary: str, cache_dir: str, extra: list[str]) -> None:
        self.started = time.perf_counter()
        env = dict(os.environ, MCP_VALIDATION_CACHE_DIR=cache_dir, MCP_VALIDATION_LOG="info")
        self.proc = subprocess.Popen(
            [binary, *extra], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
        )
        self.stderr: list[str] = []
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        self.next_id = 0

    def _drain_stderr(self) -> None:
        for line in self.proc.stderr:
            self.stderr.append(line.decode(errors="replace"))

    def request(self, method: str, params: dict) -> dict:
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("server closed stdout:\n" + "".join(self.stderr))
            reply = json.loads(line)
            if reply.get("id") == self.next_id:
                return reply

    def notify(self, method: str) -> None:
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": method}).encode() + b"\n")
        self.proc.stdin.flush()

    def initialize(self) -> None:
        self.request(
            "initialize",
            {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "measure", "version": "0"}},
        )
        self.notify("notifications/initialized")

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)

    def last_call_figures(self) -> tuple[int, int, float]:
        deadline = time.time() + 5
        while time.time() < deadline:
            for line in reversed(self.stderr):
                match = CALL_LINE.search(line)
                if match:
                    return int(match[1]), int(match[2]), float(match[3])
            time.sleep(0.05)
        raise RuntimeError("no 'call finished' line on stderr:\n" + "".join(self.stderr))


def small_call(session: Session) -> dict:
    return session.request(
        "tools/call", {"name": "count_distinct", "arguments": {"rows": [{"id": "a"}, {"id": "a"}], "key": "id"}}
    )


def start_up(binary: str, cache_dir: str) -> tuple[float, float]:
    session = Session(binary, cache_dir, [])
    session.initialize()
    session.request("tools/list", {})
    to_list = time.perf_counter() - session.started
    small_call(session)
    to_call = time.perf_counter() - session.started
    session.close()
    return to_list, to_call


def big_arguments(rows: int) -> dict:
    statuses = ["open", "paid", "void"]
    data = []
    for i in range(rows):
        data.append(
            {
                "invoice": f"INV-{i:06d}",
                # Every 1000th row fails, so the quarantine path runs too.
                "amount": "abc" if i % 1000 == 999 else f"{(i * 37) % 100000 / 100:.2f}",
                "date": f"2026-04-{i % 28 + 1:02d}",
                "status": statuses[i % 3],
            }
        )
    columns = [
        {"name": "invoice", "type": "string", "required": True, "pattern": "INV-\\d+"},
        {"name": "amount", "type": "number", "min": 0},
        {"name": "date", "type": "date", "required": True},
        {"name": "status", "allowed": statuses},
    ]
    return {"rows": data, "columns": columns, "row_key": "invoice"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=str(ROOT / "target/release/mcp-validation-server"))
    parser.add_argument("--rows", type=int, default=100_000)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as cache_dir:
        cold_list, cold_call = start_up(args.binary, cache_dir)
        warm_list, warm_call = start_up(args.binary, cache_dir)

        arguments = big_arguments(args.rows)
        request_bytes = len(json.dumps(arguments))
        session = Session(args.binary, cache_dir, [])
        session.initialize()
        small_call(session)  # module ready before timing
        started = time.perf_counter()
        reply = session.request("tools/call", {"name": "validate_rows", "arguments": arguments})
        wall = time.perf_counter() - started
        result = reply["result"]
        if result.get("isError"):
            print("the call failed:", result["content"][0]["text"], file=sys.stderr)
            return 1
        summary = result["structuredContent"]["summary"]
        sandbox_ms, fuel, peak_mib = session.last_call_figures()
        session.close()

    print(f"binary: {args.binary}")
    print(f"cold start (empty cache) to tools/list:   {cold_list * 1000:8.0f} ms")
    print(f"cold start (empty cache) to first call:   {cold_call * 1000:8.0f} ms  (includes compiling the module)")
    print(f"warm start (cached module) to tools/list: {warm_list * 1000:8.0f} ms")
    print(f"warm start (cached module) to first call: {warm_call * 1000:7.0f} ms")
    print(f"validate_rows, {args.rows} rows x 4 columns ({request_bytes / 2**20:.1f} MiB of arguments):")
    print(f"  accepted {summary['accepted']}, quarantined {summary['quarantined']}")
    print(f"  wall time at the client:  {wall * 1000:8.0f} ms")
    print(f"  time in the sandbox:      {sandbox_ms:8d} ms")
    print(f"  fuel used:                {fuel:14,d} units")
    print(f"  peak linear memory:       {peak_mib:8.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
