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
//! A `tools/call`'s arguments and result do not go through rmcp as trees:
//! the arguments are cut out of the line as JSON text and travel beside the
//! request as [`RawArguments`] (the module parses that text itself), and the
//! result comes back as the module's text, filed in [`RawResults`] and put
//! into the reply line in place of a stand-in. Parsing them into trees only
//! to write them out again cost more time than the check itself on large
//! calls, and most of the memory (README.md, Benchmarks).
//!
//! If a session fails to start (for example the first message is not
//! `initialize`), the server waits for the next one instead of exiting.

use std::borrow::Cow;
use std::future::Future;
use std::io;
use std::sync::Arc;

use rmcp::model::{
    ClientJsonRpcMessage, ClientRequest, ErrorData, JsonRpcMessage, RequestId, ServerJsonRpcMessage, ServerResult,
};
use rmcp::transport::Transport;
use rmcp::RoleServer;
use serde::Deserialize;
use serde_json::json;
use serde_json::value::RawValue;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{mpsc, Mutex};

use super::sniff::{sniff_id, IdSniffer};
use crate::server::{RawArguments, RawResult, RawResults, ValidationServer};

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
    let raw_results = RawResults::default();
    let out = Arc::new(Output { writer: Mutex::new(Box::new(output)), raw_results: raw_results.clone() });
    // A small queue: each entry may be a message of up to the size cap.
    let (inbox, messages) = mpsc::channel(4);
    let reader = tokio::spawn(read_messages(input, max_message_bytes, inbox, Arc::clone(&out), raw_results));
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
    /// Results filed as text by the handler, put into their reply lines here.
    raw_results: RawResults,
}

