//! `export` (issue 16, item 3): the files hold the whole split, and the
//! result describes them truly.
//!
//! The oracle is the same call without a cap: its lists are what the
//! conformance vectors hold to the reference, so each export file must be
//! exactly those lists (JSON input), or the input's own records split by
//! those lists' verdicts (CSV input). Nothing here is written to match the
//! program's output.

use serde_json::{json, Value};
use validation_core::{call_tool_exporting, call_tool_owned, read_csv, ExportFile};

/// `validate_rows` with `export`: the result as a tree, and the files.
fn exporting(args: Value, csv: Option<Vec<u8>>) -> Result<(Value, Vec<ExportFile>), validation_core::ToolError> {
    call_tool_exporting("validate_rows", args, csv).map(|(result, files)| (result.into_value(), files))
}

/// A deterministic generator, so a failure names a reproducible input.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A contract with quarantining rules, a flagging rule and a cross-row rule.
fn columns() -> Value {
    json!([
        {"name": "id", "type": "string", "required": true, "pattern": "^INV-\\d{3}$", "unique": true},
        {"name": "amount", "type": "number", "min": 0},
        {"name": "email", "type": "string", "format": "email", "on_fail": "flag"},
        {"name": "note", "type": "string"}
    ])
}

/// Rows with every kind of outcome: clean, quarantined, flagged, repeated
/// ids, blanks, text that needs CSV quoting.
fn rows(rng: &mut Rng, count: usize) -> Vec<Value> {
    let notes = ["plain", "with, comma", "with \"quotes\"", "two\nlines", "", "  padded  ", "\u{e9}t\u{e9}"];
    (0..count)
        .map(|_| {
            let id = match rng.below(10) {
                0 => "bad id".to_owned(),
                1 => String::new(),
                _ => format!("INV-{:03}", rng.below(400)),
            };
            let amount = match rng.below(8) {
                0 => "-5".to_owned(),
                1 => "n/a".to_owned(),
                _ => format!("{}.{:02}", rng.below(1000), rng.below(100)),
            };
            let email =
                if rng.below(6) == 0 { "not an email".to_owned() } else { format!("u{}@example.com", rng.below(99)) };
            let note = notes[rng.below(notes.len() as u64) as usize];
            json!({"id": id, "amount": amount, "email": email, "note": note})
        })
        .collect()
}

fn csv_of(rows: &[Value]) -> String {
    let quote = |text: &str| {
        if text.contains([',', '"', '\n']) {
            format!("\"{}\"", text.replace('"', "\"\""))
        } else {
            text.to_owned()
        }
    };
    let mut out = String::from("id,amount,email,note\n");
    for row in rows {
        let cells: Vec<String> =
            ["id", "amount", "email", "note"].iter().map(|c| quote(row[c].as_str().unwrap())).collect();
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}

fn jsonl(file: &ExportFile) -> Vec<Value> {
    std::str::from_utf8(&file.bytes).unwrap().lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

fn file<'f>(files: &'f [ExportFile], name: &str) -> &'f ExportFile {
    files.iter().find(|file| file.name == name).unwrap_or_else(|| panic!("no {name} among the files"))
}

/// The uncapped result: every list whole.
fn uncapped(args: &Value) -> Value {
    call_tool_owned("validate_rows", args.clone()).unwrap()
}

/// What `export.files` says about each file agrees with the file itself.
fn check_described(result: &Value, files: &[ExportFile]) {
    let described = result["export"]["files"].as_array().unwrap();
    assert_eq!(described.len(), files.len());
    for (entry, file) in described.iter().zip(files) {
        assert_eq!(entry["name"], file.name.as_str());
        assert_eq!(entry["bytes"], file.bytes.len());
        let sha = entry["sha256"].as_str().unwrap();
        assert!(sha.len() == 64 && sha.bytes().all(|b| b.is_ascii_hexdigit()), "{sha}");
    }
}

