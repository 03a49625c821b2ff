//! Equality keys for coerced values, and the indexes built on them: which
//! row first held a value (`unique`, `primary_key`) and which values another
//! table holds (`references`).
//!
//! Two values share a key exactly when Python's `==` says they are equal
//! after the column's coercion: `1`, `1.0` and `True` are one key, `"1"` is
//! another; an aware datetime is its UTC instant, so `10:00+02:00` and
//! `08:00Z` are one key, while a naive datetime never equals an aware one.
//! NaN equals nothing, so it has no key, and neither has a blank: a missing
//! value is not a repeated one (as SQL `UNIQUE` and Frictionless treat null).
//!
//! A key is a short byte string (a tag, then the value), so the indexes hold
//! one allocation per distinct value and nothing per repeat.

use serde_json::Value;

use crate::coerce::Coerced;
use crate::key_table::KeyTable;
use crate::py::value::Cell;

/// The tags that keep kinds of value apart (`"1"` is not `1`).
mod tag {
    pub(super) const TEXT: u8 = b'T';
    pub(super) const INTEGER: u8 = b'I';
    pub(super) const BIG_INTEGER: u8 = b'B';
    pub(super) const FLOAT: u8 = b'F';
    pub(super) const DATE: u8 = b'D';
    pub(super) const AWARE: u8 = b'Z';
    pub(super) const NAIVE: u8 = b'L';
    pub(super) const JSON: u8 = b'J';
}

/// The first byte of a text's key, which is then the text's bytes:
/// `inspect_dataset` writes a text cell's key this way, so that it is also
/// the key of the cell's value as text.
pub(crate) const TEXT_TAG: u8 = tag::TEXT;

/// Write the key of `value` into `out` (cleared first); false when the value
/// has none (blank, null or NaN).
pub(crate) fn write_key(value: &Coerced<'_>, out: &mut Vec<u8>) -> bool {
    out.clear();
    append_key(value, out)
}

/// Write the key of `value` at the end of `out`, which keeps what it holds
/// (many keys one after another); false, with nothing written, when the
/// value has none.
pub(crate) fn append_key(value: &Coerced<'_>, out: &mut Vec<u8>) -> bool {
    match value {
        Coerced::Text(text) => text_key(text, out),
        Coerced::Date(y, m, d) => {
            out.push(tag::DATE);
            out.extend_from_slice(&crate::py::isodate::date_ordinal(*y, *m, *d).to_le_bytes());
        }
        Coerced::Datetime(moment) => {
            out.push(if moment.offset.is_some() { tag::AWARE } else { tag::NAIVE });
            out.extend_from_slice(&moment.instant().to_le_bytes());
        }
        Coerced::Float(x) | Coerced::Cell(Cell::NonFinite(x)) => return float_key(*x, out),
        Coerced::Cell(Cell::Json(json)) => return json_key(json, out),
        Coerced::Cell(Cell::BigInt { text, .. }) => big_integer_key(text, out),
    }
    true
}

fn text_key(text: &str, out: &mut Vec<u8>) {
    out.push(tag::TEXT);
    out.extend_from_slice(text.as_bytes());
}

fn integer_key(value: i128, out: &mut Vec<u8>) {
    out.push(tag::INTEGER);
    out.extend_from_slice(&value.to_le_bytes());
}

/// An integer's decimal digits, as an `INTEGER` key when it fits 128 bits.
fn big_integer_key(digits: &str, out: &mut Vec<u8>) {
    match digits.parse::<i128>() {
        Ok(value) => integer_key(value, out),
        Err(_) => {
            out.push(tag::BIG_INTEGER);
            out.extend_from_slice(digits.as_bytes());
        }
    }
}

/// A float equals the integer it is when it is whole, so a whole float's key
/// is that integer's (its exact digits beyond 128 bits).
fn float_key(x: f64, out: &mut Vec<u8>) -> bool {
    // 2^127 is exact as a float; the range is half-open.
    const TWO_127: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;
    if x.is_nan() {
        return false;
    }
    if x.is_finite() && x.fract() == 0.0 {
        if (-TWO_127..TWO_127).contains(&x) {
            integer_key(x as i128, out);
        } else {
            big_integer_key(&format!("{x:.0}"), out);
        }
    } else {
        out.push(tag::FLOAT);
        out.extend_from_slice(&x.to_bits().to_le_bytes());
    }
    true
}

