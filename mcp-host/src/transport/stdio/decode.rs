//! One complete stdin line: an MCP message to pass on, or the error reply
//! it gets instead.

use std::borrow::Cow;

use rmcp::model::{
    CallToolRequestMethod, ClientJsonRpcMessage, ClientRequest, ConstString as _, DiscoverRequestMethod, ErrorData,
    InitializeResultMethod, JsonRpcMessage, ListToolsRequestMethod, PingRequestMethod, RequestId,
};
use serde::Deserialize;
use serde_json::value::RawValue;

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
    // Valid UTF-8 is checked by the fast validator first (the lossy one reads
    // in chunks, several times slower on a large message).
    let text = std::str::from_utf8(line).map_or_else(|_| String::from_utf8_lossy(line), Cow::Borrowed);
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
        Ok(message) => return misread_request(&message).unwrap_or(Decoded::Message(Box::new(message))),
        Err(err) => err,
    };
    let id = sniff_id(text.as_bytes());
    if err.classify() == serde_json::error::Category::Data {
        return unusable(text, id, &err);
    }
    let why = if err.to_string().contains("recursion limit exceeded") {
        "the message is nested more than 128 levels deep".to_owned()
    } else {
        format!("the message is not valid JSON ({err})")
    };
    Decoded::Reply(id, ErrorData::parse_error(format!("Parse error: {why}"), None))
}

/// The top level of a message that rmcp refused, read without building its
/// `params`: enough to say why it was refused.
#[derive(Deserialize)]
struct Envelope<'a> {
    jsonrpc: Option<Cow<'a, str>>,
    /// `Some` whenever the member is there, `null` included.
    #[serde(default, deserialize_with = "present")]
    id: Option<Box<RawValue>>,
    method: Option<Cow<'a, str>>,
}

/// A member's value as it is, where `Option` alone would read `null` as absent.
fn present<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<Box<RawValue>>, D::Error> {
    Box::<RawValue>::deserialize(deserializer).map(Some)
}

/// The reply to well-formed JSON that is no MCP message (rmcp refused it).
/// Every message that could be a request is answered:
/// - a batch (JSON-RPC arrays; MCP has none since 2025-06-18): `-32600`;
/// - an `id` that is present but no string or integer (an object, `null`, a
///   float): `-32600` with `id: null`, since no valid id can be given back;
/// - a request of a well-formed shape whose `params` rmcp refused (a
///   `tools/call` with no `name`, say): `-32602` (rmcp takes any method,
///   known or not, so a refusal of such a shape is about its params);
/// - anything else with an id: `-32600`.
///
/// Without an id, it is a notification nobody waits on, and is ignored (as
/// rmcp ignores unknown ones).
fn unusable(text: &str, id: Option<RequestId>, err: &serde_json::Error) -> Decoded {
    if text.starts_with('[') {
        return Decoded::Reply(
            None,
            ErrorData::invalid_request(
                "Invalid request: JSON-RPC batches are not supported; send one message per line",
                None,
            ),
        );
    }
    let envelope: Option<Envelope<'_>> = serde_json::from_str(text).ok();
    let id_given = envelope.as_ref().and_then(|envelope| envelope.id.as_deref());
    if let (Some(raw), None) = (id_given, &id) {
        return Decoded::Reply(
            None,
            ErrorData::invalid_request(
                format!("Invalid request: the id must be a string or an integer, got {}", raw.get()),
                None,
            ),
        );
    }
    let Some(id) = id else {
        tracing::debug!("ignoring a message that is not a known MCP notification: {err}");
        return Decoded::Skip;
    };
    let well_shaped =
        envelope.is_some_and(|envelope| envelope.jsonrpc.as_deref() == Some("2.0") && envelope.method.is_some());
    let error = if well_shaped {
        ErrorData::invalid_params(format!("Invalid params: {err}"), None)
    } else {
        ErrorData::invalid_request(format!("Invalid request: {err}"), None)
    };
    Decoded::Reply(Some(id), error)
}

/// The methods this server serves whose params rmcp reads into a shape.
const SERVED_METHODS: [&str; 5] = [
    CallToolRequestMethod::VALUE,
    ListToolsRequestMethod::VALUE,
    InitializeResultMethod::VALUE,
    PingRequestMethod::VALUE,
    DiscoverRequestMethod::VALUE,
];

/// rmcp reads a request whose params do not fit its method as a request of
/// an unknown method, and answers `-32601` (method not found). For a method
/// this server serves, the fault is the params: `-32602`.
fn misread_request(message: &ClientJsonRpcMessage) -> Option<Decoded> {
    let JsonRpcMessage::Request(request) = message else { return None };
    let ClientRequest::CustomRequest(custom) = &request.request else { return None };
    SERVED_METHODS.contains(&custom.method.as_str()).then(|| {
        let hint = if custom.method == CallToolRequestMethod::VALUE {
            ": a tools/call takes {\"name\": <tool name>, \"arguments\": {...}}"
        } else {
            ""
        };
        Decoded::Reply(
            Some(request.id.clone()),
            ErrorData::invalid_params(format!("Invalid params for {}{hint}", custom.method), None),
        )
    })
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
    // This transport writes each reply line itself (`structured_text.rs`).
    call.extensions.insert(crate::structured_text::CarriesText);
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

    fn reply(line: &str) -> (Option<RequestId>, i32) {
        match decode(line.as_bytes()) {
            Decoded::Reply(id, error) => (id, error.code.0),
            Decoded::Message(_) => panic!("{line}: passed on"),
            Decoded::Skip => panic!("{line}: not answered"),
        }
    }

    #[test]
    fn every_message_that_could_be_a_request_is_answered() {
        // A batch: one error, id null.
        assert_eq!(reply(r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#), (None, -32600));
        // Ids that are no string or integer: an error whose id is null.
        for id in ["null", "{\"a\":1}", "1.5", "[1]", "true"] {
            assert_eq!(
                reply(&format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list"}}"#)),
                (None, -32600),
                "{id}"
            );
        }
        // A tools/call whose params are malformed: invalid params, with its id.
        for params in ["{}", r#"{"name":5}"#, r#"{"name":"count_distinct","arguments":5}"#, "7"] {
            let line = format!(r#"{{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{params}}}"#);
            assert_eq!(reply(&line), (Some(RequestId::Number(4)), -32602), "{params}");
        }
        // Not a request shape at all: invalid request.
        assert_eq!(reply(r#"{"jsonrpc":"1.0","id":2,"method":"ping"}"#), (Some(RequestId::Number(2)), -32600));
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
        assert_eq!(call.extensions.get::<RawArguments>().map(|raw| raw.text.to_string()).as_deref(), Some(arguments));
    }
}
