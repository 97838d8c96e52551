//! Atomic table writes: the file is written to a temporary name beside the target,
//! synchronised, and renamed over it, so an interrupted write never leaves a half file under
//! the real name. The temporary name is `.NAME.tmp.PID`; one left by a writer that has died
//! (SIGKILL, power loss) is found by its PID and removed by the next write of the same
//! target. A target that exists but is not a regular file (a symlink, a device, a FIFO, a
//! folder) is refused rather than replaced.

use std::ffi::OsString;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// The temporary name of a write of `path` by process `pid`.
pub fn temp_path(path: &Path, pid: u32) -> Option<PathBuf> {
    let name = path.file_name()?;
    let mut tmp = OsString::from(".");
    tmp.push(name);
    tmp.push(format!(".tmp.{pid}"));
    Some(path.with_file_name(tmp))
}

/// Whether process `pid` is alive (Linux and other Unix: signal 0).
fn alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: kill with signal 0 only checks that the process exists; it sends nothing.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// Remove the temporary files of `path` left by writers that are no longer running.
/// Returns how many were removed.
pub fn remove_stale(path: &Path) -> usize {
    let (Some(name), Some(dir)) = (path.file_name(), path.parent()) else {
        return 0;
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let mut prefix = OsString::from(".");
    prefix.push(name);
    prefix.push(".tmp.");
    let prefix = prefix.to_string_lossy().into_owned();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = file
            .strip_prefix(&prefix)
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !alive(pid) && std::fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// Refuse a target that exists and is not a regular file.
pub fn check_target(path: &Path) -> std::io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if !m.file_type().is_file() => Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "exists and is not a regular file (a symlink, device, FIFO or folder); refusing to replace it",
        )),
        _ => Ok(()),
    }
}

/// Write the contents produced by `fill` atomically to `path`.
pub fn write(
    path: &Path,
    fill: impl FnOnce(&mut BufWriter<std::fs::File>) -> std::io::Result<()>,
) -> std::io::Result<()> {
    check_target(path)?;
    remove_stale(path);
    let tmp = temp_path(path, std::process::id())
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a file name"))?;
    let result = (|| {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&tmp)?;
        let mut w = BufWriter::new(file);
        fill(&mut w)?;
        w.flush()?;
        let f = w.into_inner().map_err(|e| e.into_error())?;
        f.sync_all()?;
        drop(f);
        check_target(path)?;
        std::fs::rename(&tmp, path)?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            if let Ok(d) = std::fs::File::open(dir) {
                let _ = d.sync_all();
            }
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
