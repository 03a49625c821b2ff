//! `schema` instead of `columns`: a standard schema is the contract it maps
//! to, with one meaning, and a schema that cannot be mapped is an argument
//! error at the keyword.

use serde_json::{json, Value};
use validation_core::{validate_rows, ErrorCode};

fn run(args: &Value) -> Value {
    validate_rows(args).unwrap_or_else(|err| panic!("argument error {:?}: {}", err.code, err.message))
}

/// The result without the one key a mapped contract adds to its echo.
fn without_origin(mut result: Value) -> Value {
    result["contract"].as_object_mut().unwrap().remove("schema_mapped_from");
    result
}

#[test]
fn a_table_schema_gives_the_result_of_the_contract_it_maps_to() {
    let csv = "id,email,score\n1,a@x.org,5\n1,b@x.org,11\n2,not-mail,\n,c@x.org,3\n";
    let schema = json!({
        "fields": [
            {"name": "id", "type": "integer"},
            {"name": "email", "format": "email", "constraints": {"unique": true}},
            {"name": "score", "type": "number", "constraints": {"minimum": 0, "maximum": 10}},
        ],
        "primaryKey": "id",
    });
    let columns = json!([
        {"name": "id", "type": "integer"},
        {"name": "email", "type": "string", "format": "email", "unique": true},
        {"name": "score", "type": "number", "min": 0, "max": 10},
    ]);
    let mapped = run(&json!({"csv": csv, "schema": schema}));
    let written = run(&json!({"csv": csv, "columns": columns, "table": {"primary_key": "id"}}));
    assert_eq!(mapped["contract"]["schema_mapped_from"], "table_schema");
    assert_eq!(without_origin(mapped), written);
}

#[test]
fn a_json_schema_gives_the_result_of_the_contract_it_maps_to() {
    let rows = json!([{"n": 3, "tag": "xab"}, {"n": "0", "tag": "b"}, {"tag": null}, {"n": 2.5}]);
    let schema = json!({"type": "object", "properties": {"n": {"type": "integer", "exclusiveMinimum": 0}, "tag": {"type": ["string", "null"], "pattern": "ab"}}, "required": ["n"]});
    let columns = json!([
        {"name": "n", "type": "integer", "min": 1, "required": true},
        {"name": "tag", "type": "string", "pattern": "(?s:.*)(?:ab)(?s:.*)"},
    ]);
    let mapped = run(&json!({"rows": rows, "schema": schema}));
    let written = run(&json!({"rows": rows, "columns": columns}));
    assert_eq!(mapped["contract"]["schema_mapped_from"], "json_schema");
    assert_eq!(without_origin(mapped.clone()), written);
    // Row 0 passes; row 1's "0" is below 1 and "b" has no "ab"; row 2 lacks n; row 3's n is not whole.
    let quarantined: Vec<u64> =
        mapped["quarantine"].as_array().unwrap().iter().map(|q| q["locator"]["row_index"].as_u64().unwrap()).collect();
    assert_eq!(quarantined, [1, 2, 3]);
}

#[test]
fn a_schema_may_arrive_as_json_text_and_a_table_adds_rules() {
    let schema = json!({"fields": [{"name": "a"}], "primaryKey": ["a"]}).to_string();
    let result = run(&json!({"rows": [{"a": "x"}], "schema": schema, "table": {"row_count": {"min": 2}}}));
    assert_eq!(result["contract"]["table"], json!({"primary_key": ["a"], "row_count": {"min": 2, "max": null}}));
    assert_eq!(result["verdict"], "table_rejected");

    let err = validate_rows(
        &json!({"rows": [], "schema": {"fields": [{"name": "a"}], "primaryKey": "a"}, "table": {"primary_key": "a"}}),
    )
    .unwrap_err();
    assert_eq!((err.argument.as_deref(), err.location.as_deref()), (Some("table"), Some("table.primary_key")));
}

