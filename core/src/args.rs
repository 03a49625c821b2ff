//! Binding a tool call's JSON arguments to the check's parameters.
//!
//! The reference declares typed parameters (`rows: list[Any]`, `key: str`,
//! `tolerance: float = 0.01`, ...) and its MCP layer validates the arguments
//! against them before the check runs. Two of that layer's habits change
//! results, so they are reproduced here:
//!
//! * a string given for a parameter not declared `str` is first tried as JSON
//!   text, and replaced when it parses to an array, an object or null (clients
//!   that send `"[...]"` instead of `[...]` still work);
//! * scalar parameters are coerced leniently: `"0.5"` is a float, `"yes"` a
//!   bool, `3.0` an int.
//!
//! Every parameter is checked and every problem reported together, each naming
//! its argument, before the check itself runs.

use serde_json::{Map, Value};

use crate::arguments::Arguments;
use crate::error::{ErrorCode, ToolError};
use crate::json_rows::RowsText;
use crate::source::RowSource;

/// The arguments of one call. Each parameter is read once and taken out, so
/// a large `rows` array moves into the check instead of being copied.
pub(crate) struct ArgReader {
    args: Map<String, Value>,
    problems: Vec<(String, String)>,
    /// The `rows` array's text, read row by row (`args` holds null for it).
    rows_text: Option<RowsText>,
}

impl ArgReader {
    /// Accept the call's `arguments`; `null` means none were given.
    pub(crate) fn new(args: Value) -> Result<Self, ToolError> {
        let args = match args {
            Value::Object(map) => map,
            Value::Null => Map::new(),
            other => {
                return Err(ToolError::new(
                    ErrorCode::ArgumentType,
                    format!("the arguments must be a JSON object of named arguments, got {}", described(&other)),
                ))
            }
        };
        Ok(ArgReader { args, problems: Vec::new(), rows_text: None })
    }

    /// Accept the call's arguments, `rows` given as text where it was
    /// kept so: for a check that reads rows from [`ArgReader::row_source`].
    pub(crate) fn of_arguments(args: Arguments) -> Result<Self, ToolError> {
        let Arguments { object, rows, .. } = args.with_movements_as_tree();
        let mut reader = ArgReader::new(object)?;
        reader.rows_text = rows;
        Ok(reader)
    }

    /// Take the value of `name`, with JSON text pre-parsed unless the
    /// parameter is declared as a plain string.
    fn take(&mut self, name: &str, declared_str: bool) -> Option<Value> {
        asked::record(name);
        let value = self.args.remove(name)?;
        if !declared_str {
            if let Value::String(text) = &value {
                if let Ok(parsed @ (Value::Null | Value::Array(_) | Value::Object(_))) =
                    serde_json::from_str::<Value>(text)
                {
                    return Some(parsed);
                }
            }
        }
        Some(value)
    }

    fn problem(&mut self, name: &str, message: String) {
        self.problems.push((name.to_owned(), message));
    }

    fn missing(&mut self, name: &str) {
        self.problem(name, format!("missing required argument \"{name}\""));
    }

    fn wrong(&mut self, name: &str, expected: &str, got: &Value) {
        let message = format!("argument \"{name}\" must be {expected}, got {}", described(got));
        self.problem(name, message);
    }

    /// A required `list[Any]` parameter.
    pub(crate) fn list(&mut self, name: &str) -> Vec<Value> {
        match self.take(name, false) {
            None => {
                self.missing(name);
                Vec::new()
            }
            Some(Value::Array(items)) => items,
            Some(other) => {
                self.wrong(name, "an array", &other);
                Vec::new()
            }
        }
    }

    /// Exactly one of two parameters that say the same thing two ways: `list`,
    /// a `list[Any]`, or `other`, of any JSON type. Absent or null is not
    /// given; both or neither is a problem naming both. `None` after a
    /// problem.
    pub(crate) fn list_or_other(&mut self, list: &str, other: &str) -> Option<ListOr> {
        let listed = self.take(list, false).filter(|value| !value.is_null());
        let alternative = self.take(other, false).filter(|value| !value.is_null());
        match (listed, alternative) {
            (Some(Value::Array(items)), None) => Some(ListOr::List(items)),
            (Some(value), None) => {
                self.wrong(list, "an array", &value);
                None
            }
            (None, Some(value)) => Some(ListOr::Other(value)),
            (Some(_), Some(_)) => {
                self.problem(other, format!("give \"{list}\" or \"{other}\", not both"));
                None
            }
            (None, None) => {
                self.problem(list, format!("give either \"{list}\" or \"{other}\"; this call gives neither"));
                None
            }
        }
    }

