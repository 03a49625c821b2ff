//! The two ways to reach the server: stdio and Streamable HTTP.

mod arguments_text;
pub mod http;
mod sniff;
pub mod stdio;
