#!/usr/bin/env bash
# Build the module if needed (cargo is incremental) and run the npm package's
# node:test suites: the JS API, the byte ABI, the conformance vectors and the
# packaging test (npm pack, install, ESM/CJS/TypeScript/bundler/browser).
# Afterwards `npm pack ./npm` produces the installable tarball.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build-wasm.sh"
cd "$root/npm"
node --test --test-reporter=spec test/*.test.mjs
