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

use std::future::Future;
use std::sync::Arc;
use std::time::Instant;

use crate::arguments::{CallSettings, PrepareError};
use crate::bounded::{self, StopFlag};
use crate::budget::{self, CallBudget};
use crate::json_shape::Outline;
use crate::output_files::OutputError;
use crate::sandbox::{parse_result, Answer, CallInput, Module, Outcome, Sandbox, SandboxError};
use crate::structured_text::CarriesText;
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
/// Both transports cut the arguments out of the message before rmcp parses
/// it (`transport::arguments_text`) and put the text here, in the request's
/// extensions (over HTTP, in those of the HTTP request that rmcp passes on),
/// with `{}` in the message's place. The text goes to the module as it came:
/// no tree of a large argument object is built in the host.
#[derive(Clone, Debug)]
pub struct RawArguments {
    /// The arguments object's JSON text.
    pub text: Arc<str>,
    /// Its outline, when the transport read it (`json_shape.rs`): the host
    /// then does not read the text again to see which arguments are there.
    outline: Option<Arc<Outline>>,
}

impl RawArguments {
    /// Arguments cut out of a message, with the outline read from them.
    pub(crate) fn with_outline(text: Arc<str>, outline: Outline) -> Self {
        RawArguments { text, outline: Some(Arc::new(outline)) }
    }
}

impl From<Arc<str>> for RawArguments {
    fn from(text: Arc<str>) -> Self {
        RawArguments { text, outline: None }
    }
}

/// The MCP handler. Cheap to clone: one per HTTP session, all sharing one
/// sandbox (and so one engine and one compiled module).
#[derive(Clone)]
pub struct ValidationServer {
    sandbox: Sandbox,
    settings: Arc<CallSettings>,
    budget: CallBudget,
}

/// Arguments at least this large are a large call: once it is over, the
/// memory it freed is handed back to the system.
const LARGE_CALL_BYTES: usize = 1 << 20;

impl ValidationServer {
    /// A server whose tool calls run in `sandbox`, their arguments prepared
    /// with `settings` (default `max_listed`, data roots for `path`), within
    /// `budget` (call slots and bytes, shared by every call of every session;
    /// the sandbox should take its linear memory from the same pool).
    pub fn new(sandbox: Sandbox, settings: CallSettings, budget: CallBudget) -> Self {
        ValidationServer { sandbox, settings: Arc::new(settings), budget }
    }

    /// Run one tool call: the one path every transport takes.
    ///
    /// Arguments in (as JSON text), the MCP result out. The call first takes
    /// a slot and reserves its arguments' bytes in the server's budget
    /// (waiting briefly for either; busy after that). Everything slow —
    /// reading a `path` file, the module, rendering the result — runs in one
    /// blocking step, within the call's deadline (which covers the file read
    /// as well as the module) and stopped by `cancelled`.
    pub async fn call(&self, name: &str, arguments: Arc<str>, cancelled: impl Future<Output = ()>) -> CallToolResult {
        self.call_reserved(name, arguments.into(), None, false, cancelled).await
    }

    /// [`ValidationServer::call`], with the arguments' bytes perhaps
    /// reserved already (by the HTTP transport, before it read the body),
    /// and the result's structured content carried as text when the
    /// transport `carries` it (`structured_text.rs`).
    async fn call_reserved(
        &self,
        name: &str,
        arguments: RawArguments,
        held: Option<budget::Reservation>,
        carries: bool,
        cancelled: impl Future<Output = ()>,
    ) -> CallToolResult {
        tokio::pin!(cancelled);
        let admitted = tokio::select! {
            admitted = self.admit(arguments.text.len(), held) => admitted,
            () = &mut cancelled => Err(SandboxError::Cancelled),
        };
        let (module, slot, mut reserved) = match admitted {
            Ok(admitted) => admitted,
            Err(err) => return stopped(name, &err),
        };
        let deadline = Instant::now() + self.sandbox.timeout();
        if arguments.text.len() <= INLINE_ARGUMENT_BYTES {
            if let Some(result) = run_inline(&module, &self.settings, name, &arguments, deadline, carries) {
                drop((reserved, slot));
                return result;
            }
        }
        let settings = Arc::clone(&self.settings);
        let tool = name.to_owned();
        let large = arguments.text.len() >= LARGE_CALL_BYTES;
        let work = move |stop: &StopFlag| {
            let args = match settings.prepare_outlined(&tool, &arguments.text, arguments.outline.as_deref(), stop) {
                Ok(args) => args,
                Err(err) => return prepare_error_result(&tool, &err),
            };
            drop(arguments);
            // A `path` file's text is held beside the module's memory.
            let file_bytes = args.csv.as_ref().map_or(0, String::len);
            if let Err(busy) = reserved.try_grow(file_bytes as u64) {
                return stopped(&tool, &SandboxError::Busy(busy));
            }
            let result = run_module(&module, &tool, args, deadline, stop, carries);
            drop((reserved, slot));
            if large || file_bytes >= LARGE_CALL_BYTES {
                budget::release_freed_memory();
            }
            result
        };
        match bounded::run_blocking(work, deadline, self.sandbox.timeout(), cancelled).await {
            Ok(result) => result,
            Err(err) => stopped(name, &err),
        }
    }