impl Output {
    async fn send(&self, message: ServerJsonRpcMessage) -> io::Result<()> {
        let raw = raw_result_key(&message).and_then(|key| {
            let raw = self.raw_results.take(key);
            if raw.is_none() {
                tracing::error!("no result filed under {key}; the stand-in goes out as it is");
            }
            raw.map(|raw| (key.to_owned(), raw))
        });
        // A large result takes a while to serialise: not on a protocol worker.
        let line = tokio::task::spawn_blocking(move || {
            let mut line = serde_json::to_vec(&message)?;
            if let Some((key, raw)) = raw {
                drop(message);
                line = splice_raw_result(&line, &key, &raw)?;
            }
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

/// The key of a `tools/call` result whose texts were filed in [`RawResults`]:
/// its `structuredContent` is the stand-in that holds the key.
fn raw_result_key(message: &ServerJsonRpcMessage) -> Option<&str> {
    let JsonRpcMessage::Response(response) = message else {
        return None;
    };
    let ServerResult::CallToolResult(result) = &response.result else {
        return None;
    };
    result.structured_content.as_ref().and_then(RawResults::stand_in_key)
}

/// `line` (a serialised stand-in result) with the filed texts in place of the
/// two keys: the structured JSON as it is, the text copy as a JSON string.
fn splice_raw_result(line: &[u8], key: &str, raw: &RawResult) -> Result<Vec<u8>, serde_json::Error> {
    use serde::ser::Error as _;
    let structured_key = serde_json::to_vec(&RawResults::structured_stand_in(key))?;
    let text_key = serde_json::to_vec(&RawResults::text_key(key))?;
    let find = |needle: &[u8]| {
        line.windows(needle.len())
            .position(|window| window == needle)
            .ok_or_else(|| serde_json::Error::custom("a raw result's key is missing from its reply"))
    };
    let mut places = [(find(&structured_key)?, structured_key.len(), true), (find(&text_key)?, text_key.len(), false)];
    places.sort_unstable();
    let mut out = Vec::with_capacity(line.len() + raw.structured.len() + raw.text.len() * 9 / 8);
    let mut at = 0;
    for (position, length, structured) in places {
        out.extend_from_slice(&line[at..position]);
        if structured {
            out.extend_from_slice(raw.structured.as_bytes());
        } else {
            serde_json::to_writer(&mut out, raw.text.as_str())?;
        }
        at = position + length;
    }
    out.extend_from_slice(&line[at..]);
    Ok(out)
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
    raw_results: RawResults,
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
            let results = raw_results.clone();
            match tokio::task::spawn_blocking(move || decode(&text, &results)).await {
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

fn decode(line: &[u8], raw_results: &RawResults) -> Decoded {
    let text = String::from_utf8_lossy(line);
    if let Cow::Owned(_) = text {
        tracing::debug!("replaced invalid UTF-8 in an incoming message with U+FFFD");
    }
    let text = text.trim_start_matches('\u{feff}').trim();
    if text.is_empty() {
        return Decoded::Skip;
    }
    if let Some(message) = decode_call_keeping_arguments(text, raw_results) {
        return Decoded::Message(Box::new(message));
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

/// What [`decode_call_keeping_arguments`] reads of a message: its method and
/// where its arguments are, without building them.
#[derive(Deserialize)]
struct CallShape<'a> {
    #[serde(borrow)]
    method: Cow<'a, str>,
    #[serde(borrow)]
    params: ParamsShape<'a>,
}

#[derive(Deserialize)]
struct ParamsShape<'a> {
    #[serde(borrow)]
    arguments: Option<&'a RawValue>,
}

/// The deepest `arguments` object the fast path takes: the message itself and
/// `params` are two more levels, and `serde_json` (so rmcp) refuses a message
/// nested more than 128 deep. Deeper arguments take the ordinary path, which
/// answers them as it always has.
const MAX_ARGUMENTS_DEPTH: usize = 126;

/// A `tools/call` with its `arguments` object kept as the client's JSON text:
/// rmcp parses the message with `{}` in the arguments' place, and the text
/// rides along in the request's extensions as [`RawArguments`], with
/// `raw_results` for the handler to file the result in.
///
/// `None` for anything else, and for any message this cannot take apart
/// (not JSON, no object for `arguments`, duplicate keys, too deep, or
/// refused by rmcp): [`decode`] then handles it exactly as before.
fn decode_call_keeping_arguments(text: &str, raw_results: &RawResults) -> Option<ClientJsonRpcMessage> {
    let shape: CallShape<'_> = serde_json::from_str(text).ok()?;
    if shape.method != "tools/call" {
        return None;
    }
    let arguments = shape.params.arguments?.get();
    if !arguments.starts_with('{') || nesting_depth(arguments) > MAX_ARGUMENTS_DEPTH {
        return None;
    }
    // `RawValue` borrows from `text`, so its offset there is its position.
    let start = arguments.as_ptr() as usize - text.as_ptr() as usize;
    let end = start + arguments.len();
    let mut stripped = String::with_capacity(text.len() - arguments.len() + 2);
    stripped.push_str(&text[..start]);
    stripped.push_str("{}");
    stripped.push_str(&text[end..]);
    let mut message: ClientJsonRpcMessage = serde_json::from_str(&stripped).ok()?;
    let JsonRpcMessage::Request(request) = &mut message else {
        return None;
    };
    let ClientRequest::CallToolRequest(call) = &mut request.request else {
        return None;
    };
    call.extensions.insert(RawArguments(Arc::from(arguments)));
    call.extensions.insert(raw_results.clone());
    Some(message)
}

/// How deeply arrays and objects nest in `json` (valid JSON text): 1 for
/// `{}`, 2 for `{"a":[]}`.
fn nesting_depth(json: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    for &byte in json.as_bytes() {
        if in_string {
            if escaped {
                escaped = false;
            } else if byte == b'\\' {
                escaped = true;
            } else if byte == b'"' {
                in_string = false;
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
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
    use serde_json::Value;

    #[test]
    fn a_valid_request_is_passed_on() {
        let line = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
        assert!(matches!(decode(line, &RawResults::default()), Decoded::Message(_)));
    }

    #[test]
    fn invalid_utf8_is_replaced_not_refused() {
        let line = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\",\"arguments\":{\"k\":\"\xff\xfe\"}}}";
        assert!(matches!(decode(line, &RawResults::default()), Decoded::Message(_)));
    }

    #[test]
    fn garbage_gets_a_parse_error_with_the_id_when_there_is_one() {
        match decode(br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"#, &RawResults::default()) {
            Decoded::Reply(Some(RequestId::Number(5)), error) => assert_eq!(error.code.0, -32700),
            _ => panic!("expected a parse error for id 5"),
        }
        match decode(b"hello", &RawResults::default()) {
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
        match decode(line.as_bytes(), &RawResults::default()) {
            Decoded::Reply(Some(RequestId::Number(8)), error) => {
                assert_eq!(error.code.0, -32700);
                assert!(error.message.contains("nested more than 128 levels"), "{}", error.message);
            }
            _ => panic!("expected a parse error for id 8"),
        }
    }

    #[test]
    fn a_wrongly_shaped_request_is_invalid_and_an_unknown_notification_ignored() {
        match decode(br#"{"jsonrpc":"2.0","id":"x","method":5}"#, &RawResults::default()) {
            Decoded::Reply(Some(_), error) => assert_eq!(error.code.0, -32600),
            _ => panic!("expected an invalid request"),
        }
        assert!(matches!(
            decode(br#"{"jsonrpc":"2.0","method":"$/lsp-thing","params":[1]}"#, &RawResults::default()),
            Decoded::Skip | Decoded::Message(_)
        ));
    }

    fn raw_arguments(decoded: Decoded) -> Option<String> {
        let Decoded::Message(message) = decoded else { panic!("expected a message") };
        let JsonRpcMessage::Request(request) = *message else { panic!("expected a request") };
        match request.request {
            ClientRequest::CallToolRequest(call) => {
                assert_eq!(call.params.arguments, Some(serde_json::Map::new()));
                call.extensions.get::<RawArguments>().map(|raw| raw.0.to_string())
            }
            _ => None,
        }
    }

    #[test]
    fn a_calls_arguments_pass_through_as_the_clients_text() {
        let arguments = r#"{"rows": [{"k": 1.50, "s": "a\"}\u00e9"}], "key":"k"}"#;
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"count_distinct","arguments":{arguments},"_meta":{{"progressToken":1}}}}}}"#
        );
        assert_eq!(raw_arguments(decode(line.as_bytes(), &RawResults::default())).as_deref(), Some(arguments));
        // Key order in the message does not matter.
        let line = format!(
            r#"{{"params":{{"arguments":{arguments},"name":"count_distinct"}},"method":"tools/call","id":"x","jsonrpc":"2.0"}}"#
        );
        assert_eq!(raw_arguments(decode(line.as_bytes(), &RawResults::default())).as_deref(), Some(arguments));
    }

    #[test]
    fn other_shapes_take_the_ordinary_path() {
        // No arguments, null arguments, arguments that are no object, other methods.
        for line in [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":null}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"arguments":{}}}"#,
        ] {
            assert!(decode_call_keeping_arguments(line, &RawResults::default()).is_none(), "{line}");
        }
        assert!(decode_call_keeping_arguments(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":[1]}}"#,
            &RawResults::default()
        )
        .is_none());
        // Duplicate keys: serde refuses the shape, the ordinary path decides.
        assert!(decode_call_keeping_arguments(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{},"arguments":{}}}"#,
            &RawResults::default()
        )
        .is_none());
    }

    #[test]
    fn a_filed_result_goes_out_as_rmcp_would_have_written_it() {
        use rmcp::model::{CallToolResult, ContentBlock};
        let structured = r#"{"tool":"t","ok":true,"n":20.0,"rows":[{"s":"a \"b\"\n"}],"e":{}}"#;
        let value: Value = serde_json::from_str(structured).unwrap();
        let text = serde_json::to_string_pretty(&value).unwrap();
        let mut direct = CallToolResult::success(vec![ContentBlock::text(text.clone())]);
        direct.structured_content = Some(value);
        let direct = ServerJsonRpcMessage::response(ServerResult::CallToolResult(direct), RequestId::Number(7));

        let results = RawResults::default();
        let key = results.file(RawResult { structured: structured.to_owned(), text });
        let mut stand_in = CallToolResult::success(vec![ContentBlock::text(RawResults::text_key(&key))]);
        stand_in.structured_content = Some(RawResults::structured_stand_in(&key));
        // What rmcp does for a client of an older protocol version keeps it.
        let mut stand_in = ServerResult::CallToolResult(stand_in);
        stand_in.strip_non_object_output_for_legacy_peer();
        let stand_in = ServerJsonRpcMessage::response(stand_in, RequestId::Number(7));
        assert_eq!(raw_result_key(&stand_in), Some(key.as_str()));
        assert_eq!(raw_result_key(&direct), None);
        let raw = results.take(&key).unwrap();
        assert!(results.take(&key).is_none());
        let line = serde_json::to_vec(&stand_in).unwrap();
        assert_eq!(
            String::from_utf8(splice_raw_result(&line, &key, &raw).unwrap()).unwrap(),
            serde_json::to_string(&direct).unwrap()
        );
    }

    #[test]
    fn nesting_depth_counts_containers_outside_strings() {
        assert_eq!(nesting_depth("{}"), 1);
        assert_eq!(nesting_depth(r#"{"a":[{"b":"[[[{"}]]}"#), 3);
        assert_eq!(nesting_depth(r#"{"a":"\"[[","b":[[]]}"#), 3);
        let deep = format!("{{\"a\":{}{}}}", "[".repeat(200), "]".repeat(200));
        assert_eq!(nesting_depth(&deep), 201);
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
