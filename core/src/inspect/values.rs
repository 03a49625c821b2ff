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
//!
//! A column of few distinct cells is counted as the rows are read, in a
//! table small enough to stay in the processor's cache. A column with more
//! ([`CountLimits::direct`]) would have a table of megabytes, where every
//! lookup waits on memory; from then on its cells are only written down,
//! and counted once every row is read (`partition.rs`), where the wait is
//! avoided. Either way a cell's number is its place in the order first seen.

use serde_json::Value;

use super::partition::{Counted, Counts, KeyCounter};
use crate::coerce::CellRef;
use crate::key_table::{append_bytes, KeyList};

/// A cell's kind, the first byte of its key. A text cell's key is also the
/// equality key of its value as text, which `profile.rs` relies on.
const NULL: u8 = b'N';
const TEXT: u8 = crate::value_key::TEXT_TAG;
const JSON: u8 = b'J';

/// No CSV line (a JSON row), as a first line is kept.
const NO_LINE: u32 = u32::MAX;

/// How cells are counted: parameters, so that the tests can make small
/// data take every path.
#[derive(Clone, Copy)]
pub(super) struct CountLimits {
    /// How many distinct cells a column counts as the rows are read before
    /// it writes its cells down instead: a table of this many short keys is
    /// about a megabyte.
    pub(super) direct: usize,
    /// About how many cells each partition of a written-down column holds.
    pub(super) partition: usize,
}

impl Default for CountLimits {
    fn default() -> Self {
        CountLimits { direct: 1 << 15, partition: 1 << 12 }
    }
}

/// One column's distinct cells, numbered in the order first seen.
#[derive(Default)]
pub(super) struct DistinctCells {
    /// Each cell's key, in number order, counted: its number is how many rows have it.
    keys: KeyList,
    /// Per cell number: the first row that has it, and that row's CSV line.
    first: Vec<(u32, u32)>,
}

/// The cells of every column as the rows are read.
#[derive(Default)]
pub(super) struct CellCounter {
    limits: CountLimits,
    columns: Vec<ColumnCounter>,
    /// Per row: its CSV line, or [`NO_LINE`].
    lines: Vec<u32>,
}

/// One column's cells as the rows are read: counted, then, past the
/// direct limit, written down (`partition.rs`).
struct ColumnCounter {
    counter: KeyCounter,
    /// Per cell counted at once and new: its row and line.
    first: Vec<(u32, u32)>,
    late: LateRows,
}

/// The rows of a column's written-down cells, one cell per row.
#[derive(Default)]
struct LateRows {
    /// How many cells were written down.
    cells: usize,
    /// The first one's row: the cells are of that row and the rows after
    /// it, until a row lacks the column; then every cell's row is in `rows`.
    first_row: u32,
    rows: Vec<u32>,
}

impl LateRows {
    fn row(&self, cell: usize) -> u32 {
        match self.rows.get(cell) {
            Some(&row) => row,
            None => self.first_row + cell as u32,
        }
    }

    fn note_row(&mut self, row: u32) {
        let cell = self.cells;
        if cell == 0 {
            self.first_row = row;
        } else if self.rows.is_empty() && row != self.first_row + cell as u32 {
            self.rows = (0..cell).map(|cell| self.first_row + cell as u32).collect();
        }
        if !self.rows.is_empty() {
            self.rows.push(row);
        }
        self.cells += 1;
    }
}

/// Each row's CSV line, by row index (kept once, here, for every list
/// that locates a row).
pub(super) struct RowLines(Vec<u32>);

impl RowLines {
    /// The CSV line row `row` starts on; `None` for a JSON row.
    pub(super) fn line(&self, row: usize) -> Option<usize> {
        self.0.get(row).filter(|&&line| line != NO_LINE).map(|&line| line as usize)
    }
}

/// The numbers a column's cells were given after the rows were read: the
/// cells of rows from `from_row` on, in row order.
pub(super) struct LateNumbers {
    pub(super) from_row: usize,
    pub(super) numbers: Vec<u32>,
}

