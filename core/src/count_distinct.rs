//! `count_distinct`: entities on a stable key versus rows, with the gap
//! broken into its two causes (repeated keys and rows with no usable key).

use serde_json::Value;

use crate::abridge::Abridgement;
use crate::args::ArgReader;
use crate::arguments::Arguments;
use crate::entities::{group_by_key, read_keys, KeyedPlace};
use crate::error::{ErrorCode, ToolError};
use crate::findings::{abridged_envelope, object, verdict, Finding, Severity};
use crate::listing::{self, Listing};
use crate::output::Output;
use crate::py::repr::repr_str;
use crate::py::text;
use crate::source::cap_vec;

/// One `repeated_key` finding per key on more than one row, in order of
/// first appearance: the first `room` written out (all when `None`), and how
/// many there are in all.
fn repeated_key_findings(groups: &[(&str, Vec<&KeyedPlace>)], key: &str, room: Option<usize>) -> (Vec<Finding>, usize) {
    let mut findings = Vec::new();
    let repeated = groups.iter().filter(|(_, items)| items.len() > 1);
    let total = repeated.clone().count();
    for (group_key, items) in repeated.take(room.unwrap_or(usize::MAX)) {
        let numbers = items.iter().map(|item| (item.index + 1).to_string()).collect::<Vec<_>>().join(", ");
        findings.push(
            Finding::new(
                "repeated_key",
                Severity::Info,
                format!("key {} appears on {} rows (row numbers {numbers})", repr_str(group_key), items.len()),
            )
            .at(items[0].locator(Some(key)))
            .with_value(Some(items.len().into()))
            .expecting(1)
            .guide(
                "Expected for a transaction table, a problem for an entity table \u{2014} the tool cannot know which \
this is, so it reports the count rather than silently collapsing the rows.",
            ),
        );
    }
    (findings, total)
}

/// The `repeated_keys` entries, each with its row indexes (capped too: a key
/// on a million rows would otherwise list a million indexes).
fn repeated_keys_json(repeated: &[(&str, &Vec<&KeyedPlace>)], cap: Option<usize>) -> Value {
    repeated
        .iter()
        .map(|(k, items)| {
            let mut entry = object([
                ("key", (*k).into()),
                ("count", items.len().into()),
                (
                    "row_indexes",
                    items.iter().take(cap.unwrap_or(usize::MAX)).map(|item| Value::from(item.index)).collect(),
                ),
            ]);
            if let Some(omitted) = cap.map(|cap| items.len().saturating_sub(cap)).filter(|n| *n > 0) {
                entry.insert("row_indexes_omitted".into(), omitted.into());
            }
            Value::Object(entry)
        })
        .collect()
}

/// A key that names no column is an argument error.
fn check_key(key: &str) -> Result<(), ToolError> {
    if text::strip(key).is_empty() {
        return Err(ToolError::for_argument(
            ErrorCode::InvalidArgument,
            "key",
            format!(
                "key must be the name of the column holding the stable identifier, got {}. Example: \
count_distinct(rows, key=\"customer_id\")",
                repr_str(key)
            ),
        ));
    }
    Ok(())
}

