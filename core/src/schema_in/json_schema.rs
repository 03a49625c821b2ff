//! A JSON Schema (2020-12) describing one row, mapped onto the contract.
//!
//! | JSON Schema | contract |
//! | --- | --- |
//! | `type: "object"` at the root | nothing (a row that is not an object is quarantined anyway) |
//! | `properties.<name>` | a column `<name>`, in the order given |
//! | `required` | `required` on those columns (a name with no property becomes a column of its own), unless the property admits null |
//! | `additionalProperties: true` (or `{}`) | nothing (the default) |
//! | `type` string, integer, number, boolean | the same `type`; no `type` is `any` |
//! | `type: [T, "null"]` | type T, and the column is not `required` |
//! | `type: ["integer", "number"]` | `number` |
//! | `minimum` / `maximum` | `min` / `max` |
//! | `exclusiveMinimum` / `exclusiveMaximum` (numbers) on an integer column | `min` = ⌊bound⌋ + 1 / `max` = ⌈bound⌉ − 1 (the tighter of it and `minimum`/`maximum`) |
//! | `minLength` / `maxLength` | `min_length` / `max_length` (both count code points) |
//! | `pattern` | `pattern`, rewritten from ECMA-262 search to the contract's full match (below) |
//! | `enum` | `allowed` |
//! | `format` email, uuid, uri, ipv4, ipv6 | `format`, asserted |
//! | `description` of a property | `description` |
//! | a property schema `true` | a column with no rules |
//!
//! Accepted and ignored, as annotations (at the root and in a property):
//! `$id`, `$comment`, `title`, `description` (at the root), `examples`,
//! `default`, `deprecated`, `readOnly`, `writeOnly`; and `$schema` at the
//! root (its value is not read: every draft since 06 means the same by
//! these keywords).
//!
//! Refused (an argument error naming the keyword and where it is): `type`
//! `null` alone, `array` and `object` (a cell is a scalar), and a union of
//! types other than with `null` (a column has one type); `exclusiveMinimum`
//! and `exclusiveMaximum` on a column that is not `integer` (the contract
//! has no exclusive bound), and in draft-04's boolean form; every `format`
//! but the five above (`date`, `date-time`, `hostname`, `regex`, ...); a
//! property schema `false`; `additionalProperties` other than `true` (the
//! contract's `table.columns: "exact"` is a table rule about columns, not a
//! per-row rule); a root `type` other than `object`; and every other keyword
//! (`$ref`, `$defs`, `allOf`/`anyOf`/`oneOf`/`not`, `if`/`then`/`else`,
//! `const`, `multipleOf`, `items`, `patternProperties`,
//! `dependentRequired`, `minProperties`, ...), except the one `anyOf`
//! pydantic writes for an optional field (see `optional_form`).
//!
//! **What the mapping means.** It describes the contract's meaning of a row,
//! not JSON Schema's of a JSON value; where they differ it is on purpose,
//! and `core/tests/json_schema_suite.rs` measures each difference against
//! the official test suite:
//!
//! * **Cells are coerced.** An integer column takes `"12"` as 12, a number
//!   column `"1.5"`, a boolean column `"yes"`, and a string column takes
//!   any scalar as its text: CSV cells are all text, and the contract reads
//!   a value by what it says, not by its JSON type. JSON Schema's `type`
//!   accepts only the JSON type itself.
//! * **Blank is missing.** Null, an absent key and text that
//!   `str.strip()` empties are all blank: a blank passes every rule unless
//!   the column is `required`, which means present and not blank. JSON
//!   Schema's `required` means only present (`null` and `""` satisfy it),
//!   while its `type` refuses `null` for a type that does not list it. So a
//!   property that is not required accepts null here; a required one
//!   refuses `""` and null; and a required property whose `type` (or `enum`)
//!   admits null is not `required` at all, so that null passes as JSON
//!   Schema has it (at the price of also passing an absent key).
//! * **Rules read every value.** `minimum` reads any value as a number (text
//!   that is no number fails it, `not_numeric`), and `minLength`,
//!   `pattern` and `format` read any value as its text; JSON Schema applies
//!   them to numbers or strings only and passes every other value.
//! * **Formats are asserted**, as the format-assertion vocabulary has them
//!   (and as `formats.rs` defines them); by default 2020-12 only annotates.
//! * **enum compares as Python does** (`true == 1`), after the column's
//!   coercion.
//!
//! **Patterns.** JSON Schema matches a `pattern` anywhere in the value
//! (ECMA-262 `RegExp.prototype.test`, no flags); the contract's pattern is
//! Python syntax matched against the whole value. The pattern `p` becomes
//! `(?s:.*)(?:p')(?s:.*)`, where `p'` is `p` with what ECMA-262 means
//! spelled in Python syntax: `$` is `\Z` (the end of the value; Python's
//! `$` also matches before a final newline), `.` is any character but a
//! line terminator (`\n`, `\r`, U+2028, U+2029), `\d` and `\w` are ASCII
//! (`[0-9]`, `[A-Za-z0-9_]`), `\s` is ECMA-262's white space and line
//! terminators, `[]` matches nothing and `[^]` anything, `\cX` is a
//! control character and `(?<name>` a named group. `^` keeps its meaning
//! (the start of the value), so an anchored pattern still anchors inside
//! the wrapper. Refused: `\b`/`\B` (ECMA-262's word boundaries are ASCII,
//! the engine's are Unicode), `\D`, `\W`, `\S` inside a class, named
//! back-references, and an escape of a letter ECMA-262 gives no meaning
//! (`\A`, `\Z`, `\z`, ...). What the contract's patterns refuse anyway
//! (look-around, back-references, and `\p{...}`, which Python syntax has
//! not) is refused by the contract parser, reported at the `pattern`.

