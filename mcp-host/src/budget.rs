//! The server-wide budget every tool call runs within, on both transports:
//! how many calls run at once, and how many bytes they may hold together.
//!
//! The bytes are counted where a call's memory is: the arguments' text the
//! host holds (and, over HTTP, the body it buffers before the call), and the
//! module's linear memory, reserved page by page as it grows (see
//! `sandbox::limits::MemoryCap`). Without this, each call was bounded on its
//! own but six large ones at once passed 12 GiB.
//!
//! A call that cannot get a slot or its bytes waits a little (a short queue
//! absorbs bursts), then is answered busy: an `isError` result that tells
//! the client to retry, never an out-of-memory abort of the whole process.

use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore, TryAcquireError};

/// Bytes are reserved in units of this many (tokio's semaphore counts in
/// `u32`, and a KiB unit keeps 4 TiB within it).
const UNIT: u64 = 1024;

/// Why a call was not run now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Busy {
    /// Every call slot was taken for the whole wait.
    Calls {
        /// `--max-concurrent-calls`.
        limit: usize,
    },
    /// The calls running hold the whole memory budget.
    Memory {
        /// `--max-total-memory-mib`, in bytes.
        limit_bytes: u64,
    },
}

impl Busy {
    /// The flag that sets the limit that was reached.
    pub fn flag(&self) -> &'static str {
        match self {
            Busy::Calls { .. } => "--max-concurrent-calls",
            Busy::Memory { .. } => "--max-total-memory-mib",
        }
    }

    /// The limit, as the flag takes it (calls, or MiB).
    pub fn limit(&self) -> u64 {
        match self {
            Busy::Calls { limit } => *limit as u64,
            Busy::Memory { limit_bytes } => limit_bytes >> 20,
        }
    }
}

impl fmt::Display for Busy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Said to the model as well as to the operator: what happened, that
        // the call itself is fine, and what to do.
        match self {
            Busy::Calls { limit } => write!(
                f,
                "the server is busy: it is already running {limit} calls, its limit (--max-concurrent-calls); \
                 nothing is wrong with this call, retry it in a few seconds"
            ),
            Busy::Memory { limit_bytes } => write!(
                f,
                "the server is busy: the calls running now hold its whole memory budget ({} MiB, \
                 --max-total-memory-mib); nothing is wrong with this call, retry it in a few seconds",
                limit_bytes >> 20
            ),
        }
    }
}

/// The server's bytes: one pool every call's reservations come out of.
/// Cheap to clone.
#[derive(Clone, Debug)]
pub struct MemoryPool {
    units: Arc<Semaphore>,
    limit_bytes: u64,
}

/// Bytes taken from a [`MemoryPool`]; they go back when this is dropped.
#[derive(Debug)]
pub struct Reservation {
    permit: Option<OwnedSemaphorePermit>,
    pool: MemoryPool,
}

impl MemoryPool {
    /// A pool of `limit_bytes`.
    pub fn new(limit_bytes: u64) -> MemoryPool {
        let units = usize::try_from(limit_bytes.div_ceil(UNIT)).unwrap_or(usize::MAX).min(Semaphore::MAX_PERMITS);
        MemoryPool { units: Arc::new(Semaphore::new(units)), limit_bytes }
    }

    /// A pool nothing runs out of (library use and tests with no budget).
    pub fn unlimited() -> MemoryPool {
        MemoryPool::new(u64::MAX)
    }

    /// The pool's size.
    pub fn limit_bytes(&self) -> u64 {
        self.limit_bytes
    }

    /// An empty reservation, to grow with [`Reservation::try_grow`].
    pub fn empty(&self) -> Reservation {
        Reservation { permit: None, pool: self.clone() }
    }

    /// Take `bytes` now, or say why not.
    pub fn try_reserve(&self, bytes: u64) -> Result<Reservation, Busy> {
        let mut reservation = self.empty();
        reservation.try_grow(bytes)?;
        Ok(reservation)
    }

