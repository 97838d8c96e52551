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
    let tmp = temp_name(path, name, std::process::id(), n);
    let result = (|| -> io::Result<()> {
        let file = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        let mut w = BufWriter::new(file);
        fill(&mut w)?;
        w.flush()?;
        let f = w.into_inner().map_err(|e| e.into_error())?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)?;
        // The rename itself is made durable with the folder.
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            if let Ok(d) = File::open(dir) {
                let _ = d.sync_all();
            }
        }
        Ok(())
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

/// The files of `dir` named `*.EXT` (`ext` without the dot), in name order; entries that
/// cannot be read are passed over.
pub fn files_with_extension(dir: &Path, ext: &str) -> io::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    files.sort();
    Ok(files)
}

/// The temporary file of the `n`-th write of `path` (file name `name`) by process `pid`.
fn temp_name(path: &Path, name: &std::ffi::OsStr, pid: u32, n: u64) -> PathBuf {
    let mut tmp = prefix(name);
    tmp.push(format!("{pid}-{n}"));
    path.with_file_name(tmp)
}

/// The name a write of `path` by process `pid` uses for its temporary file (its first write);
/// `None` for a path without a file name. For tests of the clean-up of dead writers' files.
pub fn temp_path(path: &Path, pid: u32) -> Option<PathBuf> {
    Some(temp_name(path, path.file_name()?, pid, 0))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_with_extension_lists_only_that_extension_in_name_order() {
        let dir = std::env::temp_dir().join(format!("ordo-files-ext-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub.toml")).unwrap();
        for name in ["b.toml", "a.toml", "c.jsonl", "toml"] {
            std::fs::write(dir.join(name), "").unwrap();
        }
        let got = files_with_extension(&dir, "toml").unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        let names: Vec<_> = got
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        // A folder named like a file is listed too, as before the helper existed.
        assert_eq!(names, ["a.toml", "b.toml", "sub.toml"]);
        assert!(files_with_extension(&dir, "toml").is_err());
    }
}
