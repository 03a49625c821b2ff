//! Embeds THE WebAssembly module (the npm package's `.wasm`) in the binary,
//! and only a module built from this checkout's sources.
//!
//! Contract:
//! - `MCPV_WASM_MODULE` names the module file. When unset, the default is the
//!   file the npm package ships: `<workspace>/npm/dist/wasm/mcp_validation_core_bg.wasm`,
//!   written by `scripts/build-wasm.sh`.
//! - The default module must be current. `scripts/build-wasm.sh` writes, beside
//!   it, `module-inputs.sha256`: the SHA-256 of every file the module is built
//!   from (core/ and wasm/ sources and manifests, `Cargo.lock`, the toolchain
//!   pin, the build script; the list is in `build/module_inputs.rs`). This
//!   script recomputes that record and compares: a missing record or any
//!   changed, added or removed input stops the build, naming the inputs and the
//!   one command to run, `scripts/build-wasm.sh`. So a fresh clone, or a tree
//!   whose core changed since the module was built, never embeds a stale
//!   module. Every input is watched (`rerun-if-changed`), so an edit re-runs
//!   the check.
//! - A module named by `MCPV_WASM_MODULE` is embedded as it is: whoever names a
//!   file vouches for it (a module from a published package, say, has no record).
//! - Outside the workspace (no `<workspace>/npm/package.json` beside this crate:
//!   the crate as `cargo package` made it, unpacked by `cargo install` or the
//!   registry), the default is the module the package carries,
//!   `module/mcp_validation_core_bg.wasm`, put there by
//!   `scripts/package-crate.sh`, which also writes its SHA-256 beside it
//!   (`module/mcp_validation_core_bg.wasm.sha256`, in `sha256sum` format). The
//!   module must hash to that record (`build/packaged.rs`), or the build stops
//!   naming both hashes; a package without the module or the record stops too.
//!   Inside the workspace a `module/` folder left by that script is never read:
//!   the rule above holds.
//! - The build fails, naming the command to run, when the module file is
//!   missing or is not a WebAssembly module.
//! - The module is copied to `$OUT_DIR/module.wasm` (the source includes it
//!   with `include_bytes!`), and these are set for every target of this
//!   package, tests included:
//!   `MCPV_WASM_MODULE_SHA256` (lowercase hex of the file's SHA-256) and
//!   `MCPV_WASM_MODULE_SOURCE` (the path it was read from).
//!
//! The module is compiled to native code at run time, once, and cached (see
//! `src/sandbox/cache.rs`), so this script needs no wasmtime of its own: a
//! second wasmtime build for the build script would double a ~6 minute compile.

#[path = "build/module_inputs.rs"]
mod module_inputs;
#[path = "build/packaged.rs"]
mod packaged;

use std::env;
use std::fs;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// The one environment variable that points the build at a module file.
const MODULE_ENV: &str = "MCPV_WASM_MODULE";
/// Where the npm package keeps the module, relative to the workspace root.
const DEFAULT_MODULE: &str = "npm/dist/wasm/mcp_validation_core_bg.wasm";
/// The npm package's manifest, relative to the workspace root: present only
/// when this crate is built inside the workspace.
const WORKSPACE_MARKER: &str = "npm/package.json";

fn main() {
    let manifest_dir = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let workspace = manifest_dir.parent().expect("a crate lives in some directory").to_path_buf();
    let named = env::var_os(MODULE_ENV).filter(|path| !path.is_empty()).map(PathBuf::from);
    println!("cargo:rerun-if-env-changed={MODULE_ENV}");
    let outside_workspace = named.is_none() && !workspace.join(WORKSPACE_MARKER).exists();
    let source = match named {
        Some(path) if path.is_absolute() => path,
        Some(path) => workspace.join(path),
        None if outside_workspace => manifest_dir.join(packaged::MODULE),
        None => {
            let source = workspace.join(DEFAULT_MODULE);
            check_current(&workspace, &source);
            source
        }
    };
    println!("cargo:rerun-if-changed={}", source.display());
    let fail = |why: &str| if outside_workspace { fail_packaged(&source, why) } else { fail(&source, why) };

    let bytes = match fs::read(&source) {
        Ok(bytes) => bytes,
        Err(err) => fail(&format!("cannot read it: {err}")),
    };
    if !bytes.starts_with(b"\0asm\x01\0\0\0") {
        fail("it is not a WebAssembly module (no `\\0asm` version 1 header)");
    }

    let hex = format!("{:x}", Sha256::digest(&bytes));
    if outside_workspace {
        println!("cargo:rerun-if-changed={}", packaged::record_path(&manifest_dir).display());
        if let Err(why) = packaged::check(&manifest_dir, &hex) {
            fail(&why);
        }
    }

    let out_dir = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::write(out_dir.join("module.wasm"), &bytes).expect("OUT_DIR is writable");
    println!("cargo:rustc-env=MCPV_WASM_MODULE_SHA256={hex}");
    println!("cargo:rustc-env=MCPV_WASM_MODULE_SOURCE={}", source.display());
}

/// Stop unless the record beside the default module matches the sources.
fn check_current(workspace: &Path, source: &Path) {
    let record_path = source.with_file_name(module_inputs::RECORD_NAME);
    println!("cargo:rerun-if-changed={}", record_path.display());
    for input in module_inputs::DIRS.iter().chain(&module_inputs::FILES) {
        println!("cargo:rerun-if-changed={}", workspace.join(input).display());
    }
    if !source.exists() {
        fail(source, "it has not been built");
    }
    let Ok(recorded) = fs::read_to_string(&record_path) else {
        fail(source, &format!("there is no record of what it was built from ({})", record_path.display()));
    };
    let current = match module_inputs::record(workspace) {
        Ok(current) => current,
        Err(err) => fail(source, &format!("its inputs cannot be read ({err})")),
    };
    let differences = module_inputs::differences(&recorded, &current);
    if !differences.is_empty() {
        let shown: Vec<&str> = differences.iter().take(10).map(String::as_str).collect();
        let more = differences.len() - shown.len();
        let more = if more > 0 { format!("\n    ... and {more} more") } else { String::new() };
        fail(source, &format!("it is stale, built before these inputs changed:\n    {}{more}", shown.join("\n    ")));
    }
}

fn fail_packaged(source: &Path, why: &str) -> ! {
    panic!(
        "\n\nmcp-validation-server, built outside its workspace, embeds the module its package carries,\n    \
         {}\n(checked against {}), and {why}.\n\n\
         The package is incomplete: make it with scripts/package-crate.sh, \
         or point {MODULE_ENV} at a module to embed as it is.\n\n",
        source.display(),
        packaged::RECORD,
    );
}

fn fail(source: &Path, why: &str) -> ! {
    panic!(
        "\n\nmcp-validation-server embeds the WebAssembly module\n    {}\nand {why}.\n\n\
         Build it with:\n    scripts/build-wasm.sh\n\
         (it names what to install first if a tool is missing), \
         or point {MODULE_ENV} at a module to embed as it is:\n    \
         {MODULE_ENV}=/path/to/mcp_validation_core_bg.wasm cargo build -p mcp-validation-server\n\n",
        source.display()
    );
}
