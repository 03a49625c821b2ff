//! The clustering rule followed literally, as `duplicates.rs` ran it before
//! the prefix index: each signature scored against every open cluster in
//! order. Quadratic, and kept only as the oracle the tests hold
//! [`super::clusters`] to.

use crate::py::difflib;

use super::{Cluster, Signature};

/// The reference's greedy clusters, every open cluster tried in turn.
pub(crate) fn clusters(signatures: &[Signature], threshold: f64) -> Vec<Cluster> {
    let mut open: Vec<(&Signature, Cluster)> = Vec::new();
    for (position, chars) in signatures.iter().enumerate() {
        let placed = open.iter_mut().find_map(|(token, cluster)| {
            let score =
                token.iter().zip(chars).map(|(left, right)| difflib::ratio(left, right)).fold(f64::INFINITY, f64::min);
            (score >= threshold).then_some((cluster, score))
        });
        match placed {
            Some((cluster, score)) => {
                cluster.members.push(position);
                cluster.score = cluster.score.min(score);
            }
            None => open.push((chars, Cluster { members: vec![position], score: 1.0 })),
        }
    }
    open.into_iter().map(|(_, cluster)| cluster).collect()
}
