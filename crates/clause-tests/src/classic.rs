//! Hand-written tests of the classic Ordo clauses (`ORDO-…`), each naming the clause it covers.
//! Every test is generic over the engine and instantiated below for each engine.

use crate::helpers::{is_legal, load, move_set, play_line, pos, squares, won};
use ordo_core::notation::{format_move, parse_move};
use ordo_core::rules::{setup, Color, Engine, Heading, Square, Status, Step, Variant, WinReason};

const C: Variant = Variant::Classic;

fn set(moves: &[&str]) -> std::collections::BTreeSet<String> {
    moves.iter().map(|s| s.to_string()).collect()
}

/// ORDO-1.1, ORDO-2.1, ORDO-2.2, ORDO-3.1: the standard start is 10 x 8, 20 pieces each on the
/// squares of the setup figure, White to move.
pub fn ordo_1_1_and_2_2_standard_start<E: Engine>() {
    let e: E = load(&setup::standard(C));
    let p = e.to_position();
    assert_eq!((p.dims().cols, p.dims().rows), (10, 8));
    assert_eq!(e.side_to_move(), Color::White);
    assert_eq!(
        squares(&p, Color::White),
        "c1 d1 g1 h1 a2 b2 c2 d2 e2 f2 g2 h2 i2 j2 a3 b3 e3 f3 i3 j3"
    );
    assert_eq!(
        squares(&p, Color::Black),
        "a6 b6 e6 f6 i6 j6 a7 b7 c7 d7 e7 f7 g7 h7 i7 j7 c8 d8 g8 h8"
    );
}

/// ORDO-1.6: the 8 x 8 variant drops columns a and j of the standard setup: 16 pieces each.
pub fn ordo_1_6_chess_board_variant<E: Engine>() {
    let e: E = load(&setup::chess_board(C));
    let p = e.to_position();
    assert_eq!((p.dims().cols, p.dims().rows), (8, 8));
    assert_eq!(
        squares(&p, Color::White),
        "b1 c1 f1 g1 a2 b2 c2 d2 e2 f2 g2 h2 a3 d3 e3 h3"
    );
    assert_eq!(p.count(Color::Black), 16);
    assert!(!e.legal_moves().is_empty());
}

/// ORDO-1.2, ORDO-1.3, ORDO-1.4: a1 is White's left corner; forward is up the rows for White
/// and down for Black; White's home row is row 1 and Black's the last row.
pub fn ordo_1_2_coordinates_and_home_rows<E: Engine>() {
    let dims = ordo_core::rules::Dims::STANDARD;
    assert_eq!(Square::new(0, 0).to_string(), "a1");
    assert_eq!(Square::new(9, 7).to_string(), "j8");
    assert_eq!(Color::White.home_row(dims), 0);
    assert_eq!(Color::Black.home_row(dims), 7);
    let up = ordo_core::rules::Direction { dc: 0, dr: 1 };
    assert_eq!(up.heading(Color::White), Heading::Forward);
    assert_eq!(up.heading(Color::Black), Heading::Backward);
    // A lone black piece moves down the board: c4-c3 is forward for Black, c4-c5 is not.
    let e: E = load(&pos(C, 5, 5, 'b', "a1", "c4"));
    assert!(is_legal(&e, "c4-c3"));
    assert!(!is_legal(&e, "c4-c5"));
}

/// ORDO-1.5: boards from 2 x 2 to 16 x 8 (at most 128 squares) are accepted, others refused,
/// and the same rules run on them.
pub fn ordo_1_5_board_limits<E: Engine>() {
    use ordo_core::rules::Dims;
    assert!(Dims::new(2, 2).is_ok());
    assert!(Dims::new(16, 8).is_ok());
    assert!(Dims::new(8, 16).is_ok());
    assert!(Dims::new(1, 5).is_err());
    assert!(Dims::new(17, 2).is_err());
    assert!(Dims::new(12, 11).is_err());
    // On a 2 x 2 board White wins by stepping onto row 2.
    let e: E = load(&pos(C, 2, 2, 'w', "a1", "b2"));
    assert_eq!(move_set(&e), set(&["a1-a2", "a1-b1", "a1xb2"]));
    let after = play_line(&e, &["a1-a2"]);
    assert_eq!(after.status(), won(Color::White, WinReason::HomeRow));
}

