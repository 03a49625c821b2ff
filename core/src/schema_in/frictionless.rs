//! A Frictionless Table Schema (v1, and the v2 additions listed here) mapped
//! onto the contract.
//!
//! | Table Schema | contract |
//! | --- | --- |
//! | `fields[i]` | `columns[i]`, in order |
//! | `name` | `name` |
//! | `type` string, integer, number, boolean, date, datetime, any | the same `type`; no `type` is `string`, as in Frictionless |
//! | `format` on a string: `email`, `uri`, `uuid` | `format` (as JSON Schema 2020-12 means it) |
//! | `format` absent or `default` | nothing (date is ISO `YYYY-MM-DD`, datetime ISO 8601) |
//! | `description` | `description` |
//! | `constraints.required` | `required` |
//! | `constraints.unique` | `unique` |
//! | `constraints.minLength` / `maxLength` | `min_length` / `max_length` |
//! | `constraints.minimum` / `maximum` | `min` / `max` (on date and datetime fields the ISO text) |
//! | `constraints.exclusiveMinimum` / `exclusiveMaximum` on an integer field | `min` = ⌊bound⌋ + 1 / `max` = ⌈bound⌉ − 1 (the tighter of it and `minimum`/`maximum`) |
//! | `constraints.pattern` | `pattern` |
//! | `constraints.enum` | `allowed`, each text entry read as the field's type reads a cell (`"1"` is 1 on an integer field), as Frictionless does |
//! | `missingValues` (schema or field) made only of blank text and including `""` | nothing: blank is missing already |
//! | `trueValues` / `falseValues` of a boolean field, each word one the contract reads the same way (`["Yes"]`, `["N", "0"]`) | nothing: the contract reads those words already |
//! | `primaryKey` | `table.primary_key` |
//! | `uniqueKeys` (v2) of one field | `unique` on that column |
//! | `fieldsMatch: "equal"` (v2) | `table.columns: "exact"` |
//! | `foreignKeys: []` | nothing |
//!
//! Accepted and ignored, as annotations: `$schema`, `name`, `title` and
//! `description` of the schema; `title`, `example` and `rdfType` of a field;
//! and an integer or number field's `bareNumber: true`, `decimalChar: "."`,
//! `groupChar: ""` and `floatNumber` (the defaults, which change nothing
//! the contract decides).
//!
//! Refused (an argument error naming the keyword and where it is):
//!
//! * the types `year`, `yearmonth`, `time`, `duration`, `geopoint`,
//!   `geojson`, `object`, `array` and `list`: the contract has no such type;
//! * any `format` of a date or datetime but `default` (`any`, or a
//!   strptime pattern such as `%d/%m/%Y`): the contract reads ISO 8601 only;
//!   the string formats `binary` and `wkt`; a format on other types;
//! * `exclusiveMinimum`/`exclusiveMaximum` on number, date and datetime
//!   fields: the contract has no exclusive bound (on integers it is the next
//!   whole number, so it maps);
//! * a constraint Table Schema does not define for the field's type
//!   (`pattern` on an integer field): Frictionless rejects such a schema;
//! * a `missingValues` list that makes non-blank text missing (`"NA"`,
//!   `"-"`), or leaves `""` a value: the contract's missing values are
//!   exactly the blank ones (null, and text that Python's `str.strip()`
//!   empties), with no way to add others;
//! * `trueValues`/`falseValues` with a word the contract's boolean does
//!   not read the same way (`"oui"`, or `"no"` among the true values): its
//!   boolean words are fixed; ones it reads alike are accepted (below);
//!   `bareNumber: false`, `groupChar`, `decimalChar` other than the
//!   defaults: the contract reads plain numbers only;
//! * `foreignKeys` (non-empty): a foreign key names another resource, whose
//!   data a Table Schema does not carry; the contract's
//!   `columns[].references` carries the referenced values in the call
//!   (`{"column", "rows"|"csv"}`), so write the contract as `columns`;
//! * `uniqueKeys` of several fields (the contract's only multi-column key
//!   is the primary key), and `fieldsMatch` other than `equal` (the contract
//!   matches columns by name, and `exact` can only mean "the same set");
//! * any other key.
//!
//! Where the meaning differs on purpose (each is a deviation recorded by
//! the Frictionless differential test, `tests/frictionless/`):
//!
//! * **Blank is missing.** Text that `str.strip()` empties is blank, so
//!   `"  "` fails `required` here and is a value (or a type error) in
//!   Frictionless, whose missing values are matched exactly.
//! * **Cells are read as the contract reads them**: numbers and integers
//!   with surrounding whitespace, `1e3` and `5.0` as integers, the boolean
//!   words `yes`/`no`/`y`/`n`/`t`/`f` in any case, and dates and
//!   datetimes as Python's `fromisoformat` reads them; Frictionless reads
//!   integers with `int()`, booleans from its lists (the defaults, or a
//!   field's `trueValues`/`falseValues`, matched exactly: with
//!   `trueValues: ["Yes"]`, `yes` and `true` are errors there and true
//!   here), dates with
//!   `strptime("%Y-%m-%d")` (which takes `2024-1-5`) and datetimes with
//!   dateutil's `isoparse` (seconds required).
//! * **Patterns anchor the whole pattern.** Table Schema patterns are XML
//!   Schema regular expressions, which match the whole value, as the
//!   contract's `pattern` does. Frictionless compiles `^` + pattern + `$`
//!   without a group, so a top-level alternation `a|b` there means "starts
//!   with a, or ends with b", and `$` also matches before a final newline.
//! * **A primary key's columns are required**, as the Table Schema spec
//!   has it; Frictionless reports only a key whose cells are all missing.
//! * **The formats are JSON Schema's** (`formats.rs`); Frictionless checks
//!   `email` and `uuid` with the `validators` package and `uri` with
//!   `rfc3986`, and reports a bad one as a type error.

