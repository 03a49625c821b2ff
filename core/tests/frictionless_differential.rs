//! The Frictionless differential: `validate_rows` with a Table Schema
//! against what Frictionless itself says about the same table.
//!
//! `tests/frictionless/vectors.json` holds seeded small CSV tables, each
//! with a Table Schema and the errors Frictionless reported
//! (`tests/frictionless/generate.py`, the version in its README). Each
//! table is validated here with `{"csv", "schema"}`, and the failing
//! `(row, field, error)` triples are compared, our finding codes put in
//! Frictionless's terms by [`SAME_FINDING`].
//!
//! Every disagreement must be explained by a deviation listed, with its
//! reason, in `tests/frictionless/deviations.json`; an unexplained one fails
//! the test, and so does a listed deviation (or any one of its matchers)
//! that no longer occurs.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Value};
use validation_core::{read_csv, validate_rows};

const VECTORS: &str = include_str!("../../tests/frictionless/vectors.json");
const DEVIATIONS: &str = include_str!("../../tests/frictionless/deviations.json");

/// Our finding code, and the Frictionless error that is the same finding
/// (`constraint-error/<constraint>` for a constraint error). Frictionless's
/// `exclusiveMinimum`/`exclusiveMaximum` errors are read as
/// `minimum`/`maximum`: the mapping makes them `min`/`max` on integers.
const SAME_FINDING: [(&str, &str); 16] = [
    ("required_blank", "constraint-error/required"),
    ("not_an_integer", "type-error"),
    ("not_a_number", "type-error"),
    ("not_a_boolean", "type-error"),
    ("not_a_date", "type-error"),
    ("not_a_datetime", "type-error"),
    ("wrong_type", "type-error"),
    // A string format is part of the type in Frictionless.
    ("invalid_format", "type-error"),
    ("below_minimum", "constraint-error/minimum"),
    ("above_maximum", "constraint-error/maximum"),
    ("too_short", "constraint-error/minLength"),
    ("too_long", "constraint-error/maxLength"),
    ("pattern_mismatch", "constraint-error/pattern"),
    ("not_allowed", "constraint-error/enum"),
    ("duplicate_value", "unique-error"),
    // Located at the row (no field) on both sides.
    ("duplicate_key", "primary-key"),
];

/// Errors about a row rather than one of its cells: compared without a field.
const ROW_ERRORS: [&str; 3] = ["primary-key", "blank-row", "extra-cell"];

/// `(row number as Frictionless counts it, field, error)`.
type Triple = (u64, String, String);

fn frictionless_error(kind: &str, constraint: &str) -> String {
    let constraint = match constraint {
        "exclusiveMinimum" => "minimum",
        "exclusiveMaximum" => "maximum",
        other => other,
    };
    if constraint.is_empty() {
        kind.to_owned()
    } else {
        format!("{kind}/{constraint}")
    }
}

fn theirs(case: &Value) -> BTreeSet<Triple> {
    case["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|error| {
            let kind = frictionless_error(error[2].as_str().unwrap(), error[3].as_str().unwrap());
            let field = if ROW_ERRORS.contains(&kind.as_str()) { "" } else { error[1].as_str().unwrap() };
            (error[0].as_u64().unwrap(), field.to_owned(), kind)
        })
        .collect()
}

fn ours(case: &Value) -> BTreeSet<Triple> {
    let result = validate_rows(&json!({"csv": case["csv"], "schema": case["schema"]}))
        .unwrap_or_else(|err| panic!("{}: argument error {}", case["name"], err.message));
    assert_eq!(result["contract"]["schema_mapped_from"], "table_schema");
    result["findings"]
        .as_array()
        .unwrap()
        .iter()
        // Table findings (no line) have no Frictionless counterpart here:
        // every generated header has every field.
        .filter(|finding| finding["locator"]["line"].is_u64())
        .map(|finding| {
            let code = finding["code"].as_str().unwrap();
            let kind = SAME_FINDING
                .iter()
                .find(|(ours, _)| *ours == code)
                .unwrap_or_else(|| panic!("{}: no Frictionless error for {code}", case["name"]))
                .1;
            let field =
                if ROW_ERRORS.contains(&kind) { "" } else { finding["locator"]["column"].as_str().unwrap_or("") };
            // With no line break inside a generated cell, Frictionless's row
            // number (the header is row 1) is the CSV line.
            (finding["locator"]["line"].as_u64().unwrap(), field.to_owned(), kind.to_owned())
        })
        .collect()
}