fn json_key(value: &Value, out: &mut Vec<u8>) -> bool {
    match value {
        Value::Null => return false,
        Value::Bool(b) => integer_key(i128::from(*b), out),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                integer_key(i128::from(i), out);
            } else if let Some(u) = n.as_u64() {
                integer_key(i128::from(u), out);
            } else {
                return float_key(crate::py::value::number_to_f64(n), out);
            }
        }
        Value::String(text) => text_key(text, out),
        Value::Array(_) | Value::Object(_) => {
            out.push(tag::JSON);
            out.extend_from_slice(value.to_string().as_bytes());
        }
    }
    true
}

/// A key read back: the value it stands for, as its column's type compares
/// it (`inspect_dataset` shows a column's most frequent values this way).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum KeyedValue<'k> {
    Text(&'k str),
    Integer(i128),
    /// An integer beyond 128 bits, as its decimal digits.
    BigInteger(&'k str),
    Float(f64),
    /// A date, as its day number ([`crate::py::isodate::date_ordinal`]).
    Date(i32),
    /// A datetime, as its instant in microseconds: UTC for an aware one, the
    /// clock for a naive one (the offset it was written with is not kept).
    Datetime {
        instant: i64,
        aware: bool,
    },
    /// An array or an object, as its JSON text.
    Json(&'k str),
}

/// The value a key written by [`write_key`] stands for; `None` for bytes
/// that are no such key.
pub(crate) fn read_key(key: &[u8]) -> Option<KeyedValue<'_>> {
    let (&kind, body) = key.split_first()?;
    let text = || std::str::from_utf8(body).ok();
    Some(match kind {
        tag::TEXT => KeyedValue::Text(text()?),
        tag::INTEGER => KeyedValue::Integer(i128::from_le_bytes(body.try_into().ok()?)),
        tag::BIG_INTEGER => KeyedValue::BigInteger(text()?),
        tag::FLOAT => KeyedValue::Float(f64::from_bits(u64::from_le_bytes(body.try_into().ok()?))),
        tag::DATE => KeyedValue::Date(i32::from_le_bytes(body.try_into().ok()?)),
        tag::AWARE | tag::NAIVE => {
            KeyedValue::Datetime { instant: i64::from_le_bytes(body.try_into().ok()?), aware: kind == tag::AWARE }
        }
        tag::JSON => KeyedValue::Json(text()?),
        _ => return None,
    })
}

/// Where each distinct key was first seen: the row that holds a value first
/// is its occurrence, every later row holding it is a repeat.
#[derive(Default)]
pub(crate) struct FirstSeen {
    first: KeyTable,
}

impl FirstSeen {
    /// The row that first held `key`, recording `row` when no row did.
    /// Asking again for the same row gives the same answer, so a row may be
    /// checked more than once (counted, then in full).
    pub(crate) fn first_row(&mut self, key: &[u8], row: usize) -> usize {
        // A call holds far fewer than 2^32 rows (the module's memory is 4 GiB).
        self.first.get_or_insert(key, u32::try_from(row).unwrap_or(u32::MAX)) as usize
    }
}

/// The keys of a set of values (another table's column, or a list).
#[derive(Default)]
pub(crate) struct KeySet {
    keys: KeyTable,
}

impl std::fmt::Debug for KeySet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "KeySet({} keys)", self.keys.len())
    }
}

impl KeySet {
    /// Add a key.
    pub(crate) fn insert(&mut self, key: &[u8]) {
        self.keys.get_or_insert(key, 0);
    }

    /// Whether the set holds `key`.
    pub(crate) fn contains(&self, key: &[u8]) -> bool {
        self.keys.contains(key)
    }

    /// How many distinct keys the set holds.
    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::py::isodate::datetime_fromisoformat;

    fn key(value: &Coerced<'_>) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        write_key(value, &mut out).then_some(out)
    }

