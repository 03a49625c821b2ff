//! Command-line flags and their environment variables.
//!
//! Every limit has a flag and an environment variable, because an MCP host
//! configuration (`{"command": ..., "args": [...], "env": {...}}`) can set
//! either; the flag wins when both are given.

use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::builder::TypedValueParser as _;
use clap::{Parser, ValueEnum};

use crate::arguments::CallSettings;
use crate::budget::{self, CallBudget, MemoryPool};
use crate::data_files::DataRoots;
use crate::output_files::OutputRoots;
use crate::sandbox::Limits;
use crate::transport::http::HttpLimits;

// The defaults are sized from a 100,000-row, 4-column `validate_rows` (8.4 MiB
// of arguments), measured with `scripts/bench.sh`: 4.65 billion fuel units,
// 86 MiB peak linear memory, 0.6 s in the sandbox. (When they were set, the
// same call took 5.25 billion, 273 MiB and 0.9 s; the caps keep that margin.)

/// Default fuel budget per call, in wasmtime fuel units (about one per
/// WebAssembly instruction): ~10x the 100,000-row call, ~8 s of CPU.
pub const DEFAULT_MAX_FUEL: u64 = 50_000_000_000;
/// Default linear-memory cap per call, in MiB: ~12x the 100,000-row call.
pub const DEFAULT_MAX_MEMORY_MIB: u64 = 1024;
/// Default wall-clock deadline per call, in seconds: the fuel budget's CPU
/// time several times over, so fuel is the usual bound and the deadline
/// catches calls slowed down by load.
pub const DEFAULT_TIMEOUT_SECS: u64 = 60;
/// Default cap on one incoming JSON-RPC message (a stdio line or an HTTP
/// body), in MiB: ~8x the 100,000-row request.
pub const DEFAULT_MAX_MESSAGE_MIB: u64 = 64;

/// Default `max_listed` for a call that gives none: at most this many entries
/// in each list of a result. With the widest lists (a quarantined row with its
/// findings, about 1.5 KB for a 6-column table) a capped result stays around
/// 60 KB, roughly 15,000 tokens: well under the 25,000 tokens an MCP host
/// such as Claude Code accepts from one tool call.
pub const DEFAULT_MAX_LISTED: u64 = 25;
/// Default cap on a file named by a `path` argument, in MiB.
pub const DEFAULT_MAX_FILE_MIB: u64 = 512;

/// Default cap on calls running at once: twice the cores, and at least 4.
/// Calls are CPU-bound, so more than the cores only divides the CPU between
/// them; twice leaves a slot for a quick call while long ones run.
pub fn default_max_concurrent_calls() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    (2 * cores).max(4)
}

/// Default cap on the parts one call with many rows is checked in at
/// once: one per core, at most 8 (see `sandbox/parts.rs`).
pub fn default_max_parts_per_call() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get).clamp(1, 8)
}

/// Default time a call waits for a slot or for memory before it is answered
/// busy, in seconds: long enough to ride out a burst of quick calls, short
/// next to a client's own timeout (often 60 s).
pub const DEFAULT_BUSY_WAIT_SECS: u64 = 10;

/// Default share of the machine's memory (or its container's limit) the
/// calls may hold together: half, leaving the rest to everything else on it.
const DEFAULT_TOTAL_MEMORY_SHARE: u64 = 2;
/// The machine's memory assumed when it cannot be read.
const ASSUMED_MEMORY_BYTES: u64 = 4 << 30;

/// Default time an HTTP connection has to send a request's headers, in
/// seconds, counted from when it opened or its last response ended (hyper
/// arms one timer for both, so this is also the idle keep-alive timeout).
/// Clients send headers in one write; their pools drop idle connections
/// after 4-5 s (httpx, undici), so 10 s closes only what no client uses.
pub const DEFAULT_HEADER_TIMEOUT_SECS: u64 = 10;
/// Default time an HTTP client has to send a whole request body, in
/// seconds: the largest body (--max-message-mib, 64 MiB) in 30 s needs about
/// 2 MiB/s, far below any local or LAN link.
pub const DEFAULT_BODY_TIMEOUT_SECS: u64 = 30;
/// Default cap on open HTTP connections: far more than MCP clients open (one
/// or a few each), and well below the usual 1,024 file descriptors, so the
/// server keeps descriptors for its own files and the listener.
pub const DEFAULT_MAX_CONNECTIONS: usize = 256;

