//! Checking one row against a contract's fields, written once for two uses.
//!
//! `validate_rows` must account for every row but lists only some of them.
//! So each row is first *counted*: [`check_row`] with a [`CodeCount`] reads
//! the cells where they lie (a CSV record's fields, a JSON row's values),
//! coerces without allocating where it can, and keeps only each finding's
//! column and code. A row the result will list is then checked again with a
//! [`FullReport`], on its row object, which writes the findings out and
//! collects the coerced values. Both go through the same decisions below, so
//! a counted row and a listed row cannot disagree.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::coerce::{coerce, CellRef, Coerced};
use crate::contract::{ColumnType, Field};
use crate::findings::{Finding, Locator, Severity};
use crate::rules;

/// What a row's findings mean for it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum RowVerdict {
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

/// The severity of a finding on `field`: set by its `on_fail`.
pub(crate) fn severity_for(field: &Field) -> Severity {
    if field.quarantines {
        Severity::Error
    } else {
        Severity::Warning
    }
}

/// The cells of one row, where they lie.
pub(crate) enum RowCells<'r, 'a> {
    /// A JSON row object: a cell is the value under the field's name.
    Object(&'r Map<String, Value>),
    /// A CSV record: a cell is the field at the column's position in the
    /// header (`positions[i]` for the contract's field `i`).
    Record { fields: &'r [Cow<'a, str>], positions: &'r [Option<usize>] },
}

impl RowCells<'_, '_> {
    fn cell(&self, position: usize, field: &Field) -> CellRef<'_> {
        match self {
            RowCells::Object(row) => CellRef::of_json(row.get(&field.name)),
            RowCells::Record { fields, positions } => {
                positions[position].and_then(|column| fields.get(column)).map_or(CellRef::Null, |f| CellRef::Text(f))
            }
        }
    }
}

/// Where [`check_row`] reports what it finds.
pub(crate) trait RowReport {
    /// A finding on the field at `position`; `build` writes it, given the
    /// cell's locator, if this report keeps findings.
    fn finding(&mut self, position: usize, field: &Field, code: &'static str, build: impl FnOnce(Locator) -> Finding);

    /// The coerced value of the field at `position` (for the cleaned row).
    fn coerced(&mut self, position: usize, value: impl FnOnce() -> Value);
}

/// Check one row against every field; returns what its findings mean.
pub(crate) fn check_row(fields: &[Field], cells: &RowCells<'_, '_>, report: &mut impl RowReport) -> RowVerdict {
    let mut verdict = RowVerdict::Pass;
    for (position, field) in fields.iter().enumerate() {
        let raw = cells.cell(position, field);
        let severity = severity_for(field);
        let mut found = |code: &'static str, build: &mut dyn FnMut(Locator) -> Finding| {
            report.finding(position, field, code, build);
            verdict = verdict.worsen(field);
        };

        if raw.is_blank() {
            if field.required {
                // Reported once as required_blank, not once per rule that cannot judge a blank.
                found("required_blank", &mut |at| {
                    Finding::new("required_blank", severity, "is required but blank")
                        .at(at)
                        .expecting("a non-blank value")
                });
                continue;
            }
            // Only a rule about blankness judges a blank (uncoerced: a blank
            // has no typed value).
            let blank = Coerced::blank(raw);
            for rule in field.rules.iter().filter(|rule| rule.checks_blank()) {
                if let Some(code) = rules::failure(rule, &blank) {
                    found(code, &mut |at| {
                        let value = raw.to_value();
                        let value = (!value.is_null()).then_some(value);
                        Finding::new(code, severity, rules::message(rule, &blank)).at(at).with_value(value)
                    });
                }
            }
            continue;
        }

        let value = match coerce(raw, field.column_type) {
            Ok(value) => value,
            Err(failure) => {
                found(failure.code(), &mut |at| {
                    let original = raw.to_value();
                    Finding::new(failure.code(), severity, failure.message(&original))
                        .at(at)
                        .with_value(Some(original))
                        .expecting(format!("a value of type {}", field.column_type.name()))
                });
                continue;
            }
        };
        for rule in &field.rules {
            if let Some(code) = rules::failure(rule, &value) {
                found(code, &mut |at| {
                    Finding::new(code, severity, rules::message(rule, &value))
                        .at(at)
                        .with_value(Some(value.json_safe()))
                });
            }
        }
        if field.column_type != ColumnType::Any {
            report.coerced(position, || value.json_safe());
        }
    }
    verdict
}

/// Counts a row's findings: the field position and code of each, in order.
#[derive(Default)]
pub(crate) struct CodeCount {
    pub(crate) found: Vec<(usize, &'static str)>,
}

impl RowReport for CodeCount {
    fn finding(&mut self, position: usize, _: &Field, code: &'static str, _: impl FnOnce(Locator) -> Finding) {
        self.found.push((position, code));
    }

    fn coerced(&mut self, _: usize, _: impl FnOnce() -> Value) {}
}

/// Writes a row's findings out, located at the row, and keeps its coerced
/// values (by field position) to write back into the row.
pub(crate) struct FullReport {
    locator: Locator,
    pub(crate) findings: Vec<Finding>,
    pub(crate) coerced: Vec<(usize, Value)>,
}

impl FullReport {
    pub(crate) fn new(locator: Locator) -> Self {
        FullReport { locator, findings: Vec::new(), coerced: Vec::new() }
    }
}

impl RowReport for FullReport {
    fn finding(&mut self, _: usize, field: &Field, _: &'static str, build: impl FnOnce(Locator) -> Finding) {
        let at = Locator { column: Some(field.name.clone()), ..self.locator.clone() };
        self.findings.push(build(at));
    }

    fn coerced(&mut self, position: usize, value: impl FnOnce() -> Value) {
        self.coerced.push((position, value()));
    }
}
