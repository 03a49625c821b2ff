//! Facts about rows rather than values: CSV records with more or fewer
//! fields than the header, JSON rows that are not objects, and rows that
//! repeat an earlier row in every column.
//!
//! Two rows are the same row when they have the same columns with the same
//! values as given (text as written, JSON values as JSON), whatever their
//! key order: an absent column and a null one differ, `"1"` and `1` differ.
//! That is, the same column numbers with the same cell numbers of
//! `values.rs`, which numbers each column's distinct cells as written; so
//! each row is kept as four bytes per cell, not as its text.
//!
//! While every row has the same columns in the same order (a CSV file with
//! no ragged record, JSON objects with the same keys in the same order),
//! the rows are kept column by column, four bytes per cell and nothing per
//! row, and a row's key is made only for a row that is looked up; the first
//! row that differs turns them into keys.
//!
//! Rows are compared once every row is read ([`Structure::finish`]), and
//! only those that may repeat another: a row that is the only one with its
//! value in some column repeats no row. So the column with the most such
//! values is chosen, and only the rows whose value there is held by more
//! than one row are looked up, in row order, in a `key_table.rs`. With a
//! column of ids, that is almost none, and no table of a million rows.

use serde_json::Value;

use super::rows::{RowAt, RowKind};
use super::values::{DistinctCells, LateNumbers, RowLines};
use crate::key_table::{KeyList, KeyTable};
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
    /// Each row with cells.
    rows: RowCells,
    /// The row being read: its index and whether it has cells.
    row: usize,
    has_cells: bool,
    /// Its cells as `(column, cell number)`, unless it goes `in_place`.
    cells: Vec<(u32, u32)>,
    /// The row is a CSV record of the header's width whose cells come as
    /// its columns in order, and the rows are kept column by column: each
    /// cell goes straight to its column (nothing to check, nothing to
    /// copy). Keeping the structure cost 339 million units of fuel on the
    /// million-row benchmark file, and buffering and checking each row was
    /// 220 million of them.
    in_place: bool,
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
            rows: RowCells::Dense { columns: Vec::new(), rows: 0 },
            row: 0,
            has_cells: false,
            cells: Vec::new(),
            in_place: false,
        }
    }

    pub(super) fn row(&mut self, row: &RowAt<'_>) {
        self.row = row.index;
        self.cells.clear();
        self.has_cells = true;
        self.in_place = false;
        match row.kind {
            RowKind::Object => {}
            RowKind::Record { fields, header, positional } => {
                if fields != header {
                    let ragged = Ragged { row: row.index, line: row.line, fields };
                    self.first_ragged.get_or_insert(ragged);
                    push(&mut self.ragged, || ragged);
                } else if let RowCells::Dense { columns, rows } = &mut self.rows {
                    // Every row so far kept, with these columns (the first
                    // row sets them).
                    if positional && *rows == row.index && (*rows == 0 || columns.len() == header) {
                        columns.resize_with(header, Vec::new);
                        self.in_place = true;
                    }
                }
            }
            RowKind::NotObject(value) => {
                self.has_cells = false;
                self.not_objects += 1;
                self.first_not_object.get_or_insert(NotObject { row: row.index, kind: repr::type_name(value) });
            }
        }
    }

    /// One cell: its column, and its number among the column's distinct
    /// cells, or `None` when it is given once every row is read
    /// ([`Structure::number_late_cells`]).
    pub(super) fn cell(&mut self, column: usize, number: Option<u32>) {
        if self.in_place {
            if let (RowCells::Dense { columns, rows }, Some(number)) = (&mut self.rows, number) {
                let cells = &mut columns[column];
                debug_assert_eq!(cells.len(), *rows, "a record's cells come in column order, once each");
                cells.push(number);
            }
            // A late cell is not kept (see `end_row`).
            return;
        }
        self.cells.push((u32::try_from(column).unwrap_or(u32::MAX), number.unwrap_or(LATE)));
    }

    /// While the rows are kept column by column: each column's cell
    /// numbers so far (up to its first late cell), for
    /// `CellCounter::finish` to append the late ones to.
    pub(super) fn dense_columns(&mut self) -> Option<&mut Vec<Vec<u32>>> {
        match &mut self.rows {
            RowCells::Dense { columns, .. } => Some(columns),
            RowCells::Keyed(_) => None,
        }
    }

    /// Every row is read, and `late` holds, per column whose cells were
    /// numbered after the rows were read, their numbers in row order: each
    /// row's key gets its own. (Rows kept column by column have theirs
    /// already: `CellCounter::finish` appends them to [`Structure::dense_columns`].)
    pub(super) fn number_late_cells(&mut self, late: &[Option<LateNumbers>]) {
        let late: Vec<(usize, &LateNumbers)> =
            late.iter().enumerate().filter_map(|(column, numbers)| Some((column, numbers.as_ref()?))).collect();
        if late.is_empty() {
            return;
        }
        let RowCells::Keyed(rows) = &mut self.rows else { return };
        let mut next = vec![0usize; late.len()];
        for (key, row) in rows.iter_mut() {
            for (&(column, numbers), next) in late.iter().zip(&mut next) {
                if (row as usize) < numbers.from_row {
                    continue;
                }
                if let Some(at) = number_at(key, column) {
                    debug_assert_eq!(key[at..at + 4], LATE.to_le_bytes());
                    let number = numbers.numbers.get(*next).copied().unwrap_or(LATE);
                    key[at..at + 4].copy_from_slice(&number.to_le_bytes());
                    *next += 1;
                }
            }
        }
        debug_assert!(late.iter().zip(&next).all(|((_, numbers), &used)| used == numbers.numbers.len()));
    }

    /// The row is read: it is kept, as its columns and cell numbers.
    pub(super) fn end_row(&mut self) {
        if self.in_place {
            if let RowCells::Dense { rows, .. } = &mut self.rows {
                *rows += 1;
            }
            return;
        }
        if !self.has_cells {
            // Column by column, a kept row's place is its index: no longer.
            self.rows.make_keyed();
            return;
        }
        if let RowCells::Dense { columns, rows } = &mut self.rows {
            if *rows == 0 {
                columns.resize_with(self.cells.len(), Vec::new);
            }
            let same = self.cells.len() == columns.len()
                && self.cells.iter().enumerate().all(|(at, &(column, _))| column as usize == at);
            if same && *rows == self.row {
                for (cells, &(_, number)) in columns.iter_mut().zip(&self.cells) {
                    // A late cell is not kept: once a column's cells are
                    // late, every later one is, and `number_late_cells`
                    // puts their numbers after the cells kept.
                    if number != LATE {
                        debug_assert_eq!(cells.len(), *rows, "a column's cells stay late once they are");
                        cells.push(number);
                    }
                }
                *rows += 1;
                return;
            }
        }
        self.rows.make_keyed();
        let RowCells::Keyed(rows) = &mut self.rows else { return };
        if !self.cells.windows(2).all(|pair| pair[0].0 < pair[1].0) {
            self.cells.sort_unstable_by_key(|&(column, _)| column);
        }
        rows.push_written(|key| write_row_key(&self.cells, key), u32::try_from(self.row).unwrap_or(u32::MAX));
    }

    /// How many rows were kept: every row with cells (a JSON row that is
    /// not an object has none).
    pub(super) fn rows_kept(&self) -> usize {
        self.rows.len()
    }

    /// Per kept row, in row order: its cell numbers in columns `a` and `b`,
    /// or `None` for a row without either.
    pub(super) fn cell_pairs(&self, a: usize, b: usize) -> impl Iterator<Item = Option<(u32, u32)>> + '_ {
        (0..self.rows.len()).map(move |kept| Some((self.rows.cell(kept, a)?, self.rows.cell(kept, b)?)))
    }

    /// Every row is read, `cells` holds each column's distinct cells and
    /// `lines` each row's line: each row that repeats an earlier one is
    /// noted, in row order.
    pub(super) fn finish(&mut self, cells: &[DistinctCells], lines: &RowLines) {
        // With no column at all, every row (an empty object) is a candidate.
        let filter = cells
            .iter()
            .enumerate()
            .max_by_key(|(at, cells)| (cells.singletons(), std::cmp::Reverse(*at)))
            .map(|(at, cells)| (at, cells.shared()));
        let rows = &self.rows;
        // Column by column, the filter column's cells are at hand as one slice.
        let dense = match (rows, &filter) {
            (RowCells::Dense { columns, .. }, Some((column, _))) => columns.get(*column).map(Vec::as_slice),
            _ => None,
        };
        let alone = |kept: usize| {
            // A row without the column may repeat another row without it.
            filter.as_ref().is_some_and(|(column, shared)| {
                let number = match dense {
                    Some(cells) => cells.get(kept).copied(),
                    None => rows.cell(kept, *column),
                };
                number.is_some_and(|number| !shared.get(number as usize).copied().unwrap_or(true))
            })
        };
        let mut seen = KeyTable::default();
        let mut key = Vec::new();
        for kept in 0..rows.len() {
            if alone(kept) {
                continue;
            }
            let row = rows.key(kept, &mut key);
            let first = seen.get_or_insert(&key, row) as usize;
            if first != row as usize {
                let repeat = Repeat { row: row as usize, line: lines.line(row as usize), first };
                self.first_repeat.get_or_insert(repeat);
                push(&mut self.repeats, || repeat);
            }
        }
    }
}

