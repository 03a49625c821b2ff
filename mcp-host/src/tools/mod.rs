//! What `tools/list` says: names, titles, descriptions, schemas, annotations.
//!
//! Names, argument names, defaults and input schemas are the reference's
//! (mcp-validation-server 0.1.0), so a host configured for it sees the same
//! tools. The descriptions are the reference's docstrings, dedented, with the
//! Python-only "Raises: `ToolError`" wording said in MCP terms. Additions: a
//! `title`, the four behaviour annotations, and an output schema that
//! describes the shared envelope instead of "any object".
//!
//! Input schemas stay portable: no top-level `anyOf`/`oneOf`/`allOf`, no
//! `$ref`; a nullable argument is an `anyOf` inside its own property, as in
//! the reference. Row content is deliberately unconstrained (`items: {}`):
//! an unusable row is a finding with a locator, not a protocol error.

use std::sync::{Arc, OnceLock};

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use serde_json::{json, Value};

/// One tool as this server publishes it.
struct Spec {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    input_schema: fn() -> Value,
    /// Every `verdict` the tool can return.
    verdicts: &'static [&'static str],
}

const SPECS: [Spec; 4] = [
    Spec {
        name: "validate_rows",
        title: "Validate rows against a column contract",
        description: include_str!("descriptions/validate_rows.md"),
        input_schema: validate_rows_schema,
        verdicts: &["clean", "flagged", "quarantined", "inputs_rejected"],
    },
    Spec {
        name: "reconcile",
        title: "Reconcile opening + movements = closing",
        description: include_str!("descriptions/reconcile.md"),
        input_schema: reconcile_schema,
        verdicts: &["clean", "does_not_close", "inputs_rejected"],
    },
    Spec {
        name: "count_distinct",
        title: "Count distinct entities on a key",
        description: include_str!("descriptions/count_distinct.md"),
        input_schema: count_distinct_schema,
        verdicts: &["clean", "review_required", "inputs_rejected"],
    },
    Spec {
        name: "duplicate_report",
        title: "Report suspected duplicates for review",
        description: include_str!("descriptions/duplicate_report.md"),
        input_schema: duplicate_report_schema,
        verdicts: &["clean", "review_required", "inputs_rejected"],
    },
];

/// The tool names, in the reference's order.
pub fn names() -> impl Iterator<Item = &'static str> {
    SPECS.iter().map(|spec| spec.name)
}

/// Whether `name` is one of this server's tools.
pub fn is_tool(name: &str) -> bool {
    names().any(|known| known == name)
}

/// The `tools/list` entries, built once.
pub fn list() -> &'static [Tool] {
    static TOOLS: OnceLock<Vec<Tool>> = OnceLock::new();
    TOOLS.get_or_init(|| SPECS.iter().map(tool).collect())
}

fn tool(spec: &Spec) -> Tool {
    // The annotations' own `title` repeats the tool's, for clients that
    // still read the older location.
    let annotations =
        ToolAnnotations::with_title(spec.title).read_only(true).destructive(false).idempotent(true).open_world(false);
    Tool::new(spec.name, spec.description.trim_end(), object((spec.input_schema)()))
        .with_title(spec.title)
        .with_raw_output_schema(object(output_schema(spec)))
        .with_annotations(annotations)
}

fn object(value: Value) -> Arc<JsonObject> {
    match value {
        Value::Object(map) => Arc::new(map),
        _ => unreachable!("every schema here is written as an object"),
    }
}

/// `rows: list[Any]` in the reference: an array whose items are anything.
fn rows_property() -> Value {
    json!({"items": {}, "title": "Rows", "type": "array"})
}

/// The data and listing arguments this server adds to every row-taking tool,
/// after the reference's own. `rows` stops being required, since `csv` or
/// `path` can stand in for it (the module insists on exactly one of them).
fn with_large_data_arguments(mut schema: Value) -> Value {
    let properties = schema["properties"].as_object_mut().expect("a properties object");
    properties.insert(
        "csv".into(),
        json!({"type": "string", "title": "Csv",
               "description": "The data as CSV text with a header row (RFC 4180), instead of `rows`. Values arrive as strings; locators add the CSV `line`."}),
    );
    properties.insert(
        "path".into(),
        json!({"type": "string", "title": "Path",
               "description": "A .csv, .json (array of rows) or .jsonl file to read instead of `rows`, under a directory the server was started with (--data-root). Refused when the server allows no files or the path leads outside them."}),
    );
    properties.insert(
        "max_listed".into(),
        json!({"type": "integer", "minimum": 0, "title": "Max Listed",
               "description": "At most this many entries in each list of the result (the server's default applies when omitted). Counts, tallies and verdicts always cover every row; a shortened list is followed by `<list>_omitted`."}),
    );
    let required = schema["required"].as_array_mut().expect("a required array");
    required.retain(|name| name != "rows");
    schema
}

fn validate_rows_schema() -> Value {
    with_large_data_arguments(json!({
        "properties": {
            "rows": rows_property(),
            "columns": {"items": {}, "title": "Columns", "type": "array"},
            "row_key": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null, "title": "Row Key"},
        },
        "required": ["rows", "columns"],
        "type": "object",
        "title": "validate_rowsArguments",
    }))
}

