//! Column contracts: parsing the caller's JSON column specs into rules.
//!
//! The contract is the call's definition, so a contract that does not parse is
//! an argument error: there is nothing to validate until it does. Unknown spec
//! keys are refused rather than ignored, because a silently ignored typo is a
//! rule that never ran in a report that still says "clean".

mod column_rules;
mod references;
pub(crate) mod row_rules;
pub(crate) mod table;

use crate::pattern::FullMatch;
use serde_json::{Map, Value};

use crate::error::{ErrorCode, ToolError};
use crate::formats::Format;
use crate::pattern::{self, PatternError};
use crate::py::{format::format_g, repr, text};

pub(crate) use column_rules::Moment;
pub(crate) use references::Reference;

/// Appended to every contract error, as the reference does, so the caller
/// sees the accepted shape next to what went wrong.
const CONTRACT_HELP: &str = "A column spec is an object: {name, required?, type?, min?, max?, range?, pattern?, \
allowed?, on_fail?}. type is one of string|integer|number|boolean|date|any; date means \
ISO-8601 (YYYY-MM-DD); pattern is a regular expression the whole value must match; \
on_fail is quarantine (default) or flag.";

/// The spec keys a column may carry, in sorted order (as the error lists them):
/// the reference's, and those of contract v2 (`format`, `max_decimal_places`,
/// `max_length`, `min_length`, `references`, `unique`).
pub(crate) const SPEC_KEYS: [&str; 17] = [
    "allowed",
    "description",
    "format",
    "max",
    "max_decimal_places",
    "max_length",
    "min",
    "min_length",
    "name",
    "not_blank",
    "on_fail",
    "pattern",
    "range",
    "references",
    "required",
    "type",
    "unique",
];

/// The values of `on_fail`, the default first.
pub(crate) const ON_FAIL: [&str; 2] = ["quarantine", "flag"];

/// A column's declared type; `Any` means no coercion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ColumnType {
    String,
    Integer,
    Number,
    Boolean,
    Date,
    /// ISO 8601 date and time, as Python's `datetime.fromisoformat` reads it
    /// (contract v2).
    Datetime,
    Any,
}

impl ColumnType {
    /// Every type, in the order the contract help lists them.
    pub(crate) const ALL: [ColumnType; 7] = [
        ColumnType::String,
        ColumnType::Integer,
        ColumnType::Number,
        ColumnType::Boolean,
        ColumnType::Date,
        ColumnType::Datetime,
        ColumnType::Any,
    ];

