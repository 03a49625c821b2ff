//! `references`: a column whose values must exist in another table's
//! column (dbt's `relationships`, a Frictionless foreign key), or in a list.
//!
//! The other table is read once, when the contract is parsed, and only the
//! keys of its column are kept: each value coerced with *this* column's
//! type, so an integer column referencing CSV text matches `"7"` to `7`.

use std::rc::Rc;

use serde_json::{Map, Value};

use super::{contract_error, ColumnType};
use crate::coerce::{coerce, CellRef};
use crate::csv::EXTRA_FIELDS_KEY;
use crate::error::ToolError;
use crate::json_rows::{ColumnPositions, JsonCell};
use crate::py::repr;
use crate::source::{RowData, RowSource};
use crate::value_key::{write_key, KeySet};

/// The keys a `references` spec may carry.
const REFERENCE_KEYS: [&str; 5] = ["column", "csv", "path", "rows", "values"];

/// The values a column may take, with where they came from.
#[derive(Debug, Clone)]
pub(crate) struct Reference {
    /// The other table's column, or `None` for a `values` list.
    column: Option<String>,
    /// `values`, `rows` or `csv`.
    source: &'static str,
    keys: Rc<KeySet>,
    /// Values of the other table's column that could not take this column's
    /// type: they can equal no valid value, and the contract echo counts them.
    unusable: usize,
}

/// A fault in a `references` spec: where inside it (`.column`, `.values[2]`)
/// and the error.
type Fault = (String, ToolError);

impl Reference {
    /// Whether the set holds the value whose key is `key`.
    pub(crate) fn contains(&self, key: &[u8]) -> bool {
        self.keys.contains(key)
    }

    /// Where the values come from, for a finding's `expected`.
    pub(crate) fn target(&self) -> String {
        match &self.column {
            Some(column) => format!("a value of column {} of the referenced table", repr::repr_str(column)),
            None => "one of the referenced values".to_owned(),
        }
    }

    pub(super) fn describe(&self, out: &mut Map<String, Value>) {
        out.insert("rule".into(), "references".into());
        if let Some(column) = &self.column {
            out.insert("column".into(), column.clone().into());
        }
        out.insert("source".into(), self.source.into());
        out.insert("distinct_values".into(), self.keys.len().into());
        if self.column.is_some() {
            out.insert("unusable_values".into(), self.unusable.into());
        }
    }

    pub(super) fn parse(spec: &Value, name: &str, column_type: ColumnType) -> Result<Reference, Fault> {
        let error =
            |place: &str, message: String| (place.to_owned(), contract_error(&format!("column \"{name}\": {message}")));
        let Value::Object(spec) = spec else {
            return Err(error(
                "",
                format!(
                    "\"references\" must be an object like {{\"column\": \"id\", \"rows\": [...]}} or {{\"values\": [...]}}, got {}",
                    repr::type_name(spec)
                ),
            ));
        };
        if let Some(unknown) = spec.keys().find(|key| !REFERENCE_KEYS.contains(&key.as_str())) {
            return Err(error(
                &format!(".{unknown}"),
                format!(
                    "unknown key {} in \"references\". Supported keys: {}",
                    repr::repr_str(unknown),
                    REFERENCE_KEYS.join(", ")
                ),
            ));
        }
        let sources: Vec<&str> =
            ["values", "rows", "csv", "path"].into_iter().filter(|key| spec.contains_key(*key)).collect();
        let [source] = sources[..] else {
            return Err(error(
                "",
                format!(
                    "\"references\" needs exactly one of \"values\", \"rows\", \"csv\" or \"path\", got {}",
                    if sources.is_empty() { "none".to_owned() } else { sources.join(", ") }
                ),
            ));
        };
        if source == "values" {
            if spec.contains_key("column") {
                return Err(error(".column", "\"references\" with \"values\" takes no \"column\"".into()));
            }
            return Self::from_values(&spec["values"], column_type).map_err(|(place, message)| error(&place, message));
        }
        let column = match spec.get("column") {
            Some(Value::String(column)) if !column.is_empty() => column.clone(),
            other => {
                let got = other.map_or_else(|| "nothing".to_owned(), repr::repr);
                return Err(error(
                    ".column",
                    format!("\"references\" needs the referenced \"column\" name, got {got}"),
                ));
            }
        };
        let rows =
            match (source, &spec[source]) {
                ("rows", Value::Array(rows)) => RowSource::Rows(rows.clone()),
                ("csv", Value::String(text)) => RowSource::Csv(text.clone()),
                ("path", _) => return Err(error(
                    ".path",
                    "\"references.path\" names a file, which only the MCP server can read (under its --data-root); \
pass the table as \"rows\" or \"csv\" here"
                        .into(),
                )),
                (source, other) => {
                    let expected = if source == "rows" { "an array of row objects" } else { "CSV text" };
                    return Err(error(
                        &format!(".{source}"),
                        format!("\"references.{source}\" must be {expected}, got {}", repr::type_name(other)),
                    ));
                }
            };
        Self::from_table(rows, source, column, column_type).map_err(|(place, message)| error(&place, message))
    }

