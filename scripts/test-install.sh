#!/usr/bin/env bash
# Install the server from its artifacts the way a user would, once per
# channel, and talk to it the way an MCP host does:
#
#   scripts/test-install.sh DIR [--cargo-install]
#
# DIR holds the artifacts: one wheel (*.whl), the two npm tarballs
# (mcp-validation-server-rs-*.tgz: the launcher and one platform package) and
# the crate (*.crate). Each channel is installed into a fresh place (a
# virtualenv; uv's and pipx's own tool folders; an npm project; with
# --cargo-install a fresh CARGO_HOME, which downloads and builds every
# dependency: minutes, and the network), and started from the MCP config
# block a user would write, with only that channel's folder on PATH. Then
# packaging/test/mcp-client.mjs runs initialize, tools/list and one call of
# each tool. For every channel it checks that `--version` names the module
# this checkout's npm package ships (npm/dist/wasm), and prints the time from
# the start of the install to the answer to tools/list. Without
# --cargo-install the crate is checked for the module it must carry.
# Nothing here reaches a network but --cargo-install.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
[[ $# -ge 1 ]] || { echo "usage: scripts/test-install.sh DIR [--cargo-install]" >&2; exit 2; }
artifacts=$(cd "$1" && pwd)
cargo_install=${2:-}
tools="$("$root/scripts/target-dir.sh")/install-test-tools/venv/bin"
[[ -x "$tools/uv" ]] || { echo "test-install: no uv; run scripts/ensure-install-test-tools.sh first" >&2; exit 1; }

one() {
  local matches=("$artifacts"/$1)
  [[ ${#matches[@]} -eq 1 && -f "${matches[0]}" ]] || { echo "test-install: want one $1 in $artifacts, found: ${matches[*]}" >&2; exit 1; }
  echo "${matches[0]}"
}
wheel=$(one '*.whl')
launcher=$(one 'mcp-validation-server-rs-[0-9]*.tgz')
platform_tgz=$(one 'mcp-validation-server-rs-*-*.tgz')
crate=$(one '*.crate')

module_sha=$(sha256sum "$root/npm/dist/wasm/mcp_validation_core_bg.wasm" | cut -d' ' -f1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The real interpreter, not a pyenv shim: the shim needs pyenv on PATH.
python=$(python3 -c 'import os, sys; print(os.path.realpath(sys.executable))')
node_bin=$(dirname "$(command -v node)")
now_ms() { date +%s%3N; }
summary=()

# One channel's check: the session as a host runs it, then --version.
# $1 channel name, $2 start of its install (ms), $3 the config block (JSON).
check() {
  local channel=$1 since=$2 block=$3 answer version
  answer=$(node "$root/packaging/test/mcp-client.mjs" "$block" "$since") || {
    echo "test-install: $channel: the MCP session failed (block: $block)" >&2
    exit 1
  }
  version=$(node -e '
    const block = JSON.parse(process.argv[1]);
    const run = require("child_process").spawnSync(block.command, [...(block.args ?? []), "--version"],
      { cwd: block.cwd, env: block.env, encoding: "utf8" });
    process.stdout.write(run.stdout ?? "");
  ' "$block")
  if ! grep -qx "module sha256 $module_sha" <<<"$version"; then
    echo "test-install: $channel: --version does not name the npm package's module $module_sha:" >&2
    echo "$version" >&2
    exit 1
  fi
  echo "test-install: $channel: $answer; module sha256 matches"
  summary+=("$(printf '%-34s %s' "$channel" "${answer%%;*}")")
}

# The block's env: a host passes a few variables, never your shell's PATH.
env_json() { node -e 'console.log(JSON.stringify(Object.fromEntries(process.argv.slice(1).map((kv) => kv.split(/=(.*)/s).slice(0, 2)))))' "$@"; }
block() { node -e 'const [command, env, cwd, ...args] = process.argv.slice(1); console.log(JSON.stringify({ command, args, env: JSON.parse(env), cwd: cwd || undefined }))' "$@"; }

# --- PyPI: pip into a fresh virtualenv, uvx, uv tool install, pipx install.
python3_venv="$work/venv"
"$python" -m venv "$python3_venv"
start=$(now_ms)
"$python3_venv/bin/pip" install --quiet --no-index --disable-pip-version-check "$wheel"
check "pip install (venv)" "$start" "$(block mcp-validation-server "$(env_json PATH="$python3_venv/bin" HOME="$work/home-pip")" "")"

uv_env=(UV_CACHE_DIR="$work/uv-cache" UV_PYTHON="$python" UV_PYTHON_DOWNLOADS=never UV_OFFLINE=1 UV_NO_CONFIG=1)
start=$(now_ms)
check "uvx --from <wheel>" "$start" \
  "$(block "$tools/uvx" "$(env_json "${uv_env[@]}" HOME="$work/home-uvx")" "" --from "$wheel" mcp-validation-server)"

start=$(now_ms)
env "${uv_env[@]}" UV_TOOL_DIR="$work/uv-tools" UV_TOOL_BIN_DIR="$work/uv-bin" "$tools/uv" tool install --quiet "$wheel"
check "uv tool install" "$start" "$(block mcp-validation-server "$(env_json PATH="$work/uv-bin" HOME="$work/home-uv")" "")"

start=$(now_ms)
PIPX_HOME="$work/pipx" PIPX_BIN_DIR="$work/pipx-bin" PIPX_DEFAULT_PYTHON="$python" \
  "$tools/pipx" install --quiet --pip-args=--no-index "$wheel" >/dev/null
check "pipx install" "$start" "$(block mcp-validation-server "$(env_json PATH="$work/pipx-bin" HOME="$work/home-pipx")" "")"

# --- npm: a fresh project installs the launcher and its platform package
# from the tarballs (offline: the launcher's optional dependency is met by the
# platform tarball), and the host runs `npx -y mcp-validation-server-rs` in it.
npm_env=(PATH="$node_bin:/usr/bin:/bin" HOME="$work/home-npm" npm_config_cache="$work/npm-cache" npm_config_update_notifier=false)
mkdir -p "$work/npm-project" "$work/home-npm"
echo '{"name": "host", "private": true}' >"$work/npm-project/package.json"
start=$(now_ms)
(cd "$work/npm-project" && env "${npm_env[@]}" npm install --offline --no-audit --no-fund --silent "$launcher" "$platform_tgz")
check "npm install + npx -y" "$start" "$(block "$node_bin/npx" "$(env_json "${npm_env[@]}")" "$work/npm-project" -y mcp-validation-server-rs)"

# Without its platform package the launcher must say which and why.
mkdir -p "$work/npm-omit"
echo '{"name": "host", "private": true}' >"$work/npm-omit/package.json"
(cd "$work/npm-omit" && env "${npm_env[@]}" npm install --offline --no-audit --no-fund --silent --omit=optional "$launcher")
if message=$(cd "$work/npm-omit" && env "${npm_env[@]}" npx -y mcp-validation-server-rs --version 2>&1); then
  echo "test-install: npm: the launcher ran with no platform package installed: $message" >&2
  exit 1
fi
here=$(node -p '`${process.platform}-${process.arch}`')
grep -q "which holds the server for $here, is not installed" <<<"$message" || {
  echo "test-install: npm: no platform package, but not the error that names it: $message" >&2
  exit 1
}
echo "test-install: npm --omit=optional: the launcher names the missing platform package"

# --- crates: the package carries the module, and (with --cargo-install) it
# builds and installs from the unpacked .crate alone, far from the workspace.
mkdir -p "$work/crate"
tar -xzf "$crate" -C "$work/crate"
crate_dir=$(echo "$work"/crate/mcp-validation-server-*)
(cd "$crate_dir/module" && sha256sum --quiet -c mcp_validation_core_bg.wasm.sha256) || {
  echo "test-install: $crate: the module does not match its recorded SHA-256" >&2
  exit 1
}
crate_sha=$(sha256sum "$crate_dir/module/mcp_validation_core_bg.wasm" | cut -d' ' -f1)
[[ "$crate_sha" == "$module_sha" ]] || {
  echo "test-install: $crate carries module $crate_sha, not the npm package's $module_sha" >&2
  exit 1
}
echo "test-install: crate: carries the npm package's module"
if [[ "$cargo_install" == --cargo-install ]]; then
  cargo_bin=$(dirname "$(command -v cargo)")
  start=$(now_ms)
  # Only the toolchain and the C linker on PATH; a fresh CARGO_HOME, so every
  # dependency is downloaded and built as on a new machine.
  # From $work, so the workspace's rust-toolchain.toml does not choose the toolchain.
  (cd "$work" && env -i HOME="$HOME" PATH="$cargo_bin:/usr/bin:/bin" CARGO_HOME="$work/cargo-home" \
    RUSTUP_HOME="${RUSTUP_HOME:-$HOME/.rustup}" \
    cargo install --quiet --locked --path "$crate_dir" --root "$work/cargo-root" --target-dir "$work/cargo-target")
  check "cargo install (.crate)" "$start" "$(block mcp-validation-server "$(env_json PATH="$work/cargo-root/bin" HOME="$work/home-cargo")" "")"
fi

echo "test-install: install to first answer (tools/list), per channel:"
printf '  %s\n' "${summary[@]}"
