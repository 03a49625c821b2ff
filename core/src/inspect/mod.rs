//! `inspect_dataset`: profile a dataset a model has never seen, report what
//! is wrong with it whatever the contract, and draft a contract it passes.
//!
//! A model asked to validate an unfamiliar file otherwise has to invent the
//! contract; every strong peer (Frictionless `describe`, Pandera
//! `infer_schema`, qsv `schema`, Deequ's suggestions) profiles first. This
//! tool is read-only and deterministic, and it reads the data exactly as
//! `validate_rows` does (the same CSV reader, blanks, coercion and equality
//! keys), which gives its one promise: **`validate_rows` with the
//! suggested contract, on the data it was drafted from, returns `ok: true`**
//! (for data `validate_rows` can pass at all: at least one row, every JSON
//! row an object, a CSV header without a repeated name).
//!
//! One pass over the rows (`values.rs`) numbers each column's distinct
//! cells, counting how many rows have each, and finds the rows' structure
//! (`structure.rs`). Then each column is summarised from its distinct
//! cells: the type every value takes (`types.rs`) and, in the same pass,
//! the facts about its text (`text_facts.rs`, with value shapes from
//! `shape.rs`), then every value read as that type (`profile.rs`; a
//! `string` column's values are its text cells, read already); the
//! rows of a mixed column whose value is an exception are found by reading
//! the rows again, only as far as the result lists them. Then `draft.rs`
//! turns the profile into the contract, its Table Schema and the evidence
//! for each rule, `report.rs` writes the findings and the guidance, and
//! `describe.rs` the profile as JSON.

mod describe;
mod draft;
mod key_pair;
mod partition;
mod profile;
mod report;
mod rows;
mod shape;
mod structure;
mod text_facts;
mod types;
mod values;

#[cfg(test)]
mod tests;

use serde_json::{Map, Value};

use crate::args::ArgReader;
use crate::coerce::CellRef;
use crate::contract::ColumnType;
use crate::error::ToolError;
use crate::findings::object;
use crate::py::{isodate, text, value::json_safe_float};
use crate::source::RowSource;
use crate::value_key::{read_key, KeyedValue};
use draft::ColumnFacts;
use profile::ValueProfile;
use rows::{Columns, RowAt, Visitor};
use structure::Structure;
use text_facts::TextFacts;
use types::TypeTally;
use values::{CellCounter, CountLimits, DistinctCells};

/// The pass over the rows: each column's distinct cells, and the rows' structure.
struct RowPass {
    cells: CellCounter,
    structure: Structure,
}

impl Visitor for RowPass {
    fn row(&mut self, row: &RowAt<'_>) {
        self.cells.row(row.line);
        self.structure.row(row);
    }

    fn cell(&mut self, column: usize, cell: CellRef<'_>) {
        let number = self.cells.add(column, cell);
        self.structure.cell(column, number);
    }

    fn end_row(&mut self) {
        self.structure.end_row();
    }
}

/// The second reading, for mixed columns only: the rows whose value is an
/// exception, until every such column has listed what the result lists.
struct ExceptionPass<'p, 'c> {
    profiles: &'p mut [ValueProfile<'c>],
    /// Per column, how many exceptions it has (0 for a column not mixed).
    totals: Vec<usize>,
    row: usize,
    line: Option<usize>,
}

impl Visitor for ExceptionPass<'_, '_> {
    fn row(&mut self, row: &RowAt<'_>) {
        self.row = row.index;
        self.line = row.line;
    }

    fn cell(&mut self, column: usize, cell: CellRef<'_>) {
        if self.totals[column] > 0 {
            self.profiles[column].add_row(cell, self.row, self.line);
        }
    }

    fn end_row(&mut self) {}

    fn done(&self) -> bool {
        !self.profiles.iter().zip(&self.totals).any(|(profile, &total)| profile.wants_rows(total))
    }
}

/// Everything learned about a dataset, for the findings and the result.
pub(super) struct Inspection<'a> {
    rows: usize,
    from_csv: bool,
    columns: &'a Columns,
    facts: Vec<ColumnFacts<'a>>,
    /// The two columns that key the table, when no one column does.
    key_pair: Option<key_pair::KeyPair>,
    structure: &'a Structure,
    /// Header positions whose name an earlier position has: `(earlier, later)`.
    repeated_header: Vec<(usize, usize)>,
    cap: Option<usize>,
}

