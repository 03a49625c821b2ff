//! Reading a dataset for `inspect_dataset`: every cell with the column it is
//! in, the columns numbered in the order they are first seen, and each cell
//! as `validate_rows` would read it (so what is profiled is what a drafted
//! contract will be checked against).
//!
//! The rows are read here by reference, never consumed (a JSON row as it
//! is, a CSV record as fields borrowed from the text): once for the
//! profile, and again, as far as needed, for the rows a mixed column lists.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::coerce::CellRef;
use crate::csv::{CsvRows, RecordRef, EXTRA_FIELDS_KEY};
use crate::error::ToolError;
use crate::json_rows::JsonRow;
use crate::source::{csv_error, RowSource};

/// The columns of a dataset, in the order first seen: a CSV header's in its
/// order (each position its own column, even when a name repeats), then the
/// keys of JSON rows as they appear.
#[derive(Default)]
pub(super) struct Columns {
    pub(super) names: Vec<String>,
    by_name: HashMap<String, usize>,
    /// The column a CSV record's fields beyond the header go to
    /// ([`EXTRA_FIELDS_KEY`]), once a record has had any, when no header
    /// column has that name. Not a column of the data: a defect of it.
    pub(super) extra: Option<usize>,
    /// How many columns the CSV header has (0 for JSON rows).
    pub(super) header_len: usize,
}

impl Columns {
    /// The number of the column called `name`, numbering it when it is new.
    fn by_name(&mut self, name: &str) -> usize {
        if let Some(&at) = self.by_name.get(name) {
            return at;
        }
        self.add(name)
    }

    fn add(&mut self, name: &str) -> usize {
        let at = self.names.len();
        self.names.push(name.to_owned());
        self.by_name.entry(name.to_owned()).or_insert(at);
        at
    }

    /// Number the header's columns, once (the second pass finds them there).
    fn set_header(&mut self, header: &[String]) {
        if self.names.is_empty() {
            for name in header {
                self.add(name);
            }
            self.header_len = header.len();
        }
    }

    fn extra_column(&mut self) -> usize {
        match self.extra {
            Some(at) => at,
            None => {
                let at = self.add(EXTRA_FIELDS_KEY);
                self.extra = Some(at);
                at
            }
        }
    }
}

/// What one row is, before its cells.
pub(super) struct RowAt<'v> {
    pub(super) index: usize,
    /// The CSV line the record starts on.
    pub(super) line: Option<usize>,
    pub(super) kind: RowKind<'v>,
}

/// The shape of a row.
pub(super) enum RowKind<'v> {
    Object,
    /// A CSV record with this many fields, under a header of `header`.
    /// `positional` when its cells are handed over as the header's columns
    /// 0, 1, 2, ... in order, one per field up to the header's width (a
    /// header without an `_extra` column, see [`scan`]).
    Record {
        fields: usize,
        header: usize,
        positional: bool,
    },
    /// A JSON row that is not an object: it has no cells.
    NotObject(&'v Value),
}

/// What a pass does with the rows: told of each row, then of each of its
/// cells (a JSON row's in its key order, a record's in its field order),
/// then that the row is done; the pass ends early once it is `done`.
pub(super) trait Visitor {
    fn row(&mut self, row: &RowAt<'_>);
    fn cell(&mut self, column: usize, cell: CellRef<'_>);
    fn end_row(&mut self);
    /// Whether the rows left would teach this pass nothing.
    fn done(&self) -> bool {
        false
    }
}

/// Hand every row of `source` to `visit`, numbering columns in `columns`;
/// returns how many rows there were. A CSV text the reader refuses is the
/// argument error `validate_rows` gives for it.
pub(super) fn scan(source: &RowSource, columns: &mut Columns, visit: &mut impl Visitor) -> Result<usize, ToolError> {
    match source {
        RowSource::Rows(rows) => {
            for (index, row) in rows.iter().enumerate() {
                if visit.done() {
                    break;
                }
                match row {
                    Value::Object(object) => {
                        visit.row(&RowAt { index, line: None, kind: RowKind::Object });
                        object_cells(object, columns, visit);
                    }
                    other => visit.row(&RowAt { index, line: None, kind: RowKind::NotObject(other) }),
                }
                visit.end_row();
            }
            Ok(rows.len())
        }
        RowSource::JsonText(rows) => {
            for index in 0..rows.len() {
                if visit.done() {
                    break;
                }
                match rows.row(index) {
                    JsonRow::Object(row) => {
                        visit.row(&RowAt { index, line: None, kind: RowKind::Object });
                        match row.cells() {
                            Some(object) => {
                                for (position, key) in object.keys().enumerate() {
                                    let cell = object.cell_at(position);
                                    visit.cell(columns.by_name(key), cell.cell_ref());
                                }
                            }
                            None => {
                                if let Value::Object(object) = row.into_value() {
                                    object_cells(&object, columns, visit);
                                }
                            }
                        }
                    }
                    JsonRow::Value(other) => visit.row(&RowAt { index, line: None, kind: RowKind::NotObject(&other) }),
                }
                visit.end_row();
            }
            Ok(rows.len())
        }
        RowSource::Csv(text) => scan_csv(text, columns, visit),
    }
}

fn object_cells(object: &Map<String, Value>, columns: &mut Columns, visit: &mut impl Visitor) {
    for (name, value) in object {
        visit.cell(columns.by_name(name), CellRef::of_json(Some(value)));
    }
}

fn scan_csv(text: &str, columns: &mut Columns, visit: &mut impl Visitor) -> Result<usize, ToolError> {
    let mut reader = CsvRows::with_any_header(text).map_err(csv_error)?;
    columns.set_header(reader.header());
    // A header column called `_extra` clashes with where the extra fields of
    // a long record go; `validate_rows` then reads each record as its row
    // object, and so does this.
    let as_objects = reader.header().iter().any(|name| name == EXTRA_FIELDS_KEY);
    let mut index = 0;
    while !visit.done() {
        let Some((line, record)) = reader.next_record_ref().map_err(csv_error)? else { break };
        let kind =
            RowKind::Record { fields: record.fields.len(), header: record.header.len(), positional: !as_objects };
        visit.row(&RowAt { index, line: Some(line), kind });
        if as_objects {
            if let Value::Object(object) = record.to_row() {
                object_cells(&object, columns, visit);
            }
        } else {
            record_cells(&record, columns, visit);
        }
        visit.end_row();
        index += 1;
    }
    Ok(index)
}

/// A record's fields under the header's columns, and any beyond it as one
/// cell of [`EXTRA_FIELDS_KEY`]: an array of their text, as in its row object.
fn record_cells(record: &RecordRef<'_, '_>, columns: &mut Columns, visit: &mut impl Visitor) {
    let width = record.header.len();
    for (at, field) in record.fields.iter().take(width).enumerate() {
        visit.cell(at, CellRef::Text(field));
    }
    if record.fields.len() > width {
        let extra: Vec<Value> = record.fields[width..].iter().map(|field| Value::from(field.as_ref())).collect();
        let extra = Value::Array(extra);
        visit.cell(columns.extra_column(), CellRef::Json(&extra));
    }
}
