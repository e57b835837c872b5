//! Reading a DimSpec file: memory-mapped when it is a large regular file, read into memory
//! otherwise (small files, pipes, devices, or when mapping fails).

use crate::{parse, Error, Problem};
use std::fs::File;
use std::io::Read;
use std::path::Path;

/// Files at least this large are memory-mapped; smaller ones are read (mapping costs more).
const MMAP_THRESHOLD: u64 = 1 << 20;

/// Reads and parses the DimSpec file at `path`.
///
/// # Errors
/// [`Error::Io`] if the file cannot be opened or read, [`Error::Parse`] if it is malformed (an
/// empty file is malformed: see [`crate::Reason::NoSection`]). Both display as one line starting
/// with the path.
pub fn read_file(path: impl AsRef<Path>) -> Result<Problem, Error> {
    let path = path.as_ref();
    let io_error = |error| Error::Io {
        path: path.to_path_buf(),
        error,
    };
    let mut file = File::open(path).map_err(io_error)?;
    let parsed = match map_if_large(&file) {
        Some(map) => parse(&map),
        None => {
            let mut bytes = Vec::new();
            file.read_to_end(&mut bytes).map_err(io_error)?;
            parse(&bytes)
        }
    };
    parsed.map_err(|error| Error::Parse {
        path: path.to_path_buf(),
        error,
    })
}

/// A read-only mapping of `file` if it is a regular file of at least [`MMAP_THRESHOLD`] bytes and
/// mapping succeeds; `None` means: read it instead.
fn map_if_large(file: &File) -> Option<memmap2::Mmap> {
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() < MMAP_THRESHOLD {
        return None;
    }
    // SAFETY: the mapping is read-only and lives only during the parse. If another process
    // truncates or rewrites the file meanwhile, the contents seen may be inconsistent (or the
    // process may get SIGBUS on truncation); this is the documented caveat of memory-mapped
    // input, accepted for the speed on large dumps.
    let map = unsafe { memmap2::Mmap::map(file) }.ok()?;
    #[cfg(unix)]
    let _ = map.advise(memmap2::Advice::Sequential); // a hint only; failure is harmless
    Some(map)
}
