//! A client that goes away mid-call: the call stops, and the server either
//! exits (stdio: the client was its only peer) or carries on (HTTP).

mod common;

use std::io::Write;
use std::net::TcpStream;
use std::thread;
use std::time::{Duration, Instant};

use common::{assert_small_call_ok, slow_arguments, small_call_arguments, HttpServer, StdioServer, DEFAULT_WAIT};
use serde_json::json;

/// Enough fuel that only the disconnect can stop the slow call.
const UNLIMITED_FUEL: &str = "1000000000000000";

#[test]
fn stdio_client_disconnecting_mid_call_stops_the_call_and_the_server() {
    let mut server = StdioServer::initialized(&["--max-fuel", UNLIMITED_FUEL], &[]);
    let id = server.next_id();
    server.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "duplicate_report", "arguments": slow_arguments(8000)}}));
    assert!(server.wait_for_stderr("module ready", DEFAULT_WAIT));
    thread::sleep(Duration::from_millis(300));
    let closed_at = Instant::now();
    server.close_stdin();
    // rmcp gives in-flight calls 5 s to answer after EOF, then cancels them.
    let status = server.wait_exit(Duration::from_secs(30)).expect("the server exits after its client leaves");
    assert!(status.success(), "exit status {status:?}\n{}", server.stderr());
    assert!(closed_at.elapsed() < Duration::from_secs(15), "exiting took {:?}", closed_at.elapsed());
    assert!(server.wait_for_stderr("the call was cancelled", Duration::from_secs(10)), "{}", server.stderr());
}

#[test]
fn http_client_disconnecting_mid_call_stops_the_call_and_others_carry_on() {
    let server = HttpServer::start(&["--max-fuel", UNLIMITED_FUEL], &[]);
    let mut session = server.session();
    assert_small_call_ok(&session.call_tool("count_distinct", small_call_arguments()));

    // A raw client: sends a slow call, then hangs up without reading.
    let address = server.url.trim_start_matches("http://").split('/').next().unwrap().to_owned();
    let body = json!({"jsonrpc": "2.0", "id": 77, "method": "tools/call",
        "params": {"name": "duplicate_report", "arguments": slow_arguments(8000)}})
    .to_string();
    let session_header = session.session_id().map(|id| format!("Mcp-Session-Id: {id}\r\n")).unwrap_or_default();
    let auth_header = server.authorization().map(|value| format!("Authorization: {value}\r\n")).unwrap_or_default();
    let mut stream = TcpStream::connect(&address).unwrap();
    write!(
        stream,
        "POST /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-06-18\r\n\
         {session_header}{auth_header}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    stream.flush().unwrap();
    thread::sleep(Duration::from_millis(1500));
    drop(stream);

    assert!(
        server.wait_for_stderr("the call was cancelled", Duration::from_secs(20)),
        "the abandoned call did not stop:\n{}",
        server.stderr()
    );
    assert_small_call_ok(&session.call_tool("count_distinct", small_call_arguments()));
}
