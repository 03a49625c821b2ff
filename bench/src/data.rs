//! The generated inputs: deterministic (a fixed seed), realistic (invoice
//! ids, amounts as numeric strings, ISO dates), with a few failures of every
//! rule and a few duplicates of each kind, so every path of every check runs.
//!
//! Each workload's arguments are serialised once, to JSON text; every runtime
//! (both servers over MCP, the native core, the module in wasmtime, the npm
//! package in Node) gets exactly those bytes.

use std::io::{self, BufWriter, Write as _};
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

/// The seed of every generated input.
const SEED: u64 = 0x6d63_7076_6265_6e63; // "mcpvbenc"

/// `max_listed` sent with every call: far above any list's length, so no
/// host-side default cap can shorten a result, and both servers list
/// everything (the reference ignores arguments it does not know).
const MAX_LISTED: u64 = 1_000_000_000;

/// One tool call: the tool, and its arguments as JSON text.
pub(crate) struct Workload {
    /// Short name for the report, e.g. `validate_rows 100k`.
    pub(crate) label: String,
    /// A file-name-safe id, e.g. `validate_rows-100000`.
    pub(crate) id: String,
    pub(crate) tool: &'static str,
    /// Rows (or movements) in the input; 0 for the small reconcile.
    pub(crate) rows: usize,
    pub(crate) args: String,
}

/// `SplitMix64`: small, fast, and the same numbers everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }

    /// True `per_mille` times in 1,000.
    fn chance(&mut self, per_mille: u64) -> bool {
        self.below(1000) < per_mille
    }
}

/// An ISO date in 2025 from a day of the year (0..365).
fn iso_date(day_of_year: u64) -> String {
    const DAYS: [u64; 12] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    let mut day = day_of_year % 365;
    let mut month = 0;
    while day >= DAYS[month] {
        day -= DAYS[month];
        month += 1;
    }
    format!("2025-{:02}-{:02}", month + 1, day + 1)
}

/// Cents as a numeric string with two decimals.
fn money(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    let cents = cents.unsigned_abs();
    format!("{sign}{}.{:02}", cents / 100, cents % 100)
}

#[derive(Clone)]
#[allow(clippy::struct_field_names)]
struct Invoice {
    invoice: String,
    customer: Option<String>,
    amount: String,
    date: String,
}

impl Invoice {
    fn to_json(&self) -> Value {
        let mut row = serde_json::Map::new();
        row.insert("invoice".into(), json!(self.invoice));
        if let Some(customer) = &self.customer {
            row.insert("customer".into(), json!(customer));
        }
        row.insert("amount".into(), json!(self.amount));
        row.insert("date".into(), json!(self.date));
        Value::Object(row)
    }
}

/// `n` invoice rows. About 1 row in 200 repeats an earlier invoice outright
/// (a `same_key` duplicate), 1 in 200 repeats an earlier row's customer,
/// amount and date under a new invoice id (a `same_signature` duplicate), and
/// each rule of the contract fails on roughly 3 rows in 1,000.
fn invoices(n: usize, rng: &mut Rng) -> Vec<Invoice> {
    let customers = (n / 4).max(1) as u64;
    let mut rows: Vec<Invoice> = Vec::with_capacity(n);
    let mut next_invoice = 1u64;
    for i in 0..n {
        let roll = rng.below(1000);
        let mut row = if i > 100 && roll < 5 {
            rows[rng.index(i)].clone()
        } else {
            let invoice = format!("INV-{next_invoice:06}");
            next_invoice += 1;
            if i > 100 && roll < 10 {
                Invoice { invoice, ..rows[rng.index(i)].clone() }
            } else {
                Invoice {
                    invoice,
                    customer: Some(format!("CUST-{:05}", rng.below(customers) + 1)),
                    amount: money(100 + rng.below(999_900) as i64),
                    date: iso_date(rng.below(365)),
                }
            }
        };
        // pattern INV-\d{6}
        if rng.chance(3) {
            let digits = &row.invoice[4..];
            row.invoice = match rng.below(3) {
                0 => format!("inv-{digits}"),
                1 => format!("INV {digits}"),
                _ => format!("INV-{}", &digits[1..]),
            };
        }
        // required
        if rng.chance(3) {
            row.customer = if rng.below(2) == 0 { None } else { Some("  ".into()) };
        }
        // number
        if rng.chance(3) {
            row.amount = ["n/a", "1.234,50", "12 EUR"][rng.index(3)].into();
        }
        // min 0
        if rng.chance(3) {
            row.amount = money(-(1 + rng.below(50_000) as i64));
        }
        // date
        if rng.chance(3) {
            row.date = ["2025-02-30", "31/01/2025", "2025-13-01", "yesterday"][rng.index(4)].into();
        }
        rows.push(row);
    }
    rows
}

