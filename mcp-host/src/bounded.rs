//! Host work done for a call before the module runs (reading a `path` file),
//! held to the same deadline and cancellation as the module itself.
//!
//! The work runs on tokio's blocking pool and is handed a [`StopFlag`] to
//! look at between steps. When the deadline passes, or the request is
//! cancelled, the call is answered at once and the flag is set; the thread
//! ends at its next look, and is not waited for: a read stuck in the kernel
//! (a hung network file system) must not hold the answer.

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::sandbox::SandboxError;

/// Set when the work it was given to should stop.
#[derive(Debug, Clone, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    /// A flag nothing will set (for work with no call around it).
    pub fn never() -> StopFlag {
        StopFlag::default()
    }

    /// Whether the work should stop now.
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    pub(crate) fn set(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Sets the flag if the future waiting on the work is dropped first (the
/// request's task was aborted: an HTTP client went away, or the process is
/// shutting down). Nobody is left to log that, so this does.
struct SetOnDrop(Option<StopFlag>);

impl Drop for SetOnDrop {
    fn drop(&mut self) {
        if let Some(flag) = self.0.take() {
            flag.set();
            tracing::warn!(code = "cancelled", "call stopped: the call was cancelled (its request went away)");
        }
    }
}

/// Run `work` on the blocking pool, until `deadline` (reported as the
/// `timeout` limit) or until `cancelled` resolves.
pub async fn run_blocking<T, F>(
    work: F,
    deadline: Instant,
    timeout: Duration,
    cancelled: impl Future<Output = ()>,
) -> Result<T, SandboxError>
where
    T: Send + 'static,
    F: FnOnce(&StopFlag) -> T + Send + 'static,
{
    let flag = StopFlag::default();
    let mut guard = SetOnDrop(Some(flag.clone()));
    let task = tokio::task::spawn_blocking({
        let flag = flag.clone();
        move || work(&flag)
    });
    let outcome = tokio::select! {
        joined = task => {
            joined.map_err(|err| SandboxError::Trapped(format!("the call's thread failed: {err}")))
        }
        () = tokio::time::sleep_until(deadline.into()) => Err(SandboxError::Timeout { limit: timeout }),
        () = cancelled => Err(SandboxError::Cancelled),
    };
    // Answered, so the guard has nothing left to do; on a stop, the work is
    // told here instead.
    guard.0 = None;
    if outcome.is_err() {
        flag.set();
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    /// Work that never finishes by itself: it blocks until told to stop,
    /// and reports (on `stopped`) that it saw the flag.
    fn stuck(stopped: mpsc::Sender<()>) -> impl FnOnce(&StopFlag) + Send + 'static {
        move |flag| {
            while !flag.is_set() {
                std::thread::sleep(Duration::from_millis(5));
            }
            let _ = stopped.send(());
        }
    }

    #[tokio::test(flavor = "multi_thread")]
    async fn work_past_the_deadline_is_answered_at_the_deadline_and_told_to_stop() {
        let (sender, stopped) = mpsc::channel();
        let started = Instant::now();
        let deadline = started + Duration::from_millis(200);
        let outcome = run_blocking(stuck(sender), deadline, Duration::from_secs(7), std::future::pending()).await;
        assert_eq!(outcome.unwrap_err(), SandboxError::Timeout { limit: Duration::from_secs(7) });
        let waited = started.elapsed();
        assert!(waited >= Duration::from_millis(200) && waited < Duration::from_secs(2), "{waited:?}");
        stopped.recv_timeout(Duration::from_secs(2)).expect("the work saw the stop flag");
    }

    #[tokio::test(flavor = "multi_thread")]
    async fn cancelled_work_is_answered_at_once_and_told_to_stop() {
        let (sender, stopped) = mpsc::channel();
        let deadline = Instant::now() + Duration::from_secs(60);
        let cancel = tokio::time::sleep(Duration::from_millis(50));
        let outcome = run_blocking(stuck(sender), deadline, Duration::from_secs(60), cancel).await;
        assert_eq!(outcome.unwrap_err(), SandboxError::Cancelled);
        stopped.recv_timeout(Duration::from_secs(2)).expect("the work saw the stop flag");
    }

    #[tokio::test(flavor = "multi_thread")]
    async fn work_that_finishes_in_time_returns_its_value() {
        let deadline = Instant::now() + Duration::from_secs(60);
        let outcome = run_blocking(|flag| !flag.is_set(), deadline, Duration::from_secs(60), std::future::pending());
        assert_eq!(outcome.await, Ok(true));
    }
}
