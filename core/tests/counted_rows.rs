//! A row no list shows is counted exactly as a listed row is checked.
//!
//! `validate_rows` checks a row in full (findings written out, the row
//! cleaned) only when the result will list it; every other row is only
//! counted, by a cheaper reading of the same cells. Whatever `max_listed`
//! says, the counts must come out the same, and the capped lists must be the
//! first items of the uncapped ones. The inputs are the reference's recorded
//! `validate_rows` calls (every case the reference answered with a result),
//! the same rows as CSV text where they are text, and generated CSV tables
//! with short, long and quoted records.

use std::fmt::Write as _;

use conformance_support::{load_cases, vectors_dir, Expected};
use serde_json::{json, Map, Value};
use validation_core::validate_rows;

/// The parts of a result that count every row, whatever is listed.
const COUNTS: [&str; 6] =
    ["summary", "errors_by_column", "findings_by_code", "columns_seen", "columns_required_but_absent", "verdict"];

fn with_cap(args: &Value, cap: Option<usize>) -> Value {
    let mut args = args.clone();
    match cap {
        Some(cap) => args["max_listed"] = json!(cap),
        None => {
            args.as_object_mut().unwrap().remove("max_listed");
        }
    }
    args
}

/// The failure codes the guidance names, with their counts (the sentence
/// after "Failure codes:"), or "" when no row was quarantined.
fn guidance_codes(result: &Value) -> String {
    let guidance = result["guidance"].as_str().unwrap();
    guidance.split("Failure codes: ").nth(1).map_or("", |rest| rest.split(". ").next().unwrap()).to_owned()
}

/// The findings of the result that are about rows (not the abridgement note
/// or whole-table findings), which the cap cuts in row order.
fn row_findings(result: &Value) -> Vec<Value> {
    let findings = result["findings"].as_array().unwrap();
    findings.iter().filter(|f| f["locator"]["row_index"].is_u64()).cloned().collect()
}

/// Check every cap against the uncapped result; returns the codes the
/// uncapped result found (none when the call is an argument error).
fn check_caps(args: &Value, context: &str) -> Vec<String> {
    let Ok(full) = validate_rows(&with_cap(args, None)) else { return Vec::new() };
    let total_findings = full["finding_count"].as_u64().unwrap();
    for cap in [0, 1, 3] {
        let capped = validate_rows(&with_cap(args, Some(cap))).unwrap();
        let at = format!("{context}, max_listed {cap}");
        for key in COUNTS {
            assert_eq!(capped[key], full[key], "{at}: {key} differs from the uncapped result");
        }
        assert_eq!(guidance_codes(&capped), guidance_codes(&full), "{at}: the guidance's failure codes differ");
        for list in ["accepted", "quarantine", "flagged"] {
            let listed = capped[list].as_array().unwrap();
            let all = full[list].as_array().unwrap();
            assert_eq!(listed.as_slice(), &all[..all.len().min(cap)], "{at}: {list} is not the first {cap}");
        }
        let listed = row_findings(&capped);
        let all = row_findings(&full);
        assert_eq!(listed.as_slice(), &all[..listed.len()], "{at}: the listed findings are not the first ones");
        let omitted = capped["findings_omitted"].as_u64().unwrap_or(0);
        // Every finding is listed or counted as omitted; the abridgement note adds one.
        let notes = u64::from(capped["findings"].as_array().unwrap().iter().any(|f| f["code"] == "result_abridged"));
        assert_eq!(capped["finding_count"].as_u64().unwrap(), total_findings + notes, "{at}: finding_count");
        assert!(omitted <= total_findings, "{at}: more omitted than found");
    }
    let codes = full["findings_by_code"].as_object().unwrap().keys().cloned();
    codes.chain(full["findings"].as_array().unwrap().iter().map(|f| f["code"].as_str().unwrap().to_owned())).collect()
}

/// Every code of contract v2 must have come up in the generated rounds, or
/// the rounds did not test what they claim to.
fn assert_v2_codes_seen(seen: &std::collections::BTreeSet<String>) {
    let expected = [
        "duplicate_value",
        "duplicate_key",
        "too_short",
        "too_long",
        "invalid_format",
        "too_many_decimal_places",
        "reference_not_found",
        "below_minimum",
        "above_maximum",
        "not_a_datetime",
        "row_count_out_of_range",
        "undeclared_column",
        "row_rule_failed",
        "row_rule_not_evaluable",
    ];
    for code in expected {
        assert!(seen.contains(code), "no generated round found {code}; seen: {seen:?}");
    }
}

