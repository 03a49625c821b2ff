//! The same job in process, in each runtime: the arguments as JSON text in,
//! the result as JSON text out.
//!
//! - native: `validation_core::call_tool_json`;
//! - wasmtime: the host's own `Sandbox::call`, a fresh instance per
//!   call exactly as the server runs it, under the server's default limits;
//! - Node: the npm package's `callToolJson` (`npm/bench/inprocess.mjs`).

use std::future::pending;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use mcp_validation_server::cli::Cli;
use mcp_validation_server::sandbox::{Answer, CacheDir, Sandbox};
use serde::Deserialize;
use tokio::runtime::Runtime;

use crate::data::Workload;
use crate::stats::Samples;

/// How many calls to make on one workload, after a first call that is
/// timed on its own: `warm_up` untimed, then `runs` timed. A JIT (V8's, for
/// the npm package) tiers a hot function up only after it has run a while,
/// so "warm" means after a few calls, not one; every runtime gets the same
/// schedule for a workload.
#[derive(Clone, Copy)]
pub(crate) struct Schedule {
    pub(crate) warm_up: usize,
    pub(crate) runs: usize,
}

/// One runtime's timings on one workload.
pub(crate) struct Timed {
    /// The first call on these arguments (not in `samples`).
    pub(crate) first: f64,
    /// The timed calls, after the first and the warm-up calls.
    pub(crate) samples: Samples,
    /// The last result's JSON text.
    pub(crate) output: String,
}

/// Native: `call_tool_json`: a first call, the warm-up calls, then `runs`.
pub(crate) fn native(workload: &Workload, schedule: Schedule) -> Result<Timed, String> {
    let once = || -> Result<(Duration, String), String> {
        let started = Instant::now();
        let out = validation_core::call_tool_json(workload.tool, workload.args.as_bytes())
            .map_err(|err| format!("native {}: {}", workload.label, err.message))?;
        Ok((started.elapsed(), out))
    };
    let (first, mut output) = once()?;
    let mut samples = Samples::default();
    for i in 0..schedule.warm_up + schedule.runs {
        drop(output);
        let (elapsed, out) = once()?;
        if i >= schedule.warm_up {
            samples.push(elapsed);
        }
        output = out;
    }
    Ok(Timed { first: first.as_secs_f64(), samples, output })
}

/// The module in wasmtime, through the host's `Sandbox`.
pub(crate) struct Wasm {
    runtime: Runtime,
    sandbox: Sandbox,
    /// Compiling or loading the module, until the first call can run.
    pub(crate) prepare: Duration,
}

/// What the sandbox figures add to [`Timed`].
pub(crate) struct WasmTimed {
    /// The sandbox's own figure: a fresh instance, the arguments copied in,
    /// the check, the result copied out (JSON text in, JSON text out).
    pub(crate) timed: Timed,
    /// The same calls timed around `Sandbox::call`, which adds the hop
    /// to and from the blocking thread the call runs on.
    pub(crate) with_hop: Samples,
    pub(crate) fuel: u64,
    pub(crate) peak_linear_memory: usize,
}

impl Wasm {
    pub(crate) fn start(cache_dir: &Path) -> Result<Wasm, String> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .map_err(|err| format!("cannot start a tokio runtime: {err}"))?;
        let cli = Cli::no_flags()?;
        let started = Instant::now();
        let sandbox = runtime.block_on(async {
            let sandbox = Sandbox::start(cli.limits(), cli.max_concurrent_calls, CacheDir::At(cache_dir.to_owned()))?;
            sandbox.ready().await.map_err(|err| err.to_string())?;
            Ok::<_, String>(sandbox)
        })?;
        Ok(Wasm { runtime, sandbox, prepare: started.elapsed() })
    }

    fn once(&self, workload: &Workload) -> Result<(Duration, Duration, String, u64, usize), String> {
        let args = workload.args.as_bytes().to_vec();
        let started = Instant::now();
        let outcome = self
            .runtime
            .block_on(self.sandbox.call(workload.tool, args, pending()))
            .map_err(|err| format!("wasmtime {}: {err}", workload.label))?;
        let wall = started.elapsed();
        let Answer::Result(text) = outcome.answer else {
            return Err(format!("wasmtime {}: an argument error", workload.label));
        };
        Ok((outcome.elapsed, wall, text, outcome.fuel_used, outcome.peak_memory_bytes))
    }

    /// What a fresh instance costs by itself: the sandbox's time for a call
    /// the core refuses at once (an unknown tool), `calls` times.
    pub(crate) fn instance_cost(&self, calls: usize) -> Result<Samples, String> {
        let mut samples = Samples::default();
        for _ in 0..calls {
            let outcome = self
                .runtime
                .block_on(self.sandbox.call("no_such_tool", b"{}".to_vec(), pending()))
                .map_err(|err| format!("wasmtime, unknown tool: {err}"))?;
            if !matches!(outcome.answer, Answer::ArgumentError(_)) {
                return Err("wasmtime: an unknown tool was not refused".into());
            }
            samples.push(outcome.elapsed);
        }
        Ok(samples)
    }

    pub(crate) fn run(&self, workload: &Workload, schedule: Schedule) -> Result<WasmTimed, String> {
        let (first, _, mut output, fuel, peak) = self.once(workload)?;
        let mut samples = Samples::default();
        let mut with_hop = Samples::default();
        for i in 0..schedule.warm_up + schedule.runs {
            drop(output);
            let (elapsed, wall, out, _, _) = self.once(workload)?;
            if i >= schedule.warm_up {
                samples.push(elapsed);
                with_hop.push(wall);
            }
            output = out;
        }
        Ok(WasmTimed {
            timed: Timed { first: first.as_secs_f64(), samples, output },
            with_hop,
            fuel,
            peak_linear_memory: peak,
        })
    }
}

