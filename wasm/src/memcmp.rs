//! `memcmp` and `bcmp` for the module, eight bytes at a time.
//!
//! Every comparison of two strings or byte slices that the compiler does
//! not unroll (sorting keys, a hash map's key equality, `==` on `str`)
//! calls `memcmp` or `bcmp`. The module has no C library: Rust's own
//! `compiler_builtins` supplies them, as a loop of one byte at a time,
//! and in the sandbox every loop turn is metered. `duplicate_report` on
//! 100,000 rows spent 15% of its time there (`scripts/profile-wasm.sh`).
//! These compare a word at a time and give the same answers (the sign of
//! the first differing byte's difference, unsigned, or 0); the builtins
//! are weak symbols, so these take their place in the module. Natively
//! the C library's are used, and the comparison below is only tested.
//! (A cdylib exports every unmangled function, so the module lists these
//! two among its exports: pure functions over its own memory, which give
//! a host nothing it could not compute itself.)

/// The order of `a` and `b` (of the same length) as `memcmp` gives it: the
/// first differing byte's difference, as unsigned bytes, or 0 when equal.
pub(crate) fn compare(a: &[u8], b: &[u8]) -> i32 {
    debug_assert_eq!(a.len(), b.len());
    let (mut a_words, mut b_words) = (a.chunks_exact(8), b.chunks_exact(8));
    for (x, y) in (&mut a_words).zip(&mut b_words) {
        let (x, y) = (word(x), word(y));
        if x != y {
            // Little-endian: the lowest differing bit is in the first differing byte.
            let at = (x ^ y).trailing_zeros() / 8 * 8;
            return i32::from((x >> at) as u8) - i32::from((y >> at) as u8);
        }
    }
    for (&x, &y) in a_words.remainder().iter().zip(b_words.remainder()) {
        if x != y {
            return i32::from(x) - i32::from(y);
        }
    }
    0
}

/// Eight bytes as one little-endian word (`chunk` is eight bytes long).
fn word(chunk: &[u8]) -> u64 {
    u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]))
}

/// The symbols themselves, in the module only.
#[cfg(target_arch = "wasm32")]
// The C signatures take bare pointers: `unsafe` by nature, and nothing in
// them but making the two slices.
#[allow(unsafe_code)]
mod symbols {
    /// # Safety
    /// `a` and `b` point to `n` readable bytes each (the C contract).
    #[unsafe(no_mangle)]
    pub(super) unsafe extern "C" fn memcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
        if n == 0 {
            return 0;
        }
        // SAFETY: the caller's contract, above; a zero length never makes a slice.
        let (a, b) = unsafe { (std::slice::from_raw_parts(a, n), std::slice::from_raw_parts(b, n)) };
        super::compare(a, b)
    }

    /// # Safety
    /// As [`memcmp`]; only whether the bytes differ is meaningful.
    #[unsafe(no_mangle)]
    pub(super) unsafe extern "C" fn bcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
        // SAFETY: the same contract.
        unsafe { memcmp(a, b, n) }
    }
}

#[cfg(test)]
mod tests {
    use super::compare;

    #[test]
    fn compare_orders_as_slices_do_at_every_length_and_place() {
        // Every length to 40, a difference at every place, with a byte above
        // 0x7f on either side (the comparison is unsigned) and neighbours
        // that a wrong shift would read instead.
        for len in 0..=40usize {
            let base: Vec<u8> = (0..len).map(|i| (i * 37 % 251) as u8).collect();
            assert_eq!(compare(&base, &base), 0, "{len}");
            for at in 0..len {
                for replacement in [0u8, 1, 0x7f, 0x80, 0xff, base[at].wrapping_add(1), base[at].wrapping_sub(1)] {
                    let mut other = base.clone();
                    other[at] = replacement;
                    let expected = base.cmp(&other);
                    let got = compare(&base, &other);
                    assert_eq!(got.cmp(&0), expected, "len {len}, at {at}, {replacement:#x}");
                    if replacement != base[at] {
                        assert_eq!(got, i32::from(base[at]) - i32::from(replacement), "len {len}, at {at}");
                    }
                    assert_eq!(compare(&other, &base), -got, "len {len}, at {at}");
                }
            }
        }
    }
}