use serde_json::{json, Map, Value};

use super::{member, refused, schema_error, tighten, Column, Mapped, SchemaKind};
use crate::contract::ColumnType;
use crate::error::ToolError;
use crate::py::repr;

/// Keywords accepted and ignored (annotations), at the root and in a property.
const ANNOTATIONS: [&str; 9] =
    ["$id", "$comment", "title", "description", "examples", "default", "deprecated", "readOnly", "writeOnly"];

/// The formats the contract asserts.
const FORMATS: [&str; 5] = ["email", "uuid", "uri", "ipv4", "ipv6"];

pub(super) fn map(schema: &Map<String, Value>) -> Result<Mapped, ToolError> {
    for (key, value) in schema {
        let at = member("schema", key);
        match key.as_str() {
            "properties" | "required" | "$schema" => {}
            "type" => {
                let object = value == "object" || value.as_array().is_some_and(|t| t.len() == 1 && t[0] == "object");
                if !object {
                    return Err(refused(
                        &at,
                        "type",
                        &format!("a schema of one row has type \"object\", got {}", repr::repr(value)),
                    ));
                }
            }
            "additionalProperties" => {
                let allows_all = value == &Value::Bool(true) || value.as_object().is_some_and(Map::is_empty);
                if !allows_all {
                    return Err(refused(
                        &at,
                        key,
                        "only true (the default) maps: the contract checks the columns a row has against its declared \
ones as a table rule (table.columns = \"exact\"), not row by row",
                    ));
                }
            }
            _ if ANNOTATIONS.contains(&key.as_str()) => {}
            _ => return Err(refused(&at, key, "the contract has no equivalent keyword")),
        }
    }
    let properties = match schema.get("properties") {
        None => Map::new(),
        Some(Value::Object(properties)) => properties.clone(),
        Some(other) => {
            return Err(schema_error(
                "schema.properties",
                format!("schema.properties must be an object, got {}", repr::type_name(other)),
            ))
        }
    };
    let required: Vec<&str> = match schema.get("required") {
        None => Vec::new(),
        Some(Value::Array(names)) => names
            .iter()
            .enumerate()
            .map(|(index, name)| {
                name.as_str().ok_or_else(|| {
                    schema_error(format!("schema.required[{index}]"), "schema.required must be an array of names")
                })
            })
            .collect::<Result<_, _>>()?,
        Some(_) => return Err(schema_error("schema.required", "schema.required must be an array of names")),
    };

    let mut columns = Vec::new();
    for (name, property) in &properties {
        let at = member("schema.properties", name);
        let required_at =
            required.iter().position(|listed| listed == name).map(|index| format!("schema.required[{index}]"));
        columns.push(map_property(name, property, &at, required_at)?);
    }
    let mut added: Vec<&str> = Vec::new();
    for (index, name) in required.iter().enumerate() {
        if !properties.contains_key(*name) && !added.contains(name) {
            let at = format!("schema.required[{index}]");
            let mut column = Column::new(name, at.clone(), at.clone())?;
            column.set("required", Value::Bool(true), at);
            columns.push(column);
            added.push(name);
        }
    }
    if columns.is_empty() {
        return Err(schema_error(
            "schema",
            "the JSON Schema has no \"properties\" and no \"required\", so it describes no columns",
        ));
    }
    Ok(Mapped::new(SchemaKind::JsonSchema, columns, Vec::new()))
}

