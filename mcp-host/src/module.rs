//! The embedded WebAssembly module: the npm package's `.wasm`, byte for byte.
//!
//! `build.rs` copies it into `OUT_DIR` and records its SHA-256; nothing here
//! rebuilds or rewrites it, so the hash printed by `--version` is the hash of
//! the file the npm package ships.

/// The module's bytes, exactly as read from `MCPV_WASM_MODULE` at build time.
pub const BYTES: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/module.wasm"));

/// Lowercase hex SHA-256 of [`BYTES`], computed by `build.rs`.
pub const SHA256: &str = env!("MCPV_WASM_MODULE_SHA256");
