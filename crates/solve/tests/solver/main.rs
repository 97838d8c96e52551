//! The compact solver (crates/solve/src/compact/) against the retro solver of the test tooling
//! (`ordo_testkit::retro`), which stays the oracle: every position of every whole-game table and endgame slice both solve in seconds
//! gets the same value from both, and a plain bounded minimax confirms sampled core values;
//! the probe entry ([`ordo_solve::Tablebase`]) agrees with the slices it reads.
//!
//! Clauses: ORDO-4.1 / ORDO-4.3 (the core index ranks one-group sides), ORDO-9.1 (a split
//! side to move, the shell, only follows a capture), ORDO-2.3 (gaps of the index), ORDO-3.3
//! (draws: what no distance reaches), ORDOX-4.1 (in Ordo X the side to move is one group).

use ordo_bitboard::Bitboard;
use ordo_core::rules::Rng;
use ordo_core::rules::{Color, Dims, Engine, Variant};
use ordo_reference::Reference;
use ordo_solve::{connected_sets, BuildOptions, GameOptions, Material, Setup, Value};
use ordo_solve::{CompactTables, Sets};
use ordo_testkit::retro::{self, bounded, bounded_expectation, solve_game, tb};

mod files;
mod plan;
mod problems;

/// A scratch folder of this test binary, emptied.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ordo-solve-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn old_game(variant: Variant, dims: Dims) -> retro::Table {
    let opts = GameOptions::default();
    solve_game::<Bitboard>(variant, dims, Setup::Row1, &opts)
        .expect("the retro solver solves it")
        .0
}

/// ORDO-4.1: the ranked sets are the connected sets, each found at its rank, runs of one
/// advancement contiguous and in order.
#[test]
fn ordo_4_1_ranked_sets_are_the_connected_sets() {
    for (board, k) in [("3x3", 3), ("5x4", 4), ("10x8", 3)] {
        let dims: Dims = board.parse().unwrap();
        for color in Color::ALL {
            let sets = Sets::new(dims, color, k);
            assert_eq!(sets.len(), connected_sets(dims, k).len(), "{board} {k}");
            let mut seen = 0;
            for a in 0..sets.advancements() {
                for r in sets.run(a) {
                    assert_eq!(sets.rank(sets.set(r)), Some((r, a)));
                    assert_eq!(sets.advancement(sets.set(r)), a);
                    seen += 1;
                }
            }
            assert_eq!(seen, sets.len());
            // A split set has no rank.
            assert_eq!(sets.rank(1 | 1 << 2 | 1 << (2 * dims.cols)), None);
        }
    }
}

/// The layers of a core index are contiguous runs of slots covering the index once, in
/// order of total advancement, and each entry reads back at its slot.
#[test]
fn layers_partition_the_core_index() {
    let mut t = CompactTables::new("10x8".parse().unwrap(), Variant::Classic);
    for m in [
        Material { white: 3, black: 2 },
        Material { white: 2, black: 2 },
    ] {
        let index = t.core_index(m).unwrap();
        let mut next = 0;
        let mut last_total = u32::MAX;
        for group in index.layers() {
            let total = group[0].adv[0] + group[0].adv[1];
            assert!(total < last_total);
            last_total = total;
            for l in group {
                assert_eq!(l.adv[0] + l.adv[1], total);
                assert_eq!(l.start, next, "{m}");
                for (k, e) in index.entries(l).enumerate() {
                    assert_eq!(index.slot(e.occ, e.stm), Some(l.start + k));
                    assert_eq!(index.position(l.start + k), Some((e.occ, e.stm)));
                }
                next = l.end;
            }
        }
        assert_eq!(next, index.len());
        assert_eq!(index.position(next), None);
    }
}

