//! A tool result's `structuredContent` carried to the stdio transport as the
//! module's JSON text, and written into the reply line there without ever
//! becoming a tree.
//!
//! The module writes its result as compact JSON; rmcp's `CallToolResult`
//! holds `structuredContent` as a `serde_json::Value`. Parsing a large result
//! into a tree only to write it out again (for 100,000 listed rows, a map,
//! its keys and its strings each, made and freed) was a third of the
//! server's time on such a call. The stdio transport writes every reply line
//! itself, so for its requests ([`CarriesText`]) the text rides in the
//! result's `_meta` under [`CARRIED_KEY`], with `structuredContent` an
//! empty object, and [`reply_line`] takes it out, serialises the message,
//! and writes the text where that `{}` is. (An object: rmcp moves any other
//! structured content into the text copy for a client of an older protocol
//! version, reading the text copy to compare.) Over HTTP rmcp writes the reply, so
//! there the result holds the tree, as before.

use rmcp::model::{CallToolResult, JsonObject, JsonRpcMessage, MetaObject, ServerJsonRpcMessage, ServerResult};
use serde_json::Value;

/// The `_meta` key the text rides under between the server and the
/// transport; it never reaches a client.
const CARRIED_KEY: &str = "io.github.mcp-validation-server/structuredContentText";

/// In a request's extensions: the transport that passed it on writes its
/// reply with [`reply_line`], so the result may carry its text.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CarriesText;

/// Give `result` the structured content `json` (one compact JSON object,
/// checked by the caller) as carried text.
pub(crate) fn carry(result: &mut CallToolResult, json: String) {
    result.structured_content = Some(Value::Object(JsonObject::new()));
    let meta = result.meta.get_or_insert_with(|| MetaObject(JsonObject::new()));
    meta.insert(CARRIED_KEY.to_owned(), Value::String(json));
}

/// `message` as one JSON text (without its line break), with a carried
/// `structuredContent` written in its place.
pub(crate) fn reply_line(mut message: ServerJsonRpcMessage) -> serde_json::Result<Vec<u8>> {
    let Some(json) = take_carried(&mut message) else {
        return serde_json::to_vec(&message);
    };
    if let Some(line) = spliced(&serde_json::to_vec(&message)?, &json) {
        return Ok(line);
    }
    // Not written where expected (another rmcp): the tree, as over HTTP.
    if let Some(result) = call_tool_result(&mut message) {
        result.structured_content =
            Some(crate::sandbox::parse_result(json.as_bytes()).map_err(serde::ser::Error::custom)?);
    }
    serde_json::to_vec(&message)
}

/// `line` (a message with a carried result) with `json` written in place
/// of the placeholder; `None` when the placeholder is not where it should be.
fn spliced(line: &[u8], json: &str) -> Option<Vec<u8>> {
    // `structuredContent` follows `content`, an array. The text before it
    // holds no key but rmcp's, and a quote in a string is written `\"`: the
    // first place these bytes are is the member itself.
    const PLACEHOLDER: &[u8] = br#"],"structuredContent":{}"#;
    let at = memchr::memmem::find(line, PLACEHOLDER)?;
    let value_at = at + PLACEHOLDER.len() - b"{}".len();
    let mut spliced = Vec::with_capacity(line.len() + json.len());
    spliced.extend_from_slice(&line[..value_at]);
    spliced.extend_from_slice(json.as_bytes());
    spliced.extend_from_slice(&line[value_at + b"{}".len()..]);
    Some(spliced)
}

fn call_tool_result(message: &mut ServerJsonRpcMessage) -> Option<&mut CallToolResult> {
    let JsonRpcMessage::Response(response) = message else { return None };
    let ServerResult::CallToolResult(result) = &mut response.result else { return None };
    Some(result)
}

/// The carried text, taken out of `message` (with the `_meta` it rode in,
/// when nothing else is there).
fn take_carried(message: &mut ServerJsonRpcMessage) -> Option<String> {
    let result = call_tool_result(message)?;
    let meta = result.meta.as_mut()?;
    let Some(Value::String(json)) = meta.remove(CARRIED_KEY) else { return None };
    if meta.is_empty() {
        result.meta = None;
    }
    Some(json)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::{ContentBlock, JsonRpcResponse, JsonRpcVersion2_0, RequestId};

    fn reply(result: CallToolResult) -> ServerJsonRpcMessage {
        JsonRpcMessage::Response(JsonRpcResponse {
            jsonrpc: JsonRpcVersion2_0,
            id: RequestId::Number(7),
            result: ServerResult::CallToolResult(result),
        })
    }

    #[test]
    fn a_carried_result_is_the_line_of_the_same_result_as_a_tree() {
        // The oracle: rmcp writing the message with the tree in place. The
        // text copy holds the bytes the placeholder is made of, escaped.
        let json = r#"{"tool":"t","rows":[{"a":1.0,"b":"é\n"}],"note":"],\"structuredContent\":{}"}"#;
        let text = format!("{json} ],\"structuredContent\":{{}}");
        for legacy_peer in [false, true] {
            let mut carried = CallToolResult::success(vec![ContentBlock::text(text.clone())]);
            carry(&mut carried, json.to_owned());
            let mut tree = CallToolResult::success(vec![ContentBlock::text(text.clone())]);
            tree.structured_content = Some(crate::sandbox::parse_result(json.as_bytes()).unwrap());
            let (mut carried, mut tree) = (reply(carried), reply(tree));
            // What rmcp does to a result on its way to a client of an
            // older protocol version: it must leave the placeholder alone.
            if legacy_peer {
                for message in [&mut carried, &mut tree] {
                    let JsonRpcMessage::Response(response) = message else { unreachable!() };
                    response.result.strip_non_object_output_for_legacy_peer();
                }
            }
            let expected = String::from_utf8(serde_json::to_vec(&tree).unwrap()).unwrap();
            // Written in place, not by the fallback through a tree.
            let mut without_text = carried.clone();
            let json_carried = take_carried(&mut without_text).unwrap();
            let line = spliced(&serde_json::to_vec(&without_text).unwrap(), &json_carried).expect("the placeholder");
            assert_eq!(String::from_utf8(line).unwrap(), expected);
            assert_eq!(String::from_utf8(reply_line(carried).unwrap()).unwrap(), expected);
        }
    }

    #[test]
    fn other_meta_stays_and_other_messages_are_written_as_they_are() {
        let mut result = CallToolResult::success(vec![ContentBlock::text("x")]);
        let mut meta = JsonObject::new();
        meta.insert("kept".into(), Value::from(1));
        result.meta = Some(MetaObject(meta));
        let mut expected = result.clone();
        carry(&mut result, "{}".to_owned());
        expected.structured_content = Some(serde_json::json!({}));
        assert_eq!(reply_line(reply(result)).unwrap(), serde_json::to_vec(&reply(expected)).unwrap());
        let plain = reply(CallToolResult::success(vec![ContentBlock::text("y")]));
        assert_eq!(reply_line(plain.clone()).unwrap(), serde_json::to_vec(&plain).unwrap());
    }
}
