//! Problems proved by the bounded proof search (spec/problems.md): on problems composed from
//! small boards' tables, the search finds the same winning first move and the same quickest
//! win as the tables, and each key's certificate holds on the reference engine with its
//! longest line within the stipulation; false keys, cooks and short stipulations are faults.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use ordo_bitboard::Bitboard;
use ordo_certificate::{check_file, Established};
use ordo_core::rules::{Dims, Engine, Variant};
use ordo_prove::{verify_problem, Options};
use ordo_solve::{
    build_tables, compose_problems, open_slices, stipulation_turns, BuildOptions, Material, Method,
    Problem,
};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ordo-prove-pb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Problems composed from the tables of `variant` on `board` with material `m`, and the
/// tables' quickest win of each (from the composer's source line, "wins in N plies").
fn composed(dir: &Path, variant: Variant, board: &str, m: Material) -> Vec<(Problem, u16)> {
    let dims: Dims = board.parse().unwrap();
    build_tables::<Bitboard>(dir, variant, dims, m, &BuildOptions::default()).unwrap();
    let tables = open_slices(dims, variant, m, dir).unwrap();
    let problems = compose_problems::<Bitboard>(&tables, m, 3).unwrap();
    assert!(!problems.is_empty());
    problems
        .into_iter()
        .map(|p| {
            let plies = p.source.split("wins in ").nth(1).unwrap();
            let plies = plies.split(' ').next().unwrap().parse().unwrap();
            (p, plies)
        })
        .collect()
}

/// ORDO-10.1 to ORDO-10.4 within a stipulation: the proof search agrees with the tables on
/// composed problems of both games, and its certificates bound the win.
#[test]
fn composed_problems_are_sound_by_proof_search_with_certificates() {
    for (variant, board, m) in [
        (Variant::Classic, "5x4", Material { white: 2, black: 2 }),
        (Variant::X, "5x4", Material { white: 3, black: 2 }),
    ] {
        let dir = scratch(variant.name());
        let certs = dir.join("certs");
        std::fs::create_dir_all(&certs).unwrap();
        for (p, quickest) in composed(&dir, variant, board, m) {
            let stop = AtomicBool::new(false);
            let r = verify_problem(&p, &Options::default(), None, Some(&certs), &stop).unwrap();
            assert!(r.sound, "{r:?}");
            assert_eq!(r.method, Method::Prove);
            let keys: Vec<String> = p.keys.iter().map(|k| k.to_string()).collect();
            assert_eq!(r.winning, keys, "{}", p.id);
            assert_eq!(r.shortest, Some(quickest), "{}", p.id);
            assert_eq!(r.certificates.len(), 1, "{r:?}");
            let checked = check_file(r.certificates[0].as_ref(), None).unwrap();
            let e = Bitboard::from_position(&p.position).unwrap();
            let key = e.resolve(&p.keys[0]).unwrap();
            assert_eq!(checked.root, e.apply(&key).to_position());
            assert_eq!(checked.established, Established::Wins(p.position.to_move));
            let n = stipulation_turns(&p.stipulation).unwrap();
            assert!(
                checked.longest.unwrap() < 2 * u32::from(n) - 1,
                "{checked:?}"
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// A key that does not win and a cook under `only_keys` are faults of the proof search's
/// verdict; a stipulation one turn shorter than the quickest win fails the key.
#[test]
fn false_keys_cooks_and_short_stipulations_are_faults() {
    let dir = scratch("faults");
    let m = Material { white: 2, black: 2 };
    let (good, quickest) = composed(&dir, Variant::Classic, "5x4", m).remove(0);
    let stop = AtomicBool::new(false);
    let opts = Options::default();
    let e = Bitboard::from_position(&good.position).unwrap();
    let key = e.resolve(&good.keys[0]).unwrap();
    let other = e.legal_moves().into_iter().find(|m| *m != key).unwrap();
    let wrong = Problem {
        keys: vec![other],
        ..good.clone()
    };
    let r = verify_problem(&wrong, &opts, None, None, &stop).unwrap();
    assert!(!r.sound);
    assert!(r.faults.iter().any(|f| f.contains("does not win")), "{r:?}");
    assert!(r.faults.iter().any(|f| f.contains("(a cook)")), "{r:?}");
    let turns = quickest.div_ceil(2);
    let short = Problem {
        stipulation: format!("win in {}", turns - 1),
        ..good.clone()
    };
    let r = verify_problem(&short, &opts, None, None, &stop).unwrap();
    assert!(!r.sound && r.winning.is_empty(), "{r:?}");
    let exact = Problem {
        stipulation: format!("win in {turns}"),
        ..good
    };
    let r = verify_problem(&exact, &opts, None, None, &stop).unwrap();
    assert!(r.sound, "{r:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A budget too small to settle the search is a fault that says so, never a verdict.
#[test]
fn an_unsettled_search_is_reported_as_such() {
    let dir = scratch("budget");
    let m = Material { white: 2, black: 2 };
    let (good, _) = composed(&dir, Variant::Classic, "5x4", m).remove(0);
    let opts = Options {
        nodes: Some(1),
        ..Options::default()
    };
    let r = verify_problem(&good, &opts, None, None, &AtomicBool::new(false)).unwrap();
    assert!(!r.sound);
    assert!(r.faults.iter().all(|f| f.contains("not settled")), "{r:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
