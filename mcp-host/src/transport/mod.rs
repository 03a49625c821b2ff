//! The two ways to reach the server: stdio and Streamable HTTP.

mod arguments_text;
pub mod auth;
pub mod http;
pub mod origin;
mod sniff;
pub mod stdio;
