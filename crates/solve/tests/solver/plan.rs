//! Slices as independent jobs and their graph (crates/solve/src/plan.rs), through the library:
//! the parents a capture leads into, the graph's order, what a compact job reads, and the
//! sizing of a plan. The command line's side (`ordo tb job`, `ordo tb plan`) is in
//! tests/it/tb_plan.rs.

use std::path::Path;

use ordo_bitboard::Bitboard;
use ordo_core::rules::{Dims, Variant};
use ordo_solve::Material;
use ordo_solve::{CompactSliceSolver, SliceSolver};
use ordo_testkit::retro::Retro;

fn mat(white: u32, black: u32) -> Material {
    Material { white, black }
}

fn board(s: &str) -> Dims {
    s.parse().expect("test board")
}

/// ORDO-6.4, ORDO-9.3: a classic capture removes exactly the captured piece, so a slice's
/// parents have one piece fewer on one side; a side's last piece ends the game (ORDO-10.2).
#[test]
fn classic_parents_have_one_piece_fewer_ordo_6_4_ordo_9_3() {
    let p = |w, b| ordo_solve::parents(Variant::Classic, mat(w, b));
    assert_eq!(p(3, 2), vec![mat(2, 2), mat(3, 1)]);
    assert_eq!(p(1, 3), vec![mat(1, 2)]);
    assert_eq!(p(4, 1), vec![mat(3, 1)]);
    assert!(p(1, 1).is_empty());
}

/// ORDOX-4.1: in Ordo X a capture also removes the captured side's pieces outside its
/// largest group, so any smaller number of that side's pieces is a parent.
#[test]
fn ordo_x_parents_have_any_fewer_pieces_of_one_side_ordox_4_1() {
    let p = |w, b| ordo_solve::parents(Variant::X, mat(w, b));
    assert_eq!(p(3, 2), vec![mat(1, 2), mat(2, 2), mat(3, 1)]);
    assert_eq!(p(3, 3), vec![mat(1, 3), mat(3, 1), mat(2, 3), mat(3, 2)]);
    assert!(p(1, 1).is_empty());
}

/// The graph holds every slice up to the bound once, each after all its parents; the
/// ancestors of a classic slice are every smaller slice of the bound. One function makes
/// the graph of either solver, from the slices the solver's job reads.
#[test]
fn the_graph_puts_every_job_after_its_parents() {
    let dims = board("10x8");
    for variant in [Variant::Classic, Variant::X] {
        let retro = Retro::<Bitboard>::new(dims, variant, None);
        let compact = CompactSliceSolver::<Bitboard>::new(dims, variant);
        for (solver, order) in [
            (&retro as &dyn SliceSolver, Material::up_to(4, 3)),
            (&compact, ordo_solve::stored_up_to(mat(4, 3))),
        ] {
            let g = ordo_solve::job_graph(solver, mat(4, 3));
            let got: Vec<Material> = g.iter().map(|j| j.material).collect();
            assert_eq!(got, order, "{}", solver.name());
            for (i, j) in g.iter().enumerate() {
                assert_eq!(j.parents, solver.needs(j.material));
                for p in &j.parents {
                    let at = order.iter().position(|m| m == p).expect("parent in graph");
                    assert!(at < i, "{variant}: {p} after {}", j.material);
                }
            }
        }
        assert_eq!(
            retro.needs(mat(3, 2)),
            ordo_solve::parents(variant, mat(3, 2))
        );
    }
    let mut below = Material::up_to(3, 3);
    below.retain(|&m| m != mat(3, 3));
    let mut ancestors = ordo_solve::ancestors(Variant::Classic, mat(3, 3));
    ancestors.sort();
    below.sort();
    assert_eq!(ancestors, below);
}

/// A compact slice values a shell position of a smaller slice through that position's own
/// captures (ORDO-6.4: each capture removes a piece), so its job reads every slice a chain
/// of captures leads into, each as the material stored for it (its colour twin when White
/// has fewer pieces): classic 3v2 reads 1v1, 2v1, 2v2 and 3v1 (1v2 is 2v1's twin).
#[test]
fn a_compact_job_reads_every_stored_slice_captures_lead_into_ordo_6_4() {
    let c = CompactSliceSolver::<Bitboard>::new(board("10x8"), Variant::Classic);
    assert_eq!(
        c.needs(mat(3, 2)),
        vec![mat(1, 1), mat(2, 1), mat(2, 2), mat(3, 1)]
    );
    let x = CompactSliceSolver::<Bitboard>::new(board("10x8"), Variant::X);
    assert_eq!(
        x.needs(mat(3, 3)),
        vec![mat(1, 1), mat(2, 1), mat(2, 2), mat(3, 1), mat(3, 2)]
    );
}

/// A JSON array of strings.
fn words(v: &serde_json::Value) -> Vec<&str> {
    let a = v.as_array().expect("an array");
    a.iter().map(|w| w.as_str().expect("a string")).collect()
}

