//! The two `duplicate_report` inputs issue 17 (item 5) named as unable to
//! finish under the server's default limits while every near-match pair was
//! scored: 40,000 rows in pairs, and 2,000 rows at a similarity threshold
//! of 0.99. The same inputs (`conformance_support::dedupe_inputs`) as
//! `mcp-host/tests/duplicates_at_scale.rs`, which checks their results by
//! reasoning; here they are timed. Neither sends
//! `max_listed`, so the server's default cap shortens the lists and not the
//! work: every group is still found and counted.

use conformance_support::dedupe_inputs::{numbered_names_arguments, paired_arguments};

use crate::data::Workload;

/// The two workloads.
pub(crate) fn at_scale() -> Vec<Workload> {
    vec![
        Workload {
            label: "duplicate_report 40,000 rows in pairs (name, postcode at 0.9)".into(),
            id: "duplicate_report-paired-40000".into(),
            tool: "duplicate_report",
            rows: 40_000,
            args: paired_arguments(20_000).to_string(),
        },
        Workload {
            label: "duplicate_report 2,000 rows at 0.99".into(),
            id: "duplicate_report-threshold-0.99-2000".into(),
            tool: "duplicate_report",
            rows: 2_000,
            args: numbered_names_arguments(2_000).to_string(),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// The paired input holds what its doc comment says, counted through
    /// the core on a smaller size: one group per pair, a third of each kind.
    #[test]
    fn the_paired_rows_make_one_group_per_pair() {
        let text = validation_core::call_tool_json("duplicate_report", paired_arguments(300).to_string().as_bytes())
            .expect("a valid call");
        let result: Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(result["duplicate_group_count"], 300);
        assert_eq!(result["rows_in_duplicate_groups"], 600);
    }
}
