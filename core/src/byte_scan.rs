//! Finding the next of a few bytes in a text, eight bytes at a time.
//!
//! The module has no vector instructions, and reading large inputs (a CSV
//! field's end, a JSON string's end) is mostly this scan. So a word of
//! eight bytes is checked at once (SWAR): a byte equal to the one looked
//! for becomes zero after XOR, and `has_zero` finds zero bytes in a word.

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The high bit of each zero byte of `word`. Exact for the lowest zero
/// byte, which is the only one used: a false positive can only appear
/// above a true zero.
#[inline]
fn has_zero(word: u64) -> u64 {
    word.wrapping_sub(ONES) & !word & HIGHS
}

/// The index of the first byte from `start` on that is one of `targets`,
/// or the end of `bytes`.
// Inlined, so that each target's word is a constant where it is called.
#[inline]
pub(crate) fn find_any<const N: usize>(bytes: &[u8], start: usize, targets: [u8; N]) -> usize {
    let flag = |word: u64| {
        let mut found = 0;
        for target in targets {
            found |= has_zero(word ^ (ONES * u64::from(target)));
        }
        found
    };
    find_flagged(bytes, start, flag, |byte| targets.contains(&byte))
}

/// The index of the first byte from `start` on that ends a run of plain
/// text inside a JSON string: a quote, a backslash or a control character
/// (below 0x20, which a JSON string may not hold); or the end of `bytes`.
#[inline]
pub(crate) fn find_string_stop(bytes: &[u8], start: usize) -> usize {
    find_flagged(bytes, start, string_stops, |byte| byte == b'"' || byte == b'\\' || byte < 0x20)
}

/// The high bit set in each byte of `word` that ends a run of plain text
/// in a JSON string (at least in the lowest such byte; none when there is
/// none): a quote, a backslash or a control character.
#[inline]
pub(crate) fn string_stops(word: u64) -> u64 {
    // Bytes below 0x20: subtracting 0x20 borrows out of them, and `!word`
    // drops bytes of 0x80 and above (exact for the lowest, as `has_zero`).
    let control = word.wrapping_sub(ONES * 0x20) & !word & HIGHS;
    control | has_zero(word ^ (ONES * u64::from(b'"'))) | has_zero(word ^ (ONES * u64::from(b'\\')))
}

/// Whether `bytes` holds no quote, backslash or control character: a word
/// at a time, the last word overlapping the one before it, so that no byte
/// is read alone but in a text of under four bytes.
#[inline]
pub(crate) fn is_plain_string_text(bytes: &[u8]) -> bool {
    let len = bytes.len();
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("eight bytes"));
    let half = |at: usize| u64::from(u32::from_le_bytes(bytes[at..at + 4].try_into().expect("four bytes")));
    match len {
        0 => true,
        1..=3 => bytes.iter().all(|&byte| byte != b'"' && byte != b'\\' && byte >= 0x20),
        // Both halves read from the text: no byte of the word is made up.
        4..=7 => string_stops(half(0) | half(len - 4) << 32) == 0,
        _ => {
            let mut at = 0;
            while at + 8 < len {
                if string_stops(word(at)) != 0 {
                    return false;
                }
                at += 8;
            }
            string_stops(word(len - 8)) == 0
        }
    }
}

/// The index of the first byte from `start` on that `stop` holds for, or
/// the end of `bytes`: eight bytes at a time, `flag` setting the high bit
/// of each such byte of a word (at least of the lowest), then byte by byte.
#[inline]
fn find_flagged(bytes: &[u8], start: usize, flag: impl Fn(u64) -> u64, stop: impl Fn(u8) -> bool) -> usize {
    let mut i = start;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let found = flag(u64::from_le_bytes(chunk.try_into().expect("eight bytes")));
        if found != 0 {
            return i + (found.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    let tail = bytes.get(i..).unwrap_or_default();
    tail.iter().position(|&byte| stop(byte)).map_or(bytes.len(), |n| i + n)
}

#[cfg(test)]
mod tests {
    use super::{find_any, find_string_stop, is_plain_string_text};

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

    #[test]
    fn a_strings_first_stop_is_found_in_every_place_of_a_word_and_in_the_tail() {
        // Each stop (a quote, a backslash, every control character) at every
        // position of a 21-byte text, after bytes that a borrow between bytes
        // could confuse with it (0x20 just above the controls, 0x7f, bytes of
        // 0x80 and above, and one above and below the quote and backslash).
        let neighbours = [0x20u8, 0x7f, 0x80, 0xff, b'"' + 1, b'"' - 1, b'\\' + 1, b'\\' - 1];
        let stops = (0u8..0x20).chain([b'"', b'\\']);
        for stop in stops {
            for at in 0..21 {
                let mut text = vec![b'a'; 21];
                for (i, byte) in text.iter_mut().enumerate().take(at) {
                    *byte = neighbours[i % neighbours.len()];
                }
                text[at] = stop;
                assert_eq!(find_string_stop(&text, 0), at, "{stop:#x} at {at}");
                text[at] = 0x20;
                assert_eq!(find_string_stop(&text, 0), 21, "none: the end");
            }
        }
        assert_eq!(find_string_stop(b"", 0), 0);
        assert_eq!(find_string_stop(b"ab", 5), 2, "a start past the end is the end");
    }

    #[test]
    fn a_text_is_plain_string_text_unless_a_stop_is_anywhere_in_it() {
        // Texts of every length to 20 (a byte at a time, one or two half
        // words, overlapping words), a stop at each place, among neighbours
        // that a borrow could confuse with one.
        let neighbours = [0x20u8, 0x7f, 0x80, 0xff, b'"' + 1, b'"' - 1, b'\\' + 1, b'\\' - 1];
        for len in 0..20 {
            let text: Vec<u8> = (0..len).map(|i| neighbours[i % neighbours.len()]).collect();
            assert!(is_plain_string_text(&text), "{text:?}");
            for at in 0..len {
                for stop in (0u8..0x20).chain([b'"', b'\\']) {
                    let mut text = text.clone();
                    text[at] = stop;
                    assert!(!is_plain_string_text(&text), "{stop:#x} at {at} of {len}");
                }
            }
        }
    }
}
