#!/usr/bin/env bash
# Build the module if needed, then serve the playground on loopback:
#   scripts/serve-playground.sh [--port N]      (default 8787; --port 0 picks a free one)
# and open the address it prints. Ctrl+C stops it. Needs the tools from
# scripts/ensure-tools.sh; the first build takes a few minutes, later ones seconds.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build-wasm.sh"
exec node "$root/npm/playground/serve.mjs" "$@"
