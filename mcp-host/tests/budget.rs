//! The server-wide budget: a call over `--max-concurrent-calls` waits, then
//! is answered busy (an `isError` result that says to retry, not a protocol
//! error); and large calls at once stay within `--max-total-memory-mib`
//! instead of growing the process without bound.

mod common;

use std::fmt::Write as _;
use std::thread;
use std::time::{Duration, Instant};

use common::{
    assert_small_call_ok, is_error, parse_http_reply, slow_arguments, small_call_arguments, status_mib, text_of,
    HttpServer, StdioServer, DEFAULT_WAIT,
};
use serde_json::json;

/// Start a call that runs until it is cancelled or hits its deadline, and
/// wait until it holds its slot.
fn start_slow_call(server: &mut StdioServer) -> i64 {
    let id = server.next_id();
    server.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "duplicate_report", "arguments": slow_arguments(6000)}}));
    assert!(server.wait_for_stderr("module ready", DEFAULT_WAIT));
    thread::sleep(Duration::from_millis(500));
    id
}

#[test]
fn a_call_over_the_slot_limit_waits_then_is_answered_busy() {
    let mut server = StdioServer::initialized(
        &["--max-concurrent-calls", "1", "--busy-wait-secs", "1", "--max-fuel", "1000000000000000"],
        &[],
    );
    let slow = start_slow_call(&mut server);
    let started = Instant::now();
    let result = server.call_tool("count_distinct", small_call_arguments());
    let waited = started.elapsed();
    assert!(is_error(&result), "{result}");
    assert_eq!(
        text_of(&result),
        "Error executing tool count_distinct: the server is busy: it is already running 1 calls, its limit \
         (--max-concurrent-calls); nothing is wrong with this call, retry it in a few seconds"
    );
    assert_eq!(
        result["_meta"]["mcp-validation-server/error"],
        json!({"code": "busy", "limit": 1, "flag": "--max-concurrent-calls"})
    );
    assert!(waited >= Duration::from_millis(900), "it did not wait for a slot: {waited:?}");
    // The slot frees when the slow call stops, and the next call runs.
    server.notify("notifications/cancelled", json!({"requestId": slow, "reason": "test"}));
    assert!(server.wait_for_stderr("the call was cancelled", Duration::from_secs(10)), "{}", server.stderr());
    assert_small_call_ok(&server.call_tool("count_distinct", small_call_arguments()));
}

#[test]
fn a_call_that_waits_runs_once_a_slot_frees() {
    // The slow call is stopped by its 2 s deadline; the quick one waits for it.
    let mut server = StdioServer::initialized(
        &[
            "--max-concurrent-calls",
            "1",
            "--busy-wait-secs",
            "30",
            "--timeout-secs",
            "2",
            "--max-fuel",
            "1000000000000000",
        ],
        &[],
    );
    let slow = start_slow_call(&mut server);
    let started = Instant::now();
    assert_small_call_ok(&server.call_tool("count_distinct", small_call_arguments()));
    assert!(started.elapsed() >= Duration::from_secs(1), "it did not wait: {:?}", started.elapsed());
    let slow_reply = server.wait_for_id(&json!(slow), DEFAULT_WAIT);
    assert!(text_of(&slow_reply["result"]).contains("ran out of time"), "{slow_reply}");
}

/// The request of the memory measurements: `count_distinct` over 4.5 M
/// tiny rows (`{"k":0}` .. `{"k":9}`), 36 MB of JSON, as HTTP body bytes.
fn large_request() -> Vec<u8> {
    let mut body = String::with_capacity(37_000_000);
    body.push_str(
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"count_distinct","arguments":{"rows":["#,
    );
    for i in 0..4_500_000 {
        if i > 0 {
            body.push(',');
        }
        let _ = write!(body, r#"{{"k":{}}}"#, i % 10);
    }
    body.push_str(r#"],"key":"k"}}}"#);
    body.into_bytes()
}

/// Measured (debug build, 2 cores): before the budget, six of these at once
/// peaked at 5,862 MiB (each stopped at the 1 GiB per-call cap: the module's
/// rows for 4.5 M of them do not fit) and kept 104 MiB after 30 s idle; with
/// `--max-total-memory-mib 2048` they peaked at 1,973 MiB, and 26 MiB idle.
/// Here, with the caps halved to keep the test short: the calls together
/// hold at most the 1,024 MiB pool; the process around them (the engine,
/// the compiled module, the runtime: ~25 MiB idle) and what reading a body
/// costs beyond its reserved length get 256 MiB more.
///
/// Six slots, so all six run at once whatever the machine's cores (the
/// default is twice the cores): which of them reaches its own 512 MiB cap
/// first and which is refused its next page by the spent pool depends on
/// the scheduler, so the test holds each call to one of those two ends, and
/// the server to its bound, not to a count of either.
#[test]
fn six_36_mb_requests_at_once_stay_within_the_memory_budget_and_the_memory_goes_back() {
    const BUDGET_MIB: u64 = 1024;
    const BOUND_MIB: u64 = BUDGET_MIB + 256;
    let server = HttpServer::start(
        &[
            "--max-memory-mib",
            "512",
            "--max-total-memory-mib",
            "1024",
            "--max-concurrent-calls",
            "6",
            "--busy-wait-secs",
            "2",
        ],
        &[],
    );
    let body = large_request();
    assert_eq!(body.len(), 36_000_114, "the 36 MB request");
    let workers: Vec<_> = (0..6)
        .map(|_| {
            let session = server.session();
            let body = body.clone();
            thread::spawn(move || {
                let (status, text) = session.post_bytes(body);
                parse_http_reply(status, &text)
            })
        })
        .collect();
    drop(body);
    for worker in workers {
        let reply = worker.join().unwrap();
        let result = &reply["result"];
        // Each call ends as a result, never a broken connection or a crash:
        // stopped at its own 512 MiB cap (these rows need more), or refused
        // a page because the six together spent the pool. The six bodies
        // (216 MB) fit the pool and every call has a slot, so a busy answer
        // here can only come from the pool the running calls filled.
        assert!(result.is_object(), "{}", reply.to_string().chars().take(300).collect::<String>());
        let error = &result["_meta"]["mcp-validation-server/error"];
        match error["code"].as_str() {
            Some("out_of_memory") => {}
            Some("busy") => {
                assert_eq!(error["flag"], json!("--max-total-memory-mib"), "{result}");
                assert!(text_of(result).contains("retry"), "{result}");
            }
            _ => panic!(
                "neither stopped at its cap nor busy: {}",
                reply.to_string().chars().take(500).collect::<String>()
            ),
        }
    }
    let peak = status_mib(server.pid(), "VmHWM").expect("the server's VmHWM");
    println!("six 36 MB requests at once: the server peaked at {peak} MiB (bound {BOUND_MIB} MiB)");
    assert!(peak < BOUND_MIB, "the server peaked at {peak} MiB, over {BOUND_MIB} MiB");
    // Freed memory goes back to the system: after the calls, the process is
    // near its idle size again (the 36 MB bodies and the calls' heap are gone).
    thread::sleep(Duration::from_secs(1));
    let resident = status_mib(server.pid(), "VmRSS").expect("the server's VmRSS");
    println!("and is {resident} MiB resident a second later");
    assert!(resident < 128, "{resident} MiB still resident after the calls");
    assert_small_call_ok(&server.session().call_tool("count_distinct", small_call_arguments()));
}
