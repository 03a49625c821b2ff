#!/usr/bin/env bash
# Install what building and testing the wasm module and the npm package needs.
# Idempotent: each step checks first, so a second run only checks.
#   - the wasm32-unknown-unknown Rust target
#   - wasm-bindgen-cli at exactly the version Cargo.lock pins for wasm-bindgen
#   - Node 20+ and the npm package's dev dependencies (binaryen's wasm-opt,
#     esbuild, TypeScript, prettier, playwright-core), from npm/package-lock.json
#   - Chromium, for the browser checks of the packaging, README and
#     playground tests (MCPV_NO_BROWSER=1 skips it, and those checks say they
#     were skipped; without that variable, or under MCPV_REQUIRE_ALL_TESTS=1,
#     a missing Chromium fails them)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

rustup target add wasm32-unknown-unknown >/dev/null

# The CLI must match the crate exactly, or the glue it writes does not fit the
# module. The version comes from Cargo.lock, where the `=` pin in wasm/Cargo.toml puts it.
wanted=$(cargo pkgid -p wasm-bindgen | sed 's/.*@//')
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [[ "$have" != "$wanted" ]]; then
  echo "ensure-tools: installing wasm-bindgen-cli $wanted (found: ${have:-none}); this takes a few minutes"
  # Not --locked: the CLI's own lock file pins a crate that has since been yanked.
  cargo install wasm-bindgen-cli --version "=$wanted"
fi

node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if (( node_major < 20 )); then
  echo "ensure-tools: Node 20 or newer is required (found: $(node --version 2>/dev/null || echo none))" >&2
  exit 1
fi

# npm ci only when the installed tree is not what the lock file describes.
if ! cmp -s npm/package-lock.json npm/node_modules/.package-lock.json.source 2>/dev/null; then
  # --ignore-scripts: esbuild finds its platform binary without its postinstall.
  (cd npm && npm ci --ignore-scripts --no-audit --no-fund)
  cp npm/package-lock.json npm/node_modules/.package-lock.json.source
fi

if [[ "${MCPV_NO_BROWSER:-0}" != 1 ]] && ! command -v chromium >/dev/null; then
  if command -v apt-get >/dev/null; then
    echo "ensure-tools: installing Chromium for the browser checks"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
  else
    echo "ensure-tools: no Chromium and no apt-get; the playground test will fail (set MCPV_NO_BROWSER=1 to skip browser checks)" >&2
  fi
fi
