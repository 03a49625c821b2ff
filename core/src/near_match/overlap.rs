//! How much a text must share with any text it can score a threshold
//! against: the counts the prefix index stands on, from difflib's own
//! arithmetic (`2.0 * matches / length >= threshold`).
//!
//! Two facts about `ratio`'s `matches` (the characters in the matching
//! blocks) give the bounds. Every matched character is a character both
//! texts have, so two texts share at least `matches` characters as
//! multisets. And each block of `s` characters is `s - 1` neighbouring pairs
//! (bigrams) both texts have; the blocks, once adjacent ones are merged as
//! `get_matching_blocks` merges them, are separated by at least one unmatched
//! character each, of which there are `length - 2 * matches`, so there are at
//! most `length - 2 * matches + 1` blocks, and the texts share at least
//! `matches - blocks >= 3 * matches - length - 1` bigrams as multisets.

/// Whether a text can reach the threshold with any text at all, and if so
/// the fewest tokens it must share with every text it can.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Overlap {
    /// No text scores the threshold against it (a threshold above 1).
    NoPartner,
    /// Every text that does shares at least this many tokens with it.
    AtLeast(usize),
    /// Some text that does may share no token with it: no filter.
    Unbounded,
}

/// The fewest matches `k` for which `2.0 * k / length >= threshold`, the
/// ratio's own arithmetic (`None` when even `length / 2` matches fall short).
/// `length` is above 0 and `threshold` above 0, so `k` is at least 1.
pub(super) fn least_matches(length: usize, threshold: f64) -> Option<usize> {
    let most = length / 2;
    // A guess within a step or two of the answer, then corrected by the
    // exact test, so rounding in the guess cannot matter.
    let mut need = ((threshold * length as f64 / 2.0).floor().max(0.0) as usize).min(most);
    while need > 0 && crate::py::difflib::ratio_of(need - 1, length) >= threshold {
        need -= 1;
    }
    while crate::py::difflib::ratio_of(need, length) < threshold {
        if need == most {
            return None;
        }
        need += 1;
    }
    Some(need)
}

/// The matches a partner of `other` code points needs with a text of `len`
/// (both above 0), when it can have that many: at most `min(len, other)`.
fn feasible(len: usize, other: usize, threshold: f64) -> Option<usize> {
    least_matches(len + other, threshold).filter(|&need| need <= len.min(other))
}

/// The fewest characters a text of `len` code points must share with any
/// text it can score `threshold` against. The need never falls as the
/// partner grows, so the shortest feasible partner gives the fewest, and a
/// partner of `len` (ratio 1.0 possible) is feasible whenever any is. An
/// empty text needs nothing: it can only match another empty text.
pub(super) fn least_overlap(len: usize, threshold: f64) -> Overlap {
    if len == 0 {
        return if 1.0 >= threshold { Overlap::AtLeast(0) } else { Overlap::NoPartner };
    }
    (1..=len).find_map(|other| feasible(len, other, threshold)).map_or(Overlap::NoPartner, Overlap::AtLeast)
}

/// The fewest bigrams a text of `len` code points must share with any text
/// it can score `threshold` against: `3 * matches - length - 1` at the least
/// over every feasible partner length (which form one range: the need grows
/// by at most one per code point, and past `len` only `len` matches are
/// possible). `Unbounded` once that can be 0 or less, which happens at once
/// for thresholds of 2/3 and below, so the walk stays short.
pub(super) fn least_shared_bigrams(len: usize, threshold: f64) -> Overlap {
    if len < 2 {
        return if least_overlap(len, threshold) == Overlap::NoPartner {
            Overlap::NoPartner
        } else {
            Overlap::Unbounded
        };
    }
    let mut fewest: Option<usize> = None;
    let mut other = 1;
    loop {
        match feasible(len, other, threshold) {
            Some(need) => {
                let shared = (3 * need).checked_sub(len + other + 1).filter(|&shared| shared > 0);
                let Some(shared) = shared else { return Overlap::Unbounded };
                fewest = Some(fewest.map_or(shared, |fewest| fewest.min(shared)));
            }
            // Past the range's end: every partner from here on is too long.
            None if other >= len => break,
            None => {}
        }
        other += 1;
    }
    fewest.map_or(Overlap::NoPartner, Overlap::AtLeast)
}
