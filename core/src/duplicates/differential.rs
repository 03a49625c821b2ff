//! `duplicate_report` with the near-match index against the same report with
//! the literal rule (every open cluster tried in turn, the code this
//! replaced): byte-identical JSON on many generated inputs. The group book's
//! key index is held to its scan inside every report (`already_reported`).

use serde_json::{json, Value};

use super::report_with;
use crate::near_match::generated::{signatures, Rng};
use crate::near_match::{clusters, literal};

/// Rows whose `match_fields` values come from [`signatures`]: keys repeated
/// now and then (`same_key`) and written in another case (one key unless
/// `case_sensitive`), a blank value here and there (no signature), and the
/// odd row that is no object at all.
fn rows(rng: &mut Rng, fields: usize) -> Vec<Value> {
    let long = rng.below(40) == 0;
    let count = if long { 2 + rng.below(4) } else { 1 + rng.below(40) };
    let texts = signatures(rng, count, fields, long);
    texts
        .into_iter()
        .enumerate()
        .map(|(at, values)| {
            if rng.below(40) == 0 {
                return json!(at);
            }
            let key = match rng.below(10) {
                0 if at > 0 => format!("K{}", rng.below(at)),
                1 => format!("k{at}"),
                _ => format!("K{at}"),
            };
            let mut row = serde_json::Map::new();
            row.insert("id".into(), key.into());
            for (field, value) in values.into_iter().enumerate() {
                let value = if rng.below(25) == 0 { String::new() } else { value };
                row.insert(format!("f{field}"), value.into());
            }
            Value::Object(row)
        })
        .collect()
}

#[test]
fn the_same_report_as_with_the_literal_rule() {
    let mut rng = Rng(0x6475_7072_6570_6f72);
    let thresholds = [1e-9, 0.3, 0.5, 0.75, 0.8, 0.9, 0.99, 1.0];
    let mut reported_near = 0;
    for _ in 0..120 {
        let fields = 1 + rng.below(2);
        let rows = rows(&mut rng, fields);
        let match_fields: Vec<String> = (0..fields).map(|field| format!("f{field}")).collect();
        for &threshold in &thresholds {
            let mut args = json!({
                "rows": rows,
                "key": "id",
                "match_fields": match_fields,
                "similarity_threshold": threshold,
                "case_sensitive": rng.below(4) == 0,
            });
            if rng.below(3) == 0 {
                args["max_groups"] = json!(rng.below(6));
            }
            if rng.below(3) == 0 {
                args["max_listed"] = json!(rng.below(4));
            }
            let text = |result: Result<crate::output::Output, crate::error::ToolError>| match result {
                Ok(value) => value.to_string(),
                Err(err) => err.to_json().to_string(),
            };
            let fast = text(report_with(args.clone().into(), clusters));
            let slow = text(report_with(args.clone().into(), literal::clusters));
            assert_eq!(fast, slow, "arguments {args}");
            reported_near += usize::from(fast.contains("\"near_match\""));
        }
    }
    // The inputs must exercise what they compare.
    assert!(reported_near > 100, "only {reported_near} reports had a near_match group");
}
