//! A fast path for the commonest column patterns: a fixed sequence of
//! characters, each from a set (`INV-\d{6}`, `[A-Z]{2}\d{4}`, `(?i)yes`).
//!
//! Checking such a pattern against short ASCII text is a walk of one table
//! per position, where the general regex engine spends most of its time
//! setting up the search. The matcher is derived from the compiled pattern's
//! own syntax tree (`regex-syntax`, the parser the `regex` crate uses, with
//! the same defaults), so it cannot mean anything the regex does not: for
//! ASCII text, a character matches a Unicode class exactly when it lies in
//! the class's ASCII part. Text with any other character, and every pattern
//! of another shape, is left to the regex.

use regex_syntax::hir::{Class, Hir, HirKind, Look};

/// A full-match pattern that is a fixed sequence of ASCII character sets.
#[derive(Debug, Clone)]
pub(crate) struct FixedWidth {
    /// The set each position's byte must be in.
    positions: Vec<AsciiSet>,
}

/// A set of ASCII bytes, as a table: one load to test a byte (a 128-bit
/// mask would need several instructions per test in WebAssembly).
#[derive(Debug, Clone, Copy)]
struct AsciiSet([bool; 128]);

impl AsciiSet {
    const EMPTY: AsciiSet = AsciiSet([false; 128]);

    fn of(byte: u8) -> AsciiSet {
        let mut set = AsciiSet::EMPTY;
        set.0[usize::from(byte)] = true;
        set
    }

    /// Whether `byte` (ASCII, as the caller checked) is in the set.
    fn contains(&self, byte: u8) -> bool {
        self.0[usize::from(byte & 0x7f)]
    }
}

impl FixedWidth {
    /// The matcher for `anchored` (a pattern as given to `Regex::new`,
    /// already `\A(?:...)\z`), or `None` when it is not of that shape.
    pub(crate) fn for_pattern(anchored: &str) -> Option<FixedWidth> {
        let hir = regex_syntax::Parser::new().parse(anchored).ok()?;
        let HirKind::Concat(parts) = hir.kind() else { return None };
        let (first, rest) = parts.split_first()?;
        let (last, middle) = rest.split_last()?;
        if !matches!(first.kind(), HirKind::Look(Look::Start)) || !matches!(last.kind(), HirKind::Look(Look::End)) {
            return None;
        }
        let mut positions = Vec::new();
        for part in middle {
            push_sets(part, &mut positions)?;
        }
        // Long sequences gain nothing, and a bounded size keeps this cheap.
        (positions.len() <= 256).then_some(FixedWidth { positions })
    }

    /// Whether ASCII `text` matches in full; `None` for text that is not
    /// ASCII, which only the regex can decide.
    pub(crate) fn matches(&self, text: &str) -> Option<bool> {
        if !text.is_ascii() {
            return None;
        }
        let bytes = text.as_bytes();
        Some(bytes.len() == self.positions.len() && bytes.iter().zip(&self.positions).all(|(&b, set)| set.contains(b)))
    }
}

/// Append the sets `hir` matches one after another, or `None` if it is not
/// a fixed sequence of characters.
fn push_sets(hir: &Hir, positions: &mut Vec<AsciiSet>) -> Option<()> {
    match hir.kind() {
        HirKind::Literal(literal) => {
            for &byte in &literal.0 {
                if !byte.is_ascii() {
                    return None;
                }
                positions.push(AsciiSet::of(byte));
            }
        }
        HirKind::Class(class) => positions.push(ascii_set(class)),
        HirKind::Repetition(repetition) if Some(repetition.min) == repetition.max => {
            let mut one = Vec::new();
            push_sets(&repetition.sub, &mut one)?;
            let times = usize::try_from(repetition.min).ok()?;
            if one.len().checked_mul(times)? > 256 {
                return None;
            }
            for _ in 0..times {
                positions.extend_from_slice(&one);
            }
        }
        HirKind::Capture(capture) => push_sets(&capture.sub, positions)?,
        HirKind::Concat(parts) => {
            for part in parts {
                push_sets(part, positions)?;
            }
        }
        _ => return None,
    }
    Some(())
}