    fn json(text: &str) -> Coerced<'static> {
        Coerced::Cell(Cell::Json(serde_json::from_str(text).expect("test JSON parses")))
    }

    #[test]
    fn keys_are_equal_exactly_when_python_says_equal() {
        // Python: 1 == 1.0 == True, 0 == -0.0 == False, 2**53 + 1 != 2.0**53,
        // "1" != 1, 0.1 != 0.100_000_000_1.
        assert_eq!(key(&json("1")), key(&Coerced::Float(1.0)));
        assert_eq!(key(&json("true")), key(&json("1")));
        assert_eq!(key(&json("false")), key(&Coerced::Float(-0.0)));
        // Python: 2**64 - 1 != 2.0**64 (the float it rounds to), 2**63 == 2.0**63.
        assert_ne!(key(&json("18446744073709551615")), key(&Coerced::Float(18_446_744_073_709_551_616.0)));
        assert_eq!(key(&json("9223372036854775808")), key(&Coerced::Float(9_223_372_036_854_775_808.0)));
        assert_ne!(key(&json("9007199254740993")), key(&Coerced::Float(9_007_199_254_740_992.0)));
        assert_ne!(key(&Coerced::Text("1")), key(&json("1")));
        assert_ne!(key(&Coerced::Float(0.1)), key(&Coerced::Float(0.100_000_000_1)));
        // A whole float beyond 128 bits equals the integer of its exact digits.
        let big = 1e40_f64;
        let digits = format!("{big:.0}");
        assert_eq!(key(&Coerced::Float(big)), key(&Coerced::Cell(Cell::BigInt { approx: big, text: digits })));
    }

    #[test]
    fn a_key_reads_back_as_the_value_it_stands_for() {
        let read = |value: &Coerced<'_>| key(value).map(|k| format!("{:?}", read_key(&k).unwrap()));
        assert_eq!(read(&Coerced::Text("a b")).unwrap(), "Text(\"a b\")");
        assert_eq!(read(&json("true")).unwrap(), "Integer(1)", "True is 1 to Python");
        assert_eq!(read(&Coerced::Float(2.0)).unwrap(), "Integer(2)");
        assert_eq!(read(&Coerced::Float(2.5)).unwrap(), "Float(2.5)");
        assert_eq!(read(&json("[1, \"x\"]")).unwrap(), "Json(\"[1,\\\"x\\\"]\")");
        let date = Coerced::Date(2026, 4, 1);
        assert_eq!(read(&date).unwrap(), format!("Date({})", crate::py::isodate::date_ordinal(2026, 4, 1)));
        let at = Coerced::Datetime(datetime_fromisoformat("2026-04-01T10:00+02:00").unwrap());
        assert!(read(&at).unwrap().contains("aware: true"));
        assert_eq!(read_key(b""), None);
        assert_eq!(read_key(b"I12"), None, "an integer key is 16 bytes");
    }

    #[test]
    fn blanks_and_nan_have_no_key() {
        assert_eq!(key(&json("null")), None);
        assert_eq!(key(&Coerced::Float(f64::NAN)), None);
    }

    #[test]
    fn datetimes_key_by_instant_and_kind() {
        let at = |text: &str| Coerced::Datetime(datetime_fromisoformat(text).expect("parses"));
        assert_eq!(key(&at("2026-04-01T10:00+02:00")), key(&at("2026-04-01T08:00Z")));
        // Python: a naive datetime never equals an aware one, even at the same clock.
        assert_ne!(key(&at("2026-04-01T08:00")), key(&at("2026-04-01T08:00Z")));
        assert_eq!(key(&Coerced::Date(2026, 4, 1)), key(&Coerced::Date(2026, 4, 1)));
        assert_ne!(key(&Coerced::Date(2026, 4, 1)), key(&Coerced::Text("2026-04-01")));
    }

    #[test]
    fn the_first_row_of_a_key_is_stable_when_asked_again() {
        let mut seen = FirstSeen::default();
        assert_eq!(seen.first_row(b"a", 0), 0);
        assert_eq!(seen.first_row(b"a", 0), 0, "the same row asked twice is still the first");
        assert_eq!(seen.first_row(b"b", 1), 1);
        assert_eq!(seen.first_row(b"a", 2), 0);
        assert_eq!(seen.first_row(b"a", 2), 0);
    }
}
