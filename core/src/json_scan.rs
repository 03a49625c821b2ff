//! JSON text read for its syntax in one pass, accepting no text that
//! `serde_json` refuses.
//!
//! `arguments.rs` and `json_rows.rs` read a call's arguments this way to
//! find where the `rows` array, each row and each row's members lie,
//! without building a tree and without a separate pass of `serde_json`
//! over the text to check it. So what this accepts must be text that
//! `serde_json::from_str::<Value>` accepts, read the same way. Where that
//! is not plain from the bytes, this either asks `serde_json` about the
//! piece (a string holding an escape, a number with an exponent or longer
//! than [`PLAIN_NUMBER_LEN`]) or turns the text down, and the caller
//! parses it whole as before, with its errors. The text is already known
//! to be UTF-8 (it is a `&str`), so a string is read only for its quotes,
//! escapes and control characters.

use serde_json::Value;

use crate::byte_scan::find_string_stop;

/// A number longer than this, or with an exponent, is read by `serde_json`
/// when checked: shorter plain digits never leave the range of an `f64`.
const PLAIN_NUMBER_LEN: usize = 300;

/// The deepest a value may nest when read by [`Scan::value`] (an array or
/// object is one level): `serde_json` refuses values nested 128 deep
/// (counting the containers around them), so this leaves room for them.
pub(crate) const MOST_DEPTH: usize = 100;

/// A reading position in JSON text.
pub(crate) struct Scan<'t> {
    pub(crate) text: &'t str,
    pub(crate) at: usize,
}

