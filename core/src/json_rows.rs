//! `rows` given as a JSON array, read from its text one row at a time
//! instead of as one tree.
//!
//! Parsed as a `serde_json::Value`, a row of four short columns is an
//! ordered map with a hashed index, four owned keys and four owned
//! strings: on 100,000 rows that was most of a `validate_rows` call whose
//! result lists 25 of them (a JSON call took 8 times as long per row as the
//! same rows as CSV). Here the text is kept, and one pass over it
//! ([`RowsText::read`], through `json_scan.rs`) checks its syntax and notes
//! where each row and each row object's members lie; a check reads the
//! cells it asks for from the row's text; a row is built as a `Value` only
//! where a result lists it, from its own text, so it is the value the tree
//! would have held.
//!
//! **The same rows as the tree, or no text.** The pass accepts only text
//! that `serde_json` reads, and reads the same way (`json_scan.rs`);
//! anything else turns the text down, and the caller parses it whole, as
//! before, with its errors. A row object whose keys hold escapes, or
//! repeat, has no cells here ([`ObjectRow::cells`]): it is read as a tree,
//! as `serde_json` would resolve them.
//!
//! **Layouts.** Rows mostly have the same keys in the same order. Each row
//! object's keys are compared with the last few layouts (key lists) seen,
//! and a row of a known layout stores only where its values lie; a check
//! then finds a column's position once per layout, not once per row
//! ([`ObjectCells::layout`]).

use std::borrow::Cow;

use serde_json::Value;

use crate::coerce::CellRef;
use crate::json_scan::{Scan, MOST_DEPTH};
use crate::json_write::{self, put_bytes};
use crate::key_table::same_bytes;

/// How many recent layouts a row's keys are compared with before they are
/// taken as a new one.
const RECENT_LAYOUTS: usize = 4;

/// A key list longer than this is checked for repeats by sorting it.
const FEW_KEYS: usize = 16;

/// Marks a value span whose text is a string holding an escape.
const ESCAPED: u32 = 1 << 31;

/// Where a row, key or value lies in [`RowsText::text`].
#[derive(Clone, Copy)]
struct Span {
    start: u32,
    /// The end, with [`ESCAPED`] set for a string holding an escape.
    end: u32,
}

impl Span {
    fn text(self, text: &str) -> &str {
        &text[self.start as usize..(self.end & !ESCAPED) as usize]
    }
}

/// One row: its span, and for an object with a layout, which one and where
/// its values are in [`RowsText::values`].
#[derive(Clone, Copy)]
struct RowSpan {
    span: Span,
    /// An index into [`RowsText::layouts`], or [`NOT_OBJECT`] or [`KEYS_AS_TREE`].
    layout: u32,
    first_value: u32,
}

/// A row that is no object.
const NOT_OBJECT: u32 = u32::MAX;
/// A row object whose keys hold escapes or repeat.
const KEYS_AS_TREE: u32 = u32::MAX - 1;

/// The keys of rows that share them, in order: where they are in [`RowsText::keys`].
#[derive(Clone, Copy)]
struct Layout {
    first_key: u32,
    len: u32,
}

/// The text of a `rows` array, with where each row, and each row object's
/// members, are.
pub(crate) struct RowsText {
    text: String,
    rows: Vec<RowSpan>,
    /// The values of every row object with a layout, row after row.
    values: Vec<Span>,
    /// The keys of every layout, layout after layout.
    keys: Vec<Span>,
    layouts: Vec<Layout>,
}

/// One row of a [`RowsText`].
pub(crate) enum JsonRow<'t> {
    /// An object, as its text.
    Object(ObjectRow<'t>),
    /// Any other row, as `serde_json` reads it.
    Value(Value),
}

/// A row object as its text: a row that a result lists is read as a tree
/// at once ([`ObjectRow::into_value`]).
#[derive(Clone, Copy)]
pub(crate) struct ObjectRow<'t> {
    rows: &'t RowsText,
    row: RowSpan,
}

/// A row object's members where they lie: keys (plain text, each once) and
/// values' texts.
pub(crate) struct ObjectCells<'t> {
    text: &'t str,
    keys: &'t [Span],
    values: &'t [Span],
    layout: usize,
}