    pub(crate) fn name(self) -> &'static str {
        match self {
            ColumnType::String => "string",
            ColumnType::Integer => "integer",
            ColumnType::Number => "number",
            ColumnType::Boolean => "boolean",
            ColumnType::Date => "date",
            ColumnType::Datetime => "datetime",
            ColumnType::Any => "any",
        }
    }

    fn from_value(value: &Value) -> Option<ColumnType> {
        let name = value.as_str()?;
        ColumnType::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// One check applied to a column's (coerced) value.
#[derive(Debug, Clone)]
pub(crate) enum Rule {
    Min(f64),
    Max(f64),
    Range(f64, f64),
    Pattern {
        regex: FullMatch,
        source: String,
    },
    OneOf(Vec<Value>),
    NotBlank,
    /// `min` on a date or datetime column: no value before this moment.
    Earliest(Moment),
    /// `max` on a date or datetime column: no value after this moment.
    Latest(Moment),
    /// `min_length`: at least this many characters, as Python's `len(str(value))`.
    MinLength(usize),
    /// `max_length`: at most this many characters.
    MaxLength(usize),
    /// `format`: one of the JSON Schema formats.
    Format(Format),
    /// `max_decimal_places`: a number with at most this many digits after the point.
    MaxDecimalPlaces(u32),
    /// `references`: the value must be one of another table's column's values.
    References(Reference),
}

impl Rule {
    /// Whether the rule still runs on a blank value. Only a rule about
    /// blankness does: "is it below zero?" has no answer for a blank.
    pub(crate) fn checks_blank(&self) -> bool {
        matches!(self, Rule::NotBlank)
    }

    fn describe(&self) -> Value {
        let mut out = Map::new();
        match self {
            Rule::Min(bound) => {
                out.insert("rule".into(), "min".into());
                out.insert("bound".into(), (*bound).into());
            }
            Rule::Max(bound) => {
                out.insert("rule".into(), "max".into());
                out.insert("bound".into(), (*bound).into());
            }
            Rule::Range(low, high) => {
                out.insert("rule".into(), "range".into());
                out.insert("low".into(), (*low).into());
                out.insert("high".into(), (*high).into());
            }
            Rule::Pattern { source, .. } => {
                out.insert("rule".into(), "pattern".into());
                out.insert("regex".into(), source.clone().into());
                out.insert("matching".into(), "fullmatch".into());
            }
            Rule::OneOf(allowed) => {
                out.insert("rule".into(), "one_of".into());
                out.insert("allowed".into(), Value::Array(allowed.clone()));
            }
            Rule::NotBlank => {
                out.insert("rule".into(), "not_blank".into());
            }
            Rule::Earliest(moment) => {
                out.insert("rule".into(), "min".into());
                out.insert("bound".into(), moment.text.clone().into());
            }
            Rule::Latest(moment) => {
                out.insert("rule".into(), "max".into());
                out.insert("bound".into(), moment.text.clone().into());
            }
            Rule::MinLength(length) => {
                out.insert("rule".into(), "min_length".into());
                out.insert("length".into(), (*length).into());
            }
            Rule::MaxLength(length) => {
                out.insert("rule".into(), "max_length".into());
                out.insert("length".into(), (*length).into());
            }
            Rule::Format(format) => {
                out.insert("rule".into(), "format".into());
                out.insert("format".into(), format.name().into());
            }
            Rule::MaxDecimalPlaces(places) => {
                out.insert("rule".into(), "max_decimal_places".into());
                out.insert("places".into(), (*places).into());
            }
            Rule::References(reference) => reference.describe(&mut out),
        }
        Value::Object(out)
    }
}

/// One column of a contract.
#[derive(Debug, Clone)]
pub(crate) struct Field {
    pub(crate) name: String,
    pub(crate) required: bool,
    pub(crate) column_type: ColumnType,
    pub(crate) rules: Vec<Rule>,
    /// True for `on_fail: "quarantine"` (hold the row back), false for `"flag"` (keep it, report it).
    pub(crate) quarantines: bool,
    /// `unique: true`: no two rows may hold the same (coerced) value.
    pub(crate) unique: bool,
    description: String,
}

impl Field {
    /// The contract as parsed, echoed back so a caller can confirm which rules ran.
    pub(crate) fn describe(&self) -> Value {
        let mut out = Map::new();
        out.insert("name".into(), self.name.clone().into());
        out.insert("required".into(), self.required.into());
        out.insert("type".into(), self.column_type.name().into());
        out.insert("on_fail".into(), (if self.quarantines { "quarantine" } else { "flag" }).into());
        if !self.description.is_empty() {
            out.insert("description".into(), self.description.clone().into());
        }
        let mut checks: Vec<Value> = self.rules.iter().map(Rule::describe).collect();
        if self.unique {
            checks.push(serde_json::json!({"rule": "unique"}));
        }
        out.insert("checks".into(), Value::Array(checks));
        Value::Object(out)
    }
}

pub(crate) fn contract_error(message: &str) -> ToolError {
    ToolError::for_argument(ErrorCode::InvalidContract, "columns", format!("{message}  {CONTRACT_HELP}"))
}

/// A non-bool JSON number as Python's `float(bound)`.
fn bound_number(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => Some(crate::py::value::number_to_f64(n)),
        _ => None,
    }
}

