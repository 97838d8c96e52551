//! The adjudicator (`ordo_adjudicate`), an independent code path written from spec/rules.md.
//!
//! - Hand-written tests, each naming the clauses it covers: every kind of violation yields the
//!   right clause ids, a move with several independent faults lists all of them, legal moves
//!   report the right effects and permitting clauses.
//! - `ordo explain`: exit status 0 for a legal move, 1 for an illegal one, 2 for notation that
//!   cannot be read; `--svg` writes a file.
//! - Property tests (proptest and quickcheck): on random reachable positions, for every move of
//!   a broad candidate space (`candidate_moves_limited`), the adjudicator's verdict equals
//!   membership in the engines' legal move lists (reference and bitboard), and for legal moves
//!   its result position and status equal the engines'.

use std::collections::BTreeSet;
use std::time::Instant;

use crate::common::{ordo_cmd as ordo, stdout};
use crate::common::{playout, playout_starts, pos, won};
use ordo_adjudicate::{
    adjudicate, candidate_moves, candidate_moves_limited, canonical_spelling, groups_after_capture,
    Verdict,
};
use ordo_bitboard::Bitboard;
use ordo_core::notation::{format_move, format_position, parse_move, parse_position};
use ordo_core::rules::{
    clauses, setup, Color, Dims, Engine, Move, Position, Square, Status, Step, Variant, WinReason,
};
use ordo_reference::Reference;
use proptest::prelude::*;
use quickcheck::{QuickCheck, TestResult};

const C: Variant = Variant::Classic;
const X: Variant = Variant::X;

fn mv(s: &str) -> Move {
    parse_move(s).unwrap_or_else(|e| panic!("{e}"))
}

fn sq(s: &str) -> Square {
    ordo_core::notation::parse_square(s).unwrap()
}

fn sqs(s: &str) -> Vec<Square> {
    s.split_whitespace().map(sq).collect()
}

/// The clause ids of the verdict on `m` (empty when legal).
fn ids(p: &Position, m: &str) -> Vec<&'static str> {
    adjudicate(p, &mv(m)).clause_ids()
}

/// The move must be illegal with exactly these clauses (in any order), every one of them a
/// clause of the registry with a non-empty detail.
#[track_caller]
fn assert_violates(p: &Position, m: &str, want: &[&str]) {
    let v = adjudicate(p, &mv(m));
    let Verdict::Illegal { violations } = &v else {
        panic!(
            "{m} in {}: expected illegal {want:?}, got {v:?}",
            format_position(p)
        );
    };
    let mut got: Vec<&str> = v.clause_ids();
    got.sort();
    let mut want: Vec<&str> = want.to_vec();
    want.sort();
    assert_eq!(got, want, "{m} in {}: {violations:#?}", format_position(p));
    for x in violations {
        assert!(
            clauses::get(x.clause).is_some(),
            "{} not in the registry",
            x.clause
        );
        assert!(!x.detail.trim().is_empty());
    }
}

/// The move must be legal, permitted by (at least) these clauses.
#[track_caller]
fn assert_legal(p: &Position, m: &str, permits: &[&str]) -> ordo_adjudicate::Effects {
    let v = adjudicate(p, &mv(m));
    let Verdict::Legal {
        permits: got,
        effects,
    } = v
    else {
        panic!("{m} in {}: expected legal, got {v:#?}", format_position(p));
    };
    for c in permits {
        assert!(got.contains(c), "{m}: {c} not among the permits {got:?}");
    }
    for c in &got {
        assert!(clauses::get(c).is_some(), "{c} not in the registry");
    }
    *effects
}

fn start(v: Variant) -> Position {
    setup::standard(v)
}

// ------------------------------------------------------------------------------------------
// Hand-written: the game is over, the board, the pieces, the displacement
// ------------------------------------------------------------------------------------------

/// ORDO-10.5 (with ORDO-10.1): White stands on Black's home row, so Black has no legal move,
/// not even one that is otherwise fine.
#[test]
fn ordo_10_5_no_move_after_a_home_row_win() {
    let p = pos(C, 4, 4, 'b', "a3 a4", "d3 c3");
    assert_violates(&p, "d3-d2", &["ORDO-10.5"]);
    let v = adjudicate(&p, &mv("d3-d2"));
    assert!(v.violations()[0].detail.contains("a4"), "{v:?}");
}

/// ORDO-10.5 (with ORDO-10.2): the side to move has no piece left.
#[test]
fn ordo_10_5_no_move_without_pieces() {
    let p = pos(C, 4, 4, 'b', "a1 a2", "");
    let got = ids(&p, "a1-a3");
    assert_eq!(got[0], "ORDO-10.5", "{got:?}");
}

/// ORDO-1.5: squares off the 10 x 8 board; nothing else is judged about such a step.
#[test]
fn ordo_1_5_squares_off_the_board() {
    let p = start(C);
    assert_violates(&p, "e2-e9", &["ORDO-1.5"]);
    assert_violates(&p, "k2-k3", &["ORDO-1.5"]);
    assert_violates(&p, "a2:a9-a3", &["ORDO-1.5"]);
    // An ordo whose named squares are on the board but that carries a piece off it.
    let off = pos(X, 5, 5, 'w', "d2 e2", "a5");
    assert_violates(&off, "d2:e2-e3", &["ORDO-1.5"]);
    let off = pos(C, 5, 5, 'w', "d2 e2", "a5");
    assert_violates(&off, "d2:e2-e3", &["ORDO-1.5", "ORDO-8.2"]);
    // A kept group named off the board.
    let t = pos(X, 5, 5, 'w', "b3 c3", "a4 b4 c4 d4 e4");
    assert_violates(&t, "c3xc4/p9", &["ORDO-1.5"]);
}