/// ORDO-2.3, ORDO-4.1: the core index is perfect. Every core position (both sides one
/// group, the side to move off its opponent's home row) has a slot, shared with its mirror
/// image and, with equal material, its colour twin, and with nothing else; every slot is
/// used; a position that ORDO-2.3 excludes has none.
#[test]
fn ordo_2_3_the_core_index_is_perfect() {
    for (board, m) in [
        ("4x3", (3, 2)),
        ("4x3", (3, 3)),
        ("3x4", (2, 2)),
        ("5x4", (4, 4)),
    ] {
        let dims: Dims = board.parse().unwrap();
        let m = Material {
            white: m.0,
            black: m.1,
        };
        let index = CompactTables::new(dims, Variant::Classic)
            .core_index(m)
            .unwrap();
        let mut hits = vec![0u32; index.len()];
        let mut positions = 0u32;
        for w in connected_sets(dims, m.white) {
            for b in connected_sets(dims, m.black)
                .into_iter()
                .filter(|b| b & w == 0)
            {
                for stm in Color::ALL {
                    let occ = [w, b];
                    let slot = index.slot(occ, stm);
                    let valid = Bitboard::from_occupancy(dims, Variant::Classic, stm, occ).is_ok();
                    assert_eq!(slot.is_some(), valid, "{board} {m} {occ:x?} {stm:?}");
                    let Some(slot) = slot else { continue };
                    positions += 1;
                    hits[slot] += 1;
                    let image = [ordo_solve::mirror(dims, w), ordo_solve::mirror(dims, b)];
                    assert_eq!(index.slot(image, stm), Some(slot));
                    if m.white == m.black {
                        let (twin, other) = ordo_solve::colour_flip(dims, occ, stm);
                        assert_eq!(index.slot(twin, other), Some(slot));
                    }
                }
            }
        }
        // Each slot is hit by exactly the positions it answers for in this material.
        let twins_here = if m.white == m.black { 1 } else { 2 };
        let mut images = 0;
        for l in index.layers().into_iter().flatten() {
            for (k, e) in index.entries(l).enumerate() {
                assert_eq!(hits[l.start + k], e.images / twins_here, "{board} {m}");
                images += e.images / twins_here;
            }
        }
        assert_eq!(images, positions, "{board} {m}");
        assert!(
            positions > 2 / twins_here * index.len() as u32,
            "{board} {m}"
        );
    }
}

/// ORDO-1.3, ORDO-1.4: a position, its left-right mirror image and its colour twin (turned
/// round, colours swapped, the other side to move) read the same value, in every material of
/// the 4 x 4 games, with fewer or more White pieces than Black.
#[test]
fn ordo_1_4_mirror_images_and_colour_twins_read_the_same_value() {
    let dims: Dims = "4x4".parse().unwrap();
    for variant in Variant::ALL {
        let (t, _) =
            ordo_solve::solve_game::<Bitboard>(variant, dims, Setup::Row1, &GameOptions::default())
                .unwrap();
        let mut checked = 0;
        for (m, slice) in &t.slices {
            assert!(
                m.white >= m.black,
                "only the materials with more White are stored"
            );
            for (i, &code) in slice.values.iter().enumerate() {
                let (occ, stm) = slice.index.position(i).unwrap();
                let e = Bitboard::from_occupancy(dims, variant, stm, occ).unwrap();
                let want = ordo_solve::decode_value(code);
                let p = e.to_position();
                for image in [
                    p.mirrored(),
                    p.colour_flipped(),
                    p.colour_flipped().mirrored(),
                ] {
                    let image = Bitboard::from_position(&image).unwrap();
                    assert_eq!(t.probe(&image).unwrap(), want, "{variant} {m} slot {i}");
                }
                checked += 1;
            }
        }
        assert!(checked > 10_000, "{variant}: {checked}");
    }
}

/// Every position of the current solver's whole-game table of `board` has the same value in
/// the compact tables, and the start report agrees.
fn same_game(variant: Variant, board: &str) {
    let dims: Dims = board.parse().unwrap();
    let old = old_game(variant, dims);
    let (new, report) =
        ordo_solve::solve_game::<Bitboard>(variant, dims, Setup::Row1, &GameOptions::default())
            .unwrap();
    let start: Bitboard =
        Bitboard::from_position(&Setup::Row1.start(dims, variant).unwrap()).unwrap();
    assert_eq!(Some(new.probe(&start).unwrap()), retro::probe(&old, &start));
    assert_eq!(
        new.rank_moves(&start).unwrap(),
        retro::rank_moves(&old, &start).unwrap()
    );
    assert!(!report.game.slices.is_empty());
    for i in 0..old.space.len() {
        let e: Bitboard = old.space.load(i).unwrap();
        let want = Value::from_code(old.values[i]);
        assert_eq!(
            new.probe(&e).unwrap(),
            want,
            "{variant} {board}: {}",
            ordo_core::notation::format_position(&e.to_position())
        );
    }
}