/// Where named columns are among the members of row objects of the layout
/// seen last: found once per layout, not once per row, by every check that
/// reads cells from the rows' text.
#[derive(Default)]
pub(crate) struct ColumnPositions {
    layout: Option<usize>,
    /// `positions[i]`: the member of the `i`th name, if the row has it.
    positions: Vec<Option<usize>>,
}

impl ColumnPositions {
    /// Find where `names` are in `object`'s layout, unless they were found
    /// for that layout last; true when they were found again (a new layout).
    pub(crate) fn refresh<'n>(&mut self, object: &ObjectCells<'_>, names: impl IntoIterator<Item = &'n str>) -> bool {
        if self.layout == Some(object.layout) {
            return false;
        }
        self.positions.clear();
        self.positions.extend(names.into_iter().map(|name| object.position(name)));
        self.layout = Some(object.layout);
        true
    }

    /// The member of the `i`th name in rows of the layout last
    /// [`refresh`](Self::refresh)ed, if they have it.
    pub(crate) fn member(&self, i: usize) -> Option<usize> {
        self.positions.get(i).copied().flatten()
    }

    /// The value of the `i`th name in `object`, a row of the layout last
    /// [`refresh`](Self::refresh)ed.
    pub(crate) fn cell<'t>(&self, object: &ObjectCells<'t>, i: usize) -> JsonCell<'t> {
        debug_assert_eq!(self.layout, Some(object.layout), "refreshed for this row's layout");
        self.positions[i].map_or(JsonCell::Missing, |position| object.cell_at(position))
    }
}

/// The value of a column in a row object, as a check reads it.
pub(crate) enum JsonCell<'t> {
    /// The row has no such column.
    Missing,
    /// A string, unescaped.
    Text(Cow<'t, str>),
    /// Any other value (null included).
    Other(Value),
}

impl RowsText {
    /// The rows array at `scan`'s reading position (its `[`), read past;
    /// `None` when it is not an array, or when reading it row by row could
    /// differ from parsing it whole (module docs).
    pub(crate) fn read(scan: &mut Scan<'_>) -> Option<RowsText> {
        let base = scan.at;
        // Spans are kept as `u32`, with the top bit of a value's end a mark.
        if scan.text.len() - base >= ESCAPED as usize || !scan.eat(b'[') {
            return None;
        }
        let mut rows = RowsText {
            text: String::new(),
            rows: Vec::new(),
            values: Vec::new(),
            keys: Vec::new(),
            layouts: Vec::new(),
        };
        let mut row_keys: Vec<Span> = Vec::new();
        let offset = |at: usize| (at - base) as u32;
        // The layout of the row before, when it had one: the next row's
        // keys are tried against it first.
        let mut last_layout = None;
        scan.space();
        if !scan.eat(b']') {
            loop {
                scan.space();
                let start = scan.at;
                let first_value = rows.values.len() as u32;
                let layout = if scan.peek() == Some(b'{') {
                    let same = last_layout.filter(|&layout| rows.read_object_of_layout(scan, base, layout).is_some());
                    let layout = match same {
                        Some(layout) => layout,
                        None => rows.read_object(scan, base, &mut row_keys)?,
                    };
                    last_layout = (layout < KEYS_AS_TREE).then_some(layout);
                    layout
                } else {
                    scan.value(MOST_DEPTH)?;
                    NOT_OBJECT
                };
                rows.rows.push(RowSpan {
                    span: Span { start: offset(start), end: offset(scan.at) },
                    layout,
                    first_value,
                });
                scan.space();
                if !scan.eat(b',') {
                    break;
                }
            }
            if !scan.eat(b']') {
                return None;
            }
        }
        rows.text.push_str(&scan.text[base..scan.at]);
        Some(rows)
    }

    /// A row object (`scan` at its `{`), read past: its values noted, and
    /// its layout returned.
    fn read_object(&mut self, scan: &mut Scan<'_>, base: usize, row_keys: &mut Vec<Span>) -> Option<u32> {
        let offset = |at: usize| (at - base) as u32;
        let first_value = self.values.len();
        let mut plain_keys = true;
        row_keys.clear();
        scan.object(|scan, key, escaped| {
            plain_keys &= !escaped;
            // The key borrows from the text, so its offset there is where it is.
            let key_start = key.as_ptr() as usize - scan.text.as_ptr() as usize;
            row_keys.push(Span { start: offset(key_start), end: offset(key_start + key.len()) });
            let start = scan.at;
            let mark = read_value(scan)?;
            self.values.push(Span { start: offset(start), end: offset(scan.at) | mark });
            Some(())
        })?;
        let text = &scan.text[base..];
        let layout = if plain_keys { self.layout_of(text, row_keys) } else { None };
        if layout.is_none() {
            self.values.truncate(first_value);
        }
        Some(layout.unwrap_or(KEYS_AS_TREE))
    }