/// ORDO-2.3: positions that describe a finished game are refused; split positions are not.
pub fn ordo_2_3_set_up_positions<E: Engine>() {
    // Black (not to move) has no piece.
    assert!(E::from_position(&pos(C, 4, 4, 'w', "a1", "")).is_err());
    // White to move already stands on Black's home row.
    assert!(E::from_position(&pos(C, 4, 4, 'w', "a4", "d4")).is_err());
    // The side to move may have no piece (the game is over) and may be split.
    assert!(E::from_position(&pos(C, 4, 4, 'w', "", "d4")).is_ok());
    assert!(E::from_position(&pos(C, 4, 4, 'w', "a1 c1", "d4")).is_ok());
}

/// ORDO-3.1, ORDO-3.2: turns alternate, and every legal move changes the board (there is no
/// pass).
pub fn ordo_3_1_turns_alternate_without_passing<E: Engine>() {
    let e: E = load(&setup::standard(C));
    let board = e.to_position();
    let moves = e.legal_moves();
    assert!(!moves.is_empty());
    for m in &moves {
        let after = e.apply(m);
        assert_eq!(after.side_to_move(), Color::Black);
        let mut p = after.to_position();
        p.to_move = Color::White;
        assert_ne!(p, board, "{} changes nothing", format_move(m));
    }
}

/// ORDO-3.3: no repetition rule: a position repeated by sideways play is still ongoing with the
/// same moves.
pub fn ordo_3_3_repetition_is_not_an_end<E: Engine>() {
    let e: E = load(&pos(C, 4, 4, 'w', "a1", "d4"));
    let back = play_line(
        &e,
        &[
            "a1-b1", "d4-c4", "b1-a1", "c4-d4", "a1-b1", "d4-c4", "b1-a1", "c4-d4",
        ],
    );
    assert_eq!(back.to_position(), e.to_position());
    assert_eq!(back.status(), Status::Ongoing);
    assert_eq!(move_set(&back), move_set(&e));
}

/// ORDO-3.4: a capture is never compulsory.
pub fn ordo_3_4_capture_is_optional<E: Engine>() {
    let e: E = load(&pos(C, 5, 5, 'w', "c2", "c3 c4"));
    assert!(is_legal(&e, "c2xc3"));
    assert!(is_legal(&e, "c2-b2"));
    assert!(is_legal(&e, "c2-d3"));
}

/// ORDO-4.1, ORDO-4.3, ORDO-5.1 (the designer's Fig. 5 situation): pieces touching diagonally are
/// one group; every move that would leave a piece apart is illegal; a diagonal pair is no ordo.
pub fn ordo_4_3_moves_keep_the_group_connected<E: Engine>() {
    let e: E = load(&pos(C, 5, 5, 'w', "a1 b2", "e5"));
    assert_eq!(
        move_set(&e),
        set(&["a1-a2", "a1-a3", "a1-b1", "a1-c1", "b2-a2"])
    );
}

/// ORDO-4.2: a single piece is a group: it may go anywhere its directions allow, and it is not
/// split.
pub fn ordo_4_2_single_piece_is_a_group<E: Engine>() {
    let e: E = load(&pos(C, 5, 5, 'w', "c2", "a5"));
    assert_eq!(move_set(&e).len(), 11);
    assert!(crate::helpers::one_group(&e.to_position(), Color::White));
}

