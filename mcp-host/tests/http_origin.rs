//! The HTTP server refuses web pages it was not told to trust, as the MCP
//! specification requires (403 for an `Origin` that is not allowed), and
//! still serves clients that send none, pages on this machine, and the
//! origins the operator allowed with `--allow-origin`.

mod common;

use common::HttpServer;
use serde_json::json;

/// POST an `initialize` with `origin` (or none); the HTTP status and body.
fn initialize_from(server: &HttpServer, origin: Option<&str>) -> (u16, String) {
    let client = reqwest::blocking::Client::new();
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "origin-test", "version": "0"}}});
    let mut request = client
        .post(&server.url)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream");
    if let Some(origin) = origin {
        request = request.header("Origin", origin);
    }
    let response = request.body(body.to_string()).send().expect("the server answers");
    let status = response.status().as_u16();
    (status, response.text().unwrap_or_default())
}

#[test]
fn a_page_from_another_origin_is_refused_and_others_are_served() {
    let server = HttpServer::start(&[], &[]);
    let (status, body) = initialize_from(&server, Some("https://evil.example"));
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("--allow-origin") && !body.contains("serverInfo"), "{body}");
    for origin in [None, Some("http://localhost:6274"), Some("http://127.0.0.1:3000")] {
        let (status, body) = initialize_from(&server, origin);
        assert_eq!(status, 200, "{origin:?}: {body}");
        assert!(body.contains("serverInfo"), "{origin:?}: {body}");
    }
    assert!(server.stderr().contains("refused a request from the web page origin \"https://evil.example\""));
}

#[test]
fn the_operator_can_allow_an_origin() {
    let server = HttpServer::start(&["--allow-origin", "https://app.example"], &[]);
    assert_eq!(initialize_from(&server, Some("https://app.example")).0, 200);
    assert_eq!(initialize_from(&server, Some("https://evil.example")).0, 403);
}