    /// A row object (`scan` at its `{`) read past as a row of `layout`:
    /// its keys, in that order, are compared with the layout's where they
    /// lie, so none is scanned as a string or compared again after. Rows
    /// mostly have the keys of the row before, and this is their path.
    /// `None`, with the reading position and the values noted as they were,
    /// for any other row (other keys, or text not read here): the caller
    /// then reads it the general way ([`Self::read_object`]), which checks
    /// the same syntax in the same places.
    fn read_object_of_layout(&mut self, scan: &mut Scan<'_>, base: usize, layout: u32) -> Option<u32> {
        let start = scan.at;
        let first_value = self.values.len();
        let read = self.read_members_of(scan, base, self.layouts[layout as usize]);
        if read.is_none() {
            scan.at = start;
            self.values.truncate(first_value);
        }
        read.map(|()| layout)
    }

    /// [`Self::read_object_of_layout`]'s reading: `{`, then each of
    /// `layout`'s keys as a plain string (the layout's keys hold no quote,
    /// backslash or control character, so the same bytes between quotes
    /// are the same key), its colon and its value, then `}`.
    fn read_members_of(&mut self, scan: &mut Scan<'_>, base: usize, layout: Layout) -> Option<()> {
        let offset = |at: usize| (at - base) as u32;
        let bytes = scan.text.as_bytes();
        let keys = &self.keys[layout.first_key as usize..][..layout.len as usize];
        scan.eat(b'{').then_some(())?;
        for (i, key) in keys.iter().enumerate() {
            if i > 0 {
                scan.space();
                scan.eat(b',').then_some(())?;
            }
            scan.space();
            let key = key.text(&scan.text[base..]).as_bytes();
            let end = scan.at + key.len() + 2;
            let quoted = bytes.get(scan.at..end)?;
            if quoted[0] != b'"' || quoted[key.len() + 1] != b'"' || !same_bytes(&quoted[1..=key.len()], key) {
                return None;
            }
            scan.at = end;
            scan.space();
            scan.eat(b':').then_some(())?;
            scan.space();
            let start = scan.at;
            let mark = read_value(scan)?;
            self.values.push(Span { start: offset(start), end: offset(scan.at) | mark });
        }
        scan.space();
        scan.eat(b'}').then_some(())
    }

    /// The layout of a row object's keys (`text` is where their spans
    /// point): a recent one they match, or a new one; `None` if a key repeats.
    fn layout_of(&mut self, text: &str, row_keys: &[Span]) -> Option<u32> {
        let same = |layout: &Layout| {
            layout.len as usize == row_keys.len()
                && self.keys[layout.first_key as usize..][..row_keys.len()]
                    .iter()
                    .zip(row_keys)
                    .all(|(known, key)| same_bytes(known.text(text).as_bytes(), key.text(text).as_bytes()))
        };
        let recent = self.layouts.len().saturating_sub(RECENT_LAYOUTS);
        if let Some(found) = (recent..self.layouts.len()).rev().find(|&at| same(&self.layouts[at])) {
            return u32::try_from(found).ok();
        }
        if repeats(text, row_keys) {
            return None;
        }
        let layout = Layout { first_key: self.keys.len() as u32, len: row_keys.len() as u32 };
        self.keys.extend_from_slice(row_keys);
        self.layouts.push(layout);
        u32::try_from(self.layouts.len() - 1).ok()
    }

    /// How many rows there are.
    pub(crate) fn len(&self) -> usize {
        self.rows.len()
    }

