//! Python's `float(s)` and `int(s)` for a `str`.
//!
//! The reference coerces text such as `" 1_000.50 "` with these builtins, so
//! the set of strings that parse, and the values they parse to, have to be
//! `CPython`'s. `CPython` first rewrites the text to ASCII (any Unicode whitespace
//! becomes a space, any Unicode decimal digit its ASCII digit, anything else
//! non-ASCII is an error), then parses the ASCII with C-locale rules. This
//! module follows the same two steps.

use serde_json::Number;

use super::text::is_space;
use super::unicode_tables::DECIMAL;

/// `CPython` 3.11's default `sys.get_int_max_str_digits()`: `int()` refuses more digits.
const INT_MAX_STR_DIGITS: usize = 4300;

/// Python `float(s)` for a `str`; `None` where Python raises `ValueError`.
///
/// Accepts surrounding whitespace (Python's), an optional sign, digits with an
/// optional `.` (`.5`, `5.`), an optional exponent (`1E+05`), Unicode decimal
/// digits (`"١٢"`), single underscores between digits (`1_000.5`), and
/// `inf`/`infinity`/`nan` in any case. Correctly rounded; overflow gives an
/// infinity and underflow a (signed) zero, never an error, as in Python.
pub(crate) fn parse_float(s: &str) -> Option<f64> {
    if let Some(x) = parse_plain_decimal(s) {
        return Some(x);
    }
    let ascii = to_ascii_number_text(s)?;
    let cleaned = remove_underscores(&ascii)?;
    let body = trim_c_space(&cleaned);
    let (negative, unsigned) = split_sign(body);
    let magnitude = parse_special(unsigned).or_else(|| parse_decimal(unsigned))?;
    Some(if negative { -magnitude } else { magnitude })
}

/// The common case of [`parse_float`] without its general machinery: an
/// optional sign, ASCII digits and at most one point, nothing else (no
/// space, underscore or exponent). Rust's parser is correctly rounded, as
/// Python's is, so the value is the same; `None` means "not this shape", and
/// the general path decides.
fn parse_plain_decimal(s: &str) -> Option<f64> {
    match short_decimal(s) {
        ShortDecimal::Exact(x) => Some(x),
        ShortDecimal::Long if is_plain_decimal(s) => s.parse().ok(),
        ShortDecimal::Long | ShortDecimal::NotPlain => None,
    }
}

/// Powers of ten that an `f64` holds exactly (10^22 is the last: 5^22 <
/// 2^53 <= 5^23).
const EXACT_POWERS_OF_TEN: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
    1e21, 1e22,
];

/// What [`short_decimal`] found.
enum ShortDecimal {
    /// A plain decimal ([`is_plain_decimal`]) of at most 15 digits, read.
    Exact(f64),
    /// Too long to read exactly this way: perhaps a plain decimal.
    Long,
    /// Not a plain decimal.
    NotPlain,
}

/// A plain decimal of at most 15 digits, read in the one pass that checks
/// its shape: its digits as an integer `m` (below 10^15, so an `f64` holds
/// it exactly) divided by 10^k for its k digits after the point (exact too,
/// as k <= 15). IEEE division rounds the exact quotient correctly, so this
/// is the nearest `f64` to the text, as Rust's parser and Python's
/// `float()` give (Clinger's fast path).
fn short_decimal(s: &str) -> ShortDecimal {
    let bytes = s.as_bytes();
    let (negative, unsigned) = match bytes.first() {
        Some(b'-') => (true, &bytes[1..]),
        Some(b'+') => (false, &bytes[1..]),
        _ => (false, bytes),
    };
    if unsigned.len() > 16 {
        return ShortDecimal::Long;
    }
    let mut mantissa = 0u64;
    let mut after_point = None;
    for (index, &b) in unsigned.iter().enumerate() {
        match b {
            b'0'..=b'9' => mantissa = mantissa * 10 + u64::from(b - b'0'),
            b'.' if after_point.is_none() => after_point = Some(unsigned.len() - index - 1),
            _ => return ShortDecimal::NotPlain,
        }
    }
    let digits = unsigned.len() - usize::from(after_point.is_some());
    if digits == 0 {
        return ShortDecimal::NotPlain;
    }
    if digits > 15 {
        return ShortDecimal::Long;
    }
    let magnitude = mantissa as f64 / EXACT_POWERS_OF_TEN[after_point.unwrap_or(0)];
    ShortDecimal::Exact(if negative { -magnitude } else { magnitude })
}

