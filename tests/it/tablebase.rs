//! Endgame tablebases of the retro solver (`ordo_testkit::retro::tb`, the oracle of the compact
//! solver): the material index, slices built alike on both engines, the verification pass,
//! agreement with the whole-game tables of the same board, bounded minimax on sampled
//! positions; and the command line on the compact solver's slices.
//!
//! Clauses: ORDO-4.1 and ORDO-4.3 (the player who just moved is one group, the index's
//! premise), ORDOX-4.1 (in Ordo X the side to move is one group too), ORDO-2.3 (the side to
//! move never stands on its opponent's home row), ORDO-10.1 / ORDO-10.2 (the ends a capture
//! or an arrival makes).

use crate::common::{ordo_cmd, ordo_line};
use ordo_bitboard::Bitboard;
use ordo_core::rules::Rng;
use ordo_core::rules::{Dims, Engine, Variant};
use ordo_reference::Reference;
use ordo_solve::{connected_sets, BuildOptions, GameOptions, Material, Setup, Value, VerifyScope};
use ordo_testkit::retro::{self, bounded, bounded_expectation, solve_game};
use ordo_testkit::retro::{tb, RetroTablebase, SliceIndex};

fn scratch(name: &str) -> std::path::PathBuf {
    crate::common::scratch(&format!("tb-{name}"))
}

fn build<E: Engine>(
    dims: Dims,
    variant: Variant,
    max: Material,
    dir: &std::path::Path,
) -> RetroTablebase {
    tb::build::<E>(dims, variant, max, dir, &BuildOptions::default(), |_| {})
        .expect("builds")
        .0
}

/// ORDO-4.1: connected sets counted by hand: 80 squares, 268 neighbouring pairs on 10 x 8
/// (72 across, 70 up, 126 diagonal); on 3 x 3, 8 of the 9 squares' pairs... all 20 pairs
/// of neighbours.
#[test]
fn ordo_4_1_connected_sets_are_enumerated_exactly() {
    let d: Dims = "10x8".parse().unwrap();
    assert_eq!(connected_sets(d, 1).len(), 80);
    assert_eq!(connected_sets(d, 2).len(), 72 + 70 + 126);
    let small: Dims = "3x3".parse().unwrap();
    assert_eq!(connected_sets(small, 2).len(), 6 + 6 + 8);
    assert_eq!(connected_sets(small, 9).len(), 1);
    // Every set is connected and of the right size; none repeats.
    let sets = connected_sets("4x4".parse().unwrap(), 4);
    assert!(sets.windows(2).all(|w| w[0] < w[1]));
    assert!(sets.iter().all(|s| s.count_ones() == 4));
}

/// The index is a bijection between its non-gap entries and the positions it covers.
#[test]
fn slice_index_ranks_and_unranks() {
    for (variant, board, w, b) in [
        (Variant::Classic, "4x4", 3, 2),
        (Variant::Classic, "5x3", 2, 3),
        (Variant::X, "4x4", 3, 3),
        (Variant::Classic, "10x8", 2, 1),
    ] {
        let dims: Dims = board.parse().unwrap();
        let idx = SliceIndex::new(dims, variant, Material { white: w, black: b }).unwrap();
        let mut seen = 0;
        for i in 0..idx.len() {
            if let Some((occ, stm)) = idx.unrank(i) {
                assert_eq!(occ[0].count_ones(), w);
                assert_eq!(occ[1].count_ones(), b);
                assert_eq!(occ[0] & occ[1], 0);
                assert_eq!(idx.rank(occ, stm), Some(i), "{board} {i}");
                seen += 1;
            }
        }
        assert!(seen > 0);
        if variant == Variant::Classic {
            assert_eq!(seen, idx.len(), "classic indices have no gaps");
        }
    }
}

