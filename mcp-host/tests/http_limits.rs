//! The HTTP transport's own limits, as a client meets them: a body over the
//! cap is refused before it is sent (413), a stalled body gets 408, a
//! connection that sends no request head (or sits idle) is closed, and one
//! connection over the cap gets 503; and each time, other clients are served.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::thread;
use std::time::{Duration, Instant};

use common::{assert_small_call_ok, small_call_arguments, HttpServer};

/// A raw connection to `server`, with a read timeout so no test hangs.
fn connect(server: &HttpServer) -> TcpStream {
    let address = server.url.trim_start_matches("http://").split('/').next().unwrap().to_owned();
    let stream = TcpStream::connect(address).expect("connect");
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    stream
}

/// The head of a POST to /mcp declaring `length` bytes of body.
fn post_head(server: &HttpServer, length: usize) -> String {
    let authorization = server.authorization().map(|value| format!("Authorization: {value}\r\n")).unwrap_or_default();
    format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\n{authorization}Content-Length: {length}\r\n\r\n"
    )
}

/// Everything the server sends until it closes the connection (or the read
/// timeout passes), and how long that took.
fn read_until_closed(stream: &mut TcpStream) -> (String, Duration) {
    let started = Instant::now();
    let mut bytes = Vec::new();
    let mut buffer = [0u8; 4096];
    while let Ok(n) = stream.read(&mut buffer) {
        if n == 0 {
            break;
        }
        bytes.extend_from_slice(&buffer[..n]);
    }
    (String::from_utf8_lossy(&bytes).into_owned(), started.elapsed())
}

/// Other clients are still served: a whole MCP session and a tool call.
fn assert_still_serving(server: &HttpServer) {
    let mut session = server.session();
    assert_small_call_ok(&session.call_tool("count_distinct", small_call_arguments()));
}

#[test]
fn a_body_declared_over_the_cap_is_refused_before_it_is_sent() {
    let server = HttpServer::start(&["--max-message-mib", "1"], &[]);
    let mut stream = connect(&server);
    // 100 MB declared, none of it sent: the answer cannot have waited for it.
    stream.write_all(post_head(&server, 100_000_000).as_bytes()).unwrap();
    let (reply, took) = read_until_closed(&mut stream);
    assert!(reply.starts_with("HTTP/1.1 413"), "{reply}");
    assert!(
        reply.contains("the body is 100000000 bytes, over the server's cap of 1 MiB (--max-message-mib)"),
        "{reply}"
    );
    assert!(took < Duration::from_secs(10), "the refusal took {took:?}");
    assert_still_serving(&server);
}

#[test]
fn a_chunked_body_over_the_cap_is_refused_at_the_cap() {
    let server = HttpServer::start(&["--max-message-mib", "1"], &[]);
    let mut stream = connect(&server);
    let head = post_head(&server, 0).replace("Content-Length: 0", "Transfer-Encoding: chunked");
    stream.write_all(head.as_bytes()).unwrap();
    // 2 MiB in 64 KiB chunks, no end: the server stops reading at 1 MiB.
    let chunk = format!("10000\r\n{}\r\n", "x".repeat(0x10000));
    for _ in 0..32 {
        if stream.write_all(chunk.as_bytes()).is_err() {
            break; // the server has answered and closed
        }
    }
    let (reply, _) = read_until_closed(&mut stream);
    assert!(reply.starts_with("HTTP/1.1 413"), "{reply}");
    assert!(reply.contains("more than 1048576 bytes"), "{reply}");
    assert_still_serving(&server);
}

#[test]
fn a_stalled_body_gets_408_at_the_body_timeout_and_others_are_served_meanwhile() {
    let server = HttpServer::start(&["--body-timeout-secs", "2"], &[]);
    let mut stalled = connect(&server);
    stalled.write_all(post_head(&server, 1000).as_bytes()).unwrap();
    stalled.write_all(b"{\"jsonrpc\": \"2.0\", ").unwrap();
    let started = Instant::now();
    // While that body hangs, another client gets its answer.
    assert_still_serving(&server);
    let (reply, _) = read_until_closed(&mut stalled);
    let took = started.elapsed();
    assert!(reply.starts_with("HTTP/1.1 408"), "{reply}");
    assert!(reply.contains("not complete within 2 s (--body-timeout-secs)"), "{reply}");
    // It waited for the body, and not much longer.
    assert!(took >= Duration::from_millis(1500) && took < Duration::from_secs(10), "408 after {took:?}");
    // The server logs before it answers, but the test reads its stderr on a
    // thread of its own, which may not have the line yet.
    assert!(server.wait_for_stderr("body took longer than 2s", Duration::from_secs(10)), "{}", server.stderr());
}

#[test]
fn a_connection_that_sends_no_whole_head_or_sits_idle_is_closed_at_the_header_timeout() {
    let server = HttpServer::start(&["--header-timeout-secs", "1"], &[]);
    // Half a request head, then nothing (slowloris).
    let mut slow = connect(&server);
    slow.write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n").unwrap();
    // A connection that never says anything.
    let mut silent = connect(&server);
    for stream in [&mut slow, &mut silent] {
        let (_, took) = read_until_closed(stream);
        assert!(took < Duration::from_secs(8), "still open after {took:?}");
    }
    // A keep-alive connection, after one complete request and its answer.
    let mut idle = connect(&server);
    let body = r#"{"jsonrpc": "2.0", "id": 1, "method": "ping"}"#;
    idle.write_all(format!("{}{body}", post_head(&server, body.len())).as_bytes()).unwrap();
    let mut first = [0u8; 12];
    idle.read_exact(&mut first).unwrap();
    assert_eq!(&first, b"HTTP/1.1 200", "the request was answered");
    let (_, took) = read_until_closed(&mut idle);
    assert!(took < Duration::from_secs(8), "an idle connection was still open after {took:?}");
    assert_still_serving(&server);
}

#[test]
fn a_connection_over_the_cap_gets_503_and_a_freed_slot_serves_again() {
    let server = HttpServer::start(&["--max-connections", "3", "--header-timeout-secs", "60"], &[]);
    let held: Vec<TcpStream> = (0..3).map(|_| connect(&server)).collect();
    // Accepted asynchronously: give the server a moment to take all three.
    thread::sleep(Duration::from_millis(500));
    let mut extra = connect(&server);
    let (reply, took) = read_until_closed(&mut extra);
    assert!(reply.starts_with("HTTP/1.1 503"), "{reply}");
    assert!(reply.contains("--max-connections") && reply.contains("retry-after: 5"), "{reply}");
    assert!(took < Duration::from_secs(5), "the refusal took {took:?}");
    // The log line is read from the server's stderr by another thread: wait for it.
    assert!(server.wait_for_stderr("refused a connection: 3 are open", Duration::from_secs(10)), "{}", server.stderr());
    drop(held);
    thread::sleep(Duration::from_millis(300));
    assert_still_serving(&server);
}