/// The `count_distinct` tool.
pub(crate) fn count_distinct(args: Arguments) -> Result<Output, ToolError> {
    let mut reader = ArgReader::of_arguments(args)?;
    let source = reader.row_source();
    let key = reader.string("key");
    let case_sensitive = reader.bool_or("case_sensitive", false);
    let cap = reader.optional_cap("max_listed");
    let (lists, page) = (reader.optional_any("lists"), reader.optional_any("page"));
    reader.finish()?;
    check_key(&key)?;
    let listing = Listing::parse(&listing::COUNT_DISTINCT, cap, lists, page)?;

    let findings_window = listing.window("findings");
    let read =
        read_keys(source, &key, case_sensitive, listing.window("blank_key_rows").capped(), findings_window.capped())?;
    let groups = group_by_key(&read.keyed);
    // The findings list is capped as a whole: the held-back rows' findings
    // (read up to the cap, counted beyond it), then one per repeated key,
    // of which only those that can still be listed are written out.
    let mut findings = read.findings.items().to_vec();
    let mut findings_omitted = read.findings.omitted();
    let room = findings_window.limit.map(|cap| cap.saturating_sub(findings.len()));
    let (repeated_findings, repeated_total) = repeated_key_findings(&groups, &key, room);
    findings_omitted += repeated_total - repeated_findings.len();
    findings.extend(repeated_findings);

    let row_count = read.total;
    let distinct = groups.len();
    let difference = row_count - distinct;
    let from_repeated: usize = groups.iter().map(|(_, items)| items.len() - 1).sum();
    let from_blank = read.blank.total();

    let guidance = if row_count == 0 {
        findings.push(
            Finding::new("no_rows", Severity::Info, "no rows were supplied, so nothing was counted")
                .guide("Confirm the source actually returned data before reporting a count."),
        );
        "No rows were supplied, so there is nothing to count. This is not a count of zero yet.".to_owned()
    } else if difference == 0 {
        format!(
            "{distinct} distinct entities across {row_count} rows \u{2014} the two numbers agree, which is what an \
entity table should look like."
        )
    } else {
        format!(
            "{row_count} rows collapse to {distinct} distinct entities on {}: a difference of {difference} \
({from_repeated} from repeated keys, {from_blank} from rows with a blank key). Use {distinct} as the entity count \
and say which number you are reporting. If the key is repeated on many rows, check whether this is a transaction \
table (where that is expected) or an entity table (where it is not).",
            repr_str(&key)
        )
    };

    let mut repeated: Vec<(&str, &Vec<_>)> =
        groups.iter().filter(|(_, items)| items.len() > 1).map(|(k, items)| (*k, items)).collect();
    repeated.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then_with(|| a.0.cmp(b.0)));

    let mut abridgement = Abridgement::for_listing(&listing);
    let blank_rows: Vec<Value> = read.blank.items().iter().map(crate::entities::BlankKeyRow::to_json).collect();
    abridgement.note("blank_key_rows", read.blank.omitted());
    let repeated_total = repeated.len();
    abridgement.note("repeated_keys", listing.window("repeated_keys").apply(&mut repeated));
    match listing.page.map(|page| page.list) {
        Some("repeated_keys") => abridgement.paged(repeated_total),
        Some(_) => abridgement.paged(read.blank.total()),
        None => {}
    }
    if let Some(cap) = cap {
        let indexes_omitted = repeated.iter().map(|(_, items)| items.len().saturating_sub(cap)).sum();
        abridgement.mention("row_indexes", indexes_omitted);
    }
    let repeated_keys = repeated_keys_json(&repeated, cap);
    let rows_with_a_key = read.keyed.len();
    // Nothing below reads the rows: release them (the largest thing a call
    // holds) before the result is built, rather than hold both at once.
    drop(repeated);
    drop(groups);
    drop(read);
    // Without `findings` in `lists`, only the finding about no rows is left to list.
    findings_omitted += cap_vec(&mut findings, cap.filter(|_| listing.returns("findings")));
    if let Some(finding) = abridgement.finding(findings_omitted, row_count) {
        findings.push(finding);
    }

    let payload = object([
        ("stable_key", key.clone().into()),
        ("row_count", row_count.into()),
        ("distinct_count", distinct.into()),
        ("difference", difference.into()),
        (
            "difference_breakdown",
            Value::Object(object([
                ("from_repeated_keys", from_repeated.into()),
                ("from_rows_with_blank_key", from_blank.into()),
            ])),
        ),
        ("rows_with_a_key", rows_with_a_key.into()),
        ("rows_with_blank_key", from_blank.into()),
        ("blank_key_rows", Value::Array(blank_rows)),
        ("repeated_keys", repeated_keys),
    ]);
    let payload = abridgement.annotate(payload);
    let verdict = if difference == 0 { verdict::CLEAN } else { verdict::REVIEW_REQUIRED };
    let ok = difference == 0 && row_count > 0;
    Ok(abridged_envelope("count_distinct", ok, verdict, &findings, findings_omitted, guidance, payload))
}
