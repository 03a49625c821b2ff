//! One tool call in one fresh instance, through the module's byte ABI.
//!
//! The ABI (wasm/src/abi.rs): `mcpv_alloc(len) -> ptr`, then
//! `mcpv_call(tool_ptr, tool_len, args_ptr, args_len) -> (ptr << 32) | len`
//! (or `mcpv_call_csv`, with a CSV text beside the arguments), whose result
//! buffer is a status byte followed by JSON. Nothing is freed:
//! the whole instance, its memory included, is dropped when the call ends, so
//! nothing a call leaves behind can reach the next one.

use std::time::{Duration, Instant};

use wasmtime::{Instance, InstancePre, Memory, PoolConcurrencyLimitError, Store, Trap, TypedFunc, UpdateDeadline};

use super::answer::{split_files, STATUS_OK, STATUS_OK_WITH_FILES};
use super::limits::{Limits, MemoryCap, SandboxError};
use super::{CallInput, Module};
use crate::bounded::StopFlag;
use crate::budget::Busy;
use crate::output_files::{ExportPlan, OutputError};

/// Everything one call's `Store` carries.
pub(crate) struct CallState {
    memory: MemoryCap,
    deadline: Instant,
    stop: StopFlag,
}

#[cfg(test)]
impl CallState {
    /// The state of a call with no deadline to speak of, for tests that
    /// instantiate the module themselves.
    pub(crate) fn for_test(max_memory_bytes: u64, pool: &super::MemoryPool) -> CallState {
        let deadline = Instant::now() + std::time::Duration::from_secs(3600);
        CallState { memory: MemoryCap::new(max_memory_bytes, pool), deadline, stop: StopFlag::never() }
    }
}

/// Why the epoch callback stopped the call.
#[derive(Debug)]
enum Interrupted {
    Deadline,
    Cancelled,
}

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Interrupted::Deadline => "deadline reached",
            Interrupted::Cancelled => "cancelled",
        })
    }
}

impl std::error::Error for Interrupted {}

/// What the module answered, and what answering cost.
#[derive(Debug)]
pub(crate) struct RawOutcome {
    /// The result buffer's status byte.
    pub(crate) status: u8,
    /// The rest of the result buffer: JSON, copied out of the module.
    pub(crate) json: Vec<u8>,
    /// Fuel consumed, instantiation included.
    pub(crate) fuel_used: u64,
    /// Largest linear memory size the instance reached, in bytes.
    pub(crate) peak_memory_bytes: usize,
    /// Wall-clock time of the call, instantiation included.
    pub(crate) elapsed: Duration,
    /// How many parts the call was checked in (1: whole).
    pub(crate) parts: usize,
    /// Why the files of the call's export could not be written, if they could not.
    pub(crate) not_written: Option<OutputError>,
}