/// ORDO-6.1: a singleton move starts on a piece of the side to move.
#[test]
fn ordo_6_1_origin_must_hold_own_piece() {
    let p = start(C);
    assert_violates(&p, "e4-e5", &["ORDO-6.1"]);
    assert_violates(&p, "e7-e6", &["ORDO-6.1"]);
    let v = adjudicate(&p, &mv("e7-e6"));
    assert!(v.violations()[0].detail.contains("Black"), "{v:?}");
}

/// ORDO-5.1: an ordo is two or more own pieces on consecutive squares of one row or column;
/// a diagonal line is no ordo.
#[test]
fn ordo_5_1_what_an_ordo_is() {
    let p = start(C);
    assert_violates(&p, "a2:b3-a3", &["ORDO-5.1"]); // a diagonal
    assert_violates(&p, "a2:c3-a3", &["ORDO-5.1"]); // not a line at all
    assert_violates(&p, "a2:a2-a3", &["ORDO-5.1"]); // one square
    assert_violates(&p, "a3:e3-a4", &["ORDO-5.1"]); // c3, d3 empty
    let v = adjudicate(&p, &mv("a3:e3-a4"));
    assert!(v.violations()[0].detail.contains("c3 d3"), "{v:?}");
    // A run through an opponent piece.
    let q = pos(C, 5, 5, 'w', "a2 c2", "b2 e5");
    assert_violates(&q, "a2:c2-a3", &["ORDO-5.1"]);
}

/// ORDO-1.4, ORDO-6.1, ORDO-7.1: a step moves one or more squares along a straight line.
#[test]
fn ordo_1_4_straight_lines_only() {
    let p = start(C);
    assert_violates(&p, "e3-f5", &["ORDO-1.4", "ORDO-6.1"]);
    assert_violates(&p, "e3-e3", &["ORDO-6.1"]);
    assert_violates(&p, "c2:d2-c2", &["ORDO-7.1"]);
    assert_violates(&p, "c2:d2-d4", &["ORDO-1.4", "ORDO-7.1"]);
}

// ------------------------------------------------------------------------------------------
// Hand-written: directions
// ------------------------------------------------------------------------------------------

/// ORDO-8.1, ORDO-9.2: a connected classic player's singleton may not go backward.
#[test]
fn ordo_8_1_and_9_2_no_backward_singleton_while_connected() {
    let p = pos(C, 5, 5, 'w', "b2 b3 c3", "e5");
    assert_violates(&p, "c3-c2", &["ORDO-8.1", "ORDO-9.2"]);
    assert_violates(&p, "c3-d2", &["ORDO-8.1", "ORDO-9.2", "ORDO-4.3"]);
    assert_legal(&p, "c3-c4", &["ORDO-6.1", "ORDO-8.1", "ORDO-4.3"]);
}

/// ORDO-9.2, ORDO-9.1: a split classic player may move a singleton backward to reconnect.
#[test]
fn ordo_9_2_backward_singleton_when_split() {
    let p = pos(C, 5, 5, 'w', "b3 d1", "e5");
    assert_legal(&p, "b3-c2", &["ORDO-9.2", "ORDO-9.1"]);
    // ORDO-9.1: a split player's move that does not reconnect.
    assert_violates(&p, "b3-b4", &["ORDO-9.1"]);
}

/// ORDO-8.2: a classic horizontal ordo moves only forward, a vertical one only sideways; never
/// diagonally, never in single file.
#[test]
fn ordo_8_2_classic_ordo_directions() {
    let h = pos(C, 5, 5, 'w', "b2 c2", "e5");
    assert_legal(&h, "b2:c2-b3", &["ORDO-5.1", "ORDO-7.1", "ORDO-8.2"]);
    assert_violates(&h, "b2:c2-c2", &["ORDO-8.2"]); // single file
    assert_violates(&h, "b2:c2-c3", &["ORDO-8.2"]); // diagonal
    assert_violates(&h, "b2:c2-b1", &["ORDO-8.2", "ORDO-9.2"]); // backward, not split
    let v = pos(C, 5, 5, 'w', "b2 b3", "e5");
    assert_legal(&v, "b2:b3-c2", &["ORDO-8.2"]);
    assert_violates(&v, "b2:b3-b3", &["ORDO-8.2"]); // single file forward
    assert_violates(&v, "b2:b3-c3", &["ORDO-8.2"]); // diagonal
}

/// ORDO-9.2: a split classic player may move a horizontal ordo backward, side by side; a
/// vertical ordo gains no backward move.
#[test]
fn ordo_9_2_backward_horizontal_ordo_when_split() {
    let p = pos(C, 5, 5, 'w', "b3 c3 d1", "e5");
    assert_legal(&p, "b3:c3-b2", &["ORDO-9.2", "ORDO-9.1"]);
    assert_legal(&p, "c3:b3-c2", &["ORDO-9.2"]); // ends in the other order
    let q = pos(C, 5, 5, 'w', "b3 b4 d1", "e5");
    assert_violates(&q, "b3:b4-b2", &["ORDO-8.2", "ORDO-9.1"]);
}