use serde_json::{Map, Value};

use super::{member, refused, schema_error, tighten, Column, Mapped, SchemaKind};
use crate::coerce::{coerce, CellRef};
use crate::contract::ColumnType;
use crate::py::{repr, text};

/// Schema keys accepted and ignored.
const SCHEMA_ANNOTATIONS: [&str; 4] = ["$schema", "name", "title", "description"];
/// Field keys accepted and ignored.
const FIELD_ANNOTATIONS: [&str; 3] = ["title", "example", "rdfType"];
/// Number-reading keys accepted only with the default value.
type IsDefault = fn(&Value) -> bool;
const READING_DEFAULTS: [(&str, IsDefault); 4] = [
    ("bareNumber", |v| v == &Value::Bool(true)),
    ("decimalChar", |v| v == "."),
    ("groupChar", |v| v == ""),
    ("floatNumber", Value::is_boolean),
];
/// Table Schema types the contract has no equivalent for.
const UNMAPPED_TYPES: [&str; 9] =
    ["year", "yearmonth", "time", "duration", "geopoint", "geojson", "object", "array", "list"];

/// The constraints Table Schema defines for a type (Frictionless's lists,
/// with `unique`, which every type has).
fn constraints_of(column_type: ColumnType) -> &'static [&'static str] {
    match column_type {
        ColumnType::String => &["required", "unique", "minLength", "maxLength", "pattern", "enum"],
        ColumnType::Integer | ColumnType::Number | ColumnType::Date | ColumnType::Datetime => {
            &["required", "unique", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "enum"]
        }
        ColumnType::Boolean | ColumnType::Any => &["required", "unique", "enum"],
    }
}