/// The npm package in Node: one `node npm/bench/inprocess.mjs` process for
/// every workload.
pub(crate) struct NodeRun {
    pub(crate) version: String,
    /// Importing the package (compiling and instantiating the module).
    pub(crate) import: f64,
    /// Per workload, in the order given.
    pub(crate) timed: Vec<Timed>,
}

#[derive(Deserialize)]
struct NodeReport {
    node: String,
    import_ms: f64,
    workloads: Vec<NodeWorkload>,
}

#[derive(Deserialize)]
struct NodeWorkload {
    id: String,
    first_ms: f64,
    runs_ms: Vec<f64>,
}

/// Run a Node script with `args`; what it printed on stdout, or why it failed.
pub(crate) fn run_node_script(node: &str, script: &Path, args: &[&std::ffi::OsStr]) -> Result<Vec<u8>, String> {
    let out = Command::new(node).arg(script).args(args).output().map_err(|err| format!("cannot run {node}: {err}"))?;
    if !out.status.success() {
        return Err(format!(
            "{node} {} failed ({}):\n{}",
            script.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(out.stdout)
}

pub(crate) fn node(
    node: &str,
    script: &Path,
    work_dir: &Path,
    workloads: &[(&Workload, Schedule)],
) -> Result<NodeRun, String> {
    let dir = work_dir.join("node");
    std::fs::create_dir_all(&dir).map_err(|err| format!("{}: {err}", dir.display()))?;
    let mut entries = Vec::new();
    let mut outputs: Vec<PathBuf> = Vec::new();
    for (workload, schedule) in workloads {
        let args_path = dir.join(format!("{}.args.json", workload.id));
        let out_path = dir.join(format!("{}.out.json", workload.id));
        std::fs::write(&args_path, &workload.args).map_err(|err| format!("{}: {err}", args_path.display()))?;
        entries.push(serde_json::json!({
            "id": workload.id,
            "tool": workload.tool,
            "args_path": args_path,
            "warm_up": schedule.warm_up,
            "runs": schedule.runs,
            "out_path": out_path,
        }));
        outputs.push(out_path);
    }
    let manifest = dir.join("manifest.json");
    std::fs::write(&manifest, serde_json::json!({ "workloads": entries }).to_string())
        .map_err(|err| format!("{}: {err}", manifest.display()))?;
    let stdout = run_node_script(node, script, &[manifest.as_os_str()])?;
    let report: NodeReport =
        serde_json::from_slice(&stdout).map_err(|err| format!("cannot read the Node script's report: {err}"))?;
    let mut timed = Vec::new();
    for (((workload, _), result), path) in workloads.iter().zip(&report.workloads).zip(&outputs) {
        if result.id != workload.id {
            return Err(format!("the Node script answered {} for {}", result.id, workload.id));
        }
        timed.push(Timed {
            first: result.first_ms / 1e3,
            samples: Samples(result.runs_ms.iter().map(|ms| ms / 1e3).collect()),
            output: std::fs::read_to_string(path).map_err(|err| format!("{}: {err}", path.display()))?,
        });
    }
    Ok(NodeRun { version: report.node, import: report.import_ms / 1e3, timed })
}
