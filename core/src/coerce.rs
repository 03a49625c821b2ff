//! Type coercion of one cell to its column's declared type.
//!
//! Generous about representation, strict about content: `"100.50"` is a
//! number, `"one hundred"` is not. A value is only converted when the result is
//! unambiguous, so coercion never invents data; when it fails, the original
//! value is reported untouched.
//!
//! Coercion reads a borrowed cell ([`CellRef`]) and, for text, returns a
//! borrowed result where it can ([`Coerced`]): a check that only needs a
//! verdict allocates nothing for a cell that passes. A failure is a
//! [`TypeFailure`], whose message is written only when someone reads it.

use std::borrow::Cow;

use serde_json::Value;

use crate::contract::ColumnType;
use crate::py::value::{is_blank, number_to_f64, Cell};
use crate::py::{format::format_g, isodate, number, repr, text};

/// One cell of a row as the checks read it: absent or null, text, or any
/// other JSON value. A CSV field is always text; a JSON string is text too,
/// so both go through the same code.
#[derive(Clone, Copy)]
pub(crate) enum CellRef<'a> {
    /// The column is absent from the row, or its value is JSON null.
    Null,
    Text(&'a str),
    /// A JSON value that is neither null nor a string.
    Json(&'a Value),
}

impl<'a> CellRef<'a> {
    /// The cell of a JSON row: a missing key reads as null, as in the reference.
    pub(crate) fn of_json(value: Option<&'a Value>) -> Self {
        match value {
            None | Some(Value::Null) => CellRef::Null,
            Some(Value::String(s)) => CellRef::Text(s),
            Some(other) => CellRef::Json(other),
        }
    }

    /// The reference's `_is_blank`: `None`, or a string that `str.strip()` empties.
    pub(crate) fn is_blank(self) -> bool {
        match self {
            CellRef::Null => true,
            CellRef::Text(s) => text::strip(s).is_empty(),
            CellRef::Json(_) => false,
        }
    }

    /// The cell as an owned JSON value.
    pub(crate) fn to_value(self) -> Value {
        match self {
            CellRef::Null => Value::Null,
            CellRef::Text(s) => Value::String(s.to_owned()),
            CellRef::Json(value) => value.clone(),
        }
    }
}

/// A value after coercion: text stays borrowed, and a date is kept as its
/// parts until its text is needed.
pub(crate) enum Coerced<'a> {
    /// A string-typed (or untyped) cell whose value is text.
    Text(&'a str),
    /// A valid ISO date; its value is the text `YYYY-MM-DD`.
    Date(i32, u32, u32),
    /// A valid ISO datetime; its value is its `isoformat()` text.
    Datetime(isodate::DateTime),
    /// A float from text (possibly NaN or infinite): [`Cell::float`] of it.
    Float(f64),
    Cell(Cell),
}

impl<'a> Coerced<'a> {
    /// A blank cell as the rules about blankness see it: its value as given.
    pub(crate) fn blank(cell: CellRef<'a>) -> Self {
        match cell {
            CellRef::Text(s) => Coerced::Text(s),
            CellRef::Null => Coerced::Cell(Cell::Json(Value::Null)),
            CellRef::Json(value) => Coerced::Cell(Cell::Json(value.clone())),
        }
    }

    /// Whether the value, as the result gives it ([`Coerced::json_safe`]),
    /// is `cell` as it was: text is its cell's own string, and a date
    /// already written as `YYYY-MM-DD` stays that text. (`false` says only
    /// that it may differ.)
    pub(crate) fn is_cell_as_written(&self, cell: CellRef<'_>) -> bool {
        match (self, cell) {
            (Coerced::Text(_), _) => true,
            (Coerced::Date(y, m, d), CellRef::Text(text)) => isodate::is_iso_date(text, *y, *m, *d),
            _ => false,
        }
    }

    /// The value as a [`Cell`], allocating what the borrowed forms avoided.
    pub(crate) fn to_cell(&self) -> Cell {
        match self {
            Coerced::Text(s) => Cell::Json(Value::String((*s).to_owned())),
            Coerced::Date(y, m, d) => Cell::Json(Value::String(isodate::iso_date(*y, *m, *d))),
            Coerced::Datetime(moment) => Cell::Json(Value::String(moment.isoformat())),
            Coerced::Float(x) => Cell::float(*x),
            Coerced::Cell(cell) => cell.clone(),
        }
    }

    /// The reference's `json_safe` of the value.
    pub(crate) fn json_safe(&self) -> Value {
        match self {
            Coerced::Cell(cell) => cell.json_safe(),
            other => other.to_cell().json_safe(),
        }
    }

    /// Python `float(value)`; `None` where Python raises.
    // Inlined for a number column's value, already a float (what `min`,
    // `max` and `range` read); every other value is read out of line.
    #[inline]
    pub(crate) fn to_float(&self) -> Option<f64> {
        match self {
            Coerced::Float(x) => Some(*x),
            other => other.read_float(),
        }
    }

    /// [`Coerced::to_float`] of any value.
    #[inline(never)]
    fn read_float(&self) -> Option<f64> {
        match self {
            Coerced::Text(s) => number::parse_float(s),
            // `float("2025-01-31")` raises.
            Coerced::Date(..) | Coerced::Datetime(_) => None,
            Coerced::Float(x) => Some(*x),
            Coerced::Cell(cell) => cell.to_float(),
        }
    }

    /// Python `str(value)`.
    // Inlined, so that text (what a pattern, a length or a format rule
    // reads, cell after cell) is borrowed where it is asked for; every
    // other value's text is written out of line.
    #[inline]
    pub(crate) fn str_of(&self) -> Cow<'_, str> {
        match self {
            Coerced::Text(s) => Cow::Borrowed(s),
            other => Cow::Owned(other.written_str()),
        }
    }

    /// Python `str(value)` for a value that is not text.
    #[inline(never)]
    fn written_str(&self) -> String {
        match self {
            Coerced::Text(s) => (*s).to_owned(),
            Coerced::Date(y, m, d) => isodate::iso_date(*y, *m, *d),
            Coerced::Datetime(moment) => moment.isoformat(),
            Coerced::Float(x) => Cell::float(*x).str_of(),
            Coerced::Cell(cell) => cell.str_of(),
        }
    }

    /// Python `repr(value)`.
    pub(crate) fn repr(&self) -> String {
        match self {
            Coerced::Cell(cell) => cell.repr(),
            Coerced::Float(x) => Cell::float(*x).repr(),
            other => repr::repr_str(&other.str_of()),
        }
    }

    /// Python `value == other` against a JSON value.
    pub(crate) fn py_eq(&self, other: &Value) -> bool {
        match self {
            Coerced::Text(s) => other.as_str() == Some(*s),
            Coerced::Date(..) | Coerced::Datetime(_) => other.as_str() == Some(&*self.str_of()),
            Coerced::Float(x) => Cell::float(*x).py_eq(other),
            Coerced::Cell(cell) => cell.py_eq(other),
        }
    }

    /// Whether the value is blank, as the reference's `_is_blank` sees it.
    pub(crate) fn is_blank(&self) -> bool {
        match self {
            Coerced::Text(s) => text::strip(s).is_empty(),
            Coerced::Cell(Cell::Json(json)) => is_blank(json),
            Coerced::Date(..) | Coerced::Datetime(_) | Coerced::Float(_) | Coerced::Cell(_) => false,
        }
    }

    /// Whether the value is JSON null (a pattern then reads it as empty text).
    pub(crate) fn is_null(&self) -> bool {
        matches!(self, Coerced::Cell(Cell::Json(Value::Null)))
    }
}

