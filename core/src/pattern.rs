//! Column `pattern`s: Python `re` syntax, run by the linear-time `regex` crate.
//!
//! The reference compiles patterns with Python's backtracking `re` and checks
//! them with `fullmatch`. Here they run in linear time, so a pattern can never
//! hang the server, at the price of the constructs that need backtracking:
//! look-around, back-references, atomic groups, possessive quantifiers and
//! conditionals are refused with a message that says so. The few places where
//! Python's syntax differs from the `regex` crate's for the same meaning are
//! translated (`\Z`, `(?#...)` comments, a literal `{` or `[`).

use regex::Regex;

use crate::pattern_fixed::FixedWidth;

/// Why a pattern cannot be used.
#[derive(Debug)]
pub(crate) enum PatternError {
    /// Python `re` would reject it too (the detail is ours, not Python's).
    Invalid(String),
    /// Valid Python, but needs backtracking; named so the caller can rewrite it.
    Unsupported(&'static str),
}

/// Compile `source` so that [`Regex::is_match`] means Python's
/// `re.fullmatch`; returns the regex and the exact text it was compiled from
/// (`\A(?:...)\z`).
pub(crate) fn compile_anchored(source: &str) -> Result<(Regex, String), PatternError> {
    let translated = translate(source)?;
    let anchored = format!(r"\A(?:{translated})\z");
    let regex = Regex::new(&anchored).map_err(|err| PatternError::Invalid(compiler_detail(&err)))?;
    Ok((regex, anchored))
}

/// A column pattern, compiled: Python's `re.fullmatch`, with a fast path for
/// patterns that are a fixed sequence of character sets.
#[derive(Debug, Clone)]
pub(crate) struct FullMatch {
    regex: Regex,
    fixed: Option<FixedWidth>,
}

impl FullMatch {
    /// Compile `source`; see [`compile_anchored`].
    pub(crate) fn new(source: &str) -> Result<Self, PatternError> {
        let (regex, anchored) = compile_anchored(source)?;
        Ok(FullMatch { regex, fixed: FixedWidth::for_pattern(&anchored) })
    }

