//! Helpers shared by the integration tests: building positions from square lists, move sets
//! in canonical notation, and deterministic random playouts.
#![allow(dead_code)]

pub use ordo_clause_tests::helpers::{fen, load, move_set, one_group, pos, won};
use ordo_core::notation::format_move;
use ordo_core::rules::{Engine, Move, Position};
use quickcheck::{Arbitrary, Gen};

/// Start positions the random playouts begin from: the standard 10 x 8 start, the 8 x 8
/// variant and small boards 3 x 3 .. 6 x 6 with each side on its home row or its two nearest
/// rows, in both variants (the library's generator, shared with the fuzz targets).
pub fn playout_starts() -> Vec<Position> {
    ordo_conformance::diff::reachable_starts()
}

/// A random playout for quickcheck: which start (an index into [`playout_starts`], taken
/// modulo its length) and up to 32 move choices; shrinks by shortening the choices.
#[derive(Clone, Debug)]
pub struct Playout {
    pub start: usize,
    pub choices: Vec<u32>,
}

impl Arbitrary for Playout {
    fn arbitrary(g: &mut Gen) -> Self {
        let len = usize::arbitrary(g) % 32;
        Playout {
            start: usize::arbitrary(g),
            choices: (0..len).map(|_| u32::arbitrary(g)).collect(),
        }
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let start = self.start;
        Box::new(
            self.choices
                .shrink()
                .map(move |choices| Playout { start, choices }),
        )
    }
}

/// A playout: from `start`, at each ply take the move with index `choice % len` among the legal
/// moves sorted by notation; stop after `choices.len()` plies or at the end of the game.
/// Returns every position visited, the start included.
pub fn playout<E: Engine>(start: &Position, choices: &[u32]) -> Vec<E> {
    let mut cur: E = load(start);
    let mut seen = vec![cur.clone()];
    for &c in choices {
        let mut moves = cur.legal_moves();
        if moves.is_empty() {
            break;
        }
        moves.sort_by_key(format_move);
        let mv: Move = moves[c as usize % moves.len()];
        cur = cur.apply(&mv);
        seen.push(cur.clone());
    }
    seen
}

/// Run the `ordo` binary with `args`.
pub fn ordo_cmd(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_ordo"))
        .args(args)
        .output()
        .expect("run ordo")
}

/// Standard output of a finished command, as text.
pub fn stdout(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error of a finished command, as text.
pub fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Fail, showing its standard error, unless the command exited with status 0.
#[track_caller]
pub fn assert_ok(o: &std::process::Output) {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
}

/// The one-line error of a command refused with exit status 2 (bad input, ORDO's CLI
/// contract); fails otherwise.
#[track_caller]
pub fn assert_refused(o: &std::process::Output) -> String {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

/// `ordo tb probe --position POSITION --dir DIR`.
pub fn tb_probe(position: &str, dir: &str) -> std::process::Output {
    ordo_cmd(&["tb", "probe", "--position", position, "--dir", dir])
}

/// What `ordo tb probe` prints for `position`, computed from the retro solver's slices in
/// `dir` (`ordo_testkit::retro`, the oracle), or why they cannot answer.
pub fn retro_probe(position: &str, dir: &std::path::Path) -> Result<String, String> {
    use ordo_solve::ProblemTables;
    use ordo_solve::{plies, Value};
    let pos = ordo_core::notation::parse_position(position).map_err(|e| e.to_string())?;
    let tables = ordo_testkit::retro::problem_tables(&pos, dir).map_err(|e| e.to_string())?;
    let e = <ordo_bitboard::Bitboard as ordo_core::rules::Engine>::from_position(&pos)
        .map_err(|e| e.to_string())?;
    let (value, moves) = tables.value_and_moves(&e).map_err(|e| e.to_string())?;
    let side = pos.to_move;
    let mut out = match value {
        Value::Win(d) => format!("{side} to move wins in {}\n", plies(d)),
        Value::Loss(0) => format!("{side} to move has lost: the game is over\n"),
        Value::Loss(d) => format!("{side} to move loses in {}\n", plies(d)),
        Value::Draw => {
            format!("draw: {side} to move can neither be forced to lose nor force a win\n")
        }
    };
    let name = ordo_core::notation::format_move;
    let best: Vec<String> = moves
        .iter()
        .filter(|(_, v)| Some(*v) == moves.first().map(|(_, b)| *b))
        .map(|(m, _)| name(m))
        .collect();
    if !best.is_empty() {
        out += &format!("best moves: {}\n", best.join(" "));
    }
    for (m, v) in &moves {
        let after = match *v {
            Value::Loss(d) => format!("wins in {}", plies(d + 1)),
            Value::Win(d) => format!("loses in {}", plies(d + 1)),
            Value::Draw => "draws".into(),
        };
        out += &format!("{}\t{after}\n", name(m));
    }
    Ok(out)
}

/// Run the `ordo` binary with the words of `line` (for arguments without spaces).
pub fn ordo_line(line: &str) -> std::process::Output {
    ordo_cmd(&line.split_whitespace().collect::<Vec<_>>())
}

/// The folder of this test run's scratch folders, `ordo-test-<pid>` in the temp dir. The
/// first call removes those of earlier runs whose process has ended (on systems with a
/// `/proc`), so repeated `cargo test` runs leave at most one run's folders behind.
fn scratch_root() -> &'static std::path::Path {
    static ROOT: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    ROOT.get_or_init(|| {
        let tmp = std::env::temp_dir();
        sweep_ended_runs(&tmp);
        let root = tmp.join(format!("ordo-test-{}", std::process::id()));
        std::fs::create_dir_all(&root).expect("create the scratch root");
        root
    })
}

/// Remove `ordo-test-<pid>` folders (and `ordo-test-<pid>-<tag>` ones of older test code)
/// whose process no longer runs.
fn sweep_ended_runs(tmp: &std::path::Path) {
    let proc = std::path::Path::new("/proc");
    let (Ok(entries), true) = (std::fs::read_dir(tmp), proc.join("self").exists()) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(rest) = name.strip_prefix("ordo-test-") else {
            continue;
        };
        let pid = rest.split('-').next().unwrap_or_default();
        let ours = pid == std::process::id().to_string();
        if !pid.is_empty()
            && pid.bytes().all(|b| b.is_ascii_digit())
            && !ours
            && !proc.join(pid).exists()
        {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

/// A fresh, empty temporary folder for one test (`tag` keeps tests apart), inside this run's
/// scratch root.
pub fn scratch(tag: &str) -> std::path::PathBuf {
    let dir = scratch_root().join(tag);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a scratch folder");
    dir
}

/// A temporary folder several tests of this run may share (created if missing, never
/// emptied), inside this run's scratch root.
pub fn shared_scratch(tag: &str) -> std::path::PathBuf {
    let dir = scratch_root().join(tag);
    std::fs::create_dir_all(&dir).expect("create a shared scratch folder");
    dir
}

/// Press Ctrl-C on a running child: SIGINT through `kill -INT`.
pub fn press_ctrl_c(child: &std::process::Child) {
    let sent = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(sent.success());
}
