//! Every conformance vector in `tests/conformance/vectors/`, run against the
//! native core. The vectors are the reference server's own answers, recorded
//! by `tests/conformance/generate.py`; any difference fails, naming the first
//! differing JSON path. The loading, the strict comparison and the documented
//! deviations are shared with the other runtimes (`tests/conformance-support`).

use std::fmt::Write as _;

use conformance_support::{first_difference, load_cases, tool_error_matches, vectors_dir, Case, Expected};
use validation_core::{call_tool, ErrorCode};

/// Check one case; `Err` describes how it failed.
fn check_case(case: &Case) -> Result<(), String> {
    let outcome = call_tool(&case.tool, &case.args);
    if let Some(deviation) = case.deviation {
        return match outcome {
            Err(err)
                if err.code == ErrorCode::InvalidContract
                    && deviation.holds_for_error_message(&case.expected, &err.message) =>
            {
                Ok(())
            }
            Err(err) => Err(format!("deviation {deviation:?}: unexpected error {:?}: {}", err.code, err.message)),
            Ok(_) => Err(format!("deviation {deviation:?}: expected an error, got a result")),
        };
    }
    match (&case.expected, outcome) {
        (Expected::Result(expected), Ok(actual)) => first_difference("$", expected, &actual).map_or(Ok(()), Err),
        (Expected::Result(_), Err(err)) => Err(format!("expected a result, got error {:?}: {}", err.code, err.message)),
        (Expected::ToolError { message }, Err(err)) if tool_error_matches(message, &err.message) => Ok(()),
        (Expected::ToolError { message }, Err(err)) => {
            Err(format!("error message differs:\n  expected: {message}\n  actual:   {}", err.message))
        }
        (Expected::InvalidArguments { arguments, .. }, Err(err)) => {
            if err.code != ErrorCode::ArgumentType {
                return Err(format!("expected an argument-type error naming {arguments:?}, got {:?}", err.code));
            }
            if !err.argument.as_ref().is_some_and(|a| arguments.contains(a)) {
                return Err(format!("error names {:?}, expected one of {arguments:?}", err.argument));
            }
            match arguments.iter().find(|name| !err.message.contains(&format!("\"{name}\""))) {
                Some(name) => Err(format!("message does not name \"{name}\": {}", err.message)),
                None => Ok(()),
            }
        }
        (_, Ok(_)) => Err("expected an error, got a result".into()),
    }
}

#[test]
fn every_conformance_vector_matches_the_reference() {
    let cases = load_cases(&vectors_dir(env!("CARGO_MANIFEST_DIR"))).expect("the vectors load");
    assert!(cases.len() >= 1000, "expected at least 1,000 vectors, found {}", cases.len());
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|case| check_case(case).err().map(|why| format!("{} :: {}\n  {why}", case.file, case.name)))
        .collect();
    let mut report = String::new();
    for failure in failures.iter().take(25) {
        let _ = writeln!(report, "{failure}");
    }
    assert!(
        failures.is_empty(),
        "{} of {} conformance vectors differ from the reference:\n{report}",
        failures.len(),
        cases.len()
    );
    let deviations = cases.iter().filter(|case| case.deviation.is_some()).count();
    println!("{} conformance vectors match the reference ({deviations} as documented deviations)", cases.len());
}

/// The answer to a call as text: the result, or the error's code and message.
fn answer(outcome: Result<impl ToString, validation_core::ToolError>) -> String {
    match outcome {
        Ok(result) => result.to_string(),
        Err(err) => format!("error {:?} on {:?}: {}", err.code, err.argument, err.message),
    }
}

#[test]
fn every_vector_answers_the_same_from_its_text() {
    // The runtimes hand the core the arguments' text, whose `rows` array
    // `validate_rows` reads one row at a time; this suite above hands it
    // the tree. Both must give the same bytes, for every vector: the text
    // path's as it writes them (an accepted row read from text is written
    // from it, not built as a tree), the tree's as serde_json writes it.
    let cases = load_cases(&vectors_dir(env!("CARGO_MANIFEST_DIR"))).expect("the vectors load");
    // Each vector as recorded (uncapped: every row listed, so built), and
    // each validate_rows and count_distinct vector again with nothing
    // listed, so that every row is checked from its cells alone.
    let calls = cases.iter().map(|case| (case, case.args.clone())).chain(cases.iter().filter_map(|case| {
        let serde_json::Value::Object(args) = &case.args else { return None };
        let reads_text = matches!(case.tool.as_str(), "validate_rows" | "count_distinct");
        let capped = reads_text && !args.contains_key("max_listed");
        capped.then(|| {
            let mut args = args.clone();
            args.insert("max_listed".into(), 0.into());
            (case, serde_json::Value::Object(args))
        })
    }));
    let mut read_as_text = 0;
    let mut failures = Vec::new();
    for (case, args) in calls {
        let text = args.to_string();
        let arguments = validation_core::parse_arguments(text.as_bytes()).expect("the vectors' arguments are JSON");
        let reads_text = matches!(case.tool.as_str(), "validate_rows" | "count_distinct");
        read_as_text += usize::from(reads_text && arguments.keeps_rows_text());
        let from_text = answer(validation_core::call_tool_output(&case.tool, arguments));
        let from_tree = answer(call_tool(&case.tool, &args));
        if from_text != from_tree {
            failures.push(format!("{} :: {}\n  tree: {from_tree}\n  text: {from_text}", case.file, case.name));
        }
    }
    assert!(
        failures.is_empty(),
        "{} vectors differ:\n{}",
        failures.len(),
        failures[..failures.len().min(10)].join("\n")
    );
    // Most of those vectors give rows as an array: the text path is taken.
    assert!(read_as_text >= 200, "only {read_as_text} calls read their rows as text");
}
