//! Large data through the real binary: results sized for a model (the
//! server's default `max_listed`), CSV input, and files behind the
//! `--data-root` trust boundary (`..`, symbolic links and absolute paths
//! that lead outside are refused, and nothing is read).
//!
//! Expected values are reasoned from the data each test writes, or taken
//! from the same call with the cap lifted (which the conformance vectors tie
//! to the reference).

mod common;

use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

use common::{fresh_dir, invoice_arguments, is_error, text_of, StdioServer};
use serde_json::{json, Value};

const CONTRACT: &str = r#"[
    {"name": "invoice", "type": "string", "required": true, "pattern": "INV-\\d+"},
    {"name": "amount", "type": "number", "min": 0},
    {"name": "date", "type": "date", "required": true},
    {"name": "status", "allowed": ["open", "paid", "void"]}
]"#;

fn contract() -> Value {
    serde_json::from_str(CONTRACT).unwrap()
}

/// A CSV table of `count` invoices; every 10th has a negative amount.
fn invoice_csv(count: usize) -> String {
    let mut text = String::from("invoice,amount,date,status\n");
    for i in 0..count {
        let amount = if i % 10 == 9 { "-1.00".to_owned() } else { format!("{}.50", i % 1000) };
        let _ = writeln!(text, "INV-{i:07},{amount},2026-04-{:02},paid", i % 28 + 1);
    }
    text
}

fn structured(result: &Value) -> &Value {
    assert!(!is_error(result), "expected a result, got: {}", text_of(result));
    &result["structuredContent"]
}

#[test]
fn the_default_cap_shortens_lists_and_keeps_every_count() {
    let mut capped = StdioServer::initialized(&[], &[]);
    let mut full = StdioServer::initialized(&["--max-listed", "unlimited"], &[]);
    // 3,000 invoice rows: invoice_rows puts a bad amount on every 1,000th row.
    let arguments = invoice_arguments(3_000);
    let short = capped.call_tool("validate_rows", arguments.clone());
    let long = full.call_tool("validate_rows", arguments);
    let (short, long) = (structured(&short), structured(&long));
    for key in ["ok", "verdict", "summary", "errors_by_column", "findings_by_code", "guidance"] {
        assert_eq!(short[key], long[key], "{key}");
    }
    assert_eq!(short["accepted"].as_array().unwrap().len(), 25, "the documented default cap");
    assert_eq!(short["accepted_omitted"], long["accepted"].as_array().unwrap().len() - 25);
    let last = short["findings"].as_array().unwrap().last().unwrap();
    assert_eq!(last["code"], "result_abridged", "{last}");
    // A call can ask for more (or fewer) than the default.
    let asked = capped
        .call_tool("count_distinct", json!({"rows": invoice_arguments(40)["rows"], "key": "status", "max_listed": 2}));
    assert_eq!(structured(&asked)["repeated_keys"].as_array().unwrap().len(), 2);
}

#[test]
fn at_the_cap_boundary_only_the_26th_entry_abridges() {
    let mut server = StdioServer::initialized(&[], &[]);
    let rows = |n: usize| json!((0..n).map(|i| json!({"id": format!("K{i}")})).collect::<Vec<_>>());
    let columns = json!([{"name": "id", "required": true}]);
    // 25 clean rows: 25 accepted, exactly the cap: the uncapped result.
    let at = server.call_tool("validate_rows", json!({"rows": rows(25), "columns": columns}));
    let at = structured(&at);
    assert_eq!(at["accepted"].as_array().unwrap().len(), 25);
    assert!(at.get("accepted_omitted").is_none(), "{at}");
    assert_eq!(at["findings"], json!([]));
    // 26 rows: one entry over.
    let over = server.call_tool("validate_rows", json!({"rows": rows(26), "columns": columns}));
    let over = structured(&over);
    assert_eq!(over["accepted_omitted"], 1);
    assert_eq!(over["summary"]["accepted"], 26);
}

