//! Python's `repr()`, `str()` and `type(v).__name__` for JSON data.
//!
//! The reference interpolates values into messages with `{value!r}` and
//! `str(value)`, so they carry Python's spelling: `None`, `True`, `'text'`,
//! `1.0`, `{'k': [1, 'a']}`. Values are taken to be what `json.loads` would give
//! Python: a `serde_json` number is an `int` when it is an `i64` or `u64`, else a
//! `float`.

use serde_json::{Number, Value};

use super::format::{fixed_notation, non_finite, sci_notation, SciDigits};
use super::text::is_printable;

/// Python `repr(v)`.
///
/// `None`, `True`/`False`, integer digits, [`repr_float`] for floats,
/// [`repr_str`] for strings, `[1, 'a']` for lists and `{'k': 1.0}` for dicts
/// (in the value's key order).
pub(crate) fn repr(v: &Value) -> String {
    let mut out = String::new();
    write_repr(&mut out, v);
    out
}

/// Python `str(v)`: a string as it is, anything else as [`repr`].
///
/// For lists and dicts Python's `str` is its `repr` (items inside are repr'd too).
pub(crate) fn str_of(v: &Value) -> String {
    match v {
        Value::String(text) => text.clone(),
        other => repr(other),
    }
}

/// Python `type(v).__name__`: `NoneType`, `bool`, `int`, `float`, `str`, `list` or `dict`.
pub(crate) fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "NoneType",
        Value::Bool(_) => "bool",
        Value::Number(n) if is_int(n) => "int",
        Value::Number(_) => "float",
        Value::String(_) => "str",
        Value::Array(_) => "list",
        Value::Object(_) => "dict",
    }
}

/// Whether Python sees this JSON number as an `int` (rather than a `float`).
fn is_int(n: &Number) -> bool {
    n.is_i64() || n.is_u64()
}

/// Append `repr(v)` to `out`.
fn write_repr(out: &mut String, v: &Value) {
    match v {
        Value::Null => out.push_str("None"),
        Value::Bool(true) => out.push_str("True"),
        Value::Bool(false) => out.push_str("False"),
        Value::Number(n) => out.push_str(&repr_number(n)),
        Value::String(text) => write_repr_str(out, text),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_repr(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_repr_str(out, key);
                out.push_str(": ");
                write_repr(out, item);
            }
            out.push('}');
        }
    }
}

/// `repr` of a JSON number: integer digits for an int, [`repr_float`] otherwise.
fn repr_number(n: &Number) -> String {
    if let Some(i) = n.as_i64() {
        i.to_string()
    } else if let Some(u) = n.as_u64() {
        u.to_string()
    } else {
        repr_float(n.as_f64().unwrap_or(f64::NAN))
    }
}

/// Python `repr(s)` for a `str`.
///
/// Single quotes, unless the text contains `'` and no `"`. Backslash and the
/// chosen quote are escaped; `\t`, `\n`, `\r` by name; other characters for which
/// `str.isprintable()` is False as `\xNN`, `\uNNNN` or `\UNNNNNNNN` (lower-case
/// hex, shortest form that fits); everything else appears as itself.
pub(crate) fn repr_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    write_repr_str(&mut out, s);
    out
}

/// Append `repr(s)` to `out`.
fn write_repr_str(out: &mut String, s: &str) {
    let quote = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    out.push(quote);
    for c in s.chars() {
        push_escaped(out, c, quote);
    }
    out.push(quote);
}

