//! Files behind a trust boundary: the `path` argument.
//!
//! The module has no file access at all. The host reads a file for a call
//! only when the operator listed directories with `--data-root`, and only a
//! file opened through one of them without leaving it (see
//! [`crate::confined_dir`]: no `..`, symbolic link, absolute path or magic
//! link leads out, and no rename during the call can change that). Anything
//! else is refused, naming the path the call gave and nothing of the
//! operator's directories, before a byte of it is read. The caller (a model)
//! chooses the path, so the directories are the operator's decision, never
//! the call's.

use std::fmt;
use std::fs::File;
use std::path::{Path, PathBuf};

use crate::bounded::StopFlag;
use crate::capped_read::{self, ReadError};
use crate::confined_dir::{ConfinedDir, OpenRefusal};

/// The directories `path` arguments may name files under.
#[derive(Debug, Default)]
pub struct DataRoots {
    /// Opened when the server started; the first takes relative paths.
    roots: Vec<ConfinedDir>,
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

/// Why the file a `path` names was not read, for an `isError` result: a
/// stable code for programs and a message for the model, naming the path as
/// the call gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileError {
    /// Stable: `no_file_access`, `path_outside_roots`, `file_not_found`,
    /// `not_a_regular_file`, `unsupported_file_type`, `file_too_large`,
    /// `file_unreadable`, `file_invalid` or `stopped`.
    pub code: &'static str,
    /// What was wrong, starting with the path.
    pub message: String,
}

impl FileError {
    fn new(code: &'static str, message: String) -> FileError {
        FileError { code, message }
    }

    /// A file that was read but whose content is unusable.
    pub fn invalid(requested: &str, why: &str) -> FileError {
        FileError::new("file_invalid", format!("cannot read {requested:?}: {why}"))
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl DataRoots {
    /// Open the operator's directories now, so a later rename cannot move
    /// the boundary. Each must exist and be a directory. `/` is accepted
    /// with a warning in the log: it opens the whole file system.
    pub fn new(directories: &[PathBuf], max_bytes: u64) -> Result<Self, String> {
        let mut roots = Vec::new();
        for directory in directories {
            let root =
                ConfinedDir::open(directory).map_err(|err| format!("--data-root {}: {err}", directory.display()))?;
            if root.is_filesystem_root() {
                tracing::warn!(
                    "--data-root {}: this lets every call read any file this process can read, on the whole file system",
                    directory.display()
                );
            }
            roots.push(root);
        }
        Ok(DataRoots { roots, max_bytes })
    }

    /// Read the file `requested` names, by its extension: `.csv`, `.json`
    /// (an array of rows) or `.jsonl`/`.ndjson` (one row per line). A
    /// relative path is taken relative to the first root; an absolute one
    /// must be spelled as lying under a root. Between chunks the read looks
    /// at `stop`, and gives up when it is set.
    pub fn load(&self, requested: &str, stop: &StopFlag) -> Result<FileData, FileError> {
        let (file, size) = self.open(requested)?;
        let kind = extension_kind(Path::new(requested)).ok_or_else(|| {
            FileError::new(
                "unsupported_file_type",
                format!(
                    "cannot read {requested:?}: name a .csv, .json or .jsonl file (the extension says how to read it)"
                ),
            )
        })?;
        let bytes = self.read_capped(&file, size, requested, stop)?;
        let invalid = |why: String| FileError::invalid(requested, &why);
        match kind {
            Kind::Csv => String::from_utf8(bytes)
                .map(FileData::Csv)
                .map_err(|err| invalid(format!("it is not UTF-8 text ({err})"))),
            Kind::Json => {
                check_json_array(&bytes).map_err(invalid)?;
                Ok(FileData::JsonArray(bytes))
            }
            Kind::JsonLines => jsonl_to_array(&bytes).map(FileData::JsonArray).map_err(invalid),
        }
    }

    /// The regular file `requested` names, opened inside its root, and its size.
    fn open(&self, requested: &str) -> Result<(File, u64), FileError> {
        let Some(first) = self.roots.first() else {
            return Err(FileError::new(
                "no_file_access",
                format!(
                    "cannot read {requested:?}: this server has no file access (its operator can allow files under a \
directory by starting it with --data-root DIR); pass the data as \"rows\" or \"csv\" instead"
                ),
            ));
        };
        let outside = || {
            FileError::new(
                "path_outside_roots",
                format!(
                    "refused {requested:?}: it leads outside the directories this server may read; nothing was read"
                ),
            )
        };
        let given = Path::new(requested);
        let (root, relative) = if given.is_absolute() {
            self.roots.iter().find_map(|root| root.strip(given).map(|rest| (root, rest))).ok_or_else(outside)?
        } else {
            (first, given)
        };
        match root.open_regular_file(relative) {
            Ok((file, metadata)) => Ok((file, metadata.len())),
            Err(OpenRefusal::Outside) => Err(outside()),
            Err(OpenRefusal::NotFound) => {
                Err(FileError::new("file_not_found", format!("cannot read {requested:?}: there is no such file")))
            }
            Err(OpenRefusal::NotRegular(what)) => Err(FileError::new(
                "not_a_regular_file",
                format!("cannot read {requested:?}: it is {what}, not a regular file; nothing was read"),
            )),
            Err(OpenRefusal::Io(err)) => {
                Err(FileError::new("file_unreadable", format!("cannot read {requested:?}: {err}")))
            }
        }
    }

    fn read_capped(&self, file: &File, size: u64, requested: &str, stop: &StopFlag) -> Result<Vec<u8>, FileError> {
        let too_large = |what: String| {
            FileError::new(
                "file_too_large",
                format!(
                    "cannot read {requested:?}: {what} the {} byte limit (the server's operator can raise it with \
--max-file-mib)",
                    self.max_bytes
                ),
            )
        };
        capped_read::read_capped(file, size, self.max_bytes, stop).map_err(|err| match err {
            ReadError::Over(size) => too_large(format!("it is {size} bytes, over")),
            ReadError::GrewPast => too_large("it grew past".into()),
            ReadError::Stopped => FileError::new("stopped", format!("stopped reading {requested:?}")),
            ReadError::Io(err) => FileError::new("file_unreadable", format!("cannot read {requested:?}: {err}")),
        })
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
}
