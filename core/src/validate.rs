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
use crate::findings::{count_by_code, count_by_column, envelope, object, tally, verdict, Finding, Locator, Severity};
use crate::py::format::round_to;
use crate::py::repr::{repr_str, str_of, type_name};
use crate::py::value::{is_blank, present, Cell};
use crate::rules;

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

    fn to_json(&self) -> Value {
        Value::Object(object([
            ("locator", Value::Object(self.locator.to_json())),
            ("row", self.row.clone()),
            ("reasons", self.reasons.iter().map(|r| Value::from(r.as_str())).collect()),
            ("findings", self.findings.iter().map(Finding::to_json).collect()),
        ]))
    }
}

#[derive(Default)]
struct Outcome {
    accepted: Vec<Value>,
    quarantine: Vec<HeldRow>,
    flagged: Vec<HeldRow>,
    findings: Vec<Finding>,
    rows_in: usize,
    undeclared_columns: Vec<String>,
    missing_columns: Vec<String>,
}

fn severity_for(field: &Field) -> Severity {
    if field.quarantines {
        Severity::Error
    } else {
        Severity::Warning
    }
}

/// Check one row object against every field; returns the cleaned row (with
/// unambiguous coercions applied), its findings and what they mean.
fn validate_row(fields: &[Field], row: &Map<String, Value>, locator: &Locator) -> (Map<String, Value>, Vec<Finding>, RowVerdict) {
    let mut cleaned = row.clone();
    let mut findings = Vec::new();
    let mut verdict = RowVerdict::Pass;

    for field in fields {
        let at = Locator { column: Some(field.name.clone()), ..locator.clone() };
        let raw = row.get(&field.name).unwrap_or(&Value::Null);
        let severity = severity_for(field);

        if is_blank(raw) {
            if field.required {
                // Reported once as required_blank, not once per rule that cannot judge a blank.
                findings.push(
                    Finding::new("required_blank", severity, "is required but blank")
                        .at(at)
                        .expecting("a non-blank value"),
                );
                verdict = verdict.worsen(field);
                continue;
            }
            let blank = Cell::Json(raw.clone());
            for rule in field.rules.iter().filter(|rule| rule.checks_blank()) {
                if let Some(problem) = rules::check(rule, &blank) {
                    findings.push(Finding::new(problem.code, severity, problem.message).at(at.clone()).with_value(present(raw)));
                    verdict = verdict.worsen(field);
                }
            }
            continue;
        }

        let value = match coerce(raw, field.column_type) {
            Ok(cell) => cell,
            Err(problem) => {
                findings.push(
                    Finding::new(problem.code, severity, problem.message)
                        .at(at)
                        .with_value(Some(raw.clone()))
                        .expecting(format!("a value of type {}", field.column_type.name())),
                );
                verdict = verdict.worsen(field);
                continue;
            }
        };
        if field.column_type != crate::contract::ColumnType::Any {
            cleaned.insert(field.name.clone(), value.json_safe());
        }

        for rule in &field.rules {
            if let Some(problem) = rules::check(rule, &value) {
                findings.push(
                    Finding::new(problem.code, severity, problem.message).at(at.clone()).with_value(Some(value.json_safe())),
                );
                verdict = verdict.worsen(field);
            }
        }
    }
    (cleaned, findings, verdict)
}

fn validate_all(fields: &[Field], rows: &[Value], row_key: Option<&str>) -> Outcome {
    let mut outcome = Outcome::default();
    let mut present_columns: std::collections::HashSet<&str> = std::collections::HashSet::new();
    let mut undeclared_seen: std::collections::HashSet<&str> = std::collections::HashSet::new();

    for (index, row) in rows.iter().enumerate() {
        outcome.rows_in += 1;
        let Value::Object(row) = row else {
            let locator = Locator::row(index);
            let kind = type_name(row);
            let finding = Finding::new("not_an_object", Severity::Error, format!("row is a {kind}, not an object with named columns"))
                .at(locator.clone())
                .with_value(present(row));
            let mut held = HeldRow::new(locator, Value::Object(object([("_raw", row.clone())])), vec![finding]);
            held.reasons = vec![format!(
                "row is a {kind}, not an object; every row must be a JSON object of column: value pairs"
            )];
            outcome.quarantine.push(held);
            continue;
        };

        for column in row.keys() {
            present_columns.insert(column);
            if !fields.iter().any(|field| &field.name == column) && undeclared_seen.insert(column) {
                outcome.undeclared_columns.push(column.clone());
            }
        }

        // An empty row_key quotes nothing, as does a blank text key.
        let key_value = row_key.filter(|key| !key.is_empty()).and_then(|key| row.get(key)).filter(|v| !is_blank(v));
        let locator = Locator { row_index: Some(index), row_key: key_value.map(str_of), ..Locator::default() };

        let (cleaned, findings, verdict) = validate_row(fields, row, &locator);
        outcome.findings.extend(findings.iter().cloned());
        let cleaned = Value::Object(cleaned);
        match verdict {
            RowVerdict::Quarantine => outcome.quarantine.push(HeldRow::new(locator, cleaned, findings)),
            RowVerdict::Flag => {
                outcome.flagged.push(HeldRow::new(locator, cleaned.clone(), findings));
                outcome.accepted.push(cleaned);
            }
            RowVerdict::Pass => outcome.accepted.push(cleaned),
        }
    }

    // A required column absent from every row usually means the wrong sheet or
    // header row was read: said once, not once per row.
    let mut missing: Vec<String> = fields
        .iter()
        .filter(|field| field.required && !present_columns.contains(field.name.as_str()))
        .map(|field| field.name.clone())
        .collect();
    missing.sort_unstable();
    outcome.missing_columns = missing;
    outcome
}

