#!/usr/bin/env bash
# The benchmark: this project against the Python reference server
# mcp-validation-server 0.1.0, doing the same work in the same run.
#
#   scripts/bench.sh            # the full run: a few minutes on 2 cores
#   scripts/bench.sh --quick    # a smoke run on small inputs (figures not meaningful)
#
# Builds what it needs in release mode (the module, the server, the bench
# program), creates or reuses the reference's throwaway virtualenv under
# <target>/bench/ (cargo's target directory, scripts/target-dir.sh) from
# tests/conformance/requirements-reference.txt, runs everything, and prints
# the report (also kept in <target>/bench/report.txt).
# Needs the tools from scripts/ensure-tools.sh, CPython 3.11 as python3 (or
# MCPV_BENCH_PYTHON), and network access the first time (pip).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

log() { echo "[bench.sh] $*" >&2; }

log "building the module, the server and the bench program (release)"
scripts/build-wasm.sh >&2
# Named explicitly, so the host's build script re-reads this checkout's module
# even when the target directory is shared with another checkout.
export MCPV_WASM_MODULE="$root/npm/dist/wasm/mcp_validation_core_bg.wasm"
cargo build --release -p mcp-validation-server -p mcp-validation-bench >&2
target_dir=$("$root/scripts/target-dir.sh")
work="$target_dir/bench"
mkdir -p "$work"

# The reference, pinned with its whole dependency closure. Reused while its
# `pip freeze` still equals the pins.
venv="$work/reference-venv"
requirements="$root/tests/conformance/requirements-reference.txt"
normalise() { grep -v '^#' | grep '==' | tr 'A-Z_.' 'a-z--' | sed 's/-*==/==/' | sort; }
wanted=$(normalise < "$requirements")
have=""
if [[ -x "$venv/bin/python" ]]; then
  have=$("$venv/bin/python" -m pip freeze --all --exclude pip --exclude setuptools --exclude wheel 2>/dev/null | normalise || true)
fi
if [[ "$have" != "$wanted" ]]; then
  python=${MCPV_BENCH_PYTHON:-python3}
  log "creating the reference's virtualenv $venv with $("$python" --version 2>&1)"
  "$python" -m venv --clear "$venv"
  "$venv/bin/python" -m pip install --quiet --no-deps -r "$requirements" >&2
  "$venv/bin/python" -m pip check >&2
else
  log "reusing the reference's virtualenv $venv"
fi

log "running (progress on stderr, the report on stdout)"
"$target_dir/release/mcp-validation-bench" \
  --server "$target_dir/release/mcp-validation-server" \
  --reference "$venv/bin/mcp-validation-server" \
  --work-dir "$work" \
  --node-script "$root/npm/bench/inprocess.mjs" \
  --npm-wasm "$MCPV_WASM_MODULE" \
  "$@" | tee "$work/report.txt"
