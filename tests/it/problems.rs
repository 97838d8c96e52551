//! Problems (spec/problems.md, src/solve/problem.rs): composed problems are sound by both
//! routes (tables with their proof tree, and exact search), false keys and cooks are caught,
//! and the command line reports and refuses as documented.
//!
//! Clauses: ORDO-10.1 to ORDO-10.4 (what a win is), ORDOX-5.1 (an Ordo X turn is one move).

use crate::common::ordo_cmd;
use ordo::bitboard::Bitboard;
use ordo::reference::Reference;
use ordo::rules::{Dims, Variant};
use ordo::solve::problem::{self, Method, Problem};
use ordo::solve::tb::{self, Material};

fn scratch(name: &str) -> std::path::PathBuf {
    crate::common::scratch(&format!("problem-{name}"))
}

fn tables(dir: &std::path::Path, variant: Variant, board: &str, max: Material) -> tb::Tablebase {
    let bar = ordo::solve::Silent;
    let dims: Dims = board.parse().unwrap();
    tb::build::<Bitboard>(
        dims,
        variant,
        max,
        dir,
        &tb::BuildOptions {
            verify: false,
            memory_limit: None,
            progress: &bar,
        },
        |_| {},
    )
    .unwrap()
    .0
}

/// Problems composed from a small board's tables are sound by the table route (proof tree
/// walked) and by exact search on the reference engine, which shares nothing with the
/// tables.
#[test]
fn composed_problems_are_sound_by_tables_and_by_search() {
    let dir = scratch("compose");
    let m = Material { white: 2, black: 2 };
    let tb = tables(&dir, Variant::Classic, "5x4", m);
    let problems = problem::compose::<Bitboard>(&tb, m, 3).unwrap();
    assert_eq!(problems.len(), 3);
    for p in &problems {
        assert_eq!(p.keys.len(), 1);
        assert!(p.only_keys);
        let by_table =
            problem::verify::<Bitboard>(p, Some(&dir), problem::DEFAULT_SEARCH_NODES).unwrap();
        assert!(by_table.sound, "{by_table:?}");
        assert_eq!(by_table.method, Method::Table);
        assert_eq!(by_table.winning, p.keys);
        assert!(by_table.proof_nodes > 1);
        let by_search =
            problem::verify::<Reference>(p, None, problem::DEFAULT_SEARCH_NODES).unwrap();
        assert!(by_search.sound, "{by_search:?}");
        assert_eq!(by_search.method, Method::Search);
        assert_eq!(by_search.winning, p.keys, "{}", p.id);
    }
    // The file format round-trips.
    let text = problem::write_file(&problems).unwrap();
    assert_eq!(problem::parse_file(&text).unwrap().problems, problems);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A key that does not win, and a cook under `only_keys`, are both reported as faults; a
/// stipulation one turn too short fails the key.
#[test]
fn false_keys_and_cooks_are_caught() {
    let dir = scratch("faults");
    let m = Material { white: 2, black: 2 };
    let tb = tables(&dir, Variant::Classic, "5x4", m);
    let good = problem::compose::<Bitboard>(&tb, m, 1).unwrap().remove(0);
    let n = problem::turns(&good.stipulation).unwrap();
    let report =
        problem::verify::<Bitboard>(&good, Some(&dir), problem::DEFAULT_SEARCH_NODES).unwrap();
    let pos = ordo::notation::parse_position(&good.position).unwrap();
    let e = <Bitboard as ordo::rules::Engine>::from_position(&pos).unwrap();
    let other = ordo::rules::Engine::legal_moves(&e)
        .iter()
        .map(ordo::notation::format_move)
        .find(|m| !report.winning.contains(m))
        .unwrap();
    for route in [Some(dir.as_path()), None] {
        let wrong_key = Problem {
            keys: vec![other.clone()],
            ..good.clone()
        };
        let r =
            problem::verify::<Bitboard>(&wrong_key, route, problem::DEFAULT_SEARCH_NODES).unwrap();
        assert!(!r.sound);
        assert!(r.faults.iter().any(|f| f.contains("does not win")), "{r:?}");
        assert!(r.faults.iter().any(|f| f.contains("(a cook)")), "{r:?}");
        let too_short = Problem {
            stipulation: format!("win in {}", n - 1),
            ..good.clone()
        };
        let r =
            problem::verify::<Bitboard>(&too_short, route, problem::DEFAULT_SEARCH_NODES).unwrap();
        assert!(!r.sound, "{r:?}");
    }
    let bad = Problem {
        keys: vec!["a1-a9".into()],
        ..good.clone()
    };
    assert!(problem::verify::<Bitboard>(&bad, None, problem::DEFAULT_SEARCH_NODES).is_err());
    assert!(problem::turns("mate in 3").is_err());
    assert!(problem::turns("win in 0").is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `ordo problem verify` and `compose` on the command line: exit 0 sound, 1 unsound, 2 for
/// a malformed file, each error on one line.
#[test]
fn cli_problem_verify_and_compose() {
    let dir = scratch("cli");
    let d = dir.to_str().unwrap();
    let o = ordo_cmd(&[
        "tb",
        "build",
        "--board",
        "5x4",
        "--max-pieces",
        "2,2",
        "--dir",
        d,
        "--solver",
        "retro",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let o = ordo_cmd(&[
        "problem",
        "compose",
        "--board",
        "5x4",
        "--material",
        "2,2",
        "--dir",
        d,
        "--count",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let file = dir.join("p.toml");
    std::fs::write(&file, &o.stdout).unwrap();
    let f = file.to_str().unwrap();
    let o = ordo_cmd(&["problem", "verify", f, "--tables", d]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert_eq!(out.matches(": sound (table proof, ").count(), 2, "{out}");
    let o = ordo_cmd(&["problem", "verify", f, "--method", "search"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert_eq!(out.matches(": sound (search proof, ").count(), 2, "{out}");
    // Claim a second, wrong key: unsound, exit 1.
    let text = std::fs::read_to_string(&file).unwrap();
    let broken = text.replacen("keys = [\"", "keys = [\"a1-a2\", \"", 1);
    std::fs::write(&file, broken).unwrap();
    let o = ordo_cmd(&["problem", "verify", f, "--tables", d]);
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        o.status.code() == Some(1) || err.contains("a1-a2"),
        "{out}{err}"
    );
    for (content, fragment) in [
        ("[[problem]]\nid = 1\n", "problem file"),
        ("", "no [[problem]]"),
        (
            "[[problem]]\nid='x'\nposition='5/5/5/WW3 w classic'\nstipulation='win in 2'\nkeys=['a1-a2']\nsource='t'\n",
            "problem x",
        ),
    ] {
        std::fs::write(&file, content).unwrap();
        let o = ordo_cmd(&["problem", "verify", f]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{content}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(fragment) && err.contains("p.toml"), "{err}");
    }
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
    let p = problem::compose::<Bitboard>(&tb, m, 1).unwrap().remove(0);
    assert_eq!(p.stipulation, "win in 9", "{p:?}");
    let by_table =
        problem::verify::<Bitboard>(&p, Some(&dir), problem::DEFAULT_SEARCH_NODES).unwrap();
    let by_search = problem::verify::<Bitboard>(&p, None, problem::DEFAULT_SEARCH_NODES).unwrap();
    assert!(
        by_table.sound && by_search.sound,
        "{by_table:?} {by_search:?}"
    );
    assert_eq!(by_table.winning, by_search.winning);
    assert_eq!(by_table.shortest, Some(17));
    let _ = std::fs::remove_dir_all(&dir);
}

/// ORDO-10.1, ORDO-1.1: the search's memo tells apart positions that differ only on squares
/// beyond the 63 a packed game-table key holds (row 7 from d7 on, and row 8 of 10 x 8): with
/// White on j8, Black to move has lost; without it, not.
#[test]
fn search_memo_distinguishes_every_square_of_the_standard_board() {
    let over = ordo::notation::parse_position("9W/10/10/4B5/10/10/10/WW8 b classic").unwrap();
    let open = ordo::notation::parse_position("10/10/10/4B5/10/10/10/WW8 b classic").unwrap();
    let over: Bitboard = ordo::rules::Engine::from_position(&over).unwrap();
    let open: Bitboard = ordo::rules::Engine::from_position(&open).unwrap();
    let mut memo = std::collections::HashMap::new();
    let mut nodes = 0;
    assert!(problem::lost_within(&over, 0, &mut memo, &mut nodes, u64::MAX).unwrap());
    assert!(!problem::lost_within(&open, 0, &mut memo, &mut nodes, u64::MAX).unwrap());
    assert_eq!(
        nodes, 2,
        "the second position is searched, not found in the memo"
    );
}

/// Issue 13: a "win in 1000" by search ran 262 s and aborted. The search has a node budget
/// and stops with a one-line reason; the command line names the flag that raises it.
/// (ORDO-10.1: the win searched for is an arrival on the opponent's home row.)
#[test]
fn ordo_10_1_a_search_beyond_its_budget_stops_with_a_reason() {
    let p = Problem {
        id: "long".into(),
        position: "2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/10/WW2WW2WW/WWWWWWWWWW/2WW2WW2 w classic".into(),
        stipulation: "win in 1000".into(),
        keys: vec!["a3-a4".into()],
        only_keys: false,
        source: "test".into(),
    };
    let clock = std::time::Instant::now();
    let err = problem::verify::<Bitboard>(&p, None, 2000)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("the search gave up after 2000 positions without deciding 'win in 1000'"),
        "{err}"
    );
    assert!(clock.elapsed().as_secs() < 60, "{:?}", clock.elapsed());
    let dir = scratch("budget");
    let file = dir.join("long.toml");
    std::fs::write(&file, problem::write_file(&[p]).unwrap()).unwrap();
    let o = ordo_cmd(&[
        "problem",
        "verify",
        file.to_str().unwrap(),
        "--method",
        "search",
        "--max-nodes",
        "2000",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("raise --max-nodes"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
