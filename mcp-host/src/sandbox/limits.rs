//! The per-call limits and what a call that hits one reports.
//!
//! Messages are short and stable: clients and tests match on them, and each
//! names the limit, its value and the flag and environment variable that
//! raise it, so the person reading the error knows what to change.

use std::fmt;
use std::time::Duration;

use crate::budget::{Busy, MemoryPool, Reservation};

/// The bounds every call runs under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Fuel units the call may consume.
    pub max_fuel: u64,
    /// Bytes of linear memory the instance may grow to.
    pub max_memory_bytes: u64,
    /// Wall-clock time from the start of the call (instantiation included).
    pub timeout: Duration,
}

/// Why a call produced no result from the module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SandboxError {
    /// The fuel budget ran out.
    OutOfFuel {
        /// The budget, in fuel units.
        limit: u64,
    },
    /// The instance needed more linear memory than allowed.
    OutOfMemory {
        /// The cap, in bytes.
        limit_bytes: u64,
    },
    /// The wall-clock deadline passed.
    Timeout {
        /// The deadline.
        limit: Duration,
    },
    /// The client cancelled the request (or went away).
    Cancelled,
    /// The module trapped for another reason: a bug in the core, or a module
    /// that does not follow the byte ABI. Carries wasmtime's description.
    Trapped(String),
    /// The module could not be compiled or instantiated at all.
    Unavailable(String),
    /// The server-wide budget had no room for the call (see `budget`).
    Busy(Busy),
}

impl SandboxError {
    /// A stable machine-readable name for the failure (`_meta` and logs).
    pub fn code(&self) -> &'static str {
        match self {
            SandboxError::OutOfFuel { .. } => "out_of_fuel",
            SandboxError::OutOfMemory { .. } => "out_of_memory",
            SandboxError::Timeout { .. } => "timeout",
            SandboxError::Cancelled => "cancelled",
            SandboxError::Trapped(_) => "trapped",
            SandboxError::Unavailable(_) => "unavailable",
            SandboxError::Busy(_) => "busy",
        }
    }

    /// The command-line flag that raises the limit this error is about.
    pub fn flag(&self) -> Option<&'static str> {
        match self {
            SandboxError::OutOfFuel { .. } => Some("--max-fuel"),
            SandboxError::OutOfMemory { .. } => Some("--max-memory-mib"),
            SandboxError::Timeout { .. } => Some("--timeout-secs"),
            SandboxError::Busy(busy) => Some(busy.flag()),
            _ => None,
        }
    }
}

impl fmt::Display for SandboxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SandboxError::OutOfFuel { limit } => write!(
                f,
                "the call ran out of fuel (limit {limit} units); the server's operator can raise it with --max-fuel or MCP_VALIDATION_MAX_FUEL"
            ),
            SandboxError::OutOfMemory { limit_bytes } => write!(
                f,
                "the call ran out of memory (limit {} MiB); the server's operator can raise it with --max-memory-mib or MCP_VALIDATION_MAX_MEMORY_MIB",
                limit_bytes / (1024 * 1024)
            ),
            SandboxError::Timeout { limit } => write!(
                f,
                "the call ran out of time (limit {} s); the server's operator can raise it with --timeout-secs or MCP_VALIDATION_TIMEOUT_SECS",
                limit.as_secs()
            ),
            SandboxError::Cancelled => f.write_str("the call was cancelled"),
            SandboxError::Trapped(trap) => write!(
                f,
                "the WebAssembly module stopped with an error ({trap}); this is a bug in mcp-validation-server"
            ),
            SandboxError::Unavailable(why) => write!(f, "the WebAssembly module could not be loaded ({why})"),
            SandboxError::Busy(busy) => busy.fmt(f),
        }
    }
}

impl std::error::Error for SandboxError {}

/// Caps one instance's linear memory, and remembers whether it said no.
///
/// Refusing a `memory.grow` (rather than trapping in the limiter) lets the
/// module's allocator see the failure the way it would on any full machine;
/// the Rust allocator then aborts, which traps, and `denied` tells the host
/// that the trap means "out of memory" and not "bug".
///
/// Each growth is also taken from the server's [`MemoryPool`], held until
/// the instance is dropped; when the pool has no room, `busy` says so, and
/// the call is answered busy rather than out of memory (it would fit alone).
#[derive(Debug)]
pub(crate) struct MemoryCap {
    limit_bytes: usize,
    /// Set once a growth beyond the cap was refused.
    pub(crate) denied: bool,
    /// Set once a growth within the cap was refused for want of room in the pool.
    pub(crate) busy: Option<Busy>,
    /// The largest linear memory size granted, for measurements.
    pub(crate) peak_bytes: usize,
    reserved: Reservation,
}

