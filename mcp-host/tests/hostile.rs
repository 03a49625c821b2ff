//! Hostile input: every message gets an answer, and the next call works.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use common::{assert_small_call_ok, is_error, small_call_arguments, text_of, HttpServer, StdioServer, DEFAULT_WAIT};
use serde_json::{json, Value};

fn deep_arguments(depth: usize) -> String {
    format!(
        r#"{{"opening_balance": 0, "movements": {}{}, "closing_balance": 0}}"#,
        "[".repeat(depth),
        "]".repeat(depth)
    )
}

fn tools_call_line(id: u64, tool: &str, arguments_json: &str) -> Vec<u8> {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments_json}}}}}"#)
        .into_bytes()
        .into_iter()
        .chain(*b"\n")
        .collect()
}

#[test]
fn json_nested_100_000_deep_gets_an_error_reply_over_stdio() {
    let mut server = StdioServer::initialized(&[], &[]);
    server.send_raw(&tools_call_line(9001, "reconcile", &deep_arguments(100_000)));
    let reply = server.wait_for_id(&json!(9001), DEFAULT_WAIT);
    assert_eq!(reply["error"]["code"], json!(-32700), "{reply}");
    assert!(reply["error"]["message"].as_str().unwrap().contains("nested more than 128 levels"), "{reply}");
    assert_small_call_ok(&server.call_tool("count_distinct", small_call_arguments()));

    // The id is found even when it comes last, after the nesting.
    let line = format!(r#"{{"jsonrpc":"2.0","method":"tools/call","params":{},"id":"late"}}"#, deep_arguments(100_000));
    server.send_raw(format!("{line}\n").as_bytes());
    let reply = server.wait_for_id(&json!("late"), DEFAULT_WAIT);
    assert_eq!(reply["error"]["code"], json!(-32700), "{reply}");
    assert_small_call_ok(&server.call_tool("count_distinct", small_call_arguments()));
}

#[test]
fn json_nested_100_000_deep_gets_an_error_reply_over_http() {
    let server = HttpServer::start(&[], &[]);
    let mut session = server.session();
    let (status, body) = session.post_bytes(tools_call_line(1, "reconcile", &deep_arguments(100_000)));
    assert!((400..500).contains(&status), "{status}: {body}");
    assert!(body.contains("recursion limit"), "{status}: {body}");
    assert_small_call_ok(&session.call_tool("count_distinct", small_call_arguments()));
}

#[test]
fn nesting_under_the_limit_reaches_the_tool() {
    // 100 levels fit the message (and the module's own parser): the tool
    // answers, reporting the unreadable movement as a finding.
    let mut server = StdioServer::initialized(&[], &[]);
    server.send_raw(&tools_call_line(7, "reconcile", &deep_arguments(100)));
    let reply = server.wait_for_id(&json!(7), DEFAULT_WAIT);
    let result = &reply["result"];
    assert!(!is_error(result), "{reply}");
    assert_eq!(result["structuredContent"]["tool"], json!("reconcile"));
}

#[test]
fn a_1_000_000_element_array() {
    let mut server = StdioServer::initialized(&[], &[]);
    let rows: Vec<Value> = (0..1_000_000).map(|i| json!({"k": if i % 2 == 0 { "a" } else { "b" }})).collect();
    let result = server.call_tool("count_distinct", json!({"rows": rows, "key": "k"}));
    assert!(!is_error(&result), "{}", text_of(&result));
    assert_eq!(result["structuredContent"]["row_count"], json!(1_000_000));
    assert_eq!(result["structuredContent"]["distinct_count"], json!(2));
    assert_small_call_ok(&server.call_tool("count_distinct", small_call_arguments()));
}

#[test]
fn a_50_mb_string_is_served_under_the_default_limits() {
    let note = "x".repeat(50_000_000);
    let arguments = json!({"rows": [{"note": note}], "columns": [{"name": "note", "type": "string"}]});

    // Under the default message cap (64 MiB) it reaches the tool, and the
    // default limits serve it: the module needs a few copies of 50 MB
    // against a 1 GiB cap.
    let mut server = StdioServer::initialized(&[], &[]);
    let result = server.call_tool("validate_rows", arguments.clone());
    assert!(!is_error(&result), "{}", text_of(&result).chars().take(300).collect::<String>());
    assert_eq!(result["structuredContent"]["accepted"][0]["note"].as_str().map(str::len), Some(50_000_000));
    assert_small_call_ok(&server.call_tool("count_distinct", small_call_arguments()));

    // Over a smaller cap it is refused with an error naming the cap and flag.
    let mut server = StdioServer::initialized(&["--max-message-mib", "16"], &[]);
    let response = server.request("tools/call", json!({"name": "validate_rows", "arguments": arguments}));
    assert_eq!(
        response["error"]["code"],
        json!(-32600),
        "{}",
        &response.to_string()[..200.min(response.to_string().len())]
    );
    let message = response["error"]["message"].as_str().unwrap();
    assert!(message.contains("16 MiB") && message.contains("--max-message-mib"), "{message}");
    assert_small_call_ok(&server.call_tool("count_distinct", small_call_arguments()));
}

#[test]
fn an_over_long_line_without_an_id_still_gets_an_answer() {
    let mut server = StdioServer::initialized(&["--max-message-mib", "1"], &[]);
    let mut line = vec![b'x'; 3 << 20];
    line.push(b'\n');
    server.send_raw(&line);
    let reply = server.wait_for(|m| m["error"]["code"] == json!(-32600), DEFAULT_WAIT).expect("an error reply");
    assert!(reply["error"]["message"].as_str().unwrap().contains("over the limit of 1 MiB"), "{reply}");
    assert_small_call_ok(&server.call_tool("count_distinct", small_call_arguments()));
}

#[test]
fn an_over_long_body_over_http_is_refused() {
    let server = HttpServer::start(&["--max-message-mib", "1"], &[]);
    let mut session = server.session();
    // Refused on its declared length, before a byte of it is read: the
    // request sends no body at all, so a server that read first would
    // keep it waiting. (Sending the 3 MB body too made the answer a race:
    // a client still writing when the server closes sees a broken pipe.)
    let (status, body) = session.post_declaring(3_000_000);
    assert_eq!(status, 413, "{body}");
    assert!(body.contains("3000000 bytes") && body.contains("--max-message-mib"), "{body}");
    assert_small_call_ok(&session.call_tool("count_distinct", small_call_arguments()));
}

#[test]
fn invalid_utf8_is_replaced_inside_strings_and_refused_elsewhere() {
    let mut server = StdioServer::initialized(&[], &[]);
    // Inside a string: replaced with U+FFFD, as the reference's reader does.
    server.send_raw(b"{\"jsonrpc\":\"2.0\",\"id\":41,\"method\":\"tools/call\",\"params\":{\"name\":\"count_distinct\",\"arguments\":{\"rows\":[{\"k\":\"a\xff\xfeb\"},{\"k\":\"c\"}],\"key\":\"k\"}}}\n");
    let reply = server.wait_for_id(&json!(41), DEFAULT_WAIT);
    assert_eq!(reply["result"]["structuredContent"]["distinct_count"], json!(2), "{reply}");
    // In the structure: a parse error for that id.
    server.send_raw(b"{\"jsonrpc\":\"2.0\",\"id\":42,\xff\"method\":\"tools/list\"}\n");
    let reply = server.wait_for_id(&json!(42), DEFAULT_WAIT);
    assert_eq!(reply["error"]["code"], json!(-32700), "{reply}");
    // Over HTTP: a body that is not UTF-8 JSON is refused.
    let http = HttpServer::start(&[], &[]);
    let mut session = http.session();
    let (status, body) = session.post_bytes(b"{\"jsonrpc\":\"2.0\",\"id\":1,\xff}".to_vec());
    assert!((400..500).contains(&status), "{status}: {body}");
    assert_small_call_ok(&session.call_tool("count_distinct", small_call_arguments()));
    assert_small_call_ok(&server.call_tool("count_distinct", small_call_arguments()));
}

#[test]
fn a_catastrophic_backtracking_pattern_finishes_quickly() {
    let mut server = StdioServer::initialized(&[], &[]);
    let value = format!("{}!", "a".repeat(100_000));
    let started = Instant::now();
    let result = server.call_tool(
        "validate_rows",
        json!({"rows": [{"v": value}], "columns": [{"name": "v", "type": "string", "pattern": "(a+)+$"}]}),
    );
    assert!(started.elapsed() < Duration::from_secs(20), "took {:?}", started.elapsed());
    assert!(!is_error(&result), "{}", text_of(&result));
    assert_eq!(result["structuredContent"]["findings_by_code"]["pattern_mismatch"], json!(1), "{}", text_of(&result));
}

#[test]
fn raw_garbage_over_http_gets_an_http_error_and_the_server_stays_up() {
    let server = HttpServer::start(&[], &[]);
    let address = server.url.trim_start_matches("http://").split('/').next().unwrap().to_owned();
    for garbage in
        [&b"GARBAGE\r\n\r\n"[..], b"POST /mcp HTTP/1.1\r\nContent-Length: 99999999999\r\n\r\n", b"\x00\xff\x00\xff"]
    {
        let mut stream = TcpStream::connect(&address).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let _ = stream.write_all(garbage);
        let mut reply = Vec::new();
        let _ = stream.read_to_end(&mut reply);
    }
    let mut session = server.session();
    assert_small_call_ok(&session.call_tool("count_distinct", small_call_arguments()));
}
