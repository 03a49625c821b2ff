//! A directory the server may reach files through, and nothing beyond it.
//!
//! The operator names the directory; a call (a model) names a path inside it.
//! Checking the name and then opening it again is a race: between the two,
//! anyone who can rename entries inside the directory can swap in a symbolic
//! link to somewhere else, a FIFO that blocks the open, or a link into
//! `/proc`. So nothing here checks a name. The directory is opened once, when
//! the server starts, and every file is opened relative to that handle by
//! `cap-std`: on Linux 5.6 and later one `openat2` with `RESOLVE_BENEATH |
//! RESOLVE_NO_MAGICLINKS`, which the kernel resolves in one step and refuses
//! to let leave the directory (through `..`, an absolute path or symbolic
//! link, or a magic link); elsewhere, the same rules applied one component at
//! a time with `O_NOFOLLOW`. What is then checked (a regular file, its size)
//! is checked on the opened handle, which no rename can change.
//!
//! The open itself never waits: it is non-blocking (a FIFO without a writer
//! opens at once instead of hanging) and takes no controlling terminal; a
//! handle that is not a regular file is dropped unread.
//!
//! Not covered, by any path-based boundary: a hard link inside the directory
//! to a file elsewhere (on Linux, `fs.protected_hardlinks` stops users from
//! making one to a file they do not own) and a file system mounted inside
//! it. Both take someone who can already change the directory's contents
//! as the operator could.

use std::fs::{File, Metadata};
use std::io;
use std::path::{Path, PathBuf};

use cap_std::ambient_authority;
use cap_std::fs::{Dir, OpenOptions};

/// A directory opened once, through which files are opened without leaving it.
#[derive(Debug)]
pub struct ConfinedDir {
    dir: Dir,
    /// Where the directory was when it was opened, symbolic links resolved.
    canonical: PathBuf,
    /// The operator's spelling of it, made absolute (absolute paths in calls
    /// may use either).
    given: PathBuf,
}

/// Why a file was not opened. Each case is decided on what the kernel
/// reported for the confined open, or on the opened handle.
#[derive(Debug)]
pub enum OpenRefusal {
    /// The path leads out of the directory.
    Outside,
    /// Nothing is there (or a symbolic link inside points at nothing).
    NotFound,
    /// Something is there, but not what was asked for (a regular file to
    /// read, a directory to write in); it was not read. Says what it is.
    NotRegular(&'static str),
    /// The open or the check failed for another reason.
    Io(io::Error),
}

impl ConfinedDir {
    /// Open the operator's directory `path`. It must exist and be a directory.
    pub fn open(path: &Path) -> io::Result<ConfinedDir> {
        let canonical = path.canonicalize()?;
        let dir = Dir::open_ambient_dir(&canonical, ambient_authority())?;
        let given = std::path::absolute(path)?;
        Ok(ConfinedDir { dir, canonical, given })
    }

    /// The directory as the operator's logs should show it.
    pub fn shown(&self) -> &Path {
        &self.canonical
    }

    /// Whether this directory is the root of the file system.
    pub fn is_filesystem_root(&self) -> bool {
        self.canonical.parent().is_none()
    }

    /// The part of the absolute path `requested` below this directory, if it
    /// is spelled as lying under it (by either spelling of the directory).
    /// Only the spelling is looked at: where it leads is for [`Self::open_regular_file`].
    pub fn strip<'p>(&self, requested: &'p Path) -> Option<&'p Path> {
        requested.strip_prefix(&self.canonical).or_else(|_| requested.strip_prefix(&self.given)).ok()
    }

    /// Open the regular file at `relative` for reading, and its metadata as
    /// of the open. Anything else at that name is refused without a byte
    /// read, and the open never blocks.
    pub fn open_regular_file(&self, relative: &Path) -> Result<(File, Metadata), OpenRefusal> {
        let mut options = OpenOptions::new();
        options.read(true);
        #[cfg(unix)]
        {
            use cap_std::fs::OpenOptionsExt as _;
            options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
        }
        let file = self.dir.open_with(relative, &options).map_err(Self::refusal)?.into_std();
        let metadata = file.metadata().map_err(OpenRefusal::Io)?;
        if !metadata.is_file() {
            return Err(OpenRefusal::NotRegular(kind_of(&metadata)));
        }
        Ok((file, metadata))
    }

    /// The directory at `relative`, created (with its parents) if it is not
    /// there yet, opened as a handle through which files are made without
    /// leaving it. The same rules as for reading hold for every component:
    /// nothing leads out of this directory.
    pub fn open_or_create_dir(&self, relative: &Path) -> Result<Dir, OpenRefusal> {
        if relative.as_os_str().is_empty() || relative == Path::new(".") {
            return self.dir.try_clone().map_err(OpenRefusal::Io);
        }
        match self.dir.create_dir_all(relative) {
            Ok(()) => {}
            // Something that is not a directory is in the way; opening says what.
            Err(err) if err.kind() == io::ErrorKind::AlreadyExists => {}
            Err(err) => return Err(Self::refusal(err)),
        }
        self.dir.open_dir(relative).map_err(|err| {
            #[cfg(unix)]
            if err.raw_os_error() == Some(libc::ENOTDIR) {
                return OpenRefusal::NotRegular("not a directory");
            }
            Self::refusal(err)
        })
    }

    fn refusal(err: io::Error) -> OpenRefusal {
        if is_escape(&err) {
            return OpenRefusal::Outside;
        }
        match err.kind() {
            io::ErrorKind::NotFound => OpenRefusal::NotFound,
            // A socket (or a device with no driver) cannot be opened at all.
            #[cfg(unix)]
            _ if err.raw_os_error() == Some(libc::ENXIO) => OpenRefusal::NotRegular("a socket or a device"),
            _ => OpenRefusal::Io(err),
        }
    }
}