fn guidance(outcome: &Outcome) -> String {
    let quarantined = outcome.quarantine.len();
    if quarantined > 0 {
        let codes = tally(
            outcome
                .quarantine
                .iter()
                .flat_map(|held| held.findings.iter())
                .filter(|finding| finding.severity == Severity::Error)
                .map(|finding| finding.code),
        );
        let codes = codes.iter().map(|(code, count)| format!("{code} ({count})")).collect::<Vec<_>>().join(", ");
        format!(
            "{quarantined} of {} rows were quarantined and are listed in `quarantine` with a locator and reasons. \
Failure codes: {codes}. Do not use the accepted rows as if they were the whole dataset: report both counts, \
and resolve or explicitly exclude the quarantined rows before aggregating.",
            outcome.rows_in
        )
    } else if !outcome.flagged.is_empty() {
        format!(
            "All {} rows were accepted, but {} carry flagged problems listed in `flagged`. They are included in \
`accepted`; decide whether the flagged columns matter for your use before reporting on them.",
            outcome.rows_in,
            outcome.flagged.len()
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
pub(crate) fn validate_rows(args: &Value) -> Result<Value, ToolError> {
    let mut reader = ArgReader::new(args)?;
    let rows = reader.list("rows");
    let columns = reader.list("columns");
    let row_key = reader.optional_string("row_key");
    reader.finish()?;

    let fields = parse_columns(&columns)?;
    let outcome = validate_all(&fields, &rows, row_key.as_deref());

    let mut findings = outcome.findings.clone();
    if outcome.rows_in == 0 {
        findings.push(
            Finding::new("no_rows", Severity::Info, "no rows were supplied, so nothing was checked")
                .guide("An empty input is not a pass. Confirm the source actually returned data."),
        );
    }
    for column in &outcome.missing_columns {
        findings.push(
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

    let verdict = if !outcome.quarantine.is_empty() {
        verdict::QUARANTINED
    } else if !outcome.flagged.is_empty() {
        verdict::FLAGGED
    } else {
        verdict::CLEAN
    };
    let ok = outcome.quarantine.is_empty() && outcome.rows_in > 0;
    let accepted = outcome.accepted.len();
    let quarantined = outcome.quarantine.len();
    let pass_rate = if outcome.rows_in == 0 { 0.0 } else { accepted as f64 / outcome.rows_in as f64 };

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
                ("flagged", outcome.flagged.len().into()),
                ("pass_rate", round_to(pass_rate, 4).into()),
                ("accounted_for", (accepted + quarantined).into()),
            ])),
        ),
        ("accepted", Value::Array(outcome.accepted.clone())),
        ("quarantine", outcome.quarantine.iter().map(HeldRow::to_json).collect()),
        ("flagged", outcome.flagged.iter().map(HeldRow::to_json).collect()),
        ("errors_by_column", Value::Object(count_by_column(&outcome.findings))),
        ("findings_by_code", Value::Object(count_by_code(&outcome.findings))),
        ("columns_seen", outcome.undeclared_columns.iter().map(|c| Value::from(c.as_str())).collect()),
        ("columns_required_but_absent", outcome.missing_columns.iter().map(|c| Value::from(c.as_str())).collect()),
    ]);
    Ok(envelope("validate_rows", ok, verdict, &findings, guidance(&outcome), payload))
}