/// The column of property `name`; `required_at` is where `required` lists it.
fn map_property(name: &str, property: &Value, at: &str, required_at: Option<String>) -> Result<Column, ToolError> {
    if let Some(nullable) = property.as_object().and_then(optional_form) {
        return map_property(name, &nullable, at, required_at);
    }
    let mut column = Column::new(name, at.to_owned(), at.to_owned())?;
    let property = match property {
        Value::Bool(true) => {
            if let Some(required_at) = required_at {
                column.set("required", Value::Bool(true), required_at);
            }
            return Ok(column);
        }
        Value::Bool(false) => {
            return Err(refused(at, name, "a property schema false (no value is valid) has no equivalent"));
        }
        Value::Object(property) => property,
        other => {
            return Err(schema_error(at, format!("{at} must be a schema (an object), got {}", repr::type_name(other))))
        }
    };
    // Whether the type or the enum lists null.
    let (column_type, mut admits_null) = match property.get("type") {
        None => (ColumnType::Any, false),
        Some(value) => column_type(value, &format!("{at}.type"))?,
    };
    if column_type != ColumnType::Any {
        column.set("type", Value::from(column_type.name()), format!("{at}.type"));
    }
    for (key, value) in property {
        let key_at = member(at, key);
        match key.as_str() {
            "type" => {}
            "description" => column.set("description", value.clone(), key_at),
            "minimum" | "maximum" => {
                if !value.is_number() {
                    return Err(schema_error(&key_at, format!("{key_at} must be a number, got {}", repr::repr(value))));
                }
                tighten(&mut column, if key == "minimum" { "min" } else { "max" }, value.clone(), key_at);
            }
            "exclusiveMinimum" | "exclusiveMaximum" => {
                let Some(bound) = value.as_f64() else {
                    let why = format!(
                        "it must be a number (draft 2020-12); the boolean form of draft-04 is not read, got {}",
                        repr::repr(value)
                    );
                    return Err(refused(&key_at, key, &why));
                };
                if column_type != ColumnType::Integer {
                    return Err(refused(
                        &key_at,
                        key,
                        "the contract has no exclusive bound; on a column of type integer it is the next whole \
number, but this column is not one",
                    ));
                }
                let (contract_key, inclusive) =
                    if key == "exclusiveMinimum" { ("min", bound.floor() + 1.0) } else { ("max", bound.ceil() - 1.0) };
                tighten(&mut column, contract_key, Value::from(inclusive as i64), key_at);
            }
            "minLength" | "maxLength" => {
                // JSON Schema counts 2.0 as an integer.
                let count = match value.as_f64() {
                    Some(x) if x >= 0.0 && x.fract() == 0.0 && !value.is_i64() && !value.is_u64() => {
                        Value::from(x as u64)
                    }
                    _ => value.clone(),
                };
                column.set(if key == "minLength" { "min_length" } else { "max_length" }, count, key_at);
            }
            "pattern" => {
                let Value::String(source) = value else {
                    return Err(schema_error(&key_at, format!("{key_at} must be a string, got {}", repr::repr(value))));
                };
                let translated = search_pattern(source).map_err(|why| refused(&key_at, "pattern", &why))?;
                column.set("pattern", Value::from(translated), key_at);
            }
            "enum" => {
                admits_null |= value.as_array().is_some_and(|items| items.contains(&Value::Null));
                column.set("allowed", value.clone(), key_at);
            }
            "format" => match value.as_str() {
                Some(format) if FORMATS.contains(&format) => column.set("format", value.clone(), key_at),
                _ => {
                    let why = format!("the contract's formats are {}", FORMATS.join(", "));
                    return Err(refused(&key_at, value.as_str().unwrap_or("format"), &why));
                }
            },
            _ if ANNOTATIONS.contains(&key.as_str()) => {}
            _ => return Err(refused(&key_at, key, "the contract has no equivalent keyword")),
        }
    }
    // Required means "not blank", so a property whose type or enum lists
    // null cannot be: its null must pass.
    if let Some(required_at) = required_at.filter(|_| !admits_null) {
        column.set("required", Value::Bool(true), required_at);
    }
    Ok(column)
}

