//! The command line, and how many times each thing is measured.

use std::path::PathBuf;
use std::time::Duration;

/// How many times each thing is measured.
pub(crate) struct Plan {
    pub(crate) sizes: Vec<usize>,
    pub(crate) cold_starts_ours: usize,
    pub(crate) cold_starts_reference: usize,
    /// Starts of this project on an empty module cache (each compiles the module).
    pub(crate) cold_starts_empty_cache: usize,
    pub(crate) small_calls: usize,
    pub(crate) small_warmup: usize,
    /// Warm-up calls before the small call in process: V8 tiers a function
    /// up only once it has done enough work, which takes a 30 µs call
    /// several hundred calls (Node's median stays at 2-4x native after 20).
    pub(crate) small_warmup_in_process: usize,
    /// How long each HTTP load of small calls runs (after each client's
    /// `small_warmup` calls).
    pub(crate) http_window: Duration,
    pub(crate) runs_ours: usize,
    /// Runs of the reference per large call at `size`: it takes seconds at
    /// 100,000 rows, so fewer there.
    pub(crate) runs_reference: fn(usize) -> usize,
    pub(crate) runs_in_process: usize,
    /// Rows in the CSV file validated by `path` (this project only).
    pub(crate) file_rows: usize,
    /// Runs of each call on that file, and of each peer on it: five, since
    /// a median of three moved by 2× from run to run on this machine.
    pub(crate) file_runs: usize,
}

impl Plan {
    pub(crate) fn full(sizes: Vec<usize>) -> Plan {
        Plan {
            sizes,
            cold_starts_ours: 10,
            cold_starts_reference: 5,
            cold_starts_empty_cache: 3,
            small_calls: 200,
            small_warmup: 20,
            small_warmup_in_process: 1000,
            http_window: Duration::from_secs(3),
            runs_ours: 5,
            runs_reference: |n| if n >= 100_000 { 3 } else { 5 },
            runs_in_process: 5,
            file_rows: 1_000_000,
            file_runs: 5,
        }
    }

    pub(crate) fn quick() -> Plan {
        Plan {
            sizes: vec![2000],
            cold_starts_ours: 3,
            cold_starts_reference: 2,
            cold_starts_empty_cache: 1,
            small_calls: 30,
            small_warmup: 5,
            small_warmup_in_process: 100,
            http_window: Duration::from_millis(300),
            runs_ours: 2,
            runs_reference: |_| 1,
            runs_in_process: 2,
            file_rows: 20_000,
            file_runs: 1,
        }
    }
}

pub(crate) struct Options {
    pub(crate) server: PathBuf,
    pub(crate) reference: PathBuf,
    pub(crate) work_dir: PathBuf,
    pub(crate) node: String,
    pub(crate) node_script: PathBuf,
    pub(crate) npm_wasm: PathBuf,
    /// The peers' Python and script (`--peers-python`, `--peers-script`);
    /// without them the large file is run by this project only.
    pub(crate) peers: Option<crate::peers::PeersSetup>,
    pub(crate) plan: Plan,
    /// `--node-peers DIR`: the Node folder holding ajv (`scripts/bench.sh`
    /// installs it); without it the npm package is not compared with ajv.
    pub(crate) node_peers: Option<PathBuf>,
    /// The script that runs ajv and the npm package (`--ajv-script`).
    pub(crate) ajv_script: PathBuf,
    /// `--only-http`: only the small calls over Streamable HTTP, for work on
    /// that path (the reference is not started).
    pub(crate) only_http: bool,
}

pub(crate) fn parse_options() -> Result<Options, String> {
    let mut server = None;
    let mut reference = None;
    let mut work_dir = None;
    let mut node = "node".to_owned();
    let mut node_script = PathBuf::from("npm/bench/inprocess.mjs");
    let mut npm_wasm = PathBuf::from("npm/dist/wasm/mcp_validation_core_bg.wasm");
    let mut sizes = vec![10_000, 100_000];
    let mut quick = false;
    let mut only_http = false;
    let mut node_peers = None;
    let mut ajv_script = PathBuf::from("bench/peers/ajv_rows.mjs");
    let mut peers_python = None;
    let mut peers_script = PathBuf::from("bench/peers/validate_csv.py");
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--server" => server = Some(PathBuf::from(value()?)),
            "--reference" => reference = Some(PathBuf::from(value()?)),
            "--work-dir" => work_dir = Some(PathBuf::from(value()?)),
            "--node" => node = value()?,
            "--node-script" => node_script = PathBuf::from(value()?),
            "--npm-wasm" => npm_wasm = PathBuf::from(value()?),
            "--sizes" => {
                sizes = value()?
                    .split(',')
                    .map(|n| n.trim().parse::<usize>().map_err(|err| format!("--sizes: {n}: {err}")))
                    .collect::<Result<_, _>>()?;
            }
            "--quick" => quick = true,
            "--only-http" => only_http = true,
            "--node-peers" => node_peers = Some(PathBuf::from(value()?)),
            "--ajv-script" => ajv_script = PathBuf::from(value()?),
            "--peers-python" => peers_python = Some(PathBuf::from(value()?)),
            "--peers-script" => peers_script = PathBuf::from(value()?),
            "--help" | "-h" => {
                return Err("usage: mcp-validation-bench --server PATH --reference PATH --work-dir DIR \
                            [--node node] [--node-script PATH] [--npm-wasm PATH] [--sizes 10000,100000] [--quick]\n\
                            [--only-http] (only the small calls over Streamable HTTP) [--node-peers DIR] [--ajv-script PATH]\n\
                            [--peers-python PATH] [--peers-script bench/peers/validate_csv.py]\n\
                            Normally run through scripts/bench.sh."
                    .into())
            }
            other => return Err(format!("unknown argument {other}; see --help")),
        }
    }
    Ok(Options {
        server: server.ok_or("--server is required")?,
        reference: reference.ok_or("--reference is required")?,
        work_dir: work_dir.ok_or("--work-dir is required")?,
        node,
        node_script,
        npm_wasm,
        peers: peers_python.map(|python| crate::peers::PeersSetup { python, script: peers_script }),
        plan: if quick { Plan::quick() } else { Plan::full(sizes) },
        only_http,
        node_peers,
        ajv_script,
    })
}
