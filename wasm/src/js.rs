//! The JavaScript API, through wasm-bindgen.
//!
//! These are the raw exports the npm package's small JS layer wraps; users call
//! `validateRows(args)` and friends from there, which also turns the error
//! objects thrown here into `ValidationArgumentError`s. Two ways across the
//! boundary are offered because they trade differently:
//!
//! - `callToolJson`: JSON text in, JSON text out. Exact (keeps 20 vs 20.0 and
//!   key order), and one copy each way however large the arguments are.
//! - `callTool`: JS values in and out, converted by serde-wasm-bindgen, with
//!   results as plain objects and arrays (never `Map`s).

use serde::Serialize;
use serde_json::Value;
use validation_core::{ErrorCode, ToolError};
use wasm_bindgen::prelude::*;

/// Run a check on a JS arguments object; the result is a plain JS object.
///
/// # Errors
/// Throws `{code, message, argument, location, line}` (a plain object) for an argument error.
#[wasm_bindgen(js_name = callTool, skip_typescript)]
pub fn call_tool(name: &str, args: JsValue) -> Result<JsValue, JsValue> {
    // A JS value with no JSON equivalent (a function, a symbol, a BigInt
    // outside 64 bits) cannot be an argument object; the core calls text that
    // does not parse invalid_json, and this is the same situation.
    let args: Value = serde_wasm_bindgen::from_value(args).map_err(|err| {
        error_value(&ToolError {
            code: ErrorCode::InvalidJson,
            message: format!("the arguments are not valid JSON: {err}"),
            argument: None,
            location: None,
            line: None,
        })
    })?;
    let args = as_json_would_write(args);
    let result = validation_core::call_tool_owned(name, args).map_err(|err| error_value(&err))?;
    to_plain(&result)
}

/// Run a check on JSON text; the result is JSON text.
///
/// # Errors
/// Throws `{code, message, argument, location, line}` (a plain object) for an argument error.
#[wasm_bindgen(js_name = callToolJson, skip_typescript)]
pub fn call_tool_json(name: &str, args_json: &str) -> Result<String, JsValue> {
    crate::reserve_working_memory(args_json.len());
    validation_core::call_tool_json(name, args_json.as_bytes()).map_err(|err| error_value(&err))
}

/// The names of the checks, from the core, so the JS layer never repeats them.
#[wasm_bindgen(js_name = toolNames, skip_typescript)]
pub fn tool_names() -> Vec<String> {
    validation_core::TOOL_NAMES.iter().map(|&name| name.to_owned()).collect()
}

/// The core's tool catalog as JSON text (names, titles, descriptions, input
/// and output schemas, annotations, verdicts, `_omitted` counts, the column
/// spec), so the JS layer, its types and the playground restate none of it.
#[wasm_bindgen(js_name = toolCatalog, skip_typescript)]
pub fn tool_catalog() -> String {
    validation_core::tool_catalog().to_string()
}

/// Read CSV text exactly as the checks read their `csv` argument: JSON text
/// of `{header, rows, lines, extra_fields_key}`.
///
/// # Errors
/// Throws `{code, message, argument}` (a plain object), the error a check
/// gives for the same text.
#[wasm_bindgen(js_name = readCsv, skip_typescript)]
pub fn read_csv(text: &str) -> Result<String, JsValue> {
    crate::reserve_working_memory(text.len());
    validation_core::read_csv(text).map(|table| table.to_string()).map_err(|err| error_value(&err))
}

/// JS has one number type, and serde-wasm-bindgen hands every number over as a
/// float; `JSON.stringify` writes a whole number as an integer (`5`, not
/// `5.0`). Read the numbers the way the JSON text path would, so both paths
/// see the same arguments (a row of `5` is an int to the checks, as in Python).
fn as_json_would_write(value: Value) -> Value {
    match value {
        Value::Number(number) => match number.as_f64() {
            // JSON.stringify writes a whole number below 1e21 as its shortest digits (which
            // Rust's Display also writes, and -0 as 0); JSON reads those as an int if it fits.
            Some(x) if number.is_f64() && x.fract() == 0.0 && x.abs() < 1e21 => {
                let text = if x == 0.0 { "0".to_owned() } else { format!("{x}") };
                serde_json::from_str(&text).unwrap_or(Value::Number(number))
            }
            _ => Value::Number(number),
        },
        Value::Array(items) => Value::Array(items.into_iter().map(as_json_would_write).collect()),
        Value::Object(map) => Value::Object(map.into_iter().map(|(k, v)| (k, as_json_would_write(v))).collect()),
        other => other,
    }
}

fn error_value(err: &ToolError) -> JsValue {
    // The error is strings, a small number and nulls; converting it cannot
    // fail, but if it ever did the message alone still reaches the caller.
    to_plain(&err.to_json()).unwrap_or_else(|_| JsValue::from_str(&err.message))
}

fn to_plain(value: &Value) -> Result<JsValue, JsValue> {
    match value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()) {
        Ok(js) => Ok(js),
        // serde-wasm-bindgen refuses integers beyond 2^53 rather than round
        // them. JSON.parse rounds them, which is what JS users get from every
        // other JSON source, so fall back to exactly that for such a result.
        Err(_) => js_sys::JSON::parse(&value.to_string()),
    }
}
