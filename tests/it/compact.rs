//! `ordo solve` on the compact solver, against the retro solver of the test tooling
//! (`ordo_testkit::retro`); the library's cross-checks of the two solvers are in
//! crates/solve/tests/solver.rs.

use ordo_bitboard::Bitboard;
use ordo_core::rules::{Dims, Variant};
use ordo_solve::{GameOptions, Setup};
use ordo_testkit::retro::solve_game;

/// `ordo solve` prints the same start report as the retro solver of the test tooling (the
/// README's example is classic 5x4; 4x4 here keeps the test short), verifies on demand, and
/// refuses a bad board with exit status 2.
#[test]
fn cli_solve_with_the_compact_solver() {
    let args = [
        "solve",
        "--variant",
        "classic",
        "--board",
        "4x4",
        "--no-save",
        "--verify",
    ];
    let dims: Dims = "4x4".parse().unwrap();
    let opts = GameOptions::default();
    let (_, report) = solve_game::<Bitboard>(Variant::Classic, dims, Setup::Row1, &opts).unwrap();
    let old = report.outcome.to_string();
    let new = crate::common::ordo_cmd(&args);
    let out = String::from_utf8_lossy(&new.stdout);
    assert_eq!(new.status.code(), Some(0), "{out}");
    let head = |s: &str| s.lines().take(2).collect::<Vec<_>>().join("\n");
    assert_eq!(head(&out), head(&old));
    assert!(out.contains("core positions "), "{out}");
    assert!(out.contains("verified: "), "{out}");
    let bad = crate::common::ordo_cmd(&["solve", "--board", "1x9"]);
    assert_eq!(bad.status.code(), Some(2));
}
