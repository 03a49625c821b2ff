//! Applying one contract rule to one (coerced) value.

use crate::contract::Rule;
use crate::py::format::format_g;
use crate::py::repr::{repr, repr_float};
use crate::py::value::Cell;

/// A failed rule: a stable code and a message.
pub(crate) struct RuleProblem {
    pub(crate) code: &'static str,
    pub(crate) message: String,
}

#[allow(clippy::unnecessary_wraps)] // every rule arm returns through it
fn fail(code: &'static str, message: String) -> Option<RuleProblem> {
    Some(RuleProblem { code, message })
}

/// `None` when `value` passes `rule`.
pub(crate) fn check(rule: &Rule, value: &Cell) -> Option<RuleProblem> {
    match rule {
        Rule::Min(bound) => match value.to_float() {
            None => fail("not_numeric", format!("not numeric, so cannot compare to minimum {}", repr_float(*bound))),
            Some(x) if x < *bound => {
                fail("below_minimum", format!("{} is below the minimum of {}", format_g(x), format_g(*bound)))
            }
            Some(_) => None,
        },
        Rule::Max(bound) => match value.to_float() {
            None => fail("not_numeric", format!("not numeric, so cannot compare to maximum {}", repr_float(*bound))),
            Some(x) if x > *bound => {
                fail("above_maximum", format!("{} is above the maximum of {}", format_g(x), format_g(*bound)))
            }
            Some(_) => None,
        },
        Rule::Range(low, high) => match value.to_float() {
            None => fail(
                "not_numeric",
                format!("not numeric, so cannot range-check {}..{}", format_g(*low), format_g(*high)),
            ),
            Some(x) if x < *low || x > *high => fail(
                "out_of_range",
                format!("{} is outside the range {}..{}", format_g(x), format_g(*low), format_g(*high)),
            ),
            Some(_) => None,
        },
        Rule::Pattern { regex, source } => {
            let text = match value {
                Cell::Json(serde_json::Value::Null) => String::new(),
                other => other.str_of(),
            };
            if regex.is_match(&text) {
                None
            } else {
                let quoted = repr(&serde_json::Value::String(text));
                fail("pattern_mismatch", format!("{quoted} does not match the required pattern {source}"))
            }
        }
        Rule::OneOf(allowed) => {
            if allowed.iter().any(|item| value.py_eq(item)) {
                None
            } else {
                let rendered = allowed.iter().map(repr).collect::<Vec<_>>().join(", ");
                fail("not_allowed", format!("{} is not one of the allowed values: {rendered}", value.repr()))
            }
        }
        Rule::NotBlank => match value {
            Cell::Json(json) if crate::py::value::is_blank(json) => fail("blank", "is blank".into()),
            _ => None,
        },
    }
}
