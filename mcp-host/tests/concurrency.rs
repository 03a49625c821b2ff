//! Calls run concurrently: fifty at once all come back right, a slow call
//! never holds up a fast one, and a cancelled call stops.

mod common;

use std::thread;
use std::time::{Duration, Instant};

use common::{
    assert_small_call_ok, is_error, slow_arguments, small_call_arguments, text_of, HttpServer, StdioServer,
    DEFAULT_WAIT,
};
use serde_json::{json, Value};

/// Call `i` of a batch: `count_distinct` over `i + 1` distinct keys, each
/// on two rows, so every answer is different and checkable.
fn numbered_arguments(i: usize) -> Value {
    let rows: Vec<Value> =
        (0..=i).flat_map(|k| [json!({"k": format!("K{k}")}), json!({"k": format!("k{k} ")})]).collect();
    json!({"rows": rows, "key": "k"})
}

fn assert_numbered(i: usize, result: &Value) {
    assert!(!is_error(result), "call {i}: {}", text_of(result));
    assert_eq!(result["structuredContent"]["distinct_count"], json!(i + 1), "call {i}");
    assert_eq!(result["structuredContent"]["row_count"], json!(2 * (i + 1)), "call {i}");
}

#[test]
fn fifty_concurrent_calls_over_stdio() {
    let mut server = StdioServer::initialized(&[], &[]);
    let ids: Vec<i64> = (0..50)
        .map(|i| {
            let id = server.next_id();
            server.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                "params": {"name": "count_distinct", "arguments": numbered_arguments(i)}}));
            id
        })
        .collect();
    for (i, id) in ids.into_iter().enumerate() {
        let response = server.wait_for_id(&json!(id), DEFAULT_WAIT);
        assert_numbered(i, &response["result"]);
    }
}

#[test]
fn fifty_concurrent_calls_over_http() {
    let server = HttpServer::start(&[], &[]);
    let url = server.url.clone();
    let authorization = server.authorization();
    let workers: Vec<_> = (0..50)
        .map(|i| {
            let url = url.clone();
            let authorization = authorization.clone();
            thread::spawn(move || {
                let mut session = common::HttpSession::open(&url, authorization, "2025-06-18");
                (i, session.call_tool("count_distinct", numbered_arguments(i)))
            })
        })
        .collect();
    for worker in workers {
        let (i, result) = worker.join().unwrap();
        assert_numbered(i, &result);
    }
}

#[test]
fn a_slow_call_does_not_block_a_fast_one() {
    let mut server = StdioServer::initialized(&[], &[]);
    let slow = server.next_id();
    server.send(&json!({"jsonrpc": "2.0", "id": slow, "method": "tools/call",
        "params": {"name": "duplicate_report", "arguments": slow_arguments(2500)}}));
    thread::sleep(Duration::from_millis(200));
    let started = Instant::now();
    assert_small_call_ok(&server.call_tool("count_distinct", small_call_arguments()));
    let fast = started.elapsed();
    // A generous bound: on a loaded 2-core machine a small call alone has
    // taken 8-10 s. What shows the fast call was not queued behind the slow
    // one is the order of the answers, checked next.
    assert!(fast < Duration::from_secs(30), "the fast call waited {fast:?}");
    // The slow one was still running when the fast one came back.
    assert!(server.pending_messages().iter().all(|m| m["id"] != json!(slow)), "the slow call was not slow");
    let slow_reply = server.wait_for_id(&json!(slow), DEFAULT_WAIT);
    assert!(slow_reply["result"].is_object(), "{slow_reply}");
}

#[test]
fn a_cancelled_call_stops() {
    // Fuel enough that only the cancellation can stop the slow call.
    let mut server = StdioServer::initialized(&["--max-fuel", "1000000000000000"], &[]);
    let slow = server.next_id();
    server.send(&json!({"jsonrpc": "2.0", "id": slow, "method": "tools/call",
        "params": {"name": "duplicate_report", "arguments": slow_arguments(6000)}}));
    assert!(server.wait_for_stderr("module ready", DEFAULT_WAIT));
    thread::sleep(Duration::from_millis(500));
    let cancelled_at = Instant::now();
    server.notify("notifications/cancelled", json!({"requestId": slow, "reason": "test"}));
    assert!(
        server.wait_for_stderr("the call was cancelled", Duration::from_secs(10)),
        "the call did not stop:\n{}",
        server.stderr()
    );
    assert!(cancelled_at.elapsed() < Duration::from_secs(5), "stopping took {:?}", cancelled_at.elapsed());
    // No answer is sent for a cancelled request, and the server carries on.
    assert_small_call_ok(&server.call_tool("count_distinct", small_call_arguments()));
    assert!(server.wait_for(|m| m["id"] == json!(slow), Duration::from_millis(300)).is_none());
}
