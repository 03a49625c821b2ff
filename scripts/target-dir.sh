#!/usr/bin/env bash
# Print cargo's target directory for this workspace: wherever
# CARGO_TARGET_DIR or build.target-dir put it, target/ otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo metadata --format-version 1 --no-deps | node -p 'JSON.parse(require("fs").readFileSync(0, "utf8")).target_directory'