fn rows_json(rows: &[Invoice]) -> Value {
    Value::Array(rows.iter().map(Invoice::to_json).collect())
}

/// The 4-column contract: a pattern, a required string, a number with a
/// minimum, and a date.
fn contract() -> Value {
    json!([
        {"name": "invoice", "type": "string", "required": true, "pattern": "INV-\\d{6}"},
        {"name": "customer", "type": "string", "required": true},
        {"name": "amount", "type": "number", "required": true, "min": 0},
        {"name": "date", "type": "date", "required": true},
    ])
}

/// Bank-statement movements: numbers and `{amount, direction, label, date}`
/// objects, amounts as numeric strings; and each one's signed amount in cents.
fn movements(n: usize, rng: &mut Rng) -> (Vec<Value>, Vec<i64>) {
    let mut signed = Vec::with_capacity(n);
    let mut list = Vec::with_capacity(n);
    for i in 0..n {
        let cents = 100 + rng.below(499_900) as i64;
        let inflow = rng.below(3) != 0;
        signed.push(if inflow { cents } else { -cents });
        list.push(if i % 5 == 4 {
            // A bare signed number, as the reference also accepts.
            json!(if inflow { cents } else { -cents } as f64 / 100.0)
        } else {
            json!({
                "amount": money(cents),
                "direction": if inflow { "in" } else { "out" },
                "label": format!("INV-{:06}", i + 1),
                "date": iso_date(i as u64 * 365 / n.max(1) as u64),
            })
        });
    }
    (list, signed)
}

/// The small `reconcile` call timed for latency: 12 movements that close.
pub(crate) fn small_reconcile() -> Workload {
    let mut rng = Rng(SEED ^ 1);
    let (moves, signed) = movements(12, &mut rng);
    let net: i64 = signed.iter().sum();
    let opening = 2_500_000i64;
    let args = json!({
        "opening_balance": money(opening),
        "movements": moves,
        "closing_balance": money(opening + net),
        "max_listed": MAX_LISTED,
    });
    Workload {
        label: "reconcile (12 movements)".into(),
        id: "reconcile-small".into(),
        tool: "reconcile",
        rows: 0,
        args: args.to_string(),
    }
}

/// The large workloads at `n` rows: the three row checks on one generated
/// table, and `reconcile` over `n` movements of which one is missing from the
/// closing balance (so it does not close, and the variance matches it).
pub(crate) fn large(n: usize) -> Vec<Workload> {
    let mut rng = Rng(SEED ^ n as u64);
    let table = rows_json(&invoices(n, &mut rng));
    let make = |tool: &'static str, args: Value| Workload {
        label: format!("{tool} {}", size_label(n)),
        id: format!("{tool}-{n}"),
        tool,
        rows: n,
        args: args.to_string(),
    };
    let (moves, signed) = movements(n, &mut rng);
    let net: i64 = signed.iter().sum();
    let missing = signed[n / 2];
    let opening = 10_000_000i64;
    vec![
        make(
            "validate_rows",
            json!({"rows": table, "columns": contract(), "row_key": "invoice", "max_listed": MAX_LISTED}),
        ),
        make("count_distinct", json!({"rows": table, "key": "customer", "max_listed": MAX_LISTED})),
        make(
            "duplicate_report",
            json!({
                "rows": table,
                "key": "invoice",
                "match_fields": ["customer", "amount", "date"],
                "max_groups": n,
                "max_listed": MAX_LISTED,
            }),
        ),
        make(
            "reconcile",
            json!({
                "opening_balance": money(opening),
                "movements": moves,
                "closing_balance": money(opening + net - missing),
                "max_listed": MAX_LISTED,
            }),
        ),
    ]
}

