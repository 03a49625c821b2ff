//! A `validate_rows` call on CSV text, checked in parts and merged
//! (`checks_in_parts`, `call_part`, `merge_parts`: how the server uses more
//! than one core on a large file), must give the result of checking the
//! whole text at once, byte for byte — which the conformance vectors hold
//! to the reference. And the parts must refuse, never guess, where a cut
//! is not between two records: a server then checks the text whole.
//!
//! The tables are generated with what makes cutting hard: line breaks
//! inside quoted fields (a cut there is not between records), CRLF, blank
//! lines, short and long records, a byte order mark, failures of every
//! kind in every part, and caps and `lists` that end the lists inside any
//! part.

use conformance_support::rng::Rng;
use serde_json::{json, Value};
use validation_core::{call_part, call_tool_with_csv, checks_in_parts, merge_parts, Arguments};

/// Field texts for the three columns, valid and not.
const IDS: [&str; 6] = ["A-1", "B-22", "x", "", "C-\n3", "\"Q\"-4"];
const AMOUNTS: [&str; 7] = ["1", "2.5", "-3", "abc", "", "1e3", "7"];
const DATES: [&str; 5] = ["2024-01-31", "2024-02-30", "", "31/01/2024", "2025-12-01"];

/// One CSV field, quoted when it must be (or, now and then, when it need not be).
fn csv_field(rng: &mut Rng, text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) || rng.below(8) == 0 {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// A generated CSV text and the byte offsets just past each line break
/// that ends a record or a blank line (where a part may start).
struct Table {
    text: String,
    record_ends: Vec<usize>,
    header_end: usize,
}

fn table(rng: &mut Rng, records: usize) -> Table {
    let ending = if rng.below(2) == 0 { "\n" } else { "\r\n" };
    let mut text = if rng.below(4) == 0 { "\u{feff}".to_owned() } else { String::new() };
    // Now and then a header whose last name holds a line break: a head cut
    // at the first line break does not hold it.
    text += if rng.below(5) == 0 { "id,amount,\"da\nte\",note" } else { "id,amount,date,note" };
    text += ending;
    let header_end = text.len();
    let mut record_ends = vec![header_end];
    for _ in 0..records {
        if rng.below(15) == 0 {
            text += ending; // a blank line
        } else {
            let width = 1 + rng.below(5);
            let cells = [IDS[rng.below(IDS.len())], AMOUNTS[rng.below(AMOUNTS.len())], DATES[rng.below(DATES.len())]];
            let fields: Vec<String> = (0..width)
                .map(|at| match cells.get(at) {
                    Some(cell) => csv_field(rng, cell),
                    None => csv_field(rng, "extra, text"),
                })
                .collect();
            text += &fields.join(",");
            text += ending;
        }
        record_ends.push(text.len());
    }
    Table { text, record_ends, header_end }
}

/// The contracts tried: rules that quarantine and flag, required columns,
/// a row rule, and each table rule that is decided once all rows are read.
fn contracts() -> Vec<Value> {
    let columns = json!([
        {"name": "id", "required": true, "pattern": "[A-Z]-\\d+"},
        {"name": "amount", "type": "number", "min": 0, "on_fail": "flag"},
        {"name": "date", "type": "date"},
        {"name": "absent", "required": true},
    ]);
    vec![
        json!({"columns": columns}),
        json!({"columns": columns, "row_key": "id", "table": {"columns": "exact", "row_count": {"min": 10, "max": 40}}}),
        json!({"columns": [{"name": "amount", "type": "number"}, {"name": "note"}],
               "row_rules": [{"name": "small", "check": "amount < 5"}],
               "table": {"max_quarantined_fraction": 0.4}}),
        json!({"columns": [{"name": "date", "type": "date", "on_fail": "flag"}]}),
    ]
}

/// The listing arguments tried: none, caps that end the lists early, and
/// `lists`.
fn listings() -> Vec<Value> {
    vec![
        json!({}),
        json!({"max_listed": 1000}),
        json!({"max_listed": 0}),
        json!({"max_listed": 1}),
        json!({"max_listed": 4}),
        json!({"max_listed": 3, "lists": ["quarantine", "findings"]}),
        json!({"lists": ["accepted"]}),
    ]
}

fn arguments(contract: &Value, listing: &Value) -> Value {
    let mut args = contract.clone();
    for (key, value) in listing.as_object().unwrap() {
        args[key] = value.clone();
    }
    args
}

fn args(value: &Value) -> Arguments {
    value.clone().into()
}

/// The text cut at the given offsets (each just past a line break).
fn cut<'t>(text: &'t str, cuts: &[usize]) -> Vec<&'t str> {
    let mut bounds = vec![0];
    bounds.extend_from_slice(cuts);
    bounds.push(text.len());
    bounds.windows(2).map(|pair| &text[pair[0]..pair[1]]).collect()
}

