//! One column's profile as the result shows it: observed facts, never rules
//! (the drafted rules are in `suggested_contract`, with their evidence).

use serde_json::{Map, Value};

use super::draft::ColumnFacts;
use super::key_value;
use super::profile::EXAMPLES;
use super::types::CANDIDATES;
use crate::contract::ColumnType;

/// How many of the most frequent values a profile shows.
pub(super) const TOP_VALUES: usize = 5;

/// The profile of one column of a table of `rows` rows; samples (the top
/// values and the examples) are at most `cap` long too.
pub(super) fn column(facts: &ColumnFacts<'_>, rows: usize, cap: Option<usize>) -> Value {
    let (tally, profile) = (facts.tally, facts.profile);
    let mut out = Map::new();
    out.insert("name".into(), facts.name.into());
    out.insert("type".into(), tally.chosen().map_or(Value::Null, |t| t.name().into()));
    out.insert("values".into(), tally.non_blank.into());
    out.insert("blank".into(), tally.blank.into());
    out.insert("missing".into(), facts.missing.into());
    out.insert("distinct".into(), profile.distinct_count().into());
    let mut failures = Map::new();
    for candidate in CANDIDATES.into_iter().chain([ColumnType::String]) {
        failures.insert(candidate.name().into(), tally.failures(candidate).unwrap_or(0).into());
    }
    out.insert("type_failures".into(), Value::Object(failures));
    if let Some((near, fails)) = tally.near_miss() {
        let mut nearest = Map::new();
        nearest.insert("type".into(), near.name().into());
        nearest.insert("failing".into(), fails.into());
        out.insert("nearest_type".into(), Value::Object(nearest));
    }
    if profile.near.is_some() {
        let exceptions = profile.exceptions.items().iter().map(|exception| {
            let mut entry = super::row_locator(exception.row, exception.line);
            entry.insert("value".into(), exception.value.clone());
            Value::Object(entry)
        });
        out.insert("exceptions".into(), exceptions.collect());
        if profile.exceptions.omitted() > 0 {
            out.insert("exceptions_omitted".into(), profile.exceptions.omitted().into());
        }
    }
    if let Some((least, most)) = profile.extremes.range() {
        out.insert("min".into(), least.clone());
        out.insert("max".into(), most.clone());
    }
    if let Some((shortest, longest)) = profile.length {
        let mut length = Map::new();
        length.insert("min".into(), shortest.into());
        length.insert("max".into(), longest.into());
        out.insert("length".into(), Value::Object(length));
    }
    out.insert("shape".into(), profile.shape.pattern().map_or(Value::Null, Value::from));
    if profile.read_as == ColumnType::String {
        out.insert("formats".into(), profile.formats.iter().map(|format| Value::from(format.name())).collect());
    }
    let sample = |limit: usize| cap.map_or(limit, |cap| cap.min(limit));
    out.insert("top_values".into(), top_values(facts, sample(TOP_VALUES)));
    out.insert("examples".into(), profile.examples.iter().take(sample(EXAMPLES)).cloned().collect());
    out.insert("surrounding_whitespace".into(), profile.padded.into());
    out.insert("key_candidate".into(), facts.is_key_candidate(rows).into());
    Value::Object(out)
}

/// The `limit` most frequent values, ties in the order first seen, each
/// as the column's type reads it.
fn top_values(facts: &ColumnFacts<'_>, limit: usize) -> Value {
    let counts = &facts.profile.counts;
    // Most frequent first, then first seen (entries are numbered in that
    // order), in one pass over the counts keeping the best `limit` in order:
    // an entry comes after every entry before it with as many values, so a
    // tie with the last kept is no better. (A million distinct values are
    // a million counts, read once in order; selecting among their indices
    // read each count at a scattered place, several times.)
    let mut best: Vec<usize> = Vec::with_capacity(limit + 1);
    for (entry, &count) in counts.iter().enumerate() {
        if limit == 0 || (best.len() == limit && best.last().is_some_and(|&last| counts[last] >= count)) {
            continue;
        }
        let at = best.partition_point(|&kept| counts[kept] >= count);
        best.insert(at, entry);
        best.truncate(limit);
    }
    best.into_iter()
        .map(|entry| {
            // Entries are numbered in the order the table holds them.
            let key = facts.profile.value_key(entry);
            let value = key.and_then(key_value).unwrap_or(Value::Null);
            // The key is Python's `==`, under which `True` is `1`: a boolean
            // column's value reads back as 1 or 0, so show the boolean.
            let value = match value {
                Value::Number(n) if facts.profile.read_as == ColumnType::Boolean => Value::Bool(n.as_u64() == Some(1)),
                other => other,
            };
            let mut out = Map::new();
            out.insert("value".into(), value);
            out.insert("count".into(), counts[entry].into());
            Value::Object(out)
        })
        .collect()
}
