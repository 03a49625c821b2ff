//! A primary key of two columns, for a table no single column keys (no
//! column `draft.rs` would make the key on its own: a distinct column of
//! free text does not count, and does not stand in the way): the
//! pair of columns whose values together are distinct on every row, where
//! that is unlikely to be chance (`order_id` + `line`, `sensor` + `time`).
//!
//! A pair is a candidate when both columns are nameable, non-blank on every
//! row, of a type a key is made of (`integer`, `string`, `date`,
//! `datetime`), with no value that has no key (NaN), and each repeats some
//! value: with a column distinct on every row, any pair holding it is
//! distinct, which says nothing.
//!
//! **Not chance.** Were the two columns independent, the number of pairs
//! of rows expected to share both values is `E = Sa·Sb / C(n, 2)`, where
//! `Sa` is how many pairs of rows share a value of the first column
//! (`Σ k(k−1)/2` over its values' counts `k`), `Sb` the same for the second,
//! and `C(n, 2)` all pairs of the `n` rows. No pair of rows sharing both,
//! where independence expects `E`, happens by chance with probability about
//! `exp(−E)`; a pair is suggested only when `E ≥ 7` (below 0.1%). A
//! customer and a near-unique amount (2 customers, 10 of 200 amounts
//! repeated) expect 5 shared pairs and are no key; an order and its line
//! number (40 orders of 1 to 5 lines) expect 38 and are.
//!
//! Candidates are tried most expected first (then in column order),
//! at most [`MAX_TRIED`] of them, each stopping at its first repeated pair;
//! the first distinct on every row is the key. Pairs are compared by the
//! columns' value entries (`profile.rs`), which are equal exactly when the
//! equality keys `validate_rows` compares for a primary key are; so the
//! suggested key passes it.

use std::collections::HashSet;

use super::draft::{primary_key, ColumnFacts, MIN_KEY_ROWS};
use super::profile::NO_ENTRY;
use super::structure::Structure;
use crate::contract::ColumnType;

/// The most candidate pairs whose rows are read.
const MAX_TRIED: usize = 16;

/// The fewest pairs of rows independence must expect to share both values
/// (module docs): chance distinctness is then below `exp(-7)`, about 0.09%.
const MIN_EXPECTED_SHARED: f64 = 7.0;

/// Two columns that key the table, by position, with their distinct counts
/// and how many pairs of rows would share both values were they independent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct KeyPair {
    pub(super) columns: (usize, usize),
    pub(super) distinct: (usize, usize),
    pub(super) expected_shared: f64,
}

