//! What the cheapest bounds read, kept flat so that trying a cluster costs a
//! cache line or two rather than a walk through each field's own allocation:
//! every field's length, and a histogram of its characters in 16 buckets.
//!
//! Bucketing can only merge counts, and `min(a1 + a2, b1 + b2)` is at least
//! `min(a1, b1) + min(a2, b2)`, so the histograms' common count is at least
//! the multiset intersection `quick_ratio` counts: one more upper bound on
//! the ratio, cheaper than `quick_ratio` and checked before it.

use crate::py::difflib;

use super::Signature;

/// Buckets per histogram.
const BUCKETS: usize = 16;

/// Each signature's fields' lengths and histograms, signature by signature.
pub(super) struct Profiles {
    fields: usize,
    lengths: Vec<u32>,
    histograms: Vec<[u32; BUCKETS]>,
}

impl Profiles {
    pub(super) fn new(signatures: &[Signature]) -> Self {
        let fields = signatures.first().map_or(0, Vec::len);
        let mut lengths = Vec::with_capacity(signatures.len() * fields);
        let mut histograms = Vec::with_capacity(signatures.len() * fields);
        for text in signatures.iter().flatten() {
            lengths.push(text.len() as u32);
            let mut histogram = [0u32; BUCKETS];
            for &c in text {
                histogram[bucket(c)] += 1;
            }
            histograms.push(histogram);
        }
        Self { fields, lengths, histograms }
    }

    /// False when `real_quick_ratio` or the histograms' bound, on some field,
    /// puts the ratio of the signatures at `first` and `new` below
    /// `threshold`; true when neither can tell.
    pub(super) fn may_reach(&self, first: usize, new: usize, threshold: f64) -> bool {
        let (first, new) = (first * self.fields, new * self.fields);
        let lengths = |field: usize| (self.lengths[first + field] as usize, self.lengths[new + field] as usize);
        (0..self.fields).all(|field| {
            let (left, right) = lengths(field);
            difflib::real_quick_ratio(left, right) >= threshold
        }) && (0..self.fields).all(|field| {
            let (left, right) = (&self.histograms[first + field], &self.histograms[new + field]);
            let common: u32 = left.iter().zip(right).map(|(a, b)| *a.min(b)).sum();
            let (left_len, right_len) = lengths(field);
            difflib::ratio_of(common as usize, left_len + right_len) >= threshold
        })
    }
}

/// A character's bucket: a multiplicative hash's top bits.
fn bucket(c: char) -> usize {
    ((c as u32).wrapping_mul(0x9e37_79b1) >> 28) as usize
}