/// Default stderr log filter: quiet, warnings and errors only (a refused
/// message, a stopped call, a risky flag). MCP hosts keep a server's stderr
/// in a log file, and a line per call only grows it; `--log info` adds the
/// start-up line and one line per call with its fuel, memory and time.
pub const DEFAULT_LOG: &str = "warn";

/// The long `--version` text: the server version, then the SHA-256 of the
/// embedded module, so anyone can check it is the npm package's `.wasm`.
const VERSION: &str =
    concat!(env!("CARGO_PKG_VERSION"), "\nmodule sha256 ", env!("MCPV_WASM_MODULE_SHA256"), "\nwasmtime ", "48.0.8",);

const ABOUT: &str = "\
An MCP server with four deterministic data-validation tools (validate_rows, reconcile, \
count_distinct, duplicate_report) and a fifth that profiles a dataset and drafts a contract \
for it (inspect_dataset). Every tool call runs in a fresh instance of an embedded \
WebAssembly module that has no imports it can use: no files, no network, no clock, no \
environment. Each call is bounded by fuel, memory and a wall-clock deadline.

Started with no arguments it speaks MCP over stdin/stdout, which is what an MCP host \
(Claude Desktop, Claude Code, ...) expects when it spawns the server. Run in a terminal it \
appears to hang: it is waiting for a client on stdin. Logs go to stderr only.";

/// The parsed command line.
#[derive(Debug, Parser)]
#[command(name = "mcp-validation-server", version = VERSION, about = ABOUT, max_term_width = 100)]
pub struct Cli {
    /// Transport to serve: `stdio` (one client on stdin/stdout) or
    /// `streamable-http` (MCP Streamable HTTP at http://HOST:PORT/mcp).
    #[arg(long, value_enum, default_value_t = Transport::Stdio)]
    pub transport: Transport,

    /// Address to listen on with --transport streamable-http. Loopback by
    /// default, accepting only loopback Host headers (DNS-rebinding
    /// protection); 0.0.0.0 or :: accepts any. There is no authentication,
    /// so think before exposing it.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: IpAddr,

    /// A web page origin (`scheme://host[:port]`) allowed to call the HTTP
    /// server, besides pages on this machine (`localhost`, `127.0.0.1`, `[::1]`).
    /// Repeatable. A request from any other page gets 403 Forbidden, as the
    /// MCP specification requires; a client that is not a browser sends no
    /// Origin and is not affected.
    #[arg(long = "allow-origin", value_name = "ORIGIN", env = "MCP_VALIDATION_ALLOW_ORIGINS", value_delimiter = ',')]
    pub allow_origins: Vec<String>,

    /// A file holding the bearer token every HTTP request must carry
    /// (`Authorization: Bearer <token>`; at least 16 visible ASCII
    /// characters). Without it, a token is generated at start and printed on
    /// stderr.
    #[arg(long, env = "MCP_VALIDATION_AUTH_TOKEN_FILE", value_name = "FILE")]
    pub auth_token_file: Option<PathBuf>,

