//! A tool's result, as it is written out: a JSON tree, in which some lists
//! may hold items that are already written as text.
//!
//! A `validate_rows` call that lists every row (the reference's, with no
//! `max_listed`) returns each accepted row as it came in, with its
//! coercions applied. Built as a `serde_json` tree, each such row was an
//! ordered map with a hashed index, owned keys and owned strings, made,
//! written once and freed: most of the call's time on 100,000 rows. A row
//! read from JSON text is instead written straight from its text
//! (`json_rows.rs`), into one buffer, and [`Output`] writes the result
//! around it. Findings, and `reconcile`'s movements, are written the same
//! way, from what they are, rather than first made into maps. The text is
//! what `serde_json` writes for the tree it stands for, so the result is the
//! same, byte for byte; [`Output::into_value`] gives the tree for a caller
//! that wants one.

use std::{fmt, io};

use serde_json::Value;

use crate::json_write::{self, Counting, Flushing, Sink};

/// An item of a written list: a tree, or text already written.
pub(crate) enum ListedItem {
    Tree(Value),
    /// Compact JSON text: these bytes of [`WrittenList::text`].
    Text {
        start: usize,
        end: usize,
    },
}

/// A list whose items may be text, which is held in one buffer.
pub(crate) struct WrittenList {
    items: Vec<ListedItem>,
    text: Vec<u8>,
}

impl ListedItem {
    /// A text item, written by `write` at the end of `text`, the buffer
    /// of the list it goes in: it must write one JSON value, compact, as
    /// `serde_json` writes the tree it stands for.
    pub(crate) fn written(text: &mut Vec<u8>, write: impl FnOnce(&mut Vec<u8>)) -> Self {
        let start = text.len();
        write(text);
        ListedItem::Text { start, end: text.len() }
    }
}

impl WrittenList {
    /// The list of `items`, whose text items were written into `text`, in order.
    pub(crate) fn new(items: Vec<ListedItem>, text: Vec<u8>) -> Self {
        WrittenList { items, text }
    }

    /// The items as trees (each text read back).
    pub(crate) fn into_values(self) -> Vec<Value> {
        let text = self.text;
        self.items
            .into_iter()
            .map(|item| match item {
                ListedItem::Tree(value) => value,
                ListedItem::Text { start, end } => parse_written(&text[start..end]),
            })
            .collect()
    }

    fn write_to<S: Sink>(&self, out: &mut S) -> Result<(), json_write::Error> {
        out.push(b'[');
        for (at, item) in self.items.iter().enumerate() {
            if at > 0 {
                out.push(b',');
            }
            match item {
                ListedItem::Tree(value) => json_write::write(out, value)?,
                ListedItem::Text { start, end } => out.put(&self.text[*start..*end]),
            }
        }
        out.push(b']');
        Ok(())
    }
}

/// Text this module wrote as JSON, read back.
fn parse_written(text: &[u8]) -> Value {
    // Written by `serde_json` or as it writes: it reads.
    serde_json::from_slice(text).expect("written JSON reads back")
}

/// A tool's result: its JSON, written with [`Output::write_to`].
pub struct Output {
    body: Value,
    /// Members of `body` (an object) whose values are these lists: `body`
    /// holds a placeholder in their place, so the members keep their order.
    lists: Vec<(&'static str, WrittenList)>,
}

/// The result as compact JSON text, as [`Output::write_to`] writes it.
impl fmt::Display for Output {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_json_text())
    }
}

impl From<Value> for Output {
    fn from(body: Value) -> Self {
        Output { body, lists: Vec::new() }
    }
}

impl Output {
    /// The result with the member `key` of its body (an object, in which
    /// `key` is present, its value a placeholder) written as `list`.
    pub(crate) fn with_list(mut self, key: &'static str, list: WrittenList) -> Self {
        debug_assert!(self.body.get(key).is_some(), "the list's member is in the body");
        self.lists.push((key, list));
        self
    }

    /// Write the result as compact JSON text: what `serde_json` writes for
    /// [`Output::into_value`]'s tree.
    pub fn write_to<W: io::Write>(&self, out: W) -> io::Result<()> {
        let mut sink = Flushing::new(out);
        self.write_into(&mut sink).map_err(io::Error::other)?;
        sink.finish()
    }

