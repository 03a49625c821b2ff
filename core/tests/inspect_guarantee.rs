//! The promise of `inspect_dataset`: `validate_rows` with the suggested
//! contract, on the data it was drafted from, returns `ok: true`; and so
//! does its `table_schema` given as `schema`, which maps back onto the same
//! contract (less the rules `evidence.table_schema_omits` lists).
//!
//! Held on generated datasets (a seeded xorshift generator: CSV and JSON
//! rows with mixed types, blanks, nulls, absent keys, unicode, blank space,
//! ragged records, repeated rows, awkward column names), on adversarial
//! values (`NaN`, `1e400`, `-0`, `0x10`, `" 12 "`, `"٣"`, `2024-02-30`,
//! offsets, `yes`/`No`, integers beyond 64 bits), and on every cap.
//! Where the promise cannot hold (no rows, a JSON row that is not an
//! object, a CSV header that repeats a name) the result must say so.

use std::fmt::Write;

use serde_json::{json, Map, Value};
use validation_core::call_tool;

/// xorshift64*: small, seeded, the same everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const ADVERSARIAL: [&str; 24] = [
    "NaN",
    "1e400",
    "-1e400",
    "-0",
    "0x10",
    " 12 ",
    "\u{663}",
    "\u{661}\u{662}",
    "2024-02-30",
    "2024-02-29",
    "2024-01-01T10:00+02:00",
    "2024-01-01T08:00Z",
    "2024-01-01 10:00",
    "yes",
    "No",
    "123456789012345678901234567890",
    "1_000",
    "5.0",
    "1e3",
    "\u{a0}7\u{a0}",
    "\t",
    "",
    "  ",
    "inf",
];

/// How a generated column's values are made.
#[derive(Clone, Copy)]
enum Kind {
    Integers,
    Decimals,
    Booleans,
    Dates,
    Datetimes,
    Codes,
    Emails,
    Ipv4,
    Statuses,
    Text,
    MostlyIntegers,
    Adversarial,
    /// JSON rows only: numbers, booleans, arrays, objects, text.
    JsonMix,
    Sequence,
}

const KINDS: [Kind; 14] = [
    Kind::Integers,
    Kind::Decimals,
    Kind::Booleans,
    Kind::Dates,
    Kind::Datetimes,
    Kind::Codes,
    Kind::Emails,
    Kind::Ipv4,
    Kind::Statuses,
    Kind::Text,
    Kind::MostlyIntegers,
    Kind::Adversarial,
    Kind::JsonMix,
    Kind::Sequence,
];

const NAMES: [&str; 16] = [
    "id",
    "customer_id",
    "invoiceId",
    "amount",
    "first name",
    "status",
    "_extra",
    "date",
    "名前",
    " padded",
    "",
    "code",
    "note",
    "when",
    "flag",
    "x",
];

const TEXT: [&str; 10] = ["Ann", "Bob Smith", "O'Brien", "zoë", "日本", "a,b", "say \"hi\"", "two\nlines", "x ", "-"];

