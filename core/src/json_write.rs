//! Compact JSON text, written byte for byte as `serde_json::to_writer`
//! writes it, at a lower cost in the module.
//!
//! Every result is written as text, and a large one is mostly strings: a
//! listed movement of `reconcile` is seven keys and three string values. In
//! the module (`perf` on the sandbox, `scripts/profile-wasm.sh reconcile` on
//! 100,000 movements) `serde_json`'s string writer was the largest single
//! cost, 17% of the call: it looks up every byte of a string in a table,
//! one at a time, and appends each run of plain bytes with a `memory.copy`,
//! which wasmtime runs as a call out to the host whatever its length. Here
//! a string's plain runs are found eight bytes at a time
//! (`byte_scan::find_string_stop`, as the JSON reader finds them), and a
//! short run is appended with fixed-size loads and stores, which compile to
//! plain instructions. Numbers are written by `serde_json`'s own formatter,
//! so they are spelt as it spells them.
//!
//! [`Serializer`] implements `serde::Serializer` for any [`Serialize`]
//! value (a `serde_json` tree, a finding, a movement), so each keeps its one
//! description of its JSON.

use std::io;

use serde::ser::{self, Serialize};
use serde_json::ser::{CompactFormatter, Formatter};

use crate::byte_scan::{find_string_stop, is_plain_string_text};

/// Why writing stopped: what `serde_json` would refuse too (a map key that
/// is not a string or a number), or the writer's own error.
pub(crate) type Error = serde_json::Error;

/// `value` as compact JSON at the end of `sink`.
///
/// # Errors
///
/// Where `serde_json::to_writer` fails: a map key that is not a string, a
/// number or a unit variant. A `serde_json` tree and this crate's own types
/// always write.
pub(crate) fn write<S: Sink + ?Sized, T: Serialize + ?Sized>(sink: &mut S, value: &T) -> Result<(), Error> {
    value.serialize(Serializer { sink })
}

/// `value` as compact JSON, written to `out` in pieces of at most a few
/// tens of KiB (so a large value never doubles in a buffer first).
///
/// # Errors
///
/// As [`write`], and the writer's own errors.
#[cfg(test)]
pub(crate) fn write_to<W: io::Write, T: Serialize + ?Sized>(out: W, value: &T) -> io::Result<()> {
    let mut sink = Flushing::new(out);
    write(&mut sink, value).map_err(io::Error::other)?;
    sink.finish()
}

/// Where the text goes: a `Vec` or a [`Flushing`] writer.
pub(crate) trait Sink {
    /// Append `bytes`.
    fn put(&mut self, bytes: &[u8]);
    /// Append one byte.
    fn push(&mut self, byte: u8);
    /// Append `bytes` between quotes.
    fn put_quoted(&mut self, bytes: &[u8]) {
        self.push(b'"');
        self.put(bytes);
        self.push(b'"');
    }
}

impl Sink for Vec<u8> {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        put_bytes(self, bytes);
    }

    #[inline]
    fn push(&mut self, byte: u8) {
        Vec::push(self, byte);
    }

    #[inline]
    fn put_quoted(&mut self, bytes: &[u8]) {
        self.reserve(bytes.len() + 2);
        self.push(b'"');
        put_bytes(self, bytes);
        self.push(b'"');
    }
}

/// Append `bytes` to `out`. Up to 32 bytes are copied as two overlapping
/// fixed-size words (each a plain load and store in the module); longer
/// runs with one `memory.copy`, whose fixed cost they amortise. Safe code
/// cannot write past a `Vec`'s length, so the second word is written after
/// cutting the first back to where the second starts.
// Inlined into each writer: as a call of its own it cost more than the
// `memory.copy` it replaces (`scripts/profile-wasm.sh reconcile`).
#[allow(clippy::inline_always)]
#[inline(always)]
pub(crate) fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    let len = bytes.len();
    match len {
        0 => {}
        1..=3 => {
            out.reserve(len);
            for &byte in bytes {
                out.push(byte);
            }
        }
        4..=7 => overlapping::<4>(out, bytes),
        8..=16 => overlapping::<8>(out, bytes),
        17..=32 => overlapping::<16>(out, bytes),
        _ => out.extend_from_slice(bytes),
    }
}

