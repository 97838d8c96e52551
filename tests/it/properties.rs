//! Property tests (proptest and quickcheck) on random reachable positions: random playouts from
//! the standard start, the 8 x 8 variant and small boards, in both variants.
//!
//! Properties: left-right mirror symmetry and colour symmetry (ORDO-1.4, ORDO-2.2), every legal
//! move keeps the mover connected (ORDO-4.3, ORDOX-3.2), no ordo step captures (ORDO-7.2), the
//! status agrees with the move list (ORDO-10.3, ORDO-10.4, ORDO-10.5), Ordo X games end within
//! 2 x pieces x (rows - 1) turns because every turn makes forward progress (ORDOX-1.2,
//! ORDOX-3.1), and the notation round-trips on every legal move and position.

use std::collections::BTreeSet;

use crate::common::{one_group, playout, playout_starts};
use ordo_core::notation::{format_move, format_position, parse_move, parse_position};
use ordo_core::rules::{
    mirror_square, rotate_square, Color, Dims, Engine, Move, Position, Square, Status, Step,
    Variant, WinReason,
};
use ordo_reference::Reference;
use proptest::prelude::*;
use quickcheck::QuickCheck;

fn map_move(m: &Move, dims: Dims, f: impl Fn(Dims, Square) -> Square + Copy) -> Move {
    let map_step = |s: Step| match s {
        Step::Single {
            from,
            to,
            capture,
            keep,
        } => Step::Single {
            from: f(dims, from),
            to: f(dims, to),
            capture,
            keep: keep.map(|k| f(dims, k)),
        },
        Step::Ordo { first, last, to } => Step::Ordo {
            first: f(dims, first),
            last: f(dims, last),
            to: f(dims, to),
        },
    };
    Move {
        first: map_step(m.first),
        second: m.second.map(map_step),
    }
    .canonical(dims)
}

fn has_keep(m: &Move) -> bool {
    m.steps()
        .any(|s| matches!(s, Step::Single { keep: Some(_), .. }))
}

/// The image of `e` under a board symmetry `f` (with `flip` swapping colours) has the image
/// moves: same count, every tie-free image move legal, same multiset of resulting positions.
fn check_symmetry<E: Engine>(
    e: &E,
    image: &Position,
    f: impl Fn(Dims, Square) -> Square + Copy,
    map_pos: impl Fn(&Position) -> Position,
) {
    let dims = e.dims();
    let img: E = E::from_position(image).expect("the image of a valid position is valid");
    let moves = e.legal_moves();
    let img_moves = img.legal_moves();
    assert_eq!(
        moves.len(),
        img_moves.len(),
        "{}",
        format_position(&e.to_position())
    );
    let img_set: BTreeSet<Move> = img_moves.iter().copied().collect();
    let mut after: Vec<String> = Vec::new();
    for m in &moves {
        if !has_keep(m) {
            let mm = map_move(m, dims, f);
            assert!(
                img_set.contains(&mm),
                "{} has no image {} in {}",
                format_move(m),
                format_move(&mm),
                format_position(image)
            );
        }
        after.push(format_position(&map_pos(&e.apply(m).to_position())));
    }
    let mut img_after: Vec<String> = img_moves
        .iter()
        .map(|m| format_position(&img.apply(m).to_position()))
        .collect();
    after.sort();
    img_after.sort();
    assert_eq!(after, img_after);
    let flip_status = |s: Status, swap: bool| match s {
        Status::Won { winner, reason } if swap => Status::Won {
            winner: winner.opponent(),
            reason,
        },
        s => s,
    };
    let swapped = image.to_move != e.side_to_move();
    assert_eq!(flip_status(e.status(), swapped), img.status());
}

