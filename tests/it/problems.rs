//! Problems on the command line (spec/problems.md, `ordo problem verify|compose`): reports and
//! refusals as documented, the saved problems of analysis/problems/ sound by search, a search
//! beyond its budget stopped with a reason. The library's side (crates/solve/src/problem.rs:
//! both routes, both solvers' tables, false keys and cooks) is in
//! crates/solve/tests/solver/problems.rs.
//!
//! Clauses: ORDO-10.1 (what a win is).

use std::path::Path;

use crate::common::{assert_ok, assert_refused, ordo_cmd, stdout};
use ordo_bitboard::Bitboard;
use ordo_core::rules::Engine;
use ordo_core::rules::{Dims, Variant};
use ordo_solve::{BuildOptions, Material, SolveError};
use ordo_solve::{Method, Problem, ProblemReport};
use ordo_testkit::fixtures::problem;
use ordo_testkit::retro::{self, tb, RetroTablebase};

fn scratch(name: &str) -> std::path::PathBuf {
    crate::common::scratch(&format!("problem-{name}"))
}

/// Verify `p` by the retro solver's tables in `dir` (the test tooling's, through
/// `verify_problem_with`), or by search alone.
fn verify<E: Engine>(
    p: &Problem,
    dir: Option<&Path>,
    max_nodes: u64,
) -> Result<ProblemReport, SolveError> {
    match dir {
        None => ordo_solve::verify_problem::<E>(p, None, max_nodes),
        Some(dir) => {
            let open = |pos: &ordo_core::rules::Position| retro::problem_tables(pos, dir);
            ordo_solve::verify_problem_with::<E, RetroTablebase>(p, Some(open), max_nodes)
        }
    }
}

/// The retro solver's slices up to `max`, built in `dir`.
fn tables(dir: &Path, variant: Variant, board: &str, max: Material) -> RetroTablebase {
    let dims: Dims = board.parse().unwrap();
    tb::build::<Bitboard>(dims, variant, max, dir, &BuildOptions::default(), |_| {})
        .unwrap()
        .0
}

/// `ordo problem verify` and `compose` on the command line: exit 0 sound, 1 unsound, 2 for
/// a malformed file, each error on one line; a folder holding only the retro solver's slices
/// (written by the test tooling) is named as such, with the command that builds the compact
/// ones, and problems composed from them are sound by their tables and by search.
#[test]
fn cli_problem_verify_and_compose() {
    let dir = scratch("cli");
    let d = dir.to_str().unwrap();
    let build = [
        "tb",
        "build",
        "--board",
        "5x4",
        "--max-pieces",
        "2,2",
        "--dir",
        d,
    ];
    let m = Material { white: 2, black: 2 };
    let old = tables(&dir, Variant::Classic, "5x4", m);
    let compose = ["problem", "compose", "--board", "5x4", "--material", "2,2"];
    let o = ordo_cmd(&[&compose[..], &["--dir", d, "--count", "2"]].concat());
    let err = assert_refused(&o);
    let retro_named = |s: &str| {
        s.contains("tb-classic-5x4-2v2.ordotb: an old retro-solver table (format 2)")
            && s.contains(&format!(
                "rebuild with: ordo tb build --variant classic --board 5x4 --max-pieces 2,2 --dir {d}"
            ))
    };
    assert!(retro_named(&err), "{err}");
    let composed = ordo_solve::compose_problems::<Bitboard>(&old, m, 2).unwrap();
    let file = dir.join("p.toml");
    std::fs::write(&file, ordo_solve::write_problems(&composed).unwrap()).unwrap();
    let f = file.to_str().unwrap();
    let sound = |args: &[&str], proof: &str| {
        let o = ordo_cmd(&[&["problem", "verify", f][..], args].concat());
        let out = stdout(&o);
        assert_eq!(o.status.code(), Some(0), "{out}");
        let both = format!(": sound ({proof} proof, ");
        assert_eq!(out.matches(&both).count(), 2, "{out}");
        // Each proof's time says which it is, wall clock and CPU.
        assert_eq!(out.matches(" s wall, ").count(), 2, "{out}");
        assert_eq!(out.matches(" s CPU").count(), 2, "{out}");
        out
    };
    for p in &composed {
        let r =
            verify::<Bitboard>(p, Some(dir.as_path()), ordo_solve::DEFAULT_SEARCH_NODES).unwrap();
        assert!(r.sound && r.method == Method::Table, "{r:?}");
    }
    // Without the compact solver's slices the retro ones are named.
    let out = sound(&["--tables", d], "search");
    assert!(retro_named(&out), "{out}");
    // --json names them the same way, once, in the report's own field.
    let o = ordo_cmd(&["problem", "verify", f, "--tables", d, "--json"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o).lines().count(), 2);
    for line in stdout(&o).lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let why = v["fallback"].as_str().unwrap_or_default();
        assert!(retro_named(why), "{line}");
        assert_eq!(line.matches("\"fallback\"").count(), 1, "{line}");
        assert_eq!(v["method"], "search", "{line}");
        assert!(v["seconds"].is_f64() && v["cpu_seconds"].is_f64(), "{line}");
    }
    assert_ok(&ordo_cmd(&build));
    // `--dir`, the tables' flag of every other command; `--tables` above is the older name.
    sound(&["--dir", d], "table");
    let o = ordo_cmd(&[&compose[..], &["--dir", d, "--count", "2"]].concat());
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout)
            .matches("[[problem]]")
            .count(),
        2
    );
    sound(&["--method", "search"], "search");
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

