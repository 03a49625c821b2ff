//! Start-up: `tools/list` never waits for the module to compile, and the
//! compiled module is cached so later starts skip compiling.

mod common;

use std::time::{Duration, Instant};

use common::{assert_small_call_ok, fresh_dir, small_call_arguments, StdioServer};
use serde_json::json;

/// How long a log line may take to reach the test after the reply that
/// follows it: stderr is read by its own thread, so a reply on stdout can be
/// seen first.
const LOG_WAIT: Duration = Duration::from_secs(10);

#[test]
fn a_cold_start_answers_tools_list_before_the_module_is_compiled() {
    let cache = fresh_dir("cold-cache");
    let cache = cache.to_str().unwrap();
    let started = Instant::now();
    let mut server = StdioServer::start(&["--cache-dir", cache], &[]);
    server.initialize("2025-06-18");
    let tools = server.request("tools/list", json!({}));
    let to_list = started.elapsed();
    // The reference's four tools and inspect_dataset.
    assert_eq!(tools["result"]["tools"].as_array().unwrap().len(), 5);
    // Compiling takes over a second; listing tools must not wait for it.
    assert!(to_list < Duration::from_secs(3), "tools/list took {to_list:?}");
    assert!(!server.stderr().contains("module ready"), "tools/list waited for the module:\n{}", server.stderr());
    // The first call waits for the module and then works.
    assert_small_call_ok(&server.call_tool("count_distinct", small_call_arguments()));
    assert!(server.wait_for_stderr("origin=CompiledAndCached", LOG_WAIT), "{}", server.stderr());
    drop(server);

    // The next start loads the cached module instead of compiling.
    let started = Instant::now();
    let mut server = StdioServer::initialized(&["--cache-dir", cache], &[]);
    assert_small_call_ok(&server.call_tool("count_distinct", small_call_arguments()));
    let to_first_call = started.elapsed();
    assert!(server.wait_for_stderr("origin=Cache", LOG_WAIT), "{}", server.stderr());
    assert!(to_first_call < Duration::from_secs(3), "a warm start took {to_first_call:?} to its first call");
}

#[test]
fn without_a_cache_the_module_compiles_in_memory() {
    let mut server = StdioServer::initialized(&["--no-cache"], &[]);
    assert_small_call_ok(&server.call_tool("count_distinct", small_call_arguments()));
    assert!(server.wait_for_stderr("origin=Compiled ", LOG_WAIT), "{}", server.stderr());
}

#[test]
fn an_unusable_cache_dir_falls_back_to_compiling() {
    let dir = fresh_dir("not-a-dir");
    let file = dir.join("file");
    std::fs::write(&file, b"a file where the cache directory should be").unwrap();
    let mut server = StdioServer::initialized(&[], &[("MCP_VALIDATION_CACHE_DIR", file.to_str().unwrap())]);
    assert_small_call_ok(&server.call_tool("count_distinct", small_call_arguments()));
    assert!(server.wait_for_stderr("cannot cache the compiled module", LOG_WAIT), "{}", server.stderr());
}