    /// The prepared module, a call slot and the arguments' bytes, each
    /// waited for (the slot and the bytes within the budget's wait).
    async fn admit(
        &self,
        argument_bytes: usize,
        held: Option<budget::Reservation>,
    ) -> Result<(Module, budget::Slot, budget::Reservation), SandboxError> {
        let module = self.sandbox.module().await?;
        let slot = self.budget.slot().await.map_err(SandboxError::Busy)?;
        let reserved = match held {
            // The body held the arguments and more: its bytes cover them.
            Some(held) if held.bytes() >= argument_bytes as u64 => held,
            _ => self
                .budget
                .memory()
                .reserve(argument_bytes as u64, self.budget.wait())
                .await
                .map_err(SandboxError::Busy)?,
        };
        Ok((module, slot, reserved))
    }
}

/// Arguments up to this size are first tried in the inline lane
/// ([`run_inline`]).
const INLINE_ARGUMENT_BYTES: usize = 16 << 10;

/// The fuel a try in the inline lane may use: a few milliseconds of the
/// module's time (the 12-movement reconcile takes well under a million).
const INLINE_FUEL: u64 = 20_000_000;

/// A small call, tried on the thread that received it: answered there if it
/// needs no file and at most [`INLINE_FUEL`]; `None` (nothing said, nothing
/// logged) to run it again, in full, on the blocking pool.
///
/// Handing a call to a thread of the blocking pool and its answer back is
/// two thread wake-ups; for a call that takes the module 30 µs they were
/// most of the server's time (`perf` on a stream of 12-movement reconciles
/// over stdio: the scheduler's wake-up and switch functions on both
/// threads). The module is deterministic and every try is a fresh instance,
/// so a call that stops for want of the lane's fuel gets, run again, the
/// answer it would have got; the lane only costs its few milliseconds. While
/// a try runs, this thread does nothing else (on stdio, the only protocol
/// thread): a cancellation is not seen before it ends, which the fuel keeps
/// short; the deadline holds as on every call.
fn run_inline(
    module: &Module,
    settings: &CallSettings,
    tool: &str,
    arguments: &RawArguments,
    deadline: Instant,
    carries: bool,
) -> Option<CallToolResult> {
    let input = match settings.prepare_in_memory(tool, &arguments.text, arguments.outline.as_deref())? {
        Ok(input) => input,
        Err(err) => return Some(prepare_error_result(tool, &err)),
    };
    let fuel = INLINE_FUEL.min(module.max_fuel());
    // Nothing sets it: the try is bounded by its fuel and the deadline.
    let stop = StopFlag::never();
    match module.call_with_fuel(tool, input, deadline, &stop, fuel) {
        Err(SandboxError::OutOfFuel { .. }) if fuel < module.max_fuel() => None,
        Ok(outcome) => {
            log_call(tool, &outcome);
            Some(render(tool, outcome.answer, carries))
        }
        Err(err) => Some(stopped(tool, &err)),
    }
}

/// Run the module on the prepared arguments, and render its answer.
fn run_module(
    module: &Module,
    tool: &str,
    args: CallInput,
    deadline: Instant,
    stop: &StopFlag,
    carries: bool,
) -> CallToolResult {
    match module.call(tool, args, deadline, stop) {
        Ok(outcome) => {
            log_call(tool, &outcome);
            render(tool, outcome.answer, carries)
        }
        // Set when whoever waited has answered (and logged) already.
        Err(_) if stop.is_set() => error_result(tool, "the call was stopped", None),
        Err(err) => stopped(tool, &err),
    }
}

