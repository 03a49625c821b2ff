//! The column rules of contract v2: lengths, formats, decimal places,
//! references, and `min`/`max` as moments on date and datetime columns.
//!
//! Parsed after the reference's rules and run after them, so a contract
//! that uses none of these keys checks exactly what it did before.

use std::cmp::Ordering;

use serde_json::{Map, Value};

use super::references::Reference;
use super::{contract_error, ColumnType, Rule};
use crate::coerce::Coerced;
use crate::error::ToolError;
use crate::formats::Format;
use crate::py::{isodate, repr};

/// A `min` or `max` bound on a date or datetime column, as given and as
/// it orders.
#[derive(Debug, Clone)]
pub(crate) struct Moment {
    /// The bound as the contract gave it.
    pub(crate) text: String,
    kind: MomentKind,
}

#[derive(Debug, Clone, Copy)]
enum MomentKind {
    /// A date, as its day number.
    Date(i32),
    /// A datetime, as its instant; `aware` when it has a UTC offset.
    Datetime { instant: i64, aware: bool },
}

impl Moment {
    /// How `value` orders against this bound; `None` when the two cannot be
    /// compared (a naive datetime against an aware bound or the reverse,
    /// which Python refuses, or a value that is not a moment at all).
    pub(crate) fn compare(&self, value: &Coerced<'_>) -> Option<Ordering> {
        match (self.kind, value) {
            (MomentKind::Date(bound), Coerced::Date(y, m, d)) => Some(isodate::date_ordinal(*y, *m, *d).cmp(&bound)),
            (MomentKind::Datetime { instant, aware }, Coerced::Datetime(moment)) => {
                (moment.offset.is_some() == aware).then(|| moment.instant().cmp(&instant))
            }
            _ => None,
        }
    }

    /// Whether the bound carries a UTC offset.
    pub(crate) fn is_aware(&self) -> bool {
        matches!(self.kind, MomentKind::Datetime { aware: true, .. })
    }
}

/// `min` or `max` on a date or datetime column when it is text: the moment
/// rule. `None` when the bound is for the reference's numeric rule instead.
pub(super) fn moment_bound(
    key: &'static str,
    bound: &Value,
    name: &str,
    column_type: ColumnType,
) -> Result<Option<Rule>, (&'static str, ToolError)> {
    let Value::String(text) = bound else { return Ok(None) };
    let stripped = crate::py::text::strip(text);
    let kind = match column_type {
        ColumnType::Date => {
            isodate::date_fromisoformat(stripped).map(|(y, m, d)| MomentKind::Date(isodate::date_ordinal(y, m, d)))
        }
        ColumnType::Datetime => isodate::datetime_fromisoformat(stripped)
            .map(|moment| MomentKind::Datetime { instant: moment.instant(), aware: moment.offset.is_some() }),
        _ => return Ok(None),
    };
    let Some(kind) = kind else {
        let expected = if column_type == ColumnType::Date {
            "an ISO-8601 date (YYYY-MM-DD)"
        } else {
            "an ISO-8601 datetime (YYYY-MM-DDTHH:MM[:SS][+HH:MM])"
        };
        return Err((
            key,
            contract_error(&format!(
                "column \"{name}\": \"{key}\" on a {} column must be {expected} or a number, got {}",
                column_type.name(),
                repr::repr(bound)
            )),
        ));
    };
    let moment = Moment { text: stripped.to_owned(), kind };
    Ok(Some(if key == "min" { Rule::Earliest(moment) } else { Rule::Latest(moment) }))
}

/// The v2 rules of one spec, in the order they run: `min_length`,
/// `max_length`, `format`, `max_decimal_places`, `references`. A fault is
/// returned with where it is inside the spec (`references.column`).
pub(super) fn parse(
    spec: &Map<String, Value>,
    name: &str,
    column_type: ColumnType,
) -> Result<Vec<Rule>, (String, ToolError)> {
    let mut rules = Vec::new();
    let count = |key: &str| -> Result<Option<usize>, (String, ToolError)> {
        match spec.get(key) {
            None => Ok(None),
            Some(value) => value.as_u64().and_then(|n| usize::try_from(n).ok()).map(Some).ok_or_else(|| {
                let message = format!(
                    "column \"{name}\": \"{key}\" must be a whole number of 0 or more, got {}",
                    repr::repr(value)
                );
                (key.to_owned(), contract_error(&message))
            }),
        }
    };
    let min_length = count("min_length")?;
    let max_length = count("max_length")?;
    if let (Some(low), Some(high)) = (min_length, max_length) {
        if low > high {
            let message = format!("column \"{name}\": \"min_length\" {low} is above \"max_length\" {high}");
            return Err(("min_length".into(), contract_error(&message)));
        }
    }
    rules.extend(min_length.map(Rule::MinLength));
    rules.extend(max_length.map(Rule::MaxLength));

    if let Some(value) = spec.get("format") {
        let format = value.as_str().and_then(Format::from_name).ok_or_else(|| {
            let supported = Format::ALL.map(Format::name).join(", ");
            let message =
                format!("column \"{name}\": unknown \"format\" {}. Supported formats: {supported}", repr::repr(value));
            ("format".to_owned(), contract_error(&message))
        })?;
        rules.push(Rule::Format(format));
    }

    if let Some(places) = count("max_decimal_places")? {
        let places = u32::try_from(places).unwrap_or(u32::MAX);
        rules.push(Rule::MaxDecimalPlaces(places));
    }

    if let Some(value) = spec.get("references") {
        let reference =
            Reference::parse(value, name, column_type).map_err(|(place, err)| (format!("references{place}"), err))?;
        rules.push(Rule::References(reference));
    }
    Ok(rules)
}
