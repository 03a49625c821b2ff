//! The design rules, tested directly on generated data rather than through
//! recorded answers: nothing is dropped, a failing dataset is a result, an
//! unreadable input withholds the verdict, nothing is merged, one envelope.

use conformance_support::rng::Rng;
use serde_json::{json, Value};
use validation_core::{call_tool, count_distinct, duplicate_report, reconcile, validate_rows, TOOL_NAMES};

/// Picks from a list with the shared generator.
trait Pick {
    fn pick<'a>(&mut self, items: &'a [Value]) -> &'a Value;
}

impl Pick for Rng {
    fn pick<'a>(&mut self, items: &'a [Value]) -> &'a Value {
        &items[self.below(items.len())]
    }
}

fn cell_values() -> Vec<Value> {
    vec![
        json!(null),
        json!(""),
        json!("  "),
        json!("abc"),
        json!("12"),
        json!(" 3.5 "),
        json!("nan"),
        json!(-4),
        json!(7.25),
        json!(true),
        json!([1, 2]),
        json!({"x": 1}),
        json!("2026-04-01"),
        json!("C-1"),
        json!(" c-1 "),
    ]
}

fn random_rows(rng: &mut Rng, count: usize) -> Vec<Value> {
    let values = cell_values();
    (0..count)
        .map(|_| {
            if rng.below(12) == 0 {
                // Not every row is an object; those must still be accounted for.
                return rng.pick(&values).clone();
            }
            let mut row = serde_json::Map::new();
            for column in ["id", "amount", "date", "name"] {
                if rng.below(6) != 0 {
                    row.insert(column.into(), rng.pick(&values).clone());
                }
            }
            Value::Object(row)
        })
        .collect()
}

fn contract() -> Value {
    json!([
        {"name": "id", "type": "string", "required": true, "pattern": "[a-zA-Z]-\\d+"},
        {"name": "amount", "type": "number", "min": 0, "on_fail": "flag"},
        {"name": "date", "type": "date"},
        {"name": "name", "allowed": ["abc", 12, true], "not_blank": true}
    ])
}

fn assert_envelope(result: &Value, tool: &str) {
    assert_eq!(result["tool"], tool);
    assert!(result["ok"].is_boolean());
    assert!(result["verdict"].is_string());
    let findings = result["findings"].as_array().expect("findings is an array");
    assert_eq!(result["finding_count"], findings.len());
    for finding in findings {
        assert!(finding["code"].is_string() && finding["message"].is_string());
        assert!(["error", "warning", "info"].contains(&finding["severity"].as_str().unwrap()));
    }
    assert!(!result["guidance"].as_str().unwrap().is_empty());
    let keys: Vec<&String> = result.as_object().unwrap().keys().take(6).collect();
    assert_eq!(keys, ["tool", "ok", "verdict", "finding_count", "findings", "guidance"]);
}

/// The same columns with contract v2's rules, a primary key and row rules
/// (no table-wide rule, so `ok` keeps meaning "nothing held back").
fn contract_v2_args(rows: &[Value]) -> Value {
    json!({
        "rows": rows,
        "columns": [
            {"name": "id", "type": "string", "required": true, "pattern": "[a-zA-Z]-\\d+", "unique": true, "max_length": 4},
            {"name": "amount", "type": "number", "min": 0, "on_fail": "flag", "max_decimal_places": 1},
            {"name": "date", "type": "date", "min": "2026-01-01"},
            {"name": "name", "allowed": ["abc", 12, true], "not_blank": true, "references": {"values": ["abc", 12]}},
        ],
        "table": {"primary_key": ["date", "name"]},
        "row_rules": [
            {"name": "named_amount", "check": "amount > 1.0", "when": "has(row.name)"},
            {"name": "short_id", "check": "size(id) <= 3", "on_fail": "flag"},
        ],
        "row_key": "id",
    })
}

#[test]
fn every_row_is_accepted_or_quarantined() {
    let mut rng = Rng(0x5eed);
    for round in 0..600 {
        let count = rng.below(40);
        let rows = random_rows(&mut rng, count);
        // Odd rounds use contract v2's rules: the same rules hold for them.
        let args = if round % 2 == 0 {
            json!({"rows": rows, "columns": contract(), "row_key": "id"})
        } else {
            contract_v2_args(&rows)
        };
        let result =
            validate_rows(&args).unwrap_or_else(|err| panic!("round {round}: a dataset must never be an error: {err}"));
        assert_envelope(&result, "validate_rows");
        let accepted = result["accepted"].as_array().unwrap().len();
        let quarantined = result["quarantine"].as_array().unwrap().len();
        assert_eq!(accepted + quarantined, count, "round {round}: rows were lost or invented");
        assert_eq!(result["summary"]["accounted_for"], count);
        assert_eq!(result["summary"]["rows_in"], count);
        // Every row index appears exactly once across accepted and quarantined.
        let mut quarantined_indexes: Vec<u64> = result["quarantine"]
            .as_array()
            .unwrap()
            .iter()
            .map(|q| q["locator"]["row_index"].as_u64().unwrap())
            .collect();
        quarantined_indexes.dedup();
        assert_eq!(quarantined_indexes.len(), quarantined);
        // ok means nothing was held back, and there was something to check.
        assert_eq!(result["ok"], quarantined == 0 && count > 0);
        for held in result["quarantine"].as_array().unwrap() {
            assert!(!held["reasons"].as_array().unwrap().is_empty(), "a quarantined row carries a reason");
            let index = held["locator"]["row_index"].as_u64().unwrap();
            assert_eq!(held["locator"]["row_number"], index + 1, "row_number is one-based");
        }
    }
}

