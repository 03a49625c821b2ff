//! Python's view of a JSON value: truthiness of blanks, `float()`, `==`.
//!
//! The reference receives its data from `json.loads`, so a JSON number with a
//! fraction or exponent is a Python `float` and one without is an `int`; this
//! module keeps that distinction wherever Python would.

use serde_json::{Number, Value};

use super::{number, repr, text};

/// A value after type coercion. Coercing a string to a number can produce NaN
/// or an infinity, which JSON cannot hold but the rules still compare against.
#[derive(Debug, Clone)]
pub(crate) enum Cell {
    Json(Value),
    NonFinite(f64),
}

impl Cell {
    /// A float as Python holds it: finite floats stay JSON numbers.
    pub(crate) fn float(x: f64) -> Cell {
        match Number::from_f64(x) {
            Some(number) => Cell::Json(Value::Number(number)),
            None => Cell::NonFinite(x),
        }
    }

    /// The reference's `json_safe`: a non-finite float becomes its name as text.
    pub(crate) fn json_safe(&self) -> Value {
        match self {
            Cell::Json(value) => value.clone(),
            Cell::NonFinite(x) => json_safe_float(*x),
        }
    }

    /// Python `float(value)`; `None` where Python raises.
    pub(crate) fn to_float(&self) -> Option<f64> {
        match self {
            Cell::Json(value) => to_float(value),
            Cell::NonFinite(x) => Some(*x),
        }
    }

    /// Python `str(value)`.
    pub(crate) fn str_of(&self) -> String {
        match self {
            Cell::Json(value) => repr::str_of(value),
            Cell::NonFinite(x) => repr::repr_float(*x),
        }
    }

    /// Python `repr(value)`.
    pub(crate) fn repr(&self) -> String {
        match self {
            Cell::Json(value) => repr::repr(value),
            Cell::NonFinite(x) => repr::repr_float(*x),
        }
    }

    /// Python `value == other` against a JSON value.
    pub(crate) fn py_eq(&self, other: &Value) -> bool {
        match self {
            Cell::Json(value) => py_eq(value, other),
            // JSON holds no NaN or infinity, so nothing equals these.
            Cell::NonFinite(_) => false,
        }
    }
}

/// The reference's `json_safe` for one float: NaN and infinities as text.
pub(crate) fn json_safe_float(x: f64) -> Value {
    match Number::from_f64(x) {
        Some(number) => Value::Number(number),
        None if x.is_nan() => Value::from("NaN"),
        None if x > 0.0 => Value::from("Infinity"),
        None => Value::from("-Infinity"),
    }
}

/// A float as the reference's MCP layer puts it on the wire: a non-finite
/// float that reached the response unconverted is serialised as null.
pub(crate) fn wire_float(x: f64) -> Value {
    Number::from_f64(x).map_or(Value::Null, Value::Number)
}

/// Python `None` leaves a key out; anything else is kept.
pub(crate) fn present(value: &Value) -> Option<Value> {
    if value.is_null() {
        None
    } else {
        Some(value.clone())
    }
}

/// The reference's `_is_blank`: `None`, or a string that `str.strip()` empties.
pub(crate) fn is_blank(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::String(s) => text::strip(s).is_empty(),
        _ => false,
    }
}

/// A JSON number's value as Python's `float(number)` gives it.
pub(crate) fn number_to_f64(number: &Number) -> f64 {
    if let Some(i) = number.as_i64() {
        i as f64
    } else if let Some(u) = number.as_u64() {
        u as f64
    } else {
        number.as_f64().unwrap_or(f64::NAN)
    }
}

/// Python `float(value)` for a JSON value; `None` where Python raises
/// (`TypeError` for None, lists and dicts, `ValueError` for unparsable text).
pub(crate) fn to_float(value: &Value) -> Option<f64> {
    match value {
        Value::Bool(b) => Some(if *b { 1.0 } else { 0.0 }),
        Value::Number(n) => Some(number_to_f64(n)),
        Value::String(s) => number::parse_float(s),
        _ => None,
    }
}

/// A finite number from a JSON number or numeric string (bools and None are
/// not numbers here); the reference's `_as_finite_number`.
pub(crate) fn as_finite_number(value: &Value) -> Option<f64> {
    let number = match value {
        Value::Number(n) => number_to_f64(n),
        Value::String(s) => number::parse_float(text::strip(s))?,
        _ => return None,
    };
    number.is_finite().then_some(number)
}

/// Python `==` between two JSON-decoded values: `1 == 1.0 == True`, dicts
/// compare without regard to key order, lists element by element.
pub(crate) fn py_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| py_eq(p, q)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(key, p)| y.get(key).is_some_and(|q| py_eq(p, q)))
        }
        _ => match (numeric(a), numeric(b)) {
            (Some(x), Some(y)) => x.equals(y),
            _ => false,
        },
    }
}

/// A number as Python compares it: ints exactly, floats as floats.
#[derive(Clone, Copy)]
enum Numeric {
    Int(i128),
    Float(f64),
}

impl Numeric {
    fn equals(self, other: Numeric) -> bool {
        match (self, other) {
            (Numeric::Int(x), Numeric::Int(y)) => x == y,
            (Numeric::Float(x), Numeric::Float(y)) => x == y,
            (Numeric::Int(i), Numeric::Float(f)) | (Numeric::Float(f), Numeric::Int(i)) => {
                // Python compares an int and a float exactly, not after rounding the int.
                f.fract() == 0.0 && f.abs() < 1.8e38 && f as i128 == i
            }
        }
    }
}

fn numeric(value: &Value) -> Option<Numeric> {
    match value {
        Value::Bool(b) => Some(Numeric::Int(i128::from(*b))),
        Value::Number(n) => Some(if let Some(i) = n.as_i64() {
            Numeric::Int(i128::from(i))
        } else if let Some(u) = n.as_u64() {
            Numeric::Int(i128::from(u))
        } else {
            Numeric::Float(n.as_f64().unwrap_or(f64::NAN))
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn python_equality_crosses_int_float_and_bool() {
        // In Python: 1 == 1.0 == True, 0 == False, [1] == [1.0], {'a': 1} == {'a': True}.
        assert!(py_eq(&json!(1), &json!(1.0)));
        assert!(py_eq(&json!(true), &json!(1)));
        assert!(py_eq(&json!(false), &json!(0.0)));
        assert!(py_eq(&json!([1, {"a": 1}]), &json!([1.0, {"a": true}])));
        assert!(!py_eq(&json!("1"), &json!(1)));
        assert!(!py_eq(&json!(null), &json!(false)));
        // 2**53 + 1 is not equal to the float 2**53 in Python.
        assert!(!py_eq(&json!(9_007_199_254_740_993_u64), &json!(9_007_199_254_740_992.0)));
        assert!(py_eq(&json!({"a": 1, "b": 2}), &json!({"b": 2, "a": 1})));
    }

    #[test]
    fn blank_means_none_or_whitespace_only_text() {
        assert!(is_blank(&json!(null)));
        assert!(is_blank(&json!(" \t\u{3000}\u{1f}")));
        assert!(!is_blank(&json!(0)));
        assert!(!is_blank(&json!(false)));
        assert!(!is_blank(&json!([])));
    }

    #[test]
    fn non_finite_floats_become_text_when_made_json_safe() {
        assert_eq!(json_safe_float(f64::NAN), json!("NaN"));
        assert_eq!(json_safe_float(f64::NEG_INFINITY), json!("-Infinity"));
        assert_eq!(wire_float(f64::INFINITY), Value::Null);
        assert_eq!(Cell::float(2.5).json_safe(), json!(2.5));
    }
}