    /// Row `index`, which is there.
    pub(crate) fn row(&self, index: usize) -> JsonRow<'_> {
        let row = self.rows[index];
        if row.layout == NOT_OBJECT {
            JsonRow::Value(parse(row.span.text(&self.text)))
        } else {
            JsonRow::Object(ObjectRow { rows: self, row })
        }
    }

    /// Every row as `serde_json` reads it.
    pub(crate) fn into_values(self) -> Vec<Value> {
        self.rows.iter().map(|row| parse(row.span.text(&self.text))).collect()
    }
}

/// A row object's member value (`scan` at its first byte), read past:
/// [`ESCAPED`] for a string holding an escape, else 0.
fn read_value(scan: &mut Scan<'_>) -> Option<u32> {
    if scan.peek() == Some(b'"') {
        Some(if scan.string()? { ESCAPED } else { 0 })
    } else {
        // The row object is one level of nesting.
        scan.value(MOST_DEPTH - 1)?;
        Some(0)
    }
}

/// Whether a key of `keys` (spans in `text`) is there twice.
fn repeats(text: &str, keys: &[Span]) -> bool {
    if keys.len() <= FEW_KEYS {
        return keys
            .iter()
            .enumerate()
            .any(|(at, key)| keys[..at].iter().any(|seen| seen.text(text) == key.text(text)));
    }
    let mut sorted: Vec<&str> = keys.iter().map(|key| key.text(text)).collect();
    sorted.sort_unstable();
    sorted.windows(2).any(|pair| pair[0] == pair[1])
}

impl<'t> ObjectRow<'t> {
    /// The row's members; `None` when a key holds an escape or repeats
    /// (then the row is read as a tree, as `serde_json` resolves them).
    pub(crate) fn cells(&self) -> Option<ObjectCells<'t>> {
        let rows = self.rows;
        let layout = *rows.layouts.get(self.row.layout as usize)?;
        let first_value = self.row.first_value as usize;
        Some(ObjectCells {
            text: &rows.text,
            keys: &rows.keys[layout.first_key as usize..][..layout.len as usize],
            values: &rows.values[first_value..first_value + layout.len as usize],
            layout: self.row.layout as usize,
        })
    }

    /// The row as `serde_json` reads it.
    pub(crate) fn into_value(self) -> Value {
        parse(self.row.span.text(&self.rows.text))
    }
}

impl<'t> ObjectCells<'t> {
    /// The row's keys, in the order written.
    pub(crate) fn keys(&self) -> impl Iterator<Item = &'t str> + Clone + '_ {
        self.keys.iter().map(|key| key.text(self.text))
    }

    /// Where column `name` is among the row's members. Rows of the same
    /// layout (of one [`RowsText`]) have the same keys in the same order, so
    /// a position found for one holds for all ([`ColumnPositions`]).
    fn position(&self, name: &str) -> Option<usize> {
        self.keys.iter().position(|key| same_bytes(key.text(self.text).as_bytes(), name.as_bytes()))
    }

    /// The value of column `name` (the checks use [`cell_of`](Self::cell_of)).
    #[cfg(test)]
    fn cell(&self, name: &str) -> JsonCell<'t> {
        self.position(name).map_or(JsonCell::Missing, |position| self.cell_at(position))
    }

    /// The value of column `name`, its position taken from `known` when
    /// `known` was found for this row's layout (and found and kept there
    /// otherwise): a check that reads one column of many rows.
    pub(crate) fn cell_of(&self, name: &str, known: &mut ColumnPositions) -> JsonCell<'t> {
        known.refresh(self, [name]);
        known.cell(self, 0)
    }

    /// The value of the member at `position` (from [`position`](Self::position)).
    pub(crate) fn cell_at(&self, position: usize) -> JsonCell<'t> {
        let span = self.values[position];
        let value = span.text(self.text);
        if value.starts_with('"') && span.end & ESCAPED == 0 {
            return JsonCell::Text(Cow::Borrowed(&value[1..value.len() - 1]));
        }
        match parse(value) {
            Value::String(text) => JsonCell::Text(Cow::Owned(text)),
            other => JsonCell::Other(other),
        }
    }
}