/// ORDO-8.1, ORDO-6.1: a classic singleton goes forward, diagonally forward or sideways, any
/// distance over empty squares, never backward.
pub fn ordo_8_1_classic_singleton_directions<E: Engine>() {
    let w: E = load(&pos(C, 5, 5, 'w', "c2", "a5"));
    assert_eq!(
        move_set(&w),
        set(&[
            "c2-c3", "c2-c4", "c2-c5", "c2-b3", "c2-a4", "c2-d3", "c2-e4", "c2-b2", "c2-a2",
            "c2-d2", "c2-e2"
        ])
    );
    let b: E = load(&pos(C, 5, 5, 'b', "e1", "c4"));
    assert_eq!(
        move_set(&b),
        set(&[
            "c4-c3", "c4-c2", "c4-c1", "c4-b3", "c4-a2", "c4-d3", "c4-e2", "c4-b4", "c4-a4",
            "c4-d4", "c4-e4"
        ])
    );
}

/// ORDO-5.2, ORDO-6.2: every run of two or more within a longer line is an ordo, and a piece of
/// an ordo may also move alone.
pub fn ordo_5_2_sub_runs_are_ordos<E: Engine>() {
    let e: E = load(&pos(C, 4, 4, 'w', "a1 b1 c1", "d4"));
    assert!(is_legal(&e, "a1:b1-a2"));
    assert!(is_legal(&e, "b1:c1-b2"));
    assert!(is_legal(&e, "a1:c1-a2"));
    assert!(is_legal(&e, "a1:c1-a4"));
    assert!(!is_legal(&e, "a1:b1-a3"), "would leave c1 apart");
    assert!(
        is_legal(&e, "b1-b2"),
        "ORDO-6.2: the middle piece moves alone"
    );
}

/// ORDO-6.3: a singleton never passes over or lands on its own pieces, and never jumps an
/// opponent's piece.
pub fn ordo_6_3_singleton_path_must_be_empty<E: Engine>() {
    let e: E = load(&pos(C, 5, 5, 'w', "b1 c1", "c2 c4"));
    let moves = move_set(&e);
    assert!(moves.contains("c1xc2"));
    assert!(!moves
        .iter()
        .any(|m| m.starts_with("c1-c3") || m.starts_with("c1xc4")));
    assert!(!moves.contains("b1-c1") && !moves.contains("b1-d1"));
}

/// ORDO-6.4: a capture removes the opponent's piece from the board.
pub fn ordo_6_4_capture_removes_the_piece<E: Engine>() {
    let e: E = load(&pos(C, 5, 5, 'w', "b1 c1", "c2 c4"));
    let after = play_line(&e, &["c1xc2"]).to_position();
    assert_eq!(after.get(Square::new(2, 1)), Some(Color::White));
    assert_eq!(after.count(Color::Black), 1);
    assert_eq!(after.count(Color::White), 2);
}

/// ORDO-7.1: an ordo move moves every piece of the run by the same displacement.
pub fn ordo_7_1_ordo_pieces_move_together<E: Engine>() {
    let e: E = load(&pos(C, 5, 5, 'w', "a1 b1 c1", "e5"));
    let p = play_line(&e, &["a1:c1-a3"]).to_position();
    assert_eq!(crate::helpers::squares(&p, Color::White), "a3 b3 c3");
    // The notation accepts the ends in either order: c1:a1-c3 is the same move.
    let same = e.play(&parse_move("c1:a1-c3").unwrap()).unwrap();
    assert_eq!(same.to_position(), p);
}

/// ORDO-7.2: an ordo never captures, and no legal move is an ordo landing on an opponent.
pub fn ordo_7_2_ordo_never_captures<E: Engine>() {
    let e: E = load(&pos(C, 4, 4, 'w', "a1 b1", "a2 d4"));
    assert!(is_legal(&e, "a1xa2"));
    assert!(!is_legal(&e, "a1:b1-a2"));
    assert!(
        parse_move("a1:b1xa2").is_err(),
        "the notation has no ordo capture"
    );
    let p = e.to_position();
    for m in e.legal_moves() {
        if let Step::Ordo { .. } = m.first {
            let before = p.count(Color::Black);
            assert_eq!(e.apply(&m).to_position().count(Color::Black), before);
        }
    }
}

