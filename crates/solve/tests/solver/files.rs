//! The compact solver on disk (crates/solve/src/on_disk.rs, crates/solve/src/compact/store.rs),
//! through the library: slice and game files that refuse damage, relabelling and the old retro
//! solver's files (format 2); builds, solves and verifications that resume and give the same
//! values; progress reported layer by layer; the sizing of sparse slices. The command line's
//! side of the same files is in tests/it/compact_files.rs. The values are those of ORDO-10.1 to ORDO-10.5
//! (how games end); the checks here are about the files and the plumbing.

use std::path::{Path, PathBuf};

use ordo_bitboard::Bitboard;
use ordo_core::rules::{Dims, Variant};
use ordo_solve::Material;
use ordo_solve::{CompactExpect, CompactTables, TableKind};
use ordo_solve::{GameOptions, Progress, Setup, Silent, SolveError};
use ordo_testkit::fixtures::{
    build_classic_4x4 as build, build_retro_classic_4x4_22 as build_retro_22,
    quiet_options as opts, M22,
};
use ordo_testkit::retro::tb;

fn scratch(name: &str) -> PathBuf {
    crate::scratch(&format!("cfiles-{name}"))
}

fn dims(s: &str) -> Dims {
    s.parse().unwrap()
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
    let e = load_22(&old).expect_err("a retro file was loaded");
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

/// Verification no dearer than the build: the verification of a held slice
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

/// A slice is held to the memory its index keeps, not to a bit per rank pair.
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
