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

use std::sync::Arc;

use crate::arguments::CallSettings;
use crate::sandbox::{Answer, Outcome, Sandbox, SandboxError};
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
        arguments: JsonObject,
        context: &RequestContext<RoleServer>,
    ) -> CallToolResult {
        // Serialising a large argument object (or reading a file) takes a
        // while: not on the protocol's worker threads.
        let settings = Arc::clone(&self.settings);
        let tool = name.to_owned();
        let prepared = tokio::task::spawn_blocking(move || settings.prepare(&tool, arguments))
            .await
            .unwrap_or_else(|err| Err(err.to_string()));
        let args = match prepared {
            Ok(args) => args,
            Err(message) => return error_result(name, &message, None),
        };
        let outcome = self.sandbox.call(name, args, context.ct.cancelled()).await;
        match outcome {
            Ok(outcome) => {
                log_call(name, &outcome);
                render(name, outcome.answer).await
            }
            Err(err) => {
                tracing::warn!(tool = name, code = err.code(), "call stopped: {err}");
                sandbox_error_result(name, &err)
            }
        }
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
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let name = request.name;
        if !tools::is_tool(&name) {
            // A protocol error, as rmcp's own router gives: the tool is not
            // there to report anything.
            return Err(McpError::invalid_params(format!("Unknown tool: {name}"), None));
        }
        let arguments = request.arguments.unwrap_or_default();
        Ok(self.run_tool(&name, arguments, &context).await.into())
    }
}

fn log_call(name: &str, outcome: &Outcome) {
    let kind = match &outcome.answer {
        Answer::Result(_) => "result",
        Answer::ArgumentError(_) => "argument_error",
    };
    tracing::info!(
        tool = name,
        outcome = kind,
        elapsed_ms = outcome.elapsed.as_millis(),
        fuel = outcome.fuel_used,
        peak_memory_mib = outcome.peak_memory_bytes as f64 / f64::from(1 << 20),
        "call finished"
    );
}

/// The module's answer as an MCP result.
async fn render(name: &str, answer: Answer) -> CallToolResult {
    match answer {
        Answer::Result(value) => {
            // The text copy is the reference SDK's: the same JSON, indented
            // by two spaces. Rendering a large result is slow, so it runs off
            // the protocol's worker threads.
            let rendered = tokio::task::spawn_blocking(move || {
                serde_json::to_string_pretty(&value).map(|text| (value, text)).map_err(|err| err.to_string())
            })
            .await
            .unwrap_or_else(|err| Err(err.to_string()));
            match rendered {
                Ok((value, text)) => {
                    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
                    result.structured_content = Some(value);
                    result
                }
                Err(err) => {
                    let message = format!("the result could not be rendered: {err}");
                    error_result(name, &message, None)
                }
            }
        }
        Answer::ArgumentError(err) => {
            let details = json!({"code": err.code, "argument": err.argument});
            error_result(name, &err.message, Some(details))
        }
    }
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
