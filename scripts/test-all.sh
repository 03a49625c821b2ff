#!/usr/bin/env bash
# Every test of the project, on every runtime: the core natively (including
# all conformance vectors), the byte ABI, the npm package in Node and in
# Chromium (vectors, packaging, playground), the MCP host speaking MCP over
# stdio and HTTP, and the server installed from each channel's artifact
# (wheel, npm launcher and platform package, crate) around the debug build.
# Installs what it needs first (idempotent). The gates come first: formatting
# and types before anything is built, clippy as soon as the module exists
# (the host's build script embeds it).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

scripts/ensure-tools.sh
scripts/ensure-host-test-tools.sh
scripts/ensure-install-test-tools.sh
scripts/check-style.sh
scripts/build-wasm.sh
scripts/check-lints.sh
cargo test --workspace
scripts/test-npm.sh
scripts/test-packaging.sh
