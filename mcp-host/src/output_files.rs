//! Files written for a call, behind a second trust boundary: `export`.
//!
//! The module writes nothing; a `validate_rows` call with `export` hands the
//! host the files of its whole split (accepted rows, quarantined rows,
//! findings), already described in its result. The host writes them only
//! when the operator allowed directories with `--output-root` (none by
//! default: no writing at all), and only inside one of them: the directory a
//! call names (`export.dir`, created if it is not there) is reached through
//! the root's handle, so no `..`, symbolic link, absolute path or rename
//! leads out (see [`crate::confined_dir`]).
//!
//! Each file is written under a temporary name in that directory, flushed
//! to disk, then given its name in one step: a reader never sees half a
//! file. An existing file is never replaced unless the call says
//! `overwrite: true`, and then only a regular file. Either all the files
//! of a call get their names or none do: a refusal or a failure part way
//! removes what this call made.

use std::fmt;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use cap_std::fs::{Dir, OpenOptions};
use serde_json::Value;

use crate::confined_dir::{ConfinedDir, OpenRefusal};

/// The directories `export.dir` may name a directory under.
#[derive(Debug, Default)]
pub struct OutputRoots {
    /// Opened when the server started; the first takes relative paths.
    roots: Vec<Arc<ConfinedDir>>,
}

/// Why the files of an export were not written, for an `isError` result: a
/// stable code and a message naming the directory as the call gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputError {
    /// Stable: `no_output_access`, `path_outside_roots`, `not_a_directory`,
    /// `output_file_exists`, `not_a_regular_file`, `output_unwritable`.
    pub code: &'static str,
    /// What was wrong, starting with the directory or the file.
    pub message: String,
}

impl OutputError {
    fn new(code: &'static str, message: String) -> OutputError {
        OutputError { code, message }
    }
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Where one call's export goes: a directory under a root, as the call named
/// it, and whether existing files may be replaced. The directory is created
/// and opened only when there are files to write, so a call the module
/// refuses leaves nothing behind.
#[derive(Clone)]
pub struct ExportTarget {
    root: Arc<ConfinedDir>,
    relative: PathBuf,
    /// `export.dir` as the call gave it, for messages.
    requested: String,
    overwrite: bool,
}

impl fmt::Debug for ExportTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExportTarget")
            .field("dir", &self.requested)
            .field("relative", &self.relative)
            .field("overwrite", &self.overwrite)
            .finish_non_exhaustive()
    }
}

impl PartialEq for ExportTarget {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.root, &other.root)
            && self.relative == other.relative
            && self.requested == other.requested
            && self.overwrite == other.overwrite
    }
}

impl Eq for ExportTarget {}

/// What a call's `export` asks of this host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExportPlan {
    /// Write the files here.
    To(ExportTarget),
    /// `export` is there but not of the shape the module takes: the module
    /// refuses the call with an argument error naming what is wrong, so
    /// nothing will be written.
    Malformed,
}

impl OutputRoots {
    /// Open the operator's directories now, so a later rename cannot move
    /// the boundary. Each must exist and be a directory.
    pub fn new(directories: &[PathBuf]) -> Result<Self, String> {
        let mut roots = Vec::new();
        for directory in directories {
            let root =
                ConfinedDir::open(directory).map_err(|err| format!("--output-root {}: {err}", directory.display()))?;
            if root.is_filesystem_root() {
                return Err(format!(
                    "--output-root {}: writing anywhere on the file system is not allowed; name a directory for \
the files",
                    directory.display()
                ));
            }
            roots.push(Arc::new(root));
        }
        Ok(OutputRoots { roots })
    }

