//! Compile the module once, keep the native code on disk, and reuse it.
//!
//! Compiling the module with Cranelift takes seconds; loading the serialized
//! result takes milliseconds. The cache file is keyed by everything that
//! decides whether compiled code is valid: the module's SHA-256, the wasmtime
//! version and a hash of the engine's compilation settings. Any miss, any
//! mismatch, any unreadable or corrupted file falls back to compiling.
//!
//! Loading compiled code is `unsafe` in wasmtime because the bytes are trusted
//! to be what wasmtime wrote. So a file is used only if (1) it is a regular
//! file (not a symlink) that this user owns, in a directory this user owns,
//! neither writable by group or others (Unix), and (2) its embedded SHA-256
//! matches its contents, so a truncated or half-written file is recompiled,
//! never executed. wasmtime itself then checks its version and settings.

use std::collections::hash_map::DefaultHasher;
use std::fs;
use std::hash::{Hash, Hasher};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use sha2::{Digest, Sha256};
use wasmtime::{Engine, Module};

/// First bytes of every cache file; bump the digit to orphan old formats.
const MAGIC: &[u8] = b"mcpv-cwasm-1\n";
const DIGEST_LEN: usize = 32;

/// Where the compiled module came from, for the start-up log line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Origin {
    /// Loaded from the cache directory.
    Cache,
    /// Compiled now, and written to the cache directory.
    CompiledAndCached,
    /// Compiled now; there is no usable cache directory.
    Compiled,
}

/// The default cache directory, if the environment names a home for one.
pub(crate) fn default_dir() -> Option<PathBuf> {
    let from_env = |name: &str| std::env::var_os(name).filter(|value| !value.is_empty()).map(PathBuf::from);
    let base = if cfg!(windows) {
        from_env("LOCALAPPDATA")
    } else if cfg!(target_os = "macos") {
        from_env("HOME").map(|home| home.join("Library/Caches"))
    } else {
        from_env("XDG_CACHE_HOME").or_else(|| from_env("HOME").map(|home| home.join(".cache")))
    };
    base.map(|base| base.join("mcp-validation-server"))
}

/// The module for `bytes` (whose SHA-256 is `sha256`), from `dir` when a
/// valid compiled copy is there, otherwise compiled (and stored in `dir`).
pub(crate) fn load(
    engine: &Engine,
    bytes: &[u8],
    sha256: &str,
    dir: Option<&Path>,
) -> wasmtime::Result<(Module, Origin)> {
    let Some(dir) = dir else {
        return Ok((Module::new(engine, bytes)?, Origin::Compiled));
    };
    let path = dir.join(file_name(engine, sha256));
    if let Some(artifact) = read_trusted(dir, &path) {
        // SAFETY: `read_trusted` only returns bytes from a file this user
        // owns, in a directory only this user can write, whose embedded digest
        // matches: bytes that `store` wrote from `Module::serialize` with an
        // engine of the same version and settings (both are in the file name,
        // and wasmtime re-checks them in the artifact's header).
        match unsafe { Module::deserialize(engine, artifact) } {
            Ok(module) => return Ok((module, Origin::Cache)),
            Err(err) => {
                tracing::warn!(path = %path.display(), "ignoring an unusable compiled module: {err}");
            }
        }
    }
    let started = Instant::now();
    let module = Module::new(engine, bytes)?;
    tracing::info!(elapsed_ms = started.elapsed().as_millis(), "compiled the module");
    match module.serialize().map_err(|err| err.to_string()).and_then(|artifact| store(dir, &path, &artifact)) {
        Ok(()) => Ok((module, Origin::CompiledAndCached)),
        Err(err) => {
            tracing::warn!(dir = %dir.display(), "cannot cache the compiled module (next start compiles again): {err}");
            Ok((module, Origin::Compiled))
        }
    }
}

/// `<module sha256>-wasmtime-<version>-<settings hash>.cwasm`.
fn file_name(engine: &Engine, sha256: &str) -> String {
    // Deterministic across processes (SipHash with fixed keys); were it ever
    // to change with a Rust release, the result is a cache miss, not a hazard,
    // since wasmtime validates the settings again on load.
    let mut hasher = DefaultHasher::new();
    engine.precompile_compatibility_hash().hash(&mut hasher);
    format!("{sha256}-wasmtime-{}-{:016x}.cwasm", wasmtime_version(), hasher.finish())
}

/// The wasmtime version this binary links, pinned in Cargo.toml.
pub(crate) const fn wasmtime_version() -> &'static str {
    "48.0.8"
}

/// The artifact inside `path`, if the file may be trusted and is intact.
fn read_trusted(dir: &Path, path: &Path) -> Option<Vec<u8>> {
    if !owned_and_private(dir) || !owned_and_private(path) {
        return None;
    }
    let mut contents = fs::read(path).ok()?;
    let body = contents.strip_prefix(MAGIC)?;
    if body.len() < DIGEST_LEN {
        return None;
    }
    let (digest, artifact) = body.split_at(DIGEST_LEN);
    if Sha256::digest(artifact).as_slice() != digest {
        tracing::warn!(path = %path.display(), "ignoring a corrupted compiled module");
        return None;
    }
    let start = MAGIC.len() + DIGEST_LEN;
    contents.drain(..start);
    Some(contents)
}