impl ObjectCells<'_> {
    /// Write the row object as compact JSON text, as `serde_json` writes
    /// the tree it reads as ([`ObjectRow::into_value`]), but with the value
    /// of each member `replaced` names (by position) written as the value
    /// given for it (the last, if it is given twice).
    pub(crate) fn write_compact(&self, out: &mut Vec<u8>, replaced: &[(usize, Value)]) {
        out.push(b'{');
        for (member, (key, value)) in self.keys.iter().zip(self.values).enumerate() {
            if member > 0 {
                out.push(b',');
            }
            // A key with an escape has no layout: this one is plain text.
            out.push(b'"');
            put_bytes(out, key.text(self.text).as_bytes());
            put_bytes(out, b"\":");
            match replaced.iter().rev().find(|(at, _)| *at == member) {
                Some((_, value)) => write_tree(out, value),
                None => write_value_text(out, *value, self.text),
            }
        }
        out.push(b'}');
    }
}

/// A member's value as `serde_json` writes the value it reads the text as:
/// copied where the text is written so already, read and written otherwise.
fn write_value_text(out: &mut Vec<u8>, span: Span, text: &str) {
    let value = span.text(text);
    let bytes = value.as_bytes();
    let as_written = match bytes.first() {
        // With no escape, a string holds nothing `serde_json` escapes: a
        // quote, a backslash or a control character is only there escaped.
        Some(b'"') => span.end & ESCAPED == 0,
        // `true`, `false`, `null`.
        Some(b't' | b'f' | b'n') => true,
        Some(b'-' | b'0'..=b'9') => is_plain_integer(bytes),
        // An object or an array may hold blank space.
        _ => false,
    };
    if as_written {
        put_bytes(out, bytes);
    } else {
        write_tree(out, &parse(value));
    }
}

/// Whether a number's text is an integer that `serde_json` reads as one and
/// writes back as it is: at most 18 digits (well within 64 bits), and not
/// `-0`, which it reads as the float `-0.0`. (The text is valid JSON: no
/// sign but `-`, no leading zero.)
fn is_plain_integer(bytes: &[u8]) -> bool {
    let digits = bytes.strip_prefix(b"-").unwrap_or(bytes);
    (1..=18).contains(&digits.len()) && digits.iter().all(u8::is_ascii_digit) && bytes != b"-0"
}

/// A tree as `serde_json` writes it, compact.
fn write_tree(out: &mut Vec<u8>, value: &Value) {
    // A tree always serialises (its keys are strings, its numbers finite).
    json_write::write(out, value).expect("a JSON value writes");
}

impl JsonCell<'_> {
    /// The cell as the checks read a cell of a JSON row.
    pub(crate) fn cell_ref(&self) -> CellRef<'_> {
        match self {
            JsonCell::Missing => CellRef::Null,
            JsonCell::Text(text) => CellRef::Text(text),
            JsonCell::Other(value) => CellRef::of_json(Some(value)),
        }
    }
}

