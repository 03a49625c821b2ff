//! `matches()` patterns: CEL's RE2 syntax, run by the `regex` crate, whose
//! engine is linear-time like RE2 and whose syntax is RE2's but for a few
//! spellings, translated here:
//!
//! * RE2's `\d`, `\w`, `\s` and `\b` are ASCII-only (`[0-9]`,
//!   `[0-9A-Za-z_]`, `[\t\n\f\r ]`); the crate's are Unicode-aware, so they
//!   are spelt out (inside a class too);
//! * inside a class RE2 reads `[` (but for `[:alpha:]`) and doubled `&&`,
//!   `--`, `~~` literally, where the crate would nest a class or apply a set
//!   operation, so they are escaped.
//!
//! CEL's `matches` searches: the pattern may match any substring. Anchor it
//! with `^...$` to match the whole text.

use regex::{Regex, RegexBuilder};

/// The compiled program's size limit: plenty for a 4 KiB expression's
/// pattern, and small enough that `a{1000}{1000}` is refused, not built.
const SIZE_LIMIT: usize = 1 << 20;

/// Compile `source` (RE2 syntax) for an unanchored search.
pub(super) fn compile(source: &str) -> Result<Regex, String> {
    let translated = translate(source);
    RegexBuilder::new(&translated).size_limit(SIZE_LIMIT).build().map_err(|err| crate::pattern::compiler_detail(&err))
}

/// RE2 syntax to the crate's, as the module doc describes.
fn translate(source: &str) -> String {
    let mut out = String::with_capacity(source.len() + 8);
    let mut chars = source.chars().peekable();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let Some(escaped) = chars.next() else {
                    // A trailing backslash: left for the crate to refuse.
                    out.push('\\');
                    break;
                };
                let replacement = match (escaped, in_class) {
                    ('d', false) => "[0-9]",
                    ('d', true) => "0-9",
                    ('D', _) => "[^0-9]",
                    ('w', false) => "[0-9A-Za-z_]",
                    ('w', true) => "0-9A-Za-z_",
                    ('W', _) => "[^0-9A-Za-z_]",
                    ('s', false) => r"[\t\n\f\r ]",
                    ('s', true) => r"\t\n\f\r ",
                    ('S', _) => r"[^\t\n\f\r ]",
                    ('b', false) => r"(?-u:\b)",
                    ('B', false) => r"(?-u:\B)",
                    _ => {
                        out.push('\\');
                        out.push(escaped);
                        continue;
                    }
                };
                out.push_str(replacement);
            }
            '[' if !in_class => {
                in_class = true;
                out.push('[');
                if chars.peek() == Some(&'^') {
                    out.push('^');
                    chars.next();
                }
                // A `]` first in a class is a member, in RE2 and in the crate.
                if chars.peek() == Some(&']') {
                    out.push_str(r"\]");
                    chars.next();
                }
            }
            '[' if chars.peek() == Some(&':') => {
                // A POSIX class, `[:alpha:]`: copied through its `:]`.
                out.push('[');
                let mut previous = '[';
                for inner in chars.by_ref() {
                    out.push(inner);
                    if previous == ':' && inner == ']' {
                        break;
                    }
                    previous = inner;
                }
            }
            '[' => out.push_str(r"\["),
            ']' if in_class => {
                in_class = false;
                out.push(']');
            }
            '&' | '-' | '~' if in_class && chars.peek() == Some(&c) => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::compile;

    fn search(pattern: &str, text: &str) -> bool {
        compile(pattern).expect("pattern compiles").is_match(text)
    }

    #[test]
    fn perl_classes_are_ascii_as_in_re2() {
        // RE2: \d is [0-9], so an Arabic-Indic digit is not one; \w is [0-9A-Za-z_].
        assert!(search(r"^\d+$", "2024"));
        assert!(!search(r"^\d+$", "\u{0663}"));
        assert!(!search(r"^\w+$", "é"));
        assert!(search(r"^[\w-]+$", "a-b_1"));
        assert!(search(r"^[^\d]+$", "abc"));
        assert!(search(r"^[a\D]$", "x"));
        // RE2's \s has no vertical tab.
        assert!(!search(r"\s", "\u{0b}"));
        // \b is an ASCII word boundary: é is not a word character, so "é" has none.
        assert!(search(r"\bab\b", "x ab y"));
        assert!(!search(r"\b", "é"));
    }

    #[test]
    fn class_syntax_reads_as_in_re2() {
        assert!(search(r"^[]a]+$", "]a"));
        assert!(search(r"^[[]$", "["));
        assert!(search(r"^[[:digit:]x]+$", "1x2"));
        assert!(search(r"^[a&&b]+$", "a&b"));
    }

    #[test]
    fn matches_searches_unless_anchored() {
        // CEL: 'xaby'.matches('ab') is true (a substring matches); '^ab$' needs all of it.
        assert!(search("ab", "xaby"));
        assert!(!search("^ab$", "xaby"));
    }

    #[test]
    fn bad_and_huge_patterns_are_refused() {
        assert!(compile("(").is_err());
        assert!(compile(r"\Q").is_err());
        assert!(compile("a{1000}{1000}").is_err());
    }
}