/// The ASCII characters a class matches.
fn ascii_set(class: &Class) -> AsciiSet {
    let mut set = AsciiSet::EMPTY;
    let mut add = |low: u32, high: u32| {
        for c in low..=high.min(127) {
            set.0[c as usize] = true;
        }
    };
    match class {
        Class::Unicode(unicode) => {
            for range in unicode.iter().take_while(|range| u32::from(range.start()) < 128) {
                add(u32::from(range.start()), u32::from(range.end()));
            }
        }
        Class::Bytes(bytes) => {
            for range in bytes.iter().take_while(|range| range.start() < 128) {
                add(u32::from(range.start()), u32::from(range.end()));
            }
        }
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::compile_anchored;

    /// The text the pattern `source` is compiled from (Python syntax translated).
    fn anchored(source: &str) -> String {
        compile_anchored(source).expect("compiles").1
    }

    #[test]
    fn fixed_sequences_get_the_fast_path_and_others_do_not() {
        for source in [r"INV-\d{6}", r"[A-Z]{2}\d{4}", "(?i)yes", r"\w\w-\s.", "a|b", r"(\d{2})/(\d{2})", ""] {
            assert!(FixedWidth::for_pattern(&anchored(source)).is_some(), "{source}");
        }
        for source in [r"\d+", r"\d{1,3}", "ab|c", r"a\b", "^a$", r"x{300}", "(?m)a$"] {
            assert!(FixedWidth::for_pattern(&anchored(source)).is_none(), "{source}");
        }
    }

    /// A small deterministic generator (xorshift), so failures reproduce.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    #[test]
    fn the_fast_path_answers_what_the_regex_answers() {
        // Characters near every set's edges, case pairs, and non-ASCII ones
        // that Unicode classes hold (a Devanagari digit, a Kelvin sign).
        let alphabet: Vec<char> = "INVinv-_ 09aAzZ/.\n\t\u{7f}é\u{0966}\u{212a}kK".chars().collect();
        let patterns = [
            r"INV-\d{6}",
            r"[A-Z]{2}\d{4}",
            "(?i)k-v",
            r"\w\w-\s.",
            r"[^a-z]\D\S\W",
            "a|b|-",
            r"(\d{2})/(\d{2})",
            r"(?i)[a-c]{3}",
            "",
        ];
        let mut rng = Rng(0x9a77);
        for source in patterns {
            let (regex, compiled) = compile_anchored(source).expect("compiles");
            let fast = FixedWidth::for_pattern(&compiled).expect("a fixed sequence");
            let (mut decided, mut matched) = (0, 0);
            for round in 0..4000 {
                // Half the texts are built to fit the pattern where the
                // alphabet allows, so matches are tried as well as misses.
                let text: String = if round % 2 == 0 {
                    let len = rng.below(fast.positions.len() + 3);
                    (0..len).map(|_| alphabet[rng.below(alphabet.len())]).collect()
                } else {
                    fast.positions
                        .iter()
                        .map(|&set| {
                            let fitting: Vec<char> =
                                alphabet.iter().copied().filter(|&c| c.is_ascii() && set.contains(c as u8)).collect();
                            if fitting.is_empty() || rng.below(20) == 0 {
                                alphabet[rng.below(alphabet.len())]
                            } else {
                                fitting[rng.below(fitting.len())]
                            }
                        })
                        .collect()
                };
                if let Some(answer) = fast.matches(&text) {
                    assert_eq!(answer, regex.is_match(&text), "{source} on {text:?}");
                    decided += 1;
                    matched += usize::from(answer);
                }
            }
            assert!(decided > 1000, "{source}: only {decided} texts were ASCII");
            assert!(matched > 100 || source.is_empty(), "{source}: only {matched} texts matched");
        }
        // And the texts that should match do: a check that can fail both ways.
        let fast = FixedWidth::for_pattern(&anchored(r"INV-\d{6}")).unwrap();
        assert_eq!(fast.matches("INV-000123"), Some(true));
        assert_eq!(fast.matches("INV-00012"), Some(false));
        assert_eq!(fast.matches("inv-000123"), Some(false));
        assert_eq!(fast.matches("INV-00012\u{0966}"), None);
    }
}