/// Which of the module's entry points an instance runs (wasm/src/abi.rs).
pub(crate) enum Entry<'a> {
    /// `mcpv_call`, `mcpv_call_csv` or `mcpv_call_export`, as `input` asks.
    Call(CallInput),
    /// `mcpv_parts`: whether the call may be checked in parts; its answer
    /// is the outcome's status (1: yes), with no JSON.
    Parts { args: &'a [u8] },
    /// `mcpv_call_part`: one part of a CSV text (`head` for every part but
    /// the first), or, without `csv`, the part of a `rows` array `args` give.
    Part { args: &'a [u8], head: Option<&'a [u8]>, csv: Option<&'a [u8]> },
    /// `mcpv_merge`: the result from the parts' reports (a JSON array).
    Merge { args: &'a [u8], parts: &'a [u8] },
}

/// Run `tool` through `entry` in a new instance of `module`, under
/// `limits`, until `deadline`. The caller holds the instance's slot.
///
/// `stop` is polled once per epoch tick; setting it stops the call.
/// Each part of a [`CallInput`] is released as soon as it is in the module's
/// memory, so a large call does not hold two copies of its data while it runs.
pub(crate) fn run(
    module: &Module,
    limits: Limits,
    deadline: Instant,
    stop: StopFlag,
    tool: &[u8],
    entry: Entry<'_>,
) -> Result<RawOutcome, SandboxError> {
    let Module { pre, pool, slots, .. } = module;
    let calls_at_once = slots.calls_at_once();
    let started = Instant::now();
    let state = CallState { memory: MemoryCap::new(limits.max_memory_bytes, pool), deadline, stop };
    let mut store = Store::new(pre.module().engine(), state);
    store.limiter(|state| &mut state.memory);
    store.set_fuel(limits.max_fuel).map_err(|err| SandboxError::Unavailable(err.to_string()))?;
    // Checked every epoch tick: past the deadline, or stopped, the call
    // traps at the next tick; otherwise it runs on for another tick. The
    // deadline first: whoever waits on the call also sets the stop flag when
    // the deadline passes, and that is a timeout, not a cancellation.
    store.set_epoch_deadline(1);
    store.epoch_deadline_callback(|context| {
        let state = context.data();
        if Instant::now() >= state.deadline {
            Err(wasmtime::Error::new(Interrupted::Deadline))
        } else if state.stop.is_set() {
            Err(wasmtime::Error::new(Interrupted::Cancelled))
        } else {
            Ok(UpdateDeadline::Continue(1))
        }
    });

    let result = match entry {
        Entry::Call(input) => call_abi(&mut store, pre, tool, input),
        entry => call_parts_abi(&mut store, pre, tool, &entry),
    };
    let fuel_used = limits.max_fuel - store.get_fuel().unwrap_or(0);
    let memory = &store.data().memory;
    match result {
        Ok(Answered { status, json, not_written }) => Ok(RawOutcome {
            status,
            json,
            fuel_used,
            peak_memory_bytes: memory.peak_bytes,
            elapsed: started.elapsed(),
            parts: 1,
            not_written,
        }),
        Err(err) => Err(match memory.busy {
            // A growth the pool refused explains whatever failure followed it.
            Some(busy) => SandboxError::Busy(busy),
            None => classify(&err, memory.denied, limits, calls_at_once),
        }),
    }
}

/// The failures a call can meet, from most to least specific.
fn classify(err: &AbiError, memory_denied: bool, limits: Limits, calls_at_once: usize) -> SandboxError {
    match err {
        AbiError::Wasm(err) => {
            // Every instance slot taken: more calls at once than the sandbox
            // was started for (the server's budget lets no more in).
            if err.downcast_ref::<PoolConcurrencyLimitError>().is_some() {
                return SandboxError::Busy(Busy::Calls { limit: calls_at_once });
            }
            if let Some(interrupted) = err.downcast_ref::<Interrupted>() {
                return match interrupted {
                    Interrupted::Deadline => SandboxError::Timeout { limit: limits.timeout },
                    Interrupted::Cancelled => SandboxError::Cancelled,
                };
            }
            if err.downcast_ref::<Trap>() == Some(&Trap::OutOfFuel) {
                return SandboxError::OutOfFuel { limit: limits.max_fuel };
            }
            // A refused memory.grow makes Rust's allocator abort, which traps
            // as `unreachable`: that trap means the cap, not a bug.
            if memory_denied {
                return SandboxError::OutOfMemory { limit_bytes: limits.max_memory_bytes };
            }
            SandboxError::Trapped(err.downcast_ref::<Trap>().map_or_else(|| format!("{err:#}"), ToString::to_string))
        }
        AbiError::NoMemory => SandboxError::OutOfMemory { limit_bytes: limits.max_memory_bytes },
        AbiError::Broken(why) => SandboxError::Trapped(why.clone()),
    }
}

enum AbiError {
    /// A trap or instantiation error from wasmtime.
    Wasm(wasmtime::Error),
    /// `mcpv_alloc` returned 0: the input does not fit under the memory cap.
    NoMemory,
    /// The module broke the ABI (missing export, out-of-bounds result).
    Broken(String),
}

impl From<wasmtime::Error> for AbiError {
    fn from(err: wasmtime::Error) -> Self {
        AbiError::Wasm(err)
    }
}

/// `mcpv_call_part(tool_ptr, tool_len, args_ptr, args_len, head_ptr, head_len, kind, csv_ptr, csv_len)`.
type PartCall = TypedFunc<(u32, u32, u32, u32, u32, u32, u32, u32, u32), u64>;

/// `mcpv_call_export(tool_ptr, tool_len, args_ptr, args_len, csv_ptr, csv_len, csv_given)`.
type ExportCall = TypedFunc<(u32, u32, u32, u32, u32, u32, u32), u64>;

/// What the module's result buffer held, once any files it handed over are written.
struct Answered {
    status: u8,
    json: Vec<u8>,
    not_written: Option<OutputError>,
}

/// A fresh instance, its memory and its `mcpv_alloc`.
fn instantiate(
    store: &mut Store<CallState>,
    pre: &InstancePre<CallState>,
) -> Result<(Instance, Memory, TypedFunc<u32, u32>), AbiError> {
    let instance = pre.instantiate(&mut *store)?;
    let memory =
        instance.get_memory(&mut *store, "memory").ok_or_else(|| AbiError::Broken("no exported memory".into()))?;
    let alloc: TypedFunc<u32, u32> = instance.get_typed_func(&mut *store, "mcpv_alloc")?;
    advise_huge_pages(store, &memory);
    Ok((instance, memory, alloc))
}

fn call_abi(
    store: &mut Store<CallState>,
    pre: &InstancePre<CallState>,
    tool: &[u8],
    input: CallInput,
) -> Result<Answered, AbiError> {
    let (instance, memory, alloc) = instantiate(store, pre)?;

    let CallInput { args, csv, export, .. } = input;
    let tool_ptr = write_input(store, &memory, &alloc, tool)?;
    let args_ptr = write_input(store, &memory, &alloc, &args)?;
    let args_len = len32(&args)?;
    drop(args);
    let packed = match csv {
        _ if export.is_some() => {
            let call: ExportCall = instance.get_typed_func(&mut *store, "mcpv_call_export")?;
            let (csv_ptr, csv_len, csv_given) = match csv {
                Some(csv) => (write_input(store, &memory, &alloc, csv.as_bytes())?, len32(csv.as_bytes())?, 1),
                None => (0, 0, 0),
            };
            call.call(&mut *store, (tool_ptr, len32(tool)?, args_ptr, args_len, csv_ptr, csv_len, csv_given))?
        }
        None => {
            let call: TypedFunc<(u32, u32, u32, u32), u64> = instance.get_typed_func(&mut *store, "mcpv_call")?;
            call.call(&mut *store, (tool_ptr, len32(tool)?, args_ptr, args_len))?
        }
        Some(csv) => {
            let call: TypedFunc<(u32, u32, u32, u32, u32, u32), u64> =
                instance.get_typed_func(&mut *store, "mcpv_call_csv")?;
            let csv_ptr = write_input(store, &memory, &alloc, csv.as_bytes())?;
            let csv_len = len32(csv.as_bytes())?;
            drop(csv);
            call.call(&mut *store, (tool_ptr, len32(tool)?, args_ptr, args_len, csv_ptr, csv_len))?
        }
    };
    let data = memory.data(&*store);
    let (status, body) = result_buffer(data, packed)?;
    if status != STATUS_OK_WITH_FILES {
        return Ok(Answered { status, json: body.to_vec(), not_written: None });
    }
    let (spans, json) = split_files(body).map_err(AbiError::Broken)?;
    let Some(ExportPlan::To(target)) = export else {
        return Err(AbiError::Broken("the module handed over files the call did not ask for".into()));
    };
    // Written from the module's memory, where the files are: the split is
    // never copied out whole.
    let mut files = Vec::with_capacity(spans.len());
    for [name, bytes] in spans {
        let (Some(name), Some(bytes)) = (data.get(name), data.get(bytes)) else {
            return Err(AbiError::Broken("a file's span lies outside linear memory".into()));
        };
        let name = std::str::from_utf8(name).map_err(|_| AbiError::Broken("a file name is not UTF-8".into()))?;
        files.push((name, bytes));
    }
    let not_written = target.write_all(&files).err();
    Ok(Answered { status: STATUS_OK, json: json.to_vec(), not_written })
}

/// The status and body of the result buffer at `packed` (`(ptr << 32) |
/// len`) in `data`, the linear memory as it is after the call (it may have
/// grown during it, so it is read afresh).
fn result_buffer(data: &[u8], packed: u64) -> Result<(u8, &[u8]), AbiError> {
    let (ptr, len) = ((packed >> 32) as usize, (packed & 0xffff_ffff) as usize);
    let end = ptr.checked_add(len).filter(|end| *end <= data.len()).ok_or_else(|| {
        AbiError::Broken(format!("result buffer {ptr}+{len} lies outside linear memory of {} bytes", data.len()))
    })?;
    // Only the JSON is copied out: the status byte stays behind, so the text
    // needs no second move to drop it.
    super::answer::split_status(&data[ptr..end]).map_err(AbiError::Broken)
}

/// The entry points of a call checked in parts (see `parts.rs`).
fn call_parts_abi(
    store: &mut Store<CallState>,
    pre: &InstancePre<CallState>,
    tool: &[u8],
    entry: &Entry<'_>,
) -> Result<Answered, AbiError> {
    let (instance, memory, alloc) = instantiate(store, pre)?;
    let tool_ptr = write_input(store, &memory, &alloc, tool)?;
    let tool = (tool_ptr, len32(tool)?);
    let write = |store: &mut Store<CallState>, bytes: &[u8]| -> Result<(u32, u32), AbiError> {
        Ok((write_input(store, &memory, &alloc, bytes)?, len32(bytes)?))
    };
    let packed = match *entry {
        Entry::Call(_) => return Err(AbiError::Broken("a whole call is not a call in parts".into())),
        Entry::Parts { args } => {
            let args = write(store, args)?;
            let call: TypedFunc<(u32, u32, u32, u32), u32> = instance.get_typed_func(&mut *store, "mcpv_parts")?;
            let answer = call.call(&mut *store, (tool.0, tool.1, args.0, args.1))?;
            return Ok(Answered { status: u8::from(answer == 1), json: Vec::new(), not_written: None });
        }
        Entry::Part { args, head, csv } => {
            let args = write(store, args)?;
            // The part's kind (wasm/src/abi.rs): a CSV text's start, CSV
            // records after a head, or rows in the arguments.
            let (head, kind) = match (head, csv) {
                (_, None) => ((0, 0), 2),
                (Some(head), Some(_)) => (write(store, head)?, 1),
                (None, Some(_)) => ((0, 0), 0),
            };
            let csv = match csv {
                Some(csv) => write(store, csv)?,
                None => (0, 0),
            };
            let call: PartCall = instance.get_typed_func(&mut *store, "mcpv_call_part")?;
            call.call(&mut *store, (tool.0, tool.1, args.0, args.1, head.0, head.1, kind, csv.0, csv.1))?
        }
        Entry::Merge { args, parts } => {
            let args = write(store, args)?;
            let parts = write(store, parts)?;
            let call: TypedFunc<(u32, u32, u32, u32, u32, u32), u64> =
                instance.get_typed_func(&mut *store, "mcpv_merge")?;
            call.call(&mut *store, (tool.0, tool.1, args.0, args.1, parts.0, parts.1))?
        }
    };
    let (status, body) = result_buffer(memory.data(&*store), packed)?;
    Ok(Answered { status, json: body.to_vec(), not_written: None })
}

/// Ask the kernel to back the part of linear memory a call can grow into
/// with transparent huge pages, where the system leaves that to the program
/// (`/sys/kernel/mm/transparent_hugepage/enabled` set to `madvise`).
///
/// Past the start its slot keeps resident (`engine.rs`), every page a call
/// uses faults once; a large call (a 40 MB CSV, 100,000 JSON rows) touches
/// tens of thousands of 4 KiB pages, a few dozen 2 MiB ones. The memory the
/// instance starts with is left alone: a small call then pays nothing more.
/// Advice only: whatever the kernel answers, the call runs the same.
fn advise_huge_pages(store: &Store<CallState>, memory: &Memory) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        // A 32-bit memory lies in a reservation of 4 GiB (wasmtime's default
        // on 64-bit hosts), so nothing past its base + 4 GiB is advised.
        const RESERVATION: usize = 4 << 30;
        let base = memory.data_ptr(store) as usize;
        let start = (base + memory.data_size(store)).next_multiple_of(HUGE);
        let cap = store.data().memory.max_bytes().min(RESERVATION);
        let end = (base + cap) / HUGE * HUGE;
        if start < end {
            // SAFETY: madvise changes no memory contents; the range lies in
            // this instance's own linear-memory reservation, which outlives
            // the call.
            unsafe { libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (store, memory);
}

fn len32(bytes: &[u8]) -> Result<u32, AbiError> {
    // Anything near 4 GiB cannot fit a 32-bit linear memory anyway.
    u32::try_from(bytes.len()).map_err(|_| AbiError::NoMemory)
}

fn write_input(
    store: &mut Store<CallState>,
    memory: &Memory,
    alloc: &TypedFunc<u32, u32>,
    bytes: &[u8],
) -> Result<u32, AbiError> {
    let ptr = alloc.call(&mut *store, len32(bytes)?)?;
    if ptr == 0 {
        return Err(AbiError::NoMemory);
    }
    memory
        .write(&mut *store, ptr as usize, bytes)
        .map_err(|_| AbiError::Broken(format!("mcpv_alloc returned {ptr}, outside linear memory")))?;
    Ok(ptr)
}