/// The large-file workload: `n` invoice rows written to `dir/invoices-<n>.csv`
/// (a header line, then one record per row), and the `validate_rows` call
/// that names the file by `path`. The call sends no `max_listed`, so the
/// server's default cap applies: listing a million rows in full would make a
/// reply of hundreds of MiB, and a server given a file that size is there to
/// summarise it. The counts and verdict still cover every row.
pub(crate) fn large_csv(n: usize, dir: &Path) -> io::Result<(PathBuf, Workload)> {
    let mut rng = Rng(SEED ^ n as u64 ^ 0xc5f);
    let path = dir.join(format!("invoices-{n}.csv"));
    let mut out = BufWriter::new(std::fs::File::create(&path)?);
    writeln!(out, "invoice,customer,amount,date")?;
    for row in invoices(n, &mut rng) {
        let customer = row.customer.as_deref().unwrap_or("");
        let fields = [row.invoice.as_str(), customer, row.amount.as_str(), row.date.as_str()];
        let record: Vec<String> = fields.iter().map(|field| csv_field(field)).collect();
        writeln!(out, "{}", record.join(","))?;
    }
    out.into_inner().map_err(io::IntoInnerError::into_error)?.sync_all()?;
    let args = json!({"path": path.to_string_lossy(), "columns": contract(), "row_key": "invoice"});
    let workload = Workload {
        label: format!("validate_rows {} CSV", size_label(n)),
        id: format!("validate_rows-csv-{n}"),
        tool: "validate_rows",
        rows: n,
        args: args.to_string(),
    };
    Ok((path, workload))
}

/// The file call with contract v2's cross-row rules added: `unique` on the
/// invoice number (nearly a key per row; the data repeats some invoices, as
/// `duplicate_report` needs) and a primary key of (customer, date), "one
/// invoice per customer a day", which the data breaks by chance. What they
/// cost is the difference from the plain call on the same file.
pub(crate) fn keyed(workload: &Workload) -> Workload {
    let mut args: Value = serde_json::from_str(&workload.args).unwrap_or_default();
    args["columns"][0]["unique"] = json!(true);
    args["table"] = json!({"primary_key": ["customer", "date"]});
    Workload {
        label: format!("{} with unique and primary_key", workload.label),
        id: format!("{}-keyed", workload.id),
        tool: workload.tool,
        rows: workload.rows,
        args: args.to_string(),
    }
}

/// `inspect_dataset` on the file the `validate_rows` call names: the profile
/// and drafted contract of the same rows, whose cost the issue holds to
/// twice the validation's.
pub(crate) fn inspect(workload: &Workload) -> Workload {
    on_the_file(workload, "inspect_dataset", json!({}))
}

/// `duplicate_report` on the file the `validate_rows` call names, as on the
/// inline tables: repeated invoices, and different invoices with the same
/// customer, amount and date (under the server's default cap).
pub(crate) fn deduped(workload: &Workload) -> Workload {
    on_the_file(workload, "duplicate_report", json!({"key": "invoice", "match_fields": ["customer", "amount", "date"]}))
}

/// `tool` on the file the `validate_rows` call names, with `options`.
fn on_the_file(workload: &Workload, tool: &'static str, mut options: Value) -> Workload {
    let args: Value = serde_json::from_str(&workload.args).unwrap_or_default();
    options["path"] = args["path"].clone();
    Workload {
        label: format!("{tool} {} CSV", size_label(workload.rows)),
        id: format!("{tool}-csv-{}", workload.rows),
        tool,
        rows: workload.rows,
        args: options.to_string(),
    }
}

/// The `validate_rows` call on the file with `export`: the whole split
/// written as files under the server's `--output-root` (replaced on each
/// run, so every run writes the same files).
pub(crate) fn exported(workload: &Workload) -> Workload {
    let mut args: Value = serde_json::from_str(&workload.args).unwrap_or_default();
    args["export"] = json!({"dir": "split", "overwrite": true});
    Workload {
        label: format!("{} with export", workload.label),
        id: format!("{}-export", workload.id),
        tool: workload.tool,
        rows: workload.rows,
        args: args.to_string(),
    }
}

