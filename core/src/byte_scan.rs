//! Finding the next of a few bytes in a text, eight bytes at a time.
//!
//! The module has no vector instructions, and reading large inputs (a CSV
//! field's end, a JSON string's end) is mostly this scan. So a word of
//! eight bytes is checked at once (SWAR): a byte equal to the one looked
//! for becomes zero after XOR, and `has_zero` finds zero bytes in a word.

/// The index of the first byte from `start` on that is one of `targets`,
/// or the end of `bytes`.
// Inlined, so that each target's word is a constant where it is called.
#[inline]
pub(crate) fn find_any<const N: usize>(bytes: &[u8], start: usize, targets: [u8; N]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // Exact for the lowest zero byte, which is the only one used: a false
    // positive can only appear above a true zero.
    let has_zero = |word: u64| word.wrapping_sub(ONES) & !word & HIGHS;
    let mut i = start;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        let mut found = 0;
        for target in targets {
            found |= has_zero(word ^ (ONES * u64::from(target)));
        }
        if found != 0 {
            return i + (found.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    let tail = bytes.get(i..).unwrap_or_default();
    tail.iter().position(|byte| targets.contains(byte)).map_or(bytes.len(), |n| i + n)
}

#[cfg(test)]
mod tests {
    use super::find_any;

    #[test]
    fn the_first_target_is_found_in_every_place_of_a_word_and_in_the_tail() {
        // Each target at every position of a 21-byte text (two words and a
        // tail), after bytes one above and one below it (which a borrow
        // between bytes would confuse with it), and behind a byte 0x80.
        for at in 0..21 {
            for target in [b'"', b'\\', b','] {
                let mut text = vec![b'a'; 21];
                for (i, byte) in text.iter_mut().enumerate().take(at) {
                    *byte = if i % 2 == 0 { target + 1 } else { target - 1 };
                }
                text[at] = target;
                assert_eq!(find_any(&text, 0, [b'"', b'\\', b',']), at, "{target} at {at}");
                assert_eq!(find_any(&text, at, [target]), at);
                text[at] = 0x80;
                assert_eq!(find_any(&text, 0, [target]), 21, "none: the end");
            }
        }
        assert_eq!(find_any(b"", 0, [b'"']), 0);
        assert_eq!(find_any(b"ab", 5, [b'"']), 2, "a start past the end is the end");
    }
}
