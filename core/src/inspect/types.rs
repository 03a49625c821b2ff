//! Which contract type each column's values take.
//!
//! Every non-blank value is tried against each typed candidate with the
//! coercion `validate_rows` itself uses (`coerce.rs`), and every failure is
//! counted, so the type chosen is one that no value of the column fails: a
//! drafted type cannot quarantine a row of the data it was drafted from.
//!
//! The lattice, narrowest first:
//!
//! * `boolean`: every value is one of the boolean words (true/t/yes/y/1,
//!   false/f/no/n/0 in any case, or a JSON boolean) **and** at least one is
//!   not the digit 0 or 1; a column of only 0s and 1s is `integer`, since
//!   counts and flags both look like that and a number loses nothing.
//! * `integer`, then `number` (`integer` is inside `number`: `"5.0"` and
//!   `1e3` are integers, `"NaN"` and `"1e400"` are numbers).
//! * `date`: a plain ISO date (`YYYY-MM-DD`, and the other forms Python's
//!   `date.fromisoformat` reads). A `date` column would also take a
//!   datetime's date part, but that drops the time, so a datetime is never
//!   counted as a date here.
//! * `datetime`: anything Python's `datetime.fromisoformat` reads, dates included.
//! * `string`: every value is text (a CSV field or a JSON string).
//! * `any`: JSON values of several kinds that no type above takes, or JSON
//!   arrays and objects (no coercion).
//!
//! A column with no non-blank value has no type (`None`): nothing shows one.

use crate::coerce::{coerce, CellRef};
use crate::contract::ColumnType;
use crate::py::{isodate, number, text};

/// The typed candidates, in the lattice's order.
pub(super) const CANDIDATES: [ColumnType; 5] =
    [ColumnType::Boolean, ColumnType::Integer, ColumnType::Number, ColumnType::Date, ColumnType::Datetime];

/// What the first pass learns about one column.
#[derive(Default, Clone)]
pub(super) struct TypeTally {
    /// Rows that have the column (a JSON key, a CSV field), blank or not.
    pub(super) present: usize,
    pub(super) blank: usize,
    pub(super) non_blank: usize,
    /// Per candidate (as [`CANDIDATES`]): non-blank values it refuses.
    pub(super) fails: [usize; 5],
    /// Non-blank values that are not text (JSON numbers, booleans, arrays, objects).
    pub(super) not_text: usize,
    /// Boolean values that are words rather than the digits 0 and 1.
    pub(super) boolean_words: usize,
}

impl TypeTally {
    /// Count a cell that `count` rows of the column have.
    pub(super) fn add(&mut self, cell: CellRef<'_>, count: usize) {
        self.present += count;
        if cell.is_blank() {
            self.blank += count;
            return;
        }
        self.non_blank += count;
        if !matches!(cell, CellRef::Text(_)) {
            self.not_text += count;
        }
        for (at, taken) in taken_by(cell).into_iter().enumerate() {
            if !taken {
                self.fails[at] += count;
            } else if CANDIDATES[at] == ColumnType::Boolean && !is_digit_boolean(cell) {
                self.boolean_words += count;
            }
        }
    }

    /// The narrowest type every non-blank value takes; `None` with no value.
    pub(super) fn chosen(&self) -> Option<ColumnType> {
        if self.non_blank == 0 {
            return None;
        }
        let fits = |candidate: ColumnType| self.failures(candidate) == Some(0);
        Some(if fits(ColumnType::Boolean) && self.boolean_words > 0 {
            ColumnType::Boolean
        } else if let Some(&typed) = CANDIDATES[1..].iter().find(|&&candidate| fits(candidate)) {
            typed
        } else if self.not_text == 0 {
            ColumnType::String
        } else {
            ColumnType::Any
        })
    }

    /// How many non-blank values `candidate` refuses (for `string`, those
    /// that are not text); `None` for `any`, which refuses none.
    pub(super) fn failures(&self, candidate: ColumnType) -> Option<usize> {
        match candidate {
            ColumnType::String => Some(self.not_text),
            ColumnType::Any => None,
            typed => CANDIDATES.iter().position(|&known| known == typed).map(|at| self.fails[at]),
        }
    }

