//! Accepting HTTP connections, each within the connection limits.
//!
//! axum's own `serve` has no knobs for these, so this is its accept loop
//! with three added, all of them hyper's or tokio's:
//! - at most `max_connections` open at once; one more is answered
//!   `503 Service Unavailable` and closed at once, so idle sockets cannot
//!   use up the file descriptors (300 of them made a server with a
//!   256-descriptor limit unreachable);
//! - hyper's header-read timeout: a connection must send a complete request
//!   head within `header_timeout` of opening or of its last response (hyper
//!   arms the timer while the connection is idle, and never while a request
//!   is in flight), so it is also the idle keep-alive timeout;
//! - `TCP_NODELAY`: replies go out as several small SSE writes, and Nagle with
//!   delayed ACKs added ~40 ms to each request.
//!
//! At shutdown the listener closes, every connection is told to finish its
//! request in flight and close, and this returns when they have.

use std::future::Future;
use std::io;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};

/// The limits every accepted connection is held to.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ConnectionLimits {
    /// `--max-connections`.
    pub(crate) max_connections: usize,
    /// `--header-timeout-secs`.
    pub(crate) header_timeout: Duration,
}

/// What a connection over the cap is told before it is closed.
const BUSY_RESPONSE: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n\
retry-after: 5\r\nconnection: close\r\ncontent-length: 85\r\n\r\n\
Service Unavailable: the server has its limit of connections open (--max-connections)";

/// How long answering a connection over the cap may take in all.
const REFUSAL_TIME: Duration = Duration::from_secs(1);
/// At most this many refusals at once (each holds a descriptor for up to
/// [`REFUSAL_TIME`]); past them a connection is closed unanswered.
const MAX_REFUSALS: usize = 64;

/// Serve `router` on every connection `listener` accepts, until `shutdown`.
pub(crate) async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let refusals = Arc::new(Semaphore::new(MAX_REFUSALS));
    let (closing, closed) = watch::channel(false);
    tokio::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _peer)) => stream,
                Err(err) => {
                    // Out of descriptors (EMFILE) or a connection reset before
                    // it was accepted: neither ends the server. A pause lets
                    // connections close before the next try.
                    tracing::warn!("cannot accept a connection: {err}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        if let Err(err) = stream.set_nodelay(true) {
            tracing::debug!("cannot set TCP_NODELAY: {err}");
        }
        if let Ok(slot) = Arc::clone(&slots).try_acquire_owned() {
            tokio::spawn(serve_one(stream, router.clone(), limits.header_timeout, closed.clone(), slot));
        } else if let Ok(refusal) = Arc::clone(&refusals).try_acquire_owned() {
            tracing::warn!("refused a connection: {} are open (--max-connections)", limits.max_connections);
            tokio::spawn(refuse(stream, refusal));
        }
        // Otherwise the stream is dropped here: closed unanswered.
    }
    drop(listener);
    let _ = closing.send(true);
    // Every slot back means every connection has ended.
    let all = u32::try_from(limits.max_connections).unwrap_or(u32::MAX);
    let _ = slots.acquire_many(all).await;
    Ok(())
}

/// One connection, until it closes or, at shutdown, its request in flight ends.
async fn serve_one(
    stream: TcpStream,
    router: Router,
    header_timeout: Duration,
    mut closing: watch::Receiver<bool>,
    _slot: OwnedSemaphorePermit,
) {
    let mut builder = http1::Builder::new();
    builder.timer(TokioTimer::new()).header_read_timeout(header_timeout);
    let connection = builder.serve_connection(TokioIo::new(stream), TowerToHyperService::new(router));
    tokio::pin!(connection);
    let mut told = false;
    loop {
        tokio::select! {
            result = connection.as_mut() => {
                if let Err(err) = result {
                    // A header timeout, a client gone mid-request: its own business.
                    tracing::debug!("connection ended: {err}");
                }
                return;
            }
            changed = closing.changed(), if !told => {
                told = true;
                if changed.is_ok() {
                    connection.as_mut().graceful_shutdown();
                }
            }
        }
    }
}

/// Tell a connection over the cap that the server is busy, and close it.
async fn refuse(mut stream: TcpStream, _refusal: OwnedSemaphorePermit) {
    let _ = tokio::time::timeout(REFUSAL_TIME, async {
        stream.write_all(BUSY_RESPONSE).await?;
        stream.shutdown().await?;
        // Read what the client sends meanwhile: closing a socket with unread
        // bytes resets it, and the client might lose the answer.
        let mut sink = [0u8; 4096];
        while stream.read(&mut sink).await? > 0 {}
        Ok::<(), io::Error>(())
    })
    .await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_busy_response_declares_its_body_length_exactly() {
        let text = std::str::from_utf8(BUSY_RESPONSE).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 503 "), "{head}");
        assert!(head.contains(&format!("content-length: {}", body.len())), "{head} / {}", body.len());
        assert!(body.contains("--max-connections"));
    }
}
