//! Value shapes: the sequence of character classes every value of a column
//! shares (`INV-\d{6}`, `[A-Z]{2}`, `\d{4}-\d{2}-\d{2}`).
//!
//! A value's shape is its characters classed as uppercase ASCII letter,
//! lowercase ASCII letter, ASCII digit, or one literal punctuation mark or
//! space, with runs of one class merged (`AB-12` is `[A-Z]{2}-\d{2}`). A
//! column has a shape when every value has the same sequence of classes;
//! where the values' run lengths differ, that run is `+` (one or more). A
//! run of letters that is the same text in every value stays that text
//! (`INV-\d{6}`, not `[A-Z]{3}-\d{6}`), unless every value is the same, when
//! the shape is all classes (one value says nothing about which parts are fixed).
//! Work per value is bounded: a value longer than [`MAX_CHARS`], or with
//! any character outside printable ASCII, gives the column no shape, and
//! then no later value is looked at.

use std::fmt::Write;

use crate::key_table::same_bytes;

/// The longest value a shape is taken of.
const MAX_CHARS: usize = 64;

/// One character class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Upper,
    Lower,
    Digit,
    /// One literal character: punctuation or a space.
    Literal(u8),
}

/// Each byte's class as one byte, so that comparing two bytes' classes is
/// one load and one compare: `A` for an uppercase letter, `a` for a
/// lowercase one, `0` for a digit, the byte itself for a literal, and 0
/// for a byte with no class. (No literal is a letter or a digit, so the
/// codes of different classes differ.)
const CLASS_CODES: [u8; 256] = {
    let mut codes = [0u8; 256];
    let mut byte = 0;
    while byte < 256 {
        codes[byte] = match byte as u8 {
            b'A'..=b'Z' => b'A',
            b'a'..=b'z' => b'a',
            b'0'..=b'9' => b'0',
            b' '..=b'~' => byte as u8,
            _ => 0,
        };
        byte += 1;
    }
    codes
};

impl Class {
    fn of(byte: u8) -> Option<Class> {
        Some(match byte {
            b'A'..=b'Z' => Class::Upper,
            b'a'..=b'z' => Class::Lower,
            b'0'..=b'9' => Class::Digit,
            b' '..=b'~' => Class::Literal(byte),
            _ => return None,
        })
    }
}

/// A run of one class: where it starts in the first value, how long it is
/// (`None` once values disagree), and whether its text is the same in every value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Run {
    class: Class,
    start: usize,
    length: Option<usize>,
    constant: bool,
}

/// The shape shared by the values seen so far.
#[derive(Debug, Clone, Default)]
pub(super) struct Shape {
    /// `None` before the first value.
    runs: Option<Vec<Run>>,
    /// The first value (at most [`MAX_CHARS`] bytes), which constant runs are read from.
    first: String,
    /// Whether some value differs from the first.
    varied: bool,
    /// Once values disagree on their classes: no shape, and no more work.
    dead: bool,
    /// Scratch: the runs of the value being added.
    value: Vec<Run>,
    /// The class code ([`CLASS_CODES`]) of each byte of the first value: a
    /// value of the same length whose bytes have the same classes has the
    /// same runs, which are then not built again (most values of a shaped
    /// column).
    first_classes: Vec<u8>,
    /// The runs of the first value as it was (`runs` forgets lengths).
    first_runs: Vec<Run>,
}

impl Shape {
    /// Take in one (non-blank) value's text.
    pub(super) fn add(&mut self, text: &str) {
        if self.dead {
            return;
        }
        if self.runs.is_some() && self.classed_as_first(text) {
            self.merge(text, true);
            return;
        }
        if text.len() > MAX_CHARS || !runs_of(text, &mut self.value) {
            self.dead = true;
            return;
        }
        let Some(runs) = &self.runs else {
            self.runs = Some(self.value.clone());
            self.first_runs.clone_from(&self.value);
            text.clone_into(&mut self.first);
            self.first_classes = text.bytes().map(|byte| CLASS_CODES[usize::from(byte)]).collect();
            return;
        };
        let same = runs.len() == self.value.len() && runs.iter().zip(&self.value).all(|(a, b)| a.class == b.class);
        if !same {
            self.dead = true;
            return;
        }
        self.merge(text, false);
    }

    /// Whether every byte of `text` has the class of the first value's byte
    /// at the same place (so its runs are the first value's runs).
    fn classed_as_first(&self, text: &str) -> bool {
        text.len() == self.first_classes.len()
            && text.bytes().zip(&self.first_classes).all(|(byte, &class)| CLASS_CODES[usize::from(byte)] == class)
    }

    /// Merge a value whose runs have the first value's classes: its runs
    /// are the first value's when `as_first`, else in `self.value`.
    fn merge(&mut self, text: &str, as_first: bool) {
        let Some(runs) = &mut self.runs else { return };
        let value = if as_first { &self.first_runs } else { &self.value };
        // Once one value differs, no other needs comparing.
        if !self.varied {
            self.varied = text != self.first;
        }
        for (run, seen) in runs.iter_mut().zip(value) {
            if run.length != seen.length {
                run.length = None;
            }
            if run.constant {
                let seen_text = &text.as_bytes()[seen.start..seen.start + seen.length.unwrap_or(0)];
                // (`same_bytes`, not `==`, which is a call per run in the module.)
                run.constant =
                    run.length.is_some_and(|n| same_bytes(&self.first.as_bytes()[run.start..run.start + n], seen_text));
            }
        }
    }