/// A plan sizes a slice too large to count (classic row2 6 x 5 has slices
/// of 10^14 rank pairs) from evenly spaced rows of its blocks. Here the budget is made tiny
/// so that 5 x 4 slices are sampled: each estimate is within four of its standard errors of
/// the count (the sampling is deterministic), a slice within the budget is counted exactly,
/// and a plan's tables size slices without refusing them.
#[test]
fn a_plan_samples_the_slices_it_cannot_count_within_their_errors() {
    for variant in [Variant::Classic, Variant::X] {
        let dims = board("5x4");
        let mut exact = ordo_solve::CompactTables::new(dims, variant);
        let mut plan = ordo_solve::CompactTables::plan_only(dims, variant, 1 << 16);
        let mut sampled = 0;
        for m in ordo_solve::stored_up_to(mat(5, 5)) {
            let (count, guess) = (exact.core_size(m).unwrap(), plan.core_size(m).unwrap());
            let Some(err) = guess.sampled else {
                assert_eq!(guess, count, "{variant:?} {m}: within the budget, counted");
                continue;
            };
            sampled += 1;
            let off = guess.entries.abs_diff(count.entries);
            assert!(
                off <= 4 * err.max(1),
                "{variant:?} {m}: {guess:?} against {count:?}"
            );
            assert!(
                err < count.entries / 10,
                "{variant:?} {m}: error {err} of {count:?}"
            );
            assert!(plan.buildable(m).is_ok(), "{variant:?} {m}");
        }
        assert!(sampled >= 5, "{variant:?}: only {sampled} slices sampled");
    }
}

/// A plan sizes every job with one set of tables, each slice measured once (Ordo X row2
/// 5 x 5: 291 CPU s down to 74): the memory each job is given must be what a job sizing
/// alone finds, in either game (ORDO-6.4 and ORDOX-4.1 decide which slices a job reads,
/// hence what it holds).
#[test]
fn a_shared_sizer_gives_every_job_the_estimate_it_finds_alone_ordo_6_4_ordox_4_1() {
    for variant in [Variant::Classic, Variant::X] {
        let dims = board("5x4");
        let mut shared = ordo_solve::CompactTables::new(dims, variant);
        let all = ordo_solve::stored_up_to(mat(5, 5));
        // Largest first, so that the shared tables hold sets the smaller jobs do not read.
        for &m in all.iter().rev() {
            let alone =
                ordo_solve::job_estimate(&mut ordo_solve::CompactTables::new(dims, variant), m);
            let with_others = ordo_solve::job_estimate(&mut shared, m);
            assert_eq!(with_others.unwrap(), alone.unwrap(), "{variant:?} {m}");
        }
        let solver = CompactSliceSolver::<Bitboard>::new(dims, variant);
        let before = ordo_solve::job_estimate(
            &mut ordo_solve::CompactTables::new(dims, variant),
            mat(3, 2),
        );
        solver.estimate(mat(5, 5)).unwrap();
        assert_eq!(solver.estimate(mat(3, 2)).unwrap(), before.unwrap());
    }
}

/// The published job graph of classic row2 6 x 5
/// (`analysis/plans/classic-6x5-row2.json`, analysis/README.md) is whole and adds up: a job
/// per stored material (ORDO-6.4: each after every slice a capture leads into) and the game
/// last; the plan's stored bytes are the slices' sum; the sampled sizes have errors under
/// 5 %; the jobs beyond this version are those past 2^40 rank pairs, counted in
/// `jobs_beyond`; and the slices up to 5v5 are sized as a fresh count sizes them.
#[test]
fn the_published_plan_of_classic_row2_6x5_adds_up_ordo_6_4() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let text = std::fs::read(root.join("analysis/plans/classic-6x5-row2.json")).unwrap();
    let v: serde_json::Value = serde_json::from_slice(&text).expect("JSON");
    let jobs = v["jobs"].as_array().expect("jobs");
    let stored = ordo_solve::stored_up_to(mat(12, 12));
    assert_eq!(jobs.len(), stored.len() + 1);
    let mut seen = std::collections::BTreeSet::new();
    let (mut sum, mut beyond) = (0u64, 0);
    let mut tables = ordo_solve::CompactTables::new(board("6x5"), Variant::Classic);
    for (j, m) in jobs.iter().zip(&stored) {
        assert_eq!(j["name"], m.to_string());
        assert!(
            words(&j["parents"]).iter().all(|p| seen.contains(*p)),
            "{j}"
        );
        seen.insert(m.to_string());
        let bytes = j["stored_bytes"].as_u64().unwrap();
        sum += bytes;
        if let Some(e) = j["standard_error"].as_u64() {
            assert!(j["sized"] == "sampled" && e * 20 < bytes, "{}", j["name"]);
        } else if m.white + m.black <= 10 {
            assert_eq!(bytes, tables.core_size(*m).unwrap().entries, "{m}");
        }
        if let Some(why) = j["beyond"].as_str() {
            assert!(why.contains("over the 2^40"), "{why}");
            beyond += 1;
        }
    }
    let game = jobs.last().unwrap();
    assert_eq!(game["name"], "game");
    assert_eq!(words(&game["parents"]), ["12v12"]);
    assert_eq!(
        (v["stored_bytes"].as_u64(), game["stored_bytes"].as_u64()),
        (Some(sum), Some(sum))
    );
    assert_eq!(v["jobs_beyond"], beyond + 1, "the game reads them all");
    assert!(beyond > 0 && beyond < stored.len());
}
