//! Numbering a great many keys in the order first seen, each distinct key
//! with its count, without a table of megabytes.
//!
//! Looking every key up in one table as it comes is a wait on memory per
//! key once the table is far larger than the processor's cache (a column
//! of a million ids makes a table of tens of megabytes). So a
//! [`KeyCounter`] counts in one table only while it is small, and writes
//! the keys after that down; once every key is in, they are moved, by the
//! top bits of their hash, into partitions of a few
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

use crate::key_table::{copy_bytes, hash, same_bytes, KeyList, KeyTable};

/// At most this many bits of the hash choose a partition (4,096 partitions).
const MOST_BITS: u32 = 12;

/// Keys counted in the order first seen, each with the sum of its weights:
/// in one table while it holds fewer than `direct` distinct keys, then
/// written down as they come and numbered in partitions once every key is
/// in ([`KeyCounter::finish`]). A key's number is its place in the order
/// first seen either way.
///
/// (Written down in one list, in order, and moved to partitions after: a
/// counter that wrote each key to its partition at once would write to a
/// few hundred places per column as the rows are read, and with several
/// columns the writes miss the cache; that took the pass over the rows of
/// the million-row benchmark from 125 to 330 ms natively.)
pub(super) struct KeyCounter {
    table: KeyTable,
    direct: usize,
    /// About how many keys each partition numbers.
    partition: usize,
    written: Option<WrittenDown>,
    scratch: Vec<u8>,
}

/// The keys written down, one after another: first the table's distinct
/// keys as it held them when it was full (each weighing its count, which
/// is then final: every key after is written down), then every key
/// written down, in the order counted. A key's place here is its cell.
struct WrittenDown {
    keys: Vec<u8>,
    /// Where each key ends in `keys`.
    ends: Vec<u32>,
    /// The first cells' weights: the table's counts, and every written-down
    /// key's too once one has weighed other than 1 (`weighted`); the cells
    /// past these weigh 1.
    weights: Vec<u32>,
    weighted: bool,
    /// How many of the cells are the table's keys.
    direct: usize,
}

impl WrittenDown {
    /// The table's keys, as the first cells.
    fn of(table: &KeyList) -> WrittenDown {
        let mut written = WrittenDown {
            keys: table.arena().to_vec(),
            ends: Vec::with_capacity(table.len()),
            weights: Vec::with_capacity(table.len()),
            weighted: false,
            direct: table.len(),
        };
        // The table's keys lie one after another in its arena, in order.
        for (span, count) in table.spans() {
            written.ends.push(u32::try_from(span.end).unwrap_or(u32::MAX));
            written.weights.push(count);
        }
        written
    }

    /// The key just written at the end of `keys` is the next cell, weighing `weight`.
    fn note(&mut self, weight: u32) {
        let cell = self.ends.len();
        if weight != 1 && !self.weighted {
            self.weights.resize(cell, 1);
            self.weighted = true;
        }
        if self.weighted {
            self.weights.push(weight);
        }
        self.ends.push(u32::try_from(self.keys.len()).unwrap_or(u32::MAX));
    }

    fn cells(&self) -> usize {
        self.ends.len()
    }

    #[inline]
    fn key(&self, cell: usize) -> &[u8] {
        let start = if cell == 0 { 0 } else { self.ends[cell - 1] as usize };
        &self.keys[start..self.ends[cell] as usize]
    }

    #[inline]
    fn weight(&self, cell: usize) -> u32 {
        self.weights.get(cell).copied().unwrap_or(1)
    }
}

/// A key's number, when [`KeyCounter::count`] can tell it at once.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Counted {
    /// Its number, and whether the key is new.
    Now(u32, bool),
    /// Written down: its number comes with the others in [`Counts::late`].
    Later,
}

/// Every key counted.
pub(super) struct Counts {
    /// The distinct keys in the order first seen, each with the sum of its weights.
    pub(super) keys: KeyList,
    /// The numbers of the keys written down, in the order counted.
    pub(super) late: Vec<u32>,
    /// For each number the table did not give (from its count up, in
    /// order): which key written down had it first (its place in `late`).
    pub(super) late_firsts: Vec<u32>,
}