/// Why a value could not take its column's type. The message is written on
/// demand from the original value, so counting a failure costs nothing.
#[derive(Clone, Copy)]
pub(crate) enum TypeFailure {
    /// A JSON value of the wrong kind: "is a {what}, not {target}".
    WrongType {
        what: &'static str,
        target: &'static str,
    },
    NotANumber,
    NotAnInteger,
    /// Text that is a number but not a whole one.
    NotWholeText,
    /// A JSON float that is not whole.
    NotWholeFloat(f64),
    NotABoolean,
    NotADate,
    NotADatetime,
}

impl TypeFailure {
    /// The finding code.
    pub(crate) fn code(self) -> &'static str {
        match self {
            TypeFailure::WrongType { .. } => "wrong_type",
            TypeFailure::NotANumber => "not_a_number",
            TypeFailure::NotAnInteger | TypeFailure::NotWholeText | TypeFailure::NotWholeFloat(_) => "not_an_integer",
            TypeFailure::NotABoolean => "not_a_boolean",
            TypeFailure::NotADate => "not_a_date",
            TypeFailure::NotADatetime => "not_a_datetime",
        }
    }

    /// The finding message, about the value as it was given.
    pub(crate) fn message(self, value: &Value) -> String {
        match self {
            TypeFailure::WrongType { what, target } => format!("is a {what}, not {target}"),
            TypeFailure::NotANumber => format!("{} is not a number", repr::repr(value)),
            TypeFailure::NotAnInteger => format!("{} is not an integer", repr::repr(value)),
            TypeFailure::NotWholeText => format!("{} is not a whole number", repr::repr(value)),
            TypeFailure::NotWholeFloat(x) => format!("{} is not a whole number", format_g(x)),
            TypeFailure::NotABoolean => format!("{} is not a boolean (use true/false)", repr::repr(value)),
            TypeFailure::NotADate => {
                format!("{} is not an ISO-8601 date (expected YYYY-MM-DD)", repr::repr(value))
            }
            TypeFailure::NotADatetime => format!(
                "{} is not an ISO-8601 datetime (expected YYYY-MM-DDTHH:MM[:SS[.ffffff]][+HH:MM], as Python's \
datetime.fromisoformat reads it)",
                repr::repr(value)
            ),
        }
    }
}

