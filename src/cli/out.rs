//! The one place where the command line writes to its standard output and standard error.
//!
//! `print!` and `eprintln!` panic when a write fails (exit status 101). Here a failed write
//! ends the command the way a Unix tool is expected to end:
//! - **a closed pipe** (`ordo moves | head -1`, EPIPE) is a quiet end: nothing more is written
//!   and the exit status is the command's own (0, or 1 for a negative verdict). The reader went
//!   away on purpose; that is not a failure of the command.
//! - **any other write error** (`> /dev/full`: no space left) is one line on standard error,
//!   `ordo: error: cannot write to standard output: …`, and exit status 2;
//! - when **standard error itself** cannot be written, the exit status is 2 and nothing is said.
//!
//! (Rust ignores SIGPIPE, so a closed pipe shows up as the EPIPE error handled here rather
//! than killing the process with the conventional status 141.)

use std::io::{self, Write};
use std::process::ExitCode;

/// Exit status of bad input and of an output that cannot be written.
pub const FAILURE: u8 = 2;

/// How writing a text went.
#[derive(Debug)]
pub enum Written {
    /// All of it was written.
    Done,
    /// The reader closed the pipe: stop writing, quietly.
    Closed,
    /// Any other failure.
    Failed(io::Error),
}

/// Write all of `text` to `w` and flush it, telling a closed pipe from other failures.
pub fn write_to(w: &mut impl Write, text: &str) -> Written {
    match w.write_all(text.as_bytes()).and_then(|()| w.flush()) {
        Ok(()) => Written::Done,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Written::Closed,
        Err(e) => Written::Failed(e),
    }
}

/// Write `text` to standard output; `None` when it went (or the pipe was closed), or the exit
/// status to end with when the write failed (its one-line error already said).
pub fn stdout(text: &str) -> Option<u8> {
    match write_to(&mut io::stdout().lock(), text) {
        Written::Done | Written::Closed => None,
        Written::Failed(e) => {
            error_line(&format!("cannot write to standard output: {e}"));
            Some(FAILURE)
        }
    }
}

/// Write `ordo: error: {msg}` as one line to standard error, whatever the message quotes:
/// control, invisible and bidirectional characters escaped, every run of more than 100
/// characters without a space cut with its length given (`notation::one_line`). A failure
/// here cannot be reported anywhere: the caller's exit status (2) is all that is left.
pub fn error_line(msg: &str) {
    let line = crate::notation::one_line(msg);
    let _ = write_to(&mut io::stderr().lock(), &format!("ordo: error: {line}\n"));
}

/// Write one line of progress or warning to standard error, ignoring failures (a note that
/// cannot be shown must not end the work it describes).
pub fn note_line(msg: &str) {
    let _ = write_to(&mut io::stderr().lock(), &format!("{msg}\n"));
}

/// End a command: write its standard output, then its error (if any), and give the exit
/// status (`code` on success, 2 after an error or a failed write).
pub fn finish(out: &str, result: Result<u8, String>) -> ExitCode {
    let failed_write = stdout(out);
    match result {
        Ok(code) => ExitCode::from(failed_write.unwrap_or(code)),
        Err(msg) => {
            error_line(&msg);
            ExitCode::from(FAILURE)
        }
    }
}
