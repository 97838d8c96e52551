//! The compact solver on disk (crates/solve/src/on_disk.rs, crates/solve/src/compact/store.rs): slice and game
//! files that refuse damage, relabelling, another index scheme and the old retro solver's files
//! (format 2) with a one-line reason and the command that rebuilds them; builds and solves that resume from finished slices and give the
//! same values; the verification pass that catches a wrong value; the memory check up front;
//! the command line on the compact default. The values are those of ORDO-10.1 to ORDO-10.5
//! (how games end); the checks here are about the files and the plumbing.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{assert_ok, assert_refused, ordo_cmd, ordo_line, retro_probe, tb_probe};
use ordo_bitboard::Bitboard;
use ordo_core::rules::{Dims, Variant};
use ordo_solve::{BuildOptions, Material, VerifyScope};
use ordo_solve::{CompactExpect, CompactTables, TableKind};
use ordo_solve::{GameOptions, Progress, Setup, Silent, SolveError};
use ordo_testkit::retro::{self, tb};

fn scratch(name: &str) -> PathBuf {
    crate::common::scratch(&format!("cfiles-{name}"))
}

fn dims(s: &str) -> Dims {
    s.parse().unwrap()
}

const M22: Material = Material { white: 2, black: 2 };

fn opts(progress: &dyn Progress) -> BuildOptions<'_> {
    BuildOptions {
        verify: VerifyScope::None,
        memory_limit: None,
        progress,
    }
}

/// Build the compact classic 4x4 slices up to `max` in `dir`; whether each was built.
fn build(dir: &Path, max: Material) -> (CompactTables, Vec<bool>) {
    let (t, r) = ordo_solve::build_slices::<Bitboard>(
        dims("4x4"),
        Variant::Classic,
        max,
        dir,
        &opts(&Silent),
        |_| {},
    )
    .unwrap();
    (t, r.iter().map(|r| r.built).collect())
}

/// The retro solver's classic 4 x 4 slices up to 2 against 2 (test tooling), in `dir`.
fn build_retro_22(dir: &Path) {
    tb::build::<Bitboard>(
        dims("4x4"),
        Variant::Classic,
        M22,
        dir,
        &opts(&Silent),
        |_| {},
    )
    .unwrap();
}

fn load_22(path: &Path) -> Result<CompactTables, SolveError> {
    let mut t = CompactTables::new(dims("4x4"), Variant::Classic);
    let want = CompactExpect {
        kind: TableKind::Endgame,
        scope: "2v2".into(),
        materials: vec![M22],
        memory: None,
    };
    t.load(path, &want).map(|_| t)
}

fn refused(r: Result<CompactTables, SolveError>) -> String {
    match r {
        Ok(_) => panic!("a changed file was trusted"),
        Err(e) => {
            let s = e.to_string();
            assert_eq!(s.lines().count(), 1, "{s}");
            s
        }
    }
}

