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
//!
//! Most positions' sets are one range of bytes (a literal character, `\d`,
//! `[A-Z]`), so the text is first checked eight bytes at a time against
//! each position's range (in the module, a loop of a table load per byte
//! was most of a pattern's cost); only a position whose set is not one
//! range is then looked up in its table.

use regex_syntax::hir::{Class, Hir, HirKind, Look};

/// A full-match pattern that is a fixed sequence of ASCII character sets.
#[derive(Debug, Clone)]
pub(crate) struct FixedWidth {
    /// The set each position's byte must be in.
    positions: Vec<AsciiSet>,
    /// Eight-byte windows that cover the text, each with the range every
    /// byte in it must lie in (the sets' ranges, or their bounds).
    windows: Vec<Window>,
    /// The positions whose set is not one range of bytes: checked in their
    /// table once the windows pass.
    irregular: Vec<usize>,
}

/// The high bit of every byte of a word.
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Eight bytes of the text from `at` (fewer, padded with zeros, for a
/// text shorter than eight), and the range each must lie in, as two
/// addends: for an ASCII byte `x` and a range `lo..=hi` within ASCII,
/// `x + (0x80 - lo)` has its high bit set exactly when `x >= lo`, and
/// `x + (0x7f - hi)` exactly when `x > hi`; neither sum carries into the
/// next byte, so a word of eight bytes is eight independent checks.
#[derive(Debug, Clone, Copy)]
struct Window {
    at: usize,
    add_low: u64,
    add_high: u64,
}

impl Window {
    /// Whether every byte of `word` (ASCII, as the caller checked) lies in its range.
    fn holds(&self, word: u64) -> bool {
        word.wrapping_add(self.add_low) & !word.wrapping_add(self.add_high) & HIGHS == HIGHS
    }
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

    /// The smallest range of bytes holding the set, and whether the set
    /// is that whole range; an empty set is bounded by all of ASCII (its
    /// table then refuses every byte).
    fn bounds(&self) -> (u8, u8, bool) {
        let held = |byte: &u8| self.0[usize::from(*byte)];
        let (Some(low), Some(high)) = ((0..128u8).find(held), (0..128u8).rev().find(held)) else {
            return (0, 0x7f, false);
        };
        (low, high, (low..=high).all(|byte| held(&byte)))
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
        (positions.len() <= 256).then(|| FixedWidth::of_sets(positions))
    }

    /// The matcher of a sequence of sets: its windows and irregular positions.
    fn of_sets(positions: Vec<AsciiSet>) -> FixedWidth {
        let width = positions.len();
        let bounds: Vec<(u8, u8, bool)> = positions.iter().map(AsciiSet::bounds).collect();
        // Windows every eight bytes, the last one ending where the text
        // does (overlapping the one before it); one padded window for a
        // text shorter than eight.
        let mut starts: Vec<usize> = (0..width.saturating_sub(7)).step_by(8).collect();
        if width % 8 != 0 {
            starts.push(width.saturating_sub(8));
        }
        let windows = starts
            .into_iter()
            .map(|at| {
                let (mut add_low, mut add_high) = (0u64, 0u64);
                for k in 0..8 {
                    // A padding byte (zero) is allowed anything.
                    let (low, high) = bounds.get(at + k).map_or((0, 0x7f), |&(low, high, _)| (low, high));
                    add_low |= u64::from(0x80 - low) << (8 * k);
                    add_high |= u64::from(0x7f - high) << (8 * k);
                }
                Window { at, add_low, add_high }
            })
            .collect();
        let irregular = (0..width).filter(|&at| !bounds[at].2).collect();
        FixedWidth { positions, windows, irregular }
    }

    /// Whether ASCII `text` matches in full; `None` for text that is not
    /// ASCII, which only the regex can decide.
    pub(crate) fn matches(&self, text: &str) -> Option<bool> {
        let bytes = text.as_bytes();
        if bytes.len() != self.positions.len() {
            return text.is_ascii().then_some(false);
        }
        for window in &self.windows {
            let word = load(bytes, window.at);
            if word & HIGHS != 0 {
                return None;
            }
            if !window.holds(word) {
                // Any other window's byte that is not ASCII would make the
                // text shorter in characters than the pattern: no match
                // either way, but the rule is that such text is the regex's.
                return text.is_ascii().then_some(false);
            }
        }
        Some(self.irregular.iter().all(|&at| self.positions[at].contains(bytes[at])))
    }
}

/// The eight bytes of `bytes` from `at`, little-endian; those past its end
/// read as zero.
fn load(bytes: &[u8], at: usize) -> u64 {
    match bytes.get(at..at + 8) {
        Some(word) => u64::from_le_bytes(word.try_into().expect("eight bytes")),
        None => {
            let mut word = [0u8; 8];
            let rest = bytes.get(at..).unwrap_or_default();
            word[..rest.len()].copy_from_slice(rest);
            u64::from_le_bytes(word)
        }
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
            // Widths around the eight-byte windows, irregular sets beside
            // ranges, a set with no ASCII character.
            "-",
            r"\d{7}",
            r"\d{8}",
            r"[A-Z]{2}\d{7}",
            r"[A-Z]{2}\d{15}",
            r"(?i)inv-\d{6}[a-c]",
            r"\w{8}[^a-z]\s",
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
        assert_eq!(fast.matches("INV-0001\u{e9}"), None, "as long in bytes, not ASCII");
    }

    #[test]
    fn a_window_holds_exactly_the_bytes_in_each_range() {
        // Every range of ASCII bytes at every place of a window, against
        // every ASCII byte there, the other places holding bytes at the
        // edges of their own ranges (a carry between bytes would show).
        for low in 0..128u8 {
            for high in low..128u8 {
                let place = usize::from(low ^ high) % 8;
                let mut sets = vec![AsciiSet::of(b'0'); 8];
                sets[place] =
                    AsciiSet(std::array::from_fn(|byte| (usize::from(low)..=usize::from(high)).contains(&byte)));
                let fast = FixedWidth::of_sets(sets);
                assert!(fast.irregular.is_empty());
                for byte in 0..128u8 {
                    let mut text = *b"00000000";
                    text[place] = byte;
                    let expected = (low..=high).contains(&byte);
                    assert_eq!(fast.windows[0].holds(u64::from_le_bytes(text)), expected, "{byte} in {low}..={high}");
                }
            }
        }
        // A set that is not one range is looked up in its table as well.
        let fast = FixedWidth::for_pattern(&anchored("[ace]")).unwrap();
        assert_eq!(fast.irregular, [0]);
        assert_eq!(
            ["a", "b", "c", "d", "e"].map(|text| fast.matches(text)),
            [true, false, true, false, true].map(Some)
        );
    }
}
