//! The one error a call can produce: a malformed call.
//!
//! A failing dataset is never an error; it is an envelope with `ok: false`.
//! A `ToolError` means the call itself could not be understood, and its message
//! names what is wrong so the caller can fix the call.

use std::fmt;

use serde_json::{json, Value};

/// Stable, machine-readable class of an argument error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// `columns` did not parse as a contract (unknown key, bad type, bad regex, ...).
    InvalidContract,
    /// An argument has the right JSON type but an unusable value (blank `key`, ...).
    InvalidArgument,
    /// An argument has the wrong JSON type, or a required argument is missing.
    ArgumentType,
    /// The tool name is not one of the four checks.
    UnknownTool,
    /// The call's arguments were not a JSON object, or not JSON at all.
    InvalidJson,
}

impl ErrorCode {
    /// The code as it appears on the wire (`error.code` in JavaScript).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidContract => "invalid_contract",
            ErrorCode::InvalidArgument => "invalid_argument",
            ErrorCode::ArgumentType => "argument_type",
            ErrorCode::UnknownTool => "unknown_tool",
            ErrorCode::InvalidJson => "invalid_json",
        }
    }
}

/// A malformed call, with the message the reference server gives for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError {
    /// Which kind of malformation this is.
    pub code: ErrorCode,
    /// Human-readable message naming the problem.
    pub message: String,
    /// The argument at fault, when one argument is.
    pub argument: Option<String>,
    /// Where in the call the fault is, as a path into the arguments object:
    /// the argument's name, then `[index]` into an array and `.key` into an
    /// object, e.g. `columns[2].pattern` (indexes count from 0, as in the
    /// JSON). `None` when the fault is not in one place (the tool name, the
    /// arguments as a whole).
    pub location: Option<String>,
    /// For a fault in `csv` text, the line it is on (1-based, the header's
    /// line included).
    pub line: Option<usize>,
}

impl ToolError {
    pub(crate) fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ToolError { code, message: message.into(), argument: None, location: None, line: None }
    }

    /// An error about `argument` as a whole (its location is its name).
    pub(crate) fn for_argument(code: ErrorCode, argument: &str, message: impl Into<String>) -> Self {
        ToolError {
            code,
            message: message.into(),
            argument: Some(argument.to_owned()),
            location: Some(argument.to_owned()),
            line: None,
        }
    }

    /// The same error, placed more precisely inside its argument.
    pub(crate) fn at(mut self, location: impl Into<String>) -> Self {
        self.location = Some(location.into());
        self
    }

    /// The same error, on `line` of the CSV text.
    pub(crate) fn on_line(mut self, line: usize) -> Self {
        self.line = Some(line);
        self
    }

    /// The error as every surface hands it on (the module's byte ABI, the
    /// JS API, the MCP server's `_meta`):
    /// `{"code", "message", "argument", "location", "line"}`, each of the
    /// last three `null` when it does not apply.
    pub fn to_json(&self) -> Value {
        json!({
            "code": self.code.as_str(),
            "message": self.message,
            "argument": self.argument,
            "location": self.location,
            "line": self.line,
        })
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ToolError {}