impl<'t> Scan<'t> {
    /// A reading of `text` from its start.
    pub(crate) fn new(text: &'t str) -> Scan<'t> {
        Scan { text, at: 0 }
    }

    /// The byte at the reading position, if any.
    pub(crate) fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    /// Move past blank space (the four bytes JSON allows).
    pub(crate) fn space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    /// Move past `byte` if it is next; whether it was.
    pub(crate) fn eat(&mut self, byte: u8) -> bool {
        let next = self.peek() == Some(byte);
        self.at += usize::from(next);
        next
    }

    /// Whether the text ends here, after blank space.
    pub(crate) fn at_end(&mut self) -> bool {
        self.space();
        self.at == self.text.len()
    }

    /// A string (the reading position at its opening quote), moved past:
    /// `Some(escaped)`, whether it holds an escape; `None` if it is not a
    /// string `serde_json` reads as text.
    pub(crate) fn string(&mut self) -> Option<bool> {
        let bytes = self.text.as_bytes();
        let start = self.at;
        if bytes.get(start) != Some(&b'"') {
            return None;
        }
        let mut at = start + 1;
        let mut escaped = false;
        loop {
            at = find_string_stop(bytes, at);
            match *bytes.get(at)? {
                b'"' => break,
                // The escaped byte is skipped here and checked below.
                b'\\' => {
                    escaped = true;
                    at += 2;
                }
                _ => return None, // a control character
            }
        }
        self.at = at + 1;
        // Escapes read as `serde_json` reads them (a lone surrogate is refused).
        if escaped && serde_json::from_str::<String>(self.text.get(start..self.at)?).is_err() {
            return None;
        }
        Some(escaped)
    }

    /// A member's key and its colon (the reading position at the key's
    /// opening quote): the key's text between its quotes and whether it
    /// holds an escape.
    pub(crate) fn key(&mut self) -> Option<(&'t str, bool)> {
        let start = self.at;
        let escaped = self.string()?;
        let key = self.text.get(start + 1..self.at - 1)?;
        self.space();
        self.eat(b':').then_some((key, escaped))
    }

    /// An object (the reading position at its `{`), read past: `member` is
    /// called for each member with its key (the text between the quotes,
    /// and whether it holds an escape) and the reading position at its
    /// value, which it reads past.
    pub(crate) fn object(&mut self, mut member: impl FnMut(&mut Self, &'t str, bool) -> Option<()>) -> Option<()> {
        if !self.eat(b'{') {
            return None;
        }
        self.space();
        if self.eat(b'}') {
            return Some(());
        }
        loop {
            let (key, escaped) = self.key()?;
            self.space();
            member(self, key, escaped)?;
            self.space();
            if !self.eat(b',') {
                return self.eat(b'}').then_some(());
            }
            self.space();
        }
    }

    /// A number, moved past.
    fn number(&mut self) -> Option<()> {
        let bytes = self.text.as_bytes();
        let start = self.at;
        self.eat(b'-');
        match self.peek()? {
            b'0' => self.at += 1,
            b'1'..=b'9' => self.digits(),
            _ => return None,
        }
        let mut plain = true;
        if self.eat(b'.') {
            self.digits_one_or_more()?;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            plain = false;
            self.at += 1;
            if !self.eat(b'+') {
                self.eat(b'-');
            }
            self.digits_one_or_more()?;
        }
        if (!plain || self.at - start > PLAIN_NUMBER_LEN)
            && serde_json::from_slice::<Value>(&bytes[start..self.at]).is_err()
        {
            return None;
        }
        Some(())
    }

    fn digits(&mut self) {
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
    }

    fn digits_one_or_more(&mut self) -> Option<()> {
        let start = self.at;
        self.digits();
        (self.at > start).then_some(())
    }

    fn literal(&mut self, word: &str) -> Option<()> {
        let next = self.text.get(self.at..self.at + word.len())?;
        self.at += word.len();
        (next == word).then_some(())
    }

    /// A value of any kind (the reading position at its first byte), moved
    /// past; `None` if `serde_json` may refuse it or read it otherwise, or
    /// if it nests deeper than `most_depth` (at least 1, at most 127).
    pub(crate) fn value(&mut self, most_depth: usize) -> Option<()> {
        // The open containers, innermost in the lowest bit: 1 for an object.
        let mut open: u128 = 0;
        let mut depth = 0;
        loop {
            self.space();
            match self.peek()? {
                b'"' => {
                    self.string()?;
                }
                byte @ (b'{' | b'[') => {
                    let object = byte == b'{';
                    depth += 1;
                    if depth > most_depth {
                        return None;
                    }
                    self.at += 1;
                    self.space();
                    if !self.eat(if object { b'}' } else { b']' }) {
                        open = (open << 1) | u128::from(object);
                        if object {
                            self.key()?;
                        }
                        continue;
                    }
                    depth -= 1;
                }
                b'-' | b'0'..=b'9' => self.number()?,
                b't' => self.literal("true")?,
                b'f' => self.literal("false")?,
                b'n' => self.literal("null")?,
                _ => return None,
            }
            // After a value: close what ends here, then the next value.
            loop {
                if depth == 0 {
                    return Some(());
                }
                self.space();
                let object = open & 1 == 1;
                match self.peek()? {
                    b',' => {
                        self.at += 1;
                        if object {
                            self.space();
                            self.key()?;
                        }
                        break;
                    }
                    b'}' if object => {}
                    b']' if !object => {}
                    _ => return None,
                }
                self.at += 1;
                open >>= 1;
                depth -= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `text` is read whole as one value.
    fn reads(text: &str) -> bool {
        let mut scan = Scan::new(text);
        scan.space();
        scan.value(MOST_DEPTH).is_some() && scan.at_end()
    }

    #[test]
    fn what_is_read_is_what_serde_json_reads_and_nothing_it_refuses() {
        // Each text is read exactly when serde_json accepts it, except those
        // marked as turned down although serde_json reads them (the caller
        // then parses them whole).
        let deep = |n: usize| format!("{}1{}", "[".repeat(n), "]".repeat(n));
        let texts: Vec<(String, bool)> = [
            // Scalars and their edges.
            ("0", true),
            ("-0", true),
            ("-", false),
            ("01", false),
            ("1.", false),
            (".5", false),
            ("1.5e", false),
            ("1e+", false),
            ("+1", false),
            ("1e400", false),
            ("-1E-400", true),
            ("1.5E+3", true),
            ("12345678901234567890123", true),
            ("tru", false),
            ("true", true),
            ("truex", false),
            ("nul", false),
            ("null", true),
            ("false", true),
            ("NaN", false),
            // Strings: escapes, controls, surrogates.
            (r#""a\"b\\c\/d\b\f\n\r\t""#, true),
            (r#""\u00e9\ud83d\ude00""#, true),
            (r#""\ud800""#, false),
            (r#""\x""#, false),
            (r#""\u12""#, false),
            ("\"a\tb\"", false),
            ("\"a\u{7f}b\u{e9}\"", true),
            ("\"abc", false),
            ("\"abc\\\"", false),
            // Structure.
            ("[]", true),
            ("{}", true),
            (" [ 1 , { \"a\" : [ ] , \"b\" : { } } ] ", true),
            ("[1,]", false),
            ("[,1]", false),
            ("[1 2]", false),
            ("{\"a\" 1}", false),
            ("{\"a\":1,}", false),
            ("{1:1}", false),
            ("{\"a\":1,\"a\":2}", true),
            ("[1}", false),
            ("{\"a\":1]", false),
            ("[[1]", false),
            ("[1]]", false),
            ("[1] x", false),
            ("\u{feff}[1]", false),
            ("", false),
        ]
        .into_iter()
        .map(|(text, read)| (text.to_owned(), read))
        .chain([(deep(MOST_DEPTH), true), (deep(MOST_DEPTH + 1), false)])
        .collect();
        for (text, read) in &texts {
            let accepted = serde_json::from_str::<Value>(text).is_ok();
            assert_eq!(reads(text), *read, "{text:?}");
            if *read {
                assert!(accepted, "read but refused by serde_json: {text:?}");
            }
        }
        // Turned down though serde_json reads it: only nesting past the limit.
        let turned_down: Vec<&String> = texts
            .iter()
            .filter(|(text, read)| !read && serde_json::from_str::<Value>(text).is_ok())
            .map(|(t, _)| t)
            .collect();
        assert_eq!(turned_down, [&deep(MOST_DEPTH + 1)]);
    }

    #[test]
    fn a_mutated_text_is_read_only_if_serde_json_reads_it() {
        // Every one-byte deletion, and every replacement by one of the bytes
        // the grammar turns on, of a text that uses all of it: whatever is
        // read must be accepted by serde_json, and each kind of damage
        // serde_json accepts must be read too (it is all plain JSON).
        let base = r#"{"a": [1, -2.5e-3, "x\"y", true, false, null, {"b": {}}, []], "c": "\u00e9"}"#;
        assert!(reads(base));
        let bytes = base.as_bytes();
        let alphabet = b" \t\"\\,:[]{}-+.0123456789eEtrufalsnx\x01";
        let mut read_both = 0;
        for at in 0..bytes.len() {
            let mut variants: Vec<Vec<u8>> = vec![[&bytes[..at], &bytes[at + 1..]].concat()];
            for &byte in alphabet {
                let mut changed = bytes.to_vec();
                changed[at] = byte;
                variants.push(changed);
                variants.push([&bytes[..at], &[byte], &bytes[at..]].concat());
            }
            for variant in variants {
                let Ok(text) = String::from_utf8(variant) else { continue };
                let accepted = serde_json::from_str::<Value>(&text).is_ok();
                assert_eq!(reads(&text), accepted, "{text}");
                read_both += usize::from(accepted);
            }
        }
        // Many of the changes keep the text valid (a digit for a digit, a
        // letter inside a string): the comparison covers both answers.
        assert!(read_both > 1000, "{read_both}");
    }
}
