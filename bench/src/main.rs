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
//! ```
//!
//! Prints a report on stdout (progress on stderr):
//! - over MCP on stdio, both servers driven by the same client
//!   ([`mcp::Session`]): cold start to the first `tools/list` answer, the
//!   latency of a small `reconcile`, each check at each size, and each
//!   server's peak resident memory;
//! - this project alone on a 1,000,000-row CSV file named by `path` (the
//!   reference reads no files): time, fuel, linear memory, peak resident
//!   size, and every row accounted for;
//! - in process: the native core, the module in wasmtime, and the npm package
//!   in Node, on the same argument bytes;
//! - the issue's targets, each marked met or missed.
//!
//! Every result is checked: the two servers' `structuredContent` must be
//! identical (key order and int/float kind included), and the three
//! in-process runtimes must produce the same JSON text byte for byte.

mod data;
mod inprocess;
mod machine;
mod mcp;
mod stats;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use serde_json::Value;

use data::Workload;
use mcp::{structured_content, Reply, ServerCommand, Session};
use stats::{ratio, size, time, Samples};

/// How many times each thing is measured.
struct Plan {
    sizes: Vec<usize>,
    cold_starts_ours: usize,
    cold_starts_reference: usize,
    /// Starts of this project on an empty module cache (each compiles the module).
    cold_starts_empty_cache: usize,
    small_calls: usize,
    small_warmup: usize,
    /// Warm-up calls before the small call in process: V8 tiers a function
    /// up only once it has done enough work, which takes a 30 µs call
    /// several hundred calls (Node's median stays at 2-4x native after 20).
    small_warmup_in_process: usize,
    runs_ours: usize,
    /// Runs of the reference per large call at `size`: it takes seconds at
    /// 100,000 rows, so fewer there.
    runs_reference: fn(usize) -> usize,
    runs_in_process: usize,
    /// Rows in the CSV file validated by `path` (this project only).
    file_rows: usize,
    file_runs: usize,
}

impl Plan {
    fn full(sizes: Vec<usize>) -> Plan {
        Plan {
            sizes,
            cold_starts_ours: 10,
            cold_starts_reference: 5,
            cold_starts_empty_cache: 3,
            small_calls: 200,
            small_warmup: 20,
            small_warmup_in_process: 1000,
            runs_ours: 5,
            runs_reference: |n| if n >= 100_000 { 3 } else { 5 },
            runs_in_process: 5,
            file_rows: 1_000_000,
            file_runs: 3,
        }
    }

    fn quick() -> Plan {
        Plan {
            sizes: vec![2000],
            cold_starts_ours: 3,
            cold_starts_reference: 2,
            cold_starts_empty_cache: 1,
            small_calls: 30,
            small_warmup: 5,
            small_warmup_in_process: 100,
            runs_ours: 2,
            runs_reference: |_| 1,
            runs_in_process: 2,
            file_rows: 20_000,
            file_runs: 1,
        }
    }
}

struct Options {
    server: PathBuf,
    reference: PathBuf,
    work_dir: PathBuf,
    node: String,
    node_script: PathBuf,
    npm_wasm: PathBuf,
    plan: Plan,
}

fn parse_options() -> Result<Options, String> {
    let mut server = None;
    let mut reference = None;
    let mut work_dir = None;
    let mut node = "node".to_owned();
    let mut node_script = PathBuf::from("npm/bench/inprocess.mjs");
    let mut npm_wasm = PathBuf::from("npm/dist/wasm/mcp_validation_core_bg.wasm");
    let mut sizes = vec![10_000, 100_000];
    let mut quick = false;
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
            "--help" | "-h" => {
                return Err("usage: mcp-validation-bench --server PATH --reference PATH --work-dir DIR \
                            [--node node] [--node-script PATH] [--npm-wasm PATH] [--sizes 10000,100000] [--quick]\n\
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
        plan: if quick { Plan::quick() } else { Plan::full(sizes) },
    })
}

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

/// The two servers, started the same way apart from the program.
fn commands(options: &Options) -> Result<(ServerCommand, ServerCommand), String> {
    let cache = options.work_dir.join("module-cache");
    create_private_dir(&cache)?;
    let ours = ServerCommand {
        name: "mcp-validation-server (this project)",
        program: options.server.clone(),
        args: Vec::new(),
        // A cache of our own, so the run neither uses nor disturbs the
        // user's; it is filled by the first (unmeasured) start.
        env: vec![("MCP_VALIDATION_CACHE_DIR".into(), cache.to_string_lossy().into_owned())],
    };
    let reference = ServerCommand {
        name: "mcp-validation-server 0.1.0 (reference)",
        program: options.reference.clone(),
        args: Vec::new(),
        env: Vec::new(),
    };
    Ok((ours, reference))
}

