//! The module the host runs is byte-identical to the npm package's `.wasm`.
//!
//! `--version` prints the SHA-256 of the embedded module; this compares it
//! with the npm package's file (`npm/dist/wasm/mcp_validation_core_bg.wasm`,
//! or `MCPV_NPM_WASM`), and with the file the build embedded.

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::{binary, skip_or_fail};
use sha2::{Digest, Sha256};

fn sha256_hex(bytes: &[u8]) -> String {
    format!("{:x}", Sha256::digest(bytes))
}

fn version_hash() -> String {
    let output = Command::new(binary()).arg("--version").output().unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    text.lines()
        .find_map(|line| line.strip_prefix("module sha256 "))
        .unwrap_or_else(|| panic!("--version names no module hash: {text}"))
        .trim()
        .to_owned()
}

#[test]
fn the_embedded_module_is_the_npm_package_s_wasm() {
    let npm = std::env::var_os("MCPV_NPM_WASM").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../npm/dist/wasm/mcp_validation_core_bg.wasm"),
        PathBuf::from,
    );
    let Ok(bytes) = std::fs::read(&npm) else {
        skip_or_fail(&format!("the npm package's module is not built at {} (scripts/build-wasm.sh)", npm.display()));
        return;
    };
    assert_eq!(version_hash(), sha256_hex(&bytes), "the host embeds a different module from {}", npm.display());
}

#[test]
fn version_prints_the_hash_of_the_file_the_build_embedded() {
    let source = env!("MCPV_WASM_MODULE_SOURCE");
    let bytes = std::fs::read(source).expect("the module the build read is still there");
    assert_eq!(version_hash(), sha256_hex(&bytes));
}
