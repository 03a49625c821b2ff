//! The `--data-root` boundary under a rename race, through the real binary.
//!
//! While calls read a file by `path`, another thread swaps the file (or a
//! directory on its path) with something else, as fast as it can, with
//! `renameat2(RENAME_EXCHANGE)`: a symbolic link to a file outside the root,
//! a symbolic link to a directory outside, a link to `/proc/self/environ`,
//! a FIFO. A server that checks a name and then opens it again reads the
//! outside file in a good share of calls, and hangs on the FIFO. Here every
//! call must either give exactly the result of the file inside the root, or
//! be refused; none may take longer than its deadline.

#![cfg(target_os = "linux")]

mod common;

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use common::{fresh_dir, is_error, text_of, StdioServer};
use serde_json::{json, Value};

/// The server's deadline for these calls, in seconds.
const TIMEOUT_SECS: u64 = 2;
/// How long each race runs.
const RACE: Duration = Duration::from_millis(1500);
/// In the environment of the server, so a read of `/proc/self/environ` shows.
const ENV_MARKER: &str = "MCPV_RACE_MARKER_5e1f";

const INSIDE_CSV: &str = "invoice,amount\nINV-1,10\nINV-2,-5\n";
const OUTSIDE_CSV: &str = "invoice,amount\nSECRET-1,10\nSECRET-2,-5\n";

/// Swap two names atomically: each keeps existing, with the other's inode.
// renameat2(RENAME_EXCHANGE) has no safe wrapper in std or cap-std: a libc call.
#[allow(unsafe_code)]
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    let a = CString::new(a.as_os_str().as_bytes())?;
    let b = CString::new(b.as_os_str().as_bytes())?;
    // SAFETY: two NUL-terminated paths that outlive the call; no other memory.
    let rc = unsafe { libc::renameat2(libc::AT_FDCWD, a.as_ptr(), libc::AT_FDCWD, b.as_ptr(), libc::RENAME_EXCHANGE) };
    if rc == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// A thread exchanging two names until dropped; counts its swaps.
struct Swapper {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<u64>>,
}

impl Swapper {
    fn start(a: PathBuf, b: PathBuf) -> Swapper {
        exchange(&a, &b).expect("renameat2(RENAME_EXCHANGE) works on this file system");
        exchange(&a, &b).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let thread = thread::spawn({
            let stop = Arc::clone(&stop);
            move || {
                let mut swaps = 0;
                while !stop.load(Ordering::Relaxed) {
                    exchange(&a, &b).unwrap();
                    swaps += 1;
                }
                // Leave the names as they were.
                if swaps % 2 == 1 {
                    exchange(&a, &b).unwrap();
                }
                swaps
            }
        });
        Swapper { stop, thread: Some(thread) }
    }

    fn finish(mut self) -> u64 {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.take().unwrap().join().unwrap()
    }
}