/// One table, as the matchers read it.
struct Table<'a> {
    case: &'a Value,
    /// Frictionless row number → the row object (`None` for an empty line).
    rows: BTreeMap<u64, Value>,
    missing_values: Vec<String>,
    primary_key: Vec<String>,
    theirs: &'a BTreeSet<Triple>,
}

impl<'a> Table<'a> {
    fn new(case: &'a Value, theirs: &'a BTreeSet<Triple>) -> Self {
        let read = read_csv(case["csv"].as_str().unwrap()).unwrap();
        let lines = read["lines"].as_array().unwrap().iter().map(|line| line.as_u64().unwrap());
        let rows = lines.zip(read["rows"].as_array().unwrap().iter().cloned()).collect();
        let schema = &case["schema"];
        let missing_values = schema.get("missingValues").map_or_else(
            || vec![String::new()],
            |v| v.as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_owned()).collect(),
        );
        let primary_key = match &schema["primaryKey"] {
            Value::Null => Vec::new(),
            Value::String(name) => vec![name.clone()],
            Value::Array(names) => names.iter().map(|n| n.as_str().unwrap().to_owned()).collect(),
            other => panic!("primaryKey {other}"),
        };
        Table { case, rows, missing_values, primary_key, theirs }
    }

    fn field(&self, name: &str) -> Option<&Value> {
        self.case["schema"]["fields"].as_array().unwrap().iter().find(|field| field["name"] == name)
    }

    /// The field's kind: its format when it has one of the string formats, else its type.
    fn kind(&self, name: &str) -> String {
        let field = self.field(name).unwrap();
        match field["format"].as_str() {
            Some(format @ ("email" | "uri" | "uuid")) => format.to_owned(),
            _ => field["type"].as_str().unwrap_or("string").to_owned(),
        }
    }

    /// The cell as text: `<absent>` beyond a short record, `<empty line>` for one.
    fn cell(&self, row: u64, field: &str) -> String {
        match self.rows.get(&row) {
            None => "<empty line>".to_owned(),
            Some(object) => object.get(field).map_or_else(|| "<absent>".to_owned(), |v| v.as_str().unwrap().to_owned()),
        }
    }

    /// Missing as Frictionless reads it: a missing value, an absent cell, an empty line.
    fn frictionless_missing(&self, row: u64, field: &str) -> bool {
        let cell = self.cell(row, field);
        cell.starts_with('<') || self.missing_values.contains(&cell)
    }

    fn type_error(&self, row: u64, field: &str) -> bool {
        self.theirs.contains(&(row, field.to_owned(), "type-error".to_owned()))
    }

    fn field_names(&self) -> Vec<String> {
        self.case["schema"]["fields"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["name"].as_str().unwrap().to_owned())
            .collect()
    }
}

