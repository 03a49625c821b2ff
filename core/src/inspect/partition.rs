//! Numbering a great many keys in the order first seen, each distinct key
//! with its count, without a table of megabytes.
//!
//! Looking every key up in one table as it comes is a wait on memory per
//! key once the table is far larger than the processor's cache (a column
//! of a million ids makes a table of tens of megabytes). So the keys are
//! first moved, by the top bits of their hash, into partitions of a few
//! thousand (one sequential pass that writes to a few hundred places at
//! once), each partition is counted in a table that stays in the cache,
//! and a last pass in the original order gives each distinct key its
//! number where it is first seen. The numbers, counts and first places are
//! exactly those of one table filled in order: each partition keeps its
//! keys in their original order, and the last pass numbers in it.

use crate::key_table::{hash, KeyList, KeyTable};

/// At most this many bits of the hash choose a partition (4,096 partitions).
const MOST_BITS: u32 = 12;

/// Not yet numbered.
const NONE: u32 = u32::MAX;

/// The keys numbered.
pub(super) struct Numbering {
    /// Each distinct key in the order first seen (its number is its place),
    /// with the sum of its cells' weights.
    pub(super) keys: KeyList,
    /// Per cell: its key's number.
    pub(super) numbers: Vec<u32>,
    /// Per number: the first cell with the key.
    pub(super) first_cells: Vec<u32>,
}

/// Number `cells` cells, cell `c` having key `key(c)` and weighing
/// `weight(c)`, in partitions of about `partition` cells.
pub(super) fn number_in_partitions<'k>(
    cells: usize,
    key: impl Fn(usize) -> &'k [u8],
    weight: impl Fn(usize) -> u32,
    partition: usize,
) -> Numbering {
    let hashes: Vec<u32> = (0..cells).map(|cell| hash(key(cell))).collect();
    let bits = partition_bits(cells, partition);
    // The top `bits` bits: a table finds a slot by the low ones.
    let part_of = |hash: u32| ((u64::from(hash) << bits) >> 32) as usize;
    let parts = 1usize << bits;

    // Where each partition's cells and key bytes start, once moved.
    let mut cell_starts = vec![0usize; parts + 1];
    let mut byte_starts = vec![0usize; parts + 1];
    for (cell, &hash) in hashes.iter().enumerate() {
        let part = part_of(hash);
        cell_starts[part + 1] += 1;
        byte_starts[part + 1] += key(cell).len();
    }
    for part in 0..parts {
        cell_starts[part + 1] += cell_starts[part];
        byte_starts[part + 1] += byte_starts[part];
    }

    // Every cell moved to its partition, in order: which cell it is, and
    // where its key ends among the moved keys.
    let mut moved = vec![(0u32, 0u32); cells];
    let mut moved_keys = vec![0u8; byte_starts[parts]];
    let (mut next_cell, mut next_byte) = (cell_starts.clone(), byte_starts.clone());
    for (cell, &hash) in hashes.iter().enumerate() {
        let part = part_of(hash);
        let bytes = key(cell);
        let end = next_byte[part] + bytes.len();
        moved_keys[next_byte[part]..end].copy_from_slice(bytes);
        next_byte[part] = end;
        moved[next_cell[part]] = (cell as u32, end as u32);
        next_cell[part] += 1;
    }
    drop((next_cell, next_byte));

    // Each partition counted alone. Per cell: its entry in its partition;
    // per partition entry (after the partition's `base`): its count, and
    // later its number.
    let mut local = vec![0u32; cells];
    let mut entries: Vec<(u32, u32)> = Vec::new();
    let mut base = vec![0u32; parts];
    let mut table = KeyTable::default();
    for part in 0..parts {
        table.clear();
        base[part] = entries.len() as u32;
        let mut start = byte_starts[part];
        for &(cell, end) in &moved[cell_starts[part]..cell_starts[part + 1]] {
            let cell = cell as usize;
            let (entry, _) = table.count_hashed(&moved_keys[start..end as usize], hashes[cell], weight(cell));
            local[cell] = entry;
            start = end as usize;
        }
        entries.extend(table.keys().iter().map(|(_, count)| (count, NONE)));
    }
    drop((moved, moved_keys, table));

    // Numbered in the original order.
    let mut keys = KeyList::default();
    let mut first_cells = Vec::new();
    for (cell, &hash) in hashes.iter().enumerate() {
        let (count, number) = &mut entries[(base[part_of(hash)] + local[cell]) as usize];
        if *number == NONE {
            *number = keys.len() as u32;
            keys.push(key(cell), *count);
            first_cells.push(cell as u32);
        }
        local[cell] = *number;
    }
    Numbering { keys, numbers: local, first_cells }
}

