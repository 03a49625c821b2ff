//! Which web pages may call the HTTP server: the `Origin` check the MCP
//! specification requires ("servers MUST validate the Origin header on all
//! incoming connections ... if the Origin header is present and invalid,
//! servers MUST respond with HTTP 403 Forbidden").
//!
//! A browser sends `Origin` with every cross-origin request, and a page
//! cannot forge it; a program that is not a browser (an MCP host, `curl`)
//! sends none, and is not what the check is about. So a request without
//! `Origin` passes, one from a page on this machine (`http://localhost:…`,
//! `127.0.0.1`, `[::1]`, any port) passes, one from an origin the operator
//! allowed with `--allow-origin` passes, and every other is refused before
//! rmcp reads it: a page on `https://evil.example` that a DNS-rebinding
//! trick pointed at this server gets 403 and learns nothing.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse as _, Response};

/// The origins allowed besides this machine's own pages.
#[derive(Debug, Clone, Default)]
pub struct OriginPolicy {
    /// Normalised `scheme://host[:port]`, as `--allow-origin` gave them.
    allowed: Vec<String>,
}

impl OriginPolicy {
    /// A policy allowing `origins` (each `scheme://host[:port]`) besides
    /// loopback pages; an origin that is not of that form is an error naming it.
    pub fn new(origins: &[String]) -> Result<Self, String> {
        let allowed = origins
            .iter()
            .map(|origin| {
                normalise(origin).ok_or_else(|| {
                    format!("--allow-origin {origin:?}: an origin is scheme://host[:port], such as https://app.example")
                })
            })
            .collect::<Result<_, _>>()?;
        Ok(OriginPolicy { allowed })
    }

    /// Whether a request with this `Origin` header value may be served.
    pub fn allows(&self, origin: &str) -> bool {
        let Some(origin) = normalise(origin) else { return false };
        is_loopback(&origin) || self.allowed.contains(&origin)
    }
}

/// `scheme://host[:port]` lower-cased, or `None` for anything else (`null`,
/// a path, a missing scheme, user info).
fn normalise(origin: &str) -> Option<String> {
    let (scheme, rest) = origin.trim().split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    let valid_host = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']');
    if !matches!(scheme.as_str(), "http" | "https") || rest.is_empty() || !rest.chars().all(valid_host) {
        return None;
    }
    Some(format!("{scheme}://{}", rest.to_ascii_lowercase()))
}

/// Whether a normalised origin is a page on this machine.
fn is_loopback(origin: &str) -> bool {
    let authority = origin.split_once("://").map_or("", |(_, rest)| rest);
    let host = if let Some(bracketed) = authority.strip_prefix('[') {
        bracketed.split_once(']').map_or("", |(host, _)| host)
    } else {
        authority.split(':').next().unwrap_or("")
    };
    host == "localhost" || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// Refuse a request whose `Origin` the policy does not allow: 403, before
/// anything else reads it.
pub async fn check_origin(State(policy): State<Arc<OriginPolicy>>, request: Request, next: Next) -> Response {
    if let Some(origin) = request.headers().get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        if !policy.allows(origin) {
            tracing::warn!("refused a request from the web page origin {origin:?} (not allowed)");
            let message = format!(
                "Forbidden: requests from the web page origin {origin:?} are not allowed; the server's operator \
can allow it with --allow-origin"
            );
            return (StatusCode::FORBIDDEN, message).into_response();
        }
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_on_this_machine_and_allowed_origins_pass() {
        let policy = OriginPolicy::new(&["https://App.example".into(), "http://tools.example:8080".into()]).unwrap();
        for origin in [
            "http://localhost",
            "http://localhost:6274",
            "https://127.0.0.1:3000",
            "http://[::1]:8000",
            "http://127.0.0.2",
            "https://app.example",
            "HTTPS://APP.EXAMPLE",
            "http://tools.example:8080",
        ] {
            assert!(policy.allows(origin), "{origin}");
        }
    }

    #[test]
    fn every_other_origin_is_refused() {
        let policy = OriginPolicy::new(&["https://app.example".into()]).unwrap();
        for origin in [
            "https://evil.example",
            "http://app.example",
            "https://app.example:444",
            "http://localhost.evil.example",
            "http://127.0.0.1.evil.example",
            "null",
            "",
            "file://",
            "https://user@app.example",
            "chrome-extension://abc",
        ] {
            assert!(!policy.allows(origin), "{origin}");
        }
    }

    #[test]
    fn an_allowed_origin_must_be_an_origin() {
        for bad in ["app.example", "https://app.example/path", "ftp://app.example", "*"] {
            let err = OriginPolicy::new(&[bad.to_owned()]).unwrap_err();
            assert!(err.contains(bad), "{err}");
        }
    }
}