fn at(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Write the key of `cell`: its kind's byte, then the cell as written.
fn write_key(cell: CellRef<'_>, out: &mut Vec<u8>) {
    match cell {
        CellRef::Null => out.push(NULL),
        CellRef::Text(text) => {
            out.push(TEXT);
            append_bytes(out, text.as_bytes());
        }
        CellRef::Json(value) => {
            out.push(JSON);
            // Writing a `Value` into a `Vec` cannot fail.
            let _ = serde_json::to_writer(&mut *out, value);
        }
    }
}

impl CellCounter {
    pub(super) fn with_limits(limits: CountLimits) -> Self {
        CellCounter { limits, ..CellCounter::default() }
    }

    /// A row begins, at CSV line `line`: rows are numbered from 0 in the order begun.
    pub(super) fn row(&mut self, line: Option<usize>) {
        self.lines.push(line.map_or(NO_LINE, at));
    }

    /// One cell of the row begun last, in column `column`: its number, or
    /// `None` when it is numbered once every row is read ([`CellCounter::finish`]).
    pub(super) fn add(&mut self, column: usize, cell: CellRef<'_>) -> Option<u32> {
        if column >= self.columns.len() {
            let CountLimits { direct, partition } = self.limits;
            self.columns.resize_with(column + 1, || ColumnCounter {
                counter: KeyCounter::new(direct, partition),
                first: Vec::new(),
                late: LateRows::default(),
            });
        }
        let row = at(self.lines.len().saturating_sub(1));
        let column = &mut self.columns[column];
        let written = |out: &mut Vec<u8>| {
            write_key(cell, out);
            true
        };
        match column.counter.count(written, 1) {
            Some(Counted::Now(number, new)) => {
                if new {
                    column.first.push((row, self.lines[row as usize]));
                }
                Some(number)
            }
            // Written down (every cell has a key, so it is never `None`).
            _ => {
                column.late.note_row(row);
                None
            }
        }
    }

    /// Every row is read: each of `columns` columns' distinct cells; for a
    /// column whose cells were written down, the numbers they have; and
    /// each row's line.
    ///
    /// `dense`, when the rows are kept column by column (`structure.rs`),
    /// holds each column's cell numbers up to its first written-down cell;
    /// every row has every column, so the written-down cells are of every
    /// row from there on, and their numbers are appended there, not put in
    /// a list of their own to be copied after (a million numbers, written
    /// and copied, per column of ids).
    pub(super) fn finish(
        self,
        columns: usize,
        mut dense: Option<&mut Vec<Vec<u32>>>,
    ) -> (Vec<DistinctCells>, Vec<Option<LateNumbers>>, RowLines) {
        let CellCounter { columns: counters, lines, .. } = self;
        let (mut cells, mut late): (Vec<DistinctCells>, Vec<Option<LateNumbers>>) = counters
            .into_iter()
            .enumerate()
            .map(|(at, counter)| {
                let kept = dense.as_deref_mut().and_then(|columns| columns.get_mut(at));
                finish_column(counter, &lines, kept)
            })
            .unzip();
        cells.resize_with(columns.max(cells.len()), DistinctCells::default);
        late.resize_with(cells.len(), || None);
        (cells, late, RowLines(lines))
    }
}

/// A column's distinct cells, in the order first seen, each with its
/// first row; and, when cells were written down, the numbers they have:
/// appended to `kept`, the column's cells kept column by column (`None`
/// returned), or else as [`LateNumbers`].
fn finish_column(
    column: ColumnCounter,
    lines: &[u32],
    kept: Option<&mut Vec<u32>>,
) -> (DistinctCells, Option<LateNumbers>) {
    let ColumnCounter { counter, mut first, late: rows } = column;
    let from_row = rows.first_row as usize;
    let (Counts { keys, late, late_firsts }, appended) = match kept {
        Some(kept) => {
            // Kept up to the first written-down cell, and every row after has one.
            debug_assert!(rows.cells == 0 || (rows.rows.is_empty() && kept.len() == from_row));
            (counter.finish_appending(kept), true)
        }
        None => (counter.finish(), false),
    };
    // Each new cell written down has its first row where it was written.
    for cell in late_firsts {
        let row = rows.row(cell as usize);
        first.push((row, lines[row as usize]));
    }
    let late = (rows.cells > 0 && !appended).then_some(LateNumbers { from_row, numbers: late });
    (DistinctCells { keys, first }, late)
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
    /// The key of cell `number`: its kind's byte, then the cell as written.
    pub(super) fn key(&self, number: usize) -> Option<&[u8]> {
        self.keys.key(number)
    }

    /// How many distinct cells the column has.
    pub(super) fn len(&self) -> usize {
        self.keys.len()
    }

    /// How many rows have each cell, by number.
    pub(super) fn counts(&self) -> impl Iterator<Item = u32> + '_ {
        self.keys.values()
    }

    /// How many cells only one row has.
    pub(super) fn singletons(&self) -> usize {
        self.keys.values().filter(|&count| count == 1).count()
    }

    /// Per cell number, whether more than one row has the cell.
    pub(super) fn shared(&self) -> Vec<bool> {
        self.keys.values().map(|count| count > 1).collect()
    }

    /// The cells, to be handed out in one pass or several
    /// ([`ReadCells::each`]).
    pub(super) fn read(&self) -> ReadCells<'_> {
        // Every key is one ASCII byte and text (a `&str`, or JSON that
        // serde_json wrote), so the keys together are text: checked once
        // here, not once per pass, then each key is a slice of it.
        ReadCells { cells: self, all: std::str::from_utf8(self.keys.arena()).unwrap_or_default() }
    }
}