const TRUE_WORDS: [&str; 5] = ["true", "t", "yes", "y", "1"];
const FALSE_WORDS: [&str; 5] = ["false", "f", "no", "n", "0"];

/// Coerce a non-blank cell to `column_type`.
// Inlined for the commonest case, text in a string (or untyped) column,
// which is the text itself: no call, and no result written through memory.
#[inline]
pub(crate) fn coerce(cell: CellRef<'_>, column_type: ColumnType) -> Result<Coerced<'_>, TypeFailure> {
    match (cell, column_type) {
        (CellRef::Text(s), ColumnType::Any | ColumnType::String) => Ok(Coerced::Text(s)),
        _ => coerce_any(cell, column_type),
    }
}

/// [`coerce`], for every cell and type.
#[inline(never)]
fn coerce_any(cell: CellRef<'_>, column_type: ColumnType) -> Result<Coerced<'_>, TypeFailure> {
    match cell {
        CellRef::Text(s) => coerce_text(s, column_type),
        CellRef::Json(value) => coerce_json(value, column_type).map(Coerced::Cell),
        // A blank is never coerced; should one arrive, it is what null coerces to.
        CellRef::Null => coerce_json(&Value::Null, column_type).map(Coerced::Cell),
    }
}

fn coerce_text(s: &str, column_type: ColumnType) -> Result<Coerced<'_>, TypeFailure> {
    match column_type {
        ColumnType::Any | ColumnType::String => Ok(Coerced::Text(s)),
        ColumnType::Number => number::parse_float(text::strip(s)).map(Coerced::Float).ok_or(TypeFailure::NotANumber),
        ColumnType::Integer => text_to_integer(s).map(Coerced::Cell),
        ColumnType::Boolean => text_to_boolean(s).map(|b| Coerced::Cell(Cell::Json(Value::Bool(b)))),
        ColumnType::Date => {
            let stripped = text::strip(s);
            let parsed =
                isodate::date_fromisoformat(stripped).or_else(|| isodate::datetime_fromisoformat_date(stripped));
            parsed.map(|(y, m, d)| Coerced::Date(y, m, d)).ok_or(TypeFailure::NotADate)
        }
        ColumnType::Datetime => {
            isodate::datetime_fromisoformat(text::strip(s)).map(Coerced::Datetime).ok_or(TypeFailure::NotADatetime)
        }
    }
}

fn coerce_json(value: &Value, column_type: ColumnType) -> Result<Cell, TypeFailure> {
    let wrong = |target| {
        let what = if value.is_boolean() { "boolean" } else { repr::type_name(value) };
        Err(TypeFailure::WrongType { what, target })
    };
    match (column_type, value) {
        (ColumnType::Any, _) | (ColumnType::Boolean, Value::Bool(_)) => Ok(Cell::Json(value.clone())),
        (ColumnType::String, _) => Ok(Cell::Json(Value::String(repr::str_of(value)))),
        (ColumnType::Number, Value::Number(n)) => Ok(Cell::float(number_to_f64(n))),
        (ColumnType::Number, _) => wrong("a number"),
        (ColumnType::Integer, Value::Number(n)) if n.is_i64() || n.is_u64() => Ok(Cell::Json(value.clone())),
        (ColumnType::Integer, Value::Number(n)) => {
            let x = number_to_f64(n);
            if x.fract() == 0.0 {
                Ok(whole_float_to_int(x))
            } else {
                Err(TypeFailure::NotWholeFloat(x))
            }
        }
        (ColumnType::Integer, _) => wrong("an integer"),
        (ColumnType::Boolean, _) => Err(TypeFailure::NotABoolean),
        (ColumnType::Date, _) => Err(TypeFailure::NotADate),
        (ColumnType::Datetime, _) => Err(TypeFailure::NotADatetime),
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
        // Every whole float's digits are exact: `{:.0}` prints what Python's `str(int(x))` does.
        Cell::BigInt { approx: x, text: format!("{x:.0}") }
    }
}

fn text_to_integer(s: &str) -> Result<Cell, TypeFailure> {
    let stripped = text::strip(s);
    if let Some(int) = number::parse_int(stripped) {
        if int.is_f64() {
            let text = number::int_text(stripped).unwrap_or_default();
            return Ok(Cell::BigInt { approx: int.as_f64().unwrap_or(f64::NAN), text });
        }
        return Ok(Cell::Json(Value::Number(int)));
    }
    match number::parse_float(stripped) {
        None => Err(TypeFailure::NotAnInteger),
        Some(x) if x.is_finite() && x.fract() == 0.0 => Ok(whole_float_to_int(x)),
        Some(_) => Err(TypeFailure::NotWholeText),
    }
}

fn text_to_boolean(s: &str) -> Result<bool, TypeFailure> {
    boolean_word(s).ok_or(TypeFailure::NotABoolean)
}

/// What a cell's text reads as in a `boolean` column: one of the words
/// true/t/yes/y/1 or false/f/no/n/0, in any case, with blank space around
/// it stripped; `None` for any other text.
pub(crate) fn boolean_word(s: &str) -> Option<bool> {
    let stripped = text::strip(s);
    // ASCII text case-folds as it lowercases, so it is compared without
    // folding; only other text needs Unicode case folding.
    let is = |words: &[&str]| {
        if stripped.is_ascii() {
            words.iter().any(|word| word.eq_ignore_ascii_case(stripped))
        } else {
            words.contains(&text::casefold(stripped).as_str())
        }
    };
    if is(&TRUE_WORDS) {
        Some(true)
    } else if is(&FALSE_WORDS) {
        Some(false)
    } else {
        None
    }
}
