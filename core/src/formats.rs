//! The string formats a column's `format` rule can name, with the meaning
//! JSON Schema 2020-12 gives them: `email`, `uuid`, `uri`, `ipv4`, `ipv6`.
//!
//! The validators are written by hand rather than as regular expressions:
//! this check runs on every cell of files with millions of rows, and each
//! validator here is one left-to-right pass over the bytes that allocates
//! nothing, where the RFC grammars as regexes would be large (the IPv6 one
//! alone is nine alternatives) and slow to build and run. Written out, each
//! grammar is also readable next to the RFC it comes from. They are held to
//! the official JSON-Schema-Test-Suite (committed under
//! `tests/json-schema-test-suite/`) by this module's tests.
//!
//! Every format is ASCII only: a byte outside ASCII never matches (the
//! non-ASCII formats are `idn-email` and `iri`, which this module does not
//! have). Whitespace is never trimmed.
//!
//! What each format accepts:
//!
//! * `ipv4`: RFC 2673's dotted quad, as JSON Schema means it: exactly four
//!   decimal octets `0`–`255` separated by single dots, ASCII digits only,
//!   no signs, no shorthand (`127.1`), nothing before or after, and no
//!   leading zeros (RFC 3986's `dec-octet`). The last is a choice: the suite
//!   (at the commit we hold) has no case either way and its comment reads
//!   RFC 2673 as allowing them, but `010` is octal to some parsers
//!   (CVE-2021-28918), the suite rejected such octets until 2026, and it
//!   still rejects them in the dotted quad inside an `ipv6` or a `uri`.
//! * `ipv6`: RFC 4291 §2.2 text forms: eight groups of one to four hex
//!   digits (either case) separated by colons; or at most seven with one
//!   `::` standing for the missing ones; the last two groups may be written
//!   as an `ipv4` dotted quad (as strict as `ipv4`). No zone ids (`%eth0`),
//!   no prefix lengths (`/64`), no brackets.
//! * `uuid`: RFC 9562 (formerly 4122) text form: 32 hex digits, either case,
//!   as `8-4-4-4-12` with hyphens. Any version and variant nibble.
//! * `uri`: RFC 3986 `URI` (§3): a scheme (a letter, then letters, digits,
//!   `+ - .`) and `:`, then either `//` authority and a path, or a path
//!   alone; then an optional `?query` and an optional `#fragment`. Each part
//!   allows exactly its RFC characters, and `%` must start a `%XX` hex
//!   escape. The authority is `[userinfo@]host[:port]` with a numeric (or
//!   empty) port, and the host is a reg-name (which also covers any dotted
//!   quad, so `999.999.999.999` is a valid host, as the RFC has it) or a
//!   bracketed IP literal: an `ipv6` address or an `IPvFuture`
//!   (`v1.anything`). Relative references (`//host/x`, `/x`) are not URIs.
//! * `email`: RFC 5321 §4.1.2 `Mailbox`: a local part, `@`, a domain.
//!   - The local part is a dot-atom (atoms of RFC 5322 `atext`: letters,
//!     digits and ``! # $ % & ' * + - / = ? ^ _ ` { | } ~``, joined by single
//!     dots, none at either end) or a quoted string (`"..."`, any printable
//!     ASCII or space inside, `\` escaping any printable ASCII or space).
//!   - The domain is dot-separated labels of letters, digits and hyphens,
//!     each starting and ending with a letter or digit (a single label, such
//!     as `localhost`, is allowed, as the grammar allows it); or an address
//!     literal: `[` dotted quad `]` or `[IPv6:` address `]` (the tag in any
//!     case, as ABNF literals are).
//!   - Lengths (RFC 5321 §4.5.3.1): the local part at most 64 octets
//!     (quotes included), the whole address at most 254 (a path is at most
//!     256, angle brackets included), each label at most 63 (RFC 1035).
//!
//!   Where this is a subset of RFC 5321: the dotted quad of an address
//!   literal (also inside an IPv6 literal) is checked as `ipv4`, so it may
//!   not have leading zeros, which RFC 5321's `Snum` allows (`[127.0.0.01]`
//!   is rejected); and a General-address-literal (`[tag:content]` with a tag
//!   other than `IPv6`) is rejected, since its tag must be registered with
//!   IANA and the registry holds only `IPv6`. Where it is a superset: the
//!   IPv6 literal is checked as `ipv6` (RFC 4291), which lets `::` stand for
//!   a single group, where RFC 5321's own `IPv6-comp` has it stand for at
//!   least two (so `[IPv6:1:2:3:4:5:6::7]` is accepted). No suite case
//!   touches either corner.