/// A compact slice file loads as written; flipped, truncated, extended, relabelled, of
/// another index scheme or claiming another entry count, it is refused with the reason.
#[test]
fn compact_slice_files_refuse_damage_and_relabelling() {
    let dir = scratch("damage");
    let (built, _) = build(&dir, M22);
    let p = ordo_solve::slice_path(&dir, Variant::Classic, dims("4x4"), M22);
    let good = std::fs::read(&p).unwrap();
    let t = load_22(&p).unwrap();
    assert_eq!(t.slices[&M22].values, built.slices[&M22].values);
    let case = dir.join("case.ordotb");
    let try_bytes = |bytes: &[u8]| {
        std::fs::write(&case, bytes).unwrap();
        refused(load_22(&case))
    };
    let mut flipped = good.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 1;
    assert!(try_bytes(&flipped).contains("checksum mismatch"));
    assert!(try_bytes(&good[..good.len() - 1]).contains("the file is truncated"));
    let mut longer = good.clone();
    longer.push(0);
    assert!(try_bytes(&longer).contains("the file is extended"));
    let text = String::from_utf8_lossy(&good).to_string();
    let edit = |from: &str, to: &str| {
        assert!(text.contains(from), "{from}");
        text.replacen(from, to, 1).into_bytes()
    };
    let scheme = try_bytes(&edit("\"index_scheme\":2", "\"index_scheme\":7"));
    assert!(scheme.contains("index scheme 7"), "{scheme}");
    let n = built.slices[&M22].values.len();
    let count = try_bytes(&edit(
        &format!("\"entries\":{n}"),
        &format!("\"entries\":{}", n + 1),
    ));
    assert!(count.contains("its index has"), "{count}");
    // The 2v1 file under the 2v2 name: a valid table of another slice.
    let p21 = ordo_solve::slice_path(
        &dir,
        Variant::Classic,
        dims("4x4"),
        Material { white: 2, black: 1 },
    );
    let other = refused(load_22(&p21));
    assert!(
        other.contains("holds the classic 4x4 endgame 2v1 table"),
        "{other}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The compact loader refuses a retro solver's file (format 2) as such, naming what it held
/// (not as damage); the retro loader of the test tooling refuses a compact file as another
/// table.
#[test]
fn retro_and_compact_files_are_refused_by_the_other_solver() {
    let dir = scratch("cross");
    build(&dir, M22);
    build_retro_22(&dir);
    let old = tb::RetroTablebase::path(&dir, Variant::Classic, dims("4x4"), M22);
    let e = load_22(&old).err().expect("a retro file was loaded");
    assert!(
        matches!(&e, SolveError::RetroTable { held, .. } if held.kind.as_deref() == Some("endgame") && held.scope.as_deref() == Some("2v2")),
        "{e:?}"
    );
    let e = refused(Err(e));
    assert!(
        e.contains("an old retro-solver table (format 2)")
            && e.contains("build the classic 4x4 endgame 2v2 table again"),
        "{e}"
    );
    let compact = ordo_solve::slice_path(&dir, Variant::Classic, dims("4x4"), M22);
    std::fs::copy(&compact, &old).unwrap();
    let mut rtb = tb::RetroTablebase::new(dims("4x4"), Variant::Classic);
    let e = rtb.load_slice(&dir, M22).unwrap_err();
    assert!(matches!(e, SolveError::OtherTable { .. }), "{e}");
    assert!(
        e.to_string()
            .contains("a compact solver table (format 4), not a retro one (format 2)"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// An interrupted build (simulated: only the slices up to 2v1 finished, 1v1 and 2v1, which
/// also answers for 1v2) resumes: the finished slices are loaded, the rest (2v2) built, and
/// the values equal a build from scratch.
#[test]
fn an_interrupted_compact_build_resumes_with_the_same_values() {
    let (a, b) = (scratch("resume-a"), scratch("resume-b"));
    build(&a, Material { white: 2, black: 1 });
    let (resumed, built) = build(&a, M22);
    assert_eq!(built, [false, false, true]);
    let (fresh, _) = build(&b, M22);
    for m in ordo_solve::stored_up_to(M22) {
        assert_eq!(resumed.slices[&m].values, fresh.slices[&m].values, "{m}");
        let (pa, pb) = (
            ordo_solve::slice_path(&a, Variant::Classic, dims("4x4"), m),
            ordo_solve::slice_path(&b, Variant::Classic, dims("4x4"), m),
        );
        let payload = |p: &Path| {
            let bytes = std::fs::read(p).unwrap();
            let at = bytes
                .windows(16)
                .position(|w| w == b"checksum blake3 ")
                .unwrap();
            bytes[at + 16 + 65..].to_vec()
        };
        assert_eq!(payload(&pa), payload(&pb), "{m}");
    }
    let _ = std::fs::remove_dir_all(&a);
    let _ = std::fs::remove_dir_all(&b);
}

/// A game solve writes one file, loads it on the next run, and resumes from the finished
/// slices of `TABLE.partial/`, which it removes when done.
#[test]
fn a_compact_game_file_is_loaded_and_an_interrupted_solve_resumes() {
    let dir = scratch("game");
    let table = dir.join("g.ordotb");
    let go = |table: Option<PathBuf>| {
        let o = GameOptions {
            table,
            verify: true,
            memory_limit: None,
            progress: &Silent,
        };
        ordo_solve::solve_game::<Bitboard>(Variant::Classic, dims("3x4"), Setup::Row1, &o).unwrap()
    };
    let (_, fresh) = go(None);
    // Three slices finished before an interruption.
    let partial = ordo_solve::partial_dir(&table);
    ordo_solve::build_slices::<Bitboard>(
        dims("3x4"),
        Variant::Classic,
        Material { white: 2, black: 1 },
        &partial,
        &opts(&Silent),
        |_| {},
    )
    .unwrap();
    let (_, resumed) = go(Some(table.clone()));
    assert!(!partial.exists());
    assert!(table.exists());
    assert_eq!(resumed.game, fresh.game);
    assert_eq!(resumed.verified, Some(true));
    let (_, loaded) = go(Some(table.clone()));
    assert!(loaded.load_seconds.is_some());
    assert!(!ordo_solve::verify_log_path(&table).exists());
    assert_eq!(loaded.game, fresh.game);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Counts the slices begun, asks to stop once `stop_at` have begun, keeps the notes.
struct StopAtSlice {
    begun: std::sync::atomic::AtomicUsize,
    stop_at: usize,
    notes: std::sync::Mutex<Vec<String>>,
}

impl StopAtSlice {
    fn new(stop_at: usize) -> Self {
        StopAtSlice {
            begun: Default::default(),
            stop_at,
            notes: Default::default(),
        }
    }
}

impl Progress for StopAtSlice {
    fn update(&self, _phase: ordo_solve::Phase, _done: u64, _total: Option<u64>) {}
    fn note(&self, text: &str) {
        self.notes.lock().unwrap().push(text.to_string());
    }
    fn begin(&self, _step: &ordo_solve::Stage) {
        self.begun.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }
    fn stop_requested(&self) -> bool {
        self.begun.load(std::sync::atomic::Ordering::SeqCst) >= self.stop_at
    }
}

/// A verification stopped between chunks keeps what it checked in its log
/// (`TABLE.verifying`) and the next run resumes from it: a recorded chunk counts as checked
/// without being checked again (a planted count shows in the verdict), a torn line and a
/// log of other tables are not trusted, and the log is removed when the pass ends.
#[test]
fn an_interrupted_verification_resumes_from_its_log() {
    let dir = scratch("verify-log");
    let (t, _) = build(&dir, M22);
    let full = t.verify_all::<Bitboard>(&Silent).unwrap();
    assert!(full.ok() && full.checked > 0, "{full:?}");
    let log = dir.join("g.ordotb.verifying");
    let stopped = t.verify_all_logged::<Bitboard>(&StopAtSlice::new(2), Some(&log));
    assert!(
        matches!(stopped, Err(SolveError::Interrupted(_))),
        "{stopped:?}"
    );
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    let (head, first) = (lines[0], lines[1]);
    assert!(
        first.starts_with("1v1 0 ") && first.ends_with(" ok"),
        "{text}"
    );
    let n: u64 = first.split(' ').nth(2).unwrap().parse().unwrap();
    // Resumed from a planted count, with a torn line after it: the count is taken, the
    // torn line is not, and the log is removed at the end.
    let planted = format!("{head}\n1v1 0 {} ok\n2v1 0 5", n + 1000);
    std::fs::write(&log, &planted).unwrap();
    let resumed = StopAtSlice::new(usize::MAX);
    let v = t
        .verify_all_logged::<Bitboard>(&resumed, Some(&log))
        .unwrap();
    assert_eq!((v.checked, v.mismatches), (full.checked + 1000, 0));
    let notes = resumed.notes.lock().unwrap().join("\n");
    assert!(
        notes.contains("resuming the verification: 1 chunks"),
        "{notes}"
    );
    assert!(!log.exists());
    // A log naming other tables is begun anew.
    std::fs::write(&log, planted.replacen(" 1 ", " 1 f", 1)).unwrap();
    let v = t
        .verify_all_logged::<Bitboard>(&Silent, Some(&log))
        .unwrap();
    assert_eq!((v.checked, v.mismatches), (full.checked, 0));
    assert!(!log.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Asks to stop after `after` progress updates; keeps the notes.
struct StopAfterUpdates {
    after: u64,
    seen: std::sync::atomic::AtomicU64,
    notes: std::sync::Mutex<Vec<String>>,
}

impl StopAfterUpdates {
    fn new(after: u64) -> Self {
        StopAfterUpdates {
            after,
            seen: Default::default(),
            notes: Default::default(),
        }
    }
}

impl Progress for StopAfterUpdates {
    fn update(&self, _phase: ordo_solve::Phase, _done: u64, _total: Option<u64>) {
        self.seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }
    fn note(&self, text: &str) {
        self.notes.lock().unwrap().push(text.to_string());
    }
    fn stop_requested(&self) -> bool {
        self.seen.load(std::sync::atomic::Ordering::SeqCst) >= self.after
    }
}

/// The verification of a slice file (`tb verify`, `tb build --verify`, a pass owed by a
/// resumed slice) is resumable as a game table's is: stopped, it keeps its log
/// `FILE.verifying` (named in the stop's message); a chunk the log records counts as checked
/// without being checked again (a planted count shows in the verdict, and the rerun says it
/// resumes); the log names the slice and the slices its positions lead into by their
/// values, so one value changed in a smaller slice (2v1) sets the log aside; the log is
/// removed when the pass ends.
#[test]
fn an_interrupted_verification_of_a_slice_file_resumes_from_its_log() {
    let dir = scratch("verify-slice-log");
    let (mut t, _) = build(&dir, M22);
    let full = t.verify_slice::<Bitboard>(M22, &Silent).unwrap();
    let log = ordo_solve::verify_log_path(&ordo_solve::slice_path(
        &dir,
        Variant::Classic,
        dims("4x4"),
        M22,
    ));
    let stopped = t.verify_slice_logged::<Bitboard>(M22, &StopAfterUpdates::new(2), &log);
    let shown = log.display().to_string();
    assert!(
        matches!(&stopped, Err(SolveError::Interrupted(m)) if m.contains(&shown)),
        "{stopped:?}"
    );
    let head = std::fs::read_to_string(&log).unwrap();
    assert_eq!(head.lines().count(), 1, "{head}");
    let planted = format!("{head}2v2 0 {} ok\n", full.checked + 1000);
    std::fs::write(&log, &planted).unwrap();
    let resumed = StopAfterUpdates::new(u64::MAX);
    let v = t
        .verify_slice_logged::<Bitboard>(M22, &resumed, &log)
        .unwrap();
    assert_eq!((v.checked, v.mismatches), (full.checked + 1000, 0));
    let notes = resumed.notes.lock().unwrap().join("\n");
    assert!(
        notes.contains("resuming the verification of slice 2v2: 1 chunks"),
        "{notes}"
    );
    assert!(!log.exists(), "removed when the pass ends");
    std::fs::write(&log, &planted).unwrap();
    let smaller = &mut t
        .slices
        .get_mut(&Material { white: 2, black: 1 })
        .unwrap()
        .values;
    smaller[0] ^= 1;
    let v = t
        .verify_slice_logged::<Bitboard>(M22, &Silent, &log)
        .unwrap();
    assert_eq!(
        v.checked, full.checked,
        "the log of other values is set aside"
    );
    assert!(!log.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every count a phase reports: (phase name, done, total).
#[derive(Default)]
struct Counts(std::sync::Mutex<Vec<(&'static str, u64, Option<u64>)>>);

impl Progress for Counts {
    fn update(&self, phase: ordo_solve::Phase, done: u64, total: Option<u64>) {
        self.0.lock().unwrap().push((phase.name, done, total));
    }
}

/// A layer group's layers are solved side by side, and a group of a large slice takes
/// minutes: the build and the verification report each layer as it ends, not only each
/// group, so a log says where a long run stands. For the 3v3 slice of classic 4 x 4 (a
/// group of several layers among them): one count to start, one a layer and one a group,
/// never going back, ending at the slice's size.
#[test]
fn a_build_and_a_verification_report_each_layer_of_a_group() {
    let dir = scratch("layer-progress");
    let m = Material { white: 3, black: 3 };
    build(&dir, Material { white: 3, black: 2 });
    let counts = Counts::default();
    let (dims, v) = (dims("4x4"), Variant::Classic);
    let (t, _) =
        ordo_solve::build_slices::<Bitboard>(dims, v, m, &dir, &opts(&counts), |_| {}).unwrap();
    let groups = t.slices[&m].index.layers();
    let layers: usize = groups.iter().map(Vec::len).sum();
    assert!(
        groups.iter().any(|g| g.len() > 1),
        "a group of several layers"
    );
    let len = t.slices[&m].values.len() as u64;
    let seen = |phase: &str, all: &[(&str, u64, Option<u64>)]| -> Vec<u64> {
        let mine: Vec<_> = all.iter().filter(|c| c.0 == phase).collect();
        assert!(mine.iter().all(|c| c.2 == Some(len)), "{mine:?}");
        mine.iter().map(|c| c.1).collect()
    };
    let built = seen("building", &counts.0.lock().unwrap());
    assert_eq!(built.len(), 1 + layers + groups.len(), "{built:?}");
    assert!(built.windows(2).all(|w| w[0] <= w[1]) && built.last() == Some(&len));
    let counts = Counts::default();
    t.verify_slice::<Bitboard>(m, &counts).unwrap();
    let checked = seen("verifying", &counts.0.lock().unwrap());
    assert_eq!(checked.len(), 1 + layers + groups.len(), "{checked:?}");
    assert!(checked.windows(2).all(|w| w[0] <= w[1]) && checked.last() == Some(&len));
    let _ = std::fs::remove_dir_all(&dir);
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

/// Issue 25 (verification no dearer than the build): the verification of a held slice
/// builds it again and compares bytes. A planted wrong value in each of three places (the
/// first, a middle and the last layer group's entries) is caught by it, named with the
/// rebuilt value, and by the full pass through the move list; an intact slice passes both
/// with the same count.
#[test]
fn rebuilding_a_held_slice_catches_a_wrong_byte_anywhere() {
    let dir = scratch("rebuild-verify");
    let m = Material { white: 3, black: 2 };
    let (mut t, _) = build(&dir, m);
    let (fast, full) = (
        t.verify_slice::<Bitboard>(m, &Silent).unwrap(),
        t.verify_slice_full::<Bitboard>(m, &Silent).unwrap(),
    );
    assert!(fast.ok() && full.ok(), "{fast:?} {full:?}");
    assert_eq!(fast.checked, full.checked);
    let len = t.slices[&m].values.len();
    for i in [0, len / 2, len - 1] {
        let values = &mut t.slices.get_mut(&m).unwrap().values;
        let held = values[i];
        values[i] = if held == 3 { 5 } else { 3 };
        let bad = t.verify_slice::<Bitboard>(m, &Silent).unwrap();
        assert!(bad.mismatches >= 1, "entry {i}: {bad:?}");
        assert!(
            bad.examples
                .iter()
                .any(|e| e.contains("rebuilt from the successors")),
            "entry {i}: {bad:?}"
        );
        let full = t.verify_slice_full::<Bitboard>(m, &Silent).unwrap();
        assert!(full.mismatches >= 1, "entry {i}: {full:?}");
        t.slices.get_mut(&m).unwrap().values[i] = held;
    }
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

/// Issue 25, point 5: `--memory-limit` is honoured before the peak. The sizing of Ordo X
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
    // Issue 26: the times say which they are, and the run's CPU time is given.
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

/// Issue 10: without `--memory-limit`, a board whose compact tables cannot be built is
/// refused from the index sizes, counted without building any index: `solve --board 9x8`
/// took about 4 minutes and 3 GB to refuse when the estimate built every index first.
#[test]
#[ignore = "slow tier (issue 22): `cargo test --release -- --ignored`, run by .ci/run"]
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

/// Issue 10: a slice is held to the memory its index keeps, not to a bit per rank pair.
/// Classic row2 5 x 5's 9v8 slice pairs 301,840 connected sets of White with 120,045 of
/// Black (72,468,765,600 rank pairs with both sides to move, 9 GB as a bit each), under 1%
/// of them disjoint; it was refused outright at 2^36 pairs and is sized now, in a small
/// part of a bit a pair.
#[test]
fn a_slice_with_sparse_rank_pairs_is_sized_not_refused() {
    let mut t = CompactTables::new(dims("5x5"), Variant::Classic);
    let m = Material { white: 9, black: 8 };
    let size = t.core_size(m).expect("sized");
    let pairs: u64 = 2 * 301_840 * 120_045;
    assert_eq!(size.sets, 301_840 + 120_045);
    assert!(size.entries > 0 && size.entries * 100 < pairs, "{size:?}");
    assert!(
        size.marks * 8 * 4 < pairs,
        "{size:?}: a quarter bit a pair or less"
    );
    assert!(pairs < ordo_solve::MAX_RANK_PAIRS);
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

/// Issue 25, point 4: `analysis/checksums/` publishes the content checksums of the tables
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
