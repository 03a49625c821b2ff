//! Which open clusters a new signature can possibly reach: prefix filters
//! (the "prefix filtering" of set-similarity joins, Chaudhuri, Ganti and
//! Kaushik 2006), exact for difflib's ratio.
//!
//! A field's text is read as a set of tokens: one per character occurrence,
//! `('a', 0)` and `('a', 1)` for the two a's of "aha", so two texts share as
//! many tokens as their multisets of characters have in common; or one per
//! bigram occurrence, the same way. [`super::overlap`] says how many tokens
//! a text must share with any text it can score the threshold against.
//! Every token has a rank, rarest first, the same for all texts. A text of
//! `n` tokens that must share `k` keeps its `n - k + 1` lowest-ranked tokens
//! as its prefix. Two texts that do share `k` or more each hold their
//! lowest-ranked common token within their prefix (at least `k` common
//! tokens rank at or after it, so at most `n - k` rank before it), so their
//! prefixes meet. Each cluster's first signature is filed under its prefix
//! tokens; a new signature is compared only with the clusters filed under
//! its own prefix tokens, and those filed with no prefix (a text no bound
//! applies to): between them, every cluster it can reach.

use super::overlap::{least_overlap, least_shared_bigrams, Overlap};
use super::Signature;

/// A token: a character (or a bigram's two) and how many of it came before
/// in the text; `None` stands for the empty text, which can only ever match
/// another empty text.
type Token = Option<(char, char, u32)>;

/// A character and a bigram [`FieldIndex`] per match field. Each alone names
/// every cluster a signature can reach (a cluster must pass on every field),
/// so any of them may be read, and what several name in common is still
/// every cluster it can reach.
pub(super) struct PrefixIndex {
    /// Per field: its character index, then its bigram index.
    fields: Vec<[FieldIndex; 2]>,
    /// Per cluster, the last intersection step that saw it (see
    /// [`Self::candidates`]): one array, reused, rather than a set per step.
    seen: Vec<u64>,
    step: u64,
}

/// A field's candidates are intersected with the cheapest field's only
/// while reading them costs at most this many times as much. Reading an
/// entry is a step through a list; trying a cluster that the intersection
/// would have ruled out costs hundreds of times more (its first signature is
/// somewhere else in memory), so the intersection pays even at this ratio.
const INTERSECT_UP_TO: usize = 64;

impl PrefixIndex {
    /// The prefixes of every signature: `signatures` as given and `sorted`
    /// (each field's characters in order), every signature with the same
    /// fields (at least one); `threshold` is above 0.
    pub(super) fn new(signatures: &[Signature], sorted: &[Signature], threshold: f64) -> Self {
        let count = signatures.first().map_or(0, Vec::len);
        let fields = (0..count)
            .map(|field| {
                let characters = sorted.iter().map(|fields| {
                    let text = &fields[field];
                    (character_tokens(text), least_overlap(text.len(), threshold))
                });
                let bigrams = signatures.iter().map(|fields| {
                    let text = &fields[field];
                    (bigram_tokens(text), least_shared_bigrams(text.len(), threshold))
                });
                let (characters, bigrams): (Vec<_>, Vec<_>) = (characters.collect(), bigrams.collect());
                [FieldIndex::new(&characters), FieldIndex::new(&bigrams)]
            })
            .collect();
        // There are never more clusters than signatures.
        Self { fields, seen: vec![0; signatures.len()], step: 0 }
    }

    /// File the cluster `cluster`, opened by the signature at `position`.
    pub(super) fn insert(&mut self, position: usize, cluster: usize) {
        for index in self.fields.iter_mut().flatten() {
            index.insert(position, cluster);
        }
    }