/// The call checked in `parts`, or `None` when a part refuses.
fn in_parts(call: &Value, head: &str, parts: &[&str]) -> Option<String> {
    let mut reports = Vec::new();
    for (at, part) in parts.iter().enumerate() {
        let head = (at > 0).then_some(head.as_bytes());
        reports.push(call_part("validate_rows", args(call), head, Some(part.as_bytes().to_vec())).ok()?);
    }
    let merged = merge_parts("validate_rows", args(call), Value::Array(reports).to_string().as_bytes());
    Some(merged.expect("the parts' reports merge").to_string())
}

#[test]
fn a_call_checked_in_parts_is_the_call_checked_whole() {
    let mut rng = Rng(0x5eed_c5f0);
    let (mut merged, mut refused) = (0, 0);
    for round in 0..400 {
        let records = 5 + rng.below(40);
        let table = table(&mut rng, records);
        let text = &table.text;
        let line_breaks: Vec<usize> = text.match_indices('\n').map(|(at, _)| at + 1).collect();
        let contracts = contracts();
        let listings = listings();
        let call = arguments(&contracts[rng.below(contracts.len())], &listings[rng.below(listings.len())]);
        // Checked in parts only with short lists; any call merges the same.
        let short_lists = call["max_listed"].as_u64().is_some_and(|cap| cap <= 1_000);
        assert_eq!(checks_in_parts("validate_rows", args(&call)), short_lists, "{call}");
        let whole = call_tool_with_csv("validate_rows", args(&call), text.as_bytes().to_vec())
            .expect("a valid call")
            .to_string();

        // The head: the text to its first or second line break.
        let head_end = line_breaks[rng.below(2).min(line_breaks.len() - 1)];
        // One to three cuts at line breaks past the head, some inside quoted fields.
        let mut cuts: Vec<usize> = (0..=rng.below(3))
            .filter_map(|_| {
                let later: Vec<usize> =
                    line_breaks.iter().copied().filter(|&at| at >= head_end && at < text.len()).collect();
                (!later.is_empty()).then(|| later[rng.below(later.len())])
            })
            .collect();
        cuts.sort_unstable();
        cuts.dedup();
        let parts = cut(text, &cuts);
        // Good cuts: each between two records, and a head (read only when
        // there is a second part) that holds the whole header.
        let between_records = cuts.iter().all(|at| table.record_ends.contains(at));
        let good = between_records && (cuts.is_empty() || head_end >= table.header_end);

        match in_parts(&call, &text[..head_end], &parts) {
            Some(result) => {
                assert!(good, "round {round}: a part read across a bad cut {cuts:?} (head to {head_end})");
                assert!(result == whole, "round {round}, cuts {cuts:?}, call {call}:\n{result}\n!=\n{whole}");
                merged += 1;
            }
            None => {
                assert!(!good, "round {round}: a part refused good cuts {cuts:?} (head to {head_end})");
                refused += 1;
            }
        }
    }
    // Both outcomes were met often enough to mean something.
    assert!(merged > 200 && refused > 20, "merged {merged}, refused {refused}");
}

#[test]
fn the_merge_moves_each_part_s_locators_by_the_rows_and_lines_before_it() {
    // Reasoned: the second part's bad row is the whole text's row 3
    // (index 2), on line 5 (the header is line 1, the first part's two
    // records take lines 2 to 3, the blank line 4).
    let text = "id,n\nA,1\nB,2\n\nC,x\n";
    let call = json!({"columns": [{"name": "n", "type": "integer"}]});
    let result: Value =
        serde_json::from_str(&in_parts(&call, "id,n\n", &cut(text, &[13])).expect("good cuts")).unwrap();
    let locator = &result["quarantine"][0]["locator"];
    assert_eq!((&locator["row_index"], &locator["row_number"], &locator["line"]), (&json!(2), &json!(3), &json!(5)));
    let finding = &result["findings"][0]["locator"];
    assert_eq!((&finding["row_index"], &finding["line"], &finding["column"]), (&json!(2), &json!(5), &json!("n")));
    assert_eq!(result["summary"]["rows_in"], 3);
}

#[test]
fn only_calls_that_check_each_row_alone_with_short_lists_are_checked_in_parts() {
    let columns = json!([{"name": "id"}]);
    assert!(checks_in_parts("validate_rows", args(&json!({"columns": columns, "max_listed": 25}))));
    assert!(checks_in_parts("validate_rows", args(&json!({"columns": columns, "rows": [], "max_listed": 1000}))));
    for refused in [
        json!({"columns": [{"name": "id", "unique": true}], "max_listed": 25}),
        json!({"columns": columns, "table": {"primary_key": "id"}, "max_listed": 25}),
        json!({"columns": columns, "page": {"list": "accepted", "offset": 10, "limit": 5}, "max_listed": 25}),
        // Long lists: the parts would carry them all to the merge.
        json!({"columns": columns}),
        json!({"columns": columns, "max_listed": 1001}),
        json!({"columns": columns, "rows": [], "csv": "id\n"}),
        json!({"columns": "not a list"}),
    ] {
        assert!(!checks_in_parts("validate_rows", args(&refused)), "{refused}");
    }
    assert!(!checks_in_parts("count_distinct", args(&json!({"key": "id"}))));
}