    /// What the `export` argument (its value, as given) asks for, or why
    /// this server cannot do it. Only the place is decided here; the module
    /// reads the rest of the argument.
    pub fn plan(&self, export: &Value) -> Result<ExportPlan, OutputError> {
        let (Some(Value::String(dir)), overwrite) = (export.get("dir"), export.get("overwrite")) else {
            return self.require_roots("(none)").map(|()| ExportPlan::Malformed);
        };
        let overwrite = match overwrite {
            None | Some(Value::Null) => false,
            Some(Value::Bool(overwrite)) => *overwrite,
            Some(_) => return Ok(ExportPlan::Malformed),
        };
        self.require_roots(dir)?;
        let given = Path::new(dir);
        let (root, relative) = if given.is_absolute() {
            self.roots.iter().find_map(|root| root.strip(given).map(|rest| (root, rest))).ok_or_else(|| outside(dir))?
        } else {
            (&self.roots[0], given)
        };
        Ok(ExportPlan::To(ExportTarget {
            root: Arc::clone(root),
            relative: relative.to_path_buf(),
            requested: dir.clone(),
            overwrite,
        }))
    }

    fn require_roots(&self, dir: &str) -> Result<(), OutputError> {
        if self.roots.is_empty() {
            return Err(OutputError::new(
                "no_output_access",
                format!(
                    "cannot write the export to {dir:?}: this server writes no files (its operator can allow a \
directory with --output-root DIR); ask for the lists you need with `lists` and `page` instead"
                ),
            ));
        }
        Ok(())
    }
}

fn outside(dir: &str) -> OutputError {
    OutputError::new(
        "path_outside_roots",
        format!("refused {dir:?}: it leads outside the directories this server may write in; nothing was written"),
    )
}

/// A file name the module handed over must be a plain name: it says where
/// in the export directory, never which directory.
fn plain_name(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\', '\0'])
}

/// Temporary names are unique within the process; the process id keeps two
/// servers writing into one directory apart.
static TEMPORARY: AtomicU64 = AtomicU64::new(0);

fn temporary_name(name: &str) -> String {
    let n = TEMPORARY.fetch_add(1, Ordering::Relaxed);
    format!(".{name}.{}-{n}.part", std::process::id())
}

impl ExportTarget {
    /// Write every file (name, bytes), each under a temporary name and then
    /// renamed into place; all of them or none.
    pub fn write_all(&self, files: &[(&str, &[u8])]) -> Result<(), OutputError> {
        if let Some((bad, _)) = files.iter().find(|(name, _)| !plain_name(name)) {
            return Err(self.unwritable(&format!("the module named a file {bad:?}, which is not a plain file name")));
        }
        let dir = self.open_dir()?;
        let mut written = Vec::new();
        for (name, bytes) in files {
            match self.write_temporary(&dir, name, bytes) {
                Ok(temporary) => written.push((temporary, *name)),
                Err(err) => {
                    remove_all(&dir, written.iter().map(|(temporary, _)| temporary.as_str()));
                    return Err(err);
                }
            }
        }
        let mut placed: Vec<&str> = Vec::new();
        for (index, (temporary, name)) in written.iter().enumerate() {
            if let Err(err) = self.place(&dir, temporary, name) {
                remove_all(&dir, written[index..].iter().map(|(temporary, _)| temporary.as_str()));
                // Files this call replaced are gone either way; those it
                // added are taken back, so no partial export is left.
                if !self.overwrite {
                    remove_all(&dir, placed.iter().copied());
                }
                return Err(err);
            }
            placed.push(name);
        }
        Ok(())
    }

    fn open_dir(&self) -> Result<Dir, OutputError> {
        let dir = &self.requested;
        self.root.open_or_create_dir(&self.relative).map_err(|refusal| match refusal {
            OpenRefusal::Outside => outside(dir),
            OpenRefusal::NotFound => OutputError::new(
                "not_a_directory",
                format!("cannot write the export to {dir:?}: a part of that path is missing or a dangling link"),
            ),
            OpenRefusal::NotRegular(what) => OutputError::new(
                "not_a_directory",
                format!("cannot write the export to {dir:?}: something there is {what}; nothing was written"),
            ),
            OpenRefusal::Io(err) => self.unwritable(&err.to_string()),
        })
    }

    fn unwritable(&self, why: &str) -> OutputError {
        OutputError::new(
            "output_unwritable",
            format!("cannot write the export to {:?}: {why}; nothing was written", self.requested),
        )
    }

