//! The npm package against ajv, the JSON Schema validator JavaScript users
//! reach for, on the same JSON rows and the same contract, in one Node
//! process (`bench/peers/ajv_rows.mjs`; `scripts/bench.sh` installs ajv from
//! `bench/peers/node`'s lock file). Both must fail the same number of rows.

use std::path::Path;

use serde::Deserialize;

use crate::data::Workload;
use crate::inprocess::run_node_script;
use crate::stats::Samples;

/// Timed runs of each side, after one untimed run.
const RUNS: usize = 5;

/// What the script measured.
pub(crate) struct AjvRun {
    /// The workload's label (`validate_rows 100k`) and its rows.
    pub(crate) label: String,
    pub(crate) rows: usize,
    pub(crate) ajv_version: String,
    /// ajv: `JSON.parse` and every row validated.
    pub(crate) ajv: Samples,
    /// ajv's validation alone, without `JSON.parse`.
    pub(crate) ajv_validate: Samples,
    /// The npm package: `callToolJson` with the server's default cap.
    pub(crate) ours: Samples,
    /// Rows each side failed: ajv's, then the package's quarantined count.
    pub(crate) failing: (u64, u64),
}

#[derive(Deserialize)]
struct Side {
    runs_ms: Vec<f64>,
    failing: u64,
    #[serde(default)]
    validate_ms: Vec<f64>,
    #[serde(default)]
    version: String,
}

#[derive(Deserialize)]
struct Output {
    ajv: Side,
    ours: Side,
}

fn seconds(ms: &[f64]) -> Samples {
    Samples(ms.iter().map(|ms| ms / 1e3).collect())
}

/// Run the script on the `validate_rows` arguments in `args_path`.
pub(crate) fn ajv_against_npm(
    node: &str,
    script: &Path,
    args_path: &Path,
    peers_dir: &Path,
    workload: &Workload,
) -> Result<AjvRun, String> {
    let runs = RUNS.to_string();
    let stdout = run_node_script(node, script, &[args_path.as_os_str(), peers_dir.as_os_str(), runs.as_ref()])?;
    let output: Output =
        serde_json::from_slice(&stdout).map_err(|err| format!("cannot read the ajv script's report: {err}"))?;
    Ok(AjvRun {
        label: workload.label.clone(),
        rows: workload.rows,
        ajv_version: output.ajv.version,
        ajv: seconds(&output.ajv.runs_ms),
        ajv_validate: seconds(&output.ajv.validate_ms),
        ours: seconds(&output.ours.runs_ms),
        failing: (output.ajv.failing, output.ours.failing),
    })
}
