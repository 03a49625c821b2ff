#!/usr/bin/env bash
# The benchmark: this project against the Python reference server
# mcp-validation-server 0.1.0, doing the same work in the same run.
#
#   scripts/bench.sh            # the full run: a few minutes on 2 cores
#   scripts/bench.sh --quick    # a smoke run on small inputs (figures not meaningful)
#   scripts/bench.sh --only-http  # only the small calls over Streamable HTTP (for work on that path)
#
# Builds what it needs in release mode (the module, the server, the bench
# program), creates or reuses two throwaway virtualenvs under <target>/bench/
# (cargo's target directory, scripts/target-dir.sh): the reference's, from
# tests/conformance/requirements-reference.txt, and the columnar peers', from
# bench/peers/requirements.txt; runs everything, and prints
# the report (also kept in <target>/bench/report.txt). Besides the side-by-side
# calls, the report times this project alone on a 1,000,000-row CSV file and
# on the two duplicate_report calls issue 17 (item 5) named: 40,000 rows in
# pairs and 2,000 rows at similarity_threshold 0.99, under the default limits.
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

# A throwaway virtualenv at $1 holding exactly the pins in $2 (their whole
# dependency closure). Reused while its `pip freeze` still equals the pins.
normalise() { grep -v '^#' | grep '==' | tr 'A-Z_.' 'a-z--' | sed 's/-*==/==/' | sort; }
ensure_venv() {
  local venv=$1 requirements=$2 wanted have=""
  wanted=$(normalise < "$requirements")
  if [[ -x "$venv/bin/python" ]]; then
    have=$("$venv/bin/python" -m pip freeze --all --exclude pip --exclude setuptools --exclude wheel 2>/dev/null | normalise || true)
  fi
  if [[ "$have" != "$wanted" ]]; then
    local python=${MCPV_BENCH_PYTHON:-python3}
    log "creating the virtualenv $venv with $("$python" --version 2>&1)"
    "$python" -m venv --clear "$venv"
    "$venv/bin/python" -m pip install --quiet --no-deps -r "$requirements" >&2
    "$venv/bin/python" -m pip check >&2
  else
    log "reusing the virtualenv $venv"
  fi
}

# The reference, and the columnar peers (Polars, DuckDB, Pandera on Polars).
venv="$work/reference-venv"
ensure_venv "$venv" "$root/tests/conformance/requirements-reference.txt"
peers_venv="$work/peers-venv"
ensure_venv "$peers_venv" "$root/bench/peers/requirements.txt"

# The JavaScript peer (ajv), from its lock file, into the benchmark's own
# Node folder; reinstalled when the lock file changes.
node_peers="$work/node-peers"
if ! cmp -s "$root/bench/peers/node/package-lock.json" "$node_peers/package-lock.json" 2>/dev/null; then
  log "installing the Node peers into $node_peers"
  rm -rf "$node_peers" && mkdir -p "$node_peers"
  cp "$root/bench/peers/node/package.json" "$root/bench/peers/node/package-lock.json" "$node_peers/"
  (cd "$node_peers" && npm ci --no-audit --no-fund --silent) >&2
else
  log "reusing the Node peers in $node_peers"
fi

log "running (progress on stderr, the report on stdout)"
"$target_dir/release/mcp-validation-bench" \
  --server "$target_dir/release/mcp-validation-server" \
  --reference "$venv/bin/mcp-validation-server" \
  --work-dir "$work" \
  --node-script "$root/npm/bench/inprocess.mjs" \
  --npm-wasm "$MCPV_WASM_MODULE" \
  --peers-python "$peers_venv/bin/python" \
  --peers-script "$root/bench/peers/validate_csv.py" \
  --node-peers "$node_peers" \
  --ajv-script "$root/bench/peers/ajv_rows.mjs" \
  "$@" | tee "$work/report.txt"