/// The module cache must be a directory only this user can write.
fn create_private_dir(dir: &Path) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(dir).map_err(|err| format!("{}: {err}", dir.display()))?;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
        .map_err(|err| format!("{}: {err}", dir.display()))
}

/// Cold start: spawn, `initialize`, `tools/list`; then one small call.
struct StartUp {
    to_list: Samples,
    to_call: Samples,
}

fn start_ups(command: &ServerCommand, count: usize, small: &Workload) -> Result<StartUp, String> {
    let mut to_list = Samples::default();
    let mut to_call = Samples::default();
    // One unmeasured start: loads the program into the page cache, and for
    // this project fills the compiled-module cache.
    for i in 0..=count {
        let mut session = Session::spawn(command)?;
        session.initialize()?;
        session.request("tools/list", "{}")?;
        let listed = session.spawned.elapsed();
        structured_content(&session.call(small.tool, &small.args)?)?;
        let called = session.spawned.elapsed();
        session.close()?;
        if i > 0 {
            to_list.push(listed);
            to_call.push(called);
        }
    }
    Ok(StartUp { to_list, to_call })
}

/// This project's first start on a machine: an empty module cache, so the
/// module is compiled (in the background: `tools/list` does not wait for it,
/// the first call does). `count` starts, each on a new, empty cache.
fn empty_cache_starts(
    ours: &ServerCommand,
    count: usize,
    small: &Workload,
    work_dir: &Path,
) -> Result<StartUp, String> {
    let cache = work_dir.join("module-cache-empty");
    let mut to_list = Samples::default();
    let mut to_call = Samples::default();
    for _ in 0..count {
        if cache.exists() {
            std::fs::remove_dir_all(&cache).map_err(|err| format!("{}: {err}", cache.display()))?;
        }
        create_private_dir(&cache)?;
        let command = ServerCommand {
            env: vec![("MCP_VALIDATION_CACHE_DIR".into(), cache.to_string_lossy().into_owned())],
            ..ours.clone()
        };
        let mut session = Session::spawn(&command)?;
        session.initialize()?;
        session.request("tools/list", "{}")?;
        to_list.push(session.spawned.elapsed());
        structured_content(&session.call(small.tool, &small.args)?)?;
        to_call.push(session.spawned.elapsed());
        session.close()?;
    }
    std::fs::remove_dir_all(&cache).map_err(|err| format!("{}: {err}", cache.display()))?;
    Ok(StartUp { to_list, to_call })
}

/// A started server, initialised, with the module ready (one small call).
fn ready_session(command: &ServerCommand, small: &Workload) -> Result<Session, String> {
    let mut session = Session::spawn(command)?;
    session.initialize()?;
    session.request("tools/list", "{}")?;
    structured_content(&session.call(small.tool, &small.args)?)?;
    Ok(session)
}

/// Latency of the small call, `calls` times after `warmup` calls.
fn small_latency(command: &ServerCommand, small: &Workload, plan: &Plan) -> Result<(Samples, Value), String> {
    let mut session = ready_session(command, small)?;
    for _ in 0..plan.small_warmup {
        session.call(small.tool, &small.args)?;
    }
    let mut samples = Samples::default();
    let mut last = None;
    for _ in 0..plan.small_calls {
        let reply = session.call(small.tool, &small.args)?;
        samples.push(reply.elapsed);
        last = Some(reply);
    }
    let result = structured_content(&last.ok_or("no calls")?)?;
    session.close()?;
    Ok((samples, result))
}

/// One large call, `runs` times in one fresh server process.
struct Served {
    samples: Samples,
    request_bytes: usize,
    response_bytes: usize,
    /// Resident size after start-up and one small call.
    idle_rss: u64,
    /// Peak resident size over the process's life (`VmHWM`).
    peak_rss: u64,
    result: Value,
    /// What the server wrote on stderr (its log).
    log: String,
}

fn serve(command: &ServerCommand, small: &Workload, workload: &Workload, runs: usize) -> Result<Served, String> {
    let mut session = ready_session(command, small)?;
    let (_, idle_rss) = session.memory()?;
    let mut samples = Samples::default();
    let mut last: Option<Reply> = None;
    for _ in 0..runs {
        drop(last.take());
        let reply = session.call(workload.tool, &workload.args)?;
        samples.push(reply.elapsed);
        last = Some(reply);
    }
    let (peak_rss, _) = session.memory()?;
    let log = session.stderr();
    session.close()?;
    let last = last.ok_or("no runs")?;
    let result = structured_content(&last).map_err(|err| format!("{} {}: {err}", command.name, workload.label))?;
    Ok(Served {
        samples,
        request_bytes: last.request_bytes,
        response_bytes: last.response_bytes,
        idle_rss,
        peak_rss,
        result,
        log,
    })
}

