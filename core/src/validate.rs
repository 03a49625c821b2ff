//! `validate_rows`: every row is accepted or quarantined, with reasons.
//!
//! Nothing is silently dropped: `accepted + quarantined` is always the number
//! of rows handed in, and a row that is not even an object is quarantined with
//! that as its reason.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::abridge::Abridgement;
use crate::args::ArgReader;
use crate::arguments::Arguments;
use crate::contract::row_rules::{self, RowRule};
use crate::contract::table::TableRules;
use crate::contract::{parse_columns, Field};
use crate::csv::{CsvRows, RecordRef, EXTRA_FIELDS_KEY};
use crate::error::{ErrorCode, ToolError};
use crate::export::{self, Export, ExportFile, ExportRequest, QuarantineEntry};
use crate::findings::{object, verdict, written_envelope, Finding, Locator, Severity};
use crate::json_rows::{ColumnPositions, JsonCell};
use crate::listing::{self, LeftOut, Listing, PageOutcome};
use crate::output::{ListedItem, Output};
use crate::py::format::round_to;
use crate::py::repr::{repr_str, str_of, type_name};
use crate::py::value::{is_blank, present};
use crate::row_check::{check_row, CodeCount, FullReport, KeepingChanges, RowCells, RowChecks, RowVerdict};
use crate::rows_report::{RowsReport, Tallies};
use crate::schema_in::Contract;
use crate::source::{csv_error, Capped, RowData, RowSource};

/// A row held back (or flagged), with why.
struct HeldRow {
    locator: Locator,
    row: Value,
    reasons: Vec<String>,
    findings: Vec<Finding>,
}

impl HeldRow {
    fn new(locator: Locator, row: Value, findings: Vec<Finding>) -> Self {
        let reasons = findings.iter().map(Finding::as_reason).collect();
        HeldRow { locator, row, reasons, findings }
    }

    /// The row as an export file's `quarantine` entry, by reference.
    fn entry(&self) -> QuarantineEntry<'_> {
        QuarantineEntry { locator: &self.locator, row: &self.row, reasons: &self.reasons, findings: &self.findings }
    }

    fn into_json(self) -> Value {
        Value::Object(object([
            ("locator", Value::Object(self.locator.to_json())),
            ("row", self.row),
            ("reasons", self.reasons.into_iter().map(Value::String).collect()),
            ("findings", self.findings.iter().map(Finding::to_json).collect()),
        ]))
    }
}

/// Everything learned from the rows, accumulated one row at a time: counts
/// and tallies over every row, lists up to the cap.
struct Outcome {
    rows_in: usize,
    /// Accepted rows as trees, or as their text in `accepted_text`.
    accepted: Capped<ListedItem>,
    accepted_text: Vec<u8>,
    quarantine: Capped<HeldRow>,
    flagged: Capped<HeldRow>,
    findings: Capped<Finding>,
    tallies: Tallies,
    /// The keys of the last JSON row whose columns were noted: most rows
    /// repeat them, and then there is nothing new to note.
    last_keys: Vec<String>,
    /// The widest CSV record whose columns were noted.
    widest_record: usize,
    /// The files of an `export`: every row and finding, whatever the lists hold.
    export: Option<Export>,
}

impl Outcome {
    fn new(listing: &Listing, export: Option<Export>) -> Self {
        Outcome {
            rows_in: 0,
            accepted: listing.window("accepted").capped(),
            accepted_text: Vec::new(),
            quarantine: listing.window("quarantine").capped(),
            flagged: listing.window("flagged").capped(),
            findings: listing.window("findings").capped(),
            tallies: Tallies::default(),
            last_keys: Vec::new(),
            widest_record: 0,
            export,
        }
    }

    /// What the rows gave, as the result is written from it (each listed
    /// item as its JSON), and the files of the call's `export`.
    fn into_report(self) -> (RowsReport, Option<Export>) {
        let report = RowsReport {
            rows_in: self.rows_in,
            accepted: self.accepted,
            accepted_text: self.accepted_text,
            quarantine: self.quarantine.map(HeldRow::into_json),
            flagged: self.flagged.map(HeldRow::into_json),
            findings: self.findings.map(|finding| finding.to_json()),
            tallies: self.tallies,
        };
        (report, self.export)
    }

    /// A column seen in a row, noted the first time (and listed in
    /// `columns_seen` when the contract does not declare it).
    fn note_column(&mut self, fields: &[Field], column: &str) {
        if !self.tallies.present_columns.contains(column) {
            self.tallies.present_columns.insert(column.to_owned());
            if !fields.iter().any(|field| field.name == column) {
                self.tallies.undeclared_columns.push(column.to_owned());
            }
        }
    }

    fn note_columns_of_object(&mut self, fields: &[Field], row: &Map<String, Value>) {
        self.note_columns_of_keys(fields, row.keys().map(String::as_str));
    }

