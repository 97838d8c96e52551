//! Bounded reads (`ordo_system::files::read_text`): a file over its bound is refused before it
//! is read, an endless source (`/dev/zero`, a FIFO that is written without end) is refused at
//! the bound, a silent one at the time limit, each with one line naming the file and the bound.
//! The command line's readers (one line, exit status 2) are tested with the command line.

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use ordo_system::files::{read_bytes_within, read_text, Limit, ReadFailure};

const LIMIT: Limit = Limit {
    bytes: 1 << 10,
    kind: "a test file",
};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ordo-bounded-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn fifo(dir: &Path) -> PathBuf {
    let path = dir.join("fifo");
    assert!(Command::new("mkfifo")
        .arg(&path)
        .status()
        .unwrap()
        .success());
    path
}

fn one_line(e: &impl std::fmt::Display, path: &Path, wanted: &str) -> String {
    let msg = e.to_string();
    assert_eq!(msg.lines().count(), 1, "{msg}");
    assert!(msg.starts_with(&path.display().to_string()), "{msg}");
    assert!(msg.contains(wanted), "{msg}");
    msg
}

#[test]
fn a_file_at_its_bound_is_read_and_one_byte_more_is_refused_unread() {
    let dir = scratch("size");
    let path = dir.join("f.txt");
    std::fs::write(&path, "x".repeat(1024)).unwrap();
    assert_eq!(read_text(&path, LIMIT).unwrap().len(), 1024);
    // A sparse file of 8 GiB: refused from its size, so it costs neither time nor memory.
    std::fs::File::create(&path)
        .unwrap()
        .set_len(8 << 30)
        .unwrap();
    let e = read_text(&path, LIMIT).unwrap_err();
    assert!(matches!(e.reason, ReadFailure::TooLong { known: true, .. }));
    one_line(
        &e,
        &path,
        "a test file has at most 1 KiB (1024 bytes); this one has 8589934592 bytes",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_endless_device_is_refused_at_the_bound() {
    let path = Path::new("/dev/zero");
    let e = read_text(path, LIMIT).unwrap_err();
    assert!(matches!(
        e.reason,
        ReadFailure::TooLong { known: false, .. }
    ));
    one_line(&e, path, "goes on past 1024 bytes; read no further");
}

#[test]
fn an_endless_fifo_is_refused_at_the_bound() {
    let dir = scratch("endless");
    let path = fifo(&dir);
    // A writer that opens the FIFO again whenever a reader left before it wrote (its `yes`
    // then dies of SIGPIPE): on a loaded machine a read may open, find nothing yet and close.
    let mut writer = Command::new("sh")
        .arg("-c")
        .arg(format!("while :; do yes > '{}'; done", path.display()))
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .unwrap();
    // The writer may not have opened the FIFO yet: a read before it does finds it empty.
    let started = Instant::now();
    let result = loop {
        match read_bytes_within(&path, LIMIT, Duration::from_secs(5)) {
            Ok(b) if b.is_empty() && started.elapsed() < Duration::from_secs(60) => {}
            other => break other,
        }
    };
    // The shell and its `yes`, which may be waiting to open the FIFO: the whole group.
    let _ = Command::new("kill")
        .args(["-TERM", "--", &format!("-{}", writer.id())])
        .status();
    let _ = writer.wait();
    let e = result.unwrap_err();
    one_line(&e, &path, "goes on past 1024 bytes");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_silent_fifo_is_refused_at_the_time_limit_and_one_without_writer_reads_empty() {
    let dir = scratch("silent");
    let path = fifo(&dir);
    // No writer: the open does not block and the FIFO reads as empty.
    assert_eq!(read_text(&path, LIMIT).unwrap(), "");
    // A writer that writes a little and then holds the FIFO open, silent.
    let mut writer = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "exec 3> '{}'; printf abc >&3; exec sleep 30",
            path.display()
        ))
        .spawn()
        .unwrap();
    let started = Instant::now();
    let e = loop {
        match read_bytes_within(&path, LIMIT, Duration::from_millis(300)) {
            Ok(b) if b.is_empty() && started.elapsed() < Duration::from_secs(10) => {}
            other => break other.unwrap_err(),
        }
    };
    let waited = started.elapsed();
    let _ = writer.kill();
    let _ = writer.wait();
    assert!(
        matches!(e.reason, ReadFailure::TooSlow { read: 3, .. }),
        "{e}"
    );
    one_line(&e, &path, "refusing to wait longer");
    assert!(waited < Duration::from_secs(10), "{waited:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_folder_and_bytes_that_are_not_text_are_refused_in_one_line() {
    let dir = scratch("kinds");
    let e = read_text(&dir, LIMIT).unwrap_err();
    one_line(&e, &dir, "it is a folder, not a test file");
    let path = dir.join("bin");
    std::fs::File::create(&path)
        .unwrap()
        .write_all(b"ok\xff")
        .unwrap();
    let e = read_text(&path, LIMIT).unwrap_err();
    one_line(
        &e,
        &path,
        "a test file is text (UTF-8); this one is not, at byte 2",
    );
    let missing = dir.join("missing");
    one_line(
        &read_text(&missing, LIMIT).unwrap_err(),
        &missing,
        "No such file",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
