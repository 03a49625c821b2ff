//! Files behind a trust boundary: the `path` argument.
//!
//! The module has no file access at all. The host reads a file for a call
//! only when the operator listed directories with `--data-root`, and only a
//! file that resolves, after every `..` and symbolic link, to a place inside
//! one of them. Anything else is refused with the offending path, before a
//! byte of it is read. The caller (a model) chooses the path, so the
//! directories are the operator's decision, never the call's.

use std::fs::File;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// The directories `path` arguments may name files under.
#[derive(Debug, Clone, Default)]
pub struct DataRoots {
    /// Canonical (absolute, symlink-free) directories.
    roots: Vec<PathBuf>,
    /// Largest file that will be read, in bytes.
    max_bytes: u64,
}

/// The data a file holds, in the form a check takes it.
#[derive(Debug, PartialEq, Eq)]
pub enum FileData {
    /// CSV text, passed as the `csv` argument.
    Csv(String),
    /// A JSON array's text, checked to be one, passed as the `rows` argument.
    JsonArray(Vec<u8>),
}

impl DataRoots {
    /// Resolve the operator's directories now, so a later rename cannot
    /// move the boundary. Each must exist and be a directory.
    pub fn new(directories: &[PathBuf], max_bytes: u64) -> Result<Self, String> {
        let mut roots = Vec::new();
        for directory in directories {
            let canonical =
                directory.canonicalize().map_err(|err| format!("--data-root {}: {err}", directory.display()))?;
            if !canonical.is_dir() {
                return Err(format!("--data-root {}: not a directory", directory.display()));
            }
            roots.push(canonical);
        }
        Ok(DataRoots { roots, max_bytes })
    }

    /// The canonical file `requested` names, if it lies inside a root. A
    /// relative path is taken relative to the first root.
    pub fn resolve(&self, requested: &str) -> Result<PathBuf, String> {
        let Some(first) = self.roots.first() else {
            return Err(format!(
                "cannot read {requested:?}: this server has no file access (start it with --data-root DIR to allow \
files under DIR); pass the data as \"rows\" or \"csv\" instead"
            ));
        };
        let given = Path::new(requested);
        let joined = if given.is_absolute() { given.to_path_buf() } else { first.join(given) };
        let outside = || {
            format!(
                "refused {requested:?}: it is outside the data roots this server allows ({}); nothing was read",
                self.listing()
            )
        };
        // A path that does not resolve (missing, or a dangling link) says
        // which, unless it points outside anyway: then that is the answer.
        let canonical = match joined.canonicalize() {
            Ok(canonical) => canonical,
            Err(err) if lexically_inside(&joined, &self.roots) => {
                return Err(format!("cannot read {requested:?}: {err}"))
            }
            Err(_) => return Err(outside()),
        };
        if !self.roots.iter().any(|root| canonical.starts_with(root)) {
            return Err(outside());
        }
        if !canonical.is_file() {
            return Err(format!("cannot read {requested:?}: not a regular file"));
        }
        Ok(canonical)
    }

    /// Read the file `requested` names, by its extension: `.csv` (or `.tsv`
    /// is refused), `.json` (an array of rows) or `.jsonl`/`.ndjson` (one row
    /// per line).
    pub fn load(&self, requested: &str) -> Result<FileData, String> {
        let path = self.resolve(requested)?;
        let kind = extension_kind(&path).ok_or_else(|| {
            format!("cannot read {requested:?}: name a .csv, .json or .jsonl file (the extension says how to read it)")
        })?;
        let bytes = self.read_capped(&path, requested)?;
        match kind {
            Kind::Csv => String::from_utf8(bytes)
                .map(FileData::Csv)
                .map_err(|err| format!("cannot read {requested:?}: it is not UTF-8 text ({err})")),
            Kind::Json => {
                check_json_array(&bytes).map_err(|err| format!("cannot read {requested:?}: {err}"))?;
                Ok(FileData::JsonArray(bytes))
            }
            Kind::JsonLines => jsonl_to_array(&bytes)
                .map(FileData::JsonArray)
                .map_err(|err| format!("cannot read {requested:?}: {err}")),
        }
    }