#[test]
fn a_part_refuses_a_head_that_does_not_hold_the_whole_header() {
    let call = json!({"columns": [{"name": "n", "type": "integer"}]});
    let part = |head: &str| call_part("validate_rows", args(&call), Some(head.as_bytes()), Some(b"A,1\n".to_vec()));
    assert!(part("id,n\n").is_ok());
    assert!(part("\u{feff}id,n\r\nB,2\n").is_ok());
    // Cut inside the header's line, inside a quoted name, or before it.
    for head in ["id,", "id,\"n\nm\"", "id,\"n\nm\"\"", "", "\n\n", "\u{feff}"] {
        assert!(part(head).is_err(), "{head:?}");
    }
}

/// A `rows` array's elements as JSON texts: objects with the contract's
/// columns (valid and not), missing and extra keys in varying order, keys
/// written with escapes, a column named `locator`, and now and then a row
/// that is not an object.
fn json_rows(rng: &mut Rng, count: usize) -> Vec<String> {
    (0..count)
        .map(|_| match rng.below(12) {
            0 => ["17", "null", "[1, 2]", "\"text\""][rng.below(4)].to_owned(),
            _ => {
                let mut members = vec![
                    format!("\"id\": {}", json!(IDS[rng.below(IDS.len())])),
                    format!("\"amount\": {}", json!(AMOUNTS[rng.below(AMOUNTS.len())])),
                    format!("\"date\": {}", json!(DATES[rng.below(DATES.len())])),
                ];
                members.truncate(1 + rng.below(3));
                if rng.below(4) == 0 {
                    members.push(format!("\"extra{}\": 1", rng.below(3)));
                }
                if rng.below(6) == 0 {
                    members.push("\"n\\u006fte\": {\"a\": [1, {\"b\": \"},{\"}]}".to_owned());
                }
                // A column shaped like a locator: a row's own value, which
                // the merge must not move as it moves the parts' locators.
                if rng.below(5) == 0 {
                    members.push("\"locator\": {\"row_index\": 0, \"row_number\": 1, \"line\": 2}".to_owned());
                }
                if rng.below(2) == 0 {
                    members.reverse();
                }
                format!("{{{}}}", members.join(", "))
            }
        })
        .collect()
}

#[test]
fn a_rows_array_checked_in_parts_is_the_call_checked_whole() {
    let mut rng = Rng(0x0150_4a7e);
    for round in 0..300 {
        let count = 3 + rng.below(40);
        let rows = json_rows(&mut rng, count);
        let contracts = contracts();
        let listings = listings();
        let call = arguments(&contracts[rng.below(contracts.len())], &listings[rng.below(listings.len())]);
        let with_rows = |rows: &[String]| {
            let mut text = call.to_string();
            text.pop();
            format!("{text},\"rows\": [{}]}}", rows.join(", "))
        };
        let parsed = |text: &str| validation_core::parse_arguments(text.as_bytes()).expect("valid JSON");
        let whole =
            validation_core::call_tool_json("validate_rows", with_rows(&rows).as_bytes()).expect("a valid call");
        let short_lists = call["max_listed"].as_u64().is_some_and(|cap| cap <= 1_000);
        assert_eq!(checks_in_parts("validate_rows", parsed(&with_rows(&[]))), short_lists, "{call}");

        let mut cuts: Vec<usize> = (0..=rng.below(3)).map(|_| rng.below(rows.len() + 1)).collect();
        cuts.sort_unstable();
        cuts.dedup();
        let mut bounds = vec![0];
        bounds.extend(cuts.iter().copied().filter(|&at| at > 0 && at < rows.len()));
        bounds.push(rows.len());
        let reports: Vec<Value> = bounds
            .windows(2)
            .map(|pair| call_part("validate_rows", parsed(&with_rows(&rows[pair[0]..pair[1]])), None, None))
            .collect::<Result<_, _>>()
            .unwrap_or_else(|err| panic!("round {round}: a part of whole rows refused: {err:?}"));
        let merged =
            merge_parts("validate_rows", parsed(&with_rows(&[])), Value::Array(reports).to_string().as_bytes())
                .expect("the parts' reports merge")
                .to_string();
        assert!(merged == whole, "round {round}, bounds {bounds:?}, call {call}:\n{merged}\n!=\n{whole}");
    }
}
