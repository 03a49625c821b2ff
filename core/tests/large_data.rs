//! Results sized for a model (`max_listed`) and CSV input (`csv`).
//!
//! Expected values here are reasoned from the uncapped result of the same
//! call, which the conformance vectors tie to the reference: a cap may only
//! shorten lists and add `*_omitted` counts and one finding, never change a
//! count, a tally or a verdict.

use std::fmt::Write as _;

use serde_json::{json, Map, Value};
use validation_core::{call_tool, count_distinct, duplicate_report, validate_rows};

fn rows(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| {
            // Every third row has a negative amount; ids repeat every 7 rows.
            let amount = if i % 3 == 0 { format!("-{}", i + 1) } else { format!("{i}.5") };
            json!({"id": format!("C-{}", i % 7), "amount": amount, "name": format!("Name {}", i % 5)})
        })
        .collect()
}

fn contract() -> Value {
    json!([{"name": "id", "type": "string", "required": true}, {"name": "amount", "type": "number", "min": 0}])
}

fn without_keys(value: &Value, drop: &[&str]) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| !drop.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), without_keys(v, drop)))
                .collect::<Map<_, _>>(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(|v| without_keys(v, drop)).collect()),
        other => other.clone(),
    }
}

#[test]
fn a_result_under_the_cap_is_unchanged() {
    for n in [0, 1, 9] {
        let plain = validate_rows(&json!({"rows": rows(n), "columns": contract()})).unwrap();
        // 9 rows give 3 quarantined, 6 accepted and 3 findings: all within a cap of 9.
        let capped = validate_rows(&json!({"rows": rows(n), "columns": contract(), "max_listed": 9})).unwrap();
        assert_eq!(plain, capped, "n = {n}");
        assert_eq!(plain.to_string(), capped.to_string(), "key order too, n = {n}");
    }
}

#[test]
fn at_the_cap_boundary_one_more_row_abridges() {
    // 9 rows: 6 accepted (rows 1,2,4,5,7,8). A cap of 6 lists them all.
    let at = validate_rows(&json!({"rows": rows(9), "columns": contract(), "max_listed": 6})).unwrap();
    assert!(at.get("accepted_omitted").is_none());
    assert_eq!(at["accepted"].as_array().unwrap().len(), 6);
    // 10 rows: 9 is quarantined (9 % 3 == 0), so still 6 accepted, 4 quarantined: under a cap of 6.
    let ten = validate_rows(&json!({"rows": rows(10), "columns": contract(), "max_listed": 6})).unwrap();
    assert!(ten.get("accepted_omitted").is_none());
    // 11 rows: row 10 is accepted, the 7th accepted row: one over the cap.
    let over = validate_rows(&json!({"rows": rows(11), "columns": contract(), "max_listed": 6})).unwrap();
    assert_eq!(over["accepted"].as_array().unwrap().len(), 6);
    assert_eq!(over["accepted_omitted"], 1);
    assert_eq!(over["summary"]["accepted"], 7, "counts cover every row");
    let last = over["findings"].as_array().unwrap().last().unwrap();
    assert_eq!(last["code"], "result_abridged");
    assert!(last["message"].as_str().unwrap().contains("1 from `accepted`"), "{last}");
}

#[test]
fn capped_counts_tallies_and_verdicts_equal_the_uncapped_ones() {
    let plain = validate_rows(&json!({"rows": rows(500), "columns": contract()})).unwrap();
    let capped = validate_rows(&json!({"rows": rows(500), "columns": contract(), "max_listed": 10})).unwrap();
    for key in ["ok", "verdict", "summary", "errors_by_column", "findings_by_code", "contract", "columns_seen"] {
        assert_eq!(plain[key], capped[key], "{key}");
    }
    // The guidance says how many quarantined rows it lists, and where the rest are counted.
    let quarantined = plain["quarantine"].as_array().unwrap().len();
    let guidance = capped["guidance"].as_str().unwrap();
    let stated = format!(
        "{quarantined} of 500 rows were quarantined and 10 of them are listed in `quarantine` with a locator and \
reasons, and {} more are counted in `quarantine_omitted`",
        quarantined - 10
    );
    assert!(guidance.starts_with(&stated), "{guidance}");
    // Every finding is still counted, plus the one saying the result is abridged.
    assert_eq!(capped["finding_count"], plain["finding_count"].as_u64().unwrap() + 1);
    assert_eq!(capped["findings"].as_array().unwrap().len(), 11);
    assert_eq!(capped["findings_omitted"], plain["finding_count"].as_u64().unwrap() - 10);
    assert_eq!(capped["quarantine_omitted"], plain["quarantine"].as_array().unwrap().len() - 10);
    // The listed entries are the first ones of the full lists.
    assert_eq!(capped["quarantine"].as_array().unwrap()[..], plain["quarantine"].as_array().unwrap()[..10]);
    // And the omitted counts sit right after their lists.
    let keys: Vec<&String> = capped.as_object().unwrap().keys().collect();
    let at = keys.iter().position(|k| *k == "accepted").unwrap();
    assert_eq!(keys[at + 1], "accepted_omitted");
}

