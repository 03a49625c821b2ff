//! An abridged result tells the truth about what it lists (issue 16): every
//! count a sentence states, in `guidance` or in the finding about what was
//! left out, agrees with the lists and the `*_omitted` counts beside them,
//! for every tool, across caps and sizes.
//!
//! The checks read only the result: each stated number is compared with the
//! length of the list it names, or the count the result gives for it.

use serde_json::{json, Value};
use validation_core::call_tool_owned;

const CAPS: [Option<usize>; 7] = [None, Some(0), Some(1), Some(2), Some(5), Some(25), Some(100)];

fn call(tool: &str, mut args: Value, cap: Option<usize>) -> Value {
    if let Some(cap) = cap {
        args["max_listed"] = json!(cap);
    }
    call_tool_owned(tool, args).unwrap_or_else(|err| panic!("{tool}: {}", err.message))
}

fn len(result: &Value, list: &str) -> usize {
    result[list].as_array().unwrap_or_else(|| panic!("no list {list} in {result}")).len()
}

fn number(value: &Value) -> usize {
    usize::try_from(value.as_u64().unwrap_or(0)).unwrap()
}

/// Every "N from \`list\`" in the `result_abridged` finding, and every
/// `<list>_omitted` count, agree; the finding is there whenever anything was
/// left out.
fn check_abridged_finding(result: &Value, context: &str) {
    let findings = result["findings"].as_array().unwrap();
    let abridged = findings.iter().find(|finding| finding["code"] == "result_abridged");
    let omitted_lists: Vec<String> = result
        .as_object()
        .unwrap()
        .iter()
        .filter(|(key, value)| key.ends_with("_omitted") && number(value) > 0)
        .map(|(key, _)| key.trim_end_matches("_omitted").to_owned())
        .collect();
    // Groups beyond max_groups (the reference's own cap) have a finding of
    // their own; max_listed's finding speaks of `groups` only when it cut too.
    let beyond_max_groups = findings
        .iter()
        .find(|finding| finding["code"] == "groups_truncated")
        .map_or(0, |finding| leading_number(finding["message"].as_str().unwrap()));
    let omitted_lists: Vec<String> = omitted_lists
        .into_iter()
        .filter(|list| !(list == "groups" && number(&result["groups_omitted"]) == beyond_max_groups))
        .collect();
    let Some(abridged) = abridged else {
        assert!(omitted_lists.is_empty(), "{context}: {omitted_lists:?} left out and no result_abridged finding");
        return;
    };
    let message = abridged["message"].as_str().unwrap();
    let stated = regex_lite_pairs(message);
    for (count, list) in &stated {
        let actual = if list == "row_indexes" {
            result["repeated_keys"].as_array().unwrap().iter().map(|entry| number(&entry["row_indexes_omitted"])).sum()
        } else {
            number(&result[format!("{list}_omitted")])
        };
        assert_eq!(*count, actual, "{context}: the finding says {count} from `{list}`: {message}");
    }
    for list in omitted_lists {
        assert!(
            stated.iter().any(|(_, named)| *named == list),
            "{context}: `{list}` left out but not named: {message}"
        );
    }
}

fn leading_number(message: &str) -> usize {
    message.chars().take_while(char::is_ascii_digit).collect::<String>().parse().unwrap()
}

/// The "N from \`list\`" pairs of a message, in order.
fn regex_lite_pairs(message: &str) -> Vec<(usize, String)> {
    let mut pairs = Vec::new();
    for (at, _) in message.match_indices(" from `") {
        let digits: String = message[..at]
            .chars()
            .rev()
            .take_while(char::is_ascii_digit)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let rest = &message[at + " from `".len()..];
        let list = &rest[..rest.find('`').unwrap()];
        pairs.push((digits.parse().unwrap(), list.to_owned()));
    }
    pairs
}

/// `validate_rows`: the quarantined (or flagged) rows the guidance says are
/// listed are the ones listed.
fn check_validate_rows_guidance(result: &Value, context: &str) {
    let guidance = result["guidance"].as_str().unwrap();
    let summary = &result["summary"];
    let (quarantined, flagged) = (number(&summary["quarantined"]), number(&summary["flagged"]));
    let (list, total) = if quarantined > 0 { ("quarantine", quarantined) } else { ("flagged", flagged) };
    if total == 0 {
        return;
    }
    let (listed, omitted) = (len(result, list), number(&result[format!("{list}_omitted")]));
    assert_eq!(listed + omitted, total, "{context}: {list} listed + omitted");
    if omitted == 0 {
        assert!(guidance.contains(&format!("listed in `{list}`")), "{context}: {guidance}");
        assert!(!guidance.contains("_omitted"), "{context}: {guidance}");
    } else {
        assert!(guidance.contains(&format!("{listed} of them")), "{context}: {guidance}");
        assert!(guidance.contains(&format!("{omitted} more")), "{context}: {guidance}");
        assert!(guidance.contains(&format!("`{list}_omitted`")), "{context}: {guidance}");
    }
}

