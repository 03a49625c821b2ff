//! A `tools/call`'s `arguments`, cut out of the message as JSON text.
//!
//! Both transports do this before rmcp parses a message: rmcp then parses a
//! message with `{}` in the arguments' place, and the text rides beside it
//! as [`RawArguments`] (the module parses that text itself). Parsing a large
//! argument object into a tree only to write it out again for the module
//! cost more time than the check itself, and most of the memory (README.md,
//! Benchmarks); over HTTP the tree was also outside every cap.

use std::borrow::Cow;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::json_shape::outline;
use crate::server::RawArguments;

/// What [`strip_arguments`] reads of a message: its method and where its
/// arguments are, without building them.
#[derive(Deserialize)]
struct CallShape<'a> {
    #[serde(borrow)]
    method: Cow<'a, str>,
    #[serde(borrow)]
    params: ParamsShape<'a>,
}

#[derive(Deserialize)]
struct ParamsShape<'a> {
    #[serde(borrow)]
    arguments: Option<&'a RawValue>,
}

/// The deepest `arguments` object that is cut out: the message itself and
/// `params` are two more levels, and `serde_json` (so rmcp) refuses a message
/// nested more than 128 deep. Deeper arguments stay in the message, which
/// rmcp answers as it always has.
const MAX_ARGUMENTS_DEPTH: usize = 126;

/// A `tools/call` message `text` with `{}` in place of its `arguments`
/// object, and the object's text.
///
/// `None` for anything else, and for any message this cannot take apart (not
/// JSON, no object for `arguments`, duplicate keys, too deep): the message
/// then goes to rmcp whole, which answers it as it would any other.
pub(crate) fn strip_arguments(text: &str) -> Option<(String, RawArguments)> {
    let shape: CallShape<'_> = serde_json::from_str(text).ok()?;
    if shape.method != "tools/call" {
        return None;
    }
    let arguments = shape.params.arguments?.get();
    let outline = outline(arguments).filter(|outline| outline.depth <= MAX_ARGUMENTS_DEPTH)?;
    // `RawValue` borrows from `text`, so its offset there is its position.
    let start = arguments.as_ptr() as usize - text.as_ptr() as usize;
    let end = start + arguments.len();
    let mut stripped = String::with_capacity(text.len() - arguments.len() + 2);
    stripped.push_str(&text[..start]);
    stripped.push_str("{}");
    stripped.push_str(&text[end..]);
    Some((stripped, RawArguments::with_outline(Arc::from(arguments), outline)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arguments_of(line: &str) -> Option<String> {
        let (stripped, RawArguments { text, .. }) = strip_arguments(line)?;
        let message: serde_json::Value = serde_json::from_str(&stripped).unwrap();
        assert_eq!(message["params"]["arguments"], serde_json::json!({}), "{stripped}");
        Some(text.to_string())
    }

    #[test]
    fn a_calls_arguments_are_cut_out_as_the_clients_text() {
        let arguments = r#"{"rows": [{"k": 1.50, "s": "a\"}\u00e9"}], "key":"k"}"#;
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"count_distinct","arguments":{arguments},"_meta":{{"progressToken":1}}}}}}"#
        );
        assert_eq!(arguments_of(&line).as_deref(), Some(arguments));
        // Key order in the message does not matter.
        let line = format!(
            r#"{{"params":{{"arguments":{arguments},"name":"count_distinct"}},"method":"tools/call","id":"x","jsonrpc":"2.0"}}"#
        );
        assert_eq!(arguments_of(&line).as_deref(), Some(arguments));
    }

    #[test]
    fn other_shapes_are_left_whole() {
        for line in [
            // No arguments, null arguments, arguments that are no object, other methods.
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":null}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":[1]}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"arguments":{}}}"#,
            // Duplicate keys: serde refuses the shape, rmcp decides.
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{},"arguments":{}}}"#,
            "not json",
        ] {
            assert!(strip_arguments(line).is_none(), "{line}");
        }
        let deep = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"x","arguments":{{"a":{}{}}}}}}}"#,
            "[".repeat(126),
            "]".repeat(126)
        );
        assert!(strip_arguments(&deep).is_none(), "arguments 127 deep stay in the message");
    }
}
