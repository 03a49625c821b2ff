#!/usr/bin/env bash
# Install what building and installing the Python channel needs (idempotent):
#
#   <target>/install-test-tools/venv   a Python venv with maturin (builds the
#                                      wheel), uv (uvx, uv tool install) and
#                                      pipx, at the versions pinned below
#
# <target> is cargo's target directory (scripts/target-dir.sh). Used by
# scripts/build-wheel.sh and scripts/test-install.sh; re-running it does
# nothing once the pinned versions are installed. Needs python3 with venv.
set -euo pipefail

pins=(maturin==1.16.0 uv==0.13.9 pipx==1.18.4)

root=$(cd "$(dirname "$0")/.." && pwd)
venv="$("$root/scripts/target-dir.sh")/install-test-tools/venv"
python="$venv/bin/python"

installed() {
  [[ -x "$python" ]] && "$python" - "${pins[@]}" <<'PY' 2>/dev/null
import importlib.metadata, sys
sys.exit(0 if all(importlib.metadata.version(n) == v for n, v in (p.split("==") for p in sys.argv[1:])) else 1)
PY
}

if installed; then
  echo "ensure-install-test-tools: ${pins[*]} already in $venv"
  exit 0
fi
mkdir -p "$(dirname "$venv")"
python3 -m venv "$venv"
"$python" -m pip install --quiet --disable-pip-version-check "${pins[@]}"
installed || { echo "ensure-install-test-tools: ${pins[*]} did not install into $venv" >&2; exit 1; }
echo "ensure-install-test-tools: installed ${pins[*]} into $venv"