/// `rows` as CSV text under `header`, if every cell is text without a
/// comma, quote or line break (a missing key is an empty field only when
/// the row has no later key, so the record is short instead).
fn as_csv(rows: &[Value], header: &[String]) -> Option<String> {
    let mut text = header.join(",") + "\n";
    for row in rows {
        let row = row.as_object()?;
        let width = header.iter().rposition(|name| row.contains_key(name)).map_or(0, |last| last + 1);
        if width == 0 {
            return None; // a blank line would be skipped, not read as a row
        }
        let mut fields = Vec::new();
        for name in &header[..width] {
            let cell = row.get(name)?.as_str()?;
            if cell.contains([',', '"', '\n', '\r']) {
                return None;
            }
            fields.push(cell.to_owned());
        }
        if row.keys().any(|key| !header.contains(key)) {
            return None;
        }
        text += &(fields.join(",") + "\n");
    }
    Some(text)
}

#[test]
fn counting_agrees_with_checking_on_the_recorded_calls() {
    let cases = load_cases(&vectors_dir(env!("CARGO_MANIFEST_DIR"))).expect("the vectors load");
    let mut checked = 0;
    let mut as_text = 0;
    for case in cases.iter().filter(|case| case.tool == "validate_rows" && case.deviation.is_none()) {
        if !matches!(case.expected, Expected::Result(_)) {
            continue;
        }
        let context = format!("{}:{}", case.file, case.name);
        check_caps(&case.args, &context);
        checked += 1;
        let Some(rows) = case.args["rows"].as_array() else { continue };
        let mut header: Vec<String> = Vec::new();
        for row in rows.iter().filter_map(Value::as_object) {
            for key in row.keys() {
                if !header.contains(key) {
                    header.push(key.clone());
                }
            }
        }
        if header.is_empty() {
            continue;
        }
        if let Some(csv) = as_csv(rows, &header) {
            let mut args = case.args.clone();
            let object = args.as_object_mut().unwrap();
            object.remove("rows");
            object.insert("csv".into(), Value::String(csv));
            check_caps(&args, &format!("{context} as CSV"));
            as_text += 1;
        }
    }
    assert!(checked > 200, "only {checked} recorded validate_rows results");
    assert!(as_text >= 40, "only {as_text} of them could be written as CSV");
}

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

const CELLS: [&str; 17] = [
    "",
    "  ",
    "abc",
    "12",
    " 3.5 ",
    "-4",
    "nan",
    "1e3",
    "2026-04-01",
    "2026-02-30",
    "C-1",
    "true",
    "No",
    "\"q,uoted\"",
    "\"say \"\"hi\"\"\"",
    "ÄÖ",
    "0.25",
];

fn contract(extra_named: bool) -> Value {
    let mut columns = vec![
        json!({"name": "id", "type": "string", "required": true, "pattern": "[A-Z]-\\d+"}),
        json!({"name": "amount", "type": "number", "min": 0, "on_fail": "flag"}),
        json!({"name": "count", "type": "integer", "range": [0, 20]}),
        json!({"name": "when", "type": "date", "required": true}),
        json!({"name": "flag", "type": "boolean", "on_fail": "flag"}),
        json!({"name": "note", "allowed": ["abc", "12", "ÄÖ"], "not_blank": true}),
        json!({"name": "absent", "required": true}),
    ];
    if extra_named {
        columns.push(json!({"name": "_extra", "type": "string", "required": true}));
    }
    Value::Array(columns)
}