/// The large-file run: `validate_rows` on a CSV file named by `path`.
/// This project only: the reference takes rows inline and reads no files.
struct FileRun {
    workload: Workload,
    file_bytes: u64,
    samples: Samples,
    response_bytes: usize,
    peak_rss: u64,
    /// `fuel=` and `peak_memory_mib=` of the last call, from the server's log.
    fuel: Option<u64>,
    peak_linear_mib: Option<f64>,
    /// The result's `summary` and `verdict`.
    summary: Value,
    verdict: String,
    /// Why the result cannot be right, if it cannot (a row not accounted for).
    problem: Option<String>,
}

fn serve_file(ours: &ServerCommand, small: &Workload, work_dir: &Path, plan: &Plan) -> Result<FileRun, String> {
    let dir = work_dir.join("files");
    std::fs::create_dir_all(&dir).map_err(|err| format!("{}: {err}", dir.display()))?;
    let (path, workload) = data::large_csv(plan.file_rows, &dir)
        .map_err(|err| format!("writing the CSV file in {}: {err}", dir.display()))?;
    let file_bytes = std::fs::metadata(&path).map_err(|err| format!("{}: {err}", path.display()))?.len();
    // The file's directory is the one place the server may read; the call's
    // fuel and memory are read from its log line, which is info level.
    let args = vec!["--data-root".into(), dir.to_string_lossy().into_owned(), "--log".into(), "info".into()];
    let command = ServerCommand { args, ..ours.clone() };
    let served = serve(&command, small, &workload, plan.file_runs)?;
    std::fs::remove_file(&path).map_err(|err| format!("{}: {err}", path.display()))?;
    let logged = |field: &str| {
        served
            .log
            .lines()
            .rev()
            .find(|line| line.contains("call finished"))
            .and_then(|line| line.split_whitespace().find_map(|word| word.strip_prefix(field)))
            .map(str::to_owned)
    };
    let summary = served.result["summary"].clone();
    let problem = (summary["rows_in"] != workload.rows || summary["accounted_for"] != workload.rows)
        .then(|| format!("{} rows in the file, but the summary says {summary}", workload.rows));
    Ok(FileRun {
        file_bytes,
        fuel: logged("fuel=").and_then(|fuel| fuel.parse().ok()),
        peak_linear_mib: logged("peak_memory_mib=").and_then(|mib| mib.parse().ok()),
        verdict: served.result["verdict"].as_str().unwrap_or("?").to_owned(),
        samples: served.samples,
        response_bytes: served.response_bytes,
        peak_rss: served.peak_rss,
        summary,
        problem,
        workload,
    })
}

/// Where two results first differ, or `None` when they are identical.
fn difference(expected: &Value, actual: &Value) -> Option<String> {
    conformance_support::first_difference("$", expected, actual)
}

/// Everything measured for one large workload.
struct Row {
    workload: Workload,
    ours: Served,
    reference: Served,
    native: inprocess::Timed,
    wasm: inprocess::WasmTimed,
    node: inprocess::Timed,
    /// Empty when every comparison found the results identical.
    mismatches: Vec<String>,
}

/// Every runtime must run the same module: the npm package's file, the
/// copy this program embeds (through the host library), and the server's.
fn check_same_module(options: &Options) -> Result<(), String> {
    let npm = std::fs::read(&options.npm_wasm).map_err(|err| format!("{}: {err}", options.npm_wasm.display()))?;
    let rebuild = "rebuild with scripts/bench.sh (it points MCPV_WASM_MODULE at this checkout's module)";
    if npm != mcp_validation_server::module::BYTES {
        return Err(format!("this program embeds a different module from {}; {rebuild}", options.npm_wasm.display()));
    }
    let version = std::process::Command::new(&options.server)
        .arg("--version")
        .output()
        .map_err(|err| format!("{}: {err}", options.server.display()))?;
    let version = String::from_utf8_lossy(&version.stdout);
    if !version.contains(mcp_validation_server::module::SHA256) {
        return Err(format!(
            "{} embeds a different module from {} ({}); {rebuild}",
            options.server.display(),
            options.npm_wasm.display(),
            version.trim().replace('\n', "; ")
        ));
    }
    Ok(())
}

