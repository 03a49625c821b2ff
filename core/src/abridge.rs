//! Results sized for a model: which lists were shortened, and by how much.
//!
//! With `max_listed`, every list in a result keeps at most that many entries,
//! while counts, tallies, summaries and verdicts still cover every row. Each
//! shortened list gets a `<list>_omitted` count beside it, and a
//! `result_abridged` finding says so and how to get the rest. A result that
//! needed no shortening is exactly the result without a cap.
//!
//! With `lists` or `page` (see `listing.rs`), the finding also says why each
//! list left entries out: not asked for, `max_listed`, or where the page is.

use serde_json::{Map, Value};

use crate::findings::{Finding, Severity};
use crate::listing::{LeftOut, Listing, PageOutcome};

/// The shortened lists of one result.
pub(crate) struct Abridgement<'l> {
    /// `max_listed`.
    cap: Option<usize>,
    /// What the call asked to be listed, for a tool whose calls can choose
    /// (`lists`, `page`).
    listing: Option<&'l Listing>,
    omitted: Vec<(&'static str, usize)>,
    /// Lists that report their own omitted count, with a note on the count.
    mentioned: Vec<(&'static str, usize, Option<String>)>,
    /// The paged list's outcome, when the call asked for a page.
    page: Option<PageOutcome>,
}

impl<'l> Abridgement<'l> {
    /// The abridgement of a result capped by `max_listed` alone.
    pub(crate) fn new(cap: Option<usize>) -> Self {
        Abridgement { cap, listing: None, omitted: Vec::new(), mentioned: Vec::new(), page: None }
    }

    /// The abridgement of a result whose call could also give `lists` and `page`.
    pub(crate) fn for_listing(listing: &'l Listing) -> Self {
        Abridgement { listing: Some(listing), ..Abridgement::new(listing.cap) }
    }

    /// Whether the call gave `lists` or `page`.
    fn is_selective(&self) -> bool {
        self.listing.is_some_and(Listing::is_selective)
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

    /// Record the length of the paged list (when the call asked for a
    /// page): the result then carries `page`, and the sentences say where
    /// the page is.
    pub(crate) fn paged(&mut self, total: usize) {
        self.page = self.listing.and_then(|listing| listing.paged(total));
    }

    /// The paged list's outcome, once [`Self::paged`] has recorded it.
    pub(crate) fn page(&self) -> Option<&PageOutcome> {
        self.page.as_ref()
    }

    pub(crate) fn is_abridged(&self) -> bool {
        !self.omitted.is_empty()
    }

    /// Put each `<list>_omitted` count right after its list, and the page
    /// (if one was asked for) last.
    pub(crate) fn annotate(&self, payload: Map<String, Value>) -> Map<String, Value> {
        if !self.is_abridged() && self.page.is_none() {
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
        if let Some(page) = &self.page {
            out.insert("page".into(), page.to_json());
        }
        out
    }

    /// Why `list` left entries out, in words (`None`: nothing to add).
    fn reason(&self, list: &str) -> Option<String> {
        match self.listing?.left_out(list) {
            LeftOut::Cap(cap) => cap.map(|cap| format!("max_listed {cap}")),
            LeftOut::NotAsked => Some("not asked for in `lists`".to_owned()),
            LeftOut::Page => self.page.as_ref().map(PageOutcome::describe),
        }
    }

    /// "N from `list`", with why when the call chose its lists or a page.
    fn part(&self, list: &str, n: usize, note: Option<&str>) -> String {
        let reason = if self.is_selective() { self.reason(list) } else { None };
        let why: Vec<&str> = reason.as_deref().into_iter().chain(note).collect();
        if why.is_empty() {
            format!("{n} from `{list}`")
        } else {
            format!("{n} from `{list}` ({})", why.join("; "))
        }
    }

    /// The finding that says the result is abridged, or `None` if it is not.
    /// `findings_omitted` is how many findings the findings list leaves out.
    pub(crate) fn finding(&self, findings_omitted: usize, rows_in: usize) -> Option<Finding> {
        self.finding_over(findings_omitted, rows_in, "rows")
    }

    /// [`Self::finding`] for a check whose input is `count` `items`
    /// (`reconcile` counts movements, not rows).
    pub(crate) fn finding_over(&self, findings_omitted: usize, count: usize, items: &str) -> Option<Finding> {
        let mut parts: Vec<String> = self.omitted.iter().map(|(list, n)| self.part(list, *n, None)).collect();
        parts.extend(self.mentioned.iter().map(|(list, n, note)| self.part(list, *n, note.as_deref())));
        if findings_omitted > 0 {
            parts.push(self.part("findings", findings_omitted, None));
        }
        if parts.is_empty() {
            return None;
        }
        let covers = format!("Every count, summary, tally and verdict still covers all {count} {items}");
        if self.is_selective() {
            return Some(
                Finding::new(
                    "result_abridged",
                    Severity::Info,
                    format!("this result leaves entries out of its lists: {}. {covers}", parts.join(", ")),
                )
                .guide(
                    "Nothing was dropped from the check, only from the listing. To see omitted entries, name their \
list in `lists`, raise max_listed, or walk one list with `page` (the result's `page.next_page` asks for the next \
page); every count stays the same. Report the counts, not the length of the lists.",
                ),
            );
        }
        let cap = self.cap.unwrap_or_default();
        Some(
            Finding::new(
                "result_abridged",
                Severity::Info,
                format!(
                    "this result lists at most {cap} entries per list (max_listed), so entries were left out: {}. \
{covers}",
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
