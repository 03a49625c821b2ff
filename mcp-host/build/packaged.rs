//! The module a crate-registry package of the server carries (see `build.rs`):
//! `module/mcp_validation_core_bg.wasm`, with its SHA-256 beside it in
//! `sha256sum` format, both put there by `scripts/package-crate.sh`.
//!
//! Included with `#[path]` by `build.rs` and by `tests/packaged_module.rs`.

use std::fs;
use std::path::{Path, PathBuf};

/// Where a packaged crate carries the module, relative to the crate.
pub(crate) const MODULE: &str = "module/mcp_validation_core_bg.wasm";
/// The record of the packaged module's SHA-256, relative to the crate.
pub(crate) const RECORD: &str = "module/mcp_validation_core_bg.wasm.sha256";

/// The record's path, for `cargo:rerun-if-changed`.
pub(crate) fn record_path(crate_dir: &Path) -> PathBuf {
    crate_dir.join(RECORD)
}

/// Whether the module whose SHA-256 is `hex` (lowercase) is the one the
/// record in `crate_dir` names; the error says what is wrong.
pub(crate) fn check(crate_dir: &Path, hex: &str) -> Result<(), String> {
    let path = record_path(crate_dir);
    let text = fs::read_to_string(&path).map_err(|err| format!("cannot read {}: {err}", path.display()))?;
    let recorded = text.split_whitespace().next().unwrap_or_default().to_ascii_lowercase();
    if recorded == hex {
        Ok(())
    } else {
        Err(format!("{} records SHA-256 {recorded:?}, but {MODULE} hashes to {hex}", path.display()))
    }
}
