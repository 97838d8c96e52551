//! Problems (spec/problems.md, crates/solve/src/problem.rs), through the library: composed
//! problems are sound by both routes (tables with their proof tree, and exact search), the
//! compact solver's tables and the retro solver's of the test tooling (`ordo_testkit::retro`)
//! give the same verdicts (the saved problems of analysis/problems/ included), false keys and
//! cooks are caught, a position the tables cannot answer is an error. The command line's side
//! is in tests/it/problems.rs.
//!
//! Clauses: ORDO-10.1 to ORDO-10.4 (what a win is), ORDO-4.3 (the side that just moved is one
//! group), ORDO-9.1 (a split side to move), ORDOX-5.1 (an Ordo X turn is one move).

use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

use ordo_bitboard::Bitboard;
use ordo_core::rules::{Color, Engine, Move};
use ordo_core::rules::{Dims, Variant};
use ordo_reference::Reference;
use ordo_solve::CompactTables;
use ordo_solve::{BuildOptions, Material, SolveError, Value};
use ordo_solve::{Method, Problem, ProblemReport};
use ordo_testkit::fixtures::problem;
use ordo_testkit::retro::{self, tb, RetroTablebase};

fn scratch(name: &str) -> std::path::PathBuf {
    crate::scratch(&format!("problem-{name}"))
}

/// Which solver's tables: the product's (compact) or the oracle's (retro, the test tooling).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TableKind {
    Compact,
    Retro,
}

/// The loaded tables of either solver.
enum Tables {
    Compact(CompactTables),
    Retro(RetroTablebase),
}

impl ordo_solve::ProblemTables for Tables {
    fn game(&self) -> (Variant, Dims) {
        match self {
            Tables::Compact(t) => ordo_solve::ProblemTables::game(t),
            Tables::Retro(t) => ordo_solve::ProblemTables::game(t),
        }
    }
    fn value<E: Engine>(&self, e: &E) -> Result<Value, SolveError> {
        match self {
            Tables::Compact(t) => ordo_solve::ProblemTables::value(t, e),
            Tables::Retro(t) => ordo_solve::ProblemTables::value(t, e),
        }
    }
    fn entries(&self, m: Material) -> Result<Vec<(usize, Value)>, SolveError> {
        match self {
            Tables::Compact(t) => ordo_solve::ProblemTables::entries(t, m),
            Tables::Retro(t) => ordo_solve::ProblemTables::entries(t, m),
        }
    }
    fn position(&self, m: Material, i: usize) -> Option<([u128; 2], Color)> {
        match self {
            Tables::Compact(t) => ordo_solve::ProblemTables::position(t, m, i),
            Tables::Retro(t) => ordo_solve::ProblemTables::position(t, m, i),
        }
    }
}

impl Tables {
    fn probe<E: Engine>(&self, e: &E) -> Result<(Value, Vec<(Move, Value)>), SolveError> {
        ordo_solve::ProblemTables::value_and_moves(self, e)
    }
    fn value<E: Engine>(&self, e: &E) -> Result<Value, SolveError> {
        ordo_solve::ProblemTables::value(self, e)
    }
}

/// Verify `p` by the tables of `route` (a folder and which solver's slices to read there:
/// the compact ones through `ordo_solve::verify_problem`, the retro ones through `verify_with`), or by
/// search alone.
fn verify<E: Engine>(
    p: &Problem,
    route: Option<(&Path, TableKind)>,
    max_nodes: u64,
) -> Result<ProblemReport, SolveError> {
    match route {
        None => ordo_solve::verify_problem::<E>(p, None, max_nodes),
        Some((dir, TableKind::Compact)) => ordo_solve::verify_problem::<E>(p, Some(dir), max_nodes),
        Some((dir, TableKind::Retro)) => {
            let open = |pos: &ordo_core::rules::Position| retro::problem_tables(pos, dir);
            ordo_solve::verify_problem_with::<E, RetroTablebase>(p, Some(open), max_nodes)
        }
    }
}

