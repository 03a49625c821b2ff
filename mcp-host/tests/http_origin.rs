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
    if let Some(authorization) = server.authorization() {
        request = request.header("Authorization", authorization);
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
    // The test reads the server's stderr on a thread of its own: wait for the line.
    let refused = "refused a request from the web page origin \"https://evil.example\"";
    assert!(server.wait_for_stderr(refused, std::time::Duration::from_secs(10)), "{}", server.stderr());
}

#[test]
fn the_operator_can_allow_an_origin() {
    let server = HttpServer::start(&["--allow-origin", "https://app.example"], &[]);
    assert_eq!(initialize_from(&server, Some("https://app.example")).0, 200);
    assert_eq!(initialize_from(&server, Some("https://evil.example")).0, 403);
}

/// POST an `initialize` with `authorization` (or none); the HTTP status.
fn initialize_with(server: &HttpServer, authorization: Option<&str>) -> u16 {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "auth-test", "version": "0"}}});
    let mut request = reqwest::blocking::Client::new()
        .post(&server.url)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream");
    if let Some(authorization) = authorization {
        request = request.header("Authorization", authorization);
    }
    request.body(body.to_string()).send().expect("the server answers").status().as_u16()
}

#[test]
fn every_http_request_needs_the_bearer_token_the_server_printed() {
    let server = HttpServer::start(&[], &[]);
    let token = server.token.clone().expect("the server printed a generated token");
    assert_eq!(token.len(), 64, "{token}");
    assert_eq!(initialize_with(&server, None), 401);
    assert_eq!(initialize_with(&server, Some("Bearer wrong")), 401);
    assert_eq!(initialize_with(&server, Some(&format!("Basic {token}"))), 401);
    assert_eq!(initialize_with(&server, Some(&format!("Bearer {token}"))), 200);
    // Another start, another token.
    let other = HttpServer::start(&[], &[]);
    assert_ne!(other.token, server.token);
}

#[test]
fn the_token_can_come_from_a_file_and_auth_can_be_off_on_loopback_only() {
    let dir = common::fresh_dir("auth-token");
    let file = dir.join("token");
    std::fs::write(&file, "a-token-of-twenty-chars\n").unwrap();
    let server = HttpServer::start(&["--auth-token-file", file.to_str().unwrap()], &[]);
    assert_eq!(server.token, None, "a token from a file is not printed");
    assert_eq!(initialize_with(&server, Some("Bearer a-token-of-twenty-chars")), 200);
    assert_eq!(initialize_with(&server, None), 401);

    let open = HttpServer::start(&["--no-auth"], &[]);
    assert_eq!(initialize_with(&open, None), 200);

    let refused = std::process::Command::new(common::binary())
        .args(["--transport", "streamable-http", "--port", "0", "--host", "0.0.0.0", "--no-auth"])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("--no-auth is allowed only") && stderr.contains("loopback"), "{stderr}");
}
