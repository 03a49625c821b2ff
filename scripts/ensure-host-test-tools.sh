#!/usr/bin/env bash
# Install what the native host's independent-client test needs (idempotent):
#
#   <target>/host-test-tools/venv a Python venv with the official MCP Python
#                                 SDK, `mcp` (pinned below), used by
#                                 mcp-host/tests/python_sdk.rs
#
# <target> is cargo's target directory (scripts/target-dir.sh).
# Needs python3 (>= 3.10) with the venv module. Re-running it does nothing
# once the pinned version is installed. The test finds the venv here, or
# wherever MCPV_HOST_TEST_PYTHON points (a python with `mcp` installed).
set -euo pipefail

MCP_SDK_VERSION=2.3.0

root=$(cd "$(dirname "$0")/.." && pwd)
tools="$("$root/scripts/target-dir.sh")/host-test-tools"
venv="$tools/venv"
python="$venv/bin/python"

installed() {
  [[ -x "$python" ]] && "$python" - "$MCP_SDK_VERSION" <<'PY' 2>/dev/null
import importlib.metadata, sys
sys.exit(0 if importlib.metadata.version("mcp") == sys.argv[1] else 1)
PY
}

if installed; then
  echo "ensure-host-test-tools: mcp $MCP_SDK_VERSION already in $venv"
  exit 0
fi

mkdir -p "$tools"
python3 -m venv "$venv"
"$python" -m pip install --quiet --disable-pip-version-check "mcp==$MCP_SDK_VERSION"
installed || { echo "ensure-host-test-tools: mcp $MCP_SDK_VERSION did not install into $venv" >&2; exit 1; }
echo "ensure-host-test-tools: installed mcp $MCP_SDK_VERSION into $venv"