/// Each kept row's cells, in the order read: column by column while every
/// row has the same columns 0, 1, 2, ... in order, else each row as its key.
enum RowCells {
    /// Per column, each row's cell number; `rows` rows, each kept row's
    /// index its place (every row so far was kept). While the rows are
    /// read, a column holds only the cells before its first late one.
    Dense { columns: Vec<Vec<u32>>, rows: usize },
    /// Each row's key (see [`write_row_key`]), with its index.
    Keyed(KeyList),
}

impl RowCells {
    fn len(&self) -> usize {
        match self {
            RowCells::Dense { rows, .. } => *rows,
            RowCells::Keyed(rows) => rows.len(),
        }
    }

    /// The cell number of the `kept`-th kept row in `column`, if it has the column.
    fn cell(&self, kept: usize, column: usize) -> Option<u32> {
        match self {
            RowCells::Dense { columns, .. } => columns.get(column)?.get(kept).copied(),
            RowCells::Keyed(rows) => cell_number(rows.key(kept)?, column),
        }
    }

    /// The key of the `kept`-th kept row, written into `key`; returns its index.
    fn key(&self, kept: usize, key: &mut Vec<u8>) -> u32 {
        key.clear();
        match self {
            RowCells::Dense { columns, .. } => {
                // The key `write_row_key` writes for a row of columns in order.
                key.push(1);
                for cells in columns {
                    key.extend_from_slice(&cells[kept].to_le_bytes());
                }
                u32::try_from(kept).unwrap_or(u32::MAX)
            }
            RowCells::Keyed(rows) => {
                key.extend_from_slice(rows.key(kept).unwrap_or_default());
                rows.value(kept).unwrap_or(u32::MAX)
            }
        }
    }