#[allow(clippy::too_many_lines)]
fn run(options: &Options) -> Result<String, String> {
    let began = Instant::now();
    check_same_module(options)?;
    let plan = &options.plan;
    std::fs::create_dir_all(&options.work_dir).map_err(|err| format!("{}: {err}", options.work_dir.display()))?;
    let (ours, reference) = commands(options)?;
    let small = data::small_reconcile();

    progress("generating inputs");
    let workloads: Vec<Workload> = plan.sizes.iter().flat_map(|&n| data::large(n)).collect();

    progress("cold starts");
    let start_ours = start_ups(&ours, plan.cold_starts_ours, &small)?;
    let start_reference = start_ups(&reference, plan.cold_starts_reference, &small)?;
    let start_empty_cache = empty_cache_starts(&ours, plan.cold_starts_empty_cache, &small, &options.work_dir)?;

    progress("small reconcile latency");
    let (small_ours, small_result_ours) = small_latency(&ours, &small, plan)?;
    let (small_reference, small_result_reference) = small_latency(&reference, &small, plan)?;
    let mut small_mismatch = difference(&small_result_reference, &small_result_ours);

    progress("in process: preparing the module in wasmtime");
    let wasm = inprocess::Wasm::start(&options.work_dir.join("module-cache"))?;
    let small_schedule = inprocess::Schedule { warm_up: plan.small_warmup_in_process, runs: plan.small_calls };
    let large_schedule = inprocess::Schedule { warm_up: LARGE_WARM_UP_CALLS, runs: plan.runs_in_process };
    let small_native = inprocess::native(&small, small_schedule)?;
    let small_wasm = wasm.run(&small, small_schedule)?;
    let instance_cost = wasm.instance_cost(plan.small_calls)?;
    if small_native.output != small_wasm.timed.output {
        small_mismatch.get_or_insert_with(|| "native and wasmtime differ on the small reconcile".into());
    }

    progress("in process: the npm package in Node");
    let mut node_inputs: Vec<(&Workload, inprocess::Schedule)> = vec![(&small, small_schedule)];
    node_inputs.extend(workloads.iter().map(|workload| (workload, large_schedule)));
    let node = inprocess::node(&options.node, &options.node_script, &options.work_dir, &node_inputs)?;
    let mut node_timed = node.timed.into_iter();
    let small_node = node_timed.next().ok_or("no Node result for the small call")?;
    if small_node.output != small_native.output {
        small_mismatch.get_or_insert_with(|| "native and Node differ on the small reconcile".into());
    }

    let mut rows = Vec::new();
    for (workload, node) in workloads.into_iter().zip(node_timed) {
        progress(&format!("{}: native core, wasmtime", workload.label));
        let native = inprocess::native(&workload, large_schedule)?;
        let wasm_timed = wasm.run(&workload, large_schedule)?;
        progress(&format!("{}: this project over MCP", workload.label));
        let served_ours = serve(&ours, &small, &workload, plan.runs_ours)?;
        let runs_reference = (plan.runs_reference)(workload.rows);
        progress(&format!("{}: the reference over MCP ({runs_reference} runs)", workload.label));
        let served_reference = serve(&reference, &small, &workload, runs_reference)?;

        let mut mismatches = Vec::new();
        if let Some(diff) = difference(&served_reference.result, &served_ours.result) {
            mismatches.push(format!("this project's structuredContent differs from the reference's: {diff}"));
        }
        let native_value: Value =
            serde_json::from_str(&native.output).map_err(|err| format!("native output is not JSON: {err}"))?;
        if let Some(diff) = difference(&native_value, &served_ours.result) {
            mismatches.push(format!("the native core differs from this project's server: {diff}"));
        }
        if wasm_timed.timed.output != native.output {
            mismatches.push("the module in wasmtime and the native core wrote different JSON".into());
        }
        if node.output != native.output {
            mismatches.push("the npm package and the native core wrote different JSON".into());
        }
        rows.push(Row {
            workload,
            ours: served_ours,
            reference: served_reference,
            native,
            wasm: wasm_timed,
            node,
            mismatches,
        });
    }

    progress(&format!("a {}-row CSV file by path: this project over MCP", plan.file_rows));
    let file = serve_file(&ours, &small, &options.work_dir, plan)?;

    let python = options.reference.parent().map_or_else(|| PathBuf::from("python3"), |bin| bin.join("python"));
    let facts = machine::describe(&python, &options.node, &options.server);
    let mut out = String::new();
    report(
        &mut out,
        &Report {
            plan,
            facts: &facts,
            start_ours: &start_ours,
            start_reference: &start_reference,
            start_empty_cache: &start_empty_cache,
            small: &small,
            small_ours: &small_ours,
            small_reference: &small_reference,
            small_mismatch: small_mismatch.as_deref(),
            small_native: &small_native,
            small_wasm: &small_wasm,
            small_node: &small_node,
            wasm_prepare: wasm.prepare.as_secs_f64(),
            instance_cost: &instance_cost,
            node_version: &node.version,
            node_import: node.import,
            rows: &rows,
            file: &file,
            elapsed: began.elapsed().as_secs_f64(),
        },
    )
    .map_err(|err| err.to_string())?;
    Ok(out)
}