#[test]
fn json_rows_export_exactly_the_uncapped_lists() {
    let mut rng = Rng(0x5eed_0001);
    for count in [0, 1, 7, 60, 400] {
        let rows = rows(&mut rng, count);
        let mut with_export = json!({"rows": rows, "columns": columns(), "max_listed": 3});
        with_export["export"] = json!({"dir": "out"});
        let (result, files) = exporting(with_export, None).unwrap();
        let whole = uncapped(&json!({"rows": rows, "columns": columns()}));
        check_described(&result, &files);
        assert_eq!(result["export"]["format"], "jsonl");
        let names: Vec<&str> = files.iter().map(|file| file.name.as_str()).collect();
        assert_eq!(names, ["accepted.jsonl", "quarantine.jsonl", "findings.jsonl"]);
        assert_eq!(jsonl(&files[0]), whole["accepted"].as_array().unwrap().clone(), "{count} rows: accepted");
        assert_eq!(jsonl(&files[1]), whole["quarantine"].as_array().unwrap().clone(), "{count} rows: quarantine");
        assert_eq!(jsonl(&files[2]), whole["findings"].as_array().unwrap().clone(), "{count} rows: findings");
        // Every row is in exactly one of the two row files.
        let (accepted, quarantined) = (jsonl(&files[0]).len(), jsonl(&files[1]).len());
        assert_eq!(accepted + quarantined, count);
        assert_eq!(result["export"]["files"][0]["rows"], accepted);
        assert_eq!(result["export"]["files"][1]["rows"], quarantined);
        assert_eq!(result["summary"]["accepted"], accepted);
        assert_eq!(result["summary"]["quarantined"], quarantined);
    }
}

