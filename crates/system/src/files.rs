//! Writing a file so that no reader ever sees half of it, and no interrupted writer leaves
//! litter behind: every file the crate writes (diagrams, conformance vectors, solved tables)
//! goes through [`write_atomically_with`].
//!
//! How:
//! - the contents go to a temporary file beside the target, named
//!   `.NAME.tmp-ordo-HOST-PID-N` (HOST: the writing machine's name made safe for a file name,
//!   [`host_tag`]; PID: the writing process; N: a counter within it), created anew (never
//!   through an existing file or link), synced, then renamed over the target;
//! - on any failure the temporary file is removed; a writer killed outright (SIGKILL, power
//!   loss) cannot do that, so every write first removes the temporary files of the same target
//!   whose process is no longer running ([`remove_stale`]), and a long run (a table build, a
//!   solve) first removes those of every target in its folder ([`remove_stale_in`]): a
//!   checkpoint's temporary file would otherwise outlive the checkpoint, which is never written
//!   again once its slice is done. A temporary file is stale when it was written on this
//!   machine and the process its name carries is gone (`kill(pid, 0)` answers ESRCH), whatever
//!   its age: a live writer's file is never touched, and a dead one's is removed at the next
//!   run however recent;
//! - **another machine's temporary files are left alone.** On shared storage (a cluster's
//!   nodes writing one table folder) a process id means something only on the machine that
//!   gave it: a live writer on another node may have the id of a process that is gone here, so
//!   its liveness cannot be judged from here and removing its file would break its write. Its
//!   leftovers are removed by the next run in that folder on that machine (same host name), or
//!   by hand. Names of the earlier form `.NAME.tmp-ordo-PID-N` (no host), left by versions
//!   before the host was named, are judged by their process id as they always were, so
//!   folders those versions wrote are still cleaned;
//! - **only a regular file is replaced.** A target that is a symbolic link, a directory, a FIFO,
//!   a device node or a socket is refused with [`WriteError`] and left as it was: renaming over
//!   it would silently turn it into a regular file (a link to a table elsewhere would stop
//!   pointing there, `/dev/null` would be replaced). To write through a link, name its target.
//!
//! The check of the target and the rename are two steps: a target swapped for a link between
//! them is replaced. This guards against mistakes, not against an adversary sharing the folder.
//! Two machines that report the same host name are one machine to this scheme.

mod bounded;

pub use bounded::{
    read_bytes_within, read_folder, read_text, size, Limit, ReadError, ReadFailure, WAIT,
};

use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

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
    Ok(Some(special(t)))
}

/// What `path` is when it exists, links followed, and is neither a regular file nor a
/// directory (a FIFO, a socket, a device node); `None` otherwise. It opens nothing, so a
/// FIFO never blocks it.
pub fn special_kind(path: &Path) -> io::Result<Option<&'static str>> {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let t = meta.file_type();
    Ok((!t.is_file() && !t.is_dir()).then(|| special(t)))
}

/// The name of a file type that is neither a regular file, a directory nor a link.
fn special(t: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device node";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    let _ = t;
    "a special file"
}

/// Open `path` for reading, refusing anything but a regular file (or a link to one) with a
/// message saying what it is. The open itself does not block: a FIFO in place of a table
/// would block `open(2)` until a writer came, so the file is opened non-blocking and checked
/// after (on Unix; elsewhere checked before).
pub fn open_regular(path: &Path) -> io::Result<File> {
    let refuse = |kind: &str| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("it is {kind}, not a regular file"),
        )
    };
    if let Some(kind) = not_regular(&std::fs::canonicalize(path)?)? {
        return Err(refuse(kind));
    }
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let f = options.open(path)?;
    if !f.metadata()?.is_file() {
        return Err(refuse("no longer a regular file"));
    }
    Ok(f)
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