/// ORDO-7.3: every square an ordo piece passes over or lands on must be empty.
pub fn ordo_7_3_ordo_path_must_be_empty<E: Engine>() {
    let e: E = load(&pos(C, 4, 5, 'w', "a1 b1", "b3 d5"));
    assert!(is_legal(&e, "a1:b1-a2"));
    assert!(!is_legal(&e, "a1:b1-a3"));
    assert!(!is_legal(&e, "a1:b1-a4"));
}

/// ORDO-8.2: in classic Ordo a horizontal ordo moves only forward, a vertical one only sideways;
/// never diagonally, never in single file.
pub fn ordo_8_2_classic_ordo_directions<E: Engine>() {
    let h: E = load(&pos(C, 4, 4, 'w', "a1 b1", "d4"));
    assert!(is_legal(&h, "a1:b1-a2"));
    assert!(!is_legal(&h, "a1:b1-b1"), "single file sideways");
    assert!(!is_legal(&h, "a1:b1-b2"), "diagonal");
    let v: E = load(&pos(C, 4, 4, 'w', "a1 a2", "d4"));
    assert!(is_legal(&v, "a1:a2-b1"));
    assert!(is_legal(&v, "a1:a2-c1"));
    assert!(!is_legal(&v, "a1:a2-a2"), "single file forward");
    assert!(!is_legal(&v, "a1:a2-b2"), "diagonal");
}

/// ORDO-9.1, ORDO-9.2: a split player must reconnect; in that turn singletons may also go
/// backward and diagonally backward and horizontal ordos backward, vertical ordos still only
/// sideways.
pub fn ordo_9_2_backward_moves_when_split<E: Engine>() {
    let e: E = load(&pos(C, 5, 7, 'w', "a5 b5 c3", "e7"));
    assert!(!crate::helpers::one_group(&e.to_position(), Color::White));
    assert!(
        is_legal(&e, "a5:b5-a4"),
        "horizontal ordo backward, reconnecting"
    );
    assert!(is_legal(&e, "b5-b4"), "singleton backward, reconnecting");
    assert!(is_legal(&e, "c3-c4"));
    for m in e.legal_moves() {
        let after = e.apply(&m).to_position();
        assert!(
            crate::helpers::one_group(&after, Color::White),
            "ORDO-9.1: {} does not reconnect",
            format_move(&m)
        );
    }
    let v: E = load(&pos(C, 5, 7, 'w', "b5 b6 a3", "e7"));
    assert!(
        !is_legal(&v, "b5:b6-b4"),
        "a vertical ordo never moves backward"
    );
    assert!(is_legal(&v, "a3-a4"));
}

/// ORDO-9.2 ("only then"): a connected player has no backward move.
pub fn ordo_9_2_no_backward_moves_when_connected<E: Engine>() {
    let e: E = load(&pos(C, 5, 7, 'w', "b4 b5 c4", "e7"));
    for m in e.legal_moves() {
        let (dir, _) = m.first.direction().unwrap();
        let h = dir.heading(Color::White);
        assert!(
            !matches!(h, Heading::Backward | Heading::DiagonalBackward),
            "{} goes backward",
            format_move(&m)
        );
    }
}

/// ORDO-9.3: a classic capture that splits the opponent removes nothing else; the opponent must
/// then reconnect.
pub fn ordo_9_3_classic_split_removes_nothing<E: Engine>() {
    let e: E = load(&pos(C, 5, 5, 'w', "b2 c2", "b4 c3 d4"));
    let after = play_line(&e, &["c2xc3"]);
    let p = after.to_position();
    assert_eq!(p.count(Color::Black), 2);
    assert!(!crate::helpers::one_group(&p, Color::Black));
    assert_eq!(after.status(), Status::Ongoing);
    for m in after.legal_moves() {
        assert!(crate::helpers::one_group(
            &after.apply(&m).to_position(),
            Color::Black
        ));
    }
}