/// The same contract with contract v2's rules on every column, and table
/// rules: the cross-row checks (`unique`, the primary key) must find the
/// same repeats whether a row is counted or checked in full.
fn contract_v2(extra_named: bool) -> Value {
    let mut columns = contract(extra_named);
    let columns_list = columns.as_array_mut().unwrap();
    let add = |column: &mut Value, rules: Value| {
        for (key, value) in rules.as_object().unwrap() {
            column[key] = value.clone();
        }
    };
    add(&mut columns_list[0], json!({"unique": true, "min_length": 3}));
    add(&mut columns_list[1], json!({"max_decimal_places": 1, "unique": true}));
    add(&mut columns_list[2], json!({"references": {"column": "n", "csv": "n\n12\n-4\n3\n"}}));
    add(&mut columns_list[3], json!({"min": "2026-03-01"}));
    add(&mut columns_list[5], json!({"max_length": 2, "format": "ipv4"}));
    columns_list.push(json!({"name": "other", "type": "datetime", "max": "2026-03-31T23:59", "unique": true}));
    columns
}

/// Row rules over the v2 contract's columns: one that quarantines, one that
/// flags, one with a condition.
fn row_rules_v2() -> Value {
    json!([
        {"name": "positive_or_counted", "check": "amount >= 0.0 || count > 3", "when": "has(row.id)"},
        {"name": "not_after_april", "check": "when <= date('2026-04-01')", "on_fail": "flag"},
        {"name": "short_note", "check": "size(note) < 3"},
    ])
}

fn table_v2() -> Value {
    json!({"primary_key": ["when", "note"], "row_count": {"min": 3}, "columns": "exact", "max_quarantined_fraction": 0.5})
}

#[test]
fn counting_agrees_with_checking_on_generated_csv() {
    let mut rng = Rng(0xc5c5);
    let mut seen = std::collections::BTreeSet::new();
    let names = ["id", "amount", "count", "when", "flag", "note", "other"];
    for round in 0..150 {
        // Some headers name a column `_extra`, where the extra fields also go.
        let mut header: Vec<&str> = names.iter().copied().filter(|_| rng.below(5) != 0).collect();
        if round % 10 == 3 {
            header.push("_extra");
        }
        let mut text = header.join(",") + "\r\n";
        for _ in 0..rng.below(30) {
            let width = match rng.below(8) {
                0 => rng.below(header.len() + 1),
                1 => header.len() + 1 + rng.below(2),
                _ => header.len(),
            };
            let record: Vec<&str> = (0..width.max(1)).map(|_| CELLS[rng.below(CELLS.len())]).collect();
            text += &(record.join(",") + if rng.below(3) == 0 { "\n" } else { "\r\n" });
        }
        let args = if round % 2 == 0 {
            json!({"csv": text, "columns": contract(round % 7 == 0), "row_key": "id"})
        } else {
            json!({"csv": text, "columns": contract_v2(round % 7 == 0), "table": table_v2(), "row_rules": row_rules_v2(), "row_key": "id"})
        };
        let codes = check_caps(&args, &format!("round {round}: {text:?}"));
        if round % 2 == 1 {
            seen.extend(codes);
        }
    }
    assert_v2_codes_seen(&seen);
}

#[test]
fn counting_agrees_with_checking_on_generated_rows() {
    let mut rng = Rng(0x5eed);
    let mut seen = std::collections::BTreeSet::new();
    let values = [json!(null), json!(5), json!(-2.5), json!(true), json!([1]), json!({"a": 1}), json!(1e300)];
    for round in 0..150 {
        let rows: Vec<Value> = (0..rng.below(30))
            .map(|_| {
                if rng.below(15) == 0 {
                    return json!("not an object");
                }
                let mut row = Map::new();
                for name in ["id", "amount", "count", "when", "flag", "note", "_extra", "other"] {
                    // A valid date often enough for primary keys to repeat.
                    if name == "when" && rng.below(3) == 0 {
                        row.insert(name.into(), json!("2026-04-01"));
                        continue;
                    }
                    match rng.below(4) {
                        0 => {}
                        1 => {
                            row.insert(name.into(), values[rng.below(values.len())].clone());
                        }
                        _ => {
                            row.insert(name.into(), json!(CELLS[rng.below(CELLS.len())]));
                        }
                    }
                }
                Value::Object(row)
            })
            .collect();
        let args = if round % 2 == 0 {
            json!({"rows": rows, "columns": contract(round % 5 == 0), "row_key": "id"})
        } else {
            json!({"rows": rows, "columns": contract_v2(round % 5 == 0), "table": table_v2(), "row_rules": row_rules_v2(), "row_key": "id"})
        };
        let codes = check_caps(&args, &format!("round {round}"));
        if round % 2 == 1 {
            seen.extend(codes);
        }
    }
    assert_v2_codes_seen(&seen);
}

