//! A call's arguments as read from JSON text: the arguments object, and,
//! when `rows` is an array, its text, which `validate_rows` reads one row
//! at a time (`json_rows.rs`) instead of as a tree; the same for
//! `movements`, which `reconcile` reads so.
//!
//! The object is what the whole text parses to, with `rows` (`movements`)
//! null in its place while its text is kept; [`Arguments::into_value`] puts
//! the tree there for a check that reads the tree. Any text where that could
//! differ from parsing the whole text at once (not an object, a key given
//! twice or holding an escape, text that `json_scan.rs` turns down) is
//! parsed whole, as before, with the same result or the same error.

use serde_json::Value;

use crate::error::{ErrorCode, ToolError};
use crate::json_rows::RowsText;
use crate::json_scan::{Scan, MOST_DEPTH};

/// The arguments of a call (see the module docs). Made from a `Value`
/// (`.into()`) for a call whose arguments are already a tree.
pub struct Arguments {
    pub(crate) object: Value,
    /// The `rows` array's text, when kept: `object` then holds null for it.
    pub(crate) rows: Option<RowsText>,
    /// The `movements` array's text, likewise.
    pub(crate) movements: Option<RowsText>,
}

impl From<Value> for Arguments {
    fn from(object: Value) -> Self {
        Arguments { object, rows: None, movements: None }
    }
}

impl Arguments {
    /// Whether the `rows` array was kept as text (for tests: the answers
    /// are the same either way).
    #[doc(hidden)]
    pub fn keeps_rows_text(&self) -> bool {
        self.rows.is_some()
    }

    /// The arguments as one JSON value, the rows read into their place.
    pub fn into_value(self) -> Value {
        let Arguments { mut object, rows, movements } = self;
        put_back(&mut object, "rows", rows);
        put_back(&mut object, "movements", movements);
        object
    }

    /// The arguments with the `movements` array's tree in its place, for a
    /// check that does not read it as text.
    pub(crate) fn with_movements_as_tree(mut self) -> Self {
        put_back(&mut self.object, "movements", self.movements.take());
        self
    }
}

/// A kept array's tree, put back over the null in its place in `object`
/// (so the keys keep their order).
fn put_back(object: &mut Value, key: &str, kept: Option<RowsText>) {
    if let (Some(kept), Value::Object(map)) = (kept, object) {
        map.insert(key.to_owned(), Value::Array(kept.into_values()));
    }
}

/// Read a call's arguments from JSON text.
pub(crate) fn parse(text: &[u8]) -> Result<Arguments, ToolError> {
    if let Some(arguments) = keeping_rows_text(text) {
        return Ok(arguments);
    }
    serde_json::from_slice::<Value>(text)
        .map(Arguments::from)
        .map_err(|err| ToolError::new(ErrorCode::InvalidJson, format!("the arguments are not valid JSON: {err}")))
}

/// The most top-level keys read here; more are parsed whole (the check
/// for a repeated key compares each with those before it).
const MOST_KEYS: usize = 64;