fn value_of(rng: &mut Rng, kind: Kind, row: usize, json_rows: bool) -> Value {
    let n = rng.below(1000) as i64 - 100;
    let text = match kind {
        Kind::Integers => {
            return if json_rows && rng.chance(50) { json!(n) } else { json!(n.to_string()) };
        }
        Kind::Decimals => {
            return if json_rows && rng.chance(50) {
                json!(n as f64 / 4.0)
            } else {
                json!(format!("{:.2}", n as f64 / 3.0))
            };
        }
        Kind::Booleans => {
            return if json_rows && rng.chance(30) {
                json!(rng.chance(50))
            } else {
                json!(rng.pick(&["yes", "No", "true", "F", "1", "0", "y"]))
            };
        }
        Kind::Dates => format!("20{:02}-{:02}-{:02}", rng.below(30), 1 + rng.below(12), 1 + rng.below(28)),
        Kind::Datetimes => {
            let offset = rng.pick(&["", "Z", "+02:00", "-05:30"]);
            format!("2024-03-{:02}T{:02}:{:02}{offset}", 1 + rng.below(28), rng.below(24), rng.below(60))
        }
        Kind::Codes => format!("INV-{:06}", rng.below(1_000_000)),
        Kind::Emails => format!("user{}@example.{}", rng.below(50), rng.pick(&["com", "org"])),
        Kind::Ipv4 => format!("10.{}.{}.{}", rng.below(256), rng.below(256), rng.below(256)),
        Kind::Statuses => (*rng.pick(&["open", "paid", "void"])).to_owned(),
        Kind::Text => (*rng.pick(&TEXT)).to_owned(),
        Kind::MostlyIntegers => {
            if rng.chance(5) {
                (*rng.pick(&["n/a", "unknown", "12x"])).to_owned()
            } else {
                n.to_string()
            }
        }
        Kind::Adversarial => (*rng.pick(&ADVERSARIAL)).to_owned(),
        Kind::JsonMix if json_rows => {
            return rng
                .pick(&[json!(1), json!(2.5), json!(true), json!(["a"]), json!({"k": 1}), json!("t"), json!(-0.0)])
                .clone();
        }
        Kind::JsonMix => (*rng.pick(&["1", "t", "[]"])).to_owned(),
        Kind::Sequence => format!("{row}"),
    };
    Value::String(text)
}

/// A generated dataset: the data argument (`rows` or `csv`).
fn dataset(rng: &mut Rng) -> Value {
    let json_rows = rng.chance(50);
    let width = 1 + rng.below(5);
    let mut names: Vec<String> = Vec::new();
    while names.len() < width {
        let name = (*rng.pick(&NAMES)).to_owned();
        // A repeated header name is tried now and then (CSV only).
        if !names.contains(&name) || (!json_rows && rng.chance(3)) {
            names.push(name);
        }
    }
    // Identifier-like names get identifier-like values half the time, so
    // keys (and a second unique column beside the key) are drafted too.
    let kinds: Vec<Kind> = names
        .iter()
        .map(|name| {
            let id_like = name.ends_with("id") || name.ends_with("Id");
            if id_like && rng.chance(60) {
                Kind::Sequence
            } else {
                *rng.pick(&KINDS)
            }
        })
        .collect();
    let blanks: Vec<usize> = kinds
        .iter()
        .map(|kind| if matches!(kind, Kind::Sequence) { 0 } else { *rng.pick(&[0, 0, 5, 30, 100]) })
        .collect();
    let rows = *rng.pick(&[0, 1, 3, 9, 12, 25, 40]);
    let repeats = *rng.pick(&[0, 0, 8]);
    let mut table: Vec<Vec<Option<Value>>> = Vec::new();
    for row in 0..rows {
        if row > 0 && rng.chance(repeats) {
            let earlier = table[rng.below(table.len())].clone();
            table.push(earlier);
            continue;
        }
        let cells = (0..width)
            .map(|at| {
                if rng.chance(blanks[at]) {
                    rng.pick(&[None, Some(Value::Null), Some(json!("")), Some(json!("  "))]).clone()
                } else {
                    Some(value_of(rng, kinds[at], row, json_rows))
                }
            })
            .collect();
        table.push(cells);
    }
    if json_rows {
        json_data(rng, &names, &table)
    } else {
        csv_data(rng, &names, &table)
    }
}

fn json_data(rng: &mut Rng, names: &[String], table: &[Vec<Option<Value>>]) -> Value {
    let mut rows: Vec<Value> = table
        .iter()
        .map(|cells| {
            let mut row = Map::new();
            // Keys in a shuffled order now and then: the same row either way.
            let mut order: Vec<usize> = (0..names.len()).collect();
            if rng.chance(20) {
                order.reverse();
            }
            for at in order {
                if let Some(value) = &cells[at] {
                    row.insert(names[at].clone(), value.clone());
                }
            }
            Value::Object(row)
        })
        .collect();
    if !rows.is_empty() && rng.chance(3) {
        let at = rng.below(rows.len());
        rows[at] = rng.pick(&[json!([1, 2]), json!("row"), json!(null), json!(7)]).clone();
    }
    json!({"rows": rows})
}