fn reconcile_schema() -> Value {
    json!({
        "properties": {
            "opening_balance": {"title": "Opening Balance"},
            "movements": {"title": "Movements"},
            "closing_balance": {"title": "Closing Balance"},
            "tolerance": {"default": 0.01, "title": "Tolerance", "type": "number"},
        },
        "required": ["opening_balance", "movements", "closing_balance"],
        "type": "object",
        "title": "reconcileArguments",
    })
}

fn count_distinct_schema() -> Value {
    with_large_data_arguments(json!({
        "properties": {
            "rows": rows_property(),
            "key": {"title": "Key", "type": "string"},
            "case_sensitive": {"default": false, "title": "Case Sensitive", "type": "boolean"},
        },
        "required": ["rows", "key"],
        "type": "object",
        "title": "count_distinctArguments",
    }))
}

fn duplicate_report_schema() -> Value {
    with_large_data_arguments(json!({
        "properties": {
            "rows": rows_property(),
            "key": {"title": "Key", "type": "string"},
            "match_fields": {
                "anyOf": [{"items": {"type": "string"}, "type": "array"}, {"type": "null"}],
                "default": null,
                "title": "Match Fields",
            },
            "similarity_threshold": {
                "anyOf": [{"type": "number"}, {"type": "null"}],
                "default": null,
                "title": "Similarity Threshold",
            },
            "case_sensitive": {"default": false, "title": "Case Sensitive", "type": "boolean"},
            "max_groups": {"default": 50, "title": "Max Groups", "type": "integer"},
        },
        "required": ["rows", "key"],
        "type": "object",
        "title": "duplicate_reportArguments",
    }))
}

/// The envelope every tool returns, with the tool's own fields left open
/// (`additionalProperties: true`): each tool adds its own, described in its
/// description. Clients validate `structuredContent` against this, so it
/// states only what holds for every result, rejection envelopes included.
fn output_schema(spec: &Spec) -> Value {
    json!({
        "type": "object",
        "title": format!("{}Result", spec.name),
        "properties": {
            "tool": {"type": "string", "const": spec.name, "description": "The tool that produced this result."},
            "ok": {"type": "boolean", "description": "True only when the data has nothing wrong with it. The one field to branch on."},
            "verdict": {"type": "string", "enum": spec.verdicts, "description": "The outcome in one word."},
            "finding_count": {"type": "integer", "minimum": 0, "description": "How many entries `findings` has."},
            "findings": {
                "type": "array",
                "description": "One entry per problem, with a stable code, a message and (usually) a locator.",
                "items": {
                    "type": "object",
                    "properties": {
                        "code": {"type": "string"},
                        "severity": {"type": "string", "enum": ["error", "warning", "info"]},
                        "message": {"type": "string"},
                        "locator": {"type": "object"},
                    },
                    "required": ["code", "severity", "message"],
                    "additionalProperties": true,
                },
            },
            "guidance": {"type": "string", "description": "Plain English: what to do next."},
        },
        "required": ["tool", "ok", "verdict", "finding_count", "findings", "guidance"],
        "additionalProperties": true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contains_key(value: &Value, key: &str) -> bool {
        match value {
            Value::Object(map) => map.contains_key(key) || map.values().any(|v| contains_key(v, key)),
            Value::Array(items) => items.iter().any(|v| contains_key(v, key)),
            _ => false,
        }
    }

    #[test]
    fn the_four_tools_in_the_reference_order() {
        assert_eq!(names().collect::<Vec<_>>(), ["validate_rows", "reconcile", "count_distinct", "duplicate_report"]);
    }

    #[test]
    fn input_schemas_are_portable() {
        for tool in list() {
            let schema = Value::Object((*tool.input_schema).clone());
            assert_eq!(schema["type"], "object", "{}", tool.name);
            for key in ["anyOf", "oneOf", "allOf", "not", "if"] {
                assert!(!tool.input_schema.contains_key(key), "{}: top-level {key}", tool.name);
            }
            assert!(!contains_key(&schema, "$ref") && !contains_key(&schema, "$defs"), "{}", tool.name);
        }
    }

    #[test]
    fn every_tool_is_annotated_read_only_idempotent_closed_world() {
        for tool in list() {
            let a = tool.annotations.as_ref().unwrap();
            assert_eq!(
                (a.read_only_hint, a.destructive_hint, a.idempotent_hint, a.open_world_hint),
                (Some(true), Some(false), Some(true), Some(false)),
                "{}",
                tool.name
            );
            assert!(tool.title.as_deref().is_some_and(|t| !t.is_empty()));
            let output = tool.output_schema.as_ref().unwrap();
            assert_eq!(output["type"], "object");
        }
    }

    #[test]
    fn descriptions_say_how_to_read_the_result() {
        for tool in list() {
            let description = tool.description.as_deref().unwrap();
            assert!(description.contains("Args:") && description.contains("Returns:"), "{}", tool.name);
            assert!(!description.contains("ToolError"), "{}", tool.name);
            assert!(!description.starts_with(' '), "{}", tool.name);
        }
    }
}
