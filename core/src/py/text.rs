//! Python's `str` methods as the reference applies them to text values.
//!
//! `str.strip()`, `str.casefold()` and the quoting in `repr()` all consult
//! Python's own Unicode database (Unicode 14.0.0 in `CPython` 3.11), which
//! differs from Rust's `char::is_whitespace` and `to_lowercase` in places
//! (`\x1c`..`\x1f` are Python whitespace, `ß` casefolds to `ss`). So every
//! answer here comes from the tables generated from `CPython` itself.

use std::cmp::Ordering;

use super::unicode_tables::{CASEFOLD_MULTI, CASEFOLD_SINGLE, NON_PRINTABLE, SPACE};

/// Whether `cp` lies in one of the sorted, disjoint, inclusive `(first, last)` ranges.
pub(crate) fn in_ranges(table: &[(u32, u32)], cp: u32) -> bool {
    table
        .binary_search_by(|&(first, last)| {
            if last < cp {
                Ordering::Less
            } else if first > cp {
                Ordering::Greater
            } else {
                Ordering::Equal
            }
        })
        .is_ok()
}

/// Python `c.isspace()` for a one-character string.
///
/// True for the Unicode `Zs` category and the bidirectional classes `WS`, `B`
/// and `S`, which includes `\x1c`..`\x1f` and `\x85` but not `\u200b`.
pub(crate) fn is_space(c: char) -> bool {
    in_ranges(SPACE, u32::from(c))
}

/// Python `s.strip()` with no argument: drops leading and trailing [`is_space`] characters.
// Measured: with `#[inline]` alone the module still called it, once per
// cell and more (3% of `inspect_dataset`'s samples); inlined, `validate_rows`
// on a million rows took 2.5% less fuel.
#[allow(clippy::inline_always)]
#[inline(always)]
pub(crate) fn strip(s: &str) -> &str {
    // Most text starts and ends with a visible ASCII character, which is
    // never a space: then there is nothing to strip, and nothing to look up
    // (and, inlined, no call: a cell's text is stripped several times).
    let visible = |b: Option<&u8>| b.is_some_and(|&b| b > b' ' && b.is_ascii());
    if visible(s.as_bytes().first()) && visible(s.as_bytes().last()) {
        return s;
    }
    strip_spaces(s)
}

fn strip_spaces(s: &str) -> &str {
    s.trim_matches(is_space)
}

/// Python `c.isprintable()` for a one-character string.
///
/// False for the categories `Cc`, `Cf`, `Cs`, `Co`, `Cn`, `Zl`, `Zp` and for
/// every `Zs` space except `' '`. `repr()` escapes exactly these characters.
pub(crate) fn is_printable(c: char) -> bool {
    !in_ranges(NON_PRINTABLE, u32::from(c))
}

/// Python `s.casefold()`: full Unicode case folding, one character at a time.
///
/// Python applies no context here (unlike `lower()` and its final sigma), so
/// folding each character independently is exact. Some characters fold to two
/// or three (`ß` → `ss`, `ΐ` → `ΐ`).
pub(crate) fn casefold(s: &str) -> String {
    // ASCII folds to lower case, one byte for one (the tables agree: a test
    // below holds every ASCII character to it).
    if s.is_ascii() {
        return s.to_ascii_lowercase();
    }
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        push_folded(&mut out, c);
    }
    out
}

/// Append the case folding of `c` to `out`.
fn push_folded(out: &mut String, c: char) {
    let cp = u32::from(c);
    if let Ok(index) = CASEFOLD_MULTI.binary_search_by_key(&cp, |&(from, _)| from) {
        out.push_str(CASEFOLD_MULTI[index].1);
    } else {
        out.push(fold_single(c));
    }
}

/// The one-character folding of `c` (`c` itself when it has none).
fn fold_single(c: char) -> char {
    let cp = u32::from(c);
    // The runs are disjoint and sorted by `first`: the only candidate is the
    // last run starting at or before `cp`.
    let after = CASEFOLD_SINGLE.partition_point(|&(first, ..)| first <= cp);
    let Some(&(first, last, stride, delta)) = after.checked_sub(1).map(|i| &CASEFOLD_SINGLE[i]) else {
        return c;
    };
    if cp > last || (cp - first) % stride != 0 {
        return c;
    }
    cp.checked_add_signed(delta).and_then(char::from_u32).unwrap_or(c)
}

/// Python `s.capitalize()`: first character upper-cased, the rest lower-cased.
///
/// Exact for ASCII text, which is all the reference ever capitalizes (its own
/// English messages). For other characters this uses Rust's `char::to_uppercase`
/// on the first character and `str::to_lowercase` on the rest, where Python uses
/// title case for the first (`ǆ` → `ǅ`, `ß` → `Ss`, where Rust gives `Ǆ`, `SS`)
/// and its own final-sigma rule; those inputs may differ from Python.
pub(crate) fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    let Some(first) = chars.next() else {
        return String::new();
    };
    let mut out = String::with_capacity(s.len());
    if first.is_ascii() {
        out.push(first.to_ascii_uppercase());
    } else {
        out.extend(first.to_uppercase());
    }
    let rest = chars.as_str();
    if rest.is_ascii() {
        out.push_str(&rest.to_ascii_lowercase());
    } else {
        out.push_str(&rest.to_lowercase());
    }
    out
}

#[cfg(test)]
mod tests {
    //! Every expected value below was produced by `CPython` 3.11.7 (`python3`
    //! on the development machine) when the test was written.

