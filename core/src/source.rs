//! Where a check's rows come from, and the lists a result is allowed to carry.
//!
//! Rows arrive as a JSON array or as CSV text. CSV is read one record at a
//! time, so `validate_rows` over a large table holds one row at a time plus
//! what its result lists.

use serde_json::Value;

use crate::csv::{CsvError, CsvRows, RecordRef};
use crate::error::{ErrorCode, ToolError};
use crate::json_rows::{JsonRow, ObjectRow, RowsText};

/// The data argument of a row-taking check.
pub(crate) enum RowSource {
    Rows(Vec<Value>),
    Csv(String),
    /// A `rows` array as its text, read one row at a time (`json_rows.rs`).
    JsonText(RowsText),
}

/// One row as a check that reads before it builds sees it: a JSON row is
/// handed over as it is; a CSV record is lent as its fields, and becomes a
/// row object only if the check asks ([`RowData::into_value`]).
pub(crate) enum RowData<'r, 'a> {
    Json(Value),
    Record(RecordRef<'r, 'a>),
    /// A row object read from the rows' text, its cells unbuilt.
    Object(ObjectRow<'r>),
}

impl RowData<'_, '_> {
    /// The row as a JSON value (a CSV record as its row object).
    pub(crate) fn into_value(self) -> Value {
        match self {
            RowData::Json(value) => value,
            RowData::Record(record) => record.to_row(),
            RowData::Object(object) => object.into_value(),
        }
    }
}

/// A CSV text the reader refuses, as the argument error a call gets for it.
pub(crate) fn csv_error(err: CsvError) -> ToolError {
    ToolError::for_argument(ErrorCode::InvalidArgument, "csv", err.message).on_line(err.line)
}

impl RowSource {
    /// Hand every row over in order, lending CSV records unbuilt: `visit`
    /// gets each row's index, CSV line and data. Returns how many there were.
    pub(crate) fn for_each(
        self,
        mut visit: impl FnMut(usize, Option<usize>, RowData<'_, '_>),
    ) -> Result<usize, ToolError> {
        match self {
            RowSource::Rows(rows) => {
                let count = rows.len();
                for (index, row) in rows.into_iter().enumerate() {
                    visit(index, None, RowData::Json(row));
                }
                Ok(count)
            }
            RowSource::JsonText(rows) => {
                for index in 0..rows.len() {
                    let data = match rows.row(index) {
                        JsonRow::Object(object) => RowData::Object(object),
                        JsonRow::Value(value) => RowData::Json(value),
                    };
                    visit(index, None, data);
                }
                Ok(rows.len())
            }
            RowSource::Csv(text) => {
                let mut reader = CsvRows::new(&text).map_err(csv_error)?;
                let mut index = 0;
                while let Some((line, record)) = reader.next_record_ref().map_err(csv_error)? {
                    visit(index, Some(line), RowData::Record(record));
                    index += 1;
                }
                Ok(index)
            }
        }
    }

    /// A CSV input's header (empty for an empty text, or for one the reader
    /// refuses, which reading the rows then reports); `None` for JSON rows.
    pub(crate) fn csv_header(&self) -> Option<Vec<String>> {
        match self {
            RowSource::Rows(_) | RowSource::JsonText(_) => None,
            RowSource::Csv(text) => Some(CsvRows::new(text).map(|reader| reader.header().to_vec()).unwrap_or_default()),
        }
    }
}

/// A result list that keeps at most `cap` items from the `start`-th on
/// (a page; 0 without one) but counts them all. Items outside the window are
/// counted, never built: [`Capped::has_room`] says whether the next one would
/// be kept.
pub(crate) struct Capped<T> {
    items: Vec<T>,
    total: usize,
    start: usize,
    cap: Option<usize>,
}

impl<T> Capped<T> {
    pub(crate) fn new(cap: Option<usize>) -> Self {
        Capped { items: Vec::new(), total: 0, start: 0, cap }
    }

    /// The same list keeping nothing before the `start`-th item (counting
    /// from 0): a page.
    pub(crate) fn starting_at(mut self, start: usize) -> Self {
        self.start = start;
        self
    }

    /// Whether the next item would be kept; lets a caller skip building it.
    pub(crate) fn has_room(&self) -> bool {
        self.total >= self.start && self.cap.is_none_or(|cap| self.items.len() < cap)
    }

    pub(crate) fn push(&mut self, item: T) {
        if self.has_room() {
            self.items.push(item);
        }
        self.total += 1;
    }

    /// Count an item that was not built because there was no room for it.
    pub(crate) fn skip(&mut self) {
        debug_assert!(!self.has_room());
        self.total += 1;
    }

    /// Count `n` items that were not built because there was no room for them.
    pub(crate) fn skip_many(&mut self, n: usize) {
        debug_assert!(n == 0 || !self.has_room());
        self.total += n;
    }

    /// The same list with each kept item turned into another.
    pub(crate) fn map<U>(self, f: impl FnMut(T) -> U) -> Capped<U> {
        Capped { items: self.items.into_iter().map(f).collect(), total: self.total, start: self.start, cap: self.cap }
    }

    pub(crate) fn items(&self) -> &[T] {
        &self.items
    }

    pub(crate) fn into_items(self) -> Vec<T> {
        self.items
    }

    pub(crate) fn total(&self) -> usize {
        self.total
    }

    pub(crate) fn omitted(&self) -> usize {
        self.total - self.items.len()
    }
}

/// Items of a fully built list beyond the cap are dropped; returns how many.
pub(crate) fn cap_vec<T>(items: &mut Vec<T>, cap: Option<usize>) -> usize {
    window_vec(items, 0, cap)
}

/// Only the items of a fully built list from the `start`-th on, at most
/// `cap` of them, are kept; returns how many were dropped.
pub(crate) fn window_vec<T>(items: &mut Vec<T>, start: usize, cap: Option<usize>) -> usize {
    let before = items.len();
    items.drain(..start.min(before));
    if let Some(cap) = cap {
        items.truncate(cap);
    }
    before - items.len()
}
