//! The sandbox: every tool call in a fresh instance of the embedded module.
//!
//! Guarantees, per call:
//! - a new `Store` and instance, dropped when the call ends, so no state
//!   survives from one call to the next;
//! - no capabilities: the module gets no WASI, and every import it declares
//!   (wasm-bindgen's JS glue) is defined as a trap; the byte ABI uses none;
//! - a fuel budget, a linear-memory cap and a wall-clock deadline, each of
//!   which stops the call with a [`SandboxError`] naming the limit;
//! - cancellation: dropping or cancelling the call stops it within one epoch
//!   tick (10 ms).
//!
//! Calls run on tokio's blocking pool, one thread each, so a slow call never
//! holds up another or the protocol loop.

mod answer;
mod cache;
mod call;
mod engine;
mod limits;
mod parts;
mod slots;

use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use tokio::sync::watch;
use wasmtime::{InstancePre, Linker};

pub(crate) use answer::parse as parse_result;
pub use answer::{Answer, ArgumentError};
pub use limits::{Limits, SandboxError};

use crate::bounded::{self, StopFlag};
use crate::budget::MemoryPool;
use crate::output_files::ExportPlan;
use call::{CallState, Entry};
use slots::Slots;

/// The prepared module, or why it could not be prepared.
type Prepared = Result<Arc<InstancePre<CallState>>, String>;

/// Runs tool calls in the embedded module. Cheap to clone.
#[derive(Clone)]
pub struct Sandbox {
    limits: Limits,
    /// The engine's instance slots: one for each call that may run at
    /// once, and the extra ones of calls checked in parts.
    slots: Slots,
    /// Most parts a call is checked in at once (`parts.rs`).
    parts_per_call: usize,
    pool: MemoryPool,
    ready: watch::Receiver<Option<Prepared>>,
}

/// A successful call: the core's answer and what it cost.
#[derive(Debug)]
pub struct Outcome {
    /// What the core answered.
    pub answer: Answer,
    /// Fuel consumed, instantiation included.
    pub fuel_used: u64,
    /// Peak linear memory, in bytes.
    pub peak_memory_bytes: usize,
    /// Wall-clock time in the sandbox, instantiation included.
    pub elapsed: Duration,
    /// How many parts of its CSV text the call was checked in, each in its
    /// own instance at once (1: the whole text, or no CSV text).
    pub parts: usize,
}

/// Where the compiled module is cached.
#[derive(Debug, Clone)]
pub enum CacheDir {
    /// Neither read nor write a cache; compile at every start.
    Disabled,
    /// The platform's per-user cache directory (see `cache::default_dir`).
    Default,
    /// This directory.
    At(PathBuf),
}

impl Sandbox {
    /// Create the engine and start preparing the module in the background.
    ///
    /// Returns at once: preparing (loading the cached native code, or
    /// compiling on a cache miss) runs on its own thread, so the server can
    /// answer `initialize` and `tools/list` meanwhile. Calls wait for it.
    ///
    /// `calls_at_once` is how many calls may run at once (the server's
    /// `--max-concurrent-calls`, which its budget enforces first): the engine
    /// keeps an instance slot for each, and a call beyond them is answered
    /// [`Busy::Calls`](crate::budget::Busy::Calls).
    ///
    /// A large CSV call may be checked in parts, one instance each, at once
    /// (`parts.rs`): up to one per core by default
    /// ([`Sandbox::with_parts_per_call`], `--max-parts-per-call`). The engine keeps a slot for
    /// each extra part beside the calls' slots.
    pub fn start(limits: Limits, calls_at_once: usize, cache_dir: CacheDir) -> Result<Sandbox, String> {
        Sandbox::start_with_parts(limits, calls_at_once, crate::cli::default_max_parts_per_call(), cache_dir)
    }

