#!/usr/bin/env bash
# The install tests CI can afford (scripts/test-all.sh runs this): every
# channel's artifact made around the debug build `cargo test` already built
# (the wheel's metadata by maturin, its zip by scripts/build-wheel.sh dev),
# then installed and run like a user's by scripts/test-install.sh. What is
# tested is the packaging (the wheel's metadata and script, the npm launcher
# finding its platform package, the crate carrying its module, every channel
# shipping the npm package's module); the release binaries are the same
# crate built with another profile and target, by
# scripts/release/build-artifacts.sh, which runs the same test on them and
# also installs the crate with cargo.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
target=$(scripts/target-dir.sh)
out="$target/install-test/artifacts"
rm -rf "$out"
mkdir -p "$out"

scripts/ensure-install-test-tools.sh
node --test packaging/test/launcher.test.cjs

platform=$(node -p '`${process.platform}-${process.arch}`')
# A stripped copy: the debug build's symbols would make each artifact 370 MB.
binary="$target/install-test/mcp-validation-server"
strip -o "$binary" "$target/debug/mcp-validation-server"
scripts/build-wheel.sh dev "$binary" "$out"
scripts/pack-npm.sh "$binary" "$platform" "$out"
scripts/package-crate.sh "$out"
scripts/test-install.sh "$out"
