//! MCP Streamable HTTP at `http://HOST:PORT/mcp`, through rmcp's tower
//! service on axum.
//!
//! rmcp answers every request itself: an over-long body gets `413 Payload
//! Too Large` (the cap is `--max-message-mib`), a body that is not a JSON-RPC
//! message gets a 4xx with the reason. Both lifecycles work: the `initialize`
//! handshake (2025-06-18, 2025-11-25) and `server/discover` with per-request
//! metadata (2026-07-28).
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
//! Before rmcp reads a `tools/call` body, [`keep_arguments_as_text`] cuts the
//! arguments out of it as text, as the stdio transport does (see
//! `transport::arguments_text`): rmcp passes the HTTP request's parts, and so
//! the text, to the handler.

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::serve::ListenerExt as _;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse as _, Response};

use super::arguments_text::strip_arguments;
use super::auth::{check_auth, AuthPolicy};
use super::origin::{check_origin, OriginPolicy};
use crate::server::ValidationServer;

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

/// A POST whose declared length is within the cap is read whole; if it is
/// a `tools/call`, rmcp gets it with `{}` for the arguments and their text in
/// the request's extensions. Anything else (other methods, batches, bodies
/// with no length or over the cap, which rmcp refuses itself) passes as it
/// came.
async fn keep_arguments_as_text(State(max_bytes): State<usize>, request: Request, next: Next) -> Response {
    let declared =
        request.headers().get(header::CONTENT_LENGTH).and_then(|value| value.to_str().ok()?.parse::<usize>().ok());
    if request.method() != Method::POST || declared.is_none_or(|length| length > max_bytes) {
        return next.run(request).await;
    }
    let (mut parts, body) = request.into_parts();
    let bytes = match axum::body::to_bytes(body, max_bytes).await {
        Ok(bytes) => bytes,
        Err(err) => {
            return (axum::http::StatusCode::BAD_REQUEST, format!("Bad Request: cannot read the body: {err}"))
                .into_response()
        }
    };
    // Cutting a large body apart takes a while: not on a protocol worker.
    let stripped = tokio::task::spawn_blocking({
        let bytes = bytes.clone();
        move || std::str::from_utf8(&bytes).ok().and_then(strip_arguments)
    })
    .await
    .ok()
    .flatten();
    let body = match stripped {
        Some((message, arguments)) => {
            parts.extensions.insert(arguments);
            parts.headers.insert(header::CONTENT_LENGTH, message.len().into());
            // The body's bytes would otherwise live as long as the call.
            drop(bytes);
            Body::from(message)
        }
        None => Body::from(bytes),
    };
    next.run(Request::from_parts(parts, body)).await
}

/// Serve until Ctrl-C or SIGTERM.
pub async fn serve(
    server: ValidationServer,
    address: SocketAddr,
    max_message_bytes: usize,
    origins: OriginPolicy,
    auth: AuthPolicy,
) -> io::Result<()> {
    let mut config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_max_request_body_bytes(max_message_bytes);
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
    let router = axum::Router::new()
        .nest_service(PATH, service)
        .layer(axum::middleware::from_fn_with_state(max_message_bytes, keep_arguments_as_text))
        .layer(axum::middleware::from_fn(session_delete_is_ok))
        .layer(axum::middleware::from_fn_with_state(Arc::new(auth), check_auth))
        // Outermost: a page that may not call the server is refused before anything reads its request.
        .layer(axum::middleware::from_fn_with_state(Arc::new(origins), check_origin));
    let listener = tokio::net::TcpListener::bind(address).await?;
    let local = listener.local_addr()?;
    // Replies go out as several small SSE writes; without TCP_NODELAY, Nagle
    // and delayed ACKs add ~40 ms to each request.
    let listener = listener.tap_io(|stream| {
        if let Err(err) = stream.set_nodelay(true) {
            tracing::debug!("cannot set TCP_NODELAY: {err}");
        }
    });
    // Always printed (whatever --log says): tests and scripts read this line
    // to find a port chosen with --port 0.
    eprintln!("mcp-validation-server: listening on http://{local}{PATH}");
    axum::serve(listener, router)
        .with_graceful_shutdown(async move {
            crate::shutdown_signal().await;
            shutdown.cancel();
        })
        .await
}