    /// Serve HTTP without a bearer token. Allowed only when --host is a
    /// loopback address.
    #[arg(long, env = "MCP_VALIDATION_NO_AUTH", value_parser = clap::builder::BoolishValueParser::new(),
          default_value_t = false)]
    pub no_auth: bool,

    /// Port to listen on with --transport streamable-http (0 picks a free port
    /// and prints it on stderr).
    #[arg(long, default_value_t = 8000)]
    pub port: u16,

    /// Fuel budget per tool call (wasmtime fuel units, about one per
    /// WebAssembly instruction). A call that uses it all up is stopped.
    #[arg(long, env = "MCP_VALIDATION_MAX_FUEL", default_value_t = DEFAULT_MAX_FUEL,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_fuel: u64,

    /// Linear-memory cap per tool call, in MiB (at most 4095: the module is
    /// 32-bit). A call that needs more is stopped.
    #[arg(long, env = "MCP_VALIDATION_MAX_MEMORY_MIB", default_value_t = DEFAULT_MAX_MEMORY_MIB,
          value_parser = clap::value_parser!(u64).range(2..=4095))]
    pub max_memory_mib: u64,

    /// Wall-clock deadline per tool call, in seconds. A call still running
    /// then is stopped.
    #[arg(long, env = "MCP_VALIDATION_TIMEOUT_SECS", default_value_t = DEFAULT_TIMEOUT_SECS,
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub timeout_secs: u64,

    /// Largest incoming message (one stdio line or one HTTP request body), in
    /// MiB. A larger message is answered with an error and not processed.
    #[arg(long, env = "MCP_VALIDATION_MAX_MESSAGE_MIB", default_value_t = DEFAULT_MAX_MESSAGE_MIB,
          value_parser = clap::value_parser!(u64).range(1..=4095))]
    pub max_message_mib: u64,

    /// Most tool calls running at once, over every session and transport
    /// (default: twice the cores, at least 4). A call over it waits
    /// --busy-wait-secs for a slot, then is answered busy (retry later).
    #[arg(long, env = "MCP_VALIDATION_MAX_CONCURRENT_CALLS", default_value_t = default_max_concurrent_calls(),
          value_parser = clap::value_parser!(u64).range(1..=4096).map(|n| n as usize), value_name = "N")]
    pub max_concurrent_calls: usize,

    /// Most parts one call with many rows (4 MiB or more: a CSV file by
    /// `path`, or a `rows` array) is checked in at once, each in its own sandboxed instance
    /// on its own core, under an equal share of the call's fuel and memory
    /// (default: the cores, at most 8; 1: never in parts). The result is
    /// the same either way.
    #[arg(long, env = "MCP_VALIDATION_MAX_PARTS_PER_CALL", default_value_t = default_max_parts_per_call(),
          value_parser = clap::value_parser!(u64).range(1..=8).map(|n| n as usize), value_name = "N")]
    pub max_parts_per_call: usize,

    /// Memory all running calls may hold together, in MiB: their arguments,
    /// the HTTP bodies being read, files read for `path`, and the module's
    /// linear memory. Default: half the machine's memory (or its container's
    /// limit), and never less than --max-memory-mib. A call that finds it
    /// spent waits --busy-wait-secs, then is answered busy (retry later).
    #[arg(long, env = "MCP_VALIDATION_MAX_TOTAL_MEMORY_MIB", value_name = "MIB",
          value_parser = clap::value_parser!(u64).range(2..=(1 << 30)))]
    pub max_total_memory_mib: Option<u64>,

    /// Seconds a call waits for a free slot or for memory before it is
    /// answered with a busy error (0: answer busy at once).
    #[arg(long, env = "MCP_VALIDATION_BUSY_WAIT_SECS", default_value_t = DEFAULT_BUSY_WAIT_SECS,
          value_parser = clap::value_parser!(u64).range(0..=600))]
    pub busy_wait_secs: u64,

    /// HTTP: seconds a connection has to send a request's headers, counted
    /// from when it opened or its last response ended; so it is also the
    /// idle keep-alive timeout. The connection is closed after it.
    #[arg(long, env = "MCP_VALIDATION_HEADER_TIMEOUT_SECS", default_value_t = DEFAULT_HEADER_TIMEOUT_SECS,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub header_timeout_secs: u64,

    /// HTTP: seconds a client has to send a whole request body, after its
    /// headers. A slower body gets 408 Request Timeout and its bytes are freed.
    #[arg(long, env = "MCP_VALIDATION_BODY_TIMEOUT_SECS", default_value_t = DEFAULT_BODY_TIMEOUT_SECS,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub body_timeout_secs: u64,

    /// HTTP: most connections open at once. One more is answered 503 Service
    /// Unavailable and closed, so idle sockets cannot use up the server's
    /// file descriptors.
    #[arg(long, env = "MCP_VALIDATION_MAX_CONNECTIONS", default_value_t = DEFAULT_MAX_CONNECTIONS,
          value_parser = clap::value_parser!(u64).range(1..=65_536).map(|n| n as usize), value_name = "N")]
    pub max_connections: usize,

    /// Directory for the compiled module, so later launches skip compiling it.
    /// Default: $XDG_CACHE_HOME/mcp-validation-server (or ~/.cache/..., or
    /// %LOCALAPPDATA%\mcp-validation-server on Windows).
    #[arg(long, env = "MCP_VALIDATION_CACHE_DIR", value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,

    /// Do not read or write the compiled-module cache: compile the module in
    /// memory at every launch (in the background; tools/list does not wait).
    #[arg(long, env = "MCP_VALIDATION_NO_CACHE", value_parser = clap::builder::BoolishValueParser::new(),
          default_value_t = false)]
    pub no_cache: bool,

    /// Default cap on the entries each list of a result carries (accepted,
    /// quarantine, flagged, findings, groups, ...), for calls that do not set
    /// `max_listed` themselves. Counts, tallies and verdicts always cover every
    /// row; a shortened list says how many entries it left out. `unlimited`
    /// lists everything, as the Python reference does.
    #[arg(long, env = "MCP_VALIDATION_MAX_LISTED", default_value_t = MaxListed::At(DEFAULT_MAX_LISTED), value_parser = parse_max_listed,
          value_name = "N|unlimited")]
    pub max_listed: MaxListed,

    /// A directory whose files tool calls may read through the `path`
    /// argument (CSV, JSON array or JSONL). Repeatable. None by default, which
    /// means no file access at all. Each is opened at start, and files are
    /// opened through it in a way no `..`, symbolic link, absolute path or
    /// rename during the call can leave; anything else is refused unread.
    /// `/` is allowed with a warning (it opens the whole file system).
    #[arg(long = "data-root", value_name = "DIR", env = "MCP_VALIDATION_DATA_ROOTS", value_delimiter = ':')]
    pub data_roots: Vec<PathBuf>,

    /// A directory under which `validate_rows` may write the files of an
    /// `export` (the accepted rows, the quarantined rows with their reasons,
    /// every finding). Repeatable. None by default, which means the server
    /// writes no files at all. Each is opened at start; a call's `export.dir`
    /// is created under it and reached in a way no `..`, symbolic link,
    /// absolute path or rename can leave. Files are written atomically and
    /// never replace an existing file unless the call says `overwrite`.
    #[arg(long = "output-root", value_name = "DIR", env = "MCP_VALIDATION_OUTPUT_ROOTS", value_delimiter = ':')]
    pub output_roots: Vec<PathBuf>,

    /// Largest file a `path` argument may name, in MiB.
    #[arg(long, env = "MCP_VALIDATION_MAX_FILE_MIB", default_value_t = DEFAULT_MAX_FILE_MIB,
          value_parser = clap::value_parser!(u64).range(1..=4095))]
    pub max_file_mib: u64,

    /// Log filter for stderr (error, warn, info, debug, trace, or a
    /// tracing directive such as `mcp_validation_server=debug`).
    #[arg(long, env = "MCP_VALIDATION_LOG", default_value = DEFAULT_LOG)]
    pub log: String,
}

