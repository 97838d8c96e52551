//! Table files that cannot lie (the retro solver's format 2, `ordo_testkit::retro`, whose
//! loader the compact one's in crates/solve/src/compact/store.rs follows; atomic writes in
//! crates/system/src/files.rs): every damaged,
//! truncated, extended, relabelled or swapped file is refused with a one-line reason, none
//! is trusted; the header is read with a length limit and checked against the file's size
//! and the request before anything is allocated; writes are atomic, clean up after dead
//! writers and refuse targets that are not regular files. The value codes these tables hold
//! follow ORDO-10.1 to ORDO-10.5 (how games end); the checks here are about the files.

use std::path::{Path, PathBuf};

use crate::common::{assert_refused, ordo_cmd, tb_probe};
use ordo_bitboard::Bitboard;
use ordo_core::rules::{Dims, Variant};
use ordo_solve::{BuildOptions, GameOptions, Material, Setup, SolveError};
use ordo_solve::{LimitSource, MemoryLimit};
use ordo_testkit::retro::{solve_game, tb, Table};

fn scratch(name: &str) -> PathBuf {
    crate::common::scratch(&format!("files-{name}"))
}

fn dims(s: &str) -> Dims {
    s.parse().unwrap()
}

/// The solved game table of `variant` on `board` from row1, saved at `path`.
fn game_table(variant: Variant, board: &str, path: &Path) -> Table {
    let opts = GameOptions {
        table: Some(path.to_path_buf()),
        ..GameOptions::default()
    };
    solve_game::<Bitboard>(variant, dims(board), Setup::Row1, &opts)
        .unwrap()
        .0
}

fn load_classic_3x3(path: &Path) -> Result<Table, SolveError> {
    Table::load(path, Variant::Classic, dims("3x3"), "row1", true, None)
}

/// Where the payload starts: after the third newline.
fn payload_start(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .nth(2)
        .unwrap()
        .0
        + 1
}