    /// `bytes` in a new file under a temporary name, flushed to disk.
    fn write_temporary(&self, dir: &Dir, name: &str, bytes: &[u8]) -> Result<String, OutputError> {
        let temporary = temporary_name(name);
        let mut options = OpenOptions::new();
        // create_new: never opens what is already there, a link included.
        options.write(true).create_new(true);
        let written = dir.open_with(&temporary, &options).and_then(|file| {
            let mut file = file.into_std();
            file.write_all(bytes)?;
            file.sync_all()
        });
        match written {
            Ok(()) => Ok(temporary),
            Err(err) => {
                let _ = dir.remove_file(&temporary);
                Err(self.unwritable(&format!("{name}: {err}")))
            }
        }
    }

    /// Give the temporary file its name: a new link that fails if the name
    /// is taken, or with `overwrite` a rename over a regular file.
    fn place(&self, dir: &Dir, temporary: &str, name: &str) -> Result<(), OutputError> {
        let exists = || {
            OutputError::new(
                "output_file_exists",
                format!(
                    "{:?} already holds {name}; nothing was written (pass \"overwrite\": true in export to replace \
the files, or name another directory)",
                    self.requested
                ),
            )
        };
        if self.overwrite {
            if let Ok(metadata) = dir.symlink_metadata(name) {
                if !metadata.is_file() {
                    return Err(OutputError::new(
                        "not_a_regular_file",
                        format!(
                            "{:?} holds {name}, which is not a regular file, and only regular files are replaced; \
nothing was written",
                            self.requested
                        ),
                    ));
                }
            }
            return dir.rename(temporary, dir, name).map_err(|err| self.unwritable(&format!("{name}: {err}")));
        }
        match dir.hard_link(temporary, dir, name) {
            Ok(()) => {
                let _ = dir.remove_file(temporary);
                Ok(())
            }
            Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => Err(exists()),
            Err(err) => Err(self.unwritable(&format!("{name}: {err}"))),
        }
    }
}

