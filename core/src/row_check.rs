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
use crate::contract::row_rules::RowRule;
use crate::contract::{ColumnType, Field};
use crate::expr::{ExprValue, Operand};
use crate::findings::{Finding, Locator, Severity};
use crate::json_rows::JsonCell;
use crate::py::repr;
use crate::rules;
use crate::value_key::{write_key, FirstSeen};

/// What a row's findings mean for it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum RowVerdict {
    Pass,
    Flag,
    Quarantine,
}

impl RowVerdict {
    /// A quarantining finding always quarantines; a flagging one only raises a pass to a flag.
    fn worsen(self, quarantines: bool) -> RowVerdict {
        if quarantines {
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
    /// A row object read from the rows' text: the cell of each field of
    /// the contract, in the contract's order.
    Json(&'r [JsonCell<'a>]),
}

impl RowCells<'_, '_> {
    // Inlined: called for every cell of every row, and the record case is a
    // few loads. (With `#[inline]` alone, the compiler stopped inlining it
    // once it read a third kind of row: 14 more instructions per CSV cell
    // in the module. The third kind's reading is a call of its own.)
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn cell(&self, position: usize, field: &Field) -> CellRef<'_> {
        match self {
            RowCells::Object(row) => CellRef::of_json(row.get(&field.name)),
            RowCells::Record { fields, positions } => {
                positions[position].and_then(|column| fields.get(column)).map_or(CellRef::Null, |f| CellRef::Text(f))
            }
            RowCells::Json(cells) => json_cell(cells, position),
        }
    }
}

/// The cell of the contract's field `position` in a row object read from text.
#[inline(never)]
fn json_cell<'c>(cells: &'c [JsonCell<'_>], position: usize) -> CellRef<'c> {
    cells.get(position).map_or(CellRef::Null, JsonCell::cell_ref)
}

/// What a finding is about: a field of the contract (by position), or the
/// row's primary key; and what it weighs.
#[derive(Clone, Copy)]
pub(crate) struct About<'f> {
    /// The field's position, or `None` for a primary key of several columns.
    pub(crate) position: Option<usize>,
    /// The column a finding is located at.
    pub(crate) column: Option<&'f str>,
    pub(crate) severity: Severity,
}

impl<'f> About<'f> {
    fn field(position: usize, field: &'f Field) -> Self {
        About { position: Some(position), column: Some(&field.name), severity: severity_for(field) }
    }
}

/// Where [`check_row`] reports what it finds.
pub(crate) trait RowReport {
    /// A finding; `build` writes it, given the row's locator at the finding's
    /// column, if this report keeps findings.
    fn finding(&mut self, about: About<'_>, code: &'static str, build: impl FnOnce(Locator) -> Finding);

    /// The coerced value of the field at `position` (for the cleaned row),
    /// made by `value`; `unchanged` says whether it is the cell as written
    /// ([`Coerced::is_cell_as_written`]).
    fn coerced(&mut self, position: usize, value: impl FnOnce() -> Value, unchanged: impl FnOnce() -> bool);
}

/// The checks of one call that look across rows (`unique`, the primary
/// key), with what they have seen so far. A row may be checked twice
/// (counted, then in full): what was seen is keyed by row, so the second
/// check finds the same.
pub(crate) struct RowChecks<'f> {
    fields: &'f [Field],
    primary_key: &'f [usize],
    row_rules: &'f [RowRule],
    /// For each field: the first row of each of its values (used by `unique` fields only).
    unique_seen: Vec<FirstSeen>,
    key_seen: FirstSeen,
    /// Whether each field is part of the primary key (looked up per cell).
    in_key: Vec<bool>,
    scratch: Vec<u8>,
    key: Vec<u8>,
}