    /// How many bytes [`Output::write_to`] writes, counted without writing
    /// them (a written list's text is counted by its length): so the one
    /// buffer a result is returned in can be made at its size at once.
    ///
    /// # Panics
    ///
    /// Never: a tree always writes (its keys are strings).
    pub fn json_len(&self) -> usize {
        let mut counted = Counting::default();
        // A tree always writes (its keys are strings, its numbers finite).
        self.write_into(&mut counted).expect("a result writes");
        counted.0
    }

    /// Append the text [`Output::write_to`] writes to `out`.
    ///
    /// # Panics
    ///
    /// Never: a tree always writes (its keys are strings).
    pub fn append_json(&self, out: &mut Vec<u8>) {
        // A tree always writes (its keys are strings, its numbers finite).
        self.write_into(out).expect("a result writes");
    }

    fn write_into<S: Sink>(&self, out: &mut S) -> Result<(), json_write::Error> {
        let Value::Object(body) = &self.body else {
            return json_write::write(out, &self.body);
        };
        out.push(b'{');
        for (at, (key, value)) in body.iter().enumerate() {
            if at > 0 {
                out.push(b',');
            }
            json_write::put_str(out, key);
            out.push(b':');
            match self.lists.iter().find(|(list_key, _)| key == list_key) {
                Some((_, list)) => list.write_to(out)?,
                None => json_write::write(out, value)?,
            }
        }
        out.push(b'}');
        Ok(())
    }

    /// The result as compact JSON text, written once into the `String`
    /// returned (no copy through a formatter, as `to_string` makes).
    ///
    /// # Panics
    ///
    /// Never: writing to memory cannot fail, a tree always serialises, and
    /// the text is written from UTF-8 text and `serde_json`'s output.
    pub fn to_json_text(&self) -> String {
        let mut text = Vec::with_capacity(self.json_len());
        self.append_json(&mut text);
        // Written from UTF-8 text and `serde_json`'s UTF-8 output.
        String::from_utf8(text).expect("a result's JSON is UTF-8")
    }

    /// The result as a tree.
    pub fn into_value(self) -> Value {
        let mut body = self.body;
        if let Value::Object(members) = &mut body {
            for (key, list) in self.lists {
                if let Some(slot) = members.get_mut(key) {
                    *slot = Value::Array(list.into_values());
                }
            }
        }
        body
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_written_list_is_written_in_place_and_reads_back_as_its_tree() {
        let mut text = Vec::new();
        let items = vec![
            ListedItem::written(&mut text, |out| out.extend_from_slice(br#"{"a":1,"b":"x"}"#)),
            ListedItem::Tree(json!({"b": 2.5})),
            ListedItem::written(&mut text, |out| out.extend_from_slice(b"[]")),
            ListedItem::written(&mut text, |out| out.extend_from_slice("\"café\"".as_bytes())),
        ];
        let list = WrittenList::new(items, text);
        let mut findings = Vec::new();
        let finding = ListedItem::written(&mut findings, |out| out.extend_from_slice(br#"{"code":"x"}"#));
        let findings = WrittenList::new(vec![finding], findings);
        let body = json!({"first": "é\n", "rows": null, "last": [1.0, -0.0], "findings": null});
        let output = Output::from(body).with_list("rows", list).with_list("findings", findings);
        let expected = json!({
            "first": "é\n",
            "rows": [{"a": 1, "b": "x"}, {"b": 2.5}, [], "café"],
            "last": [1.0, -0.0],
            "findings": [{"code": "x"}]
        });
        assert_eq!(output.to_string(), expected.to_string());
        assert_eq!(output.json_len(), expected.to_string().len());
        let mut written = Vec::new();
        output.write_to(&mut written).unwrap();
        assert_eq!(written, expected.to_string().into_bytes(), "through a writer too");
        assert_eq!(output.into_value(), expected);
    }

    #[test]
    fn an_empty_list_and_a_plain_tree_write_as_serde_json_does() {
        let output =
            Output::from(json!({"rows": null, "n": 0})).with_list("rows", WrittenList::new(Vec::new(), Vec::new()));
        assert_eq!(output.to_string(), r#"{"rows":[],"n":0}"#);
        assert_eq!(output.json_len(), r#"{"rows":[],"n":0}"#.len());
        let tree = json!({"b": 20.0, "a": [20, "x"]});
        assert_eq!(Output::from(tree.clone()).to_string(), tree.to_string());
        assert_eq!(Output::from(tree.clone()).into_value(), tree);
    }
}
