//! Reading an HTTP request's body, before rmcp sees the request: within
//! the size cap, the body deadline and the server's memory budget, and with
//! a `tools/call`'s arguments cut out as text.
//!
//! Every POST body is read here, so rmcp only ever gets one that is whole:
//! - one declared larger than `--max-message-mib` gets 413 before a byte of
//!   it is read (and one without a length, when it passes the cap);
//! - its bytes are reserved in the budget first (the declared length, or
//!   the cap when none is declared); with no room after the budget's wait,
//!   503 with `Retry-After`, nothing read;
//! - a body not complete within `--body-timeout-secs` gets 408, and its
//!   bytes are freed: stalled bodies held 722 MiB until their clients left.
//!
//! Then, as the stdio transport does (see `transport::arguments_text`), a
//! `tools/call`'s arguments are cut out as text: rmcp gets `{}` for them and
//! the text in the request's extensions, beside the reservation, which the
//! call takes over (`server.rs`).

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse as _, Response};
use http_body_util::LengthLimitError;

use super::arguments_text::strip_arguments;
use crate::budget::{HeldReservation, MemoryPool};

/// What a body may be.
#[derive(Debug, Clone)]
pub(crate) struct BodyLimits {
    /// `--max-message-mib`, in bytes.
    pub(crate) max_bytes: usize,
    /// `--body-timeout-secs`.
    pub(crate) timeout: Duration,
    /// The server's memory pool, and how long to wait for room in it.
    pub(crate) pool: MemoryPool,
    pub(crate) wait: Duration,
}

/// Seconds a client told "busy" is asked to wait before it retries.
const RETRY_AFTER_SECS: u64 = 5;

/// The middleware: read a POST's body within its limits (see above), or refuse it.
pub(crate) async fn read_body(State(limits): State<Arc<BodyLimits>>, request: Request, next: Next) -> Response {
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let declared =
        request.headers().get(header::CONTENT_LENGTH).and_then(|value| value.to_str().ok()?.parse::<u64>().ok());
    let max = limits.max_bytes as u64;
    if let Some(length) = declared.filter(|length| *length > max) {
        return too_large(Some(length), limits.max_bytes);
    }
    let Ok(reserved) = limits.pool.reserve(declared.unwrap_or(max), limits.wait).await else {
        let mut response = (
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "Service Unavailable: the server is busy: the calls running now hold its memory budget \
                 (--max-total-memory-mib, {} MiB); retry in a few seconds",
                limits.pool.limit_bytes() >> 20
            ),
        )
            .into_response();
        response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_SECS));
        return response;
    };
    let (mut parts, body) = request.into_parts();
    let bytes = match tokio::time::timeout(limits.timeout, axum::body::to_bytes(body, limits.max_bytes)).await {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(err)) if is_length_limit(&err) => return too_large(None, limits.max_bytes),
        Ok(Err(err)) => {
            return (StatusCode::BAD_REQUEST, format!("Bad Request: cannot read the body: {err}")).into_response()
        }
        Err(_) => {
            tracing::warn!("refused a request whose body took longer than {:?} (--body-timeout-secs)", limits.timeout);
            let text = format!(
                "Request Timeout: the body was not complete within {} s (--body-timeout-secs)",
                limits.timeout.as_secs()
            );
            let mut response = (StatusCode::REQUEST_TIMEOUT, text).into_response();
            // The rest of the body may still be on its way: do not read it as a request.
            response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
            return response;
        }
    };
    parts.extensions.insert(HeldReservation::new(reserved));
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

/// 413, saying what the cap is and which flag sets it (`declared`: the
/// body's stated length, if it had one).
fn too_large(declared: Option<u64>, max_bytes: usize) -> Response {
    let size = declared.map_or_else(|| format!("more than {max_bytes} bytes"), |length| format!("{length} bytes"));
    let text = format!(
        "Payload Too Large: the body is {size}, over the server's cap of {} MiB (--max-message-mib)",
        max_bytes >> 20
    );
    let mut response = (StatusCode::PAYLOAD_TOO_LARGE, text).into_response();
    // The body was not read: the connection cannot carry another request.
    response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// Whether reading stopped at the size cap (a body with no declared length).
fn is_length_limit(err: &axum::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(err) = source {
        if err.is::<LengthLimitError>() {
            return true;
        }
        source = err.source();
    }
    false
}
