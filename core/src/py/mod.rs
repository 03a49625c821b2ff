//! Python behaviour that shows in the reference's output.
//!
//! The reference server is written in Python, and its messages and values carry
//! Python's formatting, parsing and string rules. Each submodule reproduces one
//! of them exactly, so the checks can be written as plain Rust on top.

#[cfg(test)]
mod differential_tests;
pub(crate) mod difflib;
pub(crate) mod format;
pub(crate) mod isodate;
pub(crate) mod number;
pub(crate) mod repr;
pub(crate) mod text;
mod unicode_tables;
pub(crate) mod value;
