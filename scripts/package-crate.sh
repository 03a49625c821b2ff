#!/usr/bin/env bash
# Make the crate-registry package of the server (`cargo package` of mcp-host),
# carrying the module it embeds, so `cargo install` of it builds with no npm
# folder, no wasm toolchain and no workspace:
#
#   scripts/package-crate.sh OUT_DIR      writes OUT_DIR/mcp-validation-server-<version>.crate
#
# The module must be current (scripts/build-wasm.sh, the same record check
# the host's build.rs makes). It is copied into mcp-host/module/ (ignored by
# git) with its SHA-256 in sha256sum format, which the packaged build.rs
# checks it against, and the record of what it was built from, for whoever
# wants to trace it. cargo sees those files as uncommitted, hence
# --allow-dirty; --no-verify because the test of the package is
# scripts/test-install.sh --cargo-install, which builds it as a user would.
set -euo pipefail

[[ $# -eq 1 ]] || { echo "usage: scripts/package-crate.sh OUT_DIR" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)
cd "$root"

dist=npm/dist/wasm
name=mcp_validation_core_bg.wasm
if [[ ! -f "$dist/$name" ]] || ! scripts/module-inputs.sh | cmp -s - "$dist/module-inputs.sha256"; then
  echo "package-crate: $dist/$name is missing or was not built from these sources; run scripts/build-wasm.sh" >&2
  exit 1
fi

rm -rf mcp-host/module
mkdir mcp-host/module
cp "$dist/$name" "$dist/module-inputs.sha256" mcp-host/module/
(cd mcp-host/module && sha256sum "$name" >"$name.sha256")

cargo package -p mcp-validation-server --locked --no-verify --allow-dirty --quiet
version=$(cargo pkgid -p mcp-validation-server | sed 's/.*[@#]//')
crate="$("$root/scripts/target-dir.sh")/package/mcp-validation-server-$version.crate"
cp "$crate" "$out/"
echo "$out/$(basename "$crate")"