    /// As [`Outcome::note_columns_of_object`], for a row object's keys.
    fn note_columns_of_keys<'k>(&mut self, fields: &[Field], keys: impl Iterator<Item = &'k str> + Clone) {
        if keys.clone().eq(self.last_keys.iter().map(String::as_str)) {
            return;
        }
        for column in keys.clone() {
            self.note_column(fields, column);
        }
        self.last_keys = keys.map(str::to_owned).collect();
    }

    /// The columns of a CSV record are a prefix of the header, then
    /// [`EXTRA_FIELDS_KEY`] when it is wider: only a wider record than any
    /// before it has columns not yet noted.
    fn note_columns_of_record(&mut self, fields: &[Field], record: &RecordRef<'_, '_>) {
        let width = record.fields.len();
        if width <= self.widest_record {
            return;
        }
        let header = record.header;
        for column in &header[self.widest_record.min(header.len())..width.min(header.len())] {
            self.note_column(fields, column);
        }
        if width > header.len() {
            self.note_column(fields, EXTRA_FIELDS_KEY);
        }
        self.widest_record = width;
    }

    /// Whether a row with this verdict and these findings will show in any
    /// list of the result (and so must be built and checked in full): a row
    /// outside every list's window (a list not asked for, a row before or
    /// after the page) is only counted.
    fn lists(&self, verdict: RowVerdict, has_findings: bool) -> bool {
        (has_findings && self.findings.has_room())
            || match verdict {
                RowVerdict::Quarantine => self.quarantine.has_room(),
                RowVerdict::Flag => self.flagged.has_room() || self.accepted.has_room(),
                RowVerdict::Pass => self.accepted.has_room(),
            }
    }

    /// Count a row that no list will show, from its counted findings.
    fn count_unlisted(
        &mut self,
        fields: &[Field],
        verdict: RowVerdict,
        found: &[(Option<usize>, &'static str, Severity)],
    ) {
        let quarantined = verdict == RowVerdict::Quarantine;
        for &(position, code, severity) in found {
            self.tallies.by_code.add(code);
            if let Some(field) = position.map(|at| &fields[at]) {
                if !field.name.is_empty() {
                    self.tallies.by_column.add(&field.name);
                }
            }
            if quarantined && severity == Severity::Error {
                self.tallies.quarantine_codes.add(code);
            }
            self.findings.skip();
        }
        match verdict {
            RowVerdict::Quarantine => self.quarantine.skip(),
            RowVerdict::Flag => {
                self.flagged.skip();
                self.accepted.skip();
            }
            RowVerdict::Pass => self.accepted.skip(),
        }
    }
}

/// What one call checks rows with: the contract, and how its cells are
/// read from a CSV record (decided once, at the first record).
struct Plan<'f> {
    checks: RowChecks<'f>,
    row_key: Option<&'f str>,
    records: RecordReading,
    /// Where each field is in JSON row objects of the layout seen last.
    object_positions: ColumnPositions,
    /// The allocation each JSON row's cells are read into, kept empty
    /// between rows (see [`reuse`]).
    json_cells: Vec<JsonCell<'static>>,
    count: CodeCount,
    /// The row's changed values, for a row that may be written from its
    /// text ([`KeepingChanges`]).
    changed: Vec<(usize, Value)>,
}

/// Count a row's findings (in `count`), keeping its changed values (in
/// `changed`) when it `writes`.
fn count_row(
    (checks, count, changed): (&mut RowChecks<'_>, &mut CodeCount, &mut Vec<(usize, Value)>),
    index: usize,
    cells: &RowCells<'_, '_>,
    writes: bool,
) -> RowVerdict {
    count.found.clear();
    if !writes {
        return check_row(checks, index, cells, count);
    }
    changed.clear();
    check_row(checks, index, cells, &mut KeepingChanges { count, changed })
}

/// An empty vector of cells, for cells that borrow from another row's
/// text: the same allocation, so that reading a row's cells allocates
/// nothing. (The standard library collects in place when the items'
/// layout is the same; were it not to, this would give an empty vector.)
fn reuse<'b>(mut cells: Vec<JsonCell<'_>>) -> Vec<JsonCell<'b>> {
    cells.clear();
    cells.into_iter().map(|_| unreachable!("the vector is empty")).collect()
}

impl<'f> Plan<'f> {
    fn new(fields: &'f [Field], table: &'f TableRules, rules: &'f [RowRule], row_key: Option<&'f str>) -> Self {
        Plan {
            checks: RowChecks::new(fields, &table.primary_key, rules),
            row_key,
            records: RecordReading::Undecided,
            object_positions: ColumnPositions::default(),
            json_cells: Vec::new(),
            count: CodeCount::default(),
            changed: Vec::new(),
        }
    }
}

/// How a CSV record's cells are read.
enum RecordReading {
    /// No record has been seen yet.
    Undecided,
    /// From its fields: `positions[i]` is the header column of field `i`.
    /// A record that passes is written from its fields
    /// ([`RecordRef::write_row`]) when the header names no column twice.
    Fields { positions: Vec<Option<usize>>, writable: bool },
    /// Only from its row object: when a column is called
    /// [`EXTRA_FIELDS_KEY`], the object holds the extra fields under that
    /// name, so only the object says what the cell is.
    RowObject,
}

impl RecordReading {
    fn for_header(fields: &[Field], header: &[String]) -> Self {
        let clash = |name: &String| name == EXTRA_FIELDS_KEY;
        if fields.iter().any(|field| clash(&field.name)) || header.iter().any(clash) {
            return RecordReading::RowObject;
        }
        let positions = fields.iter().map(|field| header.iter().position(|column| *column == field.name)).collect();
        let mut names: Vec<&String> = header.iter().collect();
        names.sort_unstable();
        names.dedup();
        RecordReading::Fields { positions, writable: names.len() == header.len() }
    }
}

/// Check one row: counted where no list shows it, built and checked in full where one does.
fn validate_one(plan: &mut Plan<'_>, outcome: &mut Outcome, index: usize, line: Option<usize>, data: RowData<'_, '_>) {
    outcome.rows_in += 1;
    match data {
        RowData::Record(record) => validate_record(plan, outcome, index, line, record),
        data => validate_json(plan, outcome, index, line, data),
    }
}