    /// Whether `text` matches in full.
    pub(crate) fn is_match(&self, text: &str) -> bool {
        match self.fixed.as_ref().and_then(|fixed| fixed.matches(text)) {
            Some(answer) => answer,
            None => self.regex.is_match(text),
        }
    }
}

/// The first line of the compiler's explanation, without the pattern echo.
pub(crate) fn compiler_detail(err: &regex::Error) -> String {
    match err {
        regex::Error::Syntax(text) => text.lines().rev().find(|line| line.starts_with("error:")).map_or_else(
            || text.lines().last().unwrap_or("invalid syntax").to_owned(),
            |line| line.trim_start_matches("error: ").to_owned(),
        ),
        regex::Error::CompiledTooBig(limit) => format!("the compiled pattern exceeds the size limit of {limit} bytes"),
        _ => err.to_string(),
    }
}

/// Escapes Python's `re` knows after a backslash; any other ASCII letter is an error there.
const PYTHON_LETTER_ESCAPES: &str = "abfnrtvdDsSwWAbBZxuUN";

/// Rewrite Python syntax into the `regex` crate's, refusing what it cannot run.
fn translate(source: &str) -> Result<String, PatternError> {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len() + 8);
    let mut i = 0;
    let mut in_class = false;
    let mut class_start = 0;
    let mut only_global_flags_before = true;
    while i < chars.len() {
        let c = chars[i];
        if c != '(' {
            only_global_flags_before = false;
        }
        match c {
            '\\' => {
                let Some(&next) = chars.get(i + 1) else {
                    return Err(PatternError::Invalid("bad escape (end of pattern)".into()));
                };
                if next.is_ascii_digit() && next != '0' && !in_class {
                    return Err(PatternError::Unsupported("a back-reference"));
                }
                if next.is_ascii_alphabetic() && !PYTHON_LETTER_ESCAPES.contains(next) {
                    return Err(PatternError::Invalid(format!("bad escape \\{next} at position {i}")));
                }
                match next {
                    'Z' if !in_class => out.push_str(r"\z"),
                    // Python's word and space classes differ from the crate's Unicode ones:
                    // \w is letters, numbers and `_` (no combining marks); \s adds \x1c-\x1f.
                    // Nested classes keep these valid inside brackets too.
                    'w' => out.push_str(r"[\p{L}\p{N}_]"),
                    'W' => out.push_str(r"[^\p{L}\p{N}_]"),
                    's' => out.push_str(r"[\s\x1c-\x1f]"),
                    'S' => out.push_str(r"[^\s\x1c-\x1f]"),
                    'N' => return Err(PatternError::Unsupported(r"a named character escape (\N{...})")),
                    _ => {
                        out.push('\\');
                        out.push(next);
                    }
                }
                i += 2;
                continue;
            }
            '[' if in_class => out.push_str(r"\["),
            '[' => {
                in_class = true;
                class_start = i;
                out.push('[');
                // A leading `^` and a leading `]` belong to the class in Python.
                if chars.get(i + 1) == Some(&'^') {
                    out.push('^');
                    i += 1;
                }
                if chars.get(i + 1) == Some(&']') {
                    out.push_str(r"\]");
                    i += 1;
                }
            }
            ']' if in_class && i > class_start => {
                in_class = false;
                out.push(']');
            }
            '&' | '~' | '-' if in_class && chars.get(i + 1) == Some(&c) => {
                // Doubled `&&`, `~~` and `--` are set operations in the crate, literals in Python.
                out.push('\\');
                out.push(c);
            }
            '(' if !in_class && chars.get(i + 1) == Some(&'?') => {
                if let Some(end) = global_flags_end(&chars, i) {
                    // Python allows `(?i)`-style global flags only at the very start.
                    if !only_global_flags_before {
                        return Err(PatternError::Invalid(format!(
                            "global flags not at the start of the expression at position {i}"
                        )));
                    }
                    out.extend(&chars[i..=end]);
                    i = end + 1;
                    continue;
                }
                i = translate_group_opening(&chars, i, &mut out)?;
                only_global_flags_before = false;
                continue;
            }
            '{' if !in_class => {
                if let Some(end) = quantifier_end(&chars, i) {
                    let body: String = chars[i..=end].iter().collect();
                    // Python's `{,n}` means `{0,n}`.
                    out.push_str(&body.replacen("{,", "{0,", 1));
                    i = end + 1;
                    if matches!(chars.get(i), Some('+')) {
                        return Err(PatternError::Unsupported("a possessive quantifier"));
                    }
                    continue;
                }
                out.push_str(r"\{");
            }
            '}' if !in_class => out.push_str(r"\}"),
            '*' | '+' | '?' if !in_class => {
                out.push(c);
                if chars.get(i + 1) == Some(&'+') {
                    return Err(PatternError::Unsupported("a possessive quantifier"));
                }
            }
            _ => out.push(c),
        }
        i += 1;
    }
    Ok(out)
}

/// Handle a `(?` group opening at `i`; returns the index to continue from.
fn translate_group_opening(chars: &[char], i: usize, out: &mut String) -> Result<usize, PatternError> {
    let rest: String = chars[i + 2..].iter().take(3).collect();
    if rest.starts_with('=') || rest.starts_with('!') || rest.starts_with("<=") || rest.starts_with("<!") {
        return Err(PatternError::Unsupported("look-around"));
    }
    if rest.starts_with('>') {
        return Err(PatternError::Unsupported("an atomic group"));
    }
    if rest.starts_with("P=") {
        return Err(PatternError::Unsupported("a back-reference"));
    }
    if rest.starts_with('(') {
        return Err(PatternError::Unsupported("a conditional group"));
    }
    if rest.starts_with('#') {
        // A comment: Python ignores it up to the next `)`.
        let close = chars[i..].iter().position(|&c| c == ')').map(|offset| i + offset);
        return close.map(|end| end + 1).ok_or_else(|| PatternError::Invalid("missing ), unterminated comment".into()));
    }
    out.push_str("(?");
    Ok(i + 2)
}

/// If `(` at `start` opens a global-flags group like `(?im)` (flags and no
/// colon), the index of its `)`.
fn global_flags_end(chars: &[char], start: usize) -> Option<usize> {
    let mut end = start + 2;
    while chars.get(end).is_some_and(|c| "aiLmsux".contains(*c)) {
        end += 1;
    }
    (end > start + 2 && chars.get(end) == Some(&')')).then_some(end)
}