/// `bytes` (of `N` to `2 × N` bytes) appended as its first `N` bytes and
/// its last `N`, which overlap where they meet.
#[allow(clippy::inline_always)]
#[inline(always)]
fn overlapping<const N: usize>(out: &mut Vec<u8>, bytes: &[u8]) {
    let len = bytes.len();
    let first: [u8; N] = bytes[..N].try_into().expect("at least N bytes");
    let last: [u8; N] = bytes[len - N..].try_into().expect("at least N bytes");
    let start = out.len();
    // The first word ends within `bytes`, so no more than its length is needed.
    out.reserve(len);
    out.extend_from_slice(&first);
    out.truncate(start + len - N);
    out.extend_from_slice(&last);
}

/// A sink that only counts the bytes it is given: the length of a text,
/// found without writing it.
#[derive(Default)]
pub(crate) struct Counting(pub(crate) usize);

impl Sink for Counting {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        self.0 += bytes.len();
    }

    #[inline]
    fn push(&mut self, _byte: u8) {
        self.0 += 1;
    }
}

/// A writer behind a buffer that is handed on whenever it holds
/// [`Flushing::PIECE`] bytes: the first error is kept and returned at the end.
pub(crate) struct Flushing<W: io::Write> {
    buffer: Vec<u8>,
    out: W,
    error: Option<io::Error>,
}

impl<W: io::Write> Flushing<W> {
    /// How much the buffer holds before it is handed on.
    const PIECE: usize = 32 << 10;

    pub(crate) fn new(out: W) -> Self {
        Flushing { buffer: Vec::with_capacity(Self::PIECE + 64), out, error: None }
    }

    fn hand_on(&mut self) {
        if self.error.is_none() {
            self.error = self.out.write_all(&self.buffer).err();
        }
        self.buffer.clear();
    }

    /// Hand on what is left; the first error met, if any.
    pub(crate) fn finish(mut self) -> io::Result<()> {
        self.hand_on();
        self.error.map_or(Ok(()), Err)
    }
}

impl<W: io::Write> Sink for Flushing<W> {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        if bytes.len() >= Self::PIECE {
            // Large text goes on as it is, not through the buffer.
            self.hand_on();
            if self.error.is_none() {
                self.error = self.out.write_all(bytes).err();
            }
            return;
        }
        put_bytes(&mut self.buffer, bytes);
        if self.buffer.len() >= Self::PIECE {
            self.hand_on();
        }
    }

    #[inline]
    fn push(&mut self, byte: u8) {
        self.buffer.push(byte);
    }
}

/// `text` as a JSON string: quoted, with `"`, `\` and control characters
/// escaped as `serde_json` escapes them (`\b \t \n \f \r`, others as
/// `\u00xx` in lower case); nothing else is escaped.
#[inline]
pub(crate) fn put_str<S: Sink + ?Sized>(sink: &mut S, text: &str) {
    let bytes = text.as_bytes();
    // Most strings (every key) need no escape: checked a word at a time.
    if is_plain_string_text(bytes) {
        sink.put_quoted(bytes);
        return;
    }
    put_escaped(sink, bytes);
}

/// `bytes` (UTF-8 text) as a JSON string, escaped as [`put_str`] says.
fn put_escaped<S: Sink + ?Sized>(sink: &mut S, bytes: &[u8]) {
    sink.push(b'"');
    let mut start = 0;
    loop {
        let stop = find_string_stop(bytes, start);
        sink.put(&bytes[start..stop]);
        let Some(&byte) = bytes.get(stop) else { break };
        match byte {
            b'"' => sink.put(b"\\\""),
            b'\\' => sink.put(b"\\\\"),
            b'\n' => sink.put(b"\\n"),
            b'\t' => sink.put(b"\\t"),
            b'\r' => sink.put(b"\\r"),
            0x08 => sink.put(b"\\b"),
            0x0c => sink.put(b"\\f"),
            control => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                sink.put(&[b'\\', b'u', b'0', b'0', HEX[usize::from(control >> 4)], HEX[usize::from(control & 0xf)]]);
            }
        }
        start = stop + 1;
    }
    sink.push(b'"');
}

/// A number spelt by `serde_json`'s compact formatter (`itoa`, `zmij`),
/// into a stack buffer, then appended.
fn put_formatted<S: Sink + ?Sized>(sink: &mut S, format: impl FnOnce(&mut io::Cursor<&mut [u8]>) -> io::Result<()>) {
    // The longest: an i128 (40 bytes) or an f64 (24).
    let mut buffer = [0u8; 48];
    let mut cursor = io::Cursor::new(&mut buffer[..]);
    // 48 bytes hold any number, so writing to them cannot fail.
    format(&mut cursor).expect("a number fits 48 bytes");
    let written = cursor.position() as usize;
    sink.put(&buffer[..written]);
}