#[test]
fn an_unreadable_movement_withholds_the_verdict() {
    for bad in
        [json!("twelve"), json!(null), json!({"amount": "x"}), json!({"amount": 5, "direction": "up"}), json!([1])]
    {
        let result = reconcile(&json!({
            "opening_balance": 100, "movements": [10, bad, -5], "closing_balance": 105
        }))
        .expect("bad data is a result, not an error");
        assert_envelope(&result, "reconcile");
        assert_eq!(result["closes"], Value::Null, "a partial total must not pass or fail");
        assert_eq!(result["arithmetic_is_reliable"], false);
        assert_eq!(result["ok"], false);
        assert_eq!(result["verdict"], "inputs_rejected");
    }
    // And the same call with every movement readable does give a verdict: 100 + 10 - 5 = 105.
    let result = reconcile(&json!({"opening_balance": 100, "movements": [10, -5], "closing_balance": 105})).unwrap();
    assert_eq!(result["closes"], true);
}

#[test]
fn duplicates_are_reported_never_merged() {
    let mut rng = Rng(0xd0b1e);
    for _ in 0..200 {
        let count = rng.below(30);
        let rows = random_rows(&mut rng, count);
        let result = duplicate_report(&json!({
            "rows": rows, "key": "id", "match_fields": ["name"], "similarity_threshold": 0.6
        }))
        .unwrap();
        assert_envelope(&result, "duplicate_report");
        assert_eq!(result["auto_merged"], false);
        assert_eq!(result["nothing_was_merged_or_deleted"], true);
        assert_eq!(result["row_count"], count);
        for group in result["groups"].as_array().unwrap() {
            assert_eq!(group["auto_merged"], false);
            assert_eq!(group["decision_required"], true);
            assert_eq!(group["recommended_action"], "human_review");
            for member in group["members"].as_array().unwrap() {
                // The member row is the input row, untouched.
                let index = member["locator"]["row_index"].as_u64().unwrap() as usize;
                assert_eq!(member["row"], rows[index]);
            }
        }
    }
}

#[test]
fn distinct_counts_explain_the_whole_difference() {
    let mut rng = Rng(0xc0de);
    for _ in 0..200 {
        let count = rng.below(30);
        let rows = random_rows(&mut rng, count);
        let result = count_distinct(&json!({"rows": rows, "key": "id"})).unwrap();
        assert_envelope(&result, "count_distinct");
        let difference = result["difference"].as_u64().unwrap();
        let breakdown = &result["difference_breakdown"];
        let explained =
            breakdown["from_repeated_keys"].as_u64().unwrap() + breakdown["from_rows_with_blank_key"].as_u64().unwrap();
        assert_eq!(difference, explained, "the difference is fully broken into its causes");
        assert_eq!(result["row_count"], count);
        let keyed = result["rows_with_a_key"].as_u64().unwrap();
        let blank = result["rows_with_blank_key"].as_u64().unwrap();
        assert_eq!(keyed + blank, count as u64, "every row is keyed or listed as blank");
        assert_eq!(result["blank_key_rows"].as_array().unwrap().len() as u64, blank);
    }
}

#[test]
fn a_malformed_call_is_an_error_that_names_the_problem() {
    let err = validate_rows(&json!({"rows": [], "columns": [{"name": "a", "type": "decimal"}]})).unwrap_err();
    assert_eq!(err.code.as_str(), "invalid_contract");
    assert!(err.message.starts_with("column \"a\": unknown type 'decimal'"), "{}", err.message);

    let err = count_distinct(&json!({"rows": [], "key": 5})).unwrap_err();
    assert_eq!(err.code.as_str(), "argument_type");
    assert_eq!(err.argument.as_deref(), Some("key"));

    let err = duplicate_report(&json!({"rows": "x", "key": "id"})).unwrap_err();
    assert_eq!(err.argument.as_deref(), Some("rows"));

    let err = call_tool("validate", &json!({})).unwrap_err();
    assert_eq!(err.code.as_str(), "unknown_tool");

    let err = validate_rows(&json!({"rows": [], "columns": [{"name": "a", "pattern": "(a)\\1"}]})).unwrap_err();
    assert!(err.message.contains("back-reference"), "{}", err.message);
}

#[test]
fn every_tool_answers_an_empty_dataset_with_a_result() {
    for tool in TOOL_NAMES {
        let args = match tool {
            "validate_rows" => json!({"rows": [], "columns": [{"name": "a"}]}),
            "reconcile" => json!({"opening_balance": 0, "movements": [], "closing_balance": 0}),
            _ => json!({"rows": [], "key": "id"}),
        };
        let result = call_tool(tool, &args).unwrap();
        assert_envelope(&result, tool);
    }
}

#[test]
fn integers_beyond_64_bits_keep_their_digits_in_messages() {
    // From the reference under CPython 3.11: an integer column turns 1e21 into the int
    // 10**21, which matches \d+ and is quoted with all its digits; the value itself comes
    // back as the float 1e21 here (a documented deviation).
    let result = validate_rows(&json!({
        "rows": [{"d": 1e21}, {"d": "99999999999999999999"}],
        "columns": [{"name": "d", "type": "integer", "pattern": "\\d+", "allowed": [1]}]
    }))
    .unwrap();
    let messages: Vec<&str> =
        result["findings"].as_array().unwrap().iter().map(|f| f["message"].as_str().unwrap()).collect();
    assert_eq!(
        messages,
        [
            "1000000000000000000000 is not one of the allowed values: 1",
            "99999999999999999999 is not one of the allowed values: 1"
        ]
    );
}
