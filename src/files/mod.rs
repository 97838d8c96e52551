//! Writing a file so that no reader ever sees half of it, and no interrupted writer leaves
//! litter behind: every file the crate writes (diagrams, conformance vectors, solved tables)
//! goes through [`write_atomically_with`].
//!
//! How:
//! - the contents go to a temporary file beside the target, named
//!   `.NAME.tmp-ordo-PID-N` (PID: the writing process, N: a counter within it), created anew
//!   (never through an existing file or link), synced, then renamed over the target;
//! - on any failure the temporary file is removed; a writer killed outright (SIGKILL, power
//!   loss) cannot do that, so every write first removes the temporary files of the same target
//!   whose process is no longer running ([`remove_stale`]);
//! - **only a regular file is replaced.** A target that is a symbolic link, a directory, a FIFO,
//!   a device node or a socket is refused with [`WriteError`] and left as it was: renaming over
//!   it would silently turn it into a regular file (a link to a table elsewhere would stop
//!   pointing there, `/dev/null` would be replaced). To write through a link, name its target.
//!
//! The check of the target and the rename are two steps: a target swapped for a link between
//! them is replaced. This guards against mistakes, not against an adversary sharing the folder.

use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A file that could not be written. Its message is one line naming the file.
#[derive(Debug, thiserror::Error)]
#[error("{}: {reason}", path.display())]
pub struct WriteError {
    /// The file asked for.
    pub path: PathBuf,
    /// What went wrong.
    pub reason: WriteFailure,
}

/// What went wrong in [`WriteError`].
#[derive(Debug, thiserror::Error)]
pub enum WriteFailure {
    /// The target exists and is not a regular file.
    #[error("it is {0}, not a regular file; refusing to replace it")]
    NotRegular(&'static str),
    /// The path has no file name (`/`, `..`).
    #[error("not a file name")]
    NoFileName,
    /// Reading, writing, syncing or renaming failed.
    #[error("{0}")]
    Io(#[from] io::Error),
}

impl From<WriteError> for io::Error {
    /// The reason alone (the caller knows the path), for callers that speak `io::Error`.
    fn from(e: WriteError) -> io::Error {
        match e.reason {
            WriteFailure::Io(e) => e,
            other => io::Error::new(io::ErrorKind::InvalidInput, other.to_string()),
        }
    }
}

/// Write `text` to `path` atomically (see the module documentation).
pub fn write_atomically(path: &Path, text: &str) -> Result<(), WriteError> {
    write_atomically_with(path, |w| w.write_all(text.as_bytes()))
}

/// [`write_atomically`] for contents produced piece by piece by `fill` (large tables).
pub fn write_atomically_with(
    path: &Path,
    fill: impl FnOnce(&mut BufWriter<File>) -> io::Result<()>,
) -> Result<(), WriteError> {
    let fail = |reason: WriteFailure| WriteError {
        path: path.to_path_buf(),
        reason,
    };
    let name = path
        .file_name()
        .ok_or_else(|| fail(WriteFailure::NoFileName))?;
    if let Some(kind) = not_regular(path).map_err(|e| fail(e.into()))? {
        return Err(fail(WriteFailure::NotRegular(kind)));
    }
    let _ = remove_stale(path);
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let mut tmp_name = prefix(name);
    tmp_name.push(format!("{}-{n}", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let result = (|| {
        let file = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        let mut w = BufWriter::new(file);
        fill(&mut w)?;
        w.flush()?;
        let f = w.into_inner().map_err(|e| e.into_error())?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(|e| fail(e.into()))
}

/// What a path that exists and is not a regular file is (`None` for a regular file or no file).
fn not_regular(path: &Path) -> io::Result<Option<&'static str>> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let t = meta.file_type();
    if t.is_file() {
        return Ok(None);
    }
    if t.is_symlink() {
        return Ok(Some("a symbolic link"));
    }
    if t.is_dir() {
        return Ok(Some("a directory"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Ok(Some("a FIFO"));
        }
        if t.is_block_device() || t.is_char_device() {
            return Ok(Some("a device node"));
        }
        if t.is_socket() {
            return Ok(Some("a socket"));
        }
    }
    Ok(Some("a special file"))
}

/// `.NAME.tmp-ordo-`: the start of the temporary files of target `NAME`.
fn prefix(name: &std::ffi::OsStr) -> OsString {
    let mut p = OsString::from(".");
    p.push(name);
    p.push(".tmp-ordo-");
    p
}

/// Remove the temporary files left beside `path` by writers that are no longer running (killed
/// before they could clean up); returns how many were removed. Files of running processes, and
/// names that do not parse, are left alone.
pub fn remove_stale(path: &Path) -> io::Result<usize> {
    let Some(name) = path.file_name() else {
        return Ok(0);
    };
    let prefix = prefix(name);
    let prefix = prefix.to_string_lossy();
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut removed = 0;
    for entry in std::fs::read_dir(dir)?.flatten() {
        let file = entry.file_name();
        let file = file.to_string_lossy();
        let Some(rest) = file.strip_prefix(&*prefix) else {
            continue;
        };
        let pid = rest.split('-').next().and_then(|p| p.parse::<u32>().ok());
        if pid.is_some_and(|p| !process_alive(p)) && std::fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    Ok(removed)
}

/// Whether a process with this id exists (kill(pid, 0)); `true` when in doubt.
fn process_alive(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return true;
        };
        if pid <= 0 {
            return true;
        }
        // SAFETY: kill(2) with signal 0 only checks that the process exists; it sends nothing
        // and touches no memory.
        let r = unsafe { libc::kill(pid, 0) };
        r == 0 || io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
    }
    #[cfg(not(unix))]
    {
        true
    }
}