/// ORDOX-1.2, ORDOX-2.1, ORDOX-2.2: in Ordo X nothing moves backward, not even when split.
#[test]
fn ordox_1_2_never_backward() {
    let p = pos(X, 5, 5, 'w', "b2 b3 c3", "e5");
    assert_violates(&p, "c3-c2", &["ORDOX-1.2", "ORDOX-2.1"]);
    assert_violates(&p, "b3:c3-b2", &["ORDOX-1.2", "ORDOX-2.2", "ORDO-7.3"]);
    let split = pos(X, 5, 5, 'w', "b3 d1", "e5");
    assert_violates(&split, "b3-c2", &["ORDOX-1.2", "ORDOX-2.1"]);
}

/// ORDOX-2.2, ORDOX-2.3: in Ordo X an ordo moves forward, diagonally forward or sideways,
/// side by side or in single file, entering the squares it vacates.
#[test]
fn ordox_2_2_ordo_directions_and_single_file() {
    let p = start(X);
    assert_legal(&p, "a2:a3-a3", &["ORDOX-2.2", "ORDOX-2.3", "ORDOX-3.1"]);
    let v = pos(X, 5, 5, 'w', "a1 a2", "e5");
    assert_legal(&v, "a1:a2-b2", &["ORDOX-2.2"]);
    assert_legal(&v, "a1:a2-a3", &["ORDOX-2.3"]);
    assert_legal(&v, "a1:a2-b1,b1:b2-b2", &["ORDOX-3.1", "ORDOX-3.2"]);
}

// ------------------------------------------------------------------------------------------
// Hand-written: paths and captures
// ------------------------------------------------------------------------------------------

/// ORDO-6.3: a singleton never passes over a piece and never lands on its own piece.
#[test]
fn ordo_6_3_singleton_path() {
    let p = start(C);
    assert_violates(&p, "e2-e4", &["ORDO-6.3"]);
    assert_violates(&p, "e2-e3", &["ORDO-6.3"]);
    let q = pos(C, 5, 5, 'w', "a1 a2 b2 b3", "a3 e5");
    assert_violates(&q, "a2-a4", &["ORDO-6.3"]); // over Black's a3
}

/// ORDO-6.4: the capture flag must agree with the landing square.
#[test]
fn ordo_6_4_capture_flag() {
    let p = pos(C, 5, 5, 'w', "b3 c3", "c4 e5");
    assert_violates(&p, "c3-c4", &["ORDO-6.4"]);
    let v = adjudicate(&p, &mv("c3-c4"));
    assert!(v.violations()[0].detail.contains("c3xc4"), "{v:?}");
    assert_violates(&p, "b3xb4", &["ORDO-6.4"]);
    let v = adjudicate(&p, &mv("b3xb4"));
    assert!(v.violations()[0].detail.contains("empty"), "{v:?}");
    let e = assert_legal(
        &p,
        "c3xc4",
        &["ORDO-6.1", "ORDO-8.1", "ORDO-6.4", "ORDO-4.3"],
    );
    assert_eq!(e.captured, vec![sq("c4")]);
}

/// ORDO-7.2, ORDO-7.3: an ordo never captures and moves only over and onto empty squares.
#[test]
fn ordo_7_2_and_7_3_ordo_path() {
    let p = pos(C, 5, 5, 'w', "b2 c2", "c3 e5");
    assert_violates(&p, "b2:c2-b3", &["ORDO-7.2"]);
    assert_violates(&p, "b2:c2-b4", &["ORDO-7.3"]);
    let q = pos(C, 5, 5, 'w', "b2 c2 b3", "e5");
    assert_violates(&q, "b2:c2-b3", &["ORDO-7.3"]); // own piece on b3
                                                    // Classic Ordo has no single-file exception: the direction is what is wrong.
    let r = pos(C, 5, 5, 'w', "a1 a2", "e5");
    assert_violates(&r, "a1:a2-a2", &["ORDO-8.2"]);
}

/// ORDO-7.3, ORDOX-2.3: in Ordo X the single file may enter only squares its own pieces leave.
#[test]
fn ordox_2_3_single_file_is_blocked_by_other_pieces() {
    let p = pos(X, 5, 5, 'w', "a1 a2", "a4 e5");
    assert_legal(&p, "a1:a2-a2", &["ORDOX-2.3"]);
    assert_violates(&p, "a1:a2-a3", &["ORDO-7.2"]); // a2 would land on a4
    let q = pos(X, 5, 5, 'w', "a1 a2", "a3 e5");
    assert_violates(&q, "a1:a2-a4", &["ORDO-7.3"]); // passes a3
}

// ------------------------------------------------------------------------------------------
// Hand-written: connection
// ------------------------------------------------------------------------------------------

/// ORDO-4.3: the mover is one group after the move.
#[test]
fn ordo_4_3_connection_rule() {
    let p = pos(C, 5, 5, 'w', "a1 b1", "e5");
    assert_violates(&p, "a1-a3", &["ORDO-4.3"]);
    let v = adjudicate(&p, &mv("a1-a3"));
    assert!(v.violations()[0].detail.contains("{a3}"), "{v:?}");
    assert_legal(&p, "a1-a2", &["ORDO-4.3"]);
}

