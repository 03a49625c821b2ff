//! The JSON Schema of one `validate_rows` column spec: for the JS types and
//! the playground's contract form. Not published in `tools/list`, where
//! `columns` stays the reference's unconstrained array.
//!
//! Built from the constants the contract parser itself reads (`SPEC_KEYS`,
//! `ColumnType::ALL`, `ON_FAIL`), so a key or type the parser gains appears
//! here, or fails the test below if nobody said what it holds.

use serde_json::{json, Map, Value};

use crate::contract::{ColumnType, ON_FAIL, SPEC_KEYS};
use crate::formats::Format;

/// What one spec key holds, or `None` for a key this file does not know yet.
fn property(key: &str) -> Option<Value> {
    let number = json!({"type": "number"});
    Some(match key {
        "name" => json!({"type": "string", "description": "The column (row key) this spec applies to."}),
        "required" | "not_blank" => json!({"type": "boolean", "default": false}),
        "type" => json!({"type": "string", "enum": ColumnType::ALL.map(ColumnType::name), "default": "any",
                          "description": "`date` means ISO-8601 `YYYY-MM-DD`; `datetime` an ISO-8601 date and time as Python's datetime.fromisoformat reads it; `any` means no coercion."}),
        "min" | "max" => json!({"anyOf": [number, {"type": "string"}],
                                 "description": "A number, or on a date or datetime column an ISO-8601 date or datetime the value may not be before (min) or after (max)."}),
        "range" => json!({"type": "array", "items": number, "minItems": 2, "maxItems": 2}),
        "pattern" => json!({"type": "string", "description": "A regular expression the whole value must match."}),
        "allowed" => json!({"type": "array", "items": {}}),
        "on_fail" => json!({"type": "string", "enum": ON_FAIL, "default": ON_FAIL[0],
                             "description": "What a failing value does to its row: hold it back, or keep it and flag it."}),
        "description" => json!({"type": "string"}),
        "unique" => json!({"type": "boolean", "default": false,
                            "description": "No two rows may hold the same value (after the column's type coercion); blanks are not values. A repeat is reported on every row after the first, located at the first (`first_row_index`)."}),
        "min_length" | "max_length" => json!({"type": "integer", "minimum": 0,
                                               "description": "Length in characters (code points), as Python's len(str(value))."}),
        "format" => json!({"type": "string", "enum": Format::ALL.map(Format::name),
                            "description": "A JSON Schema 2020-12 format the value's text must have."}),
        "max_decimal_places" => json!({"type": "integer", "minimum": 0,
                                        "description": "At most this many digits after the decimal point, in the number's shortest form (10.50 has 1)."}),
        "references" => json!({"type": "object",
            "description": "The value must exist in another table's column (given as rows, csv, or, in the MCP server, a path under --data-root), or in a list of values; compared after this column's type coercion.",
            "properties": {
                "column": {"type": "string"},
                "rows": {"type": "array", "items": {"type": "object"}},
                "csv": {"type": "string"},
                "path": {"type": "string"},
                "values": {"type": "array", "items": {}},
            },
            "additionalProperties": false}),
        _ => return None,
    })
}

pub(super) fn schema() -> Value {
    let mut properties = Map::new();
    for key in SPEC_KEYS {
        properties.insert(key.to_owned(), property(key).unwrap_or_else(|| json!({})));
    }
    json!({"type": "object", "properties": properties, "required": ["name"], "additionalProperties": false})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_the_parser_accepts_is_described() {
        for key in SPEC_KEYS {
            assert!(property(key).is_some(), "column spec key {key:?} has no schema in catalog/column_spec.rs");
        }
    }
}
