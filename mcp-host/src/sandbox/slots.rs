//! The engine's instance slots, by who may take them.
//!
//! The pool holds one slot per call that may run at once, and beside them
//! one for each extra part a call may be checked in (`parts.rs`: a large
//! CSV file, one instance per core). A call takes one of its own slots for
//! each instance it runs in turn; a call checked in parts takes the extra
//! ones it gets at once, and runs in fewer parts (or whole) when they are
//! taken. So no call ever meets a full pool that its budget let it into,
//! and calls never run more instances at once than the pool holds.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use crate::budget::Busy;

/// Free slots of each kind. Cheap to clone (shared).
#[derive(Clone)]
pub(crate) struct Slots(Arc<Free>);

struct Free {
    calls: AtomicUsize,
    calls_at_once: usize,
    parts: AtomicUsize,
}

/// Slots taken; given back when dropped.
pub(crate) struct Taken {
    free: Slots,
    calls: usize,
    parts: usize,
}

impl Taken {
    /// How many extra part slots were taken.
    pub(crate) fn parts(&self) -> usize {
        self.parts
    }
}

impl Drop for Taken {
    fn drop(&mut self) {
        self.free.0.calls.fetch_add(self.calls, Ordering::AcqRel);
        self.free.0.parts.fetch_add(self.parts, Ordering::AcqRel);
    }
}

/// Take up to `wanted` from `free` at once; returns how many were taken.
fn take_up_to(free: &AtomicUsize, wanted: usize) -> usize {
    let mut now = free.load(Ordering::Acquire);
    loop {
        let n = now.min(wanted);
        if n == 0 {
            return 0;
        }
        match free.compare_exchange_weak(now, now - n, Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) => return n,
            Err(actual) => now = actual,
        }
    }
}

impl Slots {
    /// `calls_at_once` call slots (at least one) and `extra_parts` part slots.
    pub(crate) fn new(calls_at_once: usize, extra_parts: usize) -> Slots {
        let calls_at_once = calls_at_once.max(1);
        Slots(Arc::new(Free {
            calls: AtomicUsize::new(calls_at_once),
            calls_at_once,
            parts: AtomicUsize::new(extra_parts),
        }))
    }

    /// How many calls may run at once.
    pub(crate) fn calls_at_once(&self) -> usize {
        self.0.calls_at_once
    }

    /// A call's slot, or busy when every one is taken.
    pub(crate) fn call(&self) -> Result<Taken, Busy> {
        match take_up_to(&self.0.calls, 1) {
            1 => Ok(Taken { free: self.clone(), calls: 1, parts: 0 }),
            _ => Err(Busy::Calls { limit: self.0.calls_at_once }),
        }
    }

    /// Up to `wanted` extra part slots, as many as are free now.
    pub(crate) fn parts(&self, wanted: usize) -> Taken {
        let parts = take_up_to(&self.0.parts, wanted);
        Taken { free: self.clone(), calls: 0, parts }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_given_out_up_to_their_number_and_back_when_dropped() {
        let slots = Slots::new(1, 2);
        let call = slots.call().unwrap();
        assert_eq!(slots.call().err(), Some(Busy::Calls { limit: 1 }));
        let three = slots.parts(3);
        assert_eq!(three.parts(), 2, "only the two there are");
        assert_eq!(slots.parts(1).parts(), 0);
        drop((call, three));
        assert!(slots.call().is_ok());
        assert_eq!(slots.parts(5).parts(), 2);
    }
}