    /// [`Sandbox::start`], checking a call in at most `parts_per_call` parts.
    pub(crate) fn start_with_parts(
        limits: Limits,
        calls_at_once: usize,
        parts_per_call: usize,
        cache_dir: CacheDir,
    ) -> Result<Sandbox, String> {
        let parts_per_call = parts_per_call.max(1);
        let slots = Slots::new(calls_at_once, parts_per_call - 1);
        let engine = engine::new_engine(calls_at_once.max(1) + parts_per_call - 1)
            .map_err(|err| format!("cannot configure wasmtime: {err}"))?;
        engine::start_epoch_clock(&engine).map_err(|err| format!("cannot start the epoch clock: {err}"))?;
        let (sender, ready) = watch::channel(None);
        let dir = match cache_dir {
            CacheDir::Disabled => None,
            CacheDir::Default => cache::default_dir(),
            CacheDir::At(dir) => Some(dir),
        };
        thread::Builder::new()
            .name("mcpv-prepare".to_owned())
            .spawn(move || {
                let prepared = prepare(&engine, dir.as_deref());
                if let Err(why) = &prepared {
                    tracing::error!("the WebAssembly module could not be prepared: {why}");
                }
                sender.send_replace(Some(prepared));
            })
            .map_err(|err| format!("cannot start the module preparation thread: {err}"))?;
        Ok(Sandbox { limits, slots, parts_per_call, pool: MemoryPool::unlimited(), ready })
    }

    /// Check a call in at most `parts` parts at once (1: never in parts),
    /// and at most as many as [`Sandbox::start`] kept slots for.
    #[must_use]
    pub fn with_parts_per_call(mut self, parts: usize) -> Sandbox {
        self.parts_per_call = parts.clamp(1, self.parts_per_call);
        self
    }

    /// Take every call's linear memory from `pool`, shared with whatever
    /// else the server reserves there (see `budget`). Unlimited by default.
    #[must_use]
    pub fn with_memory_pool(mut self, pool: MemoryPool) -> Sandbox {
        self.pool = pool;
        self
    }

    /// Wait until the module is prepared.
    pub async fn ready(&self) -> Result<(), SandboxError> {
        self.module().await.map(|_| ())
    }

    /// The prepared module, once it is (calls made before then wait here).
    pub async fn module(&self) -> Result<Module, SandboxError> {
        let mut ready = self.ready.clone();
        let prepared = ready
            .wait_for(Option::is_some)
            .await
            .map_err(|_| SandboxError::Unavailable("the preparation thread ended without a module".into()))?;
        match prepared.as_ref() {
            Some(Ok(pre)) => Ok(Module {
                pre: Arc::clone(pre),
                limits: self.limits,
                slots: self.slots.clone(),
                parts_per_call: self.parts_per_call,
                pool: self.pool.clone(),
            }),
            Some(Err(why)) => Err(SandboxError::Unavailable(why.clone())),
            // wait_for returns only once the value is Some.
            None => Err(SandboxError::Unavailable("the module was not prepared".into())),
        }
    }

    /// The wall-clock time a call may take, from its start.
    pub fn timeout(&self) -> Duration {
        self.limits.timeout
    }

    /// Run `tool` on `args` (JSON text of the arguments object) on the
    /// blocking pool. A result comes back as the module's JSON text.
    ///
    /// The call stops at the timeout from now, when `cancelled` resolves, or
    /// when the returned future is dropped. (The server runs [`Module::call`]
    /// inside its own blocking step instead, with the file read before it.)
    pub async fn call(
        &self,
        tool: &str,
        args: Vec<u8>,
        cancelled: impl Future<Output = ()>,
    ) -> Result<Outcome, SandboxError> {
        tokio::pin!(cancelled);
        let module = tokio::select! {
            module = self.module() => module?,
            () = &mut cancelled => return Err(SandboxError::Cancelled),
        };
        let deadline = Instant::now() + self.limits.timeout;
        let tool = tool.to_owned();
        let work = move |stop: &StopFlag| module.call(&tool, args, deadline, stop);
        bounded::run_blocking(work, deadline, self.limits.timeout, cancelled).await?
    }
}

/// A call's input for the module: the arguments' JSON text, and the CSV text
/// of a `path` file beside them. The module reads that text as the call's
/// `csv` argument (`mcpv_call_csv`), so a file is never escaped into a JSON
/// string by the host and unescaped into a copy by the module.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct CallInput {
    /// The arguments object as JSON text.
    pub args: Vec<u8>,
    /// The `csv` argument, given beside `args` (which then has no `csv`).
    pub csv: Option<String>,
    /// Where the files of the call's `export` go: the call then runs
    /// through `mcpv_call_export`, and the files are written from the
    /// module's memory before the instance is dropped.
    pub export: Option<ExportPlan>,
    /// Where the `rows` argument's array lies in `args`, when the host
    /// knows (from the arguments' outline): a large array may then be
    /// checked in parts (`parts.rs`).
    pub rows: Option<std::ops::Range<usize>>,
}

impl From<Vec<u8>> for CallInput {
    fn from(args: Vec<u8>) -> Self {
        CallInput { args, csv: None, export: None, rows: None }
    }
}

