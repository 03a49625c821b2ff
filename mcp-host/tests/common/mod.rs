//! Spawning the real binary and speaking MCP to it, over stdio and HTTP.
//!
//! Deliberately small and independent of rmcp: these tests check the bytes
//! on the wire, not what rmcp makes of them.

// Each test file uses a different part; helpers take `Value`s by value so
// that call sites can pass `json!(...)` directly.
#![allow(dead_code, unused_imports, unreachable_pub, clippy::needless_pass_by_value)]

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

pub use conformance_support::dedupe_inputs::{numbered_names_arguments, paired_arguments, slow_arguments};

/// The binary under test.
pub fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_mcp-validation-server")
}

/// The binary with `transport` then `args`, the shared module cache, info
/// logs, and `env` on top; its standard streams are the caller's to set.
fn server_command(transport: &[&str], args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut command = Command::new(binary());
    command
        .args(transport)
        .args(args)
        .env("MCP_VALIDATION_CACHE_DIR", shared_cache_dir())
        .env("MCP_VALIDATION_LOG", "info")
        .envs(env.iter().copied());
    command
}

/// One compiled-module cache for the whole test run, so only the first
/// server start compiles the module.
pub fn shared_cache_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("mcpv-module-cache")
}

/// A fresh, empty directory under the target tmp dir.
pub fn fresh_dir(name: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Whether a test that needs an optional tool must fail (CI) rather than skip.
pub fn require_all_tests() -> bool {
    std::env::var_os("MCPV_REQUIRE_ALL_TESTS").is_some_and(|value| !value.is_empty() && value != "0")
}

/// Skip (loudly) or fail, depending on `MCPV_REQUIRE_ALL_TESTS`.
pub fn skip_or_fail(why: &str) {
    assert!(!require_all_tests(), "MCPV_REQUIRE_ALL_TESTS is set, so this cannot be skipped: {why}");
    // Straight to the stderr handle: the test harness captures `eprintln!`,
    // and a skip nobody sees is a silent one.
    let _ = writeln!(
        std::io::stderr(),
        "\n*** SKIPPED: {why}\n*** (set MCPV_REQUIRE_ALL_TESTS=1 to make this a failure)\n"
    );
}

pub const DEFAULT_WAIT: Duration = Duration::from_secs(180);

/// What the stdout reader has seen.
#[derive(Default)]
struct Inbox {
    messages: VecDeque<Value>,
    /// Lines on stdout that were not JSON: must stay empty.
    garbage: Vec<String>,
    closed: bool,
}

/// A server process on stdio.
pub struct StdioServer {
    child: Child,
    stdin: Option<ChildStdin>,
    inbox: Arc<(Mutex<Inbox>, Condvar)>,
    stderr: Arc<Mutex<String>>,
    next_id: i64,
}

impl StdioServer {
    /// Start the binary with `args`, the shared module cache and `env`.
    pub fn start(args: &[&str], env: &[(&str, &str)]) -> StdioServer {
        let mut child = server_command(&[], args, env)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let stdout = child.stdout.take().unwrap();
        let stderr_pipe = child.stderr.take().unwrap();
        let inbox = Arc::new((Mutex::new(Inbox::default()), Condvar::new()));
        let stderr = Arc::new(Mutex::new(String::new()));
        {
            let inbox = Arc::clone(&inbox);
            thread::spawn(move || {
                let mut reader = BufReader::with_capacity(1 << 20, stdout);
                let mut line = Vec::new();
                loop {
                    line.clear();
                    match reader.read_until(b'\n', &mut line) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {}
                    }
                    let (lock, wake) = &*inbox;
                    let mut inbox = lock.lock().unwrap();
                    match serde_json::from_slice::<Value>(&line) {
                        Ok(value) => inbox.messages.push_back(value),
                        Err(_) => inbox.garbage.push(String::from_utf8_lossy(&line).into_owned()),
                    }
                    wake.notify_all();
                }
                let (lock, wake) = &*inbox;
                lock.lock().unwrap().closed = true;
                wake.notify_all();
            });
        }
        {
            let stderr = Arc::clone(&stderr);
            thread::spawn(move || {
                let mut reader = BufReader::new(stderr_pipe);
                let mut line = String::new();
                while reader.read_line(&mut line).is_ok_and(|n| n > 0) {
                    stderr.lock().unwrap().push_str(&line);
                    line.clear();
                }
            });
        }
        let stdin = child.stdin.take().unwrap();
        StdioServer { child, stdin: Some(stdin), inbox, stderr, next_id: 0 }
    }

    /// Start with default flags and complete the `initialize` handshake.
    pub fn initialized(args: &[&str], env: &[(&str, &str)]) -> StdioServer {
        let mut server = StdioServer::start(args, env);
        server.initialize("2025-06-18");
        server
    }

    pub fn next_id(&mut self) -> i64 {
        self.next_id += 1;
        self.next_id
    }

    /// Write raw bytes to stdin (a newline is not added).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).expect("write to the server");
        stdin.flush().unwrap();
    }

    pub fn send(&mut self, message: &Value) {
        let mut line = serde_json::to_vec(message).unwrap();
        line.push(b'\n');
        self.send_raw(&line);
    }

    /// Send a request and wait for its response (result or error).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id();
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.wait_for_id(&json!(id), DEFAULT_WAIT)
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    pub fn initialize(&mut self, version: &str) -> Value {
        let response = self.request(
            "initialize",
            json!({"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "mcp-host-tests", "version": "0"}}),
        );
        assert!(response.get("result").is_some(), "initialize failed: {response}\n{}", self.stderr());
        self.notify("notifications/initialized", json!({}));
        response
    }

    /// `tools/call` and its `result` (panics on a JSON-RPC error).
    pub fn call_tool(&mut self, name: &str, arguments: Value) -> Value {
        let response = self.request("tools/call", json!({"name": name, "arguments": arguments}));
        match response.get("result") {
            Some(result) => result.clone(),
            None => panic!("tools/call {name} gave no result: {response}\nstderr:\n{}", self.stderr()),
        }
    }

    /// Wait for the message whose `id` is `id`.
    pub fn wait_for_id(&mut self, id: &Value, timeout: Duration) -> Value {
        self.wait_for(|message| message.get("id") == Some(id), timeout)
            .unwrap_or_else(|| panic!("no response with id {id} within {timeout:?}; stderr:\n{}", self.stderr()))
    }

    /// Wait for (and remove) the first message matching `matches`.
    pub fn wait_for(&mut self, matches: impl Fn(&Value) -> bool, timeout: Duration) -> Option<Value> {
        let deadline = Instant::now() + timeout;
        let (lock, wake) = &*self.inbox;
        let mut inbox = lock.lock().unwrap();
        loop {
            if let Some(index) = inbox.messages.iter().position(&matches) {
                return inbox.messages.remove(index);
            }
            let now = Instant::now();
            if inbox.closed || now >= deadline {
                return None;
            }
            inbox = wake.wait_timeout(inbox, deadline - now).unwrap().0;
        }
    }

    /// Every message received and not yet taken.
    pub fn pending_messages(&self) -> Vec<Value> {
        self.inbox.0.lock().unwrap().messages.iter().cloned().collect()
    }

    /// Lines on stdout that were not JSON (protocol only on stdout: empty).
    pub fn stdout_garbage(&self) -> Vec<String> {
        self.inbox.0.lock().unwrap().garbage.clone()
    }

    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// Wait until stderr contains `needle`.
    pub fn wait_for_stderr(&self, needle: &str, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if self.stderr().contains(needle) {
                return true;
            }
            thread::sleep(Duration::from_millis(20));
        }
        false
    }

    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            thread::sleep(Duration::from_millis(20));
        }
        None
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for StdioServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A line of `/proc/PID/status` in KiB (`VmHWM`, `VmRSS`), as MiB.
pub fn status_mib(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|line| line.starts_with(field))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// The text of a result's first content block.
pub fn text_of(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_else(|| panic!("no text content in {result}"))
}

