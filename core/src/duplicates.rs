//! `duplicate_report`: suspected duplicate groups, returned for a person to
//! decide. Nothing is merged, deleted or chosen as the survivor.
//!
//! Three kinds of suspicion, each labelled: `same_key` (one key on several
//! rows), `same_signature` (different keys, identical `match_fields`) and
//! `near_match` (different keys, similar `match_fields`, only when the caller
//! sets a `similarity_threshold`, because "close enough" is a policy choice).

use std::collections::{BTreeMap, HashMap, HashSet};

use serde_json::Value;

use crate::abridge::Abridgement;
use crate::args::ArgReader;
use crate::arguments::Arguments;
use crate::entities::{group_by_key, read_rows, KeyedRow};
use crate::error::{ErrorCode, ToolError};
use crate::findings::{abridged_envelope, object, verdict, Finding, Locator, Severity};
use crate::hashing::Fixed;
use crate::json_rows::ColumnPositions;
use crate::listing::{self, LeftOut, Listing, PageOutcome};
use crate::near_match::{Clustering, Signature};
use crate::output::Output;
use crate::py::format::{format_2f, format_g, round_to};
use crate::py::repr::{repr, repr_str};
use crate::py::text;
use crate::source::{cap_vec, RowSource};

#[cfg(test)]
mod differential;

/// Members listed per group; the rest are counted in `members_omitted`.
const MAX_MEMBERS_PER_GROUP: usize = 20;

struct Group<'r, 'a> {
    id: String,
    kind: &'static str,
    reason: String,
    members: Vec<&'r KeyedRow<'a>>,
    omitted_members: usize,
    keys: Vec<String>,
    review_question: String,
    similarity: Option<f64>,
}

impl Group<'_, '_> {
    fn size(&self) -> usize {
        self.members.len() + self.omitted_members
    }

    fn to_json(&self) -> Value {
        let mut out = object([
            ("group_id", self.id.clone().into()),
            ("kind", self.kind.into()),
            ("reason", self.reason.clone().into()),
            ("size", self.size().into()),
            ("keys", self.keys.iter().map(|k| Value::from(k.as_str())).collect()),
            ("recommended_action", "human_review".into()),
            ("auto_merged", false.into()),
            ("decision_required", true.into()),
            ("review_question", self.review_question.clone().into()),
            ("members", self.members.iter().map(|member| member.to_json()).collect()),
        ]);
        if let Some(similarity) = self.similarity {
            out.insert("similarity".into(), round_to(similarity, 4).into());
        }
        if self.omitted_members > 0 {
            out.insert("members_omitted".into(), self.omitted_members.into());
        }
        Value::Object(out)
    }
}

/// Builds groups in order, numbering them and remembering which key sets
/// have been reported so one set of rows is not reported twice under two kinds.
struct GroupBook<'r, 'a> {
    groups: Vec<Group<'r, 'a>>,
    /// Members listed per group: the reference's 20, or fewer under `max_listed`.
    members_cap: usize,
    reported_key_sets: Vec<HashSet<String, Fixed>>,
    /// For each key, the reported sets naming it, ascending: a set holding
    /// every key of a group holds its first, so only these need looking at.
    sets_naming: HashMap<String, Vec<usize>, Fixed>,
}

impl<'r, 'a> GroupBook<'r, 'a> {
    fn add(
        &mut self,
        kind: &'static str,
        reason: String,
        members: &[&'r KeyedRow<'a>],
        review_question: String,
        similarity: Option<f64>,
    ) {
        let listed: Vec<_> = members.iter().take(self.members_cap).copied().collect();
        let mut keys: Vec<String> =
            members.iter().map(|m| m.key.clone()).collect::<HashSet<_, Fixed>>().into_iter().collect();
        keys.sort_unstable();
        for key in &keys {
            self.sets_naming.entry(key.clone()).or_default().push(self.reported_key_sets.len());
        }
        self.reported_key_sets.push(keys.iter().cloned().collect());
        self.groups.push(Group {
            id: format!("DUP-{:03}", self.groups.len() + 1),
            kind,
            reason,
            omitted_members: members.len() - listed.len(),
            members: listed,
            keys,
            review_question,
            similarity,
        });
    }