/// A tablebase holding all material of a small board agrees with the whole-game table of
/// that board on every position the game can reach: two different indices and graphs, one
/// value per position (ORDO-3.3: values depend on the position only).
#[test]
fn tablebase_agrees_with_the_game_tables() {
    for (variant, board) in [
        (Variant::Classic, "4x4"),
        (Variant::X, "4x4"),
        (Variant::Classic, "3x4"),
    ] {
        let dims: Dims = board.parse().unwrap();
        let dir = scratch(&format!("agree-{}-{board}", variant.name()));
        let n = dims.cols as u32;
        let tb = build::<Bitboard>(dims, variant, Material { white: n, black: n }, &dir);
        let opts = GameOptions::default();
        let (game, _) = solve_game::<Bitboard>(variant, dims, Setup::Row1, &opts).unwrap();
        for (i, &k) in game.space.keys().iter().enumerate() {
            let (occ, stm) = retro::unpack(k);
            let in_tb = tb
                .value(occ, stm)
                .unwrap()
                .expect("every material is built");
            assert_eq!(
                in_tb,
                Value::from_code(game.values[i]),
                "{} {board}: key {k:#x}",
                variant.name()
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Slices built on the reference engine equal those built on the bitboard engine, and the
/// verification pass through the reference engine finds every value consistent.
#[test]
fn slices_are_built_alike_on_both_engines_and_verify() {
    let bar = ordo_solve::Silent;
    for variant in Variant::ALL {
        let dims: Dims = "5x4".parse().unwrap();
        let max = Material { white: 2, black: 2 };
        let (d1, d2) = (
            scratch(&format!("fast-{variant}")),
            scratch(&format!("plain-{variant}")),
        );
        let fast = build::<Bitboard>(dims, variant, max, &d1);
        let plain = build::<Reference>(dims, variant, max, &d2);
        for (m, (_, values)) in &fast.slices {
            assert_eq!(values, &plain.slices[m].1, "{variant} {m}");
            let (index, _) = &fast.slices[m];
            let verdict = retro::verify_graph(
                &retro::SliceGraph::<Reference>::new(&fast, index),
                values,
                &bar,
            )
            .unwrap();
            assert!(verdict.ok(), "{variant} {m}: {verdict:?}");
        }
        let _ = std::fs::remove_dir_all(&d1);
        let _ = std::fs::remove_dir_all(&d2);
    }
}

/// Bounded minimax on the reference engine agrees with sampled slice entries of the
/// standard board (exact within the depth, undecided beyond it).
#[test]
#[ignore = "slow tier (keeps `cargo test` short): `cargo test --release --test it --test solver -- --ignored`, run by .ci/run"]
fn bounded_minimax_confirms_sampled_slice_positions() {
    let dims = Dims::STANDARD;
    let mut rng = Rng::new(11);
    for variant in Variant::ALL {
        let dir = scratch(&format!("minimax-{variant}"));
        let tb = build::<Bitboard>(dims, variant, Material { white: 2, black: 2 }, &dir);
        let (index, values) = &tb.slices[&Material { white: 2, black: 2 }];
        // Ordo X turns have two steps, so its trees are far wider.
        let depth = if variant == Variant::X { 2 } else { 3 };
        let mut checked = [0; 2];
        let mut tries = 0;
        while checked.iter().any(|&c| c < 10) && tries < 20_000 {
            tries += 1;
            let i = rng.below(index.len() as u64) as usize;
            let Some((occ, stm)) = index.unrank(i) else {
                continue;
            };
            let Ok(e) = Reference::from_occupancy(dims, variant, stm, occ) else {
                continue;
            };
            let stored = Value::from_code(values[i]);
            let expect = bounded_expectation(stored, depth);
            let slot = usize::from(expect.is_some());
            if checked[slot] >= 10 {
                continue;
            }
            assert_eq!(
                bounded(&e, depth),
                expect,
                "{variant} 2v2 index {i}: {stored}"
            );
            checked[slot] += 1;
        }
        assert!(checked[1] >= 10, "{variant}: {checked:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Building resumes: slice files already present are loaded (and checked), not rebuilt, and
/// `--verify-new` recomputes only the slice built; a damaged slice file is refused with its
/// name.
#[test]
fn building_resumes_and_refuses_damaged_slices() {
    let dims: Dims = "4x4".parse().unwrap();
    let dir = scratch("resume");
    let opts = |verify: VerifyScope| BuildOptions {
        verify,
        memory_limit: None,
        progress: &ordo_solve::Silent,
    };
    let max = Material { white: 2, black: 2 };
    let build = |scope: VerifyScope| {
        tb::build::<Bitboard>(dims, Variant::Classic, max, &dir, &opts(scope), |_| {}).unwrap()
    };
    let (_, first) = build(VerifyScope::None);
    assert!(first.iter().all(|r| r.built && r.verified.is_none()));
    let p = RetroTablebase::path(&dir, Variant::Classic, dims, max);
    std::fs::remove_file(&p).unwrap();
    // `--verify-new`: only the slice this run builds is recomputed.
    let (_, second) = build(VerifyScope::Built);
    let built: Vec<bool> = second.iter().map(|r| r.built).collect();
    assert_eq!(built, vec![false, false, false, true]);
    let verified: Vec<Option<bool>> = second.iter().map(|r| r.verified).collect();
    assert_eq!(verified, vec![None, None, None, Some(true)]);
    let (_, third) = build(VerifyScope::All);
    assert!(third.iter().all(|r| !r.built && r.verified == Some(true)));
    assert_eq!(first.last().unwrap().counts, second.last().unwrap().counts);
    let mut bytes = std::fs::read(&p).unwrap();
    let n = bytes.len();
    bytes[n - 1] ^= 1;
    std::fs::write(&p, &bytes).unwrap();
    let err = tb::build::<Bitboard>(
        dims,
        Variant::Classic,
        max,
        &dir,
        &opts(VerifyScope::None),
        |_| {},
    )
    .err()
    .unwrap()
    .to_string();
    assert!(
        err.contains("tb-classic-4x4-2v2.ordotb") && err.contains("checksum"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The size check is arithmetic on counted connected sets: classic 4v4 on 10 x 8 is refused
/// with its exact size, beyond the 2^32 index.
#[test]
fn ordo_4_1_slice_size_beyond_the_index_is_refused_exactly() {
    let err = SliceIndex::new(
        "10x8".parse().unwrap(),
        Variant::Classic,
        Material { white: 4, black: 4 },
    )
    .err()
    .unwrap()
    .to_string();
    assert!(
        err.contains("slice 4v4 of classic on 10x8 has 13545650050 indices"),
        "{err}"
    );
}

/// `ordo tb build`, `verify` and `probe` on the command line; bad input exits 2 with one line.
#[test]
fn cli_tb_build_verify_probe() {
    let dir = scratch("cli");
    let d = dir.to_str().unwrap();
    let o = ordo_line(&format!("tb build --board 4x4 --max-pieces 2,2 --dir {d}"));
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    // 1v1, 2v1 (which answers for 1v2, its colour twin) and 2v2.
    // Timings say which they are: the slices, then the run's wall and CPU time.
    assert_eq!(out.lines().count(), 4, "{out}");
    let last = out.lines().last().unwrap();
    assert!(
        last.starts_with("this run: ") && last.ends_with(" s CPU") && last.contains(" s wall, "),
        "{out}"
    );
    assert!(out.contains(", built in 0.0 s wall\n"), "{out}");
    assert!(out.contains("classic 4x4 2v1 and 1v2: "), "{out}");
    // Each result line once, on stdout only (not on stderr as well).
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("classic 4x4"), "{err}");
    assert!(
        out.lines().nth(2).unwrap().starts_with("classic 4x4 2v2: "),
        "{out}"
    );
    let o = ordo_line(&format!("tb verify --board 4x4 --max-pieces 2,2 --dir {d}"));
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("verified: every value matches"), "{out}");
    // White a1 b1, Black c4 d4 (each on its home row), White to move.
    let o = ordo_cmd(&[
        "tb",
        "probe",
        "--position",
        "2BB/4/4/WW2 w classic",
        "--dir",
        d,
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    assert!(out.starts_with("White to move wins in 1 ply\n"), "{out}");
    assert!(out.contains("\na1-a2\tloses in 2 plies\n"), "{out}");
    assert!(out.contains("best moves: "), "{out}");
    for (args, fragment) in [
        (
            vec!["tb", "build", "--max-pieces", "3"],
            "expected WHITE,BLACK",
        ),
        (vec!["tb", "build", "--max-pieces", "0,2"], "1 to 16 pieces"),
        (
            vec!["tb", "build", "--verify", "--verify-new"],
            "'--verify' cannot be used with '--verify-new'",
        ),
        (
            vec![
                "tb",
                "probe",
                "--position",
                "2BB/4/4/WWW1 w classic",
                "--dir",
                d,
            ],
            "no classic 4x4 3v2 table: slices 3v1, 3v2 not built; build it with: ordo tb build --variant classic --board 4x4 --max-pieces 3,2 --dir",
        ),
    ] {
        let o = ordo_cmd(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(fragment), "{args:?}: {err}");
    }
    // The retro solver's builds are refused before any slice is built: classic 4v4 on 10x8
    // is beyond the index (and, on most machines, a smaller slice beyond the memory first);
    // Ordo X 10v1 at once and in little memory (it once ran out of memory in this check);
    // the memory limit asked for is honoured and named.
    let dims = Dims::STANDARD;
    for (variant, (white, black), limit, fragment) in [
        (Variant::Classic, (4, 4), None, " of classic on 10x8 has "),
        (
            Variant::X,
            (10, 1),
            None,
            " of x on 10x8 has more than the ",
        ),
        (
            Variant::Classic,
            (3, 3),
            Some(1 << 30),
            "so no more fit the memory limit of 1.1 GB (the limit asked for)",
        ),
    ] {
        let max = Material { white, black };
        let opts = BuildOptions {
            memory_limit: limit,
            ..BuildOptions::default()
        };
        let err =
            tb::build::<Bitboard>(dims, variant, max, &dir, &opts, |_| {}).expect_err("refused");
        assert_eq!(err.to_string().lines().count(), 1, "{err}");
        assert!(err.to_string().contains(fragment), "{max}: {err}");
    }
    // `--verify-new` recomputes the slices this run builds (3v1, 3v2), not those it loads.
    let o = ordo_line(&format!(
        "tb build --board 4x4 --max-pieces 3,2 --verify-new --dir {d}"
    ));
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    let ends: Vec<(bool, bool)> = out
        .lines()
        .filter(|l| !l.starts_with("this run: "))
        .map(|l| (l.contains(", loaded"), l.ends_with(", verified")))
        .collect();
    let (loaded, built) = ((true, false), (false, true));
    assert_eq!(ends, [loaded, loaded, loaded, built, built], "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The rules are symmetric between the players (ORDO-1.3, ORDO-2.2: Black is White's mirror
/// image): every position of a slice has the value of its colour-swapped, half-turned twin in
/// the twin slice, though nothing in the code pairs them.
#[test]
fn colour_swapped_slices_agree_position_by_position() {
    for variant in Variant::ALL {
        let dims: Dims = "5x4".parse().unwrap();
        let dir = scratch(&format!("twins-{variant}"));
        let tb = build::<Bitboard>(dims, variant, Material { white: 3, black: 3 }, &dir);
        let mut compared = 0;
        for (m, (index, values)) in &tb.slices {
            assert_eq!(values.len(), index.len(), "{variant} {m}");
            for (i, &code) in values.iter().enumerate() {
                let Some((occ, stm)) = index.unrank(i) else {
                    continue;
                };
                let Ok(e) = Bitboard::from_occupancy(dims, variant, stm, occ) else {
                    continue;
                };
                let twin = Bitboard::from_position(&e.to_position().colour_flipped()).unwrap();
                assert_eq!(
                    tb.value(twin.occupancy(), twin.side_to_move()).unwrap(),
                    Some(Value::from_code(code)),
                    "{variant} {m} index {i}"
                );
                compared += 1;
            }
        }
        assert!(compared > 10_000, "{compared}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A finished position probes as finished: `ordo tb probe` answers a game whose
/// side to move has no piece, as `ordo show` does, instead of refusing it.
#[test]
fn cli_tb_probe_answers_a_finished_game() {
    let dir = scratch("probe-over");
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.to_str().unwrap();
    let o = ordo_cmd(&["tb", "probe", "--position", "3/BB1/3 w classic", "--dir", d]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert_eq!(out, "White to move has lost: the game is over\n");
}

/// Endgame values on the static site: tables given as the bytes of their
/// files (`Tablebase::in_memory`, what the page's module gets) name the files a position still
/// needs, give the folder's values and moves once given, and refuse a file whose checksum
/// does not match (one flipped value byte) or that holds another slice, before any value of
/// it is used.
#[test]
fn tables_given_as_bytes_probe_as_the_folder_does() {
    let (dims, variant) = ("4x3".parse::<Dims>().unwrap(), Variant::Classic);
    let max = Material { white: 2, black: 2 };
    let dir = scratch("in-memory");
    let opts = BuildOptions::default();
    ordo_solve::build_slices::<Bitboard>(dims, variant, max, &dir, &opts, |_| {}).unwrap();
    let folder = ordo_solve::Tablebase::open(&dir).unwrap();
    let pos = ordo_core::notation::parse_position("BB2/1W2/W3 w classic").unwrap();
    let given = |flip: Option<&str>, swap: bool| {
        let tb = ordo_solve::Tablebase::in_memory();
        let names = tb.files_needed(&pos);
        for (k, name) in names.iter().enumerate() {
            let from = if swap && k == 0 { &names[1] } else { name };
            let mut bytes = std::fs::read(dir.join(from)).unwrap();
            if flip == Some(name.as_str()) {
                *bytes.last_mut().unwrap() ^= 1;
            }
            tb.add_file(name, bytes);
        }
        (tb, names)
    };
    let (tb, names) = given(None, false);
    assert_eq!(
        names,
        ["1v1", "2v1", "2v2"].map(|m| format!("ctb-classic-4x3-{m}.ordotb"))
    );
    assert!(tb.files_needed(&pos).is_empty());
    assert_eq!(tb.value(&pos).unwrap(), folder.value(&pos).unwrap());
    assert_eq!(tb.moves(&pos).unwrap(), folder.moves(&pos).unwrap());
    let (bad, _) = given(Some("ctb-classic-4x3-2v2.ordotb"), false);
    let err = bad.value(&pos).unwrap_err().to_string();
    assert!(
        err.contains("ctb-classic-4x3-2v2.ordotb") && err.contains("checksum"),
        "{err}"
    );
    let (other, _) = given(None, true);
    let err = other.value(&pos).unwrap_err().to_string();
    assert!(
        err.contains("holds the classic 4x3 endgame 2v1 table"),
        "{err}"
    );
    let empty = ordo_solve::Tablebase::in_memory();
    let err = empty.value(&pos).unwrap_err().to_string();
    assert!(err.contains("slices 1v1, 2v1, 2v2 not built"), "{err}");
}
