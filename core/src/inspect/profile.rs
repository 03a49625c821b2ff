//! Every value of a column read as the column's type, as `validate_rows`
//! would read it under the drafted contract: once per distinct cell
//! (`values.rs`), weighted by how many rows have it, and, for a mixed
//! column, row by row for the rows whose value is an exception.
//!
//! Distinct values are counted by the same equality keys `unique` and the
//! primary key compare (`value_key.rs`, one entry per distinct value in a
//! `key_table.rs`), so "distinct on every row" here means exactly that a
//! `unique` rule passes. Extremes, lengths, shapes and formats are facts
//! about the data; `draft.rs` decides which of them become rules.

use serde_json::Value;

use super::partition::{Counted, Counts, KeyCounter};
use super::shape::Shape;
use super::text_facts::TextFacts;
use super::types::{takes, TypeTally};
use super::values::CountLimits;
use super::values::{DistinctCells, Seen};
use crate::coerce::{coerce, CellRef, Coerced};
use crate::contract::ColumnType;
use crate::formats::Format;
use crate::key_table::KeyList;
use crate::py::value::Cell;
use crate::source::Capped;
use crate::value_key::append_key;

/// How many exceptions a `mixed_types` finding quotes.
pub(super) const FIRST_EXCEPTIONS: usize = 5;

/// How many distinct values a profile shows as examples.
pub(super) const EXAMPLES: usize = 3;

/// The entry of a cell whose value has none (see [`ValueProfile::entry_of`]).
pub(super) const NO_ENTRY: u32 = u32::MAX;

/// The entry of a cell whose value was written down to be numbered once
/// every value is read (see [`KeyCounter`]).
const LATE_ENTRY: u32 = u32::MAX - 1;

/// A value of a row whose cell does not take the type most of the column takes.
pub(super) struct Exception {
    pub(super) row: usize,
    pub(super) line: Option<usize>,
    pub(super) value: Value,
}

/// Where a value orders among the column's values.
#[derive(Clone, Copy, PartialEq, PartialOrd)]
enum Order {
    Number(f64),
    Date(i32),
    /// A datetime's instant; naive and aware ones do not compare.
    Datetime {
        instant: i64,
        aware: bool,
    },
}

/// The smallest and largest value, with the value as it reads.
#[derive(Default)]
pub(super) struct Extremes {
    least: Option<(Order, Value)>,
    most: Option<(Order, Value)>,
    /// Naive and aware datetimes both seen: they have no order.
    mixed: bool,
}

impl Extremes {
    fn add(&mut self, order: Order, value: impl Fn() -> Value) {
        if let (Some((Order::Datetime { aware: a, .. }, _)), Order::Datetime { aware: b, .. }) = (&self.least, order) {
            self.mixed |= *a != b;
        }
        if self.least.as_ref().is_none_or(|(least, _)| order < *least) {
            self.least = Some((order, value()));
        }
        if self.most.as_ref().is_none_or(|(most, _)| order > *most) {
            self.most = Some((order, value()));
        }
    }

    /// The least and greatest values, when the values have an order.
    pub(super) fn range(&self) -> Option<(&Value, &Value)> {
        if self.mixed {
            return None;
        }
        Some((&self.least.as_ref()?.1, &self.most.as_ref()?.1))
    }
}

/// A column's distinct values, each as its equality key, by entry number.
enum DistinctValues<'c> {
    /// The keys written for the values (every type but `string`).
    Keys(KeyList),
    /// A `string` column's values are its distinct text cells, compared as
    /// written, and a text cell's key (`values.rs`) is the key of its
    /// value as text (`value_key.rs`): so no key is written again. Every
    /// cell but a blank one is an entry, in order, so the entries follow
    /// from the blank cells' numbers alone (ascending): nothing is kept per
    /// entry (two lists of a million numbers each, for a column of ids).
    /// (`blanks` are the cells without an entry: only blank cells are.)
    Cells { cells: &'c DistinctCells, blanks: Vec<u32> },
}

