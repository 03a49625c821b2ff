//! The mappings, keyword by keyword: each expectation is the contract JSON
//! a caller would have written for the same meaning (module docs).

use serde_json::{json, Value};

use super::json_schema::search_pattern;
use super::{contract_from_schema, map_schema, SchemaKind};
use crate::pattern::FullMatch;

fn columns_of(schema: &Value) -> Vec<Value> {
    contract_from_schema(schema).unwrap_or_else(|err| panic!("{schema}: {}", err.message)).0
}

/// Where mapping `schema` fails.
fn refusal(schema: &Value) -> String {
    let err = map_schema(schema).err().unwrap_or_else(|| panic!("{schema} should be refused"));
    assert_eq!(err.argument.as_deref(), Some("schema"), "{}", err.message);
    err.location.unwrap_or_default()
}

#[test]
fn a_table_schema_becomes_columns_and_table_rules() {
    let schema = json!({
        "$schema": "https://datapackage.org/profiles/2.0/tableschema.json",
        "title": "Orders",
        "fields": [
            {"name": "id", "type": "integer", "title": "Id", "constraints": {"required": true, "minimum": "1", "exclusiveMaximum": 100}},
            {"name": "email", "format": "email", "description": "who", "constraints": {"unique": true, "maxLength": 80, "pattern": "[^@]+@[^@]+"}},
            {"name": "placed", "type": "date", "format": "default", "constraints": {"minimum": "2024-01-01"}},
            {"name": "paid", "type": "boolean", "constraints": {"enum": ["true"]}},
        ],
        "missingValues": ["", " "],
        "primaryKey": ["id"],
        "fieldsMatch": "equal",
    });
    let (columns, table) = contract_from_schema(&schema).unwrap();
    assert_eq!(
        columns,
        [
            json!({"name": "id", "type": "integer", "required": true, "min": 1, "max": 99}),
            json!({"name": "email", "type": "string", "format": "email", "description": "who", "unique": true, "max_length": 80, "pattern": "[^@]+@[^@]+"}),
            json!({"name": "placed", "type": "date", "min": "2024-01-01"}),
            // "true" is read as the boolean field reads a cell.
            json!({"name": "paid", "type": "boolean", "allowed": [true]}),
        ]
    );
    assert_eq!(table, Some(json!({"primary_key": ["id"], "columns": "exact"})));
    assert_eq!(map_schema(&schema).unwrap().kind, SchemaKind::TableSchema);
}

#[test]
fn a_field_without_a_type_is_a_string_and_exclusive_bounds_tighten() {
    // Integers above 2.5 are 3 or more; the inclusive minimum 5 is tighter.
    let columns = columns_of(&json!({"fields": [
        {"name": "s"},
        {"name": "n", "type": "integer", "constraints": {"exclusiveMinimum": 2.5, "minimum": 5}},
        {"name": "m", "type": "integer", "constraints": {"minimum": 0, "exclusiveMinimum": 2.5}},
    ]}));
    assert_eq!(columns[0], json!({"name": "s", "type": "string"}));
    assert_eq!(columns[1]["min"], 5);
    assert_eq!(columns[2]["min"], 3);
}

