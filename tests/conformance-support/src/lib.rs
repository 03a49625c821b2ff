//! Shared by every runtime's conformance test: load `tests/conformance/vectors/`
//! and compare a result with a vector's `expected` the strict way (same
//! values, same key order, same number kind: `20` is not `20.0`).
//!
//! The vectors are the reference server's own answers, recorded by
//! `tests/conformance/generate.py`. Schema:
//! `{"reference": "...", "cases": [{"name", "tool", "args", "expected"} |
//! {"name", "tool", "args", "expected_error": {"kind", "message", "arguments"?}}]}`.
//!
//! Test-only (`publish = false`), and kept beside the vectors rather than in
//! one crate because three use it: the core's and the MCP host's conformance
//! tests, and the benchmark (see this crate's README.md).

pub mod dedupe_inputs;
pub mod rng;

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

/// The vectors directory of the workspace that contains `manifest_dir`
/// (pass `env!("CARGO_MANIFEST_DIR")` of a crate one level below the root).
pub fn vectors_dir(manifest_dir: &str) -> PathBuf {
    Path::new(manifest_dir).join("../tests/conformance/vectors")
}

/// One case of one vector file.
#[derive(Debug, Clone)]
pub struct Case {
    /// The vector file's name, e.g. `validate_rows.json`.
    pub file: String,
    /// The case's name, unique within its file.
    pub name: String,
    /// The tool called.
    pub tool: String,
    /// The call's arguments, exactly as recorded (key order preserved).
    pub args: Value,
    /// What the reference answered.
    pub expected: Expected,
    /// Set when this case is a documented deviation: then the runtime must
    /// show the deviation's behaviour instead of `expected`.
    pub deviation: Option<Deviation>,
}

/// A documented deviation from the reference (`tests/conformance/deviations.json`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Deviation {
    /// The pattern needs backtracking: the call is an `invalid_contract`
    /// argument error whose message says the construct is not supported.
    UnsupportedPattern,
    /// An unknown column spec key or type: the reference's message, with the
    /// lists of supported keys and types grown by contract v2.
    ContractV2Listing,
}

impl Deviation {
    fn from_kind(kind: &str) -> Option<Deviation> {
        match kind {
            "unsupported_pattern" => Some(Deviation::UnsupportedPattern),
            "contract_v2_listing" => Some(Deviation::ContractV2Listing),
            _ => None,
        }
    }

    /// Whether an `invalid_contract` argument error with this message shows
    /// the deviation, for a case whose answer is `expected` (for
    /// [`Deviation::ContractV2Listing`], the recorded message as rewritten
    /// when the case was loaded).
    pub fn holds_for_error_message(self, expected: &Expected, message: &str) -> bool {
        match self {
            Deviation::UnsupportedPattern => {
                message.contains("\"pattern\" uses") && message.contains("which is not supported")
            }
            // The expected message was rewritten when the case was loaded.
            Deviation::ContractV2Listing => {
                matches!(expected, Expected::ToolError { message: rewritten } if rewritten == message)
            }
        }
    }
}

/// What the reference answered for a case.
#[derive(Debug, Clone)]
pub enum Expected {
    /// A result envelope (`structuredContent`).
    Result(Value),
    /// A tool error: the reference's `ToolError` message, which a
    /// conforming server repeats exactly.
    ToolError {
        /// The message, without the SDK's `Error executing tool <name>: ` prefix.
        message: String,
    },
    /// Arguments the reference's schema validation refused. Messages differ
    /// by runtime; a conforming error names each of these arguments.
    InvalidArguments {
        /// The arguments at fault.
        arguments: Vec<String>,
        /// The reference's (pydantic's) message, for information.
        message: String,
    },
}

/// `deviations.json` beside the vectors directory.
fn load_deviations(dir: &Path) -> Result<Value, String> {
    let path = dir.join("../deviations.json");
    let text = std::fs::read_to_string(&path).map_err(|err| format!("{}: {err}", path.display()))?;
    let document: Value = serde_json::from_str(&text).map_err(|err| format!("{}: {err}", path.display()))?;
    if !document["cases"].is_object() {
        return Err(format!("{}: no cases object", path.display()));
    }
    Ok(document)
}

/// The message a `contract_v2_listing` case requires: the recorded one with
/// the document's replacements applied. Fails if none applies.
fn rewrite_listing(document: &Value, case: &mut Case) -> Result<(), String> {
    let Expected::ToolError { message } = &mut case.expected else {
        return Err(format!("{}: a contract_v2_listing case must expect a tool error", case.name));
    };
    let pairs = document["contract_v2_listing"].as_array().ok_or("deviations.json: no contract_v2_listing list")?;
    let mut rewritten = message.clone();
    for pair in pairs {
        let (Some(from), Some(to)) = (pair[0].as_str(), pair[1].as_str()) else {
            return Err("deviations.json: contract_v2_listing holds [from, to] pairs of text".into());
        };
        rewritten = rewritten.replace(from, to);
    }
    if rewritten == *message {
        return Err(format!("{}: no contract_v2_listing replacement applies to its message", case.name));
    }
    *message = rewritten;
    Ok(())
}

