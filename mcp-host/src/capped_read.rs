//! Reading a file's bytes within a size cap, looking at the call's stop
//! flag between chunks; a large file by several threads at once.
//!
//! Reading a large file into a fresh buffer is mostly two costs: copying
//! out of the page cache and faulting in the buffer's pages. Both divide
//! across cores, so on Unix a file of [`STRETCHED_READ_MIN`] or more is cut
//! into one stretch per core, each read where it lies (`read_at`) by its
//! own thread into its own part of the buffer. (The benchmark's 36 MB CSV
//! file: 19 ms read by one thread, about 12 ms by two.) The file may change
//! while it is read, as it may for a sequential read, and the result is the
//! same as one: a file that grew since its size was taken is read on to
//! its end (and still refused past the cap), and one that shrank is read
//! again from its start, by one thread.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};

use crate::bounded::StopFlag;

/// How much is read between two looks at the call's stop flag.
const READ_CHUNK: usize = 4 << 20;

/// The smallest file read in stretches: below it, starting threads costs
/// about what they would save.
const STRETCHED_READ_MIN: u64 = 8 << 20;

/// Most threads one file is read by.
const MAX_READERS: usize = 8;

/// Why a file's bytes were not read.
#[derive(Debug)]
pub(crate) enum ReadError {
    /// Its size, taken before reading, is over the cap.
    Over(u64),
    /// It grew past the cap while it was read.
    GrewPast,
    /// The call's stop flag was set.
    Stopped,
    Io(io::Error),
}

/// The bytes of `file`, whose size was `size` when it was opened: every
/// byte up to its end, or an error when there are more than `max_bytes`.
pub(crate) fn read_capped(file: &File, size: u64, max_bytes: u64, stop: &StopFlag) -> Result<Vec<u8>, ReadError> {
    if size > max_bytes {
        return Err(ReadError::Over(size));
    }
    let mut bytes = Vec::new();
    #[cfg(unix)]
    if size >= STRETCHED_READ_MIN {
        // None (fewer bytes than its size): read it again from its start.
        if let Some(read) = read_in_stretches(file, size, stop)? {
            bytes = read;
        }
    }
    if bytes.is_empty() {
        bytes.reserve_exact(usize::try_from(size).unwrap_or(0));
    }
    let mut reader = file;
    reader.seek(SeekFrom::Start(bytes.len() as u64)).map_err(ReadError::Io)?;
    // take(): a file that grows while it is read still stops past the cap.
    let mut reader = reader.take((max_bytes + 1).saturating_sub(bytes.len() as u64));
    loop {
        if stop.is_set() {
            return Err(ReadError::Stopped);
        }
        let before = bytes.len();
        (&mut reader).take(READ_CHUNK as u64).read_to_end(&mut bytes).map_err(ReadError::Io)?;
        if bytes.len() == before {
            break;
        }
    }
    if bytes.len() as u64 > max_bytes {
        return Err(ReadError::GrewPast);
    }
    Ok(bytes)
}

/// The first `size` bytes of `file`, read by a thread per core, each its
/// own stretch; `None` when the file has fewer (it shrank), or when there
/// is one core.
#[cfg(unix)]
fn read_in_stretches(file: &File, size: u64, stop: &StopFlag) -> Result<Option<Vec<u8>>, ReadError> {
    let readers = std::thread::available_parallelism().map_or(1, std::num::NonZero::get).min(MAX_READERS);
    let Ok(size) = usize::try_from(size) else { return Ok(None) };
    if readers < 2 {
        return Ok(None);
    }
    let mut bytes = vec![0; size];
    let share = size.div_ceil(readers);
    let results: Vec<Result<(), ReadError>> = std::thread::scope(|scope| {
        let threads: Vec<_> = bytes
            .chunks_mut(share)
            .enumerate()
            .map(|(index, stretch)| scope.spawn(move || read_stretch(file, stretch, (index * share) as u64, stop)))
            .collect();
        threads
            .into_iter()
            .map(|thread| {
                thread.join().unwrap_or_else(|_| Err(ReadError::Io(io::Error::other("a reading thread panicked"))))
            })
            .collect()
    });
    for result in results {
        match result {
            Ok(()) => {}
            Err(ReadError::Io(err)) if err.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
            Err(err) => return Err(err),
        }
    }
    Ok(Some(bytes))
}

