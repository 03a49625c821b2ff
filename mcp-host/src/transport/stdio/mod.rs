//! MCP over stdio: one JSON-RPC message per line on stdin, answers on stdout.
//!
//! rmcp's own stdio transport stays silent in three cases this server must
//! answer: a line over its length cap is dropped, a line that is not JSON is
//! ignored, and (through `serde_json`'s nesting limit) a deeply nested message
//! counts as "not JSON". A client waiting on such a request would hang. So
//! this transport reads lines itself and answers every one it cannot pass on:
//!
//! - over `--max-message-mib`: `-32600`, naming the size, the limit and the
//!   flag; the line is discarded as it streams past, never buffered;
//! - not parseable (bad JSON, nested too deep): `-32700`;
//! - JSON that is not a valid MCP message: `-32600`.
//!
//! Each reply carries the request's `id` when one can be found (see
//! `sniff.rs`), or `null`. Invalid UTF-8 is replaced with U+FFFD first, as the
//! reference server's stdio reader does, so such a message is still served.
//!
//! A `tools/call`'s arguments do not go through rmcp as a tree: they are
//! cut out of the line as JSON text and ride beside the request (see
//! `transport::arguments_text`), as over HTTP.
//!
//! The jobs: `lines.rs` reads stdin into lines under the size cap,
//! `decode.rs` turns a line into a message or an error reply, and this file
//! runs rmcp sessions on them and writes what they answer.
//!
//! If a session fails to start (for example the first message is not
//! `initialize`), the server waits for the next one instead of exiting.

mod decode;
mod lines;
mod pipes;

use std::future::Future;
use std::io;
use std::sync::Arc;

use rmcp::model::{
    ClientJsonRpcMessage, ClientNotification, ContentBlock, ErrorData, JsonRpcMessage, RequestId, ServerJsonRpcMessage,
    ServerResult,
};
use rmcp::transport::Transport;
use rmcp::RoleServer;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::sync::{mpsc, Mutex};

use crate::server::ValidationServer;

/// Serve MCP on this process's stdin and stdout until stdin closes.
pub async fn serve(server: ValidationServer, max_message_bytes: usize) -> io::Result<()> {
    serve_io(server, pipes::stdin(), pipes::stdout(), max_message_bytes).await
}

/// Serve MCP on any byte streams (stdio in production, pipes in tests).
pub async fn serve_io<R, W>(server: ValidationServer, input: R, output: W, max_message_bytes: usize) -> io::Result<()>
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    let out = Arc::new(Output { writer: Mutex::new(Box::new(output)), in_flight: InFlight::default() });
    // A small queue: each entry may be a message of up to the size cap.
    let (inbox, messages) = mpsc::channel(4);
    let reader = tokio::spawn(lines::read_messages(input, max_message_bytes, inbox, Arc::clone(&out)));
    let messages = Arc::new(Mutex::new(messages));
    loop {
        let transport = StdioTransport { messages: Arc::clone(&messages), out: Arc::clone(&out) };
        match rmcp::serve_server(server.clone(), transport).await {
            Ok(running) => {
                let reason = running.waiting().await;
                tracing::info!(?reason, "stdio session ended");
                break;
            }
            Err(err) => {
                if reader.is_finished() && messages.lock().await.is_empty() {
                    break;
                }
                tracing::warn!("no session started ({err}); waiting for an initialize request");
            }
        }
    }
    reader.abort();
    Ok(())
}

/// The write half, shared by the session and the reader's error replies.
struct Output {
    writer: Mutex<Box<dyn AsyncWrite + Send + Unpin>>,
    in_flight: InFlight,
}

impl Output {
    async fn send(&self, message: ServerJsonRpcMessage) -> io::Result<()> {
        self.in_flight.answered(&message);
        let small = is_small(&message);
        let to_line = move || crate::structured_text::reply_line(message);
        // A large result takes a while to serialise: not on a protocol
        // worker. A small one takes less than the hop to another thread.
        let serialised =
            if small { to_line() } else { tokio::task::spawn_blocking(to_line).await.map_err(io::Error::other)? };
        let line = serialised.map_err(io::Error::other)?;
        // Written in its pieces, as they are, then the line break.
        let mut writer = self.writer.lock().await;
        for piece in line.pieces() {
            writer.write_all(piece).await?;
        }
        writer.write_all(b"\n").await?;
        writer.flush().await
    }