impl KeyCounter {
    /// A counter that writes keys down once it holds `direct` distinct
    /// keys, and numbers them in partitions of about `partition` keys.
    pub(super) fn new(direct: usize, partition: usize) -> Self {
        KeyCounter { table: KeyTable::default(), direct, partition, written: None, scratch: Vec::new() }
    }

    /// Count the key `write` writes at the end of the buffer it is given,
    /// `weight` times; `None`, and nothing counted, when `write` says the
    /// value has no key (and writes none).
    pub(super) fn count(&mut self, write: impl FnOnce(&mut Vec<u8>) -> bool, weight: u32) -> Option<Counted> {
        // One place `write` is called, so that it is inlined (called from
        // two, it was a call per cell in the module).
        let buffer = match &mut self.written {
            Some(written) => &mut written.keys,
            None => {
                self.scratch.clear();
                &mut self.scratch
            }
        };
        let start = buffer.len();
        if !write(buffer) {
            buffer.truncate(start);
            return None;
        }
        if let Some(written) = &mut self.written {
            written.note(weight);
            return Some(Counted::Later);
        }
        let (number, new) = self.table.count_hashed(&self.scratch, hash(&self.scratch), weight);
        if new && self.table.len() >= self.direct {
            self.written = Some(WrittenDown::of(std::mem::take(&mut self.table).keys()));
        }
        Some(Counted::Now(number, new))
    }

    /// Every key is in: number the keys written down, after the table's.
    pub(super) fn finish(self) -> Counts {
        let mut late = Vec::new();
        let counts = self.finish_appending(&mut late);
        Counts { late, ..counts }
    }

