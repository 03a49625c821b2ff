//! The `mcp-validation-server` binary: parse flags, log to stderr, serve.

use std::process::ExitCode;
use std::time::Duration;

use clap::Parser as _;
use mcp_validation_server::cli::{Cli, Transport};
use tracing_subscriber::EnvFilter;

fn main() -> ExitCode {
    // Two malloc arenas per core, not glibc's eight. With an arena per
    // thread, each blocking thread once kept the large buffers of the calls
    // it had served (arguments, results, reply lines, and then the trees
    // the host built of them) for its own later calls only: a 100,000-row
    // count_distinct peaked at 270-295 MiB resident, against 180 MiB with
    // one arena (README.md, Benchmarks). The host no longer builds those
    // trees, and repeated uncapped 100,000-row calls peak the same with one
    // arena or eight (validate_rows 89 MiB, count_distinct 73 MiB); but one
    // arena is one lock for every thread's allocations, which small calls
    // over HTTP waited on (`perf`: futex waits in glibc's lock; 8 clients:
    // ~4,150 calls/s with one arena, ~5,060 with four, on two cores).
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        let arenas = libc::c_int::try_from(2 * cores).unwrap_or(libc::c_int::MAX);
        // SAFETY: mallopt only sets an allocator parameter; it runs before
        // any other thread exists. A libc call, so the workspace's
        // unsafe_code denial is lifted for this one statement.
        #[allow(unsafe_code)]
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, arenas);
        }
    }
    let cli = Cli::parse();
    // stdout belongs to the protocol: logs go to stderr, without colours
    // (hosts such as Claude Desktop save stderr to a log file).
    let filter = EnvFilter::try_new(&cli.log).unwrap_or_else(|err| {
        eprintln!("mcp-validation-server: ignoring --log {:?}: {err}", cli.log);
        EnvFilter::new(mcp_validation_server::cli::DEFAULT_LOG)
    });
    tracing_subscriber::fmt().with_writer(std::io::stderr).with_ansi(false).with_env_filter(filter).init();

    // On stdio one runtime thread does: a call runs on the blocking pool
    // (as does decoding or writing a large message), and what is left is
    // passing small messages between tasks, which on a runtime with a thread
    // per core woke the other thread at each hop. Over HTTP, many clients'
    // connections are served at once, a thread per core.
    let mut builder = match cli.transport {
        Transport::Stdio => tokio::runtime::Builder::new_current_thread(),
        Transport::StreamableHttp => tokio::runtime::Builder::new_multi_thread(),
    };
    let runtime = match builder.enable_all().build() {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("mcp-validation-server: cannot start the async runtime: {err}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(mcp_validation_server::run(cli));
    // Calls still running were cancelled when their session ended and stop
    // within one epoch tick; do not wait on anything longer than that.
    runtime.shutdown_timeout(Duration::from_secs(1));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("mcp-validation-server: {err}");
            ExitCode::FAILURE
        }
    }
}