/// One CSV field, quoted when it holds a comma, a quote or a line break.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// `10k`, `100k`, or the number itself.
pub(crate) fn size_label(n: usize) -> String {
    if n >= 1000 && n % 1000 == 0 {
        format!("{}k", n / 1000)
    } else {
        n.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the report says of the inputs, checked through the core itself:
    /// each rule fails somewhere, both kinds of duplicate occur, the small
    /// call closes, and the large reconcile misses by exactly one movement.
    #[test]
    fn the_inputs_exercise_what_the_report_says_they_do() {
        let run = |workload: &Workload| -> Value {
            let text = validation_core::call_tool_json(workload.tool, workload.args.as_bytes()).expect("a valid call");
            serde_json::from_str(&text).expect("JSON")
        };
        let n = 2000;
        let workloads = large(n);
        let by_tool = |tool: &str| workloads.iter().find(|w| w.tool == tool).expect("every tool has a workload");

        let validated = run(by_tool("validate_rows"));
        assert_eq!(validated["summary"]["accounted_for"], n);
        let mut failed: Vec<&String> = validated["errors_by_column"].as_object().expect("an object").keys().collect();
        failed.sort();
        assert_eq!(failed, ["amount", "customer", "date", "invoice"], "every column fails somewhere");

        let duplicates = run(by_tool("duplicate_report"));
        let kinds: std::collections::BTreeSet<&str> = duplicates["groups"]
            .as_array()
            .expect("groups")
            .iter()
            .filter_map(|group| group["kind"].as_str())
            .collect();
        assert!(kinds.contains("same_key") && kinds.contains("same_signature"), "{kinds:?}");

        let reconciled = run(by_tool("reconcile"));
        assert_eq!(reconciled["closes"], false);
        let mut rng = Rng(SEED ^ n as u64);
        invoices(n, &mut rng);
        let (_, signed) = movements(n, &mut rng);
        let variance = reconciled["variance"].as_f64().expect("a number");
        assert!((variance + signed[n / 2] as f64 / 100.0).abs() < 0.005, "variance {variance}");

        assert_eq!(run(&small_reconcile())["closes"], true);
    }

    /// The keyed file call finds what its doc comment says: repeated
    /// invoices, and (customer, date) pairs more than once.
    #[test]
    fn the_keyed_call_finds_repeated_invoices_and_keys() {
        let dir = std::env::temp_dir().join(format!("mcpv-bench-keyed-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let (path, workload) = large_csv(20_000, &dir).expect("the file is written");
        let mut args: Value = serde_json::from_str(&keyed(&workload).args).expect("JSON");
        let csv = std::fs::read_to_string(&path).expect("the file reads");
        std::fs::remove_dir_all(&dir).expect("cleaned up");
        let object = args.as_object_mut().expect("an object");
        object.remove("path");
        object.insert("csv".into(), Value::String(csv));
        let text = validation_core::call_tool_json("validate_rows", args.to_string().as_bytes()).expect("a valid call");
        let result: Value = serde_json::from_str(&text).expect("JSON");
        assert!(
            result["findings_by_code"]["duplicate_value"].as_u64().is_some_and(|n| n > 0),
            "{}",
            result["findings_by_code"]
        );
        assert!(
            result["findings_by_code"]["duplicate_key"].as_u64().is_some_and(|n| n > 0),
            "{}",
            result["findings_by_code"]
        );
    }

    #[test]
    fn csv_fields_are_quoted_only_when_they_must_be() {
        assert_eq!(csv_field("INV-000001"), "INV-000001");
        assert_eq!(csv_field("1.234,50"), "\"1.234,50\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field(""), "");
    }

    #[test]
    fn dates_and_money_are_well_formed() {
        assert_eq!(iso_date(0), "2025-01-01");
        assert_eq!(iso_date(58), "2025-02-28");
        assert_eq!(iso_date(59), "2025-03-01");
        assert_eq!(iso_date(364), "2025-12-31");
        assert_eq!(money(123_405), "1234.05");
        assert_eq!(money(-7), "-0.07");
    }
}