/// The boards on which the retro solver (test tooling) cross-checks the compact one: every
/// board both solve in seconds. 5 x 4 is left out: the retro solver takes 18 (classic) and 40
/// (Ordo X) CPU seconds there, a seventh of the whole suite; the compact 5 x 4 tables are
/// checked by their `--verify` pass (analysis/games) and the guide's classic 5x4 solve, which
/// the docs test runs.
const CROSS_CHECKED: [&str; 4] = ["3x3", "4x3", "3x4", "4x4"];

/// ORDO-3.3 / ORDO-9.1: classic small boards, every reachable position.
#[test]
fn classic_small_boards_agree_with_the_current_solver() {
    for board in CROSS_CHECKED {
        same_game(Variant::Classic, board);
    }
}

/// ORDOX-4.1: Ordo X small boards, every reachable position.
#[test]
fn ordo_x_small_boards_agree_with_the_current_solver() {
    for board in CROSS_CHECKED {
        same_game(Variant::X, board);
    }
}

/// Every position of the current 10 x 8 slices up to 2 against 2 (shell included in classic
/// Ordo) has the same value in the compact tables.
#[test]
fn ordo_9_1_ten_by_eight_slices_agree_with_the_current_tablebase() {
    let dims = Dims::STANDARD;
    let max = Material { white: 2, black: 2 };
    for variant in Variant::ALL {
        let dir = scratch(&format!("compact-{variant}"));
        let opts = BuildOptions::default();
        let (old, _) = tb::build::<Bitboard>(dims, variant, max, &dir, &opts, |_| {})
            .expect("the current tablebase builds");
        let mut new = CompactTables::new(dims, variant);
        let stats = new.build::<Bitboard>(max, |_| {}).unwrap();
        // 1v1, 2v1 and 2v2: 1v2 is answered by 2v1's colour twins.
        assert_eq!(stats.len(), 3);
        let mut shell = 0;
        // The ranked sets of each side and size, built once (a 10 x 8 enumeration each).
        let mut sets = std::collections::HashMap::new();
        for (m, (index, values)) in &old.slices {
            for (i, &code) in values.iter().enumerate() {
                let Some((occ, stm)) = index.unrank(i) else {
                    continue;
                };
                let Ok(e) = Bitboard::from_occupancy(dims, variant, stm, occ) else {
                    continue;
                };
                let want = Value::from_code(code);
                assert_eq!(new.probe(&e).unwrap(), want, "{variant} {m} index {i}");
                let k = occ[stm as usize].count_ones();
                let one_group = sets
                    .entry((stm, k))
                    .or_insert_with(|| Sets::new(dims, stm, k))
                    .rank(occ[stm as usize])
                    .is_some();
                shell += usize::from(!one_group);
            }
        }
        // Classic slices hold split sides to move; Ordo X never (ORDOX-4.1).
        assert_eq!(shell > 0, variant == Variant::Classic, "{variant}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// ORDOX-5.1 with the claim: every Ordo X turn has a forward step, so no move stays
/// inside a layer; classic Ordo's sideways moves do.
#[test]
fn ordo_x_layers_have_no_inner_moves_and_classic_ones_do() {
    let dims: Dims = "4x4".parse().unwrap();
    for variant in Variant::ALL {
        let mut t = CompactTables::new(dims, variant);
        let stats = t
            .build::<Bitboard>(Material { white: 4, black: 4 }, |_| {})
            .unwrap();
        let inner: u64 = stats.iter().map(|s| s.layer_moves).sum();
        let moves: u64 = stats.iter().map(|s| s.moves).sum();
        assert!(moves > 0);
        assert_eq!(
            inner == 0,
            variant == Variant::X,
            "{variant}: {inner} inner moves"
        );
    }
}

/// ORDO-3.3, ORDO-10.1: a plain depth-limited minimax on the reference engine agrees with
/// sampled core values of every material: the exact value when the game ends within the
/// depth, "not decided" otherwise.
#[test]
#[ignore = "slow tier: `cargo test --release --test it --test solver -- --ignored`, run by .ci/run"]
fn bounded_minimax_confirms_sampled_core_values() {
    let mut rng = Rng::new(11);
    for (variant, board, depth) in [
        (Variant::Classic, "4x3", 4),
        (Variant::Classic, "4x4", 3),
        (Variant::X, "4x4", 3),
    ] {
        let dims: Dims = board.parse().unwrap();
        let (t, _) =
            ordo_solve::solve_game::<Bitboard>(variant, dims, Setup::Row1, &GameOptions::default())
                .unwrap();
        // Positions decided within the depth, and the others, sampled alike.
        let mut buckets: [Vec<(Material, usize)>; 2] = [Vec::new(), Vec::new()];
        for (m, slice) in &t.slices {
            for (i, &code) in slice.values.iter().enumerate() {
                if slice.index.position(i).is_some() {
                    let decided =
                        bounded_expectation(ordo_solve::decode_value(code), depth).is_some();
                    buckets[usize::from(decided)].push((*m, i));
                }
            }
        }
        let mut checked = [0usize; 2];
        for (decided, bucket) in buckets.iter().enumerate() {
            for _ in 0..40 {
                let (m, i) = bucket[rng.below(bucket.len() as u64) as usize];
                let slice = &t.slices[&m];
                let (occ, stm) = slice.index.position(i).unwrap();
                let Ok(e) = Reference::from_occupancy(dims, variant, stm, occ) else {
                    continue;
                };
                let stored = ordo_solve::decode_value(slice.values[i]);
                let expect = bounded_expectation(stored, depth);
                assert_eq!(
                    bounded(&e, depth),
                    expect,
                    "{variant} {board} {m} {i}: {stored}"
                );
                checked[decided] += 1;
            }
        }
        assert!(
            checked.iter().all(|&c| c > 0),
            "{variant} {board}: {checked:?}"
        );
    }
}

/// ORDO-10.1 .. ORDO-10.4: the one probe entry, `ordo_solve::Tablebase`, read
/// lazily from a folder, gives every stored position of the slices the value the loaded
/// slices give, on both engines, and every move the value of the position it leads to.
#[test]
fn the_probe_entry_agrees_with_the_slices_on_both_engines() {
    use ordo_solve::ProblemTables as _;
    let (dims, variant) = ("4x3".parse::<Dims>().unwrap(), Variant::X);
    let max = Material { white: 2, black: 2 };
    let dir = scratch("probe-entry");
    let opts = BuildOptions::default();
    ordo_solve::build_slices::<Bitboard>(dims, variant, max, &dir, &opts, |_| {}).unwrap();
    let slices = ordo_solve::open_slices(dims, variant, max, &dir).unwrap();
    let fast = ordo_solve::Tablebase::open(&dir).unwrap();
    let plain = ordo_solve::Tablebase::<Reference>::open_on(&dir).unwrap();
    let mut checked = 0;
    for m in [
        Material { white: 1, black: 1 },
        Material { white: 2, black: 1 },
        max,
    ] {
        for (i, stored) in slices.entries(m).unwrap() {
            let Some((occ, stm)) = slices.position(m, i) else {
                continue;
            };
            let pos = Bitboard::from_occupancy(dims, variant, stm, occ)
                .unwrap()
                .to_position();
            assert_eq!(fast.value(&pos).unwrap(), stored, "{pos}");
            if i % 7 == 0 {
                assert_eq!(plain.value(&pos).unwrap(), stored, "{pos}");
                let moves = fast.moves(&pos).unwrap();
                let e = Bitboard::from_position(&pos).unwrap();
                for (mv, v) in &moves {
                    assert_eq!(*v, slices.probe(&e.apply(mv)).unwrap(), "{pos} {mv}");
                }
                assert_eq!(moves, plain.moves(&pos).unwrap(), "{pos}");
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 372);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The probe entry reads nothing a finished game does not need (ORDO-10.2: the
/// side to move has no piece; ORDO-10.1: the opponent reached its home row), names the
/// missing slices otherwise, and refuses a path that is not a folder.
#[test]
fn the_probe_entry_answers_finished_games_and_names_missing_slices() {
    let dir = scratch("probe-empty");
    std::fs::create_dir_all(&dir).unwrap();
    let tb = ordo_solve::Tablebase::open(&dir).unwrap();
    for over in ["3/BB1/3 w classic", "B3/1W2/W1B1 w classic"] {
        let pos = ordo_core::notation::parse_position(over).unwrap();
        assert_eq!(tb.value(&pos).unwrap(), Value::Loss(0), "{over}");
        assert!(tb.moves(&pos).unwrap().is_empty(), "{over}");
    }
    let pos = ordo_core::notation::parse_position("BB2/1W2/W3 w classic").unwrap();
    let err = tb.value(&pos).unwrap_err().to_string();
    assert!(err.contains("slices 1v1, 2v1, 2v2 not built"), "{err}");
    let file = dir.join("not-a-folder");
    std::fs::write(&file, "x").unwrap();
    let err = ordo_solve::Tablebase::open(&file)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("not a folder"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