pub(super) fn map(schema: &Map<String, Value>) -> Result<Mapped, crate::error::ToolError> {
    const KEYS: [&str; 6] = ["fields", "primaryKey", "foreignKeys", "missingValues", "uniqueKeys", "fieldsMatch"];
    for key in schema.keys() {
        if !KEYS.contains(&key.as_str()) && !SCHEMA_ANNOTATIONS.contains(&key.as_str()) {
            let at = member("schema", key);
            return Err(refused(&at, key, "it is not a Table Schema property the contract knows"));
        }
    }
    let Some(Value::Array(fields)) = schema.get("fields") else {
        let got = schema.get("fields").map_or("nothing", repr::type_name);
        return Err(schema_error("schema.fields", format!("a Table Schema's \"fields\" must be an array, got {got}")));
    };
    if fields.is_empty() {
        return Err(schema_error("schema.fields", "the Table Schema has no fields, so it describes no columns"));
    }
    if let Some(values) = schema.get("missingValues") {
        missing_values(values, "schema.missingValues")?;
    }
    let mut columns =
        fields.iter().enumerate().map(|(index, field)| map_field(field, index)).collect::<Result<Vec<_>, _>>()?;

    let mut table = Vec::new();
    if let Some(key) = schema.get("primaryKey") {
        table.push(("primary_key", key.clone(), "schema.primaryKey".to_owned()));
    }
    match schema.get("foreignKeys") {
        None => {}
        Some(Value::Array(keys)) if keys.is_empty() => {}
        Some(_) => {
            return Err(refused(
                "schema.foreignKeys",
                "foreignKeys",
                "a foreign key names another resource, whose data a Table Schema does not carry. The contract's \
columns[].references carries the referenced values in the call ({\"column\": \"id\", \"rows\": [...]} or \
{\"column\": \"id\", \"csv\": \"...\"}): give the contract as \"columns\" to use it",
            ))
        }
    }
    if let Some(keys) = schema.get("uniqueKeys") {
        unique_keys(keys, fields, &mut columns)?;
    }
    match schema.get("fieldsMatch") {
        None => {}
        Some(Value::String(mode)) if mode == "equal" => {
            table.push(("columns", Value::from("exact"), "schema.fieldsMatch".to_owned()));
        }
        Some(other) => {
            return Err(refused(
                "schema.fieldsMatch",
                "fieldsMatch",
                &format!(
                    "only \"equal\" maps (to table.columns = \"exact\": the data has exactly the declared columns, \
matched by name), got {}. The contract matches columns by name, never by position, and has no rule for a subset \
or a superset of them",
                    repr::repr(other)
                ),
            ))
        }
    }
    Ok(Mapped::new(SchemaKind::TableSchema, columns, table))
}

fn map_field(field: &Value, index: usize) -> Result<Column, crate::error::ToolError> {
    let at = format!("schema.fields[{index}]");
    let Value::Object(field) = field else {
        return Err(schema_error(
            &at,
            format!("{at} must be an object with a \"name\", got {}", repr::type_name(field)),
        ));
    };
    let Some(Value::String(name)) = field.get("name") else {
        return Err(schema_error(format!("{at}.name"), format!("{at} needs a \"name\" string")));
    };
    let type_name = match field.get("type") {
        None => "string",
        Some(Value::String(name)) => name.as_str(),
        Some(other) => {
            return Err(schema_error(
                format!("{at}.type"),
                format!("{at}.type must be a string, got {}", repr::repr(other)),
            ))
        }
    };
    let Some(column_type) = ColumnType::ALL.into_iter().find(|t| t.name() == type_name) else {
        let why = if UNMAPPED_TYPES.contains(&type_name) {
            "the contract has no such type (its types are string, integer, number, boolean, date, datetime and any)"
        } else {
            "it is not a Table Schema type"
        };
        return Err(refused(&format!("{at}.type"), type_name, why));
    };

    let numeric = matches!(column_type, ColumnType::Integer | ColumnType::Number);
    let mut column = Column::new(name, at.clone(), format!("{at}.name"))?;
    column.set("type", Value::from(column_type.name()), format!("{at}.type"));
    for (key, value) in field {
        let key_at = member(&at, key);
        match key.as_str() {
            "name" | "type" | "constraints" => {}
            "format" => format(value, column_type, &key_at, &mut column)?,
            "description" => column.set("description", value.clone(), key_at),
            "missingValues" => missing_values(value, &key_at)?,
            _ if FIELD_ANNOTATIONS.contains(&key.as_str()) => {}
            _ => match READING_DEFAULTS.iter().find(|(known, _)| known == key) {
                Some((_, is_default)) if numeric && is_default(value) => {}
                Some(_) if numeric => {
                    let why = format!(
                        "the contract reads plain numbers only, so only its default maps, got {}",
                        repr::repr(value)
                    );
                    return Err(refused(&key_at, key, &why));
                }
                _ if key == "trueValues" || key == "falseValues" => {
                    boolean_values(value, column_type, key == "trueValues", &key_at)?;
                }
                _ => return Err(refused(&key_at, key, "it is not a Table Schema field property the contract knows")),
            },
        }
    }
    if let Some(constraints) = field.get("constraints") {
        map_constraints(constraints, column_type, &format!("{at}.constraints"), &mut column)?;
    }
    Ok(column)
}

