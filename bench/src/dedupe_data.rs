//! The two `duplicate_report` inputs issue 17 (item 5) named as unable to
//! finish under the server's default limits while every near-match pair was
//! scored: 40,000 rows in pairs, and 2,000 rows at a similarity threshold
//! of 0.99. The same inputs as `mcp-host/tests/duplicates_at_scale.rs`
//! (its `common::paired_arguments` and `numbered_names_arguments`), which
//! checks their results by reasoning; here they are timed. Neither sends
//! `max_listed`, so the server's default cap shortens the lists and not the
//! work: every group is still found and counted.

use serde_json::{json, Value};

use crate::data::Workload;

/// Syllables the names of [`paired`] are made of.
const SYLLABLES: [&str; 28] = [
    "ka", "lo", "mi", "ra", "ben", "tor", "vel", "sa", "dru", "fen", "gal", "hor", "is", "jun", "mar", "nel", "os",
    "pim", "qua", "ril", "sten", "tu", "ulf", "vin", "wes", "xa", "yor", "zed",
];

/// `2 * pairs` rows in pairs, every pair a duplicate of the kind `p % 3`
/// says (the same key twice, a second key with the same name and postcode,
/// or a second key whose name doubles a letter of the surname), each pair
/// with a postcode of its own; `match_fields` name and postcode at 0.9.
fn paired(pairs: usize) -> Value {
    const LETTERS: &[u8; 20] = b"ABCDEFGHJKLMNPRSTUWY";
    let word = |parts: &[usize]| {
        let word: String = parts.iter().map(|&at| SYLLABLES[at % SYLLABLES.len()]).collect();
        word[..1].to_uppercase() + &word[1..]
    };
    let mut rows = Vec::with_capacity(2 * pairs);
    for p in 0..pairs {
        let first = word(&[p, p / 28]);
        let last =
            if p % 2 == 0 { word(&[p * 7 + 3, p * 13 + 5, p * 17 + 11]) } else { word(&[p * 7 + 3, p * 13 + 5]) };
        let name = format!("{first} {last}");
        let letter = |at: usize| char::from(LETTERS[at % 20]);
        let postcode =
            format!("{}{} {}{}{}", letter(p), p / 20 % 10, p / 200 % 10, letter(p / 2000), letter(p / 40_000));
        let id = format!("C-{:06}", 2 * p);
        rows.push(json!({"id": id, "name": name, "postcode": postcode}));
        let doubled = first.len() + 1 + p % last.len();
        let (id, name) = match p % 3 {
            0 => (id, name),
            1 => (format!("C-{:06}", 2 * p + 1), name),
            _ => (format!("C-{:06}", 2 * p + 1), format!("{}{}", &name[..=doubled], &name[doubled..])),
        };
        rows.push(json!({"id": id, "name": name, "postcode": postcode}));
    }
    let max_groups = rows.len();
    json!({"rows": rows, "key": "id", "match_fields": ["name", "postcode"], "similarity_threshold": 0.9,
           "max_groups": max_groups})
}

/// `count` names that differ only in two numbers, at 0.99.
fn numbered_names(count: usize) -> Value {
    let rows: Vec<Value> = (0..count)
        .map(|i| json!({"id": format!("K{i}"), "name": format!("customer number {i} of the slow test, somewhere {}", i * 7919 % 1000)}))
        .collect();
    json!({"rows": rows, "key": "id", "match_fields": ["name"], "similarity_threshold": 0.99, "max_groups": 5})
}

/// The two workloads.
pub(crate) fn at_scale() -> Vec<Workload> {
    vec![
        Workload {
            label: "duplicate_report 40,000 rows in pairs (name, postcode at 0.9)".into(),
            id: "duplicate_report-paired-40000".into(),
            tool: "duplicate_report",
            rows: 40_000,
            args: paired(20_000).to_string(),
        },
        Workload {
            label: "duplicate_report 2,000 rows at 0.99".into(),
            id: "duplicate_report-threshold-0.99-2000".into(),
            tool: "duplicate_report",
            rows: 2_000,
            args: numbered_names(2_000).to_string(),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The paired input holds what its doc comment says, counted through
    /// the core on a smaller size: one group per pair, a third of each kind.
    #[test]
    fn the_paired_rows_make_one_group_per_pair() {
        let text = validation_core::call_tool_json("duplicate_report", paired(300).to_string().as_bytes())
            .expect("a valid call");
        let result: Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(result["duplicate_group_count"], 300);
        assert_eq!(result["rows_in_duplicate_groups"], 600);
    }
}