/// A value's text as `serde_json` reads it; [`RowsText::read`] has checked
/// that it reads.
fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The rows of `text`, when it is one array read row by row.
    fn kept(text: &str) -> Option<RowsText> {
        let mut scan = Scan::new(text);
        scan.space();
        let rows = RowsText::read(&mut scan)?;
        scan.at_end().then_some(rows)
    }

    #[test]
    fn rows_serde_json_would_read_otherwise_or_refuse_are_turned_down() {
        // A row nested one deeper than allowed.
        let deep = format!("[{}1{}]", "[".repeat(MOST_DEPTH + 1), "]".repeat(MOST_DEPTH + 1));
        let huge = format!("[1{}]", "0".repeat(400));
        for text in [
            "[1e400]",
            r#"[{"a": -1E+400}]"#,
            r#"["\ud800"]"#,
            r#"[{"a": "x\udc00"}]"#,
            deep.as_str(),
            huge.as_str(),
            r#"{"a": 1}"#,
            r#""[1]""#,
        ] {
            assert!(kept(text).is_none(), "{text}");
        }
        // Just within: nesting at the limit, a long number that reads, an
        // exponent in range, a surrogate pair.
        let at_limit = format!("[{}1{}]", "[".repeat(MOST_DEPTH), "]".repeat(MOST_DEPTH));
        let long = format!("[0.{}1]", "0".repeat(350));
        for text in [at_limit.as_str(), long.as_str(), "[1e300]", r#"["\ud83d\ude00"]"#] {
            assert!(kept(text).is_some(), "{text}");
        }
    }

    #[test]
    fn each_row_reads_as_serde_json_reads_it() {
        // Blank space everywhere it may be, strings holding the characters
        // the scan looks for, escapes in values and keys, a key given twice,
        // nested values, and rows that are not objects.
        let text = concat!(
            " [ {\"a\" : 1 , \"b\":\"x,}]\\\"\\\\\" ,\"c\":[1,{\"d\":\"}\"}],\"e\":{\"f\":[]}, \"g\" :null,\"h\":true}\n",
            ",\t{\"a\":\"caf\\u00e9\\n\",\"b\":-0.5e-3,\"c\":\"\"} , {} ,{\"k\\u0065y\":1},{\"a\":1,\"a\":2},",
            "[1,2],\"s\",-12,false,null ,{\"long\":\"",
            "abcdefghijklmnopqrstuvwxyz0123456789\"}]"
        );
        let rows = kept(text).expect("kept");
        let expected: Vec<Value> = serde_json::from_str(text).expect("JSON");
        assert_eq!(rows.len(), expected.len());
        let mut objects = 0;
        for (index, expected) in expected.iter().enumerate() {
            match rows.row(index) {
                JsonRow::Object(row) => {
                    let Some(object) = row.cells() else {
                        assert_eq!(row.into_value(), *expected, "row {index}");
                        continue;
                    };
                    objects += 1;
                    let map = expected.as_object().expect("an object row");
                    assert_eq!(object.keys().collect::<Vec<_>>(), map.keys().map(String::as_str).collect::<Vec<_>>());
                    for (key, value) in map {
                        assert_eq!(object.cell(key).cell_ref().to_value(), *value, "row {index}, {key}");
                    }
                    assert!(matches!(object.cell("absent"), JsonCell::Missing));
                    assert_eq!(row.into_value(), *expected);
                }
                JsonRow::Value(value) => assert_eq!(value, *expected, "row {index}"),
            }
        }
        // The escaped key and the repeated key go through the tree.
        assert_eq!(objects, 4);
        assert_eq!(rows.into_values(), expected);
        assert_eq!(kept("[]").map(|rows| rows.len()), Some(0));
        assert_eq!(kept(" [ ] ").map(|rows| rows.len()), Some(0));
    }

    #[test]
    fn a_row_is_written_from_its_text_as_serde_json_writes_its_tree() {
        // The oracle is serde_json itself: each row read as a tree and
        // written compact. Numbers of every kind it reads differently from
        // how they are written (`-0`, exponents, trailing zeros, integers
        // past 64 bits, which it reads as floats), strings with escapes and
        // with characters it writes raw, blank space inside nested values.
        let text = concat!(
            r#"[{"a": 0, "b": -0, "c": -1, "d": 123456789012345678, "e": 1234567890123456789, "#,
            r#""f": 12345678901234567890, "g": 123456789012345678901234, "h": -9223372036854775809, "#,
            r#""i": 1.50, "j": 1e5, "k": 1E+2, "l": -0.0, "m": 2.5e-3, "n": 0.1},"#,
            "\n {\"s\":\"plain caf\u{e9} \u{1f600} \u{7f}\u{2028}\",\"t\":\"\\u00e9\\/\\n\\\"\\\\\\u0001\", ",
            "\"u\" : [ 1 , { \"v\" : null } ], \"w\": { }, \"x\":true,\"y\":false,\"z\":null},",
            r#"{}, {"only": "x"}]"#
        );
        let rows = kept(text).expect("kept");
        let expected: Vec<Value> = serde_json::from_str(text).expect("JSON");
        for (index, tree) in expected.iter().enumerate() {
            let JsonRow::Object(row) = rows.row(index) else { panic!("row {index} is an object") };
            let cells = row.cells().expect("plain keys");
            let mut out = Vec::new();
            cells.write_compact(&mut out, &[]);
            assert_eq!(String::from_utf8(out).expect("UTF-8"), tree.to_string(), "row {index}");
        }
        // A replaced member is written as its new value, in its place; the
        // last value given for a member is the one written.
        let JsonRow::Object(row) = rows.row(0) else { panic!("an object") };
        let mut out = Vec::new();
        row.cells().expect("plain keys").write_compact(&mut out, &[(1, json!(2.5)), (13, json!(1)), (1, json!("x"))]);
        let mut tree = expected[0].clone();
        tree["b"] = json!("x");
        tree["n"] = json!(1);
        assert_eq!(String::from_utf8(out).expect("UTF-8"), tree.to_string());
    }

    #[test]
    fn rows_with_the_same_keys_in_the_same_order_share_a_layout() {
        let many = |repeat: bool| {
            let keys: Vec<String> =
                (0..20).map(|n| format!("\"k{}\":{n}", if repeat && n == 19 { 3 } else { n })).collect();
            format!("{{{}}}", keys.join(","))
        };
        let rows_text = format!(
            r#"[{{"a":1,"b":"x"}}, {{"a":2,"b":"y"}}, {{"b":3,"a":"z"}}, {{"a":4,"b":5}}, {{"a":1,"b":2,"c":3}}, {{"a":"\u0041","b":null}}, {}, {}, {{}}, {{"ab":1}}, {{"a":1,"b":2}}]"#,
            many(true),
            many(false)
        );
        let rows = kept(&rows_text).expect("kept");
        let expected: Vec<Value> = serde_json::from_str(&rows_text).expect("JSON");
        let mut layouts = Vec::new();
        for (index, expected) in expected.iter().enumerate() {
            let JsonRow::Object(row) = rows.row(index) else { panic!("row {index} is an object") };
            let Some(cells) = row.cells() else {
                layouts.push(None);
                continue;
            };
            layouts.push(Some(cells.layout));
            // Each value read by its position is the tree's.
            for (key, value) in expected.as_object().expect("object") {
                let position = cells.position(key).expect("a key of the row");
                assert_eq!(cells.cell_at(position).cell_ref().to_value(), *value, "row {index}, {key}");
            }
        }
        // Rows 0, 1, 3 and 5 have keys a, b; row 2 has them in the other
        // order; row 6 repeats k3 (found by sorting twenty keys) and is read
        // as a tree; an empty row and a key that is a prefix of another's
        // are layouts of their own. Row 10 has keys a, b too, but four other
        // layouts came after theirs (the most that are looked back on), so
        // it starts a new one: a layout says the keys are the same, never
        // that they differ.
        assert_eq!(
            layouts,
            [Some(0), Some(0), Some(1), Some(0), Some(2), Some(0), None, Some(3), Some(4), Some(5), Some(6)]
        );
    }

    #[test]
    fn a_row_with_the_keys_of_the_row_before_is_read_as_any_other_row() {
        // Each row after the first is tried against the layout of the row
        // before (`read_object_of_layout`), then read the general way. The
        // oracle for the values is serde_json; the layouts are reasoned
        // below. Rows 1 and 2 are row 0's keys with blank space everywhere
        // and a value holding escapes.
        let rows_text = concat!(
            r#"[{"ab":1,"c":"x"}, { "ab" : 2 , "c" : "y" } ,{"ab":"\n\"","c":"z"},"#,
            r#"{"a":1,"c":"x"},{"ab":1,"c":"x"},{"abc":1,"c":"x"},{"ab":1,"c":"x"},{"ax":1,"c":"x"},"#,
            r#"{"a\u0062":1,"c":"x"},{"ab":1,"c":"x"},{"ab":1,"c":"x","d":2},{"ab":1},"#,
            r#"{"c":"x","ab":1},{"ab":[1,{"c":2}],"c":{"ab":3}}]"#
        );
        let rows = kept(rows_text).expect("kept");
        let expected: Vec<Value> = serde_json::from_str(rows_text).expect("JSON");
        let mut layouts = Vec::new();
        for (index, expected) in expected.iter().enumerate() {
            let JsonRow::Object(row) = rows.row(index) else { panic!("row {index} is an object") };
            assert_eq!(row.into_value(), *expected, "row {index}");
            let Some(cells) = row.cells() else {
                layouts.push(None);
                continue;
            };
            layouts.push(Some(cells.layout));
            for (key, value) in expected.as_object().expect("object") {
                assert_eq!(cells.cell(key).cell_ref().to_value(), *value, "row {index}, {key}");
            }
        }
        // Rows 0-2: layout 0. Row 3 (a key that is a prefix of "ab"): a new
        // one, 1. Row 4 is not row 3's, and is found among the recent
        // layouts: 0. Row 5 ("abc", of which "ab" is a prefix): 2; row 6: 0;
        // row 7 (a key as long as "ab"): 3. Row 8's key holds an escape (the
        // same key once read): a tree; row 9, after it, found among the
        // recent: 0. A key more (row 10): 4; one fewer (row 11): 5; the same
        // keys in the other order (row 12): 6. Row 13 has row 0's keys with
        // nested values holding its keys: by then layout 0 is more than
        // four layouts back, so a new one, 7.
        let expected_layouts = [0, 0, 0, 1, 0, 2, 0, 3, u32::MAX, 0, 4, 5, 6, 7];
        let expected_layouts: Vec<Option<usize>> =
            expected_layouts.iter().map(|&layout| (layout != u32::MAX).then_some(layout as usize)).collect();
        assert_eq!(layouts, expected_layouts);
        // A row that starts as the row before's and then breaks the syntax
        // is refused, as serde_json refuses it.
        for broken in [
            r#"[{"ab":1,"c":"x"},{"ab":1,"c":"x",}]"#,
            r#"[{"ab":1,"c":"x"},{"ab":1 "c":"x"}]"#,
            r#"[{"ab":1,"c":"x"},{"ab" 1,"c":"x"}]"#,
            r#"[{"ab":1,"c":"x"},{"ab":1,"c":"x"]"#,
            r#"[{"ab":1,"c":"x"},{"ab":1,"c":"x"#,
            r#"[{"ab":1,"c":"x"},{"ab":1,"c":x}]"#,
            r#"[{"ab":1,"c":"x"},{"ab":1,"c":"\x"}]"#,
            "[{\"ab\":1,\"c\":\"x\"},{\"ab\":1,\"c\":\"\u{1}\"}]",
        ] {
            assert!(serde_json::from_str::<Value>(broken).is_err(), "{broken}");
            assert!(kept(broken).is_none(), "{broken}");
        }
    }

    #[test]
    fn positions_of_several_columns_are_found_again_only_when_the_layout_changes() {
        // Rows 0 and 1 share a layout; every later row's layout differs from
        // the row before it (row 5 is row 0's again, but after row 4's), so
        // only row 1 reuses the positions found before it.
        let rows = kept(r#"[{"a":1,"b":2},{"a":3,"b":4},{"b":5,"a":6},{"a":7},{"b":8},{"a":9,"b":10}]"#).expect("kept");
        let mut known = ColumnPositions::default();
        let (mut refreshed, mut read) = (Vec::new(), Vec::new());
        for index in 0..rows.len() {
            let JsonRow::Object(row) = rows.row(index) else { panic!("row {index} is an object") };
            let cells = row.cells().expect("plain keys");
            refreshed.push(known.refresh(&cells, ["b", "a"]));
            read.extend((0..2).map(|i| known.cell(&cells, i).cell_ref().to_value()));
        }
        assert_eq!(refreshed, [true, false, true, true, true, true]);
        let expected: Vec<Value> = [2, 1, 4, 3, 5, 6, -1, 7, 8, -1, 10, 9]
            .iter()
            .map(|&n| if n < 0 { Value::Null } else { n.into() })
            .collect();
        assert_eq!(read, expected);
    }

    #[test]
    fn a_columns_position_is_found_again_for_each_layout() {
        // The column moves between rows and is missing from one; read with
        // one `ColumnPositions` per column across the rows, each value is its row's.
        let rows = kept(r#"[{"a":1,"b":2},{"a":3,"b":4},{"b":5,"a":6},{"a":7},{"b":8},{"a":9,"b":10}]"#).expect("kept");
        let mut a = ColumnPositions::default();
        let mut b = ColumnPositions::default();
        let mut read = Vec::new();
        for index in 0..rows.len() {
            let JsonRow::Object(row) = rows.row(index) else { panic!("row {index} is an object") };
            let cells = row.cells().expect("plain keys");
            for (name, known) in [("a", &mut a), ("b", &mut b)] {
                read.push(cells.cell_of(name, known).cell_ref().to_value());
            }
        }
        let expected: Vec<Value> = [1, 2, 3, 4, 6, 5, 7, -1, -1, 8, 9, 10]
            .iter()
            .map(|&n| if n < 0 { Value::Null } else { n.into() })
            .collect();
        assert_eq!(read, expected);
    }
}