/// A string format from JSON Schema 2020-12 that a column can be held to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    /// `email`: an RFC 5321 mailbox (`joe.bloggs@example.com`).
    Email,
    /// `uuid`: an RFC 9562 UUID in its `8-4-4-4-12` hex text form.
    Uuid,
    /// `uri`: an absolute RFC 3986 URI, scheme required.
    Uri,
    /// `ipv4`: an IPv4 address as a dotted quad (`192.168.0.1`).
    Ipv4,
    /// `ipv6`: an IPv6 address in an RFC 4291 text form (`::1`).
    Ipv6,
}

impl Format {
    /// Every format, in the order of the enum.
    pub(crate) const ALL: [Format; 5] = [Format::Email, Format::Uuid, Format::Uri, Format::Ipv4, Format::Ipv6];

    /// The format's JSON Schema name, as a contract writes it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Format::Email => "email",
            Format::Uuid => "uuid",
            Format::Uri => "uri",
            Format::Ipv4 => "ipv4",
            Format::Ipv6 => "ipv6",
        }
    }

    /// The format called `name` (exactly, as JSON Schema names are case
    /// sensitive), or `None` for a name this module does not have.
    pub(crate) fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|format| format.name() == name)
    }

    /// Whether `text`, all of it, is in this format.
    pub(crate) fn matches(self, text: &str) -> bool {
        let bytes = text.as_bytes();
        match self {
            Format::Email => is_email(bytes),
            Format::Uuid => is_uuid(bytes),
            Format::Uri => is_uri(bytes),
            Format::Ipv4 => is_ipv4(bytes),
            Format::Ipv6 => is_ipv6(bytes),
        }
    }

    /// What a value in this format is, as a finding's message says it
    /// ("... is not {describe}").
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Format::Email => "an email address (RFC 5321 mailbox)",
            Format::Uuid => "a UUID (8-4-4-4-12 hex digits)",
            Format::Uri => "an absolute URI (RFC 3986, with a scheme)",
            Format::Ipv4 => "an IPv4 address (dotted quad)",
            Format::Ipv6 => "an IPv6 address (RFC 4291)",
        }
    }
}

// ---------------------------------------------------------------- ipv4, ipv6

/// RFC 3986 `IPv4address`: four `dec-octet`s joined by dots (RFC 2673's
/// dotted quad, without leading zeros).
fn is_ipv4(bytes: &[u8]) -> bool {
    let mut octets = 0;
    for octet in bytes.split(|&byte| byte == b'.') {
        octets += 1;
        if octets > 4 || !is_dec_octet(octet) {
            return false;
        }
    }
    octets == 4
}

/// RFC 3986 `dec-octet`: `0`–`255` in decimal without leading zeros.
fn is_dec_octet(octet: &[u8]) -> bool {
    match *octet {
        [digit] | [b'1'..=b'9', digit] => digit.is_ascii_digit(),
        [b'1', tens, ones] => tens.is_ascii_digit() && ones.is_ascii_digit(),
        [b'2', b'0'..=b'4', ones] => ones.is_ascii_digit(),
        [b'2', b'5', b'0'..=b'5'] => true,
        _ => false,
    }
}

/// RFC 4291 §2.2 text forms (the RFC 3986 `IPv6address` grammar): eight
/// 16-bit groups, or at most seven with one `::`; an IPv4 dotted quad may
/// stand for the last two.
fn is_ipv6(bytes: &[u8]) -> bool {
    match bytes.windows(2).position(|pair| pair == b"::") {
        // Neither side may hold another `::` or a stray colon: `h16_groups`
        // rejects an empty group, which is what either leaves.
        Some(at) => match (h16_groups(&bytes[..at], false), h16_groups(&bytes[at + 2..], true)) {
            (Some(head), Some(tail)) => head + tail <= 7,
            _ => false,
        },
        None => h16_groups(bytes, true) == Some(8),
    }
}