    async fn write_line(&self, line: &[u8]) -> io::Result<()> {
        let mut writer = self.writer.lock().await;
        writer.write_all(line).await?;
        writer.flush().await
    }

    /// An error reply of the transport's own. Without an id to give back,
    /// the reply says `"id": null`, as JSON-RPC 2.0 asks.
    async fn reply_error(&self, id: Option<RequestId>, error: ErrorData) {
        tracing::warn!(id = ?id, code = error.code.0, "answering an unusable message: {}", error.message);
        let reply = serde_json::json!({"jsonrpc": "2.0", "id": id, "error": error});
        let mut line = reply.to_string().into_bytes();
        line.push(b'\n');
        if let Err(err) = self.write_line(&line).await {
            tracing::error!("cannot write to stdout: {err}");
        }
    }
}

/// Text (a message line, a reply's text) up to this many bytes is handled on
/// the protocol's own thread: serialising or parsing it takes a few
/// microseconds, less than handing it to a thread of the blocking pool and
/// back.
const INLINE_BYTES: usize = 64 << 10;

/// Whether a reply is small enough to serialise on the protocol's thread. A
/// tool result's size is that of its text copy (the same JSON indented, so
/// at least as long as its `structuredContent`); every other reply this
/// server sends is small (the largest, `tools/list`, is about 50 KiB).
fn is_small(message: &ServerJsonRpcMessage) -> bool {
    let JsonRpcMessage::Response(response) = message else { return true };
    let ServerResult::CallToolResult(result) = &response.result else { return true };
    let mut text_bytes = crate::structured_text::carried_bytes(result);
    for block in &result.content {
        let ContentBlock::Text(text) = block else { return false };
        text_bytes += text.text.len();
    }
    text_bytes <= INLINE_BYTES
}

/// The ids of requests passed to the session and not yet answered. A second
/// request with the same id while the first runs is refused, untouched
/// (rmcp would cancel the first and drop its reply).
#[derive(Default)]
struct InFlight(std::sync::Mutex<std::collections::HashSet<RequestId>>);

impl InFlight {
    fn ids(&self) -> std::sync::MutexGuard<'_, std::collections::HashSet<RequestId>> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Note a message on its way to the session; `Some` is the error reply
    /// for a request whose id is taken, which must not be passed on.
    fn admit(&self, message: &ClientJsonRpcMessage) -> Option<(RequestId, ErrorData)> {
        match message {
            JsonRpcMessage::Request(request) => (!self.ids().insert(request.id.clone())).then(|| {
                let error = ErrorData::invalid_request(
                    format!("Invalid request: id {} is already in use by a request that is still running", request.id),
                    None,
                );
                (request.id.clone(), error)
            }),
            // A cancelled request gets no reply: its id is free again.
            JsonRpcMessage::Notification(notification) => {
                if let ClientNotification::CancelledNotification(cancelled) = &notification.notification {
                    if let Some(id) = &cancelled.params.request_id {
                        self.ids().remove(id);
                    }
                }
                None
            }
            _ => None,
        }
    }

    /// Note a message on its way to the client: a reply frees its id.
    fn answered(&self, message: &ServerJsonRpcMessage) {
        let id = match message {
            JsonRpcMessage::Response(response) => Some(&response.id),
            JsonRpcMessage::Error(error) => error.id.as_ref(),
            _ => None,
        };
        if let Some(id) = id {
            self.ids().remove(id);
        }
    }
}

/// One rmcp session's view of the shared streams.
struct StdioTransport {
    messages: Arc<Mutex<mpsc::Receiver<ClientJsonRpcMessage>>>,
    out: Arc<Output>,
}

impl Transport<RoleServer> for StdioTransport {
    type Error = io::Error;

    fn send(&mut self, item: ServerJsonRpcMessage) -> impl Future<Output = Result<(), io::Error>> + Send + 'static {
        let out = Arc::clone(&self.out);
        async move { out.send(item).await }
    }

    // Cancel-safe, as rmcp requires: both awaits are, and no bytes live here.
    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        self.messages.lock().await.recv().await
    }

    // The streams outlive a session (a failed start is followed by another).
    async fn close(&mut self) -> Result<(), io::Error> {
        Ok(())
    }
}