/// How many bits of the hash choose a partition: the fewest that leave
/// about `partition` cells in each.
fn partition_bits(cells: usize, partition: usize) -> u32 {
    let mut bits = 0;
    while bits < MOST_BITS && cells >> bits > partition.max(1) {
        bits += 1;
    }
    bits
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Each distinct key with its weight; each cell's number; each number's first cell.
    type Numbered = (Vec<(Vec<u8>, u32)>, Vec<u32>, Vec<u32>);

    /// One table filled in order, as the partitions must number.
    fn in_one_table(keys: &[Vec<u8>], weights: &[u32]) -> Numbered {
        let mut numbers_of: HashMap<&[u8], usize> = HashMap::new();
        let (mut distinct, mut numbers, mut firsts) = (Vec::<(Vec<u8>, u32)>::new(), Vec::new(), Vec::new());
        for (cell, key) in keys.iter().enumerate() {
            let number = *numbers_of.entry(key).or_insert_with(|| {
                distinct.push((key.clone(), 0));
                firsts.push(cell as u32);
                distinct.len() - 1
            });
            distinct[number].1 += weights[cell];
            numbers.push(number as u32);
        }
        (distinct, numbers, firsts)
    }

    #[test]
    fn partitions_number_as_one_table_filled_in_order() {
        // Keys that repeat near and far, of every length from empty up,
        // weighed unevenly; partitions of 1 cell (4,096 of them), 7 cells
        // and one partition for them all.
        let keys: Vec<Vec<u8>> = (0..20_000u32)
            .map(|n| match n % 5 {
                0 => format!("id-{n}").into_bytes(),
                1 => format!("{}", n % 97).into_bytes(),
                2 => vec![b'x'; (n % 13) as usize],
                _ => format!("{}", (n * 7919) % 3001).into_bytes(),
            })
            .collect();
        let weights: Vec<u32> = (0..keys.len() as u32).map(|n| 1 + n % 3).collect();
        let (distinct, numbers, firsts) = in_one_table(&keys, &weights);
        for partition in [1, 7, usize::MAX] {
            let got = number_in_partitions(keys.len(), |cell| &keys[cell], |cell| weights[cell], partition);
            let got_distinct: Vec<(Vec<u8>, u32)> = got.keys.iter().map(|(key, n)| (key.to_vec(), n)).collect();
            assert_eq!(got_distinct, distinct, "partitions of {partition}");
            assert_eq!(got.numbers, numbers, "partitions of {partition}");
            assert_eq!(got.first_cells, firsts, "partitions of {partition}");
        }
    }

    #[test]
    fn no_cells_are_no_keys() {
        let got = number_in_partitions(0, |_| &b""[..], |_| 1, 4);
        assert_eq!((got.keys.len(), got.numbers.len(), got.first_cells.len()), (0, 0, 0));
    }

    #[test]
    fn the_partitions_are_few_for_few_cells_and_bounded_for_many() {
        assert_eq!(partition_bits(4096, 4096), 0);
        assert_eq!(partition_bits(4097, 4096), 1);
        assert_eq!(partition_bits(1_000_000, 4096), 8);
        assert_eq!(partition_bits(usize::MAX, 1), MOST_BITS);
    }
}