/// The `inspect_dataset` tool.
pub(crate) fn inspect_dataset(args: Value) -> Result<Value, ToolError> {
    inspect_counting(args, CountLimits::default())
}

/// The tool, its cells counted within `limits` (the tests set them small,
/// so that small data takes every path).
fn inspect_counting(args: Value, limits: CountLimits) -> Result<Value, ToolError> {
    let mut reader = ArgReader::new(args)?;
    let source = reader.row_source();
    let cap = reader.optional_cap("max_listed");
    reader.finish()?;

    let mut columns = Columns::default();
    let mut pass = RowPass { cells: CellCounter::with_limits(limits), structure: Structure::new(cap) };
    let rows = rows::scan(&source, &mut columns, &mut pass)?;
    let RowPass { cells, mut structure } = pass;
    let (cells, late, lines) = cells.finish(columns.names.len(), structure.dense_columns());
    structure.number_late_cells(&late);
    structure.finish(&cells, &lines);
    drop(lines);
    // A JSON row's value, for a distinct cell's first row.
    let value_at = |row: usize, column: usize| match &source {
        RowSource::Rows(rows) => rows.get(row)?.as_object()?.get(&columns.names[column]),
        RowSource::Csv(_) | RowSource::JsonText(_) => None,
    };
    let (tallies, mut profiles): (Vec<TypeTally>, Vec<ValueProfile>) =
        cells.iter().enumerate().map(|(at, cells)| summarise(cells, |row| value_at(row, at), limits, cap)).unzip();
    let totals: Vec<usize> =
        tallies.iter().map(|tally| tally.mixed().map_or(0, |(_, exceptions)| exceptions)).collect();
    if totals.iter().any(|&total| total > 0) {
        let mut exceptions = ExceptionPass { profiles: &mut profiles, totals, row: 0, line: None };
        rows::scan(&source, &mut columns, &mut exceptions)?;
        let ExceptionPass { profiles, totals, .. } = exceptions;
        for (profile, total) in profiles.iter_mut().zip(totals) {
            profile.count_unread_exceptions(total);
        }
    }
    let from_csv = matches!(source, RowSource::Csv(_));
    drop(source);

    let repeated_header = repeated_header(&columns);
    let facts: Vec<ColumnFacts<'_>> = columns
        .names
        .iter()
        .enumerate()
        .map(|(at, name)| ColumnFacts {
            name,
            tally: &tallies[at],
            profile: &profiles[at],
            missing: rows - tallies[at].present,
            unnamable: unnamable(&columns, at, &repeated_header),
        })
        .collect();
    let key_pair = key_pair::key_pair(&facts, &structure, rows);
    let inspection =
        Inspection { rows, from_csv, columns: &columns, facts, key_pair, structure: &structure, repeated_header, cap };
    Ok(report::result(&inspection))
}

/// A column's type tally and profile, from its distinct cells: the type
/// first (every value counted against every candidate, and the text facts
/// that hold whatever the type), then every value read as that type. Both
/// are as if each row's value were read in turn, since each fact depends
/// on the value alone (or, for the first row with blank space or a value,
/// on the order first seen, which the cells keep).
///
/// `first_value` gives a JSON row's value at a row of this column, so that
/// a JSON cell is not read back from its key.
fn summarise<'v, 'c>(
    cells: &'c DistinctCells,
    first_value: impl Fn(usize) -> Option<&'v Value> + Copy,
    limits: CountLimits,
    cap: Option<usize>,
) -> (TypeTally, ValueProfile<'c>) {
    let read = cells.read();
    let mut tally = TypeTally::default();
    let mut text = TextFacts::default();
    read.each(first_value, |seen| {
        tally.add(seen.cell, seen.count);
        text.add(&seen);
    });
    let mut profile = ValueProfile::new(&tally, text, cells, limits, cap);
    if profile.reads_values() {
        read.each(first_value, |seen| profile.add(&seen));
    }
    profile.finish();
    (tally, profile)
}

/// The header positions whose name an earlier position has.
fn repeated_header(columns: &Columns) -> Vec<(usize, usize)> {
    let header = &columns.names[..columns.header_len];
    (0..header.len())
        .filter_map(|at| header[..at].iter().position(|earlier| *earlier == header[at]).map(|first| (first, at)))
        .collect()
}

