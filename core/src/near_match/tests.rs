//! The clusters equal the literal rule's on many generated inputs, and the
//! bounds the prefix index stands on hold where reasoning says they do.

use super::generated::{signatures, Rng};
use super::overlap::{least_matches, least_overlap, least_shared_bigrams, Overlap};
use super::{clusters, literal, Cluster, Signature};

/// The thresholds tried on every input: the edges (0, just above 0, 1,
/// above 1) and the usual range, 0.99 included.
const THRESHOLDS: [f64; 11] = [0.0, 1e-9, 0.25, 0.5, 0.6, 0.75, 0.8, 0.9, 0.95, 0.99, 1.0];

fn as_chars(texts: &[Vec<String>]) -> Vec<Signature> {
    texts.iter().map(|fields| fields.iter().map(|text| text.chars().collect()).collect()).collect()
}

/// Members and the score's bits, so a one-ulp difference fails.
fn comparable(clusters: &[Cluster]) -> Vec<(Vec<usize>, u64)> {
    clusters.iter().map(|cluster| (cluster.members.clone(), cluster.score.to_bits())).collect()
}

fn assert_same(texts: &[Vec<String>], threshold: f64) {
    let input = as_chars(texts);
    assert_eq!(
        comparable(&clusters(&input, threshold)),
        comparable(&literal::clusters(&input, threshold)),
        "threshold {threshold} on {texts:?}"
    );
}

#[test]
fn the_same_clusters_as_the_literal_rule_on_generated_inputs() {
    let mut rng = Rng(0x6e65_6172_6d61_7463);
    for case in 0..200 {
        let fields = 1 + rng.below(3);
        let long = case % 25 == 0;
        let count = if long { 2 + rng.below(4) } else { 1 + rng.below(30) };
        let texts = signatures(&mut rng, count, fields, long);
        for threshold in THRESHOLDS {
            assert_same(&texts, threshold);
        }
        // And one threshold anywhere in (0, 1].
        assert_same(&texts, 1.0 - (rng.next() >> 11) as f64 / (1u64 << 53) as f64);
    }
}

#[test]
fn the_same_clusters_at_the_edges() {
    // Thresholds the tool refuses, which the rule still defines: above 1
    // nothing joins, NaN nothing joins, below 0 everything joins the first.
    let texts: Vec<Vec<String>> =
        ["abc", "abc", "", "", "abd", "x"].iter().map(|text| vec![(*text).to_owned()]).collect();
    for threshold in [1.5, f64::NAN, -1.0, 0.0, 1.0, 0.5] {
        assert_same(&texts, threshold);
    }
    assert_same(&[], 0.9);
    // No field at all: every score is the empty minimum, infinity.
    assert_same(&[vec![], vec![], vec![]], 0.9);
    // Signatures with different numbers of fields (no report makes them):
    // the literal rule scores the fields both have.
    let ragged = vec![vec!["abc".to_owned()], vec!["abc".to_owned(), "x".to_owned()], vec![]];
    assert_same(&ragged, 0.9);
    // Only identical texts reach 1.0, and empty texts match each other.
    let input = as_chars(&texts);
    let at_one: Vec<Vec<usize>> = clusters(&input, 1.0).into_iter().map(|cluster| cluster.members).collect();
    assert_eq!(at_one, vec![vec![0, 1], vec![2, 3], vec![4], vec![5]]);
}

#[test]
fn the_first_open_cluster_that_passes_wins() {
    // At 0.6, "abxy" opens a cluster of its own (0.5 against "abcd"). Then
    // "abxyc" scores 6/9 = 0.667 against "abcd" and 8/9 = 0.889 against
    // "abxy" (CPython 3.11.7's ratios): it joins "abcd", the first cluster
    // that passes, not the closest one, and that cluster's score is 6/9.
    let texts: Vec<Vec<String>> = ["abcd", "abxy", "abxyc"].iter().map(|text| vec![(*text).to_owned()]).collect();
    let found = clusters(&as_chars(&texts), 0.6);
    let expected = [(vec![0, 2], 0.666_666_666_666_666_6), (vec![1], 1.0)];
    let expected: Vec<(Vec<usize>, u64)> =
        expected.into_iter().map(|(members, score): (Vec<usize>, f64)| (members, score.to_bits())).collect();
    assert_eq!(comparable(&found), expected);
    assert_same(&texts, 0.6);
}

#[test]
fn least_matches_is_the_ratios_own_arithmetic() {
    // 2k/L >= t, worked by hand: 0.99 of 100 is 99, so k = 50 (49.5 rounds
    // up); 0.8 of 10 is exactly 8 (8.0 / 10.0 is the double 0.8), so k = 4
    // passes with equality; 0.5 of 13 is 6.5, so k = 4.
    assert_eq!(least_matches(100, 0.99), Some(50));
    assert_eq!(least_matches(10, 0.8), Some(4));
    assert_eq!(least_matches(13, 0.5), Some(4));
    assert_eq!(least_matches(1, 1e-9), None, "one code point in all cannot match");
    assert_eq!(least_matches(2, 1e-9), Some(1));
    assert_eq!(least_matches(10, 1.5), None);
}

#[test]
fn least_overlap_takes_the_most_favourable_partner() {
    // At 0.99 a 50-code-point text needs a partner of 50 (49 gives at most
    // 98/99 = 0.9899 < 0.99) and all 50 characters shared; a 52 needs a 51
    // and 51 shared (102/103 = 0.9903).
    assert_eq!(least_overlap(50, 0.99), Overlap::AtLeast(50));
    assert_eq!(least_overlap(52, 0.99), Overlap::AtLeast(51));
    // At 0.5 a 10 needs a partner of 4 sharing all 4: 8/14 = 0.57, while a 3
    // reaches only 6/13 = 0.46.
    assert_eq!(least_overlap(10, 0.5), Overlap::AtLeast(4));
    assert_eq!(least_overlap(7, 1.0), Overlap::AtLeast(7));
    assert_eq!(least_overlap(7, 1.5), Overlap::NoPartner);
    assert_eq!(least_overlap(0, 1.0), Overlap::AtLeast(0));
    assert_eq!(least_overlap(0, 1.5), Overlap::NoPartner);
}

#[test]
fn least_shared_bigrams_follows_the_block_count() {
    // 6 code points at 0.9: a partner of 5 needs 5 matches (10/11), so
    // 3 * 5 - 11 - 1 = 3 bigrams; of 6, 6 matches and 5; of 7, 6 and 4; a
    // partner of 4 or 8 cannot reach 0.9. The fewest is 3, and it is tight:
    // "abcdef" and "abdef" match in "ab" and "def" and share ab, de, ef.
    assert_eq!(least_shared_bigrams(6, 0.9), Overlap::AtLeast(3));
    // At 1.0 only the same text passes: all 4 bigrams of a 5.
    assert_eq!(least_shared_bigrams(5, 1.0), Overlap::AtLeast(4));
    // At 2/3 and below, blocks of one character can score: no bound.
    assert_eq!(least_shared_bigrams(10, 0.5), Overlap::Unbounded);
    assert_eq!(least_shared_bigrams(1, 0.9), Overlap::Unbounded);
    assert_eq!(least_shared_bigrams(1, 1.5), Overlap::NoPartner);
    assert_eq!(least_shared_bigrams(6, 1.5), Overlap::NoPartner);
}