#[test]
fn a_csv_input_is_split_into_its_own_records() {
    let mut rng = Rng(0x5eed_0002);
    for count in [0, 1, 9, 300] {
        let text = csv_of(&rows(&mut rng, count));
        let input = read_csv(&text).unwrap();
        let args = json!({"columns": columns(), "max_listed": 2, "export": {"dir": "runs/a"}});
        let (result, files) = exporting(args, Some(text.clone().into_bytes())).unwrap();
        let whole = uncapped(&json!({"csv": text, "columns": columns()}));
        check_described(&result, &files);
        assert_eq!(result["export"]["format"], "csv");

        // quarantine.csv: the uncapped quarantine's locators and reasons,
        // then the record as it was read.
        let quarantine = read_csv(std::str::from_utf8(&file(&files, "quarantine.csv").bytes).unwrap()).unwrap();
        let header: Vec<&str> = quarantine["header"].as_array().unwrap().iter().map(|h| h.as_str().unwrap()).collect();
        assert_eq!(header, ["_row_index", "_line", "_reasons", "id", "amount", "email", "note"]);
        let expected = whole["quarantine"].as_array().unwrap();
        let got = quarantine["rows"].as_array().unwrap();
        assert_eq!(got.len(), expected.len(), "{count} rows: quarantined");
        let mut quarantined_at = Vec::new();
        for (row, entry) in got.iter().zip(expected) {
            let index = entry["locator"]["row_index"].as_u64().unwrap() as usize;
            assert_eq!(row["_row_index"], index.to_string());
            assert_eq!(row["_line"], entry["locator"]["line"].to_string());
            let reasons: Vec<&str> = entry["reasons"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
            assert_eq!(row["_reasons"], reasons.join("; "));
            for column in ["id", "amount", "email", "note"] {
                assert_eq!(row[column], input["rows"][index][column], "row {index}, {column}");
            }
            quarantined_at.push(index);
        }

        // accepted.csv: every other record, in order, cell for cell.
        let accepted = read_csv(std::str::from_utf8(&file(&files, "accepted.csv").bytes).unwrap()).unwrap();
        let kept: Vec<&Value> = input["rows"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .filter(|(index, _)| !quarantined_at.contains(index))
            .map(|(_, row)| row)
            .collect();
        let accepted_rows: Vec<&Value> = accepted["rows"].as_array().unwrap().iter().collect();
        assert_eq!(accepted_rows, kept, "{count} rows: accepted");
        assert_eq!(accepted["header"], input["header"]);

        assert_eq!(jsonl(file(&files, "findings.jsonl")), whole["findings"].as_array().unwrap().clone());
        assert_eq!(result["export"]["files"][0]["rows"], kept.len());
        assert_eq!(result["export"]["files"][1]["rows"], quarantined_at.len());
    }
}

#[test]
fn the_files_do_not_depend_on_what_the_result_lists() {
    let mut rng = Rng(0x5eed_0003);
    let text = csv_of(&rows(&mut rng, 250));
    let listings = [
        json!({}),
        json!({"max_listed": 0}),
        json!({"max_listed": 1000}),
        json!({"lists": ["quarantine"]}),
        json!({"lists": []}),
        json!({"page": {"list": "quarantine", "offset": 5, "limit": 3}}),
        json!({"page": {"list": "accepted", "offset": 100, "limit": 10}, "lists": ["findings"]}),
    ];
    let mut first: Option<Vec<ExportFile>> = None;
    for listing in listings {
        let mut args = json!({"columns": columns(), "export": {"dir": "d"}});
        args.as_object_mut().unwrap().extend(listing.as_object().unwrap().clone());
        // The result is the same call's result without `export`, plus
        // `export` and one closing sentence of guidance.
        let mut plain = args.clone();
        plain.as_object_mut().unwrap().remove("export");
        plain["csv"] = text.clone().into();
        let plain = uncapped(&plain);
        let (mut result, files) = exporting(args, Some(text.clone().into_bytes())).unwrap();
        let guidance = result["guidance"].as_str().unwrap().to_owned();
        let plain_guidance = plain["guidance"].as_str().unwrap();
        assert!(guidance.starts_with(plain_guidance), "{listing}: {guidance}");
        assert!(guidance[plain_guidance.len()..].starts_with(" Every row and finding is also in the export files"));
        result.as_object_mut().unwrap().remove("export");
        result["guidance"] = plain_guidance.into();
        assert_eq!(result, plain, "{listing}");
        match &first {
            None => first = Some(files),
            Some(first) => assert_eq!(&files, first, "{listing}"),
        }
    }
}

#[test]
fn rows_that_are_not_objects_go_to_the_quarantine_file() {
    let args = json!({"rows": [{"id": "INV-001"}, 5, "text", null], "columns": columns(), "export": {"dir": "x"}});
    let (_, files) = exporting(args.clone(), None).unwrap();
    let mut plain = args;
    plain.as_object_mut().unwrap().remove("export");
    let whole = uncapped(&plain);
    assert_eq!(jsonl(&files[1]), whole["quarantine"].as_array().unwrap().clone());
    assert_eq!(jsonl(&files[1]).len(), 3);
}

#[test]
fn whole_table_findings_come_last_in_the_findings_file() {
    let args = json!({
        "rows": [{"id": "INV-001"}, {"id": "INV-001"}],
        "columns": columns(),
        "table": {"row_count": {"min": 5}, "columns": "exact"},
        "export": {"dir": "x"}
    });
    let (result, files) = exporting(args, None).unwrap();
    let findings = jsonl(&files[2]);
    let codes: Vec<&str> = findings.iter().map(|finding| finding["code"].as_str().unwrap()).collect();
    // Row 1 repeats row 0's id; then the table is too small and declares
    // columns absent from the data (amount, email, note).
    assert_eq!(
        codes,
        [
            "duplicate_value",
            "row_count_out_of_range",
            "declared_column_absent",
            "declared_column_absent",
            "declared_column_absent"
        ]
    );
    assert_eq!(result["export"]["files"][2]["rows"], 5);
}

#[test]
fn without_a_host_that_writes_export_is_an_argument_error() {
    let args = json!({"rows": [], "columns": [], "export": {"dir": "out"}});
    let err = call_tool_owned("validate_rows", args.clone()).unwrap_err();
    assert_eq!(err.argument.as_deref(), Some("export"));
    assert!(err.message.contains("--output-root"), "{}", err.message);
}

#[test]
fn the_result_describes_the_request() {
    let args = json!({"rows": [{"id": "INV-001"}], "columns": columns(), "export": {"dir": "a/b", "overwrite": true}});
    let (result, _) = exporting(args, None).unwrap();
    assert_eq!(result["export"]["dir"], "a/b");
    assert_eq!(result["export"]["overwrite"], true);
    let lists: Vec<&str> =
        result["export"]["files"].as_array().unwrap().iter().map(|f| f["list"].as_str().unwrap()).collect();
    assert_eq!(lists, ["accepted", "quarantine", "findings"]);
}
