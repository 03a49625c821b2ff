//! The outline of an object's JSON text already known to be valid
//! (`serde_json` read it when the message came in, or wrote it): how deeply
//! it nests, and its top-level members, found without reading their values.
//!
//! A call's arguments can be megabytes of rows, and the host needs only
//! their outline (which arguments are there); the module reads and checks
//! the values. Checking the syntax again here was a second pass of
//! `serde_json` over the whole text on every call.

use std::ops::Range;

/// An object's outline: how deeply it nests, and its top-level members.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Outline {
    /// Arrays and objects one inside another, the object itself counted: 1
    /// for `{}`, 2 for `{"a":[]}`.
    pub(crate) depth: usize,
    /// Each member in order: its key (unescaped) and where its value's
    /// text is. A key given twice is there twice (when parsed, the last
    /// one counts).
    pub(crate) members: Vec<(String, Range<usize>)>,
}

/// The outline of the object `text`, in one pass that reads no value;
/// `None` if `text` is not an object.
pub(crate) fn outline(text: &str) -> Option<Outline> {
    let bytes = text.as_bytes();
    let mut at = skip_space(bytes, 0);
    if bytes.get(at) != Some(&b'{') {
        return None;
    }
    let mut outline = Outline { depth: 1, members: Vec::new() };
    at = skip_space(bytes, at + 1);
    while bytes.get(at) == Some(&b'"') {
        let key_end = string_end(bytes, at);
        let quoted = text.get(at..key_end)?;
        let key = match quoted.get(1..quoted.len() - 1) {
            Some(plain) if !plain.contains('\\') => plain.to_owned(),
            _ => serde_json::from_str::<String>(quoted).ok()?,
        };
        at = skip_space(bytes, key_end);
        if bytes.get(at) != Some(&b':') {
            return None;
        }
        let start = skip_space(bytes, at + 1);
        let (end, depth) = value_end(bytes, start);
        outline.depth = outline.depth.max(1 + depth);
        outline.members.push((key, start..end));
        at = skip_space(bytes, end);
        if bytes.get(at) == Some(&b',') {
            at = skip_space(bytes, at + 1);
        }
    }
    Some(outline)
}

fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while matches!(bytes.get(at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        at += 1;
    }
    at
}

/// Past the string whose opening quote is at `at` (the end of `bytes` if
/// it is left open).
fn string_end(bytes: &[u8], mut at: usize) -> usize {
    at += 1;
    loop {
        at = quote_or_backslash(bytes, at);
        match bytes.get(at) {
            Some(b'"') => return at + 1,
            Some(_) => at += 2,
            None => return bytes.len(),
        }
    }
}

/// The first quote or backslash from `at` on, or the end of `bytes`: eight
/// bytes at a time, inline (most strings in a call's rows are a few words
/// long, where a call to `memchr` costs more than the search).
#[inline]
fn quote_or_backslash(bytes: &[u8], mut at: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // The high bit of each zero byte, exact for the lowest one.
    let zeros = |word: u64| word.wrapping_sub(ONES) & !word & HIGHS;
    while let Some(chunk) = bytes.get(at..at + 8) {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
        let found = zeros(word ^ (ONES * u64::from(b'"'))) | zeros(word ^ (ONES * u64::from(b'\\')));
        if found != 0 {
            return at + (found.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    bytes.get(at..).and_then(|rest| rest.iter().position(|&b| b == b'"' || b == b'\\')).map_or(bytes.len(), |n| at + n)
}

/// Past the value that starts at `at`, and how deeply it nests (0 for a
/// string, number or literal).
fn value_end(bytes: &[u8], mut at: usize) -> (usize, usize) {
    let (mut depth, mut deepest) = (0usize, 0usize);
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b'"' => at = string_end(bytes, at),
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
                at += 1;
            }
            b']' | b'}' if depth > 0 => {
                depth -= 1;
                at += 1;
            }
            // A scalar ends at the first byte that cannot be in it.
            b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r' if depth == 0 => return (at, deepest),
            _ => at += 1,
        }
        if depth == 0 && matches!(byte, b'"' | b']' | b'}') {
            return (at, deepest);
        }
    }
    (at, deepest)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth(text: &str) -> usize {
        outline(text).expect("an object").depth
    }

    #[test]
    fn the_depth_counts_containers_outside_strings() {
        assert_eq!(depth("{}"), 1);
        assert_eq!(depth(r#"{"a":1}"#), 1);
        assert_eq!(depth(r#"{"a":[{"b":"[[[{"}]]}"#), 3);
        assert_eq!(depth(r#"{"a":"\"[[","b":[[]]}"#), 3);
        let deep = format!("{{\"a\":{}{}}}", "[".repeat(200), "]".repeat(200));
        assert_eq!(depth(&deep), 201);
        // Escaped quotes and backslashes; the deepest member counts.
        assert_eq!(depth(r#"{"a":["\\",["\\\"]","[\\\\"]], "b":{"c":{}}, "d":[]}"#), 3);
        // Text left open (never given: the text is valid JSON) ends the scan.
        assert_eq!(depth(r#"{"a":[["a\\"#), 3);
        assert_eq!(depth(r#"{"a":[["a\\\"#), 3);
    }

    #[test]
    fn an_objects_members_are_what_serde_json_reads() {
        // Every kind of value, blank space everywhere it may be, strings
        // holding brackets, quotes and commas, an escaped key, a key given
        // twice: each member's value text parses to what the whole object
        // parses to under its key (the last of a repeated key).
        let text = concat!(
            " {\n \"rows\" : [ {\"a\" : \"x,}]\\\"\" } , [ ] ] ,\"n\":-1.5e3,\"t\":true , \"z\":null,",
            "\"o\":{\"k\":{}},\"s\":\"a\\\\\",\"k\\u0065y\":\"v\",\"n\":7,\"e\":{},\"l\":[]\t}\r\n"
        );
        let members: Vec<(String, &str)> =
            outline(text).expect("an object").members.into_iter().map(|(key, at)| (key, &text[at])).collect();
        let keys: Vec<&str> = members.iter().map(|(key, _)| key.as_str()).collect();
        assert_eq!(keys, ["rows", "n", "t", "z", "o", "s", "key", "n", "e", "l"]);
        let whole: serde_json::Map<String, serde_json::Value> = serde_json::from_str(text).unwrap();
        for (at, (key, value)) in members.iter().enumerate() {
            let last = members.iter().rposition(|(other, _)| other == key) == Some(at);
            let parsed: serde_json::Value = serde_json::from_str(value).unwrap_or_else(|_| panic!("{key}: {value:?}"));
            assert_eq!(parsed == whole[key.as_str()], last, "{key}: {value}");
        }
        assert_eq!(members[0].1, r#"[ {"a" : "x,}]\"" } , [ ] ]"#);
        // A value's text is the value alone, without the blank space after it.
        assert_eq!((members[1].1, members[2].1, members[9].1), ("-1.5e3", "true", "[]"));
        assert_eq!(outline("{}").map(|o| o.members.len()), Some(0));
        assert_eq!(outline(" { } ").map(|o| o.members.len()), Some(0));
        assert!(outline("[1]").is_none());
    }
}
