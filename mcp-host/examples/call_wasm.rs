//! Run one check in the sandboxed module, as the server runs a `path` call,
//! for profiling the module beside the native core (`core/examples/call_file.rs`):
//!
//!     cargo run --release -p mcp-validation-server --example call_wasm -- \
//!         inspect_dataset args.json [data.csv|-] [repeat]
//!
//! With a CSV file, its text goes beside the arguments (`mcpv_call_csv`),
//! as a file behind `--data-root` does; `-` for none, to repeat a call of
//! inline arguments. Each call is a fresh instance under the limits and
//! instance slots the server would start with (`Cli::no_flags`: its
//! defaults, or the `MCP_VALIDATION_*` variables: a large CSV is checked in
//! parts unless `MCP_VALIDATION_MAX_PARTS_PER_CALL=1`). Prints each call's time,
//! fuel and peak linear memory on stderr; the result of the last call on
//! stdout.

use std::time::Instant;

use mcp_validation_server::bounded::StopFlag;
use mcp_validation_server::cli::Cli;
use mcp_validation_server::sandbox::{Answer, CacheDir, CallInput, Sandbox};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [tool, arguments, rest @ ..] = args.as_slice() else {
        eprintln!("usage: call_wasm TOOL ARGS.json [DATA.csv|-] [REPEAT]");
        std::process::exit(2);
    };
    let args_json = std::fs::read(arguments).expect("read the arguments");
    let csv = rest.first().filter(|path| *path != "-").map(|path| std::fs::read_to_string(path).expect("read the CSV"));
    let repeat: usize = rest.get(1).map_or(1, |n| n.parse().expect("REPEAT is a number"));
    let cli = Cli::no_flags().expect("the server's defaults");
    let limits = cli.limits();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a tokio runtime");
    let module = runtime.block_on(async {
        let sandbox = Sandbox::start(limits, cli.max_concurrent_calls, CacheDir::Default)
            .expect("start the sandbox")
            .with_parts_per_call(cli.max_parts_per_call);
        sandbox.module().await.expect("prepare the module")
    });
    let mut last = String::new();
    for _ in 0..repeat {
        let input = CallInput { args: args_json.clone(), csv: csv.clone(), ..CallInput::default() };
        let outcome =
            module.call(tool, input, Instant::now() + limits.timeout, &StopFlag::default()).expect("the call runs");
        // The sandbox's own figure: instantiation, copies in and out, the check.
        let elapsed = outcome.elapsed;
        last = match outcome.answer {
            Answer::Result(text) => text,
            other => format!("{other:?}"),
        };
        eprintln!(
            "{tool}: {:.3} ms, {} part(s), fuel {}, peak linear memory {:.1} MiB, {} bytes out",
            elapsed.as_secs_f64() * 1e3,
            outcome.parts,
            outcome.fuel_used,
            outcome.peak_memory_bytes as f64 / f64::from(1u32 << 20),
            last.len()
        );
    }
    println!("{last}");
}
