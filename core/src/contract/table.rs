//! The `table` argument of `validate_rows` (contract v2): rules about the
//! table as a whole rather than one cell.
//!
//! * `primary_key`: one column or several; each combination must be
//!   non-blank and unique. Its columns become required (as the Table Schema
//!   specification asks of primary-key fields), and a repeat is located at
//!   its first occurrence, as for `unique`.
//! * `row_count`: `{"min": n, "max": m}`, either bound optional.
//! * `columns: "exact"`: every column in the data is declared, and every
//!   declared column is in the data.
//! * `max_quarantined_fraction`: a tolerance in the spirit of Great
//!   Expectations' `mostly`. The summary states whether the quarantined share
//!   is within it; `ok` still means "no row was quarantined".

use serde_json::{json, Map, Value};

use super::Field;
use crate::error::{ErrorCode, ToolError};
use crate::py::repr;

/// The keys `table` may carry, in sorted order.
pub(crate) const TABLE_KEYS: [&str; 4] = ["columns", "max_quarantined_fraction", "primary_key", "row_count"];

/// The table rules of one call; all empty when `table` is not given.
#[derive(Debug, Default)]
pub(crate) struct TableRules {
    /// The primary key's columns, as positions in the contract.
    pub(crate) primary_key: Vec<usize>,
    pub(crate) min_rows: Option<usize>,
    pub(crate) max_rows: Option<usize>,
    /// `columns: "exact"`.
    pub(crate) exact_columns: bool,
    pub(crate) max_quarantined_fraction: Option<f64>,
    given: Option<Value>,
}

fn table_error(location: String, message: String) -> ToolError {
    ToolError::for_argument(ErrorCode::InvalidContract, "table", message).at(location)
}

impl TableRules {
    /// The rules as the contract echo shows them, or `None` without `table`.
    pub(crate) fn describe(&self, fields: &[Field]) -> Option<Value> {
        self.given.as_ref()?;
        let mut out = Map::new();
        if !self.primary_key.is_empty() {
            let names: Vec<&str> = self.primary_key.iter().map(|&at| fields[at].name.as_str()).collect();
            out.insert("primary_key".into(), json!(names));
        }
        if self.min_rows.is_some() || self.max_rows.is_some() {
            out.insert("row_count".into(), json!({"min": self.min_rows, "max": self.max_rows}));
        }
        if self.exact_columns {
            out.insert("columns".into(), "exact".into());
        }
        if let Some(fraction) = self.max_quarantined_fraction {
            out.insert("max_quarantined_fraction".into(), fraction.into());
        }
        Some(Value::Object(out))
    }

    /// Parse `table`, marking the primary key's columns required.
    pub(crate) fn parse(table: Option<Value>, fields: &mut [Field]) -> Result<TableRules, ToolError> {
        let Some(given) = table else { return Ok(TableRules::default()) };
        let Value::Object(spec) = &given else {
            return Err(table_error(
                "table".into(),
                format!(
                    "argument \"table\" must be an object like {{\"primary_key\": [\"id\"], \"row_count\": {{\"min\": 1}}}}, got {}",
                    repr::type_name(&given)
                ),
            ));
        };
        let mut unknown: Vec<&str> = spec.keys().map(String::as_str).filter(|key| !TABLE_KEYS.contains(key)).collect();
        if !unknown.is_empty() {
            unknown.sort_unstable();
            let listed = unknown.iter().map(|key| repr::repr_str(key)).collect::<Vec<_>>().join(", ");
            return Err(table_error(
                format!("table.{}", unknown[0]),
                format!("\"table\": unknown key(s) {listed}. Supported keys: {}", TABLE_KEYS.join(", ")),
            ));
        }
        let mut rules = TableRules::default();
        if let Some(key) = spec.get("primary_key") {
            rules.primary_key = primary_key(key, fields)?;
        }
        if let Some(bounds) = spec.get("row_count") {
            (rules.min_rows, rules.max_rows) = row_count(bounds)?;
        }
        match spec.get("columns") {
            None => {}
            Some(Value::String(mode)) if mode == "exact" => rules.exact_columns = true,
            Some(other) => {
                return Err(table_error(
                    "table.columns".into(),
                    format!("\"table.columns\" can only be \"exact\", got {}", repr::repr(other)),
                ))
            }
        }
        if let Some(value) = spec.get("max_quarantined_fraction") {
            let fraction = value.as_f64().filter(|x| (0.0..=1.0).contains(x)).ok_or_else(|| {
                table_error(
                    "table.max_quarantined_fraction".into(),
                    format!(
                        "\"table.max_quarantined_fraction\" must be a number from 0 to 1, got {}",
                        repr::repr(value)
                    ),
                )
            })?;
            rules.max_quarantined_fraction = Some(fraction);
        }
        rules.given = Some(given);
        Ok(rules)
    }
}

fn primary_key(key: &Value, fields: &mut [Field]) -> Result<Vec<usize>, ToolError> {
    let names: Vec<(String, &str)> = match key {
        Value::String(name) => vec![("table.primary_key".into(), name.as_str())],
        Value::Array(names) if !names.is_empty() => names
            .iter()
            .enumerate()
            .map(|(index, name)| {
                let place = format!("table.primary_key[{index}]");
                match name {
                    Value::String(name) => Ok((place, name.as_str())),
                    other => Err(table_error(
                        place,
                        format!("a \"table.primary_key\" column must be a name, got {}", repr::repr(other)),
                    )),
                }
            })
            .collect::<Result<_, _>>()?,
        other => {
            return Err(table_error(
                "table.primary_key".into(),
                format!(
                    "\"table.primary_key\" must be a column name or a non-empty array of them, got {}",
                    repr::repr(other)
                ),
            ))
        }
    };
    let mut positions = Vec::with_capacity(names.len());
    for (place, name) in names {
        let Some(position) = fields.iter().position(|field| field.name == name) else {
            return Err(table_error(
                place,
                format!(
                    "\"table.primary_key\" names {}, which is not a column of the contract; declare it in \"columns\"",
                    repr::repr_str(name)
                ),
            ));
        };
        if positions.contains(&position) {
            return Err(table_error(place, format!("\"table.primary_key\" names {} twice", repr::repr_str(name))));
        }
        fields[position].required = true;
        positions.push(position);
    }
    Ok(positions)
}

fn row_count(bounds: &Value) -> Result<(Option<usize>, Option<usize>), ToolError> {
    let shape = || {
        table_error(
            "table.row_count".into(),
            format!(
                "\"table.row_count\" must be an object like {{\"min\": 1, \"max\": 1000}} (either bound may be left out), got {}",
                repr::repr(bounds)
            ),
        )
    };
    let Value::Object(spec) = bounds else { return Err(shape()) };
    if spec.is_empty() || spec.keys().any(|key| key != "min" && key != "max") {
        return Err(shape());
    }
    let bound = |key: &str| -> Result<Option<usize>, ToolError> {
        match spec.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(value) => value.as_u64().and_then(|n| usize::try_from(n).ok()).map(Some).ok_or_else(|| {
                table_error(
                    format!("table.row_count.{key}"),
                    format!("\"table.row_count.{key}\" must be a whole number of 0 or more, got {}", repr::repr(value)),
                )
            }),
        }
    };
    let (min, max) = (bound("min")?, bound("max")?);
    if let (Some(low), Some(high)) = (min, max) {
        if low > high {
            return Err(table_error(
                "table.row_count".into(),
                format!("\"table.row_count\" min {low} is above max {high}"),
            ));
        }
    }
    Ok((min, max))
}
