//! A set of byte-string keys, each with a number, built for millions of
//! short keys: `unique` and `primary_key` on a million-row file hold one key
//! per row.
//!
//! A `HashMap<Box<[u8]>, _>` pays for each key twice over at that size: an
//! allocation of its own, and, every time the table grows, a pointer to
//! follow (a cache miss) to hash the key again. Here every key's bytes sit
//! in one arena, and each slot of the table keeps the key's hash beside its
//! entry number: growing rehashes nothing and reads no key, and a probe past
//! another key reads only its slot.
//!
//! Slots are found by linear probing from the hash, the table at most half
//! full. The hash is a fixed function (the module has no randomness), so
//! inputs crafted to collide can slow a call down; the call's fuel still
//! bounds it.

/// One key: where its bytes end in the arena, and its number. The keys
/// lie one after another in the order added, so a key starts where the one
/// before it ends: eight bytes a key, for lists of a million keys.
#[derive(Clone, Copy)]
struct Entry {
    end: u32,
    value: u32,
}

/// Keys in the order added, each with a number, and no index: what a table
/// keeps once nothing more is looked up in it, or a list whose keys the
/// caller knows to be distinct.
#[derive(Default)]
pub(crate) struct KeyList {
    arena: Vec<u8>,
    entries: Vec<Entry>,
}

impl KeyList {
    /// An empty list with room for `keys` keys of `bytes` bytes in all.
    pub(crate) fn with_capacity(keys: usize, bytes: usize) -> KeyList {
        KeyList { arena: Vec::with_capacity(bytes), entries: Vec::with_capacity(keys) }
    }

    /// Add `key` with `value` at the end (whether it is already here is
    /// the caller's business).
    pub(crate) fn push(&mut self, key: &[u8], value: u32) {
        self.push_written(|arena| arena.extend_from_slice(key), value);
    }

    /// Add the key `write` writes at the end of the buffer it is given,
    /// with `value`: a key made of parts is written in place, not copied.
    pub(crate) fn push_written(&mut self, write: impl FnOnce(&mut Vec<u8>), value: u32) {
        write(&mut self.arena);
        let end = u32::try_from(self.arena.len()).unwrap_or(u32::MAX);
        self.entries.push(Entry { end, value });
    }

    /// How many keys the list holds.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Every key, to be changed in place (never in length), with its
    /// number, in the order added.
    pub(crate) fn iter_mut(&mut self) -> impl Iterator<Item = (&mut [u8], u32)> + '_ {
        // The keys lie one after another in the order added, so each is
        // the front of what the keys before it leave.
        let mut rest = &mut self.arena[..];
        let mut start = 0;
        self.entries.iter().map(move |entry| {
            let (key, after) = std::mem::take(&mut rest).split_at_mut(entry.end as usize - start);
            rest = after;
            start = entry.end as usize;
            (key, entry.value)
        })
    }

    /// Every key with its number, in the order added (a key's position here
    /// is its entry number); the tests read lists through it.
    #[cfg(test)]
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&[u8], u32)> + '_ {
        self.spans().map(|(span, value)| (&self.arena[span], value))
    }

    /// Every key's number, in the order added (`inspect_dataset` counts each
    /// distinct value in a list indexed by a key's position here).
    pub(crate) fn values(&self) -> impl Iterator<Item = u32> + '_ {
        self.entries.iter().map(|entry| entry.value)
    }

    /// The number of the key with entry number `entry`.
    pub(crate) fn value(&self, entry: usize) -> Option<u32> {
        self.entries.get(entry).map(|entry| entry.value)
    }

    /// The key with entry number `number` (its position in [`KeyList::iter`]).
    pub(crate) fn key(&self, number: usize) -> Option<&[u8]> {
        (number < self.entries.len()).then(|| self.bytes(number))
    }

    /// Every key's bytes, one after another in the order added: a caller
    /// whose keys are all text checks the text once, not per key.
    pub(crate) fn arena(&self) -> &[u8] {
        &self.arena
    }

    /// Where each key is in [`KeyList::arena`], with its number, in the order added.
    pub(crate) fn spans(&self) -> impl Iterator<Item = (std::ops::Range<usize>, u32)> + '_ {
        let mut start = 0;
        self.entries.iter().map(move |entry| {
            let span = start..entry.end as usize;
            start = entry.end as usize;
            (span, entry.value)
        })
    }

    /// The bytes of entry `index`, which is there.
    fn bytes(&self, index: usize) -> &[u8] {
        let start = index.checked_sub(1).map_or(0, |before| self.entries[before].end as usize);
        &self.arena[start..self.entries[index].end as usize]
    }
}

