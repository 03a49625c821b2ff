//! `rows` given as a JSON array, read from its text one row at a time
//! instead of as one tree.
//!
//! Parsed as a `serde_json::Value`, a row of four short columns is an
//! ordered map with a hashed index, four owned keys and four owned
//! strings: on 100,000 rows that was most of a `validate_rows` call whose
//! result lists 25 of them (a JSON call took 8 times as long per row as the
//! same rows as CSV). Here the text is kept, each row is an object's span,
//! and a check reads the cells it asks for from the row's text; a row is
//! built as a `Value` only where a result lists it, from its own text, so
//! it is the value the tree would have held.
//!
//! **The same rows as the tree, or no text.** [`RowsText::new`] takes the
//! text only when reading it row by row gives exactly what parsing it as a
//! tree gives; otherwise the caller parses the tree, as before, with its
//! errors. `serde_json` has checked the text's syntax before it gets here
//! (`arguments.rs`: control characters in strings and malformed escapes
//! included), but that check skips values without reading them; so this
//! one turns down the text where reading them could fail or differ: a
//! string with an escape that does not read as text (a lone surrogate), a
//! number that may be out of range, or nesting near `serde_json`'s depth
//! limit. A row object whose keys hold escapes, or repeat, has no cells
//! here ([`ObjectRow::cells`]): it is read as a tree, as `serde_json` would
//! resolve them.

use std::borrow::Cow;

use serde_json::Value;

use crate::byte_scan::find_any;
use crate::coerce::CellRef;

/// Deeper than this in the rows, the text is turned down: `serde_json`
/// refuses values nested 128 deep (the rows array is itself within the
/// arguments object), and a row read alone would have more room.
const MOST_DEPTH: usize = 100;

/// A number longer than this, or with an exponent, is read by `serde_json`
/// when checked: shorter plain digits never leave the range of an `f64`.
const PLAIN_NUMBER_LEN: usize = 300;

/// The text of a `rows` array, with where each row is.
pub(crate) struct RowsText {
    text: String,
    /// Each row's span in `text`.
    rows: Vec<(u32, u32)>,
}

/// One row of a [`RowsText`].
pub(crate) enum JsonRow<'t> {
    /// An object, as its text.
    Object(ObjectRow<'t>),
    /// Any other row, as `serde_json` reads it.
    Value(Value),
}

/// A row object as its text, its members not yet found: a row that a
/// result lists is read as a tree at once ([`ObjectRow::into_value`]).
#[derive(Clone, Copy)]
pub(crate) struct ObjectRow<'t> {
    text: &'t str,
}

/// A row object's members where they lie: keys (plain text, each once) and
/// values' texts.
pub(crate) struct ObjectCells<'t> {
    members: Vec<(&'t str, &'t str)>,
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
    /// The rows of `text`, a JSON array `serde_json` has accepted as syntax;
    /// `None` when it is not an array, or when reading it row by row could
    /// differ from parsing it whole (module docs).
    pub(crate) fn new(text: String) -> Option<RowsText> {
        let bytes = text.as_bytes();
        let mut at = skip_space(bytes, 0);
        if bytes.get(at) != Some(&b'[') {
            return None;
        }
        at += 1;
        let mut rows = Vec::new();
        loop {
            at = skip_space(bytes, at);
            match bytes.get(at)? {
                b']' => break,
                b',' => at = skip_space(bytes, at + 1),
                _ => {}
            }
            let end = value_end(bytes, at, true)?;
            rows.push((u32::try_from(at).ok()?, u32::try_from(end).ok()?));
            at = end;
        }
        Some(RowsText { text, rows })
    }

    /// How many rows there are.
    pub(crate) fn len(&self) -> usize {
        self.rows.len()
    }

    /// Row `index`, which is there.
    pub(crate) fn row(&self, index: usize) -> JsonRow<'_> {
        let (start, end) = self.rows[index];
        let text = &self.text[start as usize..end as usize];
        if text.starts_with('{') {
            JsonRow::Object(ObjectRow { text })
        } else {
            JsonRow::Value(parse(text))
        }
    }

    /// Every row as `serde_json` reads it.
    pub(crate) fn into_values(self) -> Vec<Value> {
        self.rows.iter().map(|&(start, end)| parse(&self.text[start as usize..end as usize])).collect()
    }
}

impl<'t> ObjectRow<'t> {
    /// The row's members, found in its text; `None` when a key holds an
    /// escape or repeats (then the row is read as a tree, as `serde_json`
    /// resolves them).
    pub(crate) fn cells(&self) -> Option<ObjectCells<'t>> {
        object_members(self.text).map(|members| ObjectCells { members })
    }

    /// The row as `serde_json` reads it.
    pub(crate) fn into_value(self) -> Value {
        parse(self.text)
    }
}

