//! `duplicate_report` reads its rows where they lie (a tree given, the
//! rows' JSON text, CSV text) and builds a row only when a group lists it.
//! Whichever way the same table arrives, the report must be the same:
//! the tree and the text byte for byte, and the CSV text as the rows it
//! reads to, by the reader's documented rules (`csv.rs`: each field under
//! its column's name, fields beyond the header under `_extra`, a short
//! record without its trailing columns), apart from the CSV line each
//! locator also names.

use conformance_support::rng::Rng;
use serde_json::{json, Map, Value};
use validation_core::{call_tool, call_tool_json};

/// Field texts that repeat often enough to make groups of every kind: keys
/// equal after trimming and case folding, blank keys, near matches, and
/// texts a CSV writer must quote (a comma, a quote, a line break).
const TEXTS: [&str; 14] = [
    "A-1",
    "a-1 ",
    " A-2",
    "B-7",
    "",
    "  ",
    "Smith, J",
    "Smyth, J",
    "say \"hi\"",
    "line\nbreak",
    "Straße",
    "STRASSE",
    "12",
    "12.0",
];

const HEADER: [&str; 3] = ["id", "name", "city"];

/// One CSV field, quoted when it must be.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// A table of records of two to four fields under a three-column header,
/// as CSV text (with `\n` or `\r\n` line endings) and as the row objects
/// the CSV reader gives for it.
fn table(rng: &mut Rng, records: usize) -> (String, Vec<Value>) {
    let ending = if rng.below(2) == 0 { "\n" } else { "\r\n" };
    let mut csv = HEADER.join(",") + ending;
    let mut rows = Vec::new();
    for _ in 0..records {
        let width = 2 + rng.below(3);
        let fields: Vec<&str> = (0..width).map(|_| TEXTS[rng.below(TEXTS.len())]).collect();
        // A record of one empty field is a blank line, which the reader
        // skips: every record here has at least two fields.
        csv += &fields.iter().map(|field| csv_field(field)).collect::<Vec<_>>().join(",");
        csv += ending;
        let mut row = Map::new();
        for (name, field) in HEADER.iter().zip(&fields) {
            row.insert((*name).to_owned(), json!(field));
        }
        if fields.len() > HEADER.len() {
            row.insert("_extra".to_owned(), json!(fields[HEADER.len()..]));
        }
        rows.push(Value::Object(row));
    }
    (csv, rows)
}

/// `value` without any `line` member, at any depth.
fn without_lines(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter().filter(|(key, _)| *key != "line").map(|(k, v)| (k.clone(), without_lines(v))).collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_lines).collect()),
        other => other.clone(),
    }
}

/// Every `line` member's value, in document order.
fn lines(value: &Value, out: &mut Vec<Value>) {
    match value {
        Value::Object(map) => {
            for (key, item) in map {
                if key == "line" {
                    out.push(item.clone());
                } else {
                    lines(item, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| lines(item, out)),
        _ => {}
    }
}

#[test]
fn a_table_gets_the_same_report_as_a_tree_as_json_text_and_as_csv() {
    let mut rng = Rng(0xd0b1e);
    let mut compared_groups = 0;
    for round in 0..300 {
        let records = 1 + rng.below(30);
        let (csv, rows) = table(&mut rng, records);
        let key = ["id", "name"][rng.below(2)];
        let mut options = json!({ "key": key });
        if rng.below(3) != 0 {
            options["match_fields"] = json!(if rng.below(2) == 0 { vec!["city"] } else { vec!["name", "city"] });
        }
        if rng.below(2) == 0 {
            options["similarity_threshold"] = json!(0.8);
        }
        if rng.below(3) == 0 {
            options["case_sensitive"] = json!(true);
        }
        if rng.below(3) == 0 {
            options["max_listed"] = json!(1 + rng.below(4));
        }
        let with = |data: (&str, Value)| {
            let mut args = options.clone();
            args[data.0] = data.1;
            args
        };
        let as_tree = call_tool("duplicate_report", &with(("rows", json!(rows)))).expect("a report");
        let text = serde_json::to_vec(&with(("rows", json!(rows)))).expect("JSON");
        let as_text: Value =
            serde_json::from_str(&call_tool_json("duplicate_report", &text).expect("a report")).expect("JSON");
        assert_eq!(as_text, as_tree, "round {round}: the rows' text against the tree");
        assert_eq!(as_text.to_string(), as_tree.to_string(), "round {round}: byte for byte");

        let from_csv = call_tool("duplicate_report", &with(("csv", json!(csv)))).expect("a report");
        assert_eq!(without_lines(&from_csv), without_lines(&as_tree), "round {round}: CSV {csv:?}");
        // Rows as a tree have no lines; each CSV locator names one, and the
        // records here each take one line, plus one per line break inside
        // a field before them: a line is at least its row's number + 2.
        let mut found = Vec::new();
        lines(&from_csv, &mut found);
        assert!(found.iter().all(|line| line.as_u64().is_some_and(|n| n >= 2)), "round {round}: {found:?}");
        compared_groups += from_csv["groups"].as_array().map_or(0, Vec::len);
    }
    // The tables made groups to compare, not only empty reports.
    assert!(compared_groups > 300, "{compared_groups}");
}
