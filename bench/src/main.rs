//! The benchmark: this project against the Python reference
//! `mcp-validation-server` 0.1.0, doing the same work in the same run.
//!
//! Run it through `scripts/bench.sh`, which builds everything, prepares the
//! reference's virtualenv and passes the paths:
//!
//! ```text
//! mcp-validation-bench --server PATH --reference PATH --work-dir DIR
//!                      [--node node] [--node-script npm/bench/inprocess.mjs]
//!                      [--npm-wasm npm/dist/wasm/mcp_validation_core_bg.wasm]
//!                      [--sizes 10000,100000] [--quick]
//!                      [--peers-python PATH] [--peers-script bench/peers/validate_csv.py]
//! ```
//!
//! Prints a report on stdout (progress on stderr):
//! - over MCP on stdio, both servers driven by the same client
//!   ([`mcp::Session`]): cold start to the first `tools/list` answer, the
//!   latency of a small `reconcile`, each check at each size, and each
//!   server's peak resident memory;
//! - this project alone on a 1,000,000-row CSV file named by `path` (the
//!   reference reads no files): time, fuel, linear memory, peak resident
//!   size, and every row accounted for; and the columnar peers (Polars,
//!   `DuckDB`, Pandera on Polars) on the same file and contract ([`peers`]),
//!   each checked to fail the same rows;
//! - this project alone on the two `duplicate_report` inputs that could not
//!   finish under the default limits before near matches were indexed
//!   ([`dedupe_data`]): time, fuel, linear memory, groups found;
//! - this project alone, the small call over Streamable HTTP: calls per
//!   second with one, four and eight clients ([`http_load`]);
//! - the npm package against ajv on the same JSON rows ([`js_peer`]);
//! - in process: the native core, the module in wasmtime, and the npm package
//!   in Node, on the same argument bytes;
//! - the issue's targets, each marked met or missed.
//!
//! Every result is checked: the two servers' `structuredContent` must be
//! identical (key order and int/float kind included), and the three
//! in-process runtimes must produce the same JSON text byte for byte.
//!
//! Modules: `options` (the command line and how often each thing runs),
//! `run` (the whole run in order, and every comparison), `servers` (the
//! measurements over MCP), `inprocess` (native, wasmtime and Node in process),
//! `report` (the text), and `data`, `mcp`, `machine`, `stats` underneath.

mod data;
mod dedupe_data;
mod http_load;
mod inprocess;
mod js_peer;
mod machine;
mod mcp;
mod options;
mod peers;
mod report;
mod run;
mod servers;
mod stats;

use std::process::ExitCode;

use options::parse_options;
use run::run;

/// A progress line on stderr (stdout carries only the report).
fn progress(message: &str) {
    eprintln!("[bench] {message}");
}

fn main() -> ExitCode {
    let options = match parse_options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    match run(&options) {
        Ok(report) => {
            for line in report.lines() {
                println!("{}", line.trim_end());
            }
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("mcp-validation-bench: {message}");
            ExitCode::FAILURE
        }
    }
}
