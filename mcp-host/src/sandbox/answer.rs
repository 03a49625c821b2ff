//! Decoding the module's result buffer: a status byte, then JSON.

use serde::Deserialize;
use serde_json::Value;

/// Status byte of a result envelope (wasm/src/abi.rs `STATUS_OK`).
const STATUS_OK: u8 = 0;
/// Status byte of an argument error (wasm/src/abi.rs `STATUS_ARGUMENT_ERROR`).
const STATUS_ARGUMENT_ERROR: u8 = 1;

/// What the core answered.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// The result envelope, key order and number kinds as the core wrote them.
    Result(Value),
    /// A malformed call, as the core reported it.
    ArgumentError(ArgumentError),
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
}

impl Answer {
    /// Decode a result buffer. `Err` means the module broke the ABI.
    pub fn decode(buffer: &[u8]) -> Result<Answer, String> {
        let (status, json) = buffer.split_first().ok_or("empty result buffer")?;
        match *status {
            STATUS_OK => parse(json).map(Answer::Result),
            STATUS_ARGUMENT_ERROR => {
                let value = parse(json)?;
                serde_json::from_value(value)
                    .map(Answer::ArgumentError)
                    .map_err(|err| format!("malformed argument error: {err}"))
            }
            other => Err(format!("unknown status byte {other}")),
        }
    }
}

/// What the core answered, with a result left as the module's JSON text.
#[derive(Debug, Clone, PartialEq)]
pub enum TextAnswer {
    /// The result envelope as the module wrote it: compact JSON, key order
    /// and number spellings as the core chose them. Not checked here.
    Result(String),
    /// A malformed call, as the core reported it.
    ArgumentError(ArgumentError),
}

impl TextAnswer {
    /// Decode a result buffer without parsing a result. `Err` means the
    /// module broke the ABI (or wrote a result that is not UTF-8).
    pub fn decode(mut buffer: Vec<u8>) -> Result<TextAnswer, String> {
        match buffer.first() {
            Some(&STATUS_OK) => {
                buffer.remove(0);
                String::from_utf8(buffer).map(TextAnswer::Result).map_err(|err| format!("result is not UTF-8: {err}"))
            }
            _ => match Answer::decode(&buffer)? {
                Answer::ArgumentError(err) => Ok(TextAnswer::ArgumentError(err)),
                Answer::Result(_) => unreachable!("a result buffer starts with STATUS_OK"),
            },
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

    #[test]
    fn a_result_keeps_key_order_and_number_kinds() {
        let Answer::Result(value) = Answer::decode(b"\x00{\"b\":20.0,\"a\":20}").unwrap() else { panic!() };
        assert_eq!(value.to_string(), r#"{"b":20.0,"a":20}"#);
    }

    #[test]
    fn an_argument_error_is_decoded() {
        let answer =
            Answer::decode(b"\x01{\"code\":\"argument_type\",\"message\":\"m\",\"argument\":\"key\"}").unwrap();
        assert_eq!(
            answer,
            Answer::ArgumentError(ArgumentError {
                code: "argument_type".into(),
                message: "m".into(),
                argument: Some("key".into())
            })
        );
    }

    #[test]
    fn a_text_answer_keeps_the_modules_text() {
        let answer = TextAnswer::decode(b"\x00{\"b\":20.0,\"a\":20}".to_vec()).unwrap();
        assert_eq!(answer, TextAnswer::Result(r#"{"b":20.0,"a":20}"#.into()));
        let answer =
            TextAnswer::decode(b"\x01{\"code\":\"argument_type\",\"message\":\"m\",\"argument\":null}".to_vec())
                .unwrap();
        assert!(matches!(answer, TextAnswer::ArgumentError(err) if err.code == "argument_type"));
        for buffer in [&b""[..], b"\x02{}", b"\x00\xff", b"\x01{\"code\":1}"] {
            assert!(TextAnswer::decode(buffer.to_vec()).is_err(), "{buffer:?}");
        }
    }

    #[test]
    fn a_broken_buffer_is_an_error_not_a_panic() {
        for buffer in [&b""[..], b"\x02{}", b"\x00{", b"\x00{} {}", b"\x01{\"code\":1}"] {
            assert!(Answer::decode(buffer).is_err(), "{buffer:?}");
        }
    }
}