    /// A required `str` parameter.
    pub(crate) fn string(&mut self, name: &str) -> String {
        match self.take(name, true) {
            None => {
                self.missing(name);
                String::new()
            }
            Some(Value::String(s)) => s,
            Some(other) => {
                self.wrong(name, "a string", &other);
                String::new()
            }
        }
    }

    /// An optional `str | None` parameter.
    pub(crate) fn optional_string(&mut self, name: &str) -> Option<String> {
        match self.take(name, false) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s),
            Some(other) => {
                self.wrong(name, "a string or null", &other);
                None
            }
        }
    }

    /// A required parameter of any JSON type (`Any`): null is a value.
    pub(crate) fn any(&mut self, name: &str) -> Value {
        match self.take(name, false) {
            None => {
                self.missing(name);
                Value::Null
            }
            Some(value) => value,
        }
    }

    /// An optional parameter of any JSON type; absent or null is `None`.
    pub(crate) fn optional_any(&mut self, name: &str) -> Option<Value> {
        self.take(name, false).filter(|value| !value.is_null())
    }

    /// A `float` parameter with a default.
    pub(crate) fn float_or(&mut self, name: &str, default: f64) -> f64 {
        match self.take(name, false) {
            None => default,
            Some(value) => lenient::float(&value).unwrap_or_else(|| {
                self.wrong(name, "a number", &value);
                default
            }),
        }
    }

    /// A `float | None` parameter, default None.
    pub(crate) fn optional_float(&mut self, name: &str) -> Option<f64> {
        match self.take(name, false) {
            None | Some(Value::Null) => None,
            Some(value) => lenient::float(&value).or_else(|| {
                self.wrong(name, "a number or null", &value);
                None
            }),
        }
    }

    /// An `int` parameter with a default.
    pub(crate) fn int_or(&mut self, name: &str, default: i64) -> i64 {
        match self.take(name, false) {
            None => default,
            Some(value) => lenient::int(&value).unwrap_or_else(|| {
                self.wrong(name, "an integer", &value);
                default
            }),
        }
    }

    /// A `bool` parameter with a default.
    pub(crate) fn bool_or(&mut self, name: &str, default: bool) -> bool {
        match self.take(name, false) {
            None => default,
            Some(value) => lenient::boolean(&value).unwrap_or_else(|| {
                self.wrong(name, "true or false", &value);
                default
            }),
        }
    }

    /// A `list[str] | None` parameter, default None.
    pub(crate) fn optional_string_list(&mut self, name: &str) -> Option<Vec<String>> {
        match self.take(name, false) {
            None | Some(Value::Null) => None,
            Some(Value::Array(items)) => {
                let mut out = Vec::with_capacity(items.len());
                for item in &items {
                    match item {
                        Value::String(s) => out.push(s.clone()),
                        other => {
                            self.wrong(name, "an array of strings", other);
                            return None;
                        }
                    }
                }
                Some(out)
            }
            Some(other) => {
                self.wrong(name, "an array of strings or null", &other);
                None
            }
        }
    }

    /// An optional list cap (`max_listed`): a non-negative integer, or absent/null for none.
    pub(crate) fn optional_cap(&mut self, name: &str) -> Option<usize> {
        match self.take(name, false) {
            None | Some(Value::Null) => None,
            Some(Value::Number(n)) if n.as_u64().is_some() => {
                Some(usize::try_from(n.as_u64().unwrap_or(u64::MAX)).unwrap_or(usize::MAX))
            }
            Some(other) => {
                self.wrong(name, "a non-negative integer or null", &other);
                None
            }
        }
    }

    /// The data of a row-taking check: exactly one of `rows` (an array) or
    /// `csv` (text with a header row). A `path` is resolved by the MCP host,
    /// which replaces it with one of these before the call reaches the core.
    pub(crate) fn row_source(&mut self) -> RowSource {
        for name in ["rows", "csv", "path"] {
            asked::record(name);
        }
        let given: Vec<&str> =
            ["rows", "csv", "path"].into_iter().filter(|name| self.args.contains_key(*name)).collect();
        match given.as_slice() {
            ["csv"] => match self.take("csv", true) {
                Some(Value::String(text)) => RowSource::Csv(text),
                other => {
                    self.wrong("csv", "a string of CSV text with a header row", &other.unwrap_or(Value::Null));
                    RowSource::Rows(Vec::new())
                }
            },
            ["path"] => {
                self.problem(
                    "path",
                    "argument \"path\" names a file, and files are read only by the MCP server started with \
--data-root; pass the data as \"rows\" or \"csv\" instead"
                        .into(),
                );
                RowSource::Rows(Vec::new())
            }
            // No data argument at all is reported as a missing "rows", as the reference does.
            ["rows"] if self.rows_text.is_some() => {
                // The null in its place goes, as a parameter read does.
                let _ = self.take("rows", false);
                self.rows_text.take().map_or(RowSource::Rows(Vec::new()), RowSource::JsonText)
            }
            [] | ["rows"] => RowSource::Rows(self.list("rows")),
            _ => {
                let named = given.iter().map(|name| format!("\"{name}\"")).collect::<Vec<_>>().join(", ");
                self.problem(
                    given[0],
                    format!(
                        "give the data exactly once, as one of \"rows\", \"csv\" or \"path\"; this call gives {named}"
                    ),
                );
                RowSource::Rows(Vec::new())
            }
        }
    }

    /// Fail with every problem found, naming each argument, or succeed.
    pub(crate) fn finish(self) -> Result<(), ToolError> {
        let Some((first, _)) = self.problems.first() else {
            return Ok(());
        };
        let argument = first.clone();
        let message = self.problems.iter().map(|(_, message)| message.as_str()).collect::<Vec<_>>().join("; ");
        Err(ToolError::for_argument(ErrorCode::ArgumentType, &argument, message))
    }
}