/// The arguments with the `rows` and `movements` arrays' text kept, when
/// it can be (module docs): one pass over the text (`json_scan.rs`) checks
/// its syntax as `serde_json` would and finds the arrays; the rest is then
/// parsed with `null` in their places.
fn keeping_rows_text(text: &[u8]) -> Option<Arguments> {
    let text = std::str::from_utf8(text).ok()?;
    let mut scan = Scan::new(text);
    scan.space();
    let mut keys: Vec<&str> = Vec::new();
    // Each kept array: its key, where its text starts and ends, and it.
    let mut kept: Vec<(&str, usize, RowsText, usize)> = Vec::new();
    scan.object(|scan, key, escaped| {
        if escaped || keys.len() == MOST_KEYS || keys.contains(&key) {
            return None;
        }
        keys.push(key);
        if matches!(key, "rows" | "movements") && scan.peek() == Some(b'[') {
            let start = scan.at;
            let array = RowsText::read(scan)?;
            kept.push((key, start, array, scan.at));
            Some(())
        } else {
            scan.value(MOST_DEPTH)
        }
    })?;
    if !scan.at_end() || kept.is_empty() {
        return None;
    }
    let mut rest = String::with_capacity(text.len());
    let mut copied = 0;
    for (_, start, _, end) in &kept {
        rest.push_str(&text[copied..*start]);
        rest.push_str("null");
        copied = *end;
    }
    rest.push_str(&text[copied..]);
    let object: Value = serde_json::from_str(&rest).ok()?;
    let mut arguments = Arguments { object, rows: None, movements: None };
    for (key, _, array, _) in kept {
        match key {
            "rows" => arguments.rows = Some(array),
            _ => arguments.movements = Some(array),
        }
    }
    Some(arguments)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A call's answer from the arguments' text, as text.
    fn answer(outcome: Result<Value, ToolError>) -> String {
        match outcome {
            Ok(result) => result.to_string(),
            Err(err) => format!("error {:?} on {:?}: {}", err.code, err.argument, err.message),
        }
    }

    /// What the call answered before the rows' text was kept: the whole
    /// text parsed as one tree (or refused as JSON), then the check.
    fn as_one_tree(text: &str) -> String {
        answer(parse_whole(text.as_bytes()).and_then(|args| crate::call_tool_owned("validate_rows", args)))
    }

    fn parse_whole(text: &[u8]) -> Result<Value, ToolError> {
        serde_json::from_slice(text)
            .map_err(|err| ToolError::new(ErrorCode::InvalidJson, format!("the arguments are not valid JSON: {err}")))
    }

    #[test]
    fn a_call_answers_from_its_text_as_from_one_tree() {
        let columns = r#""columns":[{"name":"a","type":"integer","min":0},{"name":"b","required":true}]"#;
        let row_in_depth = |depth: usize| format!(r#"{{"a":1,"b":{}1{}}}"#, "[".repeat(depth), "]".repeat(depth));
        let texts = [
            // Kept as text: listed and unlisted rows, every kind of cell.
            format!(r#"{{"rows":[{{"a":1,"b":"x"}},{{"a":-1,"b":""}},{{"a":"2","b":null}},{{"b":[1]}},7],{columns}}}"#),
            format!(
                r#"{{{columns},"max_listed":1,"rows":[{{"a":1,"b":"x"}},{{"a":-1,"b":" "}},{{"a":2.5,"b":"\u0041"}}]}}"#
            ),
            format!(
                r#"{{"rows":[{{"a":1,"b":"x"}},{{"a\u0062":1}},{{"a":3,"a":-3,"b":"y"}}],"max_listed":0,{columns}}}"#
            ),
            // Turned down, then refused as the tree refuses them.
            format!(r#"{{"rows":[{{"a":1e400,"b":"x"}}],{columns}}}"#),
            format!(r#"{{"rows":[{{"a":1,"b":"\ud800"}}],{columns}}}"#),
            format!(r#"{{"rows":[{}],{columns}}}"#, row_in_depth(126)),
            format!(r#"{{"rows":[{}],{columns}}}"#, row_in_depth(124)),
            format!(r#"{{"rows":[{}],{columns}}}"#, row_in_depth(90)),
            format!("{{\"rows\":[{{\"a\":1,\"b\":\"x\ty\"}}],{columns}}}"),
            format!(r#"{{"rows":[{{"a":1,"b":"x"}},],{columns}}}"#),
            // Not taken as text at all.
            format!(r#"{{"rows":[{{"a":1}}],"rows":[{{"a":-1,"b":"z"}}],{columns}}}"#),
            format!(r#"{{"rows":"[{{\"a\":-1}}]",{columns}}}"#),
            format!(r#"{{"rows":{{"a":1}},{columns}}}"#),
            format!(r#"{{"csv":"a,b\n1,x\n",{columns}}}"#),
            format!(r#"{{"rows":[{{"a":1}}],"csv":"a\n1\n",{columns}}}"#),
            r#"[{"rows":[]}]"#.to_owned(),
            "null".to_owned(),
        ];
        for text in &texts {
            let from_text =
                answer(parse(text.as_bytes()).and_then(|args| crate::call_tool_owned("validate_rows", args)));
            assert_eq!(from_text, as_one_tree(text), "{text}");
        }
        // The first three keep their rows as text, and the row nested 91
        // deep; the others were turned down (nested 125 deep or more: the
        // tree reads the first, refuses the second), or were not arrays.
        let kept: Vec<bool> =
            texts.iter().map(|text| parse(text.as_bytes()).is_ok_and(|a| a.keeps_rows_text())).collect();
        let expected = [
            true, true, true, false, false, false, false, true, false, false, false, false, false, false, true, false,
            false,
        ];
        assert_eq!(kept, expected);
    }
}
