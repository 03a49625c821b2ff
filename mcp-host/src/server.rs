//! The MCP server: identity, instructions, `tools/list` and `tools/call`.
//!
//! It converts; it does not decide. Arguments go to the module as the client
//! sent them (the core does the reference's lenient argument binding), and
//! the module's answer comes back as `structuredContent` unchanged plus a
//! pretty-printed text copy, as the reference's SDK renders it.

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation, JsonObject, ListToolsResult,
    MetaObject, PaginatedRequestParams, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde_json::{json, Value};

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::arguments::{CallSettings, PrepareError};
use crate::bounded::{self, StopFlag};
use crate::sandbox::{parse_result, Answer, Outcome, Sandbox, SandboxError};
use crate::tools;

/// The reference's server name; hosts and logs know the server by it.
pub const SERVER_NAME: &str = "mcp-validation-server";
/// The reference's human-readable title.
pub const SERVER_TITLE: &str = "Data Validation";
/// The server's version (the reference's, 0.1.0: same tools, same answers).
pub const SERVER_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The reference's server instructions, verbatim.
pub const INSTRUCTIONS: &str = include_str!("instructions.md");

/// `_meta` key under which an error result carries machine-readable details.
pub const ERROR_META_KEY: &str = "mcp-validation-server/error";

/// A `tools/call`'s `arguments` object as the client's JSON text.
///
/// The stdio transport puts it in the request's extensions (and `{}` in
/// `arguments`), so the text goes to the module as it came, with no tree built
/// and written back out on the way. Over HTTP, rmcp parses the arguments and
/// the handler serialises them as before.
#[derive(Clone, Debug)]
pub struct RawArguments(pub Arc<str>);

/// Results the transport writes into the reply line as text.
///
/// The stdio transport puts a handle to its `RawResults` in the extensions
/// of each call whose arguments it passed as text. The handler then keeps the
/// module's result as text too: it files the result and its pretty-printed
/// copy here under a key, and answers rmcp with a small stand-in whose
/// `structuredContent` is [`RawResults::structured_stand_in`] and whose text
/// is [`RawResults::text_key`].
/// The transport serialises that stand-in and puts the filed texts in place
/// of the two keys. No tree of the result is built, and the line is byte for
/// byte what rmcp would have written from one.
#[derive(Clone, Default, Debug)]
pub struct RawResults(Arc<Mutex<HashMap<String, RawResult>>>);

/// A result kept as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawResult {
    /// The `structuredContent` JSON, compact, as the module wrote it.
    pub structured: String,
    /// The text copy: the same JSON, pretty-printed.
    pub text: String,
}

/// The one field of a stand-in `structuredContent`; its value is the key.
pub const RAW_RESULT_FIELD: &str = "mcp-validation-server/raw-result";

impl RawResults {
    /// File `result`; returns its key.
    pub fn file(&self, result: RawResult) -> String {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let key = format!("{RAW_RESULT_FIELD}/{}", NEXT.fetch_add(1, Ordering::Relaxed));
        self.entries().insert(key.clone(), result);
        key
    }

    /// Remove and return the result filed under `key`.
    pub fn take(&self, key: &str) -> Option<RawResult> {
        self.entries().remove(key)
    }

    /// The stand-in `structuredContent` of the result filed under `key`. An
    /// object, because rmcp drops a `structuredContent` that is not one when
    /// it answers a client of an older protocol version.
    pub fn structured_stand_in(key: &str) -> Value {
        json!({ RAW_RESULT_FIELD: key })
    }

    /// The key in `value`, if `value` is a stand-in `structuredContent`.
    pub fn stand_in_key(value: &Value) -> Option<&str> {
        let object = value.as_object().filter(|object| object.len() == 1)?;
        object.get(RAW_RESULT_FIELD)?.as_str()
    }

    /// The stand-in text content of the result filed under `key`.
    pub fn text_key(key: &str) -> String {
        format!("{key}/text")
    }

