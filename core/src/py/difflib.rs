//! Python's `difflib.SequenceMatcher(None, a, b).ratio()`.
//!
//! The reference scores near-duplicate keys with this ratio and compares it
//! with a threshold, so the value must be the same `f64`, bit for bit. The
//! ratio is `2 * M / (len(a) + len(b))` where `M` is the number of characters
//! in the blocks `get_matching_blocks` finds, and `M` depends on every detail
//! of `find_longest_match`: which of several equally long matches it picks
//! (the one starting earliest in `a`, then earliest in `b`), the "autojunk"
//! rule that hides characters frequent in a long `b`, and the extension of a
//! match over those hidden characters. This is a port of `Lib/difflib.py` as
//! shipped with Python 3.11, with `isjunk=None` and `autojunk=True`.

use std::collections::HashMap;
use std::mem;

/// `difflib.SequenceMatcher(None, a, b).ratio()` for the Python strings whose
/// code points are `a` and `b`; two empty strings give `1.0`, as in Python.
pub(crate) fn ratio(a: &[char], b: &[char]) -> f64 {
    let length = a.len() + b.len();
    if length == 0 {
        return 1.0;
    }
    let b2j = chain_b(b);
    // Looking each character of `a` up once, rather than once per
    // `find_longest_match` call, keeps the hash map out of the inner loop.
    let hits: Vec<&[usize]> = a.iter().map(|c| b2j.get(c).map_or(&[][..], Vec::as_slice)).collect();
    let mut finder = LongestMatch::new(a, b, &hits);
    ratio_of(matched_count(&mut finder), length)
}

/// `SequenceMatcher(None, a, b).real_quick_ratio()` for strings of `len_a`
/// and `len_b` code points: `2 * min / (len_a + len_b)`, an upper bound on
/// [`ratio`] (no more characters can match than the shorter string has),
/// computed with the same floating-point operations, so `ratio(a, b) <=
/// real_quick_ratio(..)` holds for the `f64`s too.
pub(crate) fn real_quick_ratio(len_a: usize, len_b: usize) -> f64 {
    ratio_of(len_a.min(len_b), len_a + len_b)
}

/// `SequenceMatcher(None, a, b).quick_ratio()`, given `a` and `b` sorted:
/// `2 * I / (len(a) + len(b))` where `I` is the size of the multiset
/// intersection of their characters, an upper bound on [`ratio`] (every
/// matched character is a character both strings have). The intersection
/// does not depend on order, so sorted copies give it by one merge.
pub(crate) fn quick_ratio_sorted(a: &[char], b: &[char]) -> f64 {
    let (mut i, mut j, mut common) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    ratio_of(common, a.len() + b.len())
}

/// Python's `_calculate_ratio(matches, length)`: `2.0 * matches / length`,
/// or `1.0` when both strings are empty. Exact in both integers, and
/// correctly rounded once, so it never decreases as `matches` grows: a bound
/// on the matches is a bound on the ratio, bit for bit.
pub(crate) fn ratio_of(matches: usize, length: usize) -> f64 {
    if length == 0 {
        return 1.0;
    }
    2.0 * matches as f64 / length as f64
}

/// `SequenceMatcher.__chain_b` without junk: each character of `b` mapped to
/// its positions, ascending, minus the "popular" characters when `b` has at
/// least 200 elements (those occurring more than `len(b) // 100 + 1` times).
fn chain_b(b: &[char]) -> HashMap<char, Vec<usize>> {
    let mut b2j: HashMap<char, Vec<usize>> = HashMap::new();
    for (index, &c) in b.iter().enumerate() {
        b2j.entry(c).or_default().push(index);
    }
    if b.len() >= 200 {
        let limit = b.len() / 100 + 1;
        b2j.retain(|_, indices| indices.len() <= limit);
    }
    b2j
}

/// A region `a[alo..ahi]` against `b[blo..bhi]`, in Python's names.
#[derive(Debug, Clone, Copy)]
struct Region {
    alo: usize,
    ahi: usize,
    blo: usize,
    bhi: usize,
}

