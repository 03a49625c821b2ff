//! `duplicate_report` inputs the MCP host's tests and the benchmark share,
//! so what the benchmark times is what the tests check: a call that takes
//! seconds and no filter shortens (the tests' slow call, for limits,
//! cancellation and the budget), and the two inputs issue 17 (item 5) named
//! as unable to finish while every near-match pair was scored.

use serde_json::{json, Value};

/// `duplicate_report` arguments that take seconds, and that no filter can
/// shorten: every name is a shuffle of the same 51 characters (so every
/// length and character count is equal), and at a threshold of 0.6 (below
/// 2/3, where no bigram bound holds) every pair of `count` rows is scored
/// with string similarity; shuffles score about 0.2, so none pass.
pub fn slow_arguments(count: usize) -> Value {
    const BASE: &str = "the quick brown fox jumps over the lazy dog, slowly";
    let shuffled = |i: usize| {
        let mut chars: Vec<char> = BASE.chars().collect();
        let mut x = (i as u64).wrapping_mul(2_654_435_761).wrapping_add(1);
        for k in (1..chars.len()).rev() {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            chars.swap(k, ((x >> 33) % (k as u64 + 1)) as usize);
        }
        chars.into_iter().collect::<String>()
    };
    let rows: Vec<Value> = (0..count).map(|i| json!({"id": format!("K{i}"), "name": shuffled(i)})).collect();
    json!({"rows": rows, "key": "id", "match_fields": ["name"], "similarity_threshold": 0.6, "max_groups": 5})
}

/// The `duplicate_report` call that took seconds before near matches were
/// looked up through an index (issue 17, item 5): `count` names that differ
/// only in two numbers, at a threshold of 0.99.
pub fn numbered_names_arguments(count: usize) -> Value {
    let rows: Vec<Value> = (0..count)
        .map(|i| json!({"id": format!("K{i}"), "name": format!("customer number {i} of the slow test, somewhere {}", i * 7919 % 1000)}))
        .collect();
    json!({"rows": rows, "key": "id", "match_fields": ["name"], "similarity_threshold": 0.99, "max_groups": 5})
}

/// Syllables the names of [`paired_arguments`] are made of.
const SYLLABLES: [&str; 28] = [
    "ka", "lo", "mi", "ra", "ben", "tor", "vel", "sa", "dru", "fen", "gal", "hor", "is", "jun", "mar", "nel", "os",
    "pim", "qua", "ril", "sten", "tu", "ulf", "vin", "wes", "xa", "yor", "zed",
];

/// `2 * pairs` rows in pairs, one entity each, every pair a duplicate of the
/// kind `p % 3` says: 0 the same key twice (`same_key`), 1 a second key with
/// the same name and postcode (`same_signature`), 2 a second key whose name
/// doubles one letter of the surname (`near_match` at 0.9). Every pair has a
/// postcode of its own, six characters long: two different strings of six
/// match in at most five, ratio 10/12 < 0.9, so no two pairs are ever near
/// matches of each other, and there are exactly `pairs` groups.
pub fn paired_arguments(pairs: usize) -> Value {
    const LETTERS: &[u8; 20] = b"ABCDEFGHJKLMNPRSTUWY";
    let word = |parts: &[usize]| {
        let word: String = parts.iter().map(|&at| SYLLABLES[at % SYLLABLES.len()]).collect();
        word[..1].to_uppercase() + &word[1..]
    };
    let mut rows = Vec::with_capacity(2 * pairs);
    for p in 0..pairs {
        let first = word(&[p, p / 28]);
        let last =
            if p % 2 == 0 { word(&[p * 7 + 3, p * 13 + 5, p * 17 + 11]) } else { word(&[p * 7 + 3, p * 13 + 5]) };
        let name = format!("{first} {last}");
        let letter = |at: usize| char::from(LETTERS[at % 20]);
        let postcode =
            format!("{}{} {}{}{}", letter(p), p / 20 % 10, p / 200 % 10, letter(p / 2000), letter(p / 40_000));
        let id = format!("C-{:06}", 2 * p);
        rows.push(json!({"id": id, "name": name, "postcode": postcode}));
        let doubled = first.len() + 1 + p % last.len();
        let (id, name) = match p % 3 {
            0 => (id, name),
            1 => (format!("C-{:06}", 2 * p + 1), name),
            _ => (format!("C-{:06}", 2 * p + 1), format!("{}{}", &name[..=doubled], &name[doubled..])),
        };
        rows.push(json!({"id": id, "name": name, "postcode": postcode}));
    }
    let max_groups = rows.len();
    json!({"rows": rows, "key": "id", "match_fields": ["name", "postcode"], "similarity_threshold": 0.9,
           "max_groups": max_groups})
}