/// Write `artifact` to `path` atomically: a private temporary file, then a
/// rename, so a reader sees either nothing or the whole file.
fn store(dir: &Path, path: &Path, artifact: &[u8]) -> Result<(), String> {
    create_private_dir(dir).map_err(|err| format!("cannot create it: {err}"))?;
    if !owned_and_private(dir) {
        return Err("it is not owned by this user, or others can write to it".to_owned());
    }
    let temp = dir.join(format!(".{}.{}.tmp", std::process::id(), unique_suffix()));
    let result = (|| {
        let mut file = private_file(&temp)?;
        file.write_all(MAGIC)?;
        file.write_all(&Sha256::digest(artifact))?;
        file.write_all(artifact)?;
        file.sync_all()?;
        fs::rename(&temp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result.map_err(|err| err.to_string())
}

fn unique_suffix() -> u128 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |elapsed| elapsed.as_nanos())
}

#[cfg(unix)]
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    fs::DirBuilder::new().recursive(true).mode(0o700).create(dir)
}

#[cfg(not(unix))]
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    fs::create_dir_all(dir)
}

#[cfg(unix)]
fn private_file(path: &Path) -> std::io::Result<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(path)
}

#[cfg(not(unix))]
fn private_file(path: &Path) -> std::io::Result<fs::File> {
    fs::OpenOptions::new().write(true).create_new(true).open(path)
}

/// Not a symlink, owned by the effective user, not writable by group/others.
#[cfg(unix)]
fn owned_and_private(path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let Ok(meta) = fs::symlink_metadata(path) else {
        return false;
    };
    // SAFETY: geteuid has no preconditions and cannot fail.
    let euid = unsafe { libc::geteuid() };
    !meta.file_type().is_symlink() && meta.uid() == euid && meta.mode() & 0o022 == 0
}

/// Windows: per-user %LOCALAPPDATA% is private by default; refuse symlinks.
#[cfg(not(unix))]
fn owned_and_private(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|meta| !meta.file_type().is_symlink())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine() -> Engine {
        super::super::engine::new_engine(1).unwrap()
    }

    #[test]
    fn the_number_of_instance_slots_leaves_the_cache_key_alone() {
        // Else a server started with another --max-concurrent-calls would
        // compile the module again instead of loading it.
        let name = |slots| file_name(&super::super::engine::new_engine(slots).unwrap(), "m");
        assert_eq!(name(1), name(64));
    }

    const WAT_MODULE: &[u8] = b"\0asm\x01\0\0\0";

    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("mcpv-cache-test-{name}-{}-{}", std::process::id(), unique_suffix()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_second_load_comes_from_the_cache() {
        let engine = engine();
        let dir = temp_dir("hit");
        let (_, first) = load(&engine, WAT_MODULE, "abc", Some(&dir)).unwrap();
        assert_eq!(first, Origin::CompiledAndCached);
        let (_, second) = load(&engine, WAT_MODULE, "abc", Some(&dir)).unwrap();
        assert_eq!(second, Origin::Cache);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_corrupted_cache_file_is_recompiled_not_loaded() {
        let engine = engine();
        let dir = temp_dir("corrupt");
        load(&engine, WAT_MODULE, "abc", Some(&dir)).unwrap();
        let path = dir.join(file_name(&engine, "abc"));
        let mut bytes = fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0xff;
        fs::write(&path, &bytes).unwrap();
        let (_, origin) = load(&engine, WAT_MODULE, "abc", Some(&dir)).unwrap();
        assert_eq!(origin, Origin::CompiledAndCached);
        // ... and the rewritten file is good again.
        let (_, origin) = load(&engine, WAT_MODULE, "abc", Some(&dir)).unwrap();
        assert_eq!(origin, Origin::Cache);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_cache_file_others_can_write_is_not_trusted() {
        use std::os::unix::fs::PermissionsExt;
        let engine = engine();
        let dir = temp_dir("perm");
        load(&engine, WAT_MODULE, "abc", Some(&dir)).unwrap();
        let path = dir.join(file_name(&engine, "abc"));
        fs::set_permissions(&path, fs::Permissions::from_mode(0o666)).unwrap();
        assert!(read_trusted(&dir, &path).is_none());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_unwritable_cache_dir_still_gives_a_module() {
        let engine = engine();
        let file = temp_dir("notadir");
        fs::write(&file, b"a file, not a directory").unwrap();
        let (_, origin) = load(&engine, WAT_MODULE, "abc", Some(&file.join("sub"))).unwrap();
        assert_eq!(origin, Origin::Compiled);
        fs::remove_file(&file).unwrap();
    }
}
