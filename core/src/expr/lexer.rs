//! CEL's lexis (langdef, "Syntax"), for the subset: numbers, strings,
//! names, operators, whitespace and `//` comments. One pass over the
//! source, so lexing is linear in its length.

use super::ExprError;

/// One token. Names and integers keep their text or magnitude; the parser
/// decides what they mean.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Tok<'s> {
    /// An integer literal's magnitude: the parser applies a leading `-`,
    /// so `-9223372036854775808` can be written.
    Int(u64),
    Double(f64),
    Str(String),
    Ident(&'s str),
    True,
    False,
    Null,
    In,
    LParen,
    RParen,
    LBracket,
    RBracket,
    Comma,
    Dot,
    Question,
    Colon,
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Not,
    Minus,
    Plus,
    Star,
    Slash,
    Percent,
    /// The end of the source.
    End,
}

/// A token and the byte offset where it starts.
#[derive(Debug, Clone)]
pub(super) struct Token<'s> {
    pub(super) tok: Tok<'s>,
    pub(super) pos: usize,
}

/// Words CEL reserves for embedding; none can name a column.
const RESERVED: [&str; 18] = [
    "as",
    "break",
    "const",
    "continue",
    "else",
    "for",
    "function",
    "if",
    "import",
    "let",
    "loop",
    "package",
    "namespace",
    "return",
    "var",
    "void",
    "while",
    "in",
];

fn error(position: usize, message: impl Into<String>) -> ExprError {
    ExprError { position, message: message.into() }
}

/// Split `source` into tokens, ending with [`Tok::End`] at its length.
pub(super) fn lex(source: &str) -> Result<Vec<Token<'_>>, ExprError> {
    let bytes = source.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let start = i;
        let two = |second: u8| bytes.get(i + 1) == Some(&second);
        let (tok, width) = match b {
            b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' => {
                i += 1;
                continue;
            }
            b'/' if two(b'/') => {
                i = bytes[i..].iter().position(|&c| c == b'\n' || c == b'\r').map_or(bytes.len(), |n| i + n);
                continue;
            }
            b'0'..=b'9' => {
                let (tok, end) = number(source, i)?;
                i = end;
                tokens.push(Token { tok, pos: start });
                continue;
            }
            b'.' if bytes.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                let (tok, end) = number(source, i)?;
                i = end;
                tokens.push(Token { tok, pos: start });
                continue;
            }
            b'\'' | b'"' => {
                let (text, end) = string(source, i, i, false)?;
                i = end;
                tokens.push(Token { tok: Tok::Str(text), pos: start });
                continue;
            }
            b'r' | b'R' if matches!(bytes.get(i + 1), Some(b'\'' | b'"')) => {
                let (text, end) = string(source, i, i + 1, true)?;
                i = end;
                tokens.push(Token { tok: Tok::Str(text), pos: start });
                continue;
            }
            b'b' | b'B' if matches!(bytes.get(i + 1), Some(b'\'' | b'"')) => {
                return Err(error(start, "bytes literals (b'...') are not supported in row rules"));
            }
            b'_' | b'a'..=b'z' | b'A'..=b'Z' => {
                let end = bytes[i..]
                    .iter()
                    .position(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
                    .map_or(bytes.len(), |n| i + n);
                tokens.push(Token { tok: word(&source[i..end], start)?, pos: start });
                i = end;
                continue;
            }
            b'(' => (Tok::LParen, 1),
            b')' => (Tok::RParen, 1),
            b'[' => (Tok::LBracket, 1),
            b']' => (Tok::RBracket, 1),
            b',' => (Tok::Comma, 1),
            b'.' => (Tok::Dot, 1),
            b'?' => (Tok::Question, 1),
            b':' => (Tok::Colon, 1),
            b'+' => (Tok::Plus, 1),
            b'-' => (Tok::Minus, 1),
            b'*' => (Tok::Star, 1),
            b'/' => (Tok::Slash, 1),
            b'%' => (Tok::Percent, 1),
            b'|' if two(b'|') => (Tok::Or, 2),
            b'&' if two(b'&') => (Tok::And, 2),
            b'=' if two(b'=') => (Tok::Eq, 2),
            b'!' if two(b'=') => (Tok::Ne, 2),
            b'<' if two(b'=') => (Tok::Le, 2),
            b'>' if two(b'=') => (Tok::Ge, 2),
            b'!' => (Tok::Not, 1),
            b'<' => (Tok::Lt, 1),
            b'>' => (Tok::Gt, 1),
            b'=' => return Err(error(start, "unexpected '=': equality is written '=='")),
            b'|' => return Err(error(start, "unexpected '|': logical or is written '||'")),
            b'&' => return Err(error(start, "unexpected '&': logical and is written '&&'")),
            b'{' => return Err(error(start, "map and message literals ('{...}') are not supported in row rules")),
            _ => {
                let c = source[i..].chars().next().unwrap_or('\u{fffd}');
                return Err(error(start, format!("unexpected character {c:?}")));
            }
        };
        tokens.push(Token { tok, pos: start });
        i += width;
    }
    tokens.push(Token { tok: Tok::End, pos: source.len() });
    Ok(tokens)
}

