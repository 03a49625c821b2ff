//! The one pass over the rows: each column's distinct cells as given, each
//! with how many rows have it and the first row that does.
//!
//! Every fact the profile states about a column is a fact about its values,
//! and a value's type, coercion, equality key, length and shape depend on
//! the value alone; so each is worked out once per distinct cell here
//! (`mod.rs` summarises the column from these), not once per row. A
//! million-row column of a few hundred dates costs a few hundred date
//! parses, and the rows are read once.
//!
//! A cell is kept as written: a CSV field's text, a JSON string, a JSON
//! null, or any other JSON value as its JSON text. Two cells are the same
//! cell when they are written the same (`"1"` and `1` differ, `"a"` and
//! `" a"` differ), which is also what a fully repeated row compares
//! (`structure.rs`, by the numbers given here).

use serde_json::Value;

use crate::coerce::CellRef;
use crate::key_table::KeyTable;

/// A cell's kind, the first byte of its key. A text cell's key is also the
/// equality key of its value as text, which `profile.rs` relies on.
const NULL: u8 = b'N';
const TEXT: u8 = crate::value_key::TEXT_TAG;
const JSON: u8 = b'J';

/// No CSV line (a JSON row), as a first line is kept.
const NO_LINE: u32 = u32::MAX;

/// One column's distinct cells, numbered in the order first seen.
#[derive(Default)]
pub(super) struct DistinctCells {
    /// Each cell's key, counted: its number is how many rows have it.
    cells: KeyTable,
    /// Per cell number: the first row that has it, and that row's CSV line.
    first: Vec<(u32, u32)>,
}

/// One row's cells, written as keys, then counted together once the row is
/// read: every column's table is touched first ([`KeyTable::touch`]), so
/// the row's lookups wait on memory at once, not one after another.
#[derive(Default)]
pub(super) struct RowCells {
    keys: Vec<u8>,
    /// Per cell: its column, where its key is in `keys`, and the key's hash.
    cells: Vec<(usize, usize, usize, u32)>,
}

impl RowCells {
    /// Add one cell of the row, in column `column`.
    pub(super) fn add(&mut self, column: usize, cell: CellRef<'_>) {
        let start = self.keys.len();
        match cell {
            CellRef::Null => self.keys.push(NULL),
            CellRef::Text(text) => {
                self.keys.push(TEXT);
                self.keys.extend_from_slice(text.as_bytes());
            }
            CellRef::Json(value) => {
                self.keys.push(JSON);
                // Writing a `Value` into a `Vec` cannot fail.
                let _ = serde_json::to_writer(&mut self.keys, value);
            }
        }
        self.cells.push((column, start, self.keys.len(), 0));
    }

    /// Count the row's cells, of row `row` at CSV line `line`, in `columns`
    /// (one per column, as many as the columns seen), handing each
    /// column's cell number to `numbered`; the row is then empty again.
    pub(super) fn count(
        &mut self,
        columns: &mut Vec<DistinctCells>,
        row: usize,
        line: Option<usize>,
        mut numbered: impl FnMut(usize, u32),
    ) {
        for (column, start, end, hash) in &mut self.cells {
            if *column >= columns.len() {
                columns.resize_with(*column + 1, DistinctCells::default);
            }
            *hash = crate::key_table::hash(&self.keys[*start..*end]);
            columns[*column].cells.touch(*hash);
        }
        for &(column, start, end, hash) in &self.cells {
            numbered(column, columns[column].count(&self.keys[start..end], hash, row, line));
        }
        self.keys.clear();
        self.cells.clear();
    }
}

/// One distinct cell as [`DistinctCells::each`] hands it out.
pub(super) struct Seen<'c> {
    pub(super) cell: CellRef<'c>,
    /// Rows with this cell.
    pub(super) count: usize,
    /// The first of them, and its CSV line.
    pub(super) row: usize,
    pub(super) line: Option<usize>,
}