/// The one `anyOf` this mapping reads: how pydantic writes an optional field,
/// `{"anyOf": [{"type": T, ...}, {"type": "null"}], "default": null}`. It
/// means the schema of the first branch with `null` added to its `type`, and
/// is read as that schema. `None` for any other `anyOf` (refused as usual)
/// or a property without one.
fn optional_form(property: &Map<String, Value>) -> Option<Value> {
    let Some(Value::Array(branches)) = property.get("anyOf") else { return None };
    let null = json!({"type": "null"});
    let [first, second] = &branches[..] else { return None };
    let other = match (first == &null, second == &null) {
        (false, true) => first,
        (true, false) => second,
        _ => return None,
    };
    let Value::Object(other) = other else { return None };
    let mut merged: Map<String, Value> =
        property.iter().filter(|(key, _)| *key != "anyOf").map(|(k, v)| (k.clone(), v.clone())).collect();
    for (key, value) in other {
        if merged.contains_key(key) {
            return None;
        }
        merged.insert(key.clone(), value.clone());
    }
    let nullable = match merged.get("type")? {
        Value::String(name) => json!([name, "null"]),
        Value::Array(names) => Value::Array(names.iter().cloned().chain([json!("null")]).collect()),
        _ => return None,
    };
    merged.insert("type".into(), nullable);
    Some(Value::Object(merged))
}

/// A property's `type`: the column type, and whether it admits null.
fn column_type(value: &Value, at: &str) -> Result<(ColumnType, bool), ToolError> {
    let names: Vec<&str> = match value {
        Value::String(name) => vec![name.as_str()],
        Value::Array(items) => items
            .iter()
            .map(|item| item.as_str().ok_or_else(|| schema_error(at, format!("{at} must list type names"))))
            .collect::<Result<_, _>>()?,
        other => {
            return Err(schema_error(
                at,
                format!("{at} must be a type name or a list of them, got {}", repr::repr(other)),
            ))
        }
    };
    let nullable = names.contains(&"null");
    let mut kinds: Vec<&str> = names.iter().copied().filter(|name| *name != "null").collect();
    kinds.sort_unstable();
    kinds.dedup();
    let one = match kinds[..] {
        [] => return Err(refused(at, "null", "a column that may only be null has no equivalent")),
        [only] => only,
        ["integer", "number"] => "number",
        _ => {
            return Err(refused(
                at,
                "type",
                &format!("a column has one type; a union of {} has no equivalent", kinds.join(", ")),
            ))
        }
    };
    let column_type = match one {
        "string" => ColumnType::String,
        "integer" => ColumnType::Integer,
        "number" => ColumnType::Number,
        "boolean" => ColumnType::Boolean,
        "array" | "object" => {
            return Err(refused(at, one, "a cell is a scalar; the contract has no array or object columns"));
        }
        other => return Err(schema_error(at, format!("{at}: {} is not a JSON Schema type", repr::repr_str(other)))),
    };
    Ok((column_type, nullable))
}

/// ECMA-262's `\s`: its white space (including every space separator and
/// the byte order mark) and its line terminators, as class contents.
const ECMA_SPACE: &str = r"\t\n\x0b\x0c\r \xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff";

