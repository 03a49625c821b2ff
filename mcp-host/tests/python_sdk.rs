//! An independently written client: the official MCP Python SDK drives the
//! binary over stdio and Streamable HTTP, with both the 2026-07-28
//! `server/discover` flow and the `initialize` handshake, through every
//! conformance vector (see `tests/python/sdk_client.py`).
//!
//! Needs the venv from `scripts/ensure-host-test-tools.sh` (or a python with
//! `mcp` installed named by `MCPV_HOST_TEST_PYTHON`). Without it the test is
//! skipped loudly, unless `MCPV_REQUIRE_ALL_TESTS` is set: then it fails.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{binary, shared_cache_dir, skip_or_fail};

fn python() -> Option<PathBuf> {
    let candidate = match std::env::var_os("MCPV_HOST_TEST_PYTHON") {
        Some(python) => PathBuf::from(python),
        None => target_dir()?.join("host-test-tools/venv/bin/python"),
    };
    let has_sdk = Command::new(&candidate).args(["-c", "import mcp"]).status().is_ok_and(|status| status.success());
    has_sdk.then_some(candidate)
}

/// Cargo's target directory, where scripts/ensure-host-test-tools.sh put the
/// venv: asked of scripts/target-dir.sh, the one place that works it out.
fn target_dir() -> Option<PathBuf> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/target-dir.sh");
    let output = Command::new("bash").arg(script).output().ok()?;
    let dir = String::from_utf8(output.stdout).ok()?;
    (output.status.success() && !dir.trim().is_empty()).then(|| PathBuf::from(dir.trim()))
}

#[test]
fn the_official_python_sdk_agrees_with_every_vector() {
    let Some(python) = python() else {
        skip_or_fail("the MCP Python SDK is not installed; run scripts/ensure-host-test-tools.sh");
        return;
    };
    let vectors = conformance_support::vectors_dir(env!("CARGO_MANIFEST_DIR"));
    if !vectors.is_dir() {
        skip_or_fail(&format!("no conformance vectors at {}", vectors.display()));
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/sdk_client.py");
    let output = Command::new(python)
        .arg(script)
        .arg("--binary")
        .arg(binary())
        .arg("--vectors")
        .arg(&vectors)
        .arg("--cache-dir")
        .arg(shared_cache_dir())
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    println!("{stdout}");
    assert!(output.status.success(), "the Python SDK client failed:\n{stdout}\n{stderr}");
}
