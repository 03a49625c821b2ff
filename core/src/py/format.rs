//! Python's float formatting: `format(x, 'g')`, `format(x, '.2f')`,
//! `format(x, ',.2f')` and `round(x, n)`.
//!
//! Python formats through David Gay's `dtoa`, which rounds the *exact* binary
//! value of the float, ties to even. Rust's `{:.N}` and `{:.Ne}` do the same
//! (checked against `CPython` on exact ties such as 0.125, 0.375, 2.5 and
//! 5e-324, see the tests), so the digits come from Rust's formatter and this
//! module only rearranges them into Python's layout.

/// A finite float written as `±d.ddd × 10^exp`, digits without a decimal point.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SciDigits {
    /// The float's sign bit (so `-0.0` is negative).
    pub(crate) negative: bool,
    /// Significant digits, first one non-zero unless the value is zero.
    pub(crate) digits: String,
    /// Decimal exponent of the first digit.
    pub(crate) exp: i32,
}

impl SciDigits {
    /// Read Rust's `{:e}` / `{:.Ne}` rendering of a finite float, e.g. `-1.25e-7`.
    fn parse(formatted: &str) -> SciDigits {
        let (negative, unsigned) = match formatted.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, formatted),
        };
        let (mantissa, exp) = unsigned.split_once('e').expect("Rust's {:e} always has an exponent");
        SciDigits {
            negative,
            digits: mantissa.replace('.', ""),
            exp: exp.parse().expect("Rust's {:e} exponent is an integer"),
        }
    }

    /// The shortest digits that round-trip to `x` (what Python's `repr` uses).
    ///
    /// When two shortest candidates are equally close to `x`, Python's dtoa
    /// takes the one with an even last digit (`-114841184892591.125` gives
    /// `...591.12`); Rust's `{:e}` can take the other, so that case is redone.
    pub(crate) fn shortest(x: f64) -> SciDigits {
        let rust = SciDigits::parse(&format!("{x:e}"));
        if rust.last_digit_is_odd() {
            rust.break_tie_to_even(x)
        } else {
            rust
        }
    }

    /// Whether the last digit is odd (only then can a tie have gone the other way).
    fn last_digit_is_odd(&self) -> bool {
        self.digits.as_bytes().last().is_some_and(|b| b % 2 == 1)
    }

    /// Given Rust's shortest digits for `x`, return Python's choice between tied candidates.
    fn break_tie_to_even(self, x: f64) -> SciDigits {
        // 780 decimals hold every digit of any f64 (at most 767 are significant).
        let exact = SciDigits::parse(&format!("{x:.780e}")).without_trailing_zeros();
        let n = self.digits.len();
        // A tie means x lies exactly halfway between two n-digit decimals.
        if exact.digits.len() != n + 1 || !exact.digits.ends_with('5') {
            return self;
        }
        let below = SciDigits { negative: exact.negative, digits: exact.digits[..n].to_owned(), exp: exact.exp }
            .without_trailing_zeros();
        let other = if self == below { below.next_up() } else { below };
        if !other.last_digit_is_odd() && other.to_f64() == x {
            other
        } else {
            self
        }
    }

    /// The next decimal up in the last digit's place: `1.29` → `1.3`, `9.9` → `1e1`.
    fn next_up(&self) -> SciDigits {
        let bumped = increment_digits(&self.digits);
        let carried = bumped.len() > self.digits.len();
        let digits = SciDigits { negative: self.negative, digits: bumped, exp: self.exp + i32::from(carried) };
        digits.without_trailing_zeros()
    }

    /// The float nearest to these digits.
    fn to_f64(&self) -> f64 {
        let (first, rest) = self.digits.split_at(1);
        let text = format!("{}{first}.{rest}0e{}", self.sign(), self.exp);
        text.parse().expect("well-formed decimal literal")
    }

    /// `x` correctly rounded to `significant` digits, ties to even.
    fn rounded(x: f64, significant: usize) -> SciDigits {
        SciDigits::parse(&format!("{:.*e}", significant.saturating_sub(1), x))
    }

    /// Drop trailing zero digits, keeping at least one digit.
    fn without_trailing_zeros(mut self) -> SciDigits {
        let kept = self.digits.trim_end_matches('0').len().max(1);
        self.digits.truncate(kept);
        self
    }

    /// `-` for a negative value, else nothing.
    pub(crate) fn sign(&self) -> &'static str {
        if self.negative {
            "-"
        } else {
            ""
        }
    }
}