/// Writes one value to a [`Sink`].
pub(crate) struct Serializer<'s, S: Sink + ?Sized> {
    sink: &'s mut S,
}

/// An open array or object: whether an item has been written into it yet.
pub(crate) struct Compound<'s, S: Sink + ?Sized> {
    sink: &'s mut S,
    first: bool,
    /// The character that closes it (`]` or `}`), and, for a variant, the
    /// `}` of the object around it after that.
    close: &'static [u8],
}

impl<S: Sink + ?Sized> Compound<'_, S> {
    fn comma(&mut self) {
        if !self.first {
            self.sink.push(b',');
        }
        self.first = false;
    }

    fn value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(Serializer { sink: &mut *self.sink })
    }

    fn key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.comma();
        key.serialize(KeySerializer { sink: &mut *self.sink })?;
        self.sink.push(b':');
        Ok(())
    }

    fn close(self) {
        self.sink.put(self.close);
    }
}

impl<'s, S: Sink + ?Sized> Serializer<'s, S> {
    /// Open a container with `open`; `close` ends it.
    fn open(self, open: &[u8], close: &'static [u8]) -> Compound<'s, S> {
        self.sink.put(open);
        Compound { sink: self.sink, first: true, close }
    }

    /// `{"variant":` before a variant's content.
    fn open_variant(self, variant: &str) -> Self {
        self.sink.push(b'{');
        put_str(self.sink, variant);
        self.sink.push(b':');
        self
    }
}

/// Integers, spelt by `serde_json`'s compact formatter.
macro_rules! formatted_integers {
    ($($method:ident => $write:ident : $type:ty),*) => {$(
        fn $method(self, value: $type) -> Result<(), Error> {
            put_formatted(self.sink, |out| CompactFormatter.$write(out, value));
            Ok(())
        }
    )*};
}

impl<'s, S: Sink + ?Sized> ser::Serializer for Serializer<'s, S> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'s, S>;
    type SerializeTuple = Compound<'s, S>;
    type SerializeTupleStruct = Compound<'s, S>;
    type SerializeTupleVariant = Compound<'s, S>;
    type SerializeMap = Compound<'s, S>;
    type SerializeStruct = Compound<'s, S>;
    type SerializeStructVariant = Compound<'s, S>;

    fn serialize_bool(self, value: bool) -> Result<(), Error> {
        self.sink.put(if value { b"true" } else { b"false" });
        Ok(())
    }

    formatted_integers!(
        serialize_i8 => write_i8: i8,
        serialize_i16 => write_i16: i16,
        serialize_i32 => write_i32: i32,
        serialize_i64 => write_i64: i64,
        serialize_i128 => write_i128: i128,
        serialize_u8 => write_u8: u8,
        serialize_u16 => write_u16: u16,
        serialize_u32 => write_u32: u32,
        serialize_u64 => write_u64: u64,
        serialize_u128 => write_u128: u128
    );

    fn serialize_f32(self, value: f32) -> Result<(), Error> {
        if value.is_finite() {
            put_formatted(self.sink, |out| CompactFormatter.write_f32(out, value));
        } else {
            self.sink.put(b"null");
        }
        Ok(())
    }

    fn serialize_f64(self, value: f64) -> Result<(), Error> {
        if value.is_finite() {
            put_formatted(self.sink, |out| CompactFormatter.write_f64(out, value));
        } else {
            self.sink.put(b"null");
        }
        Ok(())
    }