    /// The shape as a regular expression (a full match, in the contract's
    /// pattern syntax), when every value seen shares one.
    pub(super) fn pattern(&self) -> Option<String> {
        let runs = self.runs.as_ref().filter(|_| !self.dead)?;
        let mut out = String::new();
        for run in runs {
            let letters = matches!(run.class, Class::Upper | Class::Lower);
            if letters && run.constant && self.varied {
                // Letters need no escaping; the run's text is its own pattern.
                let length = run.length.unwrap_or(0);
                out.push_str(&self.first[run.start..run.start + length]);
                continue;
            }
            match run.class {
                Class::Upper => out.push_str("[A-Z]"),
                Class::Lower => out.push_str("[a-z]"),
                Class::Digit => out.push_str("\\d"),
                Class::Literal(byte) => {
                    // The characters that mean something outside a class.
                    if b"\\.+*?()|[]{}^$".contains(&byte) {
                        out.push('\\');
                    }
                    out.push(char::from(byte));
                }
            }
            match run.length {
                Some(1) => {}
                Some(n) => {
                    let _ = write!(out, "{{{n}}}");
                }
                None => out.push('+'),
            }
        }
        Some(out)
    }

    /// Whether the shape says something a value could get wrong: every run
    /// has a fixed length, or it has a literal mark other than a space
    /// (`INV-\d+`). `[A-Z][a-z]+` (a capitalised word) and
    /// `[A-Z][a-z]+ [A-Z][a-z]+` (two) describe most names, not a format.
    pub(super) fn is_telling(&self) -> bool {
        let Some(runs) = self.runs.as_ref().filter(|_| !self.dead) else { return false };
        let fixed = runs.iter().all(|run| run.length.is_some());
        let marked = runs.iter().any(|run| matches!(run.class, Class::Literal(byte) if byte != b' '));
        fixed || marked
    }

    /// Whether the shape has a run of digits (a code such as `INV-\d{6}`).
    pub(super) fn has_digits(&self) -> bool {
        self.runs.as_ref().filter(|_| !self.dead).is_some_and(|runs| runs.iter().any(|run| run.class == Class::Digit))
    }
}

/// The runs of `text` into `out`; false when a character has no class.
fn runs_of(text: &str, out: &mut Vec<Run>) -> bool {
    out.clear();
    for (at, &byte) in text.as_bytes().iter().enumerate() {
        let Some(class) = Class::of(byte) else { return false };
        match out.last_mut() {
            Some(run) if run.class == class => run.length = run.length.map(|n| n + 1),
            _ => out.push(Run { class, start: at, length: Some(1), constant: true }),
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::FullMatch;

    fn shape_of(values: &[&str]) -> Shape {
        let mut shape = Shape::default();
        for value in values {
            shape.add(value);
        }
        shape
    }

    #[test]
    fn shared_shapes_become_patterns_every_value_matches() {
        let cases: [(&[&str], Option<&str>, bool); 12] = [
            (&["INV-000001", "INV-123456"], Some("INV-\\d{6}"), true),
            (&["DE", "FR"], Some("[A-Z]{2}"), true),
            (&["DE", "DE"], Some("[A-Z]{2}"), true),
            (&["2024-01-31", "1999-12-01"], Some("\\d{4}-\\d{2}-\\d{2}"), true),
            (&["C1", "C22", "C333"], Some("C\\d+"), false),
            (&["Cx1", "Cy22"], Some("C[a-z]\\d+"), false),
            (&["a.b", "ab.cd"], Some("[a-z]+\\.[a-z]+"), true),
            (&["Ann", "Robert"], Some("[A-Z][a-z]+"), false),
            (&["Ann Lee", "Bob Smith"], Some("[A-Z][a-z]{2} [A-Z][a-z]+"), false),
            (&["AB-1", "ABC-1"], Some("[A-Z]+-\\d"), true),
            (&["INV-1", "inv-1"], None, false),
            (&["x\ty"], None, false),
        ];
        for (values, expected, telling) in cases {
            let shape = shape_of(values);
            assert_eq!(shape.pattern().as_deref(), expected, "{values:?}");
            assert_eq!(shape.is_telling(), telling, "{values:?}");
            if let Some(pattern) = shape.pattern() {
                let regex = FullMatch::new(&pattern).expect("a shape compiles as a contract pattern");
                assert!(values.iter().all(|value| regex.is_match(value)), "{pattern} against {values:?}");
            }
        }
    }

    #[test]
    fn every_punctuation_mark_is_matched_as_itself() {
        let marks: String = (b' '..=b'~').filter(|b| !b.is_ascii_alphanumeric()).map(char::from).collect();
        for mark in marks.chars() {
            let value = format!("a{mark}1");
            let pattern = shape_of(&[&value]).pattern().unwrap();
            let regex = FullMatch::new(&pattern).unwrap_or_else(|_| panic!("{pattern} does not compile"));
            assert!(regex.is_match(&value), "{pattern} against {value:?}");
            assert!(!regex.is_match("a1"), "{pattern} matches without its mark");
        }
    }

    #[test]
    fn a_long_value_gives_no_shape() {
        let long = "a".repeat(MAX_CHARS + 1);
        assert_eq!(shape_of(&["abc", &long]).pattern(), None);
    }
}
