//! The build's check of the module a crate-registry package carries
//! (`build/packaged.rs`, used by `build.rs` outside the workspace): the
//! module must hash to the record packaged beside it, and each way of not
//! doing so is an error that says which.

#[path = "../build/packaged.rs"]
mod packaged;

use std::fs;
use std::path::PathBuf;

/// A crate folder whose module record holds `record`.
fn crate_with_record(name: &str, record: Option<&str>) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcpv-packaged-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("module")).expect("create module/");
    if let Some(record) = record {
        fs::write(packaged::record_path(&dir), record).expect("write the record");
    }
    dir
}

const HEX: &str = "2aadbc1893f72e2a8da7fd736925d9a11c269eb9f333c5ae08b2db74bc40a38c";

#[test]
fn a_module_that_hashes_to_its_record_passes() {
    // sha256sum's own format: the hash, two spaces, the file name.
    let dir = crate_with_record("match", Some(&format!("{}  mcp_validation_core_bg.wasm\n", HEX.to_uppercase())));
    assert_eq!(packaged::check(&dir, HEX), Ok(()));
}

#[test]
fn a_module_of_another_hash_is_refused_naming_both() {
    let other = "0".repeat(64);
    let dir = crate_with_record("mismatch", Some(&format!("{other}  mcp_validation_core_bg.wasm\n")));
    let err = packaged::check(&dir, HEX).expect_err("another hash is refused");
    assert!(err.contains(&format!("records SHA-256 \"{other}\"")), "{err}");
    assert!(err.contains(&format!("{} hashes to {HEX}", packaged::MODULE)), "{err}");
}

#[test]
fn a_missing_or_empty_record_is_refused() {
    let dir = crate_with_record("missing", None);
    let err = packaged::check(&dir, HEX).expect_err("no record is refused");
    assert!(err.contains("cannot read") && err.contains(packaged::RECORD), "{err}");
    let dir = crate_with_record("empty", Some(""));
    let err = packaged::check(&dir, HEX).expect_err("an empty record is refused");
    assert!(err.contains("records SHA-256 \"\""), "{err}");
}
