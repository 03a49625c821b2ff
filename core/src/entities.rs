//! Keys and the rows that carry them: the shared reading step of
//! `count_distinct` and `duplicate_report`.
//!
//! A row with no usable key is held back and reported, never counted as an
//! entity and never quietly merged into another row.

use std::rc::Rc;

use serde_json::{Map, Value};

use crate::csv::{CsvRows, RecordRef, EXTRA_FIELDS_KEY};
use crate::error::ToolError;
use crate::findings::{object, Finding, Locator, Severity};
use crate::hashing::Fixed;
use crate::json_rows::{ColumnPositions, JsonCell, JsonRow, ObjectRow, RowsText};
use crate::py::repr::{repr, repr_float, type_name};
use crate::py::text;
use crate::py::value::present;
use crate::source::{csv_error, Capped, RowData, RowSource};

/// Render a key as a comparable string, or `None` when it is blank.
///
/// Removes only what is certainly noise: surrounding whitespace, letter case
/// (unless `case_sensitive`), and `1.0` versus `1`. No punctuation stripping,
/// accent folding or fuzzy rule: those change which records count as the same
/// entity, and that is a decision for a person.
pub(crate) fn normalise_key(value: &Value, case_sensitive: bool) -> Option<String> {
    let text = match value {
        Value::Null => return None,
        Value::Bool(b) => return Some(if *b { "true" } else { "false" }.to_owned()),
        Value::String(s) => return normalise_key_text(s, case_sensitive),
        Value::Number(n) if n.is_i64() || n.is_u64() => n.to_string(),
        Value::Number(n) => {
            let x = n.as_f64().unwrap_or(f64::NAN);
            if x == 0.0 {
                "0".to_owned()
            } else if x.fract() == 0.0 {
                // Python's str(int(x)): every digit of the whole float.
                format!("{x:.0}")
            } else {
                repr_float(x)
            }
        }
        other => repr(other),
    };
    normalise_key_text(&text, case_sensitive)
}

/// [`normalise_key`] of a text key.
pub(crate) fn normalise_key_text(text: &str, case_sensitive: bool) -> Option<String> {
    let text = text::strip(text);
    if text.is_empty() {
        return None;
    }
    Some(if case_sensitive { text.to_owned() } else { text::casefold(text) })
}

/// A row counted under its normalised key.
pub(crate) struct KeyedRow<'a> {
    pub(crate) index: usize,
    pub(crate) line: Option<usize>,
    pub(crate) key: String,
    pub(crate) row: RowRef<'a>,
}

/// A kept row, where it lies: built into a tree only when a result lists
/// it, and its cells read from where they are in the meantime.
pub(crate) enum RowRef<'a> {
    /// A row object given as a tree.
    Tree(&'a Map<String, Value>),
    /// A row object in the rows' text.
    Text(ObjectRow<'a>),
    /// A CSV record, read again from its text when asked (`start` and
    /// `line` from [`CsvRows::record_start`]), under the header's names.
    Record { text: &'a str, header: Rc<[String]>, start: usize, line: usize },
}

impl RowRef<'_> {
    /// The row object, as the row would be given as a tree (a CSV record as
    /// [`RecordRef::to_row`] builds it).
    pub(crate) fn to_map(&self) -> Map<String, Value> {
        let value = match self {
            RowRef::Tree(map) => return (*map).clone(),
            RowRef::Text(object) => object.into_value(),
            RowRef::Record { text, header, start, line } => {
                let fields = reread(text, *start, *line);
                RecordRef { header, fields: &fields }.to_row()
            }
        };
        match value {
            Value::Object(map) => map,
            _ => Map::new(),
        }
    }

    /// [`normalise_key`] of the value of each column of `names`, or `None`
    /// when one is blank or missing: the row's signature, read once. `at`
    /// holds where `names` are in a row object's layout, found once per
    /// layout: the caller keeps one for all the rows it asks (rows of one
    /// call, so of one [`RowsText`]), each time with the same `names`.
    pub(crate) fn signature(
        &self,
        names: &[String],
        case_sensitive: bool,
        at: &mut ColumnPositions,
    ) -> Option<Vec<String>> {
        let of_map = |map: &Map<String, Value>| {
            names.iter().map(|name| normalise_key(map.get(name).unwrap_or(&Value::Null), case_sensitive)).collect()
        };
        match self {
            RowRef::Tree(map) => of_map(map),
            RowRef::Text(object) => match object.cells() {
                Some(cells) => {
                    at.refresh(&cells, names.iter().map(String::as_str));
                    (0..names.len()).map(|i| key_of(&at.cell(&cells, i), case_sensitive)).collect()
                }
                None => of_map(&self.to_map()),
            },
            RowRef::Record { text, header, start, line } => {
                // A column called `_extra` is the row object's to say (it
                // holds the fields beyond the header there).
                let clash = |name: &String| name == EXTRA_FIELDS_KEY;
                if names.iter().any(clash) || header.iter().any(clash) {
                    return of_map(&self.to_map());
                }
                let fields = reread(text, *start, *line);
                names
                    .iter()
                    .map(|name| {
                        let field = header.iter().position(|column| column == name).and_then(|at| fields.get(at))?;
                        normalise_key_text(field, case_sensitive)
                    })
                    .collect()
            }
        }
    }
}

/// The fields of the CSV record at `start` on `line` of `text`, which the
/// reader read there once already, so reads the same way again.
fn reread(text: &str, start: usize, line: usize) -> Vec<std::borrow::Cow<'_, str>> {
    CsvRows::fields_at(text, start, line).expect("a record read once reads again")
}

