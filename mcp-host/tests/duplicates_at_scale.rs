//! `duplicate_report` on the inputs issue 17 (item 5) named as unable to
//! finish under the server's default limits while near matches were found by
//! scoring every pair: 40,000 rows in pairs, and 2,000 rows at a similarity
//! threshold of 0.99. Both run through the real binary with its defaults
//! (`--log info` only adds the line that reports each call's fuel), so a
//! return to quadratic work shows here as a fuel error.

mod common;

use common::{is_error, numbered_names_arguments, paired_arguments, text_of, StdioServer};
use serde_json::{json, Value};

/// The fuel the last call used, from the server's `call finished` log line.
fn fuel_used(server: &StdioServer) -> u64 {
    let log = server.stderr();
    let line = log.lines().rev().find(|line| line.contains("call finished")).expect("a call finished line");
    let fuel = line.split_whitespace().find_map(|word| word.strip_prefix("fuel=")).expect("fuel= on the line");
    fuel.parse().expect("fuel is a number")
}

#[test]
fn forty_thousand_paired_rows_finish_under_the_default_limits() {
    let mut server = StdioServer::initialized(&["--log", "info"], &[]);
    let result = server.call_tool("duplicate_report", paired_arguments(20_000));
    assert!(!is_error(&result), "{}", text_of(&result));
    eprintln!("40,000 paired rows: fuel {}", fuel_used(&server));
    let report = &result["structuredContent"];
    // By construction (see `paired_arguments`): one group per pair, every
    // row in one, a third of each kind (pairs 0, 3, ... are same_key: 6,667;
    // 1, 4, ... same_signature: 6,667; 2, 5, ... near_match: 6,666), and
    // CPython's difflib scores every doubled-letter pair 0.952 or more.
    assert_eq!(report["duplicate_group_count"], json!(20_000), "{}", text_of(&result));
    assert_eq!(report["rows_in_duplicate_groups"], json!(40_000));
    assert_eq!(report["distinct_keys"], json!(40_000 - 6_667));
    let listed_kinds: Vec<&str> =
        report["groups"].as_array().unwrap().iter().map(|g| g["kind"].as_str().unwrap()).collect();
    // The first groups listed: same_key ones come first, in key order.
    assert!(listed_kinds.iter().all(|kind| *kind == "same_key"), "{listed_kinds:?}");
    let guidance = result["structuredContent"]["guidance"].as_str().unwrap_or_default();
    assert!(guidance.starts_with("20000 suspected duplicate group(s) across 40000 rows"), "{guidance}");
}

#[test]
fn two_thousand_rows_at_0_99_finish_under_the_default_limits() {
    let mut server = StdioServer::initialized(&["--log", "info"], &[]);
    let result = server.call_tool("duplicate_report", numbered_names_arguments(2_000));
    assert!(!is_error(&result), "{}", text_of(&result));
    eprintln!("2,000 rows at 0.99: fuel {}", fuel_used(&server));
    let report: &Value = &result["structuredContent"];
    assert_eq!(report["row_count"], json!(2_000));
    // Row i + 1000 has row i's second number (1000 * 7919 ends in 000),
    // and for i of three digits its first number is i's with a "1" in front:
    // one insertion (below 100, two or three digits are added). For i
    // below 1000 the second numbers are all different (7919 is prime to
    // 1000), so no other rows come that close: a substitution, or two
    // numbers apart, scores at most 2 * 50 / 102 < 0.99. A name is 48 code
    // points plus the digits of its second number; one insertion scores
    // 2 * n / (2 * n + 1), 0.990099 for n = 50 and 0.989899 for n = 49. So
    // the groups are exactly the pairs with i from 100 to 999 (three digits)
    // and a second number of two digits or more.
    let expected = (100..1000).filter(|i| i * 7919 % 1000 >= 10).count();
    assert_eq!(report["duplicate_group_count"], json!(expected));
    assert_eq!(report["groups"][0]["kind"], json!("near_match"));
}
