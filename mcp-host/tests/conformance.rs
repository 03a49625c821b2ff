//! Every conformance vector through the real binary, over stdio and over
//! Streamable HTTP: `structuredContent` equals the reference's result (key
//! order and int/float kind included), its text copy is the same JSON, a
//! tool error's text is the reference's `Error executing tool <name>:
//! <message>`, and an argument error names each argument at fault.

mod common;

use common::{is_error, skip_or_fail, text_of, HttpServer, StdioServer};
use conformance_support::{first_difference, load_cases, tool_error_matches, vectors_dir, Case, Expected};
use serde_json::{json, Value};

fn cases() -> Option<Vec<Case>> {
    let dir = vectors_dir(env!("CARGO_MANIFEST_DIR"));
    if !dir.is_dir() {
        skip_or_fail(&format!("no conformance vectors at {}", dir.display()));
        return None;
    }
    let cases = load_cases(&dir).expect("the vectors load");
    assert!(cases.len() >= 1000, "expected at least 1,000 vectors, found {}", cases.len());
    Some(cases)
}

/// `Err` says how `result` (a `tools/call` result) differs from the vector.
fn check(case: &Case, result: &Value) -> Result<(), String> {
    let prefix = format!("Error executing tool {}: ", case.tool);
    if let Some(deviation) = case.deviation {
        let text = text_of(result);
        let message = text.strip_prefix(&prefix).unwrap_or(text);
        return if is_error(result) && deviation.holds_for_error_message(&case.expected, message) {
            Ok(())
        } else {
            Err(format!("documented deviation {deviation:?} not shown: {text}"))
        };
    }
    match &case.expected {
        Expected::Result(expected) => {
            if is_error(result) {
                return Err(format!("expected a result, got an error: {}", text_of(result)));
            }
            if let Some(diff) = first_difference("$", expected, &result["structuredContent"]) {
                return Err(format!("structuredContent: {diff}"));
            }
            let copy: Value =
                serde_json::from_str(text_of(result)).map_err(|err| format!("text copy is not JSON: {err}"))?;
            first_difference("$", expected, &copy).map_or(Ok(()), |diff| Err(format!("text copy: {diff}")))
        }
        Expected::ToolError { message } => {
            if !is_error(result) {
                return Err(format!("expected the tool error {message:?}, got a result"));
            }
            let text = text_of(result);
            match text.strip_prefix(&prefix) {
                Some(actual) if tool_error_matches(message, actual) => Ok(()),
                _ => Err(format!("tool error text differs:\n  expected: {prefix}{message}\n  actual:   {text}")),
            }
        }
        Expected::InvalidArguments { arguments, .. } => {
            if !is_error(result) {
                return Err(format!("expected an argument error naming {arguments:?}, got a result"));
            }
            let text = text_of(result);
            if !text.starts_with(&prefix) {
                return Err(format!("argument error text lacks {prefix:?}: {text}"));
            }
            match arguments.iter().find(|name| !text.contains(&format!("\"{name}\""))) {
                Some(name) => Err(format!("argument error does not name \"{name}\": {text}")),
                None => Ok(()),
            }
        }
    }
}

fn report(failures: &[String], total: usize, transport: &str) {
    let shown: Vec<&String> = failures.iter().take(20).collect();
    assert!(
        failures.is_empty(),
        "{} of {total} conformance vectors differ over {transport}:\n{}",
        failures.len(),
        shown.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
    );
    println!("{total} conformance vectors match the reference over {transport}");
}

#[test]
fn every_vector_over_stdio() {
    let Some(cases) = cases() else { return };
    // The vectors are the reference's uncapped results: list everything, as it does.
    let mut server = StdioServer::initialized(&["--max-listed", "unlimited"], &[]);
    let mut failures = Vec::new();
    // Pipelined in batches: the server answers concurrently, in any order.
    for batch in cases.chunks(32) {
        let mut ids = Vec::new();
        for case in batch {
            let id = server.next_id();
            server.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                "params": {"name": case.tool, "arguments": case.args}}));
            ids.push(id);
        }
        for (case, id) in batch.iter().zip(ids) {
            let response = server.wait_for_id(&json!(id), common::DEFAULT_WAIT);
            let outcome = match response.get("result") {
                Some(result) => check(case, result),
                None => Err(format!("JSON-RPC error: {response}")),
            };
            if let Err(why) = outcome {
                failures.push(format!("{} :: {}\n  {why}", case.file, case.name));
            }
        }
    }
    assert!(server.stdout_garbage().is_empty(), "non-protocol output on stdout: {:?}", server.stdout_garbage());
    report(&failures, cases.len(), "stdio");
}

#[test]
fn every_vector_over_streamable_http() {
    let Some(cases) = cases() else { return };
    let server = HttpServer::start(&["--max-listed", "unlimited"], &[]);
    let mut session = server.session();
    let mut failures = Vec::new();
    for case in &cases {
        let response = session.request("tools/call", json!({"name": case.tool, "arguments": case.args}));
        let outcome = match response.get("result") {
            Some(result) => check(case, result),
            None => Err(format!("no result: {response}")),
        };
        if let Err(why) = outcome {
            failures.push(format!("{} :: {}\n  {why}", case.file, case.name));
        }
    }
    report(&failures, cases.len(), "streamable HTTP");
}
