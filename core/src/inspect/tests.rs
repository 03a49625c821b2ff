//! `inspect_dataset` on hand-written datasets, each expectation reasoned
//! from the data (the property test of the guarantee is
//! `core/tests/inspect_guarantee.rs`).

use std::fmt::Write;

use serde_json::{json, Value};

fn inspect(args: Value) -> Value {
    crate::call_tool_owned("inspect_dataset", args).unwrap_or_else(|err| panic!("{}", err.message))
}

/// `validate_rows` with the drafted contract on the same data.
fn validate_with_draft(data: &Value, result: &Value) -> Value {
    let mut call = data.clone();
    for (key, value) in result["suggested_contract"].as_object().expect("a contract was drafted") {
        call[key] = value.clone();
    }
    crate::call_tool("validate_rows", &call).unwrap_or_else(|err| panic!("{}: {call}", err.message))
}

fn column<'r>(result: &'r Value, name: &str) -> &'r Value {
    result["columns"].as_array().unwrap().iter().find(|c| c["name"] == name).unwrap_or_else(|| panic!("no {name}"))
}

fn spec<'r>(result: &'r Value, name: &str) -> &'r Value {
    let columns = result["suggested_contract"]["columns"].as_array().unwrap();
    columns.iter().find(|c| c["name"] == name).unwrap_or_else(|| panic!("no spec for {name}"))
}

fn codes(result: &Value) -> Vec<&str> {
    result["findings"].as_array().unwrap().iter().map(|f| f["code"].as_str().unwrap()).collect()
}

/// Twelve invoices: `id` 1..12, codes `INV-0000nn`, amounts with one
/// stray "n/a", two statuses, emails, dates, a mostly blank note with one
/// padded value.
fn invoices() -> String {
    let mut csv = String::from("id,invoice,amount,status,email,date,note\n");
    for i in 1..=12 {
        let amount = if i == 3 { "n/a".to_owned() } else { format!("{}.50", i * 10) };
        let status = if i % 2 == 0 { "paid" } else { "open" };
        let note = if i == 5 { " late " } else { "" };
        let _ = writeln!(csv, "{i},INV-{i:06},{amount},{status},u{i}@example.com,2024-02-{i:02},{note}");
    }
    csv
}

#[test]
fn an_invoice_table_is_profiled_and_drafted_as_reasoned() {
    let data = json!({"csv": invoices()});
    let result = inspect(data.clone());
    // Every id is a distinct integer on all 12 rows and the name is an
    // identifier's: the primary key, never negative so min 0.
    assert_eq!(result["suggested_contract"]["table"], json!({"primary_key": ["id"]}));
    assert_eq!(spec(&result, "id"), &json!({"name": "id", "type": "integer", "required": true, "min": 0}));
    assert_eq!(column(&result, "id")["min"], json!(1));
    assert_eq!(column(&result, "id")["max"], json!(12), "observed, and never a rule");
    // The invoice codes share one shape, kept literal where every value agrees.
    assert_eq!(spec(&result, "invoice")["pattern"], "INV-\\d{6}");
    // Key candidates are a fact (non-blank and distinct on every row of at
    // least ten); only `id` becomes a rule.
    assert_eq!(result["key_candidates"], json!(["id", "invoice", "amount", "email"]));
    assert!(spec(&result, "invoice").get("unique").is_none(), "not named like an identifier");
    // 11 of 12 amounts are numbers: the column stays text, the exception is named.
    let amount = column(&result, "amount");
    assert_eq!(amount["type"], "string");
    assert_eq!(amount["nearest_type"], json!({"type": "number", "failing": 1}));
    assert_eq!(amount["exceptions"], json!([{"row_index": 2, "row_number": 3, "line": 4, "value": "n/a"}]));
    // Two statuses, six each: a code list.
    assert_eq!(spec(&result, "status")["allowed"], json!(["open", "paid"]));
    assert_eq!(spec(&result, "email")["format"], "email");
    assert!(spec(&result, "email").get("pattern").is_none(), "a format says it better");
    assert_eq!(spec(&result, "date")["type"], "date");
    // One note among twelve: no rule stands on one value.
    assert_eq!(spec(&result, "note"), &json!({"name": "note", "type": "string"}));
    assert_eq!(codes(&result), ["mixed_types", "surrounding_whitespace"]);
    assert_eq!(result["verdict"], "review_required");
    assert_eq!(result["evidence"]["columns"]["id"]["type"], "all 12 non-blank values are integers");
    assert_eq!(result["evidence"]["columns"]["id"]["required"], "0 blanks and 0 missing in 12 rows");
    let validated = validate_with_draft(&data, &result);
    assert_eq!(validated["ok"], true, "{validated}");
}