/// Where a keyed row is, quoting its key, optionally naming a column.
fn keyed_locator(index: usize, line: Option<usize>, key: &str, column: Option<&str>) -> Locator {
    Locator {
        row_index: Some(index),
        line,
        row_key: Some(key.to_owned()),
        column: column.map(str::to_owned),
        ..Locator::default()
    }
}

/// Something counted under a normalised key.
pub(crate) trait Keyed {
    fn key(&self) -> &str;
}

impl Keyed for KeyedRow<'_> {
    fn key(&self) -> &str {
        &self.key
    }
}

/// A keyed row's place and key, without the row: all `count_distinct`
/// keeps of it, so a large table is read without being held.
pub(crate) struct KeyedPlace {
    pub(crate) index: usize,
    pub(crate) line: Option<usize>,
    pub(crate) key: String,
}

impl KeyedPlace {
    /// Where this row is, quoting its key, optionally naming a column.
    pub(crate) fn locator(&self, column: Option<&str>) -> Locator {
        keyed_locator(self.index, self.line, &self.key, column)
    }
}

impl Keyed for KeyedPlace {
    fn key(&self) -> &str {
        &self.key
    }
}

impl KeyedRow<'_> {
    /// Where this row is, quoting its key, optionally naming a column.
    pub(crate) fn locator(&self, column: Option<&str>) -> Locator {
        keyed_locator(self.index, self.line, &self.key, column)
    }

    pub(crate) fn to_json(&self) -> Value {
        let locator = self.locator(None);
        Value::Object(object([
            ("locator", Value::Object(locator.to_json())),
            ("key", self.key.clone().into()),
            ("row", Value::Object(self.row.to_map())),
        ]))
    }
}

/// A row with no usable key: listed, never counted.
pub(crate) struct BlankKeyRow {
    index: usize,
    line: Option<usize>,
    row: Value,
    reason: String,
}

impl BlankKeyRow {
    pub(crate) fn to_json(&self) -> Value {
        Value::Object(object([
            ("locator", Value::Object(Locator::row(self.index, self.line).to_json())),
            ("reason", self.reason.clone().into()),
            ("row", self.row.clone()),
        ]))
    }
}

/// Every row handed in, split into keyed rows and rows with no usable key.
pub(crate) struct ReadRows<'a> {
    pub(crate) total: usize,
    pub(crate) keyed: Vec<KeyedRow<'a>>,
    pub(crate) blank: Vec<BlankKeyRow>,
    pub(crate) findings: Vec<Finding>,
}

