//! The adjudicator's hand-written tests, each naming the clauses it covers: every kind of
//! violation yields the right clause ids, a move with several independent faults lists all of
//! them, legal moves report the right effects and permitting clauses. (Its agreement with the
//! engines on random positions, and `ordo explain`, are tested in the workspace's
//! `tests/it/adjudicate.rs`.)

use ordo_adjudicate::{adjudicate, canonical_spelling, Verdict};
use ordo_clause_tests::helpers::{pos, won};
use ordo_core::notation::{format_move, format_position, parse_move, parse_position};
use ordo_core::rules::{
    clauses, setup, ClauseId, Color, Move, Position, Square, Status, Variant, WinReason,
};

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
fn ids(p: &Position, m: &str) -> Vec<ClauseId> {
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
    let mut got: Vec<String> = v.clause_ids().iter().map(ClauseId::to_string).collect();
    got.sort();
    let mut want: Vec<&str> = want.to_vec();
    want.sort();
    assert_eq!(got, want, "{m} in {}: {violations:#?}", format_position(p));
    for x in violations {
        assert!(
            clauses::get(&x.clause.to_string()).is_some(),
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
        assert!(
            got.iter().any(|g| g == c),
            "{m}: {c} not among the permits {got:?}"
        );
    }
    for c in &got {
        assert!(
            clauses::get(&c.to_string()).is_some(),
            "{c} not in the registry"
        );
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
