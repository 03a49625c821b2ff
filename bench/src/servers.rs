//! Measurements over MCP on stdio: start-ups, the small call's latency, the
//! large calls in a fresh server each, and this project's large-file run.

use std::path::Path;

use serde_json::Value;

use crate::data::{self, Workload};
use crate::mcp::{structured_content, Reply, ServerCommand, Session};
use crate::options::{Options, Plan};
use crate::stats::Samples;

/// The two servers, started the same way apart from the program.
pub(crate) fn commands(options: &Options) -> Result<(ServerCommand, ServerCommand), String> {
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
pub(crate) fn create_private_dir(dir: &Path) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(dir).map_err(|err| format!("{}: {err}", dir.display()))?;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
        .map_err(|err| format!("{}: {err}", dir.display()))
}

/// Cold start: spawn, `initialize`, `tools/list`; then one small call.
pub(crate) struct StartUp {
    pub(crate) to_list: Samples,
    pub(crate) to_call: Samples,
}

pub(crate) fn start_ups(command: &ServerCommand, count: usize, small: &Workload) -> Result<StartUp, String> {
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
pub(crate) fn empty_cache_starts(
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
pub(crate) fn ready_session(command: &ServerCommand, small: &Workload) -> Result<Session, String> {
    let mut session = Session::spawn(command)?;
    session.initialize()?;
    session.request("tools/list", "{}")?;
    structured_content(&session.call(small.tool, &small.args)?)?;
    Ok(session)
}

/// Latency of the small call, `calls` times after `warmup` calls.
pub(crate) fn small_latency(
    command: &ServerCommand,
    small: &Workload,
    plan: &Plan,
) -> Result<(Samples, Value), String> {
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
pub(crate) struct Served {
    pub(crate) samples: Samples,
    pub(crate) request_bytes: usize,
    pub(crate) response_bytes: usize,
    /// Resident size after start-up and one small call.
    pub(crate) idle_rss: u64,
    /// Peak resident size over the process's life (`VmHWM`).
    pub(crate) peak_rss: u64,
    pub(crate) result: Value,
    /// What the server wrote on stderr (its log).
    pub(crate) log: String,
}

pub(crate) fn serve(
    command: &ServerCommand,
    small: &Workload,
    workload: &Workload,
    runs: usize,
) -> Result<Served, String> {
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
pub(crate) struct FileRun {
    pub(crate) workload: Workload,
    pub(crate) file_bytes: u64,
    pub(crate) samples: Samples,
    pub(crate) response_bytes: usize,
    pub(crate) peak_rss: u64,
    /// `fuel=` and `peak_memory_mib=` of the last call, from the server's log.
    pub(crate) fuel: Option<u64>,
    pub(crate) peak_linear_mib: Option<f64>,
    /// `parts=`: how many instances the last call was checked in at once.
    pub(crate) parts: Option<usize>,
    /// The result's `summary` and `verdict`.
    pub(crate) summary: Value,
    pub(crate) verdict: String,
    /// Why the result cannot be right, if it cannot (a row not accounted for).
    pub(crate) problem: Option<String>,
    /// The peers on the same file, and this project's failing rows as they
    /// report theirs (count, hash of the indexes); empty without peers.
    pub(crate) peers: Vec<crate::peers::PeerRun>,
    pub(crate) our_failing: Option<(u64, String)>,
    /// The same file with `unique` and a primary key added.
    pub(crate) keyed: KeyedRun,
    /// `inspect_dataset` on the same file.
    pub(crate) inspected: KeyedRun,
    /// `duplicate_report` on the same file.
    pub(crate) deduped: KeyedRun,
    /// The plain call with `export`, and the bytes of the files it wrote.
    pub(crate) exported: KeyedRun,
    pub(crate) exported_bytes: u64,
}

/// Another call on the same file: with contract v2's cross-row rules
/// (`data::keyed`), `inspect_dataset` (`data::inspect`), `duplicate_report`
/// (`data::deduped`), or with `export` (`data::exported`).
pub(crate) struct KeyedRun {
    pub(crate) workload: Workload,
    pub(crate) samples: Samples,
    pub(crate) peak_rss: u64,
    pub(crate) fuel: Option<u64>,
    pub(crate) peak_linear_mib: Option<f64>,
    pub(crate) summary: Value,
    pub(crate) findings_by_code: Value,
    pub(crate) verdict: String,
}

impl KeyedRun {
    fn from(workload: Workload, served: Served) -> Self {
        KeyedRun {
            fuel: logged(&served.log, "fuel=").and_then(|fuel| fuel.parse().ok()),
            peak_linear_mib: logged(&served.log, "peak_memory_mib=").and_then(|mib| mib.parse().ok()),
            // duplicate_report has no summary: its counts instead.
            summary: match &served.result["summary"] {
                Value::Null if served.result["stable_key"].is_string() => serde_json::json!({
                    "row_count": served.result["row_count"],
                    "distinct_keys": served.result["distinct_keys"],
                    "duplicate_group_count": served.result["duplicate_group_count"],
                }),
                summary => summary.clone(),
            },
            findings_by_code: served.result["findings_by_code"].clone(),
            verdict: served.result["verdict"].as_str().unwrap_or("?").to_owned(),
            samples: served.samples,
            peak_rss: served.peak_rss,
            workload,
        }
    }
}

/// `field` (`fuel=`, `peak_memory_mib=`, `parts=`) of the last call in a server's log.
fn logged(log: &str, field: &str) -> Option<String> {
    log.lines()
        .rev()
        .find(|line| line.contains("call finished"))
        .and_then(|line| line.split_whitespace().find_map(|word| word.strip_prefix(field)))
        .map(str::to_owned)
}

pub(crate) fn serve_file(
    ours: &ServerCommand,
    small: &Workload,
    work_dir: &Path,
    plan: &Plan,
    peers: Option<&crate::peers::PeersSetup>,
) -> Result<FileRun, String> {
    let dir = work_dir.join("files");
    std::fs::create_dir_all(&dir).map_err(|err| format!("{}: {err}", dir.display()))?;
    let (path, workload) = data::large_csv(plan.file_rows, &dir)
        .map_err(|err| format!("writing the CSV file in {}: {err}", dir.display()))?;
    let file_bytes = std::fs::metadata(&path).map_err(|err| format!("{}: {err}", path.display()))?.len();
    // The file's directory is the one place the server may read; the call's
    // fuel and memory are read from its log line, which is info level.
    let out_dir = work_dir.join("exports");
    std::fs::create_dir_all(&out_dir).map_err(|err| format!("{}: {err}", out_dir.display()))?;
    let args = vec![
        "--data-root".into(),
        dir.to_string_lossy().into_owned(),
        "--output-root".into(),
        out_dir.to_string_lossy().into_owned(),
        "--log".into(),
        "info".into(),
    ];
    let command = ServerCommand { args, ..ours.clone() };
    let served = serve(&command, small, &workload, plan.file_runs)?;
    crate::progress("the same file with unique and primary_key: this project over MCP");
    let keyed_workload = data::keyed(&workload);
    let keyed_served = serve(&command, small, &keyed_workload, plan.file_runs)?;
    let keyed = KeyedRun::from(keyed_workload, keyed_served);
    crate::progress("the same file profiled by inspect_dataset: this project over MCP");
    let inspect_workload = data::inspect(&workload);
    let inspect_served = serve(&command, small, &inspect_workload, plan.file_runs)?;
    let inspected = KeyedRun::from(inspect_workload, inspect_served);
    crate::progress("the same file's duplicates: this project over MCP");
    let dedupe_workload = data::deduped(&workload);
    let dedupe_served = serve(&command, small, &dedupe_workload, plan.file_runs)?;
    let deduped = KeyedRun::from(dedupe_workload, dedupe_served);
    crate::progress("the same file with export (the whole split written as files): this project over MCP");
    let export_workload = data::exported(&workload);
    let exported_served = serve(&command, small, &export_workload, plan.file_runs)?;
    let exported_bytes = exported_served.result["export"]["files"]
        .as_array()
        .map_or(0, |files| files.iter().filter_map(|file| file["bytes"].as_u64()).sum());
    let exported = KeyedRun::from(export_workload, exported_served);
    std::fs::remove_dir_all(&out_dir).map_err(|err| format!("{}: {err}", out_dir.display()))?;
    let (peers, our_failing) = match peers {
        None => (Vec::new(), None),
        Some(setup) => {
            crate::progress("the same file: the peers (Polars, DuckDB, Pandera on Polars)");
            let runs = crate::peers::run_peers(setup, &path, plan.file_runs)?;
            let args: Value =
                serde_json::from_str(&workload.args).map_err(|err| format!("the file call's arguments: {err}"))?;
            let csv = std::fs::read_to_string(&path).map_err(|err| format!("{}: {err}", path.display()))?;
            let quarantined = served.result["summary"]["quarantined"].as_u64().unwrap_or(0);
            (runs, Some(crate::peers::our_failing_rows(&args, csv, quarantined)?))
        }
    };
    std::fs::remove_file(&path).map_err(|err| format!("{}: {err}", path.display()))?;
    let summary = served.result["summary"].clone();
    let problem = [&summary, &keyed.summary]
        .into_iter()
        .find(|summary| summary["rows_in"] != workload.rows || summary["accounted_for"] != workload.rows)
        .map(|summary| format!("{} rows in the file, but a summary says {summary}", workload.rows));
    Ok(FileRun {
        file_bytes,
        fuel: logged(&served.log, "fuel=").and_then(|fuel| fuel.parse().ok()),
        peak_linear_mib: logged(&served.log, "peak_memory_mib=").and_then(|mib| mib.parse().ok()),
        parts: logged(&served.log, "parts=").and_then(|parts| parts.parse().ok()),
        verdict: served.result["verdict"].as_str().unwrap_or("?").to_owned(),
        samples: served.samples,
        response_bytes: served.response_bytes,
        peak_rss: served.peak_rss,
        summary,
        problem,
        workload,
        peers,
        our_failing,
        keyed,
        inspected,
        deduped,
        exported,
        exported_bytes,
    })
}

/// A `duplicate_report` at scale (`dedupe_data`), this project only: the
/// reference scores every near-match pair, which at these sizes takes hours.
pub(crate) struct AtScaleRun {
    pub(crate) workload: Workload,
    pub(crate) samples: Samples,
    /// `fuel=` and `peak_memory_mib=` of the last call, from the server's log.
    pub(crate) fuel: Option<u64>,
    pub(crate) peak_linear_mib: Option<f64>,
    /// Groups found (`duplicate_group_count`), or why the call failed: a
    /// limit is reported, not allowed to stop the run.
    pub(crate) outcome: Result<u64, String>,
}

/// Each of `workloads` `runs` times in one fresh server with the default
/// limits (and the log at info, for each call's fuel).
pub(crate) fn serve_at_scale(
    ours: &ServerCommand,
    small: &Workload,
    workloads: Vec<Workload>,
    runs: usize,
) -> Result<Vec<AtScaleRun>, String> {
    let command = ServerCommand { args: vec!["--log".into(), "info".into()], ..ours.clone() };
    let mut out = Vec::new();
    for workload in workloads {
        crate::progress(&format!("{}: this project over MCP", workload.label));
        let mut session = ready_session(&command, small)?;
        let mut samples = Samples::default();
        let mut outcome = Err("no runs".to_owned());
        for _ in 0..runs {
            let reply = session.call(workload.tool, &workload.args)?;
            samples.push(reply.elapsed);
            outcome =
                structured_content(&reply).map(|result| result["duplicate_group_count"].as_u64().unwrap_or_default());
            if outcome.is_err() {
                break;
            }
        }
        let log = session.stderr();
        session.close()?;
        out.push(AtScaleRun {
            fuel: logged(&log, "fuel=").and_then(|fuel| fuel.parse().ok()),
            peak_linear_mib: logged(&log, "peak_memory_mib=").and_then(|mib| mib.parse().ok()),
            workload,
            samples,
            outcome,
        });
    }
    Ok(out)
}
