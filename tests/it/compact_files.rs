//! The compact solver's files on the command line (crates/solve/src/on_disk.rs,
//! crates/solve/src/compact/store.rs): the old retro solver's files refused with the command
//! that rebuilds them; the verification pass that catches a wrong value; the memory check up
//! front; the compact default; the published checksums. The library's side of the same files
//! is in crates/solve/tests/solver/files.rs. The values are those of ORDO-10.1 to ORDO-10.5
//! (how games end); the checks here are about the files and the plumbing.

use std::path::PathBuf;
use std::process::Command;

use crate::common::{assert_ok, assert_refused, ordo_cmd, ordo_line, retro_probe, tb_probe};
use ordo_bitboard::Bitboard;
use ordo_core::rules::{Dims, Variant};
use ordo_solve::{CompactExpect, CompactTables, TableKind};
use ordo_solve::{GameOptions, Setup, Silent};
use ordo_testkit::fixtures::{
    build_classic_4x4 as build, build_retro_classic_4x4_22 as build_retro_22, M22,
};
use ordo_testkit::retro::{self, tb};

fn scratch(name: &str) -> PathBuf {
    crate::common::scratch(&format!("cfiles-{name}"))
}

fn dims(s: &str) -> Dims {
    s.parse().unwrap()
}

/// The verification pass recomputes every value: one wrong value is caught (in the library,
/// and as exit status 1 of `ordo tb verify` on a file whose checksum and counts are intact).
#[test]
fn compact_verification_catches_a_wrong_value() {
    let dir = scratch("verify");
    let (mut t, _) = build(&dir, M22);
    let ok = t.verify_slice::<Bitboard>(M22, &Silent).unwrap();
    assert!(ok.ok() && ok.checked > 0, "{ok:?}");
    // A win in 1 (code 2) made a win in 3 (code 4): the same counts unless it is the longest.
    let values = &mut t.slices.get_mut(&M22).unwrap().values;
    let i = values.iter().position(|&c| c == 2).unwrap();
    values[i] = 4;
    let bad = t.verify_slice::<Bitboard>(M22, &Silent).unwrap();
    assert_eq!(bad.mismatches, 1, "{bad:?}");
    assert!(bad.examples[0].contains("stored "), "{bad:?}");
    let p = ordo_solve::slice_path(&dir, Variant::Classic, dims("4x4"), M22);
    let stats = {
        let mut t2 = CompactTables::new(dims("4x4"), Variant::Classic);
        let want = CompactExpect {
            kind: TableKind::Endgame,
            scope: "2v2".into(),
            materials: vec![M22],
            memory: None,
        };
        t2.load(&p, &want).unwrap().slices
    };
    t.save(&p, TableKind::Endgame, "2v2", &stats, None).unwrap();
    let d = dir.to_str().unwrap();
    let o = ordo_line(&format!("tb verify --board 4x4 --max-pieces 2,2 --dir {d}"));
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("2v2: ") && out.contains(" 1 mismatch (first: "),
        "{out}"
    );
    assert!(out.ends_with("VERIFICATION FAILED\n"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--memory-limit` refuses a compact job up front, naming the estimate and the limit, and
/// leaves nothing behind.
#[test]
fn compact_jobs_over_the_memory_limit_are_refused_up_front() {
    let s = match ordo_solve::check_memory(dims("4x4"), Variant::Classic, M22, Some(10_000)) {
        Ok(_) => panic!("a job over the limit was accepted"),
        Err(e) => e.to_string(),
    };
    assert!(
        s.contains("need over 1") && s.contains("KB, over the memory limit of 10 KB"),
        "{s}"
    );
    let Ok(t) = ordo_solve::check_memory(dims("4x4"), Variant::Classic, M22, Some(1 << 20)) else {
        panic!("4x4 to 2v2 fits 1 MB");
    };
    assert!(t.slices.is_empty());
    let whole = ordo_solve::estimate_bytes(
        &mut CompactTables::new(dims("4x4"), Variant::Classic),
        &[M22],
    );
    assert!(whole.unwrap() > 10_000);
    let dir = scratch("memory").join("not-made");
    let d = dir.to_str().unwrap();
    let o = ordo_line(&format!(
        "tb build --board 4x4 --max-pieces 2,2 --memory-limit 10K --dir {d}"
    ));
    let err = assert_refused(&o);
    assert!(
        err.contains("over the memory limit of 10K (--memory-limit)"),
        "{err}"
    );
    assert!(!dir.exists());
    // 10 x 8, 10 against 1 in Ordo X: refused at once while counting the connected sets.
    let o = ordo_line(&format!(
        "tb build --variant x --max-pieces 10,1 --memory-limit 1G --dir {d}"
    ));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("do not fit the memory limit of 1G (--memory-limit)"),
        "{err}"
    );
}

/// `--memory-limit` is honoured before the peak. The sizing of Ordo X
/// row2 5 x 5 used to hold 160 MB for minutes under `--memory-limit 100M` before refusing;
/// it now stops as soon as its estimate passes the limit, refuses before any slice is built
/// (exit 2, nothing written) and says the need and the limit in the units typed.
#[test]
fn a_memory_limit_too_small_is_refused_before_its_peak() {
    let dir = scratch("memory-peak");
    let table = dir.join("t.ordotb");
    let args = [
        "solve",
        "--variant",
        "x",
        "--board",
        "5x5",
        "--setup",
        "row2",
        "--table",
        table.to_str().unwrap(),
        "--memory-limit",
        "100M",
    ];
    let mut child = Command::new(env!("CARGO_BIN_EXE_ordo"))
        .args(args)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let (status, peak_kb) = wait_with_peak(&mut child);
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.unwrap(), &mut err).unwrap();
    assert_eq!(status, 2, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("need over ")
            && err.contains("M, over the memory limit of 100M (--memory-limit)"),
        "{err}"
    );
    assert!(
        peak_kb < 100 << 10,
        "peak {peak_kb} KB over the limit: {err}"
    );
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
    // Plain bytes are answered in bytes.
    let o =
        ordo_line("solve --variant x --board 5x5 --setup row2 --no-save --memory-limit 104857600");
    let err = assert_refused(&o);
    assert!(
        err.contains(" bytes, over the memory limit of 104857600 bytes (--memory-limit)"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Wait for `child`: its exit status and its peak resident memory in KB, from the VmHWM of
/// /proc/PID/status read every 5 ms while it runs. Not wait4's ru_maxrss: a spawned child
/// shares the test process's memory until exec and the kernel keeps that high-water mark, so
/// under the whole suite it measured the suite (130 MB), not the child (71 MB).
fn wait_with_peak(child: &mut std::process::Child) -> (i32, i64) {
    let exe = std::fs::canonicalize(env!("CARGO_BIN_EXE_ordo")).unwrap();
    let proc_dir = format!("/proc/{}", child.id());
    let mut peak = 0;
    loop {
        // Only once the child runs `ordo` (after exec) is its VmHWM its own.
        if std::fs::read_link(format!("{proc_dir}/exe")).is_ok_and(|p| p == exe) {
            let status = std::fs::read_to_string(format!("{proc_dir}/status")).unwrap_or_default();
            let hwm = status
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<i64>().ok());
            peak = peak.max(hwm.unwrap_or(0));
        }
        if let Some(done) = child.try_wait().unwrap() {
            assert!(peak > 0, "no reading of the child's memory");
            return (done.code().unwrap_or(-1), peak);
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// The command line: `solve` writes and reloads its file, prints JSON, refuses a retro table
/// under the name given (and keeps it); `tb probe` answers from compact files what the retro
/// solver's files of the test tooling answer.
#[test]
fn cli_compact_is_the_default_of_solve_and_tb() {
    let dir = scratch("cli");
    let table = dir.join("t.ordotb");
    let t = table.to_str().unwrap();
    let args = ["solve", "--board", "3x3", "--table", t];
    let o = ordo_cmd(&args);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains("core positions ") && out.contains("\nsolved in "),
        "{out}"
    );
    // The times say which they are, and the run's CPU time is given.
    assert!(out.contains(" s wall, peak memory "), "{out}");
    assert!(
        out.contains("\nthis run: ") && out.ends_with(" s CPU\n"),
        "{out}"
    );
    let o = ordo_cmd(&[&args[..], &["--json"]].concat());
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["solver"], "compact");
    assert_eq!(json["start"], "win");
    assert!(json["load_seconds"].is_number(), "{json}");
    let retro = dir.join("r.ordotb");
    let r = retro.to_str().unwrap();
    let o = GameOptions {
        table: Some(retro.clone()),
        ..GameOptions::default()
    };
    retro::solve_game::<Bitboard>(Variant::Classic, dims("3x3"), Setup::Row1, &o).unwrap();
    let before = std::fs::read(&retro).unwrap();
    let o = ordo_cmd(&["solve", "--board", "3x3", "--table", r]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("an old retro-solver table (format 2)"),
        "{err}"
    );
    assert_eq!(std::fs::read(&retro).unwrap(), before);
    let d = dir.to_str().unwrap();
    let o = ordo_cmd(&[
        "tb",
        "build",
        "--board",
        "4x4",
        "--max-pieces",
        "2,2",
        "--dir",
        d,
    ]);
    assert_eq!(o.status.code(), Some(0));
    build_retro_22(&dir);
    // A core position, and one whose side to move is split (the shell).
    for position in ["2BB/4/4/WW2 w classic", "1B2/B3/2W1/W3 w classic"] {
        let o = tb_probe(position, d);
        assert_eq!(o.status.code(), Some(0), "{position}");
        assert_eq!(
            String::from_utf8_lossy(&o.stdout),
            retro_probe(position, &dir).unwrap(),
            "{position}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Without `--memory-limit`, a board whose compact tables cannot be built is
/// refused from the index sizes, counted without building any index: `solve --board 9x8`
/// took about 4 minutes and 3 GB to refuse when the estimate built every index first.
#[test]
#[ignore = "slow tier (keeps `cargo test` short): `cargo test --release --test it --test solver -- --ignored`, run by .ci/run"]
fn an_unbounded_board_too_large_is_refused_from_counted_sizes() {
    let o = ordo_cmd(&["solve", "--board", "9x8", "--no-save", "--threads", "1"]);
    let err = assert_refused(&o);
    // On this board the 7v5 slice is over the index's 2^32 entries; a machine with little
    // memory refuses it sooner, on the memory limit.
    assert!(
        err.contains("slice 7v5 of classic on 9x8 has 2^32 or more stored positions")
            || err.contains("memory limit of"),
        "{err}"
    );
}

/// `ordo tb probe` on a folder that holds only the retro solver's slices (written by the test
/// tooling) says so, with the command that builds the compact ones, on one line with exit
/// status 2; once they are built the same folder answers.
#[test]
fn tb_probe_names_a_folder_of_the_other_solvers_slices() {
    let dir = scratch("probe-kind-retro");
    let d = dir.to_str().unwrap();
    build_retro_22(&dir);
    let probe = || tb_probe("2BB/4/4/WW2 w classic", d);
    let err = assert_refused(&probe());
    assert!(
        err.contains("tb-classic-4x4-2v2.ordotb: an old retro-solver table (format 2)")
            && err.contains(&format!(
                "rebuild with: ordo tb build --variant classic --board 4x4 --max-pieces 2,2 --dir {d}"
            )),
        "{err}"
    );
    build(&dir, M22);
    assert_eq!(probe().status.code(), Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A table file of the retro solver (format 2, written by the test tooling) given to any
/// command that reads tables is refused on one line with exit status 2: the message says it
/// is an old retro-solver table and gives the command that builds it with the compact solver;
/// the file is left as it was.
#[test]
fn old_retro_tables_are_refused_with_the_command_that_rebuilds_them() {
    let dir = scratch("retro-refused");
    let d = dir.to_str().unwrap();
    let game = dir.join("old.ordotb");
    let o = GameOptions {
        table: Some(game.clone()),
        ..GameOptions::default()
    };
    retro::solve_game::<Bitboard>(Variant::X, dims("3x3"), Setup::Row1, &o).unwrap();
    let before = std::fs::read(&game).unwrap();
    let g = game.to_str().unwrap();
    let err = assert_refused(&ordo_cmd(&[
        "solve",
        "--variant",
        "x",
        "--board",
        "3x3",
        "--table",
        g,
    ]));
    assert_eq!(
        err.trim_end(),
        format!("ordo: error: {g}: an old retro-solver table (format 2), which this version no longer reads; remove it and rebuild with: ordo solve --variant x --board 3x3 --setup row1 --table {g}")
    );
    assert_eq!(std::fs::read(&game).unwrap(), before);
    // A retro endgame slice under the compact slice's name, read by every slice command.
    build_retro_22(&dir);
    for m in ordo_solve::stored_up_to(M22) {
        let old = tb::RetroTablebase::path(&dir, Variant::Classic, dims("4x4"), m);
        std::fs::rename(
            &old,
            ordo_solve::slice_path(&dir, Variant::Classic, dims("4x4"), m),
        )
        .unwrap();
    }
    let rebuild = format!(
        "rebuild with: ordo tb build --variant classic --board 4x4 --max-pieces 1,1 --dir {d}"
    );
    let slices = ["--board", "4x4", "--max-pieces", "2,2", "--dir", d];
    for args in [
        &[
            "tb",
            "probe",
            "--position",
            "2BB/4/4/WW2 w classic",
            "--dir",
            d,
        ][..],
        &[&["tb", "verify"][..], &slices].concat(),
        &[&["tb", "build"][..], &slices].concat(),
        &[
            "problem",
            "compose",
            "--board",
            "4x4",
            "--material",
            "2,2",
            "--dir",
            d,
        ],
    ] {
        let err = assert_refused(&ordo_cmd(args));
        assert!(
            err.contains("ctb-classic-4x4-1v1.ordotb: an old retro-solver table (format 2)")
                && err.trim_end().ends_with(&rebuild),
            "{args:?}: {err}"
        );
    }
    // A job of a slice whose own file is a retro one (its log line aside).
    let o = ordo_cmd(&[
        "tb",
        "job",
        "--board",
        "4x4",
        "--material",
        "2,1",
        "--dir",
        d,
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    let errors: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("ordo: error"))
        .collect();
    assert_eq!(errors.len(), 1, "{err}");
    assert!(
        errors[0].contains("ctb-classic-4x4-2v1.ordotb: an old retro-solver table (format 2)")
            && errors[0].ends_with(&rebuild.replace("1,1", "2,1")),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Forged tables are caught: `analysis/checksums/` publishes the content checksums of the tables
/// behind the results, and a rebuild matches them (the build is deterministic: two builds
/// differ only in the run's cost their headers record, which the content checksum leaves
/// out). A payload edited with the file's own checksum recomputed loads as valid, but
/// fails the published list.
#[test]
fn rebuilt_tables_match_the_published_checksums_and_a_forgery_does_not() {
    let dir = scratch("published");
    let d = dir.to_str().unwrap();
    assert_ok(&ordo_line(&format!(
        "tb build --variant x --board 10x8 --max-pieces 3,3 --dir {d}"
    )));
    let list = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/analysis/checksums/x-10x8-to-3v3.b3"
    );
    let o = ordo_line(&format!("tb checksums --dir {d} --check {list}"));
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains("every one of the 6 tables listed matches"),
        "{out}"
    );
    // The listing is the published list's own lines (classic's first slices too).
    let o = ordo_line(&format!("tb checksums --dir {d}"));
    let listed = String::from_utf8_lossy(&o.stdout).into_owned();
    let published = std::fs::read_to_string(list).unwrap();
    assert!(listed.lines().all(|l| published.contains(l)), "{listed}");
    assert_eq!(listed.lines().count(), 6, "{listed}");
    // Forge: one value changed, the file's own BLAKE3 recomputed.
    let file = dir.join("ctb-x-10x8-2v2.ordotb");
    let bytes = std::fs::read(&file).unwrap();
    let mut lines = bytes.splitn(4, |&b| b == b'\n');
    let (magic, head, _sum) = (lines.next().unwrap(), lines.next().unwrap(), lines.next());
    let mut payload = lines.next().unwrap().to_vec();
    let last = payload.len() - 1;
    payload[last] ^= 1;
    let mut h = blake3::Hasher::new();
    h.update(&[magic, b"\n", head, b"\n"].concat());
    h.update(&payload);
    let forged = [
        magic,
        b"\n",
        head,
        b"\n",
        format!("checksum blake3 {}\n", h.finalize().to_hex()).as_bytes(),
        &payload,
    ]
    .concat();
    std::fs::write(&file, forged).unwrap();
    let o = ordo_line(&format!("tb checksums --dir {d} --check {list}"));
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("ctb-x-10x8-2v2.ordotb: FAILED (published e8531a25"),
        "{out}"
    );
    assert!(
        out.contains("1 of the 6 tables listed do not match"),
        "{out}"
    );
    // A file missing from the folder, and a list that is not one, are said as such.
    std::fs::remove_file(&file).unwrap();
    let o = ordo_line(&format!("tb checksums --dir {d} --check {list}"));
    assert!(String::from_utf8_lossy(&o.stdout).contains("ctb-x-10x8-2v2.ordotb: MISSING"));
    let bad = dir.join("bad.b3");
    std::fs::write(&bad, "not a checksum\n").unwrap();
    let o = ordo_line(&format!("tb checksums --dir {d} --check {}", bad.display()));
    let err = assert_refused(&o);
    assert!(
        err.contains("bad.b3: line 1: expected '<64 hex digits>  <file name>'"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `solve --table T --no-save` is refused (it would ignore the table), and a memory limit too
/// small for any slice is said in words that read right (not "1 pieces … needs over 0 KB").
#[test]
fn solve_refuses_a_table_without_saving_and_a_limit_with_no_room() {
    let o = ordo_line("solve --table t.ordotb --no-save");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--no-save") && err.contains("--table"),
        "{err}"
    );
    let o = ordo_line("solve --memory-limit 1 --no-save");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("leaves no room for the smallest slice"),
        "{err}"
    );
    assert!(!err.contains("1 pieces") && !err.contains("0 KB"), "{err}");
}

/// The guide's "Table files" section describes the files as they are: the format number it
/// gives is the one a built file's header carries (and the library's), and its checksum line
/// is BLAKE3's.
#[test]
fn the_guide_gives_the_format_of_a_built_table_file() {
    let dir = scratch("format-doc");
    let (t, _) = build(&dir, M22);
    drop(t);
    let p = ordo_solve::slice_path(&dir, Variant::Classic, dims("4x4"), M22);
    let bytes = std::fs::read(&p).unwrap();
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(70_000)]);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("ORDO-TABLE"));
    let header: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    let built = header["format"].as_u64().unwrap();
    assert_eq!(built, u64::from(ordo_solve::TABLE_FORMAT));
    assert!(lines.next().unwrap().starts_with("checksum blake3 "));
    let guide =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/guide.md")).unwrap();
    let section = guide.split("### Table files").nth(1).unwrap();
    let said = section
        .split("Table files are format ")
        .nth(1)
        .and_then(|s| s.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse::<u64>().ok());
    assert_eq!(said, Some(built), "the guide's format");
    let first = section.trim_start().split("\n\n").next().unwrap();
    assert!(first.contains("BLAKE3 over the first two lines"), "{first}");
    assert!(first.contains(&format!("\"format\":{built}")), "{first}");
}

/// Two slice files swapped: `tb checksums --dir` still lists each file's content checksum, and
/// says that each holds the table of the other name (exit status 1); the files as built list
/// without a word (exit status 0).
#[test]
fn tb_checksums_says_when_a_file_holds_another_slice() {
    let dir = scratch("swapped");
    let d = dir.to_str().unwrap();
    assert_ok(&ordo_line(&format!(
        "tb build --board 4x4 --max-pieces 2,2 --dir {d}"
    )));
    let o = ordo_line(&format!("tb checksums --dir {d}"));
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&o.stderr), "");
    let a = dir.join("ctb-classic-4x4-2v1.ordotb");
    let b = dir.join("ctb-classic-4x4-2v2.ordotb");
    let tmp = dir.join("swap");
    std::fs::rename(&a, &tmp).unwrap();
    std::fs::rename(&b, &a).unwrap();
    std::fs::rename(&tmp, &b).unwrap();
    let o = ordo_line(&format!("tb checksums --dir {d}"));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("ctb-classic-4x4-2v1.ordotb holds the table named ctb-classic-4x4-2v2.ordotb"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 2, "{err}");
}