/// Check a CSV record: counted from its fields where it can be, in full
/// where a list shows it (or where only its row object says what a cell is).
/// (A function of its own, taking the record by value: the count of a
/// record holds nothing to drop.)
fn validate_record(
    plan: &mut Plan<'_>,
    outcome: &mut Outcome,
    index: usize,
    line: Option<usize>,
    record: RecordRef<'_, '_>,
) {
    let fields = plan.checks.fields();
    if let RecordReading::Undecided = plan.records {
        plan.records = RecordReading::for_header(fields, record.header);
    }
    let RecordReading::Fields { positions, writable } = &plan.records else {
        let fields = record.fields;
        validate_in_full(plan, outcome, index, line, (RowData::Record(record), Some(fields)), false);
        return;
    };
    outcome.note_columns_of_record(fields, &record);
    // As a JSON row object read from text, below.
    let writes = *writable && outcome.export.is_none() && outcome.accepted.has_room();
    let cells = RowCells::Record { fields: record.fields, positions };
    let verdict = count_row((&mut plan.checks, &mut plan.count, &mut plan.changed), index, &cells, writes);
    if writes && verdict == RowVerdict::Pass {
        let place = |field: usize| positions[field];
        accept_written(outcome, &mut plan.changed, place, |out, changed| {
            record.write_row(out, changed);
        });
        return;
    }
    if !settle_counted(outcome, fields, verdict, &plan.count.found, Some(record.fields)) {
        let fields = record.fields;
        validate_in_full(plan, outcome, index, line, (RowData::Record(record), Some(fields)), true);
    }
}

/// Check a JSON row: counted from its cells where it is an object, in full
/// where a list shows it (or where it must be read as a tree).
fn validate_json(plan: &mut Plan<'_>, outcome: &mut Outcome, index: usize, line: Option<usize>, data: RowData<'_, '_>) {
    let fields = plan.checks.fields();
    let counted = match &data {
        RowData::Json(Value::Object(row)) => {
            outcome.note_columns_of_object(fields, row);
            Some(count_row(
                (&mut plan.checks, &mut plan.count, &mut plan.changed),
                index,
                &RowCells::Object(row),
                false,
            ))
        }
        // Its cells read from its text; a row whose keys must be read as a
        // tree (escaped or repeated) is checked in full, as it is listed.
        RowData::Object(row) => match row.cells() {
            Some(object) => {
                let known = &mut plan.object_positions;
                if known.refresh(&object, fields.iter().map(|field| field.name.as_str())) {
                    outcome.note_columns_of_keys(fields, object.keys());
                }
                // A row that passes and is listed (not exported) is written
                // from its text, with the values its coercions changed.
                let writes = outcome.export.is_none() && outcome.accepted.has_room();
                let mut cells = reuse(std::mem::take(&mut plan.json_cells));
                cells.extend((0..fields.len()).map(|i| known.cell(&object, i)));
                let verdict = count_row(
                    (&mut plan.checks, &mut plan.count, &mut plan.changed),
                    index,
                    &RowCells::Json(&cells),
                    writes,
                );
                plan.json_cells = reuse(cells);
                if writes && verdict == RowVerdict::Pass {
                    let known = &plan.object_positions;
                    accept_written(
                        outcome,
                        &mut plan.changed,
                        |field| known.member(field),
                        |out, changed| {
                            object.write_compact(out, changed);
                        },
                    );
                    return;
                }
                Some(verdict)
            }
            None => None,
        },
        RowData::Json(_) | RowData::Record(_) => None,
    };
    if let Some(verdict) = counted {
        if settle_counted(outcome, fields, verdict, &plan.count.found, None) {
            return;
        }
    }
    validate_in_full(plan, outcome, index, line, (data, None), counted.is_some());
}