/// Whether `s` is an optional sign, ASCII digits (at least one) and at
/// most one point, and nothing else: text that [`parse_float`] always
/// reads, since Rust's parser reads every such text, so a caller that
/// needs only to know whether it is a number need not parse it.
pub(crate) fn is_plain_decimal(s: &str) -> bool {
    let bytes = s.as_bytes();
    let unsigned = match bytes.first() {
        Some(b'+' | b'-') => &bytes[1..],
        _ => bytes,
    };
    let mut digits = 0;
    let mut points = 0;
    for &b in unsigned {
        match b {
            b'0'..=b'9' => digits += 1,
            b'.' => points += 1,
            _ => return false,
        }
    }
    digits > 0 && points <= 1 && unsigned.len() <= 300
}

/// Python `int(s)` (base 10) for a `str`; `None` where Python raises `ValueError`.
///
/// Accepts surrounding whitespace, an optional sign, leading zeros, Unicode
/// decimal digits and single underscores between digits. Like `CPython` 3.11,
/// refuses more than 4300 digits (counted after the sign, leading zeros
/// included, underscores not).
///
/// Returns an `i64` number when the value fits, else a `u64` one. Deviation:
/// a Python int outside both ranges comes back as the nearest `f64` (so it is
/// no longer an int), and one whose nearest `f64` would overflow
/// (|n| >= 2^1024 - 2^970, about 1.8e308) as `None`.
pub(crate) fn parse_int(s: &str) -> Option<Number> {
    let (negative, digits) = int_parts(s)?;
    int_number(negative, &digits)
}

/// What `str(int(s))` prints: the exact decimal digits of Python `int(s)`,
/// however large; `None` where `int(s)` raises.
pub(crate) fn int_text(s: &str) -> Option<String> {
    let (negative, digits) = int_parts(s)?;
    Some(match (digits.is_empty(), negative) {
        (true, _) => "0".to_owned(),
        (false, true) => format!("-{digits}"),
        (false, false) => digits,
    })
}

/// The sign and the ASCII digits (leading zeros removed, so empty for zero)
/// of Python `int(s)`; `None` where `int(s)` raises.
fn int_parts(s: &str) -> Option<(bool, String)> {
    let ascii = to_ascii_number_text(s)?;
    let cleaned = remove_underscores(&ascii)?;
    let (negative, digits) = split_sign(trim_c_space(&cleaned));
    let all_digits = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    if !all_digits || digits.len() > INT_MAX_STR_DIGITS {
        return None;
    }
    Some((negative, digits.trim_start_matches('0').to_owned()))
}

/// `CPython`'s `_PyUnicode_TransformDecimalAndSpaceToASCII`, or `None` where it
/// would leave a character that cannot be part of a number.
///
/// Characters below U+007F pass through untouched (so `\x1c` stays, and later
/// fails, even though `"\x1c".isspace()` is True); U+007F and above become a
/// space or a digit, or end the parse.
fn to_ascii_number_text(s: &str) -> Option<String> {
    s.chars()
        .map(|c| {
            if u32::from(c) < 0x7f {
                Some(c)
            } else if is_space(c) {
                Some(' ')
            } else {
                decimal_value(c).map(|d| char::from(b'0' + d))
            }
        })
        .collect()
}

