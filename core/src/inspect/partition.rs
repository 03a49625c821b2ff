//! Numbering a great many keys in the order first seen, each distinct key
//! with its count, without a table of megabytes.
//!
//! Looking every key up in one table as it comes is a wait on memory per
//! key once the table is far larger than the processor's cache (a column
//! of a million ids makes a table of tens of megabytes). So the keys are
//! first moved, by the top bits of their hash, into partitions of a few
//! thousand (one sequential pass that writes to a few hundred places at
//! once), and each partition is counted in a table that stays in the cache.
//! The numbers, counts and first places are exactly those of one table
//! filled in order: each partition keeps its keys in their original order.
//!
//! No pass reads or writes per cell at scattered places, which is where
//! the time went when the cells were looked up by their original place
//! (a wait on memory per cell, several times over): a cell's number is the
//! rank of its key's first cell among all first cells, found through a
//! bitmap of the cells (one bit each, so it stays in the cache); each
//! partition gives its cells their numbers in the moved order, from a
//! slice of numbers as small as its table; and one last pass in the
//! original order takes each cell's number back from its partition's next
//! place, the reverse of the move.

use crate::key_table::{hash, KeyList, KeyTable};

/// At most this many bits of the hash choose a partition (4,096 partitions).
const MOST_BITS: u32 = 12;

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

/// A cell moved to its partition.
#[derive(Clone, Copy, Default)]
struct Moved {
    /// Which cell it is.
    cell: u32,
    /// Where its key ends among the moved keys.
    end: u32,
    /// Its key's hash, so that counting reads nothing at the cell's place.
    hash: u32,
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

    // Every cell moved to its partition, in order, with its key's bytes.
    let mut moved = vec![Moved::default(); cells];
    let mut moved_keys = vec![0u8; byte_starts[parts]];
    let (mut next_cell, mut next_byte) = (cell_starts.clone(), byte_starts.clone());
    for (cell, &hash) in hashes.iter().enumerate() {
        let part = part_of(hash);
        let bytes = key(cell);
        let end = next_byte[part] + bytes.len();
        moved_keys[next_byte[part]..end].copy_from_slice(bytes);
        next_byte[part] = end;
        moved[next_cell[part]] = Moved { cell: cell as u32, end: end as u32, hash };
        next_cell[part] += 1;
    }
    drop(next_byte);

    // Each partition counted alone. Per moved cell: its entry in its
    // partition's table (and below, in its place, its number); per entry
    // (the partition's from `entry_starts`): its count and its first cell.
    let mut entries_of = vec![0u32; cells];
    let mut counts: Vec<u32> = Vec::new();
    let mut first_of: Vec<u32> = Vec::new();
    // The bytes of the distinct keys, so that their list is made once at its size.
    let mut distinct_bytes = 0;
    let mut entry_starts = vec![0usize; parts + 1];
    let mut table = KeyTable::default();
    for part in 0..parts {
        table.clear();
        let mut start = byte_starts[part];
        let range = cell_starts[part]..cell_starts[part + 1];
        for (moved, entry_of) in moved[range.clone()].iter().zip(&mut entries_of[range]) {
            let cell = moved.cell as usize;
            let (entry, new) = table.count_hashed(&moved_keys[start..moved.end as usize], moved.hash, weight(cell));
            if new {
                first_of.push(moved.cell);
                distinct_bytes += moved.end as usize - start;
            }
            *entry_of = entry;
            start = moved.end as usize;
        }
        counts.extend(table.keys().iter().map(|(_, count)| count));
        entry_starts[part + 1] = counts.len();
    }
    drop((moved, moved_keys, table));

    // Each entry's number: how many entries' first cells come before its own.
    let ranks = Ranks::of(cells, &first_of);
    let numbers_of: Vec<u32> = first_of.iter().map(|&cell| ranks.before(cell as usize)).collect();
    drop((ranks, first_of));
    // Each moved cell's number, its partition's numbers at hand.
    for part in 0..parts {
        let numbers = &numbers_of[entry_starts[part]..entry_starts[part + 1]];
        for entry_of in &mut entries_of[cell_starts[part]..cell_starts[part + 1]] {
            *entry_of = numbers[*entry_of as usize];
        }
    }

    // Back in the original order: each cell's number is the next one moved
    // to its partition, and a number met for the first time is a new key,
    // whose count is its partition's next entry's (entries are in the
    // order first seen within a partition).
    let (mut next_cell, mut next_entry) = (cell_starts, entry_starts);
    let mut keys = KeyList::with_capacity(counts.len(), distinct_bytes);
    let mut first_cells = Vec::with_capacity(counts.len());
    let mut numbers = Vec::with_capacity(cells);
    for (cell, &hash) in hashes.iter().enumerate() {
        let part = part_of(hash);
        let number = entries_of[next_cell[part]];
        next_cell[part] += 1;
        if number as usize == keys.len() {
            keys.push(key(cell), counts[next_entry[part]]);
            next_entry[part] += 1;
            first_cells.push(cell as u32);
        }
        numbers.push(number);
    }
    Numbering { keys, numbers, first_cells }
}

/// The rank of a cell among a set of cells: one bit per cell, and per
/// word of bits how many are set before it.
struct Ranks {
    bits: Vec<u64>,
    before: Vec<u32>,
}

impl Ranks {
    /// The set `members` of the cells `0..cells`.
    fn of(cells: usize, members: &[u32]) -> Ranks {
        let mut bits = vec![0u64; cells.div_ceil(64)];
        for &cell in members {
            bits[cell as usize / 64] |= 1 << (cell % 64);
        }
        let mut before = Vec::with_capacity(bits.len());
        let mut total = 0u32;
        for word in &bits {
            before.push(total);
            total += word.count_ones();
        }
        Ranks { bits, before }
    }

    /// How many members come before `cell`.
    fn before(&self, cell: usize) -> u32 {
        let below = (1u64 << (cell % 64)) - 1;
        self.before[cell / 64] + (self.bits[cell / 64] & below).count_ones()
    }
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
    fn a_rank_counts_the_members_before_a_cell_across_words() {
        // Members at both ends of a word and in the last, partial word.
        let ranks = Ranks::of(200, &[0, 5, 63, 64, 130, 199]);
        let before: Vec<u32> = [0, 1, 5, 6, 63, 64, 65, 130, 131, 199].iter().map(|&cell| ranks.before(cell)).collect();
        assert_eq!(before, [0, 1, 1, 2, 2, 3, 4, 4, 5, 5]);
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