    use super::*;

    #[test]
    fn ascii_folds_by_the_tables_as_it_does_by_lower_case() {
        // The shortcut for ASCII text in `casefold` against the tables it
        // skips, character by character.
        for byte in 0u8..128 {
            let mut folded = String::new();
            push_folded(&mut folded, char::from(byte));
            assert_eq!(folded, char::from(byte.to_ascii_lowercase()).to_string(), "{byte:#x}");
        }
        assert_eq!(casefold("INV-00 Straße"), "inv-00 strasse");
        assert_eq!(casefold("ABC xyz"), "abc xyz");
    }

    #[test]
    fn is_space_matches_python() {
        // python3 -c "print([c for c in map(chr, range(0x110000)) if c.isspace()])"
        let spaces = [
            '\t', '\n', '\x0b', '\x0c', '\r', '\x1c', '\x1d', '\x1e', '\x1f', ' ', '\u{85}', '\u{a0}', '\u{1680}',
            '\u{2000}', '\u{2001}', '\u{2002}', '\u{2003}', '\u{2004}', '\u{2005}', '\u{2006}', '\u{2007}', '\u{2008}',
            '\u{2009}', '\u{200a}', '\u{2028}', '\u{2029}', '\u{202f}', '\u{205f}', '\u{3000}',
        ];
        for c in spaces {
            assert!(is_space(c), "{c:?}");
        }
        // Python says False: zero-width space, BOM, mongolian vowel separator, 'a', NUL.
        for c in ['\u{200b}', '\u{feff}', '\u{180e}', 'a', '\0', '\u{10ffff}'] {
            assert!(!is_space(c), "{c:?}");
        }
    }

    #[test]
    fn strip_matches_python() {
        // python3: repr(s.strip()) for each s.
        assert_eq!(strip("  a b  "), "a b");
        assert_eq!(strip("\x1c\u{3000}x\u{85}\u{a0}"), "x");
        assert_eq!(strip("\u{200b}x\u{200b}"), "\u{200b}x\u{200b}");
        assert_eq!(strip(" \t\n "), "");
        assert_eq!(strip(""), "");
        assert_eq!(strip("\u{2028}é\u{2029}"), "é");
    }

    #[test]
    fn is_printable_matches_python() {
        // python3: [c.isprintable() for c in ...]
        for c in [' ', 'a', '~', '\u{a1}', 'é', '€', '中', '\u{1f600}', '\u{e01ef}'] {
            assert!(is_printable(c), "{c:?}");
        }
        for c in [
            '\0',
            '\n',
            '\x7f',
            '\u{80}',
            '\u{a0}',
            '\u{ad}',
            '\u{200b}',
            '\u{2028}',
            '\u{3000}',
            '\u{e000}',
            '\u{fffe}',
            '\u{feff}',
            '\u{378}',
            '\u{10ffff}',
            '\u{e0001}',
        ] {
            assert!(!is_printable(c), "{c:?}");
        }
    }

    #[test]
    fn casefold_matches_python() {
        // python3: repr(s.casefold()) for each s.
        assert_eq!(casefold("Hello WORLD"), "hello world");
        assert_eq!(casefold("Stra\u{df}e"), "strasse");
        assert_eq!(casefold("\u{1e9e}"), "ss");
        assert_eq!(casefold("\u{3a3}\u{391}\u{3a3}"), "\u{3c3}\u{3b1}\u{3c3}");
        assert_eq!(casefold("\u{3c2}"), "\u{3c3}");
        assert_eq!(casefold("\u{130}"), "i\u{307}");
        assert_eq!(casefold("\u{390}"), "\u{3b9}\u{308}\u{301}");
        assert_eq!(casefold("\u{fb03}"), "ffi");
        assert_eq!(casefold("\u{b5}"), "\u{3bc}");
        assert_eq!(casefold("\u{17f}"), "s");
        assert_eq!(casefold("\u{212a}"), "k"); // KELVIN SIGN
        assert_eq!(casefold("\u{1c5}"), "\u{1c6}");
        // Cherokee folds to its capital letters, the reverse of most scripts.
        assert_eq!(casefold("\u{13a0}"), "\u{13a0}");
        assert_eq!(casefold("\u{ab70}"), "\u{13a0}");
        assert_eq!(casefold("\u{10400}"), "\u{10428}");
        assert_eq!(casefold("\u{1f0}"), "j\u{30c}");
        assert_eq!(casefold("\u{149}"), "\u{2bc}n");
        assert_eq!(casefold("\u{1f88}"), "\u{1f00}\u{3b9}");
        assert_eq!(casefold("\u{100}"), "\u{101}");
        assert_eq!(casefold("\u{101}"), "\u{101}");
        assert_eq!(casefold(""), "");
        assert_eq!(casefold("123 !?"), "123 !?");
    }

    #[test]
    fn capitalize_matches_python_on_ascii() {
        // python3: repr(s.capitalize()) for each s.
        assert_eq!(capitalize("an opening or closing balance"), "An opening or closing balance");
        assert_eq!(capitalize("hELLO wORLD"), "Hello world");
        assert_eq!(capitalize("1 movement(s) could not be read"), "1 movement(s) could not be read");
        assert_eq!(capitalize(""), "");
        assert_eq!(capitalize("a"), "A");
        assert_eq!(capitalize(" abc"), " abc");
        assert_eq!(capitalize("ABC; DEF"), "Abc; def");
    }
}
