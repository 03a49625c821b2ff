//! This process's stdin and stdout as async streams.
//!
//! tokio's `Stdin` and `Stdout` hand every read and every write to a thread
//! of the blocking pool, since a terminal or a file cannot be waited on: each
//! message in and each reply out then costs two thread switches, which is
//! most of a small call's time on stdio. An MCP host gives a server pipes,
//! and a pipe can be waited on: when fd 0 or fd 1 is one, it is read or
//! written on the runtime's own threads, non-blocking. Anything else (a file,
//! a terminal, a platform without Unix pipes) keeps tokio's streams.

use tokio::io::{AsyncRead, AsyncWrite};

/// Stdin, read on the runtime's threads when it is a pipe.
pub(super) fn stdin() -> Box<dyn AsyncRead + Send + Unpin> {
    #[cfg(unix)]
    if let Some(pipe) = unix::receiver() {
        return Box::new(pipe);
    }
    Box::new(tokio::io::stdin())
}

/// Stdout, written on the runtime's threads when it is a pipe.
pub(super) fn stdout() -> Box<dyn AsyncWrite + Send + Unpin> {
    #[cfg(unix)]
    if let Some(pipe) = unix::sender() {
        return Box::new(pipe);
    }
    Box::new(tokio::io::stdout())
}

#[cfg(unix)]
mod unix {
    use std::os::fd::{AsFd, OwnedFd};

    use tokio::net::unix::pipe;

    /// A duplicate of fd 0 as a pipe reader. `from_owned_fd` refuses
    /// anything that is not a FIFO, and makes the descriptor non-blocking:
    /// a flag of the open file, shared at most with a parent that handed
    /// its own stdio over (the npm launcher), which neither reads nor
    /// writes it.
    pub(super) fn receiver() -> Option<pipe::Receiver> {
        let fd: OwnedFd = std::io::stdin().as_fd().try_clone_to_owned().ok()?;
        pipe::Receiver::from_owned_fd(fd).ok()
    }

    /// A duplicate of fd 1 as a pipe writer, on the same terms. Nothing else
    /// in the server writes to stdout (logs go to stderr), so nothing meets
    /// the descriptor non-blocking unprepared.
    pub(super) fn sender() -> Option<pipe::Sender> {
        let fd: OwnedFd = std::io::stdout().as_fd().try_clone_to_owned().ok()?;
        pipe::Sender::from_owned_fd(fd).ok()
    }
}