#[test]
fn exactly_one_of_columns_and_schema() {
    let both = validate_rows(&json!({"rows": [], "columns": [{"name": "a"}], "schema": {"properties": {"a": {}}}}));
    let err = both.unwrap_err();
    assert_eq!(err.code, ErrorCode::ArgumentType);
    assert!(err.message.contains("\"columns\" or \"schema\", not both"), "{}", err.message);
    let neither = validate_rows(&json!({"rows": []})).unwrap_err();
    assert!(neither.message.contains("gives neither"), "{}", neither.message);
    assert_eq!(neither.argument.as_deref(), Some("columns"));
}

#[test]
fn the_parser_s_refusals_are_reported_at_the_schema_keyword() {
    let cases = [
        (json!({"fields": [{"name": "a", "constraints": {"pattern": "(a"}}]}), "schema.fields[0].constraints.pattern"),
        (
            json!({"fields": [{"name": "a", "constraints": {"minLength": 3, "maxLength": 2}}]}),
            "schema.fields[0].constraints.minLength",
        ),
        (json!({"fields": [{"name": "a"}, {"name": "a"}]}), "schema.fields[1].name"),
        (json!({"fields": [{"name": "a"}], "primaryKey": ["a", "b"]}), "schema.primaryKey[1]"),
        (
            json!({"fields": [{"name": "d", "type": "date", "constraints": {"minimum": "2024-1-5"}}]}),
            "schema.fields[0].constraints.minimum",
        ),
        (json!({"properties": {"a": {"enum": []}}}), "schema.properties.a.enum"),
        (json!({"properties": {"a": {"minLength": -1}}}), "schema.properties.a.minLength"),
        (json!({"properties": {"a": {"pattern": "^\\p{Letter}+$"}}}), "schema.properties.a.pattern"),
        (json!({"properties": {" ": {}}}), "schema.properties[\" \"]"),
        (json!({"properties": {"a ": {}}}), "schema.properties[\"a \"]"),
    ];
    for (schema, location) in cases {
        let err = validate_rows(&json!({"rows": [], "schema": schema})).expect_err("refused");
        assert_eq!(err.code, ErrorCode::InvalidContract, "{schema}");
        assert_eq!(err.argument.as_deref(), Some("schema"), "{schema}");
        assert_eq!(err.location.as_deref(), Some(location), "{schema}: {}", err.message);
        assert!(err.message.starts_with(location), "{}", err.message);
    }
}

#[test]
fn a_pydantic_optional_field_is_its_type_or_null() {
    // pydantic's model_json_schema() of
    // `class Customer(BaseModel): id: int; email: EmailStr | None = None`
    // (EmailStr written as format email).
    let schema = json!({
        "properties": {
            "id": {"title": "Id", "type": "integer"},
            "email": {"anyOf": [{"type": "string", "format": "email"}, {"type": "null"}], "default": null, "title": "Email"},
        },
        "required": ["id", "email"],
        "title": "Customer",
        "type": "object",
    });
    let rows = json!([{"id": 1, "email": null}, {"id": 2, "email": "bad"}, {"id": 3, "email": "a@b.org"}]);
    let result = run(&json!({"rows": rows, "schema": schema}));
    // A null email passes (the field admits null, so "required" cannot make
    // it non-blank); "bad" is no email address.
    let codes: Vec<(u64, &str)> = result["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["locator"]["row_index"].as_u64().unwrap(), f["code"].as_str().unwrap()))
        .collect();
    assert_eq!(codes, [(1, "invalid_format")]);
    let email = &result["contract"]["columns"][1];
    assert_eq!((email["type"].as_str(), email["required"].as_bool()), (Some("string"), Some(false)));
    // Any other anyOf is still refused at the keyword.
    let union = json!({"type": "object", "properties": {"v": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}});
    let err = validate_rows(&json!({"rows": [], "schema": union})).expect_err("an anyOf union is refused");
    assert_eq!(err.code, ErrorCode::InvalidContract);
    assert_eq!(err.location.as_deref(), Some("schema.properties.v.anyOf"), "{}", err.message);
}
