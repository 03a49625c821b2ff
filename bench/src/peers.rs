//! The columnar validators a data team would otherwise pick (Polars,
//! `DuckDB`, Pandera on Polars), on the same CSV file with the same contract
//! as this project's large-file call, in the same run.
//!
//! Each peer runs in a fresh Python process from the benchmark's own
//! virtualenv (`bench/peers/requirements.txt`), through
//! `bench/peers/validate_csv.py`, which times reading and checking the file
//! after start-up and reports the failing rows' count and a hash of their
//! indexes. The hash is compared with this project's quarantined rows, so a
//! peer that checks something else is reported, not ranked.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// Where the peers come from.
pub(crate) struct PeersSetup {
    pub(crate) python: PathBuf,
    pub(crate) script: PathBuf,
}

/// The systems `validate_csv.py` knows, in the order they are reported.
const SYSTEMS: [&str; 3] = ["polars", "duckdb", "pandera-polars"];

/// One peer's answer on the file.
pub(crate) struct PeerRun {
    pub(crate) system: String,
    pub(crate) version: String,
    pub(crate) seconds: Vec<f64>,
    pub(crate) failing_rows: u64,
    pub(crate) failing_sha256: String,
    pub(crate) peak_rss: u64,
}

/// Run every peer `runs` times on the CSV file at `path`.
pub(crate) fn run_peers(setup: &PeersSetup, path: &Path, runs: usize) -> Result<Vec<PeerRun>, String> {
    SYSTEMS.iter().map(|system| run_peer(setup, system, path, runs)).collect()
}

fn run_peer(setup: &PeersSetup, system: &str, path: &Path, runs: usize) -> Result<PeerRun, String> {
    let output = Command::new(&setup.python)
        .arg(&setup.script)
        .args(["--system", system, "--runs", &runs.to_string(), "--csv"])
        .arg(path)
        .output()
        .map_err(|err| format!("starting {} for {system}: {err}", setup.python.display()))?;
    if !output.status.success() {
        return Err(format!("the {system} peer failed: {}", String::from_utf8_lossy(&output.stderr)));
    }
    let answer: Value = serde_json::from_slice(&output.stdout).map_err(|err| {
        format!("the {system} peer did not print JSON ({err}): {}", String::from_utf8_lossy(&output.stdout))
    })?;
    let text = |key: &str| answer[key].as_str().map(str::to_owned).ok_or(format!("{system}: no {key}"));
    Ok(PeerRun {
        system: text("system")?,
        version: text("version")?,
        seconds: answer["seconds"].as_array().map(|s| s.iter().filter_map(Value::as_f64).collect()).unwrap_or_default(),
        failing_rows: answer["failing_rows"].as_u64().ok_or(format!("{system}: no failing_rows"))?,
        failing_sha256: text("failing_sha256")?,
        peak_rss: answer["peak_rss_bytes"].as_u64().unwrap_or(0),
    })
}

/// This project's failing rows in the form the peers report them: the
/// count and a SHA-256 of the sorted zero-based indexes, joined by commas.
/// Read from the native core's result for the file's text, listing every
/// quarantined row (`max_listed` = their count, so `accepted` stays short).
pub(crate) fn our_failing_rows(args: &Value, csv: String, quarantined: u64) -> Result<(u64, String), String> {
    let mut args = args.clone();
    let object = args.as_object_mut().ok_or("the file call's arguments are not an object")?;
    object.remove("path");
    object.insert("max_listed".into(), Value::from(quarantined));
    let result = validation_core::call_tool_with_csv("validate_rows", args, csv.into_bytes())
        .map_err(|err| format!("the native core refused the file call: {err}"))?
        .into_value();
    let mut indexes: Vec<u64> = result["quarantine"]
        .as_array()
        .ok_or("no quarantine list")?
        .iter()
        .filter_map(|held| held["locator"]["row_index"].as_u64())
        .collect();
    indexes.sort_unstable();
    if indexes.len() as u64 != quarantined {
        return Err(format!("{} quarantined rows listed, {quarantined} counted", indexes.len()));
    }
    let joined = indexes.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
    Ok((indexes.len() as u64, sha256_hex(joined.as_bytes())))
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    use std::fmt::Write as _;
    sha2::Sha256::digest(bytes).iter().fold(String::new(), |mut hex, b| {
        let _ = write!(hex, "{b:02x}");
        hex
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn our_failing_rows_are_hashed_as_the_peer_script_hashes_them() {
        // Rows 1 (pattern) and 3 (amount below 0) fail; the expected hash is
        // Python's hashlib.sha256(b"1,3").hexdigest(), as validate_csv.py
        // computes it from the sorted indexes joined by commas.
        let csv = "invoice,amount\nINV-000001,1\ninv-2,2\nINV-000003,3\nINV-000004,-4\n";
        let args = serde_json::json!({
            "path": "ignored.csv",
            "columns": [
                {"name": "invoice", "pattern": "INV-\\d{6}"},
                {"name": "amount", "type": "number", "min": 0},
            ],
        });
        let (count, hash) = our_failing_rows(&args, csv.to_owned(), 2).unwrap();
        assert_eq!(count, 2);
        assert_eq!(hash, "ef96f1f6b55a072e70c2b4e8bd6585793f5f05ace0c01a5b07fad298a4d0051a");
        // A wrong count of quarantined rows is refused, not hashed.
        assert!(our_failing_rows(&args, csv.to_owned(), 3).is_err());
    }
}
