//! The program attacked as a hostile user would attack it: output that cannot be written, floods
//! from an engine, signals during `ordo conform`. Each test failed before its fix (exit 101 panics,
//! unbounded memory, processes left behind).

use std::io::{Read, Write};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use super::common::scratch;
use super::common::stderr;

fn ordo() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ordo"))
}

/// Wait for `child` at most `limit`; kill it (and fail) if it is still running then.
fn wait_at_most(mut child: Child, limit: Duration) -> Output {
    let start = Instant::now();
    while child.try_wait().expect("try_wait").is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

/// A reader that closes the pipe at once (`ordo rules --markdown | true`): a quiet end with the
/// command's own exit status, not a panic (exit 101).
#[test]
fn a_closed_pipe_ends_quietly() {
    for args in [
        &["rules", "--markdown"][..],
        &["moves", "--variant", "x"][..],
    ] {
        let mut child = ordo()
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn ordo");
        drop(child.stdout.take());
        let o = wait_at_most(child, Duration::from_secs(60));
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert_eq!(stderr(&o), "", "{args:?}");
    }
}

fn dev_full() -> std::fs::File {
    std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("open /dev/full")
}

/// `ordo moves --variant x > /dev/full`: one line naming the failure, exit status 2.
#[test]
fn a_full_output_is_one_line_and_status_2() {
    let o = ordo()
        .args(["moves", "--variant", "x"])
        .stdout(dev_full())
        .output()
        .expect("run ordo");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("ordo: error: cannot write to standard output: "),
        "{err}"
    );
}

/// An error written to a full standard error: exit status 2, silently (before: 101).
#[test]
fn a_full_standard_error_still_gives_status_2() {
    let o = ordo()
        .args(["rules", "NO-SUCH-CLAUSE"])
        .stderr(dev_full())
        .output()
        .expect("run ordo");
    assert_eq!(o.status.code(), Some(2));
    let o = ordo()
        .args(["moves", "--variant", "x"])
        .stdout(dev_full())
        .stderr(dev_full())
        .output()
        .expect("run ordo");
    assert_eq!(o.status.code(), Some(2));
}

/// `ordo conform` on an engine whose standard output, or standard error, is an endless line:
/// it ends with a report naming the failure, within a memory limit of 512 MiB (before: 4.1 GB
/// and an abort with no report; under this limit the old reader aborted within the timeout).
#[test]
fn conform_survives_an_engine_that_floods() {
    let bin = env!("CARGO_BIN_EXE_ordo");
    for (engine, words) in [
        ("cat /dev/zero", "endless-line"),
        ("cat /dev/zero >&2", "hang"),
        (
            "head -c 20000000 /dev/zero; echo; sleep 100",
            "endless-line",
        ),
    ] {
        let script = format!(
            "ulimit -v 524288; exec '{bin}' conform --engine '{engine}' --timeout-ms 5000 --playouts 0"
        );
        let child = Command::new("sh")
            .args(["-c", &script])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn sh");
        let o = wait_at_most(child, Duration::from_secs(60));
        let report = String::from_utf8_lossy(&o.stdout);
        // The engine is broken: exit status 3.
        assert_eq!(
            o.status.code(),
            Some(3),
            "{engine}: {report}\n{}",
            stderr(&o)
        );
        assert!(report.contains("verdict: FAIL"), "{engine}: {report}");
        assert!(report.contains(words), "{engine}: {report}");
    }
}

/// The processes (not zombies) whose process group is `group`.
fn members(group: i32) -> Vec<i32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // Fields after the command name in parentheses: state, ppid, pgrp, ...
        let Some(after) = stat.rsplit_once(')').map(|(_, a)| a) else {
            continue;
        };
        let f: Vec<&str> = after.split_whitespace().collect();
        if f.len() > 2 && f[0] != "Z" && f[2].parse::<i32>() == Ok(group) {
            found.push(pid);
        }
    }
    found
}