/// cap-std's report that a path would have left the directory (the kernel's
/// `EXDEV` for `RESOLVE_BENEATH`, or the same verdict from its fallback).
/// It has no error kind of its own; a test below keeps this in step with it.
fn is_escape(err: &io::Error) -> bool {
    err.kind() == io::ErrorKind::PermissionDenied && err.to_string() == "a path led outside of the filesystem"
}

fn kind_of(metadata: &Metadata) -> &'static str {
    let file_type = metadata.file_type();
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_socket() {
            return "a socket";
        }
        if file_type.is_char_device() || file_type.is_block_device() {
            return "a device";
        }
    }
    if file_type.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("mcpv-confined-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("root/sub")).unwrap();
        std::fs::create_dir_all(dir.join("outside")).unwrap();
        std::fs::write(dir.join("root/inside.csv"), "inside").unwrap();
        std::fs::write(dir.join("root/sub/deeper.csv"), "deeper").unwrap();
        std::fs::write(dir.join("outside/secret.csv"), "secret").unwrap();
        dir
    }

    fn read(dir: &ConfinedDir, relative: &str) -> Result<String, OpenRefusal> {
        let (mut file, _) = dir.open_regular_file(Path::new(relative))?;
        let mut text = String::new();
        io::Read::read_to_string(&mut file, &mut text).map_err(OpenRefusal::Io)?;
        Ok(text)
    }

    #[test]
    fn files_inside_open_and_links_that_stay_inside_are_followed() {
        let base = scratch("inside");
        #[cfg(unix)]
        std::os::unix::fs::symlink("sub/deeper.csv", base.join("root/alias.csv")).unwrap();
        let dir = ConfinedDir::open(&base.join("root")).unwrap();
        assert_eq!(read(&dir, "inside.csv").unwrap(), "inside");
        assert_eq!(read(&dir, "sub/../sub/deeper.csv").unwrap(), "deeper");
        #[cfg(unix)]
        assert_eq!(read(&dir, "alias.csv").unwrap(), "deeper");
        assert!(matches!(read(&dir, "missing.csv"), Err(OpenRefusal::NotFound)));
        assert!(matches!(read(&dir, "sub"), Err(OpenRefusal::NotRegular("a directory"))));
    }

    #[test]
    fn every_way_out_is_an_escape() {
        let base = scratch("escape");
        #[cfg(unix)]
        {
            use std::os::unix::fs::symlink;
            symlink(base.join("outside/secret.csv"), base.join("root/absolute.csv")).unwrap();
            symlink("../outside/secret.csv", base.join("root/relative.csv")).unwrap();
            symlink(base.join("outside"), base.join("root/door")).unwrap();
            symlink("/proc/self/environ", base.join("root/environ.csv")).unwrap();
            symlink(base.join("outside/nothing.csv"), base.join("root/dangling.csv")).unwrap();
        }
        let dir = ConfinedDir::open(&base.join("root")).unwrap();
        let secret = base.join("outside/secret.csv");
        let mut ways_out = vec!["../outside/secret.csv", "sub/../../outside/secret.csv", secret.to_str().unwrap()];
        #[cfg(unix)]
        ways_out.extend(["absolute.csv", "relative.csv", "door/secret.csv", "environ.csv", "dangling.csv"]);
        for way in ways_out {
            match read(&dir, way) {
                Err(OpenRefusal::Outside) => {}
                other => panic!("{way}: expected an escape, got {other:?}"),
            }
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_or_a_socket_is_refused_without_waiting() {
        let base = scratch("special");
        let fifo = base.join("root/pipe.csv");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success(), "mkfifo");
        let _listener = std::os::unix::net::UnixListener::bind(base.join("root/socket.csv")).unwrap();
        let dir = ConfinedDir::open(&base.join("root")).unwrap();
        // A blocking open of a FIFO with no writer would never return, and
        // this test would hang instead of failing.
        assert!(matches!(read(&dir, "pipe.csv"), Err(OpenRefusal::NotRegular("a FIFO"))));
        assert!(matches!(read(&dir, "socket.csv"), Err(OpenRefusal::NotRegular("a socket or a device"))));
    }

    #[test]
    fn absolute_paths_are_placed_by_either_spelling_of_the_directory() {
        let base = scratch("spelling");
        // The operator names the root through a symbolic link.
        #[cfg(unix)]
        std::os::unix::fs::symlink(base.join("root"), base.join("alias")).unwrap();
        #[cfg(not(unix))]
        std::fs::create_dir_all(base.join("alias")).unwrap();
        let dir = ConfinedDir::open(&base.join("alias")).unwrap();
        let canonical = base.canonicalize().unwrap().join("root/inside.csv");
        assert_eq!(dir.strip(&canonical), Some(Path::new("inside.csv")));
        assert_eq!(dir.strip(&base.join("alias/inside.csv")), Some(Path::new("inside.csv")));
        // Only the spelling is looked at: `..` is left for the confined open.
        assert_eq!(dir.strip(&base.join("alias/../outside/secret.csv")), Some(Path::new("../outside/secret.csv")));
        assert_eq!(dir.strip(&base.join("outside/secret.csv")), None);
        assert!(!dir.is_filesystem_root());
        assert!(ConfinedDir::open(Path::new("/")).unwrap().is_filesystem_root());
    }
}
