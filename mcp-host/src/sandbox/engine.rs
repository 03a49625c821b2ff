//! The one wasmtime `Engine` and its epoch clock.
//!
//! The compiled-module cache is only valid for the exact compilation
//! settings that produced it, so none of those depends on a flag. The one
//! setting that does, how many instances the pool holds (one per call that
//! may run at once), is not a compilation setting: it leaves the cache key
//! as it is (tested in `cache.rs`). Limits that vary per call (fuel, memory,
//! deadline) are per-`Store` settings instead.
//!
//! Instances come from wasmtime's pooling allocator: one slot per call that
//! may run at once, its address space reserved when the engine is made. A
//! call still gets a fresh instance, its memory as the module starts it (the
//! slot is reset when the previous instance is dropped); what it no longer
//! pays for is mapping a memory and a table, and, for the first
//! [`MEMORY_KEPT_RESIDENT`] bytes, a page fault per page: those pages stay
//! mapped and are zeroed by `memset` instead of being handed back to the
//! kernel. That was about a third of a small call's time in the sandbox.
//!
//! Where Linux has the `PAGEMAP_SCAN` ioctl (6.7 and later), the reset asks
//! the kernel which of those pages are mapped and written, and restores only
//! them; elsewhere it rewrites the whole kept region. Without the scan, the
//! first reset wrote all 1.6 MiB of the module's initial memory (a 1 MiB
//! stack of which a small call uses a few pages, and the data image), which
//! made every page resident and rewritten by every later reset: about a
//! fifth of a small call (`perf`, the 12-movement reconcile in `call_wasm`:
//! 114 µs a call before, 90 µs after, the reset included).

use std::thread;
use std::time::Duration;

use wasmtime::{Config, Enabled, Engine, InstanceAllocationStrategy, OptLevel, PoolingAllocationConfig};

/// How often the epoch advances. A deadline or a cancellation is noticed
/// within one tick of it happening; 10 ms keeps that prompt at a cost too
/// small to measure (one atomic increment per tick).
pub(crate) const EPOCH_TICK: Duration = Duration::from_millis(10);

/// How much of each slot's linear memory stays mapped between calls: the
/// module's initial memory (2.5 MiB: its stack, its data, and the region a
/// small call allocates in without growing memory, `wasm/src/arena.rs`) and
/// a medium call's growth past it. At most this much per slot is resident
/// while the server is idle.
const MEMORY_KEPT_RESIDENT: usize = 4 << 20;

/// The same for each slot's tables (the module's two have under 2,000
/// entries of 8 bytes).
const TABLE_KEPT_RESIDENT: usize = 64 << 10;

/// Entries a slot's table may have. The module's largest table has 732; a
/// module with more fails to prepare, loudly, in every test.
const TABLE_ELEMENTS: usize = 1 << 14;

/// Memories a call takes from the pool (see [`instance_pool`]).
const MEMORIES_PER_CALL: u32 = 2;

/// Tables a module may define: wasm-bindgen's output has two (functions
/// and its `externref` table).
const TABLES_PER_MODULE: u32 = 2;

/// Build the engine every call runs on, with a slot for each of
/// `calls_at_once` calls (at least one).
pub(crate) fn new_engine(calls_at_once: usize) -> wasmtime::Result<Engine> {
    let mut config = Config::new();
    // wasm-bindgen 0.2.130 output declares reference-typed tables and globals
    // with the typed-reference encodings, which wasmtime validates only with
    // these two proposals on; the byte ABI itself never touches a reference.
    config.wasm_function_references(true);
    config.wasm_gc(true);
    // Deterministic CPU budget per call.
    config.consume_fuel(true);
    // Wall-clock deadline and cancellation, checked once per epoch tick.
    config.epoch_interruption(true);
    config.cranelift_opt_level(OptLevel::Speed);
    config.allocation_strategy(InstanceAllocationStrategy::Pooling(instance_pool(calls_at_once)));
    // scripts/profile-wasm.sh: perf names the module's functions.
    #[cfg(feature = "jitdump")]
    config.profiler(wasmtime::ProfilingStrategy::JitDump);
    Engine::new(&config)
}

/// The pool of instance slots: per call at once, one instance, its two
/// tables and two memories (its linear memory, and the GC heap wasmtime
/// gives each store once `wasm_gc` is on, which comes from the same pool:
/// with one memory per call, no call can start). Each memory slot keeps
/// wasmtime's default reservation (4 GiB of address space, the whole 32-bit
/// range, so no access needs a bounds check); the per-call memory cap is
/// the `Store`'s limiter.
fn instance_pool(calls_at_once: usize) -> PoolingAllocationConfig {
    let slots = u32::try_from(calls_at_once.max(1)).unwrap_or(u32::MAX);
    let mut pool = PoolingAllocationConfig::new();
    pool.total_core_instances(slots)
        .total_memories(slots.saturating_mul(MEMORIES_PER_CALL))
        .total_tables(slots.saturating_mul(TABLES_PER_MODULE))
        .max_tables_per_module(TABLES_PER_MODULE)
        .table_elements(TABLE_ELEMENTS)
        .total_gc_heaps(slots)
        .linear_memory_keep_resident(MEMORY_KEPT_RESIDENT)
        .table_keep_resident(TABLE_KEPT_RESIDENT)
        .pagemap_scan(Enabled::Auto);
    pool
}

/// Advance `engine`'s epoch every [`EPOCH_TICK`] for the life of the process.
///
/// One detached thread does it; it holds only an `Engine` handle and sleeps
/// between ticks. Every running call's epoch callback then checks its own
/// deadline and cancellation flag.
pub(crate) fn start_epoch_clock(engine: &Engine) -> std::io::Result<()> {
    let engine = engine.clone();
    thread::Builder::new().name("mcpv-epoch".to_owned()).spawn(move || loop {
        thread::sleep(EPOCH_TICK);
        engine.increment_epoch();
    })?;
    Ok(())
}