/// Split the rows of `source` on `key`. Never fails on row content: a
/// row that is not an object is held back for the same reason as a blank
/// key — it cannot be attributed to an entity. A keyed row is kept where it
/// lies ([`RowRef`]), its key read from its cell: a large table is not
/// built into trees to be grouped. Fails only on CSV text the reader refuses.
pub(crate) fn read_rows<'a>(source: &'a RowSource, key: &str, case_sensitive: bool) -> Result<ReadRows<'a>, ToolError> {
    let mut read = ReadRows { total: 0, keyed: Vec::new(), blank: Vec::new(), findings: Vec::new() };
    match source {
        RowSource::Rows(rows) => read.tree_rows(rows, key, case_sensitive),
        RowSource::JsonText(rows) => read.text_rows(rows, key, case_sensitive),
        RowSource::Csv(text) => read.csv_records(text, key, case_sensitive)?,
    }
    Ok(read)
}

impl<'a> ReadRows<'a> {
    /// Rows given as trees.
    fn tree_rows(&mut self, rows: &'a [Value], key: &str, case_sensitive: bool) {
        for (index, row) in rows.iter().enumerate() {
            let Value::Object(map) = row else {
                self.not_an_object(index, None, row);
                continue;
            };
            let raw_key = map.get(key).unwrap_or(&Value::Null);
            match normalise_key(raw_key, case_sensitive) {
                Some(normalised) => {
                    self.keyed.push(KeyedRow { index, line: None, key: normalised, row: RowRef::Tree(map) });
                }
                None => self.blank_key(index, None, row.clone(), present(raw_key), key),
            }
        }
        self.total = rows.len();
    }

    /// Row objects in the rows' text, each key read from its cell.
    fn text_rows(&mut self, rows: &'a RowsText, key: &str, case_sensitive: bool) {
        let mut at = ColumnPositions::default();
        for index in 0..rows.len() {
            let object = match rows.row(index) {
                JsonRow::Object(object) => object,
                JsonRow::Value(row) => {
                    self.not_an_object(index, None, &row);
                    continue;
                }
            };
            let keyed = match object.cells() {
                Some(cells) => key_of(&cells.cell_of(key, &mut at), case_sensitive),
                None => normalise_key(object.into_value().get(key).unwrap_or(&Value::Null), case_sensitive),
            };
            match keyed {
                Some(normalised) => {
                    self.keyed.push(KeyedRow { index, line: None, key: normalised, row: RowRef::Text(object) });
                }
                None => {
                    let row = object.into_value();
                    let raw_key = present(row.get(key).unwrap_or(&Value::Null));
                    self.blank_key(index, None, row, raw_key, key);
                }
            }
        }
        self.total = rows.len();
    }

    /// CSV records, each key read from its field; a keyed record is kept as
    /// its place in the text.
    fn csv_records(&mut self, text: &'a str, key: &str, case_sensitive: bool) -> Result<(), ToolError> {
        let mut reader = CsvRows::new(text).map_err(csv_error)?;
        let header: Rc<[String]> = reader.header().into();
        let text = reader.text();
        let mut column = KeyColumn::Undecided;
        let mut index = 0;
        while let Some((line, record)) = reader.next_record_ref().map_err(csv_error)? {
            match record_key(&mut column, &record, key, case_sensitive) {
                RecordKey::Keyed(normalised) => {
                    let start = reader.record_start();
                    let row = RowRef::Record { text, header: Rc::clone(&header), start, line };
                    self.keyed.push(KeyedRow { index, line: Some(line), key: normalised, row });
                }
                RecordKey::Blank { row, raw_key } => self.blank_key(index, Some(line), row, raw_key, key),
            }
            index += 1;
        }
        self.total = index;
        Ok(())
    }
}

/// What a CSV record's key is.
enum RecordKey {
    /// Its normalised key.
    Keyed(String),
    /// None: the record's row object and its raw key, which the held-back
    /// row and its finding show.
    Blank { row: Value, raw_key: Option<Value> },
}

fn record_key(column: &mut KeyColumn, record: &RecordRef<'_, '_>, key: &str, case_sensitive: bool) -> RecordKey {
    if let KeyColumn::At(position) = column.of(record, key) {
        let field = position.and_then(|p| record.fields.get(p));
        return match field.and_then(|text| normalise_key_text(text, case_sensitive)) {
            Some(normalised) => RecordKey::Keyed(normalised),
            None => {
                RecordKey::Blank { row: record.to_row(), raw_key: field.map(|text| Value::String(text.to_string())) }
            }
        };
    }
    // Only the row object says what the key is.
    let row = record.to_row();
    let raw_key = row.get(key).unwrap_or(&Value::Null);
    match normalise_key(raw_key, case_sensitive) {
        Some(normalised) => RecordKey::Keyed(normalised),
        None => {
            let raw_key = present(raw_key);
            RecordKey::Blank { row, raw_key }
        }
    }
}