fn csv_field(value: Option<&Value>) -> String {
    let text = match value {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(text)) => text.clone(),
        Some(other) => other.to_string(),
    };
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

fn csv_data(rng: &mut Rng, names: &[String], table: &[Vec<Option<Value>>]) -> Value {
    let header: Vec<String> = names.iter().map(|name| csv_field(Some(&json!(name)))).collect();
    let mut text = header.join(",") + "\n";
    for cells in table {
        let mut fields: Vec<String> = cells.iter().map(Option::as_ref).map(csv_field).collect();
        if rng.chance(5) {
            fields.push("extra".into());
        } else if rng.chance(5) && fields.len() > 1 {
            fields.pop();
        }
        // A record of one empty field is a blank line, which is no record.
        if fields.iter().all(String::is_empty) && fields.len() == 1 {
            fields[0] = "\"\"".into();
        }
        text.push_str(&fields.join(","));
        text.push_str(if rng.chance(10) { "\r\n" } else { "\n" });
    }
    json!({"csv": text})
}

fn call(tool: &str, args: &Value) -> Value {
    call_tool(tool, args).unwrap_or_else(|err| panic!("{tool}: {}\n{args}", err.message))
}

fn with(data: &Value, extra: &Map<String, Value>) -> Value {
    let mut args = data.clone();
    for (key, value) in extra {
        args[key] = value.clone();
    }
    args
}

/// Whether `validate_rows` can pass this data under any contract.
fn passable(result: &Value) -> bool {
    let summary = &result["summary"];
    summary["rows"] != 0 && summary["rows_not_objects"] == 0 && !codes(result).contains(&"repeated_header")
}

/// Whether the findings list is whole (not cut by `max_listed`).
fn listed_all(result: &Value) -> bool {
    result.get("findings_omitted").is_none()
}

fn codes(result: &Value) -> Vec<&str> {
    result["findings"].as_array().unwrap().iter().map(|finding| finding["code"].as_str().unwrap()).collect()
}

/// The promise, and the Table Schema's round trip, for one dataset.
fn check_promise(data: &Value, result: &Value) {
    let contract = &result["suggested_contract"];
    if !passable(result) {
        if result["summary"]["rows"] == 0 {
            assert!(contract.is_null(), "{result}");
            assert!(listed_all(result) <= codes(result).contains(&"no_rows"), "{result}");
        }
        assert_eq!(result["ok"], false, "{result}");
        return;
    }
    let Some(contract) = contract.as_object() else {
        assert!(listed_all(result) <= codes(result).contains(&"no_columns"), "no contract and no reason: {result}");
        return;
    };
    let validated = call("validate_rows", &with(data, contract));
    assert_eq!(validated["ok"], true, "the draft fails its own data\n{data}\n{contract:?}\n{validated}");
    // The Table Schema means the same contract, less what it cannot say.
    let mut schema_call = data.clone();
    schema_call["schema"] = result["table_schema"].clone();
    let from_schema = call("validate_rows", &schema_call);
    assert_eq!(from_schema["ok"], true, "{from_schema}");
    let mut expected = contract.clone();
    for omitted in result["evidence"]["table_schema_omits"].as_array().into_iter().flatten() {
        let columns = expected["columns"].as_array_mut().unwrap();
        let spec = columns.iter_mut().find(|spec| spec["name"] == omitted["column"]).unwrap();
        spec.as_object_mut().unwrap().remove(omitted["rule"].as_str().unwrap());
    }
    let without_omits = call("validate_rows", &with(data, &expected));
    let mut mapped = from_schema["contract"].clone();
    assert_eq!(mapped.as_object_mut().unwrap().remove("schema_mapped_from"), Some(json!("table_schema")));
    assert_eq!(mapped, without_omits["contract"], "the Table Schema maps back onto another contract");
}