/// Build the slices of `kind` up to `max` in `dir`; the tables.
/// The slices of `kind` up to `max`, built in `dir`. Each set is solved once per test run, in a
/// folder of its own, and its files copied into `dir` before the build, which then loads them
/// (a build keeps the slice files it finds): the tests share the solving, not the folders.
fn build(kind: TableKind, dir: &Path, variant: Variant, board: &str, max: Material) -> Tables {
    type Once = Arc<OnceLock<std::path::PathBuf>>;
    static BUILT: Mutex<Vec<(String, Once)>> = Mutex::new(Vec::new());
    let key = format!(
        "{kind:?}-{}-{board}-{}v{}",
        variant.name(),
        max.white,
        max.black
    );
    let once: Once = {
        let mut built = BUILT.lock().unwrap();
        match built.iter().find(|(k, _)| *k == key) {
            Some((_, o)) => o.clone(),
            None => {
                built.push((key.clone(), Once::default()));
                built.last().unwrap().1.clone()
            }
        }
    };
    let solved = once.get_or_init(|| {
        let shared = scratch(&format!("shared-{key}"));
        build_in(kind, &shared, variant, board, max);
        shared
    });
    std::fs::create_dir_all(dir).unwrap();
    for f in std::fs::read_dir(solved).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, dir.join(f.file_name().unwrap())).unwrap();
    }
    build_in(kind, dir, variant, board, max)
}

/// The slices of `kind` up to `max`, built in (or loaded from) `dir`.
fn build_in(kind: TableKind, dir: &Path, variant: Variant, board: &str, max: Material) -> Tables {
    let dims: Dims = board.parse().unwrap();
    let opts = BuildOptions::default();
    match kind {
        TableKind::Retro => Tables::Retro(
            tb::build::<Bitboard>(dims, variant, max, dir, &opts, |_| {})
                .unwrap()
                .0,
        ),
        TableKind::Compact => Tables::Compact(
            ordo_solve::build_slices::<Bitboard>(dims, variant, max, dir, &opts, |_| {})
                .unwrap()
                .0,
        ),
    }
}

/// The retro solver's slices up to `max` in `dir`.
fn tables(dir: &Path, variant: Variant, board: &str, max: Material) -> Tables {
    build(TableKind::Retro, dir, variant, board, max)
}

const KINDS: [TableKind; 2] = [TableKind::Retro, TableKind::Compact];

/// A report without its wall time, for comparing two routes.
fn timeless(mut r: ProblemReport) -> ProblemReport {
    r.seconds = 0.0;
    r
}

