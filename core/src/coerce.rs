//! Type coercion of one cell to its column's declared type.
//!
//! Generous about representation, strict about content: `"100.50"` is a
//! number, `"one hundred"` is not. A value is only converted when the result is
//! unambiguous, so coercion never invents data; when it fails, the original
//! value is reported untouched.

use serde_json::Value;

use crate::contract::ColumnType;
use crate::py::value::{number_to_f64, Cell};
use crate::py::{format::format_g, isodate, number, repr, text};

/// Why a value could not take its column's type: a finding code and message.
pub(crate) struct TypeProblem {
    pub(crate) code: &'static str,
    pub(crate) message: String,
}

fn problem(code: &'static str, message: String) -> Result<Cell, TypeProblem> {
    Err(TypeProblem { code, message })
}

const TRUE_WORDS: [&str; 5] = ["true", "t", "yes", "y", "1"];
const FALSE_WORDS: [&str; 5] = ["false", "f", "no", "n", "0"];

/// Coerce a non-blank `value` to `column_type`.
pub(crate) fn coerce(value: &Value, column_type: ColumnType) -> Result<Cell, TypeProblem> {
    match column_type {
        ColumnType::Any => Ok(Cell::Json(value.clone())),
        ColumnType::String => Ok(Cell::Json(match value {
            Value::String(_) => value.clone(),
            other => Value::String(repr::str_of(other)),
        })),
        ColumnType::Number => to_number(value),
        ColumnType::Integer => to_integer(value),
        ColumnType::Boolean => to_boolean(value),
        ColumnType::Date => to_date(value),
    }
}

fn to_number(value: &Value) -> Result<Cell, TypeProblem> {
    match value {
        Value::Bool(_) => problem("wrong_type", "is a boolean, not a number".into()),
        Value::Number(n) => Ok(Cell::float(number_to_f64(n))),
        Value::String(s) => match number::parse_float(text::strip(s)) {
            Some(x) => Ok(Cell::float(x)),
            None => problem("not_a_number", format!("{} is not a number", repr::repr(value))),
        },
        other => problem("wrong_type", format!("is a {}, not a number", repr::type_name(other))),
    }
}

/// Python's `int(x)` for a whole float. Beyond 64 bits the value stays a float
/// (a documented deviation: JSON numbers here are at most 64-bit integers).
fn whole_float_to_int(x: f64) -> Cell {
    // 2^63 and 2^64 are exact as floats; the ranges are half-open.
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    const TWO_64: f64 = 18_446_744_073_709_551_616.0;
    if (-TWO_63..TWO_63).contains(&x) {
        Cell::Json(Value::from(x as i64))
    } else if (0.0..TWO_64).contains(&x) {
        Cell::Json(Value::from(x as u64))
    } else {
        Cell::float(x)
    }
}

fn to_integer(value: &Value) -> Result<Cell, TypeProblem> {
    match value {
        Value::Bool(_) => problem("wrong_type", "is a boolean, not an integer".into()),
        Value::Number(n) if n.is_i64() || n.is_u64() => Ok(Cell::Json(value.clone())),
        Value::Number(n) => {
            let x = number_to_f64(n);
            if x.fract() == 0.0 {
                Ok(whole_float_to_int(x))
            } else {
                problem("not_an_integer", format!("{} is not a whole number", format_g(x)))
            }
        }
        Value::String(s) => {
            let stripped = text::strip(s);
            if let Some(int) = number::parse_int(stripped) {
                return Ok(Cell::Json(Value::Number(int)));
            }
            match number::parse_float(stripped) {
                None => problem("not_an_integer", format!("{} is not an integer", repr::repr(value))),
                Some(x) if x.is_finite() && x.fract() == 0.0 => Ok(whole_float_to_int(x)),
                Some(_) => problem("not_an_integer", format!("{} is not a whole number", repr::repr(value))),
            }
        }
        other => problem("wrong_type", format!("is a {}, not an integer", repr::type_name(other))),
    }
}

fn to_boolean(value: &Value) -> Result<Cell, TypeProblem> {
    match value {
        Value::Bool(_) => return Ok(Cell::Json(value.clone())),
        Value::String(s) => {
            let word = text::casefold(text::strip(s));
            if TRUE_WORDS.contains(&word.as_str()) {
                return Ok(Cell::Json(Value::Bool(true)));
            }
            if FALSE_WORDS.contains(&word.as_str()) {
                return Ok(Cell::Json(Value::Bool(false)));
            }
        }
        _ => {}
    }
    problem("not_a_boolean", format!("{} is not a boolean (use true/false)", repr::repr(value)))
}

fn to_date(value: &Value) -> Result<Cell, TypeProblem> {
    if let Value::String(s) = value {
        let stripped = text::strip(s);
        let parsed = isodate::date_fromisoformat(stripped).or_else(|| isodate::datetime_fromisoformat_date(stripped));
        if let Some((year, month, day)) = parsed {
            return Ok(Cell::Json(Value::String(isodate::iso_date(year, month, day))));
        }
    }
    problem("not_a_date", format!("{} is not an ISO-8601 date (expected YYYY-MM-DD)", repr::repr(value)))
}

