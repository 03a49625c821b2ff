//! `row_rules` (contract v2): named checks over several columns of one row,
//! each an expression of the row-rule language (`crate::expr`, a CEL
//! subset) with an optional condition:
//! `{"name": "ends_after_start", "check": "end_date >= start_date"}`,
//! `{"name": "vat_for_eu", "check": "vat_number != ''", "when": "country in ['DE', 'FR']"}`.
//!
//! Expressions read the contract's columns, typed as the contract declares
//! them, so they are compiled once per call, after the columns: a column an
//! expression names must be declared (`"type": "any"` at least).

use serde_json::{json, Map, Value};

use super::{ColumnType, Field, ON_FAIL};
use crate::error::{ErrorCode, ToolError};
use crate::expr::{Expr, ExprError};
use crate::py::repr;

/// The keys a row rule may carry, in sorted order.
pub(crate) const ROW_RULE_KEYS: [&str; 5] = ["check", "description", "name", "on_fail", "when"];

/// One row rule, compiled.
#[derive(Debug)]
pub(crate) struct RowRule {
    pub(crate) name: String,
    pub(crate) check: Expr,
    check_text: String,
    pub(crate) when: Option<Expr>,
    when_text: Option<String>,
    /// True for `on_fail: "quarantine"` (the default), false for `"flag"`.
    pub(crate) quarantines: bool,
    description: String,
}

impl RowRule {
    /// The rule as parsed, for the contract echo.
    pub(crate) fn describe(&self) -> Value {
        let mut out = Map::new();
        out.insert("name".into(), self.name.clone().into());
        out.insert("check".into(), self.check_text.clone().into());
        if let Some(when) = &self.when_text {
            out.insert("when".into(), when.clone().into());
        }
        out.insert("on_fail".into(), (if self.quarantines { "quarantine" } else { "flag" }).into());
        if !self.description.is_empty() {
            out.insert("description".into(), self.description.clone().into());
        }
        Value::Object(out)
    }

    /// What the rule requires, as a finding's `expected`.
    pub(crate) fn expected(&self) -> Value {
        match &self.when_text {
            Some(when) => json!(format!("{} (when {when})", self.check_text)),
            None => json!(self.check_text),
        }
    }
}

fn rule_error(location: String, message: String) -> ToolError {
    ToolError::for_argument(ErrorCode::InvalidContract, "row_rules", message).at(location)
}

/// Where an expression error is, shown in the text: `… at character 12: "end_date >= ⟨start⟩"`.
fn expression_error(name: &str, key: &str, source: &str, err: &ExprError) -> String {
    let at = err.position.min(source.len());
    // A position always falls on a character boundary of the source; should
    // it not, the excerpt is left out rather than cut through a character.
    let excerpt = match (source.get(..at), source.get(at..)) {
        (Some(before), Some(after)) => format!(": {}", repr::repr_str(&format!("{before}⟨here⟩{after}"))),
        _ => String::new(),
    };
    format!("row rule \"{name}\": \"{key}\" at character {at}: {}{excerpt}", err.message)
}

/// Parse `row_rules` against the contract's fields.
pub(crate) fn parse(given: Option<Value>, fields: &[Field]) -> Result<Vec<RowRule>, ToolError> {
    let Some(given) = given else { return Ok(Vec::new()) };
    let Value::Array(specs) = given else {
        return Err(rule_error(
            "row_rules".into(),
            format!(
                "argument \"row_rules\" must be an array of rules like {{\"name\": \"ends_after_start\", \"check\": \
\"end_date >= start_date\"}}, got {}",
                repr::type_name(&given)
            ),
        ));
    };
    let columns: Vec<(&str, ColumnType)> =
        fields.iter().map(|field| (field.name.as_str(), field.column_type)).collect();
    let mut rules: Vec<RowRule> = Vec::with_capacity(specs.len());
    for (index, spec) in specs.iter().enumerate() {
        let rule = parse_rule(index, spec, &columns)?;
        if rules.iter().any(|earlier| earlier.name == rule.name) {
            return Err(rule_error(
                format!("row_rules[{index}].name"),
                format!("row rule name {} is used twice; names must be unique", repr::repr_str(&rule.name)),
            ));
        }
        rules.push(rule);
    }
    Ok(rules)
}

/// One rule of `row_rules` (at `index`), compiled against `columns`.
fn parse_rule(index: usize, spec: &Value, columns: &[(&str, ColumnType)]) -> Result<RowRule, ToolError> {
    let at =
        |key: &str| if key.is_empty() { format!("row_rules[{index}]") } else { format!("row_rules[{index}].{key}") };
    let Value::Object(spec) = spec else {
        return Err(rule_error(
            at(""),
            format!("row rule #{} must be an object, got {}", index + 1, repr::type_name(spec)),
        ));
    };
    if let Some(unknown) = spec.keys().find(|key| !ROW_RULE_KEYS.contains(&key.as_str())) {
        return Err(rule_error(
            at(unknown),
            format!(
                "row rule #{}: unknown key {}. Supported keys: {}",
                index + 1,
                repr::repr_str(unknown),
                ROW_RULE_KEYS.join(", ")
            ),
        ));
    }
    let name = match spec.get("name") {
        Some(Value::String(name)) if !name.trim().is_empty() => name.trim().to_owned(),
        _ => return Err(rule_error(at("name"), format!("row rule #{} needs a non-empty \"name\" string", index + 1))),
    };
    let expression = |key: &str| -> Result<Option<(Expr, String)>, ToolError> {
        let Some(value) = spec.get(key) else { return Ok(None) };
        let Value::String(source) = value else {
            return Err(rule_error(
                at(key),
                format!(
                    "row rule \"{name}\": \"{key}\" must be an expression as a string, got {}",
                    repr::type_name(value)
                ),
            ));
        };
        let compiled = Expr::compile(source, columns)
            .map_err(|err| rule_error(at(key), expression_error(&name, key, source, &err)))?;
        if !compiled.is_boolean() {
            return Err(rule_error(
                at(key),
                format!(
                    "row rule \"{name}\": \"{key}\" must be true or false for a row, but {} is a {}",
                    repr::repr_str(source),
                    compiled.result_type_name()
                ),
            ));
        }
        Ok(Some((compiled, source.clone())))
    };
    let Some((check, check_text)) = expression("check")? else {
        return Err(rule_error(at("check"), format!("row rule \"{name}\" needs a \"check\" expression")));
    };
    let (when, when_text) = expression("when")?.map_or((None, None), |(expr, text)| (Some(expr), Some(text)));
    let on_fail = spec.get("on_fail").cloned().unwrap_or_else(|| ON_FAIL[0].into());
    let quarantines = match on_fail.as_str() {
        Some(value) if value == ON_FAIL[0] => true,
        Some(value) if value == ON_FAIL[1] => false,
        _ => {
            return Err(rule_error(
                at("on_fail"),
                format!(
                    "row rule \"{name}\": on_fail must be one of {}, got {}",
                    ON_FAIL.join(", "),
                    repr::repr(&on_fail)
                ),
            ))
        }
    };
    let description = spec.get("description").map(repr::str_of).unwrap_or_default();
    Ok(RowRule { name, check, check_text, when, when_text, quarantines, description })
}