#[test]
fn a_capped_result_is_well_under_what_a_host_accepts() {
    // The widest case: every row quarantined on two columns, six columns wide.
    let rows: Vec<Value> = (0..5_000)
        .map(|i| json!({"invoice": format!("bad-{i}"), "amount": "n/a", "date": "2026-04-01",
                        "status": "open", "customer": format!("Customer number {i}"), "note": "imported from the old ledger"}))
        .collect();
    let mut server = StdioServer::initialized(&[], &[]);
    let result = server.call_tool("validate_rows", json!({"rows": rows, "columns": contract(), "row_key": "invoice"}));
    let content = structured(&result);
    assert_eq!(content["summary"]["quarantined"], 5_000);
    let size = content.to_string().len();
    println!("a capped 5,000-row result is {size} bytes of JSON");
    // 25,000 tokens is about 100,000 characters of JSON; "well under" is half that.
    assert!(size < 50_000, "capped result is {size} bytes");
}

/// A data root with a CSV, JSON and JSONL file of the same rows, and, outside
/// it, a secret file, a FIFO (opening which would block) and links to both.
struct Files {
    root: std::path::PathBuf,
    outside: std::path::PathBuf,
}

fn files() -> Files {
    let base = fresh_dir("data-roots");
    let root = base.join("root");
    let outside = base.join("outside");
    std::fs::create_dir_all(root.join("sub")).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(root.join("invoices.csv"), "invoice,amount\nINV-1,10\nINV-2,-5\n").unwrap();
    std::fs::write(
        root.join("sub/invoices.json"),
        r#"[{"invoice": "INV-1", "amount": "10"}, {"invoice": "INV-2", "amount": "-5"}]"#,
    )
    .unwrap();
    std::fs::write(
        root.join("invoices.jsonl"),
        "{\"invoice\": \"INV-1\", \"amount\": \"10\"}\n{\"invoice\": \"INV-2\", \"amount\": \"-5\"}\n",
    )
    .unwrap();
    std::fs::write(outside.join("secret.csv"), "invoice,amount\nSECRET,1\n").unwrap();
    let fifo = outside.join("pipe.csv");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success(), "mkfifo");
    std::os::unix::fs::symlink(outside.join("secret.csv"), root.join("link.csv")).unwrap();
    std::os::unix::fs::symlink(&fifo, root.join("pipe.csv")).unwrap();
    std::os::unix::fs::symlink(&outside, root.join("door")).unwrap();
    Files { root, outside }
}

fn amount_contract() -> Value {
    json!([{"name": "invoice", "required": true}, {"name": "amount", "type": "number", "min": 0}])
}

fn call_path(server: &mut StdioServer, path: &str) -> Value {
    server.call_tool("validate_rows", json!({"path": path, "columns": amount_contract(), "row_key": "invoice"}))
}

#[test]
fn files_under_a_data_root_are_read_in_any_of_three_forms() {
    let files = files();
    let root = files.root.to_str().unwrap();
    let mut server = StdioServer::initialized(&["--data-root", root], &[]);
    let from_rows = server.call_tool(
        "validate_rows",
        json!({"rows": [{"invoice": "INV-1", "amount": "10"}, {"invoice": "INV-2", "amount": "-5"}],
               "columns": amount_contract(), "row_key": "invoice"}),
    );
    let from_rows = structured(&from_rows).clone();
    for path in ["sub/invoices.json", "invoices.jsonl", "sub/../sub/invoices.json", &format!("{root}/invoices.jsonl")] {
        let result = call_path(&mut server, path);
        assert_eq!(structured(&result), &from_rows, "{path}");
    }
    // CSV: the same verdict, and the quarantined row's CSV line (header = line 1).
    let result = call_path(&mut server, "invoices.csv");
    let csv = structured(&result);
    assert_eq!(csv["summary"], from_rows["summary"]);
    assert_eq!(
        csv["quarantine"][0]["locator"],
        json!({"row_index": 1, "row_number": 2, "line": 3, "row_key": "INV-2"})
    );
}