impl<'t> ObjectCells<'t> {
    /// The row's keys, in the order written.
    pub(crate) fn keys(&self) -> impl Iterator<Item = &'t str> + Clone + '_ {
        self.members.iter().map(|&(key, _)| key)
    }

    /// The value of column `name`.
    pub(crate) fn cell(&self, name: &str) -> JsonCell<'t> {
        let Some(&(_, value)) = self.members.iter().find(|(key, _)| *key == name) else {
            return JsonCell::Missing;
        };
        match value.strip_prefix('"').and_then(|quoted| quoted.strip_suffix('"')) {
            Some(plain) if !plain.contains('\\') => JsonCell::Text(Cow::Borrowed(plain)),
            _ => match parse(value) {
                Value::String(text) => JsonCell::Text(Cow::Owned(text)),
                other => JsonCell::Other(other),
            },
        }
    }
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

/// A value's text as `serde_json` reads it; [`RowsText::new`] has checked
/// that it reads.
fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while matches!(bytes.get(at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        at += 1;
    }
    at
}

/// Where the value starting at `at` ends. When `checked`, every string and
/// number in it is checked to read as `serde_json` reads it, and its
/// nesting against [`MOST_DEPTH`]: `None` if one may not.
fn value_end(bytes: &[u8], mut at: usize, checked: bool) -> Option<usize> {
    let mut depth = 0usize;
    loop {
        match *bytes.get(at)? {
            b'"' if checked => at = checked_string_end(bytes, at)?,
            b'"' => at = string_end(bytes, at)?,
            b'{' | b'[' => {
                depth += 1;
                if checked && depth > MOST_DEPTH {
                    return None;
                }
                at += 1;
            }
            b'}' | b']' => {
                depth = depth.checked_sub(1)?;
                at += 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = at;
                while matches!(bytes.get(at), Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')) {
                    at += 1;
                }
                let number = &bytes[start..at];
                let plain = number.len() <= PLAIN_NUMBER_LEN && !number.iter().any(|b| matches!(b, b'e' | b'E'));
                if checked && !plain && serde_json::from_slice::<Value>(number).is_err() {
                    return None;
                }
            }
            b'a'..=b'z' => {
                while matches!(bytes.get(at), Some(b'a'..=b'z')) {
                    at += 1;
                }
            }
            // A separator or blank space.
            _ => at += 1,
        }
        if depth == 0 {
            return Some(at);
        }
    }
}

/// Where the string starting at `start` (its opening quote) ends, past
/// its closing quote; `None` if it holds an escape that does not read as
/// text.
fn checked_string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let end = string_end(bytes, start)?;
    let escaped = bytes[start..end].contains(&b'\\');
    if escaped && serde_json::from_slice::<String>(&bytes[start..end]).is_err() {
        return None;
    }
    Some(end)
}

/// Where the string starting at `start` (its opening quote) ends, past its
/// closing quote, in text whose syntax is checked.
fn string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut at = start + 1;
    loop {
        at = find_any(bytes, at, [b'"', b'\\']);
        match bytes.get(at)? {
            b'"' => return Some(at + 1),
            _ => at += 2,
        }
    }
}

/// The members of the object `text` (checked by [`RowsText::new`]), as
/// `(key, value text)`; `None` when it is not an object, or when a key
/// holds an escape or repeats.
fn object_members(text: &str) -> Option<Vec<(&str, &str)>> {
    let bytes = text.as_bytes();
    if bytes.first() != Some(&b'{') {
        return None;
    }
    let mut members: Vec<(&str, &str)> = Vec::new();
    let mut at = skip_space(bytes, 1);
    while bytes.get(at) == Some(&b'"') {
        let key_end = find_any(bytes, at + 1, [b'"', b'\\']);
        if bytes.get(key_end) != Some(&b'"') {
            return None;
        }
        let key = &text[at + 1..key_end];
        if members.iter().any(|(seen, _)| *seen == key) {
            return None;
        }
        at = skip_space(bytes, key_end + 1);
        at = skip_space(bytes, at + 1); // the colon
        let end = value_end(bytes, at, false)?;
        members.push((key, &text[at..end]));
        at = skip_space(bytes, end);
        if bytes.get(at) == Some(&b',') {
            at = skip_space(bytes, at + 1);
        }
    }
    Some(members)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(text: &str) -> Option<RowsText> {
        RowsText::new(text.to_owned())
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
}
