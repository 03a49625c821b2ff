#!/usr/bin/env bash
# Build the release artifacts for this machine's platform and test them as a
# user installs them (not run by CI: the release build of the server for the
# platform's target is a second full build of every dependency, ~11 min on 2
# cores, and the crate test a third, in a fresh CARGO_HOME, with the network):
#
#   scripts/release/build-artifacts.sh OUT_DIR
#
# OUT_DIR gets the wheel, the npm launcher and platform tarballs and the
# .crate, then scripts/test-install.sh OUT_DIR --cargo-install runs on them.
# The platform comes from packaging/platforms.json: the entry whose Node
# os/cpu is this machine's (linux-x64: a static musl binary, tagged for
# manylinux and musllinux wheels alike). A release pipeline runs the same
# script once per entry of the matrix, on the entry's runner.
set -euo pipefail

[[ $# -eq 1 ]] || { echo "usage: scripts/release/build-artifacts.sh OUT_DIR" >&2; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)
rm -f "$out"/*.whl "$out"/*.tgz "$out"/*.crate
cd "$root"

if [[ -n "$(git status --porcelain --untracked-files=no)" ]]; then
  echo "build-artifacts: the tree has uncommitted changes; release artifacts are built from a commit" >&2
  exit 1
fi

read -r platform target < <(node -e '
  const matrix = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const entry = matrix.platforms.find((p) => p.node_os === process.platform && p.node_cpu === process.arch);
  if (!entry) { console.error(`build-artifacts: ${process.platform}-${process.arch} is not in ${process.argv[1]}`); process.exit(1); }
  console.log(entry.id, entry.rust_target);
' packaging/platforms.json)

scripts/ensure-tools.sh
scripts/ensure-install-test-tools.sh
rustup target add "$target" >/dev/null
# wasmtime's build compiles a little C; for a musl target cc-rs wants musl-gcc.
if [[ "$target" == *-musl ]] && ! command -v musl-gcc >/dev/null && command -v apt-get >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends musl-tools >/dev/null
fi
scripts/build-wasm.sh

timings="$out/timings.txt"
: >"$timings"
timed() {
  local what=$1 start=$SECONDS
  shift
  "$@"
  echo "$what: $((SECONDS - start)) s" | tee -a "$timings"
}

timed "wheel (release build for $target, maturin)" scripts/build-wheel.sh release "$platform" "$out"
binary="$(scripts/target-dir.sh)/$target/release/mcp-validation-server"
timed "npm tarballs (npm pack)" scripts/pack-npm.sh "$binary" "$platform" "$out"
timed "crate (cargo package)" scripts/package-crate.sh "$out"
ls -l "$out"
timed "install tests, cargo install included" scripts/test-install.sh "$out" --cargo-install