/// A call the sandbox stopped (a limit, a cancellation), logged and answered.
fn stopped(name: &str, err: &SandboxError) -> CallToolResult {
    tracing::warn!(tool = name, code = err.code(), "call stopped: {err}");
    sandbox_error_result(name, err)
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
        let arguments = match raw_arguments(&mut context) {
            Some(arguments) => arguments,
            // Not cut out by the transport (a body it could not take
            // apart): written back as text once, in the same form.
            None => Arc::<str>::from(Value::Object(request.arguments.unwrap_or_default()).to_string()).into(),
        };
        let held = held_reservation(&context);
        let carries = context.extensions.get::<CarriesText>().is_some();
        Ok(self.call_reserved(&name, arguments, held, carries, context.ct.cancelled()).await.into())
    }
}

/// The arguments text the transport attached to this request: in its
/// extensions on stdio, in the HTTP request's over HTTP.
fn raw_arguments(context: &mut RequestContext<RoleServer>) -> Option<RawArguments> {
    if let Some(text) = context.extensions.remove::<RawArguments>() {
        return Some(text);
    }
    // Taken, not cloned, so the text is freed as soon as the module has it.
    context.extensions.get_mut::<axum::http::request::Parts>()?.extensions.remove::<RawArguments>()
}

/// The bytes the HTTP transport reserved for this request's body, if any.
fn held_reservation(context: &RequestContext<RoleServer>) -> Option<budget::Reservation> {
    context.extensions.get::<axum::http::request::Parts>()?.extensions.get::<budget::HeldReservation>()?.take()
}

fn log_call(name: &str, outcome: &Outcome) {
    tracing::info!(
        tool = name,
        outcome = outcome.answer.kind(),
        elapsed_ms = outcome.elapsed.as_millis(),
        fuel = outcome.fuel_used,
        peak_memory_mib = outcome.peak_memory_bytes as f64 / f64::from(1 << 20),
        parts = outcome.parts,
        "call finished"
    );
}

/// The module's answer as an MCP result: `structuredContent` as the module
/// wrote it (as its text, which the transport writes in place, when it
/// `carries` it), and the reference SDK's text copy (the same JSON indented
/// by two spaces, made from the text without a tree).
fn render(name: &str, answer: Answer, carries: bool) -> CallToolResult {
    match answer {
        Answer::Result(json) => {
            // `pretty` and `pretty_escaped` check that the text is one
            // compact JSON object.
            if carries {
                return match crate::pretty::pretty_escaped(&json) {
                    Some(text) => crate::structured_text::carried(json, text),
                    None => broken(name, "the result is not one compact JSON object".to_owned()),
                };
            }
            let Some(text) = crate::pretty::pretty(&json) else {
                return broken(name, "the result is not one compact JSON object".to_owned());
            };
            let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
            match parse_result(json.as_bytes()) {
                Ok(value) => result.structured_content = Some(value),
                Err(why) => return broken(name, why),
            }
            result
        }
        Answer::ArgumentError(err) => {
            let details =
                json!({"code": err.code, "argument": err.argument, "location": err.location, "line": err.line});
            error_result(name, &err.message, Some(details))
        }
        // The result describes files that are not there: not returned.
        Answer::NotWritten(err) => error_result(name, &err.message, Some(output_details(&err))),
    }
}

/// A module that wrote no JSON broke the ABI, as a trap does.
fn broken(name: &str, why: String) -> CallToolResult {
    sandbox_error_result(name, &SandboxError::Trapped(why))
}

/// The machine-readable details of an export that was not written.
fn output_details(err: &OutputError) -> Value {
    json!({"code": err.code, "argument": "export", "location": "export.dir", "line": null})
}

/// A call refused before the module ran: its `path` (the code says why), or
/// arguments that are not an object.
fn prepare_error_result(name: &str, err: &PrepareError) -> CallToolResult {
    let details = match err {
        PrepareError::File(file) => json!({"code": file.code, "argument": "path", "location": "path", "line": null}),
        PrepareError::ReferenceFile { location, error } => {
            json!({"code": error.code, "argument": "columns", "location": location, "line": null})
        }
        PrepareError::NotAnObject(_) => {
            json!({"code": "invalid_json", "argument": Value::Null, "location": Value::Null, "line": Value::Null})
        }
        PrepareError::Output(output) => output_details(output),
    };
    error_result(name, &err.to_string(), Some(details))
}

fn sandbox_error_result(name: &str, err: &SandboxError) -> CallToolResult {
    let limit = match err {
        SandboxError::OutOfFuel { limit } => json!(limit),
        SandboxError::OutOfMemory { limit_bytes } => json!(limit_bytes / (1024 * 1024)),
        SandboxError::Timeout { limit } => json!(limit.as_secs()),
        SandboxError::Busy(busy) => json!(busy.limit()),
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