pub fn is_error(result: &Value) -> bool {
    result["isError"] == json!(true)
}

/// A server process on Streamable HTTP, and a blocking client for it.
pub struct HttpServer {
    child: Child,
    pub url: String,
    /// The bearer token the server printed at start (none with `--no-auth`
    /// or `--auth-token-file`).
    pub token: Option<String>,
    stderr: Arc<Mutex<String>>,
}

/// The token in the line the server prints when it generates one.
const TOKEN_LINE: &str = "HTTP clients must send the header Authorization: Bearer ";

impl HttpServer {
    /// Start on a free loopback port with `args` added.
    pub fn start(args: &[&str], env: &[(&str, &str)]) -> HttpServer {
        let mut child = server_command(&["--transport", "streamable-http", "--port", "0"], args, env)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let stderr_pipe = child.stderr.take().unwrap();
        let stderr = Arc::new(Mutex::new(String::new()));
        let (found, url) = {
            let stderr = Arc::clone(&stderr);
            let (send, receive) = std::sync::mpsc::channel();
            thread::spawn(move || {
                let mut reader = BufReader::new(stderr_pipe);
                let mut line = String::new();
                let mut reported = false;
                while reader.read_line(&mut line).is_ok_and(|n| n > 0) {
                    if !reported {
                        if let Some(rest) = line.split("listening on http://").nth(1) {
                            let _ = send.send(format!("http://{}", rest.trim()));
                            reported = true;
                        }
                    }
                    stderr.lock().unwrap().push_str(&line);
                    line.clear();
                }
            });
            match receive.recv_timeout(Duration::from_secs(30)) {
                Ok(url) => (true, url),
                Err(_) => (false, String::new()),
            }
        };
        // The token line comes before the listening line.
        let token =
            stderr.lock().unwrap().lines().find_map(|line| line.split(TOKEN_LINE).nth(1)).map(|t| t.trim().to_owned());
        let server = HttpServer { child, url, token, stderr };
        assert!(found, "the HTTP server did not report its address; stderr:\n{}", server.stderr());
        server
    }