/// All per-position properties.
fn check_position<E: Engine>(e: &E) {
    let p = e.to_position();
    let me = p.to_move;
    let moves = e.legal_moves();
    // ORDO-10.5, ORDO-10.3, ORDO-10.4: the status agrees with the move list.
    match e.status() {
        Status::Ongoing => assert!(!moves.is_empty()),
        Status::Won { winner, reason } => {
            assert!(moves.is_empty());
            assert_eq!(winner, me.opponent());
            match reason {
                WinReason::CannotReconnect => assert!(!one_group(&p, me)),
                WinReason::NoLegalMove => assert!(one_group(&p, me)),
                _ => {}
            }
        }
    }
    for m in &moves {
        // Notation round trip on legal moves.
        let text = format_move(m);
        assert_eq!(parse_move(&text).as_ref(), Ok(m), "{text}");
        // ORDO-4.3 / ORDOX-3.2 and ORDO-7.2, step by step.
        let mut cur = e.clone();
        for step in m.steps() {
            let before = cur.to_position().count(me.opponent());
            cur = cur.apply(&Move::single(*step));
            let now = cur.to_position();
            assert!(one_group(&now, me), "{text} splits the mover");
            if step.is_ordo() {
                assert_eq!(now.count(me.opponent()), before, "{text}: an ordo captured");
            }
        }
    }
    // Position notation round trip.
    assert_eq!(parse_position(&format_position(&p)).as_ref(), Ok(&p));
    // Mirror symmetry (left-right), and colour symmetry (180 degrees, colours swapped).
    check_symmetry(e, &p.mirrored(), mirror_square, |q| q.mirrored());
    check_symmetry(e, &p.colour_flipped(), rotate_square, |q| {
        q.colour_flipped()
    });
}

/// ORDOX-1.2, ORDOX-3.1: an Ordo X game from `start` ends within 2 x pieces x (rows - 1)
/// turns, pieces being the larger side's count: every turn moves a piece at least one row
/// forward and nothing ever moves back.
fn check_x_playout_ends(start: &Position, choices: &[u32]) {
    assert_eq!(start.variant, Variant::X);
    let pieces = start.count(Color::White).max(start.count(Color::Black));
    let bound = 2 * pieces * (start.dims().rows as usize - 1);
    // Enough choices to run past the bound if the game did not end.
    let long: Vec<u32> = choices.iter().copied().cycle().take(bound + 2).collect();
    let line = playout::<Reference>(start, &long);
    let last = line.last().unwrap();
    assert!(
        last.status().is_over(),
        "not over after {} turns",
        line.len() - 1
    );
    assert!(
        line.len() - 1 <= bound,
        "{} turns > bound {bound}",
        line.len() - 1
    );
}

fn starts() -> Vec<Position> {
    playout_starts()
}

/// Limit the length of playouts on the big boards, where the reference engine is slow.
fn plies_for(p: &Position, n: usize) -> usize {
    match (p.dims().len() > 40, p.variant) {
        (true, Variant::X) => n.min(6),
        (true, Variant::Classic) => n.min(20),
        _ => n,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Properties at every position of a random playout.
    #[test]
    fn prop_playout_positions(start in 0usize..1000, choices in prop::collection::vec(any::<u32>(), 0..40)) {
        let all = starts();
        let s = &all[start % all.len()];
        let n = plies_for(s, choices.len());
        for e in playout::<Reference>(s, &choices[..n]) {
            check_position(&e);
        }
    }

    /// Ordo X games end within the forward-progress bound.
    #[test]
    fn prop_x_games_end(start in 0usize..1000, choices in prop::collection::vec(any::<u32>(), 1..8)) {
        let small: Vec<Position> = starts()
            .into_iter()
            .filter(|p| p.variant == Variant::X && p.dims().len() <= 25)
            .collect();
        check_x_playout_ends(&small[start % small.len()], &choices);
    }
}

/// A random playout for quickcheck: which start, and the move choices.
use crate::common::Playout;

#[test]
fn quickcheck_playout_positions() {
    fn prop(p: Playout) -> bool {
        let all = starts();
        let s = &all[p.start % all.len()];
        let n = plies_for(s, p.choices.len());
        for e in playout::<Reference>(s, &p.choices[..n]) {
            check_position(&e);
        }
        true
    }
    QuickCheck::new()
        .tests(32)
        .quickcheck(prop as fn(Playout) -> bool);
}

#[test]
fn quickcheck_x_games_end() {
    fn prop(p: Playout) -> bool {
        let small: Vec<Position> = starts()
            .into_iter()
            .filter(|p| p.variant == Variant::X && p.dims().len() <= 25)
            .collect();
        let choices = if p.choices.is_empty() {
            vec![0]
        } else {
            p.choices.clone()
        };
        check_x_playout_ends(&small[p.start % small.len()], &choices);
        true
    }
    QuickCheck::new()
        .tests(32)
        .quickcheck(prop as fn(Playout) -> bool);
}
