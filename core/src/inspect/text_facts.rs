//! What a column's distinct cells show as text, whatever type the column
//! is read as: which are blank, the first values, lengths, the shape, the
//! formats and blank space at either end.
//!
//! None of it depends on the type, so it is read in the same pass over the
//! distinct cells as the type tally (`mod.rs`), before the type is known.
//! A `string` column then needs no second pass at all: its values are its
//! non-blank cells as written (`profile.rs`), so everything its profile
//! states follows from these facts and the cells' counts. (Reading a text
//! column's cells a second time cost about 6% of `inspect_dataset`'s time,
//! and of its fuel, on a million rows of four text columns.)

use serde_json::Value;

use super::profile::EXAMPLES;
use super::shape::Shape;
use super::values::Seen;
use crate::coerce::CellRef;
use crate::formats::Format;
use crate::py::{repr, text};

/// The text facts of one column's distinct cells, in the order first seen.
pub(super) struct TextFacts {
    /// How many distinct cells were read.
    pub(super) cells: usize,
    /// The blank cells' numbers, ascending.
    pub(super) blanks: Vec<u32>,
    /// The first non-blank cells (at most [`EXAMPLES`]), as given.
    pub(super) first_values: Vec<Value>,
    /// Fewest and most characters of a non-blank value's text.
    pub(super) length: Option<(usize, usize)>,
    pub(super) shape: Shape,
    /// The formats every non-blank value (so far) has.
    pub(super) formats: Vec<Format>,
    /// Text values with blank space at either end, and the first row of one.
    pub(super) padded: usize,
    pub(super) first_padded: Option<(usize, Option<usize>)>,
}

impl Default for TextFacts {
    fn default() -> Self {
        TextFacts {
            cells: 0,
            blanks: Vec::new(),
            first_values: Vec::new(),
            length: None,
            shape: Shape::default(),
            formats: Format::ALL.to_vec(),
            padded: 0,
            first_padded: None,
        }
    }
}

impl TextFacts {
    /// Read the next distinct cell.
    pub(super) fn add(&mut self, seen: &Seen<'_>) {
        let number = self.cells;
        self.cells += 1;
        if seen.cell.is_blank() {
            self.blanks.push(u32::try_from(number).unwrap_or(u32::MAX));
            return;
        }
        if self.first_values.len() < EXAMPLES {
            self.first_values.push(seen.cell.to_value());
        }
        let owned;
        let text: &str = match seen.cell {
            CellRef::Text(s) => s,
            CellRef::Json(value) => {
                owned = repr::str_of(value);
                &owned
            }
            CellRef::Null => return,
        };
        let length = if text.is_ascii() { text.len() } else { text.chars().count() };
        self.length = Some(self.length.map_or((length, length), |(low, high)| (low.min(length), high.max(length))));
        self.shape.add(text);
        if !self.formats.is_empty() {
            self.formats.retain(|format| format.matches(text));
        }
        if matches!(seen.cell, CellRef::Text(_)) && text::strip(text).len() != text.len() {
            self.padded += seen.count;
            // Cells come in the order first seen: the first padded one is
            // the earliest row with blank space.
            self.first_padded.get_or_insert((seen.row, seen.line));
        }
    }
}
