//! Keys and the rows that carry them: the shared reading step of
//! `count_distinct` and `duplicate_report`.
//!
//! A row with no usable key is held back and reported, never counted as an
//! entity and never quietly merged into another row.

use serde_json::{Map, Value};

use crate::findings::{object, Finding, Locator, Severity};
use crate::py::repr::{repr, repr_float, type_name};
use crate::py::text;
use crate::py::value::present;

/// Render a key as a comparable string, or `None` when it is blank.
///
/// Removes only what is certainly noise: surrounding whitespace, letter case
/// (unless `case_sensitive`), and `1.0` versus `1`. No punctuation stripping,
/// accent folding or fuzzy rule: those change which records count as the same
/// entity, and that is a decision for a person.
pub(crate) fn normalise_key(value: &Value, case_sensitive: bool) -> Option<String> {
    let text = match value {
        Value::Null => return None,
        Value::Bool(b) => return Some(if *b { "true" } else { "false" }.to_owned()),
        Value::Number(n) if n.is_i64() || n.is_u64() => n.to_string(),
        Value::Number(n) => {
            let x = n.as_f64().unwrap_or(f64::NAN);
            if x == 0.0 {
                "0".to_owned()
            } else if x.fract() == 0.0 {
                // Python's str(int(x)): every digit of the whole float.
                format!("{x:.0}")
            } else {
                repr_float(x)
            }
        }
        Value::String(s) => s.clone(),
        other => repr(other),
    };
    let text = text::strip(&text);
    if text.is_empty() {
        return None;
    }
    Some(if case_sensitive { text.to_owned() } else { text::casefold(text) })
}

/// A row counted under its normalised key.
pub(crate) struct KeyedRow<'a> {
    pub(crate) index: usize,
    pub(crate) key: String,
    pub(crate) row: &'a Map<String, Value>,
}

impl KeyedRow<'_> {
    pub(crate) fn to_json(&self) -> Value {
        let locator = Locator { row_index: Some(self.index), row_key: Some(self.key.clone()), ..Locator::default() };
        Value::Object(object([
            ("locator", Value::Object(locator.to_json())),
            ("key", self.key.clone().into()),
            ("row", Value::Object(self.row.clone())),
        ]))
    }
}

/// A row with no usable key: listed, never counted.
pub(crate) struct BlankKeyRow {
    index: usize,
    row: Value,
    reason: String,
}

impl BlankKeyRow {
    pub(crate) fn to_json(&self) -> Value {
        Value::Object(object([
            ("locator", Value::Object(Locator::row(self.index).to_json())),
            ("reason", self.reason.clone().into()),
            ("row", self.row.clone()),
        ]))
    }
}

/// Every row handed in, split into keyed rows and rows with no usable key.
pub(crate) struct ReadRows<'a> {
    pub(crate) total: usize,
    pub(crate) keyed: Vec<KeyedRow<'a>>,
    pub(crate) blank: Vec<BlankKeyRow>,
    pub(crate) findings: Vec<Finding>,
}

/// Split `rows` on `key`. Never fails on row content: a row that is not an
/// object is held back for the same reason as a blank key — it cannot be
/// attributed to an entity.
pub(crate) fn read_rows<'a>(rows: &'a [Value], key: &str, case_sensitive: bool) -> ReadRows<'a> {
    let mut read = ReadRows { total: rows.len(), keyed: Vec::new(), blank: Vec::new(), findings: Vec::new() };
    for (index, row) in rows.iter().enumerate() {
        let Value::Object(map) = row else {
            let reason = format!("row is a {}, not an object with named columns", type_name(row));
            read.findings.push(
                Finding::new("not_an_object", Severity::Error, reason.clone())
                    .at(Locator::row(index))
                    .with_value(present(row)),
            );
            read.blank.push(BlankKeyRow { index, row: Value::Object(object([("_raw", row.clone())])), reason });
            continue;
        };
        let raw_key = map.get(key).unwrap_or(&Value::Null);
        match normalise_key(raw_key, case_sensitive) {
            Some(normalised) => read.keyed.push(KeyedRow { index, key: normalised, row: map }),
            None => {
                read.blank.push(BlankKeyRow {
                    index,
                    row: row.clone(),
                    reason: format!("'{key}' is missing or blank, so this row belongs to no identifiable entity"),
                });
                read.findings.push(
                    Finding::new(
                        "blank_key",
                        Severity::Warning,
                        format!(
                            "'{key}' is missing or blank, so this row cannot be attributed to an entity and is excluded from the count"
                        ),
                    )
                    .at(Locator { row_index: Some(index), column: Some(key.to_owned()), ..Locator::default() })
                    .with_value(present(raw_key))
                    .guide("A blank key is excluded from counts but never dropped \u{2014} it is listed here."),
                );
            }
        }
    }
    read
}

/// Keyed rows grouped by key, groups in order of first appearance.
pub(crate) fn group_by_key<'r, 'a>(keyed: &'r [KeyedRow<'a>]) -> Vec<(&'r str, Vec<&'r KeyedRow<'a>>)> {
    let mut position: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut groups: Vec<(&str, Vec<&KeyedRow>)> = Vec::new();
    for item in keyed {
        match position.get(item.key.as_str()) {
            Some(&at) => groups[at].1.push(item),
            None => {
                position.insert(&item.key, groups.len());
                groups.push((&item.key, vec![item]));
            }
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_normalise_like_the_reference() {
        // From the reference's normalise_key under CPython 3.11.
        assert_eq!(normalise_key(&json!(" C-1 "), false).as_deref(), Some("c-1"));
        assert_eq!(normalise_key(&json!("C-1"), true).as_deref(), Some("C-1"));
        assert_eq!(normalise_key(&json!(1.0), false).as_deref(), Some("1"));
        assert_eq!(normalise_key(&json!(1e20), false).as_deref(), Some("100000000000000000000"));
        assert_eq!(normalise_key(&json!(1.5), false).as_deref(), Some("1.5"));
        assert_eq!(normalise_key(&json!(true), false).as_deref(), Some("true"));
        assert_eq!(normalise_key(&json!("Straße"), false).as_deref(), Some("strasse"));
        assert_eq!(normalise_key(&json!({"A": 1}), false).as_deref(), Some("{'a': 1}"));
        assert_eq!(normalise_key(&json!("  "), false), None);
        assert_eq!(normalise_key(&json!(null), false), None);
    }
}
