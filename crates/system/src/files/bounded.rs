//! Reading an input file whole, within a bound fit for its kind: every file the command line
//! reads (problem files, game records, case and vector files, checksum lists, reports) goes
//! through [`read_text`].
//!
//! - A regular file whose size is over the bound is refused before a byte is read; one that
//!   grows while it is read is cut at the bound plus one byte and refused as well.
//! - Anything else (a device such as `/dev/zero`, a FIFO, a pipe, a terminal) is read the same
//!   way, at most the bound plus one byte, and for at most [`WAIT`] in all: the file is opened
//!   non-blocking (a FIFO without a writer does not block `open(2)`, and reads as empty), and
//!   each read that finds nothing waits on `poll(2)` for what remains of that time. An endless
//!   source is refused at the bound, a silent one at the time limit; neither is waited on
//!   forever nor held in memory past the bound.
//!
//! Every refusal is a [`ReadError`], one line naming the file and the bound it broke.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long a read of something other than a regular file may take in all.
pub const WAIT: Duration = Duration::from_secs(10);

/// The bound of one kind of input file: its largest size and what the file is, for messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    /// The largest size accepted, in bytes.
    pub bytes: u64,
    /// What such a file is, as the message names it ("a problem file").
    pub kind: &'static str,
}

/// An input file that could not be read, or broke its bound. Its message is one line naming
/// the file.
#[derive(Debug, thiserror::Error)]
#[error("{}: {reason}", path.display())]
pub struct ReadError {
    /// The file asked for.
    pub path: PathBuf,
    /// What went wrong.
    pub reason: ReadFailure,
}