/// How many 16-bit groups `part` writes: `h16`s (one to four hex digits)
/// joined by single colons, the last of which may be a dotted quad (two
/// groups) when `ipv4_last`. Nothing is no groups; `None` when malformed.
fn h16_groups(part: &[u8], ipv4_last: bool) -> Option<usize> {
    if part.is_empty() {
        return Some(0);
    }
    let mut groups = 0;
    let mut pieces = part.split(|&byte| byte == b':').peekable();
    while let Some(piece) = pieces.next() {
        if (1..=4).contains(&piece.len()) && piece.iter().all(u8::is_ascii_hexdigit) {
            groups += 1;
        } else if ipv4_last && pieces.peek().is_none() && is_ipv4(piece) {
            groups += 2;
        } else {
            return None;
        }
        if groups > 8 {
            return None;
        }
    }
    Some(groups)
}

// ---------------------------------------------------------------------- uuid

/// RFC 9562 §4 text form: `8-4-4-4-12` hex digits, either case.
fn is_uuid(bytes: &[u8]) -> bool {
    bytes.len() == 36
        && bytes.iter().enumerate().all(|(at, &byte)| match at {
            8 | 13 | 18 | 23 => byte == b'-',
            _ => byte.is_ascii_hexdigit(),
        })
}

// ----------------------------------------------------------------------- uri

/// RFC 3986 `unreserved`.
fn is_unreserved(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~')
}

/// RFC 3986 `sub-delims`.
fn is_sub_delim(byte: u8) -> bool {
    matches!(byte, b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'=')
}

/// RFC 3986 `pchar`, less `pct-encoded` (which `is_encoded` handles).
fn is_pchar(byte: u8) -> bool {
    is_unreserved(byte) || is_sub_delim(byte) || matches!(byte, b':' | b'@')
}

/// A path: `pchar`s and slashes (RFC 3986 `path-abempty`, `path-absolute`,
/// `path-rootless` and `path-empty` differ only in where they may start,
/// which the caller has settled).
fn is_path_byte(byte: u8) -> bool {
    is_pchar(byte) || byte == b'/'
}

/// RFC 3986 `query` and `fragment`: `pchar`s, `/` and `?`.
fn is_query_byte(byte: u8) -> bool {
    is_pchar(byte) || matches!(byte, b'/' | b'?')
}

/// Whether every byte of `part` is `allowed` or starts a `%XX` escape
/// (RFC 3986 `pct-encoded`).
fn is_encoded(part: &[u8], allowed: fn(u8) -> bool) -> bool {
    let mut at = 0;
    while let Some(&byte) = part.get(at) {
        if byte == b'%' {
            match part.get(at + 1..at + 3) {
                Some([high, low]) if high.is_ascii_hexdigit() && low.is_ascii_hexdigit() => at += 3,
                _ => return false,
            }
        } else if allowed(byte) {
            at += 1;
        } else {
            return false;
        }
    }
    true
}

/// `bytes` split at the first `delimiter`: what is before it, and what is
/// after it if it is there.
fn split_at_first(bytes: &[u8], delimiter: u8) -> (&[u8], Option<&[u8]>) {
    match bytes.iter().position(|&byte| byte == delimiter) {
        Some(at) => (&bytes[..at], Some(&bytes[at + 1..])),
        None => (bytes, None),
    }
}

/// RFC 3986 §3 `URI`: `scheme ":" hier-part [ "?" query ] [ "#" fragment ]`.
fn is_uri(bytes: &[u8]) -> bool {
    let (scheme, Some(rest)) = split_at_first(bytes, b':') else { return false };
    if !is_scheme(scheme) {
        return false;
    }
    // Neither `?` nor `#` can be in a hier-part, and `#` not in a query.
    let (rest, fragment) = split_at_first(rest, b'#');
    let (hier_part, query) = split_at_first(rest, b'?');
    if !query.is_none_or(|query| is_encoded(query, is_query_byte))
        || !fragment.is_none_or(|fragment| is_encoded(fragment, is_query_byte))
    {
        return false;
    }
    match hier_part.strip_prefix(b"//") {
        // `"//" authority path-abempty`: the path is empty or starts with `/`.
        Some(after) => {
            let end = after.iter().position(|&byte| byte == b'/').unwrap_or(after.len());
            is_authority(&after[..end]) && is_encoded(&after[end..], is_path_byte)
        }
        // `path-absolute`, `path-rootless` or `path-empty`; none can start
        // with `//`, which always means an authority.
        None => is_encoded(hier_part, is_path_byte),
    }
}

