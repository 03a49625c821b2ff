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
//! If a session fails to start (for example the first message is not
//! `initialize`), the server waits for the next one instead of exiting.

use std::borrow::Cow;
use std::future::Future;
use std::io;
use std::sync::Arc;

use rmcp::model::{ClientJsonRpcMessage, ErrorData, RequestId, ServerJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::RoleServer;
use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{mpsc, Mutex};

use super::sniff::{sniff_id, IdSniffer};
use crate::server::ValidationServer;

/// Serve MCP on this process's stdin and stdout until stdin closes.
pub async fn serve(server: ValidationServer, max_message_bytes: usize) -> io::Result<()> {
    serve_io(server, tokio::io::stdin(), tokio::io::stdout(), max_message_bytes).await
}

/// Serve MCP on any byte streams (stdio in production, pipes in tests).
pub async fn serve_io<R, W>(server: ValidationServer, input: R, output: W, max_message_bytes: usize) -> io::Result<()>
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    let out = Arc::new(Output { writer: Mutex::new(Box::new(output)) });
    // A small queue: each entry may be a message of up to the size cap.
    let (inbox, messages) = mpsc::channel(4);
    let reader = tokio::spawn(read_messages(input, max_message_bytes, inbox, Arc::clone(&out)));
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
}

impl Output {
    async fn send(&self, message: ServerJsonRpcMessage) -> io::Result<()> {
        // A large result takes a while to serialise: not on a protocol worker.
        let line = tokio::task::spawn_blocking(move || {
            let mut line = serde_json::to_vec(&message)?;
            line.push(b'\n');
            Ok::<_, serde_json::Error>(line)
        })
        .await
        .map_err(io::Error::other)?
        .map_err(io::Error::other)?;
        let mut writer = self.writer.lock().await;
        writer.write_all(&line).await?;
        writer.flush().await
    }