/// The temporary file of the `n`-th write of `path` (file name `name`) by process `pid` of
/// this machine.
fn temp_name(path: &Path, name: &std::ffi::OsStr, pid: u32, n: u64) -> PathBuf {
    let mut tmp = prefix(name);
    tmp.push(format!("{}-{pid}-{n}", this_host()));
    path.with_file_name(tmp)
}

/// The name a write of `path` by process `pid` of this machine uses for its temporary file
/// (its first write); `None` for a path without a file name. For tests of the clean-up of
/// dead writers' files.
pub fn temp_path(path: &Path, pid: u32) -> Option<PathBuf> {
    Some(temp_name(path, path.file_name()?, pid, 0))
}

/// This machine's name as its temporary files carry it: the host name the system reports
/// (gethostname(2)), made safe by [`host_tag`]; read once per process.
pub fn this_host() -> &'static str {
    static HOST: OnceLock<String> = OnceLock::new();
    HOST.get_or_init(|| host_tag(&host_name()))
}

/// The most bytes of a host name a temporary file's name keeps: Linux's `HOST_NAME_MAX`, so
/// that with a long target name the whole stays within the 255 bytes a file name may have.
const HOST_TAG_MAX: usize = 64;

/// `raw` (a host name as the system gives it, any bytes) made fit for the middle of a file
/// name: cut to 64 bytes (Linux's `HOST_NAME_MAX`), every byte outside `[A-Za-z0-9._-]` (a `/`, a space,
/// a control character, each byte of a non-ASCII letter) made `_`, and `tmp-ordo` made
/// `tmp_ordo`, so that the marker `.tmp-ordo-` occurs once in a temporary file's name and the
/// name parses one way; `unknown-host` for an empty name (it could not be read).
pub fn host_tag(raw: &[u8]) -> String {
    let safe: String = raw
        .iter()
        .take(HOST_TAG_MAX)
        .map(|&b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'.' | b'_' | b'-' => char::from(b),
            _ => '_',
        })
        .collect();
    if safe.is_empty() {
        return "unknown-host".into();
    }
    safe.replace("tmp-ordo", "tmp_ordo")
}

/// The host name gethostname(2) reports, without its terminating zero; empty when it cannot
/// be read (then every process of this machine writes as `unknown-host`).
#[allow(unsafe_code)] // gethostname(2): see the SAFETY comment below
fn host_name() -> Vec<u8> {
    #[cfg(unix)]
    {
        let mut buf = [0u8; 256];
        // SAFETY: gethostname(2) writes at most `buf.len()` bytes into `buf`, which this
        // function owns and which outlives the call.
        let r = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
        if r != 0 {
            return Vec::new();
        }
        let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
        buf[..end].to_vec()
    }
    #[cfg(not(unix))]
    {
        Vec::new()
    }
}

/// `.NAME.tmp-ordo-`: the start of the temporary files of target `NAME`.
fn prefix(name: &std::ffi::OsStr) -> OsString {
    let mut p = OsString::from(".");
    p.push(name);
    p.push(".tmp-ordo-");
    p
}

/// Remove the temporary files left beside `path` by writers of this machine that are no longer
/// running (killed before they could clean up); returns how many were removed. Files of
/// running processes, of other machines, and names that do not parse are left alone.
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
    remove_dead(dir, |file| file.strip_prefix(&*prefix).and_then(judged_pid))
}

/// Remove the temporary files of any target in `dir` (names `.NAME.tmp-ordo-HOST-PID-N`, or
/// the earlier `.NAME.tmp-ordo-PID-N`) whose writer ran on this machine and is no longer
/// running; returns how many were removed. Run at the start of a long run in that folder (see
/// the module documentation).
pub fn remove_stale_in(dir: &Path) -> io::Result<usize> {
    remove_dead(dir, |file| {
        let (name, rest) = file.strip_prefix('.')?.rsplit_once(".tmp-ordo-")?;
        (!name.is_empty()).then_some(())?;
        judged_pid(rest)
    })
}

