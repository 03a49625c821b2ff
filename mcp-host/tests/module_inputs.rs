//! The build's guard against embedding a stale module (`build.rs`): the record
//! of the module's inputs that `scripts/build-wasm.sh` writes must be the one
//! the build script computes, and a changed, added or removed input must show.

#[path = "../build/module_inputs.rs"]
#[allow(dead_code)] // build.rs uses every item; these tests not all of them
mod module_inputs;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("mcp-host is inside the workspace").to_path_buf()
}

/// What `scripts/module-inputs.sh ROOT` prints: the record build-wasm.sh keeps.
fn script_record(root: &Path) -> String {
    let output = Command::new("bash")
        .arg(workspace().join("scripts/module-inputs.sh"))
        .arg(root)
        .output()
        .expect("bash runs scripts/module-inputs.sh");
    assert!(output.status.success(), "module-inputs.sh failed: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).expect("the record is UTF-8")
}

/// A small workspace holding every input the record lists, under a fresh
/// temporary directory.
fn scratch_workspace(name: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!("mcpv-module-inputs-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&root);
    for file in module_inputs::FILES {
        write(&root, file, &format!("contents of {file}\n"));
    }
    write(&root, "core/src/lib.rs", "pub fn core() {}\n");
    write(&root, "core/src/py/mod.rs", "mod text;\n");
    write(&root, "core/src/py.rs.orig", "a stray file is an input too\n");
    write(&root, "wasm/src/lib.rs", "pub fn wasm() {}\n");
    root
}

fn write(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    fs::create_dir_all(path.parent().expect("a file has a directory")).expect("create the directory");
    fs::write(path, text).expect("write the file");
}

#[test]
fn the_build_script_computes_the_record_the_shell_script_writes() {
    let root = workspace();
    let computed = module_inputs::record(&root).expect("the inputs are readable");
    assert_eq!(computed, script_record(&root));
    // And on a tree where the sort order and nesting matter (`py.rs.orig`
    // sorts before `py/` bytewise, as `LC_ALL=C sort` puts it).
    let scratch = scratch_workspace("agree");
    let computed = module_inputs::record(&scratch).expect("the scratch inputs are readable");
    assert_eq!(computed, script_record(&scratch));
    let paths: Vec<&str> = computed.lines().filter_map(|line| line.split_once("  ").map(|(_, path)| path)).collect();
    assert_eq!(
        paths,
        [
            "Cargo.lock",
            "Cargo.toml",
            "core/Cargo.toml",
            "core/src/lib.rs",
            "core/src/py.rs.orig",
            "core/src/py/mod.rs",
            "npm/package-lock.json",
            "rust-toolchain.toml",
            "scripts/build-wasm.sh",
            "wasm/Cargo.toml",
            "wasm/src/lib.rs",
        ]
    );
    fs::remove_dir_all(scratch).expect("remove the scratch workspace");
}

#[test]
fn every_changed_added_or_removed_input_is_named() {
    let root = scratch_workspace("differences");
    let recorded = module_inputs::record(&root).expect("readable");
    assert_eq!(module_inputs::differences(&recorded, &recorded), Vec::<String>::new());

    write(&root, "core/src/lib.rs", "pub fn core() { /* edited */ }\n");
    write(&root, "wasm/src/new.rs", "// a new module\n");
    fs::remove_file(root.join("core/src/py/mod.rs")).expect("remove an input");
    write(&root, "Cargo.lock", "a dependency moved\n");
    let current = module_inputs::record(&root).expect("readable");
    assert_eq!(
        module_inputs::differences(&recorded, &current),
        ["changed: Cargo.lock", "changed: core/src/lib.rs", "removed: core/src/py/mod.rs", "added: wasm/src/new.rs"]
    );
    fs::remove_dir_all(root).expect("remove the scratch workspace");
}

#[test]
fn a_missing_record_leaves_every_input_unaccounted_for() {
    let root = scratch_workspace("empty");
    let current = module_inputs::record(&root).expect("readable");
    let differences = module_inputs::differences("", &current);
    assert_eq!(differences.len(), current.lines().count());
    assert!(differences.iter().all(|line| line.starts_with("added: ")), "{differences:?}");
    fs::remove_dir_all(root).expect("remove the scratch workspace");
}

/// The module this test binary embeds was built from the sources as they are:
/// the record beside it matches them (what build.rs checked when it built).
#[test]
fn the_embedded_module_is_recorded_as_built_from_this_tree() {
    let source = Path::new(env!("MCPV_WASM_MODULE_SOURCE"));
    let Ok(recorded) = fs::read_to_string(source.with_file_name(module_inputs::RECORD_NAME)) else {
        // A module named by MCPV_WASM_MODULE may carry no record (build.rs
        // embeds it as given); the default one always does.
        assert_ne!(source, workspace().join("npm/dist/wasm/mcp_validation_core_bg.wasm"), "no record");
        return;
    };
    let current = module_inputs::record(&workspace()).expect("readable");
    assert_eq!(module_inputs::differences(&recorded, &current), Vec::<String>::new());
}