impl<'f> RowChecks<'f> {
    pub(crate) fn new(fields: &'f [Field], primary_key: &'f [usize], row_rules: &'f [RowRule]) -> Self {
        RowChecks {
            fields,
            primary_key,
            row_rules,
            unique_seen: fields.iter().map(|_| FirstSeen::default()).collect(),
            key_seen: FirstSeen::default(),
            in_key: (0..fields.len()).map(|position| primary_key.contains(&position)).collect(),
            scratch: Vec::new(),
            key: Vec::new(),
        }
    }

    /// The contract's fields.
    pub(crate) fn fields(&self) -> &'f [Field] {
        self.fields
    }
}

/// Check row `row` against every field; returns what its findings mean.
pub(crate) fn check_row(
    checks: &mut RowChecks<'_>,
    row: usize,
    cells: &RowCells<'_, '_>,
    report: &mut impl RowReport,
) -> RowVerdict {
    let fields = checks.fields;
    let mut verdict = RowVerdict::Pass;
    // The primary key's value, built field by field; `None` once a key
    // field is blank or has no typed value (it is then reported as such).
    let mut key_complete = !checks.primary_key.is_empty();
    checks.key.clear();
    // Each field's cell as the row rules read it, kept only when there are rules.
    let keep = !checks.row_rules.is_empty();
    let mut slots: Vec<Slot<'_>> = if keep { Vec::with_capacity(fields.len()) } else { Vec::new() };
    for (position, field) in fields.iter().enumerate() {
        let raw = cells.cell(position, field);
        let severity = severity_for(field);
        let about = About::field(position, field);
        let in_key = checks.in_key[position];
        let mut found = |code: &'static str, build: &mut dyn FnMut(Locator) -> Finding| {
            report.finding(about, code, build);
            verdict = verdict.worsen(field.quarantines);
        };

        if raw.is_blank() {
            key_complete &= !in_key;
            if keep {
                slots.push(Slot::Blank);
            }
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
                if let Some(code) = rules::failure(rule, &blank, &mut checks.scratch) {
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
                key_complete &= !in_key;
                if keep {
                    slots.push(Slot::Invalid);
                }
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
            if let Some(code) = rules::failure(rule, &value, &mut checks.scratch) {
                found(code, &mut |at| {
                    let finding = Finding::new(code, severity, rules::message(rule, &value))
                        .at(at)
                        .with_value(Some(value.json_safe()));
                    match rules::expected(rule) {
                        Some(expected) => finding.expecting(expected),
                        None => finding,
                    }
                });
            }
        }
        let has_key = (field.unique || in_key) && write_key(&value, &mut checks.scratch);
        if field.unique && has_key {
            let first = checks.unique_seen[position].first_row(&checks.scratch, row);
            if first != row {
                found("duplicate_value", &mut |at| repeated_value(&value, first, severity, at));
            }
        }
        if in_key {
            key_complete &= has_key;
            // Length-prefixed, so ("ab", "c") and ("a", "bc") stay apart.
            let length = u32::try_from(checks.scratch.len()).unwrap_or(u32::MAX);
            checks.key.extend_from_slice(&length.to_le_bytes());
            checks.key.extend_from_slice(&checks.scratch);
        }
        if field.column_type != ColumnType::Any {
            report.coerced(position, || value.json_safe(), || value.is_cell_as_written(raw));
        }
        if keep {
            slots.push(Slot::Value(value));
        }
    }
    check_across_columns(checks, row, cells, key_complete, &slots, report, verdict)
}

/// The finding of a value of a `unique` column that row `first` held first.
fn repeated_value(value: &Coerced<'_>, first: usize, severity: Severity, mut at: Locator) -> Finding {
    at.first_row_index = Some(first);
    let message = format!("{} repeats the value of row {} (the column is unique)", value.repr(), first + 1);
    Finding::new("duplicate_value", severity, message)
        .at(at)
        .with_value(Some(value.json_safe()))
        .expecting("a value no other row holds")
}

