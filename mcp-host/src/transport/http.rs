//! MCP Streamable HTTP at `http://HOST:PORT/mcp`, through rmcp's tower
//! service on axum.
//!
//! rmcp answers every request that gets to it: a body that is not a JSON-RPC
//! message gets a 4xx with the reason. Both lifecycles work: the `initialize`
//! handshake (2025-06-18, 2025-11-25) and `server/discover` with per-request
//! metadata (2026-07-28).
//!
//! Before that, `transport::connections` accepts a connection only under
//! `--max-connections` and holds it to the header (and idle) timeout, and
//! `transport::http_body` reads a body within `--max-message-mib` (413 past
//! it, before reading), `--body-timeout-secs` (408) and the memory budget
//! (503 with no room).
//!
//! The server runs stateless (no `Mcp-Session-Id`): it never sends requests
//! or notifications of its own, so a session would hold nothing, and only a
//! stateless request is cancelled when its client disconnects (a session's
//! stream may be resumed, so rmcp keeps its calls running). Each request
//! runs on its own task, so a slow call never holds up another.
//!
//! A request from a web page whose `Origin` is not allowed gets 403 before
//! anything reads it (`transport::origin`), and one without the bearer
//! token 401 (`transport::auth`).
//!
//! `transport::http_body` also cuts a `tools/call`'s arguments out as text, as
//! the stdio transport does (see `transport::arguments_text`): rmcp passes the
//! HTTP request's parts, and so the text, to the handler.

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};

use super::auth::{check_auth, AuthPolicy};
use super::connections::{self, ConnectionLimits};
use super::http_body::{read_body, BodyLimits};
use super::origin::{check_origin, OriginPolicy};
use crate::budget::CallBudget;
use crate::server::ValidationServer;

/// The HTTP transport's own limits (the flags in `cli.rs` say why each default).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HttpLimits {
    /// Largest request body (`--max-message-mib`), in bytes.
    pub max_body_bytes: usize,
    /// Time to send a request head, from the connection's opening or its
    /// last response (so also the idle keep-alive timeout).
    pub header_timeout: Duration,
    /// Time to send a whole request body.
    pub body_timeout: Duration,
    /// Most connections open at once.
    pub max_connections: usize,
}

/// Who may call, and the budget bodies are reserved in.
pub struct Policies {
    /// Web page origins allowed (`--allow-origin`).
    pub origins: OriginPolicy,
    /// The bearer token.
    pub auth: AuthPolicy,
    /// The server-wide budget the calls share (bodies are reserved in its pool).
    pub budget: CallBudget,
}

/// The path the reference server (MCP Python SDK) serves on.
pub const PATH: &str = "/mcp";

/// rmcp answers a session `DELETE` with `202 Accepted`; the MCP Python SDK
/// (the reference's own) counts only 200 and 204 as a terminated session and
/// logs a warning otherwise. The session is gone either way, so say 200.
async fn session_delete_is_ok(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let is_delete = request.method() == axum::http::Method::DELETE;
    let mut response = next.run(request).await;
    if is_delete && response.status() == axum::http::StatusCode::ACCEPTED {
        *response.status_mut() = axum::http::StatusCode::OK;
    }
    response
}

/// Serve until Ctrl-C or SIGTERM.
pub async fn serve(
    server: ValidationServer,
    address: SocketAddr,
    limits: HttpLimits,
    policies: Policies,
) -> io::Result<()> {
    let Policies { origins, auth, budget } = policies;
    // A tool call's answer is one JSON-RPC response, so it goes back as one
    // `application/json` body (which the client accepts beside an event
    // stream) rather than as a one-event SSE stream: less machinery per call
    // (small calls per second with four clients, scripts/bench.sh
    // --only-http, three interleaved runs: 3,066-4,029 as SSE, 3,912-4,216 as
    // JSON). rmcp falls back to SSE when a handler sends anything first.
    let mut config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_max_request_body_bytes(limits.max_body_bytes);
    if address.ip().is_unspecified() {
        // 0.0.0.0 / [::] answers on every interface, under any name: a Host
        // allow-list cannot be written for it, and DNS-rebinding protection
        // is moot for a server that is reachable directly.
        tracing::warn!("bound to every interface: the server has no authentication, and any Host header is accepted");
        config = config.disable_allowed_hosts();
    } else if !address.ip().is_loopback() {
        // rmcp accepts only loopback Host headers by default (DNS-rebinding
        // protection); a server bound to one address must also accept that
        // address. Names for it stay refused.
        tracing::warn!("bound to a non-loopback address: the server has no authentication");
        let mut hosts = config.allowed_hosts.clone();
        hosts.push(address.ip().to_string());
        hosts.push(format!("[{}]", address.ip()));
        config = config.with_allowed_hosts(hosts);
    }
    let shutdown = config.cancellation_token.clone();
    let service: StreamableHttpService<ValidationServer, LocalSessionManager> =
        StreamableHttpService::new(move || Ok(server.clone()), Arc::new(LocalSessionManager::default()), config);
    let body_limits = BodyLimits {
        max_bytes: limits.max_body_bytes,
        timeout: limits.body_timeout,
        pool: budget.memory().clone(),
        wait: budget.wait(),
    };
    let router = axum::Router::new()
        .nest_service(PATH, service)
        .layer(axum::middleware::from_fn_with_state(Arc::new(body_limits), read_body))
        .layer(axum::middleware::from_fn(session_delete_is_ok))
        .layer(axum::middleware::from_fn_with_state(Arc::new(auth), check_auth))
        // Outermost: a page that may not call the server is refused before anything reads its request.
        .layer(axum::middleware::from_fn_with_state(Arc::new(origins), check_origin));
    let listener = tokio::net::TcpListener::bind(address).await?;
    let local = listener.local_addr()?;
    // Always printed (whatever --log says): tests and scripts read this line
    // to find a port chosen with --port 0.
    eprintln!("mcp-validation-server: listening on http://{local}{PATH}");
    let connection_limits =
        ConnectionLimits { max_connections: limits.max_connections, header_timeout: limits.header_timeout };
    connections::serve(listener, router, connection_limits, async move {
        crate::shutdown_signal().await;
        shutdown.cancel();
    })
    .await
}