/// Parse the `columns` argument into fields, or say exactly what is wrong.
pub(crate) fn parse_columns(specs: &[Value]) -> Result<Vec<Field>, ToolError> {
    if specs.is_empty() {
        return Err(contract_error(
            "the \"columns\" argument is empty \u{2014} a contract with no columns would accept every row \
unchecked. Supply at least one column, or do not call this tool.",
        ));
    }
    let fields =
        specs.iter().enumerate().map(|(index, spec)| parse_column_spec(spec, index)).collect::<Result<Vec<_>, _>>()?;

    let mut duplicates: Vec<&str> = Vec::new();
    let mut first_repeat = None;
    for (position, field) in fields.iter().enumerate() {
        let repeated = fields[..position].iter().any(|earlier| earlier.name == field.name);
        if repeated && !duplicates.contains(&field.name.as_str()) {
            duplicates.push(&field.name);
            first_repeat.get_or_insert(position);
        }
    }
    if let Some(position) = first_repeat {
        duplicates.sort_unstable();
        return Err(contract_error(&format!(
            "duplicate column name(s) in the contract: {}. Each column may appear once; combine its rules into a single entry.",
            duplicates.join(", ")
        ))
        .at(format!("columns[{position}].name")));
    }
    Ok(fields)
}

fn parse_column_spec(spec: &Value, index: usize) -> Result<Field, ToolError> {
    let number = index + 1;
    // Where a fault in this spec is: the spec, or one of its keys.
    let whole = || format!("columns[{index}]");
    let key_at = |key: &str| format!("columns[{index}].{key}");
    let Value::Object(spec) = spec else {
        return Err(contract_error(&format!(
            "column #{number} must be an object like {{\"name\": \"amount\", \"type\": \"number\", \"min\": 0}}, got {}",
            repr::type_name(spec)
        ))
        .at(whole()));
    };

    let mut unknown: Vec<&str> = spec.keys().map(String::as_str).filter(|key| !SPEC_KEYS.contains(key)).collect();
    if !unknown.is_empty() {
        unknown.sort_unstable();
        let listed = unknown.iter().map(|key| repr::repr_str(key)).collect::<Vec<_>>().join(", ");
        return Err(contract_error(&format!(
            "column #{number}: unknown key(s) {listed}. Supported keys: {}",
            SPEC_KEYS.join(", ")
        ))
        .at(key_at(unknown[0])));
    }

    let name = match spec.get("name") {
        Some(Value::String(name)) if !text::strip(name).is_empty() => text::strip(name).to_owned(),
        _ => {
            return Err(
                contract_error(&format!("column #{number} needs a non-empty \"name\" string")).at(key_at("name"))
            )
        }
    };

    let type_value = spec.get("type").cloned().unwrap_or_else(|| "any".into());
    let Some(column_type) = ColumnType::from_value(&type_value) else {
        let supported = ColumnType::ALL.map(ColumnType::name).join(", ");
        return Err(contract_error(&format!(
            "column \"{name}\": unknown type {}. Supported types: {supported}",
            repr::repr(&type_value)
        ))
        .at(key_at("type")));
    };

    // ON_FAIL is what the catalog publishes; reading it here keeps the two one list.
    let on_fail = spec.get("on_fail").cloned().unwrap_or_else(|| ON_FAIL[0].into());
    let quarantines = match on_fail.as_str() {
        Some(value) if value == ON_FAIL[0] => true,
        Some(value) if value == ON_FAIL[1] => false,
        _ => {
            return Err(contract_error(&format!(
                "column \"{name}\": on_fail must be one of {}, got {}",
                ON_FAIL.join(", "),
                repr::repr(&on_fail)
            ))
            .at(key_at("on_fail")))
        }
    };

    let flag = |key: &str| -> Result<bool, ToolError> {
        match spec.get(key) {
            None => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => {
                Err(contract_error(&format!("column \"{name}\": \"{key}\" must be true or false")).at(key_at(key)))
            }
        }
    };
    let required = flag("required")?;
    let not_blank = flag("not_blank")?;
    let unique = flag("unique")?;
    let mut rules = parse_rules(spec, &name, column_type, not_blank).map_err(|(key, err)| err.at(key_at(key)))?;
    // The v2 rules run after the reference's, so a reference contract's
    // findings keep their order.
    let not_blank_rule = if matches!(rules.last(), Some(Rule::NotBlank)) { rules.pop() } else { None };
    rules.extend(column_rules::parse(spec, &name, column_type).map_err(|(key, err)| err.at(key_at(&key)))?);
    rules.extend(not_blank_rule);
    let description = spec.get("description").map(repr::str_of).unwrap_or_default();
    Ok(Field { name, required, column_type, rules, quarantines, unique, description })
}