    fn serialize_char(self, value: char) -> Result<(), Error> {
        put_str(self.sink, value.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_str(self, value: &str) -> Result<(), Error> {
        put_str(self.sink, value);
        Ok(())
    }

    fn serialize_bytes(self, value: &[u8]) -> Result<(), Error> {
        use ser::SerializeSeq;
        let mut seq = self.serialize_seq(Some(value.len()))?;
        for byte in value {
            seq.serialize_element(byte)?;
        }
        seq.end()
    }

    fn serialize_none(self) -> Result<(), Error> {
        self.serialize_unit()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Error> {
        self.sink.put(b"null");
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        self.serialize_unit()
    }

    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Result<(), Error> {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        let this = self.open_variant(variant);
        let sink = this.sink;
        value.serialize(Serializer { sink: &mut *sink })?;
        sink.push(b'}');
        Ok(())
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'s, S>, Error> {
        Ok(self.open(b"[", b"]"))
    }

    fn serialize_tuple(self, len: usize) -> Result<Compound<'s, S>, Error> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Compound<'s, S>, Error> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'s, S>, Error> {
        Ok(self.open_variant(variant).open(b"[", b"]}"))
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'s, S>, Error> {
        Ok(self.open(b"{", b"}"))
    }

    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Compound<'s, S>, Error> {
        if name == RAW_VALUE_TOKEN {
            // A `RawValue` is text to copy; nothing here writes one.
            return Err(ser::Error::custom("a raw JSON value is not written here"));
        }
        self.serialize_map(Some(len))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'s, S>, Error> {
        Ok(self.open_variant(variant).open(b"{", b"}}"))
    }
}

/// The name `serde_json` gives a `RawValue` when it serialises one.
const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

/// The four kinds of array serde writes (a sequence, a tuple, a tuple
/// struct, a tuple variant's content) are written alike.
macro_rules! array_of_elements {
    ($($kind:ident :: $element:ident),*) => {$(
        impl<S: Sink + ?Sized> ser::$kind for Compound<'_, S> {
            type Ok = ();
            type Error = Error;

            fn $element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
                self.comma();
                self.value(value)
            }

            fn end(self) -> Result<(), Error> {
                self.close();
                Ok(())
            }
        }
    )*};
}

array_of_elements!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl<S: Sink + ?Sized> ser::SerializeMap for Compound<'_, S> {
    type Ok = ();
    type Error = Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.key(key)
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.value(value)
    }

    fn end(self) -> Result<(), Error> {
        self.close();
        Ok(())
    }
}

/// A struct and a struct variant's content are written as maps are.
macro_rules! object_of_fields {
    ($($kind:ident),*) => {$(
        impl<S: Sink + ?Sized> ser::$kind for Compound<'_, S> {
            type Ok = ();
            type Error = Error;

            fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Error> {
                self.key(key)?;
                self.value(value)
            }

            fn end(self) -> Result<(), Error> {
                self.close();
                Ok(())
            }
        }
    )*};
}

object_of_fields!(SerializeStruct, SerializeStructVariant);

/// Writes a map's key: a string as it is, a number or a bool in quotes (as
/// `serde_json` does); anything else is refused, as `serde_json` refuses it.
struct KeySerializer<'s, S: Sink + ?Sized> {
    sink: &'s mut S,
}

impl<S: Sink + ?Sized> KeySerializer<'_, S> {
    /// A key spelt as the value would be, in quotes.
    fn quoted(self, write: impl FnOnce(Serializer<'_, S>) -> Result<(), Error>) -> Result<(), Error> {
        self.sink.push(b'"');
        write(Serializer { sink: &mut *self.sink })?;
        self.sink.push(b'"');
        Ok(())
    }
}

fn key_must_be_a_string() -> Error {
    ser::Error::custom("key must be a string")
}

/// A key that is a bool or an integer: written as the value is, in quotes.
macro_rules! quoted_keys {
    ($($method:ident : $type:ty),*) => {$(
        fn $method(self, value: $type) -> Result<(), Error> {
            self.quoted(|s| ser::Serializer::$method(s, value))
        }
    )*};
}