fn format(
    value: &Value,
    column_type: ColumnType,
    at: &str,
    column: &mut Column,
) -> Result<(), crate::error::ToolError> {
    let Value::String(name) = value else {
        return Err(schema_error(at, format!("{at} must be a string, got {}", repr::repr(value))));
    };
    if name == "default" {
        return Ok(());
    }
    match column_type {
        ColumnType::String if ["email", "uri", "uuid"].contains(&name.as_str()) => {
            column.set("format", value.clone(), at.to_owned());
            Ok(())
        }
        ColumnType::String => Err(refused(at, name, "the contract's string formats are email, uri and uuid")),
        ColumnType::Date | ColumnType::Datetime => Err(refused(
            at,
            name,
            &format!("the contract reads a {} as ISO 8601 only (the format \"default\")", column_type.name()),
        )),
        _ => Err(refused(at, name, &format!("a {} field has only the format \"default\"", column_type.name()))),
    }
}

/// `missingValues`: mappable when the values it makes missing are exactly
/// blank ones, which the contract treats as missing already.
fn missing_values(value: &Value, at: &str) -> Result<(), crate::error::ToolError> {
    let why = |detail: String| {
        refused(
            at,
            "missingValues",
            &format!(
                "the contract's missing values are exactly the blank ones (null, and text that Python's str.strip() \
empties), so only a list of blank text that includes \"\" maps; {detail}"
            ),
        )
    };
    let Value::Array(entries) = value else { return Err(why(format!("got {}", repr::repr(value)))) };
    let mut has_empty = false;
    for entry in entries {
        let text = match entry {
            Value::String(text) => text,
            Value::Object(object) => match object.get("value") {
                Some(Value::String(text)) => text,
                _ => return Err(why(format!("got the entry {}", repr::repr(entry)))),
            },
            _ => return Err(why(format!("got the entry {}", repr::repr(entry)))),
        };
        if !text::strip(text).is_empty() {
            return Err(why(format!("{} is not blank", repr::repr_str(text))));
        }
        has_empty |= text.is_empty();
    }
    if !has_empty {
        return Err(why("this list leaves \"\" a value".to_owned()));
    }
    Ok(())
}

fn map_constraints(
    constraints: &Value,
    column_type: ColumnType,
    at: &str,
    column: &mut Column,
) -> Result<(), crate::error::ToolError> {
    let Value::Object(constraints) = constraints else {
        return Err(schema_error(at, format!("{at} must be an object, got {}", repr::type_name(constraints))));
    };
    let supported = constraints_of(column_type);
    for (key, value) in constraints {
        let key_at = member(at, key);
        if !supported.contains(&key.as_str()) {
            let known = constraints_of(ColumnType::Integer).contains(&key.as_str())
                || constraints_of(ColumnType::String).contains(&key.as_str());
            let why = if known {
                format!("Table Schema does not define it for {} fields", column_type.name())
            } else {
                "it is not a Table Schema constraint".to_owned()
            };
            return Err(refused(&key_at, key, &why));
        }
        // Frictionless skips a constraint set to null.
        if value.is_null() {
            continue;
        }
        match key.as_str() {
            "required" => column.set("required", value.clone(), key_at),
            "unique" => column.set("unique", value.clone(), key_at),
            "minLength" => column.set("min_length", value.clone(), key_at),
            "maxLength" => column.set("max_length", value.clone(), key_at),
            "pattern" => column.set("pattern", value.clone(), key_at),
            "minimum" | "maximum" => {
                let bound = bound(value, column_type, &key_at)?;
                let contract_key = if key == "minimum" { "min" } else { "max" };
                tighten(column, contract_key, bound, key_at);
            }
            "exclusiveMinimum" | "exclusiveMaximum" => {
                if column_type != ColumnType::Integer {
                    return Err(refused(
                        &key_at,
                        key,
                        &format!(
                            "the contract has no exclusive bound; on an integer field it is the next whole number, but \
on a {} field there is none",
                            column_type.name()
                        ),
                    ));
                }
                let Some(x) = bound(value, column_type, &key_at)?.as_f64() else {
                    return Err(schema_error(&key_at, format!("{key_at} must be a number")));
                };
                let (contract_key, inclusive) =
                    if key == "exclusiveMinimum" { ("min", x.floor() + 1.0) } else { ("max", x.ceil() - 1.0) };
                tighten(column, contract_key, Value::from(inclusive as i64), key_at);
            }
            "enum" => {
                let Value::Array(entries) = value else {
                    return Err(schema_error(&key_at, format!("{key_at} must be an array, got {}", repr::repr(value))));
                };
                let read = entries
                    .iter()
                    .enumerate()
                    .map(|(index, entry)| read_as(entry, column_type, &format!("{key_at}[{index}]")))
                    .collect::<Result<Vec<_>, _>>()?;
                column.set("allowed", Value::Array(read), key_at);
            }
            _ => unreachable!("every supported constraint is mapped"),
        }
    }
    Ok(())
}

