//! The text copy of a result, made from the module's compact JSON without
//! building a tree of it.
//!
//! [`pretty`] inserts the whitespace `serde_json::to_string_pretty` would
//! (two-space indent, `": "` after keys, `[]` and `{}` for empty containers)
//! and copies every token as it is. The module writes its JSON with
//! `serde_json`, whose compact and pretty writers spell strings and numbers
//! alike, so the output equals `to_string_pretty` of the parsed result byte
//! for byte; the tests check that on every conformance vector.
//!
//! Except deep down: a container nested more than [`MAX_INDENTED_DEPTH`]
//! levels is written compact, as the module wrote it. Indenting is free for a
//! result's own structure (the envelope, its lists, a row, a value), but a
//! caller's value nested a hundred thousand levels would get a line per
//! level, each indented by its depth: quadratic, a 16 MB request made a 2 GB
//! text copy. Bounded, the text copy is at most the compact JSON plus
//! `2 × MAX_INDENTED_DEPTH + 3` bytes per token.

use serde::de::IgnoredAny;
use serde::Deserialize;

/// Containers deeper than this are written compact. A result's own structure
/// goes seven levels deep (envelope, `groups`, a group, `members`, a member,
/// its `row`, a value); the deepest recorded reference result is 10 levels,
/// with a caller's nested value in a row, and it is indented in full.
pub(crate) const MAX_INDENTED_DEPTH: usize = 10;

/// `json` re-indented as `serde_json::to_string_pretty` would write it (to
/// [`MAX_INDENTED_DEPTH`] levels), or
/// `None` when `json` is not one compact JSON object: not valid JSON, or with
/// whitespace between tokens (which could hide a line break in a reply line).
pub(crate) fn pretty(json: &str) -> Option<String> {
    // Only ASCII was added to valid UTF-8, at token boundaries.
    String::from_utf8(indent::<false>(json)?).ok()
}

/// What [`pretty`] gives, escaped as the inside of a JSON string (what
/// `serde_json` writes between the quotes of that text): written in the
/// same pass, so a large result's text copy is neither made twice nor
/// scanned again to escape it. A line break is written `\n`, a quote `\"`
/// and a backslash `\\`; the text holds nothing else that is escaped (no
/// control character is valid in JSON text).
pub(crate) fn pretty_escaped(json: &str) -> Option<String> {
    // Only ASCII was added to valid UTF-8, at token boundaries.
    String::from_utf8(indent::<true>(json)?).ok()
}

/// A text this long or longer is checked on a second thread while this
/// one indents it: the two passes are each about a tenth of a large call
/// on stdio (an uncapped 100,000-movement `reconcile`, 14 MB of JSON), and
/// a thread costs tens of microseconds.
const CHECKED_BESIDE: usize = 1 << 20;

/// The indented text of `json`, escaped as [`pretty_escaped`] says when
/// `ESCAPED`; see [`pretty`]. Nothing is returned unless `json` is one
/// JSON value: checked first, or, for a large text, at the same time on
/// another thread (indenting text that is not JSON is safe, and its
/// result is dropped).
fn indent<const ESCAPED: bool>(json: &str) -> Option<Vec<u8>> {
    if !json.starts_with('{') {
        return None;
    }
    if json.len() >= CHECKED_BESIDE {
        let indented = std::thread::scope(|scope| {
            let check = std::thread::Builder::new().name("mcpv-check".to_owned()).spawn_scoped(scope, || is_json(json));
            let indented = indent_unchecked::<ESCAPED>(json);
            // No thread to be had: checked here, after.
            let is_json = check.map_or_else(|_| is_json(json), |check| check.join().unwrap_or(false));
            indented.filter(|_| is_json)
        });
        return indented;
    }
    if !is_json(json) {
        return None;
    }
    indent_unchecked::<ESCAPED>(json)
}