/// ORDOX-3.2: in Ordo X the mover is one group after each step, also after the first step of a
/// turn whose second step would reconnect.
#[test]
fn ordox_3_2_connection_after_each_step() {
    let p = pos(X, 5, 5, 'w', "a1 b1", "e5");
    assert_violates(&p, "b1-d1,a1-b2", &["ORDOX-3.2"]);
    assert_violates(&p, "b1-c1,c1-c3", &["ORDOX-3.2"]);
    assert_violates(&p, "a1-a3", &["ORDOX-3.2"]);
    assert_legal(&p, "a1:b1-b1,b1:c1-b2", &["ORDOX-3.1", "ORDOX-3.2"]);
}

// ------------------------------------------------------------------------------------------
// Hand-written: the Ordo X turn
// ------------------------------------------------------------------------------------------

/// ORDOX-3.1: a one-step turn goes forward or diagonally forward; a sideways step must be
/// followed by a forward step; a forward step never begins a two-step turn; never two
/// sideways steps.
#[test]
fn ordox_3_1_turn_structure() {
    let p = pos(X, 5, 5, 'w', "c2", "e5");
    assert_legal(&p, "c2-c3", &["ORDOX-3.1", "ORDOX-2.1"]);
    assert_legal(&p, "c2-b2,b2-a3", &["ORDOX-3.1"]);
    assert_violates(&p, "c2-b2", &["ORDOX-3.1"]);
    assert_violates(&p, "c2-c3,c3-c4", &["ORDOX-3.1"]);
    assert_violates(&p, "c2-b2,b2-a2", &["ORDOX-3.1"]);
    // A forward first step and a sideways second one: two faults of ORDOX-3.1.
    let v = adjudicate(&p, &mv("c2-c3,c3-d3"));
    assert_eq!(v.clause_ids(), ["ORDOX-3.1"]);
    assert_eq!(v.violations().len(), 2, "{v:#?}");
}

/// ORDOX-3.4: a sideways step that captures the opponent's last piece is a whole turn and wins;
/// a second step after it is illegal.
#[test]
fn ordox_3_4_winning_sideways_step() {
    let p = pos(X, 5, 5, 'w', "c2", "d2");
    let e = assert_legal(&p, "c2xd2", &["ORDOX-3.4", "ORDO-6.4", "ORDO-10.2"]);
    assert_eq!(e.status, won(Color::White, WinReason::NoPieces));
    assert_violates(&p, "c2xd2,d2-d3", &["ORDOX-3.4"]);
}

/// ORDO-3.1: a classic move is a single step (two-step turns belong to Ordo X, ORDOX-3.1).
#[test]
fn ordo_3_1_classic_moves_are_one_step() {
    let p = pos(C, 5, 5, 'w', "c2", "e5");
    assert_violates(&p, "c2-b2,b2-b3", &["ORDO-3.1"]);
    assert_legal(&p, "c2-b2", &["ORDO-8.1"]);
}

// ------------------------------------------------------------------------------------------
// Hand-written: removal and tie choices
// ------------------------------------------------------------------------------------------

/// ORDOX-4.1, ORDOX-4.2: a capture that splits the opponent into two tied largest groups must
/// name the one that stays, by any of its squares.
#[test]
fn ordox_4_2_tie_choice() {
    let p = pos(X, 5, 5, 'w', "b3 c3", "a4 b4 c4 d4 e4");
    assert_violates(&p, "c3xc4", &["ORDOX-4.2"]);
    let e = assert_legal(&p, "c3xc4/a4", &["ORDOX-4.1", "ORDOX-4.2", "ORDO-6.4"]);
    assert_eq!(e.captured, sqs("c4"));
    assert_eq!(e.removed, sqs("d4 e4"));
    assert!(e.splits_opponent);
    assert_eq!(e.result.pieces(Color::Black), sqs("a4 b4"));
    assert_eq!(e.result.to_move, Color::Black);
    // Any square of the kept group names it; the canonical spelling uses its lowest square.
    let b = assert_legal(&p, "c3xc4/b4", &["ORDOX-4.2"]);
    assert_eq!(b.result, e.result);
    assert_eq!(
        canonical_spelling(&p, &mv("c3xc4/b4")).map(|m| format_move(&m)),
        Some("c3xc4/a4".to_string())
    );
    let d = assert_legal(&p, "c3xc4/e4", &[]);
    assert_eq!(d.removed, sqs("a4 b4"));
    // A square of no opponent group, or of a smaller group.
    assert_violates(&p, "c3xc4/c3", &["ORDOX-4.2"]);
    let q = pos(X, 5, 5, 'w', "b3 c3", "a4 b4 c4 d4 e4 e2");
    assert_violates(&q, "c3xc4/e2", &["ORDOX-4.2"]);
    let e = assert_legal(&q, "c3xc4/d4", &["ORDOX-4.2"]);
    assert_eq!(e.removed, sqs("e2 a4 b4"));
}

/// ORDOX-4.1, ORDOX-4.2: without a tie the largest group stays by rule; naming a kept group
/// is a violation, and so is naming one when the capture does not split the opponent.
#[test]
fn ordox_4_1_removal_without_tie() {
    let p = pos(X, 5, 5, 'w', "b3 c3", "a4 b4 c4 d4 e4 e5");
    let e = assert_legal(&p, "c3xc4", &["ORDOX-4.1", "ORDO-6.4"]);
    assert_eq!(e.captured, sqs("c4"));
    assert_eq!(e.removed, sqs("a4 b4"));
    assert!(e.splits_opponent);
    assert_eq!(e.result.pieces(Color::Black), sqs("d4 e4 e5"));
    assert_violates(&p, "c3xc4/d4", &["ORDOX-4.2"]);
    let whole = pos(X, 5, 5, 'w', "b3 c3", "b4 c4 c5");
    let e = assert_legal(&whole, "c3xc4", &["ORDO-6.4"]);
    assert!(!e.splits_opponent && e.removed.is_empty());
    assert_violates(&whole, "c3xc4/b4", &["ORDOX-4.2"]);
}