/// Keys and their numbers; a key's number is set when it is first added.
#[derive(Default)]
pub(crate) struct KeyTable {
    keys: KeyList,
    /// Per slot, 0 when empty, else the key's hash in the high half and its
    /// entry number + 1 in the low half: a probe past another key reads its
    /// slot only, not its entry. A power of two long.
    slots: Vec<u64>,
}

impl KeyTable {
    /// The number of `key`, adding the key with `value` when it is new.
    pub(crate) fn get_or_insert(&mut self, key: &[u8], value: u32) -> u32 {
        match self.find_or_add(key, hash(key), value) {
            Ok(entry) => self.keys.entries[entry].value,
            Err(_) => value,
        }
    }

    /// Count `key` (whose [`hash`] is `hash`) `n` more times: its number is
    /// how often it was counted. Returns its entry number, and whether it is new. (The count sits in
    /// the entry the lookup reads anyway, where a list of counts beside the
    /// table would cost a second read from memory for every key.)
    pub(crate) fn count_hashed(&mut self, key: &[u8], hash: u32, n: u32) -> (u32, bool) {
        match self.find_or_add(key, hash, n) {
            Ok(entry) => {
                let held = &mut self.keys.entries[entry].value;
                *held = held.saturating_add(n);
                (entry as u32, false)
            }
            Err(entry) => (entry as u32, true),
        }
    }

    /// Whether the table holds `key`.
    pub(crate) fn contains(&self, key: &[u8]) -> bool {
        !self.slots.is_empty() && self.probe(key, hash(key)).is_ok()
    }

    /// How many keys the table holds.
    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }

    /// The keys, in the order first added (see [`KeyList`]).
    pub(crate) fn keys(&self) -> &KeyList {
        &self.keys
    }

    /// The keys, with the index dropped.
    pub(crate) fn into_keys(self) -> KeyList {
        self.keys
    }

    /// `Ok` with the entry number of `key`, or `Err` with the number it was
    /// just added under, with `value`.
    fn find_or_add(&mut self, key: &[u8], hash: u32, value: u32) -> Result<usize, usize> {
        if self.slots.is_empty() {
            self.grow();
        }
        let slot = match self.probe(key, hash) {
            Ok(entry) => return Ok(entry),
            Err(slot) => slot,
        };
        self.keys.push(key, value);
        let entry = self.keys.len() - 1;
        self.slots[slot] = (u64::from(hash) << 32) | self.keys.len() as u64;
        if self.keys.len() * 2 > self.slots.len() {
            self.grow();
        }
        Err(entry)
    }

    /// The entry index of `key`, or the empty slot where it would go.
    fn probe(&self, key: &[u8], hash: u32) -> Result<usize, usize> {
        let mask = self.slots.len() - 1;
        let mut slot = hash as usize & mask;
        loop {
            let held = self.slots[slot];
            if held == 0 {
                return Err(slot);
            }
            if (held >> 32) as u32 == hash {
                let index = (held as u32 - 1) as usize;
                if same_bytes(self.keys.bytes(index), key) {
                    return Ok(index);
                }
            }
            slot = (slot + 1) & mask;
        }
    }

    /// Double the slots and put every key back, by the hash its slot kept.
    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(16);
        let old = std::mem::replace(&mut self.slots, vec![0; size]);
        let mask = size - 1;
        for held in old.into_iter().filter(|&held| held != 0) {
            let mut slot = (held >> 32) as usize & mask;
            while self.slots[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            self.slots[slot] = held;
        }
    }
}

/// Append `bytes` to `out`, as `extend_from_slice` does, but a slice of 4
/// to 16 bytes as two words and a shorter one byte by byte.
///
/// In the wasm module a copy of a length not known when compiling is a
/// `memory.copy`, which wasmtime runs as a call out of the module and back
/// (tens of nanoseconds, for a copy of a few bytes). Keys are copied
/// several times per cell of a million-row file, and most are short.
#[inline]
pub(crate) fn append_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    let len = bytes.len();
    if len > 16 {
        out.extend_from_slice(bytes);
        return;
    }
    if len < 4 {
        for &byte in bytes {
            out.push(byte);
        }
        return;
    }
    // Sixteen bytes of room at the end, the key copied into it, the rest
    // cut off. (Copied into a block on the stack first, and the block
    // appended, the block's 16-byte load waited on the two 8-byte stores
    // before it: natively, 40% of the time of the pass that writes an
    // `inspect_dataset` column's cells down.)
    let start = out.len();
    out.extend_from_slice(&[0u8; 16]);
    copy_bytes(&mut out[start..start + len], bytes);
    out.truncate(start + len);
}