/// Python's `Match(a, b, size)`: `a[a..a + size] == b[b..b + size]`.
#[derive(Debug, Clone, Copy)]
struct Match {
    a: usize,
    b: usize,
    size: usize,
}

/// The number of characters in `get_matching_blocks()`.
///
/// Python works through a queue of regions and then sorts and merges adjacent
/// blocks; neither the processing order nor the merging changes the blocks'
/// total size, so only the sum is kept.
fn matched_count(finder: &mut LongestMatch<'_>) -> usize {
    let mut total = 0;
    let mut queue = vec![Region { alo: 0, ahi: finder.a.len(), blo: 0, bhi: finder.b.len() }];
    while let Some(region) = queue.pop() {
        let found = finder.find(region);
        if found.size == 0 {
            continue;
        }
        total += found.size;
        if region.alo < found.a && region.blo < found.b {
            queue.push(Region { alo: region.alo, ahi: found.a, blo: region.blo, bhi: found.b });
        }
        let (a_end, b_end) = (found.a + found.size, found.b + found.size);
        if a_end < region.ahi && b_end < region.bhi {
            queue.push(Region { alo: a_end, ahi: region.ahi, blo: b_end, bhi: region.bhi });
        }
    }
    total
}

/// `find_longest_match` with its working storage kept between calls.
///
/// Python's `j2len` dict (length of the match ending at `a[i-1]`, `b[j]`) is
/// an array here, shifted by one so that `j - 1` never goes below zero, and
/// the entries a row sets are remembered so that clearing costs only what
/// setting did.
struct LongestMatch<'a> {
    a: &'a [char],
    b: &'a [char],
    /// Positions in `b` of each `a[i]` (empty for popular or absent ones).
    hits: &'a [&'a [usize]],
    /// `j2len[j + 1]` is Python's `j2len[j]`; zero means absent.
    j2len: Vec<usize>,
    new_j2len: Vec<usize>,
    /// The indices set in `j2len` and `new_j2len`.
    set: Vec<usize>,
    new_set: Vec<usize>,
}

