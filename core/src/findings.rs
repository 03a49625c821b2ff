//! The return vocabulary shared by all four checks: findings, locators and the
//! envelope every result is wrapped in.
//!
//! A validation failure is a result, not an error: each problem becomes a
//! [`Finding`] with a stable code, a message and a [`Locator`], and the tool
//! returns `ok: false`.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value};

use crate::hashing::Fixed;
use crate::json_write;
use crate::output::{ListedItem, Output, WrittenList};

/// How much a finding matters. Three levels so a caller makes one decision:
/// `error` cannot be trusted as-is, `warning` should be looked at, `info` is context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
    fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// Where a finding applies. Every part is optional: a reconciliation problem
/// points at a side of the equation, not at a row.
#[derive(Debug, Clone, Default)]
pub(crate) struct Locator {
    pub(crate) row_index: Option<usize>,
    /// The CSV line a row starts on, for rows that came from CSV text.
    pub(crate) line: Option<usize>,
    pub(crate) row_key: Option<String>,
    pub(crate) column: Option<String>,
    /// For a repeated value or key: the row that held it first.
    pub(crate) first_row_index: Option<usize>,
    /// For a row rule's finding: the rule's name.
    pub(crate) rule: Option<String>,
    pub(crate) movement_index: Option<usize>,
    pub(crate) side: Option<&'static str>,
}

impl Locator {
    pub(crate) fn row(row_index: usize, line: Option<usize>) -> Self {
        Locator { row_index: Some(row_index), line, ..Locator::default() }
    }

    pub(crate) fn side(side: &'static str) -> Self {
        Locator { side: Some(side), ..Locator::default() }
    }

    pub(crate) fn movement(movement_index: usize) -> Self {
        Locator { movement_index: Some(movement_index), side: Some("movements"), ..Locator::default() }
    }

    /// The locator as a JSON object (see its `Serialize`).
    pub(crate) fn to_json(&self) -> Map<String, Value> {
        match serde_json::to_value(self) {
            Ok(Value::Object(map)) => map,
            _ => Map::new(),
        }
    }

    /// Whether the locator says nothing (its JSON object is empty).
    fn is_empty(&self) -> bool {
        let Locator { row_index, line, row_key, column, first_row_index, rule, movement_index, side } = self;
        row_index.is_none()
            && line.is_none()
            && row_key.is_none()
            && column.is_none()
            && first_row_index.is_none()
            && rule.is_none()
            && movement_index.is_none()
            && side.is_none()
    }
}

/// Zero-based indexes for machines, one-based numbers for people: a
/// validation report is read by both, so both are always given together.
/// Only the parts that are there are written.
impl Serialize for Locator {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        if let Some(index) = self.row_index {
            map.serialize_entry("row_index", &index)?;
            map.serialize_entry("row_number", &(index + 1))?;
        }
        if let Some(line) = self.line {
            map.serialize_entry("line", &line)?;
        }
        if let Some(key) = &self.row_key {
            map.serialize_entry("row_key", key)?;
        }
        if let Some(column) = &self.column {
            map.serialize_entry("column", column)?;
        }
        if let Some(index) = self.first_row_index {
            map.serialize_entry("first_row_index", &index)?;
            map.serialize_entry("first_row_number", &(index + 1))?;
        }
        if let Some(rule) = &self.rule {
            map.serialize_entry("rule", rule)?;
        }
        if let Some(index) = self.movement_index {
            map.serialize_entry("movement_index", &index)?;
            map.serialize_entry("movement_number", &(index + 1))?;
        }
        if let Some(side) = self.side {
            map.serialize_entry("side", side)?;
        }
        map.end()
    }
}