    /// [`KeyCounter::finish`], the late numbers appended to `late` (and
    /// none in the [`Counts`] returned).
    pub(super) fn finish_appending(self, late: &mut Vec<u32>) -> Counts {
        let Some(written) = self.written else {
            return Counts { keys: self.table.into_keys(), late: Vec::new(), late_firsts: Vec::new() };
        };
        number_in_partitions(&written, self.partition, late)
    }
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

/// Number the cells written down, in partitions of about `partition`
/// cells; their numbers are appended to `late`.
fn number_in_partitions(written: &WrittenDown, partition: usize, late: &mut Vec<u32>) -> Counts {
    let cells = written.cells();
    let key = |cell: usize| written.key(cell);
    let weight = |cell: usize| written.weight(cell);
    let bits = partition_bits(cells, partition);
    // The top `bits` bits: a table finds a slot by the low ones.
    let part_of = |hash: u32| ((u64::from(hash) << bits) >> 32) as usize;
    let parts = 1usize << bits;

    // Each cell's hash; and where each partition's cells and key bytes
    // start, once moved.
    let mut hashes: Vec<u32> = Vec::with_capacity(cells);
    let mut cell_starts = vec![0usize; parts + 1];
    let mut byte_starts = vec![0usize; parts + 1];
    for cell in 0..cells {
        let bytes = key(cell);
        let hash = hash(bytes);
        hashes.push(hash);
        let part = part_of(hash);
        cell_starts[part + 1] += 1;
        byte_starts[part + 1] += bytes.len();
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
        copy_bytes(&mut moved_keys[next_byte[part]..end], bytes);
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
    let mut table = PartitionTable::default();
    for part in 0..parts {
        let range = cell_starts[part]..cell_starts[part + 1];
        table.reset(range.len());
        let first_entry = counts.len();
        let mut start = byte_starts[part] as u32;
        for (moved, entry_of) in moved[range.clone()].iter().zip(&mut entries_of[range]) {
            let weight = weight(moved.cell as usize);
            let (entry, new) = table.entry(&moved_keys, start..moved.end, moved.hash);
            if new {
                first_of.push(moved.cell);
                counts.push(weight);
                distinct_bytes += (moved.end - start) as usize;
            } else {
                let count = &mut counts[first_entry + entry as usize];
                *count = count.saturating_add(weight);
            }
            *entry_of = entry;
            start = moved.end;
        }
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
    // The table's keys are distinct and come first, so they keep their
    // numbers; the rest are the late numbers.
    let (mut next_cell, mut next_entry) = (cell_starts, entry_starts);
    let mut keys = KeyList::with_capacity(counts.len(), distinct_bytes);
    let mut late_firsts = Vec::with_capacity(counts.len().saturating_sub(written.direct));
    late.reserve(cells - written.direct);
    for (cell, &hash) in hashes.iter().enumerate() {
        let part = part_of(hash);
        let number = entries_of[next_cell[part]];
        next_cell[part] += 1;
        if number as usize == keys.len() {
            keys.push(key(cell), counts[next_entry[part]]);
            next_entry[part] += 1;
            if let Some(late_cell) = cell.checked_sub(written.direct) {
                late_firsts.push(late_cell as u32);
            }
        }
        if cell >= written.direct {
            late.push(number);
        }
    }
    debug_assert!(keys.len() >= written.direct && late_firsts.len() == keys.len() - written.direct);
    Counts { keys, late: Vec::new(), late_firsts }
}

/// One partition's distinct keys, each found by its hash: as a
/// [`KeyTable`] does, but a key is where its first occurrence lies among
/// the moved keys, not a copy of it, and the table is sized for its
/// partition once, so it never grows.
#[derive(Default)]
struct PartitionTable {
    /// Per slot, 0 when empty, else the key's hash in the high half and
    /// its entry + 1 in the low half. A power of two long, at most half full.
    slots: Vec<u64>,
    /// Per entry: where its key lies.
    spans: Vec<std::ops::Range<u32>>,
}

impl PartitionTable {
    /// Empty, with room for a partition of `keys` keys.
    fn reset(&mut self, keys: usize) {
        self.slots.clear();
        self.slots.resize((keys * 2).next_power_of_two().max(16), 0);
        self.spans.clear();
    }

    /// The entry of the key at `span` of `bytes`, whose hash is `hash`,
    /// and whether it is new.
    fn entry(&mut self, bytes: &[u8], span: std::ops::Range<u32>, hash: u32) -> (u32, bool) {
        let key = &bytes[span.start as usize..span.end as usize];
        let mask = self.slots.len() - 1;
        let mut slot = hash as usize & mask;
        loop {
            let held = self.slots[slot];
            if held == 0 {
                let entry = u32::try_from(self.spans.len()).unwrap_or(u32::MAX);
                self.spans.push(span);
                self.slots[slot] = (u64::from(hash) << 32) | u64::from(entry + 1);
                return (entry, true);
            }
            if (held >> 32) as u32 == hash {
                let entry = held as u32 - 1;
                let other = &self.spans[entry as usize];
                if same_bytes(&bytes[other.start as usize..other.end as usize], key) {
                    return (entry, false);
                }
            }
            slot = (slot + 1) & mask;
        }
    }
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

    /// Each distinct key with its weight; each occurrence's number; each number's first occurrence.
    type Numbered = (Vec<(Vec<u8>, u32)>, Vec<u32>, Vec<u32>);

    /// One table filled in order, as a counter must number.
    fn in_one_table(keys: &[Vec<u8>], weights: &[u32]) -> Numbered {
        let mut numbers_of: HashMap<&[u8], usize> = HashMap::new();
        let (mut distinct, mut numbers, mut firsts) = (Vec::<(Vec<u8>, u32)>::new(), Vec::new(), Vec::new());
        for (at, key) in keys.iter().enumerate() {
            let number = *numbers_of.entry(key).or_insert_with(|| {
                distinct.push((key.clone(), 0));
                firsts.push(at as u32);
                distinct.len() - 1
            });
            distinct[number].1 += weights[at];
            numbers.push(number as u32);
        }
        (distinct, numbers, firsts)
    }

    /// Count `keys` with a counter, each occurrence's number filled in
    /// from the late ones, each number's first occurrence from the new ones.
    fn counted(keys: &[Vec<u8>], weights: &[u32], direct: usize, partition: usize) -> Numbered {
        let mut counter = KeyCounter::new(direct, partition);
        let mut now: Vec<Option<u32>> = Vec::new();
        let mut firsts = Vec::new();
        let mut written = 0;
        for (at, key) in keys.iter().enumerate() {
            let write = |out: &mut Vec<u8>| {
                out.extend_from_slice(key);
                true
            };
            match counter.count(write, weights[at]) {
                Some(Counted::Now(number, new)) => {
                    now.push(Some(number));
                    if new {
                        firsts.push(at as u32);
                    }
                }
                Some(Counted::Later) => {
                    now.push(None);
                    written += 1;
                }
                None => panic!("every key is written"),
            }
        }
        let Counts { keys: distinct, late, late_firsts } = counter.finish();
        assert_eq!(late.len(), written);
        // Occurrence `at` of the late ones, as a place among all of them.
        let late_places: Vec<u32> = (0..keys.len() as u32).filter(|&at| now[at as usize].is_none()).collect();
        firsts.extend(late_firsts.iter().map(|&late| late_places[late as usize]));
        let mut late = late.into_iter();
        let numbers = now.into_iter().map(|number| number.or_else(|| late.next()).expect("a number")).collect();
        (distinct.iter().map(|(key, n)| (key.to_vec(), n)).collect(), numbers, firsts)
    }

    #[test]
    fn partitions_number_as_one_table_filled_in_order() {
        // Keys that repeat near and far, of every length from empty up,
        // weighed unevenly (1 for most, as `values.rs` weighs its cells);
        // counted in one table throughout, and written down from the
        // first, the third and the 500th distinct key on, in partitions
        // planned for 1 key (4,096 of them), 7 keys and all keys.
        let keys: Vec<Vec<u8>> = (0..20_000u32)
            .map(|n| match n % 5 {
                0 => format!("id-{n}").into_bytes(),
                1 => format!("{}", n % 97).into_bytes(),
                2 => vec![b'x'; (n % 13) as usize],
                _ => format!("{}", (n * 7919) % 3001).into_bytes(),
            })
            .collect();
        for weights in [vec![1; keys.len()], (0..keys.len() as u32).map(|n| 1 + n % 3).collect()] {
            let expected = in_one_table(&keys, &weights);
            for direct in [usize::MAX, 1, 3, 500] {
                for partition in [1, 7, usize::MAX] {
                    let got = counted(&keys, &weights, direct, partition);
                    assert_eq!(got, expected, "direct {direct}, partitions of {partition}");
                }
            }
        }
    }

    #[test]
    fn a_value_without_a_key_is_not_counted_before_or_after_writing_down() {
        let mut counter = KeyCounter::new(1, 1);
        let none = |_: &mut Vec<u8>| false;
        let key = |key: &'static [u8]| {
            move |out: &mut Vec<u8>| {
                out.extend_from_slice(key);
                true
            }
        };
        assert_eq!(counter.count(none, 1), None);
        assert_eq!(counter.count(key(b"a"), 2), Some(Counted::Now(0, true)));
        assert_eq!(counter.count(none, 1), None);
        assert_eq!(counter.count(key(b"b"), 1), Some(Counted::Later));
        assert_eq!(counter.count(key(b"a"), 1), Some(Counted::Later));
        let Counts { keys, late, late_firsts } = counter.finish();
        let keys: Vec<(&[u8], u32)> = keys.iter().collect();
        assert_eq!(keys, [(&b"a"[..], 3), (&b"b"[..], 1)]);
        assert_eq!((late, late_firsts), (vec![1, 0], vec![0]));
    }

    #[test]
    fn a_rank_counts_the_members_before_an_occurrence_across_words() {
        // Members at both ends of a word and in the last, partial word.
        let ranks = Ranks::of(200, &[0, 5, 63, 64, 130, 199]);
        let before: Vec<u32> = [0, 1, 5, 6, 63, 64, 65, 130, 131, 199].iter().map(|&at| ranks.before(at)).collect();
        assert_eq!(before, [0, 1, 1, 2, 2, 3, 4, 4, 5, 5]);
    }

    #[test]
    fn no_keys_are_counted_as_none() {
        let Counts { keys, late, late_firsts } = KeyCounter::new(1, 1).finish();
        assert_eq!((keys.len(), late.len(), late_firsts.len()), (0, 0, 0));
    }

    #[test]
    fn the_partitions_are_few_for_few_keys_and_bounded_for_many() {
        assert_eq!(partition_bits(4096, 4096), 0);
        assert_eq!(partition_bits(4097, 4096), 1);
        assert_eq!(partition_bits(1_000_000, 4096), 8);
        assert_eq!(partition_bits(usize::MAX, 1), MOST_BITS);
    }
}