impl<'a> LongestMatch<'a> {
    /// Storage for matching within `a` and `b`.
    fn new(a: &'a [char], b: &'a [char], hits: &'a [&'a [usize]]) -> Self {
        Self {
            a,
            b,
            hits,
            j2len: vec![0; b.len() + 1],
            new_j2len: vec![0; b.len() + 1],
            set: Vec::new(),
            new_set: Vec::new(),
        }
    }

    /// Python's `find_longest_match(alo, ahi, blo, bhi)`.
    fn find(&mut self, region: Region) -> Match {
        let indexed = self.longest_indexed_match(region);
        self.extend(indexed, region)
    }

    /// The dynamic-programming pass over the characters `b2j` still holds.
    /// Only a strictly longer match replaces the best, so ties go to the
    /// match found first: smallest end in `a`, then smallest in `b`.
    fn longest_indexed_match(&mut self, region: Region) -> Match {
        let mut best = Match { a: region.alo, b: region.blo, size: 0 };
        for i in region.alo..region.ahi {
            let positions = self.hits[i];
            // Python skips positions below `blo` one by one; they are sorted,
            // so starting past them is the same.
            let first = positions.partition_point(|&j| j < region.blo);
            for &j in &positions[first..] {
                if j >= region.bhi {
                    break;
                }
                let k = self.j2len[j] + 1;
                self.new_j2len[j + 1] = k;
                self.new_set.push(j + 1);
                if k > best.size {
                    best = Match { a: i + 1 - k, b: j + 1 - k, size: k };
                }
            }
            self.next_row();
        }
        // Retire the last row too, so the next call starts from all zeros.
        self.next_row();
        best
    }

    /// `j2len = newj2len`: clear the old row and make the new one current,
    /// leaving an all-zero array for the next row.
    fn next_row(&mut self) {
        for &index in &self.set {
            self.j2len[index] = 0;
        }
        self.set.clear();
        mem::swap(&mut self.j2len, &mut self.new_j2len);
        mem::swap(&mut self.set, &mut self.new_set);
    }

    /// Grow the match over equal characters on both sides. Popular characters
    /// are missing from `b2j`, so the pass above can stop short of them; with
    /// no junk function every `b` element counts as non-junk here, and the
    /// later junk-only extension loops of Python never run.
    fn extend(&self, mut found: Match, region: Region) -> Match {
        while found.a > region.alo && found.b > region.blo && self.a[found.a - 1] == self.b[found.b - 1] {
            found.a -= 1;
            found.b -= 1;
            found.size += 1;
        }
        while found.a + found.size < region.ahi
            && found.b + found.size < region.bhi
            && self.a[found.a + found.size] == self.b[found.b + found.size]
        {
            found.size += 1;
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::{quick_ratio_sorted, ratio, real_quick_ratio};

    fn chars(text: &str) -> Vec<char> {
        text.chars().collect()
    }

    /// `ratio` of two Rust strings, as bits so a 1-ulp difference fails.
    fn ratio_bits(a: &str, b: &str) -> u64 {
        ratio(&chars(a), &chars(b)).to_bits()
    }

    // Every expected value below was printed by CPython 3.11.7 running
    // `difflib.SequenceMatcher(None, a, b).ratio()` (repr round-trips, so the
    // literal is the same f64).

    #[test]
    fn empty_strings() {
        assert_eq!(ratio_bits("", ""), 1.0_f64.to_bits());
        assert_eq!(ratio_bits("", "abc"), 0.0_f64.to_bits());
        assert_eq!(ratio_bits("abc", ""), 0.0_f64.to_bits());
    }

    #[test]
    fn short_pairs_and_ties() {
        let cases: [(&str, &str, f64); 13] = [
            ("abcd", "bcde", 0.75),
            ("abxcd", "abcd", 0.888_888_888_888_888_8),
            ("ab", "ba", 0.5),
            ("aaaa", "aa", 0.666_666_666_666_666_6),
            ("abab", "baba", 0.75),
            ("Acme Corp", "ACME Corp.", 0.631_578_947_368_421),
            ("Müller GmbH", "Mueller GmbH", 0.869_565_217_391_304_3),
            ("kitten", "sitting", 0.615_384_615_384_615_4),
            ("aé😀", "😀aé", 0.666_666_666_666_666_6),
            ("abcabcabc", "cbacbacba", 0.444_444_444_444_444_4),
            ("private Thread currentThread;", "private volatile Thread currentThread;", 0.865_671_641_791_044_7),
            ("qabxcd", "abycdf", 0.666_666_666_666_666_6),
            ("The quick brown fox", "The quick brown fox", 1.0),
        ];
        for (a, b, expected) in cases {
            assert_eq!(ratio_bits(a, b), expected.to_bits(), "{a:?} vs {b:?}");
        }
    }

    /// `quick_ratio` and `real_quick_ratio` of two Rust strings, as bits.
    fn bounds_bits(a: &str, b: &str) -> (u64, u64) {
        let (mut sorted_a, mut sorted_b) = (chars(a), chars(b));
        sorted_a.sort_unstable();
        sorted_b.sort_unstable();
        let quick = quick_ratio_sorted(&sorted_a, &sorted_b);
        (quick.to_bits(), real_quick_ratio(a.chars().count(), b.chars().count()).to_bits())
    }

    #[test]
    fn quick_ratios_as_python_computes_them() {
        // (a, b, quick_ratio(), real_quick_ratio()), printed by CPython 3.11.7
        // from `difflib.SequenceMatcher(None, a, b)`.
        let cases: [(&str, &str, f64, f64); 10] = [
            ("abcd", "bcde", 0.75, 1.0),
            ("ab", "ba", 1.0, 1.0),
            ("aaaa", "aa", 0.666_666_666_666_666_6, 0.666_666_666_666_666_6),
            ("Acme Corp", "ACME Corp.", 0.631_578_947_368_421, 0.947_368_421_052_631_5),
            ("kitten", "sitting", 0.615_384_615_384_615_4, 0.923_076_923_076_923_1),
            ("aé😀", "😀aé", 1.0, 1.0),
            ("", "abc", 0.0, 0.0),
            ("", "", 1.0, 1.0),
            ("abc", "xyz", 0.0, 1.0),
            ("hello world", "world hello!", 0.956_521_739_130_434_8, 0.956_521_739_130_434_8),
        ];
        for (a, b, quick, real_quick) in cases {
            assert_eq!(bounds_bits(a, b), (quick.to_bits(), real_quick.to_bits()), "{a:?} vs {b:?}");
        }
    }

    #[test]
    fn the_quick_ratios_bound_the_ratio() {
        // What the near-match search relies on: neither bound is ever below
        // the ratio, on pairs chosen to match in pieces, out of order, and
        // with popular characters (b of 200 or more).
        let long_a = format!("{}xyz{}", "ab".repeat(120), "c".repeat(90));
        let long_b = format!("{}zyx{}", "c".repeat(90), "ba".repeat(120));
        let pairs = [("abcabcabc", "cbacbacba"), ("qabxcd", "abycdf"), ("aé😀", "😀aé"), (&long_a[..], &long_b[..])];
        for (a, b) in pairs {
            let exact = ratio(&chars(a), &chars(b));
            let (quick, real_quick) = bounds_bits(a, b);
            assert!(exact <= f64::from_bits(quick) && f64::from_bits(quick) <= f64::from_bits(real_quick), "{a:?}");
        }
    }

    #[test]
    fn long_strings_with_popular_characters() {
        let a200 = "a".repeat(200);
        let a199 = "a".repeat(199);
        let x300 = "x".repeat(300);
        let cases: [(String, String, f64); 9] = [
            // 'a' is popular in b, yet the extension step recovers the match.
            (a200.clone(), a200.clone(), 1.0),
            (a200.clone(), a199, 0.997_493_734_335_839_5),
            (format!("{}b", "a".repeat(199)), a200, 0.995),
            (x300.clone(), "x".to_owned(), 0.006_644_518_272_425_249),
            ("x".to_owned(), x300, 0.006_644_518_272_425_249),
            // Both characters popular and the strings misaligned: nothing found.
            ("ab".repeat(150), "ba".repeat(150), 0.0),
            ("abc".repeat(100), format!("{}abd", "abc".repeat(99)), 0.996_666_666_666_666_7),
            (format!("b{}c", "a".repeat(250)), format!("c{}b", "a".repeat(250)), 0.003_968_253_968_253_968),
            ("abc".repeat(100), "abc".repeat(100), 1.0),
        ];
        for (a, b, expected) in cases {
            assert_eq!(ratio_bits(&a, &b), expected.to_bits(), "{a:?} vs {b:?}");
        }
    }

    /// Reads the file `core/cpython/differential_dates_difflib.py` writes and
    /// compares every pair; run through that script.
    #[test]
    #[ignore = "needs the JSON written by core/cpython/differential_dates_difflib.py"]
    fn differential_against_python() {
        let path = std::env::var("PY_DIFFERENTIAL_RATIOS").expect("PY_DIFFERENTIAL_RATIOS names the ratios JSON");
        let text = std::fs::read_to_string(&path).expect("the ratios JSON is readable");
        let records: Vec<serde_json::Value> = serde_json::from_str(&text).expect("the ratios JSON parses");
        let mut mismatches = 0;
        for record in &records {
            let a = record["a"].as_str().expect("a is a string");
            let b = record["b"].as_str().expect("b is a string");
            let expected = record["bits"].as_u64().expect("bits is an integer");
            let actual = ratio_bits(a, b);
            if actual != expected {
                mismatches += 1;
                if mismatches <= 20 {
                    eprintln!(
                        "ratio mismatch: {a:?} vs {b:?}: python {} rust {}",
                        f64::from_bits(expected),
                        f64::from_bits(actual)
                    );
                }
            }
        }
        eprintln!("difflib: {} pairs, {mismatches} mismatches", records.len());
        assert_eq!(mismatches, 0);
    }
}