/// ORDO-9.3: a classic capture removes only the captured piece, split or not, and names no kept
/// group.
#[test]
fn ordo_9_3_no_removal_in_classic() {
    let p = pos(C, 5, 5, 'w', "b3 c3", "a4 b4 c4 d4 e4");
    let e = assert_legal(&p, "c3xc4", &["ORDO-9.3", "ORDO-6.4"]);
    assert!(e.splits_opponent);
    assert!(e.removed.is_empty());
    assert_eq!(e.result.pieces(Color::Black), sqs("a4 b4 d4 e4"));
    assert_violates(&p, "c3xc4/a4", &["ORDO-9.3"]);
}

// ------------------------------------------------------------------------------------------
// Hand-written: several faults, wins
// ------------------------------------------------------------------------------------------

/// ORDO-8.2, ORDO-9.2, ORDO-7.2, ORDO-4.3: an ordo that goes backward, lands on an opponent
/// piece and leaves the mover split breaks four clauses, all reported.
#[test]
fn several_independent_faults_are_all_reported() {
    let p = pos(C, 5, 5, 'w', "b3 c3 b4", "c2 e5");
    assert_violates(
        &p,
        "b3:c3-b2",
        &["ORDO-8.2", "ORDO-9.2", "ORDO-7.2", "ORDO-4.3"],
    );
    // ORDOX-1.2, ORDOX-2.1, ORDO-6.3, ORDOX-3.2 for a singleton in Ordo X that goes
    // backward over a piece and leaves the mover split.
    let q = pos(X, 5, 5, 'w', "a3 a4 b4 b2", "e5");
    assert_violates(&q, "a4-a2", &["ORDOX-1.2", "ORDOX-2.1", "ORDO-6.3"]);
    // An empty origin and an off-board keep.
    assert_violates(&start(X), "e5xe6/p8", &["ORDO-1.5", "ORDO-6.1"]);
}

/// ORDO-10.1: reaching the opponent's home row wins at once.
#[test]
fn ordo_10_1_home_row_win() {
    let p = pos(C, 5, 5, 'w', "b4 c4", "e3");
    let e = assert_legal(&p, "c4-c5", &["ORDO-10.1"]);
    assert_eq!(e.status, won(Color::White, WinReason::HomeRow));
}

/// ORDO-10.2: capturing the opponent's last piece wins (classic and Ordo X).
#[test]
fn ordo_10_2_last_piece_win() {
    for v in [C, X] {
        let p = pos(v, 5, 5, 'w', "b3 c3", "c4");
        let e = assert_legal(&p, "c3xc4", &["ORDO-10.2", "ORDO-6.4"]);
        assert_eq!(e.status, won(Color::White, WinReason::NoPieces));
        assert_eq!(e.result.count(Color::Black), 0);
    }
}

/// ORDO-10.3, ORDO-9.3: a classic capture that splits the opponent beyond repair wins at once:
/// Black, split at the start of its turn on this 5 x 3 board, has no move that reconnects.
#[test]
fn ordo_10_3_cannot_reconnect() {
    let p = parse_position("5/BBBBB/2WW1 w classic").unwrap();
    let e = assert_legal(&p, "c1xc2", &["ORDO-6.4", "ORDO-9.3", "ORDO-10.3"]);
    assert!(e.splits_opponent);
    assert_eq!(e.result.pieces(Color::Black), sqs("a2 b2 d2 e2"));
    assert_eq!(e.status, won(Color::White, WinReason::CannotReconnect));
    // In Ordo X the same capture removes a group instead (ORDOX-4.1, ORDOX-4.2: a tie).
    let x = parse_position("5/BBBBB/2WW1 w x").unwrap();
    assert_violates(&x, "c1xc2", &["ORDOX-4.2"]);
    let e = assert_legal(&x, "c1xc2/e2", &["ORDOX-4.1", "ORDOX-4.2"]);
    assert_eq!(e.removed, sqs("a2 b2"));
    assert_eq!(e.status, Status::Ongoing);
}

// ------------------------------------------------------------------------------------------
// `ordo explain`
// ------------------------------------------------------------------------------------------

