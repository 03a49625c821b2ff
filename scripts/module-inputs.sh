#!/usr/bin/env bash
# Print the record of what the WebAssembly module is built from: one
# `<sha256>  <path>` line per input file, sorted by path (bytewise), paths
# relative to the workspace. scripts/build-wasm.sh keeps it beside the module
# (npm/dist/wasm/module-inputs.sha256); the host's build script
# (mcp-host/build/module_inputs.rs) computes the same record and refuses to
# embed a module whose record differs, and so does `npm pack` (scripts/check-dist.sh).
#
#   scripts/module-inputs.sh [ROOT]     ROOT: the workspace (default: this one)
#
# The inputs: every file under core/src and wasm/src, the manifests and the
# lock file, the toolchain pin, this build's script, and the npm lock file
# (it pins wasm-opt). Keep the list in step with mcp-host/build/module_inputs.rs;
# mcp-host/tests/module_inputs.rs fails when the two disagree.
set -euo pipefail

root=${1:-"$(dirname "$0")/.."}
cd "$root"

dirs=(core/src wasm/src)
files=(Cargo.toml Cargo.lock rust-toolchain.toml core/Cargo.toml wasm/Cargo.toml scripts/build-wasm.sh npm/package-lock.json)

if command -v sha256sum >/dev/null; then
  sum=(sha256sum)
else
  sum=(shasum -a 256) # macOS
fi

for file in "${files[@]}"; do
  [[ -f "$file" ]] || { echo "module-inputs: $root/$file is missing" >&2; exit 1; }
done
{
  find "${dirs[@]}" -type f
  printf '%s\n' "${files[@]}"
} | LC_ALL=C sort | while IFS= read -r path; do
  "${sum[@]}" -- "$path"
done