/// The parts of a `count_distinct` result that count every row.
const KEY_COUNTS: [&str; 8] = [
    "row_count",
    "distinct_count",
    "difference",
    "difference_breakdown",
    "rows_with_a_key",
    "rows_with_blank_key",
    "verdict",
    "guidance",
];

/// `count_distinct` reads keys one row at a time and keeps only the
/// held-back rows a result lists: its counts must not depend on the cap,
/// and the capped lists must be the first items of the uncapped ones.
fn check_key_caps(args: &Value, context: &str) {
    let Ok(full) = validation_core::count_distinct(&with_cap(args, None)) else { return };
    let total = full["finding_count"].as_u64().unwrap();
    for cap in [0, 1, 3] {
        let capped = validation_core::count_distinct(&with_cap(args, Some(cap))).unwrap();
        let at = format!("{context}, max_listed {cap}");
        for key in KEY_COUNTS {
            assert_eq!(capped[key], full[key], "{at}: {key} differs from the uncapped result");
        }
        let listed = capped["blank_key_rows"].as_array().unwrap();
        let all = full["blank_key_rows"].as_array().unwrap();
        assert_eq!(listed.as_slice(), &all[..all.len().min(cap)], "{at}: blank_key_rows");
        let findings: Vec<&Value> =
            capped["findings"].as_array().unwrap().iter().filter(|f| f["code"] != "result_abridged").collect();
        let all: Vec<&Value> = full["findings"].as_array().unwrap().iter().collect();
        assert_eq!(findings.as_slice(), &all[..findings.len()], "{at}: the listed findings are not the first ones");
        assert_eq!(findings.len(), all.len().min(cap), "{at}: findings listed");
        // The abridgement note, when anything was left out, is the one finding added.
        let notes = u64::from(capped["findings"].as_array().unwrap().iter().any(|f| f["code"] == "result_abridged"));
        assert_eq!(capped["finding_count"].as_u64().unwrap(), total + notes, "{at}: finding_count");
    }
}

/// `value` without the CSV `line` of its locators (JSON rows have none).
fn without_lines(mut value: Value) -> Value {
    match &mut value {
        Value::Object(map) => {
            if let Some(Value::Object(locator)) = map.get_mut("locator") {
                locator.remove("line");
            }
            for item in map.values_mut() {
                *item = without_lines(item.take());
            }
        }
        Value::Array(items) => {
            for item in items {
                *item = without_lines(item.take());
            }
        }
        _ => {}
    }
    value
}

#[test]
fn keys_are_counted_alike_whatever_is_listed_and_from_csv_as_from_rows() {
    let mut rng = Rng(0xd15c);
    let keys = ["C-1", " c-1 ", "C-2", "", "  ", "Straße", "STRASSE", "x"];
    for round in 0..150 {
        let with_extra = round % 9 == 4;
        let header = if with_extra { "id,customer,_extra" } else { "id,customer,note" };
        let mut csv = format!("{header}\n");
        let mut rows = Vec::new();
        for i in 0..rng.below(25) {
            let customer = keys[rng.below(keys.len())];
            match rng.below(6) {
                // A record that stops before the key: the key is missing.
                0 => {
                    writeln!(csv, "{i}").unwrap();
                    rows.push(json!({"id": i.to_string()}));
                }
                _ => {
                    writeln!(csv, "{i},{customer},n").unwrap();
                    let third = if with_extra { "_extra" } else { "note" };
                    rows.push(json!({"id": i.to_string(), "customer": customer, third: "n"}));
                }
            }
        }
        let key = if round % 13 == 0 { "_extra" } else { "customer" };
        let from_csv = json!({"csv": csv, "key": key, "case_sensitive": round % 2 == 0});
        let from_rows = json!({"rows": rows, "key": key, "case_sensitive": round % 2 == 0});
        check_key_caps(&from_csv, &format!("round {round}: {csv:?}"));
        check_key_caps(&from_rows, &format!("round {round} as rows"));
        let a = validation_core::count_distinct(&from_csv).unwrap();
        let b = validation_core::count_distinct(&from_rows).unwrap();
        assert_eq!(without_lines(a), without_lines(b), "round {round}: {csv:?}");
    }
}