/// SIGINT or SIGTERM to `ordo conform` while its engine (which started a grandchild) hangs:
/// conform ends with 130 or 143 and no process of the engine's group is left.
#[test]
#[allow(unsafe_code)] // kill(2) on the test's own processes: see the SAFETY comments
fn a_signal_to_conform_leaves_no_engine_process() {
    let dir = scratch("conform-signal");
    for (sig, code) in [(libc::SIGINT, 130), (libc::SIGTERM, 143)] {
        let pidfile = dir.join(format!("grandchild-{sig}"));
        let engine = format!("sleep 300 & echo $! > '{}'; sleep 301", pidfile.display());
        let mut child = ordo()
            .args(["conform", "--engine", &engine, "--timeout-ms", "120000"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn conform");
        let start = Instant::now();
        let grandchild: i32 = loop {
            if let Ok(t) = std::fs::read_to_string(&pidfile) {
                if let Ok(p) = t.trim().parse() {
                    break p;
                }
            }
            assert!(start.elapsed() < Duration::from_secs(30), "no grandchild");
            std::thread::sleep(Duration::from_millis(20));
        };
        let group = {
            let stat = std::fs::read_to_string(format!("/proc/{grandchild}/stat")).unwrap();
            let after = stat.rsplit_once(')').unwrap().1.to_string();
            after
                .split_whitespace()
                .nth(2)
                .unwrap()
                .parse::<i32>()
                .unwrap()
        };
        assert!(!members(group).is_empty());
        let pid = i32::try_from(child.id()).unwrap();
        // SAFETY: kill(2) on the process this test spawned.
        unsafe {
            libc::kill(pid, sig);
        }
        let status = child.wait().expect("wait");
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        assert_eq!(status.code(), Some(code), "{err}");
        let start = Instant::now();
        while !members(group).is_empty() && start.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(20));
        }
        let left = members(group);
        for p in &left {
            // Clean up after a failure, then report it.
            // SAFETY: kill(2) on a process this test's engine started.
            unsafe {
                libc::kill(*p, libc::SIGKILL);
            }
        }
        assert!(left.is_empty(), "left running: {left:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `ordo engine` answers a request line of exactly 65,536 bytes, and `line-too-long` for one
/// byte more, through the real binary (spec/protocol.md, Transport).
#[test]
fn the_engine_takes_a_request_of_exactly_the_limit() {
    let mut child = ordo()
        .args(["engine"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn ordo engine");
    let pad = |n: usize| format!("status{}", " ".repeat(n - 6));
    let input = format!("ordo 1\n{}\n{}\nquit\n", pad(65_536), pad(65_537));
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    let o = wait_at_most(child, Duration::from_secs(30));
    let text = String::from_utf8_lossy(&o.stdout);
    let r: Vec<&str> = text.lines().collect();
    assert_eq!(r[1], "status ongoing", "{r:?}");
    assert!(r[2].starts_with("error line-too-long"), "{r:?}");
}

/// A target that is not a regular file (symbolic link, FIFO, device node, directory) is
/// refused by the command line with one line and exit status 2, and left as it was (the
/// library's side: crates/system/tests/files.rs).
#[test]
fn a_write_refuses_what_is_not_a_regular_file() {
    let dir = scratch("not-regular");
    let real = dir.join("real.svg");
    std::fs::write(&real, "keep me").unwrap();
    let link = dir.join("link.svg");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let fifo = dir.join("fifo.svg");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    for (target, kind) in [
        (link.as_path(), "a symbolic link"),
        (fifo.as_path(), "a FIFO"),
        (std::path::Path::new("/dev/null"), "a device node"),
        (dir.as_path(), "a directory"),
    ] {
        let o = ordo()
            .args(["render", "--svg"])
            .arg(target)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2));
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(kind), "{err}");
    }
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "keep me");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A header error names the header's line in the file, not its index among
/// the headers (spec/game-record.md).
#[test]
fn a_header_error_gives_its_line_in_the_file() {
    let dir = scratch("header-line");
    let f = dir.join("game.txt");
    let record = "; a comment\n\n[Event \"x\"]\n\n[Variant \"chess\"]\n1. a3-a4\n";
    std::fs::write(&f, record).unwrap();
    let o = ordo().arg("check-game").arg(&f).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("line 5, column 1: header Variant"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A record of megabytes of move numbers is refused with one line, in a
/// quarter of a GiB (before: read whole, 2.98 GB for 100 MB); so is an endless device.
#[test]
fn check_game_refuses_a_huge_record_in_little_memory() {
    let dir = scratch("huge-record");
    let f = dir.join("numbers.txt");
    let text: String = (1..600_000).map(|i| format!("{i}. ")).collect();
    std::fs::write(&f, text).unwrap();
    let bin = env!("CARGO_BIN_EXE_ordo");
    for file in [f.to_str().unwrap(), "/dev/zero"] {
        let script = format!("ulimit -v 262144; exec '{bin}' check-game '{file}'");
        let o = Command::new("sh").args(["-c", &script]).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{file}: {}", stderr(&o));
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("a game record has at most 1 MiB (1048576 bytes)"),
            "{err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// An error line that echoes an input cuts it after 100 characters and
/// escapes its control characters (spec/notation.md, Errors).
#[test]
fn error_lines_cut_and_escape_what_they_echo() {
    let big = "e".repeat(100_000);
    let cases: [&[&str]; 5] = [
        &["play", &big],
        &["moves", "--position", &big],
        &["rules", &big],
        &["play", "e2\u{1b}[31m-e4\u{7}"],
        &["moves", "--position", "4/4\n/4 w\tclassic"],
    ];
    for args in cases {
        let o = ordo().args(args).output().unwrap();
        assert_eq!(o.status.code(), Some(2));
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.len() < 400, "{} bytes", err.len());
        assert!(!err.trim_end().chars().any(char::is_control), "{err:?}");
    }
    assert!(ordo_core::notation::echo(&big).ends_with("… (100000 characters)"));
}
