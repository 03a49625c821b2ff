//! The two ways to reach the server: stdio and Streamable HTTP.

mod arguments_text;
pub mod auth;
mod connections;
pub mod http;
mod http_body;
pub mod origin;
mod sniff;
pub mod stdio;
