#!/usr/bin/env python3
"""Regenerate the conformance vectors from the Python reference server.

What this does
--------------
1. Creates a throwaway virtualenv at ``tests/conformance/.venv`` (gitignored)
   with the interpreter running this script, and installs exactly the pins in
   ``tests/conformance/requirements-reference.txt`` (mcp-validation-server
   0.1.0 and its full dependency closure: mcp 2.3.0, pydantic 2.14.4,
   pydantic_core 2.50.5, ...). With ``--reuse-venv`` an existing venv whose
   ``pip freeze`` already equals the pins is used as it is.
2. Starts the reference server (``.venv/bin/mcp-validation-server``, stdio
   transport) and speaks raw newline-delimited JSON-RPC to it: ``initialize``
   (protocolVersion "2025-06-18"), ``notifications/initialized``, one
   ``tools/list`` (saved to ``reference_tools_list.json``), then one
   ``tools/call`` per case. No MCP client library is used.
3. Records, for each case, either ``expected`` (the result's
   ``structuredContent``, exactly as the wire had it: parsed with
   ``json.loads``, so ``20`` and ``20.0`` stay distinct) or, when the result
   has ``isError: true``, ``expected_error``:
     ``{"kind": "tool_error", "message": ...}`` for a deliberate ToolError
     raised by the tool body, or
     ``{"kind": "invalid_arguments", "arguments": [...], "message": ...}`` for
     a pydantic argument-validation failure (``arguments`` = the top-level
     argument names from the error's location lines, in order, deduplicated).
   ``message`` is the text with the ``Error executing tool <name>: `` prefix
   removed. A reference crash (the bare ``Error executing tool <name>``) or any
   other unexpected answer is NOT written: it is printed and listed in
   README.md. So is a result holding an integer outside the signed 64-bit
   range (the Rust port's documented deviation).
4. Writes ``vectors/<tool>.json`` (hand-written cases, from
   ``cases_handwritten.py``) and ``vectors/random_<tool>.json`` (seeded random
   cases, from ``cases_random.py``), rewrites the generated section of
   README.md (counts, coverage, exclusions), prints a coverage table of finding
   codes, verdicts, error kinds and labelled argument errors reached, and exits
   non-zero (writing nothing) if a required one is missing or a hand-written
   case's stated expectation does not hold.

Usage (from the repository root; Python 3.11, stdlib only)::

    python3 tests/conformance/generate.py                # full regeneration
    python3 tests/conformance/generate.py --reuse-venv   # skip the pip install when the venv matches
    python3 tests/conformance/generate.py --check        # regenerate in memory, diff against the committed files
    python3 tests/conformance/generate.py --reuse-venv --check --hash-seed random   # no hash-order dependence

Vector file schema::

    {"reference": "mcp-validation-server 0.1.0 (mcp X, pydantic Y, CPython Z)",
     "generated_by": "tests/conformance/generate.py",
     "cases": [{"name": "...", "tool": "...", "args": {...},
                "expected": {...}  |  "expected_error": {...}}, ...]}

Keys are never sorted anywhere: the order of keys in ``expected`` is the order
the reference emitted them and is part of what is checked.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import cases_handwritten  # noqa: E402
import cases_random  # noqa: E402

VENV = HERE / ".venv"
REQUIREMENTS = HERE / "requirements-reference.txt"
VECTORS = HERE / "vectors"
TOOLS_LIST = HERE / "reference_tools_list.json"
README = HERE / "README.md"
GENERATED_BY = "tests/conformance/generate.py"
PROTOCOL_VERSION = "2025-06-18"
TOOLS = ("validate_rows", "reconcile", "count_distinct", "duplicate_report")
CALL_TIMEOUT = 120.0
I64_MIN, I64_MAX = -(2**63), 2**63 - 1

# --------------------------------------------------------------------------
# What the vector set must reach. generate.py refuses to write if any is missing.
# --------------------------------------------------------------------------

REQUIRED_CODES = {
    "validate_rows": [
        "required_blank", "blank", "wrong_type", "not_a_number", "not_an_integer",
        "not_a_boolean", "not_a_date", "below_minimum", "above_maximum", "out_of_range",
        "not_numeric", "pattern_mismatch", "not_allowed", "not_an_object", "no_rows",
        "required_column_absent",
    ],
    "reconcile": [
        "unknown_movement_key", "movement_not_numeric", "unknown_direction",
        "opening_balance_not_numeric", "closing_balance_not_numeric", "tolerance_negative",
        "arithmetic_unreliable", "does_not_close", "variance_matches_single_movement",
        "variance_is_double_a_movement", "movements_net_to_zero", "invalid_arguments",
    ],
    "count_distinct": ["not_an_object", "blank_key", "repeated_key", "no_rows"],
    "duplicate_report": [
        "not_an_object", "blank_key", "duplicate_key", "same_signature", "near_match",
        "no_rows", "groups_truncated",
    ],
}
# Result features that are not finding codes.
REQUIRED_FEATURES = {"duplicate_report": ["members_omitted", "similarity"]}
REQUIRED_VERDICTS = {
    "validate_rows": ["clean", "flagged", "quarantined"],
    "reconcile": ["clean", "does_not_close", "inputs_rejected"],
    "count_distinct": ["clean", "review_required"],
    "duplicate_report": ["clean", "review_required"],
}
REQUIRED_ERROR_KINDS = {
    "validate_rows": ["tool_error", "invalid_arguments"],
    "reconcile": ["invalid_arguments"],  # reconcile has no deliberate ToolError path
    "count_distinct": ["tool_error", "invalid_arguments"],
    "duplicate_report": ["tool_error", "invalid_arguments"],
}


# --------------------------------------------------------------------------
# Virtualenv
# --------------------------------------------------------------------------

def _pins() -> list[str]:
    lines = []
    for raw in REQUIREMENTS.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            lines.append(line)
    return lines


def _norm_req(line: str) -> str:
    name, _, version = line.partition("==")
    return re.sub(r"[-_.]+", "-", name).lower() + "==" + version


def _venv_python() -> Path:
    return VENV / "bin" / "python"


def _venv_matches() -> bool:
    if not _venv_python().exists():
        return False
    out = subprocess.run(
        [str(_venv_python()), "-m", "pip", "freeze", "--all", "--exclude", "pip",
         "--exclude", "setuptools", "--exclude", "wheel"],
        capture_output=True, text=True,
    )
    if out.returncode != 0:
        return False
    have = sorted(_norm_req(x) for x in out.stdout.splitlines() if x.strip() and "==" in x)
    want = sorted(_norm_req(x) for x in _pins())
    return have == want


def ensure_venv(reuse: bool) -> None:
    if reuse and _venv_matches():
        print(f"[venv] reusing {VENV} (pip freeze equals the pins)")
        return
    if sys.version_info[:2] != (3, 11):
        raise SystemExit(
            f"generate.py must run on CPython 3.11 (the reference's date parsing and repr are "
            f"version-specific); this is {platform.python_version()}"
        )
    print(f"[venv] creating {VENV} with {sys.executable} ({platform.python_version()})")
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(VENV)], check=True)
    subprocess.run(
        [str(_venv_python()), "-m", "pip", "install", "--quiet", "--no-deps", "-r", str(REQUIREMENTS)],
        check=True,
    )
    # --no-deps plus a full pin list: fail loudly if the closure is incomplete.
    subprocess.run([str(_venv_python()), "-m", "pip", "check"], check=True)
    if not _venv_matches():
        raise SystemExit("[venv] pip freeze of the new venv does not equal the pins")


def reference_versions() -> dict[str, str]:
    code = (
        "import importlib.metadata as m, json, platform;"
        "print(json.dumps({'server': m.version('mcp-validation-server'), 'mcp': m.version('mcp'),"
        "'pydantic': m.version('pydantic'), 'pydantic_core': m.version('pydantic_core'),"
        "'python': platform.python_version(), 'impl': platform.python_implementation()}))"
    )
    out = subprocess.run([str(_venv_python()), "-c", code], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


# --------------------------------------------------------------------------
# Raw JSON-RPC over stdio
# --------------------------------------------------------------------------

class Server:
    """The reference server as a subprocess, spoken to in newline-delimited JSON-RPC."""

    def __init__(self, executable: Path, stderr_path: Path, hash_seed: str):
        env = dict(os.environ)
        env["PYTHONHASHSEED"] = hash_seed
        env.pop("PYTHONPATH", None)
        self._stderr = open(stderr_path, "wb")
        self.proc = subprocess.Popen(
            [str(executable)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=self._stderr, env=env, cwd=str(HERE),
        )
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._next_id = 0

    def _read(self) -> None:
        assert self.proc.stdout is not None
        # Split on b"\n" only: a JSON string may legitimately carry U+2028 or U+0085.
        for line in iter(self.proc.stdout.readline, b""):
            self._lines.put(line)
        self._lines.put(None)

    def _send(self, message: dict) -> None:
        assert self.proc.stdin is not None
        # ensure_ascii=True on the wire: the server splits stdin with universal
        # newlines, so no raw non-ASCII line separator may reach it.
        data = json.dumps(message, ensure_ascii=True, allow_nan=False) + "\n"
        self.proc.stdin.write(data.encode("ascii"))
        self.proc.stdin.flush()

    def notify(self, method: str, params: dict | None = None) -> None:
        message: dict = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self._send(message)

    def request(self, method: str, params: dict) -> dict:
        self._next_id += 1
        rid = self._next_id
        self._send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        deadline = time.monotonic() + CALL_TIMEOUT
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise RuntimeError(f"timed out waiting for the answer to {method} #{rid}")
            try:
                line = self._lines.get(timeout=remaining)
            except queue.Empty:
                continue
            if line is None:
                raise RuntimeError(f"the server closed stdout while {method} #{rid} was pending")
            message = json.loads(line.decode("utf-8"))
            if message.get("id") == rid and ("result" in message or "error" in message):
                return message
            # A notification or a server->client request: not expected, but not ours either.
            print(f"[server] ignoring message: {line[:200]!r}", file=sys.stderr)

    def close(self) -> None:
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._stderr.close()


# --------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------

def _walk(value, path="args"):
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                raise ValueError(f"{path}: non-string key {k!r}")
            _check_text(k, path)
            yield from _walk(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk(v, f"{path}[{i}]")
    else:
        yield path, value


def _check_text(text: str, path: str) -> None:
    if any(0xD800 <= ord(ch) <= 0xDFFF for ch in text):
        raise ValueError(f"{path}: lone surrogate in {text!r}")


def validate_args(case: dict) -> None:
    """Args must be JSON the reference accepts and the Rust port can represent."""
    if not isinstance(case["args"], dict):
        raise ValueError(f"{case['name']}: args must be an object")
    for path, value in _walk(case["args"]):
        if isinstance(value, bool) or value is None:
            continue
        if isinstance(value, int):
            if not I64_MIN <= value <= I64_MAX:
                raise ValueError(f"{case['name']}: {path}: integer outside the signed 64-bit range")
        elif isinstance(value, float):
            if value != value or value in (float("inf"), float("-inf")):
                raise ValueError(f"{case['name']}: {path}: non-finite number")
        elif isinstance(value, str):
            _check_text(value, f"{case['name']}: {path}")
        else:
            raise ValueError(f"{case['name']}: {path}: not a JSON value: {type(value).__name__}")
    json.dumps(case["args"], allow_nan=False)


def _out_of_i64(value) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return not I64_MIN <= value <= I64_MAX
    if isinstance(value, dict):
        return any(_out_of_i64(v) for v in value.values())
    if isinstance(value, list):
        return any(_out_of_i64(v) for v in value)
    return False


_PYDANTIC_HEAD = re.compile(r"^(\d+) validation errors? for (\w+)Arguments\n")


def classify(tool: str, response: dict, params: set[str]) -> tuple[str, object]:
    """Return ("expected", obj) | ("expected_error", obj) | ("crash", text) | ("unexpected", why)."""
    if "error" in response:
        return "unexpected", f"JSON-RPC error {response['error']!r}"
    result = response.get("result")
    if not isinstance(result, dict):
        return "unexpected", f"result is not an object: {result!r}"
    if result.get("isError"):
        content = result.get("content")
        if (
            not isinstance(content, list) or len(content) != 1
            or content[0].get("type") != "text" or not isinstance(content[0].get("text"), str)
        ):
            return "unexpected", f"error result without a single text block: {result!r}"
        if "structuredContent" in result:
            return "unexpected", "error result carrying structuredContent"
        text = content[0]["text"]
        prefix = f"Error executing tool {tool}"
        if text == prefix:
            return "crash", text
        if not text.startswith(prefix + ": "):
            return "unexpected", f"error text without the expected prefix: {text!r}"
        message = text[len(prefix) + 2:]
        head = _PYDANTIC_HEAD.match(message)
        if head and head.group(2) == tool:
            lines = message.split("\n")[1:]  # split on \n only: reprs may hold \x85 or \u2028
            locations = [line for line in lines if line and not line.startswith(" ")]
            if len(locations) != int(head.group(1)):
                return "unexpected", f"cannot parse pydantic locations from {message!r}"
            names: list[str] = []
            for loc in locations:
                top = loc.split(".", 1)[0]
                if top not in params:
                    return "unexpected", f"pydantic location {loc!r} is not a parameter of {tool}"
                if top not in names:
                    names.append(top)
            return "expected_error", {"kind": "invalid_arguments", "arguments": names, "message": message}
        return "expected_error", {"kind": "tool_error", "message": message}
    structured = result.get("structuredContent")
    if not isinstance(structured, dict) or structured.get("tool") != tool:
        return "unexpected", f"success without a structuredContent envelope for {tool}: {result!r}"
    if _out_of_i64(structured):
        return "unexpected", "structuredContent holds an integer outside the signed 64-bit range"
    return "expected", structured


# --------------------------------------------------------------------------
# Expectations and coverage
# --------------------------------------------------------------------------

def codes_in(value, found: set[str] | None = None) -> set[str]:
    """Every finding code anywhere in a result (quarantine entries included)."""
    if found is None:
        found = set()
    if isinstance(value, dict):
        if isinstance(value.get("code"), str) and "severity" in value and "message" in value:
            found.add(value["code"])
        for v in value.values():
            codes_in(v, found)
    elif isinstance(value, list):
        for v in value:
            codes_in(v, found)
    return found


def features_in(tool: str, expected: dict) -> set[str]:
    found: set[str] = set()
    if tool == "duplicate_report":
        for group in expected.get("groups", []):
            for feature in ("members_omitted", "similarity"):
                if feature in group:
                    found.add(feature)
    return found


def check_expectation(case: dict, kind: str, outcome) -> list[str]:
    """A hand-written case states what it is meant to reach; verify it."""
    expect = case.get("expect") or {}
    problems: list[str] = []
    if not expect:
        return problems
    if "error" in expect:
        if kind != "expected_error" or outcome["kind"] != expect["error"]:
            got = outcome["kind"] if kind == "expected_error" else f"a result ({outcome.get('verdict')})"
            problems.append(f"expected error {expect['error']}, got {got}")
            return problems
        if "error_args" in expect and outcome.get("arguments") != expect["error_args"]:
            problems.append(f"expected invalid arguments {expect['error_args']}, got {outcome.get('arguments')}")
        if "contains" in expect and expect["contains"] not in outcome["message"]:
            problems.append(f"error message lacks {expect['contains']!r}: {outcome['message'][:300]!r}")
        return problems
    if kind != "expected":
        problems.append(f"expected a result, got {outcome!r}"[:400])
        return problems
    if "verdict" in expect and outcome.get("verdict") != expect["verdict"]:
        problems.append(f"expected verdict {expect['verdict']}, got {outcome.get('verdict')}")
    if "ok" in expect and outcome.get("ok") is not expect["ok"]:
        problems.append(f"expected ok={expect['ok']}, got {outcome.get('ok')}")
    found = codes_in(outcome)
    for code in expect.get("codes", []):
        if code not in found:
            problems.append(f"expected finding code {code}, found {sorted(found)}")
    for code in expect.get("no_codes", []):
        if code in found:
            problems.append(f"did not expect finding code {code}")
    features = features_in(case["tool"], outcome)
    for feature in expect.get("features", []):
        if feature not in features:
            problems.append(f"expected feature {feature}")
    dumped = json.dumps(outcome, ensure_ascii=False)
    for text in ([expect["contains"]] if isinstance(expect.get("contains"), str) else expect.get("contains", [])):
        if text not in dumped:
            problems.append(f"result lacks {text!r}")
    for path, want in expect.get("paths", {}).items():
        got = _get_path(outcome, path)
        if got != want or type(got) is not type(want):
            problems.append(f"{path}: expected {want!r}, got {got!r}")
    return problems


def _get_path(value, path: str):
    for part in path.split("."):
        if isinstance(value, list):
            try:
                value = value[int(part)]
            except (ValueError, IndexError):
                return "<missing>"
        elif isinstance(value, dict):
            if part not in value:
                return "<missing>"
            value = value[part]
        else:
            return "<missing>"
    return value


def coverage_report(records: list[tuple[dict, str, object]]) -> tuple[str, list[str]]:
    """Markdown tables of what was reached (hand-written / random counts) and what is missing."""
    # table[tool][kind][item] = [hand-written count, random count]
    table: dict[str, dict[str, dict[str, list[int]]]] = {
        tool: {"finding code": {}, "result feature": {}, "verdict": {}, "error kind": {}} for tool in TOOLS
    }
    labels: dict[str, int] = {}

    def bump(tool, kind, item, is_random):
        slot = table[tool][kind].setdefault(item, [0, 0])
        slot[1 if is_random else 0] += 1

    for case, kind, outcome in records:
        tool = case["tool"]
        is_random = case["group"].startswith("random_")
        if kind == "expected":
            for code in codes_in(outcome):
                bump(tool, "finding code", code, is_random)
            for feature in features_in(tool, outcome):
                bump(tool, "result feature", feature, is_random)
            bump(tool, "verdict", outcome.get("verdict"), is_random)
        else:
            bump(tool, "error kind", outcome["kind"], is_random)
        for label in case.get("covers", []):
            labels[label] = labels.get(label, 0) + 1

    required = {
        "finding code": REQUIRED_CODES, "result feature": REQUIRED_FEATURES,
        "verdict": REQUIRED_VERDICTS, "error kind": REQUIRED_ERROR_KINDS,
    }
    missing: list[str] = []
    lines = ["| tool | kind | item | hand-written | random |", "| --- | --- | --- | ---: | ---: |"]
    for tool in TOOLS:
        for kind in ("finding code", "result feature", "verdict", "error kind"):
            want = required[kind].get(tool, [])
            got = table[tool][kind]
            for item in list(want) + sorted(set(got) - set(want)):
                hand, rand = got.get(item, [0, 0])
                mark = "" if item in want else " (not required)"
                lines.append(f"| {tool} | {kind} | `{item}`{mark} | {hand} | {rand} |")
                if item in want and hand + rand == 0:
                    missing.append(f"{tool} {kind} {item}")

    label_lines = ["| label (argument error / pydantic failure / coercion) | hand-written cases |", "| --- | ---: |"]
    for label in cases_handwritten.REQUIRED_LABELS:
        count = labels.get(label, 0)
        label_lines.append(f"| `{label}` | {count} |")
        if count == 0:
            missing.append(f"label {label}")
    for label in sorted(set(labels) - set(cases_handwritten.REQUIRED_LABELS)):
        missing.append(f"label {label} is used by a case but not listed in REQUIRED_LABELS")
    return "\n".join(lines) + "\n\n" + "\n".join(label_lines), missing


# --------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------

def render_vector_file(reference: str, cases: list[dict]) -> str:
    """One case per line: valid JSON, readable diffs, key order preserved."""
    head = json.dumps({"reference": reference, "generated_by": GENERATED_BY}, ensure_ascii=False)
    parts = [head[:-1] + ', "cases": [\n']
    rendered = [json.dumps(case, ensure_ascii=False, allow_nan=False) for case in cases]
    parts.append(",\n".join(rendered))
    parts.append("\n]}\n")
    text = "".join(parts)
    # Round-trip guard: the file must parse back to exactly what was recorded.
    assert json.loads(text)["cases"] == cases
    return text


README_START = "<!-- generated by generate.py: start -->"
README_END = "<!-- generated by generate.py: end -->"


def render_readme_section(reference, files, coverage, excluded, seed) -> str:
    out = [README_START, "", f"Reference: **{reference}**. Random seed: `{seed}`.", ""]
    out += ["| file | cases | bytes |", "| --- | ---: | ---: |"]
    total_cases = total_bytes = 0
    for name, (count, size) in files.items():
        out.append(f"| `vectors/{name}` | {count} | {size:,} |")
        total_cases += count
        total_bytes += size
    out.append(f"| **total** | **{total_cases}** | **{total_bytes:,}** |")
    out += ["", "### Coverage reached", "", coverage, "", "### Cases excluded (reference crashes and unrepresentable results)", ""]
    if excluded:
        out += ["| case | reason |", "| --- | --- |"]
        for name, reason in excluded:
            out.append(f"| `{name}` | {reason.replace('|', '/')} |")
    else:
        out.append("None: every case produced either a structured result or a readable error.")
    out += ["", README_END]
    return "\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reuse-venv", action="store_true",
                        help="use .venv as it is when its pip freeze equals the pins")
    parser.add_argument("--check", action="store_true",
                        help="do not write; exit 1 if the committed vectors differ from a fresh run")
    parser.add_argument("--hash-seed", default="0",
                        help="PYTHONHASHSEED for the reference server (default 0); use --check with another "
                             "value to confirm no result depends on str-hash order")
    args = parser.parse_args()

    ensure_venv(args.reuse_venv)
    versions = reference_versions()
    reference = (
        f"mcp-validation-server {versions['server']} (mcp {versions['mcp']}, pydantic "
        f"{versions['pydantic']}, {versions['impl']} {versions['python']})"
    )
    print(f"[reference] {reference}")

    handwritten = cases_handwritten.cases()
    random_cases = cases_random.cases()
    all_cases = handwritten + random_cases
    names = [c["name"] for c in all_cases]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise SystemExit(f"duplicate case names: {duplicates[:10]}")
    for case in all_cases:
        if case["tool"] not in TOOLS:
            raise SystemExit(f"{case['name']}: unknown tool {case['tool']}")
        validate_args(case)
    print(f"[cases] {len(handwritten)} hand-written, {len(random_cases)} random")

    with tempfile.TemporaryDirectory() as tmp:
        server = Server(VENV / "bin" / "mcp-validation-server", Path(tmp) / "server.stderr", args.hash_seed)
        try:
            init = server.request("initialize", {
                "protocolVersion": PROTOCOL_VERSION,
                "capabilities": {},
                "clientInfo": {"name": "conformance-generate", "version": "1"},
            })
            if "result" not in init:
                raise SystemExit(f"initialize failed: {init}")
            server.notify("notifications/initialized")
            tools_list = server.request("tools/list", {})
            if "result" not in tools_list:
                raise SystemExit(f"tools/list failed: {tools_list}")
            params = {
                tool["name"]: set(tool["inputSchema"].get("properties", {}))
                for tool in tools_list["result"]["tools"]
            }
            if sorted(params) != sorted(TOOLS):
                raise SystemExit(f"unexpected tool set {sorted(params)}")

            records: list[tuple[dict, str, object]] = []
            excluded: list[tuple[str, str]] = []
            failures: list[str] = []
            started = time.monotonic()
            for number, case in enumerate(all_cases, 1):
                response = server.request("tools/call", {"name": case["tool"], "arguments": case["args"]})
                kind, outcome = classify(case["tool"], response, params[case["tool"]])
                if kind in ("crash", "unexpected"):
                    reason = "reference crash: bare `Error executing tool " + case["tool"] + "`" \
                        if kind == "crash" else str(outcome)
                    print(f"[excluded] {case['name']}: {reason}\n           args={json.dumps(case['args'], ensure_ascii=False)[:500]}")
                    excluded.append((case["name"], reason))
                    if case.get("expect"):
                        failures.append(f"{case['name']}: hand-written case was excluded: {reason}")
                    continue
                for problem in check_expectation(case, kind, outcome):
                    failures.append(f"{case['name']}: {problem}")
                records.append((case, kind, outcome))
                if number % 250 == 0:
                    print(f"[calls] {number}/{len(all_cases)} ({time.monotonic() - started:.1f}s)")
            print(f"[calls] {len(all_cases)} calls in {time.monotonic() - started:.1f}s")
        finally:
            server.close()

    coverage, missing = coverage_report(records)
    print()
    print(coverage)
    print()

    groups: dict[str, list[dict]] = {}
    for tool in TOOLS:
        groups[f"{tool}.json"] = []
    for tool in TOOLS:
        groups[f"random_{tool}.json"] = []
    for case, kind, outcome in records:
        entry = {"name": case["name"], "tool": case["tool"], "args": case["args"], kind: outcome}
        groups[case["group"] + ".json"].append(entry)

    rendered = {name: render_vector_file(reference, cases) for name, cases in groups.items()}
    files = {name: (len(groups[name]), len(text.encode("utf-8"))) for name, text in rendered.items()}
    total_bytes = sum(size for _, size in files.values())
    for name, (count, size) in files.items():
        print(f"[vectors] {name}: {count} cases, {size:,} bytes")
    print(f"[vectors] total: {sum(c for c, _ in files.values())} cases, {total_bytes:,} bytes")

    if failures:
        print("\nHand-written expectations that did not hold:")
        for failure in failures:
            print("  - " + failure)
    if missing:
        print("\nRequired coverage missing:")
        for item in missing:
            print("  - " + item)
    n_hand = sum(1 for c, _, _ in records if not c["group"].startswith("random_"))
    n_rand = len(records) - n_hand
    if n_rand < 800 or n_hand + n_rand < 1000:
        failures.append(f"too few cases: {n_hand} hand-written + {n_rand} random")
    if total_bytes > 15 * 1024 * 1024:
        failures.append(f"vector set is {total_bytes:,} bytes, over the 15 MiB budget")
    if failures or missing:
        print("\nNOT writing vectors.")
        return 1

    readme_section = render_readme_section(reference, files, coverage, excluded, cases_random.SEED)
    tools_list_text = json.dumps(tools_list["result"], ensure_ascii=False, indent=2) + "\n"
    readme_text = README.read_text(encoding="utf-8") if README.exists() else ""
    if README_START in readme_text and README_END in readme_text:
        before = readme_text.split(README_START, 1)[0]
        after = readme_text.split(README_END, 1)[1]
        readme_text = before + readme_section + after
    else:
        readme_text = readme_text.rstrip("\n") + "\n\n" + readme_section + "\n"

    outputs = {VECTORS / name: text for name, text in rendered.items()}
    outputs[TOOLS_LIST] = tools_list_text
    outputs[README] = readme_text

    if args.check:
        stale = [str(p.relative_to(HERE)) for p, text in outputs.items()
                 if not p.exists() or p.read_text(encoding="utf-8") != text]
        stray = [str(p.relative_to(HERE)) for p in VECTORS.glob("*.json") if p not in outputs]
        if stale or stray:
            print(f"\n[check] differs from a fresh run: {stale + stray}")
            return 1
        print("\n[check] committed vectors match a fresh run")
        return 0

    VECTORS.mkdir(exist_ok=True)
    for stray in VECTORS.glob("*.json"):
        if stray not in outputs:
            stray.unlink()
    for path, text in outputs.items():
        path.write_text(text, encoding="utf-8")
    print(f"\n[written] {len(rendered)} vector files, {TOOLS_LIST.name}, README.md")
    if excluded:
        print(f"[excluded] {len(excluded)} case(s); listed in README.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