/// [`indent`]'s pass, on text not yet known to be JSON: it reads only
/// within `json` and may return anything for text that is not.
fn indent_unchecked<const ESCAPED: bool>(json: &str) -> Option<Vec<u8>> {
    let bytes = json.as_bytes();
    let extra = if ESCAPED { bytes.len() / 2 } else { bytes.len() / 3 };
    let mut out: Vec<u8> = Vec::with_capacity(bytes.len() + extra);
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i = copy_string::<ESCAPED>(&mut out, bytes, i)?;
                continue;
            }
            open @ (b'{' | b'[') => {
                let close = if open == b'{' { b'}' } else { b']' };
                out.push(open);
                if bytes.get(i + 1) == Some(&close) {
                    out.push(close);
                    i += 2;
                    continue;
                }
                depth += 1;
                if depth <= MAX_INDENTED_DEPTH {
                    line_break::<ESCAPED>(&mut out, depth);
                }
            }
            close @ (b'}' | b']') => {
                if depth <= MAX_INDENTED_DEPTH {
                    line_break::<ESCAPED>(&mut out, depth.checked_sub(1)?);
                }
                depth = depth.checked_sub(1)?;
                out.push(close);
            }
            b',' => {
                out.push(b',');
                if depth <= MAX_INDENTED_DEPTH {
                    line_break::<ESCAPED>(&mut out, depth);
                }
            }
            b':' if depth <= MAX_INDENTED_DEPTH => out.extend_from_slice(b": "),
            b':' => out.push(b':'),
            b' ' | b'\t' | b'\n' | b'\r' => return None,
            _ => {
                // A number or a literal: copy up to the next structural byte.
                let end = bytes[i..]
                    .iter()
                    .position(|b| matches!(b, b',' | b'}' | b']' | b':' | b'"' | b' ' | b'\t' | b'\n' | b'\r'))
                    .map_or(bytes.len(), |n| i + n);
                out.extend_from_slice(&bytes[i..end]);
                i = end;
                continue;
            }
        }
        i += 1;
    }
    Some(out)
}

/// Copy the string whose opening quote is at `start`, quotes included, and
/// return the index just past it. When `ESCAPED`, it is written as it reads
/// inside another JSON string: each quote and backslash with a backslash
/// before it. One pass, from one quote or backslash to the next.
fn copy_string<const ESCAPED: bool>(out: &mut Vec<u8>, bytes: &[u8], start: usize) -> Option<usize> {
    let quote: &[u8] = if ESCAPED { b"\\\"" } else { b"\"" };
    out.extend_from_slice(quote);
    let mut at = start + 1;
    loop {
        let stop = at + memchr::memchr2(b'"', b'\\', bytes.get(at..)?)?;
        out.extend_from_slice(&bytes[at..stop]);
        if bytes[stop] == b'"' {
            out.extend_from_slice(quote);
            return Some(stop + 1);
        }
        // An escape: the backslash and the byte after it.
        let escaped = *bytes.get(stop + 1)?;
        if ESCAPED {
            out.extend_from_slice(b"\\\\");
            if matches!(escaped, b'"' | b'\\') {
                out.push(b'\\');
            }
            out.push(escaped);
        } else {
            out.extend_from_slice(&[b'\\', escaped]);
        }
        at = stop + 2;
    }
}

/// Whether `json` is exactly one JSON value (syntax only; nothing is built).
fn is_json(json: &str) -> bool {
    let mut deserializer = serde_json::Deserializer::from_str(json);
    // Skipping a value uses no recursion, so nesting needs no limit here.
    deserializer.disable_recursion_limit();
    IgnoredAny::deserialize(&mut deserializer).is_ok() && deserializer.end().is_ok()
}

