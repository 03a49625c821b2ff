//! Results sized for a model: which lists were shortened, and by how much.
//!
//! With `max_listed`, every list in a result keeps at most that many entries,
//! while counts, tallies, summaries and verdicts still cover every row. Each
//! shortened list gets a `<list>_omitted` count beside it, and a
//! `result_abridged` finding says so and how to get the rest. A result that
//! needed no shortening is exactly the result without a cap.

use serde_json::{Map, Value};

use crate::findings::{Finding, Severity};

/// The shortened lists of one result.
pub(crate) struct Abridgement {
    cap: Option<usize>,
    omitted: Vec<(&'static str, usize)>,
    /// Lists that report their own omitted count, with a note on the count.
    mentioned: Vec<(&'static str, usize, Option<String>)>,
}

impl Abridgement {
    pub(crate) fn new(cap: Option<usize>) -> Self {
        Abridgement { cap, omitted: Vec::new(), mentioned: Vec::new() }
    }

    /// Record that `omitted` entries of `list` were left out (0 records nothing).
    pub(crate) fn note(&mut self, list: &'static str, omitted: usize) {
        if omitted > 0 {
            self.omitted.push((list, omitted));
        }
    }

    /// Record entries left out of a list that already reports its own
    /// omitted count: named in the finding, given no second count.
    pub(crate) fn mention(&mut self, list: &'static str, omitted: usize) {
        self.mention_with(list, omitted, None);
    }

    /// [`Self::mention`], with a note on the count.
    pub(crate) fn mention_with(&mut self, list: &'static str, omitted: usize, note: Option<String>) {
        if omitted > 0 {
            self.mentioned.push((list, omitted, note));
        }
    }

    pub(crate) fn is_abridged(&self) -> bool {
        !self.omitted.is_empty()
    }

    /// Put each `<list>_omitted` count right after its list.
    pub(crate) fn annotate(&self, payload: Map<String, Value>) -> Map<String, Value> {
        if !self.is_abridged() {
            return payload;
        }
        let mut out = Map::new();
        for (key, value) in payload {
            let omitted = self.omitted.iter().find(|(list, _)| *list == key).map(|(_, n)| *n);
            out.insert(key.clone(), value);
            if let Some(omitted) = omitted {
                out.insert(format!("{key}_omitted"), omitted.into());
            }
        }
        out
    }

    /// The finding that says the result is abridged, or `None` if it is not.
    /// `findings_omitted` is how many findings the findings list leaves out.
    pub(crate) fn finding(&self, findings_omitted: usize, rows_in: usize) -> Option<Finding> {
        self.finding_over(findings_omitted, rows_in, "rows")
    }

    /// [`Self::finding`] for a check whose input is `count` `items`
    /// (`reconcile` counts movements, not rows).
    pub(crate) fn finding_over(&self, findings_omitted: usize, count: usize, items: &str) -> Option<Finding> {
        let mut parts: Vec<String> = self.omitted.iter().map(|(list, n)| format!("{n} from `{list}`")).collect();
        parts.extend(self.mentioned.iter().map(|(list, n, note)| match note {
            Some(note) => format!("{n} from `{list}` ({note})"),
            None => format!("{n} from `{list}`"),
        }));
        if findings_omitted > 0 {
            parts.push(format!("{findings_omitted} from `findings`"));
        }
        if parts.is_empty() {
            return None;
        }
        let cap = self.cap.unwrap_or_default();
        Some(
            Finding::new(
                "result_abridged",
                Severity::Info,
                format!(
                    "this result lists at most {cap} entries per list (max_listed), so entries were left out: {}. \
Every count, summary, tally and verdict still covers all {count} {items}",
                    parts.join(", ")
                ),
            )
            .guide(
                "Nothing was dropped from the check, only from the listing. To see the omitted entries, call again \
with a larger max_listed (every count stays the same); report the counts, not the length of the lists.",
            ),
        )
    }
}