/// Problems composed from a small board's tables are sound by the table route (proof tree
/// walked) and by exact search on the reference engine, which shares nothing with the
/// tables.
#[test]
fn composed_problems_are_sound_by_tables_and_by_search() {
    let dir = scratch("compose");
    let m = Material { white: 2, black: 2 };
    for kind in KINDS {
        let tables = build(kind, &dir, Variant::Classic, "5x4", m);
        let problems = ordo_solve::compose_problems::<Bitboard>(&tables, m, 3).unwrap();
        assert_eq!(problems.len(), 3, "{kind:?}");
        composed_are_sound(&problems, &dir, kind);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each of `problems` (composed from the `kind` tables in `dir`) is sound by those tables
/// and by search, and its file round-trips.
fn composed_are_sound(problems: &[Problem], dir: &Path, kind: TableKind) {
    for p in problems {
        assert_eq!(p.keys.len(), 1);
        assert!(p.only_keys);
        let by_table =
            verify::<Bitboard>(p, Some((dir, kind)), ordo_solve::DEFAULT_SEARCH_NODES).unwrap();
        assert!(by_table.sound, "{by_table:?}");
        assert_eq!(by_table.method, Method::Table);
        let keys: Vec<String> = p.keys.iter().map(|k| k.to_string()).collect();
        assert_eq!(by_table.winning, keys);
        assert!(by_table.proof_nodes > 1);
        let by_search = verify::<Reference>(p, None, ordo_solve::DEFAULT_SEARCH_NODES).unwrap();
        assert!(by_search.sound, "{by_search:?}");
        assert_eq!(by_search.method, Method::Search);
        assert_eq!(by_search.winning, keys, "{}", p.id);
    }
    // The file format round-trips.
    let text = ordo_solve::write_problems(problems).unwrap();
    assert_eq!(
        ordo_solve::parse_problems(&text).unwrap().problems,
        problems
    );
}

/// A key that does not win, and a cook under `only_keys`, are both reported as faults; a
/// stipulation one turn too short fails the key.
#[test]
fn false_keys_and_cooks_are_caught() {
    let dir = scratch("faults");
    let m = Material { white: 2, black: 2 };
    let tb = tables(&dir, Variant::Classic, "5x4", m);
    build(TableKind::Compact, &dir, Variant::Classic, "5x4", m);
    let good = ordo_solve::compose_problems::<Bitboard>(&tb, m, 1)
        .unwrap()
        .remove(0);
    let n = ordo_solve::stipulation_turns(&good.stipulation).unwrap();
    let retro = Some((dir.as_path(), TableKind::Retro));
    let report = verify::<Bitboard>(&good, retro, ordo_solve::DEFAULT_SEARCH_NODES).unwrap();
    let e = <Bitboard as ordo_core::rules::Engine>::from_position(&good.position).unwrap();
    let other = ordo_core::rules::Engine::legal_moves(&e)
        .iter()
        .map(ordo_core::notation::format_move)
        .find(|m| !report.winning.contains(m))
        .unwrap();
    let compact = Some((dir.as_path(), TableKind::Compact));
    for route in [retro, compact, None] {
        let wrong_key = Problem {
            keys: vec![other.parse().unwrap()],
            ..good.clone()
        };
        let r = verify::<Bitboard>(&wrong_key, route, ordo_solve::DEFAULT_SEARCH_NODES).unwrap();
        assert!(!r.sound);
        assert!(r.faults.iter().any(|f| f.contains("does not win")), "{r:?}");
        assert!(r.faults.iter().any(|f| f.contains("(a cook)")), "{r:?}");
        let too_short = Problem {
            stipulation: format!("win in {}", n - 1),
            ..good.clone()
        };
        let r = verify::<Bitboard>(&too_short, route, ordo_solve::DEFAULT_SEARCH_NODES).unwrap();
        assert!(!r.sound, "{r:?}");
    }
    let bad = Problem {
        keys: vec!["a1-a9".parse().unwrap()],
        ..good.clone()
    };
    assert!(verify::<Bitboard>(&bad, None, ordo_solve::DEFAULT_SEARCH_NODES).is_err());
    assert!(ordo_solve::stipulation_turns("mate in 3").is_err());
    assert!(ordo_solve::stipulation_turns("win in 0").is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The standard board (80 squares, more than the packed game-table key holds): a composed
/// 10 x 8 problem is sound by the table route and by search, which once disagreed here
/// because the search's memo keyed positions by the packed key.
#[test]
fn a_standard_board_problem_is_sound_by_both_routes() {
    let dir = scratch("standard");
    let m = Material { white: 2, black: 2 };
    let tb = tables(&dir, Variant::Classic, "10x8", m);
    build(TableKind::Compact, &dir, Variant::Classic, "10x8", m);
    let p = ordo_solve::compose_problems::<Bitboard>(&tb, m, 1)
        .unwrap()
        .remove(0);
    assert_eq!(p.stipulation, "win in 9", "{p:?}");
    let by_search = verify::<Bitboard>(&p, None, ordo_solve::DEFAULT_SEARCH_NODES).unwrap();
    assert!(by_search.sound, "{by_search:?}");
    for kind in KINDS {
        let by_table =
            verify::<Bitboard>(&p, Some((&dir, kind)), ordo_solve::DEFAULT_SEARCH_NODES).unwrap();
        assert!(by_table.sound, "{kind:?}: {by_table:?}");
        assert_eq!(by_table.winning, by_search.winning);
        assert_eq!(by_table.shortest, Some(17));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// ORDO-10.1, ORDO-1.1: the search's memo tells apart positions that differ only on squares
/// beyond the 63 a packed game-table key holds (row 7 from d7 on, and row 8 of 10 x 8): with
/// White on j8, Black to move has lost; without it, not.
#[test]
fn search_memo_distinguishes_every_square_of_the_standard_board() {
    let over = ordo_core::notation::parse_position("9W/10/10/4B5/10/10/10/WW8 b classic").unwrap();
    let open = ordo_core::notation::parse_position("10/10/10/4B5/10/10/10/WW8 b classic").unwrap();
    let over: Bitboard = ordo_core::rules::Engine::from_position(&over).unwrap();
    let open: Bitboard = ordo_core::rules::Engine::from_position(&open).unwrap();
    let mut memo = std::collections::HashMap::new();
    let mut nodes = 0;
    assert!(ordo_solve::lost_within(&over, 0, &mut memo, &mut nodes, u64::MAX).unwrap());
    assert!(!ordo_solve::lost_within(&open, 0, &mut memo, &mut nodes, u64::MAX).unwrap());
    assert_eq!(
        nodes, 2,
        "the second position is searched, not found in the memo"
    );
}

/// A problem on `position` whose key is the best first move the `tables` give (a win where
/// there is one), claimed as the only one, within `turns`.
fn best_move_problem(tables: &Tables, id: &str, position: &str, turns: u16) -> Problem {
    let pos = ordo_core::notation::parse_position(position).unwrap();
    let e = <Bitboard as ordo_core::rules::Engine>::from_position(&pos).unwrap();
    let (_, moves) = tables.probe(&e).unwrap();
    let key = ordo_core::notation::format_move(&moves[0].0);
    Problem {
        only_keys: true,
        ..problem(id, position, &format!("win in {turns}"), &key)
    }
}

/// ORDO-10.1, ORDO-9.1: the compact solver's tables (core positions stored, a split side to
/// move valued from its successors) and the retro solver's (every position stored) give the
/// same report, proof-tree size included, on problems composed from either, on their false
/// keys and short stipulations, and on positions whose side to move is split, in both games.
#[test]
fn ordo_10_1_compact_and_retro_tables_give_the_same_verdicts() {
    let two = Material { white: 2, black: 2 };
    let three = Material { white: 3, black: 3 };
    // Each game and board with its slices and positions whose side to move is split.
    let cases: [(Variant, &str, Material, &[&str]); 3] = [
        (
            Variant::Classic,
            "5x4",
            two,
            &["B3B/5/W4/W4 b classic", "1B3/5/B4/WW3 b classic"],
        ),
        (
            Variant::Classic,
            "10x8",
            two,
            &["B8B/10/10/10/10/10/W9/W9 b classic"],
        ),
        (Variant::X, "5x4", three, &[]),
    ];
    for (variant, board, m, split) in cases {
        let dir = scratch(&format!("same-{}-{board}", variant.name()));
        let [retro, compact] = KINDS.map(|k| build(k, &dir, variant, board, m));
        let mut problems = Vec::new();
        for t in [&retro, &compact] {
            problems.extend(ordo_solve::compose_problems::<Bitboard>(t, m, 3).unwrap());
        }
        for (i, p) in split.iter().enumerate() {
            problems.push(best_move_problem(&retro, &format!("split-{i}"), p, 12));
        }
        // The saved problems of this game, board and material (classic 10x8 2v2).
        let prefix = format!("{}-{board}-{m}-", variant.name());
        problems.extend(
            saved_problems()
                .into_iter()
                .filter(|p| p.id.starts_with(&prefix)),
        );
        assert!(problems.len() >= 6, "{variant} {board}: {problems:?}");
        if prefix == "classic-10x8-2v2-" {
            assert!(problems.iter().any(|p| p.id == "classic-10x8-2v2-1"));
        }
        let variants: Vec<Problem> = problems
            .iter()
            .flat_map(|p| {
                let n = ordo_solve::stipulation_turns(&p.stipulation).unwrap();
                let short = Problem {
                    stipulation: format!("win in {}", n.saturating_sub(1).max(1)),
                    ..p.clone()
                };
                [p.clone(), short]
            })
            .collect();
        for p in &variants {
            let [by_retro, by_compact] = KINDS.map(|k| {
                verify::<Bitboard>(p, Some((&dir, k)), ordo_solve::DEFAULT_SEARCH_NODES)
                    .map(timeless)
                    .unwrap()
            });
            assert_eq!(by_retro.method, Method::Table, "{by_retro:?}");
            assert_eq!(by_retro, by_compact, "{variant} {board} {}", p.position);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

fn saved_dir() -> std::path::PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("analysis/problems")
}

/// The problems saved in analysis/problems/composed.toml.
fn saved_problems() -> Vec<Problem> {
    let text = std::fs::read_to_string(saved_dir().join("composed.toml")).unwrap();
    ordo_solve::parse_problems(&text).unwrap().problems
}

/// The saved problems of analysis/problems/ (composed from the retro solver's tables) are
/// sound by the compact solver's tables, built here, with the key, quickest win and
/// proof-tree size that analysis/problems/README.md publishes (the classic 2 against 2 one
/// is also proved by both solvers' tables in the test above). ORDO-10.1, ORDOX-5.1.
#[test]
fn ordo_10_1_saved_problems_are_sound_by_the_compact_tables() {
    let saved = saved_problems();
    let readme = std::fs::read_to_string(saved_dir().join("README.md")).unwrap();
    let dir = scratch("saved");
    build(
        TableKind::Compact,
        &dir,
        Variant::Classic,
        "10x8",
        Material { white: 3, black: 2 },
    );
    build(
        TableKind::Compact,
        &dir,
        Variant::X,
        "10x8",
        Material { white: 3, black: 3 },
    );
    let compact = Some((dir.as_path(), TableKind::Compact));
    assert_eq!(saved.len(), 5);
    for p in &saved {
        // | id | position | stipulation | key | quickest win | proof tree |
        let row: Vec<String> = readme
            .lines()
            .find(|l| l.starts_with(&format!("| {} |", p.id)))
            .unwrap_or_else(|| panic!("{} is not in the README's table", p.id))
            .split('|')
            .map(|c| c.trim().replace('`', ""))
            .collect();
        let number = |c: &str| {
            c.split(' ')
                .next()
                .unwrap()
                .replace(',', "")
                .parse::<u64>()
                .unwrap()
        };
        let r = verify::<Bitboard>(p, compact, ordo_solve::DEFAULT_SEARCH_NODES).unwrap();
        assert!(r.sound, "{r:?}");
        assert_eq!(r.method, Method::Table, "{r:?}");
        assert_eq!(r.winning, vec![row[4].clone()], "{}", p.id);
        assert_eq!(r.shortest.map(u64::from), Some(number(&row[5])), "{}", p.id);
        assert_eq!(r.proof_nodes, number(&row[6]), "{}", p.id);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// ORDO-4.3: a position whose player who just moved is split cannot arise after a move and
/// has no place in either solver's tables: proving a problem on it is an error naming the
/// rule, never a verdict. A folder that holds only the retro solver's slices is named as
/// such, and the proof falls back to search.
#[test]
fn ordo_4_3_a_position_the_tables_cannot_answer_is_an_error() {
    let dir = scratch("unanswerable");
    let m = Material { white: 2, black: 2 };
    let compact = build(TableKind::Compact, &dir, Variant::Classic, "10x8", m);
    let p = problem(
        "split-mover",
        "10/10/10/B9/B9/10/10/W8W b classic",
        "win in 9",
        "a5-b5",
    );
    let in_compact = Some((dir.as_path(), TableKind::Compact));
    let err = verify::<Bitboard>(&p, in_compact, ordo_solve::DEFAULT_SEARCH_NODES)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("problem split-mover") && err.contains("must be one group"),
        "{err}"
    );
    let e = <Bitboard as ordo_core::rules::Engine>::from_position(&p.position).unwrap();
    assert!(compact.value(&e).is_err());
    // Only retro slices in the other folder: the compact route names them and falls back to
    // search.
    let old_dir = scratch("unanswerable-retro");
    tables(&old_dir, Variant::Classic, "10x8", m);
    let good = Problem {
        position: "10/10/10/B9/B9/10/10/WW8 b classic".parse().unwrap(),
        ..p.clone()
    };
    let only_retro = Some((old_dir.as_path(), TableKind::Compact));
    let r = verify::<Bitboard>(&good, only_retro, ordo_solve::DEFAULT_SEARCH_NODES).unwrap();
    assert_eq!(r.method, Method::Search);
    let why = r.fallback.expect("the tables were refused");
    assert!(
        matches!(&why, SolveError::RetroTable { held, .. } if held.scope.as_deref() == Some("2v2")),
        "{why:?}"
    );
    let why = why.to_string();
    assert!(
        why.contains("tb-classic-10x8-2v2.ordotb: an old retro-solver table (format 2)"),
        "{why}"
    );
    let in_retro = Some((old_dir.as_path(), TableKind::Retro));
    let err = verify::<Bitboard>(&p, in_retro, ordo_solve::DEFAULT_SEARCH_NODES)
        .unwrap_err()
        .to_string();
    assert!(err.contains("must be one group"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&old_dir);
}

/// ORDO-9.1 in Ordo X: a side to move that is split (set up so; the retro solver's Ordo X
/// index has no place for it and refuses) is valued by the compact tables from its moves,
/// with the verdict exact search gives.
#[test]
fn ordo_9_1_an_ordo_x_split_side_to_move_is_valued_as_search_values_it() {
    let dir = scratch("x-split");
    let m = Material { white: 2, black: 2 };
    build(TableKind::Compact, &dir, Variant::X, "10x8", m);
    let p = problem(
        "x-split",
        "B9/2B7/10/10/10/10/10/WW8 b x",
        "win in 6",
        "a8-b7",
    );
    let compact = Some((dir.as_path(), TableKind::Compact));
    let by_table = verify::<Bitboard>(&p, compact, ordo_solve::DEFAULT_SEARCH_NODES).unwrap();
    let by_search = verify::<Bitboard>(&p, None, ordo_solve::DEFAULT_SEARCH_NODES).unwrap();
    assert_eq!(by_table.method, Method::Table);
    let sorted = |r: &ProblemReport| {
        let mut w = r.winning.clone();
        w.sort();
        (r.sound, w, r.faults.clone())
    };
    assert_eq!(sorted(&by_table), sorted(&by_search));
    assert!(
        !by_table.sound && by_table.winning.len() == 3,
        "{by_table:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
