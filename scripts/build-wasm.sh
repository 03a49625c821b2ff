#!/usr/bin/env bash
# Build the one .wasm module and the generated parts of the npm package:
#   npm/dist/wasm/mcp_validation_core_bg.wasm   the module (every host runs this file)
#   npm/dist/wasm/mcp_validation_core.js        wasm-bindgen `web` glue (ES module)
#   npm/dist/wasm/mcp_validation_core_node.cjs  wasm-bindgen `nodejs` glue (CommonJS)
#   npm/dist/wasm/module-inputs.sha256          what the module was built from (scripts/module-inputs.sh);
#                                               the host's build and `npm pack` refuse a module it does not match
#   npm/dist/api.cjs, npm/dist/index.d.cts      CommonJS twins of src/api.js and types/index.d.ts
# Incremental: when the module's inputs (scripts/module-inputs.sh) and the
# wasm-opt setting are those of the module already in npm/dist, the module
# is not rebuilt at all (no cargo, wasm-bindgen or wasm-opt: a fraction of a
# second, so scripts/run-server.sh starts at once); otherwise cargo rebuilds
# only what changed. MCPV_WASM_REBUILD=1 rebuilds regardless.
# Needs the tools from scripts/ensure-tools.sh.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
npm_dir="$root/npm"
out="$npm_dir/dist"
name=mcp_validation_core

cd "$root"

# The tools first, so a fresh clone learns what to install before a long build.
wasm_opt="$npm_dir/node_modules/.bin/wasm-opt"
if ! command -v wasm-bindgen >/dev/null || { [[ "${MCPV_WASM_OPT:-1}" != 0 ]] && [[ ! -x "$wasm_opt" ]]; }; then
  echo "build-wasm: wasm-bindgen or $wasm_opt is missing; run scripts/ensure-tools.sh first (or set MCPV_WASM_OPT=0 to skip wasm-opt)" >&2
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The record of the inputs, taken before the build reads them, so an edit
# made during the build leaves a record that no longer matches.
"$root/scripts/module-inputs.sh" "$root" >"$work/module-inputs.sha256"
# What the module was optimised with: part of what it is, beside its inputs.
echo "wasm-opt=${MCPV_WASM_OPT:-1}" >"$work/module-build.txt"

# Copy only what changed: the native host's build script watches the .wasm,
# and a fresh mtime on identical bytes would relink the server (minutes, with
# LTO) on every run of this script.
install_if_changed() {
  cmp -s "$1" "$2" 2>/dev/null || cp "$1" "$2"
}

module_is_current() {
  [[ "${MCPV_WASM_REBUILD:-0}" != 1 ]] &&
    cmp -s "$work/module-inputs.sha256" "$out/wasm/module-inputs.sha256" &&
    cmp -s "$work/module-build.txt" "$out/wasm/module-build.txt" &&
    [[ -f "$out/wasm/${name}_bg.wasm" && -f "$out/wasm/$name.js" && -f "$out/wasm/${name}_node.cjs" ]]
}

if module_is_current; then
  echo "build-wasm: the module is current (its inputs are unchanged); not rebuilt"
else
cargo build --release -p mcp-validation-wasm --target wasm32-unknown-unknown
# Wherever cargo put it: CARGO_TARGET_DIR or build.target-dir may move target/.
target_dir=$("$root/scripts/target-dir.sh")
module="$target_dir/wasm32-unknown-unknown/release/validation_wasm.wasm"

# The two glue flavours must share one .wasm; wasm-bindgen 0.2.130 emits the
# same module for both, and this stops the build if a version ever does not.
for target in web nodejs; do
  wasm-bindgen "$module" --target "$target" --out-dir "$work/$target" --out-name "$name" --no-typescript
done
if ! cmp -s "$work/web/${name}_bg.wasm" "$work/nodejs/${name}_bg.wasm"; then
  echo "build-wasm: the web and nodejs targets produced different .wasm files; one module cannot serve both" >&2
  exit 1
fi

# wasm-opt from the npm package `binaryen` (pinned in npm/package.json): it
# shrinks the module at equal speed (figures in npm/README.md).
# Debian's binaryen 108 is too old: it breaks wasm-bindgen's externref table.
wasm="$work/web/${name}_bg.wasm"
if [[ "${MCPV_WASM_OPT:-1}" != 0 ]]; then
  # Features the Rust wasm32 target enables by default, which the glue relies on.
  "$wasm_opt" -O3 --enable-reference-types --enable-bulk-memory --enable-sign-ext \
    --enable-nontrapping-float-to-int --enable-multivalue --enable-mutable-globals \
    "$wasm" -o "$work/opt.wasm"
  wasm="$work/opt.wasm"
fi

mkdir -p "$out/wasm"
install_if_changed "$wasm" "$out/wasm/${name}_bg.wasm"
install_if_changed "$work/web/$name.js" "$out/wasm/$name.js"
# The nodejs glue is CommonJS; .cjs keeps it so inside a "type": "module" package.
# It reads ${__dirname}/${name}_bg.wasm, the same file the web glue fetches.
install_if_changed "$work/nodejs/$name.js" "$out/wasm/${name}_node.cjs"
fi

# One source for the JS layer: src/api.js, with its export line made CommonJS.
node "$root/scripts/cjs-twin.mjs" "$npm_dir/src/api.js" "$work/api.cjs"
install_if_changed "$work/api.cjs" "$out/api.cjs"
install_if_changed "$npm_dir/types/index.d.ts" "$out/index.d.cts"
# Last, once everything they vouch for is in place.
install_if_changed "$work/module-build.txt" "$out/wasm/module-build.txt"
install_if_changed "$work/module-inputs.sha256" "$out/wasm/module-inputs.sha256"

raw=$(stat -c %s "$out/wasm/${name}_bg.wasm")
gz=$(gzip -9 -c "$out/wasm/${name}_bg.wasm" | wc -c)
echo "build-wasm: $out/wasm/${name}_bg.wasm: $raw bytes, $gz gzipped"