    /// Into `out`, ascending and without repeats: every filed cluster the
    /// signature at `position` can reach, and some it cannot. Each field
    /// answers from whichever of its indexes reads the fewest (the character
    /// index always can); the cheapest field's answer is narrowed by the
    /// others' that cost not much more.
    pub(super) fn candidates(&mut self, position: usize, out: &mut Vec<usize>) {
        out.clear();
        let mut answers: Vec<(usize, &FieldIndex)> = self
            .fields
            .iter()
            .filter_map(|pair| {
                pair.iter().filter_map(|index| Some((index.reads(position)?, index))).min_by_key(|(reads, _)| *reads)
            })
            .collect();
        answers.sort_by_key(|(reads, _)| *reads);
        let Some(((cheapest, first), rest)) = answers.split_first() else { return };
        first.candidates(position, out);
        for (reads, index) in rest {
            if out.is_empty() || *reads > INTERSECT_UP_TO * (*cheapest).max(1) {
                break;
            }
            // Mark what `out` holds with this step, the ones `index` names
            // too with the next, and keep those.
            let (held, named) = (self.step + 1, self.step + 2);
            self.step += 2;
            for &cluster in out.iter() {
                self.seen[cluster] = held;
            }
            index.each_candidate(position, |cluster| {
                if self.seen[cluster] == held {
                    self.seen[cluster] = named;
                }
            });
            out.retain(|&cluster| self.seen[cluster] == named);
        }
    }
}

/// One field's prefixes, in one kind of token, and the clusters filed so far.
struct FieldIndex {
    /// Each signature's prefix tokens, as ranks; `None` when no bound
    /// applies to its text, and an empty prefix when nothing can match it.
    prefixes: Vec<Option<Vec<u32>>>,
    /// The clusters filed under each rank, ascending (clusters are filed in
    /// the order they open).
    filed: Vec<Vec<usize>>,
    /// The clusters whose first signature has no prefix here, ascending:
    /// every query must read them.
    unfiled: Vec<usize>,
}

impl FieldIndex {
    /// The prefixes of texts given as their tokens and how many of them any
    /// partner must share.
    fn new(texts: &[(Vec<Token>, Overlap)]) -> Self {
        let (mut ranked, distinct) = ranked_tokens(texts.iter().map(|(tokens, _)| tokens.as_slice()));
        let prefixes = texts
            .iter()
            .zip(&mut ranked)
            .map(|((tokens, overlap), ranked)| {
                let keep = match *overlap {
                    Overlap::NoPartner => 0,
                    Overlap::AtLeast(shared) => (tokens.len() + 1).saturating_sub(shared),
                    Overlap::Unbounded => return None,
                };
                let mut prefix = std::mem::take(ranked);
                prefix.sort_unstable();
                prefix.truncate(keep);
                Some(prefix)
            })
            .collect();
        Self { prefixes, filed: vec![Vec::new(); distinct], unfiled: Vec::new() }
    }

    fn insert(&mut self, position: usize, cluster: usize) {
        match &self.prefixes[position] {
            Some(prefix) => {
                for &token in prefix {
                    self.filed[token as usize].push(cluster);
                }
            }
            None => self.unfiled.push(cluster),
        }
    }

    /// How many entries [`Self::candidates`] would read for `position`, or
    /// `None` when this index cannot answer for it (no bound applies).
    fn reads(&self, position: usize) -> Option<usize> {
        let prefix = self.prefixes[position].as_ref()?;
        Some(self.unfiled.len() + prefix.iter().map(|&token| self.filed[token as usize].len()).sum::<usize>())
    }

    /// Every filed cluster whose first signature's prefix meets the prefix
    /// of the one at `position`, and every unfiled one, ascending and
    /// without repeats. Only for a `position` with a prefix.
    fn candidates(&self, position: usize, out: &mut Vec<usize>) {
        self.each_candidate(position, |cluster| out.push(cluster));
        out.sort_unstable();
        out.dedup();
    }

    /// Each cluster [`Self::candidates`] names, in no order, some twice.
    fn each_candidate(&self, position: usize, mut visit: impl FnMut(usize)) {
        self.unfiled.iter().for_each(|&cluster| visit(cluster));
        for &token in self.prefixes[position].iter().flatten() {
            self.filed[token as usize].iter().for_each(|&cluster| visit(cluster));
        }
    }
}

/// A text's character tokens, from its characters in order (equal
/// characters are adjacent, so each run numbers its occurrences).
fn character_tokens(sorted_text: &[char]) -> Vec<Token> {
    if sorted_text.is_empty() {
        return vec![None];
    }
    numbered(&sorted_text.iter().map(|&c| (c, '\0')).collect::<Vec<_>>())
}

/// A text's bigram tokens (none for a text under two code points).
fn bigram_tokens(text: &[char]) -> Vec<Token> {
    let mut pairs: Vec<(char, char)> = text.windows(2).map(|pair| (pair[0], pair[1])).collect();
    pairs.sort_unstable();
    numbered(&pairs)
}