/// Append one character of a string repr, escaped as `CPython`'s `unicode_repr` does.
fn push_escaped(out: &mut String, c: char, quote: char) {
    match c {
        '\\' => out.push_str("\\\\"),
        _ if c == quote => {
            out.push('\\');
            out.push(c);
        }
        '\t' => out.push_str("\\t"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        _ if is_printable(c) => out.push(c),
        _ => push_hex_escape(out, u32::from(c)),
    }
}

/// Append `\xNN`, `\uNNNN` or `\UNNNNNNNN`, whichever is the shortest that fits.
fn push_hex_escape(out: &mut String, cp: u32) {
    let escape = if cp <= 0xff {
        format!("\\x{cp:02x}")
    } else if cp <= 0xffff {
        format!("\\u{cp:04x}")
    } else {
        format!("\\U{cp:08x}")
    };
    out.push_str(&escape);
}

/// Python `repr(x)` (and `str(x)`) for a float.
///
/// The shortest digits that read back as `x`. Positional notation when the
/// decimal exponent is in -4..16, with `.0` on whole numbers (`1.0`, `-0.0`,
/// `1234567890123456.0`, `0.0001`); otherwise `1e+16`, `1e-05`,
/// `1.2345678901234568e+17`. `inf`, `-inf`, `nan`.
pub(crate) fn repr_float(x: f64) -> String {
    if let Some(text) = non_finite(x) {
        return text;
    }
    // Rust's `{:e}` gives the same shortest round-trip digits as Python's
    // dtoa mode 0 (checked by the differential script); only the layout differs.
    let d = SciDigits::shortest(x);
    if d.exp < -4 || d.exp >= 16 {
        return format!("{}{}", d.sign(), sci_notation(&d.digits, d.exp));
    }
    let body = fixed_notation(&d.digits, d.exp);
    let point = if body.contains('.') { "" } else { ".0" };
    format!("{}{body}{point}", d.sign())
}

#[cfg(test)]
mod tests {
    //! Every expected value below was produced by `CPython` 3.11.7 (`python3`
    //! on the development machine) when the test was written: `repr(v)`,
    //! `str(v)` and `type(v).__name__` of `v = json.loads(text)`, `repr(s)` of
    //! strings and `repr(x)` of floats.

    // Float literals are written exactly as Python's repr prints them, so they
    // can be checked against Python by eye; digit separators would hide that.
    #![allow(clippy::unreadable_literal)]

    use super::*;

    /// `(JSON text, repr, str, type name)` of `json.loads(text)` in Python.
    const JSON_CASES: &[(&str, &str, &str, &str)] = &[
        ("null", "None", "None", "NoneType"),
        ("true", "True", "True", "bool"),
        ("false", "False", "False", "bool"),
        ("0", "0", "0", "int"),
        ("-7", "-7", "-7", "int"),
        ("9223372036854775807", "9223372036854775807", "9223372036854775807", "int"),
        ("-9223372036854775808", "-9223372036854775808", "-9223372036854775808", "int"),
        ("18446744073709551615", "18446744073709551615", "18446744073709551615", "int"),
        ("1.0", "1.0", "1.0", "float"),
        ("-0.0", "-0.0", "-0.0", "float"),
        ("1e16", "1e+16", "1e+16", "float"),
        ("1.5e-5", "1.5e-05", "1.5e-05", "float"),
        ("100.0", "100.0", "100.0", "float"),
        ("\"x\"", "'x'", "x", "str"),
        ("\"\"", "''", "", "str"),
        ("\"it's\"", "\"it's\"", "it's", "str"),
        ("\"say \\\"hi\\\"\"", "'say \"hi\"'", "say \"hi\"", "str"),
        ("\"both ' and \\\"\"", "'both \\' and \"'", "both ' and \"", "str"),
        ("\"back\\\\slash\"", "'back\\\\slash'", "back\\slash", "str"),
        ("\"tab\\tnl\\nret\\r\"", "'tab\\tnl\\nret\\r'", "tab\tnl\nret\r", "str"),
        (
            "\"\\u0000\\u001f\\u007f\\u0080\\u00a0\\u00ad\"",
            "'\\x00\\x1f\\x7f\\x80\\xa0\\xad'",
            "\0\u{1f}\u{7f}\u{80}\u{a0}\u{ad}",
            "str",
        ),
        (
            "\"caf\\u00e9 \\u4e2d \\ud83d\\ude00\"",
            "'caf\u{e9} \u{4e2d} \u{1f600}'",
            "caf\u{e9} \u{4e2d} \u{1f600}",
            "str",
        ),
        (
            "\"\\u200b\\u2028\\u3000\\ue000\\ufeff\\uffff\"",
            "'\\u200b\\u2028\\u3000\\ue000\\ufeff\\uffff'",
            "\u{200b}\u{2028}\u{3000}\u{e000}\u{feff}\u{ffff}",
            "str",
        ),
        ("\"\\udb40\\udc01 \\udbff\\udfff\"", "'\\U000e0001 \\U0010ffff'", "\u{e0001} \u{10ffff}", "str"),
        ("[]", "[]", "[]", "list"),
        ("{}", "{}", "{}", "dict"),
        ("[1, \"a\", null, true, 2.5]", "[1, 'a', None, True, 2.5]", "[1, 'a', None, True, 2.5]", "list"),
        ("{\"k\": 1.0}", "{'k': 1.0}", "{'k': 1.0}", "dict"),
        (
            "{\"b\": [1, {\"c\": \"d\"}], \"a\": {}}",
            "{'b': [1, {'c': 'd'}], 'a': {}}",
            "{'b': [1, {'c': 'd'}], 'a': {}}",
            "dict",
        ),
        ("[[[]]]", "[[[]]]", "[[[]]]", "list"),
        ("{\"it's\": \"x\", \"q\\\"\": 1}", "{\"it's\": 'x', 'q\"': 1}", "{\"it's\": 'x', 'q\"': 1}", "dict"),
        ("[1e22, 1e-7, 0.1]", "[1e+22, 1e-07, 0.1]", "[1e+22, 1e-07, 0.1]", "list"),
    ];

    #[test]
    fn repr_str_type_name_match_python_on_json() {
        for &(text, want_repr, want_str, want_type) in JSON_CASES {
            let value: Value = serde_json::from_str(text).expect("test JSON");
            assert_eq!(repr(&value), want_repr, "repr of {text}");
            assert_eq!(str_of(&value), want_str, "str of {text}");
            assert_eq!(type_name(&value), want_type, "type of {text}");
        }
    }

    #[test]
    fn repr_str_matches_python() {
        let cases: &[(&str, &str)] = &[
            ("", "''"),
            ("a", "'a'"),
            ("'", "\"'\""),
            ("\"", "'\"'"),
            ("'\"", "'\\'\"'"),
            ("it's", "\"it's\""),
            ("say \"hi\"", "'say \"hi\"'"),
            ("it's \"x\"", "'it\\'s \"x\"'"),
            ("\\", "'\\\\'"),
            ("\0\u{7}\u{1b}\u{7f}", "'\\x00\\x07\\x1b\\x7f'"),
            ("\u{80}\u{9f}\u{a0}\u{ad}\u{ff}", "'\\x80\\x9f\\xa0\\xad\u{ff}'"),
            ("\u{100}\u{378}\u{200b}\u{2028}\u{feff}", "'\u{100}\\u0378\\u200b\\u2028\\ufeff'"),
            ("\u{1f600}\u{e0001}\u{10ffff}\u{f0000}", "'\u{1f600}\\U000e0001\\U0010ffff\\U000f0000'"),
            ("\t\n\r\u{b}\u{c}", "'\\t\\n\\r\\x0b\\x0c'"),
            ("\u{e9}\u{4e2d}\u{1f600}", "'\u{e9}\u{4e2d}\u{1f600}'"),
            ("\u{3000} \u{a0}", "'\\u3000 \\xa0'"),
        ];
        for &(text, want) in cases {
            assert_eq!(repr_str(text), want, "repr({text:?})");
        }
    }

    #[test]
    fn repr_float_matches_python() {
        // Includes exact ties between two shortest candidates (-114841184892591.125,
        // -2094308427166207.25), where Python keeps the even last digit.
        let cases: &[(f64, &str)] = &[
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (1.0, "1.0"),
            (-1.0, "-1.0"),
            (0.1, "0.1"),
            (0.5, "0.5"),
            (100.0, "100.0"),
            (1000000000000000.0, "1000000000000000.0"),
            (1e16, "1e+16"),
            (-1e16, "-1e+16"),
            (123456789012345.6, "123456789012345.6"),
            (1234567890123456.0, "1234567890123456.0"),
            (1.2345678901234568e16, "1.2345678901234568e+16"),
            (1.2345678901234568e17, "1.2345678901234568e+17"),
            (0.0001, "0.0001"),
            (1e-05, "1e-05"),
            (-1e-05, "-1e-05"),
            (1.5000000000000002e-05, "1.5000000000000002e-05"),
            (0.001234, "0.001234"),
            (5e-324, "5e-324"),
            (2.2250738585072014e-308, "2.2250738585072014e-308"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (1e22, "1e+22"),
            (1e23, "1e+23"),
            (0.30000000000000004, "0.30000000000000004"),
            (2.675, "2.675"),
            (0.3333333333333333, "0.3333333333333333"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
            (f64::NAN, "nan"),
            (-114841184892591.12, "-114841184892591.12"),
            (-2094308427166207.2, "-2094308427166207.2"),
            (9007199254740992.0, "9007199254740992.0"),
            (4.35, "4.35"),
            (123.0, "123.0"),
            (1e100, "1e+100"),
            (1e23, "1e+23"),
        ];
        for &(x, want) in cases {
            assert_eq!(repr_float(x), want, "repr({x:?})");
        }
    }
}
