//! The `near_match` clusters of `duplicate_report`: the reference's greedy
//! clustering by `difflib` similarity, without comparing every pair where the
//! threshold allows.
//!
//! The rule is the reference's. Signatures are taken in order; each joins the
//! first cluster, in the order the clusters were opened, whose first
//! signature scores at least the threshold against it, where the score is the
//! lowest of the fields' `SequenceMatcher(None, first, new).ratio()`; a
//! signature no cluster takes opens a new one. Followed literally, that is
//! one score per signature and open cluster: quadratic, in `ratio`, the
//! expensive part.
//!
//! Here a cluster is scored only if it can pass. The prefix index
//! ([`prefix_index`]) names every cluster whose first signature can share
//! enough characters with the new one to reach the threshold (in the field
//! where that names the fewest); difflib's own upper bounds, `real_quick_ratio` (the lengths)
//! then `quick_ratio` (the characters), rule out more, field by field; and
//! `ratio` decides the rest, in the order the clusters were opened. A bound
//! is never below the ratio (the same floating-point operations on a larger
//! count), so no cluster the literal rule would take is ever skipped, and the
//! first that passes here is the one the literal rule picks.

#[cfg(test)]
pub(crate) mod generated;
#[cfg(test)]
pub(crate) mod literal;
mod overlap;
mod prefix_index;
mod profile;
#[cfg(test)]
mod tests;

use crate::py::difflib;
use prefix_index::PrefixIndex;
use profile::Profiles;

/// A signature: each match field's value, as code points.
pub(crate) type Signature = Vec<Vec<char>>;

/// One cluster of signatures, by their positions in the input.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Cluster {
    /// In input order; every later member was scored against the first.
    pub(crate) members: Vec<usize>,
    /// The lowest score of a later member against the first (1.0 alone).
    pub(crate) score: f64,
}

/// A clustering rule: [`clusters`], or in tests the literal one it must equal.
pub(crate) type Clustering = fn(&[Signature], f64) -> Vec<Cluster>;

/// The reference's greedy clusters of `signatures` at `threshold` (see the
/// module's documentation), singletons included, in the order they opened.
pub(crate) fn clusters(signatures: &[Signature], threshold: f64) -> Vec<Cluster> {
    let sorted: Vec<Signature> = signatures.iter().map(sorted_fields).collect();
    // The filters need the same fields, at least one, on every signature (as
    // every report has) and a threshold above 0. Without them every open
    // cluster is tried in turn: at 0 or below every score passes, so the
    // first cluster takes every signature, and with no field the score is
    // the empty minimum (infinity), so the same holds. (A NaN threshold,
    // which no score passes, is refused as an argument before this runs.)
    let fields = signatures.first().map_or(0, Vec::len);
    let uniform = fields > 0 && signatures.iter().all(|signature| signature.len() == fields);
    let mut filters = (uniform && threshold > 0.0)
        .then(|| (PrefixIndex::new(signatures, &sorted, threshold), Profiles::new(signatures)));
    let mut clusters: Vec<Cluster> = Vec::new();
    let mut candidates: Vec<usize> = Vec::new();
    for (position, signature) in signatures.iter().enumerate() {
        match &mut filters {
            Some((index, _)) => index.candidates(position, &mut candidates),
            None => {
                candidates.clear();
                candidates.extend(0..clusters.len());
            }
        }
        let placed = candidates.iter().find_map(|&at| {
            let first = clusters[at].members[0];
            if filters.as_ref().is_some_and(|(_, profiles)| !profiles.may_reach(first, position, threshold)) {
                return None;
            }
            let score = score_if_close(&signatures[first], &sorted[first], signature, &sorted[position], threshold)?;
            Some((at, score))
        });
        match placed {
            Some((at, score)) => {
                let cluster = &mut clusters[at];
                cluster.members.push(position);
                cluster.score = cluster.score.min(score);
            }
            None => {
                if let Some((index, _)) = &mut filters {
                    index.insert(position, clusters.len());
                }
                clusters.push(Cluster { members: vec![position], score: 1.0 });
            }
        }
    }
    clusters
}

/// Each field's code points in ascending order: what `quick_ratio` and the
/// prefix index read (both depend only on which characters occur how often).
fn sorted_fields(signature: &Signature) -> Signature {
    signature
        .iter()
        .map(|field| {
            let mut sorted = field.clone();
            sorted.sort_unstable();
            sorted
        })
        .collect()
}

/// The score of `new` against a cluster's `first` signature when it reaches
/// `threshold`, else `None`, once [`Profiles::may_reach`] has let it
/// through. `quick_ratio` goes first: it is at least its field's ratio, so
/// when it is below the threshold the lowest ratio is too, and the literal
/// rule would not take this cluster either.
fn score_if_close(
    first: &Signature,
    first_sorted: &Signature,
    new: &Signature,
    new_sorted: &Signature,
    threshold: f64,
) -> Option<f64> {
    if first_sorted.iter().zip(new_sorted).any(|(left, right)| difflib::quick_ratio_sorted(left, right) < threshold) {
        return None;
    }
    // The literal rule's score, computed the same way.
    let score = first.iter().zip(new).map(|(left, right)| difflib::ratio(left, right)).fold(f64::INFINITY, f64::min);
    (score >= threshold).then_some(score)
}