/// Every case in `dir`, files in name order, cases in file order, each with
/// its documented deviation (if any). Fails if `deviations.json` names a case
/// that does not exist, so the list cannot go stale.
pub fn load_cases(dir: &Path) -> Result<Vec<Case>, String> {
    let document = load_deviations(dir)?;
    let deviations = document["cases"].as_object().cloned().unwrap_or_default();
    let mut cases = load_vector_files(dir)?;
    for case in &mut cases {
        if let Some(kind) = deviations.get(&case.name) {
            let kind = kind.as_str().unwrap_or_default();
            let deviation = Deviation::from_kind(kind).ok_or_else(|| format!("unknown deviation kind {kind:?}"))?;
            if deviation == Deviation::ContractV2Listing {
                rewrite_listing(&document, case)?;
            }
            case.deviation = Some(deviation);
        }
    }
    let listed = cases.iter().filter(|case| case.deviation.is_some()).count();
    if listed != deviations.len() {
        return Err(format!("deviations.json names {} cases, {listed} of them exist", deviations.len()));
    }
    Ok(cases)
}

fn load_vector_files(dir: &Path) -> Result<Vec<Case>, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|err| format!("cannot read {}: {err}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).map_err(|err| format!("{}: {err}", path.display()))?;
        let document: Value = serde_json::from_str(&text).map_err(|err| format!("{}: {err}", path.display()))?;
        let file = path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
        let list = document["cases"].as_array().ok_or_else(|| format!("{file}: no cases array"))?;
        for case in list {
            cases.push(parse_case(&file, case)?);
        }
    }
    Ok(cases)
}

fn parse_case(file: &str, case: &Value) -> Result<Case, String> {
    let text = |value: &Value| value.as_str().map(str::to_owned);
    let name = text(&case["name"]).ok_or_else(|| format!("{file}: a case has no name"))?;
    let tool = text(&case["tool"]).ok_or_else(|| format!("{file} :: {name}: no tool"))?;
    let expected = if let Some(expected) = case.get("expected") {
        Expected::Result(expected.clone())
    } else {
        let error = case
            .get("expected_error")
            .ok_or_else(|| format!("{file} :: {name}: neither expected nor expected_error"))?;
        let message = text(&error["message"]).unwrap_or_default();
        match error["kind"].as_str() {
            Some("tool_error") => Expected::ToolError { message },
            Some("invalid_arguments") => Expected::InvalidArguments {
                arguments: error["arguments"].as_array().into_iter().flatten().filter_map(text).collect(),
                message,
            },
            other => return Err(format!("{file} :: {name}: unknown expected_error kind {other:?}")),
        }
    };
    Ok(Case { file: file.to_owned(), name, tool, args: case["args"].clone(), expected, deviation: None })
}

/// The first place where `actual` differs from `expected`: a different
/// value, a different number kind (int vs float), or a different key order.
/// `path` names the root in the description (use `"$"`).
pub fn first_difference(path: &str, expected: &Value, actual: &Value) -> Option<String> {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => object_difference(path, e, a),
        (Value::Array(e), Value::Array(a)) => {
            for (index, (x, y)) in e.iter().zip(a).enumerate() {
                if let Some(diff) = first_difference(&format!("{path}[{index}]"), x, y) {
                    return Some(diff);
                }
            }
            (e.len() != a.len()).then(|| format!("{path}: expected {} items, got {}", e.len(), a.len()))
        }
        (Value::Number(e), Value::Number(a)) => {
            let kind = |n: &serde_json::Number| if n.is_f64() { "float" } else { "int" };
            (e != a || kind(e) != kind(a)).then(|| format!("{path}: expected {e} ({}), got {a} ({})", kind(e), kind(a)))
        }
        _ => (expected != actual).then(|| format!("{path}: expected {expected}, got {actual}")),
    }
}

fn object_difference(path: &str, expected: &Map<String, Value>, actual: &Map<String, Value>) -> Option<String> {
    for (key, value) in expected {
        let Some(other) = actual.get(key) else {
            return Some(format!("{path}: missing key {key:?}"));
        };
        if let Some(diff) = first_difference(&format!("{path}.{key}"), value, other) {
            return Some(diff);
        }
    }
    let expected_keys: Vec<&String> = expected.keys().collect();
    let actual_keys: Vec<&String> = actual.keys().collect();
    (expected_keys != actual_keys)
        .then(|| format!("{path}: key order: expected {expected_keys:?}, got {actual_keys:?}"))
}

/// Whether `message` is the invalid-pattern error, whose compiler detail in
/// parentheses is a documented deviation (Python's `re` and Rust's `regex`
/// word their errors differently).
pub fn is_pattern_message(message: &str) -> bool {
    message.contains("\"pattern\" is not a valid regular expression (")
}

/// Whether a tool error's message matches the reference's: exactly, or
/// both are invalid-pattern errors (see [`is_pattern_message`]).
pub fn tool_error_matches(expected: &str, actual: &str) -> bool {
    expected == actual || (is_pattern_message(expected) && is_pattern_message(actual))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(text: &str) -> Value {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn int_and_float_differ() {
        assert!(first_difference("$", &parse("20"), &parse("20.0")).is_some());
        assert!(first_difference("$", &parse("20.0"), &parse("20.0")).is_none());
    }

    #[test]
    fn key_order_matters() {
        let diff = first_difference("$", &parse(r#"{"a":1,"b":2}"#), &parse(r#"{"b":2,"a":1}"#)).unwrap();
        assert!(diff.contains("key order"), "{diff}");
    }

    #[test]
    fn the_first_difference_is_named_by_path() {
        let diff = first_difference("$", &json!({"x": [1, {"y": true}]}), &json!({"x": [1, {"y": false}]})).unwrap();
        assert!(diff.starts_with("$.x[1].y:"), "{diff}");
        let diff = first_difference("$", &json!([1, 2]), &json!([1])).unwrap();
        assert!(diff.contains("expected 2 items, got 1"), "{diff}");
    }
}