/// Every list within the cap, and the envelope's counts honest.
fn check_listing(result: &Value, cap: Option<usize>) {
    let findings = result["findings"].as_array().unwrap().len();
    let omitted = result["findings_omitted"].as_u64().unwrap_or(0) as usize;
    assert_eq!(result["finding_count"], findings + omitted);
    let Some(cap) = cap else { return };
    for list in ["ragged_records", "duplicate_rows", "key_candidates", "columns"] {
        assert!(result[list].as_array().unwrap().len() <= cap, "{list} over the cap {cap}");
    }
    let counted = |list: &str| {
        result[list].as_array().unwrap().len() + result[format!("{list}_omitted")].as_u64().unwrap_or(0) as usize
    };
    assert_eq!(counted("ragged_records"), result["summary"]["ragged_records"]);
    assert_eq!(counted("duplicate_rows"), result["summary"]["duplicate_rows"]);
    assert_eq!(counted("columns"), result["summary"]["columns"]);
    for profile in result["columns"].as_array().unwrap() {
        for list in ["top_values", "examples", "exceptions"] {
            assert!(profile.get(list).and_then(Value::as_array).map_or(0, Vec::len) <= cap, "{list}");
        }
    }
}

/// How often each kind of rule was drafted, so the test can insist the
/// generator exercises every one.
fn count_rules(result: &Value, seen: &mut std::collections::BTreeMap<String, usize>) {
    for spec in result["suggested_contract"]["columns"].as_array().into_iter().flatten() {
        for (key, value) in spec.as_object().unwrap() {
            let kind = if key == "type" { format!("type {}", value.as_str().unwrap()) } else { key.clone() };
            *seen.entry(kind).or_default() += 1;
        }
    }
    if result["suggested_contract"].get("table").is_some() {
        *seen.entry("primary_key".into()).or_default() += 1;
    }
}

#[test]
fn a_draft_passes_the_data_it_was_drafted_from() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut drafted = 0;
    let mut rules = std::collections::BTreeMap::new();
    for case in 0..2000 {
        let data = dataset(&mut rng);
        let cap = *rng.pick(&[None, Some(0), Some(1), Some(3), Some(25)]);
        let whole = call("inspect_dataset", &data);
        assert_eq!(whole, call("inspect_dataset", &data), "case {case}: not deterministic");
        check_listing(&whole, None);
        check_promise(&data, &whole);
        if let Some(cap) = cap {
            let mut args = data.clone();
            args["max_listed"] = json!(cap);
            let capped = call("inspect_dataset", &args);
            check_listing(&capped, Some(cap));
            assert_eq!(capped["suggested_contract"], whole["suggested_contract"], "the cap changed the draft");
            assert_eq!(capped["summary"], whole["summary"], "the cap changed a count");
            assert_eq!((&capped["ok"], &capped["verdict"]), (&whole["ok"], &whole["verdict"]));
        }
        drafted += usize::from(whole["suggested_contract"].is_object() && passable(&whole));
        count_rules(&whole, &mut rules);
    }
    // The generator must exercise the promise, not only its exceptions.
    assert!(drafted > 1000, "only {drafted} of 2000 cases drafted a contract");
    let kinds = [
        "type boolean",
        "type integer",
        "type number",
        "type date",
        "type datetime",
        "type string",
        "type any",
        "required",
        "format",
        "allowed",
        "pattern",
        "min",
        "unique",
        "primary_key",
    ];
    for kind in kinds {
        assert!(rules.get(kind).copied().unwrap_or(0) >= 5, "{kind} drafted too rarely: {rules:?}");
    }
}