    fn from_values(values: &Value, column_type: ColumnType) -> Result<Reference, (String, String)> {
        let Value::Array(values) = values else {
            return Err((
                ".values".into(),
                format!("\"references.values\" must be an array, got {}", repr::type_name(values)),
            ));
        };
        let mut keys = KeySet::default();
        let mut key = Vec::new();
        for (index, value) in values.iter().enumerate() {
            let cell = CellRef::of_json(Some(value));
            let place = format!(".values[{index}]");
            if cell.is_blank() {
                return Err((place, "\"references.values\" holds a blank value, which no value can match".into()));
            }
            let coerced = coerce(cell, column_type).map_err(|failure| (place.clone(), failure.message(value)))?;
            if write_key(&coerced, &mut key) {
                keys.insert(&key);
            }
        }
        Ok(Reference { column: None, source: "values", keys: Rc::new(keys), unusable: 0 })
    }

    fn from_table(
        rows: RowSource,
        source: &'static str,
        column: String,
        column_type: ColumnType,
    ) -> Result<Reference, (String, String)> {
        let mut keys = KeySet::default();
        let mut unusable = 0;
        let mut present = false;
        let mut key = Vec::new();
        let mut take = |cell: Option<CellRef<'_>>| {
            let Some(cell) = cell else { return };
            present = true;
            if cell.is_blank() {
                return;
            }
            match coerce(cell, column_type) {
                Ok(coerced) if write_key(&coerced, &mut key) => keys.insert(&key),
                Ok(_) => {}
                Err(_) => unusable += 1,
            }
        };
        // Where the column is in row objects read from the rows' text.
        let mut at = ColumnPositions::default();
        rows.for_each(|_, _, data| match &data {
            RowData::Json(Value::Object(row)) => take(row.get(&column).map(|value| CellRef::of_json(Some(value)))),
            RowData::Json(_) => {}
            RowData::Object(row) => match row.cells() {
                Some(object) => match object.cell_of(&column, &mut at) {
                    JsonCell::Missing => take(None),
                    cell => take(Some(cell.cell_ref())),
                },
                None => take(row.into_value().get(&column).map(|value| CellRef::of_json(Some(value)))),
            },
            RowData::Record(record) if column != EXTRA_FIELDS_KEY => {
                // As in the row object a record becomes, the last column of a repeated name wins.
                let position = record.header.iter().rposition(|name| *name == column);
                take(position.map(|at| record.fields.get(at).map_or(CellRef::Null, |field| CellRef::Text(field))));
            }
            RowData::Record(record) => {
                let row = record.to_row();
                take(row.get(&column).map(|value| CellRef::of_json(Some(value))));
            }
        })
        .map_err(|err| (format!(".{source}"), err.message))?;
        if !present {
            return Err((
                ".column".into(),
                format!(
                    "the referenced column {} is not in any row of \"references.{source}\"",
                    repr::repr_str(&column)
                ),
            ));
        }
        Ok(Reference { column: Some(column), source, keys: Rc::new(keys), unusable })
    }
}