/// What the values of one column show, read as its type.
pub(super) struct ValueProfile<'c> {
    /// The type the column is read as (`any` for a column with no type).
    pub(super) read_as: ColumnType,
    /// One entry per distinct value (by equality key), numbered in the
    /// order first seen; `counts[n]` is how many values entry `n` has.
    distinct: DistinctValues<'c>,
    /// What numbers each value's entry while the values are read, for
    /// every type but `string`: a string column's distinct cells (as
    /// written, `values.rs`) are its distinct values (compared as written),
    /// so each is a new entry. Given up by [`ValueProfile::finish`], which
    /// numbers the entries it wrote down ([`LATE_ENTRY`]).
    index: Option<KeyCounter>,
    /// How many values each entry has (for every type but `string`, once
    /// [`ValueProfile::finish`] has counted them).
    pub(super) counts: Vec<u32>,
    /// Per distinct cell (`values.rs`, by cell number), for every type but
    /// `string` (whose entries follow from its blank cells, see
    /// [`DistinctValues::Cells`]): the entry of `distinct` its value has,
    /// or [`NO_ENTRY`] (a blank, or NaN). Read through [`ValueProfile::entry_of`].
    entries: Vec<u32>,
    /// How many distinct cells were read.
    cells_read: usize,
    /// Values with no key (NaN, which equals nothing): never distinct, never repeated.
    pub(super) unkeyed: usize,
    /// The first distinct values, as given.
    pub(super) examples: Vec<Value>,
    pub(super) extremes: Extremes,
    /// Some value is below zero (as a `min: 0` rule would find it).
    pub(super) negative: bool,
    /// Fewest and most characters of a value's text.
    pub(super) length: Option<(usize, usize)>,
    pub(super) shape: Shape,
    /// The formats every value (so far) has: only for a `string` column.
    pub(super) formats: Vec<Format>,
    /// A `boolean` column's distinct words as written (text cells only),
    /// each with what it reads as, in the order first seen: what a Table
    /// Schema's `trueValues` and `falseValues` must list.
    pub(super) words: Vec<(String, bool)>,
    /// Text values with blank space at either end, and the first row of one.
    pub(super) padded: usize,
    pub(super) first_padded: Option<(usize, Option<usize>)>,
    /// The narrower type most values take, when the column is mixed, and the
    /// rows whose value does not take it.
    pub(super) near: Option<ColumnType>,
    pub(super) exceptions: Capped<Exception>,
    /// The first few exceptions whatever the cap: the finding about them
    /// quotes them, and a finding does not depend on what is listed.
    pub(super) first_exceptions: Vec<Exception>,
}

impl<'c> ValueProfile<'c> {
    /// The profile of a column whose values counted `tally`, whose
    /// distinct cells are `cells` and show `text` as text. A `string`
    /// column's profile is then complete; any other column's values are
    /// read next, one distinct cell at a time ([`ValueProfile::add`], while
    /// [`ValueProfile::reads_values`]).
    pub(super) fn new(
        tally: &TypeTally,
        text: TextFacts,
        cells: &'c DistinctCells,
        limits: CountLimits,
        cap: Option<usize>,
    ) -> Self {
        let read_as = tally.chosen().unwrap_or(ColumnType::Any);
        let TextFacts { cells: cells_read, blanks, first_values, length, shape, formats, padded, first_padded } = text;
        let mut profile = ValueProfile {
            read_as,
            distinct: DistinctValues::Keys(KeyList::default()),
            index: None,
            counts: Vec::new(),
            entries: Vec::new(),
            cells_read: 0,
            unkeyed: 0,
            examples: Vec::new(),
            extremes: Extremes::default(),
            negative: false,
            length,
            shape,
            formats: Vec::new(),
            words: Vec::new(),
            padded,
            first_padded,
            near: tally.mixed().map(|(near, _)| near),
            exceptions: Capped::new(cap),
            first_exceptions: Vec::new(),
        };
        if read_as == ColumnType::String {
            // Every non-blank cell is text and a new entry, in order.
            profile.counts = non_blank_counts(cells, &blanks);
            profile.examples = first_values;
            profile.formats = formats;
            profile.cells_read = cells_read;
            profile.distinct = DistinctValues::Cells { cells, blanks };
        } else {
            // Not fewer than the examples: they are the first entries, which
            // the index must give at once.
            profile.index = Some(KeyCounter::new(limits.direct.max(EXAMPLES), limits.partition));
        }
        profile
    }