    #[cfg(test)]
    fn is_filed(&self, key: &str) -> bool {
        self.entries().contains_key(key)
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, HashMap<String, RawResult>> {
        // The map stays consistent even if a holder panicked.
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// How long a filed result may wait for its reply line once its request is
/// over. The transport takes a result within milliseconds of the handler
/// returning it; one still filed after this was never sent: rmcp drops the
/// response of a request cancelled in the meantime, and a session can end
/// with a response in flight.
const UNSENT_RESULT_GRACE: std::time::Duration = std::time::Duration::from_secs(30);

/// Release the result filed under `key` if it is still there `grace` after
/// `request_over` completes (rmcp cancels a request's token when it hands
/// the response to the transport, when the client cancels the request, and
/// when the session ends). Without this, a result whose response rmcp
/// dropped would stay in memory for the life of the process.
fn release_if_unsent(
    results: RawResults,
    key: String,
    request_over: impl std::future::Future<Output = ()> + Send + 'static,
    grace: std::time::Duration,
) {
    tokio::spawn(async move {
        request_over.await;
        tokio::time::sleep(grace).await;
        if results.take(&key).is_some() {
            tracing::debug!(key, "released a result whose reply was never sent");
        }
    });
}

/// A call's arguments, in whichever form the transport delivered them.
enum Arguments {
    Text(RawArguments),
    Object(JsonObject),
}

/// The MCP handler. Cheap to clone: one per HTTP session, all sharing one
/// sandbox (and so one engine and one compiled module).
#[derive(Clone)]
pub struct ValidationServer {
    sandbox: Sandbox,
    settings: Arc<CallSettings>,
}

impl ValidationServer {
    /// A server whose tool calls run in `sandbox`, their arguments prepared
    /// with `settings` (default `max_listed`, data roots for `path`).
    pub fn new(sandbox: Sandbox, settings: CallSettings) -> Self {
        ValidationServer { sandbox, settings: Arc::new(settings) }
    }

    async fn run_tool(
        &self,
        name: &str,
        arguments: Arguments,
        raw_results: Option<RawResults>,
        context: &RequestContext<RoleServer>,
    ) -> CallToolResult {
        // The call's deadline covers reading a `path` file as well as the
        // module, and so does cancellation.
        let deadline = Instant::now() + self.sandbox.timeout();
        let cancelled = context.ct.cancelled();
        tokio::pin!(cancelled);
        // Serialising a large argument object (or reading a file) takes a
        // while: not on the protocol's worker threads.
        let settings = Arc::clone(&self.settings);
        let tool = name.to_owned();
        let prepare = move |stop: &StopFlag| match arguments {
            Arguments::Text(RawArguments(text)) => settings.prepare_text(&tool, &text, stop),
            Arguments::Object(arguments) => settings.prepare(&tool, arguments, stop),
        };
        let args = match bounded::run_blocking(prepare, deadline, self.sandbox.timeout(), &mut cancelled).await {
            Ok(Ok(args)) => args,
            Ok(Err(err)) => return prepare_error_result(name, &err),
            Err(err) => {
                tracing::warn!(tool = name, code = err.code(), "call stopped while its file was read: {err}");
                return sandbox_error_result(name, &err);
            }
        };
        let outcome = match self.sandbox.call_until(name, args, deadline, &mut cancelled).await {
            Ok(outcome) => outcome,
            Err(err) => {
                tracing::warn!(tool = name, code = err.code(), "call stopped: {err}");
                return sandbox_error_result(name, &err);
            }
        };
        log_call(name, &outcome);
        let Some(results) = raw_results else { return render(name, outcome.answer).await };
        let result = render_text(name, outcome.answer, &results).await;
        if let Some(key) = result.structured_content.as_ref().and_then(RawResults::stand_in_key) {
            let request_over = context.ct.clone().cancelled_owned();
            release_if_unsent(results, key.to_owned(), request_over, UNSENT_RESULT_GRACE);
        }
        result
    }
}

impl ServerHandler for ValidationServer {
    fn get_info(&self) -> ServerConfig {
        let mut implementation = Implementation::new(SERVER_NAME, SERVER_VERSION);
        implementation.title = Some(SERVER_TITLE.to_owned());
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(implementation)
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        // Static metadata: answering never waits for the module.
        Ok(ListToolsResult::with_all_items(tools::list().to_vec()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let name = request.name;
        if !tools::is_tool(&name) {
            // A protocol error, as rmcp's own router gives: the tool is not
            // there to report anything.
            return Err(McpError::invalid_params(format!("Unknown tool: {name}"), None));
        }
        let arguments = match context.extensions.remove::<RawArguments>() {
            Some(text) => Arguments::Text(text),
            None => Arguments::Object(request.arguments.unwrap_or_default()),
        };
        let raw_results = context.extensions.remove::<RawResults>();
        Ok(self.run_tool(&name, arguments, raw_results, &context).await.into())
    }
}

fn log_call(name: &str, outcome: &Outcome) {
    tracing::info!(
        tool = name,
        outcome = outcome.answer.kind(),
        elapsed_ms = outcome.elapsed.as_millis(),
        fuel = outcome.fuel_used,
        peak_memory_mib = outcome.peak_memory_bytes as f64 / f64::from(1 << 20),
        "call finished"
    );
}

/// The module's answer as an MCP result.
async fn render(name: &str, answer: Answer) -> CallToolResult {
    match answer {
        Answer::Result(json) => {
            // rmcp takes the result as a tree, and the text copy is the
            // reference SDK's: the same JSON, indented by two spaces. Parsing
            // and rendering a large result is slow, so it runs off the
            // protocol's worker threads.
            let rendered = tokio::task::spawn_blocking(move || {
                let value = parse_result(json.as_bytes()).map_err(SandboxError::Trapped)?;
                let text = serde_json::to_string_pretty(&value)
                    .map_err(|err| SandboxError::Trapped(format!("the result could not be rendered: {err}")))?;
                Ok((value, text))
            })
            .await
            .unwrap_or_else(|err| Err(SandboxError::Trapped(format!("the result could not be rendered: {err}"))));
            match rendered {
                Ok((value, text)) => {
                    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
                    result.structured_content = Some(value);
                    result
                }
                // A module that wrote no JSON broke the ABI, as a trap does.
                Err(err) => sandbox_error_result(name, &err),
            }
        }
        Answer::ArgumentError(err) => {
            let details = json!({"code": err.code, "argument": err.argument});
            error_result(name, &err.message, Some(details))
        }
    }
}

/// The module's answer as an MCP result whose result stays text: filed in
/// `results` for the transport, with a stand-in for rmcp (see [`RawResults`]).
async fn render_text(name: &str, answer: Answer, results: &RawResults) -> CallToolResult {
    let json = match answer {
        Answer::Result(json) => json,
        error @ Answer::ArgumentError(_) => return render(name, error).await,
    };
    // Re-indenting a large result takes a while: not on a protocol worker.
    let rendered = tokio::task::spawn_blocking(move || match crate::pretty::pretty(&json) {
        Some(text) => Ok(RawResult { structured: json, text }),
        None => Err(json),
    })
    .await;
    match rendered {
        Ok(Ok(raw)) => {
            let key = results.file(raw);
            let mut result = CallToolResult::success(vec![ContentBlock::text(RawResults::text_key(&key))]);
            result.structured_content = Some(RawResults::structured_stand_in(&key));
            result
        }
        // Not one compact JSON object: the tree path parses it, and reports
        // a result that is no JSON.
        Ok(Err(json)) => render(name, Answer::Result(json)).await,
        Err(err) => error_result(name, &format!("the result could not be rendered: {err}"), None),
    }
}

/// A call refused before the module ran: its `path` (the code says why), or
/// arguments that are not an object.
fn prepare_error_result(name: &str, err: &PrepareError) -> CallToolResult {
    let details = match err {
        PrepareError::File(file) => json!({"code": file.code, "argument": "path"}),
        PrepareError::NotAnObject(_) => json!({"code": "invalid_json", "argument": Value::Null}),
    };
    error_result(name, &err.to_string(), Some(details))
}

fn sandbox_error_result(name: &str, err: &SandboxError) -> CallToolResult {
    let limit = match err {
        SandboxError::OutOfFuel { limit } => json!(limit),
        SandboxError::OutOfMemory { limit_bytes } => json!(limit_bytes / (1024 * 1024)),
        SandboxError::Timeout { limit } => json!(limit.as_secs()),
        _ => Value::Null,
    };
    let details = json!({"code": err.code(), "limit": limit, "flag": err.flag()});
    error_result(name, &err.to_string(), Some(details))
}

/// An `isError` result whose text is the reference SDK's
/// `Error executing tool <name>: <message>`, with `details` (if any) in
/// `_meta` where a model does not read them and a program can.
fn error_result(name: &str, message: &str, details: Option<Value>) -> CallToolResult {
    let result = CallToolResult::error(vec![ContentBlock::text(format!("Error executing tool {name}: {message}"))]);
    match details {
        Some(details) => {
            let mut meta = JsonObject::new();
            meta.insert(ERROR_META_KEY.to_owned(), details);
            result.with_meta(Some(MetaObject(meta)))
        }
        None => result,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn a_result_never_sent_is_released_once_its_request_is_over() {
        let results = RawResults::default();
        let key = results.file(RawResult { structured: "{}".into(), text: "{}".into() });
        let (over, over_received) = tokio::sync::oneshot::channel::<()>();
        let request_over = async move {
            let _ = over_received.await;
        };
        let grace = Duration::from_millis(300);
        release_if_unsent(results.clone(), key.clone(), request_over, grace);

        // While the request is running, its result stays, however long it takes.
        tokio::time::sleep(Duration::from_millis(400)).await;
        assert!(results.is_filed(&key), "released while the request was running");

        // Over (and never sent): gone once the grace has passed, not before.
        let over_at = std::time::Instant::now();
        over.send(()).expect("the watcher is waiting");
        while results.is_filed(&key) {
            assert!(over_at.elapsed() < Duration::from_secs(10), "still filed long after the grace");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert!(over_at.elapsed() >= grace, "released {:?} after the request, before the grace", over_at.elapsed());
    }

    #[tokio::test]
    async fn a_sent_result_is_not_touched() {
        let results = RawResults::default();
        let key = results.file(RawResult { structured: "{}".into(), text: "{}".into() });
        let other = results.file(RawResult { structured: "{}".into(), text: "{}".into() });
        release_if_unsent(results.clone(), key.clone(), async {}, Duration::from_millis(20));
        // The transport takes it at once, as it does when the reply goes out.
        assert!(results.take(&key).is_some());
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert!(results.is_filed(&other), "another call's result was released");
    }
}