impl ReadRows<'_> {
    fn not_an_object(&mut self, index: usize, line: Option<usize>, row: &Value) {
        let (blank, finding) = not_an_object(index, line, row);
        self.findings.push(finding);
        self.blank.push(blank);
    }

    fn blank_key(&mut self, index: usize, line: Option<usize>, row: Value, raw_key: Option<Value>, key: &str) {
        self.blank.push(blank_key_row(index, line, row, key));
        self.findings.push(blank_key_finding(index, line, key, raw_key));
    }
}

/// A row that is not an object: held back, with its finding.
fn not_an_object(index: usize, line: Option<usize>, row: &Value) -> (BlankKeyRow, Finding) {
    let reason = format!("row is a {}, not an object with named columns", type_name(row));
    let finding = Finding::new("not_an_object", Severity::Error, reason.clone())
        .at(Locator::row(index, line))
        .with_value(present(row));
    (BlankKeyRow { index, line, row: Value::Object(object([("_raw", row.clone())])), reason }, finding)
}

fn blank_key_row(index: usize, line: Option<usize>, row: Value, key: &str) -> BlankKeyRow {
    let reason = format!("'{key}' is missing or blank, so this row belongs to no identifiable entity");
    BlankKeyRow { index, line, row, reason }
}

fn blank_key_finding(index: usize, line: Option<usize>, key: &str, raw_key: Option<Value>) -> Finding {
    Finding::new(
        "blank_key",
        Severity::Warning,
        format!(
            "'{key}' is missing or blank, so this row cannot be attributed to an entity and is excluded from the count"
        ),
    )
    .at(Locator { row_index: Some(index), line, column: Some(key.to_owned()), ..Locator::default() })
    .with_value(raw_key)
    .guide("A blank key is excluded from counts but never dropped \u{2014} it is listed here.")
}

/// The keys of every row, read one row at a time without holding the rows:
/// what `count_distinct` needs. Rows with no usable key and their findings
/// are kept as their lists' windows say, and counted all.
pub(crate) struct KeyReading {
    pub(crate) total: usize,
    pub(crate) keyed: Vec<KeyedPlace>,
    pub(crate) blank: Capped<BlankKeyRow>,
    pub(crate) findings: Capped<Finding>,
}

impl KeyReading {
    fn hold_back(&mut self, make: impl FnOnce() -> (BlankKeyRow, Finding)) {
        if self.blank.has_room() || self.findings.has_room() {
            let (blank, finding) = make();
            self.blank.push(blank);
            self.findings.push(finding);
        } else {
            self.blank.skip();
            self.findings.skip();
        }
    }

    /// One row as a JSON value: the rules of [`read_rows`].
    fn read_value(&mut self, index: usize, line: Option<usize>, row: Value, key: &str, case_sensitive: bool) {
        let Value::Object(map) = &row else {
            self.hold_back(|| not_an_object(index, line, &row));
            return;
        };
        let raw_key = map.get(key).unwrap_or(&Value::Null);
        match normalise_key(raw_key, case_sensitive) {
            Some(normalised) => self.keyed.push(KeyedPlace { index, line, key: normalised }),
            None => {
                let raw_key = present(raw_key);
                self.hold_back(|| (blank_key_row(index, line, row, key), blank_key_finding(index, line, key, raw_key)));
            }
        }
    }
}

/// The normalised key of a row object's cell read from its text, as
/// [`normalise_key`] gives it for the value; `None` for a blank key.
fn key_of(cell: &JsonCell<'_>, case_sensitive: bool) -> Option<String> {
    match cell {
        JsonCell::Missing => None,
        JsonCell::Text(text) => normalise_key_text(text, case_sensitive),
        JsonCell::Other(value) => normalise_key(value, case_sensitive),
    }
}

/// Where the key sits in a CSV record.
#[derive(Clone, Copy)]
enum KeyColumn {
    /// No record seen yet.
    Undecided,
    /// At this field (`None`: no column has the key's name).
    At(Option<usize>),
    /// Only the row object can say: a column called [`EXTRA_FIELDS_KEY`]
    /// holds the extra fields there too.
    RowObject,
}