/// The value of a Unicode decimal digit (`unicodedata.decimal`), if `c` is one.
fn decimal_value(c: char) -> Option<u8> {
    let cp = u32::from(c);
    let after = DECIMAL.partition_point(|&(first, ..)| first <= cp);
    let &(first, last, value) = DECIMAL.get(after.checked_sub(1)?)?;
    (cp <= last).then(|| (value + cp - first) as u8)
}

/// Remove underscores, or `None` unless every one sits between two ASCII digits.
///
/// That is `CPython`'s rule for both `float()` and `int()`: `1_000` is fine;
/// `_1`, `1_`, `1__0`, `1_.5` and `1_e5` are errors.
fn remove_underscores(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b != b'_' {
            continue;
        }
        let before = i.checked_sub(1).map(|j| bytes[j]);
        let after = bytes.get(i + 1).copied();
        let between_digits = before.is_some_and(|d| d.is_ascii_digit()) && after.is_some_and(|d| d.is_ascii_digit());
        if !between_digits {
            return None;
        }
    }
    Some(text.replace('_', ""))
}

/// Trim C's `isspace` characters (space, `\t`, `\n`, `\v`, `\f`, `\r`) from both ends.
///
/// Only these: after the ASCII rewrite, `\x1c`..`\x1f` are not stripped.
fn trim_c_space(text: &str) -> &str {
    text.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r'))
}

/// Split off one leading `+` or `-`; the flag says whether it was `-`.
fn split_sign(text: &str) -> (bool, &str) {
    if let Some(rest) = text.strip_prefix('-') {
        (true, rest)
    } else {
        (false, text.strip_prefix('+').unwrap_or(text))
    }
}

/// `inf`, `infinity` or `nan` in any letter case, as a non-negative float.
fn parse_special(text: &str) -> Option<f64> {
    if text.eq_ignore_ascii_case("inf") || text.eq_ignore_ascii_case("infinity") {
        Some(f64::INFINITY)
    } else if text.eq_ignore_ascii_case("nan") {
        Some(f64::NAN)
    } else {
        None
    }
}

/// The pieces of `digits[.digits][(e|E)[sign]digits]`.
struct DecimalParts<'a> {
    /// Digits before the point (may be empty).
    int_digits: &'a str,
    /// Digits after the point (may be empty, not both with `int_digits`).
    frac_digits: &'a str,
    /// The exponent's value, saturated far beyond any float's range.
    exponent: i64,
}

/// An unsigned decimal literal, correctly rounded, or `None` if `text` is not one.
fn parse_decimal(text: &str) -> Option<f64> {
    let parts = split_decimal(text)?;
    Some(decimal_to_f64(&parts))
}

/// Check `text` against the decimal grammar and split it into its parts.
fn split_decimal(text: &str) -> Option<DecimalParts<'_>> {
    let (int_digits, rest) = take_digits(text);
    let (frac_digits, rest) = match rest.strip_prefix('.') {
        Some(after_point) => take_digits(after_point),
        None => ("", rest),
    };
    if int_digits.is_empty() && frac_digits.is_empty() {
        return None;
    }
    let exponent = if rest.is_empty() { 0 } else { parse_exponent(rest.strip_prefix(['e', 'E'])?)? };
    Some(DecimalParts { int_digits, frac_digits, exponent })
}

/// Split `text` after its leading run of ASCII digits.
fn take_digits(text: &str) -> (&str, &str) {
    let end = text.bytes().position(|b| !b.is_ascii_digit()).unwrap_or(text.len());
    text.split_at(end)
}

