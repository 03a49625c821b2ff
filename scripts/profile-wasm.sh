#!/usr/bin/env bash
# Profile one call of the module in the sandbox, with the module's own
# function names in the report:
#
#   scripts/profile-wasm.sh TOOL ARGS.json [DATA.csv|-] [REPEAT]
#
# It builds, outside the project's own target directory and dist folder:
# - the module as the shipped one is (release, wasm-bindgen, wasm-opt -O3),
#   but with its name section kept (`wasm-opt -g`), so perf names each
#   function; the code is the same as the shipped module's;
# - mcp-host/examples/call_wasm.rs embedding it (MCPV_WASM_MODULE), with the
#   host's `jitdump` feature (wasmtime writes a JitDump file that perf reads),
#   without LTO, in its own target directory: after the first build, a change
#   to the core rebuilds in a couple of minutes instead of ten.
# Then it runs the call under `perf record`, merges the JIT code into the
# profile (`perf inject --jit`) and prints the top of `perf report` for the
# calls (the module's functions, the host's and the kernel's). The profile
# stays in $MCPV_PROFILE_DIR (default: target/profile-wasm) for other views.
#
# Needs perf (Debian: linux-perf), wasm-bindgen and npm's binaryen (scripts/ensure-tools.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if [[ $# -lt 2 ]]; then
  sed -n '2,20p' "$0" >&2
  exit 2
fi
tool=$1 args=$(realpath "$2") data=${3:--} repeat=${4:-1}
[[ "$data" == - ]] || data=$(realpath "$data")
dir=${MCPV_PROFILE_DIR:-$("$root/scripts/target-dir.sh")/profile-wasm}
mkdir -p "$dir"
dir=$(realpath "$dir")

cargo build -q --release -p mcp-validation-wasm --target wasm32-unknown-unknown
module="$("$root/scripts/target-dir.sh")/wasm32-unknown-unknown/release/validation_wasm.wasm"
wasm-bindgen "$module" --target web --out-dir "$dir" --out-name named --no-typescript
# The shipped module's wasm-opt flags (scripts/build-wasm.sh), plus -g.
"$root/npm/node_modules/.bin/wasm-opt" -O3 -g --enable-reference-types --enable-bulk-memory --enable-sign-ext \
  --enable-nontrapping-float-to-int --enable-multivalue --enable-mutable-globals \
  "$dir/named_bg.wasm" -o "$dir/named.wasm"

CARGO_PROFILE_RELEASE_LTO=off CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 CARGO_TARGET_DIR="$dir/target" \
  MCPV_WASM_MODULE="$dir/named.wasm" \
  cargo build -q --release -p mcp-validation-server --features jitdump --example call_wasm

# wasmtime writes jit-<pid>.dump into the working directory.
cd "$dir"
rm -f jit-*.dump
perf record -k 1 -o perf.data "$dir/target/release/examples/call_wasm" "$tool" "$args" "$data" "$repeat" >result.json
perf inject --jit -i perf.data -o perf.jit.data
# The call only: from the first sample in the module's code on (before it,
# the module is loaded or compiled).
# (perf names a sample's object only when asked for its address too. Each
# awk reads to the end: a reader that stopped early would end perf on
# SIGPIPE, and this script with it.)
first=$(perf script -i perf.jit.data -F time,ip,dso 2>/dev/null | awk '/jitted-/ && !t {sub(":", "", $1); t = $1} END {print t}')
perf report -i perf.jit.data --no-children --sort dso,sym --time "$first," 2>/dev/null | awk '!/^#/ && NF && n++ < 40'
echo "profile-wasm: the profile is $dir/perf.jit.data; the result of the last call $dir/result.json" >&2
