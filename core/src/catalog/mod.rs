//! The tool catalog: what each check is called, what it says about itself,
//! which arguments it takes and what it can answer. The one source for every
//! consumer: the MCP server's `tools/list` (a committed copy,
//! `mcp-host/src/tools/catalog.json`, held to this by a host test), the npm
//! package's `toolCatalog()` and TypeScript declarations, and the playground's
//! forms (both checked against it by the npm tests).
//!
//! Names, argument names, defaults and input schemas are the reference's
//! (mcp-validation-server 0.1.0), so a host configured for it sees the same
//! tools. The descriptions are the reference's docstrings, dedented, with the
//! Python-only "Raises: `ToolError`" wording said in MCP terms. Additions: a
//! `title`, the four behaviour annotations, an output schema that describes
//! the shared envelope instead of "any object", and the row tools' `csv`,
//! `path` and `max_listed`.
//!
//! The parts no MCP client sees (`server_only_arguments`, `omitted_counts`,
//! `column_spec`) describe the same calls for the JS API and the playground.
//! Tests in this module hold the catalog to what the argument reader
//! (`crate::args`) and the checks actually do.

mod column_spec;
mod input_schemas;
mod output_schema;

use serde_json::{json, Value};

/// One tool as the catalog describes it.
struct ToolSpec {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    input_schema: fn() -> Value,
    /// Every `verdict` the tool can return.
    verdicts: &'static [&'static str],
    /// The `<list>_omitted` counts a shortened result can carry, as paths
    /// (`groups[].members_omitted` is a count inside each entry of `groups`).
    omitted_counts: &'static [&'static str],
}

/// Arguments only the MCP server accepts: the module has no files, so `path`
/// is resolved by the host before a call reaches the core.
const SERVER_ONLY_ARGUMENTS: [&str; 1] = ["path"];

const TOOLS: [ToolSpec; 4] = [
    ToolSpec {
        name: "validate_rows",
        title: "Validate rows against a column contract",
        description: include_str!("descriptions/validate_rows.md"),
        input_schema: input_schemas::validate_rows,
        verdicts: &["clean", "flagged", "quarantined", "table_rejected", "inputs_rejected"],
        omitted_counts: &["findings_omitted", "accepted_omitted", "quarantine_omitted", "flagged_omitted"],
    },
    ToolSpec {
        name: "reconcile",
        title: "Reconcile opening + movements = closing",
        description: include_str!("descriptions/reconcile.md"),
        input_schema: input_schemas::reconcile,
        verdicts: &["clean", "does_not_close", "inputs_rejected"],
        omitted_counts: &[],
    },
    ToolSpec {
        name: "count_distinct",
        title: "Count distinct entities on a key",
        description: include_str!("descriptions/count_distinct.md"),
        input_schema: input_schemas::count_distinct,
        verdicts: &["clean", "review_required", "inputs_rejected"],
        omitted_counts: &[
            "findings_omitted",
            "blank_key_rows_omitted",
            "repeated_keys_omitted",
            "repeated_keys[].row_indexes_omitted",
        ],
    },
    ToolSpec {
        name: "duplicate_report",
        title: "Report suspected duplicates for review",
        description: include_str!("descriptions/duplicate_report.md"),
        input_schema: input_schemas::duplicate_report,
        verdicts: &["clean", "review_required", "inputs_rejected"],
        omitted_counts: &["findings_omitted", "blank_key_rows_omitted", "groups_omitted", "groups[].members_omitted"],
    },
];

/// The catalog as one JSON object:
///
/// ```text
/// {"tools": [{"name", "title", "description", "input_schema", "output_schema",
///             "annotations": {"read_only_hint", "destructive_hint", "idempotent_hint", "open_world_hint"},
///             "verdicts", "server_only_arguments", "omitted_counts"}, ...],
///  "column_spec": <JSON Schema of one validate_rows column spec>}
/// ```
///
/// Tools are in the reference's order. `input_schema` and `output_schema` are
/// exactly what the MCP server publishes.
pub fn tool_catalog() -> Value {
    let tools: Vec<Value> = TOOLS.iter().map(tool_entry).collect();
    json!({"tools": tools, "column_spec": column_spec::schema()})
}

/// [`tool_catalog`] as indented JSON text with a final newline: the form the
/// MCP server's committed copy has, so a change to it reads as a diff.
pub fn tool_catalog_json() -> String {
    let mut text = serde_json::to_string_pretty(&tool_catalog()).unwrap_or_default();
    text.push('\n');
    text
}

fn tool_entry(spec: &ToolSpec) -> Value {
    let input_schema = (spec.input_schema)();
    let server_only: Vec<&str> =
        SERVER_ONLY_ARGUMENTS.into_iter().filter(|name| input_schema["properties"].get(*name).is_some()).collect();
    json!({
        "name": spec.name,
        "title": spec.title,
        "description": spec.description.trim_end(),
        "input_schema": input_schema,
        "output_schema": output_schema::schema(spec.name, spec.verdicts),
        // Every check only reads its arguments and answers the same way twice.
        "annotations": {"read_only_hint": true, "destructive_hint": false, "idempotent_hint": true, "open_world_hint": false},
        "verdicts": spec.verdicts,
        "server_only_arguments": server_only,
        "omitted_counts": spec.omitted_counts,
    })
}

#[cfg(test)]
mod tests;
