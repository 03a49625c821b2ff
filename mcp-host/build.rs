//! Embeds THE WebAssembly module (the npm package's `.wasm`) in the binary.
//!
//! Contract:
//! - `MCPV_WASM_MODULE` names the module file. When unset, the default is the
//!   file the npm package ships: `<workspace>/npm/dist/wasm/mcp_validation_core_bg.wasm`,
//!   written by `scripts/build-wasm.sh`.
//! - The build fails, naming the command to run, when that file is missing or
//!   is not a WebAssembly module.
//! - The module is copied to `$OUT_DIR/module.wasm` (the source includes it
//!   with `include_bytes!`), and these are set for every target of this
//!   package, tests included:
//!   `MCPV_WASM_MODULE_SHA256` (lowercase hex of the file's SHA-256) and
//!   `MCPV_WASM_MODULE_SOURCE` (the path it was read from).
//!
//! The module is compiled to native code at run time, once, and cached (see
//! `src/sandbox/cache.rs`), so this script needs no wasmtime of its own: a
//! second wasmtime build for the build script would double a ~6 minute compile.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// The one environment variable that points the build at a module file.
const MODULE_ENV: &str = "MCPV_WASM_MODULE";
/// Where the npm package keeps the module, relative to the workspace root.
const DEFAULT_MODULE: &str = "npm/dist/wasm/mcp_validation_core_bg.wasm";

fn main() {
    let manifest_dir = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let workspace = manifest_dir.parent().expect("mcp-host lives inside the workspace").to_path_buf();
    let source = match env::var_os(MODULE_ENV) {
        Some(path) if !path.is_empty() => {
            let path = PathBuf::from(path);
            if path.is_absolute() {
                path
            } else {
                workspace.join(path)
            }
        }
        _ => workspace.join(DEFAULT_MODULE),
    };

    println!("cargo:rerun-if-env-changed={MODULE_ENV}");
    println!("cargo:rerun-if-changed={}", source.display());

    let bytes = match fs::read(&source) {
        Ok(bytes) => bytes,
        Err(err) => fail(&source, &format!("cannot read it: {err}")),
    };
    if !bytes.starts_with(b"\0asm\x01\0\0\0") {
        fail(&source, "it is not a WebAssembly module (no `\\0asm` version 1 header)");
    }

    let hex = format!("{:x}", Sha256::digest(&bytes));

    let out_dir = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::write(out_dir.join("module.wasm"), &bytes).expect("OUT_DIR is writable");
    println!("cargo:rustc-env=MCPV_WASM_MODULE_SHA256={hex}");
    println!("cargo:rustc-env=MCPV_WASM_MODULE_SOURCE={}", source.display());
}

fn fail(source: &Path, why: &str) -> ! {
    panic!(
        "\n\nmcp-validation-server embeds the WebAssembly module, and {why}:\n    {}\n\n\
         Build the module first:\n    scripts/build-wasm.sh\n\
         (that runs `cargo build --release --target wasm32-unknown-unknown -p mcp-validation-wasm` \
         and `wasm-bindgen --target web`, and writes {DEFAULT_MODULE}),\n\
         or point {MODULE_ENV} at an existing mcp_validation_core_bg.wasm:\n    \
         {MODULE_ENV}=/path/to/mcp_validation_core_bg.wasm cargo build -p mcp-validation-server\n\n",
        source.display()
    );
}