impl<S: Sink + ?Sized> ser::Serializer for KeySerializer<'_, S> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = ser::Impossible<(), Error>;
    type SerializeTuple = ser::Impossible<(), Error>;
    type SerializeTupleStruct = ser::Impossible<(), Error>;
    type SerializeTupleVariant = ser::Impossible<(), Error>;
    type SerializeMap = ser::Impossible<(), Error>;
    type SerializeStruct = ser::Impossible<(), Error>;
    type SerializeStructVariant = ser::Impossible<(), Error>;

    fn serialize_str(self, value: &str) -> Result<(), Error> {
        put_str(self.sink, value);
        Ok(())
    }

    fn serialize_char(self, value: char) -> Result<(), Error> {
        put_str(self.sink, value.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    quoted_keys!(
        serialize_bool: bool,
        serialize_i8: i8,
        serialize_i16: i16,
        serialize_i32: i32,
        serialize_i64: i64,
        serialize_i128: i128,
        serialize_u8: u8,
        serialize_u16: u16,
        serialize_u32: u32,
        serialize_u64: u64,
        serialize_u128: u128
    );

    fn serialize_f32(self, value: f32) -> Result<(), Error> {
        if !value.is_finite() {
            return Err(ser::Error::custom("float key must be finite (got NaN or +/-inf)"));
        }
        self.quoted(|s| ser::Serializer::serialize_f32(s, value))
    }

    fn serialize_f64(self, value: f64) -> Result<(), Error> {
        if !value.is_finite() {
            return Err(ser::Error::custom("float key must be finite (got NaN or +/-inf)"));
        }
        self.quoted(|s| ser::Serializer::serialize_f64(s, value))
    }

    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Result<(), Error> {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_bytes(self, _value: &[u8]) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_none(self) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_unit(self) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeTupleStruct, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeStruct, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        Err(key_must_be_a_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::ser::{SerializeStructVariant, SerializeTupleVariant};
    use serde_json::{json, Value};
    use std::collections::BTreeMap;

    /// What `serde_json` writes, and what this module writes to a `Vec` and
    /// through a [`Flushing`] writer: all three, for the caller to compare.
    fn both<T: Serialize + ?Sized>(value: &T) -> (Result<Vec<u8>, String>, Result<Vec<u8>, String>) {
        let expected = serde_json::to_vec(value).map_err(|err| err.to_string());
        let mut direct = Vec::new();
        let direct = write(&mut direct, value).map(|()| direct).map_err(|err| err.to_string());
        let mut flushed = Vec::new();
        let through = write_to(&mut flushed, value).map(|()| flushed).map_err(|err| err.to_string());
        assert_eq!(direct, through, "a Vec and a writer get the same text");
        (expected, direct)
    }

    fn same<T: Serialize + ?Sized>(value: &T) {
        let (expected, actual) = both(value);
        assert_eq!(
            actual.as_ref().map(|bytes| String::from_utf8_lossy(bytes)),
            expected.as_ref().map(|bytes| String::from_utf8_lossy(bytes))
        );
    }

    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them_wherever_the_escape_falls() {
        // Every ASCII byte (controls, quote, backslash, DEL) at every place of
        // strings of 0 to 40 bytes: each length takes another way of copying
        // the plain runs around it (`put_bytes`), and the scan reads words.
        for len in 0..40 {
            for at in 0..len {
                for byte in 0u8..0x80 {
                    let mut text = "a".repeat(len).into_bytes();
                    text[at] = byte;
                    same(std::str::from_utf8(&text).unwrap());
                }
            }
        }
        for text in ["é", "😀 \u{2028}\u{2029} \u{0}\u{1f}\u{7f}\u{80}\u{ff}", "\"\\\"\\", &"x\n".repeat(40_000)] {
            same(text);
            same(&json!({ text: text }));
        }
    }

    #[test]
    fn bytes_of_every_length_are_appended_as_they_are_into_no_more_room_than_they_take() {
        for len in 0..80 {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
            // Exactly the room needed: appending must not grow the buffer
            // (the overlapping words are written within it).
            let mut out = Vec::with_capacity(2 + len);
            out.extend_from_slice(b"ab");
            put_bytes(&mut out, &bytes);
            assert_eq!(out[2..], bytes[..], "{len} bytes");
            assert_eq!(&out[..2], b"ab");
            assert_eq!(out.capacity(), 2 + len, "{len} bytes grew the buffer");
        }
    }

    #[test]
    fn numbers_are_spelt_as_serde_json_spells_them() {
        let floats = [
            0.0,
            -0.0,
            1.0,
            0.1,
            -2.5,
            1e15,
            1e16,
            1e17,
            123_456_789.123_456_79,
            1e-7,
            5e-324,
            f64::MIN_POSITIVE,
            f64::MAX,
            f64::MIN,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        for float in floats {
            same(&float);
            same(&(float as f32));
            same(&vec![float, float]);
        }
        same(&[i64::MIN, -1, 0, 1, i64::MAX]);
        same(&[u64::MAX, 0]);
        same(&[i128::MIN, i128::MAX]);
        same(&[u128::MAX]);
        same(&(1u8, -2i8, 3u16, -4i16, 5u32, -6i32, 'x', '"', true, false, (), None::<u8>, Some(7)));
        same(&json!([1, -1, 1.5, u64::MAX, i64::MIN, 1e300]));
    }

    #[test]
    fn keys_are_written_as_serde_json_writes_them_or_refused_as_it_refuses_them() {
        same(&BTreeMap::from([(1, "a"), (-20, "b")]));
        same(&BTreeMap::from([(true, 1), (false, 2)]));
        same(&BTreeMap::from([('k', 1), ('"', 2)]));
        same(&BTreeMap::from([(u128::MAX, 1)]));
        same(&[(1.5f64, 1)].into_iter().map(|(k, v)| (k.to_bits(), v)).collect::<BTreeMap<_, _>>());
        // Refused: `serde_json` and this module both fail.
        for refused in [both(&BTreeMap::from([((1, 2), 3)])), both(&BTreeMap::from([(vec![1], 3)]))] {
            let (expected, actual) = refused;
            assert!(expected.is_err() && actual.is_err(), "{expected:?} {actual:?}");
        }
        let mut float_key = Vec::new();
        let result = ser::Serializer::serialize_map(Serializer { sink: &mut float_key }, None)
            .and_then(|mut map| ser::SerializeMap::serialize_key(&mut map, &f64::NAN));
        assert!(result.is_err(), "a NaN key is refused");
    }

    /// An enum's four kinds of variant, as serde's derive would write them.
    struct Variants;

    impl Serialize for Variants {
        fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            use ser::SerializeSeq;
            let mut seq = serializer.serialize_seq(Some(4))?;
            seq.serialize_element(&UnitVariant)?;
            seq.serialize_element(&NewtypeVariant)?;
            seq.serialize_element(&TupleVariant)?;
            seq.serialize_element(&StructVariant)?;
            seq.end()
        }
    }

    struct UnitVariant;
    struct NewtypeVariant;
    struct TupleVariant;
    struct StructVariant;

    impl Serialize for UnitVariant {
        fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.serialize_unit_variant("E", 0, "Unit")
        }
    }

    impl Serialize for NewtypeVariant {
        fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.serialize_newtype_variant("E", 1, "New", &[1, 2])
        }
    }

    impl Serialize for TupleVariant {
        fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let mut tuple = serializer.serialize_tuple_variant("E", 2, "Tuple", 2)?;
            tuple.serialize_field("a")?;
            tuple.serialize_field(&2.5)?;
            tuple.end()
        }
    }

    impl Serialize for StructVariant {
        fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let mut fields = serializer.serialize_struct_variant("E", 3, "Struct", 2)?;
            fields.serialize_field("x", &[0u8; 0])?;
            fields.serialize_field("y", &BTreeMap::<String, u8>::new())?;
            fields.end()
        }
    }

    #[test]
    fn containers_and_variants_are_written_as_serde_json_writes_them() {
        same(&Variants);
        same(&json!({}));
        same(&json!([]));
        same(&json!({"a": [], "b": {}, "c": [[], {}], "d": {"e": {"f": [null]}}}));
        same(&serde_bytes_like());
    }

    /// A byte string, which `serde_json` writes as an array of numbers.
    fn serde_bytes_like() -> impl Serialize {
        struct Bytes;
        impl Serialize for Bytes {
            fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_bytes(&[0, 255, 7])
            }
        }
        Bytes
    }

    #[test]
    fn every_conformance_vector_is_written_as_serde_json_writes_it() {
        let dir = conformance_support::vectors_dir(env!("CARGO_MANIFEST_DIR"));
        let cases = conformance_support::load_cases(&dir).unwrap();
        let mut checked = 0;
        for case in &cases {
            same(&case.args);
            if let conformance_support::Expected::Result(expected) = &case.expected {
                same(expected);
                checked += 1;
            }
        }
        assert!(checked > 100, "only {checked} results");
    }

    /// Counts the writes it is given, and fails after `fail_after` bytes.
    struct Counting {
        bytes: Vec<u8>,
        writes: usize,
        fail_after: usize,
    }
    impl io::Write for Counting {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            if self.bytes.len() + bytes.len() > self.fail_after {
                return Err(io::Error::other("full"));
            }
            self.writes += 1;
            self.bytes.extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_large_value_goes_through_a_writer_in_pieces_and_a_failure_is_returned() {
        let rows: Vec<Value> = (0..20_000).map(|i| json!({"i": i, "s": format!("r\u{e9}sum\u{e9} \"{i}\"")})).collect();
        let big = json!({"rows": rows, "tail": "x".repeat(100_000)});
        let mut out = Counting { bytes: Vec::new(), writes: 0, fail_after: usize::MAX };
        write_to(&mut out, &big).unwrap();
        assert_eq!(out.bytes, serde_json::to_vec(&big).unwrap());
        // About a write per piece, not one per token.
        assert!(out.writes <= out.bytes.len() / (32 << 10) + 2, "{} writes", out.writes);
        let mut failing = Counting { bytes: Vec::new(), writes: 0, fail_after: 100_000 };
        assert_eq!(write_to(&mut failing, &big).unwrap_err().to_string(), "full");
    }
}
