#!/usr/bin/env bash
# `npm pack` / `npm publish` run this first (the package's prepack script):
# it refuses to pack unless npm/dist holds what scripts/build-wasm.sh makes
# from this tree as it is now: the module and its glue, a record of the
# module's inputs that matches the sources (scripts/module-inputs.sh), and the
# CommonJS twins of src/api.js and types/index.d.ts. It checks, never builds:
# a build takes minutes, and the tests pack the package several times.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
dist="$root/npm/dist"

refuse() {
  echo "npm pack: $1" >&2
  echo "npm pack: build it first with scripts/build-wasm.sh (scripts/ensure-tools.sh installs what that needs)" >&2
  exit 1
}

for file in wasm/mcp_validation_core_bg.wasm wasm/mcp_validation_core.js wasm/mcp_validation_core_node.cjs \
  wasm/module-inputs.sha256 api.cjs index.d.cts; do
  [[ -f "$dist/$file" ]] || refuse "npm/dist/$file is missing, so the package would have no module"
done

current=$("$root/scripts/module-inputs.sh" "$root")
if [[ "$current" != "$(cat "$dist/wasm/module-inputs.sha256")" ]]; then
  changed=$(diff <(echo "$current") "$dist/wasm/module-inputs.sha256" | sed -n 's/^< [0-9a-f]*  /    /p' | head -10 || true)
  refuse "the module in npm/dist is stale: built before these inputs changed (or were added):
${changed:-    (an input was removed)}"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
node "$root/scripts/cjs-twin.mjs" "$root/npm/src/api.js" "$work/api.cjs"
cmp -s "$work/api.cjs" "$dist/api.cjs" || refuse "npm/dist/api.cjs is older than npm/src/api.js"
cmp -s "$root/npm/types/index.d.ts" "$dist/index.d.cts" || refuse "npm/dist/index.d.cts is older than npm/types/index.d.ts"
