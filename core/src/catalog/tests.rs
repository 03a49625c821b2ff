//! The catalog against what the core really does: the arguments each check
//! reads, which of them it requires, its defaults, and the `_omitted` counts
//! its results carry.

use std::collections::BTreeSet;
use std::fmt::Write;

use serde_json::{json, Value};

use super::tool_catalog;
use crate::args::asked;

/// The catalog entry of `name`.
fn entry(name: &str) -> Value {
    let catalog = tool_catalog();
    catalog["tools"].as_array().unwrap().iter().find(|tool| tool["name"] == name).cloned().unwrap()
}

fn property_names(tool: &Value) -> BTreeSet<String> {
    tool["input_schema"]["properties"].as_object().unwrap().keys().cloned().collect()
}

/// A call each check accepts.
fn minimal_call(name: &str) -> Value {
    match name {
        "validate_rows" => json!({"rows": [{"a": "1"}], "columns": [{"name": "a"}]}),
        "reconcile" => json!({"opening_balance": 0, "movements": [1], "closing_balance": 1}),
        "count_distinct" | "duplicate_report" => json!({"rows": [{"k": "a"}, {"k": "a"}], "key": "k"}),
        "inspect_dataset" => json!({"rows": [{"a": "1"}]}),
        other => panic!("no minimal call for {other}"),
    }
}

#[test]
fn the_tools_are_the_core_s_the_reference_s_four_first() {
    let catalog = tool_catalog();
    let names: Vec<&str> = catalog["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, crate::TOOL_NAMES);
}

#[test]
fn each_schema_names_exactly_the_arguments_its_check_reads() {
    for name in crate::TOOL_NAMES {
        asked::take();
        crate::call_tool(name, &minimal_call(name)).unwrap();
        let read: BTreeSet<String> = asked::take().into_iter().collect();
        assert_eq!(read, property_names(&entry(name)), "{name}: arguments read vs published");
    }
}

#[test]
fn required_arguments_are_those_a_call_cannot_leave_out() {
    for name in crate::TOOL_NAMES {
        let err = crate::call_tool(name, &json!({})).unwrap_err();
        let tool = entry(name);
        let mut expected: BTreeSet<String> = tool["input_schema"]["required"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap().to_owned())
            .collect();
        // With no data argument at all, the reader reports `rows` missing, as
        // the reference does; the schema leaves it optional because `csv` or
        // `path` can stand in for it.
        if property_names(&tool).contains("csv") {
            expected.insert("rows".into());
        }
        let missing: BTreeSet<String> = property_names(&tool)
            .into_iter()
            .filter(|arg| err.message.contains(&format!("missing required argument \"{arg}\"")))
            .collect();
        assert_eq!(missing, expected, "{name}: {}", err.message);
    }
}

/// A call whose result changes with every defaulted argument: `row_key` and
/// `tolerance` are echoed, the keys differ only in case, and there are 51
/// duplicate groups (one more than `max_groups`' default lists).
fn call_sensitive_to_defaults(name: &str) -> Value {
    let pairs: Vec<Value> =
        (0..51).flat_map(|i| [json!({"k": format!("K{i}")}), json!({"k": format!("k{i}")})]).collect();
    match name {
        "validate_rows" => json!({"rows": [{"a": "1"}], "columns": [{"name": "a"}]}),
        "reconcile" => json!({"opening_balance": 0, "movements": [1], "closing_balance": 1}),
        "count_distinct" => json!({"rows": [{"k": "A"}, {"k": "a"}], "key": "k"}),
        "duplicate_report" => json!({"rows": pairs, "key": "k"}),
        "inspect_dataset" => json!({"rows": [{"a": "1"}]}),
        other => panic!("no call for {other}"),
    }
}

#[test]
fn a_published_default_is_what_leaving_the_argument_out_means() {
    for name in crate::TOOL_NAMES {
        let tool = entry(name);
        for (arg, schema) in tool["input_schema"]["properties"].as_object().unwrap() {
            let Some(default) = schema.get("default") else { continue };
            let mut call = call_sensitive_to_defaults(name);
            let without = crate::call_tool(name, &call).unwrap();
            call[arg] = default.clone();
            assert_eq!(crate::call_tool(name, &call).unwrap(), without, "{name}.{arg} = {default}");
        }
    }
}

/// Every `<list>_omitted` key in a result, as a path (`groups[].members_omitted`).
fn omitted_paths(value: &Value, prefix: &str, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            for (key, item) in map {
                if key.ends_with("_omitted") {
                    out.insert(format!("{prefix}{key}"));
                }
                omitted_paths(item, &format!("{prefix}{key}."), out);
            }
        }
        Value::Array(items) => {
            let prefix = format!("{}[].", prefix.trim_end_matches('.'));
            for item in items {
                omitted_paths(item, &prefix, out);
            }
        }
        _ => {}
    }
}

/// Two CSVs that between them overfill every list of `inspect_dataset` at
/// `max_listed` 1 (repeated rows leave no column distinct, so no key, hence
/// two): two ragged records, two repeated rows and, in `n` (the first column,
/// as only listed profiles list exceptions), 2 exceptions among integers; then two key candidates (`id`, `code`).
fn overfilled_csvs() -> [String; 2] {
    let mut first = String::from("n,id\n");
    for i in 0..20 {
        let _ = writeln!(first, "{i},{i}");
    }
    first.push_str("x,20\ny,21\n1,22,extra\n23\n0,24\n0,24\n0,24\n");
    let mut second = String::from("id,code\n");
    for i in 0..12 {
        let _ = writeln!(second, "{i},C-{i:02}");
    }
    [first, second]
}