/// Whether `matcher` (one entry of a deviation's `matches`) explains the
/// disagreement `triple`, found only on `side`.
fn explains(matcher: &Value, table: &Table<'_>, side: &str, triple: &Triple) -> bool {
    let (row, field, error) = triple;
    let (row, field) = (*row, field.as_str());
    if matcher["side"] != side {
        return false;
    }
    if !matcher["errors"].as_array().unwrap().iter().any(|e| e == error.as_str()) {
        return false;
    }
    // The columns a finding is about: its field, or the key's for a key error.
    let columns: Vec<String> = match error.as_str() {
        "primary-key" => table.primary_key.clone(),
        "blank-row" | "extra-cell" => table.field_names(),
        _ => vec![field.to_owned()],
    };
    if let Some(types) = matcher.get("types") {
        let kinds: Vec<String> = columns.iter().map(|c| table.kind(c)).collect();
        if !types.as_array().unwrap().iter().any(|t| kinds.iter().any(|k| t == k.as_str())) {
            return false;
        }
    }
    if let Some(cells) = matcher.get("cells") {
        let listed = |cell: &str| match cells {
            Value::String(class) if class == "blank" => {
                !cell.is_empty() && !cell.starts_with('<') && cell.trim().is_empty()
            }
            Value::Array(values) => values.iter().any(|v| v == cell),
            other => panic!("cells {other}"),
        };
        // A value repeats across rows: for unique and key errors, any cell
        // of the column up to this row counts.
        let cross_row = error == "unique-error" || error == "primary-key";
        let rows: Vec<u64> =
            if cross_row { table.rows.keys().copied().filter(|r| *r <= row).collect() } else { vec![row] };
        if !rows.iter().any(|r| columns.iter().any(|c| listed(&table.cell(*r, c)))) {
            return false;
        }
    }
    if let Some(patterns) = matcher.get("patterns") {
        let pattern = table.field(field).and_then(|f| f["constraints"]["pattern"].as_str()).unwrap_or("");
        if !patterns.as_array().unwrap().iter().any(|p| p == pattern) {
            return false;
        }
    }
    if matcher.get("also_type_error") == Some(&Value::Bool(true)) && !table.type_error(row, field) {
        return false;
    }
    if matcher.get("key_column_not_required") == Some(&Value::Bool(true)) {
        let required = table.field(field).is_some_and(|f| f["constraints"]["required"] == true);
        if required || !table.primary_key.iter().any(|k| k == field) {
            return false;
        }
    }
    match matcher.get("row").and_then(Value::as_str) {
        None => true,
        Some("all_missing") => table.field_names().iter().all(|c| table.frictionless_missing(row, c)),
        Some("key_incomplete") => {
            table.primary_key.iter().any(|c| table.frictionless_missing(row, c) || table.type_error(row, c))
        }
        Some(other) => panic!("row predicate {other}"),
    }
}

#[test]
fn validate_rows_with_a_table_schema_agrees_with_frictionless_but_for_the_listed_deviations() {
    let vectors: Value = serde_json::from_str(VECTORS).unwrap();
    let deviations: Value = serde_json::from_str(DEVIATIONS).unwrap();
    let deviations = deviations["deviations"].as_array().unwrap();
    assert_eq!(vectors["frictionless"], "5.21.0");

    let mut agreed = 0;
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut matcher_counts: BTreeMap<(String, usize), usize> = BTreeMap::new();
    let mut unexplained = Vec::new();
    for case in vectors["cases"].as_array().unwrap() {
        let theirs = theirs(case);
        let ours = ours(case);
        agreed += ours.intersection(&theirs).count();
        let table = Table::new(case, &theirs);
        let only_ours = ours.difference(&theirs).map(|t| ("ours", t));
        let only_theirs = theirs.difference(&ours).map(|t| ("frictionless", t));
        for (side, triple) in only_ours.chain(only_theirs) {
            let mut explained = false;
            for deviation in deviations {
                let name = deviation["name"].as_str().unwrap();
                for (index, matcher) in deviation["matches"].as_array().unwrap().iter().enumerate() {
                    if explains(matcher, &table, side, triple) {
                        *matcher_counts.entry((name.to_owned(), index)).or_default() += 1;
                        explained = true;
                    }
                }
                if explained {
                    *counts.entry(name.to_owned()).or_default() += 1;
                    break;
                }
            }
            if !explained {
                let (row, field, error) = triple;
                unexplained.push(format!(
                    "{} row {row} field {field:?} ({}): {error} only in {side}; cell {:?}",
                    case["name"],
                    if field.is_empty() {
                        String::new()
                    } else {
                        table.field(field).map(Value::to_string).unwrap_or_default()
                    },
                    table.cell(*row, field)
                ));
            }
        }
    }
    println!("{agreed} findings agreed");
    for (name, count) in &counts {
        println!("{count:5} {name}");
    }
    assert!(unexplained.is_empty(), "{} unexplained disagreements:\n{}", unexplained.len(), unexplained.join("\n"));
    assert!(agreed > 1000, "only {agreed} findings agreed");
    for deviation in deviations {
        let name = deviation["name"].as_str().unwrap();
        assert!(deviation["reason"].as_str().is_some_and(|r| !r.is_empty()), "{name} has no reason");
        for index in 0..deviation["matches"].as_array().unwrap().len() {
            assert!(
                matcher_counts.contains_key(&(name.to_owned(), index)),
                "deviation {name}: matcher {index} no longer occurs; remove it (or the deviation)"
            );
        }
    }
}
