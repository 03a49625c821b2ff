//! Who may call the HTTP server: a bearer token (issue 17).
//!
//! Anyone who can reach the port could otherwise call the tools, and read
//! through them the files under `--data-root` with the server's rights: on
//! a shared machine, another user who cannot read a file could have the
//! server read it for them. So every HTTP request must carry
//! `Authorization: Bearer <token>`. The token is the content of
//! `--auth-token-file`, or, when none is given, one generated at start from
//! the operating system's random source and printed on stderr for the
//! operator to hand to the client. `--no-auth` turns the check off, and is
//! refused unless the server listens on loopback only.

use std::net::IpAddr;
use std::path::Path;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse as _, Response};

/// The shortest token accepted from a file, in bytes.
const MIN_TOKEN_BYTES: usize = 16;

/// Whether and how HTTP requests are authenticated.
#[derive(Clone)]
pub struct AuthPolicy {
    /// The token every request must carry, or `None` with `--no-auth`.
    token: Option<String>,
}

impl std::fmt::Debug for AuthPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the token itself: debug output ends up in logs.
        f.debug_struct("AuthPolicy").field("token", &self.token.as_ref().map(|_| "…")).finish()
    }
}

/// Where the token came from, so start-up can say what to do with it.
pub enum TokenSource {
    /// Read from the operator's file.
    File,
    /// Generated for this run: it must be shown to the operator.
    Generated(String),
    /// `--no-auth`.
    Off,
}

impl AuthPolicy {
    /// The policy for the command line's choices, or why it cannot be had.
    pub fn new(token_file: Option<&Path>, no_auth: bool, host: IpAddr) -> Result<(AuthPolicy, TokenSource), String> {
        match (token_file, no_auth) {
            (Some(_), true) => Err("--auth-token-file and --no-auth contradict each other; give one".into()),
            (None, true) if !host.is_loopback() => Err(format!(
                "--no-auth is allowed only when the server listens on loopback, and --host is {host}: anyone who \
can reach the port could call the tools"
            )),
            (None, true) => Ok((AuthPolicy { token: None }, TokenSource::Off)),
            (Some(path), false) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|err| format!("--auth-token-file {}: {err}", path.display()))?;
                let token = text.trim().to_owned();
                if token.len() < MIN_TOKEN_BYTES || !token.bytes().all(|b| b.is_ascii_graphic()) {
                    return Err(format!(
                        "--auth-token-file {}: the token must be at least {MIN_TOKEN_BYTES} visible ASCII characters",
                        path.display()
                    ));
                }
                Ok((AuthPolicy { token: Some(token) }, TokenSource::File))
            }
            (None, false) => {
                let token = generate_token()?;
                Ok((AuthPolicy { token: Some(token.clone()) }, TokenSource::Generated(token)))
            }
        }
    }

    /// Whether a request with this `Authorization` header value may be served.
    fn allows(&self, authorization: Option<&HeaderValue>) -> bool {
        let Some(token) = &self.token else { return true };
        let given = authorization.and_then(|value| value.to_str().ok()).and_then(|value| {
            let (scheme, credentials) = value.split_once(' ')?;
            scheme.eq_ignore_ascii_case("bearer").then(|| credentials.trim())
        });
        given.is_some_and(|given| same_bytes(given.as_bytes(), token.as_bytes()))
    }
}

/// 32 random bytes from the operating system, as 64 hexadecimal digits.
fn generate_token() -> Result<String, String> {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|err| format!("cannot generate an HTTP token: {err}"))?;
    Ok(bytes
        .iter()
        .flat_map(|byte| [HEX[usize::from(byte >> 4)], HEX[usize::from(byte & 15)]])
        .map(char::from)
        .collect())
}

/// Equal bytes, compared in time that depends only on the lengths, so the
/// comparison does not tell a guesser how much of a token was right.
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |differ, (x, y)| differ | (x ^ y)) == 0
}

/// Refuse a request without the token: 401, with `WWW-Authenticate: Bearer`.
pub async fn check_auth(State(policy): State<Arc<AuthPolicy>>, request: Request, next: Next) -> Response {
    if policy.allows(request.headers().get(header::AUTHORIZATION)) {
        return next.run(request).await;
    }
    tracing::warn!("refused an HTTP request without the right bearer token");
    let mut response = (
        StatusCode::UNAUTHORIZED,
        "Unauthorized: send the header Authorization: Bearer <token>, with the token the server printed at start \
or the content of its --auth-token-file",
    )
        .into_response();
    response.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer realm=\"mcp\""));
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::{Ipv4Addr, Ipv6Addr};

    fn with_token(token: &str) -> AuthPolicy {
        AuthPolicy { token: Some(token.to_owned()) }
    }

    #[test]
    fn only_the_right_bearer_token_passes() {
        let policy = with_token("s3cret-token-0123456789");
        let header = |text: &str| HeaderValue::from_str(text).unwrap();
        assert!(policy.allows(Some(&header("Bearer s3cret-token-0123456789"))));
        assert!(policy.allows(Some(&header("bearer s3cret-token-0123456789"))));
        for wrong in [
            "Bearer s3cret-token-012345678",
            "Bearer s3cret-token-01234567890",
            "Basic s3cret",
            "s3cret-token-0123456789",
            "Bearer",
        ] {
            assert!(!policy.allows(Some(&header(wrong))), "{wrong}");
        }
        assert!(!policy.allows(None));
        assert!(AuthPolicy { token: None }.allows(None), "--no-auth lets everything through");
    }

    #[test]
    fn no_auth_only_on_loopback_and_generated_tokens_differ() {
        assert!(AuthPolicy::new(None, true, IpAddr::V4(Ipv4Addr::LOCALHOST)).is_ok());
        assert!(AuthPolicy::new(None, true, IpAddr::V6(Ipv6Addr::LOCALHOST)).is_ok());
        let err = AuthPolicy::new(None, true, IpAddr::V4(Ipv4Addr::UNSPECIFIED)).err().unwrap();
        assert!(err.contains("loopback"), "{err}");
        let token = |_| match AuthPolicy::new(None, false, IpAddr::V4(Ipv4Addr::LOCALHOST)).ok().unwrap().1 {
            TokenSource::Generated(token) => token,
            _ => panic!("a token is generated when none is given"),
        };
        let (first, second) = (token(1), token(2));
        assert_eq!(first.len(), 64);
        assert_ne!(first, second);
    }

    #[test]
    fn a_token_file_must_hold_a_real_token() {
        let dir = std::env::temp_dir().join(format!("mcpv-auth-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let short = dir.join("short");
        std::fs::write(&short, "abc\n").unwrap();
        let good = dir.join("good");
        std::fs::write(&good, "  0123456789abcdef0123\n").unwrap();
        let loopback = IpAddr::V4(Ipv4Addr::LOCALHOST);
        let refused = AuthPolicy::new(Some(&short), false, loopback).err();
        let read = AuthPolicy::new(Some(&good), false, loopback).ok().map(|(policy, _)| policy);
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(refused.is_some_and(|err| err.contains("at least 16")));
        let header = HeaderValue::from_static("Bearer 0123456789abcdef0123");
        assert!(read.unwrap().allows(Some(&header)), "the file's token, trimmed");
    }
}
