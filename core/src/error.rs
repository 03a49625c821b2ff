//! The one error a call can produce: a malformed call.
//!
//! A failing dataset is never an error; it is an envelope with `ok: false`.
//! A `ToolError` means the call itself could not be understood, and its message
//! names what is wrong so the caller can fix the call.

use std::fmt;

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
}

impl ToolError {
    pub(crate) fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ToolError { code, message: message.into(), argument: None }
    }

    pub(crate) fn for_argument(code: ErrorCode, argument: &str, message: impl Into<String>) -> Self {
        ToolError { code, message: message.into(), argument: Some(argument.to_owned()) }
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ToolError {}
