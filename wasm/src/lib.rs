//! The validation core as one WebAssembly module.
//!
//! The same `.wasm` file serves every host, through two independent surfaces:
//!
//! - [`js`]: the wasm-bindgen API that the npm package `mcp-validation-core`
//!   wraps for Node, browsers and bundlers;
//! - [`abi`]: a plain JSON byte-buffer ABI (`mcpv_alloc`, `mcpv_free`,
//!   `mcpv_call`) that uses no JS import, for wasmtime and other non-JS hosts.
//!
//! Both only convert: every decision about a call is the core's.

pub mod abi;
pub mod js;