#[test]
fn table_schema_keywords_that_do_not_map_are_refused_where_they_are() {
    let cases = [
        (json!({"fields": [{"name": "y", "type": "year"}]}), "schema.fields[0].type"),
        (json!({"fields": [{"name": "d", "type": "date", "format": "%d/%m/%Y"}]}), "schema.fields[0].format"),
        (json!({"fields": [{"name": "s", "format": "binary"}]}), "schema.fields[0].format"),
        (
            json!({"fields": [{"name": "n", "type": "number", "constraints": {"exclusiveMinimum": 0}}]}),
            "schema.fields[0].constraints.exclusiveMinimum",
        ),
        (
            json!({"fields": [{"name": "n", "type": "integer", "constraints": {"pattern": "\\d+"}}]}),
            "schema.fields[0].constraints.pattern",
        ),
        (json!({"fields": [{"name": "s", "constraints": {"foo": 1}}]}), "schema.fields[0].constraints.foo"),
        (json!({"fields": [{"name": "s", "missingValues": ["", "NA"]}]}), "schema.fields[0].missingValues"),
        (json!({"fields": [{"name": "s"}], "missingValues": [" "]}), "schema.missingValues"),
        // A word the contract's boolean does not read, or reads the other way.
        (
            json!({"fields": [{"name": "b", "type": "boolean", "trueValues": ["oui"]}]}),
            "schema.fields[0].trueValues[0]",
        ),
        (
            json!({"fields": [{"name": "b", "type": "boolean", "trueValues": ["Y", "no"]}]}),
            "schema.fields[0].trueValues[1]",
        ),
        (
            json!({"fields": [{"name": "b", "type": "boolean", "falseValues": ["X"]}]}),
            "schema.fields[0].falseValues[0]",
        ),
        (json!({"fields": [{"name": "b", "type": "boolean", "falseValues": "No"}]}), "schema.fields[0].falseValues"),
        (json!({"fields": [{"name": "b", "type": "boolean", "falseValues": [0]}]}), "schema.fields[0].falseValues[0]"),
        (json!({"fields": [{"name": "s", "trueValues": ["Yes"]}]}), "schema.fields[0].trueValues"),
        (json!({"fields": [{"name": "n", "type": "number", "decimalChar": ","}]}), "schema.fields[0].decimalChar"),
        (
            json!({"fields": [{"name": "s"}], "foreignKeys": [{"fields": "s", "reference": {"resource": "", "fields": "id"}}]}),
            "schema.foreignKeys",
        ),
        (json!({"fields": [{"name": "a"}, {"name": "b"}], "uniqueKeys": [["a", "b"]]}), "schema.uniqueKeys[0]"),
        (json!({"fields": [{"name": "s"}], "fieldsMatch": "subset"}), "schema.fieldsMatch"),
        (json!({"fields": [{"name": "s"}], "rowCount": 3}), "schema.rowCount"),
        (json!({"fields": [{"name": "s", "date format": 1}]}), "schema.fields[0][\"date format\"]"),
        (json!({"fields": []}), "schema.fields"),
    ];
    for (schema, location) in cases {
        assert_eq!(refusal(&schema), location, "{schema}");
    }
    let err = map_schema(&json!({"fields": [{"name": "y", "type": "geopoint"}]})).err().unwrap();
    assert!(err.message.contains("'geopoint'"), "{}", err.message);
}

#[test]
fn boolean_words_the_contract_reads_alike_are_accepted_and_change_nothing() {
    // The contract reads yes/no, y/n and t/f in any case, with blank space
    // stripped, so these lists say nothing its boolean does not.
    let words = json!({"fields": [{
        "name": "b", "type": "boolean", "trueValues": ["Yes", " Y", "t", "1"], "falseValues": ["NO", "n", "0"]
    }]});
    let plain = json!({"fields": [{"name": "b", "type": "boolean"}]});
    assert_eq!(columns_of(&words), columns_of(&plain));
    assert_eq!(columns_of(&words), [json!({"name": "b", "type": "boolean"})]);
    let err = map_schema(&json!({"fields": [{"name": "b", "type": "boolean", "trueValues": ["oui"]}]})).err().unwrap();
    assert!(err.message.contains("'oui' is not one of its true words"), "{}", err.message);
}

#[test]
fn a_json_schema_of_a_row_becomes_columns() {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.org/order",
        "type": "object",
        "properties": {
            "id": {"type": "integer", "exclusiveMinimum": 0, "maximum": 10},
            "code": {"type": ["string", "null"], "minLength": 2.0, "enum": ["ab", "cd", null], "title": "Code"},
            "mail": {"type": "string", "format": "email", "description": "contact"},
            "n": {"type": ["number", "integer"]},
            "any": true,
        },
        "required": ["id", "code", "extra"],
        "additionalProperties": true,
    });
    assert_eq!(
        columns_of(&schema),
        [
            json!({"name": "id", "type": "integer", "min": 1, "max": 10, "required": true}),
            // Null is admitted, so the listed property is not required.
            json!({"name": "code", "type": "string", "min_length": 2, "allowed": ["ab", "cd", null]}),
            json!({"name": "mail", "type": "string", "format": "email", "description": "contact"}),
            json!({"name": "n", "type": "number"}),
            json!({"name": "any"}),
            json!({"name": "extra", "required": true}),
        ]
    );
    assert_eq!(map_schema(&schema).unwrap().kind, SchemaKind::JsonSchema);
}

