"""An independent client for the native host: the official MCP Python SDK.

Run by mcp-host/tests/python_sdk.rs with the venv that
scripts/ensure-host-test-tools.sh makes. It connects to the binary the way
any SDK-based host would, once per mode:

  - stdio, mode "auto":   server/discover, protocol 2026-07-28
  - stdio, mode "legacy": initialize handshake (2025-11-25)
  - HTTP,  mode "auto" and "legacy", against --transport streamable-http

and in each checks tools/list and every conformance vector: structuredContent
equals the vector (strictly: key order, int vs float vs bool), the text copy
is the same JSON, and error texts are the reference's. The SDK also validates
every structuredContent against the tool's outputSchema on its own.

Exit status 0 when everything matches; otherwise the first differences are
printed and the status is 1.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

# The reference's four tools, in its order and unchanged (every vector below
# is a call to one of them), then this project's addition.
TOOLS = ["validate_rows", "reconcile", "count_distinct", "duplicate_report", "inspect_dataset"]
PATTERN_ERROR = '"pattern" is not a valid regular expression ('


def strict_difference(path: str, expected: Any, actual: Any) -> str | None:
    """First difference, where 20 != 20.0 != True and key order counts."""
    if type(expected) is not type(actual):
        return f"{path}: expected {expected!r} ({type(expected).__name__}), got {actual!r} ({type(actual).__name__})"
    if isinstance(expected, dict):
        for key, value in expected.items():
            if key not in actual:
                return f"{path}: missing key {key!r}"
            diff = strict_difference(f"{path}.{key}", value, actual[key])
            if diff:
                return diff
        if list(expected) != list(actual):
            return f"{path}: key order {list(expected)} != {list(actual)}"
        return None
    if isinstance(expected, list):
        for index, (x, y) in enumerate(zip(expected, actual)):
            diff = strict_difference(f"{path}[{index}]", x, y)
            if diff:
                return diff
        if len(expected) != len(actual):
            return f"{path}: expected {len(expected)} items, got {len(actual)}"
        return None
    return None if expected == actual else f"{path}: expected {expected!r}, got {actual!r}"


def load_cases(directory: Path) -> list[dict]:
    document = json.loads((directory.parent / "deviations.json").read_text())
    deviations = document["cases"]
    cases = []
    for path in sorted(directory.glob("*.json")):
        for case in json.loads(path.read_text())["cases"]:
            case["file"] = path.name
            case["deviation"] = deviations.get(case["name"])
            if case["deviation"] == "contract_v2_listing":
                # The recorded message with contract v2's keys and types listed:
                # then checked as any other tool error.
                recorded = case["expected_error"]["message"]
                rewritten = recorded
                for old, new in document["contract_v2_listing"]:
                    rewritten = rewritten.replace(old, new)
                if rewritten == recorded:
                    raise SystemExit(f"{case['name']}: no contract_v2_listing replacement applies")
                case["expected_error"]["message"] = rewritten
                case["deviation"] = None
            cases.append(case)
    return cases


def check(case: dict, result: Any) -> str | None:
    text = result.content[0].text if result.content else ""
    prefix = f"Error executing tool {case['tool']}: "
    if case["deviation"] == "unsupported_pattern":
        # A documented deviation (tests/conformance/deviations.json): refused, saying why.
        shown = result.is_error and '"pattern" uses' in text and "which is not supported" in text
        return None if shown else f"documented deviation not shown: {text}"
    if "expected" in case:
        if result.is_error:
            return f"expected a result, got an error: {text}"
        diff = strict_difference("$", case["expected"], result.structured_content)
        if diff:
            return f"structuredContent: {diff}"
        diff = strict_difference("$", case["expected"], json.loads(text))
        return f"text copy: {diff}" if diff else None
    error = case["expected_error"]
    if not result.is_error:
        return f"expected an error ({error['kind']}), got a result"
    if not text.startswith(prefix):
        return f"error text lacks {prefix!r}: {text}"
    actual = text[len(prefix):]
    if error["kind"] == "tool_error":
        same = actual == error["message"] or (PATTERN_ERROR in actual and PATTERN_ERROR in error["message"])
        return None if same else f"tool error differs:\n  expected: {error['message']}\n  actual:   {actual}"
    missing = [name for name in error.get("arguments", []) if f'"{name}"' not in actual]
    return f"argument error does not name {missing}: {actual}" if missing else None


async def exercise(server: Any, mode: str, label: str, cases: list[dict]) -> list[str]:
    failures = []
    async with Client(server, mode=mode, read_timeout_seconds=300) as client:
        listed = await client.list_tools()
        names = [tool.name for tool in listed.tools]
        if names != TOOLS:
            failures.append(f"{label}: tools/list names {names}")
        for tool in listed.tools:
            annotations = tool.annotations
            if not (tool.title and annotations and annotations.read_only_hint and annotations.destructive_hint is False
                    and annotations.idempotent_hint and annotations.open_world_hint is False):
                failures.append(f"{label}: {tool.name} lacks its title or annotations")
            if (tool.output_schema or {}).get("type") != "object":
                failures.append(f"{label}: {tool.name} outputSchema root is not an object")
        for case in cases:
            try:
                result = await client.call_tool(case["tool"], case["args"])
            except Exception as exc:  # noqa: BLE001 - any exception is a failure to report
                failures.append(f"{label}: {case['file']} :: {case['name']}\n  raised {type(exc).__name__}: {exc}")
                continue
            why = check(case, result)
            if why:
                failures.append(f"{label}: {case['file']} :: {case['name']}\n  {why}")
        version = getattr(client.session, "protocol_version", None)
        print(f"{label}: {len(cases)} vectors checked (protocol {version})", flush=True)
    return failures


def start_http(binary: str, env: dict) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen(
        # This client checks the protocol, not the bearer token (tests/http_origin.rs
        # does), so the server runs on loopback without one.
        [binary, "--transport", "streamable-http", "--port", "0", "--no-auth"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, text=True,
    )
    for line in proc.stderr:
        match = re.search(r"listening on (http://\S+)", line)
        if match:
            return proc, match[1]
    raise RuntimeError("the HTTP server did not report its address")


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--vectors", required=True, type=Path)
    parser.add_argument("--cache-dir", required=True)
    args = parser.parse_args()

    cases = load_cases(args.vectors)
    # The vectors are the reference's uncapped results: list everything, as it does.
    env = dict(os.environ, MCP_VALIDATION_CACHE_DIR=args.cache_dir, MCP_VALIDATION_LOG="warn",
               MCP_VALIDATION_MAX_LISTED="unlimited")
    failures: list[str] = []
    for mode in ("auto", "legacy"):
        params = StdioServerParameters(command=args.binary, args=[], env=env)
        failures += await exercise(params, mode, f"stdio/{mode}", cases)
    proc, url = start_http(args.binary, env)
    try:
        for mode in ("auto", "legacy"):
            failures += await exercise(url, mode, f"http/{mode}", cases)
    finally:
        proc.terminate()
        proc.wait(timeout=30)

    for failure in failures[:int(os.environ.get("MCPV_SHOW_FAILURES", "25"))]:
        print(failure)
    if failures:
        print(f"{len(failures)} failures", file=sys.stderr)
        return 1
    print("the official MCP Python SDK agrees with every vector")
    return 0


if __name__ == "__main__":
    sys.exit(anyio.run(main))
