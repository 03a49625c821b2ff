//! `mcp-validation-server`: the native MCP host for the validation module.
//!
//! Every `tools/call` runs inside the WebAssembly module the npm package
//! ships (embedded at build time, see `build.rs`), through wasmtime, in a
//! fresh instance with no capabilities and bounded fuel, memory and time.
//!
//! - [`cli`]: flags and environment variables;
//! - [`sandbox`]: the engine, the compiled-module cache, one call per instance;
//! - [`tools`]: the tool metadata `tools/list` publishes;
//! - [`server`]: the MCP handler;
//! - [`budget`]: the calls running at once and the bytes they hold together,
//!   over every session and transport;
//! - [`arguments`], [`data_files`], [`confined_dir`], [`bounded`]: what the
//!   host adds to a call before the module sees it (the default cap, the data
//!   of a `path` file read inside a `--data-root`, within the call's deadline);
//! - [`transport`]: stdio and Streamable HTTP.

pub mod arguments;
pub mod bounded;
pub mod budget;
mod capped_read;
pub mod cli;
pub mod confined_dir;
pub mod data_files;
mod json_shape;
pub mod module;
pub mod output_files;
mod pretty;
// The sandbox loads compiled code from its cache (`Module::deserialize`, unsafe
// because wasmtime trusts those bytes; sandbox/cache.rs checks them first) and
// asks libc for the effective user (geteuid). Besides it, only
// `budget::release_freed_memory` (one libc call) has `unsafe`.
#[allow(unsafe_code)]
pub mod sandbox;
pub mod server;
mod structured_text;
pub mod tools;
pub mod transport;

use std::io;
use std::net::SocketAddr;

use cli::{Cli, Transport};
use sandbox::{CacheDir, Sandbox};
use server::ValidationServer;

/// Run the server the command line describes, until its transport ends.
pub async fn run(cli: Cli) -> io::Result<()> {
    let cache_dir = match (&cli.cache_dir, cli.no_cache) {
        (_, true) => CacheDir::Disabled,
        (Some(dir), false) => CacheDir::At(dir.clone()),
        (None, false) => CacheDir::Default,
    };
    // A bad --data-root is refused before the module is prepared.
    let settings = cli.call_settings().map_err(io::Error::other)?;
    let budget = cli.budget().map_err(io::Error::other)?;
    let sandbox = Sandbox::start(cli.limits(), cli.max_concurrent_calls, cache_dir)
        .map_err(io::Error::other)?
        .with_parts_per_call(cli.max_parts_per_call)
        .with_memory_pool(budget.memory().clone());
    let server = ValidationServer::new(sandbox, settings, budget.clone());
    match cli.transport {
        Transport::Stdio => transport::stdio::serve(server, cli.max_message_bytes()).await,
        Transport::StreamableHttp => {
            let address = SocketAddr::new(cli.host, cli.port);
            let origins = transport::origin::OriginPolicy::new(&cli.allow_origins).map_err(io::Error::other)?;
            let (auth, source) =
                transport::auth::AuthPolicy::new(cli.auth_token_file.as_deref(), cli.no_auth, cli.host)
                    .map_err(io::Error::other)?;
            match source {
                // Always printed (whatever --log says): the operator needs it to connect.
                transport::auth::TokenSource::Generated(token) => {
                    eprintln!("mcp-validation-server: HTTP clients must send the header Authorization: Bearer {token}");
                }
                transport::auth::TokenSource::Off => {
                    tracing::warn!("--no-auth: any local process that can reach the port can call the tools");
                }
                transport::auth::TokenSource::File => {}
            }
            let policies = transport::http::Policies { origins, auth, budget };
            transport::http::serve(server, address, cli.http_limits(), policies).await
        }
    }
}

/// Resolves on Ctrl-C, or on SIGTERM on Unix.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
}
