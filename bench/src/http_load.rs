//! Small calls per second over Streamable HTTP: this server started with
//! `--transport streamable-http`, and a few clients, each on its own
//! keep-alive connection and MCP session, sending the small `reconcile` one
//! call after another for a fixed time. Every reply is checked to be the
//! call's result, so a refusal (busy, an error) is never counted as a call.
//!
//! The client is a few lines of HTTP/1.1 over a `TcpStream`, not an HTTP
//! library with a runtime of its own: it shares the machine's cores with the
//! server, so the less it costs per call, the more of the figure is the
//! server's.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::data::Workload;
use crate::mcp::ServerCommand;
use crate::stats::Samples;

/// What one run of the load measured.
pub(crate) struct Throughput {
    /// Clients, each with one call in flight at a time.
    pub(crate) clients: usize,
    /// Calls answered with a result within the timed window.
    pub(crate) calls: u64,
    /// The timed window.
    pub(crate) seconds: f64,
    /// Each call's time, request written to reply read.
    pub(crate) latency: Samples,
    /// One call's `structuredContent`, to compare with the stdio result.
    pub(crate) result: Value,
}

impl Throughput {
    pub(crate) fn per_second(&self) -> f64 {
        self.calls as f64 / self.seconds
    }
}

/// Start the server on a free loopback port, load it with `clients`
/// clients for `window` (after each has made `warm_up` calls), stop it.
pub(crate) fn small_calls_per_second(
    command: &ServerCommand,
    small: &Workload,
    clients: usize,
    warm_up: usize,
    window: Duration,
) -> Result<Throughput, String> {
    let mut server = HttpServer::start(command)?;
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"{}","arguments":{}}}}}"#,
        small.tool, small.args
    );
    let body = Arc::new(body.into_bytes());
    let start = Arc::new(Barrier::new(clients + 1));
    let mut workers = Vec::new();
    for _ in 0..clients {
        let (port, body, start) = (server.port, Arc::clone(&body), Arc::clone(&start));
        workers.push(thread::spawn(move || -> Result<(u64, Samples, Value), String> {
            let mut connection = Connection::open(port)?;
            connection.initialize()?;
            for _ in 0..warm_up {
                connection.call(&body)?;
            }
            start.wait();
            let began = Instant::now();
            let mut calls = 0;
            let mut latency = Samples::default();
            let mut result = Value::Null;
            while began.elapsed() < window {
                let sent = Instant::now();
                result = connection.call(&body)?;
                latency.push(sent.elapsed());
                calls += 1;
            }
            Ok((calls, latency, result))
        }));
    }
    start.wait();
    let began = Instant::now();
    let mut calls = 0;
    let mut latency = Samples::default();
    let mut result = Value::Null;
    for worker in workers {
        let (n, samples, value) = worker.join().map_err(|_| "an HTTP client thread panicked")??;
        calls += n;
        latency.0.extend(samples.0);
        result = value;
    }
    // Each client finishes the call it had started when the window closed.
    let seconds = began.elapsed().as_secs_f64();
    server.stop();
    Ok(Throughput { clients, calls, seconds, latency, result })
}

/// The server process, listening on a port it chose.
struct HttpServer {
    child: Child,
    port: u16,
}