    /// The server's process id (to read its memory from /proc).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The `Authorization` header value this server wants, if any.
    pub fn authorization(&self) -> Option<String> {
        self.token.as_ref().map(|token| format!("Bearer {token}"))
    }

    /// A new MCP session speaking protocol `version`.
    pub fn session_at(&self, version: &str) -> HttpSession {
        HttpSession::open(&self.url, self.authorization(), version)
    }

    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// A new MCP session (2025-06-18 `initialize` handshake).
    pub fn session(&self) -> HttpSession {
        self.session_at("2025-06-18")
    }

    pub fn wait_for_stderr(&self, needle: &str, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if self.stderr().contains(needle) {
                return true;
            }
            thread::sleep(Duration::from_millis(20));
        }
        false
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One MCP session over Streamable HTTP.
pub struct HttpSession {
    client: reqwest::blocking::Client,
    url: String,
    authorization: Option<String>,
    version: String,
    session_id: Option<String>,
    next_id: i64,
}

impl HttpSession {
    pub fn open(url: &str, authorization: Option<String>, version: &str) -> HttpSession {
        let client = reqwest::blocking::Client::builder().timeout(DEFAULT_WAIT).build().unwrap();
        let mut session = HttpSession {
            client,
            url: url.to_owned(),
            authorization,
            version: version.to_owned(),
            session_id: None,
            next_id: 0,
        };
        let (response, headers) = session.post_raw(
            &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "mcp-host-tests", "version": "0"}}}),
        );
        assert!(response["result"]["serverInfo"].is_object(), "initialize over HTTP failed: {response}");
        session.session_id = headers.get("mcp-session-id").and_then(|value| value.to_str().ok()).map(str::to_owned);
        let status = session.post_status(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        assert_eq!(status, 202, "notifications/initialized");
        session
    }

    fn builder(&self, body: &Value) -> reqwest::blocking::RequestBuilder {
        self.builder_bytes(serde_json::to_vec(body).unwrap())
    }

    fn builder_bytes(&self, body: Vec<u8>) -> reqwest::blocking::RequestBuilder {
        let mut builder = self
            .client
            .post(&self.url)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", &self.version);
        if let Some(id) = &self.session_id {
            builder = builder.header("Mcp-Session-Id", id);
        }
        if let Some(authorization) = &self.authorization {
            builder = builder.header("Authorization", authorization);
        }
        builder.body(body)
    }

    /// Send a POST's head in this session declaring a body of
    /// `content_length` bytes, send none of the body, and read the reply:
    /// its status and body. A server that waits for the body before it
    /// answers makes this time out.
    pub fn post_declaring(&self, content_length: usize) -> (u16, String) {
        let address = self.url.trim_start_matches("http://").split('/').next().unwrap().to_owned();
        let path = self.url.trim_start_matches("http://")[address.len()..].to_owned();
        let mut stream = std::net::TcpStream::connect(&address).expect("connect");
        stream.set_read_timeout(Some(DEFAULT_WAIT)).unwrap();
        let mut lines = vec![
            format!("POST {path} HTTP/1.1"),
            format!("Host: {address}"),
            "Content-Type: application/json".to_owned(),
            "Accept: application/json, text/event-stream".to_owned(),
            format!("MCP-Protocol-Version: {}", self.version),
            format!("Content-Length: {content_length}"),
        ];
        lines.extend(self.session_id.iter().map(|id| format!("Mcp-Session-Id: {id}")));
        lines.extend(self.authorization.iter().map(|authorization| format!("Authorization: {authorization}")));
        let head = lines.join("\r\n") + "\r\n\r\n";
        stream.write_all(head.as_bytes()).expect("send the head");
        // The server closes the connection after its answer.
        let reply = String::from_utf8_lossy(&read_all(&mut stream)).into_owned();
        let status = reply.split(' ').nth(1).and_then(|code| code.parse().ok()).unwrap_or(0);
        let body = reply.split_once("\r\n\r\n").map_or("", |(_, body)| body).to_owned();
        (status, body)
    }

    /// The `Mcp-Session-Id` the server gave this session.
    pub fn session_id(&self) -> Option<&str> {
        self.session_id.as_deref()
    }

    /// POST raw bytes in this session; the HTTP status and the reply body.
    pub fn post_bytes(&self, body: Vec<u8>) -> (u16, String) {
        let response = self.builder_bytes(body).send().expect("POST");
        let status = response.status().as_u16();
        (status, response.text().unwrap_or_default())
    }

    fn post_status(&self, body: &Value) -> u16 {
        self.builder(body).send().expect("POST").status().as_u16()
    }

    /// POST one message; return the JSON-RPC message in the reply (plain JSON
    /// or the last `data:` event of an SSE stream), and the headers.
    pub fn post_raw(&self, body: &Value) -> (Value, reqwest::header::HeaderMap) {
        let response = self.builder(body).send().expect("POST");
        let headers = response.headers().clone();
        let status = response.status();
        let text = response.text().expect("a body");
        (parse_http_reply(status.as_u16(), &text), headers)
    }

    pub fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        self.post_raw(&json!({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})).0
    }

    pub fn call_tool(&mut self, name: &str, arguments: Value) -> Value {
        let response = self.request("tools/call", json!({"name": name, "arguments": arguments}));
        response
            .get("result")
            .cloned()
            .unwrap_or_else(|| panic!("tools/call {name} over HTTP gave no result: {response}"))
    }
}

