//! `validate_rows`: every row is accepted or quarantined, with reasons.
//!
//! Nothing is silently dropped: `accepted + quarantined` is always the number
//! of rows handed in, and a row that is not even an object is quarantined with
//! that as its reason.

use serde_json::{Map, Value};

use crate::args::ArgReader;
use crate::coerce::coerce;
use crate::contract::{parse_columns, Field};
use crate::error::ToolError;
use std::collections::HashSet;

use crate::abridge::Abridgement;
use crate::contract::ColumnType;
use crate::findings::{abridged_envelope, object, verdict, Finding, Locator, Severity, Tally};
use crate::py::format::round_to;
use crate::py::repr::{repr_str, str_of, type_name};
use crate::py::value::{is_blank, present, Cell};
use crate::rules;
use crate::source::{Capped, RowSource, SourceRow};

/// What a row's findings mean for it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum RowVerdict {
    Pass,
    Flag,
    Quarantine,
}

impl RowVerdict {
    /// A quarantining column always quarantines; a flagging one only raises a pass to a flag.
    fn worsen(self, field: &Field) -> RowVerdict {
        if field.quarantines {
            RowVerdict::Quarantine
        } else if self == RowVerdict::Pass {
            RowVerdict::Flag
        } else {
            self
        }
    }
}

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
    accepted: Capped<Value>,
    quarantine: Capped<HeldRow>,
    flagged: Capped<HeldRow>,
    findings: Capped<Finding>,
    by_code: Tally,
    by_column: Tally,
    /// Error codes among quarantined rows' findings, for the guidance.
    quarantine_codes: Tally,
    undeclared_columns: Vec<String>,
    present_columns: HashSet<String>,
    missing_columns: Vec<String>,
}

impl Outcome {
    fn new(cap: Option<usize>) -> Self {
        Outcome {
            rows_in: 0,
            accepted: Capped::new(cap),
            quarantine: Capped::new(cap),
            flagged: Capped::new(cap),
            findings: Capped::new(cap),
            by_code: Tally::default(),
            by_column: Tally::default(),
            quarantine_codes: Tally::default(),
            undeclared_columns: Vec::new(),
            present_columns: HashSet::new(),
            missing_columns: Vec::new(),
        }
    }
}

fn severity_for(field: &Field) -> Severity {
    if field.quarantines {
        Severity::Error
    } else {
        Severity::Warning
    }
}

/// What checking one row found: its findings, what they mean, and the
/// coerced values to write back into the row (by field position).
struct RowCheck {
    findings: Vec<Finding>,
    verdict: RowVerdict,
    coerced: Vec<(usize, Value)>,
}