/// The checks that read several columns of the row, once each column has
/// been read: the primary key (when every key cell has a value) and the row
/// rules. Returns the row's verdict with theirs.
fn check_across_columns(
    checks: &mut RowChecks<'_>,
    row: usize,
    cells: &RowCells<'_, '_>,
    key_complete: bool,
    slots: &[Slot<'_>],
    report: &mut impl RowReport,
    mut verdict: RowVerdict,
) -> RowVerdict {
    if key_complete {
        let first = checks.key_seen.first_row(&checks.key, row);
        if first != row {
            report_repeated_key(checks, cells, first, report);
            verdict = RowVerdict::Quarantine;
        }
    }
    for rule in checks.row_rules {
        if let Some((code, why)) = judge(rule, slots) {
            report_row_rule(rule, code, why, checks.fields, slots, cells, report);
            verdict = verdict.worsen(rule.quarantines);
        }
    }
    verdict
}

/// A field's cell as a row rule reads it.
enum Slot<'a> {
    Blank,
    Value(Coerced<'a>),
    /// The cell could not take its column's type (reported as such).
    Invalid,
}

impl Slot<'_> {
    fn operand(&self) -> Operand<'_> {
        match self {
            Slot::Blank => Operand::Blank,
            Slot::Value(value) => Operand::Value(value),
            Slot::Invalid => Operand::Invalid,
        }
    }
}