/// A `minimum`/`maximum` as the contract takes it: a number on integer and
/// number fields (text read as the field reads a cell), the ISO text on date
/// and datetime fields.
fn bound(value: &Value, column_type: ColumnType, at: &str) -> Result<Value, crate::error::ToolError> {
    match (column_type, value) {
        (ColumnType::Date | ColumnType::Datetime, Value::String(_)) => Ok(value.clone()),
        (ColumnType::Date | ColumnType::Datetime, _) => Err(schema_error(
            at,
            format!("{at} on a {} field must be ISO 8601 text, got {}", column_type.name(), repr::repr(value)),
        )),
        (_, Value::Number(_)) => Ok(value.clone()),
        (_, Value::String(_)) => read_as(value, column_type, at),
        _ => Err(schema_error(at, format!("{at} must be a number, got {}", repr::repr(value)))),
    }
}

/// A value written in the schema as the field's type reads a cell: text is
/// coerced (`"1"` on an integer field is 1), anything else is kept.
fn read_as(value: &Value, column_type: ColumnType, at: &str) -> Result<Value, crate::error::ToolError> {
    let Value::String(text) = value else { return Ok(value.clone()) };
    if matches!(column_type, ColumnType::String | ColumnType::Any) {
        return Ok(value.clone());
    }
    coerce(CellRef::Text(text), column_type).map(|coerced| coerced.json_safe()).map_err(|failure| {
        schema_error(
            at,
            format!("{at}: {}, so it cannot be a value of this {} field", failure.message(value), column_type.name()),
        )
    })
}

/// `trueValues` / `falseValues` of a boolean field (`reads_true` says
/// which): accepted when every word is one the contract's boolean reads the
/// same way, and then they change nothing, since the contract reads those
/// words (and its others) already. A word it reads otherwise, or not at
/// all, is refused: the contract's boolean words are fixed.
fn boolean_values(
    words: &Value,
    column_type: ColumnType,
    reads_true: bool,
    at: &str,
) -> Result<(), crate::error::ToolError> {
    let key = if reads_true { "trueValues" } else { "falseValues" };
    if column_type != ColumnType::Boolean {
        let why = format!("{key} belongs to a boolean field, and this field is {}", column_type.name());
        return Err(refused(at, key, &why));
    }
    let Value::Array(words) = words else {
        return Err(schema_error(at, format!("{at} must be an array of strings, got {}", repr::repr(words))));
    };
    for (index, word) in words.iter().enumerate() {
        let word_at = format!("{at}[{index}]");
        let Value::String(text) = word else {
            return Err(schema_error(&word_at, format!("{word_at} must be a string, got {}", repr::repr(word))));
        };
        if crate::coerce::boolean_word(text) != Some(reads_true) {
            let why = format!(
                "the contract's boolean words are fixed (true/t/yes/y/1 and false/f/no/n/0, in any case), and {} is \
not one of its {} words",
                repr::repr_str(text),
                if reads_true { "true" } else { "false" }
            );
            return Err(refused(&word_at, key, &why));
        }
    }
    Ok(())
}

/// `uniqueKeys` (v2): a key of one field is that column's `unique`.
fn unique_keys(keys: &Value, fields: &[Value], columns: &mut [Column]) -> Result<(), crate::error::ToolError> {
    let Value::Array(keys) = keys else {
        return Err(schema_error("schema.uniqueKeys", "schema.uniqueKeys must be an array of arrays of field names"));
    };
    for (index, key) in keys.iter().enumerate() {
        let at = format!("schema.uniqueKeys[{index}]");
        let name =
            match key {
                Value::Array(names) if names.len() == 1 => names[0].as_str(),
                Value::Array(names) if names.len() > 1 => return Err(refused(
                    &at,
                    "uniqueKeys",
                    "a unique key of several fields has no equivalent (the contract's only multi-column key is the \
primary key); a key of one field maps to that column's unique",
                )),
                _ => None,
            };
        let Some(name) = name else {
            return Err(schema_error(&at, format!("{at} must be an array of field names, got {}", repr::repr(key))));
        };
        let Some(position) = fields.iter().position(|field| field.get("name").and_then(Value::as_str) == Some(name))
        else {
            return Err(schema_error(&at, format!("{at} names {}, which is not a field", repr::repr_str(name))));
        };
        columns[position].set("unique", Value::Bool(true), at);
    }
    Ok(())
}