/// Copy `src` into `dst`, of the same length, as `copy_from_slice` does but
/// without a `memory.copy` for 4 to 16 bytes (see [`append_bytes`]): the
/// first and the last 8 (or 4) bytes, which overlap or meet, each a copy
/// of a length the compiler knows.
// Measured: with `#[inline]` alone the module still called it, once per key moved.
#[allow(clippy::inline_always)]
#[inline(always)]
pub(crate) fn copy_bytes(dst: &mut [u8], src: &[u8]) {
    let len = src.len();
    match len {
        8..=16 => {
            dst[..8].copy_from_slice(&src[..8]);
            dst[len - 8..][..8].copy_from_slice(&src[len - 8..][..8]);
        }
        4..=7 => {
            dst[..4].copy_from_slice(&src[..4]);
            dst[len - 4..][..4].copy_from_slice(&src[len - 4..][..4]);
        }
        0..=3 => {
            for (to, &from) in dst.iter_mut().zip(src) {
                *to = from;
            }
        }
        _ => dst.copy_from_slice(src),
    }
}

/// Whether `a` and `b` are the same bytes, compared eight at a time. (A
/// slice's `==` calls `memcmp`, which the wasm module has as a loop over
/// single bytes; keys here are mostly a few words long.)
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let (mut a_words, mut b_words) = (a.chunks_exact(8), b.chunks_exact(8));
    (&mut a_words).zip(&mut b_words).all(|(x, y)| word(x) == word(y))
        && a_words.remainder().iter().zip(b_words.remainder()).all(|(x, y)| x == y)
}

/// Eight bytes as one word (`chunk` is eight bytes long).
fn word(chunk: &[u8]) -> u64 {
    u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]))
}