/// ORDO-10.1: a piece on the opponent's home row wins at once.
pub fn ordo_10_1_home_row_wins<E: Engine>() {
    let e: E = load(&pos(C, 5, 5, 'w', "c3", "a5"));
    let after = play_line(&e, &["c3-c5"]);
    assert_eq!(after.status(), won(Color::White, WinReason::HomeRow));
    assert_eq!(after.status().clause(), Some("ORDO-10.1"));
    assert!(after.legal_moves().is_empty(), "ORDO-10.5");
}

/// ORDO-10.2: capturing the opponent's last piece wins.
pub fn ordo_10_2_no_pieces_left_loses<E: Engine>() {
    let e: E = load(&pos(C, 5, 5, 'w', "c2", "c3"));
    let after = play_line(&e, &["c2xc3"]);
    assert_eq!(after.status(), won(Color::White, WinReason::NoPieces));
}

/// ORDO-10.5: a capture of the last piece on the home row is reported as a home-row win; a
/// finished game has no legal moves.
pub fn ordo_10_5_home_row_takes_precedence<E: Engine>() {
    let e: E = load(&pos(C, 5, 5, 'w', "c4", "c5"));
    let after = play_line(&e, &["c4xc5"]);
    assert_eq!(after.status(), won(Color::White, WinReason::HomeRow));
    assert!(after.legal_moves().is_empty());
    let none: E = load(&pos(C, 5, 5, 'b', "c4", ""));
    assert!(none.legal_moves().is_empty());
}

/// ORDO-10.3, ORDO-9.1: a split player with no reconnecting move loses at once, even with
/// backward moves allowed.
pub fn ordo_10_3_cannot_reconnect_loses<E: Engine>() {
    let e: E = load(&crate::helpers::fen("4/W1BW/W3 w classic"));
    assert!(!crate::helpers::one_group(&e.to_position(), Color::White));
    assert!(e.legal_moves().is_empty());
    assert_eq!(e.status(), won(Color::Black, WinReason::CannotReconnect));
    assert_eq!(e.status().clause(), Some("ORDO-10.3"));
}

/// Instantiates every test above as a `#[test]` on the engine `$engine` (a type path that
/// resolves from any module, such as `ordo_reference::Reference`), in a module `classic`.
#[macro_export]
macro_rules! classic_clause_tests {
    ($engine:ty) => {
        $crate::engine_tests!($engine, classic;
            ordo_1_1_and_2_2_standard_start,
            ordo_1_6_chess_board_variant,
            ordo_1_2_coordinates_and_home_rows,
            ordo_1_5_board_limits,
            ordo_2_3_set_up_positions,
            ordo_3_1_turns_alternate_without_passing,
            ordo_3_3_repetition_is_not_an_end,
            ordo_3_4_capture_is_optional,
            ordo_4_3_moves_keep_the_group_connected,
            ordo_4_2_single_piece_is_a_group,
            ordo_8_1_classic_singleton_directions,
            ordo_5_2_sub_runs_are_ordos,
            ordo_6_3_singleton_path_must_be_empty,
            ordo_6_4_capture_removes_the_piece,
            ordo_7_1_ordo_pieces_move_together,
            ordo_7_2_ordo_never_captures,
            ordo_7_3_ordo_path_must_be_empty,
            ordo_8_2_classic_ordo_directions,
            ordo_9_2_backward_moves_when_split,
            ordo_9_2_no_backward_moves_when_connected,
            ordo_9_3_classic_split_removes_nothing,
            ordo_10_1_home_row_wins,
            ordo_10_2_no_pieces_left_loses,
            ordo_10_5_home_row_takes_precedence,
            ordo_10_3_cannot_reconnect_loses,
        );
    };
}