/// The server's default `max_listed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MaxListed {
    /// At most this many entries per list.
    At(u64),
    /// No default cap.
    Unlimited,
}

impl std::fmt::Display for MaxListed {
    /// As the flag takes it: the number, or `unlimited`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MaxListed::At(n) => write!(f, "{n}"),
            MaxListed::Unlimited => f.write_str("unlimited"),
        }
    }
}

fn parse_max_listed(text: &str) -> Result<MaxListed, String> {
    if text.eq_ignore_ascii_case("unlimited") {
        return Ok(MaxListed::Unlimited);
    }
    text.parse::<u64>().map(MaxListed::At).map_err(|_| format!("{text:?} is not a number or `unlimited`"))
}

/// The transports this server speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Transport {
    /// Newline-delimited JSON-RPC on stdin/stdout.
    Stdio,
    /// MCP Streamable HTTP on HOST:PORT, path /mcp.
    StreamableHttp,
}

impl Cli {
    /// The settings of a server started with no flags (its
    /// `MCP_VALIDATION_*` environment still applies), for tools that run
    /// the sandbox as the server would, with its limits and its calls at
    /// once: the benchmark's in-process runs and `examples/call_wasm.rs`.
    pub fn no_flags() -> Result<Cli, String> {
        Cli::try_parse_from(["mcp-validation-server"]).map_err(|err| err.to_string())
    }

    /// The per-call sandbox limits these flags describe.
    pub fn limits(&self) -> Limits {
        Limits {
            max_fuel: self.max_fuel,
            max_memory_bytes: self.max_memory_mib * 1024 * 1024,
            timeout: Duration::from_secs(self.timeout_secs),
        }
    }

    /// How every call's arguments are prepared: the default cap and the data roots.
    pub fn call_settings(&self) -> Result<CallSettings, String> {
        Ok(CallSettings {
            default_max_listed: match self.max_listed {
                MaxListed::At(cap) => Some(cap),
                MaxListed::Unlimited => None,
            },
            data_roots: DataRoots::new(&self.data_roots, self.max_file_mib * 1024 * 1024)?,
            output_roots: OutputRoots::new(&self.output_roots)?,
        })
    }