/// A name: a keyword, a reserved word (an error) or an identifier.
fn word(text: &str, start: usize) -> Result<Tok<'_>, ExprError> {
    Ok(match text {
        "true" => Tok::True,
        "false" => Tok::False,
        "null" => Tok::Null,
        "in" => Tok::In,
        _ if RESERVED.contains(&text) => {
            return Err(error(
                start,
                format!("'{text}' is a reserved word in CEL; a column of that name is read as row[\"{text}\"]"),
            ))
        }
        _ => Tok::Ident(text),
    })
}

/// A number starting at `i`: `0x` hex or decimal integers, and floats
/// (`1.5`, `.5`, `1e3`, `1.5e-3`). Returns the token and where it ends.
fn number(source: &str, i: usize) -> Result<(Tok<'static>, usize), ExprError> {
    let bytes = source.as_bytes();
    let digits_from = |from: usize, hex: bool| {
        bytes[from..]
            .iter()
            .position(|c| !(if hex { c.is_ascii_hexdigit() } else { c.is_ascii_digit() }))
            .map_or(bytes.len(), |n| from + n)
    };
    let unsigned_suffix = |end: usize| {
        if matches!(bytes.get(end), Some(b'u' | b'U')) {
            Err(error(i, "unsigned integers (1u) are not supported in row rules: write a plain integer"))
        } else {
            Ok(())
        }
    };
    if bytes[i] == b'0' && matches!(bytes.get(i + 1), Some(b'x' | b'X')) {
        let end = digits_from(i + 2, true);
        if end == i + 2 {
            return Err(error(i, "a hexadecimal literal needs digits after 0x"));
        }
        unsigned_suffix(end)?;
        let value = u64::from_str_radix(&source[i + 2..end], 16)
            .map_err(|_| error(i, "integer literal out of range (CEL's int is 64-bit)"))?;
        return Ok((Tok::Int(value), end));
    }
    let mut end = digits_from(i, false);
    let mut is_float = false;
    if bytes.get(end) == Some(&b'.') && bytes.get(end + 1).is_some_and(u8::is_ascii_digit) {
        end = digits_from(end + 1, false);
        is_float = true;
    }
    if matches!(bytes.get(end), Some(b'e' | b'E')) {
        let sign = usize::from(matches!(bytes.get(end + 1), Some(b'+' | b'-')));
        if bytes.get(end + 1 + sign).is_some_and(u8::is_ascii_digit) {
            end = digits_from(end + 1 + sign, false);
            is_float = true;
        }
    }
    let text = &source[i..end];
    if is_float {
        let value: f64 = text.parse().map_err(|_| error(i, "invalid floating-point literal"))?;
        if !value.is_finite() {
            return Err(error(i, "floating-point literal out of range"));
        }
        return Ok((Tok::Double(value), end));
    }
    unsigned_suffix(end)?;
    let value = text.parse::<u64>().map_err(|_| error(i, "integer literal out of range (CEL's int is 64-bit)"))?;
    Ok((Tok::Int(value), end))
}

