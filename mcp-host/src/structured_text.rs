//! A tool result's `structuredContent` and text copy carried to the stdio
//! transport as text, and written into the reply line there without ever
//! becoming a tree or being escaped a second time.
//!
//! The module writes its result as compact JSON; rmcp's `CallToolResult`
//! holds `structuredContent` as a `serde_json::Value`. Parsing a large result
//! into a tree only to write it out again (for 100,000 listed rows, a map,
//! its keys and its strings each, made and freed) was a third of the
//! server's time on such a call. And its text copy (the same JSON, indented)
//! was made as a string, which rmcp then read again to escape it into the
//! line. The stdio transport writes every reply line itself, so for its
//! requests ([`CarriesText`]) the result is [`carried`]: the JSON, and the
//! text copy already escaped (`pretty::pretty_escaped`), ride in the
//! result's `_meta` under [`CARRIED_KEY`] and [`CARRIED_TEXT_KEY`], with an
//! empty text and an empty `structuredContent` object in their places, and
//! [`reply_line`] takes them out, serialises the message, and writes each
//! where its placeholder is. (An object: rmcp moves any other structured
//! content into the text copy for a client of an older protocol version,
//! reading the text copy to compare.) Over HTTP rmcp writes the reply, so
//! there the result holds the tree and the text, as before.

use std::ops::Range;

use rmcp::model::{
    CallToolResult, ContentBlock, JsonObject, JsonRpcMessage, MetaObject, ServerJsonRpcMessage, ServerResult,
};
use serde_json::Value;

/// The `_meta` key the JSON rides under between the server and the
/// transport; it never reaches a client.
const CARRIED_KEY: &str = "io.github.mcp-validation-server/structuredContentText";

/// The same for the text copy, escaped as it is written inside the line.
const CARRIED_TEXT_KEY: &str = "io.github.mcp-validation-server/escapedTextCopy";

/// What rmcp writes for a carried result's text and structured content,
/// and where the carried texts go in it: the text copy's at
/// [`TEXT_AT`], the JSON in place of the `{}` at the end.
const PLACEHOLDER: &[u8] = br#"{"type":"text","text":""}],"structuredContent":{}"#;
const TEXT_AT: usize = PLACEHOLDER.len() - br#""}],"structuredContent":{}"#.len();

/// In a request's extensions: the transport that passed it on writes its
/// reply with [`reply_line`], so the result may carry its text.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CarriesText;

/// A successful result whose structured content is `json` (one compact
/// JSON object, checked by the caller) and whose text copy is
/// `escaped_text` (what rmcp would write between the text's quotes), both
/// carried as text.
pub(crate) fn carried(json: String, escaped_text: String) -> CallToolResult {
    let mut result = CallToolResult::success(vec![ContentBlock::text(String::new())]);
    result.structured_content = Some(Value::Object(JsonObject::new()));
    let mut meta = JsonObject::new();
    meta.insert(CARRIED_KEY.to_owned(), Value::String(json));
    meta.insert(CARRIED_TEXT_KEY.to_owned(), Value::String(escaped_text));
    result.meta = Some(MetaObject(meta));
    result
}

/// How many bytes `result` carries as text (0 if it carries none).
pub(crate) fn carried_bytes(result: &CallToolResult) -> usize {
    let Some(meta) = &result.meta else { return 0 };
    [CARRIED_KEY, CARRIED_TEXT_KEY].iter().filter_map(|key| meta.get(*key)?.as_str()).map(str::len).sum()
}

/// A reply line (without its line break), as pieces to write in order:
/// rmcp's line, with the carried texts in their places.
pub(crate) struct ReplyLine {
    line: Vec<u8>,
    pieces: Vec<Piece>,
}

enum Piece {
    Line(Range<usize>),
    Carried(String),
}

impl ReplyLine {
    /// The pieces, in order.
    pub(crate) fn pieces(&self) -> impl Iterator<Item = &[u8]> {
        self.pieces.iter().map(|piece| match piece {
            Piece::Line(range) => &self.line[range.clone()],
            Piece::Carried(text) => text.as_bytes(),
        })
    }

    /// The line as one buffer.
    #[cfg(test)]
    pub(crate) fn to_vec(&self) -> Vec<u8> {
        self.pieces().flatten().copied().collect()
    }

    fn whole(line: Vec<u8>) -> ReplyLine {
        let pieces = vec![Piece::Line(0..line.len())];
        ReplyLine { line, pieces }
    }
}

/// `message` as one JSON text (without its line break), with a carried
/// result's text copy and `structuredContent` written in their places.
pub(crate) fn reply_line(mut message: ServerJsonRpcMessage) -> serde_json::Result<ReplyLine> {
    let Some((json, escaped_text)) = take_carried(&mut message) else {
        return serde_json::to_vec(&message).map(ReplyLine::whole);
    };
    let line = serde_json::to_vec(&message)?;
    if let Some(at) = placeholder(&line) {
        let (text_at, json_at) = (at + TEXT_AT, at + PLACEHOLDER.len() - b"{}".len());
        let pieces = vec![
            Piece::Line(0..text_at),
            Piece::Carried(escaped_text),
            Piece::Line(text_at..json_at),
            Piece::Carried(json),
            Piece::Line(json_at + b"{}".len()..line.len()),
        ];
        return Ok(ReplyLine { line, pieces });
    }
    // Not written where expected (another rmcp): the text and the tree, as
    // over HTTP.
    if let Some(result) = call_tool_result(&mut message) {
        if let Some(ContentBlock::Text(block)) = result.content.first_mut() {
            block.text = serde_json::from_str(&format!("\"{escaped_text}\""))?;
        }
        result.structured_content =
            Some(crate::sandbox::parse_result(json.as_bytes()).map_err(serde::ser::Error::custom)?);
    }
    serde_json::to_vec(&message).map(ReplyLine::whole)
}