    /// Whether the column's values are still to be read ([`ValueProfile::add`]):
    /// all but a `string` column's.
    pub(super) fn reads_values(&self) -> bool {
        self.index.is_some()
    }

    /// Read one distinct cell of a column not read as `string` (`values.rs`):
    /// every fact about its value but the exceptions, which are rows
    /// ([`ValueProfile::add_row`]).
    pub(super) fn add(&mut self, seen: &Seen<'_>) {
        let cell = seen.cell;
        self.cells_read += 1;
        if cell.is_blank() {
            self.no_entry();
            return;
        }
        // The column's type is one every non-blank value takes.
        let Ok(value) = coerce(cell, self.read_as) else {
            debug_assert!(false, "a value refuses its column's type");
            self.no_entry();
            return;
        };
        if let (CellRef::Text(text), Coerced::Cell(Cell::Json(Value::Bool(reads)))) = (cell, &value) {
            self.words.push((text.to_owned(), *reads));
        }
        let entry = self.add_distinct(&value, seen);
        self.entries.push(entry);
        self.add_order(&value);
    }

    /// The distinct cell just read has no entry.
    fn no_entry(&mut self) {
        self.entries.push(NO_ENTRY);
    }

    /// The entry of the value of distinct cell `cell` (`values.rs`, by
    /// cell number), or [`NO_ENTRY`] (a blank, or NaN); `None` past the
    /// cells read. Two rows have equal values exactly when their cells'
    /// entries are equal, which is what a key of several columns compares
    /// (`key_pair.rs`).
    pub(super) fn entry_of(&self, cell: usize) -> Option<u32> {
        match &self.distinct {
            DistinctValues::Keys(_) => self.entries.get(cell).copied(),
            DistinctValues::Cells { blanks, .. } => {
                if cell >= self.cells_read {
                    return None;
                }
                let cell = u32::try_from(cell).ok()?;
                Some(match blanks.binary_search(&cell) {
                    Ok(_) => NO_ENTRY,
                    // Every cell before it is an entry but the blank ones.
                    Err(blanks_before) => cell - blanks_before as u32,
                })
            }
        }
    }

    /// Whether the column is mixed and a later row may be one of its
    /// exceptions still to be listed: `total` is how many there are.
    pub(super) fn wants_rows(&self, total: usize) -> bool {
        self.near.is_some()
            && self.exceptions.total() < total
            && (self.first_exceptions.len() < FIRST_EXCEPTIONS || self.exceptions.has_room())
    }

    /// Read one cell of row `row` (at CSV line `line`) of a mixed column:
    /// an exception when it does not take the type most values take.
    pub(super) fn add_row(&mut self, cell: CellRef<'_>, row: usize, line: Option<usize>) {
        let Some(near) = self.near else { return };
        if cell.is_blank() || takes(cell, near) {
            return;
        }
        let exception = || Exception { row, line, value: cell.to_value() };
        if self.first_exceptions.len() < FIRST_EXCEPTIONS {
            self.first_exceptions.push(exception());
        }
        if self.exceptions.has_room() {
            self.exceptions.push(exception());
        } else {
            self.exceptions.skip();
        }
    }

    /// The exceptions not read row by row, once `total` are known: counted.
    pub(super) fn count_unread_exceptions(&mut self, total: usize) {
        self.exceptions.skip_many(total.saturating_sub(self.exceptions.total()));
    }

    /// Count the value of a distinct cell; returns its entry, or
    /// [`NO_ENTRY`] for a value with no key.
    fn add_distinct(&mut self, value: &Coerced<'_>, seen: &Seen<'_>) -> u32 {
        let count = u32::try_from(seen.count).unwrap_or(u32::MAX);
        let entry = match &mut self.index {
            Some(index) => match index.count(|out| append_key(value, out), count) {
                None => {
                    self.unkeyed += seen.count;
                    return NO_ENTRY;
                }
                // The examples are the first entries, which the index
                // gives at once: it writes values down only past them.
                Some(Counted::Later) => return LATE_ENTRY,
                Some(Counted::Now(entry, false)) => return entry,
                Some(Counted::Now(entry, true)) => entry,
            },
            None => return NO_ENTRY,
        };
        // A new entry. In the order first seen, as the values' first rows are.
        if self.examples.len() < EXAMPLES {
            self.examples.push(seen.cell.to_value());
        }
        entry
    }