    /// The narrower type the values come closest to, with how many refuse
    /// it: for `number` it is `integer`, for `datetime` `date`; for `string`
    /// and `any` the candidate with the fewest refusals (ties in the
    /// lattice's order), when some value takes it. The other types are the
    /// narrowest of their branch.
    pub(super) fn near_miss(&self) -> Option<(ColumnType, usize)> {
        let chosen = self.chosen()?;
        let pick = |options: &[ColumnType]| {
            options
                .iter()
                .filter_map(|&candidate| Some((candidate, self.failures(candidate)?)))
                .filter(|&(_, fails)| fails < self.non_blank)
                .min_by_key(|&(_, fails)| fails)
        };
        match chosen {
            ColumnType::Number => pick(&[ColumnType::Integer]),
            ColumnType::Datetime => pick(&[ColumnType::Date]),
            ColumnType::String => pick(&CANDIDATES),
            ColumnType::Any => {
                let mut options = CANDIDATES.to_vec();
                options.push(ColumnType::String);
                pick(&options)
            }
            ColumnType::Boolean | ColumnType::Integer | ColumnType::Date => None,
        }
    }
}

impl TypeTally {
    /// A `string` or `any` column whose values are mostly of one narrower
    /// type: the type at least nine in ten of them take, and how many do
    /// not. That is stray text in a number column, a typo in a date column;
    /// a column nearer an even mix is more likely text by design.
    pub(super) fn mixed(&self) -> Option<(ColumnType, usize)> {
        if !matches!(self.chosen()?, ColumnType::String | ColumnType::Any) {
            return None;
        }
        let (near, fails) = self.near_miss()?;
        (fails * 10 <= self.non_blank).then_some((near, fails))
    }
}

/// Whether a non-blank cell takes `candidate`, as `validate_rows` coerces it;
/// `date` only for a plain date (see the module's doc).
pub(super) fn takes(cell: CellRef<'_>, candidate: ColumnType) -> bool {
    let CellRef::Text(s) = cell else { return candidate != ColumnType::String && coerce(cell, candidate).is_ok() };
    let stripped = text::strip(s);
    match candidate {
        ColumnType::Boolean => may_be_boolean(stripped) && coerce(cell, candidate).is_ok(),
        ColumnType::Integer => may_be_numeric(stripped) && !has_a_fraction(stripped) && coerce(cell, candidate).is_ok(),
        ColumnType::Number => may_be_numeric(stripped) && coerce(cell, candidate).is_ok(),
        ColumnType::Date => may_be_iso(stripped) && isodate::date_fromisoformat(stripped).is_some(),
        ColumnType::Datetime => may_be_iso(stripped) && coerce(cell, candidate).is_ok(),
        ColumnType::String | ColumnType::Any => true,
    }
}

/// Per candidate (as [`CANDIDATES`]), whether a non-blank cell takes it:
/// [`takes`] for each, with the text stripped and the shortcuts read once,
/// and no number parsed twice (an integer is a number: Python's `float()`
/// reads all that `int()` does, and a whole float is how the rest are
/// integers).
fn taken_by(cell: CellRef<'_>) -> [bool; 5] {
    let CellRef::Text(s) = cell else { return CANDIDATES.map(|candidate| takes(cell, candidate)) };
    let stripped = text::strip(s);
    let numeric = may_be_numeric(stripped);
    let iso = may_be_iso(stripped);
    let integer = numeric && !has_a_fraction(stripped) && coerce(cell, ColumnType::Integer).is_ok();
    [
        may_be_boolean(stripped) && coerce(cell, ColumnType::Boolean).is_ok(),
        integer,
        integer || (numeric && (number::is_plain_decimal(stripped) || coerce(cell, ColumnType::Number).is_ok())),
        iso && isodate::date_fromisoformat(stripped).is_some(),
        iso && coerce(cell, ColumnType::Datetime).is_ok(),
    ]
}