#[test]
fn adversarial_values_are_read_as_validate_rows_reads_them() {
    let rows: Vec<Value> = ADVERSARIAL
        .iter()
        .enumerate()
        .map(|(at, value)| {
            let mixed = [json!(1), json!(true), json!("x"), json!(null)][at % 4].clone();
            json!({"v": value, "j": mixed, "big": 123_456_789_012_345_678_u64})
        })
        .collect();
    let data = json!({"rows": rows});
    let result = call("inspect_dataset", &data);
    check_promise(&data, &result);
    // One column per adversarial value, each on its own: its type is the
    // narrowest validate_rows accepts, and the draft passes.
    for value in ADVERSARIAL {
        let data = json!({"rows": [{"v": value}, {"v": value}]});
        let result = call("inspect_dataset", &data);
        check_promise(&data, &result);
        let data = json!({"csv": format!("v\n{}\n", csv_field(Some(&json!(value))))});
        check_promise(&data, &call("inspect_dataset", &data));
    }
}

/// Order lines: `orders` orders of 1 to 6 lines each, a line number that
/// may be written several ways (`"2"`, `" 2"`, `"2.0"`, JSON `2`) which
/// `validate_rows` reads as one integer, a date and a quantity. With
/// `repeat`, one row's (order, line) is another's, written differently.
fn order_lines(rng: &mut Rng, json_rows: bool, repeat: bool) -> Value {
    let orders = 10 + rng.below(60);
    let mut table: Vec<(String, usize)> = Vec::new();
    for order in 0..orders {
        for line in 1..=1 + rng.below(6) {
            table.push((format!("ORD-{order:04}"), line));
        }
    }
    if repeat {
        let copied = table[rng.below(table.len())].clone();
        table.insert(rng.below(table.len() + 1), copied);
    }
    let written = |rng: &mut Rng, line: usize| -> Value {
        match rng.below(4) {
            0 if json_rows => json!(line),
            1 => json!(format!(" {line}")),
            2 => json!(format!("{line}.0")),
            _ => json!(line.to_string()),
        }
    };
    let rows: Vec<Value> = table
        .iter()
        .map(|(order, line)| {
            let day = 1 + rng.below(28);
            json!({"order": order, "line": written(rng, *line), "day": format!("2024-03-{day:02}"), "qty": rng.below(9)})
        })
        .collect();
    if json_rows {
        return json!({ "rows": rows });
    }
    let mut csv = String::from("order,line,day,qty\n");
    for row in &rows {
        let line = row["line"].as_str().map_or_else(|| row["line"].to_string(), str::to_owned);
        let (order, day) = (row["order"].as_str().unwrap(), row["day"].as_str().unwrap());
        writeln!(csv, "{order},{line},{day},{}", row["qty"]).unwrap();
    }
    json!({ "csv": csv })
}

/// A two-column key is drafted where the pair is distinct on every row as
/// `validate_rows` compares values, and the draft then passes; where one
/// pair repeats (however it is written), no such key is drafted.
#[test]
fn two_column_keys_pass_the_data_they_were_drafted_from() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut keyed = 0;
    for case in 0..300 {
        let (json_rows, repeat) = (rng.chance(50), case % 3 == 0);
        let data = order_lines(&mut rng, json_rows, repeat);
        let result = call("inspect_dataset", &data);
        check_promise(&data, &result);
        let key = &result["suggested_contract"]["table"]["primary_key"];
        if repeat {
            assert!(key.is_null(), "case {case}: a repeated (order, line) keyed the table\n{data}");
        } else if *key == json!(["order", "line"]) {
            keyed += 1;
        }
    }
    // Every case without a repeat is keyed: with 10 or more orders of 1 to
    // 6 lines, rows sharing an order (~6 pairs per order) times rows sharing
    // a line number (~100 pairs and more), over all pairs of rows, is about
    // 10 or more shared pairs that independence expects, over the bar of 7.
    assert_eq!(keyed, 200, "of 200 cases with (order, line) distinct, these drafted the key");
}