/// RFC 3986 `scheme`: a letter, then letters, digits, `+`, `-` and `.`.
fn is_scheme(scheme: &[u8]) -> bool {
    match scheme.split_first() {
        Some((first, rest)) => {
            first.is_ascii_alphabetic()
                && rest.iter().all(|&byte| byte.is_ascii_alphanumeric() || matches!(byte, b'+' | b'-' | b'.'))
        }
        None => false,
    }
}

/// RFC 3986 `authority`: `[ userinfo "@" ] host [ ":" port ]`.
fn is_authority(authority: &[u8]) -> bool {
    // `@` is in neither a userinfo nor a host, so the first one splits.
    let host_port = match split_at_first(authority, b'@') {
        (userinfo, Some(host_port)) => {
            if !is_encoded(userinfo, |byte| is_unreserved(byte) || is_sub_delim(byte) || byte == b':') {
                return false;
            }
            host_port
        }
        (host_port, None) => host_port,
    };
    let (host_ok, port) = if let Some(literal) = host_port.strip_prefix(b"[") {
        let (literal, after) = split_at_first(literal, b']');
        match after {
            Some(after) => (is_ip_literal(literal), after),
            None => return false,
        }
    } else {
        // A reg-name has no `:`, so the first one starts the port.
        let end = host_port.iter().position(|&byte| byte == b':').unwrap_or(host_port.len());
        (is_encoded(&host_port[..end], |byte| is_unreserved(byte) || is_sub_delim(byte)), &host_port[end..])
    };
    host_ok
        && match port.split_first() {
            Some((b':', digits)) => digits.iter().all(u8::is_ascii_digit),
            Some(_) => false,
            None => true,
        }
}

/// What is between the brackets of RFC 3986 `IP-literal`: an IPv6 address,
/// or `IPvFuture` (`"v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`).
fn is_ip_literal(literal: &[u8]) -> bool {
    match literal {
        [b'v' | b'V', rest @ ..] => {
            let (version, Some(address)) = split_at_first(rest, b'.') else { return false };
            !version.is_empty()
                && version.iter().all(u8::is_ascii_hexdigit)
                && !address.is_empty()
                && address.iter().all(|&byte| is_unreserved(byte) || is_sub_delim(byte) || byte == b':')
        }
        _ => is_ipv6(literal),
    }
}

// --------------------------------------------------------------------- email

/// The longest local part RFC 5321 §4.5.3.1.1 allows, in octets.
const MAX_LOCAL_PART: usize = 64;
/// The longest mailbox: a path (RFC 5321 §4.5.3.1.3) is at most 256 octets,
/// and it is the mailbox in angle brackets.
const MAX_MAILBOX: usize = 254;
/// The longest domain label (RFC 1035 §2.3.4), in octets.
const MAX_LABEL: usize = 63;

/// RFC 5321 §4.1.2 `Mailbox`: `Local-part "@" ( Domain / address-literal )`,
/// within the lengths of §4.5.3.1 (see the module's documentation).
fn is_email(bytes: &[u8]) -> bool {
    if bytes.len() > MAX_MAILBOX {
        return false;
    }
    let Some(at) = local_part_end(bytes) else { return false };
    let domain = &bytes[at + 1..];
    at <= MAX_LOCAL_PART && (is_domain(domain) || is_address_literal(domain))
}