/// Why a row fails `rule`: `row_rule_failed` when its check is false where
/// its condition holds, `row_rule_not_evaluable` (with the reason) when the
/// condition or the check cannot be evaluated on this row (a cell it reads
/// is blank or invalid, a value of the wrong kind). A rule that cannot be
/// checked is not a pass. `None` when the row passes or the condition is false.
fn judge(rule: &RowRule, slots: &[Slot<'_>]) -> Option<(&'static str, Option<String>)> {
    let operand = |position: usize| slots[position].operand();
    let not_evaluable = |why: String| Some(("row_rule_not_evaluable", Some(why)));
    if let Some(when) = &rule.when {
        match when.eval(&operand) {
            Ok(ExprValue::Bool(true)) => {}
            Ok(ExprValue::Bool(false)) => return None,
            Ok(_) => return not_evaluable("its \"when\" is neither true nor false for this row".into()),
            Err(err) => return not_evaluable(format!("its \"when\": {}", err.message)),
        }
    }
    match rule.check.eval(&operand) {
        Ok(ExprValue::Bool(true)) => None,
        Ok(ExprValue::Bool(false)) => Some(("row_rule_failed", None)),
        Ok(_) => not_evaluable("its \"check\" is neither true nor false for this row".into()),
        Err(err) => not_evaluable(err.message),
    }
}

/// The finding of a row that fails a row rule, quoting the values the rule read.
fn report_row_rule(
    rule: &RowRule,
    code: &'static str,
    why: Option<String>,
    fields: &[Field],
    slots: &[Slot<'_>],
    cells: &RowCells<'_, '_>,
    report: &mut impl RowReport,
) {
    let severity = if rule.quarantines { Severity::Error } else { Severity::Warning };
    let about = About { position: None, column: None, severity };
    report.finding(about, code, |mut at| {
        at.rule = Some(rule.name.clone());
        let mut read: Vec<usize> = rule.when.iter().flat_map(|when| when.columns_read().iter().copied()).collect();
        for &position in rule.check.columns_read() {
            if !read.contains(&position) {
                read.push(position);
            }
        }
        let values: Map<String, Value> = read
            .iter()
            .map(|&position| {
                let value = match &slots[position] {
                    Slot::Blank => Value::Null,
                    Slot::Value(value) => value.json_safe(),
                    Slot::Invalid => cells.cell(position, &fields[position]).to_value(),
                };
                (fields[position].name.clone(), value)
            })
            .collect();
        let quoted = values.iter().map(|(name, value)| format!("{name} = {}", repr::repr(value))).collect::<Vec<_>>();
        let with = if quoted.is_empty() { String::new() } else { format!(" ({})", quoted.join(", ")) };
        let message = match why {
            None => format!("row rule \"{}\" failed{with}", rule.name),
            Some(why) => format!("row rule \"{}\" could not be evaluated{with}: {why}", rule.name),
        };
        Finding::new(code, severity, message).at(at).with_value(Some(Value::Object(values))).expecting(rule.expected())
    });
}

/// A row whose primary key an earlier row holds: quarantined, located at
/// the key's column (one column) or at the row (several), with the key's
/// values as given.
fn report_repeated_key(checks: &RowChecks<'_>, cells: &RowCells<'_, '_>, first: usize, report: &mut impl RowReport) {
    let fields = checks.fields;
    let key = checks.primary_key;
    let about = match key {
        [only] => About { position: Some(*only), column: Some(&fields[*only].name), severity: Severity::Error },
        _ => About { position: None, column: None, severity: Severity::Error },
    };
    report.finding(about, "duplicate_key", |mut at| {
        at.first_row_index = Some(first);
        let names: Vec<&str> = key.iter().map(|&at| fields[at].name.as_str()).collect();
        let values: Vec<Value> = key.iter().map(|&at| cells.cell(at, &fields[at]).to_value()).collect();
        let (message, value) = match (&names[..], &values[..]) {
            ([name], [value]) => (
                format!("primary key {} value {} repeats row {}", repr::repr_str(name), repr::repr(value), first + 1),
                value.clone(),
            ),
            _ => {
                let quoted = values.iter().map(repr::repr).collect::<Vec<_>>().join(", ");
                let object = names.iter().zip(&values).map(|(name, value)| ((*name).to_owned(), value.clone()));
                (
                    format!("primary key ({}) = ({quoted}) repeats row {}", names.join(", "), first + 1),
                    Value::Object(object.collect()),
                )
            }
        };
        Finding::new("duplicate_key", Severity::Error, message)
            .at(at)
            .with_value(Some(value))
            .expecting("a primary key no other row holds")
    });
}

/// Counts a row's findings: for each, the field it is on (`None` for a
/// primary key of several columns), its code and its severity, in order.
#[derive(Default)]
pub(crate) struct CodeCount {
    pub(crate) found: Vec<(Option<usize>, &'static str, Severity)>,
}

impl RowReport for CodeCount {
    fn finding(&mut self, about: About<'_>, code: &'static str, _: impl FnOnce(Locator) -> Finding) {
        self.found.push((about.position, code, about.severity));
    }

    fn coerced(&mut self, _: usize, _: impl FnOnce() -> Value, _: impl FnOnce() -> bool) {}
}

/// A [`CodeCount`] that also keeps the coerced values that change the
/// row's text (by field position; text, and a date already written as
/// `YYYY-MM-DD`, change nothing), so that a row the result lists can be
/// written from its text. A type of its own, not a flag on `CodeCount`:
/// `check_row` is made once for each, and the count of a row no list
/// shows stays as lean as it was (the flag made the 1,000,000-row file 3%
/// more fuel).
pub(crate) struct KeepingChanges<'a> {
    pub(crate) count: &'a mut CodeCount,
    pub(crate) changed: &'a mut Vec<(usize, Value)>,
}

impl RowReport for KeepingChanges<'_> {
    fn finding(&mut self, about: About<'_>, code: &'static str, build: impl FnOnce(Locator) -> Finding) {
        self.count.finding(about, code, build);
    }

    fn coerced(&mut self, position: usize, value: impl FnOnce() -> Value, unchanged: impl FnOnce() -> bool) {
        if !unchanged() {
            self.changed.push((position, value()));
        }
    }
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
    fn finding(&mut self, about: About<'_>, _: &'static str, build: impl FnOnce(Locator) -> Finding) {
        let at = Locator { column: about.column.map(str::to_owned), ..self.locator.clone() };
        self.findings.push(build(at));
    }

    fn coerced(&mut self, position: usize, value: impl FnOnce() -> Value, _: impl FnOnce() -> bool) {
        self.coerced.push((position, value()));
    }
}
