//! The findings that hold whatever the contract, the verdict, the guidance,
//! and the result as a whole.
//!
//! Each finding has a stable code: `repeated_header` (error: `validate_rows`
//! refuses such a CSV), `unnamed_column` and `column_name_whitespace`
//! (warnings: no contract can name the column), `not_an_object` (error:
//! `validate_rows` quarantines such a row whatever the contract),
//! `ragged_records` (error: a field may sit under the wrong column),
//! `duplicate_rows`, `blank_column`, `mixed_types`, `surrounding_whitespace`
//! (warnings), `no_rows` and `no_columns` (warnings: nothing was drafted),
//! and `result_abridged` (info). The verdict is `clean` when no finding is
//! a warning or an error, else `review_required`; `ok` is true when clean.

use serde_json::Value;

use super::describe;
use super::draft::{self, ColumnFacts};
use super::{count_text, counted, type_noun, Inspection};
use crate::abridge::Abridgement;
use crate::findings::{abridged_envelope, object, verdict, Finding, Locator, Severity, Tally};
use crate::py::repr::{repr, repr_str};
use crate::source::cap_vec;

fn at_column(name: &str) -> Locator {
    Locator { column: Some(name.to_owned()), ..Locator::default() }
}

fn at_row(row: usize, line: Option<usize>, column: Option<&str>) -> Locator {
    Locator { column: column.map(str::to_owned), ..Locator::row(row, line) }
}

/// The findings about the header and the rows.
fn table_findings(inspection: &Inspection<'_>, out: &mut Vec<Finding>) {
    let names = &inspection.columns.names;
    for &(first, later) in &inspection.repeated_header {
        let message = format!(
            "the csv header repeats the column name {} (columns {} and {}); validate_rows refuses this CSV until one \
is renamed",
            repr_str(&names[later]),
            first + 1,
            later + 1
        );
        out.push(
            Finding::new("repeated_header", Severity::Error, message)
                .at(at_column(&names[later]))
                .guide("Rename one of the columns in the header; no contract can be checked against this CSV before."),
        );
    }
    for facts in inspection.facts.iter().filter(|facts| facts.unnamable.is_some()) {
        let blank = crate::py::text::strip(facts.name).is_empty();
        let (code, what) = if blank {
            ("unnamed_column", "has a blank name")
        } else if crate::py::text::strip(facts.name) != facts.name {
            ("column_name_whitespace", "has a name that begins or ends with blank space")
        } else {
            continue;
        };
        let message = format!(
            "column {} {what}, which no contract can name, so it is left out of the suggested contract",
            repr_str(facts.name)
        );
        out.push(Finding::new(code, Severity::Warning, message).at(at_column(facts.name)));
    }
    row_findings(inspection, out);
}

fn row_findings(inspection: &Inspection<'_>, out: &mut Vec<Finding>) {
    let structure = inspection.structure;
    if let Some(first) = &structure.first_not_object {
        let message = format!(
            "{} (the first is row {}, a {}); validate_rows quarantines such a row whatever the contract",
            counted(structure.not_objects, "row is not an object", "rows are not objects"),
            first.row + 1,
            first.kind
        );
        out.push(Finding::new("not_an_object", Severity::Error, message).at(Locator::row(first.row, None)));
    }
    if let Some(first) = &structure.first_ragged {
        let message = format!(
            "{} not have the header's {} fields (the first, on line {}, has {}): fields may sit under the wrong \
columns; fields beyond the header are kept under \"_extra\", missing ones read as absent",
            counted(structure.ragged.total(), "record does", "records do"),
            inspection.columns.header_len,
            first.line.unwrap_or_default(),
            first.fields
        );
        out.push(
            Finding::new("ragged_records", Severity::Error, message).at(at_row(first.row, first.line, None)).guide(
                "Fix the export (an unquoted comma, a missing field) before trusting any column of these records.",
            ),
        );
    }
    if let Some(first) = &structure.first_repeat {
        let message = format!(
            "{} an earlier row in every column (the first, row {}, repeats row {})",
            counted(structure.repeats.total(), "row repeats", "rows repeat"),
            first.row + 1,
            first.first + 1
        );
        let locator = Locator { first_row_index: Some(first.first), ..Locator::row(first.row, first.line) };
        out.push(
            Finding::new("duplicate_rows", Severity::Warning, message)
                .at(locator)
                .guide("No rule of a contract fails a repeated row; decide whether the repeats are real before counting or summing."),
        );
    }
}