/// The digits in positional notation without a sign: `123.45`, `0.00012`, `12300`.
///
/// No `.0` is added to whole numbers; `repr` adds it, `'g'` does not.
pub(crate) fn fixed_notation(digits: &str, exp: i32) -> String {
    let point = exp + 1;
    if point <= 0 {
        let zeros = "0".repeat(point.unsigned_abs() as usize);
        return format!("0.{zeros}{digits}");
    }
    let point = point as usize;
    if point >= digits.len() {
        let zeros = "0".repeat(point - digits.len());
        return format!("{digits}{zeros}");
    }
    format!("{}.{}", &digits[..point], &digits[point..])
}

/// The digits in Python's scientific notation without a sign: `1e+16`, `1.5e-07`.
///
/// The exponent always has a sign and at least two digits, as C's `%e` does.
pub(crate) fn sci_notation(digits: &str, exp: i32) -> String {
    let (first, rest) = digits.split_at(1);
    let exp_sign = if exp < 0 { '-' } else { '+' };
    let magnitude = exp.unsigned_abs();
    if rest.is_empty() {
        format!("{first}e{exp_sign}{magnitude:02}")
    } else {
        format!("{first}.{rest}e{exp_sign}{magnitude:02}")
    }
}

/// Python's spelling of a non-finite float, or `None` for a finite one.
///
/// A NaN prints as `nan` whatever its sign bit, as in `CPython`.
pub(crate) fn non_finite(x: f64) -> Option<String> {
    if x.is_nan() {
        Some("nan".to_owned())
    } else if x.is_infinite() {
        Some(if x > 0.0 { "inf" } else { "-inf" }.to_owned())
    } else {
        None
    }
}

/// Python `format(x, 'g')` (also `f"{x:g}"`).
///
/// Six significant digits, correctly rounded; scientific notation when the
/// rounded exponent is below -4 or at least 6; trailing zeros and a bare
/// decimal point removed. `-0.0` gives `-0`; `inf`, `-inf`, `nan`.
pub(crate) fn format_g(x: f64) -> String {
    if let Some(text) = non_finite(x) {
        return text;
    }
    // The exponent is read after rounding, so 999999.5 becomes 1e+06 as in Python.
    let d = SciDigits::rounded(x, 6).without_trailing_zeros();
    let body = if d.exp < -4 || d.exp >= 6 { sci_notation(&d.digits, d.exp) } else { fixed_notation(&d.digits, d.exp) };
    format!("{}{body}", d.sign())
}

/// Python `format(x, '.2f')`: two decimals, correctly rounded, ties to even.
///
/// Negative values that round to zero keep their sign (`-0.00`), as in Python.
pub(crate) fn format_2f(x: f64) -> String {
    non_finite(x).unwrap_or_else(|| format!("{x:.2}"))
}

/// Python `format(x, ',.2f')`: like [`format_2f`] with `,` between thousands.
///
/// `-1234567.891` gives `-1,234,567.89`; non-finite values are not grouped.
pub(crate) fn format_grouped_2f(x: f64) -> String {
    match non_finite(x) {
        Some(text) => text,
        None => group_thousands(&format!("{x:.2}")),
    }
}