/// Where the `@` after a well-formed local part at the start of `bytes` is:
/// a `Quoted-string` or a `Dot-string` (RFC 5321 §4.1.2).
fn local_part_end(bytes: &[u8]) -> Option<usize> {
    if bytes.first() == Some(&b'"') {
        // `qtextSMTP` is printable ASCII and space but `"` and `\`;
        // `quoted-pairSMTP` is `\` and any printable ASCII or space.
        let mut at = 1;
        loop {
            match *bytes.get(at)? {
                b'"' => break,
                b'\\' => {
                    if !(b' '..=b'~').contains(bytes.get(at + 1)?) {
                        return None;
                    }
                    at += 2;
                }
                b' '..=b'~' => at += 1,
                _ => return None,
            }
        }
        (bytes.get(at + 1) == Some(&b'@')).then_some(at + 1)
    } else {
        // `@` is not `atext`, so the first one ends a dot-string.
        let at = bytes.iter().position(|&byte| byte == b'@')?;
        bytes[..at]
            .split(|&byte| byte == b'.')
            .all(|atom| !atom.is_empty() && atom.iter().all(|&byte| is_atext(byte)))
            .then_some(at)
    }
}

/// RFC 5322 `atext`.
fn is_atext(byte: u8) -> bool {
    byte.is_ascii_alphanumeric()
        || matches!(
            byte,
            b'!' | b'#'
                | b'$'
                | b'%'
                | b'&'
                | b'\''
                | b'*'
                | b'+'
                | b'-'
                | b'/'
                | b'='
                | b'?'
                | b'^'
                | b'_'
                | b'`'
                | b'{'
                | b'|'
                | b'}'
                | b'~'
        )
}

/// RFC 5321 `Domain`: `sub-domain *("." sub-domain)`, each sub-domain a
/// letter or digit, then letters, digits and hyphens, ending in a letter or
/// digit, and at most 63 octets.
fn is_domain(domain: &[u8]) -> bool {
    domain.split(|&byte| byte == b'.').all(|label| match (label.first(), label.last()) {
        (Some(first), Some(last)) => {
            label.len() <= MAX_LABEL
                && first.is_ascii_alphanumeric()
                && last.is_ascii_alphanumeric()
                && label.iter().all(|&byte| byte.is_ascii_alphanumeric() || byte == b'-')
        }
        _ => false,
    })
}

/// RFC 5321 `address-literal`, as the module's documentation says:
/// `[` dotted quad `]` or `[IPv6:` address `]`.
fn is_address_literal(domain: &[u8]) -> bool {
    let Some(literal) = domain.strip_prefix(b"[").and_then(|rest| rest.strip_suffix(b"]")) else { return false };
    match literal.split_at_checked(5) {
        Some((tag, address)) if tag.eq_ignore_ascii_case(b"IPv6:") => is_ipv6(address),
        _ => is_ipv4(literal),
    }
}

#[cfg(test)]
mod tests {
    use super::Format;
    use serde_json::Value;

    /// The suite's five format files, by format.
    const SUITE: [(Format, &str); 5] = [
        (Format::Email, include_str!("../../tests/json-schema-test-suite/draft2020-12/optional/format/email.json")),
        (Format::Uuid, include_str!("../../tests/json-schema-test-suite/draft2020-12/optional/format/uuid.json")),
        (Format::Uri, include_str!("../../tests/json-schema-test-suite/draft2020-12/optional/format/uri.json")),
        (Format::Ipv4, include_str!("../../tests/json-schema-test-suite/draft2020-12/optional/format/ipv4.json")),
        (Format::Ipv6, include_str!("../../tests/json-schema-test-suite/draft2020-12/optional/format/ipv6.json")),
    ];

    /// Suite cases this module answers differently on purpose: format name,
    /// the case's `data`, and why. Each must still differ (the test fails on
    /// an entry that no longer does, or that names no suite case).
    const DEVIATIONS: &[(&str, &str, &str)] = &[];