/// The JSON-RPC message in an HTTP reply body: JSON, or SSE `data:` lines.
pub fn parse_http_reply(status: u16, body: &str) -> Value {
    if let Ok(value) = serde_json::from_str::<Value>(body) {
        return value;
    }
    let mut last = None;
    for event in body.split("\n\n") {
        let data: Vec<&str> =
            event.lines().filter_map(|line| line.strip_prefix("data:")).map(str::trim_start).collect();
        if data.is_empty() {
            continue;
        }
        if let Ok(value) = serde_json::from_str::<Value>(&data.join("\n")) {
            if value.get("id").is_some() {
                last = Some(value);
            }
        }
    }
    last.unwrap_or_else(|| json!({"http_status": status, "body": body}))
}

/// Read a whole response body from a raw socket until the peer closes it.
pub fn read_all(mut reader: impl Read) -> Vec<u8> {
    let mut bytes = Vec::new();
    let _ = reader.read_to_end(&mut bytes);
    bytes
}

/// The 100,000-row shaped data the README's figures use, at any size.
pub fn invoice_rows(count: usize) -> Value {
    let statuses = ["open", "paid", "void"];
    let rows: Vec<Value> = (0..count)
        .map(|i| {
            json!({
                "invoice": format!("INV-{i:06}"),
                "amount": if i % 1000 == 999 { "abc".to_owned() } else { format!("{:.2}", ((i * 37) % 100_000) as f64 / 100.0) },
                "date": format!("2026-04-{:02}", i % 28 + 1),
                "status": statuses[i % 3],
            })
        })
        .collect();
    Value::Array(rows)
}

/// `validate_rows` arguments over [`invoice_rows`].
pub fn invoice_arguments(count: usize) -> Value {
    json!({
        "rows": invoice_rows(count),
        "columns": [
            {"name": "invoice", "type": "string", "required": true, "pattern": "INV-\\d+"},
            {"name": "amount", "type": "number", "min": 0},
            {"name": "date", "type": "date", "required": true},
            {"name": "status", "allowed": ["open", "paid", "void"]},
        ],
        "row_key": "invoice",
    })
}

/// A quick call whose answer is known: proves the server is healthy.
pub fn small_call_arguments() -> Value {
    json!({"rows": [{"id": "C-1"}, {"id": "c-1 "}, {"id": "C-2"}], "key": "id"})
}

/// Check the answer to [`small_call_arguments`] on `count_distinct`.
pub fn assert_small_call_ok(result: &Value) {
    assert!(!is_error(result), "expected a normal result, got {result}");
    assert_eq!(result["structuredContent"]["distinct_count"], json!(2), "{result}");
    assert_eq!(result["structuredContent"]["row_count"], json!(3), "{result}");
}