struct Report<'a> {
    plan: &'a Plan,
    facts: &'a [(String, String)],
    start_ours: &'a StartUp,
    start_reference: &'a StartUp,
    start_empty_cache: &'a StartUp,
    small: &'a Workload,
    small_ours: &'a Samples,
    small_reference: &'a Samples,
    small_mismatch: Option<&'a str>,
    small_native: &'a inprocess::Timed,
    small_wasm: &'a inprocess::WasmTimed,
    small_node: &'a inprocess::Timed,
    wasm_prepare: f64,
    instance_cost: &'a Samples,
    node_version: &'a str,
    node_import: f64,
    rows: &'a [Row],
    file: &'a FileRun,
    elapsed: f64,
}

fn mark(met: bool) -> &'static str {
    if met {
        "met"
    } else {
        "MISSED"
    }
}

/// A median with its run count: `1.23 s (n=5)`.
fn median_n(samples: &Samples) -> String {
    format!("{} (n={})", time(samples.median()), samples.len())
}

/// Untimed calls in process after the first call on a large workload and
/// before the timed ones (see `inprocess::Schedule`).
const LARGE_WARM_UP_CALLS: usize = 2;

const END_TO_END_TARGET: f64 = 25.0;
const COLD_START_TARGET: f64 = 50.0;
const WASM_TARGET: f64 = 1.5;
const NODE_TARGET: f64 = 2.0;
const MEMORY_TARGET: f64 = 4.0;

