#!/usr/bin/env bash
# Build the one .wasm module and the generated parts of the npm package:
#   npm/dist/wasm/mcp_validation_core_bg.wasm   the module (every host runs this file)
#   npm/dist/wasm/mcp_validation_core.js        wasm-bindgen `web` glue (ES module)
#   npm/dist/wasm/mcp_validation_core_node.cjs  wasm-bindgen `nodejs` glue (CommonJS)
#   npm/dist/api.cjs, npm/dist/index.d.cts      CommonJS twins of src/api.js and types/index.d.ts
# Incremental: cargo rebuilds only what changed; the rest takes seconds.
# Needs the tools from scripts/ensure-tools.sh.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
npm_dir="$root/npm"
out="$npm_dir/dist"
name=mcp_validation_core

cd "$root"
cargo build --release -p mcp-validation-wasm --target wasm32-unknown-unknown
# Wherever cargo put it: CARGO_TARGET_DIR or build.target-dir may move target/.
target_dir=$("$root/scripts/target-dir.sh")
module="$target_dir/wasm32-unknown-unknown/release/validation_wasm.wasm"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

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
wasm_opt="$npm_dir/node_modules/.bin/wasm-opt"
wasm="$work/web/${name}_bg.wasm"
if [[ "${MCPV_WASM_OPT:-1}" != 0 ]]; then
  if [[ ! -x "$wasm_opt" ]]; then
    echo "build-wasm: $wasm_opt is missing; run scripts/ensure-tools.sh (or set MCPV_WASM_OPT=0)" >&2
    exit 1
  fi
  # Features the Rust wasm32 target enables by default, which the glue relies on.
  "$wasm_opt" -O3 --enable-reference-types --enable-bulk-memory --enable-sign-ext \
    --enable-nontrapping-float-to-int --enable-multivalue --enable-mutable-globals \
    "$wasm" -o "$work/opt.wasm"
  wasm="$work/opt.wasm"
fi

# Copy only what changed: the native host's build script watches the .wasm,
# and a fresh mtime on identical bytes would relink the server (minutes, with
# LTO) on every run of this script.
install_if_changed() {
  cmp -s "$1" "$2" 2>/dev/null || cp "$1" "$2"
}
mkdir -p "$out/wasm"
install_if_changed "$wasm" "$out/wasm/${name}_bg.wasm"
install_if_changed "$work/web/$name.js" "$out/wasm/$name.js"
# The nodejs glue is CommonJS; .cjs keeps it so inside a "type": "module" package.
# It reads ${__dirname}/${name}_bg.wasm, the same file the web glue fetches.
install_if_changed "$work/nodejs/$name.js" "$out/wasm/${name}_node.cjs"

# One source for the JS layer: its only ES module syntax is the final export
# line, which becomes a module.exports assignment.
node - "$npm_dir/src/api.js" "$out/api.cjs" <<'JS'
const fs = require('node:fs');
const [source, target] = process.argv.slice(2);
const text = fs.readFileSync(source, 'utf8');
const exportLine = /^export \{ ([\w, ]+) \};\n?$/m;
const match = text.match(exportLine);
if (!match || (text.match(/^(export|import)\b/gm) || []).length !== 1) {
  console.error(`build-wasm: ${source} must end with its only export line, "export { a, b };"`);
  process.exit(1);
}
const body = text.replace(exportLine, `module.exports = { ${match[1]} };\n`);
fs.writeFileSync(target, `'use strict';\n// Generated from src/api.js by scripts/build-wasm.sh; edit that file.\n${body}`);
JS
cp "$npm_dir/types/index.d.ts" "$out/index.d.cts"

raw=$(stat -c %s "$out/wasm/${name}_bg.wasm")
gz=$(gzip -9 -c "$out/wasm/${name}_bg.wasm" | wc -c)
echo "build-wasm: $out/wasm/${name}_bg.wasm: $raw bytes, $gz gzipped"