/// The writer of a temporary file, from its name's end after `.tmp-ordo-`: `HOST-PID-N` gives
/// `(Some(HOST), PID)`, the earlier `PID-N` gives `(None, PID)`; `None` for anything else. A
/// host may hold `-`, so the name is read from its end: N, then PID, then the host.
fn writer(rest: &str) -> Option<(Option<&str>, u32)> {
    let (head, n) = rest.rsplit_once('-')?;
    n.parse::<u64>().ok()?;
    match head.rsplit_once('-') {
        None => Some((None, head.parse().ok()?)),
        Some((host, pid)) => Some((Some(host), pid.parse().ok()?)),
    }
}

/// The process whose death makes a temporary file stale (its name's end `rest`, see
/// [`writer`]): the PID of a file of this machine or of the earlier form without a host;
/// `None` for another machine's file, whose process cannot be looked up from here.
fn judged_pid(rest: &str) -> Option<u32> {
    match writer(rest)? {
        (None, pid) => Some(pid),
        (Some(host), pid) if host == this_host() => Some(pid),
        (Some(_), _) => None,
    }
}

/// Remove the regular files of `dir` whose name gives a writer's pid (`pid_of`) that is dead.
fn remove_dead(dir: &Path, pid_of: impl Fn(&str) -> Option<u32>) -> io::Result<usize> {
    let mut removed = 0;
    for entry in std::fs::read_dir(dir)?.flatten() {
        let file = entry.file_name();
        let pid = pid_of(&file.to_string_lossy());
        let regular = entry.file_type().is_ok_and(|t| t.is_file());
        if regular
            && pid.is_some_and(|p| !process_alive(p))
            && std::fs::remove_file(entry.path()).is_ok()
        {
            removed += 1;
        }
    }
    Ok(removed)
}

/// Whether a process with this id exists (kill(pid, 0)); `true` when in doubt.
#[allow(unsafe_code)] // kill(2) with signal 0: see the SAFETY comment below
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
    fn host_tag_makes_a_hostile_host_name_safe_for_a_file_name() {
        assert_eq!(
            host_tag(b"node-7.cluster.example"),
            "node-7.cluster.example"
        );
        assert_eq!(host_tag(b"../../etc/passwd"), ".._.._etc_passwd");
        assert_eq!(host_tag(b"a b\n\0c"), "a_b__c");
        // Each byte of a non-ASCII letter becomes one `_`.
        assert_eq!(host_tag("n\u{f6}d".as_bytes()), "n__d");
        assert_eq!(host_tag(b""), "unknown-host");
        assert_eq!(host_tag(&[b'x'; 300]), "x".repeat(HOST_TAG_MAX));
        // The marker is broken up, so a name holding it still parses one way.
        let tag = host_tag(b"x.tmp-ordo-5");
        assert_eq!(tag, "x.tmp_ordo-5");
        let name = format!("t.bin.tmp-ordo-{tag}-12-0");
        let (target, rest) = name.rsplit_once(".tmp-ordo-").unwrap();
        assert_eq!((target, writer(rest)), ("t.bin", Some((Some(&*tag), 12))));
        let tag = this_host();
        assert!(!tag.is_empty() && tag.len() <= HOST_TAG_MAX, "{tag}");
        assert!(tag
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b)));
    }

    #[test]
    fn writer_reads_the_host_and_pid_of_both_name_forms() {
        assert_eq!(writer("node-7-123-4"), Some((Some("node-7"), 123)));
        assert_eq!(writer("42-123-4"), Some((Some("42"), 123)));
        assert_eq!(writer("123-4"), Some((None, 123)));
        for bad in ["123", "node-x-4", "node-123-x", "x-4", ""] {
            assert_eq!(writer(bad), None, "{bad}");
        }
        let ours = format!("{}-123-4", this_host());
        assert_eq!(judged_pid(&ours), Some(123));
        assert_eq!(judged_pid("123-4"), Some(123));
        assert_eq!(judged_pid(&format!("not-{ours}")), None);
    }

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