    /// Take `bytes`, waiting up to `wait` for other calls to give them back.
    pub async fn reserve(&self, bytes: u64, wait: Duration) -> Result<Reservation, Busy> {
        let busy = Busy::Memory { limit_bytes: self.limit_bytes };
        let units = u32::try_from(bytes.div_ceil(UNIT)).map_err(|_| busy)?;
        if u64::from(units) > self.units_total() {
            // More than the whole pool: waiting would never help.
            return Err(busy);
        }
        match tokio::time::timeout(wait, Arc::clone(&self.units).acquire_many_owned(units)).await {
            Ok(Ok(permit)) => Ok(Reservation { permit: Some(permit), pool: self.clone() }),
            // Timed out (the semaphore is never closed).
            _ => Err(busy),
        }
    }

    fn units_total(&self) -> u64 {
        self.limit_bytes.div_ceil(UNIT)
    }
}

impl Reservation {
    /// Take `bytes` more now (no waiting: the caller is a running call,
    /// which must not sit on what it holds while it waits for more).
    pub fn try_grow(&mut self, bytes: u64) -> Result<(), Busy> {
        let busy = Busy::Memory { limit_bytes: self.pool.limit_bytes };
        let units = u32::try_from(bytes.div_ceil(UNIT)).map_err(|_| busy)?;
        if units == 0 {
            return Ok(());
        }
        let more = match Arc::clone(&self.pool.units).try_acquire_many_owned(units) {
            Ok(permit) => permit,
            Err(TryAcquireError::NoPermits | TryAcquireError::Closed) => return Err(busy),
        };
        match &mut self.permit {
            Some(permit) => permit.merge(more),
            None => self.permit = Some(more),
        }
        Ok(())
    }

    /// The bytes held (rounded up to whole KiB).
    pub fn bytes(&self) -> u64 {
        self.permit.as_ref().map_or(0, |permit| permit.num_permits() as u64 * UNIT)
    }
}

/// A reservation handed from the HTTP transport, which reserved a body's
/// bytes before reading it, to the call those bytes become (a request's
/// extensions must be `Clone`, hence the shared slot; the first taker gets it).
#[derive(Clone, Debug)]
pub struct HeldReservation(Arc<Mutex<Option<Reservation>>>);

impl HeldReservation {
    /// Hold `reservation` for whoever takes it.
    pub fn new(reservation: Reservation) -> HeldReservation {
        HeldReservation(Arc::new(Mutex::new(Some(reservation))))
    }

    /// The reservation, unless it was taken already.
    pub fn take(&self) -> Option<Reservation> {
        self.0.lock().ok()?.take()
    }
}

/// The whole budget: call slots, the memory pool, and how long a call waits
/// for either before it is answered busy. Cheap to clone.
#[derive(Clone, Debug)]
pub struct CallBudget {
    slots: Arc<Semaphore>,
    max_calls: usize,
    memory: MemoryPool,
    wait: Duration,
}