/// A cheap and exact refusal, so a text column costs no number parsing:
/// after the blank space (already stripped) and the sign, Python's
/// `float()` and `int()` text starts with a digit or a point, or is `inf`,
/// `infinity` or `nan` in any case; text that starts with another ASCII
/// character is no number. Anything else goes to the real parsers (a
/// non-ASCII character may be a Unicode digit, which Python reads).
///
/// (Bytes, not a `char` pattern, which decodes the first character: this
/// runs for every distinct value of every column.)
#[inline]
fn may_be_numeric(stripped: &str) -> bool {
    let bytes = stripped.as_bytes();
    let unsigned = match bytes {
        [b'+' | b'-', rest @ ..] => rest,
        _ => bytes,
    };
    match unsigned.first() {
        Some(&b) if b.is_ascii_alphabetic() => {
            [&b"inf"[..], b"infinity", b"nan"].iter().any(|word| unsigned.eq_ignore_ascii_case(word))
        }
        Some(&b) if b.is_ascii() => b.is_ascii_digit() || b == b'.',
        _ => true,
    }
}

/// An exact refusal for text columns: the boolean words are at most five
/// letters (`false`), and ASCII text is compared without case folding, so
/// longer ASCII text is no boolean. Other text may fold to a word (`yeſ`
/// folds to `yes`), and goes to the real check.
fn may_be_boolean(stripped: &str) -> bool {
    // The length first: it refuses most text without reading it.
    stripped.len() <= 5 || !stripped.is_ascii()
}

/// An exact refusal for dates and datetimes: Python's `fromisoformat`
/// (`isodate.rs`, C's `parse_isoformat_date`) reads the date from the first
/// byte of the stripped text: the year as four ASCII digits, then a `-`,
/// the `W` of a week, or the month's first digit. Text that starts
/// otherwise (a decimal like `1582.76`, a code like `INV-1`) is neither.
fn may_be_iso(stripped: &str) -> bool {
    match stripped.as_bytes() {
        [a, b, c, d, next, ..] => {
            [a, b, c, d].iter().all(|b| b.is_ascii_digit()) && (*next == b'-' || *next == b'W' || next.is_ascii_digit())
        }
        _ => false,
    }
}

/// Another exact refusal, for decimal columns: plain ASCII digits with a
/// point and a fraction that is not all zeros (`12.50`) are no integer
/// (Python's `int()` refuses the point, and the number is not whole).
fn has_a_fraction(stripped: &str) -> bool {
    // Bytes, not a `str` search: this runs for every distinct number.
    let unsigned = stripped.as_bytes().strip_prefix(b"+").or_else(|| stripped.as_bytes().strip_prefix(b"-"));
    let unsigned = unsigned.unwrap_or(stripped.as_bytes());
    let Some(point) = unsigned.iter().position(|&b| b == b'.') else { return false };
    let (whole, fraction) = (&unsigned[..point], &unsigned[point + 1..]);
    whole.iter().all(u8::is_ascii_digit)
        && !fraction.is_empty()
        && fraction.iter().all(u8::is_ascii_digit)
        && fraction.iter().any(|&b| b != b'0')
}