/// What [`ArgReader::list_or_other`] read.
pub(crate) enum ListOr {
    /// The list parameter, given as an array.
    List(Vec<Value>),
    /// The other parameter's value (never null).
    Other(Value),
}

/// Which argument names the reader was asked for, so the catalog's tests can
/// hold each published input schema to the arguments a check really reads.
/// Nothing is recorded outside tests.
pub(crate) mod asked {
    #[cfg(test)]
    thread_local! {
        static NAMES: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
    }

    #[cfg_attr(not(test), allow(unused_variables))]
    pub(crate) fn record(name: &str) {
        #[cfg(test)]
        NAMES.with(|names| names.borrow_mut().push(name.to_owned()));
    }

    /// The names asked for on this thread since the last call, in order.
    #[cfg(test)]
    pub(crate) fn take() -> Vec<String> {
        NAMES.with(|names| std::mem::take(&mut *names.borrow_mut()))
    }
}

/// A value as our own messages show it to any caller, JavaScript included:
/// its JSON kind and its JSON text, shortened so an error about a huge
/// argument stays readable (`a number 5`, `an object {"a":1}`, `null`).
pub(crate) fn described(value: &Value) -> String {
    const LIMIT: usize = 80;
    let kind = match value {
        Value::Null => return "null".to_owned(),
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    };
    let text = value.to_string();
    if text.chars().count() <= LIMIT {
        return format!("{kind} {text}");
    }
    let head: String = text.chars().take(LIMIT).collect();
    format!("{kind} {head}...")
}

/// The lenient scalar coercions of the reference's argument validation.
mod lenient {
    use serde_json::Value;

    use crate::py::value::number_to_f64;

    /// Strip underscores the way the reference's validator allows them:
    /// never leading, trailing or doubled.
    fn without_underscores(text: &str) -> Option<String> {
        if text.starts_with('_') || text.ends_with('_') || text.contains("__") {
            return None;
        }
        Some(text.replace('_', ""))
    }

    fn is_decimal_float_syntax(text: &str) -> bool {
        let body = text.strip_prefix(['+', '-']).unwrap_or(text);
        let lower = body.to_ascii_lowercase();
        if matches!(lower.as_str(), "inf" | "infinity" | "nan") {
            return true;
        }
        let (mantissa, exponent) = match lower.split_once('e') {
            Some((m, e)) => (m, Some(e)),
            None => (lower.as_str(), None),
        };
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let digits_ok = (!whole.is_empty() || !fraction.is_empty())
            && whole.bytes().all(|b| b.is_ascii_digit())
            && fraction.bytes().all(|b| b.is_ascii_digit());
        let exponent_ok = exponent.is_none_or(|e| {
            let e = e.strip_prefix(['+', '-']).unwrap_or(e);
            !e.is_empty() && e.bytes().all(|b| b.is_ascii_digit())
        });
        digits_ok && exponent_ok
    }

