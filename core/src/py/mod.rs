//! Python behaviour that shows in the reference's output.
//!
//! The reference server is written in Python, and its messages and values carry
//! Python's formatting, parsing and string rules. Each submodule reproduces one
//! of them exactly, so the checks can be written as plain Rust on top.

pub mod difflib;
pub mod isodate;
pub(crate) mod value;
