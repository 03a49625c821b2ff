//! The four deterministic data-validation checks of `mcp-validation-server`,
//! and a fifth tool that profiles a dataset and drafts a contract for it
//! (`inspect_dataset`).
//!
//! Every check takes its arguments as one JSON object (the same object an MCP
//! client sends as a tool call's `arguments`) and returns one JSON envelope:
//! `tool`, `ok`, `verdict`, `finding_count`, `findings`, `guidance`, then the
//! check's own fields. The output is identical, key order and number types
//! included, to what the Python reference server 0.1.0 returns as
//! `structuredContent`.
//!
//! A failing dataset is a result (`ok: false`), never an error. Only a malformed
//! call returns [`ToolError`].
//!
//! The Python behaviours the checks reproduce (`py`) are private: a caller
//! reaches them only through the checks, so their shape can change freely.

// Every public item says what it is for; the test command makes this an error.
#![warn(missing_docs)]

mod abridge;
mod args;
mod arguments;
mod byte_scan;
pub mod catalog;
mod coerce;
mod contract;
mod count_distinct;
mod csv;
mod csv_table;
mod duplicates;
mod entities;
pub mod error;
mod export;
mod expr;
mod findings;
mod formats;
mod hashing;
mod inspect;
mod json_rows;
mod json_scan;
mod json_write;
mod key_table;
mod listing;
mod near_match;
mod output;
mod pattern;
mod pattern_fixed;
mod py;
mod reconcile;
mod row_check;
mod rows_report;
mod rules;
mod schema_in;
mod source;
mod validate;
mod value_key;

pub use arguments::Arguments;
pub use catalog::{tool_catalog, tool_catalog_json};
pub use csv_table::read_csv;
pub use error::{ErrorCode, ToolError};
pub use export::ExportFile;
pub use output::Output;

use serde_json::Value;

/// The names of the tools: the reference's four checks first, in its order,
/// then `inspect_dataset`, this project's addition.
pub const TOOL_NAMES: [&str; 5] =
    ["validate_rows", "reconcile", "count_distinct", "duplicate_report", "inspect_dataset"];

/// Run the check called `name` on `args` (a JSON object of its arguments).
pub fn call_tool(name: &str, args: &Value) -> Result<Value, ToolError> {
    call_tool_owned(name, args.clone())
}

/// Like [`call_tool`], taking the arguments by value so large inputs move
/// into the result instead of being copied: a `Value`, or [`Arguments`]
/// read by [`parse_arguments`].
pub fn call_tool_owned(name: &str, args: impl Into<Arguments>) -> Result<Value, ToolError> {
    call_tool_output(name, args).map(Output::into_value)
}

/// Like [`call_tool_owned`], with the result as it is written out
/// ([`Output::write_to`]): for a caller that wants the JSON text, which a
/// large result writes without first becoming one tree.
pub fn call_tool_output(name: &str, args: impl Into<Arguments>) -> Result<Output, ToolError> {
    let args = args.into();
    match name {
        "validate_rows" => validate::validate_rows(args),
        "reconcile" => reconcile::reconcile(args),
        "count_distinct" => count_distinct::count_distinct(args),
        "duplicate_report" => duplicates::duplicate_report(args),
        "inspect_dataset" => inspect::inspect_dataset(args.into_value()).map(Output::from),
        other => Err(ToolError::new(ErrorCode::UnknownTool, format!("Unknown tool: {other}"))),
    }
}

/// Like [`call_tool_owned`], with the `csv` argument given beside the others
/// rather than inside them, as bytes: the call is exactly the one whose
/// arguments are `args` with `"csv"` set to that text. A host that reads the
/// CSV from a file hands it over this way, so the text is never escaped into
/// JSON and parsed back out (and is taken over without a copy). Bytes that
/// are not UTF-8 are an argument error naming `csv` and the offset.
pub fn call_tool_with_csv(name: &str, args: impl Into<Arguments>, csv: Vec<u8>) -> Result<Output, ToolError> {
    call_tool_output(name, with_csv(args.into(), csv)?)
}

/// `args` with `"csv"` set to the text `csv`, or the argument error for
/// bytes that are not UTF-8.
fn with_csv(mut args: Arguments, csv: Vec<u8>) -> Result<Arguments, ToolError> {
    let csv = String::from_utf8(csv).map_err(|err| {
        let at = err.utf8_error().valid_up_to();
        ToolError::for_argument(
            ErrorCode::InvalidArgument,
            "csv",
            format!("argument \"csv\" is not UTF-8 text: the byte at offset {at} is not valid UTF-8"),
        )
    })?;
    if let Value::Object(object) = &mut args.object {
        object.insert("csv".to_owned(), Value::String(csv));
    }
    Ok(args)
}

/// Like [`call_tool_owned`] (with `csv` given beside the arguments as in
/// [`call_tool_with_csv`] when it is `Some`), for a host that writes files:
/// a `validate_rows` call with `export` also returns the files of its whole
/// split (accepted rows, quarantined rows, findings), which the result's
/// `export.files` describes (name, rows, bytes, SHA-256) in the same order.
/// The host decides where they go (`export.dir` names the place); the core
/// writes nothing. Through every other entry point `export` is an argument
/// error, since nothing would write the files.
pub fn call_tool_exporting(
    name: &str,
    args: impl Into<Arguments>,
    csv: Option<Vec<u8>>,
) -> Result<(Output, Vec<ExportFile>), ToolError> {
    let args = match csv {
        Some(csv) => with_csv(args.into(), csv)?,
        None => args.into(),
    };
    match name {
        "validate_rows" => validate::validate_rows_exporting(args, true),
        _ => call_tool_output(name, args).map(|result| (result, Vec::new())),
    }
}