/// What went wrong in [`ReadError`].
#[derive(Debug, thiserror::Error)]
pub enum ReadFailure {
    /// The file is over its bound (the size is the file's when known, else the bytes read).
    #[error("{kind} has at most {} ({bound} bytes); this one {}", size(*bound), over(*read, *known))]
    TooLong {
        /// The bound, in bytes.
        bound: u64,
        /// What the file is.
        kind: &'static str,
        /// The file's size (`known`), or the bytes read before stopping.
        read: u64,
        /// Whether `read` is the file's size from its metadata.
        known: bool,
    },
    /// Nothing more came within [`WAIT`] (a device, FIFO or terminal that stays silent).
    #[error("{kind}: no end after {} s ({read} bytes read); refusing to wait longer", waited.as_secs())]
    TooSlow {
        /// What the file is.
        kind: &'static str,
        /// The bytes read by then.
        read: u64,
        /// The time waited.
        waited: Duration,
    },
    /// The path is a folder.
    #[error("it is a folder, not {0}")]
    Folder(&'static str),
    /// The contents are not UTF-8 text.
    #[error("{0} is text (UTF-8); this one is not, at byte {1}")]
    NotText(&'static str, usize),
    /// Opening or reading failed.
    #[error("{0}")]
    Io(#[from] io::Error),
}

/// A size for people: `1 MiB`, `16 MiB`, `512 KiB`, or bytes.
pub fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

fn over(read: u64, known: bool) -> String {
    if known {
        format!("has {read} bytes")
    } else {
        format!("goes on past {read} bytes; read no further")
    }
}

/// The text of `path`, within `limit` (see the module documentation).
pub fn read_text(path: &Path, limit: Limit) -> Result<String, ReadError> {
    let bytes = read_bytes_within(path, limit, WAIT)?;
    String::from_utf8(bytes).map_err(|e| ReadError {
        path: path.to_path_buf(),
        reason: ReadFailure::NotText(limit.kind, e.utf8_error().valid_up_to()),
    })
}

/// The bytes of `path`, within `limit` and, for what is not a regular file, within `wait`.
pub fn read_bytes_within(path: &Path, limit: Limit, wait: Duration) -> Result<Vec<u8>, ReadError> {
    let fail = |reason: ReadFailure| ReadError {
        path: path.to_path_buf(),
        reason,
    };
    let file = open_nonblocking(path).map_err(|e| fail(e.into()))?;
    let meta = file.metadata().map_err(|e| fail(e.into()))?;
    if meta.is_dir() {
        return Err(fail(ReadFailure::Folder(limit.kind)));
    }
    let too_long = |read, known| ReadFailure::TooLong {
        bound: limit.bytes,
        kind: limit.kind,
        read,
        known,
    };
    if meta.is_file() && meta.len() > limit.bytes {
        return Err(fail(too_long(meta.len(), true)));
    }
    let mut out = Vec::new();
    let cap = limit.bytes.saturating_add(1);
    match read_until(&file, cap, wait, &mut out) {
        Ok(true) if out.len() as u64 > limit.bytes => Err(fail(too_long(limit.bytes, false))),
        Ok(true) => Ok(out),
        Ok(false) => Err(fail(ReadFailure::TooSlow {
            kind: limit.kind,
            read: out.len() as u64,
            waited: wait,
        })),
        Err(e) => Err(fail(e.into())),
    }
}

/// Open `path` for reading without blocking on a FIFO that has no writer.
fn open_nonblocking(path: &Path) -> io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// Read `file` into `out` until its end or `cap` bytes (`Ok(true)`), or until `wait` has passed
/// with the end not reached (`Ok(false)`).
fn read_until(mut file: &File, cap: u64, wait: Duration, out: &mut Vec<u8>) -> io::Result<bool> {
    let deadline = Instant::now() + wait;
    let mut chunk = [0u8; 64 * 1024];
    while (out.len() as u64) < cap {
        let room = usize::try_from(cap - out.len() as u64).unwrap_or(usize::MAX);
        let want = chunk.len().min(room);
        match file.read(&mut chunk[..want]) {
            Ok(0) => return Ok(true),
            Ok(n) => out.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() || !readable_within(file, left)? {
                    return Ok(false);
                }
            }
            Err(e) => return Err(e),
        }
    }
    Ok(true)
}

/// Wait until `file` has something to read (or its writer has gone), at most `left`; whether it
/// has.
#[cfg(unix)]
#[allow(unsafe_code)] // poll(2): see the SAFETY comment below
fn readable_within(file: &File, left: Duration) -> io::Result<bool> {
    use std::os::unix::io::AsRawFd;
    let mut fds = libc::pollfd {
        fd: file.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    let ms = libc::c_int::try_from(left.as_millis().max(1)).unwrap_or(libc::c_int::MAX);
    // SAFETY: poll(2) reads and writes the one pollfd it is given, which lives on this stack
    // frame for the whole call; the descriptor is open (owned by `file`).
    let r = unsafe { libc::poll(&mut fds, 1, ms) };
    if r < 0 {
        let e = io::Error::last_os_error();
        return if e.kind() == io::ErrorKind::Interrupted {
            Ok(true)
        } else {
            Err(e)
        };
    }
    Ok(r > 0)
}

/// Elsewhere a read does not report "nothing yet": never reached.
#[cfg(not(unix))]
fn readable_within(_file: &File, _left: Duration) -> io::Result<bool> {
    Ok(false)
}

/// The text of every `*.EXT` file of `dir` (`ext` without the dot), in name order, each within
/// `each` and all together within `all` (a folder's bound is on the sum of its files).
pub fn read_folder(
    dir: &Path,
    ext: &str,
    each: Limit,
    all: Limit,
) -> Result<Vec<(PathBuf, String)>, ReadError> {
    let files = super::files_with_extension(dir, ext).map_err(|e| ReadError {
        path: dir.to_path_buf(),
        reason: e.into(),
    })?;
    let mut total = 0u64;
    let mut out = Vec::with_capacity(files.len());
    for path in files {
        let text = read_text(&path, each)?;
        total += text.len() as u64;
        if total > all.bytes {
            return Err(ReadError {
                path: dir.to_path_buf(),
                reason: ReadFailure::TooLong {
                    bound: all.bytes,
                    kind: all.kind,
                    read: all.bytes,
                    known: false,
                },
            });
        }
        out.push((path, text));
    }
    Ok(out)
}
