//! The official JSON-Schema-Test-Suite (draft 2020-12, the keyword files
//! committed under `tests/json-schema-test-suite/`) against `validate_rows`
//! with a JSON Schema as `schema`.
//!
//! A case's schema describes one value; it becomes the property `v` of a
//! row `{"v": data}`. A schema with `properties` or `required` describes an
//! object, so it is the schema of the row `data` itself. Valid means the
//! row is accepted.
//!
//! `tests/json-schema-test-suite/deviations.json` lists, each with its
//! reason, every case answered otherwise and every schema refused; both
//! lists must be exact. A refused schema must be refused for all its cases,
//! as an `invalid_contract` error on `schema` located inside it.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Value};
use validation_core::{validate_rows, ErrorCode, ToolError};

const DEVIATIONS: &str = include_str!("../../tests/json-schema-test-suite/deviations.json");

const SUITE: [(&str, &str); 17] = [
    ("type.json", include_str!("../../tests/json-schema-test-suite/draft2020-12/type.json")),
    ("minLength.json", include_str!("../../tests/json-schema-test-suite/draft2020-12/minLength.json")),
    ("maxLength.json", include_str!("../../tests/json-schema-test-suite/draft2020-12/maxLength.json")),
    ("pattern.json", include_str!("../../tests/json-schema-test-suite/draft2020-12/pattern.json")),
    ("enum.json", include_str!("../../tests/json-schema-test-suite/draft2020-12/enum.json")),
    ("minimum.json", include_str!("../../tests/json-schema-test-suite/draft2020-12/minimum.json")),
    ("maximum.json", include_str!("../../tests/json-schema-test-suite/draft2020-12/maximum.json")),
    ("exclusiveMinimum.json", include_str!("../../tests/json-schema-test-suite/draft2020-12/exclusiveMinimum.json")),
    ("exclusiveMaximum.json", include_str!("../../tests/json-schema-test-suite/draft2020-12/exclusiveMaximum.json")),
    ("required.json", include_str!("../../tests/json-schema-test-suite/draft2020-12/required.json")),
    ("properties.json", include_str!("../../tests/json-schema-test-suite/draft2020-12/properties.json")),
    ("format.json", include_str!("../../tests/json-schema-test-suite/draft2020-12/format.json")),
    (
        "optional/format/email.json",
        include_str!("../../tests/json-schema-test-suite/draft2020-12/optional/format/email.json"),
    ),
    (
        "optional/format/ipv4.json",
        include_str!("../../tests/json-schema-test-suite/draft2020-12/optional/format/ipv4.json"),
    ),
    (
        "optional/format/ipv6.json",
        include_str!("../../tests/json-schema-test-suite/draft2020-12/optional/format/ipv6.json"),
    ),
    (
        "optional/format/uri.json",
        include_str!("../../tests/json-schema-test-suite/draft2020-12/optional/format/uri.json"),
    ),
    (
        "optional/format/uuid.json",
        include_str!("../../tests/json-schema-test-suite/draft2020-12/optional/format/uuid.json"),
    ),
];

/// Whether the row of `data` is accepted under `schema` (one case of the suite).
fn accepted(schema: &Value, data: &Value) -> Result<bool, ToolError> {
    let mut schema = schema.clone();
    let object = schema.as_object_mut().expect("every schema here is an object");
    let draft = object.remove("$schema").unwrap_or(Value::Null);
    let args = if object.contains_key("properties") || object.contains_key("required") {
        object.insert("$schema".into(), draft);
        json!({"rows": [data], "schema": schema})
    } else {
        json!({"rows": [{"v": data}], "schema": {"$schema": draft, "type": "object", "properties": {"v": schema}}})
    };
    let result = validate_rows(&args)?;
    Ok(result["summary"]["accepted"] == 1 && result["summary"]["quarantined"] == 0)
}

fn text(value: &Value) -> String {
    value.as_str().unwrap().to_owned()
}

#[test]
fn validate_rows_with_a_json_schema_answers_the_suite_but_for_the_listed_deviations() {
    let deviations: Value = serde_json::from_str(DEVIATIONS).unwrap();
    let listed = |key: &str| -> BTreeMap<Vec<String>, String> {
        deviations[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|entry| {
                let mut id = vec![text(&entry["file"]), text(&entry["schema"])];
                if let Some(test) = entry.get("test") {
                    id.push(text(test));
                }
                (id, text(&entry["reason"]))
            })
            .collect()
    };
    let (listed_disagreements, listed_refusals) = (listed("disagreements"), listed("refused"));
    for (entries, reasons) in [(&listed_disagreements, "reasons"), (&listed_refusals, "refusal_reasons")] {
        let named: BTreeSet<&str> = deviations[reasons].as_object().unwrap().keys().map(String::as_str).collect();
        let used: BTreeSet<&str> = entries.values().map(String::as_str).collect();
        assert_eq!(used, named, "every {reasons} entry is used, and every reason given is one of them");
    }

    let (mut cases, mut agreed, mut refused_cases) = (0, 0, 0);
    let mut disagreements = BTreeSet::new();
    let mut refusals = BTreeSet::new();
    for (file, source) in SUITE {
        let groups: Value = serde_json::from_str(source).unwrap();
        for group in groups.as_array().unwrap() {
            let description = text(&group["description"]);
            let mut outcomes = Vec::new();
            for test in group["tests"].as_array().unwrap() {
                cases += 1;
                let outcome = accepted(&group["schema"], &test["data"]);
                outcomes.push(outcome.is_err());
                match outcome {
                    Ok(accepted) if accepted == test["valid"] => agreed += 1,
                    Ok(_) => {
                        disagreements.insert(vec![file.to_owned(), description.clone(), text(&test["description"])]);
                    }
                    Err(err) => {
                        assert_eq!(err.code, ErrorCode::InvalidContract, "{file} {description}: {}", err.message);
                        assert_eq!(err.argument.as_deref(), Some("schema"), "{file} {description}");
                        let location = err.location.unwrap_or_default();
                        assert!(location.starts_with("schema."), "{file} {description}: at {location}");
                        refused_cases += 1;
                        refusals.insert(vec![file.to_owned(), description.clone()]);
                    }
                }
            }
            assert!(
                outcomes.iter().all(|refused| *refused == outcomes[0]),
                "{file} {description}: refused for some cases only"
            );
        }
    }
    println!(
        "{cases} cases: {agreed} agree, {} answered otherwise (listed), {refused_cases} in {} refused schemas",
        disagreements.len(),
        refusals.len()
    );
    let expected: BTreeSet<Vec<String>> = listed_disagreements.keys().cloned().collect();
    let now_agree: Vec<_> = expected.difference(&disagreements).collect();
    let unlisted: Vec<_> = disagreements.difference(&expected).collect();
    assert!(now_agree.is_empty(), "listed as disagreeing, but now agree: {now_agree:#?}");
    assert!(unlisted.is_empty(), "disagreements not listed in deviations.json: {unlisted:#?}");
    let expected: BTreeSet<Vec<String>> = listed_refusals.keys().cloned().collect();
    assert_eq!(refusals, expected, "the refused schemas are exactly those listed");
    assert_eq!(cases, agreed + disagreements.len() + refused_cases);
}