impl MemoryCap {
    pub(crate) fn new(limit_bytes: u64, pool: &MemoryPool) -> Self {
        MemoryCap {
            limit_bytes: usize::try_from(limit_bytes).unwrap_or(usize::MAX),
            denied: false,
            busy: None,
            peak_bytes: 0,
            reserved: pool.empty(),
        }
    }

    /// The most linear memory a call may have.
    pub(crate) fn max_bytes(&self) -> usize {
        self.limit_bytes
    }
}

/// Table elements allowed per table. The module's only tables are
/// wasm-bindgen's function and externref tables, which the byte ABI never
/// grows; this only stops a runaway growth from reaching host memory.
const MAX_TABLE_ELEMENTS: usize = 100_000;

impl wasmtime::ResourceLimiter for MemoryCap {
    fn memory_growing(&mut self, current: usize, desired: usize, _maximum: Option<usize>) -> wasmtime::Result<bool> {
        if desired > self.limit_bytes {
            self.denied = true;
            return Ok(false);
        }
        if let Err(busy) = self.reserved.try_grow(desired.saturating_sub(current) as u64) {
            self.busy = Some(busy);
            return Ok(false);
        }
        self.peak_bytes = self.peak_bytes.max(desired);
        Ok(true)
    }

    fn table_growing(&mut self, _current: usize, desired: usize, _maximum: Option<usize>) -> wasmtime::Result<bool> {
        Ok(desired <= MAX_TABLE_ELEMENTS)
    }

    // One instance per store: a call never creates a second one.
    fn instances(&self) -> usize {
        1
    }

    fn memories(&self) -> usize {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_limit_message_names_its_flag_and_environment_variable() {
        let cases = [
            (SandboxError::OutOfFuel { limit: 5 }, "--max-fuel", "MCP_VALIDATION_MAX_FUEL"),
            (SandboxError::OutOfMemory { limit_bytes: 64 << 20 }, "--max-memory-mib", "MCP_VALIDATION_MAX_MEMORY_MIB"),
            (SandboxError::Timeout { limit: Duration::from_secs(3) }, "--timeout-secs", "MCP_VALIDATION_TIMEOUT_SECS"),
        ];
        for (error, flag, env) in cases {
            let text = error.to_string();
            assert!(text.contains(flag) && text.contains(env), "{text}");
            assert_eq!(error.flag(), Some(flag));
        }
        assert_eq!(
            SandboxError::OutOfFuel { limit: 20_000_000_000 }.to_string(),
            "the call ran out of fuel (limit 20000000000 units); the server's operator can raise it with --max-fuel or MCP_VALIDATION_MAX_FUEL"
        );
        assert!(SandboxError::OutOfMemory { limit_bytes: 64 << 20 }.to_string().contains("limit 64 MiB"));
        assert!(SandboxError::Timeout { limit: Duration::from_secs(3) }.to_string().contains("limit 3 s"));
    }

    #[test]
    fn the_memory_cap_refuses_growth_past_the_limit_and_remembers() {
        use wasmtime::ResourceLimiter as _;
        let mut cap = MemoryCap::new(1 << 20, &MemoryPool::unlimited());
        assert!(cap.memory_growing(0, 1 << 20, None).unwrap());
        assert!(!cap.denied);
        assert!(!cap.memory_growing(1 << 20, (1 << 20) + 65536, None).unwrap());
        assert!(cap.denied);
        assert_eq!(cap.peak_bytes, 1 << 20);
    }

    #[test]
    fn growth_within_the_cap_is_refused_as_busy_when_the_pool_is_spent_and_returned_on_drop() {
        use wasmtime::ResourceLimiter as _;
        let pool = MemoryPool::new(2 << 20);
        let mut first = MemoryCap::new(2 << 20, &pool);
        assert!(first.memory_growing(0, 1536 << 10, None).unwrap());
        let mut second = MemoryCap::new(2 << 20, &pool);
        assert!(!second.memory_growing(0, 1 << 20, None).unwrap());
        assert_eq!((second.busy, second.denied), (Some(Busy::Memory { limit_bytes: 2 << 20 }), false));
        // Only the growth is taken: 1.5 MiB to 2 MiB needs 0.5 MiB more.
        assert!(first.memory_growing(1536 << 10, 2 << 20, None).unwrap());
        drop(first);
        let mut third = MemoryCap::new(2 << 20, &pool);
        assert!(third.memory_growing(0, 2 << 20, None).unwrap(), "the dropped instance's bytes came back");
    }
}
