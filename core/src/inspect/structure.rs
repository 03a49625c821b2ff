//! Facts about rows rather than values: CSV records with more or fewer
//! fields than the header, JSON rows that are not objects, and rows that
//! repeat an earlier row in every column.
//!
//! Two rows are the same row when they have the same columns with the same
//! values as given (text as written, JSON values as JSON), whatever their
//! key order: an absent column and a null one differ, `"1"` and `1` differ.
//! That is, the same column numbers with the same cell numbers of
//! `values.rs`, which numbers each column's distinct cells as written; so
//! each distinct row is kept once as four bytes per cell, in a
//! `key_table.rs` (memory in proportion to the data's distinct rows, not
//! to their text).

use serde_json::Value;

use super::rows::{RowAt, RowKind};
use crate::key_table::KeyTable;
use crate::py::repr;
use crate::source::Capped;

/// A CSV record whose width is not the header's.
#[derive(Clone, Copy)]
pub(super) struct Ragged {
    pub(super) row: usize,
    pub(super) line: Option<usize>,
    pub(super) fields: usize,
}

/// A row that repeats an earlier one.
#[derive(Clone, Copy)]
pub(super) struct Repeat {
    pub(super) row: usize,
    pub(super) line: Option<usize>,
    pub(super) first: usize,
}

/// The first row that is not an object: its index and its JSON kind.
pub(super) struct NotObject {
    pub(super) row: usize,
    pub(super) kind: &'static str,
}

/// What the pass over the rows learns about them.
pub(super) struct Structure {
    pub(super) ragged: Capped<Ragged>,
    pub(super) repeats: Capped<Repeat>,
    /// The first of each, whatever the cap: the findings name them.
    pub(super) first_ragged: Option<Ragged>,
    pub(super) first_repeat: Option<Repeat>,
    pub(super) not_objects: usize,
    pub(super) first_not_object: Option<NotObject>,
    seen: KeyTable,
    /// The row being read: its index, line and whether it has cells.
    row: usize,
    line: Option<usize>,
    has_cells: bool,
    /// Its cells as `(column, cell number)`.
    cells: Vec<(u32, u32)>,
    key: Vec<u8>,
}

impl Structure {
    pub(super) fn new(cap: Option<usize>) -> Self {
        Structure {
            ragged: Capped::new(cap),
            repeats: Capped::new(cap),
            first_ragged: None,
            first_repeat: None,
            not_objects: 0,
            first_not_object: None,
            seen: KeyTable::default(),
            row: 0,
            line: None,
            has_cells: false,
            cells: Vec::new(),
            key: Vec::new(),
        }
    }

    pub(super) fn row(&mut self, row: &RowAt<'_>) {
        self.row = row.index;
        self.line = row.line;
        self.cells.clear();
        self.has_cells = true;
        match row.kind {
            RowKind::Object => {}
            RowKind::Record { fields, header } => {
                if fields != header {
                    let ragged = Ragged { row: row.index, line: row.line, fields };
                    self.first_ragged.get_or_insert(ragged);
                    push(&mut self.ragged, || ragged);
                }
            }
            RowKind::NotObject(value) => {
                self.has_cells = false;
                self.not_objects += 1;
                self.first_not_object.get_or_insert(NotObject { row: row.index, kind: repr::type_name(value) });
            }
        }
    }

    /// One cell: its column, and its number among the column's distinct cells.
    pub(super) fn cell(&mut self, column: usize, number: u32) {
        self.cells.push((u32::try_from(column).unwrap_or(u32::MAX), number));
    }

    /// The row is read: a repeat of an earlier row is noted.
    pub(super) fn end_row(&mut self) {
        if !self.has_cells {
            return;
        }
        if !self.cells.windows(2).all(|pair| pair[0].0 < pair[1].0) {
            self.cells.sort_unstable_by_key(|&(column, _)| column);
        }
        // A row of columns 0, 1, 2, ... in order (every CSV record within
        // its header) is its cell numbers alone; any other row lists its
        // columns too. The first byte says which, so the two never meet.
        self.key.clear();
        let positional = self.cells.iter().enumerate().all(|(at, &(column, _))| column as usize == at);
        self.key.push(u8::from(positional));
        for &(column, number) in &self.cells {
            if !positional {
                self.key.extend_from_slice(&column.to_le_bytes());
            }
            self.key.extend_from_slice(&number.to_le_bytes());
        }
        let row = u32::try_from(self.row).unwrap_or(u32::MAX);
        let first = self.seen.get_or_insert(&self.key, row) as usize;
        if first != self.row {
            let repeat = Repeat { row: self.row, line: self.line, first };
            self.first_repeat.get_or_insert(repeat);
            push(&mut self.repeats, || repeat);
        }
    }
}

fn push<T>(list: &mut Capped<T>, item: impl FnOnce() -> T) {
    if list.has_room() {
        list.push(item());
    } else {
        list.skip();
    }
}

impl Ragged {
    pub(super) fn describe(self, header_len: usize) -> Value {
        let mut out = super::row_locator(self.row, self.line);
        out.insert("fields".into(), self.fields.into());
        out.insert("header_fields".into(), header_len.into());
        Value::Object(out)
    }
}

impl Repeat {
    pub(super) fn describe(self) -> Value {
        let mut out = super::row_locator(self.row, self.line);
        out.insert("first_row_index".into(), self.first.into());
        out.insert("first_row_number".into(), (self.first + 1).into());
        Value::Object(out)
    }
}
