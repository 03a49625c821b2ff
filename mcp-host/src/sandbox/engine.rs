//! The one wasmtime `Engine` and its epoch clock.
//!
//! Configuration is fixed: the compiled-module cache is only valid for the
//! exact configuration that produced it, so nothing here depends on a flag.
//! Limits that vary (fuel, memory, deadline) are per-`Store` settings instead.

use std::thread;
use std::time::Duration;

use wasmtime::{Config, Engine, OptLevel};

/// How often the epoch advances. A deadline or a cancellation is noticed
/// within one tick of it happening; 10 ms keeps that prompt at a cost too
/// small to measure (one atomic increment per tick).
pub(crate) const EPOCH_TICK: Duration = Duration::from_millis(10);

/// Build the engine every call runs on.
pub(crate) fn new_engine() -> wasmtime::Result<Engine> {
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
    Engine::new(&config)
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
