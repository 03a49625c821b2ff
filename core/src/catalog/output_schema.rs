//! The output schema every tool publishes: the shared envelope.

use serde_json::{json, Value};

/// The envelope every tool returns, with the tool's own fields left open
/// (`additionalProperties: true`): each tool adds its own, described in its
/// description. Clients validate `structuredContent` against this, so it
/// states only what holds for every result, rejection envelopes included.
pub(super) fn schema(tool: &str, verdicts: &[&str]) -> Value {
    json!({
        "type": "object",
        "title": format!("{tool}Result"),
        "properties": {
            "tool": {"type": "string", "const": tool, "description": "The tool that produced this result."},
            "ok": {"type": "boolean", "description": "True only when the data has nothing wrong with it. The one field to branch on."},
            "verdict": {"type": "string", "enum": verdicts, "description": "The outcome in one word."},
            "finding_count": {"type": "integer", "minimum": 0, "description": "How many entries `findings` has."},
            "findings": {
                "type": "array",
                "description": "One entry per problem, with a stable code, a message and (usually) a locator.",
                "items": {
                    "type": "object",
                    "properties": {
                        "code": {"type": "string"},
                        "severity": {"type": "string", "enum": ["error", "warning", "info"]},
                        "message": {"type": "string"},
                        "locator": {"type": "object"},
                    },
                    "required": ["code", "severity", "message"],
                    "additionalProperties": true,
                },
            },
            "guidance": {"type": "string", "description": "Plain English: what to do next."},
        },
        "required": ["tool", "ok", "verdict", "finding_count", "findings", "guidance"],
        "additionalProperties": true,
    })
}
