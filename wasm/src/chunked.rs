//! A result's JSON text, written without a growing buffer.
//!
//! Serialising into one `Vec` doubles its capacity as it goes, and at each
//! doubling the old and the new buffer are alive together: a 10 MiB result
//! briefly needs 8 + 16 MiB on top of the result tree it is written from,
//! which is where a large call's memory peaks. Written in chunks that are
//! never reallocated, the text costs its own size; the tree is dropped once
//! written, and only then is the one contiguous buffer the byte ABI returns
//! put together, each chunk freed as soon as it is copied.

use std::io;
use std::mem;

use validation_core::Output;

/// Size of a full chunk. The first chunk grows to it as a `Vec` would, so a
/// small result does not take a whole chunk.
const CHUNK_BYTES: usize = 1 << 20;

#[derive(Default)]
struct Chunks {
    full: Vec<Vec<u8>>,
    current: Vec<u8>,
    len: usize,
}

impl io::Write for Chunks {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let mut rest = bytes;
        while !rest.is_empty() {
            if self.current.len() == CHUNK_BYTES {
                self.full.push(mem::replace(&mut self.current, Vec::with_capacity(CHUNK_BYTES)));
            }
            let (now, later) = rest.split_at(rest.len().min(CHUNK_BYTES - self.current.len()));
            self.current.extend_from_slice(now);
            rest = later;
        }
        self.len += bytes.len();
        Ok(bytes.len())
    }

    // serde_json writes each token (a quote, a colon, a key) with its own
    // `write_all`: the default one loops over `write`, which is not inlined
    // into it. A token that fits the chunk is appended here at once.
    #[inline]
    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        if self.current.len() + bytes.len() <= CHUNK_BYTES {
            self.current.extend_from_slice(bytes);
            self.len += bytes.len();
            return Ok(());
        }
        self.write(bytes).map(drop)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// `prefix`, then the compact JSON text of `result` (as
/// `Output`'s `Display` writes it), in one buffer of exactly that
/// length. `result` is dropped as soon as it is written.
pub(crate) fn prefixed_json(prefix: u8, result: impl Into<Output>) -> Vec<u8> {
    json_after(&[prefix], result)
}

/// The bytes `prefix`, then the compact JSON text of `result`, as
/// [`prefixed_json`] writes them.
pub(crate) fn json_after(prefix: &[u8], result: impl Into<Output>) -> Vec<u8> {
    let result = result.into();
    let mut chunks = Chunks::default();
    // Writing to memory cannot fail, and a result always serialises (its
    // keys are strings and its numbers finite).
    result.write_to(&mut chunks).expect("a result writes to memory");
    drop(result);
    let mut out = Vec::with_capacity(prefix.len() + chunks.len);
    out.extend_from_slice(prefix);
    for chunk in chunks.full.into_iter().chain([chunks.current]) {
        out.extend_from_slice(&chunk);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    #[test]
    fn the_text_is_what_to_string_writes_behind_the_prefix() {
        // Large enough to fill several chunks, with strings that straddle
        // chunk boundaries wherever they fall.
        let rows: Vec<Value> =
            (0..60_000).map(|i| json!({"row": i, "text": format!("r\u{e9}sum\u{e9} \"{i}\"\n"), "x": 20.0})).collect();
        let value = json!({"b": 20.0, "a": 20, "rows": rows});
        let expected = value.to_string();
        assert!(expected.len() > 3 * CHUNK_BYTES, "the test must cross chunk boundaries");
        let out = prefixed_json(7, value);
        assert_eq!(out.len(), expected.len() + 1);
        assert_eq!(out.capacity(), out.len(), "the buffer is allocated once, at its exact size");
        assert_eq!(out[0], 7);
        assert_eq!(&out[1..], expected.as_bytes());
    }

    #[test]
    fn a_small_value_is_one_short_buffer() {
        assert_eq!(prefixed_json(0, json!({"b": 20.0, "a": 20})), b"\x00{\"b\":20.0,\"a\":20}");
        assert_eq!(prefixed_json(1, json!([])), b"\x01[]");
    }
}