#[allow(clippy::too_many_lines)]
fn report(out: &mut String, r: &Report<'_>) -> std::fmt::Result {
    let plan = r.plan;
    writeln!(out, "mcp-validation benchmark: this project against the Python reference mcp-validation-server 0.1.0")?;
    writeln!(out)?;
    writeln!(out, "Machine")?;
    for (key, value) in r.facts {
        writeln!(out, "  {key:<13} {value}")?;
    }
    writeln!(out)?;
    writeln!(out, "Inputs (generated from a fixed seed; every runtime gets the same argument bytes)")?;
    writeln!(out, "  rows            invoice INV-nnnnnn, customer CUST-nnnnn, amount as a numeric string, ISO date;")?;
    writeln!(
        out,
        "                  ~0.3% fail each rule; ~0.5% repeat an invoice, ~0.5% repeat customer+amount+date"
    )?;
    writeln!(out, "  validate_rows   4 columns: invoice (pattern INV-\\d{{6}}), customer (required), amount (number, min 0), date")?;
    writeln!(out, "  count_distinct  key customer")?;
    writeln!(
        out,
        "  duplicate_report key invoice, match_fields [customer, amount, date], max_groups = rows (all groups)"
    )?;
    writeln!(out, "  reconcile       movements (objects and bare numbers); one is missing from the closing balance")?;
    writeln!(out, "  small call      {} ({} bytes of arguments)", r.small.label, r.small.args.len())?;
    writeln!(out, "  every call sends \"max_listed\": 1000000000, so no list is capped by either server")?;
    writeln!(out)?;

    // --- MCP: start-up and small-call latency -------------------------------
    writeln!(
        out,
        "MCP over stdio: both servers, one client (newline-delimited JSON-RPC); ratio = reference / this project"
    )?;
    writeln!(out)?;
    let to_list = r.start_reference.to_list.median() / r.start_ours.to_list.median();
    let to_call = r.start_reference.to_call.median() / r.start_ours.to_call.median();
    let mean = r.small_reference.mean() / r.small_ours.mean();
    let p99 = r.small_reference.percentile(99.0) / r.small_ours.percentile(99.0);
    writeln!(out, "  {:<42} {:>16} {:>16} {:>8}", "", "this project", "reference", "ratio")?;
    writeln!(
        out,
        "  {:<42} {:>16} {:>16} {:>8}   target >= {COLD_START_TARGET}x: {}",
        "cold start to first tools/list (median)",
        median_n(&r.start_ours.to_list),
        median_n(&r.start_reference.to_list),
        ratio(to_list),
        mark(to_list >= COLD_START_TARGET)
    )?;
    writeln!(
        out,
        "  {:<42} {:>16} {:>16} {:>8}",
        "cold start to first tools/call (median)",
        median_n(&r.start_ours.to_call),
        median_n(&r.start_reference.to_call),
        ratio(to_call)
    )?;
    for (label, samples) in [
        ("first start, empty module cache: tools/list", &r.start_empty_cache.to_list),
        ("first start, empty module cache: first call", &r.start_empty_cache.to_call),
    ] {
        writeln!(out, "  {label:<42} {:>16} {:>16} {:>8}", median_n(samples), "-", "")?;
    }
    writeln!(
        out,
        "  {:<42} {:>16} {:>16} {:>8}",
        format!("small reconcile, mean of {} calls", r.small_ours.len()),
        time(r.small_ours.mean()),
        time(r.small_reference.mean()),
        ratio(mean)
    )?;
    writeln!(
        out,
        "  {:<42} {:>16} {:>16} {:>8}",
        format!("small reconcile, p99 of {} calls", r.small_ours.len()),
        time(r.small_ours.percentile(99.0)),
        time(r.small_reference.percentile(99.0)),
        ratio(p99)
    )?;
    writeln!(
        out,
        "  (one unmeasured start first; this project's module cache is warm, as after its first run, except on the \
         two first-start lines,\n   which compile the module; {} warm-up calls before the small calls)",
        plan.small_warmup
    )?;
    writeln!(out)?;

    // --- MCP: large calls ----------------------------------------------------
    writeln!(
        out,
        "  end to end, request written to response read (median of n runs, each call in a fresh server process per row)"
    )?;
    writeln!(
        out,
        "  {:<22} {:>10} {:>11} {:>16} {:>16} {:>8}  {:<16} results",
        "call", "request", "response", "this project", "reference", "ratio", "target"
    )?;
    for row in r.rows {
        let speedup = row.reference.samples.median() / row.ours.samples.median();
        let target = if row.workload.rows >= 100_000 {
            format!(">= {END_TO_END_TARGET}x: {}", mark(speedup >= END_TO_END_TARGET))
        } else {
            String::new()
        };
        writeln!(
            out,
            "  {:<22} {:>10} {:>11} {:>16} {:>16} {:>8}  {:<16} {}",
            row.workload.label,
            size(row.ours.request_bytes as u64),
            size(row.ours.response_bytes as u64),
            median_n(&row.ours.samples),
            median_n(&row.reference.samples),
            ratio(speedup),
            target,
            if row.mismatches.is_empty() { "identical" } else { "DIFFERENT" },
        )?;
    }
    writeln!(
        out,
        "  (response: this project's reply line, which carries structuredContent and its text copy, as the reference's does)"
    )?;
    writeln!(out)?;

    // --- memory ----------------------------------------------------------------
    writeln!(
        out,
        "  peak resident memory (VmHWM of the server process, read before it exits; each row a fresh process)"
    )?;
    writeln!(
        out,
        "  {:<22} {:>10} {:>10} {:>8}  {:<16} {:>11}   {:>10} {:>10} {:>8}",
        "", "this project", "", "", "", "", "reference", "", ""
    )?;
    writeln!(
        out,
        "  {:<22} {:>10} {:>10} {:>8}  {:<16} {:>11}   {:>10} {:>10} {:>8}",
        "call", "req + resp", "peak", "/ (r+r)", "target", "above idle", "req + resp", "peak", "/ (r+r)"
    )?;
    for row in r.rows {
        let io = (row.ours.request_bytes + row.ours.response_bytes) as u64;
        let io_reference = (row.reference.request_bytes + row.reference.response_bytes) as u64;
        let factor = row.ours.peak_rss as f64 / io as f64;
        let above_idle = row.ours.peak_rss.saturating_sub(row.ours.idle_rss) as f64 / io as f64;
        writeln!(
            out,
            "  {:<22} {:>10} {:>10} {:>8}  {:<16} {:>11}   {:>10} {:>10} {:>8}",
            row.workload.label,
            size(io),
            size(row.ours.peak_rss),
            ratio(factor),
            format!("<= {MEMORY_TARGET}x: {}", mark(factor <= MEMORY_TARGET)),
            ratio(above_idle),
            size(io_reference),
            size(row.reference.peak_rss),
            ratio(row.reference.peak_rss as f64 / io_reference as f64),
        )?;
    }
    if let Some(row) = r.rows.first() {
        writeln!(
            out,
            "  (req + resp: the request and reply lines. Idle, after start-up and one small call: this project {}, \
             the reference {}.",
            size(row.ours.idle_rss),
            size(row.reference.idle_rss)
        )?;
        writeln!(
            out,
            "   above idle: (peak - idle) / (req + resp). The module's own peak linear memory is in the table below.)"
        )?;
    }
    writeln!(out)?;

    // --- a large file ---------------------------------------------------------------
    let file = r.file;
    writeln!(
        out,
        "Large file, this project only (the reference takes rows inline and reads no files): {} on a {}-row CSV file",
        file.workload.tool,
        format_count(file.workload.rows as u64)
    )?;
    writeln!(
        out,
        "  named by \"path\" (the server started with --data-root; no max_listed, so the server's default cap applies)"
    )?;
    writeln!(
        out,
        "  file {}; {}; reply {}; server peak resident {}",
        size(file.file_bytes),
        median_n(&file.samples),
        size(file.response_bytes as u64),
        size(file.peak_rss)
    )?;
    writeln!(
        out,
        "  in the module: fuel {} (limit {}), peak linear memory {} MiB (limit {} MiB)",
        file.fuel.map_or_else(|| "?".to_owned(), format_count),
        format_count(mcp_validation_server::cli::DEFAULT_MAX_FUEL),
        file.peak_linear_mib.map_or_else(|| "?".to_owned(), |mib| format!("{mib:.1}")),
        mcp_validation_server::cli::DEFAULT_MAX_MEMORY_MIB
    )?;
    writeln!(out, "  verdict {}; summary {}", file.verdict, file.summary)?;
    writeln!(out)?;

    // --- in process --------------------------------------------------------------
    writeln!(
        out,
        "In process: the same argument bytes, JSON text in and JSON text out \
         (median of {} timed calls after a first call and {} warm-up calls; ratio to native)",
        plan.runs_in_process, LARGE_WARM_UP_CALLS
    )?;
    writeln!(
        out,
        "  {:<24} {:>11} {:>20} {:>20}   {:<30} {:>10}",
        "call", "native core", "module in wasmtime", "npm package in Node", "first call: native/wasm/Node", "wasm peak"
    )?;
    let small_row = (r.small.label.as_str(), r.small_native, r.small_wasm, r.small_node);
    let mut lines: Vec<(&str, &inprocess::Timed, &inprocess::WasmTimed, &inprocess::Timed)> = vec![small_row];
    lines.extend(r.rows.iter().map(|row| (row.workload.label.as_str(), &row.native, &row.wasm, &row.node)));
    for (label, native, wasm, node) in &lines {
        let base = native.samples.median();
        let wasm_median = wasm.timed.samples.median();
        let node_median = node.samples.median();
        writeln!(
            out,
            "  {:<24} {:>11} {:>20} {:>20}   {:<30} {:>10}",
            label,
            time(base),
            format!("{} ({})", time(wasm_median), ratio(wasm_median / base)),
            format!("{} ({})", time(node_median), ratio(node_median / base)),
            format!("{} / {} / {}", time(native.first), time(wasm.timed.first), time(node.first)),
            size(wasm.peak_linear_memory as u64),
        )?;
    }
    writeln!(
        out,
        "  (small reconcile: {} timed calls after {} warm-up calls, which V8 needs to optimise a call this short.",
        r.small_native.samples.len(),
        plan.small_warmup_in_process
    )?;
    writeln!(
        out,
        "   wasmtime: the sandbox's own time per call, as the server runs it: a fresh instance (instantiation included),"
    )?;
    writeln!(
        out,
        "   fuel metering and the default limits, arguments copied in and the result out. A fresh instance by itself"
    )?;
    writeln!(
        out,
        "   (a call the core refuses at once) costs {}; the hop to the call's thread adds {} (the small reconcile \
         through Sandbox::call: {}).",
        time(r.instance_cost.median()),
        time(r.small_wasm.with_hop.median() - r.small_wasm.timed.samples.median()),
        time(r.small_wasm.with_hop.median())
    )?;
    writeln!(
        out,
        "   Loading the compiled module from the cache took {}; importing the npm package in Node {} took {}.)",
        time(r.wasm_prepare),
        r.node_version,
        time(r.node_import)
    )?;
    let fuel: Vec<String> =
        lines.iter().skip(1).map(|(label, _, wasm, _)| format!("{label} {}", format_count(wasm.fuel))).collect();
    for (i, chunk) in fuel.chunks(4).enumerate() {
        writeln!(out, "  {:<11}{}", if i == 0 { "wasm fuel:" } else { "" }, chunk.join("; "))?;
    }
    writeln!(out)?;

    // --- targets -----------------------------------------------------------------
    writeln!(out, "Targets")?;
    let at_largest: Vec<&Row> = r.rows.iter().filter(|row| row.workload.rows >= 100_000).collect();
    if at_largest.is_empty() {
        writeln!(out, "  [-]      every tool at 100,000 rows >= 25x faster end to end: not run at 100,000 rows")?;
    } else {
        let worst = worst(&at_largest, |row| row.reference.samples.median() / row.ours.samples.median(), false);
        writeln!(
            out,
            "  [{}] every tool at 100,000 rows >= {END_TO_END_TARGET}x faster end to end: lowest {} ({})",
            pad(mark(worst.1 >= END_TO_END_TARGET)),
            ratio(worst.1),
            worst.0
        )?;
    }
    writeln!(
        out,
        "  [{}] cold start <= 1/{COLD_START_TARGET} of the reference's: 1/{:.0} ({} against {})",
        pad(mark(to_list >= COLD_START_TARGET)),
        to_list,
        time(r.start_ours.to_list.median()),
        time(r.start_reference.to_list.median())
    )?;
    let all: Vec<&Row> = r.rows.iter().collect();
    // In process, every call counts, the small one included.
    let small_native = r.small_native.samples.median();
    let in_process = |of_row: &dyn Fn(&Row) -> f64, small: f64| {
        let (label, value) = worst(&all, of_row, true);
        if small > value {
            (r.small.label.clone(), small)
        } else {
            (label, value)
        }
    };
    let wasm_worst = in_process(
        &|row| row.wasm.timed.samples.median() / row.native.samples.median(),
        r.small_wasm.timed.samples.median() / small_native,
    );
    writeln!(
        out,
        "  [{}] module in wasmtime <= {WASM_TARGET}x native (every call): highest {} ({})",
        pad(mark(wasm_worst.1 <= WASM_TARGET)),
        ratio(wasm_worst.1),
        wasm_worst.0
    )?;
    let node_worst = in_process(
        &|row| row.node.samples.median() / row.native.samples.median(),
        r.small_node.samples.median() / small_native,
    );
    writeln!(
        out,
        "  [{}] npm package in Node <= {NODE_TARGET}x native (every call): highest {} ({})",
        pad(mark(node_worst.1 <= NODE_TARGET)),
        ratio(node_worst.1),
        node_worst.0
    )?;
    let memory_worst =
        worst(&all, |row| row.ours.peak_rss as f64 / (row.ours.request_bytes + row.ours.response_bytes) as f64, true);
    writeln!(
        out,
        "  [{}] peak resident <= {MEMORY_TARGET}x (request + response) (every large call): highest {} ({})",
        pad(mark(memory_worst.1 <= MEMORY_TARGET)),
        ratio(memory_worst.1),
        memory_worst.0
    )?;
    let mismatches: Vec<String> = r
        .rows
        .iter()
        .flat_map(|row| row.mismatches.iter().map(|m| format!("{}: {m}", row.workload.label)))
        .chain(r.small_mismatch.map(|m| format!("{}: {m}", r.small.label)))
        .chain(r.file.problem.as_ref().map(|m| format!("{}: {m}", r.file.workload.label)))
        .collect();
    writeln!(
        out,
        "  [{}] results identical: both servers' structuredContent (key order and int/float kind compared), \
         native, wasmtime and Node byte for byte, every row of the file accounted for",
        pad(mark(mismatches.is_empty()))
    )?;
    for mismatch in &mismatches {
        writeln!(out, "           {mismatch}")?;
    }
    writeln!(out)?;
    writeln!(out, "Whole run: {}", time(r.elapsed))?;
    Ok(())
}

fn pad(mark: &str) -> String {
    format!("{mark:<6}")
}

/// The row with the lowest (or highest) value of `f`, and that value.
fn worst(rows: &[&Row], f: impl Fn(&Row) -> f64, highest: bool) -> (String, f64) {
    let mut best: Option<(&Row, f64)> = None;
    for row in rows {
        let value = f(row);
        let replace = match best {
            None => true,
            Some((_, current)) => (highest && value > current) || (!highest && value < current),
        };
        if replace {
            best = Some((row, value));
        }
    }
    best.map_or_else(|| ("none".into(), f64::NAN), |(row, value)| (row.workload.label.clone(), value))
}

fn format_count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}
