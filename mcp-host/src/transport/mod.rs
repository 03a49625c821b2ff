//! The two ways to reach the server: stdio and Streamable HTTP.

pub mod http;
mod sniff;
pub mod stdio;
