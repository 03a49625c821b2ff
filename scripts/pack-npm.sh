#!/usr/bin/env bash
# Pack the npm channel around one server binary: the launcher package and the
# package for one platform of packaging/platforms.json, as the two .tgz files
# `npm publish` would upload.
#
#   scripts/pack-npm.sh BINARY PLATFORM_ID OUT_DIR
#
# BINARY is any build of the server (the release script gives the static musl
# one, scripts/test-install.sh the debug one: what is tested here is the
# packaging). The launcher's optionalDependencies name every platform of the
# matrix, so its package.json is written here from the matrix, not kept by hand.
# Both packages get the workspace's version and the root LICENSE.
set -euo pipefail

if [[ $# -ne 3 ]]; then
  echo "usage: scripts/pack-npm.sh BINARY PLATFORM_ID OUT_DIR" >&2
  exit 2
fi
binary=$1 platform=$2 out=$3
root=$(cd "$(dirname "$0")/.." && pwd)
[[ -x "$binary" ]] || { echo "pack-npm: $binary is not an executable file" >&2; exit 1; }
mkdir -p "$out"
out=$(cd "$out" && pwd)

version=$(cargo pkgid --manifest-path "$root/Cargo.toml" -p mcp-validation-server | sed 's/.*[@#]//')
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

cp -R "$root/packaging/npm/launcher" "$stage/launcher"
cp -R "$root/packaging/npm/platform" "$stage/platform"
cp "$root/LICENSE" "$stage/launcher/LICENSE"
cp "$root/LICENSE" "$stage/platform/LICENSE"

# Both manifests from the matrix; node reads and writes the JSON.
node - "$root/packaging/platforms.json" "$stage" "$platform" "$version" <<'JS'
const fs = require('node:fs');
const [matrixPath, stage, id, version] = process.argv.slice(2);
const matrix = JSON.parse(fs.readFileSync(matrixPath, 'utf8'));
const entry = matrix.platforms.find((p) => p.id === id);
if (!entry) {
  const known = matrix.platforms.map((p) => p.id).join(', ');
  console.error(`pack-npm: no platform ${JSON.stringify(id)} in ${matrixPath} (it has: ${known})`);
  process.exit(1);
}
const launcherName = matrix.names.npm_launcher;
const edit = (file, change) => {
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
  change(manifest);
  fs.writeFileSync(file, JSON.stringify(manifest, null, 2) + '\n');
};
edit(`${stage}/launcher/package.json`, (m) => {
  m.name = launcherName;
  m.version = version;
  m.optionalDependencies = Object.fromEntries(matrix.platforms.map((p) => [`${launcherName}-${p.id}`, version]));
});
edit(`${stage}/platform/package.json`, (m) => {
  m.name = `${launcherName}-${entry.id}`;
  m.version = version;
  m.os = [entry.node_os];
  m.cpu = [entry.node_cpu];
  m.executable = `bin/${matrix.names.executable}${entry.exe_suffix}`;
});
fs.writeFileSync(`${stage}/executable`, `${matrix.names.executable}${entry.exe_suffix}`);
JS

mkdir -p "$stage/platform/bin"
install -m 0755 "$binary" "$stage/platform/bin/$(cat "$stage/executable")"
rm "$stage/executable"

for package in launcher platform; do
  (cd "$stage/$package" && npm pack --silent --pack-destination "$out" >/dev/null)
done
ls "$out"/*.tgz
