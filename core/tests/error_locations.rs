//! Where an argument error is: its stable code, the argument, and the
//! location inside the call (`columns[1].pattern`), so a program (or the
//! playground) can point at the fault without reading the message.
//!
//! Each expected location is read off the call the test makes: indexes count
//! from 0, as in the JSON.

use serde_json::{json, Value};
use validation_core::{call_tool_owned, ErrorCode, ToolError};

fn error_of(tool: &str, args: Value) -> ToolError {
    call_tool_owned(tool, args).expect_err("a malformed call")
}

fn contract_error(columns: &Value) -> ToolError {
    let err = error_of("validate_rows", json!({"rows": [], "columns": columns}));
    assert_eq!(err.code, ErrorCode::InvalidContract, "{}", err.message);
    assert_eq!(err.argument.as_deref(), Some("columns"));
    err
}

#[test]
fn a_fault_in_a_contract_is_located_at_its_column_and_key() {
    let cases = [
        (json!([]), "columns"),
        (json!([{"name": "a"}, 5]), "columns[1]"),
        (json!([{"name": "a", "typo": 1}]), "columns[0].typo"),
        (json!([{"name": " "}]), "columns[0].name"),
        (json!([{"name": "a"}, {"name": "b", "type": "decimal"}]), "columns[1].type"),
        (json!([{"name": "a", "on_fail": "drop"}]), "columns[0].on_fail"),
        (json!([{"name": "a", "required": "yes"}]), "columns[0].required"),
        (json!([{"name": "a", "not_blank": 1}]), "columns[0].not_blank"),
        (json!([{"name": "a", "min": "0"}]), "columns[0].min"),
        (json!([{"name": "a", "max": null}]), "columns[0].max"),
        (json!([{"name": "a", "range": [5, 1]}]), "columns[0].range"),
        (json!([{"name": "a"}, {"name": "b"}, {"name": "c", "pattern": "("}]), "columns[2].pattern"),
        (json!([{"name": "a", "pattern": "(?=x)"}]), "columns[0].pattern"),
        (json!([{"name": "a", "allowed": []}]), "columns[0].allowed"),
        // The second "a" is the repeat.
        (json!([{"name": "a"}, {"name": "b"}, {"name": "a"}]), "columns[2].name"),
    ];
    for (columns, location) in cases {
        let err = contract_error(&columns);
        assert_eq!(err.location.as_deref(), Some(location), "{columns}: {}", err.message);
        assert_eq!(err.line, None);
    }
}

#[test]
fn a_fault_in_csv_text_names_its_line() {
    // Header on line 1, a good record on line 2, an unclosed quote from line 3.
    let err = error_of("count_distinct", json!({"csv": "id\n1\n\"2\n3\n", "key": "id"}));
    assert_eq!(err.code, ErrorCode::InvalidArgument);
    assert_eq!((err.location.as_deref(), err.line), (Some("csv"), Some(3)), "{}", err.message);
    // A repeated header name is on line 1.
    let err = error_of("count_distinct", json!({"csv": "id,id\n1,2\n", "key": "id"}));
    assert_eq!((err.location.as_deref(), err.line), (Some("csv"), Some(1)), "{}", err.message);
}

#[test]
fn a_wrongly_typed_argument_is_located_and_described_in_json_terms() {
    let err = error_of("count_distinct", json!({"rows": [], "key": 5}));
    assert_eq!(err.code, ErrorCode::ArgumentType);
    assert_eq!((err.argument.as_deref(), err.location.as_deref()), (Some("key"), Some("key")));
    // Our own wording, read by JavaScript callers too: JSON kinds, not Python's.
    assert!(err.message.contains("got a number 5"), "{}", err.message);
    let err = error_of("count_distinct", json!({"rows": {"a": 1}, "key": "id"}));
    assert_eq!(err.location.as_deref(), Some("rows"));
    assert!(err.message.contains("got an object {\"a\":1}"), "{}", err.message);
    let err = error_of("count_distinct", json!({"rows": null, "key": "id"}));
    assert!(err.message.contains("got null"), "{}", err.message);
    for python in ["NoneType", "dict", "int", "str"] {
        assert!(!err.message.contains(python), "{}", err.message);
    }
}

#[test]
fn a_fault_not_in_one_place_has_no_location() {
    let err = error_of("no_such_tool", json!({}));
    assert_eq!((err.code, err.location), (ErrorCode::UnknownTool, None));
    let err = error_of("validate_rows", json!([1, 2]));
    assert_eq!((err.code, err.location), (ErrorCode::ArgumentType, None));
}