/// A legal move: exit status 0, its effects, permits, result and status.
#[test]
fn explain_legal_move_exits_0() {
    let o = ordo(&["explain", "--move", "e3-e4"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("verdict: legal"), "{out}");
    assert!(out.contains("ORDO-6.1 Singleton moves"), "{out}");
    assert!(out.contains("e3->e4"), "{out}");
    assert!(
        out.contains(
            "result: 2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/4W5/WW3W2WW/WWWWWWWWWW/2WW2WW2 b classic"
        ),
        "{out}"
    );
    assert!(out.contains("status: ongoing"), "{out}");
}

/// ORDOX-4.2 through the command line: removal, tie, canonical spelling.
#[test]
fn explain_ordo_x_removal() {
    let o = ordo(&["explain", "-p", "5/BBBBB/1WW2/5/5 w x", "-m", "c3xc4/b4"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("removes: d4 e4"), "{out}");
    assert!(out.contains("splits Black: yes"), "{out}");
    assert!(out.contains("canonical spelling: c3xc4/a4"), "{out}");
    assert!(out.contains("ORDOX-4.2 Ties for largest"), "{out}");
}

/// An illegal move: exit status 1, every clause with its detail, text and sources.
#[test]
fn explain_illegal_move_exits_1() {
    let o = ordo(&[
        "explain",
        "-p",
        "5/5/1WW2/BWW2/5 w classic",
        "-m",
        "b3:c3-b2",
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("verdict: illegal"), "{out}");
    for c in ["ORDO-8.2", "ORDO-9.2", "ORDO-7.3"] {
        let clause = clauses::get(c).unwrap();
        // Each heading once, with the clause's kind.
        let heading = format!("{} {} [{}]", clause.id, clause.title, clause.kind.name());
        assert_eq!(out.matches(&heading).count(), 1, "{c}: {out}");
        assert_eq!(
            out.matches(&format!("{} {}", clause.id, clause.title))
                .count(),
            1
        );
        assert!(
            out.contains(&clause.citations()[0].to_string()),
            "{c}: {out}"
        );
    }
    // Squares off the board are a rule violation (ORDO-1.5), not a notation error.
    let o = ordo(&["explain", "-m", "e2-e9"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("ORDO-1.5"));
}

/// ORDO-10.5 through the command line: a finished game is a position that can be given, and
/// every move in it is illegal (exit status 1).
#[test]
fn explain_finished_game_exits_1() {
    let o = ordo(&["explain", "-p", "2/WW b classic", "-m", "a1-a2"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("ORDO-10.5"), "{}", stdout(&o));
}

/// Notation errors (position or move) exit with status 2 and one line on stderr.
#[test]
fn explain_notation_errors_exit_2() {
    for args in [
        vec!["explain", "-m", "e2-q4"],
        vec!["explain", "-m", "a2:b2xa3"],
        vec!["explain", "-m", ""],
        vec!["explain", "-p", "WB/2B w classic", "-m", "a2-a3"],
        vec!["explain", "-p", "WB/2 b Classic", "-m", "a2-a3"],
        vec!["explain"],
        // ORDO-2.3: a position that cannot be set up is bad input too.
        vec!["explain", "-p", "2/WW w classic", "-m", "a1-a2"],
    ] {
        let o = ordo(&args);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// `--svg` writes the diagram file.
#[test]
fn explain_writes_svg() {
    let dir = crate::common::scratch("explain-svg");
    for (m, code) in [("e3-e4", 0), ("e3-e5", 1)] {
        let path = dir.join(format!("{m}.svg"));
        let o = ordo(&["explain", "-m", m, "--svg", path.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(code), "{}", stdout(&o));
        assert!(path.exists(), "{} not written", path.display());
        let text = std::fs::read_to_string(&path).unwrap();
        if !text.is_empty() {
            assert!(text.contains("<svg"), "{text}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

// ------------------------------------------------------------------------------------------
// Properties: the adjudicator against the engines
// ------------------------------------------------------------------------------------------

/// How much to check in one position.
#[derive(Clone, Copy, Debug)]
struct Budget {
    /// Two-step candidates (Ordo X); the full space if it is no larger.
    max_two_step: usize,
    /// Legal moves whose effects and status are compared with the engine.
    effects: usize,
}

/// The budget for engine `E` in `p`: the whole candidate space on boards up to 16 squares;
/// bounded two-step samples beyond. The reference engine's status after a move costs a full
/// move generation (about 0.2 s on the 10 x 8 Ordo X board), so it compares fewer effects there
/// than the bitboard engine.
fn budget_for<E: Engine>(p: &Position) -> Budget {
    let n = p.dims().len();
    let slow = E::NAME == "reference" && p.variant == X;
    if n <= 16 {
        Budget {
            max_two_step: usize::MAX,
            effects: usize::MAX,
        }
    } else if n <= 36 {
        Budget {
            max_two_step: 2000,
            effects: if slow { 12 } else { 60 },
        }
    } else {
        Budget {
            max_two_step: 1500,
            effects: if slow { 2 } else { 40 },
        }
    }
}

fn has_keep(m: &Move) -> bool {
    m.steps()
        .any(|s| matches!(s, Step::Single { keep: Some(_), .. }))
}

/// The same one-step capture naming another square as the kept group.
fn with_keep(m: &Move, k: Square) -> Move {
    match m.first {
        Step::Single {
            from, to, capture, ..
        } => Move::single(Step::Single {
            from,
            to,
            capture,
            keep: Some(k),
        }),
        _ => *m,
    }
}

/// Counts from one position.
#[derive(Default, Debug, Clone, Copy)]
struct Tally {
    candidates: usize,
    legal: usize,
}

/// For every candidate move in `p` (bounded), the adjudicator's verdict equals membership in
/// `E`'s legal moves; legal verdicts carry `E`'s result position and status (a sample of them
/// on large boards); every engine move is found legal by the adjudicator.
fn agree<E: Engine>(p: &Position, budget: Budget) -> Result<Tally, String> {
    let e = E::from_position(p).map_err(|err| err.to_string())?;
    let fen = format_position(p);
    let legal_moves = e.legal_moves();
    let legal: BTreeSet<String> = legal_moves.iter().map(format_move).collect();
    let opponent = p.to_move.opponent();
    // `Engine::resolve` on the list computed once: a kept group (ORDOX-4.2) may be named by
    // any of its squares, and only by one of them.
    let resolve = |m: &Move| -> Option<Move> {
        let want = m.canonical(p.dims());
        if legal.contains(&format_move(&want)) {
            return Some(want);
        }
        if !has_keep(&want) || want.second.is_some() {
            return None;
        }
        let Step::Single { keep: Some(k), .. } = want.first else {
            return None;
        };
        legal_moves
            .iter()
            .find(|l| {
                l.second.is_none()
                    && has_keep(l)
                    && with_keep(l, k) == want
                    && p.dims().contains(k)
                    && e.apply(l).to_position().get(k) == Some(opponent)
            })
            .copied()
    };
    let cands = candidate_moves_limited(p, budget.max_two_step);
    let mut tally = Tally::default();
    let mut found: BTreeSet<String> = BTreeSet::new();
    let mut effects_left = budget.effects;
    let stride = (legal.len() / budget.effects.max(1)).max(1);
    let mut legal_index = 0usize;
    let mut check =
        |m: &Move, tally: &mut Tally, found: &mut BTreeSet<String>| {
            tally.candidates += 1;
            let verdict = adjudicate(p, m);
            let resolved = resolve(m);
            if verdict.is_legal() != resolved.is_some() {
                return Err(format!(
                "{} engine: position '{fen}' move '{}': engine says {}, adjudicator {verdict:#?}",
                E::NAME,
                format_move(m),
                if resolved.is_some() { "legal" } else { "illegal" },
            ));
            }
            match (&verdict, resolved) {
                (Verdict::Illegal { violations }, _) => {
                    for v in violations {
                        if clauses::get(v.clause).is_none() {
                            return Err(format!(
                                "unknown clause {} for {}",
                                v.clause,
                                format_move(m)
                            ));
                        }
                    }
                }
                (Verdict::Legal { effects, .. }, Some(r)) => {
                    tally.legal += 1;
                    found.insert(format_move(&r));
                    let canon = canonical_spelling(p, m);
                    if canon != Some(r) {
                        return Err(format!(
                            "position '{fen}' move '{}': canonical spelling {canon:?}, engine {}",
                            format_move(m),
                            format_move(&r)
                        ));
                    }
                    legal_index += 1;
                    if effects_left > 0 && legal_index % stride == 0 {
                        effects_left -= 1;
                        let after = e.apply(&r);
                        if effects.result != after.to_position() {
                            return Err(format!(
                                "{} engine: position '{fen}' move '{}': result '{}', engine '{}'",
                                E::NAME,
                                format_move(m),
                                format_position(&effects.result),
                                format_position(&after.to_position())
                            ));
                        }
                        if effects.status != after.status() {
                            return Err(format!(
                                "{} engine: position '{fen}' move '{}': status {}, engine {}",
                                E::NAME,
                                format_move(m),
                                effects.status,
                                after.status()
                            ));
                        }
                    }
                }
                (Verdict::Legal { .. }, None) => unreachable!(),
            }
            Ok(())
        };
    for m in &cands {
        check(m, &mut tally, &mut found)?;
        // ORDOX-4.2: a kept group may be named by any of its squares, and only by one of them.
        if has_keep(m) && m.second.is_none() {
            if let Some(gs) = groups_after_capture(p, &m.first) {
                for g in &gs {
                    for &k in g.iter().skip(1) {
                        check(&with_keep(m, k), &mut tally, &mut found)?;
                    }
                }
                check(&with_keep(m, m.first.origin()), &mut tally, &mut found)?;
            }
        }
    }
    // The candidate space is complete unless the two-step moves were sampled.
    let full = budget.max_two_step == usize::MAX || p.variant == C;
    for m in &legal {
        if !found.contains(m) {
            if full {
                return Err(format!(
                    "position '{fen}': engine move '{m}' is not in the candidate space"
                ));
            }
            // Outside the sampled two-step candidates: judge it directly.
            let mm = parse_move(m).unwrap();
            if !adjudicate(p, &mm).is_legal() {
                return Err(format!(
                    "{} engine: position '{fen}' move '{m}' is legal, adjudicator says {:#?}",
                    E::NAME,
                    adjudicate(p, &mm)
                ));
            }
        }
    }
    Ok(tally)
}

/// Both engines.
fn agree_both(p: &Position) -> Result<Tally, String> {
    let t = agree::<Reference>(p, budget_for::<Reference>(p))?;
    agree::<Bitboard>(p, budget_for::<Bitboard>(p))?;
    // ADJ_TALLY=1 (with --nocapture) prints the counts of every position checked.
    if std::env::var_os("ADJ_TALLY").is_some() {
        eprintln!("TALLY {} {} {}", t.candidates, t.legal, p.dims().len());
    }
    Ok(t)
}

/// The last position of a playout from start `start % n` of `starts` with these choices. On the
/// small boards the playout runs on the reference engine. On the 8 x 8 and 10 x 8 boards it
/// runs on the bitboard engine, which picks the same moves (both list the same legal moves,
/// sorted by notation, as tests/differential.rs checks), because a reference move generation
/// there takes up to 0.2 s per ply; the position is then checked against both engines anyway.
fn playout_end(starts: &[Position], start: usize, choices: &[u32]) -> Position {
    let s = &starts[start % starts.len()];
    if s.dims().len() <= 36 {
        playout::<Reference>(s, choices)
            .last()
            .unwrap()
            .to_position()
    } else {
        playout::<Bitboard>(s, choices)
            .last()
            .unwrap()
            .to_position()
    }
}

fn small_starts() -> Vec<Position> {
    playout_starts()
        .into_iter()
        .filter(|p| p.dims().len() <= 36)
        .collect()
}

fn large_starts() -> Vec<Position> {
    playout_starts()
        .into_iter()
        .filter(|p| p.dims().len() > 36)
        .collect()
}

/// Every playout start (the standard 10 x 8 start, 8 x 8, 3 x 3 .. 6 x 6 in both variants),
/// two-step candidates bounded on the large boards.
#[test]
fn every_playout_start_agrees_with_the_engines() {
    let t0 = Instant::now();
    let mut total = Tally::default();
    for p in playout_starts() {
        let t = agree_both(&p).unwrap_or_else(|e| panic!("{e}"));
        total.candidates += t.candidates;
        total.legal += t.legal;
    }
    eprintln!("playout starts: {total:?} in {:.2?}", t0.elapsed());
}

/// The full candidate space, two-step moves included, on small Ordo X boards, and its size.
#[test]
fn small_boards_full_candidate_space() {
    let t0 = Instant::now();
    let mut n = 0;
    for (cols, rows) in [(3, 3), (3, 4), (4, 3), (4, 4)] {
        let dims = Dims::new(cols, rows).unwrap();
        for v in [C, X] {
            let p = setup::filled_rows(dims, 1, v).unwrap();
            let all = candidate_moves(&p);
            n += all.len();
            agree_both(&p).unwrap_or_else(|e| panic!("{e}"));
        }
    }
    eprintln!("small boards: {n} candidates in {:.2?}", t0.elapsed());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random reachable positions on the small boards 3 x 3 .. 6 x 6, both games, where games
    /// end often, so that won positions (ORDO-10.5), splits and removals are covered.
    #[test]
    fn proptest_small_boards(
        start in 0usize..1000,
        choices in prop::collection::vec(any::<u32>(), 0..60),
    ) {
        let p = playout_end(&small_starts(), start, &choices);
        let r = agree_both(&p);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random reachable positions on the 10 x 8 and 8 x 8 boards, both games, two-step
    /// candidates bounded.
    #[test]
    fn proptest_large_boards(
        start in 0usize..1000,
        choices in prop::collection::vec(any::<u32>(), 0..60),
    ) {
        let p = playout_end(&large_starts(), start, &choices);
        let r = agree_both(&p);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

/// A set-up position (ORDO-2.3) on a board of up to 6 x 6 from a list of cell codes: 0 and 1 a
/// white piece, 2 and 3 a black one, anything else empty. Made valid: the side to move loses
/// its pieces on its opponent's home row, and a last mover without pieces gets one on the first
/// empty square.
fn set_up(cols: usize, rows: usize, cells: &[u8], black: bool, x: bool) -> Position {
    let dims = Dims::new(cols, rows).unwrap();
    let side = if black { Color::Black } else { Color::White };
    let mut p = Position::empty(dims, side, if x { X } else { C });
    for (s, &c) in dims.squares().zip(cells) {
        match c {
            0 | 1 => p.set(s, Some(Color::White)),
            2 | 3 => p.set(s, Some(Color::Black)),
            _ => {}
        }
    }
    let target = side.opponent().home_row(dims);
    for s in dims.squares().filter(|s| s.row == target) {
        if p.get(s) == Some(side) {
            p.set(s, None);
        }
    }
    if p.count(side.opponent()) == 0 {
        let free = dims.squares().find(|&s| p.get(s).is_none()).unwrap();
        p.set(free, Some(side.opponent()));
    }
    p
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// Random set-up positions (ORDO-2.3) on boards up to 6 x 6, both games: either side may be
    /// split at the start of its turn (ORDO-9.1, ORDO-9.2, ORDOX-3.5), the opponent may be split
    /// before a capture (ORDOX-4.1), and games may already be decided (ORDO-10.5).
    #[test]
    fn proptest_set_up_positions(
        cols in 2usize..=6,
        rows in 2usize..=6,
        cells in prop::collection::vec(0u8..10, 36),
        black in any::<bool>(),
        x in any::<bool>(),
    ) {
        let p = set_up(cols, rows, &cells, black, x);
        prop_assert!(p.validate().is_ok(), "{}", format_position(&p));
        let r = agree_both(&p);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

use crate::common::Playout;

/// The same property driven by quickcheck, on the 10 x 8 and 8 x 8 starts' playouts and the
/// small boards alike.
#[test]
fn quickcheck_reachable_positions() {
    fn prop(p: Playout) -> TestResult {
        let pos = playout_end(&playout_starts(), p.start, &p.choices);
        match agree_both(&pos) {
            Ok(_) => TestResult::passed(),
            Err(e) => TestResult::error(e),
        }
    }
    QuickCheck::new()
        .tests(48)
        .quickcheck(prop as fn(Playout) -> TestResult);
}

/// The adjudicator agrees with the text of spec/notation.md's examples: `e5xf5/g7,f5-f6`
/// style moves parse, and a position string round-trips through the result.
#[test]
fn results_are_positions_in_notation() {
    let p = start(X);
    let e = assert_legal(&p, "e3-d3,d3-c4", &["ORDOX-3.1"]);
    let text = format_position(&e.result);
    assert_eq!(parse_position(&text).unwrap(), e.result);
    assert_eq!(e.moved, vec![(sq("e3"), sq("d3")), (sq("d3"), sq("c4"))]);
}
