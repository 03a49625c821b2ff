//! A minimal MCP client over stdio: newline-delimited JSON-RPC, one request
//! in flight at a time. The same code drives both servers.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::Value;

/// How to start a server.
#[derive(Clone)]
pub(crate) struct ServerCommand {
    /// `ours` or `reference`, for messages.
    pub(crate) name: &'static str,
    pub(crate) program: PathBuf,
    pub(crate) args: Vec<String>,
    pub(crate) env: Vec<(String, String)>,
}

/// One running server.
pub(crate) struct Session {
    name: &'static str,
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    stderr: Arc<Mutex<Vec<u8>>>,
    next_id: u64,
    /// When the process was spawned.
    pub(crate) spawned: Instant,
}

/// A reply as it came over the wire, and how long it took.
pub(crate) struct Reply {
    /// From the first byte of the request written to the last byte of the
    /// reply read.
    pub(crate) elapsed: Duration,
    /// The request line's size, newline included.
    pub(crate) request_bytes: usize,
    /// The reply line's size, newline included.
    pub(crate) response_bytes: usize,
    /// The reply line.
    pub(crate) line: Vec<u8>,
}

impl Reply {
    /// The whole reply, parsed.
    pub(crate) fn parse(&self) -> Result<Value, String> {
        serde_json::from_slice(&self.line).map_err(|err| format!("the reply is not JSON: {err}"))
    }
}

/// What is needed to route a message, read without building the rest.
#[derive(Deserialize)]
struct Routing {
    id: Option<Value>,
}

impl ServerCommand {
    /// The command, with its arguments and environment, ready to spawn.
    /// The user's own `MCP_VALIDATION_*` settings (a log level, a default
    /// `max_listed`, data roots) would change what is measured: only the
    /// command's own settings reach the server.
    pub(crate) fn to_command(&self) -> Command {
        let mut child = Command::new(&self.program);
        for (key, _) in std::env::vars_os() {
            if key.to_str().is_some_and(|key| key.starts_with("MCP_VALIDATION_")) {
                child.env_remove(key);
            }
        }
        child.args(&self.args).envs(self.env.iter().map(|(k, v)| (k, v)));
        child
    }
}

impl Session {
    pub(crate) fn spawn(command: &ServerCommand) -> Result<Session, String> {
        let spawned = Instant::now();
        let mut child = command
            .to_command()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|err| format!("cannot start {}: {err}", command.program.display()))?;
        let stdin = child.stdin.take();
        let stdout = BufReader::with_capacity(1 << 20, child.stdout.take().expect("piped stdout"));
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let mut pipe = child.stderr.take().expect("piped stderr");
        let sink = Arc::clone(&stderr);
        thread::spawn(move || {
            let mut chunk = [0u8; 8192];
            while let Ok(n) = pipe.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                sink.lock().expect("stderr buffer").extend_from_slice(&chunk[..n]);
            }
        });
        Ok(Session { name: command.name, child, stdin, stdout, stderr, next_id: 0, spawned })
    }

    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Everything the server wrote on stderr so far.
    pub(crate) fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().expect("stderr buffer")).into_owned()
    }

    /// Send a request whose `params` is the JSON text `params`, and wait for
    /// the reply with its id. Anything else the server sends meanwhile (a
    /// notification) is skipped.
    pub(crate) fn request(&mut self, method: &str, params: &str) -> Result<Reply, String> {
        self.next_id += 1;
        let id = self.next_id;
        let line = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{params}}}"#) + "\n";
        let started = Instant::now();
        self.send(line.as_bytes())?;
        loop {
            let mut reply = Vec::new();
            let n = self
                .stdout
                .read_until(b'\n', &mut reply)
                .map_err(|err| format!("{}: cannot read stdout: {err}", self.name))?;
            if n == 0 {
                return Err(format!(
                    "{} closed stdout while answering {method}; its stderr:\n{}",
                    self.name,
                    self.stderr()
                ));
            }
            let elapsed = started.elapsed();
            let routing: Routing = serde_json::from_slice(&reply)
                .map_err(|err| format!("{} sent a line that is not JSON-RPC: {err}", self.name))?;
            if routing.id == Some(Value::from(id)) {
                return Ok(Reply { elapsed, request_bytes: line.len(), response_bytes: reply.len(), line: reply });
            }
        }
    }

    /// `tools/call` with `arguments` (JSON text, sent as it is).
    pub(crate) fn call(&mut self, tool: &str, arguments: &str) -> Result<Reply, String> {
        self.request("tools/call", &format!(r#"{{"name":"{tool}","arguments":{arguments}}}"#))
    }

    pub(crate) fn notify(&mut self, method: &str) -> Result<(), String> {
        self.send(format!(r#"{{"jsonrpc":"2.0","method":"{method}"}}"#).as_bytes())?;
        self.send(b"\n")
    }

    fn send(&mut self, bytes: &[u8]) -> Result<(), String> {
        let stdin = self.stdin.as_mut().ok_or("stdin already closed")?;
        stdin
            .write_all(bytes)
            .and_then(|()| stdin.flush())
            .map_err(|err| format!("{}: cannot write stdin: {err}; its stderr:\n{}", self.name, self.stderr()))
    }

    /// `initialize` (protocol 2025-06-18), then `notifications/initialized`.
    pub(crate) fn initialize(&mut self) -> Result<Reply, String> {
        let reply = self.request(
            "initialize",
            r#"{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"mcp-validation-bench","version":"0"}}"#,
        )?;
        self.notify("notifications/initialized")?;
        Ok(reply)
    }

    /// Peak and current resident size in bytes (`VmHWM`, `VmRSS`).
    pub(crate) fn memory(&self) -> Result<(u64, u64), String> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid()))
            .map_err(|err| format!("cannot read /proc/{}/status: {err}", self.pid()))?;
        let field = |name: &str| -> Result<u64, String> {
            status
                .lines()
                .find_map(|line| line.strip_prefix(name))
                .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
                .map(|kib| kib * 1024)
                .ok_or_else(|| format!("no {name} in /proc/{}/status", self.pid()))
        };
        Ok((field("VmHWM:")?, field("VmRSS:")?))
    }

    /// Close stdin and wait for the server to exit.
    pub(crate) fn close(mut self) -> Result<(), String> {
        drop(self.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => return Ok(()),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                Ok(None) => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    return Err(format!("{} did not exit within 30 s of stdin closing", self.name));
                }
                Err(err) => return Err(format!("{}: {err}", self.name)),
            }
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The `structuredContent` of a successful `tools/call` reply.
pub(crate) fn structured_content(reply: &Reply) -> Result<Value, String> {
    let mut value = reply.parse()?;
    if value.get("result").is_none() {
        return Err(format!("not a result: {}", abbreviate(&value)));
    }
    let result = &mut value["result"];
    if result.get("isError") == Some(&Value::Bool(true)) {
        return Err(format!("the call failed: {}", abbreviate(result)));
    }
    result.get_mut("structuredContent").map(Value::take).ok_or_else(|| "the result has no structuredContent".to_owned())
}

fn abbreviate(value: &Value) -> String {
    let text = value.to_string();
    if text.len() <= 600 {
        return text;
    }
    let mut end = 600;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &text[..end])
}