#[test]
fn json_schema_keywords_that_do_not_map_are_refused_where_they_are() {
    let cases = [
        (json!({"properties": {"a": {"type": "null"}}}), "schema.properties.a.type"),
        (json!({"properties": {"a": {"type": ["integer", "string"]}}}), "schema.properties.a.type"),
        (json!({"properties": {"a": {"type": "array"}}}), "schema.properties.a.type"),
        (json!({"properties": {"a": {"exclusiveMinimum": 1}}}), "schema.properties.a.exclusiveMinimum"),
        (
            json!({"properties": {"a": {"type": "integer", "exclusiveMinimum": true}}}),
            "schema.properties.a.exclusiveMinimum",
        ),
        (json!({"properties": {"a": {"format": "date-time"}}}), "schema.properties.a.format"),
        (json!({"properties": {"a": {"$ref": "#/$defs/x"}}}), "schema.properties.a.$ref"),
        (json!({"properties": {"a b": {"const": 1}}}), "schema.properties[\"a b\"].const"),
        (json!({"properties": {"a": false}}), "schema.properties.a"),
        (json!({"properties": {"a": {"pattern": "\\bword"}}}), "schema.properties.a.pattern"),
        (
            json!({"type": "object", "additionalProperties": false, "properties": {"a": {}}}),
            "schema.additionalProperties",
        ),
        (json!({"type": "array", "properties": {"a": {}}}), "schema.type"),
        (json!({"type": "object", "minProperties": 1}), "schema.minProperties"),
        (json!({"type": "object"}), "schema"),
        (json!({"title": "neither"}), "schema"),
        (json!([1]), "schema"),
    ];
    for (schema, location) in cases {
        assert_eq!(refusal(&schema), location, "{schema}");
    }
}

/// Whether the mapped JSON Schema pattern matches `text`.
fn search(pattern: &str, text: &str) -> bool {
    let translated = search_pattern(pattern).unwrap_or_else(|why| panic!("{pattern}: {why}"));
    FullMatch::new(&translated).unwrap_or_else(|_| panic!("{translated} compiles")).is_match(text)
}

#[test]
fn json_schema_patterns_search_as_ecma_262_does() {
    // RegExp.prototype.test: anywhere in the value.
    assert!(search("a+", "xxaayy"));
    assert!(!search("a+", "xyz"));
    // Anchors still anchor inside the wrapper; $ is the very end.
    assert!(search("^a*$", "aaa"));
    assert!(!search("^a*$", "aab"));
    assert!(!search("^ab", "cab"));
    assert!(!search("a$", "a\n"));
    assert!(search("a$", "ba"));
    // `.` stops at every line terminator; the wrapper itself crosses them.
    assert!(!search("^a.b$", "a\nb"));
    assert!(!search("^a.b$", "a\u{2028}b"));
    assert!(search("a.b", "x\na_b\n"));
    // ASCII \d and \w; ECMA-262's \s has U+FEFF and no U+001C.
    assert!(!search("^\\d$", "\u{661}"));
    assert!(search("^\\d$", "7"));
    assert!(!search("^\\w$", "é"));
    assert!(search("^[\\w-]+$", "a-b_9"));
    assert!(search("^\\s$", "\u{feff}"));
    assert!(!search("^\\s$", "\u{1c}"));
    // [] matches nothing, [^] anything; \cJ is a newline; named groups.
    assert!(!search("a[]", "a"));
    assert!(search("^a[^]b$", "a\nb"));
    assert!(search("^\\cJ$", "\n"));
    assert!(search("^(?<year>\\d{4})-", "2024-01"));
    // Alternation is inside the group, so each branch is searched.
    assert!(search("^a|b$", "xb"));
    assert!(search("^a|b$", "ax"));
}

#[test]
fn ecma_escapes_without_an_equivalent_are_refused() {
    for pattern in ["\\bx", "x\\B", "[\\D]", "[\\S]", "\\A", "\\Z", "(?<n>a)\\k<n>"] {
        assert!(search_pattern(pattern).is_err(), "{pattern}");
    }
}