/// Check one row object against every field.
fn check_row(fields: &[Field], row: &Map<String, Value>, locator: &Locator) -> RowCheck {
    let mut check = RowCheck { findings: Vec::new(), verdict: RowVerdict::Pass, coerced: Vec::new() };

    for (position, field) in fields.iter().enumerate() {
        let at = Locator { column: Some(field.name.clone()), ..locator.clone() };
        let raw = row.get(&field.name).unwrap_or(&Value::Null);
        let severity = severity_for(field);

        if is_blank(raw) {
            if field.required {
                // Reported once as required_blank, not once per rule that cannot judge a blank.
                check.findings.push(
                    Finding::new("required_blank", severity, "is required but blank")
                        .at(at)
                        .expecting("a non-blank value"),
                );
                check.verdict = check.verdict.worsen(field);
                continue;
            }
            let blank = Cell::Json(raw.clone());
            for rule in field.rules.iter().filter(|rule| rule.checks_blank()) {
                if let Some(problem) = rules::check(rule, &blank) {
                    check.findings.push(
                        Finding::new(problem.code, severity, problem.message).at(at.clone()).with_value(present(raw)),
                    );
                    check.verdict = check.verdict.worsen(field);
                }
            }
            continue;
        }

        let value = match coerce(raw, field.column_type) {
            Ok(cell) => cell,
            Err(problem) => {
                check.findings.push(
                    Finding::new(problem.code, severity, problem.message)
                        .at(at)
                        .with_value(Some(raw.clone()))
                        .expecting(format!("a value of type {}", field.column_type.name())),
                );
                check.verdict = check.verdict.worsen(field);
                continue;
            }
        };
        if field.column_type != ColumnType::Any {
            check.coerced.push((position, value.json_safe()));
        }

        for rule in &field.rules {
            if let Some(problem) = rules::check(rule, &value) {
                check.findings.push(
                    Finding::new(problem.code, severity, problem.message)
                        .at(at.clone())
                        .with_value(Some(value.json_safe())),
                );
                check.verdict = check.verdict.worsen(field);
            }
        }
    }
    check
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
        outcome.by_code.add(finding.code);
        if let Some(column) = finding.column() {
            outcome.by_column.add(column);
        }
        if quarantined && finding.severity == Severity::Error {
            outcome.quarantine_codes.add(finding.code);
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
    outcome.quarantine_codes.add("not_an_object");
    if !outcome.quarantine.has_room() {
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
    outcome.quarantine.push(held);
}

fn validate_one(fields: &[Field], row_key: Option<&str>, outcome: &mut Outcome, source_row: SourceRow) {
    outcome.rows_in += 1;
    let SourceRow { index, line, row } = source_row;
    let Value::Object(row) = row else {
        quarantine_non_object(outcome, index, line, row);
        return;
    };

    for column in row.keys() {
        if !outcome.present_columns.contains(column) {
            outcome.present_columns.insert(column.clone());
            if !fields.iter().any(|field| &field.name == column) {
                outcome.undeclared_columns.push(column.clone());
            }
        }
    }

    // An empty row_key quotes nothing, as does a blank text key.
    let key_value = row_key.filter(|key| !key.is_empty()).and_then(|key| row.get(key)).filter(|v| !is_blank(v));
    let locator = Locator { row_index: Some(index), line, row_key: key_value.map(str_of), ..Locator::default() };

    let check = check_row(fields, &row, &locator);
    let quarantined = check.verdict == RowVerdict::Quarantine;
    record_findings(outcome, &check.findings, quarantined);
    match check.verdict {
        RowVerdict::Quarantine if outcome.quarantine.has_room() => {
            let cleaned = cleaned_row(fields, row, check.coerced);
            outcome.quarantine.push(HeldRow::new(locator, cleaned, check.findings));
        }
        RowVerdict::Quarantine => outcome.quarantine.skip(),
        RowVerdict::Flag => {
            let cleaned = cleaned_row(fields, row, check.coerced);
            if outcome.flagged.has_room() {
                outcome.flagged.push(HeldRow::new(locator, cleaned.clone(), check.findings));
            } else {
                outcome.flagged.skip();
            }
            push_accepted(outcome, cleaned);
        }
        RowVerdict::Pass => push_accepted(outcome, cleaned_row(fields, row, check.coerced)),
    }
}

fn push_accepted(outcome: &mut Outcome, cleaned: Value) {
    if outcome.accepted.has_room() {
        outcome.accepted.push(cleaned);
    } else {
        outcome.accepted.skip();
    }
}

fn validate_all(
    fields: &[Field],
    source: RowSource,
    row_key: Option<&str>,
    cap: Option<usize>,
) -> Result<Outcome, ToolError> {
    let mut outcome = Outcome::new(cap);
    source.for_each(|row| validate_one(fields, row_key, &mut outcome, row))?;

    // A required column absent from every row usually means the wrong sheet or
    // header row was read: said once, not once per row.
    let mut missing: Vec<String> = fields
        .iter()
        .filter(|field| field.required && !outcome.present_columns.contains(&field.name))
        .map(|field| field.name.clone())
        .collect();
    missing.sort_unstable();
    outcome.missing_columns = missing;
    Ok(outcome)
}

fn guidance(outcome: &Outcome) -> String {
    let quarantined = outcome.quarantine.total();
    if quarantined > 0 {
        let codes = outcome
            .quarantine_codes
            .sorted()
            .into_iter()
            .map(|(code, count)| format!("{code} ({count})"))
            .collect::<Vec<_>>()
            .join(", ");
        let listed = match outcome.quarantine.omitted() {
            0 => "are listed in `quarantine` with a locator and reasons".to_owned(),
            omitted => format!(
                "{} of them are listed in `quarantine` with a locator and reasons, and {omitted} more are counted in \
`quarantine_omitted` (max_listed)",
                outcome.quarantine.items().len()
            ),
        };
        format!(
            "{quarantined} of {} rows were quarantined and {listed}. \
Failure codes: {codes}. Do not use the accepted rows as if they were the whole dataset: report both counts, \
and resolve or explicitly exclude the quarantined rows before aggregating.",
            outcome.rows_in
        )
    } else if outcome.flagged.total() > 0 {
        let listed = match outcome.flagged.omitted() {
            0 => "listed in `flagged`".to_owned(),
            omitted => format!(
                "({} of them listed in `flagged`, {omitted} more counted in `flagged_omitted`)",
                outcome.flagged.items().len()
            ),
        };
        format!(
            "All {} rows were accepted, but {} carry flagged problems {listed}. They are included in \
`accepted`; decide whether the flagged columns matter for your use before reporting on them.",
            outcome.rows_in,
            outcome.flagged.total()
        )
    } else if outcome.rows_in > 0 {
        format!(
            "All {} rows satisfied the contract. The data is safe to use for anything the contract covers \u{2014} \
note that the contract only covers the columns and rules you supplied.",
            outcome.rows_in
        )
    } else {
        "No rows were supplied, so nothing was verified. This is not a pass.".into()
    }
}

/// The `validate_rows` tool.
pub(crate) fn validate_rows(args: Value) -> Result<Value, ToolError> {
    let mut reader = ArgReader::new(args)?;
    let source = reader.row_source();
    let columns = reader.list("columns");
    let row_key = reader.optional_string("row_key");
    let cap = reader.optional_cap("max_listed");
    reader.finish()?;

    let fields = parse_columns(&columns)?;
    let outcome = validate_all(&fields, source, row_key.as_deref(), cap)?;

    let mut findings: Vec<Finding> = outcome.findings.items().to_vec();
    let mut findings_omitted = outcome.findings.omitted();
    let mut extra = Vec::new();
    if outcome.rows_in == 0 {
        extra.push(
            Finding::new("no_rows", Severity::Info, "no rows were supplied, so nothing was checked")
                .guide("An empty input is not a pass. Confirm the source actually returned data."),
        );
    }
    for column in &outcome.missing_columns {
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
    // The findings list is capped as a whole: row findings first, then these.
    for finding in extra {
        if cap.is_none_or(|cap| findings.len() < cap) {
            findings.push(finding);
        } else {
            findings_omitted += 1;
        }
    }

    let quarantined = outcome.quarantine.total();
    let verdict = if quarantined > 0 {
        verdict::QUARANTINED
    } else if outcome.flagged.total() > 0 {
        verdict::FLAGGED
    } else {
        verdict::CLEAN
    };
    let ok = quarantined == 0 && outcome.rows_in > 0;
    let accepted = outcome.accepted.total();
    let pass_rate = if outcome.rows_in == 0 { 0.0 } else { accepted as f64 / outcome.rows_in as f64 };

    let mut abridgement = Abridgement::new(cap);
    abridgement.note("accepted", outcome.accepted.omitted());
    abridgement.note("quarantine", outcome.quarantine.omitted());
    abridgement.note("flagged", outcome.flagged.omitted());
    if let Some(finding) = abridgement.finding(findings_omitted, outcome.rows_in) {
        findings.push(finding);
    }

    let guidance = guidance(&outcome);
    let payload = object([
        (
            "contract",
            Value::Object(object([
                ("row_key", row_key.clone().map_or(Value::Null, Value::String)),
                ("columns", fields.iter().map(Field::describe).collect()),
            ])),
        ),
        (
            "summary",
            Value::Object(object([
                ("rows_in", outcome.rows_in.into()),
                ("accepted", accepted.into()),
                ("quarantined", quarantined.into()),
                ("flagged", outcome.flagged.total().into()),
                ("pass_rate", round_to(pass_rate, 4).into()),
                ("accounted_for", (accepted + quarantined).into()),
            ])),
        ),
        ("accepted", Value::Array(outcome.accepted.into_items())),
        ("quarantine", outcome.quarantine.into_items().into_iter().map(HeldRow::into_json).collect()),
        ("flagged", outcome.flagged.into_items().into_iter().map(HeldRow::into_json).collect()),
        ("errors_by_column", Value::Object(outcome.by_column.to_json())),
        ("findings_by_code", Value::Object(outcome.by_code.to_json())),
        ("columns_seen", outcome.undeclared_columns.iter().map(|c| Value::from(c.as_str())).collect()),
        ("columns_required_but_absent", outcome.missing_columns.iter().map(|c| Value::from(c.as_str())).collect()),
    ]);
    let payload = abridgement.annotate(payload);
    Ok(abridged_envelope("validate_rows", ok, verdict, &findings, findings_omitted, guidance, payload))
}