    async fn reply_error(&self, id: Option<RequestId>, error: ErrorData) {
        tracing::warn!(id = ?id, code = error.code.0, "answering an unusable message: {}", error.message);
        if let Err(err) = self.send(ServerJsonRpcMessage::error(error, id)).await {
            tracing::error!("cannot write to stdout: {err}");
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

/// Read lines until EOF, passing on messages and answering the unusable.
async fn read_messages<R: AsyncRead + Unpin>(
    input: R,
    max_message_bytes: usize,
    inbox: mpsc::Sender<ClientJsonRpcMessage>,
    out: Arc<Output>,
) {
    let mut reader = BufReader::with_capacity(1 << 16, input);
    let mut line = Vec::new();
    // While discarding an over-long line: its id so far, and its size.
    let mut oversized: Option<(IdSniffer, usize)> = None;
    loop {
        let chunk = match reader.fill_buf().await {
            Ok(chunk) => chunk,
            Err(err) => {
                tracing::error!("cannot read stdin: {err}");
                break;
            }
        };
        let at_eof = chunk.is_empty();
        let newline = chunk.iter().position(|byte| *byte == b'\n');
        let take = newline.map_or(chunk.len(), |index| index + 1);
        let piece = &chunk[..take];
        if let Some((sniffer, size)) = oversized.as_mut() {
            sniffer.feed(piece);
            *size += take;
        } else if line.len() + take - usize::from(newline.is_some()) > max_message_bytes {
            let mut sniffer = IdSniffer::default();
            sniffer.feed(&line);
            sniffer.feed(piece);
            oversized = Some((sniffer, line.len() + take));
            line = Vec::new();
        } else {
            line.extend_from_slice(piece);
        }
        reader.consume(take);
        // A last line without a newline still counts, as in the reference.
        if newline.is_none() && !at_eof {
            continue;
        }
        if let Some((sniffer, size)) = oversized.take() {
            out.reply_error(sniffer.id(), too_large(size - usize::from(newline.is_some()), max_message_bytes)).await;
        } else if !line.is_empty() {
            let text = std::mem::take(&mut line);
            match tokio::task::spawn_blocking(move || decode(&text)).await {
                Ok(Decoded::Message(message)) => {
                    if inbox.send(*message).await.is_err() {
                        break;
                    }
                }
                Ok(Decoded::Reply(id, error)) => out.reply_error(id, error).await,
                Ok(Decoded::Skip) => {}
                Err(err) => tracing::error!("decoding a message failed: {err}"),
            }
        }
        if at_eof {
            break;
        }
    }
}

/// What to do with one complete line.
enum Decoded {
    Message(Box<ClientJsonRpcMessage>),
    Reply(Option<RequestId>, ErrorData),
    Skip,
}

fn decode(line: &[u8]) -> Decoded {
    let text = String::from_utf8_lossy(line);
    if let Cow::Owned(_) = text {
        tracing::debug!("replaced invalid UTF-8 in an incoming message with U+FFFD");
    }
    let text = text.trim_start_matches('\u{feff}').trim();
    if text.is_empty() {
        return Decoded::Skip;
    }
    let err = match serde_json::from_str::<ClientJsonRpcMessage>(text) {
        Ok(message) => return Decoded::Message(Box::new(message)),
        Err(err) => err,
    };
    let id = sniff_id(text.as_bytes());
    if err.classify() == serde_json::error::Category::Data {
        // Well-formed JSON that is no MCP message. Without an id it is a
        // notification nobody waits on (rmcp ignores unknown ones too).
        return match id {
            Some(id) => Decoded::Reply(Some(id), ErrorData::invalid_request(format!("Invalid request: {err}"), None)),
            None => {
                tracing::debug!("ignoring a message that is not a known MCP notification: {err}");
                Decoded::Skip
            }
        };
    }
    let why = if err.to_string().contains("recursion limit exceeded") {
        "the message is nested more than 128 levels deep".to_owned()
    } else {
        format!("the message is not valid JSON ({err})")
    };
    Decoded::Reply(id, ErrorData::parse_error(format!("Parse error: {why}"), None))
}

fn too_large(size: usize, limit: usize) -> ErrorData {
    ErrorData::invalid_request(
        format!(
            "Request too large: the message is {size} bytes, over the limit of {} MiB, and was not processed; \
             raise the limit with --max-message-mib or MCP_VALIDATION_MAX_MESSAGE_MIB",
            limit / (1024 * 1024)
        ),
        Some(json!({"message_bytes": size, "limit_bytes": limit})),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_valid_request_is_passed_on() {
        let line = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
        assert!(matches!(decode(line), Decoded::Message(_)));
    }

    #[test]
    fn invalid_utf8_is_replaced_not_refused() {
        let line = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\",\"arguments\":{\"k\":\"\xff\xfe\"}}}";
        assert!(matches!(decode(line), Decoded::Message(_)));
    }

    #[test]
    fn garbage_gets_a_parse_error_with_the_id_when_there_is_one() {
        match decode(br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"#) {
            Decoded::Reply(Some(RequestId::Number(5)), error) => assert_eq!(error.code.0, -32700),
            _ => panic!("expected a parse error for id 5"),
        }
        match decode(b"hello") {
            Decoded::Reply(None, error) => assert_eq!(error.code.0, -32700),
            _ => panic!("expected a parse error with a null id"),
        }
    }

    #[test]
    fn deep_nesting_gets_a_parse_error_that_says_so() {
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{{"name":"reconcile","arguments":{{"movements":{}{}}}}}}}"#,
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        match decode(line.as_bytes()) {
            Decoded::Reply(Some(RequestId::Number(8)), error) => {
                assert_eq!(error.code.0, -32700);
                assert!(error.message.contains("nested more than 128 levels"), "{}", error.message);
            }
            _ => panic!("expected a parse error for id 8"),
        }
    }

    #[test]
    fn a_wrongly_shaped_request_is_invalid_and_an_unknown_notification_ignored() {
        match decode(br#"{"jsonrpc":"2.0","id":"x","method":5}"#) {
            Decoded::Reply(Some(_), error) => assert_eq!(error.code.0, -32600),
            _ => panic!("expected an invalid request"),
        }
        assert!(matches!(
            decode(br#"{"jsonrpc":"2.0","method":"$/lsp-thing","params":[1]}"#),
            Decoded::Skip | Decoded::Message(_)
        ));
    }

    #[test]
    fn the_size_error_names_the_limit_and_the_flag() {
        let error = too_large(50_000_000, 16 << 20);
        assert_eq!(error.code.0, -32600);
        assert!(error.message.contains("50000000 bytes") && error.message.contains("16 MiB"));
        assert!(
            error.message.contains("--max-message-mib") && error.message.contains("MCP_VALIDATION_MAX_MESSAGE_MIB")
        );
    }
}
