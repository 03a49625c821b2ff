#!/usr/bin/env bash
# Build the PyPI wheel (packaging/pypi): the server executable as the
# wheel's script `mcp-validation-server`, and its metadata.
#
#   scripts/build-wheel.sh release PLATFORM_ID OUT_DIR
#   scripts/build-wheel.sh dev BINARY OUT_DIR
#
# `dev` is for scripts/test-packaging.sh: it wraps a server already built (the
# debug build `cargo test` made) in a wheel, in seconds. maturin cannot: it
# builds the crate itself, and a plain build's dependency features differ
# from a test build's (dev-dependencies add some), so it would rebuild most
# of them, minutes on CI. So maturin writes the wheel's metadata from
# pyproject.toml (`pep517 write-dist-info`, the same METADATA, WHEEL and
# licence as `maturin build`), and the lines below add the script, the
# RECORD and the zip, as the wheel format says. `release` is `maturin build`:
# the server built for the platform's Rust target from
# packaging/platforms.json, stripped, tagged with the platform's wheel
# compatibility (a static musl binary runs on glibc and musl systems, so it
# is tagged for both). Run scripts/build-wasm.sh first, and
# scripts/ensure-install-test-tools.sh for maturin.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
maturin="$("$root/scripts/target-dir.sh")/install-test-tools/venv/bin/maturin"
[[ -x "$maturin" ]] || { echo "build-wheel: no maturin; run scripts/ensure-install-test-tools.sh first" >&2; exit 1; }

case "${1:-}" in
  dev)
    [[ $# -eq 3 ]] || { echo "usage: scripts/build-wheel.sh dev BINARY OUT_DIR" >&2; exit 2; }
    [[ -x "$2" ]] || { echo "build-wheel: $2 is not an executable file" >&2; exit 1; }
    mkdir -p "$3"
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    (cd "$root/packaging/pypi" && "$maturin" pep517 write-dist-info --metadata-directory "$work" >/dev/null)
    exec python3 - "$work" "$2" "$3" <<'PY'
import base64, hashlib, pathlib, sys, zipfile

work, binary, out = (pathlib.Path(arg) for arg in sys.argv[1:])
(dist_info,) = work.glob("*.dist-info")
name_version = dist_info.name[: -len(".dist-info")]
tag = next(line.split(": ", 1)[1] for line in (dist_info / "WHEEL").read_text().splitlines() if line.startswith("Tag: "))
files = [(f"{name_version}.data/scripts/mcp-validation-server", binary.read_bytes(), 0o755)]
files += [(f"{dist_info.name}/{p.relative_to(dist_info)}", p.read_bytes(), 0o644) for p in sorted(dist_info.rglob("*")) if p.is_file()]
digest = lambda data: "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
record = "".join(f"{path},{digest(data)},{len(data)}\n" for path, data, _ in files) + f"{dist_info.name}/RECORD,,\n"
files.append((f"{dist_info.name}/RECORD", record.encode(), 0o644))
wheel = out / f"{name_version}-{tag}.whl"
with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
    for path, data, mode in files:
        info = zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0))
        info.external_attr = (0o100000 | mode) << 16  # a regular file, with its permissions
        info.compress_type = zipfile.ZIP_DEFLATED
        archive.writestr(info, data)
print(f"build-wheel: {wheel}")
PY
    ;;
  release)
    [[ $# -eq 3 ]] || { echo "usage: scripts/build-wheel.sh release PLATFORM_ID OUT_DIR" >&2; exit 2; }
    # The target and tags for this platform, from the matrix.
    read -r target compatibility < <(node -e '
      const [file, id] = process.argv.slice(1);
      const entry = JSON.parse(require("fs").readFileSync(file, "utf8")).platforms.find((p) => p.id === id);
      if (!entry) { console.error(`build-wheel: no platform ${JSON.stringify(id)} in ${file}`); process.exit(1); }
      console.log(entry.rust_target, entry.wheel_compatibility.join(","));
    ' "$root/packaging/platforms.json" "$2")
    flags=(--release --strip --target "$target")
    [[ -n "$compatibility" ]] && flags+=(--compatibility ${compatibility//,/ })
    out=$3
    ;;
  *)
    echo "usage: scripts/build-wheel.sh release PLATFORM_ID OUT_DIR | dev BINARY OUT_DIR" >&2
    exit 2
    ;;
esac

mkdir -p "$out"
cd "$root/packaging/pypi"
"$maturin" build --locked "${flags[@]}" --out "$out"
