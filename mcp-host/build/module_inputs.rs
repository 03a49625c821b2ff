//! The record of what the WebAssembly module is built from, computed the way
//! `scripts/module-inputs.sh` writes it: one `<sha256>  <path>` line per input
//! file, sorted by path (bytewise), paths relative to the workspace with `/`.
//!
//! `scripts/build-wasm.sh` keeps that record beside the module; the build
//! script (`build.rs`) recomputes it here and refuses a module whose record
//! differs. Included with `#[path]` by `build.rs` and by
//! `tests/module_inputs.rs`, which also checks that this and the shell script
//! agree, so the list below cannot drift from the script's unnoticed.

use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::Path;

use sha2::{Digest, Sha256};

/// Directories every file of which (recursively) is an input.
pub(crate) const DIRS: [&str; 2] = ["core/src", "wasm/src"];

/// Single files that are inputs: the manifests and the lock file, the
/// toolchain pin, the build script, and the npm lock file (it pins wasm-opt).
pub(crate) const FILES: [&str; 7] = [
    "Cargo.toml",
    "Cargo.lock",
    "rust-toolchain.toml",
    "core/Cargo.toml",
    "wasm/Cargo.toml",
    "scripts/build-wasm.sh",
    "npm/package-lock.json",
];

/// The file name of the record, beside the module.
pub(crate) const RECORD_NAME: &str = "module-inputs.sha256";

/// The record for the workspace at `root`, as `scripts/module-inputs.sh ROOT` prints it.
pub(crate) fn record(root: &Path) -> io::Result<String> {
    let mut paths: Vec<String> = FILES.iter().map(|&file| file.to_owned()).collect();
    for dir in DIRS {
        collect_files(root, dir, &mut paths)?;
    }
    // Bytewise, as `LC_ALL=C sort` orders the script's lines.
    paths.sort_unstable();
    let mut out = String::new();
    for path in &paths {
        let bytes = fs::read(root.join(path)).map_err(|err| io::Error::new(err.kind(), format!("{path}: {err}")))?;
        let _ = writeln!(out, "{:x}  {path}", Sha256::digest(&bytes));
    }
    Ok(out)
}

/// Every regular file under `dir` (relative to `root`), recursively; like
/// `find DIR -type f`, symbolic links are not followed and not listed.
fn collect_files(root: &Path, dir: &str, out: &mut Vec<String>) -> io::Result<()> {
    for entry in fs::read_dir(root.join(dir))? {
        let entry = entry?;
        let name = entry.file_name().into_string().map_err(|name| {
            io::Error::new(io::ErrorKind::InvalidData, format!("{dir}: a file name that is not UTF-8: {name:?}"))
        })?;
        let path = format!("{dir}/{name}");
        let kind = entry.file_type()?;
        if kind.is_dir() {
            collect_files(root, &path, out)?;
        } else if kind.is_file() {
            out.push(path);
        }
    }
    Ok(())
}

/// How `current` differs from `recorded`, one line per input
/// (`changed: core/src/lib.rs`), in path order; empty when they are the same.
pub(crate) fn differences(recorded: &str, current: &str) -> Vec<String> {
    let parse = |text: &str| -> std::collections::BTreeMap<String, String> {
        text.lines()
            .filter_map(|line| line.split_once("  "))
            .map(|(hash, path)| (path.to_owned(), hash.to_owned()))
            .collect()
    };
    let (recorded, current) = (parse(recorded), parse(current));
    let mut out = Vec::new();
    for (path, hash) in &current {
        match recorded.get(path) {
            None => out.push(format!("added: {path}")),
            Some(old) if old != hash => out.push(format!("changed: {path}")),
            Some(_) => {}
        }
    }
    for path in recorded.keys().filter(|path| !current.contains_key(*path)) {
        out.push(format!("removed: {path}"));
    }
    out.sort_by(|a, b| a.split_once(": ").map(|(_, p)| p).cmp(&b.split_once(": ").map(|(_, p)| p)));
    out
}