#[test]
fn paths_that_lead_outside_the_roots_are_refused_and_not_read() {
    let files = files();
    let root = files.root.to_str().unwrap();
    let outside = files.outside.to_str().unwrap();
    let mut server = StdioServer::initialized(&["--data-root", root], &[]);
    let secret = format!("{outside}/secret.csv");
    for path in ["../outside/secret.csv", secret.as_str(), "link.csv", "door/secret.csv", "pipe.csv", "/etc/passwd"] {
        let started = Instant::now();
        let result = call_path(&mut server, path);
        assert!(is_error(&result), "{path}: {result}");
        let text = text_of(&result);
        assert!(text.contains(&format!("refused {path:?}")) && text.contains("nothing was read"), "{path}: {text}");
        assert!(!text.contains("SECRET"), "{path}: {text}");
        // The operator's directories are not the caller's business.
        assert!(!text.contains(root), "{path}: the refusal shows the data root: {text}");
        assert_eq!(
            result["_meta"]["mcp-validation-server/error"],
            json!({"code": "path_outside_roots", "argument": "path", "location": "path", "line": null})
        );
        // Opening the FIFO would block until a writer came: refusal means it was never opened.
        assert!(started.elapsed() < Duration::from_secs(10), "{path} took {:?}", started.elapsed());
    }
    // The server is still there and reads an allowed file.
    assert!(!is_error(&call_path(&mut server, "invoices.csv")));
}

#[test]
fn inspect_dataset_reads_a_path_as_the_row_tools_do() {
    let files = files();
    let mut server = StdioServer::initialized(&["--data-root", files.root.to_str().unwrap()], &[]);
    let rows = json!([{"invoice": "INV-1", "amount": "10"}, {"invoice": "INV-2", "amount": "-5"}]);
    let from_rows = server.call_tool("inspect_dataset", json!({"rows": rows}));
    let from_rows = structured(&from_rows).clone();
    for path in ["sub/invoices.json", "invoices.jsonl", "invoices.csv"] {
        let result = server.call_tool("inspect_dataset", json!({"path": path}));
        let result = structured(&result);
        assert_eq!(result["suggested_contract"], from_rows["suggested_contract"], "{path}");
        assert_eq!(result["columns"][1]["type_failures"], from_rows["columns"][1]["type_failures"], "{path}");
        // The draft passes the file it was drafted from, read the same way.
        let mut call = result["suggested_contract"].clone();
        call["path"] = json!(path);
        let validated = server.call_tool("validate_rows", call);
        assert_eq!(structured(&validated)["ok"], json!(true), "{path}: {validated}");
    }
    let csv = server.call_tool("inspect_dataset", json!({"path": "invoices.csv"}));
    assert_eq!(structured(&csv)["summary"]["source"], json!("csv"));
    // Refused outside the roots, like every path.
    let refused = server.call_tool("inspect_dataset", json!({"path": "../outside/secret.csv"}));
    assert_eq!(refused["_meta"]["mcp-validation-server/error"]["code"], json!("path_outside_roots"), "{refused}");
}

/// A `references` rule whose other table is a file: the invoice numbers
/// of `table`, under the data root as every `path` is.
fn call_reference(server: &mut StdioServer, table: &str) -> Value {
    let columns = json!([{"name": "invoice", "references": {"column": "invoice", "path": table}}]);
    server.call_tool("validate_rows", json!({"rows": [{"invoice": "INV-1"}, {"invoice": "INV-9"}], "columns": columns}))
}