    /// Keep every row as its key from now on.
    fn make_keyed(&mut self) {
        let RowCells::Dense { columns, rows } = self else { return };
        let mut keyed = KeyList::with_capacity(*rows, *rows * (1 + 4 * columns.len()));
        let mut cells = Vec::with_capacity(columns.len());
        for kept in 0..*rows {
            cells.clear();
            // Past a column's cells kept, they are late (see `end_row`).
            cells.extend(
                columns
                    .iter()
                    .enumerate()
                    .map(|(column, numbers)| (column as u32, numbers.get(kept).copied().unwrap_or(LATE))),
            );
            keyed.push_written(|key| write_row_key(&cells, key), u32::try_from(kept).unwrap_or(u32::MAX));
        }
        *self = RowCells::Keyed(keyed);
    }
}

/// Write the key of a row whose cells are `cells`, as `(column, number)` in
/// column order. A row of columns 0, 1, 2, ... in order (every CSV record
/// within its header) is its cell numbers alone; any other row lists its
/// columns too. The first byte says which, so the two never meet.
fn write_row_key(cells: &[(u32, u32)], key: &mut Vec<u8>) {
    let positional = cells.iter().enumerate().all(|(at, &(column, _))| column as usize == at);
    key.push(u8::from(positional));
    for &(column, number) in cells {
        if !positional {
            key.extend_from_slice(&column.to_le_bytes());
        }
        key.extend_from_slice(&number.to_le_bytes());
    }
}

/// A cell whose number is not known until every row is read.
const LATE: u32 = u32::MAX;

/// The cell number a row's key holds for `column`, if the row has the column.
fn cell_number(key: &[u8], column: usize) -> Option<u32> {
    number_at(key, column).map(|at| word(key, at))
}

/// Where in a row's key the cell number for `column` is, if the row has the column.
fn number_at(key: &[u8], column: usize) -> Option<usize> {
    match key.first() {
        Some(1) => Some(1 + 4 * column).filter(|&at| at + 4 <= key.len()),
        _ => (1..key.len()).step_by(8).find(|&at| u32::try_from(column) == Ok(word(key, at))).map(|at| at + 4),
    }
}

/// The four bytes of a row's key at `at`, which are there.
fn word(key: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([key[at], key[at + 1], key[at + 2], key[at + 3]])
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