impl Drop for Swapper {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

fn arguments(path: &str) -> Value {
    json!({"path": path, "columns": [{"name": "invoice", "required": true}, {"name": "amount", "type": "number", "min": 0}],
           "row_key": "invoice", "max_listed": 100})
}

fn error_code(result: &Value) -> &str {
    result["_meta"]["mcp-validation-server/error"]["code"].as_str().unwrap_or("(none)")
}

/// Call `validate_rows` on `path` over and over while `swapper` runs; every
/// answer must be `expected` or a refusal with one of `refusals`, within the
/// deadline. Returns how many calls read the file and how many were refused.
fn race(server: &mut StdioServer, path: &str, expected: &Value, refusals: &[&str], swapper: Swapper) -> (u32, u32) {
    let (mut read, mut refused) = (0, 0);
    let started = Instant::now();
    while started.elapsed() < RACE {
        let id = server.next_id();
        let sent = Instant::now();
        server.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                            "params": {"name": "validate_rows", "arguments": arguments(path)}}));
        // A second of slack over the deadline for the reply to travel.
        let allowed = Duration::from_secs(TIMEOUT_SECS + 1);
        let Some(reply) = server.wait_for(|message| message["id"] == id, allowed) else {
            panic!("{path}: a call outlived its {TIMEOUT_SECS} s deadline (no reply after {allowed:?})");
        };
        assert!(sent.elapsed() < allowed, "{path}: answered after {:?}", sent.elapsed());
        let result = &reply["result"];
        let text = serde_json::to_string(result).unwrap();
        assert!(!text.contains("SECRET") && !text.contains(ENV_MARKER), "{path}: read outside the root: {text}");
        if is_error(result) {
            let code = error_code(result);
            assert!(refusals.contains(&code), "{path}: unexpected refusal {code}: {}", text_of(result));
            assert!(text_of(result).contains(&format!("{path:?}")), "{path}: the refusal names the path it was given");
            refused += 1;
        } else {
            assert_eq!(&result["structuredContent"], expected, "{path}: a result other than the inside file's");
            read += 1;
        }
    }
    let swaps = swapper.finish();
    assert!(swaps > 100, "{path}: the swapper only managed {swaps} swaps");
    // Both sides of the race were seen, so the race was really run.
    assert!(read > 0 && refused > 0, "{path}: {read} calls read the file and {refused} were refused");
    (read, refused)
}

#[test]
fn no_swap_during_a_call_reads_outside_the_root_or_outlives_the_deadline() {
    let base = fresh_dir("boundary-race");
    let (root, outside) = (base.join("root"), base.join("outside"));
    std::fs::create_dir_all(root.join("dir")).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(root.join("data.csv"), INSIDE_CSV).unwrap();
    std::fs::write(root.join("dir/data.csv"), INSIDE_CSV).unwrap();
    std::fs::write(outside.join("data.csv"), OUTSIDE_CSV).unwrap();
    std::os::unix::fs::symlink(outside.join("data.csv"), root.join("file-link")).unwrap();
    std::os::unix::fs::symlink(&outside, root.join("dir-link")).unwrap();
    std::os::unix::fs::symlink("/proc/self/environ", root.join("environ-link")).unwrap();
    let made = std::process::Command::new("mkfifo").arg(root.join("pipe")).status().unwrap();
    assert!(made.success(), "mkfifo");

    let timeout = TIMEOUT_SECS.to_string();
    let mut server = StdioServer::initialized(
        &["--data-root", root.to_str().unwrap(), "--timeout-secs", &timeout],
        &[(ENV_MARKER, "SECRET")],
    );
    let expected = server.call_tool("validate_rows", arguments("data.csv"));
    assert!(!is_error(&expected), "{}", text_of(&expected));
    let expected = expected["structuredContent"].clone();
    assert_eq!(expected["summary"]["quarantined"], 1, "{expected}");

    let outside_roots = ["path_outside_roots"];
    let mut tally = Vec::new();
    let swapper = Swapper::start(root.join("data.csv"), root.join("file-link"));
    tally.push(("file <-> link out", race(&mut server, "data.csv", &expected, &outside_roots, swapper)));
    let swapper = Swapper::start(root.join("dir"), root.join("dir-link"));
    tally.push(("dir <-> link out", race(&mut server, "dir/data.csv", &expected, &outside_roots, swapper)));
    let swapper = Swapper::start(root.join("data.csv"), root.join("environ-link"));
    tally.push(("file <-> /proc link", race(&mut server, "data.csv", &expected, &outside_roots, swapper)));
    let swapper = Swapper::start(root.join("data.csv"), root.join("pipe"));
    tally.push(("file <-> FIFO", race(&mut server, "data.csv", &expected, &["not_a_regular_file"], swapper)));
    // On stderr, to see how hard each race ran (`--nocapture`).
    eprintln!("races (read, refused): {tally:?}");

    // Nothing was left behind: the server answers, the root is as it was.
    assert_eq!(server.call_tool("validate_rows", arguments("data.csv"))["structuredContent"], expected);
}