/// A 32-bit hash of `bytes`: eight bytes at a time, each folded in by a
/// multiply and a shift (64-bit operations only, which wasm has natively;
/// a 128-bit product would be a library call there), then finished with
/// `MurmurHash3`'s 64-bit mixer so every output bit depends on every input bit.
pub(crate) fn hash(bytes: &[u8]) -> u32 {
    const SEED: u64 = 0xa076_1d64_78bd_642f;
    const STEP: u64 = 0x9e37_79b9_7f4a_7c15;
    let fold = |state: u64, word: u64| {
        let mixed = (state ^ word).wrapping_mul(STEP);
        mixed ^ (mixed >> 29)
    };
    let mut state = SEED ^ (bytes.len() as u64).wrapping_mul(STEP);
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        state = fold(state, word(chunk));
    }
    let remainder = chunks.remainder().len();
    if remainder > 0 {
        // The last eight bytes as one word, overlapping the words before
        // (the length is in the seed, so the overlap loses nothing); a key
        // shorter than a word as its first and last four bytes, or fewer
        // bytes shifted in. One load where a byte loop was: most keys end
        // in a part word.
        let len = bytes.len();
        let tail = if len >= 8 {
            word(&bytes[len - 8..])
        } else if len >= 4 {
            let half = |at: usize| u64::from(u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap_or([0; 4])));
            half(0) | (half(len - 4) << 32)
        } else {
            bytes.iter().rev().fold(0u64, |word, &byte| (word << 8) | u64::from(byte))
        };
        state = fold(state, tail);
    }
    // fmix64
    state ^= state >> 33;
    state = state.wrapping_mul(0xff51_afd7_ed55_8ccd);
    state ^= state >> 33;
    state = state.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    state ^= state >> 33;
    state as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_keeps_the_number_it_was_first_added_with() {
        let mut table = KeyTable::default();
        assert_eq!(table.get_or_insert(b"a", 7), 7);
        assert_eq!(table.get_or_insert(b"a", 9), 7);
        assert_eq!(table.get_or_insert(b"", 3), 3, "the empty key is a key");
        assert_eq!(table.get_or_insert(b"", 4), 3);
        assert!(table.contains(b"a") && table.contains(b"") && !table.contains(b"b"));
        assert_eq!(table.len(), 2);
    }

    #[test]
    fn a_counted_key_holds_its_count_and_keeps_its_number() {
        let mut table = KeyTable::default();
        let count = |table: &mut KeyTable, key: &[u8], n| table.count_hashed(key, hash(key), n);
        assert_eq!(count(&mut table, b"x", 2), (0, true));
        assert_eq!(count(&mut table, b"y", 1), (1, true));
        assert_eq!(count(&mut table, b"x", 3), (0, false));
        assert_eq!(count(&mut table, b"x", 0), (0, false));
        let counted: Vec<(&[u8], u32)> = table.keys().iter().collect();
        assert_eq!(counted, [(&b"x"[..], 5), (&b"y"[..], 1)]);
        let mut keys = table.into_keys();
        assert_eq!((keys.key(1), keys.key(2), keys.len()), (Some(&b"y"[..]), None, 2));
        assert_eq!(keys.spans().map(|(_, value)| value).collect::<Vec<_>>(), [5, 1]);
        for (key, _) in keys.iter_mut() {
            key[0] = key[0].to_ascii_uppercase();
        }
        let changed: Vec<(&[u8], u32)> = keys.iter().collect();
        assert_eq!(changed, [(&b"X"[..], 5), (&b"Y"[..], 1)]);
    }

    #[test]
    fn short_copies_copy_exactly_the_bytes_at_every_length() {
        // Every length across the word boundaries and past the words, after
        // a prefix that must stay.
        let source: Vec<u8> = (1..=40u8).collect();
        for len in 0..=source.len() {
            let mut out = vec![0xAA, 0xBB];
            append_bytes(&mut out, &source[..len]);
            let mut expected = vec![0xAA, 0xBB];
            expected.extend_from_slice(&source[..len]);
            assert_eq!(out, expected, "length {len}");
            let mut copied = vec![0u8; len];
            copy_bytes(&mut copied, &source[..len]);
            assert_eq!(copied, source[..len], "copied, length {len}");
        }
    }

    #[test]
    fn same_bytes_is_slice_equality_at_every_length_and_place() {
        // Lengths across the word boundaries, each compared with itself,
        // with one byte changed at every place (in a word or the tail),
        // and with a key one byte shorter.
        let base: Vec<u8> = (0..25u8).map(|n| n.wrapping_mul(37)).collect();
        for len in 0..=base.len() {
            let key = &base[..len];
            assert!(same_bytes(key, key), "length {len}");
            for at in 0..len {
                let mut other = key.to_vec();
                other[at] ^= 0x80;
                assert!(!same_bytes(key, &other), "length {len}, byte {at} changed");
            }
            if len > 0 {
                assert!(!same_bytes(key, &key[..len - 1]), "length {len} against {}", len - 1);
            }
        }
    }

    #[test]
    fn many_keys_survive_growth_and_keys_of_every_length_differ() {
        // Keys of lengths 0..40 with the same prefix, and 100,000 numbered
        // keys: every one is found with its own number, through many doublings.
        let mut table = KeyTable::default();
        let long = [b'x'; 40];
        for len in 0..40 {
            assert_eq!(table.get_or_insert(&long[..len], len as u32), len as u32);
        }
        for n in 0..100_000u32 {
            let key = format!("INV-{n:06}");
            assert_eq!(table.get_or_insert(key.as_bytes(), n), n);
        }
        for len in 0..40 {
            assert_eq!(table.get_or_insert(&long[..len], 999), len as u32);
        }
        for n in (0..100_000u32).step_by(997) {
            assert_eq!(table.get_or_insert(format!("INV-{n:06}").as_bytes(), 0), n);
        }
        assert!(!table.contains(b"INV-100000"));
        assert_eq!(table.len(), 100_040);
    }

    #[test]
    fn the_hash_spreads_short_similar_keys() {
        // Keys that differ in one byte should fall in different slots of a
        // small table most of the time: at most a few collisions in 256.
        let mut low_bits = std::collections::HashSet::new();
        for n in 0..256u32 {
            low_bits.insert(hash(format!("INV-{n:06}").as_bytes()) & 1023);
        }
        // Uniform hashing gives about 226 distinct (1024 × (1 − e^−¼)).
        assert!(low_bits.len() > 210, "{} distinct of 256", low_bits.len());
    }
}
