//! Every file the command line reads is read within a bound fit for its kind, checked before
//! parsing: a file over it (a sparse file of 4 GiB, which costs no disk) is refused from its
//! size, an endless one (`/dev/zero`, a FIFO written without end) at the bound, each in one
//! line on stderr naming the file and the bound, exit status 2, in little memory and time.
//! The reading itself (devices, silent FIFOs) is tested in ordo-system.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::common::{scratch, stderr};

/// Run `ordo ARGS` with at most 512 MiB of address space; its stderr after checking that it
/// exited with status 2 within 60 s and printed one line naming `shown` and `bound`.
fn refused(args: &[&str], shown: &Path, bound: &str) -> String {
    let bin = env!("CARGO_BIN_EXE_ordo");
    let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
    let script = format!("ulimit -v 524288; exec '{bin}' {}", quoted.join(" "));
    let started = Instant::now();
    let o = Command::new("sh").args(["-c", &script]).output().unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(started.elapsed() < Duration::from_secs(60), "{args:?}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(
        err.contains(&shown.display().to_string()),
        "{args:?}: {err}"
    );
    assert!(err.contains(bound), "{args:?}: {err}");
    err
}

/// A sparse file of 4 GiB at `path`.
fn huge(path: &Path) -> PathBuf {
    std::fs::File::create(path)
        .unwrap()
        .set_len(4 << 30)
        .unwrap();
    path.to_path_buf()
}

/// A link at `path` to `/dev/zero`: an endless file with the name a folder reader looks for.
fn endless(path: &Path) -> PathBuf {
    std::os::unix::fs::symlink("/dev/zero", path).unwrap();
    path.to_path_buf()
}

/// A reader of one file (`ARGS… FILE`), given a huge file and `/dev/zero`.
fn one_file_reader(tag: &str, args: &[&str], bound: &str) {
    let dir = scratch(tag);
    let big = huge(&dir.join("big"));
    for file in [big.as_path(), Path::new("/dev/zero")] {
        let mut all = args.to_vec();
        all.push(file.to_str().unwrap());
        let err = refused(&all, file, bound);
        assert!(
            err.contains("read no further") || err.contains("4294967296 bytes"),
            "{err}"
        );
    }
}

/// A reader of a folder (`ARGS… DIR`), given a folder holding a huge `*.EXT` file, then one
/// holding a link to `/dev/zero` named `*.EXT`.
fn folder_reader(tag: &str, args: &[&str], ext: &str, bound: &str) {
    for (n, make) in [huge as fn(&Path) -> PathBuf, endless].iter().enumerate() {
        let dir = scratch(&format!("{tag}-{n}"));
        let file = make(&dir.join(format!("z.{ext}")));
        let mut all = args.to_vec();
        all.push(dir.to_str().unwrap());
        refused(&all, &file, bound);
    }
}

#[test]
fn problem_verify_bounds_its_problem_file() {
    one_file_reader(
        "bound-problem",
        &["problem", "verify"],
        "a problem file has at most 1 MiB",
    );
}

#[test]
fn check_game_bounds_its_record() {
    one_file_reader(
        "bound-record",
        &["check-game"],
        "a game record has at most 1 MiB",
    );
}

#[test]
fn tb_checksums_bounds_its_checksum_list() {
    let dir = scratch("bound-list-dir");
    let d = dir.to_str().unwrap();
    one_file_reader(
        "bound-list",
        &["tb", "checksums", "--dir", d, "--check"],
        "a checksum list has at most 1 MiB",
    );
}

#[test]
fn analysis_tablebases_bounds_its_report_files() {
    one_file_reader(
        "bound-slices",
        &["analysis", "tablebases"],
        "a report file has at most 16 MiB",
    );
}

#[test]
fn site_bounds_its_module() {
    let out = scratch("bound-wasm-site").join("site");
    let args = ["site", out.to_str().unwrap(), "--wasm"];
    one_file_reader(
        "bound-wasm",
        &args,
        "a WebAssembly module has at most 64 MiB",
    );
}

#[test]
fn analysis_games_bounds_each_report_of_its_folder() {
    folder_reader(
        "bound-games",
        &["analysis", "games"],
        "json",
        "a report file has at most 16 MiB",
    );
}

#[test]
fn the_case_suite_readers_bound_each_case_file() {
    for args in [
        &["conformance", "check-adjudicator", "--cases"][..],
        &["conformance", "fill-cases", "--cases"],
        &["conformance", "check", "--cases"],
        &["conform", "ordo engine", "--cases"],
    ] {
        folder_reader("bound-cases", args, "toml", "a case file has at most 1 MiB");
    }
}

#[test]
fn the_vector_readers_bound_each_vector_file() {
    for args in [
        &["conformance", "check", "--vectors"][..],
        &["conform", "ordo engine", "--vectors"],
    ] {
        folder_reader(
            "bound-vectors",
            args,
            "jsonl",
            "a vector file has at most 16 MiB",
        );
    }
}

/// A folder of case files each within the bound but over it together is refused as a folder.
#[test]
fn a_case_folder_is_bounded_in_all() {
    let dir = scratch("bound-case-folder");
    for i in 0..17 {
        std::fs::write(dir.join(format!("c{i:02}.toml")), "#".repeat(1 << 20)).unwrap();
    }
    let d = dir.to_str().unwrap();
    refused(
        &["conformance", "check-adjudicator", "--cases", d],
        &dir,
        "a folder of case files has at most 16 MiB",
    );
}

/// A FIFO that a writer fills without end (`yes > FIFO`) is refused at the bound.
#[test]
fn an_endless_fifo_is_refused_at_the_bound() {
    let dir = scratch("bound-fifo");
    let fifo = dir.join("problems.toml");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let mut writer = Command::new("sh")
        .arg("-c")
        .arg(format!("exec yes > '{}'", fifo.display()))
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Once the writer has opened the FIFO, a reader finds it endless.
    std::thread::sleep(Duration::from_millis(200));
    let f = fifo.to_str().unwrap();
    let err = refused(
        &["problem", "verify", f],
        &fifo,
        "a problem file has at most 1 MiB",
    );
    let _ = writer.kill();
    let _ = writer.wait();
    assert!(err.contains("goes on past 1048576 bytes"), "{err}");
}
