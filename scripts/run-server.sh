#!/usr/bin/env bash
# Build the MCP server and the WebAssembly module it embeds, then run it on
# stdio with no configuration (flags given here are passed on, e.g.
# --transport streamable-http or --data-root DIR). Build output goes to
# stderr: stdout carries only MCP, so an MCP host can launch this script.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
{
  MCPV_NO_BROWSER=1 scripts/ensure-tools.sh
  scripts/build-wasm.sh
  cargo build --release -p mcp-validation-server
} 1>&2
exec "$("$root/scripts/target-dir.sh")/release/mcp-validation-server" "$@"