    fn add_order(&mut self, value: &Coerced<'_>) {
        let order = match (self.read_as, value) {
            (ColumnType::Integer | ColumnType::Number, _) => match value.to_float() {
                Some(x) if !x.is_nan() => {
                    self.negative |= x < 0.0;
                    Order::Number(x)
                }
                _ => return,
            },
            (ColumnType::Date, Coerced::Date(y, m, d)) => Order::Date(crate::py::isodate::date_ordinal(*y, *m, *d)),
            (ColumnType::Datetime, Coerced::Datetime(moment)) => {
                Order::Datetime { instant: moment.instant(), aware: moment.offset.is_some() }
            }
            _ => return,
        };
        self.extremes.add(order, || value.json_safe());
    }

    /// Every value is read: the index goes, the distinct values stay.
    pub(super) fn finish(&mut self) {
        if let Some(index) = self.index.take() {
            let Counts { keys, late, .. } = index.finish();
            let mut late = late.into_iter();
            for entry in self.entries.iter_mut().filter(|entry| **entry == LATE_ENTRY) {
                *entry = late.next().unwrap_or(NO_ENTRY);
            }
            self.counts = keys.values().collect();
            self.distinct = DistinctValues::Keys(keys);
        }
    }

    /// The equality key of entry `entry` (`value_key.rs`).
    pub(super) fn value_key(&self, entry: usize) -> Option<&[u8]> {
        match &self.distinct {
            DistinctValues::Keys(keys) => keys.key(entry),
            DistinctValues::Cells { cells, blanks } => cells.key(cell_of_entry(blanks, entry)),
        }
    }

    /// Every entry's equality key, in entry order.
    pub(super) fn value_keys(&self) -> impl Iterator<Item = &[u8]> + '_ {
        (0..self.counts.len()).filter_map(|entry| self.value_key(entry))
    }

    /// How many distinct values the column has (NaN, which has no key, not counted).
    pub(super) fn distinct_count(&self) -> usize {
        self.counts.len()
    }

    /// Every value appears once and has a key.
    pub(super) fn all_distinct(&self) -> bool {
        self.unkeyed == 0 && self.counts.iter().all(|&count| count == 1)
    }
}

/// Each non-blank cell's count, in cell order: a `string` column's
/// entries' counts, when `blanks` (ascending) are its blank cells.
fn non_blank_counts(cells: &DistinctCells, blanks: &[u32]) -> Vec<u32> {
    let mut blanks = blanks.iter().copied().peekable();
    let mut counts = Vec::with_capacity(cells.len().saturating_sub(blanks.len()));
    for (number, count) in cells.counts().enumerate() {
        if blanks.next_if_eq(&(number as u32)).is_none() {
            counts.push(count);
        }
    }
    counts
}

/// The number of the cell that is entry `entry` of a `string` column whose
/// blank cells are `blanks` (ascending): `entry` plus the blank cells
/// before it. Blank cell `blanks[i]` comes before it when the non-blank
/// cells before that blank, `blanks[i] - i`, are at most `entry`; that
/// count never falls as `i` grows, so the blanks before it are a prefix.
fn cell_of_entry(blanks: &[u32], entry: usize) -> usize {
    let (mut low, mut high) = (0, blanks.len());
    while low < high {
        let middle = usize::midpoint(low, high);
        if blanks[middle] as usize - middle <= entry {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    entry + low
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_string_columns_entries_skip_its_blank_cells_both_ways() {
        // Cells 0..12 with the blank ones at the start, in a run, alone and
        // at the end: the entries are the other cells, in order, and each
        // entry's cell is found again from the blanks alone.
        for blanks in [vec![], vec![0], vec![0, 1, 2], vec![3, 4, 7], vec![11], vec![2, 5, 6, 10, 11]] {
            let entries: Vec<usize> = (0..12).filter(|cell| !blanks.contains(&(*cell as u32))).collect();
            for (entry, &cell) in entries.iter().enumerate() {
                assert_eq!(cell_of_entry(&blanks, entry), cell, "entry {entry} with blanks {blanks:?}");
            }
        }
    }
}