    /// True when an earlier group already names all of these keys. A group
    /// naming a key no earlier group named is new information and is kept.
    fn already_reported(&self, members: &[&KeyedRow]) -> bool {
        let found = match members.first() {
            // Every set names all of no keys.
            None => !self.reported_key_sets.is_empty(),
            Some(first) => self.sets_naming.get(&first.key).is_some_and(|sets| {
                sets.iter().any(|&set| members.iter().all(|m| self.reported_key_sets[set].contains(&m.key)))
            }),
        };
        // The test builds hold the index to the scan it replaces (every set
        // in turn), on every report the tests make.
        #[cfg(test)]
        assert_eq!(
            found,
            self.reported_key_sets.iter().any(|set| members.iter().all(|m| set.contains(&m.key))),
            "the key index and the scan of every reported set disagree"
        );
        found
    }
}

fn sorted_keys(members: &[&KeyedRow]) -> Vec<String> {
    let mut keys: Vec<String> = members.iter().map(|m| m.key.clone()).collect();
    keys.sort_unstable();
    keys
}

fn key_locator(member: &KeyedRow, column: &str) -> Locator {
    member.locator(Some(column))
}

fn render_signature(fields: &[String], token: &[String]) -> String {
    fields.iter().zip(token).map(|(name, value)| format!("{name}={value}")).collect::<Vec<_>>().join(" / ")
}

/// The arguments of one report, after validation.
struct Request {
    key: String,
    match_fields: Option<Vec<String>>,
    threshold: Option<f64>,
    case_sensitive: bool,
    max_groups: usize,
    /// `max_listed`: a cap on every list in the result.
    cap: Option<usize>,
    /// `max_listed`, `lists` and `page`: which entries the result lists.
    listing: Listing,
}

impl Report<'_, '_> {
    /// Every group found, listed or not.
    fn group_count(&self) -> usize {
        self.groups.len() + self.groups_over_max_groups + self.groups_over_cap
    }
}

struct Report<'r, 'a> {
    rows_in: usize,
    distinct_keys: usize,
    groups: Vec<Group<'r, 'a>>,
    /// Groups beyond `max_groups` (the reference's cap).
    groups_over_max_groups: usize,
    /// Further groups within `max_groups` left out by `max_listed`, `lists`
    /// or `page`.
    groups_over_cap: usize,
    /// Groups within `max_groups`, listed or not: the list a page walks.
    groups_within_max_groups: usize,
    /// Rows in every group within `max_groups`, listed or not.
    rows_in_groups: usize,
    findings: Vec<Finding>,
}