/// A boolean value written as the digit 0 or 1 (text), not as a word.
fn is_digit_boolean(cell: CellRef<'_>) -> bool {
    matches!(cell, CellRef::Text(s) if matches!(text::strip(s), "0" | "1"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn tally(values: &[Value]) -> TypeTally {
        let mut tally = TypeTally::default();
        for value in values {
            tally.add(CellRef::of_json(Some(value)), 1);
        }
        tally
    }

    #[test]
    fn the_shortcuts_refuse_only_what_python_refuses() {
        // Every string here that a shortcut refuses must fail the parsers too.
        let samples = [
            "abc",
            "x1",
            "-x",
            "+",
            "",
            " ",
            "_1",
            "#1",
            "$5",
            "e5",
            "E5",
            "inf",
            "-Infinity",
            "nan",
            "NaN",
            ".5",
            "+.5",
            " 12 ",
            "\u{663}",
            "\u{a0}7",
            "1_000",
            "0x10",
            "١٢",
            "ⅷ",
            "t",
            "N",
            "no",
            "infinite",
            "nana",
            " INF ",
            "12.50",
            "12.00",
            "-0.5",
            "1.",
            ".0",
            "1.5e3",
            "1.25e2",
            "12.5x",
            "1_2.5",
            "١.٥",
            " TRUE ",
            "False",
            "falsey",
            "yeſ",
            "ＹＥＳ",
            "2024-01-31",
            " 2024-01-31 ",
            "２０２４-01-31",
            "T10:00",
            "-2024-01-31",
            "20240131T1000",
            "2024-W05-3",
            "\u{663}\u{660}\u{662}\u{664}-01-31",
            "1582.76",
            "2024.5",
            "2024/01/31",
            "20240131",
            "2024W05",
            "2024W053",
            "2024-W05",
            "2024-01",
            "2024",
            "12345",
            "2024 01 31",
            " 2024-01-31T10:00 ",
            "2024-01-31 10:00:00+02:00",
            "20240131T10",
            "99999-01-01",
            "0001-01-01",
            "2024-01-31x",
            "202",
        ];
        // The oracle is the coercion validate_rows runs (a plain date for
        // `date`, as the module's doc says): every shortcut must agree.
        for s in samples {
            let cell = CellRef::Text(s);
            let expected = CANDIDATES.map(|candidate| match candidate {
                ColumnType::Date => isodate::date_fromisoformat(text::strip(s)).is_some(),
                other => coerce(cell, other).is_ok(),
            });
            assert_eq!(taken_by(cell), expected, "{s:?}");
            for (at, candidate) in CANDIDATES.into_iter().enumerate() {
                assert_eq!(takes(cell, candidate), expected[at], "{s:?} as {candidate:?}");
            }
        }
        assert!(may_be_numeric("INF") && may_be_numeric("-Infinity") && !may_be_numeric("infinite"));
        assert!(has_a_fraction("12.50") && !has_a_fraction("12.00") && !has_a_fraction("1.25e2"));
        // A sign is read once, a fraction needs a digit, and one point only.
        assert!(has_a_fraction("-12.5") && has_a_fraction("+0.25") && has_a_fraction(".5"));
        assert!(!has_a_fraction("+-1.5") && !has_a_fraction("1.") && !has_a_fraction("1.5.2") && !has_a_fraction("15"));
        // The shortcuts must let through what the parsers take, and refuse
        // what the samples above need them to refuse, or they test nothing.
        assert!(may_be_boolean("FALSE") && may_be_boolean("yeſ") && !may_be_boolean("falsey"));
        assert!(may_be_iso("2024-01-31") && may_be_iso("2024W05") && may_be_iso("20240131"));
        assert!(
            !may_be_iso("２０２４-01-31") && !may_be_iso("T10:00") && !may_be_iso("1582.76") && !may_be_iso("2024")
        );
    }

    #[test]
    fn the_narrowest_type_every_value_takes() {
        let cases: [(Value, Option<ColumnType>); 12] = [
            (json!(["1", "0", "1"]), Some(ColumnType::Integer)),
            (json!(["yes", "No", "1"]), Some(ColumnType::Boolean)),
            (json!([true, false]), Some(ColumnType::Boolean)),
            (json!(["1", "2.0", "1e3", " 12 ", "-0", "\u{663}"]), Some(ColumnType::Integer)),
            (json!(["1", "2.5", "NaN", "1e400"]), Some(ColumnType::Number)),
            (json!(["2024-02-28", "2024-03-01"]), Some(ColumnType::Date)),
            (json!(["2024-02-28", "2024-03-01T10:00+02:00"]), Some(ColumnType::Datetime)),
            (json!(["2024-02-30"]), Some(ColumnType::String)),
            (json!(["0x10", "12"]), Some(ColumnType::String)),
            (json!([1, "a"]), Some(ColumnType::Any)),
            (json!([["a"], ["b"]]), Some(ColumnType::Any)),
            (json!(["", "  ", null]), None),
        ];
        for (values, expected) in cases {
            assert_eq!(tally(values.as_array().unwrap()).chosen(), expected, "{values}");
        }
    }

    #[test]
    fn the_near_miss_is_the_type_most_values_take() {
        let mut values: Vec<Value> = (0..97).map(|n| json!(n.to_string())).collect();
        values.extend([json!("n/a"), json!("unknown"), json!("12x")]);
        let counted = tally(&values);
        assert_eq!(counted.chosen(), Some(ColumnType::String));
        assert_eq!(counted.near_miss(), Some((ColumnType::Integer, 3)));
        assert_eq!(tally(&[json!("1"), json!("1.5")]).near_miss(), Some((ColumnType::Integer, 1)));
        assert_eq!(tally(&[json!("a"), json!("b")]).near_miss(), None, "no value takes any type");
    }
}
