//! Applying one contract rule to one (coerced) value.
//!
//! Deciding and explaining are separate: [`failure`] says whether a value
//! fails and with which code, without allocating; [`message`] writes the
//! sentence, and is called only for a finding someone will read.

use std::cmp::Ordering;

use serde_json::Value;

use crate::coerce::Coerced;
use crate::contract::{Moment, Rule};
use crate::py::format::format_g;
use crate::py::repr::{repr, repr_float, repr_str};
use crate::value_key::write_key;

/// The code `value` fails `rule` with, or `None` when it passes. `scratch`
/// is a buffer for a value's key (`references`), reused across calls.
pub(crate) fn failure(rule: &Rule, value: &Coerced<'_>, scratch: &mut Vec<u8>) -> Option<&'static str> {
    match rule {
        Rule::Min(bound) => match value.to_float() {
            None => Some("not_numeric"),
            Some(x) if x < *bound => Some("below_minimum"),
            Some(_) => None,
        },
        Rule::Max(bound) => match value.to_float() {
            None => Some("not_numeric"),
            Some(x) if x > *bound => Some("above_maximum"),
            Some(_) => None,
        },
        Rule::Range(low, high) => match value.to_float() {
            None => Some("not_numeric"),
            Some(x) if x < *low || x > *high => Some("out_of_range"),
            Some(_) => None,
        },
        Rule::Pattern { regex, .. } => (!regex.is_match(&pattern_text(value))).then_some("pattern_mismatch"),
        Rule::OneOf(allowed) => (!allowed.iter().any(|item| value.py_eq(item))).then_some("not_allowed"),
        Rule::NotBlank => value.is_blank().then_some("blank"),
        Rule::Earliest(bound) => match bound.compare(value) {
            None => Some("not_comparable"),
            Some(Ordering::Less) => Some("below_minimum"),
            Some(_) => None,
        },
        Rule::Latest(bound) => match bound.compare(value) {
            None => Some("not_comparable"),
            Some(Ordering::Greater) => Some("above_maximum"),
            Some(_) => None,
        },
        Rule::MinLength(length) => (text_length(value) < *length).then_some("too_short"),
        Rule::MaxLength(length) => (text_length(value) > *length).then_some("too_long"),
        Rule::Format(format) => (!format.matches(&value.str_of())).then_some("invalid_format"),
        Rule::MaxDecimalPlaces(places) => match decimal_places(value) {
            None => Some("not_numeric"),
            Some(found) if found > *places => Some("too_many_decimal_places"),
            Some(_) => None,
        },
        Rule::References(reference) => {
            (!(write_key(value, scratch) && reference.contains(scratch))).then_some("reference_not_found")
        }
    }
}

/// Python's `len(str(value))`: characters (code points), not bytes.
fn text_length(value: &Coerced<'_>) -> usize {
    match value {
        Coerced::Text(text) if text.is_ascii() => text.len(),
        other => other.str_of().chars().count(),
    }
}

/// The digits after the decimal point in the number's shortest round-trip
/// form (Python's `repr` of the float): `10.50` has 1, `1e-7` has 7, and a
/// whole number has 0. `None` for a value that is not a finite number.
fn decimal_places(value: &Coerced<'_>) -> Option<u32> {
    let x = value.to_float().filter(|x| x.is_finite())?;
    if x.fract() == 0.0 {
        return Some(0);
    }
    // `{:e}` prints the shortest digits that round-trip: `d.ddddde±x`.
    let scientific = format!("{x:e}");
    let (digits, exponent) = scientific.split_once('e')?;
    let exponent: i64 = exponent.parse().ok()?;
    let fraction_digits = digits.split_once('.').map_or(0, |(_, fraction)| fraction.len()) as i64;
    Some(u32::try_from((fraction_digits - exponent).max(0)).unwrap_or(u32::MAX))
}

/// What a v2 rule expected, for its finding's `expected`; `None` for the
/// reference's rules, whose findings carry none.
pub(crate) fn expected(rule: &Rule) -> Option<Value> {
    Some(Value::String(match rule {
        Rule::Min(_) | Rule::Max(_) | Rule::Range(..) | Rule::Pattern { .. } | Rule::OneOf(_) | Rule::NotBlank => {
            return None
        }
        Rule::Earliest(bound) => format!("{} or later", bound.text),
        Rule::Latest(bound) => format!("{} or earlier", bound.text),
        Rule::MinLength(length) => format!("at least {length} characters"),
        Rule::MaxLength(length) => format!("at most {length} characters"),
        Rule::Format(format) => format!("format {}", format.name()),
        Rule::MaxDecimalPlaces(places) => format!("at most {places} decimal places"),
        Rule::References(reference) => reference.target(),
    }))
}

/// The message for a moment outside its bound, or not comparable to it.
fn moment_message(bound: &Moment, value: &Coerced<'_>, side: &str, beyond: &str) -> String {
    if bound.compare(value).is_none() {
        let (value_kind, bound_kind) = if bound.is_aware() { ("naive", "aware") } else { ("aware", "naive") };
        return format!(
            "{} is a {value_kind} datetime, so cannot be compared to the {bound_kind} {side} {}",
            value.repr(),
            bound.text
        );
    }
    format!("{} is {beyond} the {side} of {}", value.str_of(), bound.text)
}

/// The text a pattern is matched against: `str(value)`, with null as empty.
fn pattern_text<'v>(value: &'v Coerced<'_>) -> std::borrow::Cow<'v, str> {
    if value.is_null() {
        std::borrow::Cow::Borrowed("")
    } else {
        value.str_of()
    }
}

/// The message for a value that fails `rule` (as [`failure`] decided).
pub(crate) fn message(rule: &Rule, value: &Coerced<'_>) -> String {
    let x = value.to_float();
    match (rule, x) {
        (Rule::Min(bound), None) => format!("not numeric, so cannot compare to minimum {}", repr_float(*bound)),
        (Rule::Min(bound), Some(x)) => format!("{} is below the minimum of {}", format_g(x), format_g(*bound)),
        (Rule::Max(bound), None) => format!("not numeric, so cannot compare to maximum {}", repr_float(*bound)),
        (Rule::Max(bound), Some(x)) => format!("{} is above the maximum of {}", format_g(x), format_g(*bound)),
        (Rule::Range(low, high), None) => {
            format!("not numeric, so cannot range-check {}..{}", format_g(*low), format_g(*high))
        }
        (Rule::Range(low, high), Some(x)) => {
            format!("{} is outside the range {}..{}", format_g(x), format_g(*low), format_g(*high))
        }
        (Rule::Pattern { source, .. }, _) => {
            format!("{} does not match the required pattern {source}", repr_str(&pattern_text(value)))
        }
        (Rule::OneOf(allowed), _) => {
            let rendered = allowed.iter().map(repr).collect::<Vec<_>>().join(", ");
            format!("{} is not one of the allowed values: {rendered}", value.repr())
        }
        (Rule::NotBlank, _) => "is blank".into(),
        (Rule::Earliest(bound), _) => moment_message(bound, value, "minimum", "before"),
        (Rule::Latest(bound), _) => moment_message(bound, value, "maximum", "after"),
        (Rule::MinLength(length), _) => {
            format!("{} is {} characters long, shorter than the minimum of {length}", value.repr(), text_length(value))
        }
        (Rule::MaxLength(length), _) => {
            format!("{} is {} characters long, longer than the maximum of {length}", value.repr(), text_length(value))
        }
        (Rule::Format(format), _) => format!("{} is not {}", value.repr(), format.describe()),
        (Rule::MaxDecimalPlaces(places), _) => match decimal_places(value) {
            None => format!("{} is not a finite number, so cannot count its decimal places", value.repr()),
            Some(found) => {
                format!("{} has {found} decimal places, more than the {places} allowed", value.str_of())
            }
        },
        (Rule::References(reference), _) => format!("{} is not {}", value.repr(), reference.target()),
    }
}