/// Why no contract can name column `at`, when none can.
fn unnamable(columns: &Columns, at: usize, repeated: &[(usize, usize)]) -> Option<String> {
    let name = &columns.names[at];
    if columns.extra == Some(at) {
        return Some(
            "it holds the fields of CSV records beyond the header (see ragged_records), not a column of the data"
                .into(),
        );
    }
    if let Some((first, _)) = repeated.iter().find(|(_, later)| *later == at) {
        return Some(format!(
            "the CSV header names columns {} and {} both {}; validate_rows refuses the CSV until one is renamed",
            first + 1,
            at + 1,
            crate::py::repr::repr_str(name)
        ));
    }
    if text::strip(name).is_empty() {
        return Some("its name is blank, and a contract names every column it checks".into());
    }
    if text::strip(name) != name {
        return Some(
            "its name begins or ends with blank space, which a contract strips from column names, so a contract \
would name another column"
                .into(),
        );
    }
    None
}

/// What a value of `column_type` is called, for one value or several.
pub(super) fn type_noun(column_type: ColumnType, several: bool) -> &'static str {
    match (column_type, several) {
        (ColumnType::Boolean, false) => "a boolean word (true/false, yes/no, t/f, y/n, 1/0)",
        (ColumnType::Boolean, true) => "boolean words (true/false, yes/no, t/f, y/n, 1/0)",
        (ColumnType::Integer, false) => "an integer",
        (ColumnType::Integer, true) => "integers",
        (ColumnType::Number, false) => "a number",
        (ColumnType::Number, true) => "numbers",
        (ColumnType::Date, false) => "an ISO date",
        (ColumnType::Date, true) => "ISO dates",
        (ColumnType::Datetime, false) => "an ISO datetime",
        (ColumnType::Datetime, true) => "ISO datetimes",
        (ColumnType::String, _) => "text",
        (ColumnType::Any, false) => "a JSON value",
        (ColumnType::Any, true) => "JSON values",
    }
}

/// `n` and the noun for it: `1 row`, `2 rows`.
pub(super) fn counted(n: usize, one: &str, several: &str) -> String {
    format!("{} {}", count_text(n), if n == 1 { one } else { several })
}

/// `n` with thousands separators, as the evidence and messages write counts.
pub(super) fn count_text(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (at, digit) in digits.chars().enumerate() {
        if at > 0 && (digits.len() - at) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// The JSON value an equality key stands for, as the column's type reads
/// it: text as text, integers as integers (beyond 64 bits as the nearest
/// float), dates as ISO text, an aware datetime at UTC.
pub(super) fn key_value(key: &[u8]) -> Option<Value> {
    Some(match read_key(key)? {
        KeyedValue::Text(text) => Value::from(text),
        KeyedValue::Integer(n) => match (i64::try_from(n), u64::try_from(n)) {
            (Ok(n), _) => Value::from(n),
            (_, Ok(n)) => Value::from(n),
            _ => json_safe_float(n as f64),
        },
        KeyedValue::BigInteger(digits) => json_safe_float(digits.parse::<f64>().ok()?),
        KeyedValue::Float(x) => json_safe_float(x),
        KeyedValue::Date(ordinal) => {
            let (y, m, d) = isodate::ord_to_ymd(ordinal);
            Value::from(isodate::iso_date(y, m, d))
        }
        KeyedValue::Datetime { instant, aware } => datetime_text(instant, aware)?,
        KeyedValue::Json(text) => serde_json::from_str(text).ok()?,
    })
}

/// The isoformat of an instant (microseconds from 0001-01-01T00:00), at
/// UTC when it is aware; `None` before year 1.
fn datetime_text(instant: i64, aware: bool) -> Option<Value> {
    isodate::DateTime::from_instant(instant, aware).map(|moment| Value::from(moment.isoformat()))
}

/// A row's locator fields, as every list of this result gives them.
pub(super) fn row_locator(row: usize, line: Option<usize>) -> Map<String, Value> {
    let mut out = object([("row_index", row.into()), ("row_number", (row + 1).into())]);
    if let Some(line) = line {
        out.insert("line".into(), line.into());
    }
    out
}