    #[test]
    fn the_json_schema_test_suite() {
        let mut failures = Vec::new();
        let mut deviations_seen = vec![false; DEVIATIONS.len()];
        let mut counts = Vec::new();
        for (format, file) in SUITE {
            let groups: Value = serde_json::from_str(file).expect("a suite file is JSON");
            let mut checked = 0;
            for group in groups.as_array().expect("a suite file is an array of groups") {
                assert_eq!(group["schema"]["format"], format.name(), "the file is the suite's {} file", format.name());
                for case in group["tests"].as_array().expect("a group has tests") {
                    // A format applies only to strings: JSON Schema calls any
                    // other value valid, and a cell this rule sees is text,
                    // so the suite's non-string cases have nothing to check.
                    let Value::String(data) = &case["data"] else { continue };
                    let valid = case["valid"].as_bool().expect("a case says whether it is valid");
                    checked += 1;
                    let got = format.matches(data);
                    let deviation =
                        DEVIATIONS.iter().position(|&(name, text, _)| name == format.name() && text == data);
                    if let Some(index) = deviation {
                        deviations_seen[index] = true;
                        if got != valid {
                            continue;
                        }
                        failures.push(format!(
                            "{}: {data:?} is listed as a deviation but now agrees ({valid})",
                            format.name()
                        ));
                    } else if got != valid {
                        let description = &case["description"];
                        failures.push(format!(
                            "{}: {data:?} ({description}): suite says {valid}, got {got}",
                            format.name()
                        ));
                    }
                }
            }
            assert!(checked >= 20, "{}: only {checked} string cases in the suite file", format.name());
            counts.push(format!("{} {checked}", format.name()));
        }
        for (seen, (name, data, _)) in deviations_seen.into_iter().zip(DEVIATIONS) {
            if !seen {
                failures.push(format!("{name}: deviation {data:?} is not a suite case"));
            }
        }
        println!("JSON-Schema-Test-Suite format cases checked: {}", counts.join(", "));
        assert!(failures.is_empty(), "{} suite cases fail:\n{}", failures.len(), failures.join("\n"));
    }

    /// Assert that `format` accepts each of `valid` and rejects each of `invalid`.
    fn check(format: Format, valid: &[&str], invalid: &[&str]) {
        for text in valid {
            assert!(format.matches(text), "{} should accept {text:?}", format.name());
        }
        for text in invalid {
            assert!(!format.matches(text), "{} should reject {text:?}", format.name());
        }
    }

    #[test]
    fn names_round_trip() {
        for format in Format::ALL {
            assert_eq!(Format::from_name(format.name()), Some(format));
            assert!(!format.describe().is_empty());
        }
        assert_eq!(Format::from_name("Email"), None, "names are case sensitive");
        assert_eq!(Format::from_name("date-time"), None);
        assert_eq!(Format::from_name(""), None);
    }

    #[test]
    fn ipv4() {
        check(
            Format::Ipv4,
            &["0.0.0.0", "1.2.3.4", "9.99.199.249", "250.251.252.255", "100.200.10.0"],
            &[
                "256.0.0.1",
                "0.0.0.256",
                "1.2.3.260",
                "1.2.3.300",
                "00.0.0.0",
                "1.2.3.04",
                "1.2.3.4.",
                "1.2.3.4.5",
                "1.2.3",
                "1..3.4",
                "1.2.3.1000",
                "1.2.3.a",
                "1.2.3.-4",
                "",
                ".",
                "...",
                "1.2.3.4/32",
                "1.2.3.\u{0664}",
            ],
        );
    }

    #[test]
    fn ipv6() {
        check(
            Format::Ipv6,
            &[
                "::ffff:192.168.0.1",
                "::1.2.3.4",
                "1:2:3:4:5:6:1.2.3.4",
                "1:2:3:4:5::1.2.3.4",
                "1:2:3:4:5:6:7::",
                "::2:3:4:5:6:7:8",
                "1::8",
                "FFFF:abcd:0:00:000:0000:1:2",
                "fe80::1",
            ],
            &[
                "1::2::3",
                "1:2:3:4:5:6:7:8:9",
                "1:2:3:4:5:6:7:8::",
                "::1:2:3:4:5:6:7:8",
                "1:2:3:4:5:6::1.2.3.4",
                "1:2:3:4:5:6:7:1.2.3.4",
                "::1.2.3.4:5",
                "1.2.3.4::",
                "::01.2.3.4",
                "::1.2.3",
                "00000::",
                ":",
                ":::",
                "1:",
                ":1",
                "",
                "::g",
                "fe80::1%25eth0",
            ],
        );
    }

