//! Each tool's input schema, as `tools/list` publishes it.
//!
//! Portable on purpose: no top-level `anyOf`/`oneOf`/`allOf`, no `$ref`; a
//! nullable argument is an `anyOf` inside its own property, as in the
//! reference. Row content is deliberately unconstrained (`items: {}`): an
//! unusable row is a finding with a locator, not a protocol error.
//!
//! The row tools' additions come after the reference's arguments: `csv`,
//! `path` and `max_listed` (the data and the cap, common to every row-taking
//! tool), then `lists` and `page` (each naming that tool's own lists).

use serde_json::{json, Value};

use crate::listing::{self, ToolLists, DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT};

/// `rows: list[Any]` in the reference: an array whose items are anything.
fn rows_property() -> Value {
    json!({"items": {}, "title": "Rows", "type": "array"})
}

/// The data and listing arguments added to every row-taking tool, after the
/// reference's own. `rows` stops being required, since `csv` or `path` can
/// stand in for it (the argument reader insists on exactly one of them).
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
    properties.insert("max_listed".into(), max_listed_property("row"));
    let required = schema["required"].as_array_mut().expect("a required array");
    required.retain(|name| name != "rows");
    schema
}

/// The arguments that choose what a row tool's result lists (issue 16),
/// added after the large-data ones: `lists` (which lists to fill) and `page`
/// (one window of one list), each naming exactly the lists of this tool.
fn with_listing_arguments(mut schema: Value, lists: &ToolLists) -> Value {
    let example = lists.example;
    let properties = schema["properties"].as_object_mut().expect("a properties object");
    properties.insert(
        "lists".into(),
        json!({"type": "array", "items": {"type": "string", "enum": lists.lists}, "title": "Lists",
               "description": format!("Which lists of the result to fill (default: all of them). A list not named stays in the result, empty, followed by `<list>_omitted` with its whole length; counts, summaries, tallies, verdicts and guidance still cover every row. `findings` holds the findings about single rows (or keys, or groups), which their entries in the other lists repeat; the findings about the input as a whole are listed either way. Example: [\"{example}\"].")}),
    );
    properties.insert(
        "page".into(),
        json!({"type": "object", "title": "Page",
               "description": format!("One window of one list, in the list's order: {{\"list\": \"{example}\", \"offset\": 0, \"limit\": 100}} (limit 1 to {MAX_PAGE_LIMIT}, default {DEFAULT_PAGE_LIMIT}; offset default 0). For that list it replaces max_listed; without `lists`, only that list is filled. The result's `page` gives the list's `total` and `next_page`, the argument that asks for the next page (null after the last). The checks are deterministic, so the pages of one input fit together: each entry on exactly one page. Entries outside the page are counted, not listed."),
               "properties": {
                   "list": {"type": "string", "enum": lists.pageable},
                   "offset": {"type": "integer", "minimum": 0, "default": 0},
                   "limit": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE_LIMIT, "default": DEFAULT_PAGE_LIMIT},
               },
               "required": ["list"],
               "additionalProperties": false}),
    );
    schema
}

/// `validate_rows`'s `table` (contract v2): rules about the whole table.
fn table_property() -> Value {
    json!({
        "type": "object",
        "title": "Table",
        "description": "Rules about the table as a whole (contract v2). primary_key: a column or columns whose combination must be non-blank and unique (its columns become required). row_count: {min?, max?}. columns: \"exact\" makes an undeclared column, or a declared one absent from the data, a finding. max_quarantined_fraction: a tolerance (0 to 1) whose outcome the summary states (within_tolerance); ok still means no row was quarantined.",
        "properties": {
            "primary_key": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}, "minItems": 1}]},
            "row_count": {"type": "object", "properties": {"min": {"type": "integer", "minimum": 0}, "max": {"type": "integer", "minimum": 0}}, "additionalProperties": false},
            "columns": {"type": "string", "enum": ["exact"]},
            "max_quarantined_fraction": {"type": "number", "minimum": 0, "maximum": 1},
        },
        "additionalProperties": false,
    })
}

/// `validate_rows`'s `row_rules` (contract v2): checks across the columns of a row.
fn row_rules_property() -> Value {
    json!({
        "type": "array",
        "title": "Row Rules",
        "description": "Named checks across the columns of one row (contract v2), each an expression in a CEL subset over the contract's columns, typed as they are declared: {\"name\": \"ends_after_start\", \"check\": \"end_date >= start_date\"}, with an optional \"when\" condition (\"country in ['DE', 'FR']\") and on_fail. A row whose check is false where its condition holds is row_rule_failed; one the rule cannot be evaluated on (a cell it reads is blank: test it with has(row.x)) is row_rule_not_evaluable. A bad expression is an argument error giving the position.",
        "items": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "check": {"type": "string"},
                "when": {"type": "string"},
                "on_fail": {"type": "string", "enum": crate::contract::ON_FAIL},
                "description": {"type": "string"},
            },
            "required": ["name", "check"],
            "additionalProperties": false,
        },
    })
}

