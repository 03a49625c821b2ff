//! Each sandbox limit, tripped, then a normal call on the same server: the
//! limit's error names the limit and the flag that raises it, and nothing of
//! the failed call is left behind.

mod common;

use std::time::{Duration, Instant};

use common::{
    assert_small_call_ok, invoice_arguments, is_error, slow_arguments, small_call_arguments, text_of, HttpServer,
    StdioServer,
};
use serde_json::json;

fn assert_limit_error(result: &serde_json::Value, tool: &str, expected: &str) {
    assert!(is_error(result), "expected an error result, got {result}");
    assert_eq!(text_of(result), format!("Error executing tool {tool}: {expected}"));
    assert!(result.get("structuredContent").is_none());
}

#[test]
fn running_out_of_fuel_then_a_normal_call() {
    let mut server = StdioServer::initialized(&["--max-fuel", "5000000"], &[]);
    let result = server.call_tool("validate_rows", invoice_arguments(2000));
    assert_limit_error(
        &result,
        "validate_rows",
        "the call ran out of fuel (limit 5000000 units); the server's operator can raise it with --max-fuel or MCP_VALIDATION_MAX_FUEL",
    );
    assert_eq!(
        result["_meta"]["mcp-validation-server/error"],
        json!({"code": "out_of_fuel", "limit": 5_000_000, "flag": "--max-fuel"})
    );
    assert_small_call_ok(&server.call_tool("count_distinct", small_call_arguments()));
}

/// The server tries a call of up to 16 KiB of arguments on its protocol
/// thread first, with at most 20,000,000 fuel (`server.rs`, the inline
/// lane), and runs it again in full when that is not enough. This call is
/// 150 rows of anagrams, near matches of one another: small, and more than
/// the lane's fuel, as a server whose whole limit is the lane's says.
#[test]
fn a_small_call_past_the_inline_lanes_fuel_gets_its_whole_answer() {
    let args = slow_arguments(150);
    assert!(args.to_string().len() <= 16 << 10, "small enough for the inline lane");
    let mut capped = StdioServer::initialized(&["--max-fuel", "20000000"], &[]);
    let result = capped.call_tool("duplicate_report", args.clone());
    // Out of fuel at a limit of the lane's size: the answer is final there,
    // and names the server's own limit.
    assert!(text_of(&result).contains("ran out of fuel (limit 20000000 units)"), "{result}");
    let mut server = StdioServer::initialized(&[], &[]);
    let result = server.call_tool("duplicate_report", args.clone());
    assert!(!is_error(&result), "{result}");
    // The oracle: the core itself, natively, with no limit.
    let expected = validation_core::call_tool("duplicate_report", &args).unwrap();
    assert_eq!(result["structuredContent"], expected);
}

#[test]
fn the_fuel_limit_can_come_from_the_environment() {
    let mut server = StdioServer::initialized(&[], &[("MCP_VALIDATION_MAX_FUEL", "4000000")]);
    let result = server.call_tool("validate_rows", invoice_arguments(2000));
    assert!(text_of(&result).contains("ran out of fuel (limit 4000000 units)"), "{result}");
    assert_small_call_ok(&server.call_tool("count_distinct", small_call_arguments()));
    // The flag wins over the environment.
    let mut server = StdioServer::initialized(&["--max-fuel", "3000000"], &[("MCP_VALIDATION_MAX_FUEL", "4000000")]);
    let result = server.call_tool("validate_rows", invoice_arguments(2000));
    assert!(text_of(&result).contains("(limit 3000000 units)"), "{result}");
}

/// A call that holds more than 16 MiB: 100,000 rows, every one listed (the
/// rows' text alone is 7.8 MB, held as the arguments, as the rows, and as
/// the accepted rows written out in the result; 20,000 rows fit in 16 MiB
/// once accepted rows were written from their text instead of built as
/// trees. A row the result does not list is read where it lies, so a
/// capped call fits).
fn listing_every_row() -> serde_json::Value {
    let mut args = invoice_arguments(100_000);
    args["max_listed"] = json!(1_000_000_000);
    args
}