/// If a `{` at `start` opens a Python repetition (`{n}`, `{n,}`, `{,m}`,
/// `{n,m}`), the index of its `}`; otherwise Python reads `{` literally.
fn quantifier_end(chars: &[char], start: usize) -> Option<usize> {
    let close = start + chars[start..].iter().position(|&c| c == '}')?;
    let body: String = chars[start + 1..close].iter().collect();
    let (low, high) = match body.split_once(',') {
        Some((low, high)) => (low, Some(high)),
        None => (body.as_str(), None),
    };
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let valid = match high {
        None => !low.is_empty() && digits(low),
        Some(high) => digits(low) && digits(high) && !(low.is_empty() && high.is_empty()),
    };
    // Python repeats the previous item, so a `{` with nothing before it is literal.
    (valid && start > 0).then_some(close)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full(pattern: &str, text: &str) -> bool {
        FullMatch::new(pattern).expect("pattern compiles").is_match(text)
    }

    #[test]
    fn fullmatch_needs_the_whole_value() {
        // Python: re.fullmatch(r"INV-\d+", "INV-12") matches, "xINV-12" and "INV-12x" do not.
        assert!(full(r"INV-\d+", "INV-12"));
        assert!(!full(r"INV-\d+", "xINV-12"));
        assert!(!full(r"INV-\d+", "INV-12x"));
        // An alternation must still cover the whole value: re.fullmatch("a|ab", "ab") matches.
        assert!(full("a|ab", "ab"));
    }

    #[test]
    fn python_only_syntax_is_translated() {
        assert!(full(r"ab\Z", "ab"));
        assert!(full("a(?#a comment)b", "ab"));
        assert!(full("a{,2}", "aa"));
        assert!(full("{x}", "{x}"));
        assert!(full("a{", "a{"));
        assert!(full("[[]", "["));
        assert!(full("[]a]", "]"));
        assert!(full("[^]a]", "b"));
        assert!(full("[a&&b]", "&"));
    }

    #[test]
    fn python_character_classes_keep_their_meaning() {
        // CPython 3.11: re.fullmatch(r"\w+", "e\u0301") is None (a combining mark is not a word
        // character), re.fullmatch(r"\w+", "naïve_1") matches, re.fullmatch(r"\s", "\x1f") matches.
        assert!(!full(r"\w+", "e\u{301}"));
        assert!(full(r"\w+", "naïve_1"));
        assert!(full(r"[\w-]+", "a-b"));
        assert!(full(r"\s", "\x1f"));
        assert!(full(r"\S+", "ab"));
        assert!(!full(r"\W", "a"));
    }

    #[test]
    fn global_flags_must_lead() {
        // CPython 3.11 accepts "(?i)(?s)ab" and rejects "(?i)ab(?s)" and "a(?i)b".
        assert!(full("(?i)(?s)ab", "AB"));
        assert!(matches!(FullMatch::new("(?i)ab(?s)"), Err(PatternError::Invalid(_))));
        assert!(matches!(FullMatch::new("a(?i)b"), Err(PatternError::Invalid(_))));
        assert!(full("a(?i:b)", "aB"));
    }

    #[test]
    fn backtracking_constructs_are_refused_by_name() {
        for (pattern, construct) in [
            ("a(?=b)", "look-around"),
            ("(?<!a)b", "look-around"),
            (r"(a)\1", "a back-reference"),
            ("(?P<x>a)(?P=x)", "a back-reference"),
            ("(?>a+)", "an atomic group"),
            ("a++", "a possessive quantifier"),
            ("a{2}+", "a possessive quantifier"),
        ] {
            match FullMatch::new(pattern) {
                Err(PatternError::Unsupported(name)) => assert_eq!(name, construct, "{pattern}"),
                other => panic!("{pattern}: expected unsupported, got {other:?}"),
            }
        }
    }

    #[test]
    fn invalid_patterns_are_rejected() {
        for pattern in ["(", "[a", r"\p{L}", "*a", r"\q"] {
            assert!(matches!(FullMatch::new(pattern), Err(PatternError::Invalid(_))), "{pattern}");
        }
    }

    #[test]
    fn catastrophic_patterns_run_in_linear_time() {
        let text = format!("{}!", "a".repeat(50_000));
        assert!(!full("(a+)+$", &text));
    }
}