/// `validate_rows`'s `schema`: a standard contract instead of `columns`.
fn schema_property() -> Value {
    json!({
        "type": "object",
        "title": "Schema",
        "description": "The contract as a standard schema, instead of `columns` (give exactly one): a Frictionless Table Schema ({fields: [...], primaryKey?}) or a JSON Schema of one row ({type: \"object\", properties: {...}, required?}). It is mapped onto columns (and table rules) with the same meaning; a keyword that cannot be mapped is an argument error naming it. The result's contract shows what it became, and schema_mapped_from which standard it was read as.",
    })
}

pub(super) fn validate_rows() -> Value {
    let schema = with_large_data_arguments(json!({
        "properties": {
            "rows": rows_property(),
            "columns": {"items": {}, "title": "Columns", "type": "array"},
            "schema": schema_property(),
            "row_key": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null, "title": "Row Key"},
            "table": table_property(),
            "row_rules": row_rules_property(),
            "export": export_property(),
        },
        "required": ["rows"],
        "type": "object",
        "title": "validate_rowsArguments",
    }));
    with_listing_arguments(schema, &listing::VALIDATE_ROWS)
}

/// `validate_rows`'s `export` (issue 16): the whole split as files, written
/// by an MCP server whose operator allows it.
fn export_property() -> Value {
    json!({
        "type": "object",
        "title": "Export",
        "description": "Write the whole split as files, whatever the result lists: {\"dir\": \"runs/today\"} (a directory under one the MCP server was started with, --output-root; created if absent). CSV input gives accepted.csv (the accepted records as read, under the header) and quarantine.csv (_row_index, _line, _reasons, then the record); JSON input gives accepted.jsonl and quarantine.jsonl (each line an entry as the result's lists hold it); both give findings.jsonl (every finding). Files are written atomically and never replace existing ones unless overwrite is true. The result's `export.files` names each file with its rows, bytes and sha256. Refused (isError) where no files may be written: a server without --output-root, or the npm package.",
        "properties": {
            "dir": {"type": "string", "minLength": 1},
            "overwrite": {"type": "boolean", "default": false},
        },
        "required": ["dir"],
        "additionalProperties": false,
    })
}

/// `max_listed`: the list cap, for a check whose input is counted in `items`.
fn max_listed_property(item: &str) -> Value {
    json!({"type": "integer", "minimum": 0, "title": "Max Listed",
           "description": format!("At most this many entries in each list of the result (the server's default applies when omitted). Counts, tallies and verdicts always cover every {item}; a shortened list is followed by `<list>_omitted`.")})
}

pub(super) fn reconcile() -> Value {
    let mut schema = json!({
        "properties": {
            "opening_balance": {"title": "Opening Balance"},
            "movements": {"title": "Movements"},
            "closing_balance": {"title": "Closing Balance"},
            "tolerance": {"default": 0.01, "title": "Tolerance", "type": "number"},
        },
        "required": ["opening_balance", "movements", "closing_balance"],
        "type": "object",
        "title": "reconcileArguments",
    });
    // The reference lists every movement; the cap is an addition, after its arguments.
    schema["properties"]
        .as_object_mut()
        .expect("a properties object")
        .insert("max_listed".into(), max_listed_property("movement"));
    schema
}

pub(super) fn count_distinct() -> Value {
    let schema = with_large_data_arguments(json!({
        "properties": {
            "rows": rows_property(),
            "key": {"title": "Key", "type": "string"},
            "case_sensitive": {"default": false, "title": "Case Sensitive", "type": "boolean"},
        },
        "required": ["rows", "key"],
        "type": "object",
        "title": "count_distinctArguments",
    }));
    with_listing_arguments(schema, &listing::COUNT_DISTINCT)
}

pub(super) fn duplicate_report() -> Value {
    let schema = with_large_data_arguments(json!({
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
    }));
    with_listing_arguments(schema, &listing::DUPLICATE_REPORT)
}

pub(super) fn inspect_dataset() -> Value {
    with_large_data_arguments(json!({
        "properties": {"rows": rows_property()},
        "required": ["rows"],
        "type": "object",
        "title": "inspect_datasetArguments",
    }))
}
