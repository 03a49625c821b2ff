#!/usr/bin/env bash
# clippy over the whole workspace with every warning an error (the lints are
# the workspace's, in the root Cargo.toml, plus missing_docs on the core), and
# again for the wasm crate compiled to wasm32: its exports exist only there
# (wasm/src/abi.rs), so a native check never sees them.
# Run after scripts/build-wasm.sh: the host's build script needs the module.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

cargo clippy --workspace --all-targets -- -D warnings
cargo clippy -p mcp-validation-wasm --target wasm32-unknown-unknown --all-targets -- -D warnings
echo "check-lints: no clippy warnings, natively or for wasm32"