/// The prepared module and the limits every call runs under. Cheap to clone.
#[derive(Clone)]
pub struct Module {
    pre: Arc<InstancePre<CallState>>,
    limits: Limits,
    /// The engine's instance slots.
    slots: Slots,
    /// Most parts a call is checked in at once.
    parts_per_call: usize,
    pool: MemoryPool,
}

impl Module {
    /// Run `tool` on `input` (the arguments' JSON text, or a [`CallInput`]) in a fresh instance, on this thread, until
    /// `deadline` (reported as the timeout limit) or until `stop` is set
    /// (reported as cancelled; looked at once per epoch tick, 10 ms).
    pub fn call(
        &self,
        tool: &str,
        input: impl Into<CallInput>,
        deadline: Instant,
        stop: &StopFlag,
    ) -> Result<Outcome, SandboxError> {
        self.call_within(tool, input.into(), deadline, stop, self.limits)
    }

    /// The fuel a call may use.
    pub fn max_fuel(&self) -> u64 {
        self.limits.max_fuel
    }

    /// [`Module::call`] with at most `max_fuel` of the call's fuel (a call
    /// that may stop early and be run again in full: `server.rs`'s inline
    /// lane). A call checked in parts takes its whole fuel.
    pub(crate) fn call_with_fuel(
        &self,
        tool: &str,
        input: CallInput,
        deadline: Instant,
        stop: &StopFlag,
        max_fuel: u64,
    ) -> Result<Outcome, SandboxError> {
        let limits = Limits { max_fuel: max_fuel.min(self.limits.max_fuel), ..self.limits };
        self.call_within(tool, input, deadline, stop, limits)
    }

    fn call_within(
        &self,
        tool: &str,
        input: CallInput,
        deadline: Instant,
        stop: &StopFlag,
        limits: Limits,
    ) -> Result<Outcome, SandboxError> {
        let _slot = self.slots.call().map_err(SandboxError::Busy)?;
        let raw = match parts::try_in_parts(self, tool, &input, deadline, stop) {
            Some(checked_in_parts) => checked_in_parts?,
            None => call::run(self, limits, deadline, stop.clone(), tool.as_bytes(), Entry::Call(input))?,
        };
        let answer = match raw.not_written {
            Some(err) => Answer::NotWritten(err),
            None => Answer::decode(raw.status, raw.json).map_err(SandboxError::Trapped)?,
        };
        Ok(Outcome {
            answer,
            fuel_used: raw.fuel_used,
            peak_memory_bytes: raw.peak_memory_bytes,
            elapsed: raw.elapsed,
            parts: raw.parts,
        })
    }
}