#[test]
fn a_clean_table_is_clean() {
    let rows: Vec<Value> = (0..10).map(|i| json!({"sku": format!("S{i}"), "qty": i})).collect();
    let result = inspect(json!({"rows": rows}));
    assert_eq!((result["ok"].clone(), result["verdict"].clone()), (json!(true), json!("clean")), "{result}");
    assert_eq!(result["finding_count"], 0);
}

#[test]
fn awkward_values_take_the_type_validate_rows_gives_them() {
    // Each column's values, and the type reasoned from coerce.rs.
    let columns = [
        ("nan_and_overflow", json!(["NaN", "1e400", "-0", "2.5"]), "number"),
        ("hex", json!(["0x10", "16"]), "string"),
        ("padded_and_arabic", json!([" 12 ", "\u{663}", "1_000", "5.0", "1e3"]), "integer"),
        ("impossible_date", json!(["2024-02-30", "2024-02-28"]), "string"),
        ("leap_day", json!(["2024-02-29", "2023-12-31"]), "date"),
        ("offsets", json!(["2024-01-01T10:00+02:00", "2024-01-01T08:00Z", "2024-01-01"]), "datetime"),
        ("yes_no", json!(["yes", "No", "Y", "false"]), "boolean"),
        ("zero_one", json!(["0", "1", "1"]), "integer"),
        ("huge", json!(["123456789012345678901234567890", "-1"]), "integer"),
        ("json_mix", json!([1, "one", true]), "any"),
    ];
    let rows: Vec<Value> = (0..5)
        .map(|row| {
            let mut object = serde_json::Map::new();
            for (name, values, _) in &columns {
                let values = values.as_array().unwrap();
                object.insert((*name).into(), values[row % values.len()].clone());
            }
            Value::Object(object)
        })
        .collect();
    let data = json!({"rows": rows});
    let result = inspect(data.clone());
    for (name, _, expected) in &columns {
        assert_eq!(column(&result, name)["type"], *expected, "{name}");
        assert_eq!(spec(&result, name)["type"], *expected, "{name}");
    }
    // "1e400" reads as infinity and "-0" as zero; the extremes say so.
    assert_eq!(column(&result, "nan_and_overflow")["max"], "Infinity");
    assert_eq!(column(&result, "nan_and_overflow")["min"], json!(-0.0));
    // An aware datetime shows at UTC among the top values: 10:00+02:00 is 08:00Z.
    let top = &column(&result, "offsets")["top_values"];
    assert_eq!(top[0], json!({"value": "2024-01-01T08:00:00+00:00", "count": 4}), "{top}");
    assert_eq!(column(&result, "offsets").get("min"), None, "naive and aware datetimes have no order");
    assert_eq!(validate_with_draft(&data, &result)["ok"], true);
}

#[test]
fn ragged_records_are_reported_and_their_extra_fields_left_out() {
    // Line 3 has a field too many, line 4 one too few.
    let data = json!({"csv": "a,b\n1,2\n3,4,5\n6\n7,8\n"});
    let result = inspect(data.clone());
    assert_eq!(result["summary"]["ragged_records"], 2);
    assert_eq!(
        result["ragged_records"],
        json!([
            {"row_index": 1, "row_number": 2, "line": 3, "fields": 3, "header_fields": 2},
            {"row_index": 2, "row_number": 3, "line": 4, "fields": 1, "header_fields": 2},
        ])
    );
    assert_eq!(codes(&result), ["ragged_records"]);
    // `b` is missing on line 4, so not required; `_extra` is no column of the data.
    assert_eq!(column(&result, "b")["missing"], 1);
    assert_eq!(spec(&result, "b").get("required"), None);
    assert_eq!(column(&result, "_extra")["type"], "any");
    let names: Vec<&Value> =
        result["suggested_contract"]["columns"].as_array().unwrap().iter().map(|c| &c["name"]).collect();
    assert_eq!(names, ["a", "b"]);
    assert_eq!(result["evidence"]["left_out"][0]["column"], "_extra");
    assert_eq!(validate_with_draft(&data, &result)["ok"], true);
}