    #[test]
    fn uuid() {
        check(
            Format::Uuid,
            &["ffffffff-ffff-ffff-ffff-ffffffffffff", "01234567-89ab-cdef-ABCD-EF0123456789"],
            &[
                "",
                "{2eb8aa08-aa98-11ea-b4aa-73b441d16380}",
                "2eb8aa08-aa98-11ea-b4aa-73b441d1638g",
                "2eb8aa08-aa98-11ea-b4aa_73b441d16380",
                " 2eb8aa08-aa98-11ea-b4aa-73b441d1638",
                "2eb8aa08-aa98-11ea-b4aa-73b441d163800",
            ],
        );
    }

    #[test]
    fn uri() {
        check(
            Format::Uri,
            &[
                "http://example.com",
                "http://example.com:",
                "http://example.com:8080/a/b?c=d&e#f/g?h",
                "http://user:pass@example.com/",
                "http://@example.com",
                "file:///etc/hosts",
                "http://",
                "urn:isbn:0451450523",
                "a:",
                "a+b-c.d:x",
                "http://[::1]:80/",
                "http://[v1.fe80::a+en1]/",
                "http://example.com/%7e%7E",
                "http://ex%41mple.com/",
                "mailto:a@b?subject=hi%20there",
                "x:?#",
            ],
            &[
                "http://example.com/%zz",
                "http://example.com/%2",
                "http://ex%zample.com/",
                "http://example.com/a#b#c",
                "http://[::1",
                "http://[::1]x/",
                "http://[1.2.3.4]/",
                "http://[v1]/",
                "http://[v.x]/",
                "http://[fe80::1%25eth0]/",
                "http://a:b:80/",
                "http://a@b@c/",
                "http://exa mple.com/",
                "http://example.com/\u{e9}",
                "-http://example.com",
                ":",
                "",
                "a b:c",
                "http://example.com/\n",
            ],
        );
    }

    #[test]
    fn email() {
        let local_64 = format!("{}@example.com", "a".repeat(64));
        let local_65 = format!("{}@example.com", "a".repeat(65));
        let local_255 = format!("{}@example.com", "a".repeat(255));
        let label_63 = format!("joe@{}.com", "a".repeat(63));
        let label_64 = format!("joe@{}.com", "a".repeat(64));
        let mailbox_254 = format!("joe@{}.{}.{}.{}", "a".repeat(62), "b".repeat(62), "c".repeat(62), "d".repeat(61));
        let mailbox_255 = format!("joe@{}.{}.{}.{}", "a".repeat(62), "b".repeat(62), "c".repeat(62), "d".repeat(62));
        assert_eq!((mailbox_254.len(), mailbox_255.len()), (254, 255));
        check(
            Format::Email,
            &[
                &local_64,
                &label_63,
                &mailbox_254,
                "a@b",
                "joe@localhost",
                "a!#$%&'*+-/=?^_`{|}~@example.com",
                "joe@sub-domain.example-1.com",
                "joe@123.example",
                "\"\"@example.com",
                "\"a\\\"b\\\\c\"@example.com",
                "\"a.b@c d\"@example.com",
                "joe@[255.255.255.255]",
                "joe@[ipv6:2001:db8::1]",
                "joe@[IPv6:::ffff:1.2.3.4]",
                // Accepted as RFC 4291 has it; RFC 5321's IPv6-comp would not
                // (see the module's documentation).
                "joe@[IPv6:1:2:3:4:5:6::7]",
            ],
            &[
                &local_65,
                &local_255,
                &label_64,
                &mailbox_255,
                "",
                "@",
                "joe@",
                "joe@@example.com",
                "joe@example.com.",
                "joe@.example.com",
                "joe@example..com",
                "joe@-example.com",
                "joe@example-.com",
                "joe@exa_mple.com",
                "j\u{f6}e@example.com",
                "joe@ex\u{e4}mple.com",
                "\"joe@example.com",
                "\"joe\"x@example.com",
                "\"a\\\"@example.com",
                "\"a\nb\"@example.com",
                "joe@[127.0.0.01]",
                "joe@[1.2.3]",
                "joe@[IPv6:1.2.3.4]",
                "joe@[IPv6:::1",
                "joe@[x400:anything]",
                "joe@[]",
                " joe@example.com",
                "joe@example.com ",
                "joe(comment)@example.com",
            ],
        );
    }
}
