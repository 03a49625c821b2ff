//! One complete stdin line: an MCP message to pass on, or the error reply
//! it gets instead.

use std::borrow::Cow;

use rmcp::model::{ClientJsonRpcMessage, ClientRequest, ErrorData, JsonRpcMessage, RequestId};

use crate::transport::arguments_text::strip_arguments;
use crate::transport::sniff::sniff_id;

/// What to do with one complete line.
pub(super) enum Decoded {
    Message(Box<ClientJsonRpcMessage>),
    Reply(Option<RequestId>, ErrorData),
    Skip,
}

/// Decode `line`: invalid UTF-8 is replaced with U+FFFD (as the reference's
/// reader does), a `tools/call` keeps its arguments as text, and a line that
/// is no MCP message gets the JSON-RPC error that says why.
pub(super) fn decode(line: &[u8]) -> Decoded {
    let text = String::from_utf8_lossy(line);
    if let Cow::Owned(_) = text {
        tracing::debug!("replaced invalid UTF-8 in an incoming message with U+FFFD");
    }
    let text = text.trim_start_matches('\u{feff}').trim();
    if text.is_empty() {
        return Decoded::Skip;
    }
    if let Some(message) = call_keeping_arguments(text) {
        return Decoded::Message(Box::new(message));
    }
    let err = match serde_json::from_str::<ClientJsonRpcMessage>(text) {
        Ok(message) => return Decoded::Message(Box::new(message)),
        Err(err) => err,
    };
    let id = sniff_id(text.as_bytes());
    if err.classify() == serde_json::error::Category::Data {
        // Well-formed JSON that is no MCP message. Without an id it is a
        // notification nobody waits on (rmcp ignores unknown ones too).
        return match id {
            Some(id) => Decoded::Reply(Some(id), ErrorData::invalid_request(format!("Invalid request: {err}"), None)),
            None => {
                tracing::debug!("ignoring a message that is not a known MCP notification: {err}");
                Decoded::Skip
            }
        };
    }
    let why = if err.to_string().contains("recursion limit exceeded") {
        "the message is nested more than 128 levels deep".to_owned()
    } else {
        format!("the message is not valid JSON ({err})")
    };
    Decoded::Reply(id, ErrorData::parse_error(format!("Parse error: {why}"), None))
}

/// A `tools/call` parsed with `{}` for its arguments, their text in the
/// request's extensions. `None` when the message is anything else, or
/// cannot be taken apart: it is then parsed whole, as before.
fn call_keeping_arguments(text: &str) -> Option<ClientJsonRpcMessage> {
    let (stripped, arguments) = strip_arguments(text)?;
    let mut message: ClientJsonRpcMessage = serde_json::from_str(&stripped).ok()?;
    let JsonRpcMessage::Request(request) = &mut message else {
        return None;
    };
    let ClientRequest::CallToolRequest(call) = &mut request.request else {
        return None;
    };
    call.extensions.insert(arguments);
    Some(message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::RawArguments;

    #[test]
    fn a_valid_request_is_passed_on() {
        let line = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
        assert!(matches!(decode(line), Decoded::Message(_)));
    }

    #[test]
    fn invalid_utf8_is_replaced_not_refused() {
        let line = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\",\"arguments\":{\"k\":\"\xff\xfe\"}}}";
        assert!(matches!(decode(line), Decoded::Message(_)));
    }

    #[test]
    fn garbage_gets_a_parse_error_with_the_id_when_there_is_one() {
        match decode(br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"#) {
            Decoded::Reply(Some(RequestId::Number(5)), error) => assert_eq!(error.code.0, -32700),
            _ => panic!("expected a parse error for id 5"),
        }
        match decode(b"hello") {
            Decoded::Reply(None, error) => assert_eq!(error.code.0, -32700),
            _ => panic!("expected a parse error with a null id"),
        }
    }

    #[test]
    fn deep_nesting_gets_a_parse_error_that_says_so() {
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{{"name":"reconcile","arguments":{{"movements":{}{}}}}}}}"#,
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        match decode(line.as_bytes()) {
            Decoded::Reply(Some(RequestId::Number(8)), error) => {
                assert_eq!(error.code.0, -32700);
                assert!(error.message.contains("nested more than 128 levels"), "{}", error.message);
            }
            _ => panic!("expected a parse error for id 8"),
        }
    }

    #[test]
    fn a_wrongly_shaped_request_is_invalid_and_an_unknown_notification_ignored() {
        match decode(br#"{"jsonrpc":"2.0","id":"x","method":5}"#) {
            Decoded::Reply(Some(_), error) => assert_eq!(error.code.0, -32600),
            _ => panic!("expected an invalid request"),
        }
        assert!(matches!(
            decode(br#"{"jsonrpc":"2.0","method":"$/lsp-thing","params":[1]}"#),
            Decoded::Skip | Decoded::Message(_)
        ));
    }

    #[test]
    fn a_calls_arguments_ride_beside_it_as_text() {
        let arguments = r#"{"rows": [{"k": 1.50}], "key":"k"}"#;
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"count_distinct","arguments":{arguments}}}}}"#
        );
        let Decoded::Message(message) = decode(line.as_bytes()) else { panic!("expected a message") };
        let JsonRpcMessage::Request(request) = *message else { panic!("expected a request") };
        let ClientRequest::CallToolRequest(call) = request.request else { panic!("expected a tools/call") };
        assert_eq!(call.params.arguments, Some(serde_json::Map::new()));
        assert_eq!(call.extensions.get::<RawArguments>().map(|raw| raw.0.to_string()).as_deref(), Some(arguments));
    }
}