#[test]
fn a_reference_table_is_a_file_under_the_same_roots() {
    let files = files();
    let root = files.root.to_str().unwrap();
    let outside = files.outside.to_str().unwrap();
    let mut server = StdioServer::initialized(&["--data-root", root], &[]);
    // INV-1 is in each file, INV-9 in none: one row fails, whatever the file's form.
    for table in ["invoices.csv", "sub/invoices.json", "invoices.jsonl"] {
        let result = call_reference(&mut server, table);
        let found = structured(&result);
        assert_eq!(found["summary"]["quarantined"], 1, "{table}: {found}");
        assert_eq!(found["quarantine"][0]["findings"][0]["code"], "reference_not_found", "{table}");
        assert_eq!(found["contract"]["columns"][0]["checks"][0]["distinct_values"], 2, "{table}");
    }
    let secret = format!("{outside}/secret.csv");
    for table in ["../outside/secret.csv", secret.as_str(), "link.csv", "door/secret.csv", "pipe.csv"] {
        let started = Instant::now();
        let result = call_reference(&mut server, table);
        assert!(is_error(&result), "{table}: {result}");
        let text = text_of(&result);
        assert!(text.contains("columns[0].references.path") && text.contains("nothing was read"), "{table}: {text}");
        assert!(!text.contains("SECRET") && !text.contains(root), "{table}: {text}");
        assert_eq!(
            result["_meta"]["mcp-validation-server/error"],
            json!({"code": "path_outside_roots", "argument": "columns", "location": "columns[0].references.path", "line": null})
        );
        assert!(started.elapsed() < Duration::from_secs(10), "{table} took {:?}", started.elapsed());
    }
}

#[test]
fn what_is_not_a_regular_file_inside_a_root_is_refused_unread_with_a_code() {
    let files = files();
    let fifo = files.root.join("inner-pipe.csv");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success(), "mkfifo");
    let mut server = StdioServer::initialized(&["--data-root", files.root.to_str().unwrap()], &[]);
    for (path, code, says) in [
        // A FIFO with no writer: a blocking open would never return.
        ("inner-pipe.csv", "not_a_regular_file", "it is a FIFO, not a regular file; nothing was read"),
        ("sub", "not_a_regular_file", "it is a directory"),
        ("missing.csv", "file_not_found", "there is no such file"),
        ("invoices.txt", "file_not_found", "there is no such file"),
    ] {
        let started = Instant::now();
        let result = call_path(&mut server, path);
        assert!(is_error(&result), "{path}: {result}");
        assert!(text_of(&result).contains(&format!("{path:?}: {says}")), "{path}: {}", text_of(&result));
        assert_eq!(
            result["_meta"]["mcp-validation-server/error"],
            json!({"code": code, "argument": "path", "location": "path", "line": null}),
            "{path}"
        );
        assert!(started.elapsed() < Duration::from_secs(10), "{path} took {:?}", started.elapsed());
    }
    std::fs::write(files.root.join("notes.txt"), "invoice\nINV-1\n").unwrap();
    let result = call_path(&mut server, "notes.txt");
    assert_eq!(result["_meta"]["mcp-validation-server/error"]["code"], "unsupported_file_type", "{result}");
}

#[test]
fn the_whole_file_system_as_a_data_root_is_served_with_a_warning() {
    let files = files();
    let server = StdioServer::start(&["--data-root", "/"], &[]);
    assert!(
        server.wait_for_stderr("--data-root /: this lets every call read any file", Duration::from_secs(30)),
        "no warning: {}",
        server.stderr()
    );
    let mut server = server;
    server.initialize("2025-06-18");
    // Served, not refused: the operator asked for it.
    let result = call_path(&mut server, files.root.join("invoices.csv").to_str().unwrap());
    assert!(!is_error(&result), "{}", text_of(&result));
}

#[test]
fn without_a_data_root_there_is_no_file_access() {
    let files = files();
    let mut server = StdioServer::initialized(&[], &[]);
    let result = call_path(&mut server, files.root.join("invoices.csv").to_str().unwrap());
    assert!(is_error(&result));
    assert!(text_of(&result).contains("no file access"), "{}", text_of(&result));
    assert_eq!(result["_meta"]["mcp-validation-server/error"]["code"], "no_file_access");
}

#[test]
fn data_is_given_exactly_once() {
    let files = files();
    let mut server = StdioServer::initialized(&["--data-root", files.root.to_str().unwrap()], &[]);
    let result = server.call_tool("count_distinct", json!({"path": "invoices.csv", "rows": [], "key": "invoice"}));
    assert!(is_error(&result));
    assert!(text_of(&result).contains("exactly once"), "{}", text_of(&result));
    let result = server.call_tool("count_distinct", json!({"csv": "invoice\nA\nA\n", "key": "invoice"}));
    assert_eq!(structured(&result)["distinct_count"], 1);
}