/// Insert `,` every three digits into the integer part of `-?\d+(\.\d*)?`.
fn group_thousands(number: &str) -> String {
    let (sign, unsigned) = number.split_at(usize::from(number.starts_with('-')));
    let int_len = unsigned.find('.').unwrap_or(unsigned.len());
    let (int_part, frac_part) = unsigned.split_at(int_len);
    let mut out = String::with_capacity(number.len() + int_len / 3);
    out.push_str(sign);
    for (i, digit) in int_part.chars().enumerate() {
        if i > 0 && (int_len - i) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out.push_str(frac_part);
    out
}

/// Above this many decimals every float rounds to itself (`CPython`'s `NDIGITS_MAX`).
const NDIGITS_MAX: i32 = 323;
/// Below this, every float rounds to a zero of its own sign (`CPython`'s `NDIGITS_MIN`).
const NDIGITS_MIN: i32 = -308;

/// Python `round(x, ndigits)` for a float `x`.
///
/// Correctly rounded to `ndigits` decimal places (negative: tens, hundreds, ...),
/// ties to even on the exact binary value, as `CPython`'s `double_round`: so
/// `round(2.675, 2)` is `2.67` and `round(0.125, 2)` is `0.12`. The sign of a
/// zero result follows `x`. NaN and infinities come back unchanged.
///
/// Deviation: where Python raises `OverflowError` ("rounded value too large to
/// represent"; only for `ndigits == -308` and `|x| > 1.5e308`, which rounds to
/// 2e308), this returns an infinity of the sign of `x`.
pub(crate) fn round_to(x: f64, ndigits: i32) -> f64 {
    if !x.is_finite() || ndigits > NDIGITS_MAX {
        return x;
    }
    if ndigits < NDIGITS_MIN {
        return 0.0 * x;
    }
    let text = if ndigits >= 0 {
        format!("{:.*}", ndigits as usize, x)
    } else {
        round_to_power_of_ten(x, ndigits.unsigned_abs())
    };
    // The text is always a well-formed decimal literal, so the fallback never applies.
    text.parse().unwrap_or(x)
}

/// `x` rounded to a multiple of `10^power` (power >= 1), as decimal text.
///
/// Rust's formatter cannot round left of the decimal point, so the whole-number
/// part is rounded here as a digit string: exact, since a float's integer part
/// prints exactly and its fractional part only matters as "is it non-zero".
fn round_to_power_of_ten(x: f64, power: u32) -> String {
    let sign = if x.is_sign_negative() { "-" } else { "" };
    let whole = format!("{:.0}", x.trunc().abs());
    let has_fraction = x.fract() != 0.0;
    let power = power as usize;
    if whole.len() < power {
        // |x| < 10^(power-1) < half a unit: rounds to a signed zero.
        return format!("{sign}0");
    }
    let (kept, dropped) = whole.split_at(whole.len() - power);
    let rounded = round_digits_half_even(kept, dropped, has_fraction);
    format!("{sign}{rounded}e{power}")
}

/// Round the digit string `kept` by the digits `dropped` after it, ties to even.
///
/// `sticky` says whether non-zero digits follow `dropped`. An empty `kept`
/// stands for zero, so the result is `0` or `1`.
fn round_digits_half_even(kept: &str, dropped: &str, sticky: bool) -> String {
    let first_dropped = dropped.as_bytes().first().copied().unwrap_or(b'0');
    let beyond_half = sticky || dropped.bytes().skip(1).any(|b| b != b'0');
    let last_kept_odd = kept.as_bytes().last().is_some_and(|b| (b - b'0') % 2 == 1);
    let round_up = match first_dropped.cmp(&b'5') {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Equal => beyond_half || last_kept_odd,
        std::cmp::Ordering::Less => false,
    };
    if round_up {
        increment_digits(kept)
    } else if kept.is_empty() {
        "0".to_owned()
    } else {
        kept.to_owned()
    }
}

/// Add one to a decimal digit string (`""` counts as zero): `"199"` → `"200"`.
fn increment_digits(digits: &str) -> String {
    let mut bytes = digits.as_bytes().to_vec();
    for byte in bytes.iter_mut().rev() {
        if *byte == b'9' {
            *byte = b'0';
        } else {
            *byte += 1;
            return String::from_utf8(bytes).expect("ASCII digits");
        }
    }
    bytes.insert(0, b'1');
    String::from_utf8(bytes).expect("ASCII digits")
}

#[cfg(test)]
mod tests {
    //! Every expected value below was produced by `CPython` 3.11.7 (`python3`
    //! on the development machine) when the test was written, with
    //! `format(x, 'g')`, `format(x, '.2f')`, `format(x, ',.2f')` and `round(x, n)`.

    // Float literals are written exactly as Python's repr prints them, so they
    // can be checked against Python by eye; digit separators would hide that.
    #![allow(clippy::unreadable_literal)]

    use super::*;

    /// Bits of a float, with every NaN the same, so `-0.0` and `0.0` differ.
    fn same_float(a: f64, b: f64) -> bool {
        (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
    }

    #[test]
    fn format_g_matches_python() {
        let cases: &[(f64, &str)] = &[
            (0.0, "0"),
            (-0.0, "-0"),
            (1.0, "1"),
            (-1.0, "-1"),
            (0.1, "0.1"),
            (0.0001, "0.0001"),
            (1e-05, "1e-05"),
            (0.00012345675, "0.000123457"),
            (123456.0, "123456"),
            (999999.0, "999999"),
            (999999.4, "999999"),
            (999999.5, "1e+06"),
            (1000000.0, "1e+06"),
            (-1000000.0, "-1e+06"),
            (1234567.0, "1.23457e+06"),
            (1234565.0, "1.23456e+06"),
            (1234575.0, "1.23458e+06"),
            (12345650.0, "1.23456e+07"),
            (0.5, "0.5"),
            (2.5, "2.5"),
            (100.0, "100"),
            (1e16, "1e+16"),
            (1e22, "1e+22"),
            (1e100, "1e+100"),
            (-1.5e-07, "-1.5e-07"),
            (5e-324, "4.94066e-324"),
            (1.7976931348623157e308, "1.79769e+308"),
            (2.2250738585072014e-308, "2.22507e-308"),
            (0.3, "0.3"),
            (2.675, "2.675"),
            (0.3333333333333333, "0.333333"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
            (f64::NAN, "nan"),
            (123.456789, "123.457"),
            (0.000123456789, "0.000123457"),
            (9.9999949e-05, "9.99999e-05"),
            (9.9999951e-05, "0.0001"),
            (3.14158, "3.14158"),
        ];
        for &(x, want) in cases {
            assert_eq!(format_g(x), want, "format({x:?}, 'g')");
        }
    }

    #[test]
    fn format_2f_and_grouped_match_python() {
        // Exact binary ties (0.125, 0.375, 0.625, 0.875) round to even, as in Python.
        let cases: &[(f64, &str, &str)] = &[
            (0.0, "0.00", "0.00"),
            (-0.0, "-0.00", "-0.00"),
            (0.125, "0.12", "0.12"),
            (0.375, "0.38", "0.38"),
            (0.625, "0.62", "0.62"),
            (0.875, "0.88", "0.88"),
            (2.675, "2.67", "2.67"),
            (1.005, "1.00", "1.00"),
            (-0.001, "-0.00", "-0.00"),
            (-0.005, "-0.01", "-0.01"),
            (-0.0051, "-0.01", "-0.01"),
            (0.005, "0.01", "0.01"),
            (0.015, "0.01", "0.01"),
            (0.025, "0.03", "0.03"),
            (1.5, "1.50", "1.50"),
            (1234567.891, "1234567.89", "1,234,567.89"),
            (-1234567.891, "-1234567.89", "-1,234,567.89"),
            (999.995, "1000.00", "1,000.00"),
            (999.994, "999.99", "999.99"),
            (1e16, "10000000000000000.00", "10,000,000,000,000,000.00"),
            (-1e16, "-10000000000000000.00", "-10,000,000,000,000,000.00"),
            (1e22, "10000000000000000000000.00", "10,000,000,000,000,000,000,000.00"),
            (123456789012.345, "123456789012.35", "123,456,789,012.35"),
            (0.1, "0.10", "0.10"),
            (1e-10, "0.00", "0.00"),
            (5e-324, "0.00", "0.00"),
            (f64::INFINITY, "inf", "inf"),
            (f64::NEG_INFINITY, "-inf", "-inf"),
            (f64::NAN, "nan", "nan"),
            (100.0, "100.00", "100.00"),
            (-1000.0, "-1000.00", "-1,000.00"),
            (999999.999, "1000000.00", "1,000,000.00"),
        ];
        for &(x, plain, grouped) in cases {
            assert_eq!(format_2f(x), plain, "format({x:?}, '.2f')");
            assert_eq!(format_grouped_2f(x), grouped, "format({x:?}, ',.2f')");
        }
    }

    #[test]
    fn round_to_matches_python() {
        let cases: &[(f64, i32, f64)] = &[
            (0.125, 2, 0.12),
            (0.375, 2, 0.38),
            (2.675, 2, 2.67),
            (2.5, 0, 2.0),
            (3.5, 0, 4.0),
            (0.5, 0, 0.0),
            (-0.5, 0, -0.0),
            (1.5, 0, 2.0),
            (-0.001, 2, -0.0),
            (5e-05, 4, 0.0001),
            (0.00015, 4, 0.0001),
            (0.12345, 4, 0.1235),
            (0.66666666, 4, 0.6667),
            (0.3333333333333333, 4, 0.3333),
            (0.6666666666666666, 4, 0.6667),
            (0.99995, 4, 1.0),
            (1.0, 4, 1.0),
            (0.0, 4, 0.0),
            (-0.0, 4, -0.0),
            (50.0, -2, 0.0),
            (150.0, -2, 200.0),
            (250.0, -2, 200.0),
            (251.0, -2, 300.0),
            (-250.0, -2, -200.0),
            (25.0, -1, 20.0),
            (35.0, -1, 40.0),
            (1234.5678, -2, 1200.0),
            (5.0, -1, 0.0),
            (4.9, -1, 0.0),
            (0.4, -1, 0.0),
            (-0.4, -1, -0.0),
            (1e300, -300, 1e300),
            (1.5e300, -300, 2e300),
            (2.5e300, -300, 3e300),
            (123.456, -3, 0.0),
            (499.9, -3, 0.0),
            (500.0, -3, 0.0),
            (500.1, -3, 1000.0),
            (1e22, -22, 1e22),
            (5e22, -23, 0.0),
            (1e-320, 323, 1e-320),
            (1e-320, 320, 1e-320),
            (5e-324, 323, 0.0),
            (5e-324, 324, 5e-324),
            (5e-324, 400, 5e-324),
            (123.456, -308, 0.0),
            (-123.456, -309, -0.0),
            (1e308, -308, 1e308),
            (9.5e307, -308, 1e308),
            (f64::INFINITY, 2, f64::INFINITY),
            (f64::NEG_INFINITY, -3, f64::NEG_INFINITY),
            (f64::NAN, 4, f64::NAN),
            (0.30000000000000004, 15, 0.3),
            (0.30000000000000004, 16, 0.3),
            (0.30000000000000004, 17, 0.30000000000000004),
            (2.675, 1000, 2.675),
            (123.456, 10, 123.456),
        ];
        for &(x, ndigits, want) in cases {
            let got = round_to(x, ndigits);
            assert!(same_float(got, want), "round({x:?}, {ndigits}) = {got:?}, Python {want:?}");
        }
    }

    #[test]
    fn round_to_overflow_gives_infinity() {
        // Python: round(1.7976931348623157e308, -308) raises OverflowError
        // ("rounded value too large to represent"); round_to documents an infinity.
        assert_eq!(round_to(1.797_693_134_862_315_7e308, -308), f64::INFINITY);
        assert_eq!(round_to(-1.5e308, -308), f64::NEG_INFINITY);
    }

    #[test]
    fn notation_helpers() {
        // The layouts of Python's repr(1e16) = '1e+16', repr(1.5e-07) = '1.5e-07',
        // repr(1e+100) = '1e+100', repr(123.45), repr(0.00012), format(12300.0, 'g') = '12300',
        // format(-1234567.89, ',.2f'), format(123.0, ',.2f') and format(1000, ',') = '1,000'.
        assert_eq!(sci_notation("1", 16), "1e+16");
        assert_eq!(sci_notation("15", -7), "1.5e-07");
        assert_eq!(sci_notation("1", 100), "1e+100");
        assert_eq!(fixed_notation("12345", 2), "123.45");
        assert_eq!(fixed_notation("12", -4), "0.00012");
        assert_eq!(fixed_notation("123", 4), "12300");
        assert_eq!(group_thousands("-1234567.89"), "-1,234,567.89");
        assert_eq!(group_thousands("123.00"), "123.00");
        assert_eq!(group_thousands("1000"), "1,000");
    }
}