fn same_key_groups<'r, 'a>(
    by_key: &[(&'r str, Vec<&'r KeyedRow<'a>>)],
    column: &str,
    book: &mut GroupBook<'r, 'a>,
    findings: &mut Vec<Finding>,
) {
    for (key_name, items) in by_key.iter().filter(|(_, items)| items.len() > 1) {
        let count = items.len();
        let numbers = items
            .iter()
            .take(MAX_MEMBERS_PER_GROUP)
            .map(|item| (item.index + 1).to_string())
            .collect::<Vec<_>>()
            .join(", ");
        let quoted = repr_str(key_name);
        book.add(
            "same_key",
            format!("key {quoted} appears on {count} rows (row numbers {numbers})"),
            items,
            format!(
                "Are these {count} rows the same entity recorded more than once, or {count} separate records that \
legitimately share the key {quoted}?"
            ),
            None,
        );
        findings.push(
            Finding::new("duplicate_key", Severity::Warning, format!("key {quoted} appears on {count} rows"))
                .at(key_locator(items[0], column))
                .with_value(Some(count.into()))
                .guide("Listed for review. Nothing was merged or removed."),
        );
    }
}

fn signature_groups<'r, 'a>(
    candidates: &[(&'r KeyedRow<'a>, Vec<String>)],
    fields: &[String],
    column: &str,
    book: &mut GroupBook<'r, 'a>,
    findings: &mut Vec<Finding>,
) {
    // Only a signature two candidates share makes a group: counted first,
    // so that only their candidates are sorted, in signature order, those
    // of one signature in their own order (a stable sort). Each run of one
    // signature is then a group.
    let mut counts: HashMap<&[String], u32, Fixed> =
        HashMap::with_capacity_and_hasher(candidates.len(), Fixed::default());
    for (_, token) in candidates {
        *counts.entry(token.as_slice()).or_default() += 1;
    }
    let mut order: Vec<usize> =
        (0..candidates.len()).filter(|&at| counts.get(candidates[at].1.as_slice()) > Some(&1)).collect();
    drop(counts);
    order.sort_by(|&a, &b| candidates[a].1.cmp(&candidates[b].1));
    for run in order.chunk_by(|&a, &b| candidates[a].1 == candidates[b].1) {
        if run.len() < 2 {
            continue;
        }
        let token = &candidates[run[0]].1;
        let items: Vec<&'r KeyedRow<'a>> = run.iter().map(|&at| candidates[at].0).collect();
        let items = &items;
        if book.already_reported(items) {
            continue;
        }
        let count = items.len();
        let rendered = render_signature(fields, token);
        let keys = sorted_keys(items);
        book.add(
            "same_signature",
            format!("{count} different keys share the signature {rendered}"),
            items,
            format!(
                "Do these {count} keys ({}) refer to one entity that was registered more than once?",
                keys.join(", ")
            ),
            None,
        );
        findings.push(
            Finding::new(
                "same_signature",
                Severity::Warning,
                format!("{count} different keys share the signature {rendered}"),
            )
            .at(key_locator(items[0], column))
            .with_value(Some(keys.into_iter().map(Value::from).collect()))
            .guide("Listed for review. Keys were not rewritten and rows were not merged."),
        );
    }
}

/// Greedy clustering in input order against each cluster's first signature,
/// so the result is deterministic for a given input order (`near_match.rs`
/// finds the clusters; `cluster` is it, or in tests the literal rule).
fn near_match_groups<'r, 'a>(
    candidates: &[(&'r KeyedRow<'a>, Vec<String>)],
    fields: &[String],
    threshold: f64,
    column: &str,
    cluster: Clustering,
    book: &mut GroupBook<'r, 'a>,
    findings: &mut Vec<Finding>,
) {
    let signatures: Vec<Signature> =
        candidates.iter().map(|(_, token)| token.iter().map(|part| part.chars().collect()).collect()).collect();
    let clusters = cluster(&signatures, threshold);
    drop(signatures);

    for cluster in clusters {
        let members: Vec<&KeyedRow> = cluster.members.iter().map(|&at| candidates[at].0).collect();
        if members.len() < 2 || book.already_reported(&members) {
            continue;
        }
        let count = members.len();
        // The first member's signature, as the cluster was compared against.
        let rendered = render_signature(fields, &candidates[cluster.members[0]].1);
        let score = format_2f(cluster.score);
        book.add(
            "near_match",
            format!(
                "{count} different keys have similar values (score {score} or better, threshold {}) on {rendered}",
                format_g(threshold)
            ),
            &members,
            format!(
                "Are these {count} keys the same entity with a spelling difference, or genuinely different entities?"
            ),
            Some(cluster.score),
        );
        findings.push(
            Finding::new(
                "near_match",
                Severity::Warning,
                format!("{count} different keys are similar ({score}) on {rendered}"),
            )
            .at(key_locator(members[0], column))
            .with_value(Some(sorted_keys(&members).into_iter().map(Value::from).collect()))
            .guide(
                "A suspicion produced by string similarity, not a decision. Nothing was merged. Similarity is \
symmetric and computed with difflib.SequenceMatcher.",
            ),
        );
    }
}

fn find_groups<'r, 'a>(
    read: &'r crate::entities::ReadRows<'a>,
    request: &Request,
    cluster: Clustering,
) -> Report<'r, 'a> {
    let mut findings = read.findings.clone();
    // Each key's rows, in key order (the keys are distinct, so any sort
    // gives the one order): sorted once rather than kept sorted row by row.
    let mut by_key = group_by_key(&read.keyed);
    by_key.sort_unstable_by_key(|(key, _)| *key);
    let members_cap = request.cap.map_or(MAX_MEMBERS_PER_GROUP, |cap| cap.min(MAX_MEMBERS_PER_GROUP));
    let mut book =
        GroupBook { groups: Vec::new(), members_cap, reported_key_sets: Vec::new(), sets_naming: HashMap::default() };
    same_key_groups(&by_key, &request.key, &mut book, &mut findings);

    if let Some(fields) = request.match_fields.as_deref().filter(|fields| !fields.is_empty()) {
        // One row per key (its first), in sorted key order, with its signature.
        let mut at = ColumnPositions::default();
        let candidates: Vec<(&KeyedRow, Vec<String>)> = by_key
            .iter()
            .filter_map(|(_, items)| {
                items[0].row.signature(fields, request.case_sensitive, &mut at).map(|token| (items[0], token))
            })
            .collect();
        signature_groups(&candidates, fields, &request.key, &mut book, &mut findings);
        if let Some(threshold) = request.threshold {
            near_match_groups(&candidates, fields, threshold, &request.key, cluster, &mut book, &mut findings);
        }
    }

    let mut groups = book.groups;
    let groups_over_max_groups = groups.len().saturating_sub(request.max_groups);
    groups.truncate(request.max_groups);
    let rows_in_groups = groups.iter().map(Group::size).sum();
    let groups_within_max_groups = groups.len();
    let groups_over_cap = request.listing.window("groups").apply(&mut groups);
    Report {
        rows_in: read.total,
        distinct_keys: by_key.len(),
        groups,
        groups_over_max_groups,
        groups_over_cap,
        groups_within_max_groups,
        rows_in_groups,
        findings,
    }
}

fn argument_error(argument: &str, message: String) -> ToolError {
    ToolError::for_argument(ErrorCode::InvalidArgument, argument, message)
}

/// Read and check the arguments, in the reference's order.
fn request(args: Arguments) -> Result<(RowSource, Request, String), ToolError> {
    let mut reader = ArgReader::of_arguments(args)?;
    let source = reader.row_source();
    let key = reader.string("key");
    let match_fields = reader.optional_string_list("match_fields");
    let threshold = reader.optional_float("similarity_threshold");
    let case_sensitive = reader.bool_or("case_sensitive", false);
    let max_groups = reader.int_or("max_groups", 50);
    let cap = reader.optional_cap("max_listed");
    let (lists, page) = (reader.optional_any("lists"), reader.optional_any("page"));
    reader.finish()?;

    if text::strip(&key).is_empty() {
        return Err(argument_error(
            "key",
            format!(
                "key must be the name of the column holding the identifier, got {}. Example: \
duplicate_report(rows, key=\"customer_id\")",
                repr_str(&key)
            ),
        ));
    }
    let match_fields = match match_fields {
        Some(fields) if fields.iter().any(|name| text::strip(name).is_empty()) => {
            let given = Value::Array(fields.into_iter().map(Value::String).collect());
            return Err(argument_error(
                "match_fields",
                format!(
                    "match_fields must be an array of column names, for example [\"name\", \"postcode\"]. Got {}",
                    repr(&given)
                ),
            ));
        }
        Some(fields) => Some(fields.iter().map(|name| text::strip(name).to_owned()).collect()),
        None => None,
    };
    if let Some(threshold) = threshold {
        if !(threshold > 0.0 && threshold <= 1.0) {
            return Err(argument_error(
                "similarity_threshold",
                format!(
                    "similarity_threshold must be above 0 and at most 1, got {}. 0.9 is a reasonable starting point.",
                    format_g(threshold)
                ),
            ));
        }
    }
    let listing = Listing::parse(&listing::DUPLICATE_REPORT, cap, lists, page)?;
    let request = Request {
        key: text::strip(&key).to_owned(),
        match_fields,
        threshold,
        case_sensitive,
        max_groups: usize::try_from(max_groups.max(0)).unwrap_or(usize::MAX),
        cap,
        listing,
    };
    Ok((source, request, key))
}

fn guidance(report: &Report, request: &Request, given_key: &str, page: Option<&PageOutcome>) -> String {
    let group_count = report.group_count();
    if report.rows_in == 0 {
        return "No rows were supplied, so nothing was checked. This is not evidence of clean data.".into();
    }
    if group_count == 0 {
        let signature = match &request.match_fields {
            Some(fields) if !fields.is_empty() => {
                let listed = Value::Array(fields.iter().map(|f| Value::from(f.as_str())).collect());
                format!(" and the signature {}", repr(&listed))
            }
            _ => String::new(),
        };
        return format!(
            "No duplicate suspicions found across {} rows on {}{signature}. Note what that does and does not mean: \
it does not mean no duplicate exists, only that none is visible from the fields and key you supplied.",
            report.rows_in,
            repr_str(given_key)
        );
    }
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    for group in &report.groups {
        *kinds.entry(group.kind).or_default() += 1;
    }
    let rendered = kinds.iter().map(|(kind, count)| format!("{kind} ({count})")).collect::<Vec<_>>().join(", ");
    // Under max_listed the kinds are those of the listed groups only: say so.
    let omitted = report.groups_over_max_groups + report.groups_over_cap;
    // Under `page`, also where the page is.
    let left_out = request.listing.left_out("groups");
    let why = match left_out {
        LeftOut::Page => page.map(|page| format!(" ({})", page.describe())).unwrap_or_default(),
        LeftOut::NotAsked | LeftOut::Cap(_) => String::new(),
    };
    let rendered = if report.groups_over_cap == 0 {
        rendered
    } else if let LeftOut::NotAsked = left_out {
        format!(
            "none of them listed, since `lists` does not ask for `groups`; all {omitted} counted in `groups_omitted`"
        )
    } else if report.groups.is_empty() {
        format!("none listed in `groups`{why}, all {omitted} counted in `groups_omitted`")
    } else {
        format!(
            "{} listed in `groups`{why}: {rendered}; {omitted} more counted in `groups_omitted`",
            report.groups.len()
        )
    };
    format!(
        "{group_count} suspected duplicate group(s) across {} rows: {rendered}. Nothing has been merged or deleted. \
Present these groups to a human with the `review_question` for each one; do not resolve them yourself and do not \
report a deduplicated count as if the merge had happened.",
        report.rows_in
    )
}

/// The `duplicate_report` tool.
pub(crate) fn duplicate_report(args: Arguments) -> Result<Output, ToolError> {
    report_with(args, crate::near_match::clusters)
}

/// `duplicate_report` with `cluster` finding the near matches.
fn report_with(args: Arguments, cluster: Clustering) -> Result<Output, ToolError> {
    let (source, request, given_key) = request(args)?;
    let read = read_rows(&source, &request.key, request.case_sensitive)?;
    let report = find_groups(&read, &request, cluster);

    // Without `findings` in `lists`, each key's and group's finding is left
    // out (its entry says the same); the one about no rows is still listed.
    let listing = &request.listing;
    let (mut findings, entry_findings_omitted) =
        if listing.returns("findings") { (report.findings.clone(), 0) } else { (Vec::new(), report.findings.len()) };
    if report.rows_in == 0 {
        findings.push(Finding::new(
            "no_rows",
            Severity::Info,
            "no rows were supplied, so no duplicate check was possible",
        ));
    }
    // Said after the findings list is capped, so it is never cut from it.
    let mut truncated = None;
    if report.groups_over_max_groups > 0 {
        truncated = Some(
            Finding::new(
                "groups_truncated",
                Severity::Info,
                format!(
                    "{} further duplicate group(s) were not returned because max_groups is {}",
                    report.groups_over_max_groups, request.max_groups
                ),
            )
            .guide(
                "The returned groups are a subset. Raise max_groups, or narrow the input, before concluding \
anything about how many duplicates exist.",
            ),
        );
    }

    let mut abridgement = Abridgement::for_listing(listing);
    let mut blank: Vec<&crate::entities::BlankKeyRow> = read.blank.iter().collect();
    abridgement.note("blank_key_rows", listing.window("blank_key_rows").apply(&mut blank));
    let blank_rows: Vec<Value> = blank.into_iter().map(crate::entities::BlankKeyRow::to_json).collect();
    match listing.page.map(|page| page.list) {
        Some("groups") => abridgement.paged(report.groups_within_max_groups),
        Some(_) => abridgement.paged(read.blank.len()),
        None => {}
    }
    // `groups_omitted` already counts every group not listed: the finding
    // names the same count, and says which part only max_groups can show.
    if report.groups_over_cap > 0 {
        let shows = if listing.is_selective() {
            "which only a larger max_groups shows"
        } else {
            "which a larger max_listed does not show"
        };
        let beyond_max_groups = (report.groups_over_max_groups > 0).then(|| {
            format!("{} of them beyond max_groups {}, {shows}", report.groups_over_max_groups, request.max_groups)
        });
        abridgement.mention_with("groups", report.groups_over_max_groups + report.groups_over_cap, beyond_max_groups);
    }
    // Without max_groups' finding in the count: it is added after the cap.
    let findings_omitted =
        entry_findings_omitted + cap_vec(&mut findings, request.cap.filter(|_| listing.returns("findings")));
    findings.extend(truncated);
    if let Some(finding) = abridgement.finding(findings_omitted, report.rows_in) {
        findings.push(finding);
    }

    let group_count = report.group_count();
    let payload = object([
        ("stable_key", request.key.clone().into()),
        ("row_count", report.rows_in.into()),
        ("distinct_keys", report.distinct_keys.into()),
        ("duplicate_group_count", group_count.into()),
        ("rows_in_duplicate_groups", report.rows_in_groups.into()),
        ("auto_merged", false.into()),
        ("nothing_was_merged_or_deleted", true.into()),
        ("blank_key_rows", Value::Array(blank_rows)),
        ("groups", report.groups.iter().map(Group::to_json).collect()),
        ("groups_omitted", (report.groups_over_max_groups + report.groups_over_cap).into()),
    ]);
    let payload = abridgement.annotate(payload);
    let verdict = if group_count > 0 { verdict::REVIEW_REQUIRED } else { verdict::CLEAN };
    let ok = group_count == 0 && report.rows_in > 0;
    let guidance = guidance(&report, &request, &given_key, abridgement.page());
    Ok(abridged_envelope("duplicate_report", ok, verdict, &findings, findings_omitted, guidance, payload))
}