/// Count a row that its counted check (`verdict`, `found`) says no list
/// shows, and say so; `false` when the row must be checked in full (a list
/// shows it, or an export writes it in full). `record` is a CSV record's
/// fields as read, which an export writes as they are.
// Always inlined: called for every row, from two places (with `#[inline]`
// alone it stayed a call, 3.5% of the 1,000,000-row file in the module).
#[allow(clippy::inline_always)]
#[inline(always)]
fn settle_counted(
    outcome: &mut Outcome,
    fields: &[Field],
    verdict: RowVerdict,
    found: &[(Option<usize>, &'static str, Severity)],
    record: Option<&[Cow<'_, str>]>,
) -> bool {
    let has_findings = !found.is_empty();
    let quarantined = verdict == RowVerdict::Quarantine;
    let exported_in_full = outcome.export.as_ref().is_some_and(|e| e.needs_full_row(quarantined, has_findings));
    if exported_in_full || outcome.lists(verdict, has_findings) {
        return false;
    }
    // A clean record an export still writes, as it was read.
    if let (Some(export), Some(fields)) = (&mut outcome.export, record) {
        export.accepted_record(fields);
    }
    outcome.count_unlisted(fields, verdict, found);
    true
}

/// Check a row that a list shows (or that could not be counted) in full,
/// from its row object. Out of line: a few rows of a large table come
/// here, and kept apart, the count every row takes stays a small function.
#[inline(never)]
fn validate_in_full(
    plan: &mut Plan<'_>,
    outcome: &mut Outcome,
    index: usize,
    line: Option<usize>,
    (data, record): (RowData<'_, '_>, Option<&[Cow<'_, str>]>),
    counted: bool,
) {
    let fields = plan.checks.fields();
    let row = data.into_value();
    let Value::Object(row) = row else {
        quarantine_non_object(outcome, index, line, row);
        return;
    };
    if !counted {
        outcome.note_columns_of_object(fields, &row);
    }
    validate_listed(plan, outcome, index, line, (row, record));
}

/// Check a row object the result lists: findings written out, the row cleaned.
///
/// `row` is the row object and, for a CSV record, its fields as read (what
/// an export's CSV files hold).
fn validate_listed(
    plan: &mut Plan<'_>,
    outcome: &mut Outcome,
    index: usize,
    line: Option<usize>,
    (row, record): (Map<String, Value>, Option<&[Cow<'_, str>]>),
) {
    let fields = plan.checks.fields();
    // An empty row_key quotes nothing, as does a blank text key.
    let key_value = plan.row_key.filter(|key| !key.is_empty()).and_then(|key| row.get(key)).filter(|v| !is_blank(v));
    let locator = Locator { row_index: Some(index), line, row_key: key_value.map(str_of), ..Locator::default() };

    let mut report = FullReport::new(locator.clone());
    let verdict = check_row(&mut plan.checks, index, &RowCells::Object(&row), &mut report);
    let FullReport { findings, coerced, .. } = report;
    let quarantined = verdict == RowVerdict::Quarantine;
    record_findings(outcome, &findings, quarantined);
    match verdict {
        RowVerdict::Quarantine if outcome.quarantine.has_room() || outcome.export.is_some() => {
            let held = HeldRow::new(locator, cleaned_row(fields, row, coerced), findings);
            if let Some(export) = &mut outcome.export {
                export.quarantined(record, &held.entry());
            }
            if outcome.quarantine.has_room() {
                outcome.quarantine.push(held);
            } else {
                outcome.quarantine.skip();
            }
        }
        RowVerdict::Quarantine => outcome.quarantine.skip(),
        RowVerdict::Flag => {
            let cleaned = cleaned_row(fields, row, coerced);
            if outcome.flagged.has_room() {
                outcome.flagged.push(HeldRow::new(locator, cleaned.clone(), findings));
            } else {
                outcome.flagged.skip();
            }
            push_accepted(outcome, record, cleaned);
        }
        RowVerdict::Pass => push_accepted(outcome, record, cleaned_row(fields, row, coerced)),
    }
}

/// The row as returned: the input with unambiguous coercions applied.
fn cleaned_row(fields: &[Field], mut row: Map<String, Value>, coerced: Vec<(usize, Value)>) -> Value {
    for (position, value) in coerced {
        row.insert(fields[position].name.clone(), value);
    }
    Value::Object(row)
}

fn record_findings(outcome: &mut Outcome, findings: &[Finding], quarantined: bool) {
    for finding in findings {
        outcome.tallies.by_code.add(finding.code);
        if let Some(column) = finding.column() {
            outcome.tallies.by_column.add(column);
        }
        if quarantined && finding.severity == Severity::Error {
            outcome.tallies.quarantine_codes.add(finding.code);
        }
        if let Some(export) = &mut outcome.export {
            export.finding(finding);
        }
        if outcome.findings.has_room() {
            outcome.findings.push(finding.clone());
        } else {
            outcome.findings.skip();
        }
    }
}

/// A row that is not an object: quarantined with that as its reason. Its
/// finding stays on the row only, as in the reference (not in the tallies).
fn quarantine_non_object(outcome: &mut Outcome, index: usize, line: Option<usize>, row: Value) {
    outcome.tallies.quarantine_codes.add("not_an_object");
    if !outcome.quarantine.has_room() && outcome.export.is_none() {
        outcome.quarantine.skip();
        return;
    }
    let locator = Locator::row(index, line);
    let kind = type_name(&row);
    let finding =
        Finding::new("not_an_object", Severity::Error, format!("row is a {kind}, not an object with named columns"))
            .at(locator.clone())
            .with_value(present(&row));
    let mut held = HeldRow::new(locator, Value::Object(object([("_raw", row)])), vec![finding]);
    held.reasons =
        vec![format!("row is a {kind}, not an object; every row must be a JSON object of column: value pairs")];
    if let Some(export) = &mut outcome.export {
        export.quarantined(None, &held.entry());
    }
    if outcome.quarantine.has_room() {
        outcome.quarantine.push(held);
    } else {
        outcome.quarantine.skip();
    }
}

fn push_accepted(outcome: &mut Outcome, record: Option<&[Cow<'_, str>]>, cleaned: Value) {
    if let Some(export) = &mut outcome.export {
        export.accepted(record, &cleaned);
    }
    if outcome.accepted.has_room() {
        outcome.accepted.push(ListedItem::Tree(cleaned));
    } else {
        outcome.accepted.skip();
    }
}

/// List a row that passed as its text with the values its coercions
/// changed ([`KeepingChanges`], by field): the text `serde_json` would
/// write for the row [`cleaned_row`] makes, with no tree made. `place`
/// says where a field's cell is in the row (a member of a row object, a
/// column of a CSV record); `write` writes the row with the changes there.
fn accept_written(
    outcome: &mut Outcome,
    changed: &mut [(usize, Value)],
    place: impl Fn(usize) -> Option<usize>,
    write: impl FnOnce(&mut Vec<u8>, &[(usize, Value)]),
) {
    // A changed value's cell was not blank, so it is there.
    for (at, _) in changed.iter_mut() {
        *at = place(*at).unwrap_or(usize::MAX);
    }
    let item = ListedItem::written(&mut outcome.accepted_text, |out| write(out, changed));
    outcome.accepted.push(item);
}

/// What [`check_rows`] hands each row to: the call's plan and what the
/// rows so far gave. A type, not a `dyn FnMut`, so that a reader's loop
/// calls [`validate_one`] directly.
struct Checker<'f> {
    plan: Plan<'f>,
    outcome: Outcome,
}

impl Checker<'_> {
    /// Check row `index` (on CSV line `line`).
    fn row(&mut self, index: usize, line: Option<usize>, data: RowData<'_, '_>) {
        validate_one(&mut self.plan, &mut self.outcome, index, line, data);
    }
}

/// Check every row `read` hands over, in order: counts and tallies over
/// all of them, lists up to the call's windows.
fn check_rows<'f>(
    call: &'f Call,
    export: Option<Export>,
    read: impl FnOnce(&mut Checker<'f>) -> Result<(), ToolError>,
) -> Result<Outcome, ToolError> {
    let outcome = Outcome::new(&call.listing, export);
    let plan = Plan::new(&call.fields, &call.table, &call.rules, call.row_key.as_deref());
    let mut checker = Checker { plan, outcome };
    read(&mut checker)?;
    Ok(checker.outcome)
}

/// How the guidance says which quarantined rows the result lists.
fn quarantine_listed(report: &RowsReport, listing: &Listing, page: Option<&PageOutcome>) -> String {
    let listed = report.quarantine.items().len();
    match (report.quarantine.omitted(), listing.left_out("quarantine")) {
        (0, _) => "are listed in `quarantine` with a locator and reasons".to_owned(),
        (omitted, LeftOut::NotAsked) => format!(
            "none of them are listed, since `lists` does not ask for `quarantine`: all {omitted} are counted in \
`quarantine_omitted`"
        ),
        (omitted, LeftOut::Page) => format!(
            "{listed} of them are listed in `quarantine` with a locator and reasons, and {omitted} more are counted \
in `quarantine_omitted` ({})",
            page.map(PageOutcome::describe).unwrap_or_default()
        ),
        (omitted, LeftOut::Cap(_)) => format!(
            "{listed} of them are listed in `quarantine` with a locator and reasons, and {omitted} more are counted in \
`quarantine_omitted` (max_listed)"
        ),
    }
}

/// How the guidance says which flagged rows the result lists.
fn flagged_listed(report: &RowsReport, listing: &Listing, page: Option<&PageOutcome>) -> String {
    let listed = report.flagged.items().len();
    match (report.flagged.omitted(), listing.left_out("flagged")) {
        (0, _) => "listed in `flagged`".to_owned(),
        (omitted, LeftOut::NotAsked) => format!(
            "(none of them listed, since `lists` does not ask for `flagged`; all {omitted} counted in \
`flagged_omitted`)"
        ),
        (omitted, LeftOut::Page) => format!(
            "({listed} of them listed in `flagged`, {omitted} more counted in `flagged_omitted`; {})",
            page.map(PageOutcome::describe).unwrap_or_default()
        ),
        (omitted, LeftOut::Cap(_)) => {
            format!("({listed} of them listed in `flagged`, {omitted} more counted in `flagged_omitted`)")
        }
    }
}

fn guidance(report: &RowsReport, listing: &Listing, page: Option<&PageOutcome>) -> String {
    let quarantined = report.quarantine.total();
    if quarantined > 0 {
        let codes = report
            .tallies
            .quarantine_codes
            .sorted()
            .into_iter()
            .map(|(code, count)| format!("{code} ({count})"))
            .collect::<Vec<_>>()
            .join(", ");
        let listed = quarantine_listed(report, listing, page);
        format!(
            "{quarantined} of {} rows were quarantined and {listed}. \
Failure codes: {codes}. Do not use the accepted rows as if they were the whole dataset: report both counts, \
and resolve or explicitly exclude the quarantined rows before aggregating.",
            report.rows_in
        )
    } else if report.flagged.total() > 0 {
        let listed = flagged_listed(report, listing, page);
        // Under `lists` or `page`, `accepted` may be empty: say what they count as.
        let included = if listing.is_selective() && report.accepted.omitted() > 0 {
            "They count among the accepted rows (`summary.accepted`)"
        } else {
            "They are included in `accepted`"
        };
        format!(
            "All {} rows were accepted, but {} carry flagged problems {listed}. {included}; decide whether the \
flagged columns matter for your use before reporting on them.",
            report.rows_in,
            report.flagged.total()
        )
    } else if report.rows_in > 0 {
        format!(
            "All {} rows satisfied the contract. The data is safe to use for anything the contract covers \u{2014} \
note that the contract only covers the columns and rules you supplied.",
            report.rows_in
        )
    } else {
        "No rows were supplied, so nothing was verified. This is not a pass.".into()
    }
}

/// The table rules' findings, once every row is read: the row count, and
/// for `columns: "exact"` each undeclared column and each declared one
/// absent from the data (a required one is already `required_column_absent`).
fn table_findings(table: &TableRules, fields: &[Field], report: &RowsReport) -> Vec<Finding> {
    let mut findings = Vec::new();
    let rows = report.rows_in;
    let too_few = table.min_rows.is_some_and(|min| rows < min);
    let too_many = table.max_rows.is_some_and(|max| rows > max);
    if too_few || too_many {
        let expected = match (table.min_rows, table.max_rows) {
            (Some(min), Some(max)) => format!("between {min} and {max} rows"),
            (Some(min), None) => format!("at least {min} rows"),
            (None, Some(max)) => format!("at most {max} rows"),
            (None, None) => String::new(),
        };
        findings.push(
            Finding::new("row_count_out_of_range", Severity::Error, format!("the table has {rows} rows, expected {expected}"))
                .with_value(Some(rows.into()))
                .expecting(expected)
                .guide("A table of the wrong size usually means a truncated export, a wrong filter or a join that multiplied rows."),
        );
    }
    if table.exact_columns {
        for column in &report.tallies.undeclared_columns {
            findings.push(
                Finding::new(
                    "undeclared_column",
                    Severity::Error,
                    format!("column {} is in the data but not in the contract, which is exact", repr_str(column)),
                )
                .at(Locator { column: Some(column.clone()), ..Locator::default() })
                .guide("Declare the column, drop it from the data, or leave out table.columns = \"exact\"."),
            );
        }
        for field in
            fields.iter().filter(|field| !field.required && !report.tallies.present_columns.contains(&field.name))
        {
            findings.push(
                Finding::new(
                    "declared_column_absent",
                    Severity::Error,
                    format!("declared column {} is not present in any row", repr_str(&field.name)),
                )
                .at(Locator { column: Some(field.name.clone()), ..Locator::default() }),
            );
        }
    }
    findings
}

/// The outcome of `table.max_quarantined_fraction`.
struct Tolerance {
    limit: f64,
    fraction: f64,
    within: bool,
}

impl Tolerance {
    fn of(table: &TableRules, report: &RowsReport) -> Option<Tolerance> {
        let limit = table.max_quarantined_fraction?;
        let rows = report.rows_in;
        let fraction = if rows == 0 { 0.0 } else { report.quarantine.total() as f64 / rows as f64 };
        Some(Tolerance { limit, fraction, within: rows > 0 && fraction <= limit })
    }
}

/// The guidance, with what the table rules found said first and the
/// tolerance's outcome said last.
fn with_table_guidance(guidance: &str, table_findings: &[Finding], tolerance: Option<&Tolerance>) -> String {
    let mut parts = Vec::new();
    if !table_findings.is_empty() {
        let problems = table_findings.iter().map(|finding| finding.message.as_str()).collect::<Vec<_>>().join("; ");
        parts.push(format!(
            "The table as a whole fails the contract ({problems}), so it is not fit for use whatever its rows say."
        ));
    }
    parts.push(guidance.to_owned());
    if let Some(tolerance) = tolerance {
        let share = |x: f64| format!("{}%", crate::py::format::format_g(round_to(x * 100.0, 4)));
        let stance = if tolerance.within { "within" } else { "beyond" };
        parts.push(format!(
            "The quarantined share, {}, is {stance} the tolerance of {} (table.max_quarantined_fraction); `ok` \
still reports whether any row was quarantined.",
            share(tolerance.fraction),
            share(tolerance.limit)
        ));
    }
    parts.join(" ")
}

/// The contract as parsed, echoed back so a caller can confirm which rules ran.
fn contract_echo(
    row_key: Option<&str>,
    fields: &[Field],
    table: &TableRules,
    rules: &[RowRule],
    mapped_from: Option<&str>,
) -> Map<String, Value> {
    let mut contract = object([
        ("row_key", row_key.map_or(Value::Null, Value::from)),
        ("columns", fields.iter().map(Field::describe).collect()),
    ]);
    if let Some(described) = table.describe(fields) {
        contract.insert("table".into(), described);
    }
    if !rules.is_empty() {
        contract.insert("row_rules".into(), rules.iter().map(RowRule::describe).collect());
    }
    if let Some(standard) = mapped_from {
        contract.insert("schema_mapped_from".into(), standard.into());
    }
    contract
}

/// The findings the result lists: the row findings (as `findings` is
/// windowed), then those about the table as a whole, capped with them by
/// `max_listed`. When `lists` leaves out `findings`, the row findings are
/// left out (each is on its row in `quarantine` or `flagged`) and the
/// whole-table ones are all listed. Returns them and how many are left out.
fn listed_findings(row_findings: Capped<Value>, extra: &[Finding], listing: &Listing) -> (Vec<Value>, usize) {
    let mut findings_omitted = row_findings.omitted();
    let mut findings = row_findings.into_items();
    let cap = listing.cap.filter(|_| listing.returns("findings"));
    for finding in extra {
        if cap.is_none_or(|cap| findings.len() < cap) {
            findings.push(finding.to_json());
        } else {
            findings_omitted += 1;
        }
    }
    (findings, findings_omitted)
}

/// The findings about the input as a whole: no rows, required columns
/// absent from every row (the table rules' findings follow them).
fn whole_input_findings(report: &RowsReport, missing_columns: &[String]) -> Vec<Finding> {
    let mut extra = Vec::new();
    if report.rows_in == 0 {
        extra.push(
            Finding::new("no_rows", Severity::Info, "no rows were supplied, so nothing was checked")
                .guide("An empty input is not a pass. Confirm the source actually returned data."),
        );
    }
    for column in missing_columns {
        extra.push(
            Finding::new(
                "required_column_absent",
                Severity::Error,
                format!("required column {} is not present in any row", repr_str(column)),
            )
            .guide(
                "Check the sheet name, the header row, and the column spelling before reading anything into the \
validation result.",
            ),
        );
    }
    extra
}

/// The length of the list a page walks.
fn paged_total(report: &RowsReport, list: &str) -> usize {
    match list {
        "accepted" => report.accepted.total(),
        "flagged" => report.flagged.total(),
        _ => report.quarantine.total(),
    }
}

/// The `validate_rows` tool, in a runtime that writes no files (`export`
/// is refused).
pub(crate) fn validate_rows(args: Arguments) -> Result<Output, ToolError> {
    validate_rows_exporting(args, false).map(|(result, _)| result)
}

/// The files of an `export`, for a CSV or a JSON input.
fn export_for(request: ExportRequest, source: &RowSource) -> Export {
    match source.csv_header() {
        Some(header) => Export::csv(request, &header),
        None => Export::jsonl(request),
    }
}

/// A `validate_rows` call's arguments, read and checked (all but its rows).
struct Call {
    fields: Vec<Field>,
    table: TableRules,
    rules: Vec<RowRule>,
    row_key: Option<String>,
    listing: Listing,
    /// The standard a `schema` was mapped from.
    mapped_from: Option<&'static str>,
}

impl Call {
    /// Read the arguments: the call, its rows, and the files of its
    /// `export` when `exporting` (the host writes files; otherwise `export`
    /// is an argument error).
    fn bind(args: Arguments, exporting: bool) -> Result<(Call, RowSource, Option<Export>), ToolError> {
        let mut reader = ArgReader::of_arguments(args)?;
        let source = reader.row_source();
        let contract = reader.list_or_other("columns", "schema");
        let row_key = reader.optional_string("row_key");
        let cap = reader.optional_cap("max_listed");
        let (lists, page) = (reader.optional_any("lists"), reader.optional_any("page"));
        let table = reader.optional_any("table");
        let row_rules = reader.optional_any("row_rules");
        let export = reader.optional_any("export").filter(|export| !export.is_null());
        reader.finish()?;
        let export = match export {
            Some(_) if !exporting => return Err(export::refusal()),
            Some(export) => Some(export_for(ExportRequest::parse(export)?, &source)),
            None => None,
        };

        let given = Contract::resolve(contract, table)?;
        let mut fields = given.relocate(parse_columns(&given.columns))?;
        let table = given.relocate(TableRules::parse(given.table.clone(), &mut fields))?;
        let rules = row_rules::parse(row_rules, &fields)?;
        let listing = Listing::parse(&listing::VALIDATE_ROWS, cap, lists, page)?;
        let call = Call { fields, table, rules, row_key, listing, mapped_from: given.mapped_from() };
        Ok((call, source, export))
    }

    /// Whether each row is checked alone, so that the report of the whole
    /// is the merge of its parts' reports (`rows_report.rs`): nothing looks
    /// across rows (`unique`, a primary key), and every list keeps its
    /// first items (no page).
    fn checks_rows_alone(&self) -> bool {
        self.table.primary_key.is_empty()
            && !self.fields.iter().any(|field| field.unique)
            && self.listing.page.is_none()
    }

    /// The result of the call, from what its rows gave; with the files of
    /// its `export`, if it has one.
    fn result(&self, mut report: RowsReport, mut export: Option<Export>) -> (Output, Vec<ExportFile>) {
        let listing = &self.listing;
        // A required column absent from every row usually means the wrong sheet or
        // header row was read: said once, not once per row.
        let mut missing_columns: Vec<String> = self
            .fields
            .iter()
            .filter(|field| field.required && !report.tallies.present_columns.contains(&field.name))
            .map(|field| field.name.clone())
            .collect();
        missing_columns.sort_unstable();
        let mut extra = whole_input_findings(&report, &missing_columns);
        let table_findings = table_findings(&self.table, &self.fields, &report);
        extra.extend(table_findings.iter().cloned());
        if let Some(export) = &mut export {
            for finding in &extra {
                export.finding(finding);
            }
        }
        let row_findings = std::mem::replace(&mut report.findings, Capped::new(None));
        let (mut findings, findings_omitted) = listed_findings(row_findings, &extra, listing);

        let quarantined = report.quarantine.total();
        let table_fails = !table_findings.is_empty();
        let verdict = if quarantined > 0 {
            verdict::QUARANTINED
        } else if table_fails {
            verdict::TABLE_REJECTED
        } else if report.flagged.total() > 0 {
            verdict::FLAGGED
        } else {
            verdict::CLEAN
        };
        let ok = quarantined == 0 && report.rows_in > 0 && !table_fails;
        let accepted = report.accepted.total();
        let pass_rate = if report.rows_in == 0 { 0.0 } else { accepted as f64 / report.rows_in as f64 };

        let mut abridgement = Abridgement::for_listing(listing);
        abridgement.note("accepted", report.accepted.omitted());
        abridgement.note("quarantine", report.quarantine.omitted());
        abridgement.note("flagged", report.flagged.omitted());
        if let Some(page) = listing.page {
            abridgement.paged(paged_total(&report, page.list));
        }
        if let Some(finding) = abridgement.finding(findings_omitted, report.rows_in) {
            findings.push(finding.to_json());
        }

        let tolerance = Tolerance::of(&self.table, &report);
        let guidance = guidance(&report, listing, abridgement.page());
        let mut guidance = with_table_guidance(&guidance, &table_findings, tolerance.as_ref());
        let export = export.map(|export| {
            guidance = format!("{guidance} {}", export.sentence());
            export.finish()
        });
        let contract = contract_echo(self.row_key.as_deref(), &self.fields, &self.table, &self.rules, self.mapped_from);
        let (accepted_listed, _) = report.take_accepted();
        let mut summary = object([
            ("rows_in", report.rows_in.into()),
            ("accepted", accepted.into()),
            ("quarantined", quarantined.into()),
            ("flagged", report.flagged.total().into()),
            ("pass_rate", round_to(pass_rate, 4).into()),
            ("accounted_for", (accepted + quarantined).into()),
        ]);
        if let Some(tolerance) = &tolerance {
            summary.insert("quarantined_fraction".into(), round_to(tolerance.fraction, 4).into());
            summary.insert("within_tolerance".into(), tolerance.within.into());
        }
        let payload = object([
            ("contract", Value::Object(contract)),
            ("summary", Value::Object(summary)),
            // Written from the list, in its place (`output.rs`).
            ("accepted", Value::Null),
            ("quarantine", Value::Array(report.quarantine.into_items())),
            ("flagged", Value::Array(report.flagged.into_items())),
            ("errors_by_column", Value::Object(report.tallies.by_column.to_json())),
            ("findings_by_code", Value::Object(report.tallies.by_code.to_json())),
            ("columns_seen", report.tallies.undeclared_columns.iter().map(|c| Value::from(c.as_str())).collect()),
            ("columns_required_but_absent", missing_columns.iter().map(|c| Value::from(c.as_str())).collect()),
        ]);
        let mut payload = abridgement.annotate(payload);
        let files = match export {
            Some((echo, files)) => {
                payload.insert("export".into(), echo);
                files
            }
            None => Vec::new(),
        };
        let body = written_envelope("validate_rows", ok, verdict, findings, findings_omitted, guidance, payload);
        (Output::from(body).with_list("accepted", accepted_listed), files)
    }
}

/// The `validate_rows` tool. When `exporting` (the host writes files), a
/// call with `export` also gets the files of its whole split; otherwise
/// `export` is an argument error.
pub(crate) fn validate_rows_exporting(
    args: Arguments,
    exporting: bool,
) -> Result<(Output, Vec<ExportFile>), ToolError> {
    let (call, source, export) = Call::bind(args, exporting)?;
    let outcome = check_rows(&call, export, |checker| {
        source.for_each(|index, line, data| checker.row(index, line, data)).map(drop)
    })?;
    let (report, export) = outcome.into_report();
    Ok(call.result(report, export))
}

/// The longest lists a call checked in parts may keep. The merge reads
/// every part's kept items: a few thousand at most is a millisecond, but
/// an uncapped call's parts would each carry, and the merge read and write
/// again, all of their rows, which costs more than the parts save.
const PARTS_MAX_LISTED: usize = 1_000;

/// Whether a `validate_rows` call may be checked in parts of its rows
/// ([`validate_rows_part`]) and merged ([`validate_rows_merged`]) to the
/// same result, and is worth it: its arguments are valid, each row is
/// checked alone, and `max_listed` keeps its lists short (the server's
/// default is 25). Never for an `export`.
pub(crate) fn checks_in_parts(args: Arguments) -> bool {
    match Call::bind(args, false) {
        Ok((call, _, None)) => call.checks_rows_alone() && call.listing.cap.is_some_and(|cap| cap <= PARTS_MAX_LISTED),
        _ => false,
    }
}

/// Check one part of a call's rows, for [`validate_rows_merged`]: a part
/// of a `rows` array is `args`' rows; a part of CSV text is `args`' `csv`,
/// which is the text's start (header and first records) when `head` is
/// `None`, or else records only, following the header that `head` (the
/// text's first lines) starts with. Returns the
/// part's report as JSON (`rows_report.rs`), or an argument error, also
/// when the part cannot be read as a part: its last record does not end at
/// its end (a part must end with a line break outside quotes) or `head`
/// does not hold the whole header. A caller then checks the whole text at
/// once, which says what is wrong where, if anything is.
pub(crate) fn validate_rows_part(args: Arguments, head: Option<&str>) -> Result<Value, ToolError> {
    let (call, source, _) = Call::bind(args, false)?;
    if !call.checks_rows_alone() {
        return Err(ToolError::for_argument(
            ErrorCode::InvalidArgument,
            "rows",
            "this call cannot be checked in parts",
        ));
    }
    let text = match (source, head) {
        (RowSource::Csv(text), _) => text,
        // A part of a `rows` array is those rows, read as any rows are.
        (source, None) => {
            let outcome = check_rows(&call, None, |checker| {
                source.for_each(|index, line, data| checker.row(index, line, data)).map(drop)
            })?;
            return Ok(outcome.into_report().0.into_part(0));
        }
        (_, Some(_)) => {
            return Err(ToolError::for_argument(ErrorCode::InvalidArgument, "rows", "a head is for a part of CSV text"))
        }
    };
    let mut reader = match head {
        None => CsvRows::new(&text),
        Some(head) => CsvRows::continuing(head, &text),
    }
    .map_err(csv_error)?;
    let first_line = reader.line();
    let outcome = check_rows(&call, None, |checker| {
        let mut index = 0;
        while let Some((line, record)) = reader.next_record_ref().map_err(csv_error)? {
            checker.row(index, Some(line), RowData::Record(record));
            index += 1;
        }
        Ok(())
    })?;
    let lines = reader.line() - first_line;
    Ok(outcome.into_report().0.into_part(lines))
}

/// The result of a call checked in parts: `parts` are the reports of its
/// rows' parts, in order, from [`validate_rows_part`]; `args` are the
/// call's arguments (without its rows). The same result, byte for byte, as
/// checking the whole text at once.
pub(crate) fn validate_rows_merged(args: Arguments, parts: Vec<Value>) -> Result<Output, ToolError> {
    let (call, _, _) = Call::bind(args, false)?;
    let mut report = RowsReport::empty(&call.listing);
    let mut lines = 0;
    for part in parts {
        lines += report
            .absorb_part(part, lines)
            .map_err(|message| ToolError::for_argument(ErrorCode::InvalidArgument, "parts", message))?;
    }
    Ok(call.result(report, None).0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_read_into_the_allocation_of_the_row_before() {
        // `reuse` is worth having only if the standard library collects in
        // place: a row's cells would otherwise be a new allocation each.
        let text = String::from("x");
        let mut cells: Vec<JsonCell<'_>> = Vec::with_capacity(8);
        cells.push(JsonCell::Text(Cow::Borrowed(&text)));
        let before = cells.as_ptr() as usize;
        let reused: Vec<JsonCell<'static>> = reuse(cells);
        assert!(reused.is_empty());
        assert_eq!((reused.as_ptr() as usize, reused.capacity()), (before, 8));
    }
}