/// One problem: a stable code, a message and an address.
///
/// `value` and `expected` are `None` when the reference's are Python `None`
/// (the key is then left out); `Some(Value::Null)` is a value that exists but
/// has no JSON form, such as an infinite float, which the wire shows as null.
#[derive(Debug, Clone)]
pub(crate) struct Finding {
    pub(crate) code: &'static str,
    pub(crate) message: String,
    pub(crate) severity: Severity,
    pub(crate) locator: Option<Locator>,
    pub(crate) value: Option<Value>,
    pub(crate) expected: Option<Value>,
    pub(crate) guidance: Option<&'static str>,
}

impl Finding {
    pub(crate) fn new(code: &'static str, severity: Severity, message: impl Into<String>) -> Self {
        Finding { code, message: message.into(), severity, locator: None, value: None, expected: None, guidance: None }
    }

    pub(crate) fn at(mut self, locator: Locator) -> Self {
        self.locator = Some(locator);
        self
    }

    pub(crate) fn with_value(mut self, value: Option<Value>) -> Self {
        self.value = value;
        self
    }

    pub(crate) fn expecting(mut self, expected: impl Into<Value>) -> Self {
        self.expected = Some(expected.into());
        self
    }

    pub(crate) fn guide(mut self, guidance: &'static str) -> Self {
        self.guidance = Some(guidance);
        self
    }

    pub(crate) fn column(&self) -> Option<&str> {
        self.locator.as_ref().and_then(|locator| locator.column.as_deref()).filter(|c| !c.is_empty())
    }

    /// The finding as a JSON object (see its `Serialize`).
    pub(crate) fn to_json(&self) -> Value {
        // A finding's keys are strings and its numbers finite.
        serde_json::to_value(self).expect("a finding serialises")
    }

    /// The finding as compact JSON text at the end of `out`, as
    /// `serde_json` writes [`Finding::to_json`].
    pub(crate) fn write_json(&self, out: &mut Vec<u8>) {
        // A finding always serialises (its keys are strings).
        json_write::write(out, self).expect("a finding serialises");
    }

    /// A one-line summary, `column: message` when a column is known.
    pub(crate) fn as_reason(&self) -> String {
        match self.column() {
            Some(column) => format!("{column}: {}", self.message),
            None => self.message.clone(),
        }
    }
}

/// `code`, `severity`, `message`, then what is known of `locator` (left out
/// when it says nothing), `value`, `expected` and `guidance`.
impl Serialize for Finding {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("code", self.code)?;
        map.serialize_entry("severity", self.severity.as_str())?;
        map.serialize_entry("message", &self.message)?;
        if let Some(locator) = self.locator.as_ref().filter(|locator| !locator.is_empty()) {
            map.serialize_entry("locator", locator)?;
        }
        if let Some(value) = &self.value {
            map.serialize_entry("value", value)?;
        }
        if let Some(expected) = &self.expected {
            map.serialize_entry("expected", expected)?;
        }
        if let Some(guidance) = self.guidance {
            map.serialize_entry("guidance", guidance)?;
        }
        map.end()
    }
}

/// Counts by key, kept in order of first appearance until sorted for output.
#[derive(Default)]
pub(crate) struct Tally {
    counts: Vec<(String, usize)>,
    /// Where each key is in `counts` (looked up only).
    position: std::collections::HashMap<String, usize, Fixed>,
}

impl Tally {
    pub(crate) fn add(&mut self, key: &str) {
        self.add_count(key, 1);
    }

    /// Count `key` `count` times more.
    pub(crate) fn add_count(&mut self, key: &str, count: usize) {
        if let Some(&at) = self.position.get(key) {
            self.counts[at].1 += count;
        } else {
            self.position.insert(key.to_owned(), self.counts.len());
            self.counts.push((key.to_owned(), count));
        }
    }

    /// Each key and its count, in order of first appearance.
    pub(crate) fn entries(&self) -> impl Iterator<Item = (&str, usize)> {
        self.counts.iter().map(|(key, count)| (key.as_str(), *count))
    }

    /// Most frequent first, ties in code-point order of the key (the reference's order).
    pub(crate) fn sorted(&self) -> Vec<(&str, usize)> {
        let mut counts: Vec<(&str, usize)> = self.counts.iter().map(|(key, count)| (key.as_str(), *count)).collect();
        counts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        counts
    }