/// An exponent: optional sign, then one or more digits and nothing else.
///
/// Saturates at ±10^15: a larger exponent over- or underflows any literal
/// shorter than 10^15 characters, so the exact value no longer matters.
fn parse_exponent(text: &str) -> Option<i64> {
    const CAP: i64 = 1_000_000_000_000_000;
    let (negative, digits) = split_sign(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let magnitude = digits.bytes().fold(0_i64, |acc, b| (acc * 10 + i64::from(b - b'0')).min(CAP));
    Some(if negative { -magnitude } else { magnitude })
}

/// The float nearest to the literal, ties to even, like C's `strtod`.
///
/// The literal is first normalised to `0.<significant digits>e<exponent>` with
/// the exponent in 64-bit arithmetic. Rust's `str::parse::<f64>` (correctly
/// rounded) then only sees exponents it handles exactly; values far outside
/// the float range are settled here.
fn decimal_to_f64(parts: &DecimalParts<'_>) -> f64 {
    let leading_int_zeros = parts.int_digits.len() - parts.int_digits.trim_start_matches('0').len();
    let all_digits = format!("{}{}", parts.int_digits, parts.frac_digits);
    let significant = all_digits.trim_start_matches('0');
    let leading_zeros = all_digits.len() - significant.len();
    let significant = significant.trim_end_matches('0');
    if significant.is_empty() {
        return 0.0;
    }
    // value = 0.<significant> × 10^point
    let int_len = (parts.int_digits.len() - leading_int_zeros) as i64;
    let frac_zeros = (leading_zeros - leading_int_zeros) as i64;
    let point = int_len - frac_zeros + parts.exponent;
    if point > 310 {
        // >= 10^310 > f64::MAX.
        f64::INFINITY
    } else if point < -330 {
        // < 10^-330, below half the smallest subnormal (2.5e-324).
        0.0
    } else {
        format!("0.{significant}e{point}").parse().expect("normalised decimal literal")
    }
}

/// A number for `±digits` (no leading zeros; empty means zero).
fn int_number(negative: bool, digits: &str) -> Option<Number> {
    // 38 digits always fit in a u128; longer ones are beyond u64 anyway.
    let magnitude = if digits.len() <= 38 { digits.parse::<u128>().unwrap_or(0) } else { u128::MAX };
    if negative {
        if let Some(value) = 0_i128.checked_sub_unsigned(magnitude).and_then(|v| i64::try_from(v).ok()) {
            return Some(Number::from(value));
        }
    } else if let Ok(value) = i64::try_from(magnitude) {
        return Some(Number::from(value));
    } else if let Ok(value) = u64::try_from(magnitude) {
        return Some(Number::from(value));
    }
    // Outside 64 bits: the nearest float (a documented deviation from Python's int).
    let nearest: f64 = digits.parse().expect("ASCII digits parse as f64");
    Number::from_f64(if negative { -nearest } else { nearest })
}

#[cfg(test)]
mod tests {
    //! Every expected value below was produced by `CPython` 3.11.7 (`python3`
    //! on the development machine) when the test was written, e.g.
    //! `python3 -c "print(repr(float(' 1_000.5 ')))"`; `None` marks a `ValueError`.
    //! For ints outside 64 bits the expectation is Python's `float(int(s))`,
    //! the documented deviation.

    // Float literals are written exactly as Python's repr prints them, so they
    // can be checked against Python by eye; digit separators would hide that.
    #![allow(clippy::unreadable_literal)]

    use super::*;

    /// Same float including the sign of zero and of NaN.
    fn same_float(a: Option<f64>, b: Option<f64>) -> bool {
        match (a, b) {
            (Some(x), Some(y)) if x.is_nan() => y.is_nan() && x.is_sign_negative() == y.is_sign_negative(),
            (Some(x), Some(y)) => x.to_bits() == y.to_bits(),
            (None, None) => true,
            _ => false,
        }
    }

    #[test]
    fn a_plain_decimal_is_always_a_float_and_nothing_else_is_called_one() {
        // Checked with CPython 3.11.7's float() when the test was written:
        // it reads every plain decimal below (`12.` is 12.0, `.5` 0.5,
        // three hundred 9s 1e+300); of the rest, `1e5`, `1_000`, ` 1`,
        // `inf` and `١٢` are numbers only by the general path, and `""`,
        // `.`, `-`, `+.`, `1.2.3` and `--1` are a ValueError.
        for s in ["0", "-12", "+3.25", "12.", ".5", "007.10", &"9".repeat(300)] {
            assert!(is_plain_decimal(s), "{s}");
            assert!(parse_float(s).is_some(), "{s}");
        }
        for s in ["", ".", "-", "+.", "1.2.3", "1e5", "1_000", " 1", "inf", "١٢", "--1", &"9".repeat(301)] {
            assert!(!is_plain_decimal(s), "{s:?}");
        }
    }

    #[test]
    fn short_plain_decimals_read_as_the_general_parser_reads_them() {
        // The fast path's oracle is Rust's correctly rounded parser (the one
        // every longer text still goes through): each text of up to 15
        // digits, with the point anywhere or nowhere, and a sign or none,
        // must give the same bits, -0.0 included.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut texts: Vec<String> = [
            "0",
            "-0",
            "+0",
            "0.",
            ".0",
            "-0.0",
            "1582.76",
            "0.1",
            "0.3",
            "999999999999999",
            "9007199254740993",
            "123456789012345.6",
            "0.000000000000001",
            ".123456789012345",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        for _ in 0..200_000 {
            let len = 1 + (next() % 16) as usize;
            let mut digits: String = (0..len).map(|_| char::from(b'0' + (next() % 10) as u8)).collect();
            let point = (next() % (len as u64 + 2)) as usize;
            if point <= len {
                digits.insert(point, '.');
            }
            let sign = ["", "-", "+"][(next() % 3) as usize];
            texts.push(format!("{sign}{digits}"));
        }
        let mut fast = 0;
        for text in &texts {
            let expected: f64 = text.parse().expect("a plain decimal");
            if let ShortDecimal::Exact(got) = short_decimal(text) {
                fast += 1;
                assert_eq!(got.to_bits(), expected.to_bits(), "{text}");
            }
            assert_eq!(parse_float(text).map(f64::to_bits), Some(expected.to_bits()), "{text}");
        }
        // Most of them took the fast path (the rest have 16 digits).
        assert!(fast > texts.len() * 3 / 4, "{fast} of {}", texts.len());
        // Texts of other shapes (two points, no digit, a stray sign, an
        // exponent, a space) never take it: the general parser decides them.
        let alphabet = b"0123456789..+-e_ ";
        for _ in 0..200_000 {
            let len = (next() % 6) as usize;
            let text: String =
                (0..len).map(|_| char::from(alphabet[(next() % alphabet.len() as u64) as usize])).collect();
            if let ShortDecimal::Exact(got) = short_decimal(&text) {
                assert!(is_plain_decimal(&text), "{text:?}");
                assert_eq!(Some(got.to_bits()), text.parse::<f64>().ok().map(f64::to_bits), "{text:?}");
            } else {
                assert!(!is_plain_decimal(&text) || text.len() > 16, "{text:?}");
            }
        }
    }

    #[test]
    fn parse_float_matches_python() {
        let cases: &[(&str, Option<f64>)] = &[
            (" 1_000.5 ", Some(1000.5)),
            ("1.5", Some(1.5)),
            ("-2.5", Some(-2.5)),
            ("+3", Some(3.0)),
            (".5", Some(0.5)),
            ("5.", Some(5.0)),
            ("-.5e-3", Some(-0.0005)),
            ("1e5", Some(100000.0)),
            ("1E+05", Some(100000.0)),
            ("1e-05", Some(1e-05)),
            ("  12  ", Some(12.0)),
            ("\t\n\u{b}\u{c}\r7\r\n", Some(7.0)),
            ("\u{a0}1\u{3000}", Some(1.0)),
            ("1\u{85}", Some(1.0)),
            ("\u{2003}-4\u{2028}", Some(-4.0)),
            ("\u{661}\u{662}\u{663}", Some(123.0)),
            ("\u{661}.\u{665}", Some(1.5)),
            ("\u{ff11}\u{ff12}\u{ff13}.\u{ff14}", Some(123.4)),
            ("\u{663}_\u{664}", Some(34.0)),
            ("1_0", Some(10.0)),
            ("1_000_000", Some(1000000.0)),
            ("1e1_0", Some(10000000000.0)),
            ("1.5e+0_1", Some(15.0)),
            ("0_0.0_0", Some(0.0)),
            ("inf", Some(f64::INFINITY)),
            ("-inf", Some(f64::NEG_INFINITY)),
            ("+inf", Some(f64::INFINITY)),
            ("INF", Some(f64::INFINITY)),
            ("Infinity", Some(f64::INFINITY)),
            ("-iNfInItY", Some(f64::NEG_INFINITY)),
            ("nan", Some(f64::NAN)),
            ("-nan", Some(-f64::NAN)),
            ("NaN", Some(f64::NAN)),
            ("+NAN", Some(f64::NAN)),
            ("1e309", Some(f64::INFINITY)),
            ("-1e309", Some(f64::NEG_INFINITY)),
            ("1e999999999999999999999", Some(f64::INFINITY)),
            ("1e-400", Some(0.0)),
            ("-1e-400", Some(-0.0)),
            ("0e999999999", Some(0.0)),
            ("2.2250738585072011e-308", Some(2.225073858507201e-308)),
            ("4.9406564584124654e-324", Some(5e-324)),
            ("2.4703282292062327e-324", Some(0.0)),
            ("2.4703282292062328e-324", Some(5e-324)),
            ("1.7976931348623157e308", Some(1.7976931348623157e308)),
            ("1.7976931348623158e308", Some(1.7976931348623157e308)),
            ("1.7976931348623159e308", Some(f64::INFINITY)),
            ("9007199254740993", Some(9007199254740992.0)),
            ("0.1", Some(0.1)),
            ("2.675", Some(2.675)),
            ("-0", Some(-0.0)),
            ("-0.0", Some(-0.0)),
            ("00012.50", Some(12.5)),
        ];
        for &(text, want) in cases {
            let got = parse_float(text);
            assert!(same_float(got, want), "float({text:?}) = {got:?}, Python {want:?}");
        }
    }

    #[test]
    fn parse_float_rejects_what_python_rejects() {
        // Each of these raises ValueError in Python's float().
        let rejected: &[&str] = &[
            "",
            " ",
            "\u{1c}1",
            "1\u{1c}",
            "\u{1f}",
            "1__0",
            "_1",
            "1_",
            "1_.5",
            "1._5",
            "1_e5",
            "1e_5",
            "inf_",
            "infin",
            "infinityy",
            "in",
            "1e",
            "1e+",
            ".e1",
            ".",
            "+",
            "-",
            "+-1",
            "--1",
            "1.2.3",
            "1e5.5",
            "0x10",
            "1,5",
            "1 5",
            "1\0",
            "\u{7f}1",
            "\u{b2}",
            "\u{bd}",
            "\u{2167}",
            "1j",
            "\u{661}_",
            "e5",
            "1e5e5",
            "nan1",
            "++1",
        ];
        for &text in rejected {
            assert_eq!(parse_float(text), None, "float({text:?})");
        }
    }

    #[test]
    fn parse_int_matches_python() {
        let cases: &[(&str, Option<Number>)] = &[
            ("0", Some(Number::from(0_i64))),
            ("-0", Some(Number::from(0_i64))),
            ("+0", Some(Number::from(0_i64))),
            ("007", Some(Number::from(7_i64))),
            ("  42  ", Some(Number::from(42_i64))),
            ("\t-17\n", Some(Number::from(-17_i64))),
            ("+1_000", Some(Number::from(1000_i64))),
            ("1_000_000", Some(Number::from(1000000_i64))),
            ("\u{661}\u{662}\u{663}", Some(Number::from(123_i64))),
            ("\u{a0}\u{663}\u{3000}", Some(Number::from(3_i64))),
            ("1\u{85}", Some(Number::from(1_i64))),
            ("9223372036854775807", Some(Number::from(9223372036854775807_i64))),
            ("9223372036854775808", Some(Number::from(9223372036854775808_u64))),
            ("-9223372036854775808", Some(Number::from(-9223372036854775808_i64))),
            ("-9223372036854775809", Number::from_f64(-9.223372036854776e18)),
            ("18446744073709551615", Some(Number::from(18446744073709551615_u64))),
            ("18446744073709551616", Number::from_f64(1.8446744073709552e19)),
            ("-18446744073709551615", Number::from_f64(-1.8446744073709552e19)),
            ("-18446744073709551616", Number::from_f64(-1.8446744073709552e19)),
            ("99999999999999999999999999999999999999", Number::from_f64(1e38)),
            ("123456789012345678901234567890", Number::from_f64(1.2345678901234568e29)),
            ("90071992547409930000000000", Number::from_f64(9.007199254740994e25)),
            ("", None),
            ("  ", None),
            ("_1", None),
            ("1_", None),
            ("1__0", None),
            ("-_1", None),
            ("+-1", None),
            ("1.0", None),
            ("1e5", None),
            ("1 0", None),
            ("0x10", None),
            ("1\u{1c}", None),
            ("\u{1c}1", None),
            ("\u{b2}", None),
            ("inf", None),
            ("nan", None),
            ("1\0", None),
            ("\u{661}_\u{662}", Some(Number::from(12_i64))),
            ("\u{663}_", None),
        ];
        for (text, want) in cases {
            assert_eq!(&parse_int(text), want, "int({text:?})");
        }
    }

    #[test]
    fn parse_int_digit_limit_matches_python() {
        // Python: int("1" * 4300) works; int("1" * 4301) and int("0" * 4301) raise
        // "Exceeds the limit (4300 digits)"; leading zeros count, underscores and the
        // sign and surrounding spaces do not.
        let zero = Some(Number::from(0_i64));
        assert_eq!(parse_int(&"0".repeat(4300)), zero);
        assert_eq!(parse_int(&format!(" {} ", "0".repeat(4300))), zero);
        assert_eq!(parse_int(&format!("-{}7", "0".repeat(4299))), Some(Number::from(-7_i64)));
        assert_eq!(parse_int(&format!("0_{}", "0".repeat(4299))), zero);
        assert_eq!(parse_int(&"0".repeat(4301)), None);
        assert_eq!(parse_int(&"1".repeat(4301)), None);
        assert_eq!(parse_int(&format!("1_{}", "0".repeat(4300))), None);
        // Python accepts int("1" * 4300), a value beyond f64: the documented deviation is None.
        assert_eq!(parse_int(&"1".repeat(4300)), None);
        assert_eq!(parse_int(&"9".repeat(309)), None);
    }

    #[test]
    fn parse_float_has_no_digit_limit() {
        // Python: float("1" * 4301) == inf, float("0" * 4301) == 0.0,
        // float("0." + "0" * 5000 + "1e5001") == 1.0, float("0." + "0" * 400 + "1e401") == 1.0,
        // float("1" + "0" * 400 + "e-400") == 1.0.
        assert_eq!(parse_float(&format!("0.{}1e401", "0".repeat(400))), Some(1.0));
        assert_eq!(parse_float(&format!("1{}e-400", "0".repeat(400))), Some(1.0));
        assert_eq!(parse_float(&"1".repeat(4301)), Some(f64::INFINITY));
        assert_eq!(parse_float(&"0".repeat(4301)), Some(0.0));
        assert_eq!(parse_float(&format!("0.{}1e5001", "0".repeat(5000))), Some(1.0));
    }
}