fn remove_all<'n>(dir: &Dir, names: impl Iterator<Item = &'n str>) {
    for name in names {
        let _ = dir.remove_file(name);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("mcpv-output-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("root")).unwrap();
        std::fs::create_dir_all(dir.join("outside")).unwrap();
        dir
    }

    fn target(roots: &OutputRoots, export: &Value) -> ExportTarget {
        match roots.plan(export).unwrap() {
            ExportPlan::To(target) => target,
            ExportPlan::Malformed => panic!("{export} is well formed"),
        }
    }

    fn listing(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|entry| entry.unwrap().file_name().into_string().unwrap()).collect();
        names.sort();
        names
    }

    #[test]
    fn files_are_written_whole_into_a_new_directory() {
        let base = scratch("write");
        let roots = OutputRoots::new(&[base.join("root")]).unwrap();
        let to = target(&roots, &json!({"dir": "runs/today"}));
        to.write_all(&[("a.csv", b"x\n"), ("b.jsonl", b"")]).unwrap();
        let dir = base.join("root/runs/today");
        assert_eq!(listing(&dir), ["a.csv", "b.jsonl"], "no temporary file is left");
        assert_eq!(std::fs::read(dir.join("a.csv")).unwrap(), b"x\n");
        // A second call may not replace them, and changes nothing.
        let err = to.write_all(&[("c.csv", b"new"), ("a.csv", b"y\n")]).unwrap_err();
        assert_eq!(err.code, "output_file_exists");
        assert_eq!(listing(&dir), ["a.csv", "b.jsonl"], "c.csv was taken back");
        assert_eq!(std::fs::read(dir.join("a.csv")).unwrap(), b"x\n");
        // Unless it says so.
        target(&roots, &json!({"dir": "runs/today", "overwrite": true})).write_all(&[("a.csv", b"y\n")]).unwrap();
        assert_eq!(std::fs::read(dir.join("a.csv")).unwrap(), b"y\n");
    }

    #[test]
    fn without_roots_nothing_is_written() {
        let err = OutputRoots::default().plan(&json!({"dir": "out"})).unwrap_err();
        assert_eq!(err.code, "no_output_access");
        assert!(err.message.contains("--output-root"), "{}", err.message);
        assert!(OutputRoots::new(&[PathBuf::from("/")]).is_err(), "the whole file system is not an output root");
    }

    #[cfg(unix)]
    #[test]
    fn every_way_out_is_refused() {
        use std::os::unix::fs::symlink;
        let base = scratch("escape");
        symlink(base.join("outside"), base.join("root/door")).unwrap();
        symlink("../outside", base.join("root/relative")).unwrap();
        std::fs::write(base.join("root/plain.txt"), "a file").unwrap();
        let roots = OutputRoots::new(&[base.join("root")]).unwrap();
        let outside = base.join("outside");
        for (dir, code) in [
            ("../outside", "path_outside_roots"),
            ("door", "path_outside_roots"),
            ("relative/deeper", "path_outside_roots"),
            (outside.to_str().unwrap(), "path_outside_roots"),
            ("plain.txt", "not_a_directory"),
        ] {
            let err = match roots.plan(&json!({"dir": dir})) {
                Err(err) => err,
                Ok(ExportPlan::To(to)) => to.write_all(&[("a.csv", b"x")]).unwrap_err(),
                Ok(ExportPlan::Malformed) => panic!("{dir}: well formed"),
            };
            assert_eq!(err.code, code, "{dir}: {}", err.message);
        }
        assert!(listing(&outside).is_empty(), "nothing was written outside");
    }

    #[cfg(unix)]
    #[test]
    fn only_regular_files_are_replaced_and_links_are_not_followed() {
        use std::os::unix::fs::symlink;
        let base = scratch("special");
        std::fs::create_dir_all(base.join("root/out")).unwrap();
        let made = std::process::Command::new("mkfifo").arg(base.join("root/out/a.csv")).status().unwrap();
        assert!(made.success());
        std::fs::write(base.join("outside/secret"), "secret").unwrap();
        symlink(base.join("outside/secret"), base.join("root/out/b.csv")).unwrap();
        let roots = OutputRoots::new(&[base.join("root")]).unwrap();
        // Without overwrite: both names are taken.
        let err = target(&roots, &json!({"dir": "out"})).write_all(&[("a.csv", b"x")]).unwrap_err();
        assert_eq!(err.code, "output_file_exists");
        let err = target(&roots, &json!({"dir": "out"})).write_all(&[("b.csv", b"x")]).unwrap_err();
        assert_eq!(err.code, "output_file_exists");
        // With overwrite: neither a FIFO nor a link is replaced or written through.
        let overwrite = target(&roots, &json!({"dir": "out", "overwrite": true}));
        assert_eq!(overwrite.write_all(&[("a.csv", b"x")]).unwrap_err().code, "not_a_regular_file");
        assert_eq!(overwrite.write_all(&[("b.csv", b"x")]).unwrap_err().code, "not_a_regular_file");
        assert_eq!(std::fs::read(base.join("outside/secret")).unwrap(), b"secret");
        assert_eq!(listing(&base.join("root/out")), ["a.csv", "b.csv"], "no temporary file is left");
    }

    #[test]
    fn a_malformed_export_is_left_to_the_module() {
        let base = scratch("malformed");
        let roots = OutputRoots::new(&[base.join("root")]).unwrap();
        assert_eq!(roots.plan(&json!({"dir": 3})).unwrap(), ExportPlan::Malformed);
        assert_eq!(roots.plan(&json!("out")).unwrap(), ExportPlan::Malformed);
        assert_eq!(roots.plan(&json!({"dir": "a", "overwrite": "yes"})).unwrap(), ExportPlan::Malformed);
        let err = target(&roots, &json!({"dir": "a"})).write_all(&[("../x", b"")]).unwrap_err();
        assert_eq!(err.code, "output_unwritable");
    }
}