/// Where [`PLACEHOLDER`] is in `line`, a message with a carried result.
fn placeholder(line: &[u8]) -> Option<usize> {
    // The text content and `structuredContent` follow `"content":[`. The
    // text before them holds no key but rmcp's, and a quote in a string is
    // written `\"`: the first place these bytes are is the members themselves.
    memchr::memmem::find(line, PLACEHOLDER)
}

fn call_tool_result(message: &mut ServerJsonRpcMessage) -> Option<&mut CallToolResult> {
    let JsonRpcMessage::Response(response) = message else { return None };
    let ServerResult::CallToolResult(result) = &mut response.result else { return None };
    Some(result)
}

/// The carried JSON and escaped text copy, taken out of `message` (with the
/// `_meta` they rode in, when nothing else is there).
fn take_carried(message: &mut ServerJsonRpcMessage) -> Option<(String, String)> {
    let result = call_tool_result(message)?;
    let meta = result.meta.as_mut()?;
    // Both or neither: `carried` puts both there.
    let (Some(Value::String(_)), Some(Value::String(_))) = (meta.get(CARRIED_KEY), meta.get(CARRIED_TEXT_KEY)) else {
        return None;
    };
    let (Some(Value::String(json)), Some(Value::String(text))) =
        (meta.remove(CARRIED_KEY), meta.remove(CARRIED_TEXT_KEY))
    else {
        return None;
    };
    if meta.is_empty() {
        result.meta = None;
    }
    Some((json, text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::{JsonRpcResponse, JsonRpcVersion2_0, RequestId};

    fn reply(result: CallToolResult) -> ServerJsonRpcMessage {
        JsonRpcMessage::Response(JsonRpcResponse {
            jsonrpc: JsonRpcVersion2_0,
            id: RequestId::Number(7),
            result: ServerResult::CallToolResult(result),
        })
    }

    /// The oracle: the result as rmcp writes it with its text and its tree.
    fn as_tree(text: &str, json: &str) -> CallToolResult {
        let mut tree = CallToolResult::success(vec![ContentBlock::text(text.to_owned())]);
        tree.structured_content = Some(crate::sandbox::parse_result(json.as_bytes()).unwrap());
        tree
    }

    /// What rmcp writes between the quotes of `text`.
    fn escaped(text: &str) -> String {
        let quoted = serde_json::to_string(text).unwrap();
        quoted[1..quoted.len() - 1].to_owned()
    }

    // Both hold the bytes the placeholder is made of, and what is escaped.
    const JSON: &str = r#"{"tool":"t","rows":[{"a":1.0,"b":"é\n\\"}],"note":"{\"type\":\"text\",\"text\":\"\"}],\"structuredContent\":{}"}"#;

    fn text() -> String {
        format!("{JSON}\n  {{\"type\":\"text\",\"text\":\"\"}}],\"structuredContent\":{{}} \\ \u{1}")
    }

    #[test]
    fn a_carried_result_is_the_line_of_the_same_result_with_its_text_and_tree() {
        for legacy_peer in [false, true] {
            let (mut carried, mut tree) =
                (reply(carried(JSON.to_owned(), escaped(&text()))), reply(as_tree(&text(), JSON)));
            // What rmcp does to a result on its way to a client of an
            // older protocol version: it must leave the placeholders alone.
            if legacy_peer {
                for message in [&mut carried, &mut tree] {
                    let JsonRpcMessage::Response(response) = message else { unreachable!() };
                    response.result.strip_non_object_output_for_legacy_peer();
                }
            }
            let expected = String::from_utf8(serde_json::to_vec(&tree).unwrap()).unwrap();
            let line = reply_line(carried).unwrap();
            // Written in place, in pieces, not by the fallback through a tree.
            assert_eq!(line.pieces.len(), 5, "spliced");
            assert_eq!(String::from_utf8(line.to_vec()).unwrap(), expected);
        }
    }

    #[test]
    fn where_the_placeholders_are_not_the_text_and_tree_are_put_back() {
        // A second content block moves the text's placeholder away from
        // `structuredContent`: the fallback writes what rmcp writes for the
        // result with its text and tree.
        let mut carried = carried(JSON.to_owned(), escaped(&text()));
        carried.content.push(ContentBlock::text("x"));
        let mut tree = as_tree(&text(), JSON);
        tree.content.push(ContentBlock::text("x"));
        let line = reply_line(reply(carried)).unwrap();
        assert_eq!(line.pieces.len(), 1, "not spliced");
        assert_eq!(line.to_vec(), serde_json::to_vec(&reply(tree)).unwrap());
    }

    #[test]
    fn other_meta_stays_and_other_messages_are_written_as_they_are() {
        let mut result = carried("{}".to_owned(), "{}".to_owned());
        result.meta.as_mut().unwrap().insert("kept".into(), Value::from(1));
        let mut expected = as_tree("{}", "{}");
        let mut meta = JsonObject::new();
        meta.insert("kept".into(), Value::from(1));
        expected.meta = Some(MetaObject(meta));
        assert_eq!(carried_bytes(&result), 4);
        assert_eq!(reply_line(reply(result)).unwrap().to_vec(), serde_json::to_vec(&reply(expected)).unwrap());
        let plain = reply(CallToolResult::success(vec![ContentBlock::text("y")]));
        assert_eq!(reply_line(plain.clone()).unwrap().to_vec(), serde_json::to_vec(&plain).unwrap());
    }
}