/// Compile (or load) the module and pre-link it with every import a trap.
fn prepare(engine: &wasmtime::Engine, cache_dir: Option<&Path>) -> Prepared {
    let started = Instant::now();
    let (module, origin) = cache::load(engine, crate::module::BYTES, crate::module::SHA256, cache_dir)
        .map_err(|err| format!("cannot compile the module: {err}"))?;
    let mut linker = Linker::new(engine);
    // No capabilities: wasm-bindgen's JS glue imports all become traps, and
    // there is no WASI. The byte ABI (mcpv_*) never calls an import.
    linker.define_unknown_imports_as_traps(&module).map_err(|err| format!("cannot link the module: {err}"))?;
    let pre = linker.instantiate_pre(&module).map_err(|err| format!("cannot pre-instantiate the module: {err}"))?;
    for export in [
        "memory",
        "mcpv_alloc",
        "mcpv_call",
        "mcpv_call_csv",
        "mcpv_call_export",
        "mcpv_parts",
        "mcpv_call_part",
        "mcpv_merge",
    ] {
        if module.get_export(export).is_none() {
            return Err(format!("the module has no `{export}` export; is it the validation module?"));
        }
    }
    tracing::info!(
        origin = ?origin,
        elapsed_ms = started.elapsed().as_millis(),
        sha256 = crate::module::SHA256,
        "module ready"
    );
    Ok(Arc::new(pre))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::Busy;
    use serde_json::json;

    fn limits() -> Limits {
        Limits { max_fuel: 10_000_000_000, max_memory_bytes: 256 << 20, timeout: Duration::from_secs(30) }
    }

    #[test]
    fn every_import_of_the_module_is_a_function_of_the_js_glue() {
        // So `define_unknown_imports_as_traps` leaves the module nothing to
        // call: no WASI, no host function, no imported memory or table.
        let engine = engine::new_engine(1).unwrap();
        let module = wasmtime::Module::new(&engine, crate::module::BYTES).unwrap();
        let imports: Vec<_> = module.imports().collect();
        assert!(!imports.is_empty());
        for import in imports {
            assert!(
                matches!(import.ty(), wasmtime::ExternType::Func(_)),
                "{} {} is not a function",
                import.module(),
                import.name()
            );
            assert!(import.module().ends_with("_bg.js"), "unexpected import module {}", import.module());
        }
    }

    #[tokio::test(flavor = "multi_thread")]
    async fn a_call_runs_and_reports_its_cost() {
        let sandbox = Sandbox::start(limits(), 2, CacheDir::Disabled).unwrap();
        let args = json!({"rows": [{"k": "a"}, {"k": "A "}], "key": "k"}).to_string().into_bytes();
        let outcome = sandbox.call("count_distinct", args, std::future::pending()).await.unwrap();
        let Answer::Result(text) = outcome.answer else { panic!("expected a result") };
        let value = parse_result(text.as_bytes()).unwrap();
        assert_eq!(value["distinct_count"], json!(1));
        // The module's own compact text, handed on untouched.
        assert_eq!(value.to_string(), text);
        assert!(outcome.fuel_used > 0 && outcome.peak_memory_bytes > 0);
    }

    #[tokio::test(flavor = "multi_thread")]
    async fn a_cancelled_call_stops_with_cancelled() {
        let sandbox = Sandbox::start(Limits { max_fuel: u64::MAX, ..limits() }, 2, CacheDir::Disabled).unwrap();
        sandbox.ready().await.unwrap();
        // A call no filter shortens: the host tests' slow call.
        let args = conformance_support::dedupe_inputs::slow_arguments(2000).to_string();
        let started = Instant::now();
        let cancel = tokio::time::sleep(Duration::from_millis(200));
        let outcome = sandbox.call("duplicate_report", args.into_bytes(), cancel).await;
        assert_eq!(outcome.unwrap_err(), SandboxError::Cancelled);
        assert!(started.elapsed() < Duration::from_secs(3), "{:?}", started.elapsed());
    }

    #[tokio::test(flavor = "multi_thread")]
    async fn a_call_beyond_the_instance_slots_is_busy_and_the_slot_serves_again() {
        let sandbox = Sandbox::start(Limits { max_fuel: u64::MAX, ..limits() }, 1, CacheDir::Disabled).unwrap();
        let module = sandbox.module().await.unwrap();
        let later = || Instant::now() + Duration::from_secs(60);
        let stop = StopFlag::default();
        let start_slow = || {
            let (module, stop) = (module.clone(), stop.clone());
            let args = conformance_support::dedupe_inputs::slow_arguments(2000).to_string().into_bytes();
            std::thread::spawn(move || module.call("duplicate_report", args, later(), &stop))
        };
        // Two calls racing for the one slot may both be refused (each holds
        // a part of it for a moment), so a refusal counts only while the
        // slow call goes on running: then it holds the slot.
        let mut slow = start_slow();
        let started = Instant::now();
        let refused = loop {
            assert!(started.elapsed() < Duration::from_secs(30), "the slow call never held the slot");
            std::thread::sleep(Duration::from_millis(50));
            if slow.is_finished() {
                assert_eq!(slow.join().unwrap().unwrap_err(), SandboxError::Busy(Busy::Calls { limit: 1 }));
                slow = start_slow();
                continue;
            }
            if let Err(err) = module.call("nope", b"{}".to_vec(), later(), &StopFlag::never()) {
                std::thread::sleep(Duration::from_millis(50));
                if !slow.is_finished() {
                    break err;
                }
            }
        };
        assert_eq!(refused, SandboxError::Busy(Busy::Calls { limit: 1 }));
        stop.set();
        assert_eq!(slow.join().unwrap().unwrap_err(), SandboxError::Cancelled);
        // The slot is free again, and the call in it starts afresh.
        let outcome = module.call("nope", b"{}".to_vec(), later(), &StopFlag::never()).unwrap();
        let Answer::ArgumentError(err) = outcome.answer else { panic!("expected an argument error") };
        assert_eq!(err.code, "unknown_tool");
    }

    #[tokio::test(flavor = "multi_thread")]
    async fn a_slot_is_handed_to_the_next_instance_exactly_as_the_module_starts_it() {
        // One slot, so every instance below reuses the same memory. Each
        // writes over all of it (the stack below the data, the data image,
        // the heap, and pages it grows into, inside and beyond the part the
        // slot keeps resident): the next must still start from the module's
        // own initial memory, byte for byte, at its initial size. This is the
        // promise that nothing survives a call, whichever way wasmtime resets
        // the slot (a page-table scan for written pages, or memset).
        let sandbox = Sandbox::start(limits(), 1, CacheDir::Disabled).unwrap();
        let module = sandbox.module().await.unwrap();
        let engine = module.pre.module().engine().clone();
        let instance_memory = |scribble: bool| {
            let mut store = wasmtime::Store::new(&engine, call::CallState::for_test(256 << 20, &module.pool));
            let instance = module.pre.instantiate(&mut store).unwrap();
            let memory = instance.get_memory(&mut store, "memory").unwrap();
            let initial = memory.data(&store).to_vec();
            if scribble {
                memory.grow(&mut store, 64).unwrap(); // 4 MiB more
                memory.data_mut(&mut store).fill(0xA5);
            }
            initial
        };
        let pristine = instance_memory(true);
        assert!(pristine.iter().any(|byte| *byte != 0), "the module's memory has a data image");
        for round in 0..3 {
            let next = instance_memory(true);
            assert_eq!(next.len(), pristine.len(), "round {round}: the memory is back at its initial size");
            let first_difference = next.iter().zip(&pristine).position(|(a, b)| a != b);
            assert_eq!(first_difference, None, "round {round}: a byte of the last instance survived");
        }
    }

    /// A CSV text of about `bytes` bytes: an id, an amount and a date a
    /// record, every seventh record failing a rule, and among the first
    /// records some whose note is a quoted field across two lines;
    /// `middle` is put where it ends halfway through.
    fn large_csv(bytes: usize, middle: &str) -> String {
        use std::fmt::Write as _;
        let mut text = String::from("id,amount,date,note\n");
        let mut record = 0;
        let mut middle = Some(middle).filter(|middle| !middle.is_empty());
        while text.len() < bytes {
            if let Some(put) = middle.filter(|put| text.len() + put.len() / 2 >= bytes / 2) {
                text += put;
                middle = None;
            }
            record += 1;
            let amount = if record % 7 == 0 { "x".to_owned() } else { format!("{}.{}", record % 1000, record % 10) };
            let note = if record % 11 == 0 && record < 2000 { "\"two\nlines\"" } else { "plain" };
            let (month, day) = (1 + record % 12, 1 + record % 28);
            writeln!(text, "INV-{record:07},{amount},2024-{month:02}-{day:02},{note}").unwrap();
        }
        text
    }

    fn csv_call(csv: String) -> CallInput {
        let args = json!({"columns": [
            {"name": "id", "required": true, "pattern": "INV-\\d{7}"},
            {"name": "amount", "type": "number", "min": 0},
            {"name": "date", "type": "date"},
        ], "max_listed": 25});
        CallInput { args: args.to_string().into_bytes(), csv: Some(csv), export: None, rows: None }
    }

    #[tokio::test(flavor = "multi_thread")]
    async fn a_large_csv_checked_in_parts_answers_as_the_whole_text_does() {
        let sandbox = Sandbox::start_with_parts(limits(), 2, 3, CacheDir::Disabled).unwrap();
        let in_parts = sandbox.module().await.unwrap();
        let whole = sandbox.clone().with_parts_per_call(1).module().await.unwrap();
        let later = || Instant::now() + Duration::from_secs(120);
        let run = |module: &Module, csv: &str| {
            module.call("validate_rows", csv_call(csv.to_owned()), later(), &StopFlag::never()).unwrap()
        };

        // Three parts of a 6.5 MiB text, each cut just past a line break,
        // and the result of the whole text.
        let text = large_csv(13 << 19, "");
        let (parted, expected) = (run(&in_parts, &text), run(&whole, &text));
        assert_eq!((parted.parts, expected.parts), (3, 1));
        let Answer::Result(result) = &parted.answer else { panic!("{:?}", parted.answer) };
        assert!(result.contains(r#""quarantined":"#) && result.contains(r#""line":"#), "{}", &result[..300]);
        assert_eq!(parted.answer, expected.answer);

        // A quoted field of many lines across where the text is cut in two:
        // the first part ends inside quotes, refuses, and the text is
        // checked whole.
        let across = format!("INV-9999999,1,2024-01-01,\"{}\"\n", "a line\n".repeat(400_000));
        let text = large_csv(6 << 20, &across);
        let (open, halfway) = (text.find("INV-9999999").unwrap(), text.len() / 2);
        assert!(open < halfway && halfway < open + across.len(), "the long field is not across the cut");
        let two = sandbox.clone().with_parts_per_call(2).module().await.unwrap();
        let (parted, expected) = (run(&two, &text), run(&whole, &text));
        assert_eq!(parted.parts, 1, "checked whole after the refusal");
        assert_eq!(parted.answer, expected.answer);

        // A text the reader refuses (a quote never closed in the last part)
        // gets the whole text's error.
        let text = large_csv(6 << 20, "") + "INV-1,\"open\n";
        let (parted, expected) = (run(&in_parts, &text), run(&whole, &text));
        assert!(matches!(&parted.answer, Answer::ArgumentError(err) if err.message.contains("never closed")));
        assert_eq!((parted.parts, parted.answer), (1, expected.answer));
    }

    #[tokio::test(flavor = "multi_thread")]
    async fn a_large_rows_array_checked_in_parts_answers_as_the_whole_array_does() {
        use std::fmt::Write as _;
        let sandbox = Sandbox::start_with_parts(limits(), 2, 3, CacheDir::Disabled).unwrap();
        let in_parts = sandbox.module().await.unwrap();
        let whole = sandbox.clone().with_parts_per_call(1).module().await.unwrap();
        let later = || Instant::now() + Duration::from_secs(120);
        // The rows, then `middle` (a row) put halfway through, as the
        // arguments' text a client sends, prepared as the server does.
        let call = |rows: usize, middle: &str| {
            let mut text = String::from(
                r#"{"columns": [{"name": "id", "required": true, "pattern": "R-\\d+"}, {"name": "n", "type": "integer", "min": 0}], "rows": ["#,
            );
            for row in 0..rows {
                if row == rows / 2 && !middle.is_empty() {
                    write!(text, "{middle}, ").unwrap();
                }
                let n = if row % 9 == 0 { "\"x\"".to_owned() } else { (row % 500).to_string() };
                let extra = if row % 13 == 0 && row < 2000 { r#", "note": [{"a": 1}, {"b": "},{\""}]"# } else { "" };
                write!(text, r#"{{"id": "R-{row}", "n": {n}{extra}}}, "#).unwrap();
            }
            text += "17]}";
            crate::arguments::CallSettings { default_max_listed: Some(25), ..Default::default() }
                .prepare("validate_rows", &text, &StopFlag::never())
                .unwrap()
        };
        let run = |module: &Module, input: &CallInput| {
            module.call("validate_rows", input.clone(), later(), &StopFlag::never()).unwrap()
        };

        // Three parts of an 8 MiB array, and the result of the whole array.
        let input = call(250_000, "");
        assert!(input.rows.is_some() && input.args.len() > 6 << 20, "{}", input.args.len());
        let (parted, expected) = (run(&in_parts, &input), run(&whole, &input));
        assert_eq!((parted.parts, expected.parts), (3, 1));
        let Answer::Result(result) = &parted.answer else { panic!("{:?}", parted.answer) };
        assert!(result.contains(r#""rows_in":250001"#), "{}", &result[..400]);
        assert_eq!(parted.answer, expected.answer);

        // A row whose nested array of objects lies across where the array
        // is cut in two: the first part is not JSON, and the call is made whole.
        let nested = format!(r#"{{"id": "R-x", "n": 1, "note": [{}{{}}]}}"#, r#"{"a": 1}, "#.repeat(150_000));
        let input = call(50_000, &nested);
        let two = sandbox.clone().with_parts_per_call(2).module().await.unwrap();
        let (parted, expected) = (run(&two, &input), run(&whole, &input));
        assert_eq!(parted.parts, 1, "made whole after the refusal");
        assert_eq!(parted.answer, expected.answer);
    }

    #[tokio::test(flavor = "multi_thread")]
    async fn an_unknown_tool_is_the_cores_argument_error() {
        let sandbox = Sandbox::start(limits(), 2, CacheDir::Disabled).unwrap();
        let outcome = sandbox.call("nope", b"{}".to_vec(), std::future::pending()).await.unwrap();
        let Answer::ArgumentError(err) = outcome.answer else { panic!("expected an argument error") };
        assert_eq!(err.code, "unknown_tool");
    }
}