    /// The server-wide budget: call slots, the memory pool and the wait.
    /// Refused when the pool is smaller than one call's memory cap (a call
    /// alone would then be told the server is busy for ever).
    pub fn budget(&self) -> Result<CallBudget, String> {
        let per_call = self.max_memory_mib << 20;
        let total = match self.max_total_memory_mib {
            Some(mib) if mib < self.max_memory_mib => {
                return Err(format!(
                    "--max-total-memory-mib {mib} is less than --max-memory-mib {}: one call alone could not run",
                    self.max_memory_mib
                ))
            }
            Some(mib) => mib << 20,
            None => (budget::physical_memory_bytes().unwrap_or(ASSUMED_MEMORY_BYTES) / DEFAULT_TOTAL_MEMORY_SHARE)
                .max(per_call),
        };
        let wait = Duration::from_secs(self.busy_wait_secs);
        Ok(CallBudget::new(self.max_concurrent_calls, MemoryPool::new(total), wait))
    }

    /// The HTTP connection and body limits.
    pub fn http_limits(&self) -> HttpLimits {
        HttpLimits {
            max_body_bytes: self.max_message_bytes(),
            header_timeout: Duration::from_secs(self.header_timeout_secs),
            body_timeout: Duration::from_secs(self.body_timeout_secs),
            max_connections: self.max_connections,
        }
    }

    /// The incoming-message cap in bytes.
    pub fn max_message_bytes(&self) -> usize {
        usize::try_from(self.max_message_mib * 1024 * 1024).unwrap_or(usize::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn no_arguments_means_stdio_with_the_default_limits() {
        let cli = Cli::try_parse_from(["mcp-validation-server"]).unwrap();
        assert_eq!(cli.transport, Transport::Stdio);
        let limits = cli.limits();
        assert_eq!(limits.max_fuel, DEFAULT_MAX_FUEL);
        assert_eq!(limits.max_memory_bytes, DEFAULT_MAX_MEMORY_MIB << 20);
        assert_eq!(limits.timeout, Duration::from_secs(DEFAULT_TIMEOUT_SECS));
        assert_eq!(Cli::no_flags().map(|cli| cli.limits()), Ok(limits));
    }

    #[test]
    fn http_flags_parse() {
        let cli = Cli::try_parse_from([
            "mcp-validation-server",
            "--transport",
            "streamable-http",
            "--host",
            "::1",
            "--port",
            "0",
        ])
        .unwrap();
        assert_eq!(cli.transport, Transport::StreamableHttp);
        assert_eq!(cli.host.to_string(), "::1");
        assert_eq!(cli.port, 0);
    }

    #[test]
    fn a_limit_of_zero_is_refused() {
        assert!(Cli::try_parse_from(["mcp-validation-server", "--max-fuel", "0"]).is_err());
        assert!(Cli::try_parse_from(["mcp-validation-server", "--timeout-secs", "0"]).is_err());
        assert!(Cli::try_parse_from(["mcp-validation-server", "--max-memory-mib", "4096"]).is_err());
        assert!(Cli::try_parse_from(["mcp-validation-server", "--max-concurrent-calls", "0"]).is_err());
        assert!(Cli::try_parse_from(["mcp-validation-server", "--max-connections", "0"]).is_err());
        assert!(Cli::try_parse_from(["mcp-validation-server", "--header-timeout-secs", "0"]).is_err());
    }

    #[test]
    fn the_budget_defaults_from_the_machine_and_is_never_below_one_call() {
        let cli = Cli::try_parse_from(["mcp-validation-server"]).unwrap();
        assert!(cli.max_concurrent_calls >= 4);
        let budget = cli.budget().unwrap();
        assert!(budget.memory().limit_bytes() >= DEFAULT_MAX_MEMORY_MIB << 20);
        assert_eq!(budget.wait(), Duration::from_secs(DEFAULT_BUSY_WAIT_SECS));
        let set = Cli::try_parse_from(["mcp-validation-server", "--max-total-memory-mib", "3000"]).unwrap();
        assert_eq!(set.budget().unwrap().memory().limit_bytes(), 3000 << 20);
        let small = Cli::try_parse_from(["mcp-validation-server", "--max-total-memory-mib", "512"]).unwrap();
        assert!(small.budget().unwrap_err().contains("less than --max-memory-mib 1024"));
        let http = cli.http_limits();
        assert_eq!(http.header_timeout, Duration::from_secs(DEFAULT_HEADER_TIMEOUT_SECS));
        assert_eq!(http.max_connections, DEFAULT_MAX_CONNECTIONS);
    }
}