#[test]
fn a_header_column_called_extra_is_a_column() {
    // The long record's extra field joins the header's own `_extra` column,
    // as validate_rows' row object has it: text in two rows, a list in one.
    let data = json!({"csv": "id,_extra\n1,x\n2,y,z\n3,\n"});
    let result = inspect(data.clone());
    let extra = column(&result, "_extra");
    assert_eq!((extra["type"].clone(), extra["blank"].clone()), (json!("any"), json!(1)), "{extra}");
    assert_eq!(spec(&result, "_extra"), &json!({"name": "_extra", "type": "any"}));
    assert_eq!(result["summary"]["columns"], 2);
    assert_eq!(validate_with_draft(&data, &result)["ok"], true);
}

#[test]
fn rows_read_as_objects_repeat_by_their_object() {
    // With an `_extra` column in the header, each record is read as its
    // row object, as validate_rows reads it, and a repeated name is one
    // key of it: the records' cells are not the header's positions, so the
    // rows are compared by what their objects hold. The three records'
    // objects are all {"a": .., "_extra": "x"} with the same `a` as read
    // from the record, so the second and third repeat the first.
    let data = json!({"csv": "a,_extra,a\n1,x,2\n1,x,2\n1,x,2\n"});
    let result = inspect(data);
    assert_eq!(result["summary"]["duplicate_rows"], 2, "{result}");
    assert_eq!(result["summary"]["ragged_records"], 0);
}

#[test]
fn names_no_contract_can_hold_are_left_out_and_said() {
    let rows: Vec<Value> = (0..3).map(|i| json!({"first name": "Ann", " padded": i, "": i, "ok": i})).collect();
    let data = json!({"rows": rows});
    let result = inspect(data.clone());
    assert_eq!(codes(&result), ["column_name_whitespace", "unnamed_column"], "in column order");
    let names: Vec<&Value> =
        result["suggested_contract"]["columns"].as_array().unwrap().iter().map(|c| &c["name"]).collect();
    assert_eq!(names, ["first name", "ok"], "a space inside a name is fine");
    let left_out: Vec<&Value> =
        result["evidence"]["left_out"].as_array().unwrap().iter().map(|c| &c["column"]).collect();
    assert_eq!(left_out, [" padded", ""]);
    assert_eq!(validate_with_draft(&data, &result)["ok"], true);
}

#[test]
fn where_no_contract_can_pass_the_result_says_so() {
    // validate_rows refuses a CSV whose header repeats a name.
    let result = inspect(json!({"csv": "id,name,id\n1,a,2\n"}));
    assert_eq!(codes(&result), ["repeated_header"]);
    assert_eq!(result["findings"][0]["severity"], "error");
    assert_eq!(result["evidence"]["left_out"][0]["column"], "id");
    assert!(result["guidance"].as_str().unwrap().contains("refuse a CSV whose header repeats a name"));
    // ... and quarantines a row that is not an object.
    let result = inspect(json!({"rows": [{"a": 1}, [1, 2], "x"]}));
    assert_eq!(codes(&result), ["not_an_object"]);
    assert_eq!(result["findings"][0]["message"], "2 rows are not objects (the first is row 2, a list); validate_rows quarantines such a row whatever the contract");
    assert_eq!(result["summary"]["rows_not_objects"], 2);
    // No rows: nothing drafted, and not a pass.
    let result = inspect(json!({"csv": "a,b\n"}));
    assert_eq!((result["ok"].clone(), result["suggested_contract"].clone()), (json!(false), Value::Null));
    assert_eq!(codes(&result), ["no_rows"]);
    // Rows with no column a contract can name.
    let result = inspect(json!({"rows": [{}, {" ": 1}]}));
    assert_eq!(codes(&result), ["unnamed_column", "no_columns"]);
}

#[test]
fn repeated_rows_and_blank_columns_are_findings() {
    let data = json!({"rows": [{"a": 1, "b": null}, {"b": null, "a": 1}, {"a": 2}, {"a": 1, "b": null}]});
    let result = inspect(data.clone());
    // Key order does not matter; an absent `b` is not a null one.
    assert_eq!(result["summary"]["duplicate_rows"], 2);
    assert_eq!(
        result["duplicate_rows"][0],
        json!({"row_index": 1, "row_number": 2, "first_row_index": 0, "first_row_number": 1})
    );
    assert_eq!(codes(&result), ["duplicate_rows", "blank_column"]);
    assert_eq!(column(&result, "b")["type"], Value::Null);
    assert_eq!((column(&result, "b")["blank"].clone(), column(&result, "b")["missing"].clone()), (json!(3), json!(1)));
    assert_eq!(spec(&result, "b"), &json!({"name": "b", "type": "any"}));
    assert_eq!(validate_with_draft(&data, &result)["ok"], true);
}