#[test]
fn the_omitted_counts_are_those_a_shortened_result_carries() {
    // Data that overfills every list at max_listed 1: three rows on one key,
    // two on another, two blank keys; every outcome of validate_rows twice.
    let keyed = json!([{"k": "a"}, {"k": "a"}, {"k": "a"}, {"k": "b"}, {"k": "b"}, {"k": ""}, {"k": ""}]);
    let calls = [
        (
            "validate_rows",
            json!({"rows": [{"a": "1", "b": "y"}, {"a": "1", "b": "y"}, {"a": "x", "b": "y"}, {"a": "x", "b": "y"}, {"a": "1"}, {"a": "1"}],
                   "columns": [{"name": "a", "type": "integer"}, {"name": "b", "required": true, "on_fail": "flag"}],
                   "max_listed": 1}),
        ),
        (
            "reconcile",
            json!({"opening_balance": 0, "movements": [1, 2, "x", "y"], "closing_balance": 5, "max_listed": 1}),
        ),
        ("count_distinct", json!({"rows": keyed, "key": "k", "max_listed": 1})),
        ("duplicate_report", json!({"rows": keyed, "key": "k", "max_listed": 1})),
        ("inspect_dataset", json!({"csv": overfilled_csvs()[0], "max_listed": 1})),
        ("inspect_dataset", json!({"csv": overfilled_csvs()[1], "max_listed": 1})),
    ];
    // A tool's calls between them carry every count it lists.
    let mut seen: std::collections::BTreeMap<&str, BTreeSet<String>> = std::collections::BTreeMap::new();
    for (name, call) in calls {
        let result = crate::call_tool(name, &call).unwrap();
        omitted_paths(&result, "", seen.entry(name).or_default());
    }
    for (name, seen) in seen {
        let listed: BTreeSet<String> =
            entry(name)["omitted_counts"].as_array().unwrap().iter().map(|p| p.as_str().unwrap().to_owned()).collect();
        assert_eq!(seen, listed, "{name}");
    }
}

#[test]
fn server_only_arguments_are_refused_by_the_core() {
    for name in crate::TOOL_NAMES {
        let tool = entry(name);
        for arg in tool["server_only_arguments"].as_array().unwrap() {
            let mut call = minimal_call(name);
            call.as_object_mut().unwrap().remove("rows");
            call[arg.as_str().unwrap()] = json!("data.csv");
            let err = crate::call_tool(name, &call).unwrap_err();
            assert_eq!(err.argument.as_deref(), arg.as_str(), "{name}: {}", err.message);
        }
    }
}

#[test]
fn the_column_spec_enums_are_what_the_contract_parser_accepts() {
    let catalog = tool_catalog();
    let spec = &catalog["column_spec"]["properties"];
    for key in ["type", "on_fail"] {
        for value in spec[key]["enum"].as_array().unwrap() {
            let call = json!({"rows": [], "columns": [{"name": "a", key: value}]});
            assert!(crate::validate_rows(&call).is_ok(), "{key} = {value}");
        }
        let call = json!({"rows": [], "columns": [{"name": "a", key: "not-a-listed-value"}]});
        assert!(crate::validate_rows(&call).is_err(), "{key}: an unlisted value is refused");
    }
    let keys: Vec<&String> = spec.as_object().unwrap().keys().collect();
    let call = json!({"rows": [], "columns": [{"name": "a", "nme": "b"}]});
    let err = crate::validate_rows(&call).unwrap_err();
    assert!(err.message.contains(&keys.iter().map(|k| k.as_str()).collect::<Vec<_>>().join(", ")), "{}", err.message);
}

#[test]
fn input_schemas_are_portable() {
    fn contains_key(value: &Value, key: &str) -> bool {
        match value {
            Value::Object(map) => map.contains_key(key) || map.values().any(|v| contains_key(v, key)),
            Value::Array(items) => items.iter().any(|v| contains_key(v, key)),
            _ => false,
        }
    }
    for tool in tool_catalog()["tools"].as_array().unwrap() {
        let schema = &tool["input_schema"];
        assert_eq!(schema["type"], "object", "{}", tool["name"]);
        for key in ["anyOf", "oneOf", "allOf", "not", "if"] {
            assert!(schema.get(key).is_none(), "{}: top-level {key}", tool["name"]);
        }
        assert!(!contains_key(schema, "$ref") && !contains_key(schema, "$defs"), "{}", tool["name"]);
    }
}

#[test]
fn descriptions_say_how_to_read_the_result() {
    for tool in tool_catalog()["tools"].as_array().unwrap() {
        let description = tool["description"].as_str().unwrap();
        assert!(description.contains("Args:") && description.contains("Returns:"), "{}", tool["name"]);
        assert!(!description.contains("ToolError"), "{}", tool["name"]);
        assert!(!description.starts_with(' ') && !description.ends_with('\n'), "{}", tool["name"]);
    }
}
