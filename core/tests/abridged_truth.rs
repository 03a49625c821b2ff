//! An abridged result tells the truth about what it lists (issue 16): every
//! count a sentence states, in `guidance` or in the finding about what was
//! left out, agrees with the lists and the `*_omitted` counts beside them,
//! for every tool, across caps and sizes.
//!
//! The checks read only the result: each stated number is compared with the
//! length of the list it names, or the count the result gives for it.

use std::fmt::Write as _;

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
/// listed are the ones listed. `not_asked` names the lists the call's
/// `lists` (or `page`) leaves out: the guidance must never call those listed.
fn check_validate_rows_guidance(result: &Value, not_asked: &[&str], context: &str) {
    let guidance = result["guidance"].as_str().unwrap();
    let summary = &result["summary"];
    let (quarantined, flagged) = (number(&summary["quarantined"]), number(&summary["flagged"]));
    let (list, total) = if quarantined > 0 { ("quarantine", quarantined) } else { ("flagged", flagged) };
    if total == 0 {
        return;
    }
    let (listed, omitted) = (len(result, list), number(&result[format!("{list}_omitted")]));
    assert_eq!(listed + omitted, total, "{context}: {list} listed + omitted");
    if not_asked.contains(&list) {
        assert_eq!(listed, 0, "{context}: {list} not asked for but listed");
        assert!(!guidance.contains(&format!("listed in `{list}`")), "{context}: {guidance}");
        assert!(guidance.contains(&format!("does not ask for `{list}`")), "{context}: {guidance}");
        assert!(guidance.contains(&format!("all {omitted}")), "{context}: {guidance}");
        assert!(guidance.contains(&format!("`{list}_omitted`")), "{context}: {guidance}");
    } else if omitted == 0 {
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
                check_validate_rows_guidance(&result, &[], &context);
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

/// The `lists` and `page` arguments the truth is checked under, for each
/// tool, each with the lists it leaves out (not named, not paged).
fn selections(tool: &str) -> Vec<(Value, Vec<&'static str>)> {
    let every: &[&str] = match tool {
        "validate_rows" => &["accepted", "quarantine", "flagged", "findings"],
        "count_distinct" => &["blank_key_rows", "repeated_keys", "findings"],
        _ => &["blank_key_rows", "groups", "findings"],
    };
    let choices = match tool {
        "validate_rows" => vec![
            json!({"lists": []}),
            json!({"lists": ["quarantine"]}),
            json!({"lists": ["flagged", "findings"]}),
            json!({"page": {"list": "quarantine", "offset": 0, "limit": 5}}),
            json!({"page": {"list": "quarantine", "offset": 10, "limit": 7}}),
            json!({"page": {"list": "flagged", "offset": 3, "limit": 2}, "lists": ["accepted"]}),
            json!({"page": {"list": "accepted", "offset": 0, "limit": 1000}}),
        ],
        "count_distinct" => vec![
            json!({"lists": []}),
            json!({"lists": ["findings"]}),
            json!({"page": {"list": "repeated_keys", "offset": 0, "limit": 2}}),
            json!({"page": {"list": "blank_key_rows", "offset": 1, "limit": 3}, "lists": ["repeated_keys"]}),
        ],
        _ => vec![
            json!({"lists": []}),
            json!({"lists": ["groups"]}),
            json!({"page": {"list": "groups", "offset": 0, "limit": 3}}),
            json!({"page": {"list": "groups", "offset": 2, "limit": 5}}),
            json!({"page": {"list": "blank_key_rows", "offset": 0, "limit": 1}, "lists": ["findings"]}),
        ],
    };
    choices
        .into_iter()
        .map(|choice| {
            let named: Vec<&str> = choice["lists"]
                .as_array()
                .map_or_else(Vec::new, |names| names.iter().map(|name| name.as_str().unwrap()).collect());
            let paged = choice["page"]["list"].as_str();
            let left_out = every
                .iter()
                .copied()
                .filter(|list| Some(*list) != paged && !named.contains(list))
                .filter(|_| choice.get("lists").is_some() || paged.is_some())
                .collect();
            (choice, left_out)
        })
        .collect()
}

/// A page's own numbers agree with its list, and every sentence that
/// speaks of the paged list says where the page is.
fn check_page(result: &Value, context: &str) {
    let Some(page) = result.get("page") else { return };
    let list = page["list"].as_str().unwrap();
    let listed = len(result, list);
    assert_eq!(number(&page["listed"]), listed, "{context}: page.listed");
    let offset = number(&page["offset"]);
    let total = number(&page["total"]);
    assert_eq!(listed, total.saturating_sub(offset).min(number(&page["limit"])), "{context}: the page's length");
    let beyond_max_groups = if list == "groups" { number(&result["duplicate_group_count"]) - total } else { 0 };
    assert_eq!(number(&result[format!("{list}_omitted")]), total - listed + beyond_max_groups, "{context}");
    match &page["next_page"] {
        Value::Null => assert!(offset + listed >= total, "{context}: no next page before the end"),
        next => assert_eq!(number(&next["offset"]), offset + listed, "{context}: next_page"),
    }
    if total - listed == 0 {
        return;
    }
    let findings = result["findings"].as_array().unwrap();
    let abridged = findings.iter().find(|finding| finding["code"] == "result_abridged").unwrap();
    let message = abridged["message"].as_str().unwrap();
    let place = if listed == 0 {
        format!("offset {offset} is past the end")
    } else {
        format!("from offset {offset} of {total}")
    };
    assert!(
        message.contains(&format!("from `{list}` ({}", if listed == 0 { &place } else { "this page" })),
        "{context}: {message}"
    );
    assert!(message.contains(&place), "{context}: {message}");
    let guidance = result["guidance"].as_str().unwrap();
    if guidance.contains(&format!("`{list}_omitted`")) {
        assert!(guidance.contains(&place), "{context}: {guidance}");
    }
}

#[test]
fn lists_and_pages_say_what_they_list() {
    let columns = json!([{"name": "invoice", "required": true}, {"name": "amount", "type": "number", "min": 0},
                         {"name": "status", "allowed": ["paid", "open"], "on_fail": "flag"}]);
    let flag_only = json!([{"name": "invoice", "required": true},
                           {"name": "status", "allowed": ["paid", "open"], "on_fail": "flag"}]);
    for count in [0, 1, 4, 30, 61] {
        for contract in [&columns, &flag_only] {
            for (choice, left_out) in selections("validate_rows") {
                for cap in [None, Some(0), Some(2)] {
                    let context = format!("validate_rows {count} rows, {choice}, cap {cap:?}");
                    let mut args = json!({"rows": invoices(count), "columns": contract, "row_key": "invoice"});
                    for (key, value) in choice.as_object().unwrap() {
                        args[key] = value.clone();
                    }
                    let result = call("validate_rows", args, cap);
                    check_abridged_finding(&result, &context);
                    check_validate_rows_guidance(&result, &left_out, &context);
                    check_page(&result, &context);
                }
            }
        }
    }
}

#[test]
fn keys_and_groups_under_lists_and_pages_say_what_they_list() {
    for count in [0, 2, 9, 40, 75] {
        let rows: Vec<Value> =
            (0..count).map(|i| json!({"id": if i % 7 == 6 { String::new() } else { format!("K{}", i / 3) }})).collect();
        for (tool, max_groups) in [("count_distinct", None), ("duplicate_report", None), ("duplicate_report", Some(4))]
        {
            for (choice, left_out) in selections(tool) {
                for cap in [None, Some(0), Some(2)] {
                    let context = format!("{tool} {count} rows, max_groups {max_groups:?}, {choice}, cap {cap:?}");
                    let mut args = json!({"rows": rows, "key": "id"});
                    if let Some(max_groups) = max_groups {
                        args["max_groups"] = json!(max_groups);
                    }
                    for (key, value) in choice.as_object().unwrap() {
                        args[key] = value.clone();
                    }
                    let result = call(tool, args, cap);
                    check_abridged_finding(&result, &context);
                    check_page(&result, &context);
                    // A list left out is empty; of `findings`, only those about the whole input stay.
                    let whole = ["no_rows", "groups_truncated", "result_abridged"];
                    for list in &left_out {
                        let entries = result[*list].as_array().unwrap();
                        let kept =
                            entries.iter().filter(|f| !(*list == "findings" && whole.iter().any(|c| f["code"] == *c)));
                        assert_eq!(kept.count(), 0, "{context}: {list}");
                    }
                    if tool == "duplicate_report" && number(&result["duplicate_group_count"]) > 0 {
                        let guidance = result["guidance"].as_str().unwrap();
                        assert_eq!(kind_counts(guidance), len(&result, "groups"), "{context}: {guidance}");
                        if left_out.contains(&"groups") {
                            assert!(!guidance.contains("listed in `groups`"), "{context}: {guidance}");
                            assert!(guidance.contains("does not ask for `groups`"), "{context}: {guidance}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn reconcile_says_what_it_lists() {
    for count in [0, 1, 3, 30, 90] {
        // Every 4th movement is text that is not a number (its own finding).
        let movements: Vec<Value> =
            (0..count).map(|i| if i % 4 == 3 { json!(format!("n/a {i}")) } else { json!(i) }).collect();
        let args = json!({"opening_balance": 0, "movements": movements, "closing_balance": 7});
        // The list as the reference gives it (the usable movements), uncapped.
        let whole = len(&call("reconcile", args.clone(), None), "movements");
        for cap in CAPS {
            let result = call("reconcile", args.clone(), cap);
            let context = format!("reconcile {count} movements, cap {cap:?}");
            check_abridged_finding(&result, &context);
            // Every listed movement is listed or counted as left out, never lost.
            assert_eq!(len(&result, "movements") + number(&result["movements_omitted"]), whole, "{context}");
        }
    }
}

#[test]
fn inspect_dataset_says_what_it_lists() {
    for count in [0, 1, 12, 80] {
        // Three columns; rows repeat in sevens, so fully duplicated rows exist
        // from the eighth row on; one column has surrounding blanks.
        let mut csv = String::from("code,size,note\n");
        for i in 0..count {
            let note = if i % 7 == 3 { " padded " } else { "plain" };
            let _ = writeln!(csv, "C{},{},{note}", i % 7, i % 7 * 10);
        }
        for cap in CAPS {
            let result = call("inspect_dataset", json!({"csv": csv}), cap);
            let context = format!("inspect_dataset {count} rows, cap {cap:?}");
            check_abridged_finding(&result, &context);
            if count > 0 {
                assert_eq!(len(&result, "columns") + number(&result["columns_omitted"]), 3, "{context}");
            }
        }
    }
}