impl HttpServer {
    fn start(command: &ServerCommand) -> Result<HttpServer, String> {
        let mut child = command
            .to_command()
            .args(["--transport", "streamable-http", "--port", "0", "--no-auth"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|err| format!("cannot start {}: {err}", command.program.display()))?;
        let mut stderr = BufReader::new(child.stderr.take().expect("piped stderr"));
        let mut line = String::new();
        let port = loop {
            line.clear();
            if stderr.read_line(&mut line).map_err(|err| err.to_string())? == 0 {
                let _ = child.kill();
                return Err("the HTTP server exited before it listened".into());
            }
            if let Some(rest) = line.trim().strip_prefix("mcp-validation-server: listening on http://") {
                let port = rest.split('/').next().and_then(|address| address.rsplit(':').next());
                break port.and_then(|port| port.parse().ok()).ok_or(format!("no port in {line:?}"))?;
            }
        };
        // Keep draining stderr, so a chatty server never blocks on it.
        thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        Ok(HttpServer { child, port })
    }

    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// One keep-alive connection carrying one MCP session.
struct Connection {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    port: u16,
    session: Option<String>,
}

/// A reply: status, the headers this client reads, the body.
struct Response {
    status: u16,
    session: Option<String>,
    body: Vec<u8>,
}

impl Connection {
    fn open(port: u16) -> Result<Connection, String> {
        let stream = TcpStream::connect(("127.0.0.1", port)).map_err(|err| format!("connect: {err}"))?;
        stream.set_nodelay(true).map_err(|err| err.to_string())?;
        let writer = stream.try_clone().map_err(|err| err.to_string())?;
        Ok(Connection { reader: BufReader::with_capacity(1 << 16, stream), writer, port, session: None })
    }

    fn initialize(&mut self) -> Result<(), String> {
        let initialize = br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"mcp-validation-bench","version":"0"}}}"#;
        let response = self.post(initialize)?;
        if response.status != 200 {
            return Err(format!("initialize over HTTP: status {}", response.status));
        }
        self.session = response.session;
        let response = self.post(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)?;
        if response.status != 202 {
            return Err(format!("notifications/initialized over HTTP: status {}", response.status));
        }
        Ok(())
    }

    /// One `tools/call`; its `structuredContent`, or why there is none.
    fn call(&mut self, body: &[u8]) -> Result<Value, String> {
        let response = self.post(body)?;
        let message = json_rpc_message(&response.body)
            .ok_or_else(|| format!("status {}: no JSON-RPC reply in the body", response.status))?;
        match message.pointer("/result/structuredContent") {
            Some(content) if message["result"]["isError"] != true => Ok(content.clone()),
            _ => Err(format!("the call was not answered with a result: {message}")),
        }
    }

    fn post(&mut self, body: &[u8]) -> Result<Response, String> {
        let mut head = format!(
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-06-18\r\n\
             Content-Length: {}\r\n",
            self.port,
            body.len()
        );
        if let Some(session) = &self.session {
            head.push_str("Mcp-Session-Id: ");
            head.push_str(session);
            head.push_str("\r\n");
        }
        head.push_str("\r\n");
        let mut request = head.into_bytes();
        request.extend_from_slice(body);
        self.writer.write_all(&request).map_err(|err| format!("send: {err}"))?;
        self.read_response()
    }

    fn read_response(&mut self) -> Result<Response, String> {
        let mut line = String::new();
        self.read_line(&mut line)?;
        let status =
            line.split(' ').nth(1).and_then(|code| code.parse().ok()).ok_or(format!("status line {line:?}"))?;
        let (mut length, mut chunked, mut session) = (None, false, None);
        loop {
            line.clear();
            self.read_line(&mut line)?;
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            let Some((name, value)) = header.split_once(':') else { continue };
            let value = value.trim();
            match name.to_ascii_lowercase().as_str() {
                "content-length" => length = value.parse().ok(),
                "transfer-encoding" => chunked = value.eq_ignore_ascii_case("chunked"),
                "mcp-session-id" => session = Some(value.to_owned()),
                _ => {}
            }
        }
        let mut body = Vec::new();
        if chunked {
            loop {
                line.clear();
                self.read_line(&mut line)?;
                let size = usize::from_str_radix(line.trim().split(';').next().unwrap_or(""), 16)
                    .map_err(|_| format!("chunk size {line:?}"))?;
                let start = body.len();
                body.resize(start + size, 0);
                self.reader.read_exact(&mut body[start..]).map_err(|err| format!("read: {err}"))?;
                line.clear();
                self.read_line(&mut line)?;
                if size == 0 {
                    break;
                }
            }
        } else if let Some(length) = length {
            body.resize(length, 0);
            self.reader.read_exact(&mut body).map_err(|err| format!("read: {err}"))?;
        }
        Ok(Response { status, session, body })
    }

    fn read_line(&mut self, line: &mut String) -> Result<(), String> {
        match self.reader.read_line(line) {
            Ok(0) => Err("the server closed the connection".into()),
            Ok(_) => Ok(()),
            Err(err) => Err(format!("read: {err}")),
        }
    }
}

/// The JSON-RPC reply in a body: plain JSON, or the SSE event that has an id.
fn json_rpc_message(body: &[u8]) -> Option<Value> {
    if let Ok(value) = serde_json::from_slice::<Value>(body) {
        return Some(value);
    }
    let text = std::str::from_utf8(body).ok()?;
    text.split("\n\n")
        .filter_map(|event| {
            let data: Vec<&str> =
                event.lines().filter_map(|line| line.strip_prefix("data:")).map(str::trim_start).collect();
            serde_json::from_str::<Value>(&data.join("\n")).ok()
        })
        .filter(|value| value.get("id").is_some())
        .last()
}