#[test]
fn keys_are_drafted_only_where_evident() {
    let rows =
        |n: usize, row: &dyn Fn(usize) -> Value| -> Value { json!({"rows": (0..n).map(row).collect::<Vec<_>>()}) };
    // Two candidates: the identifier-named one is the key, the other
    // identifier-named candidate is unique, free text is only a candidate.
    let data = rows(12, &|i| json!({"name": format!("person {i}"), "uuid": format!("u-{i}"), "customerId": i}));
    let result = inspect(data.clone());
    assert_eq!(result["suggested_contract"]["table"]["primary_key"], json!(["uuid"]));
    assert_eq!(spec(&result, "customerId")["unique"], true);
    assert_eq!(spec(&result, "name").get("unique"), None);
    assert_eq!(result["key_candidates"], json!(["name", "uuid", "customerId"]));
    assert_eq!(validate_with_draft(&data, &result)["ok"], true);
    // No identifier's name: a code shape with digits is a key, free text is not.
    let result = inspect(rows(12, &|i| json!({"name": format!("person {i}"), "invoice": format!("INV-{i:04}")})));
    assert_eq!(result["suggested_contract"]["table"]["primary_key"], json!(["invoice"]));
    let result = inspect(rows(12, &|i| json!({"name": format!("person {i}"), "n": i})));
    assert_eq!(result["suggested_contract"].get("table"), None, "an integer not named as an id is no key");
    // Nine rows are too few: anything is distinct by chance.
    let result = inspect(rows(9, &|i| json!({"id": i})));
    assert_eq!(result["suggested_contract"].get("table"), None);
    // Values equal as the column's type reads them are not distinct: "1" and "01" are 1.
    let result = inspect(rows(12, &|i| json!({"id": if i == 11 { "01".to_owned() } else { i.to_string() }})));
    assert_eq!(result["suggested_contract"].get("table"), None);
    assert_eq!(column(&result, "id")["distinct"], 11);
}

#[test]
fn allowed_lists_are_drafted_only_for_repeating_codes() {
    let rows = |values: &[&str]| json!({"rows": values.iter().map(|v| json!({"s": v})).collect::<Vec<_>>()});
    // 2 distinct in 10, each twice or more: a code list, in first-seen order.
    let ten = ["b", "a", "a", "b", "a", "b", "a", "b", "a", "b"];
    assert_eq!(spec(&inspect(rows(&ten)), "s")["allowed"], json!(["b", "a"]));
    // One value seen once: the list would be the sample's.
    let once = ["b", "a", "a", "b", "a", "b", "a", "b", "a", "c"];
    assert_eq!(spec(&inspect(rows(&once)), "s").get("allowed"), None);
    // 3 distinct in 10 is more than one per five values.
    let three = ["a", "a", "a", "a", "b", "b", "b", "c", "c", "c"];
    assert_eq!(spec(&inspect(rows(&three)), "s").get("allowed"), None);
    let result = inspect(rows(&ten));
    assert_eq!(result["evidence"]["columns"]["s"]["allowed"], "2 distinct values in 10, each seen at least 5 times");
}

#[test]
fn max_listed_caps_every_list_and_counts_what_it_cut() {
    let mut csv = String::from("a,b,c\n");
    for i in 0..30 {
        let _ = writeln!(csv, "{},{i},x", i % 3);
    }
    csv.push_str("1,2\n1,2\n1,2\n");
    let whole = inspect(json!({"csv": csv}));
    let capped = inspect(json!({"csv": csv, "max_listed": 1}));
    assert_eq!(capped["columns"].as_array().unwrap().len(), 1);
    assert_eq!(capped["columns_omitted"], 2);
    assert_eq!(capped["ragged_records"].as_array().unwrap().len(), 1);
    assert_eq!(capped["ragged_records_omitted"], 2);
    assert_eq!(capped["duplicate_rows_omitted"], 1);
    assert_eq!(capped["columns"][0]["top_values"].as_array().unwrap().len(), 1);
    assert_eq!(capped["suggested_contract"], whole["suggested_contract"], "the contract is never cut");
    assert_eq!(capped["summary"], whole["summary"]);
    assert_eq!(capped["finding_count"], whole["finding_count"].as_u64().unwrap() + 1, "and result_abridged");
    assert_eq!(capped["findings"].as_array().unwrap().last().unwrap()["code"], "result_abridged");
}

