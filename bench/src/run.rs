//! One whole run: every measurement in order, every result compared, then the report.

use std::path::PathBuf;
use std::time::Instant;

use serde_json::Value;

use crate::data::{self, Workload};
use crate::http_load::Throughput;
use crate::mcp::ServerCommand;
use crate::options::{Options, Plan};
use crate::report::{report, Report};
use crate::servers::{
    commands, empty_cache_starts, serve, serve_at_scale, serve_file, small_latency, start_ups, Served,
};
use crate::{http_load, inprocess, js_peer, machine, progress};

/// Untimed calls in process after the first call on a large workload and
/// before the timed ones (see `inprocess::Schedule`).
pub(crate) const LARGE_WARM_UP_CALLS: usize = 2;

/// Clients loading the HTTP server at once, one run each: one, as many as
/// the server has call slots by default on 2 cores (4), and twice that (the
/// calls beyond the slots wait for one, as the server's budget has them).
const HTTP_CLIENTS: [usize; 3] = [1, 4, 8];

/// Where two results first differ, or `None` when they are identical.
fn difference(expected: &Value, actual: &Value) -> Option<String> {
    conformance_support::first_difference("$", expected, actual)
}

/// Everything measured for one large workload.
pub(crate) struct Row {
    pub(crate) workload: Workload,
    pub(crate) ours: Served,
    pub(crate) reference: Served,
    pub(crate) native: inprocess::Timed,
    pub(crate) wasm: inprocess::WasmTimed,
    pub(crate) node: inprocess::Timed,
    /// Empty when every comparison found the results identical.
    pub(crate) mismatches: Vec<String>,
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

/// The largest `validate_rows` call again, as a model would make it: no
/// `max_listed`, so the server's default cap applies (this project only: the
/// reference has no cap). Its counts must be the uncapped call's.
pub(crate) struct CappedRun {
    pub(crate) label: String,
    pub(crate) rows: usize,
    pub(crate) served: Served,
    /// Why its summary is not the uncapped call's, if it is not.
    pub(crate) mismatch: Option<String>,
}

fn serve_capped(ours: &ServerCommand, small: &Workload, row: &Row, runs: usize) -> Result<CappedRun, String> {
    let mut args: Value =
        serde_json::from_str(&row.workload.args).map_err(|err| format!("{}: {err}", row.workload.label))?;
    if let Value::Object(object) = &mut args {
        object.remove("max_listed");
    }
    let workload = Workload {
        label: format!("{}, default cap", row.workload.label),
        id: format!("{}-capped", row.workload.id),
        tool: row.workload.tool,
        rows: row.workload.rows,
        args: args.to_string(),
    };
    progress(&format!("{}: this project over MCP", workload.label));
    let served = serve(ours, small, &workload, runs)?;
    let mismatch = difference(&row.ours.result["summary"], &served.result["summary"])
        .map(|diff| format!("the capped call's summary differs from the uncapped one's: {diff}"));
    Ok(CappedRun { label: workload.label, rows: workload.rows, served, mismatch })
}

/// The small call over Streamable HTTP at each client count.
fn small_over_http(ours: &ServerCommand, small: &Workload, plan: &Plan) -> Result<Vec<Throughput>, String> {
    HTTP_CLIENTS
        .iter()
        .map(|&clients| http_load::small_calls_per_second(ours, small, clients, plan.small_warmup, plan.http_window))
        .collect()
}

#[allow(clippy::too_many_lines)]
pub(crate) fn run(options: &Options) -> Result<String, String> {
    let began = Instant::now();
    check_same_module(options)?;
    let plan = &options.plan;
    std::fs::create_dir_all(&options.work_dir).map_err(|err| format!("{}: {err}", options.work_dir.display()))?;
    let (ours, reference) = commands(options)?;
    let small = data::small_reconcile();
    if options.only_http {
        let mut out = String::new();
        crate::report::small_over_http(&mut out, &small_over_http(&ours, &small, plan)?)
            .map_err(|err| err.to_string())?;
        return Ok(out);
    }

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

    progress("small reconcile over Streamable HTTP");
    let small_http = small_over_http(&ours, &small, plan)?;
    for run in &small_http {
        if let Some(diff) = difference(&small_result_ours, &run.result) {
            small_mismatch.get_or_insert(format!("over HTTP the result differs from stdio's: {diff}"));
        }
    }

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

    // The npm package against ajv, on the largest validate_rows input.
    let ajv = match (&options.node_peers, workloads.iter().filter(|w| w.tool == "validate_rows").max_by_key(|w| w.rows))
    {
        (Some(peers), Some(workload)) => {
            progress(&format!("{}: the npm package against ajv", workload.label));
            let args_path = options.work_dir.join("node").join(format!("{}.args.json", workload.id));
            Some(js_peer::ajv_against_npm(&options.node, &options.ajv_script, &args_path, peers, workload)?)
        }
        _ => None,
    };

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

    let capped =
        match rows.iter().filter(|row| row.workload.tool == "validate_rows").max_by_key(|row| row.workload.rows) {
            Some(row) => Some(serve_capped(&ours, &small, row, plan.runs_ours)?),
            None => None,
        };

    progress(&format!("a {}-row CSV file by path: this project over MCP", plan.file_rows));
    let file = serve_file(&ours, &small, &options.work_dir, plan, options.peers.as_ref())?;

    let at_scale = serve_at_scale(&ours, &small, crate::dedupe_data::at_scale(), plan.file_runs)?;

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
            small_http: &small_http,
            ajv: ajv.as_ref(),
            capped: capped.as_ref(),
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
            at_scale: &at_scale,
            elapsed: began.elapsed().as_secs_f64(),
        },
    )
    .map_err(|err| err.to_string())?;
    Ok(out)
}