/// A line break (written `\n` when `ESCAPED`), then `depth` levels of indent.
fn line_break<const ESCAPED: bool>(out: &mut Vec<u8>, depth: usize) {
    if ESCAPED {
        out.extend_from_slice(b"\\n");
    } else {
        out.push(b'\n');
    }
    out.resize(out.len() + 2 * depth, b' ');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn reference(json: &str) -> String {
        let value: Value = serde_json::from_str(json).unwrap();
        serde_json::to_string_pretty(&value).unwrap()
    }

    #[test]
    fn equals_to_string_pretty() {
        for json in [
            "{}",
            r#"{"a":[]}"#,
            r#"{"a":{},"b":[{}],"c":[[]],"d":[1,2.5,-3e-7,true,false,null]}"#,
            r#"{"s":"a \"quoted\" \\ string, with: [brackets] {braces}","t":"\u0001\n\té😀","u":""}"#,
            r#"{"nested":{"x":{"y":{"z":[{"k":"v"},[1,[2,[3]]]]}}},"n":1e16,"m":18446744073709551615}"#,
            // Ten levels deep, the most indented in full.
            r#"{"a":[[[[[[[[[1]]]]]]]]]}"#,
        ] {
            let compact = serde_json::from_str::<Value>(json).unwrap().to_string();
            assert_eq!(pretty(&compact).as_deref(), Some(reference(&compact).as_str()), "{json}");
            assert_eq!(pretty_escaped(&compact), Some(escaped(&reference(&compact))), "{json}");
        }
    }

    /// `text` as `serde_json` writes it inside a JSON string.
    fn escaped(text: &str) -> String {
        let quoted = serde_json::to_string(text).unwrap();
        quoted[1..quoted.len() - 1].to_owned()
    }

    #[test]
    fn equals_to_string_pretty_on_every_conformance_result() {
        let dir = conformance_support::vectors_dir(env!("CARGO_MANIFEST_DIR"));
        let cases = conformance_support::load_cases(&dir).unwrap();
        let mut checked = 0;
        for case in cases {
            if let conformance_support::Expected::Result(expected) = case.expected {
                let compact = expected.to_string();
                assert_eq!(pretty(&compact), Some(reference(&compact)), "{}", case.name);
                assert_eq!(pretty_escaped(&compact), Some(escaped(&reference(&compact))), "{}", case.name);
                checked += 1;
            }
        }
        assert!(checked > 100, "only {checked} results");
    }

    #[test]
    fn deep_values_are_written_compact_and_keep_their_meaning() {
        // Eleven levels: the eleventh container is written as given.
        let compact = r#"{"a":[[[[[[[[[1,{"e":2}]]]]]]]]]}"#;
        let text = pretty(compact).unwrap();
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), serde_json::from_str::<Value>(compact).unwrap());
        assert!(
            text.contains(
                r#"1,
                    {"e":2}"#
            ),
            "{text}"
        );
        assert!(text.starts_with("{\n  \"a\": [\n    [\n      ["), "{text}");
    }

    #[test]
    fn a_deeply_nested_value_costs_a_bounded_text_copy() {
        // 100,000 nested arrays: indented in full this would be about
        // 2 × 100,000² / 2 = 10 GB of spaces; bounded, it is the compact text
        // plus, for each indented level, two line breaks of at most
        // 1 + 2 × MAX_INDENTED_DEPTH bytes, and one ": ".
        let depth = 100_000;
        let compact = format!(r#"{{"v":{}{}}}"#, "[".repeat(depth), "]".repeat(depth));
        let text = pretty(&compact).unwrap();
        assert_eq!(pretty_escaped(&compact), Some(escaped(&text)));
        let bound = compact.len() + 2 * MAX_INDENTED_DEPTH * (1 + 2 * MAX_INDENTED_DEPTH) + 2;
        assert!(text.len() <= bound, "{} bytes for {}", text.len(), compact.len());
        let mut deserializer = serde_json::Deserializer::from_str(&text);
        deserializer.disable_recursion_limit();
        assert!(serde::de::IgnoredAny::deserialize(&mut deserializer).is_ok(), "still one JSON value");
    }

    #[test]
    fn a_large_text_is_checked_as_a_small_one_is() {
        // Past CHECKED_BESIDE the check runs beside the indenting: the same
        // answers, a broken value anywhere in the text refused.
        let items: Vec<String> = (0..40_000).map(|n| format!(r#"{{"n":{n},"s":"x\"y","v":[1.5,null]}}"#)).collect();
        let compact = format!(r#"{{"items":[{}]}}"#, items.join(","));
        assert!(compact.len() > CHECKED_BESIDE);
        assert_eq!(pretty(&compact), Some(reference(&compact)));
        assert_eq!(pretty_escaped(&compact), Some(escaped(&reference(&compact))));
        // A digit 1 near the start, in the middle and near the end, replaced.
        let ones: Vec<usize> = compact.match_indices('1').map(|(at, _)| at).collect();
        let places = [ones[0], ones[ones.len() / 2], ones[ones.len() - 1]];
        for (at, broken) in places.into_iter().zip(["tru", "1.}", "\\x"]) {
            let text = format!("{}{broken}{}", &compact[..at], &compact[at + 1..]);
            assert!(serde_json::from_str::<Value>(&text).is_err(), "{broken}");
            assert_eq!(pretty(&text), None, "{broken}");
            assert_eq!(pretty_escaped(&text), None, "{broken}");
        }
    }

    #[test]
    fn refuses_what_is_not_one_compact_object() {
        for json in [
            "",
            "[]",
            "1",
            "{",
            "{}}",
            r#"{"a":1} "#,
            "{\n}",
            r#"{"a": 1}"#,
            r#"{"a":"x}"#,
            r#"{"a":tru}"#,
            "{}{}",
            r#"{"a":"\x"}"#,
        ] {
            assert_eq!(pretty(json), None, "{json:?}");
            assert_eq!(pretty_escaped(json), None, "{json:?}");
        }
    }
}