/// A "win in 1000" by search once ran 262 s and aborted. The search has a node budget
/// and stops with a one-line reason; the command line names the flag that raises it.
/// (ORDO-10.1: the win searched for is an arrival on the opponent's home row.)
#[test]
fn ordo_10_1_a_search_beyond_its_budget_stops_with_a_reason() {
    let p = problem(
        "long",
        "2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/10/WW2WW2WW/WWWWWWWWWW/2WW2WW2 w classic",
        "win in 1000",
        "a3-a4",
    );
    let err = verify::<Bitboard>(&p, None, 2000).unwrap_err();
    assert!(
        matches!(
            err,
            SolveError::SearchGaveUp {
                max_nodes: 2000,
                turns: 1000,
                refused: None,
                ..
            }
        ),
        "{err:?}"
    );
    let err = err.to_string();
    assert!(
        err.contains("the search gave up after 2000 positions without deciding 'win in 1000'"),
        "{err}"
    );
    let dir = scratch("budget");
    let file = dir.join("long.toml");
    std::fs::write(&file, ordo_solve::write_problems(&[p]).unwrap()).unwrap();
    let o = ordo_cmd(&[
        "problem",
        "verify",
        file.to_str().unwrap(),
        "--method",
        "search",
        "--max-nodes",
        "2000",
    ]);
    let err = assert_refused(&o);
    assert!(err.contains("raise --max-nodes"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

fn saved_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("analysis/problems")
}

/// The problems saved in analysis/problems/composed.toml.
fn saved_problems() -> Vec<Problem> {
    let text = std::fs::read_to_string(saved_dir().join("composed.toml")).unwrap();
    ordo_solve::parse_problems(&text).unwrap().problems
}

/// ORDO-10.1, ORDOX-5.1: every saved problem is sound by exact search alone (no table), with
/// the same key as its table proof: what `ordo problem verify analysis/problems/composed.toml
/// --method search` prints for the whole file (the guide shows it for one problem, `--id`).
#[test]
#[ignore = "slow tier (keeps `cargo test` short): `cargo test --release --test it --test solver -- --ignored`, run by .ci/run"]
fn ordo_10_1_saved_problems_are_sound_by_search() {
    let file = saved_dir().join("composed.toml");
    let o = ordo_cmd(&[
        "problem",
        "verify",
        file.to_str().unwrap(),
        "--method",
        "search",
    ]);
    let text = stdout(&o);
    assert_ok(&o);
    for p in saved_problems() {
        let key = format!("{}: sound (search proof,", p.id);
        assert!(text.contains(&key), "{key}:\n{text}");
        let keys: Vec<String> = p.keys.iter().map(|k| k.to_string()).collect();
        let keys = format!("winning first moves: {}", keys.join(", "));
        assert!(text.contains(&keys), "{keys}:\n{text}");
    }
}

/// `problem verify --id` proves only the named problems; an id the file does not hold is a
/// one-line error naming it (exit status 2).
#[test]
fn problem_verify_id_chooses_and_names_an_unknown_id() {
    let file = saved_dir().join("composed.toml");
    let f = file.to_str().unwrap();
    let o = ordo_cmd(&[
        "problem",
        "verify",
        f,
        "--method",
        "search",
        "--id",
        "classic-10x8-2v2-1",
    ]);
    let text = stdout(&o);
    assert_ok(&o);
    assert!(text.starts_with("classic-10x8-2v2-1: sound"), "{text}");
    assert_eq!(text.matches(": sound").count(), 1, "{text}");
    let o = ordo_cmd(&["problem", "verify", f, "--id", "no-such"]);
    let err = assert_refused(&o);
    assert!(
        err.contains("--id no-such") && err.contains("composed.toml"),
        "{err}"
    );
}

/// `ordo problem verify --method prove`: a saved 10 x 8 problem proved by the bounded proof
/// search, with the tables' quickest win, and its key's certificate written and confirmed by
/// `ordo prove --check` with its longest line within the stipulation (ORDO-10.1).
#[test]
fn cli_problem_verify_by_proof_search_writes_certificates_that_check() {
    let dir = scratch("prove");
    let certs = dir.join("certs");
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("analysis/problems/composed.toml");
    let o = ordo_cmd(&[
        "problem",
        "verify",
        file.to_str().unwrap(),
        "--method",
        "prove",
        "--id",
        "x-10x8-3v3-2",
        "--certificates",
        certs.to_str().unwrap(),
    ]);
    assert_ok(&o);
    let out = stdout(&o);
    assert!(out.contains("sound (proof-number search proof"), "{out}");
    assert!(out.contains("quickest win 7 plies"), "{out}");
    let cert = certs.join("x-10x8-3v3-2.cert");
    assert!(
        out.contains(&format!("certificate: {}", cert.display())),
        "{out}"
    );
    let o = ordo_cmd(&["prove", "--check", cert.to_str().unwrap()]);
    assert_ok(&o);
    let out = stdout(&o);
    assert!(out.contains("result: Black wins"), "{out}");
    assert!(out.contains("longest line: 6 plies"), "{out}");
    // The default method hands a problem the exact search gives up on to the proof search.
    let missing = dir.join("no-tables");
    let o = ordo_cmd(&[
        "problem",
        "verify",
        file.to_str().unwrap(),
        "--id",
        "x-10x8-3v3-2",
        "--dir",
        missing.to_str().unwrap(),
        "--max-nodes",
        "2000",
    ]);
    assert_ok(&o);
    let out = stdout(&o);
    assert!(out.contains("sound (proof-number search proof"), "{out}");
    assert!(out.contains("proved by the proof search instead: problem x-10x8-3v3-2: the search gave up after 2000 positions"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `ordo problem compose --from-games`: problems from random games of the standard start,
/// each sound by the proof search (exit 0) with the stipulation it was composed for; the
/// same seed composes the same file.
#[test]
fn cli_compose_from_games_gives_problems_the_proof_search_confirms() {
    let dir = scratch("from-games");
    let args = [
        "problem",
        "compose",
        "--from-games",
        "--variant",
        "classic",
        "--board",
        "6x5",
        "--count",
        "2",
        "--games",
        "30",
        "--max-turns",
        "2",
    ];
    let o = ordo_cmd(&args);
    assert_ok(&o);
    let text = stdout(&o);
    let problems = ordo_solve::parse_problems(&text).unwrap().problems;
    assert_eq!(problems.len(), 2, "{text}");
    assert!(problems
        .iter()
        .all(|p| p.only_keys && p.stipulation == "win in 2"));
    assert_eq!(
        stdout(&ordo_cmd(&args)),
        text,
        "the same seed, the same problems"
    );
    let file = dir.join("games.toml");
    std::fs::write(&file, &text).unwrap();
    let o = ordo_cmd(&[
        "problem",
        "verify",
        file.to_str().unwrap(),
        "--method",
        "prove",
    ]);
    assert_ok(&o);
    assert_eq!(stdout(&o).matches(": sound (").count(), 2, "{}", stdout(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}
