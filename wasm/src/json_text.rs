//! A result's JSON text, written once into a buffer of its size.
//!
//! Serialising into one growing `Vec` doubles its capacity as it goes, and
//! at each doubling the old and the new buffer are alive together (a
//! 10 MiB result briefly needs 8 + 16 MiB) and the text is copied again;
//! written in chunks and then put together, the text was written twice and
//! its memory touched twice. The core counts the text's length first
//! (`Output::json_len`: a written list's text by its length, a tree without
//! writing it), so the one contiguous buffer the byte ABI returns is made
//! at its size and the text is written into it once.

use validation_core::Output;

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
    let mut out = Vec::with_capacity(prefix.len() + result.json_len());
    out.extend_from_slice(prefix);
    result.append_json(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    #[test]
    fn the_text_is_what_to_string_writes_behind_the_prefix() {
        // Large, with strings that need escapes and floats spelt by serde_json.
        let rows: Vec<Value> =
            (0..60_000).map(|i| json!({"row": i, "text": format!("r\u{e9}sum\u{e9} \"{i}\"\n"), "x": 20.0})).collect();
        let value = json!({"b": 20.0, "a": 20, "rows": rows});
        let expected = value.to_string();
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