#[test]
fn a_cap_of_zero_lists_nothing_and_counts_everything() {
    let result = count_distinct(&json!({"rows": rows(50), "key": "id", "max_listed": 0})).unwrap();
    assert_eq!(result["distinct_count"], 7);
    assert_eq!(result["difference"], 43);
    assert_eq!(result["repeated_keys"], json!([]));
    assert_eq!(result["repeated_keys_omitted"], 7);
    let findings = result["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1);
    assert_eq!(findings[0]["code"], "result_abridged");
}

#[test]
fn repeated_key_row_indexes_are_capped_too() {
    // 50 rows over 7 ids: C-0 is on rows 0, 7, ..., 49: 8 rows.
    let result = count_distinct(&json!({"rows": rows(50), "key": "id", "max_listed": 3})).unwrap();
    let first = &result["repeated_keys"][0];
    assert_eq!(first["key"], "c-0");
    assert_eq!(first["count"], 8);
    assert_eq!(first["row_indexes"], json!([0, 7, 14]));
    assert_eq!(first["row_indexes_omitted"], 5);
}

#[test]
fn duplicate_groups_respect_both_caps() {
    // 7 keys each repeated: 7 same_key groups.
    let plain = duplicate_report(&json!({"rows": rows(50), "key": "id"})).unwrap();
    assert_eq!(plain["duplicate_group_count"], 7);
    let capped = duplicate_report(&json!({"rows": rows(50), "key": "id", "max_listed": 2})).unwrap();
    assert_eq!(capped["duplicate_group_count"], 7);
    assert_eq!(capped["groups"].as_array().unwrap().len(), 2);
    assert_eq!(capped["groups_omitted"], 5);
    assert_eq!(capped["rows_in_duplicate_groups"], plain["rows_in_duplicate_groups"]);
    assert_eq!(capped["groups"][0]["members"].as_array().unwrap().len(), 2);
    assert_eq!(capped["groups"][0]["members_omitted"], 6);
    // max_groups stays the reference's cap with the reference's finding.
    let by_groups = duplicate_report(&json!({"rows": rows(50), "key": "id", "max_groups": 3})).unwrap();
    assert!(by_groups["findings"].as_array().unwrap().iter().any(|f| f["code"] == "groups_truncated"));
}

/// The rows as CSV text, every value a string.
fn as_csv(rows: &[Value]) -> String {
    let mut text = String::from("id,amount,name\r\n");
    for row in rows {
        let _ = write!(
            text,
            "{},{},\"{}\"\r\n",
            row["id"].as_str().unwrap(),
            row["amount"].as_str().unwrap(),
            row["name"].as_str().unwrap()
        );
    }
    text
}

#[test]
fn csv_input_gives_the_rows_result_plus_line_numbers() {
    let data = rows(40);
    for (tool, extra) in [
        ("validate_rows", json!({"columns": contract(), "row_key": "id"})),
        ("count_distinct", json!({"key": "id"})),
        ("duplicate_report", json!({"key": "id", "match_fields": ["name"]})),
    ] {
        let mut by_rows = extra.clone();
        by_rows["rows"] = Value::Array(data.clone());
        let mut by_csv = extra.clone();
        by_csv["csv"] = Value::String(as_csv(&data));
        let from_rows = call_tool(tool, &by_rows).unwrap();
        let from_csv = call_tool(tool, &by_csv).unwrap();
        assert_eq!(without_keys(&from_csv, &["line"]), from_rows, "{tool}");
    }
    // The header is line 1, so data row index i is on line i + 2.
    let result = validate_rows(&json!({"csv": as_csv(&data), "columns": contract()})).unwrap();
    for held in result["quarantine"].as_array().unwrap() {
        let index = held["locator"]["row_index"].as_u64().unwrap();
        assert_eq!(held["locator"]["line"], index + 2);
        assert_eq!(held["findings"][0]["locator"]["line"], index + 2);
    }
}

#[test]
fn data_must_be_given_exactly_once() {
    let both = validate_rows(&json!({"rows": [], "csv": "a\n1", "columns": contract()})).unwrap_err();
    assert_eq!(both.code.as_str(), "argument_type");
    assert!(both.message.contains("\"rows\", \"csv\""), "{}", both.message);
    let path = count_distinct(&json!({"path": "data.csv", "key": "id"})).unwrap_err();
    assert_eq!(path.argument.as_deref(), Some("path"));
    assert!(path.message.contains("--data-root"), "{}", path.message);
    let none = count_distinct(&json!({"key": "id"})).unwrap_err();
    assert_eq!(none.argument.as_deref(), Some("rows"));
    let bad = count_distinct(&json!({"csv": "id\n\"open", "key": "id"})).unwrap_err();
    assert_eq!(bad.code.as_str(), "invalid_argument");
    assert!(bad.message.contains("line 2"), "{}", bad.message);
    let bad_cap = count_distinct(&json!({"rows": [], "key": "id", "max_listed": -1})).unwrap_err();
    assert_eq!(bad_cap.argument.as_deref(), Some("max_listed"));
}