impl DistinctCells {
    /// Count the cell written as `key` (by [`RowCells`]), of row `row` at
    /// CSV line `line`; returns its number.
    fn count(&mut self, key: &[u8], hash: u32, row: usize, line: Option<usize>) -> u32 {
        let (number, new) = self.cells.count_hashed(key, hash, 1);
        if new {
            let at = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
            self.first.push((at(row), line.map_or(NO_LINE, at)));
        }
        number
    }

    /// The key of cell `number`: its kind's byte, then the cell as written.
    pub(super) fn key(&self, number: usize) -> Option<&[u8]> {
        self.cells.keys().key(number)
    }

    /// How many cells only one row has.
    pub(super) fn singletons(&self) -> usize {
        self.cells.keys().iter().filter(|&(_, count)| count == 1).count()
    }

    /// Per cell number, whether more than one row has the cell.
    pub(super) fn shared(&self) -> Vec<bool> {
        self.cells.keys().iter().map(|(_, count)| count > 1).collect()
    }

    /// Hand every distinct cell to `visit`, in the order first seen.
    ///
    /// A JSON cell (a number, a boolean, an array or an object) is handed
    /// out as `first_value` gives it for the cell's first row (the value in
    /// the rows themselves), read back from its key only where that gives
    /// nothing (a long CSV record's extra fields).
    pub(super) fn each<'v>(&self, first_value: impl Fn(usize) -> Option<&'v Value>, mut visit: impl FnMut(Seen<'_>)) {
        // Every key is one ASCII byte and text (a `&str`, or JSON that
        // serde_json wrote), so the keys together are text: checked once
        // here, then each key is a slice of it.
        let keys = self.cells.keys();
        let all = std::str::from_utf8(keys.arena()).unwrap_or_default();
        for (number, (span, count)) in keys.spans().enumerate() {
            let (row, line) = self.first[number];
            let line = (line != NO_LINE).then_some(line as usize);
            let (count, row) = (count as usize, row as usize);
            let key = all.get(span).unwrap_or_default();
            let (kind, text) = match key.as_bytes().first() {
                Some(&kind) => (kind, &key[1..]),
                None => (NULL, ""),
            };
            match kind {
                TEXT => visit(Seen { cell: CellRef::Text(text), count, row, line }),
                JSON => {
                    let parsed;
                    let value = match first_value(row) {
                        Some(value) => value,
                        None => {
                            parsed = serde_json::from_str(text).unwrap_or(Value::Null);
                            &parsed
                        }
                    };
                    visit(Seen { cell: CellRef::of_json(Some(value)), count, row, line });
                }
                _ => visit(Seen { cell: CellRef::Null, count, row, line }),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn cells_are_the_same_only_when_written_the_same() {
        let values = [json!("1"), json!(1), json!(1.0), json!(" 1"), json!(null), json!("1"), json!([1]), json!(1)];
        let mut columns = Vec::new();
        let mut row_cells = RowCells::default();
        let mut numbers = Vec::new();
        for (row, value) in values.iter().enumerate() {
            row_cells.add(0, CellRef::of_json(Some(value)));
            row_cells.count(&mut columns, row, None, |column, number| {
                assert_eq!(column, 0);
                numbers.push(number);
            });
        }
        let cells = &columns[0];
        // "1" and 1 and 1.0 and " 1" and null and [1] are six cells; rows 5 and 7 repeat rows 0 and 1.
        assert_eq!(numbers, [0, 1, 2, 3, 4, 0, 5, 1]);
        let mut seen = Vec::new();
        cells.each(|_| None, |s| seen.push((s.cell.to_value(), s.count, s.row)));
        assert_eq!(
            seen,
            [
                (json!("1"), 2, 0),
                (json!(1), 2, 1),
                (json!(1.0), 1, 2),
                (json!(" 1"), 1, 3),
                (json!(null), 1, 4),
                (json!([1]), 1, 6)
            ]
        );
    }
}