    fn read_capped(&self, path: &Path, requested: &str) -> Result<Vec<u8>, String> {
        let file = File::open(path).map_err(|err| format!("cannot read {requested:?}: {err}"))?;
        let size = file.metadata().map_or(0, |m| m.len());
        if size > self.max_bytes {
            return Err(format!(
                "cannot read {requested:?}: it is {size} bytes, over the {} byte limit; raise it with --max-file-mib \
or MCP_VALIDATION_MAX_FILE_MIB",
                self.max_bytes
            ));
        }
        let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
        // take(): a file that grows while it is read still stops at the limit.
        file.take(self.max_bytes + 1)
            .read_to_end(&mut bytes)
            .map_err(|err| format!("cannot read {requested:?}: {err}"))?;
        if bytes.len() as u64 > self.max_bytes {
            return Err(format!("cannot read {requested:?}: it grew past the {} byte limit", self.max_bytes));
        }
        Ok(bytes)
    }

    fn listing(&self) -> String {
        self.roots.iter().map(|root| root.display().to_string()).collect::<Vec<_>>().join(", ")
    }
}

enum Kind {
    Csv,
    Json,
    JsonLines,
}

fn extension_kind(path: &Path) -> Option<Kind> {
    let extension = path.extension()?.to_str()?.to_ascii_lowercase();
    match extension.as_str() {
        "csv" => Some(Kind::Csv),
        "json" => Some(Kind::Json),
        "jsonl" | "ndjson" => Some(Kind::JsonLines),
        _ => None,
    }
}

/// Whether `path`, with `.` and `..` applied as text, stays inside a root.
fn lexically_inside(path: &Path, roots: &[PathBuf]) -> bool {
    let mut normal = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                normal.pop();
            }
            Component::CurDir => {}
            other => normal.push(other),
        }
    }
    roots.iter().any(|root| normal.starts_with(root))
}

/// A JSON file must hold one array (of rows); anything else is refused here
/// with a message about the file rather than about the call.
fn check_json_array(bytes: &[u8]) -> Result<(), String> {
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if first != Some(&b'[') {
        return Err("a .json file must hold one JSON array of rows".into());
    }
    serde_json::from_slice::<serde::de::IgnoredAny>(bytes).map(|_| ()).map_err(|err| format!("not valid JSON: {err}"))
}

/// JSON Lines as one JSON array: each non-blank line is a row, checked to be
/// JSON, and the error names the line.
fn jsonl_to_array(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(bytes.len() + 2);
    out.push(b'[');
    let mut first = true;
    for (number, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        serde_json::from_slice::<serde::de::IgnoredAny>(line)
            .map_err(|err| format!("line {} is not valid JSON: {err}", number + 1))?;
        if !first {
            out.push(b',');
        }
        out.extend_from_slice(line);
        first = false;
    }
    out.push(b']');
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_lines_become_one_array() {
        let array = jsonl_to_array(b"{\"a\": 1}\r\n\n{\"a\": 2}\n").unwrap();
        assert_eq!(array, b"[{\"a\": 1},{\"a\": 2}]");
        assert!(jsonl_to_array(b"{\"a\": 1}\n{oops}\n").unwrap_err().contains("line 2"));
    }

    #[test]
    fn a_json_file_must_be_an_array() {
        assert!(check_json_array(b" [1, 2]").is_ok());
        assert!(check_json_array(b"{\"rows\": []}").is_err());
        assert!(check_json_array(b"[1, 2").is_err());
    }

    #[test]
    fn dot_dot_is_applied_before_the_boundary_check() {
        let roots = [PathBuf::from("/data")];
        assert!(lexically_inside(Path::new("/data/a/../b.csv"), &roots));
        assert!(!lexically_inside(Path::new("/data/../etc/passwd"), &roots));
    }
}