/// A column's distinct cells, their keys read as text.
pub(super) struct ReadCells<'c> {
    cells: &'c DistinctCells,
    all: &'c str,
}

impl ReadCells<'_> {
    /// Hand every distinct cell to `visit`, in the order first seen.
    ///
    /// A JSON cell (a number, a boolean, an array or an object) is handed
    /// out as `first_value` gives it for the cell's first row (the value in
    /// the rows themselves), read back from its key only where that gives
    /// nothing (a long CSV record's extra fields).
    pub(super) fn each<'v>(&self, first_value: impl Fn(usize) -> Option<&'v Value>, mut visit: impl FnMut(Seen<'_>)) {
        let ReadCells { cells, all } = *self;
        for (number, (span, count)) in cells.keys.spans().enumerate() {
            let (row, line) = cells.first[number];
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

    /// Each cell's number, late ones filled in, and the distinct cells.
    fn count(values: &[Value], limits: CountLimits) -> (Vec<u32>, Vec<(Value, usize, usize)>) {
        let mut counter = CellCounter::with_limits(limits);
        let mut numbers: Vec<Option<u32>> = Vec::new();
        for value in values {
            counter.row(None);
            numbers.push(counter.add(0, CellRef::of_json(Some(value))));
        }
        let (columns, late, _) = counter.finish(1, None);
        let mut late = late.into_iter().flatten().flat_map(|late| late.numbers);
        let numbers = numbers.into_iter().map(|number| number.or_else(|| late.next()).expect("a number")).collect();
        let mut seen = Vec::new();
        columns[0].read().each(|_| None, |s| seen.push((s.cell.to_value(), s.count, s.row)));
        (numbers, seen)
    }

    #[test]
    fn cells_are_the_same_only_when_written_the_same() {
        let values = [json!("1"), json!(1), json!(1.0), json!(" 1"), json!(null), json!("1"), json!([1]), json!(1)];
        // "1" and 1 and 1.0 and " 1" and null and [1] are six cells; rows 5 and 7 repeat rows 0 and 1.
        let expected = (
            vec![0, 1, 2, 3, 4, 0, 5, 1],
            vec![
                (json!("1"), 2, 0),
                (json!(1), 2, 1),
                (json!(1.0), 1, 2),
                (json!(" 1"), 1, 3),
                (json!(null), 1, 4),
                (json!([1]), 1, 6),
            ],
        );
        // Counted as read; and from the second distinct cell, or the
        // fourth, on, written down and numbered after.
        for limits in
            [CountLimits::default(), CountLimits { direct: 2, partition: 1 }, CountLimits { direct: 4, partition: 2 }]
        {
            assert_eq!(count(&values, limits), expected, "direct {}", limits.direct);
        }
    }

    #[test]
    fn a_written_down_column_with_gaps_keeps_each_cells_row_and_line() {
        // Column 1 is absent from rows 2 and 5: its cells are rows 0, 1, 3,
        // 4, 6. With a direct limit of one cell, each column counts its
        // first cell and writes down the rest; the rows of those written
        // down must still be the ones they came from.
        let mut counter = CellCounter::with_limits(CountLimits { direct: 1, partition: 1 });
        let rows = [Some("a"), Some("b"), None, Some("c"), Some("b"), None, Some("d")];
        let mut direct = Vec::new();
        for (row, cell) in rows.iter().enumerate() {
            counter.row(Some(row + 2));
            counter.add(0, CellRef::Text("same"));
            if let Some(text) = cell {
                direct.push(counter.add(1, CellRef::Text(text)));
            }
        }
        let (columns, late, _) = counter.finish(3, None);
        assert_eq!(direct, [Some(0), None, None, None, None]);
        let late: Vec<Option<(usize, Vec<u32>)>> =
            late.into_iter().map(|late| late.map(|late| (late.from_row, late.numbers))).collect();
        // Column 0's cells are all its first; column 2 has no cells at all.
        assert_eq!(late, [Some((1, vec![0; 6])), Some((1, vec![1, 2, 1, 3])), None]);
        let mut seen = Vec::new();
        columns[1].read().each(|_| None, |s| seen.push((s.cell.to_value(), s.count, s.row, s.line)));
        assert_eq!(
            seen,
            [
                (json!("a"), 1, 0, Some(2)),
                (json!("b"), 2, 1, Some(3)),
                (json!("c"), 1, 3, Some(5)),
                (json!("d"), 1, 6, Some(8))
            ]
        );
        assert_eq!(columns[2].singletons(), 0);
    }
}
