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
#[cfg(any(target_arch = "wasm32", test))]
mod arena;
pub mod js;
mod json_text;
#[cfg(any(target_arch = "wasm32", test))]
mod memcmp;

/// Every allocation of the module: a region of its initial memory first,
/// so that a small call never grows memory (see `arena.rs`).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: arena::RegionFirst<{ arena::REGION_BYTES }> = arena::RegionFirst::new();

/// Grow linear memory once, up front, to roughly what a call on `input_len`
/// bytes of JSON will use.
///
/// The allocator grows memory 64 KiB at a time, and in V8 each `memory.grow`
/// is costly: a first 100,000-row call spent more time growing memory than
/// checking rows (1.3 s against 0.4 s once grown). Allocating one block and
/// freeing it leaves the space with the allocator for the call to use. Best
/// effort: when memory cannot grow, nothing happens and the call grows memory
/// as it goes. Only the JS entry does this: wasmtime grows memory cheaply,
/// and there a reservation would only raise a call's peak against its cap.
/// Natively (the crate's own tests) there is no linear memory to grow.
#[cfg_attr(not(target_arch = "wasm32"), allow(unused_variables))]
pub(crate) fn reserve_working_memory(input_len: usize) {
    #[cfg(target_arch = "wasm32")]
    {
        // A parsed JSON tree and the result take a few times the text's size.
        const WORKING_SET_PER_INPUT_BYTE: usize = 6;
        let wanted = input_len.saturating_mul(WORKING_SET_PER_INPUT_BYTE);
        // Memory never shrinks, so once it is this large there is nothing to do.
        if core::arch::wasm32::memory_size(0) * 65_536 >= wanted {
            return;
        }
        let mut block: Vec<u8> = Vec::new();
        let _ = block.try_reserve(wanted);
    }
}