/// The findings about one column's values.
fn column_findings(facts: &ColumnFacts<'_>, rows: usize, out: &mut Vec<Finding>) {
    let (tally, profile) = (facts.tally, facts.profile);
    if rows > 0 && tally.non_blank == 0 {
        let message = format!(
            "column {} is blank on every row ({} blank, {} missing)",
            repr_str(facts.name),
            count_text(tally.blank),
            count_text(facts.missing)
        );
        out.push(Finding::new("blank_column", Severity::Warning, message).at(at_column(facts.name)));
    }
    if let (Some((near, fails)), Some(first)) = (tally.mixed(), profile.first_exceptions.first()) {
        let listed = &profile.first_exceptions;
        let rows_named = listed.iter().map(|e| (e.row + 1).to_string()).collect::<Vec<_>>().join(", ");
        let values = listed.iter().map(|e| repr(&e.value)).collect::<Vec<_>>().join(", ");
        let more = if fails > listed.len() { ", ..." } else { "" };
        let (rows_word, verb) = if fails == 1 { ("row", "is") } else { ("rows", "are") };
        let message = format!(
            "column {}: {} of {} non-blank values are {} and {} {verb} not ({rows_word} {rows_named}{more}: \
{values}{more})",
            repr_str(facts.name),
            count_text(tally.non_blank - fails),
            count_text(tally.non_blank),
            type_noun(near, true),
            count_text(fails)
        );
        out.push(
            Finding::new("mixed_types", Severity::Warning, message)
                .at(at_row(first.row, first.line, Some(facts.name)))
                .with_value(Some(listed.iter().map(|e| e.value.clone()).collect()))
                .expecting(format!("a value of type {}", near.name()))
                .guide("Correct or blank the exceptions, and the column takes the narrower type; the draft keeps the wider one so every row passes."),
        );
    }
    if let Some((row, line)) = profile.first_padded {
        let message = format!(
            "column {}: {} or end with blank space (the first on row {}); a typed column reads such a value \
stripped, a string column compares it as written",
            repr_str(facts.name),
            counted(profile.padded, "value begins", "values begin"),
            row + 1
        );
        out.push(Finding::new("surrounding_whitespace", Severity::Warning, message).at(at_row(
            row,
            line,
            Some(facts.name),
        )));
    }
}

/// The guidance: what was profiled, what needs review, and what the draft is.
fn guidance(inspection: &Inspection<'_>, review: &Tally, drafted: bool) -> String {
    if inspection.rows == 0 {
        return "No rows were supplied, so nothing was profiled and no contract was drafted. This is not a pass."
            .into();
    }
    let mut parts = vec![format!(
        "Profiled {} and {}.",
        counted(inspection.rows, "row", "rows"),
        counted(inspection.columns.names.len(), "column", "columns")
    )];
    let codes = review.sorted();
    if !codes.is_empty() {
        let listed = codes.iter().map(|(code, count)| format!("{code} ({count})")).collect::<Vec<_>>().join(", ");
        parts.push(format!("Review these findings before using the data: {listed}."));
    }
    if drafted {
        parts.push(
            "suggested_contract passes validate_rows on this data as given (its columns and table go to validate_rows \
unchanged; table_schema is the same contract as a Frictionless Table Schema, for its schema argument). It states only \
what every row shows, each rule with its evidence, and no bound copied from the sample: review it before adopting it \
as the data's contract, since it describes this sample, not the rules of its source."
                .to_owned(),
        );
    } else {
        parts.push("No column can be named by a contract, so no contract was drafted.".to_owned());
    }
    let structure = inspection.structure;
    if structure.not_objects > 0 || !inspection.repeated_header.is_empty() {
        parts.push(
            "Whatever the contract, validate_rows will quarantine the rows that are not objects and refuse a CSV whose \
header repeats a name: fix those first."
                .to_owned(),
        );
    }
    parts.join(" ")
}