/// An ECMA-262 pattern, which JSON Schema finds anywhere in the value, as
/// a contract pattern (Python syntax, matched against the whole value); or
/// why it cannot be one. See the module documentation.
pub(super) fn search_pattern(source: &str) -> Result<String, String> {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len() + 24);
    let mut in_class = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' => {
                let Some(&next) = chars.get(i + 1) else {
                    // A trailing backslash: let the contract parser say it is invalid.
                    out.push('\\');
                    break;
                };
                i += 2 + escape(next, in_class, chars.get(i + 2).copied(), &mut out)?;
                continue;
            }
            '[' if !in_class => {
                if chars.get(i + 1) == Some(&']') {
                    out.push_str(r"[^\s\S]");
                    i += 2;
                    continue;
                }
                if chars.get(i + 1) == Some(&'^') && chars.get(i + 2) == Some(&']') {
                    out.push_str(r"[\s\S]");
                    i += 3;
                    continue;
                }
                in_class = true;
                out.push('[');
                if chars.get(i + 1) == Some(&'^') {
                    out.push('^');
                    i += 1;
                }
            }
            ']' if in_class => {
                in_class = false;
                out.push(']');
            }
            '.' if !in_class => out.push_str(r"[^\n\r\u2028\u2029]"),
            '$' if !in_class => out.push_str(r"\Z"),
            '(' if !in_class
                && chars.get(i + 1) == Some(&'?')
                && chars.get(i + 2) == Some(&'<')
                && !matches!(chars.get(i + 3), Some('=' | '!')) =>
            {
                out.push_str("(?P<");
                i += 3;
                continue;
            }
            _ => out.push(c),
        }
        i += 1;
    }
    Ok(format!("(?s:.*)(?:{out})(?s:.*)"))
}

/// The escape `\` `next` (inside a class or not) in contract syntax,
/// written to `out`; returns how many characters after `next` it also took
/// (`following` is the first of them).
fn escape(next: char, in_class: bool, following: Option<char>, out: &mut String) -> Result<usize, String> {
    match (next, in_class) {
        ('d', false) => out.push_str("[0-9]"),
        ('d', true) => out.push_str("0-9"),
        ('D', false) => out.push_str("[^0-9]"),
        ('w', false) => out.push_str("[A-Za-z0-9_]"),
        ('w', true) => out.push_str("A-Za-z0-9_"),
        ('W', false) => out.push_str("[^A-Za-z0-9_]"),
        ('s', false) => {
            out.push('[');
            out.push_str(ECMA_SPACE);
            out.push(']');
        }
        ('s', true) => out.push_str(ECMA_SPACE),
        ('S', false) => {
            out.push_str("[^");
            out.push_str(ECMA_SPACE);
            out.push(']');
        }
        ('D' | 'W' | 'S', true) => {
            return Err(format!("\\{next} inside a character class cannot be written in the contract's pattern syntax"))
        }
        ('b' | 'B', false) => {
            return Err(format!(
                "\\{next} is an ECMA-262 word boundary, drawn between ASCII word characters only, which \
the contract's patterns (Unicode word boundaries) cannot express"
            ))
        }
        // In a class, \b is a backspace.
        ('b', true) => out.push_str(r"\x08"),
        ('c', _) if following.is_some_and(|c| c.is_ascii_alphabetic()) => {
            let code = following.map_or(0, u32::from) % 32;
            out.push_str(r"\x");
            out.push(char::from_digit(code / 16, 16).unwrap_or('0'));
            out.push(char::from_digit(code % 16, 16).unwrap_or('0'));
            return Ok(1);
        }
        ('k', _) => return Err("a named back-reference (\\k<name>) needs backtracking".to_owned()),
        ('t' | 'n' | 'v' | 'f' | 'r' | 'x' | 'u' | 'p' | 'P' | 'c', _) => {
            out.push('\\');
            out.push(next);
        }
        (letter, _) if letter.is_ascii_alphabetic() => {
            return Err(format!("\\{letter} is not an ECMA-262 escape"));
        }
        (other, _) => {
            out.push('\\');
            out.push(other);
        }
    }
    Ok(0)
}
