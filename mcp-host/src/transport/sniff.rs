//! Find a JSON-RPC message's `id` without parsing the message.
//!
//! A message that is too large to buffer, nested too deep to parse, or not
//! JSON at all still deserves an answer its sender can match to the request
//! it is waiting on. This scanner reads the bytes once, in chunks, in
//! constant memory, and picks out the value of the top-level `"id"` member if
//! it is a number or a string. Clients put `id` anywhere (the TypeScript SDK
//! writes it last, after a possibly huge `params`), so the scan never stops
//! early except once the id is found.

use rmcp::model::RequestId;

/// The longest id value kept; longer ones are not ids a client would send.
const MAX_ID_BYTES: usize = 256;

/// Where the scanner is, lexically.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Lex {
    /// Between tokens, or inside a number or literal.
    #[default]
    Structure,
    /// Inside a string.
    String,
    /// Just after a backslash inside a string.
    Escape,
}

/// A streaming scanner for the top-level `"id"` of a JSON object.
#[derive(Debug, Default)]
pub(crate) struct IdSniffer {
    /// Nesting depth: 1 inside the top-level object.
    depth: u32,
    lex: Lex,
    /// At depth 1, the next string is a member name.
    expecting_key: bool,
    /// Collecting a member name at depth 1 (only short ones matter).
    key: Option<Vec<u8>>,
    /// The member whose value comes next is `id`.
    value_is_id: bool,
    /// The bytes of the id value being collected.
    id_bytes: Option<Vec<u8>>,
    /// The finished id value, raw JSON.
    found: Option<Vec<u8>>,
    /// The member name just read (awaiting its `:`).
    last_key: Option<Vec<u8>>,
}

impl IdSniffer {
    /// Scan the next chunk of the message.
    pub(crate) fn feed(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            if self.found.is_some() {
                return;
            }
            self.step(byte);
        }
    }

    /// The id found so far, if it is a valid JSON-RPC id (integer or string).
    pub(crate) fn id(&self) -> Option<RequestId> {
        serde_json::from_slice(self.found.as_ref()?).ok()
    }

    fn step(&mut self, byte: u8) {
        if self.lex != Lex::Structure {
            self.string_byte(byte);
            return;
        }
        match byte {
            b'"' => {
                self.lex = Lex::String;
                if self.depth == 1 && self.expecting_key {
                    self.key = Some(Vec::new());
                } else if self.depth == 1 && self.value_is_id {
                    self.id_bytes = Some(vec![b'"']);
                }
            }
            b'{' | b'[' => {
                self.depth = self.depth.saturating_add(1);
                if self.depth == 1 {
                    self.expecting_key = byte == b'{';
                } else if self.depth == 2 {
                    // An object or array is not a valid id.
                    self.value_is_id = false;
                }
            }
            b'}' | b']' => {
                if self.depth == 1 {
                    self.end_value();
                }
                self.depth = self.depth.saturating_sub(1);
            }
            b':' if self.depth == 1 => {
                self.value_is_id = self.last_key.take().is_some_and(|key| key == b"id");
                self.expecting_key = false;
            }
            b',' if self.depth == 1 => {
                self.end_value();
                self.expecting_key = true;
            }
            b' ' | b'\t' | b'\r' | b'\n' => {
                if self.depth == 1 && self.id_bytes.is_some() {
                    self.end_value();
                }
            }
            _ => {
                if self.depth == 1 && self.value_is_id {
                    let bytes = self.id_bytes.get_or_insert_with(Vec::new);
                    if bytes.len() < MAX_ID_BYTES {
                        bytes.push(byte);
                    } else {
                        self.value_is_id = false;
                        self.id_bytes = None;
                    }
                }
            }
        }
    }

    fn string_byte(&mut self, byte: u8) {
        if let Some(key) = self.key.as_mut() {
            if key.len() <= 8 {
                key.push(byte);
            }
        }
        if let Some(bytes) = self.id_bytes.as_mut() {
            if bytes.len() < MAX_ID_BYTES {
                bytes.push(byte);
            } else {
                self.id_bytes = None;
                self.value_is_id = false;
            }
        }
        if self.lex == Lex::Escape {
            self.lex = Lex::String;
        } else if byte == b'\\' {
            self.lex = Lex::Escape;
        } else if byte == b'"' {
            self.lex = Lex::Structure;
            if let Some(mut key) = self.key.take() {
                key.pop(); // the closing quote
                self.last_key = Some(key);
            } else if self.id_bytes.is_some() {
                self.end_value();
            }
        }
    }

    /// A depth-1 value ended: keep it if it was the id.
    fn end_value(&mut self) {
        if self.value_is_id {
            if let Some(bytes) = self.id_bytes.take() {
                self.found = Some(bytes);
            }
        }
        self.value_is_id = false;
        self.id_bytes = None;
    }
}

/// The id of a whole message held in memory.
pub(crate) fn sniff_id(message: &[u8]) -> Option<RequestId> {
    let mut sniffer = IdSniffer::default();
    sniffer.feed(message);
    sniffer.id()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::NumberOrString;

    fn id(text: &str) -> Option<RequestId> {
        sniff_id(text.as_bytes())
    }

    #[test]
    fn finds_a_numeric_or_string_id_wherever_it_is() {
        assert_eq!(id(r#"{"jsonrpc":"2.0","id":7,"method":"x"}"#), Some(NumberOrString::Number(7)));
        assert_eq!(
            id(r#"{"method":"x","params":{"id":1,"a":[{"id":2}]},"id":"abc"}"#),
            Some(NumberOrString::String("abc".into()))
        );
        assert_eq!(id(r#"{ "id" : 42 }"#), Some(NumberOrString::Number(42)));
        assert_eq!(id(r#"{"id":"a\"b"}"#), Some(NumberOrString::String("a\"b".into())));
    }

    #[test]
    fn ignores_ids_that_are_not_top_level_or_not_ids() {
        assert_eq!(id(r#"{"params":{"id":1}}"#), None);
        assert_eq!(id(r#"{"id":{"x":1}}"#), None);
        assert_eq!(id(r#"{"id":null}"#), None);
        assert_eq!(id(r#"{"xid":1,"idx":2}"#), None);
        assert_eq!(id(r#"{"s":"\"id\":3"}"#), None);
        assert_eq!(id("not json at all"), None);
    }

    #[test]
    fn finds_the_id_of_a_message_too_deep_to_parse() {
        let deep = format!(r#"{{"jsonrpc":"2.0","id":9,"params":{}{}}}"#, "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(id(&deep), Some(NumberOrString::Number(9)));
        let deep_then_id = format!(r#"{{"params":{}{},"id":10}}"#, "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(id(&deep_then_id), Some(NumberOrString::Number(10)));
    }

    #[test]
    fn works_across_chunk_boundaries() {
        let message = br#"{"method":"tools/call","params":{"x":"y"},"id":12345}"#;
        for split in 0..message.len() {
            let mut sniffer = IdSniffer::default();
            sniffer.feed(&message[..split]);
            sniffer.feed(&message[split..]);
            assert_eq!(sniffer.id(), Some(NumberOrString::Number(12345)), "split at {split}");
        }
    }

    #[test]
    fn a_truncated_message_still_gives_a_leading_id() {
        assert_eq!(id(r#"{"jsonrpc":"2.0","id":3,"params":{"rows":["#), Some(NumberOrString::Number(3)));
    }
}