/// The whole result.
pub(super) fn result(inspection: &Inspection<'_>) -> Value {
    let (rows, cap) = (inspection.rows, inspection.cap);
    let mut findings = Vec::new();
    table_findings(inspection, &mut findings);
    for facts in &inspection.facts {
        column_findings(facts, rows, &mut findings);
    }
    let drafted = draft::draft(&inspection.facts, rows, inspection.key_pair);
    if rows == 0 {
        findings.push(Finding::new(
            "no_rows",
            Severity::Warning,
            "no rows were supplied, so nothing was profiled and no contract was drafted",
        ));
    } else if drafted.is_none() {
        let message = "the rows have no column a contract can name, so no contract was drafted";
        findings.push(Finding::new("no_columns", Severity::Warning, message));
    }
    let mut review = Tally::default();
    for finding in findings.iter().filter(|finding| finding.severity != Severity::Info) {
        review.add(finding.code);
    }
    let ok = review.sorted().is_empty();
    let guidance = guidance(inspection, &review, drafted.is_some());
    let findings_omitted = cap_vec(&mut findings, cap);

    let structure = inspection.structure;
    let mut key_candidates: Vec<Value> =
        inspection.facts.iter().filter(|facts| facts.is_key_candidate(rows)).map(|facts| facts.name.into()).collect();
    let mut profiles: Vec<Value> = inspection
        .facts
        .iter()
        .take(cap.unwrap_or(usize::MAX))
        .map(|facts| describe::column(facts, rows, cap))
        .collect();
    let columns_omitted = inspection.facts.len() - profiles.len();
    let mut abridgement = Abridgement::new(cap);
    abridgement.note("ragged_records", structure.ragged.omitted());
    abridgement.note("duplicate_rows", structure.repeats.omitted());
    abridgement.note("key_candidates", cap_vec(&mut key_candidates, cap));
    abridgement.note("columns", columns_omitted);
    let exceptions_omitted: usize =
        inspection.facts.iter().take(profiles.len()).map(|f| f.profile.exceptions.omitted()).sum();
    abridgement.mention("exceptions", exceptions_omitted);
    if let Some(finding) = abridgement.finding(findings_omitted, rows) {
        findings.push(finding);
    }
    profiles.shrink_to_fit();

    let header_len = inspection.columns.header_len;
    let summary = object([
        ("rows", rows.into()),
        ("columns", inspection.columns.names.len().into()),
        ("source", (if inspection.from_csv { "csv" } else { "rows" }).into()),
        ("ragged_records", structure.ragged.total().into()),
        ("duplicate_rows", structure.repeats.total().into()),
        ("rows_not_objects", structure.not_objects.into()),
    ]);
    let (contract, table_schema, evidence) = match drafted {
        Some(draft) => (draft.contract, draft.table_schema, draft.evidence),
        None => (Value::Null, Value::Null, Value::Null),
    };
    let payload = object([
        ("summary", Value::Object(summary)),
        ("ragged_records", structure.ragged.items().iter().map(|r| r.describe(header_len)).collect()),
        ("duplicate_rows", structure.repeats.items().iter().map(|r| r.describe()).collect()),
        ("key_candidates", Value::Array(key_candidates)),
        ("columns", Value::Array(profiles)),
        ("suggested_contract", contract),
        ("table_schema", table_schema),
        ("evidence", evidence),
    ]);
    let payload = abridgement.annotate(payload);
    let verdict = if ok { verdict::CLEAN } else { verdict::REVIEW_REQUIRED };
    abridged_envelope("inspect_dataset", ok, verdict, &findings, findings_omitted, guidance, payload).into_value()
}