#[test]
fn top_values_are_the_most_frequent_ties_in_first_seen_order() {
    let values = ["c", "b", "a", "b", "a", "d", "e", "f", "g"];
    let result = inspect(json!({"rows": values.iter().map(|v| json!({"s": v})).collect::<Vec<_>>()}));
    let top: Vec<(&str, u64)> = column(&result, "s")["top_values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| (entry["value"].as_str().unwrap(), entry["count"].as_u64().unwrap()))
        .collect();
    assert_eq!(top, [("b", 2), ("a", 2), ("c", 1), ("d", 1), ("e", 1)]);
    assert_eq!(column(&result, "s")["examples"], json!(["c", "b", "a"]));
}

#[test]
fn a_text_columns_top_values_are_read_past_its_blank_cells() {
    // The distinct cells in the order first seen: "" (blank), "  " (blank),
    // "b", "a". A text column's values are its non-blank cells, so its
    // entries are "b" (1 row) and "a" (2 rows); the blank cells come before
    // both, and reading an entry's value must skip them: "a" first, with 2.
    // The examples are values too: the first two non-blank cells, not the
    // first three cells.
    let values = ["", "  ", "b", "a", "", "a"];
    let result = inspect(json!({"rows": values.iter().map(|v| json!({"s": v})).collect::<Vec<_>>()}));
    assert_eq!(column(&result, "s")["type"], "string");
    assert_eq!(column(&result, "s")["top_values"], json!([{"value": "a", "count": 2}, {"value": "b", "count": 1}]));
    assert_eq!(column(&result, "s")["distinct"], 2);
    assert_eq!(column(&result, "s")["examples"], json!(["b", "a"]));
}

#[test]
fn a_boolean_columns_top_values_are_booleans() {
    // Three Yes, one no and a JSON false: the boolean words read as true
    // three times and false twice. Equality keys follow Python's `==`, where
    // True is 1, so the profile must turn the key back into the boolean.
    let values = [json!("Yes"), json!("Yes"), json!("no"), json!("Yes"), json!(false)];
    let result = inspect(json!({"rows": values.iter().map(|v| json!({"b": v})).collect::<Vec<_>>()}));
    assert_eq!(column(&result, "b")["type"], "boolean");
    assert_eq!(column(&result, "b")["top_values"], json!([{"value": true, "count": 3}, {"value": false, "count": 2}]));
    assert_eq!(column(&result, "b")["examples"], json!(["Yes", "no"]));
}

#[test]
fn repeated_rows_are_found_whichever_column_rules_rows_out() {
    // `id` is the column with the most values only one row has, so only the
    // rows whose id repeats (7, rows 1, 3 and 4) are compared: row 3 repeats
    // row 1, row 4 differs from both in `n`. Rows 5 and 6 have no `id` and
    // repeat each other in a different key order; the empty objects (rows 7
    // and 8) repeat each other too, and a row with `id` null is not a row
    // without `id`.
    let rows = json!([
        {"id": 1, "n": "a"},
        {"id": 7, "n": "a"},
        {"id": 2, "n": "a"},
        {"id": 7, "n": "a"},
        {"id": 7, "n": "b"},
        {"n": "a", "x": 1},
        {"x": 1, "n": "a"},
        {},
        {},
        {"id": null, "n": "a", "x": 1},
    ]);
    let result = inspect(json!({"rows": rows}));
    let repeats: Vec<(u64, u64)> = result["duplicate_rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["row_index"].as_u64().unwrap(), r["first_row_index"].as_u64().unwrap()))
        .collect();
    assert_eq!(repeats, [(3, 1), (6, 5), (8, 7)]);
    // Every row unique but by a shared value elsewhere: nothing repeats.
    let csv = "id,n\n1,a\n2,a\n3,a\n";
    assert_eq!(inspect(json!({"csv": csv}))["summary"]["duplicate_rows"], 0);
    let csv = "id,n\n1,a\n1,a\n1,a\n";
    assert_eq!(inspect(json!({"csv": csv}))["summary"]["duplicate_rows"], 2);
    // Kept column by column (every record has both columns): `id` and `n`
    // each have two values only one row has, so the first, `id`, rules rows
    // out. Rows 0 and 2 share id 1 and are compared; rows 1 and 3, whose
    // ids are alone, are not, and each sits just after one that is.
    let csv = "id,n\n1,a\n2,b\n1,a\n3,c\n";
    let result = inspect(json!({"csv": csv}));
    assert_eq!(result["summary"]["duplicate_rows"], 1);
    assert_eq!(result["duplicate_rows"][0]["row_index"], 2);
    assert_eq!(result["duplicate_rows"][0]["first_row_index"], 0);
}

#[test]
fn rows_kept_column_by_column_and_as_keys_are_compared_alike() {
    // Rows 0-2 have the header's columns in order, so they are kept column
    // by column; row 3 is ragged (its extra field is a column of its own)
    // and turns every row into a key. Row 2 repeats row 0 before that turn,
    // row 4 repeats row 1 across it, row 5 repeats row 3 after it, and row
    // 6 lacks row 3's extra field. A JSON row that is not an object (row 2
    // of the second dataset) turns them too. With cells counted at once,
    // and with all but the first written down and numbered after the rows
    // are read (filled in before or after the turn).
    let csv = "id,n\n1,a\n2,b\n1,a\n3,c,extra\n2,b\n3,c,extra\n3,c\n";
    let rows = json!([{"a": 1}, {"a": 1}, 5, {"a": 1}, {"a": 2}]);
    for limits in [super::values::CountLimits::default(), super::values::CountLimits { direct: 1, partition: 1 }] {
        let repeats = |data: Value| -> Vec<(u64, u64)> {
            let result = super::inspect_counting(data, limits).unwrap_or_else(|err| panic!("{}", err.message));
            result["duplicate_rows"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| (r["row_index"].as_u64().unwrap(), r["first_row_index"].as_u64().unwrap()))
                .collect()
        };
        assert_eq!(repeats(json!({"csv": csv})), [(2, 0), (4, 1), (5, 3)], "direct {}", limits.direct);
        assert_eq!(repeats(json!({"rows": rows})), [(1, 0), (3, 0)], "direct {}", limits.direct);
    }
}

#[test]
fn cells_counted_after_the_rows_are_read_give_the_same_result() {
    // A column with more distinct cells than the direct limit has the rest
    // written down and numbered in partitions once every row is read
    // (`values.rs`, `partition.rs`); repeated rows then find those numbers
    // in their keys (`structure.rs`). Nothing in the result may depend on
    // which: each dataset is inspected with the limits that take the direct
    // path on it (the default, which the conformance vectors hold) and with
    // limits that send every column, or most of it, the other way.
    let mut datasets = vec![json!({"csv": invoices()})];
    for csv in [
        include_str!("../../../tests/real-datasets/penguins-raw.csv"),
        include_str!("../../../tests/real-datasets/flights.csv"),
        include_str!("../../../tests/real-datasets/planes.csv"),
        include_str!("../../../tests/real-datasets/weather.csv"),
    ] {
        datasets.push(json!({"csv": csv}));
    }
    // A ragged CSV, repeated rows among them, a field beyond the header.
    datasets.push(json!({"csv": "a,b\n1,x\n2\n1,x\n3,y,extra\n2\n1,x\n,\n"}));
    // JSON rows with absent keys (a column's rows then have gaps), keys in
    // other orders, values of every kind, rows that are not objects, and
    // repeats.
    let mut rows = Vec::new();
    for n in 0..400u32 {
        let mut row = serde_json::Map::new();
        if n % 7 != 3 {
            row.insert("id".into(), json!(format!("K{}", n / 2)));
        }
        let value = match n % 6 {
            0 => json!(n % 50),
            1 => json!(format!("{}", n % 40)),
            2 => json!(null),
            3 => json!([n % 3]),
            4 => json!(f64::from(n % 9) / 4.0),
            _ => json!(n % 2 == 0),
        };
        if n % 5 == 0 {
            row.insert("v".into(), value);
        } else {
            let mut reordered = serde_json::Map::new();
            reordered.insert("v".into(), value);
            reordered.extend(row);
            row = reordered;
        }
        if n % 11 == 0 {
            row.insert("w".into(), json!(format!(" w{} ", n % 4)));
        }
        rows.push(if n % 97 == 5 { json!(n) } else { Value::Object(row) });
    }
    datasets.push(json!({"rows": rows}));
    for data in &datasets {
        let expected = inspect(data.clone());
        for (direct, partition) in [(1, 1), (3, 2), (20, 16)] {
            let limits = super::values::CountLimits { direct, partition };
            let got = super::inspect_counting(data.clone(), limits).unwrap_or_else(|err| panic!("{}", err.message));
            assert_eq!(got, expected, "direct {direct}, partition {partition}, on {}", &data.to_string()[..60]);
        }
    }
}