/// The two-column key of a table of `rows` rows, if one is evident and no
/// single column is the key.
pub(super) fn key_pair(facts: &[ColumnFacts<'_>], structure: &Structure, rows: usize) -> Option<KeyPair> {
    let named: Vec<&ColumnFacts<'_>> = facts.iter().filter(|facts| facts.unnamable.is_none()).collect();
    if rows < MIN_KEY_ROWS || structure.rows_kept() != rows || primary_key(&named, rows).is_some() {
        return None;
    }
    let eligible: Vec<usize> = (0..facts.len()).filter(|&at| may_be_in_key(&facts[at], rows)).collect();
    let sharing: Vec<f64> = facts.iter().map(|f| pairs_sharing_a_value(&f.profile.counts)).collect();
    let all_pairs = pairs_of(rows as f64);
    let mut pairs: Vec<KeyPair> = Vec::new();
    for (i, &a) in eligible.iter().enumerate() {
        for &b in &eligible[i + 1..] {
            let expected_shared = sharing[a] * sharing[b] / all_pairs;
            if expected_shared >= MIN_EXPECTED_SHARED {
                let distinct = (facts[a].profile.distinct_count(), facts[b].profile.distinct_count());
                pairs.push(KeyPair { columns: (a, b), distinct, expected_shared });
            }
        }
    }
    pairs.sort_by(|x, y| y.expected_shared.total_cmp(&x.expected_shared).then(x.columns.cmp(&y.columns)));
    pairs.into_iter().take(MAX_TRIED).find(|pair| distinct_on_every_row(facts, structure, pair.columns))
}

/// How many pairs of `n` things there are.
fn pairs_of(n: f64) -> f64 {
    n * (n - 1.0) / 2.0
}

/// How many pairs of rows share a value, from each value's count.
fn pairs_sharing_a_value(counts: &[u32]) -> f64 {
    counts.iter().map(|&count| pairs_of(f64::from(count))).sum()
}

/// Whether a column may be half of a two-column key (module docs).
fn may_be_in_key(facts: &ColumnFacts<'_>, rows: usize) -> bool {
    let profile = facts.profile;
    facts.unnamable.is_none()
        && facts.tally.non_blank == rows
        && profile.unkeyed == 0
        && profile.distinct_count() >= 2
        && !profile.all_distinct()
        && matches!(
            facts.tally.chosen(),
            Some(ColumnType::Integer | ColumnType::String | ColumnType::Date | ColumnType::Datetime)
        )
}

/// Whether no two rows have the same values in columns `(a, b)`.
fn distinct_on_every_row(facts: &[ColumnFacts<'_>], structure: &Structure, (a, b): (usize, usize)) -> bool {
    let entry = |column: usize, cell: u32| facts[column].profile.entry_of(cell as usize);
    let mut seen = HashSet::with_capacity(structure.rows_kept());
    for cells in structure.cell_pairs(a, b) {
        let Some((cell_a, cell_b)) = cells else { return false };
        let (Some(left), Some(right)) = (entry(a, cell_a), entry(b, cell_b)) else { return false };
        if left == NO_ENTRY || right == NO_ENTRY || !seen.insert((u64::from(left) << 32) | u64::from(right)) {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    fn inspect_csv(csv: &str) -> Value {
        crate::call_tool_owned("inspect_dataset", json!({"csv": csv})).unwrap_or_else(|err| panic!("{}", err.message))
    }

    /// A CSV of `header` and `rows`, each row's cells joined with commas.
    fn csv(header: &str, rows: impl Iterator<Item = String>) -> String {
        let mut out = format!("{header}\n");
        for row in rows {
            out.push_str(&row);
            out.push('\n');
        }
        out
    }

    #[test]
    fn an_order_and_its_line_number_key_the_order_lines() {
        // 40 orders of 1 to 5 lines (8 of each), 120 rows: order and line
        // repeat, the pair never does. Rows sharing an order: 8 × (0 + 1 +
        // 3 + 6 + 10) = 160 pairs; sharing a line (lines 1..5 in 40, 32, 24,
        // 16, 8 orders): 780 + 496 + 276 + 120 + 28 = 1,700; of 7,140 pairs
        // of rows. Independence expects 160 × 1,700 / 7,140 = 38 ≥ 7.
        let rows = (0..40).flat_map(|order| {
            (1..=1 + order % 5).map(move |line| format!("ORD{order:03},{line},{}", (order * 7 + line) % 3))
        });
        let result = inspect_csv(&csv("order,line,qty", rows));
        assert_eq!(result["suggested_contract"]["table"], json!({"primary_key": ["order", "line"]}));
        assert_eq!(result["table_schema"]["primaryKey"], json!(["order", "line"]));
        let why = result["evidence"]["table"]["primary_key"].as_str().unwrap();
        assert!(why.contains("40 and 5 distinct values"), "{why}");
    }

    #[test]
    fn a_pair_distinct_by_chance_is_no_key() {
        // 2 customers of 100 rows each, and 190 amounts: 0..9 twice, once
        // per customer, so the pair is distinct on all 200 rows. But rows
        // sharing a customer: 2 × 4,950 = 9,900 pairs; sharing an amount:
        // 10; of 19,900: independence expects 9,900 × 10 / 19,900 = 4.97
        // shared pairs, under 7. Chance (about 1 in 2^10) is not ruled out.
        let rows = (0..200).map(|at| format!("C{},{}", at / 100, at % 190));
        let result = inspect_csv(&csv("customer,amount", rows));
        assert!(result["suggested_contract"].get("table").is_none(), "{}", result["suggested_contract"]);
        // With 4 repeated amounts more (14 rows of amount 0..13 twice), the
        // same shape expects 9,900 × 14 / 19,900 = 6.96: still none; at 15
        // (7.46), the pair is the key.
        let with = |repeated: usize| {
            let rows = (0..200).map(move |at| format!("C{},{}", at / 100, at % (200 - repeated)));
            inspect_csv(&csv("customer,amount", rows))["suggested_contract"]["table"].clone()
        };
        assert_eq!(with(14), Value::Null);
        assert_eq!(with(15), json!({"primary_key": ["customer", "amount"]}));
    }

    #[test]
    fn a_pair_distinct_as_written_but_equal_as_values_is_no_key() {
        // Line "1" and "1.0" are one integer value: orders 0 and 1 repeat
        // (order, line) as validate_rows compares it, though not as written.
        let lines = |equal_value: bool| {
            let rows = (0..60).map(move |at| {
                let (order, line) = (at / 3, at % 3);
                let written = if at == 1 && equal_value { "0.0".to_owned() } else { line.to_string() };
                format!("O{order},{written}")
            });
            inspect_csv(&csv("order,line", rows))["suggested_contract"]["table"].clone()
        };
        assert_eq!(lines(true), Value::Null);
        // Without it, the same rows are keyed by the pair.
        assert_eq!(lines(false), json!({"primary_key": ["order", "line"]}));
    }

    #[test]
    fn a_single_column_key_comes_before_any_pair() {
        let rows = (0..60).map(|at| format!("{at},O{},{}", at / 3, at % 3));
        let result = inspect_csv(&csv("id,order,line", rows));
        assert_eq!(result["suggested_contract"]["table"], json!({"primary_key": ["id"]}));
        // A distinct column of free text is no key, and no reason to give up the pair.
        let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"];
        let rows = (0..60).map(|at| format!("{} {},O{},{}", words[at % 6], words[at / 6], at / 3, at % 3));
        let result = inspect_csv(&csv("note,order,line", rows));
        assert_eq!(result["key_candidates"], json!(["note"]));
        assert_eq!(result["suggested_contract"]["table"], json!({"primary_key": ["order", "line"]}));
    }
}