/// A string literal whose token starts at `start` and whose quote is at
/// `quote_at`: single- or triple-quoted, raw or with CEL's escapes.
fn string(source: &str, start: usize, quote_at: usize, raw: bool) -> Result<(String, usize), ExprError> {
    let bytes = source.as_bytes();
    let quote = bytes[quote_at];
    let triple = bytes.get(quote_at + 1) == Some(&quote) && bytes.get(quote_at + 2) == Some(&quote);
    let body_from = quote_at + if triple { 3 } else { 1 };
    let unterminated = || error(start, "unterminated string: no closing quote");
    let mut out = String::new();
    let mut chars = source[body_from..].char_indices().map(|(k, c)| (body_from + k, c));
    while let Some((at, c)) = chars.next() {
        if c as u32 == u32::from(quote) {
            if !triple {
                return Ok((out, at + 1));
            }
            if bytes.get(at + 1) == Some(&quote) && bytes.get(at + 2) == Some(&quote) {
                return Ok((out, at + 3));
            }
        }
        if !triple && (c == '\n' || c == '\r') {
            return Err(unterminated());
        }
        if c == '\\' && !raw {
            out.push(escape(&mut chars, at)?);
            continue;
        }
        out.push(c);
    }
    Err(unterminated())
}

/// `count` digits in `radix` from `chars`, or `None` if they are not there.
fn digits(chars: &mut impl Iterator<Item = (usize, char)>, count: usize, radix: u32) -> Option<u32> {
    let mut value = 0;
    for _ in 0..count {
        value = value * radix + chars.next()?.1.to_digit(radix)?;
    }
    Some(value)
}

/// One escape sequence after a backslash at `at`.
fn escape(chars: &mut impl Iterator<Item = (usize, char)>, at: usize) -> Result<char, ExprError> {
    let invalid = |what: &str| error(at, format!("invalid escape sequence: {what}"));
    let Some((_, c)) = chars.next() else { return Err(invalid("the string ends after '\\'")) };
    let hex = |chars: &mut _, count| digits(chars, count, 16).ok_or_else(|| invalid("too few hex digits"));
    let code = match c {
        '\\' | '?' | '"' | '\'' | '`' => u32::from(c),
        'a' => 0x07,
        'b' => 0x08,
        'f' => 0x0c,
        'n' => 0x0a,
        'r' => 0x0d,
        't' => 0x09,
        'v' => 0x0b,
        'x' | 'X' => hex(chars, 2)?,
        'U' => hex(chars, 8)?,
        'u' => {
            let high = hex(chars, 4)?;
            if (0xd800..0xdc00).contains(&high) {
                // A surrogate pair spells a code point beyond the BMP.
                let pair = matches!(chars.next(), Some((_, '\\'))) && matches!(chars.next(), Some((_, 'u')));
                let low = if pair { hex(chars, 4)? } else { 0 };
                if !(0xdc00..0xe000).contains(&low) {
                    return Err(invalid("a high surrogate must be followed by a \\u low surrogate"));
                }
                0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00)
            } else {
                high
            }
        }
        '0'..='3' => {
            let rest = digits(chars, 2, 8).ok_or_else(|| invalid("an octal escape takes three digits"))?;
            (c as u32 - u32::from(b'0')) * 64 + rest
        }
        other => return Err(invalid(&format!("'\\{other}'"))),
    };
    char::from_u32(code).ok_or_else(|| invalid("not a Unicode scalar value"))
}