#[test]
fn running_out_of_memory_then_a_normal_call() {
    let mut server = StdioServer::initialized(&["--max-memory-mib", "16"], &[]);
    let result = server.call_tool("validate_rows", listing_every_row());
    assert_limit_error(
        &result,
        "validate_rows",
        "the call ran out of memory (limit 16 MiB); the server's operator can raise it with --max-memory-mib or MCP_VALIDATION_MAX_MEMORY_MIB",
    );
    assert_small_call_ok(&server.call_tool("count_distinct", small_call_arguments()));
    // An input larger than the whole cap is refused before the call starts.
    let big = "x".repeat(20 << 20);
    let result = server.call_tool("count_distinct", json!({"rows": [{"k": big}], "key": "k"}));
    assert!(text_of(&result).contains("ran out of memory (limit 16 MiB)"), "{}", text_of(&result));
    assert_small_call_ok(&server.call_tool("count_distinct", small_call_arguments()));
}

#[test]
fn the_memory_limit_can_come_from_the_environment() {
    let mut server = StdioServer::initialized(&[], &[("MCP_VALIDATION_MAX_MEMORY_MIB", "16")]);
    let result = server.call_tool("validate_rows", listing_every_row());
    assert!(text_of(&result).contains("ran out of memory (limit 16 MiB)"), "{result}");
}

#[test]
fn running_out_of_time_then_a_normal_call() {
    let mut server = StdioServer::initialized(&["--timeout-secs", "1", "--max-fuel", "1000000000000"], &[]);
    let started = Instant::now();
    let result = server.call_tool("duplicate_report", slow_arguments(4000));
    let elapsed = started.elapsed();
    assert_limit_error(
        &result,
        "duplicate_report",
        "the call ran out of time (limit 1 s); the server's operator can raise it with --timeout-secs or MCP_VALIDATION_TIMEOUT_SECS",
    );
    assert!(elapsed < Duration::from_secs(10), "the deadline was not enforced promptly: {elapsed:?}");
    assert_small_call_ok(&server.call_tool("count_distinct", small_call_arguments()));
}

#[test]
fn the_timeout_can_come_from_the_environment() {
    let mut server =
        StdioServer::initialized(&["--max-fuel", "1000000000000"], &[("MCP_VALIDATION_TIMEOUT_SECS", "1")]);
    let result = server.call_tool("duplicate_report", slow_arguments(4000));
    assert!(text_of(&result).contains("ran out of time (limit 1 s)"), "{result}");
}

#[test]
fn limits_apply_over_http_too() {
    let server = HttpServer::start(&["--max-fuel", "5000000"], &[]);
    let mut session = server.session();
    let result = session.call_tool("validate_rows", invoice_arguments(2000));
    assert!(text_of(&result).contains("ran out of fuel (limit 5000000 units)"), "{result}");
    assert_small_call_ok(&session.call_tool("count_distinct", small_call_arguments()));
}

#[test]
fn the_defaults_let_a_100_000_row_validate_rows_finish() {
    let mut server = StdioServer::initialized(&[], &[]);
    let result = server.call_tool("validate_rows", invoice_arguments(100_000));
    assert!(!is_error(&result), "{}", text_of(&result));
    let summary = &result["structuredContent"]["summary"];
    assert_eq!(summary["rows_in"], json!(100_000));
    assert_eq!(summary["accepted"], json!(99_900));
    assert_eq!(summary["quarantined"], json!(100));
}

#[test]
fn nothing_survives_from_one_call_to_the_next() {
    // Same call, same answer, however many times and whatever ran between.
    let mut server = StdioServer::initialized(&["--max-fuel", "5000000"], &[]);
    let first = server.call_tool("count_distinct", small_call_arguments());
    let _ = server.call_tool("validate_rows", invoice_arguments(2000)); // trips fuel mid-call
    let _ = server.call_tool("validate_rows", json!({"rows": [{"a": 1}], "columns": [{"name": "a", "pattern": "("}]}));
    for _ in 0..3 {
        assert_eq!(server.call_tool("count_distinct", small_call_arguments()), first);
    }
}
