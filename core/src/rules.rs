//! Applying one contract rule to one (coerced) value.
//!
//! Deciding and explaining are separate: [`failure`] says whether a value
//! fails and with which code, without allocating; [`message`] writes the
//! sentence, and is called only for a finding someone will read.

use crate::coerce::Coerced;
use crate::contract::Rule;
use crate::py::format::format_g;
use crate::py::repr::{repr, repr_float, repr_str};

/// The code `value` fails `rule` with, or `None` when it passes.
pub(crate) fn failure(rule: &Rule, value: &Coerced<'_>) -> Option<&'static str> {
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
    }
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
    }
}