#[test]
fn a_million_row_csv_file_validates_within_the_default_limits() {
    let root = fresh_dir("million");
    let path = root.join("invoices.csv");
    std::fs::write(&path, invoice_csv(1_000_000)).unwrap();
    let size = std::fs::metadata(&path).unwrap().len();
    let mut server = StdioServer::initialized(&["--data-root", root.to_str().unwrap()], &[]);
    let started = Instant::now();
    let result =
        server.call_tool("validate_rows", json!({"path": "invoices.csv", "columns": contract(), "row_key": "invoice"}));
    let elapsed = started.elapsed();
    let content = structured(&result);
    // Every 10th of the million rows has a negative amount.
    assert_eq!(content["summary"]["rows_in"], 1_000_000);
    assert_eq!(content["summary"]["quarantined"], 100_000);
    assert_eq!(content["summary"]["accounted_for"], 1_000_000);
    assert_eq!(content["quarantine"].as_array().unwrap().len(), 25);
    let stderr = server.stderr();
    let line = stderr.lines().rev().find(|line| line.contains("call finished")).unwrap_or_default().to_owned();
    println!("1,000,000-row CSV ({size} bytes): {elapsed:?} at the client; {line}");
    assert!(Path::new(&path).exists());
    // The last page of its quarantine, past the default cap, within the same limits.
    let started = Instant::now();
    let page = json!({"list": "quarantine", "offset": 99_990, "limit": 1000});
    let result = server.call_tool(
        "validate_rows",
        json!({"path": "invoices.csv", "columns": contract(), "row_key": "invoice", "page": page}),
    );
    let content = structured(&result);
    let keys: Vec<&Value> =
        content["quarantine"].as_array().unwrap().iter().map(|e| &e["locator"]["row_key"]).collect();
    assert_eq!(keys.first().copied(), Some(&json!("INV-0999909")), "row 999,909 is the 99,991st with a bad amount");
    assert_eq!(keys.len(), 10);
    assert_eq!(content["page"]["total"], 100_000);
    assert_eq!(content["page"]["next_page"], Value::Null);
    assert_eq!(content["accepted"], json!([]), "only the paged list is filled");
    assert_eq!(content["accepted_omitted"], 900_000);
    println!("its last quarantine page: {:?} at the client", started.elapsed());
}

#[test]
fn a_path_file_s_quarantine_is_walked_past_the_default_cap() {
    let root = fresh_dir("paging");
    std::fs::write(root.join("invoices.csv"), invoice_csv(300)).unwrap();
    let mut server = StdioServer::initialized(&["--data-root", root.to_str().unwrap()], &[]);
    let arguments = json!({"path": "invoices.csv", "columns": contract(), "row_key": "invoice"});
    // Every 10th of the 300 rows is quarantined: 30, more than the default cap of 25.
    let mut args = arguments.clone();
    args["lists"] = json!(["quarantine"]);
    let listed = server.call_tool("validate_rows", args);
    let listed = structured(&listed);
    assert_eq!((listed["quarantine"].as_array().unwrap().len(), listed["quarantine_omitted"].clone()), (25, json!(5)));
    assert!(listed["guidance"].as_str().unwrap().contains("(max_listed)"), "{}", listed["guidance"]);
    let mut walked = Vec::new();
    let mut page = json!({"list": "quarantine", "limit": 7});
    while !page.is_null() {
        let mut args = arguments.clone();
        args["page"] = page;
        let result = server.call_tool("validate_rows", args);
        let content = structured(&result);
        assert_eq!(content["summary"]["quarantined"], 30);
        walked.extend(content["quarantine"].as_array().unwrap().iter().map(|e| e["locator"]["line"].clone()));
        page = content["page"]["next_page"].clone();
    }
    // Row i is on line i + 2; rows 9, 19, ..., 299 are quarantined.
    let expected: Vec<Value> = (0..30).map(|k| json!(10 * k + 11)).collect();
    assert_eq!(walked, expected, "every quarantined row once, in row order");
}
