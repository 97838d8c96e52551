//! Tables that cannot be forged or hang a run: compact files checksummed
//! with BLAKE3, older FNV-1a files refused with how to rebuild them
//! (crates/solve/src/compact/store.rs); every table read refuses what is not a regular file
//! before it could block (crates/system/src/files.rs `open_regular`); killed writers' temporary
//! files cleaned by the next run in the folder (`remove_stale_in`).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{assert_refused, ordo_cmd, stderr, tb_probe};
use ordo_core::rules::{Dims, Variant};
use ordo_solve::Material;
use ordo_solve::{CompactExpect, CompactTables, TableKind};

const M22: Material = Material { white: 2, black: 2 };
const PROBE_22: &str = "BB2/4/4/WW2 w classic";

fn dims() -> Dims {
    "4x4".parse().unwrap()
}

/// Build the classic 4 x 4 slices up to 2 against 2 in `dir` with the command line.
pub(crate) fn build_22(dir: &Path) {
    let o = ordo_cmd(&[
        "tb",
        "build",
        "--board",
        "4x4",
        "--max-pieces",
        "2,2",
        "--dir",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// FNV-1a 64, the checksum of format 3, written again here as a forger would.
fn fnv(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The lines of a table file (magic, header, checksum) and its payload.
fn split(bytes: &[u8]) -> (String, String, Vec<u8>) {
    let ends: Vec<usize> = (0..bytes.len())
        .filter(|&i| bytes[i] == b'\n')
        .take(3)
        .collect();
    let text = |a: usize, b: usize| String::from_utf8(bytes[a..=b].to_vec()).unwrap();
    (
        text(0, ends[0]),
        text(ends[0] + 1, ends[1]),
        bytes[ends[2] + 1..].to_vec(),
    )
}

/// A forged table is refused: a payload edited with its checksum recomputed the old way (FNV-1a
/// 64), as format 3 or under the format 4 header, is refused by the library load and by `ordo tb
/// probe`, with how to rebuild where the format is the old one.
#[test]
fn a_payload_edited_with_an_fnv_checksum_is_refused() {
    let dir = crate::common::scratch("trust-fnv");
    build_22(&dir);
    let file = ordo_solve::slice_path(&dir, Variant::Classic, dims(), M22);
    let good = std::fs::read(&file).unwrap();
    let (magic, header, mut payload) = split(&good);
    assert!(header.contains("\"format\":4"), "{header}");
    payload[0] = if payload[0] == 1 { 2 } else { 1 };
    let forge = |header: &str| {
        let head = format!("{magic}{header}");
        let all = [head.as_bytes(), &payload].concat();
        let line = format!("checksum fnv1a64 {:016x}\n", fnv(&all));
        [head.as_bytes(), line.as_bytes(), &payload].concat()
    };
    let load = || {
        let mut t = CompactTables::new(dims(), Variant::Classic);
        let want = CompactExpect {
            kind: TableKind::Endgame,
            scope: "2v2".into(),
            materials: vec![M22],
            memory: None,
        };
        t.load(&file, &want).map(|_| ()).unwrap_err().to_string()
    };
    let d = dir.to_str().unwrap();
    let old = forge(&header.replace("\"format\":4", "\"format\":3"));
    std::fs::write(&file, old).unwrap();
    for err in [load(), assert_refused(&tb_probe(PROBE_22, d))] {
        assert!(err.contains(&file.display().to_string()), "{err}");
        assert!(err.contains("format 3"), "{err}");
        assert!(err.contains("build the table again"), "{err}");
    }
    std::fs::write(&file, forge(&header)).unwrap();
    for err in [load(), assert_refused(&tb_probe(PROBE_22, d))] {
        assert!(err.contains("no checksum line"), "{err}");
    }
    // The file as written still loads: the refusals are the edits'.
    std::fs::write(&file, &good).unwrap();
    assert_eq!(tb_probe(PROBE_22, d).status.code(), Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Run `ordo args`, killing it if it has not ended within a generous bound (a hang).
fn run_bounded(args: &[&str]) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ordo"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("ordo {} hangs", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn mkfifo(path: &Path) {
    let _ = std::fs::remove_file(path);
    let ok = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(ok.success());
}

/// No table read hangs: a FIFO named like a slice file or a game table makes `tb build`,
/// `tb probe`, `tb verify` and `solve` refuse it with one line naming the path (exit 2), and
/// `problem verify` report it, instead of blocking on the open.
#[test]
fn a_fifo_in_place_of_a_table_is_refused_not_waited_on() {
    let dir = crate::common::scratch("trust-fifo");
    build_22(&dir);
    let d = dir.to_str().unwrap();
    let compose = ["problem", "compose", "--board", "4x4", "--material", "2,2"];
    let o = ordo_cmd(&[&compose[..], &["--dir", d, "--count", "1"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let problems = dir.join("p.toml");
    std::fs::write(&problems, &o.stdout).unwrap();
    let fifo = ordo_solve::slice_path(&dir, Variant::Classic, dims(), M22);
    mkfifo(&fifo);
    let named = |err: &str| {
        assert!(err.contains(&fifo.display().to_string()), "{err}");
        assert!(err.contains("FIFO"), "{err}");
    };
    let tb = ["--board", "4x4", "--max-pieces", "2,2", "--dir", d];
    for cmd in [&["tb", "build"][..], &["tb", "verify"]] {
        named(&assert_refused(&run_bounded(&[cmd, &tb[..]].concat())));
    }
    named(&assert_refused(&run_bounded(&[
        "tb",
        "probe",
        "--position",
        PROBE_22,
        "--dir",
        d,
    ])));
    let o = run_bounded(&["problem", "verify", problems.to_str().unwrap(), "--dir", d]);
    named(&format!("{}{}", crate::common::stdout(&o), stderr(&o)));
    let game = dir.join("g.ordotb");
    mkfifo(&game);
    let solve = ["solve", "--board", "3x3", "--table", game.to_str().unwrap()];
    let err = assert_refused(&run_bounded(&solve));
    assert!(
        err.contains(&game.display().to_string()) && err.contains("FIFO"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A temporary file of a killed writer of this machine (any target's name, a pid that is no
/// longer running; the current name with the host or the earlier one without) is removed by
/// the next `tb build` in its folder; a live writer's is kept, and so is another machine's,
/// whose pid means nothing here.
#[test]
fn killed_writers_temporaries_of_this_machine_are_cleaned_by_the_next_build() {
    let dir = crate::common::scratch("trust-stale");
    let mut dead = Command::new("true").spawn().unwrap();
    let dead_pid = dead.id();
    dead.wait().unwrap();
    let host = ordo_system::files::this_host();
    let stale = dir.join(format!(
        ".ctb-classic-4x4-9v9.ordotb.partial.tmp-ordo-{host}-{dead_pid}-3"
    ));
    let stale_old = dir.join(format!(
        ".ctb-classic-4x4-9v8.ordotb.partial.tmp-ordo-{dead_pid}-4"
    ));
    let live = dir.join(format!(
        ".ctb-classic-4x4-2v2.ordotb.tmp-ordo-{host}-{}-0",
        std::process::id()
    ));
    let elsewhere = dir.join(format!(
        ".ctb-classic-4x4-9v9.ordotb.tmp-ordo-not-{host}-{dead_pid}-0"
    ));
    let other = dir.join(format!(".notes.txt.tmp-other-{dead_pid}-0"));
    for f in [&stale, &stale_old, &live, &elsewhere, &other] {
        std::fs::write(f, b"half a table").unwrap();
    }
    build_22(&dir);
    assert!(!stale.exists(), "a dead writer's temporary file is left");
    assert!(
        !stale_old.exists(),
        "a dead writer's earlier-form file is left"
    );
    assert!(live.exists(), "a live writer's temporary file is removed");
    assert!(
        elsewhere.exists(),
        "another machine's temporary file is removed"
    );
    assert!(other.exists(), "a file of another naming is removed");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `tb probe` without `--position` is a one-line error naming `--position`
/// (it probed the 20-against-20 start and listed every missing slice).
#[test]
fn tb_probe_without_a_position_names_position() {
    let dir = crate::common::scratch("trust-noposition");
    let err = assert_refused(&ordo_cmd(&["tb", "probe", "--dir", dir.to_str().unwrap()]));
    assert!(err.contains("--position"), "{err}");
    assert!(err.len() < 200, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A FIFO in place of a checkpoint (a slice's `FILE.partial`, a game solve's `TABLE.partial`
/// folder) makes `tb job`, `tb build` and `solve` refuse with an error line naming it (exit 2):
/// it is never opened, which could block, nor replaced or deleted.
#[test]
fn a_fifo_in_place_of_a_checkpoint_is_refused_and_kept() {
    let dir = crate::common::scratch("trust-fifo-partial");
    let d = dir.to_str().unwrap();
    let m11 = Material { white: 1, black: 1 };
    let partial =
        ordo_solve::partial_dir(&ordo_solve::slice_path(&dir, Variant::Classic, dims(), m11));
    let slice = ["--board", "4x4", "--dir", d];
    let game = dir.join("g.ordotb");
    let solve = ["solve", "--board", "3x3", "--table", game.to_str().unwrap()];
    let runs: [(Vec<&str>, std::path::PathBuf); 3] = [
        (
            [&["tb", "job", "--material", "1,1"][..], &slice].concat(),
            partial.clone(),
        ),
        (
            [&["tb", "build", "--max-pieces", "1,1"][..], &slice].concat(),
            partial,
        ),
        (solve.to_vec(), ordo_solve::partial_dir(&game)),
    ];
    for (args, fifo) in runs {
        mkfifo(&fifo);
        let o = run_bounded(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        let last = err.lines().last().unwrap_or_default();
        assert!(last.contains(&fifo.display().to_string()), "{last}");
        assert!(last.contains("FIFO"), "{last}");
        let kept = std::fs::symlink_metadata(&fifo).unwrap().file_type();
        assert!(std::os::unix::fs::FileTypeExt::is_fifo(&kept), "{args:?}");
        let _ = std::fs::remove_file(&fifo);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