/// A running call's slot; freed when dropped.
#[derive(Debug)]
pub struct Slot(#[allow(dead_code)] OwnedSemaphorePermit);

impl CallBudget {
    /// `max_calls` at once, `memory` between them, `wait` before "busy".
    pub fn new(max_calls: usize, memory: MemoryPool, wait: Duration) -> CallBudget {
        let max_calls = max_calls.clamp(1, Semaphore::MAX_PERMITS);
        CallBudget { slots: Arc::new(Semaphore::new(max_calls)), max_calls, memory, wait }
    }

    /// No limits (library use).
    pub fn unlimited() -> CallBudget {
        CallBudget::new(Semaphore::MAX_PERMITS, MemoryPool::unlimited(), Duration::ZERO)
    }

    /// The memory pool calls reserve from.
    pub fn memory(&self) -> &MemoryPool {
        &self.memory
    }

    /// How long a call waits for a slot or for memory.
    pub fn wait(&self) -> Duration {
        self.wait
    }

    /// A call slot, waiting up to the budget's wait for one to free.
    pub async fn slot(&self) -> Result<Slot, Busy> {
        let busy = Busy::Calls { limit: self.max_calls };
        match tokio::time::timeout(self.wait, Arc::clone(&self.slots).acquire_owned()).await {
            Ok(Ok(permit)) => Ok(Slot(permit)),
            _ => Err(busy),
        }
    }
}

/// Give the memory a large call freed back to the operating system.
///
/// glibc keeps freed heap memory for reuse; after a call that held tens of
/// MiB of small allocations (the arguments cut apart, the result rendered),
/// the process stayed that size while idle. `malloc_trim` returns the free
/// pages. Elsewhere the allocator decides, and this does nothing.
pub fn release_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks the allocator's own free lists, under
    // its lock; it takes no pointer and is safe to call from any thread.
    #[allow(unsafe_code)]
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Bytes of memory this machine (or its container) has, if it can be read.
pub fn physical_memory_bytes() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kib: u64 = meminfo
        .lines()
        .find_map(|line| line.strip_prefix("MemTotal:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    let total = kib * 1024;
    // A container's limit (cgroup v2) is what an OOM kill is measured against.
    let cgroup = std::fs::read_to_string("/sys/fs/cgroup/memory.max").ok().and_then(|text| text.trim().parse().ok());
    Some(cgroup.map_or(total, |limit: u64| limit.min(total)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pool_gives_out_no_more_than_it_has_and_takes_back_what_is_dropped() {
        let pool = MemoryPool::new(1 << 20);
        let first = pool.try_reserve(700 << 10).unwrap();
        assert_eq!(first.bytes(), 700 << 10);
        assert_eq!(pool.try_reserve(400 << 10).unwrap_err(), Busy::Memory { limit_bytes: 1 << 20 });
        // 700 + 324 KiB: the whole MiB.
        let mut second = pool.try_reserve(324 << 10).unwrap();
        assert!(second.try_grow(1).is_err(), "the pool is empty");
        drop(first);
        second.try_grow(500 << 10).unwrap();
        assert_eq!(second.bytes(), 824 << 10);
    }

    #[tokio::test]
    async fn a_wait_ends_with_the_bytes_once_they_are_freed_or_busy() {
        let pool = MemoryPool::new(1 << 20);
        let held = pool.try_reserve(1 << 20).unwrap();
        let short = pool.reserve(1024, Duration::from_millis(20)).await;
        assert_eq!(short.unwrap_err(), Busy::Memory { limit_bytes: 1 << 20 });
        let waiter = tokio::spawn({
            let pool = pool.clone();
            async move { pool.reserve(1024, Duration::from_secs(10)).await.map(|r| r.bytes()) }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        drop(held);
        assert_eq!(waiter.await.unwrap(), Ok(1024));
        // More than the whole pool is refused at once, not after the wait.
        let started = std::time::Instant::now();
        assert!(pool.reserve(2 << 20, Duration::from_secs(10)).await.is_err());
        assert!(started.elapsed() < Duration::from_secs(1));
    }

    #[tokio::test]
    async fn a_call_over_the_slot_limit_waits_then_is_busy() {
        let budget = CallBudget::new(1, MemoryPool::unlimited(), Duration::from_millis(30));
        let slot = budget.slot().await.unwrap();
        assert_eq!(budget.slot().await.unwrap_err(), Busy::Calls { limit: 1 });
        drop(slot);
        assert!(budget.slot().await.is_ok());
    }

    #[test]
    fn a_busy_message_says_the_server_is_busy_and_to_retry() {
        for busy in [Busy::Calls { limit: 4 }, Busy::Memory { limit_bytes: 2 << 30 }] {
            let text = busy.to_string();
            assert!(text.starts_with("the server is busy") && text.contains("retry"), "{text}");
            assert!(text.contains(busy.flag()), "{text}");
        }
        assert_eq!(Busy::Memory { limit_bytes: 2 << 30 }.limit(), 2048);
    }
}
