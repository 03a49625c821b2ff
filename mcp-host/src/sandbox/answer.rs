//! Decoding the module's result buffer: a status byte, then JSON.

use serde::Deserialize;
use serde_json::Value;

use crate::output_files::OutputError;

/// Status byte of a result envelope (wasm/src/abi.rs `STATUS_OK`).
pub(crate) const STATUS_OK: u8 = 0;
/// Status byte of an argument error (wasm/src/abi.rs `STATUS_ARGUMENT_ERROR`).
const STATUS_ARGUMENT_ERROR: u8 = 1;
/// Status byte of a result envelope after the spans of an export's files
/// (wasm/src/abi.rs `STATUS_OK_WITH_FILES`).
pub(crate) const STATUS_OK_WITH_FILES: u8 = 2;

/// One exported file's span: four little-endian u32s (name address, name
/// length, bytes address, bytes length).
const SPAN_BYTES: usize = 16;

/// Where one exported file's name and bytes lie in linear memory.
pub(crate) type FileSpan = [std::ops::Range<usize>; 2];

/// Split a [`STATUS_OK_WITH_FILES`] buffer's body into its file spans, as
/// (name, bytes) ranges of linear memory, and the JSON after them.
pub(crate) fn split_files(body: &[u8]) -> Result<(Vec<FileSpan>, &[u8]), String> {
    let word = |bytes: &[u8], at: usize| -> Result<usize, String> {
        let word = bytes.get(at..at + 4).ok_or("the file table is cut short")?;
        Ok(u32::from_le_bytes([word[0], word[1], word[2], word[3]]) as usize)
    };
    let count = word(body, 0)?;
    let table_end = count.checked_mul(SPAN_BYTES).and_then(|size| size.checked_add(4)).ok_or("too many files")?;
    if table_end > body.len() {
        return Err(format!("the file table of {count} files is longer than the result"));
    }
    let spans = (0..count)
        .map(|index| {
            let at = 4 + index * SPAN_BYTES;
            let (name, name_len) = (word(body, at)?, word(body, at + 4)?);
            let (data, data_len) = (word(body, at + 8)?, word(body, at + 12)?);
            Ok([name..name + name_len, data..data + data_len])
        })
        .collect::<Result<_, String>>()?;
    Ok((spans, &body[table_end..]))
}

/// What the core answered.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// The result envelope as the module wrote it: compact JSON, key order
    /// and number spellings as the core chose them. Not parsed here: the
    /// stdio transport passes it on as text, and whoever needs a tree parses
    /// it ([`parse`]).
    Result(String),
    /// A malformed call, as the core reported it.
    ArgumentError(ArgumentError),
    /// The core answered with the files of an export, and the host could not
    /// write them (so the result, which describes them, is not returned).
    NotWritten(OutputError),
}

/// The core's `ToolError`, as it crosses the byte ABI.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ArgumentError {
    /// `ErrorCode::as_str`: `invalid_contract`, `argument_type`, ...
    pub code: String,
    /// The reference server's message for this error.
    pub message: String,
    /// The argument at fault, when there is one.
    pub argument: Option<String>,
    /// Where in the arguments the fault is (`columns[2].pattern`), when it
    /// is in one place.
    #[serde(default)]
    pub location: Option<String>,
    /// For a fault in `csv` text, its line.
    #[serde(default)]
    pub line: Option<u64>,
}

/// A result buffer's status byte and its JSON. `Err` for an empty buffer.
pub(crate) fn split_status(buffer: &[u8]) -> Result<(u8, &[u8]), String> {
    let (status, json) = buffer.split_first().ok_or("empty result buffer")?;
    Ok((*status, json))
}

impl Answer {
    /// Decode a result buffer's status byte and JSON. `Err` means the module
    /// broke the ABI (or wrote a result that is not UTF-8).
    pub fn decode(status: u8, json: Vec<u8>) -> Result<Answer, String> {
        match status {
            STATUS_OK => {
                String::from_utf8(json).map(Answer::Result).map_err(|err| format!("result is not UTF-8: {err}"))
            }
            STATUS_ARGUMENT_ERROR => serde_json::from_slice(&json)
                .map(Answer::ArgumentError)
                .map_err(|err| format!("malformed argument error: {err}")),
            other => Err(format!("unknown status byte {other}")),
        }
    }

    /// `result` or `argument_error`, for logs.
    pub fn kind(&self) -> &'static str {
        match self {
            Answer::Result(_) => "result",
            Answer::ArgumentError(_) => "argument_error",
            Answer::NotWritten(_) => "export_not_written",
        }
    }
}

/// Parse the module's JSON without `serde_json`'s nesting limit of 128: the
/// module echoes the caller's rows a few levels down, so a result may nest a
/// little deeper than any input the limit let through. The depth stays
/// bounded by that input's depth, so the recursion is too.
pub(crate) fn parse(json: &[u8]) -> Result<Value, String> {
    let mut deserializer = serde_json::Deserializer::from_slice(json);
    deserializer.disable_recursion_limit();
    let value = Value::deserialize(&mut deserializer).map_err(|err| format!("result is not JSON: {err}"))?;
    deserializer.end().map_err(|err| format!("result is not one JSON value: {err}"))?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A whole result buffer, split as `call.rs` splits it.
    fn decode(buffer: &[u8]) -> Result<Answer, String> {
        let (status, json) = split_status(buffer)?;
        Answer::decode(status, json.to_vec())
    }

    #[test]
    fn a_result_is_the_modules_text_and_parses_with_key_order_and_number_kinds() {
        let answer = decode(b"\x00{\"b\":20.0,\"a\":20}").unwrap();
        assert_eq!(answer, Answer::Result(r#"{"b":20.0,"a":20}"#.into()));
        let Answer::Result(text) = answer else { unreachable!() };
        assert_eq!(parse(text.as_bytes()).unwrap().to_string(), r#"{"b":20.0,"a":20}"#);
    }

    #[test]
    fn an_argument_error_is_decoded() {
        let answer = decode(b"\x01{\"code\":\"argument_type\",\"message\":\"m\",\"argument\":\"key\"}").unwrap();
        assert_eq!(
            answer,
            Answer::ArgumentError(ArgumentError {
                code: "argument_type".into(),
                message: "m".into(),
                argument: Some("key".into()),
                location: None,
                line: None,
            })
        );
        let answer = decode(b"\x01{\"code\":\"argument_type\",\"message\":\"m\",\"argument\":null}").unwrap();
        assert!(matches!(answer, Answer::ArgumentError(err) if err.code == "argument_type" && err.argument.is_none()));
        let answer = decode(
            b"\x01{\"code\":\"invalid_argument\",\"message\":\"m\",\"argument\":\"csv\",\"location\":\"csv\",\"line\":3}",
        )
        .unwrap();
        assert!(
            matches!(answer, Answer::ArgumentError(err) if err.location.as_deref() == Some("csv") && err.line == Some(3))
        );
    }

    #[test]
    fn a_broken_buffer_is_an_error_not_a_panic() {
        for buffer in [&b""[..], b"\x02{}", b"\x00\xff", b"\x01{\"code\":1}", b"\x01{"] {
            assert!(decode(buffer).is_err(), "{buffer:?}");
        }
        // A result is checked when it is parsed.
        for text in [&b"{"[..], b"{} {}"] {
            assert!(parse(text).is_err(), "{text:?}");
        }
    }
}