/// FNV-1a 64, written again here (not the crate's) to forge files whose checksum is right.
fn fnv(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The file with its header line edited by `edit` and, if `forge`, the checksum recomputed
/// as a forger would.
fn relabel(bytes: &[u8], edit: impl Fn(&str) -> String, forge: bool) -> Vec<u8> {
    let text = String::from_utf8_lossy(&bytes[..payload_start(bytes)]).into_owned();
    let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
    let header = edit(lines[1]);
    assert_ne!(header, lines[1], "the edit changes the header");
    lines[1] = &header;
    let head = format!("{}{}", lines[0], lines[1]);
    let payload = &bytes[payload_start(bytes)..];
    let sum_line = if forge {
        let mut all = head.clone().into_bytes();
        all.extend_from_slice(payload);
        format!("checksum fnv1a64 {:016x}\n", fnv(&all))
    } else {
        lines[2].to_string()
    };
    let mut out = format!("{head}{sum_line}").into_bytes();
    out.extend_from_slice(payload);
    out
}

/// Every bit-flip of every header byte, and of sampled payload bytes, is refused.
#[test]
fn flipped_bytes_anywhere_are_refused() {
    let dir = scratch("flip");
    let path = dir.join("t.ordotb");
    game_table(Variant::Classic, "3x3", &path);
    let bytes = std::fs::read(&path).unwrap();
    let start = payload_start(&bytes);
    let positions: Vec<usize> = (0..start)
        .chain((start..bytes.len()).step_by(7))
        .chain([bytes.len() - 1])
        .collect();
    let damaged = dir.join("d.ordotb");
    for &i in &positions {
        for bit in [0x01u8, 0x20, 0x80] {
            let mut b = bytes.clone();
            b[i] ^= bit;
            std::fs::write(&damaged, &b).unwrap();
            let err = load_classic_3x3(&damaged)
                .err()
                .unwrap_or_else(|| panic!("byte {i} flipped by {bit:#x} was accepted"));
            assert_eq!(err.to_string().lines().count(), 1, "{err}");
        }
    }
    load_classic_3x3(&path).expect("the undamaged file loads");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every truncation (each length of the header, sampled lengths of the payload) and every
/// extension is refused, and says which.
#[test]
fn truncated_and_extended_files_are_refused() {
    let dir = scratch("trunc");
    let path = dir.join("t.ordotb");
    game_table(Variant::Classic, "3x3", &path);
    let bytes = std::fs::read(&path).unwrap();
    let start = payload_start(&bytes);
    let cut = dir.join("c.ordotb");
    for len in (0..start).chain((start..bytes.len()).step_by(13)) {
        std::fs::write(&cut, &bytes[..len]).unwrap();
        let err = load_classic_3x3(&cut)
            .err()
            .unwrap_or_else(|| panic!("truncated to {len} of {} bytes was accepted", bytes.len()));
        if len >= start {
            assert!(err.to_string().contains("truncated"), "{err}");
        }
    }
    for extra in [&b"\0"[..], b"\n", &[0u8; 16], &[7u8; 2]] {
        let mut b = bytes.clone();
        b.extend_from_slice(extra);
        std::fs::write(&cut, &b).unwrap();
        let err = load_classic_3x3(&cut).unwrap_err().to_string();
        assert!(err.contains("extended"), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Relabelled headers: every field edited without the checksum is refused by the checksum;
/// with the checksum forged, counts, entries and flags that disagree with the payload are
/// still refused (a forged "66736 won" edited to "96736 won" was once accepted).
#[test]
fn relabelled_headers_are_refused() {
    let dir = scratch("relabel");
    let path = dir.join("t.ordotb");
    let table = game_table(Variant::Classic, "3x3", &path);
    let bytes = std::fs::read(&path).unwrap();
    let wins = table.header.counts.as_ref().unwrap().wins;
    let entries = table.header.entries;
    let won = format!("\"wins\":{wins},");
    type Edit = Box<dyn Fn(&str) -> String>;
    let edits: Vec<(Edit, &str)> = vec![
        (
            Box::new(|h: &str| h.replace("\"variant\":\"classic\"", "\"variant\":\"x\"")),
            "not the classic 3x3 game row1 asked for",
        ),
        (
            Box::new(|h: &str| h.replace("\"board\":\"3x3\"", "\"board\":\"3x4\"")),
            "not the classic 3x3 game row1 asked for",
        ),
        (
            Box::new(|h: &str| h.replace("\"scope\":\"row1\"", "\"scope\":\"row2\"")),
            "not the classic 3x3 game row1 asked for",
        ),
        (
            Box::new(move |h: &str| h.replace(&won, &format!("\"wins\":{},", wins + 30000))),
            "the header counts",
        ),
        (
            Box::new(move |h: &str| {
                h.replace(
                    &format!("\"entries\":{entries},"),
                    &format!("\"entries\":{},", entries + 1),
                )
            }),
            "truncated",
        ),
        (
            Box::new(move |h: &str| {
                h.replace(
                    &format!("\"entries\":{entries},"),
                    "\"entries\":1099511627776,",
                )
            }),
            "fewer than 2^32",
        ),
        (
            Box::new(|h: &str| h.replace("\"solved\":true", "\"solved\":false")),
            "holds no values",
        ),
        (
            Box::new(|h: &str| h.replace("\"keyed\":true", "\"keyed\":false")),
            "does not store its keys",
        ),
        (
            Box::new(|h: &str| h.replace("\"rules_version\":", "\"rules_version\":9")),
            "rules version 9",
        ),
        (
            Box::new(|h: &str| h.replace("\"format\":2", "\"format\":1")),
            "table file format 1 (this build reads format 2",
        ),
        (
            Box::new(|h: &str| h.replace('}', ",\"extra\":1}")),
            "unknown field",
        ),
    ];
    let edited = dir.join("e.ordotb");
    for (edit, forged_reason) in &edits {
        std::fs::write(&edited, relabel(&bytes, edit, false)).unwrap();
        let err = load_classic_3x3(&edited).unwrap_err().to_string();
        assert_eq!(err.lines().count(), 1, "{err}");
        std::fs::write(&edited, relabel(&bytes, edit, true)).unwrap();
        let err = load_classic_3x3(&edited).unwrap_err().to_string();
        assert!(err.contains(forged_reason), "{forged_reason}: {err}");
    }
    // A harmless-looking field (the recorded time) is covered by the checksum too.
    let slower = |h: &str| h.replace("\"solve_ms\":", "\"solve_ms\":1");
    std::fs::write(&edited, relabel(&bytes, slower, false)).unwrap();
    let err = load_classic_3x3(&edited).unwrap_err().to_string();
    assert!(err.contains("checksum mismatch"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Files swapped between games and boards are refused by what they hold, and an old
/// format-1 file (whose checksum covered only the data) is refused naming its version.
#[test]
fn swapped_game_tables_are_refused() {
    let dir = scratch("swap");
    let classic = dir.join("classic.ordotb");
    let x = dir.join("x.ordotb");
    let wide = dir.join("wide.ordotb");
    game_table(Variant::Classic, "3x3", &classic);
    game_table(Variant::X, "3x3", &x);
    game_table(Variant::Classic, "4x3", &wide);
    for (file, holds) in [(&x, "x 3x3 game row1"), (&wide, "classic 4x3 game row1")] {
        let err = load_classic_3x3(file).unwrap_err();
        assert!(matches!(err, SolveError::OtherTable { .. }), "{err}");
        assert!(
            err.to_string()
                .contains(&format!("holds the {holds} table")),
            "{err}"
        );
    }
    let err = Table::load(&classic, Variant::Classic, dims("3x3"), "row1", false, None)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("holds values where a checkpoint was expected"),
        "{err}"
    );
    let old = dir.join("old.ordotb");
    std::fs::write(
        &old,
        b"ORDO-TABLE\n{\"format\":1,\"kind\":\"game\",\"checksum\":\"00\"}\n",
    )
    .unwrap();
    let err = load_classic_3x3(&old).unwrap_err().to_string();
    assert!(
        err.contains("table file format 1 (this build reads format 2 only")
            && err.contains("build the table again"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Files that are not tables of any size: a symlink to /dev/zero (refused at once, not read
/// for ever), a long line without newline, an empty file, a folder; and a payload beyond the
/// memory limit, refused before it is read.
#[test]
fn endless_and_oversized_files_are_refused_quickly() {
    let dir = scratch("endless");
    let zero = dir.join("zero.ordotb");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let err = load_classic_3x3(&zero).unwrap_err().to_string();
    assert!(err.contains("not a regular file"), "{err}");
    let long = dir.join("long.ordotb");
    let mut text = b"ORDO-TABLE\n".to_vec();
    text.resize(20 << 20, b'{');
    std::fs::write(&long, &text).unwrap();
    let err = load_classic_3x3(&long).unwrap_err().to_string();
    assert!(
        err.contains("no header line of at most 4096 bytes"),
        "{err}"
    );
    let empty = dir.join("empty.ordotb");
    std::fs::write(&empty, b"").unwrap();
    let err = load_classic_3x3(&empty).unwrap_err().to_string();
    assert!(err.contains("not an Ordo table"), "{err}");
    let err = load_classic_3x3(&dir).unwrap_err().to_string();
    assert!(
        err.contains("not a regular file") || err.contains("directory"),
        "{err}"
    );
    let path = dir.join("t.ordotb");
    game_table(Variant::Classic, "3x3", &path);
    let tiny = MemoryLimit {
        bytes: 100,
        source: LimitSource::Asked,
    };
    let err = Table::load(
        &path,
        Variant::Classic,
        dims("3x3"),
        "row1",
        true,
        Some(tiny),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("over the memory limit of"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

fn build(variant: Variant, board: &str, max: Material, dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    let opts = BuildOptions::default();
    tb::build::<Bitboard>(dims(board), variant, max, dir, &opts, |_| {}).unwrap();
}

/// Endgame slices swapped between materials (1v2 and 2v1 have the same size), games and
/// boards, or damaged in header or payload, are refused by `tb::open`; none is trusted.
#[test]
fn swapped_and_damaged_slices_are_refused() {
    let root = scratch("slices");
    let max = Material { white: 2, black: 2 };
    let (classic, x, wide) = (root.join("c"), root.join("x"), root.join("w"));
    build(Variant::Classic, "4x4", max, &classic);
    build(Variant::X, "4x4", max, &x);
    build(Variant::Classic, "5x4", max, &wide);
    let path = |dir: &Path, variant, board: &str, w, b| {
        tb::RetroTablebase::path(dir, variant, dims(board), Material { white: w, black: b })
    };
    let open = |dir: &Path| tb::open(dims("4x4"), Variant::Classic, max, dir);
    assert!(open(&classic).is_ok());
    let work = root.join("work");
    let cases: Vec<(PathBuf, PathBuf)> = vec![
        (
            path(&classic, Variant::Classic, "4x4", 2, 1),
            path(&classic, Variant::Classic, "4x4", 1, 2),
        ),
        (
            path(&x, Variant::X, "4x4", 2, 2),
            path(&classic, Variant::Classic, "4x4", 2, 2),
        ),
        (
            path(&wide, Variant::Classic, "5x4", 2, 2),
            path(&classic, Variant::Classic, "4x4", 2, 2),
        ),
    ];
    for (from, to) in &cases {
        let _ = std::fs::remove_dir_all(&work);
        copy_dir(&classic, &work);
        let target = work.join(to.file_name().unwrap());
        std::fs::copy(from, &target).unwrap();
        let err = open(&work)
            .expect_err("a swapped slice is refused")
            .to_string();
        assert!(err.contains("not the classic 4x4 endgame"), "{err}");
    }
    let bytes = std::fs::read(path(&classic, Variant::Classic, "4x4", 2, 2)).unwrap();
    let start = payload_start(&bytes);
    for i in (0..start).chain((start..bytes.len()).step_by(997)) {
        let _ = std::fs::remove_dir_all(&work);
        copy_dir(&classic, &work);
        let mut b = bytes.clone();
        b[i] ^= 0x04;
        std::fs::write(path(&work, Variant::Classic, "4x4", 2, 2), &b).unwrap();
        assert!(open(&work).is_err(), "byte {i} flipped was accepted");
    }
    let _ = std::fs::remove_dir_all(&root);
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

/// The command line reports a refused table: `tb probe` exits 2 with one line naming the
/// file; `problem verify` says it proved by search instead, and why; the missing-table hint
/// names the material the position needs (not the first slice in build order).
#[test]
fn cli_reports_refused_and_missing_tables() {
    let dir = scratch("cli");
    let opts = BuildOptions::default();
    let m22 = Material { white: 2, black: 2 };
    ordo_solve::build_slices::<Bitboard>(dims("4x4"), Variant::Classic, m22, &dir, &opts, |_| {})
        .unwrap();
    let p22 = ordo_solve::slice_path(
        &dir,
        Variant::Classic,
        dims("4x4"),
        Material { white: 2, black: 2 },
    );
    let mut bytes = std::fs::read(&p22).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&p22, &bytes).unwrap();
    let d = dir.to_str().unwrap();
    let o = tb_probe("2BB/4/4/WW2 w classic", d);
    let err = assert_refused(&o);
    assert!(
        err.contains("ctb-classic-4x4-2v2.ordotb: checksum mismatch"),
        "{err}"
    );
    let problems = dir.join("p.toml");
    std::fs::write(
        &problems,
        "[[problem]]\nid = \"p\"\nposition = \"2BB/4/4/WW2 w classic\"\nstipulation = \"win in 1\"\nkeys = [\"a1:b1-a4\"]\nsource = \"test\"\n",
    )
    .unwrap();
    let o = ordo_cmd(&[
        "problem",
        "verify",
        problems.to_str().unwrap(),
        "--tables",
        d,
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("tables not used, proved by search instead: ")
            && out.contains("checksum mismatch"),
        "{out}"
    );
    // 3 against 2 with nothing built: the hint builds what this position needs.
    let empty = scratch("cli-empty");
    let o = tb_probe("2BB/4/4/WWW1 w classic", empty.to_str().unwrap());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("no classic 4x4 3v2 table: slices 1v1, 2v1, 2v2, 3v1, 3v2 not built")
            && err.contains("--max-pieces 3,2"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&empty);
}

/// Atomic writes: a temporary file left by a dead writer (SIGKILL during a write) is removed
/// by the next write; a live writer's is left alone; a target that is a symlink or a folder
/// is refused, not replaced by a regular file.
#[test]
fn table_writes_are_atomic_and_clean_up_after_dead_writers() {
    let dir = scratch("atomic");
    let path = dir.join("t.ordotb");
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let stale = ordo_system::files::temp_path(&path, dead).unwrap();
    std::fs::write(&stale, vec![0u8; 4096]).unwrap();
    let live = ordo_system::files::temp_path(&path, 1).unwrap();
    std::fs::write(&live, b"in progress").unwrap();
    let table = game_table(Variant::Classic, "3x3", &path);
    assert!(
        !stale.exists(),
        "the dead writer's temporary file is removed"
    );
    assert!(live.exists(), "a live writer's temporary file is kept");
    assert!(load_classic_3x3(&path).is_ok());
    let link = dir.join("link.ordotb");
    std::os::unix::fs::symlink(&path, &link).unwrap();
    let err = table.save(&link).unwrap_err().to_string();
    assert!(err.contains("not a regular file"), "{err}");
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    let folder = dir.join("folder.ordotb");
    std::fs::create_dir(&folder).unwrap();
    assert!(table.save(&folder).is_err());
    assert!(folder.is_dir());
    let _ = std::fs::remove_dir_all(&dir);
}