    /// `float` from a number, a bool or numeric text (ASCII digits only).
    pub(super) fn float(value: &Value) -> Option<f64> {
        match value {
            Value::Bool(b) => Some(f64::from(u8::from(*b))),
            Value::Number(n) => Some(number_to_f64(n)),
            Value::String(s) => {
                let text = without_underscores(s.trim())?;
                if !is_decimal_float_syntax(&text) {
                    return None;
                }
                text.parse::<f64>().ok()
            }
            _ => None,
        }
    }

    /// `int` from an int, a whole float, a bool, or integer text (which may
    /// end in `.0`).
    pub(super) fn int(value: &Value) -> Option<i64> {
        match value {
            Value::Bool(b) => Some(i64::from(*b)),
            Value::Number(n) => {
                if let Some(i) = n.as_i64() {
                    Some(i)
                } else if n.is_u64() {
                    Some(i64::MAX)
                } else {
                    let f = n.as_f64()?;
                    (f.fract() == 0.0 && f.abs() < 9.2e18).then_some(f as i64)
                }
            }
            Value::String(s) => {
                let text = without_underscores(s.trim())?;
                let text = match text.split_once('.') {
                    Some((whole, zeros)) if !zeros.is_empty() && zeros.bytes().all(|b| b == b'0') => whole.to_owned(),
                    Some(_) => return None,
                    None => text,
                };
                let body = text.strip_prefix(['+', '-']).unwrap_or(&text);
                if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                // Beyond 64 bits the cap is effectively unbounded either way.
                Some(text.parse::<i64>().unwrap_or(if text.starts_with('-') { i64::MIN } else { i64::MAX }))
            }
            _ => None,
        }
    }

    /// `bool` from a bool, 0/1, 0.0/1.0 or one of the accepted words (any case).
    pub(super) fn boolean(value: &Value) -> Option<bool> {
        match value {
            Value::Bool(b) => Some(*b),
            Value::Number(n) => match n.as_f64() {
                Some(0.0) => Some(false),
                Some(1.0) => Some(true),
                _ => None,
            },
            Value::String(s) => match s.to_ascii_lowercase().as_str() {
                "1" | "on" | "t" | "true" | "y" | "yes" => Some(true),
                "0" | "off" | "f" | "false" | "n" | "no" => Some(false),
                _ => None,
            },
            _ => None,
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use serde_json::json;

        // Expected values observed from pydantic 2.14.4, the reference's validator.
        #[test]
        fn floats_parse_like_the_reference_validator() {
            assert_eq!(float(&json!("\u{a0}0.5")), Some(0.5));
            assert_eq!(float(&json!("1_.5")), Some(1.5));
            assert_eq!(float(&json!("1__0")), None);
            assert_eq!(float(&json!("_1")), None);
            assert_eq!(float(&json!("+.5e-3")), Some(0.0005));
            assert_eq!(float(&json!("-INF")), Some(f64::NEG_INFINITY));
            assert!(float(&json!("NaN")).unwrap().is_nan());
            assert_eq!(float(&json!("1e400")), Some(f64::INFINITY));
            assert_eq!(float(&json!("\u{661}")), None);
            assert_eq!(float(&json!("0x1p3")), None);
            assert_eq!(float(&json!(true)), Some(1.0));
            assert_eq!(float(&json!("true")), None);
        }

        #[test]
        fn ints_parse_like_the_reference_validator() {
            assert_eq!(int(&json!("5.00")), Some(5));
            assert_eq!(int(&json!(" 5.0 ")), Some(5));
            assert_eq!(int(&json!("5.")), None);
            assert_eq!(int(&json!("1e2")), None);
            assert_eq!(int(&json!(5.5)), None);
            assert_eq!(int(&json!(5.0)), Some(5));
            assert_eq!(int(&json!(true)), Some(1));
            assert_eq!(int(&json!("-0")), Some(0));
        }

        #[test]
        fn bools_parse_like_the_reference_validator() {
            assert_eq!(boolean(&json!("oFf")), Some(false));
            assert_eq!(boolean(&json!("Yes")), Some(true));
            assert_eq!(boolean(&json!("yes ")), None);
            assert_eq!(boolean(&json!(1.0)), Some(true));
            assert_eq!(boolean(&json!(2)), None);
            assert_eq!(boolean(&json!("2")), None);
        }
    }
}