fn invoices(count: usize) -> Value {
    // Every 3rd amount is negative (quarantined); every 4th status is off the
    // list (flagged only).
    let rows: Vec<Value> = (0..count)
        .map(|i| {
            json!({"invoice": format!("INV-{i}"), "amount": if i % 3 == 2 { -1 } else { 5 },
                   "status": if i % 4 == 3 { "lost" } else { "paid" }})
        })
        .collect();
    json!(rows)
}

#[test]
fn validate_rows_says_what_it_lists() {
    let columns = json!([{"name": "invoice", "required": true}, {"name": "amount", "type": "number", "min": 0},
                         {"name": "status", "allowed": ["paid", "open"], "on_fail": "flag"}]);
    let flag_only = json!([{"name": "invoice", "required": true},
                           {"name": "status", "allowed": ["paid", "open"], "on_fail": "flag"}]);
    for count in [0, 1, 3, 4, 30, 61] {
        for contract in [&columns, &flag_only] {
            for cap in CAPS {
                let context = format!("validate_rows {count} rows, cap {cap:?}");
                let result = call(
                    "validate_rows",
                    json!({"rows": invoices(count), "columns": contract, "row_key": "invoice"}),
                    cap,
                );
                check_abridged_finding(&result, &context);
                check_validate_rows_guidance(&result, &context);
            }
        }
    }
}

#[test]
fn count_distinct_says_what_it_lists() {
    for count in [0, 2, 9, 40, 75] {
        // Keys repeat in threes, every 7th is blank.
        let rows: Vec<Value> =
            (0..count).map(|i| json!({"id": if i % 7 == 6 { String::new() } else { format!("K{}", i / 3) }})).collect();
        for cap in CAPS {
            let result = call("count_distinct", json!({"rows": rows, "key": "id"}), cap);
            check_abridged_finding(&result, &format!("count_distinct {count} rows, cap {cap:?}"));
        }
    }
}

#[test]
fn duplicate_report_says_what_it_lists_and_what_max_groups_hides() {
    for groups in [0, 2, 30, 60, 130] {
        // Pairs of rows share a key: `groups` exact duplicate groups.
        let rows: Vec<Value> = (0..groups * 2).map(|i| json!({"id": format!("K{}", i / 2), "n": i})).collect();
        for max_groups in [None, Some(3), Some(100)] {
            for cap in CAPS {
                let context = format!("duplicate_report {groups} groups, max_groups {max_groups:?}, cap {cap:?}");
                let mut args = json!({"rows": rows, "key": "id"});
                if let Some(max_groups) = max_groups {
                    args["max_groups"] = json!(max_groups);
                }
                let result = call("duplicate_report", args, cap);
                check_abridged_finding(&result, &context);
                let found = number(&result["duplicate_group_count"]);
                assert_eq!(found, groups, "{context}");
                let listed = len(&result, "groups");
                assert_eq!(listed + number(&result["groups_omitted"]), found, "{context}");
                // max_groups' own finding is listed whenever it applies, whatever the cap.
                let limit = max_groups.unwrap_or(50);
                let truncated = result["findings"].as_array().unwrap().iter().find(|f| f["code"] == "groups_truncated");
                assert_eq!(truncated.is_some(), found > limit, "{context}");
                if let Some(truncated) = truncated {
                    let message = truncated["message"].as_str().unwrap();
                    assert_eq!(leading_number(message), found - limit, "{context}: {message}");
                }
                // The kinds the guidance counts add up to the groups it says they are.
                let guidance = result["guidance"].as_str().unwrap();
                if found > 0 {
                    let kinds = kind_counts(guidance);
                    assert_eq!(kinds, listed, "{context}: {guidance}");
                    if listed == 0 {
                        assert!(guidance.contains("none listed in `groups`"), "{context}: {guidance}");
                    } else if listed < found.min(limit) {
                        assert!(guidance.contains(&format!("{listed} listed in `groups`")), "{context}: {guidance}");
                    }
                }
            }
        }
    }
}

/// The sum of the `kind (N)` counts in a duplicate report's guidance.
fn kind_counts(guidance: &str) -> usize {
    let mut sum = 0;
    for (at, _) in guidance.match_indices(" (") {
        let word_before = guidance[..at].chars().last().is_some_and(|c| c.is_ascii_lowercase() || c == '_');
        let rest = &guidance[at + 2..];
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        if word_before && !digits.is_empty() && rest[digits.len()..].starts_with(')') {
            sum += digits.parse::<usize>().unwrap();
        }
    }
    sum
}