/// Whether the call may be checked in parts of its rows, one
/// [`call_part`] per part (each in its own instance, at once), and the
/// parts merged by [`merge_parts`] into the result the whole call gives,
/// byte for byte. `args` are the call's arguments without its rows: for
/// CSV text given beside them ([`call_tool_with_csv`]), without it; for a
/// `rows` array, with `"rows": []`. So far only a `validate_rows` call whose
/// rows are each checked alone (no `unique` column, no primary key, no
/// `page`, no `export`) and whose lists `max_listed` keeps short (1,000
/// entries at most), so that the merge is cheap.
pub fn checks_in_parts(name: &str, args: impl Into<Arguments>) -> bool {
    name == "validate_rows" && with_rows_or_empty_csv(args.into()).is_ok_and(validate::checks_in_parts)
}

/// `args` as they are when they give rows, else with an empty `csv`: the
/// arguments of a call whose CSV text is given beside them.
fn with_rows_or_empty_csv(args: Arguments) -> Result<Arguments, ToolError> {
    let gives_rows = args.rows.is_some() || args.object.get("rows").is_some();
    if gives_rows {
        Ok(args)
    } else {
        with_csv(args, Vec::new())
    }
}

/// Check one part of a call's rows (see [`checks_in_parts`]). For CSV
/// text, `part` is the text's start (its header and first records) when
/// `head` is `None`, or else records that follow the header, where `head`
/// is the text's start up to a line break after the header; a part must
/// end with a record's line break (or be the text's last). For a `rows`
/// array, `part` and `head` are `None` and `args` give the part's rows as
/// their `rows`. Returns the part's report, which only [`merge_parts`]
/// reads, or an argument error when the part cannot be read as a part or is
/// not valid: the caller then makes the call on all its rows at once, which
/// gives the error a caller should see, if any.
pub fn call_part(
    name: &str,
    args: impl Into<Arguments>,
    head: Option<&[u8]>,
    part: Option<Vec<u8>>,
) -> Result<Value, ToolError> {
    if name != "validate_rows" {
        return Err(ToolError::new(ErrorCode::UnknownTool, format!("{name} is not checked in parts")));
    }
    let head = match head.map(std::str::from_utf8) {
        Some(Err(_)) => {
            return Err(ToolError::for_argument(ErrorCode::InvalidArgument, "csv", "the head is not UTF-8"))
        }
        Some(Ok(head)) => Some(head),
        None => None,
    };
    let args = match part {
        Some(part) => with_csv(args.into(), part)?,
        None => args.into(),
    };
    validate::validate_rows_part(args, head)
}

/// The result of a call checked in parts (see [`checks_in_parts`]):
/// `parts_json` is a JSON array of the parts' reports from [`call_part`], in
/// the order of the parts' rows; `args` are the call's arguments without
/// its rows, as for [`checks_in_parts`].
pub fn merge_parts(name: &str, args: impl Into<Arguments>, parts_json: &[u8]) -> Result<Output, ToolError> {
    if name != "validate_rows" {
        return Err(ToolError::new(ErrorCode::UnknownTool, format!("{name} is not checked in parts")));
    }
    let parts: Vec<Value> = serde_json::from_slice(parts_json).map_err(|err| {
        ToolError::for_argument(ErrorCode::InvalidArgument, "parts", format!("the parts are not a JSON array: {err}"))
    })?;
    validate::validate_rows_merged(with_rows_or_empty_csv(args.into())?, parts)
}

/// Like [`call_tool`], with the arguments as JSON text and the result serialised.
pub fn call_tool_json(name: &str, args_json: &[u8]) -> Result<String, ToolError> {
    call_tool_output(name, parse_arguments(args_json)?).map(|result| result.to_json_text())
}

/// Read a call's arguments from JSON text: the first step of [`call_tool_json`],
/// for callers that then want the text gone before the check runs (a
/// `rows` array's text is kept, as its own copy: see [`Arguments`]).
pub fn parse_arguments(args_json: &[u8]) -> Result<Arguments, ToolError> {
    arguments::parse(args_json)
}

/// `validate_rows`: apply a column contract; every row is accepted or quarantined.
pub fn validate_rows(args: &Value) -> Result<Value, ToolError> {
    validate::validate_rows(args.clone().into()).map(Output::into_value)
}

/// `reconcile`: check opening + movements = closing and explain the variance.
pub fn reconcile(args: &Value) -> Result<Value, ToolError> {
    reconcile::reconcile(args.clone().into()).map(Output::into_value)
}

/// `count_distinct`: distinct entities on a stable key versus rows.
pub fn count_distinct(args: &Value) -> Result<Value, ToolError> {
    count_distinct::count_distinct(args.clone().into()).map(Output::into_value)
}

/// `duplicate_report`: suspected duplicate groups for human review; never merges.
pub fn duplicate_report(args: &Value) -> Result<Value, ToolError> {
    duplicates::duplicate_report(args.clone().into()).map(Output::into_value)
}

/// `inspect_dataset`: profile the rows, report what is wrong whatever the
/// contract, and draft a contract that `validate_rows` passes on them.
pub fn inspect_dataset(args: &Value) -> Result<Value, ToolError> {
    inspect::inspect_dataset(args.clone())
}