/// Fill `stretch` with the file's bytes from `offset` on, a chunk at a time.
#[cfg(unix)]
fn read_stretch(file: &File, stretch: &mut [u8], offset: u64, stop: &StopFlag) -> Result<(), ReadError> {
    use std::os::unix::fs::FileExt;
    let mut at = offset;
    for chunk in stretch.chunks_mut(READ_CHUNK) {
        if stop.is_set() {
            return Err(ReadError::Stopped);
        }
        file.read_exact_at(chunk, at).map_err(ReadError::Io)?;
        at += chunk.len() as u64;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    /// A text of `size` bytes whose every byte depends on where it is (a
    /// stretch read into the wrong place shows), with characters of two to
    /// four bytes that fall across stretch and chunk boundaries.
    fn patterned(size: usize) -> Vec<u8> {
        let mut text = Vec::with_capacity(size + 8);
        let mut n: u64 = 0;
        while text.len() < size {
            match n % 7 {
                0 => text.extend_from_slice("é".as_bytes()),
                3 => text.extend_from_slice("€".as_bytes()),
                5 => text.extend_from_slice("𝄞".as_bytes()),
                _ => text.extend_from_slice(format!("{n},").as_bytes()),
            }
            n += 1;
        }
        text.truncate(size);
        text
    }

    /// A file holding `bytes` (removed when the guard is dropped), opened for reading.
    fn file_with(name: &str, bytes: &[u8]) -> (RemoveOnDrop, File) {
        let path = std::env::temp_dir().join(format!("mcpv-capped-read-{name}-{}", std::process::id()));
        File::create(&path).and_then(|mut file| file.write_all(bytes)).unwrap();
        let file = File::open(&path).unwrap();
        (RemoveOnDrop(path), file)
    }

    struct RemoveOnDrop(std::path::PathBuf);

    impl Drop for RemoveOnDrop {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    #[test]
    fn a_large_file_is_read_whole_and_in_order() {
        // Sizes that leave the last stretch and the last chunk short.
        for size in [STRETCHED_READ_MIN as usize, STRETCHED_READ_MIN as usize + 3, 3 * READ_CHUNK + 12_345] {
            let text = patterned(size);
            let (_named, file) = file_with(&format!("whole-{size}"), &text);
            let read = read_capped(&file, size as u64, 64 << 20, &StopFlag::never()).unwrap();
            assert!(read == text, "{size} bytes read back differ");
            // In stretches, not by falling back to one thread (with two
            // cores or more, as this machine and CI have).
            if std::thread::available_parallelism().map_or(1, std::num::NonZero::get) > 1 {
                let stretched = read_in_stretches(&file, size as u64, &StopFlag::never()).unwrap();
                assert!(stretched.is_some_and(|read| read == text), "{size} bytes read in stretches differ");
            }
        }
    }

    #[test]
    fn a_file_that_grew_or_shrank_after_its_size_was_taken_is_read_to_its_end() {
        let text = patterned(STRETCHED_READ_MIN as usize + 1000);
        let (_named, file) = file_with("changed", &text);
        // Its size taken when it was 1000 bytes shorter: the rest is read too.
        let read = read_capped(&file, STRETCHED_READ_MIN, 64 << 20, &StopFlag::never()).unwrap();
        assert!(read == text, "a grown file read back differs");
        // ... but not past the cap, whatever the size said.
        let cap = STRETCHED_READ_MIN + 500;
        assert!(matches!(read_capped(&file, STRETCHED_READ_MIN, cap, &StopFlag::never()), Err(ReadError::GrewPast)));
        // Its size taken when it was longer: read again, what it holds now.
        let read = read_capped(&file, STRETCHED_READ_MIN + 5000, 64 << 20, &StopFlag::never()).unwrap();
        assert!(read == text, "a shrunk file read back differs");
    }

    #[test]
    fn the_cap_and_the_stop_flag_hold_for_every_size() {
        let text = patterned(STRETCHED_READ_MIN as usize);
        let (_named, file) = file_with("capped", &text);
        let size = text.len() as u64;
        assert!(matches!(read_capped(&file, size, size - 1, &StopFlag::never()), Err(ReadError::Over(s)) if s == size));
        let stop = StopFlag::never();
        stop.set();
        assert!(matches!(read_capped(&file, size, size, &stop), Err(ReadError::Stopped)));
        let (_small, small_file) = file_with("small", b"a,b\n1,2\n");
        assert_eq!(read_capped(&small_file, 8, 8, &StopFlag::never()).unwrap(), b"a,b\n1,2\n");
        assert!(matches!(read_capped(&small_file, 8, 8, &stop), Err(ReadError::Stopped)));
    }
}
