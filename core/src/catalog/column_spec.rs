//! The JSON Schema of one `validate_rows` column spec: for the JS types and
//! the playground's contract form. Not published in `tools/list`, where
//! `columns` stays the reference's unconstrained array.
//!
//! Built from the constants the contract parser itself reads (`SPEC_KEYS`,
//! `ColumnType::ALL`, `ON_FAIL`), so a key or type the parser gains appears
//! here, or fails the test below if nobody said what it holds.

use serde_json::{json, Map, Value};

use crate::contract::{ColumnType, ON_FAIL, SPEC_KEYS};

/// What one spec key holds, or `None` for a key this file does not know yet.
fn property(key: &str) -> Option<Value> {
    let number = json!({"type": "number"});
    Some(match key {
        "name" => json!({"type": "string", "description": "The column (row key) this spec applies to."}),
        "required" | "not_blank" => json!({"type": "boolean", "default": false}),
        "type" => json!({"type": "string", "enum": ColumnType::ALL.map(ColumnType::name), "default": "any",
                          "description": "`date` means ISO-8601 `YYYY-MM-DD`; `any` means no coercion."}),
        "min" | "max" => number,
        "range" => json!({"type": "array", "items": number, "minItems": 2, "maxItems": 2}),
        "pattern" => json!({"type": "string", "description": "A regular expression the whole value must match."}),
        "allowed" => json!({"type": "array", "items": {}}),
        "on_fail" => json!({"type": "string", "enum": ON_FAIL, "default": ON_FAIL[0],
                             "description": "What a failing value does to its row: hold it back, or keep it and flag it."}),
        "description" => json!({"type": "string"}),
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