/// The value rules of one spec, in the order they run: min, max, range,
/// pattern, allowed, `not_blank`.
/// A fault is returned with the key it is in.
fn parse_rules(
    spec: &Map<String, Value>,
    name: &str,
    column_type: ColumnType,
    not_blank: bool,
) -> Result<Vec<Rule>, (&'static str, ToolError)> {
    let mut rules = Vec::new();
    for key in ["min", "max"] {
        if let Some(bound) = spec.get(key) {
            // A text bound on a date or datetime column is a moment (v2); a
            // number there is the reference's numeric bound, as before.
            if let Some(rule) = column_rules::moment_bound(key, bound, name, column_type)? {
                rules.push(rule);
                continue;
            }
            let Some(value) = bound_number(bound) else {
                return Err((
                    key,
                    contract_error(&format!(
                        "column \"{name}\": \"{key}\" must be a number, got {}",
                        repr::repr(bound)
                    )),
                ));
            };
            rules.push(if key == "min" { Rule::Min(value) } else { Rule::Max(value) });
        }
    }

    if let Some(bounds) = spec.get("range") {
        let pair = match bounds {
            Value::Array(items) if items.len() == 2 => bound_number(&items[0]).zip(bound_number(&items[1])),
            _ => None,
        };
        let Some((low, high)) = pair else {
            return Err((
                "range",
                contract_error(&format!(
                    "column \"{name}\": \"range\" must be a two-number array like [0, 100], got {}",
                    repr::repr(bounds)
                )),
            ));
        };
        if low > high {
            return Err((
                "range",
                contract_error(&format!(
                    "column \"{name}\": \"range\" low bound {} is above the high bound {}",
                    format_g(low),
                    format_g(high)
                )),
            ));
        }
        rules.push(Rule::Range(low, high));
    }

    if let Some(source) = spec.get("pattern") {
        let Value::String(source) = source else {
            return Err((
                "pattern",
                contract_error(&format!("column \"{name}\": \"pattern\" must be a string, got {}", repr::repr(source))),
            ));
        };
        let regex = pattern::FullMatch::new(source).map_err(|err| {
            let message = match err {
                PatternError::Invalid(detail) => format!(
                    "column \"{name}\": \"pattern\" is not a valid regular expression ({detail}): {}",
                    repr::repr_str(source)
                ),
                PatternError::Unsupported(construct) => format!(
                    "column \"{name}\": \"pattern\" uses {construct}, which is not supported: patterns run in \
linear time, so look-around, back-references, atomic groups and possessive quantifiers are refused: {}",
                    repr::repr_str(source)
                ),
            };
            ("pattern", contract_error(&message))
        })?;
        rules.push(Rule::Pattern { regex, source: source.clone() });
    }

    if let Some(allowed) = spec.get("allowed") {
        match allowed {
            Value::Array(items) if !items.is_empty() => rules.push(Rule::OneOf(items.clone())),
            _ => {
                return Err((
                    "allowed",
                    contract_error(&format!(
                        "column \"{name}\": \"allowed\" must be a non-empty array, got {}",
                        repr::repr(allowed)
                    )),
                ))
            }
        }
    }

    if not_blank {
        rules.push(Rule::NotBlank);
    }
    Ok(rules)
}