impl KeyColumn {
    /// Where the key is in `record`, decided at the first record: never
    /// [`KeyColumn::Undecided`].
    fn of(&mut self, record: &RecordRef<'_, '_>, key: &str) -> KeyColumn {
        if let KeyColumn::Undecided = self {
            let clash = key == EXTRA_FIELDS_KEY || record.header.iter().any(|c| c == EXTRA_FIELDS_KEY);
            *self =
                if clash { KeyColumn::RowObject } else { KeyColumn::At(record.header.iter().position(|c| c == key)) };
        }
        *self
    }
}

/// Read `source`'s keys (see [`KeyReading`]) into `blank` and `findings`,
/// which say how many of each to keep. A CSV record's key is read from its
/// field; only a record held back that one of them keeps is built into a
/// row object.
pub(crate) fn read_keys(
    source: RowSource,
    key: &str,
    case_sensitive: bool,
    blank: Capped<BlankKeyRow>,
    findings: Capped<Finding>,
) -> Result<KeyReading, ToolError> {
    let mut read = KeyReading { total: 0, keyed: Vec::new(), blank, findings };
    let mut column = KeyColumn::Undecided;
    // Where the key is in row objects read from the rows' text.
    let mut at = ColumnPositions::default();
    read.total = source.for_each(|index, line, data| match data {
        RowData::Json(row) => read.read_value(index, line, row, key, case_sensitive),
        // The key read from the row's text; a row without one is held back
        // from its tree, as from a tree given.
        RowData::Object(row) => match row.cells().map(|object| key_of(&object.cell_of(key, &mut at), case_sensitive)) {
            Some(Some(normalised)) => read.keyed.push(KeyedPlace { index, line, key: normalised }),
            _ => read.read_value(index, line, row.into_value(), key, case_sensitive),
        },
        RowData::Record(record) => {
            let KeyColumn::At(position) = column.of(&record, key) else {
                return read.read_value(index, line, record.to_row(), key, case_sensitive);
            };
            let field = position.and_then(|p| record.fields.get(p));
            match field.and_then(|text| normalise_key_text(text, case_sensitive)) {
                Some(normalised) => read.keyed.push(KeyedPlace { index, line, key: normalised }),
                None => {
                    let raw_key = field.map(|text| Value::String(text.to_string()));
                    read.hold_back(|| {
                        (blank_key_row(index, line, record.to_row(), key), blank_key_finding(index, line, key, raw_key))
                    });
                }
            }
        }
    })?;
    Ok(read)
}

/// Keyed rows grouped by key, groups in order of first appearance.
pub(crate) fn group_by_key<T: Keyed>(keyed: &[T]) -> Vec<(&str, Vec<&T>)> {
    // Looked up only: `groups` keeps the order of first appearance.
    let mut position: std::collections::HashMap<&str, usize, Fixed> = std::collections::HashMap::default();
    let mut groups: Vec<(&str, Vec<&T>)> = Vec::new();
    for item in keyed {
        match position.get(item.key()) {
            Some(&at) => groups[at].1.push(item),
            None => {
                position.insert(item.key(), groups.len());
                groups.push((item.key(), vec![item]));
            }
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_normalise_like_the_reference() {
        // From the reference's normalise_key under CPython 3.11.
        assert_eq!(normalise_key(&json!(" C-1 "), false).as_deref(), Some("c-1"));
        assert_eq!(normalise_key(&json!("C-1"), true).as_deref(), Some("C-1"));
        assert_eq!(normalise_key(&json!(1.0), false).as_deref(), Some("1"));
        assert_eq!(normalise_key(&json!(1e20), false).as_deref(), Some("100000000000000000000"));
        assert_eq!(normalise_key(&json!(1.5), false).as_deref(), Some("1.5"));
        assert_eq!(normalise_key(&json!(true), false).as_deref(), Some("true"));
        assert_eq!(normalise_key(&json!("Straße"), false).as_deref(), Some("strasse"));
        assert_eq!(normalise_key(&json!({"A": 1}), false).as_deref(), Some("{'a': 1}"));
        assert_eq!(normalise_key(&json!("  "), false), None);
        assert_eq!(normalise_key(&json!(null), false), None);
    }
}