/// Sorted items as tokens, each numbered by the equal ones before it.
fn numbered(sorted: &[(char, char)]) -> Vec<Token> {
    let mut seen = 0u32;
    (0..sorted.len())
        .map(|at| {
            seen = if at > 0 && sorted[at - 1] == sorted[at] { seen + 1 } else { 0 };
            Some((sorted[at].0, sorted[at].1, seen))
        })
        .collect()
}

/// Each text's tokens as ranks, and how many distinct tokens there are.
/// A rank orders tokens rarest first, ties in token order, so the order is
/// the same whatever order the texts came in. Rare tokens first keep the
/// lists a prefix reads short; any fixed order would be as exact. Found by
/// sorting every token once, not by hashing each (cheaper in the module).
fn ranked_tokens<'t>(texts: impl Iterator<Item = &'t [Token]>) -> (Vec<Vec<u32>>, usize) {
    let mut every: Vec<(Token, u32)> = Vec::new();
    let mut ranked: Vec<Vec<u32>> = Vec::new();
    for (text, tokens) in texts.enumerate() {
        every.extend(tokens.iter().map(|&token| (token, text as u32)));
        ranked.push(Vec::with_capacity(tokens.len()));
    }
    every.sort_unstable();
    // Each distinct token's run in `every`, by count then token.
    let mut runs: Vec<(usize, Token, usize)> = Vec::new();
    let mut start = 0;
    for end in 1..=every.len() {
        if end == every.len() || every[end].0 != every[start].0 {
            runs.push((end - start, every[start].0, start));
            start = end;
        }
    }
    runs.sort_unstable();
    for (rank, &(count, _, start)) in runs.iter().enumerate() {
        for &(_, text) in &every[start..start + count] {
            ranked[text as usize].push(rank as u32);
        }
    }
    (ranked, runs.len())
}

#[cfg(test)]
mod tests {
    use super::super::generated::{signatures, Rng};
    use super::{bigram_tokens, character_tokens, least_overlap, least_shared_bigrams, FieldIndex};
    use crate::py::difflib;

    /// Whether the prefixes of `i` and `j` meet, or one of them has none.
    fn meet(index: &FieldIndex, i: usize, j: usize) -> bool {
        match (&index.prefixes[i], &index.prefixes[j]) {
            (Some(left), Some(right)) => left.iter().any(|token| right.contains(token)),
            _ => true,
        }
    }

    #[test]
    fn every_pair_that_passes_has_meeting_prefixes() {
        // The lemma and both bounds, each kind of index on its own: for every
        // pair of generated texts whose ratio reaches the threshold, the two
        // prefixes share a token (or one text has no bound).
        let mut rng = Rng(0x7072_6566_6978_6573);
        for case in 0..120 {
            let count = 2 + rng.below(25);
            let texts: Vec<Vec<char>> = signatures(&mut rng, count, 1, case % 30 == 0)
                .into_iter()
                .map(|fields| fields[0].chars().collect())
                .collect();
            let sorted: Vec<Vec<char>> = texts
                .iter()
                .map(|text| {
                    let mut sorted = text.clone();
                    sorted.sort_unstable();
                    sorted
                })
                .collect();
            for threshold in [0.3, 0.7, 0.8, 0.9, 0.95, 0.99, 1.0] {
                let characters: Vec<_> =
                    sorted.iter().map(|text| (character_tokens(text), least_overlap(text.len(), threshold))).collect();
                let bigrams: Vec<_> = texts
                    .iter()
                    .map(|text| (bigram_tokens(text), least_shared_bigrams(text.len(), threshold)))
                    .collect();
                let (characters, bigrams) = (FieldIndex::new(&characters), FieldIndex::new(&bigrams));
                for i in 0..texts.len() {
                    for j in 0..texts.len() {
                        if i != j && difflib::ratio(&texts[i], &texts[j]) >= threshold {
                            let pair = format!("{:?} and {:?} at {threshold}", texts[i], texts[j]);
                            assert!(meet(&characters, i, j), "character prefixes of {pair}");
                            assert!(meet(&bigrams, i, j), "bigram prefixes of {pair}");
                        }
                    }
                }
            }
        }
    }
}