    pub(crate) fn to_json(&self) -> Map<String, Value> {
        self.sorted().into_iter().map(|(key, count)| (key.to_owned(), Value::from(count))).collect()
    }
}

/// The verdicts a result can carry.
pub(crate) mod verdict {
    pub(crate) const CLEAN: &str = "clean";
    pub(crate) const FLAGGED: &str = "flagged";
    pub(crate) const QUARANTINED: &str = "quarantined";
    pub(crate) const DOES_NOT_CLOSE: &str = "does_not_close";
    pub(crate) const REVIEW_REQUIRED: &str = "review_required";
    pub(crate) const INPUTS_REJECTED: &str = "inputs_rejected";
    /// `validate_rows` with table rules: no row was quarantined, but the
    /// table as a whole fails (its size, its columns).
    pub(crate) const TABLE_REJECTED: &str = "table_rejected";
}

/// Build the standard response: `tool`, `ok`, `verdict`, `finding_count`,
/// `findings`, `guidance`, then the tool's own fields in the order given.
///
/// `ok` is the one field a caller can branch on; `ok: false` is a successful
/// call reporting a failing dataset, never an error of the call.
pub(crate) fn envelope(
    tool: &str,
    ok: bool,
    verdict: &str,
    findings: &[Finding],
    guidance: String,
    payload: Map<String, Value>,
) -> Value {
    abridged_envelope(tool, ok, verdict, findings, 0, guidance, payload).into_value()
}

/// [`envelope`] for a result whose findings list was capped:
/// `finding_count` still counts every finding, and `findings_omitted` says
/// how many are not listed. The findings are written straight to text.
pub(crate) fn abridged_envelope(
    tool: &str,
    ok: bool,
    verdict: &str,
    findings: &[Finding],
    findings_omitted: usize,
    guidance: String,
    payload: Map<String, Value>,
) -> Output {
    let mut body = written_envelope(tool, ok, verdict, Vec::new(), findings_omitted, guidance, payload);
    body["finding_count"] = (findings.len() + findings_omitted).into();
    let mut text = Vec::new();
    let listed = findings.iter().map(|finding| ListedItem::written(&mut text, |out| finding.write_json(out))).collect();
    Output::from(body).with_list("findings", WrittenList::new(listed, text))
}

/// [`abridged_envelope`] with the findings it lists already written as JSON.
pub(crate) fn written_envelope(
    tool: &str,
    ok: bool,
    verdict: &str,
    findings: Vec<Value>,
    findings_omitted: usize,
    guidance: String,
    payload: Map<String, Value>,
) -> Value {
    let mut body = Map::new();
    body.insert("tool".into(), tool.into());
    body.insert("ok".into(), ok.into());
    body.insert("verdict".into(), verdict.into());
    body.insert("finding_count".into(), (findings.len() + findings_omitted).into());
    body.insert("findings".into(), Value::Array(findings));
    if findings_omitted > 0 {
        body.insert("findings_omitted".into(), findings_omitted.into());
    }
    body.insert("guidance".into(), guidance.into());
    for (key, value) in payload {
        body.insert(key, value);
    }
    Value::Object(body)
}

/// The envelope for input that is JSON but unusable as data (for example a
/// `movements` argument that is an object): the same shape as every other
/// result, so a caller never has to special-case it.
pub(crate) fn rejection_envelope(tool: &str, message: String, guidance: &str, payload: Map<String, Value>) -> Value {
    let finding = Finding::new("invalid_arguments", Severity::Error, message);
    envelope(tool, false, verdict::INPUTS_REJECTED, &[finding], guidance.to_owned(), payload)
}

/// Build a JSON object from key/value pairs, keeping their order.
pub(crate) fn object<const N: usize>(pairs: [(&str, Value); N]) -> Map<String, Value> {
    pairs.into_iter().map(|(key, value)| (key.to_owned(), value)).collect()
}
