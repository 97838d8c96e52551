//! Hand-written tests of the Ordo X clauses (`ORDOX-…`) and of the end-of-game clauses in Ordo
//! X, each naming the clause it covers. Generic over the engine, instantiated below.

use crate::helpers::{is_legal, load, move_set, one_group, play_line, pos, squares, won};
use ordo_core::notation::{format_move, parse_move};
use ordo_core::rules::{setup, Color, Engine, Heading, Variant, WinReason};

const X: Variant = Variant::X;

/// ORDOX-1.1: Ordo X starts from the classic setup; only the variant differs.
pub fn ordox_1_1_same_setup_as_classic<E: Engine>() {
    let x: E = load(&setup::standard(X));
    let mut p = x.to_position();
    assert_eq!(p.variant, X);
    p.variant = Variant::Classic;
    assert_eq!(p, setup::standard(Variant::Classic));
    assert_eq!(
        x.legal_moves().len(),
        2062,
        "ORDOX-5.1: perft(1) of the Ordo X start"
    );
}

/// ORDOX-2.1, ORDOX-3.1, ORDOX-5.1: a lone piece on c2 of a 5 x 5 board has 7 forward steps
/// and 26 sideways-then-forward turns: 33 moves, counted as turns.
pub fn ordox_2_1_singleton_turns<E: Engine>() {
    let e: E = load(&pos(X, 5, 5, 'w', "c2", "e5"));
    let moves = move_set(&e);
    assert_eq!(moves.len(), 33, "{moves:?}");
    for m in [
        "c2-c3",
        "c2-c5",
        "c2-a4",
        "c2-e4",
        "c2-b2,b2-a3",
        "c2-b2,b2xe5",
        "c2-a2,a2-d5",
        "c2-e2,e2xe5",
    ] {
        assert!(moves.contains(m), "{m} missing");
    }
    assert!(
        !moves.contains("c2-b2"),
        "ORDOX-3.1: a sideways step alone is no turn"
    );
    assert!(
        !moves.iter().any(|m| m.contains("-c1") || m.contains("-b1")),
        "never backward"
    );
}

/// ORDOX-5.1: two turns reaching the same position are two moves.
pub fn ordox_5_1_turns_not_positions<E: Engine>() {
    let e: E = load(&pos(X, 5, 5, 'w', "c2", "e5"));
    let a = play_line(&e, &["c2-d3"]);
    let b = play_line(&e, &["c2-d2,d2-d3"]);
    assert_eq!(a.to_position(), b.to_position());
    assert!(is_legal(&e, "c2-d3") && is_legal(&e, "c2-d2,d2-d3"));
    assert_eq!(e.perft(1), 33);
}

/// ORDOX-2.2: in Ordo X an ordo of either orientation moves forward, diagonally forward or
/// sideways, side by side or in single file.
pub fn ordox_2_2_ordo_directions<E: Engine>() {
    let h: E = load(&pos(X, 5, 5, 'w', "a1 b1", "e5"));
    assert!(is_legal(&h, "a1:b1-a2"), "side by side forward");
    assert!(is_legal(&h, "a1:b1-b2"), "diagonally forward");
    assert!(
        is_legal(&h, "a1:b1-b1,b1:c1-b2"),
        "single file sideways, then forward"
    );
    let v: E = load(&pos(X, 5, 5, 'w', "a1 a2", "e5"));
    assert!(is_legal(&v, "a1:a2-a2"), "single file forward");
    assert!(is_legal(&v, "a1:a2-b2"), "diagonally forward");
    assert!(
        is_legal(&v, "a1:a2-b1,b1:b2-b2"),
        "side by side sideways, then forward"
    );
}

/// ORDOX-2.3: in single file a piece may enter a square its own ordo vacates, but not one held
/// by any other piece.
pub fn ordox_2_3_single_file_into_vacated_squares<E: Engine>() {
    let e: E = load(&pos(X, 5, 5, 'w', "a1 a2", "a4 e5"));
    assert!(is_legal(&e, "a1:a2-a2"));
    assert!(
        !is_legal(&e, "a1:a2-a3"),
        "the leading piece would land on a4"
    );
    let p = play_line(&e, &["a1:a2-a2"]).to_position();
    assert_eq!(crate::helpers::squares(&p, Color::White), "a2 a3");
}

/// ORDOX-3.2: each step must leave the mover one group, even if the second step would
/// reconnect.
pub fn ordox_3_2_connection_after_each_step<E: Engine>() {
    let e: E = load(&pos(X, 5, 5, 'w', "b1 c2", "e5"));
    assert!(is_legal(&e, "b1-b2"));
    assert!(is_legal(&e, "b1-c1,c1-b2"));
    assert!(
        !is_legal(&e, "b1-a1,a1-b2"),
        "a1 is apart from c2 after the first step"
    );
}

/// ORDOX-3.4, ORDO-10.2: a sideways capture of the opponent's last piece ends the game with
/// that step alone.
pub fn ordox_3_4_sideways_capture_of_last_piece<E: Engine>() {
    let e: E = load(&pos(X, 5, 5, 'w', "b2", "c2"));
    let moves = move_set(&e);
    assert!(moves.contains("b2xc2"));
    assert!(!moves.iter().any(|m| m.starts_with("b2xc2,")));
    let after = play_line(&e, &["b2xc2"]);
    assert_eq!(after.status(), won(Color::White, WinReason::NoPieces));
}

/// ORDOX-1.2, ORDOX-3.5: in Ordo X nothing moves backward, even split; the first step of a
/// split player must reconnect.
pub fn ordox_1_2_never_backward_even_split<E: Engine>() {
    let e: E = load(&pos(X, 5, 7, 'w', "a5 b5 c3", "e7"));
    assert!(!is_legal(&e, "a5:b5-a4"));
    assert!(is_legal(&e, "c3-c4"));
    let moves = e.legal_moves();
    assert!(!moves.is_empty());
    for m in &moves {
        for step in m.steps() {
            let (dir, _) = step.direction().unwrap();
            assert!(
                !matches!(
                    dir.heading(Color::White),
                    Heading::Backward | Heading::DiagonalBackward
                ),
                "{} goes backward",
                format_move(m)
            );
        }
        let first = e
            .apply(&ordo_core::rules::Move::single(m.first))
            .to_position();
        assert!(
            one_group(&first, Color::White),
            "ORDOX-3.5: {}",
            format_move(m)
        );
    }
}

/// ORDOX-3.5, ORDO-10.3: a split Ordo X player with no reconnecting turn loses.
pub fn ordox_3_5_split_without_reconnection_loses<E: Engine>() {
    let e: E = load(&crate::helpers::fen("4/WBBW/4 w x"));
    assert!(e.legal_moves().is_empty());
    assert_eq!(e.status(), won(Color::Black, WinReason::CannotReconnect));
    assert_eq!(e.status().clause(), Some("ORDO-10.3"));
}

/// ORDOX-4.1: a capture that splits the opponent removes every piece outside the largest
/// group, in the same step.
pub fn ordox_4_1_smaller_groups_are_removed<E: Engine>() {
    let e: E = load(&pos(X, 5, 5, 'w', "b2 c2", "a4 b4 c3 d4"));
    assert!(is_legal(&e, "c2xc3"));
    let p = play_line(&e, &["c2xc3"]).to_position();
    assert_eq!(crate::helpers::squares(&p, Color::Black), "a4 b4");
    // The same capture in classic Ordo removes only c3 (ORDO-9.3).
    let c: E = load(&pos(Variant::Classic, 5, 5, 'w', "b2 c2", "a4 b4 c3 d4"));
    let q = play_line(&c, &["c2xc3"]).to_position();
    assert_eq!(q.count(Color::Black), 3);
}

/// ORDOX-4.2: with tied largest groups the capturer chooses which stays: one move per choice,
/// named canonically by the group's lowest square; any square of the group is accepted.
pub fn ordox_4_2_tie_choice_belongs_to_the_capturer<E: Engine>() {
    let e: E = load(&pos(X, 5, 5, 'w', "b2 c2", "a4 b4 c3 d4 e4"));
    let moves = move_set(&e);
    assert!(moves.contains("c2xc3/a4"));
    assert!(moves.contains("c2xc3/d4"));
    assert!(!moves.contains("c2xc3"), "the choice must be named");
    let left = play_line(&e, &["c2xc3/a4"]).to_position();
    let right = play_line(&e, &["c2xc3/d4"]).to_position();
    let names = |p: &ordo_core::rules::Position| squares(p, Color::Black);
    assert_eq!(names(&left), "a4 b4");
    assert_eq!(names(&right), "d4 e4");
    let by = |s: &str| e.resolve(&parse_move(s).unwrap()).map(|m| format_move(&m));
    assert_eq!(by("c2xc3/b4").as_deref(), Some("c2xc3/a4"));
    assert_eq!(by("c2xc3/e4").as_deref(), Some("c2xc3/d4"));
    assert_eq!(by("c2xc3"), None);
    assert_eq!(by("c2xc3/c3"), None);
}

/// ORDOX-4.1, the example of 001 § Disconnection in words: the capture removes the captured
/// piece together with a smaller subgroup of two pieces.
pub fn ordox_4_1_smaller_subgroup_of_two_removed<E: Engine>() {
    let e: E = load(&pos(X, 6, 6, 'w', "c3 d3", "a5 b5 c5 d4 e5 f5"));
    let p = play_line(&e, &["d3xd4"]).to_position();
    assert_eq!(crate::helpers::squares(&p, Color::Black), "a5 b5 c5");
}

/// ORDOX-4.1, ORDOX-4.2, the two examples of 004 § Ordo X in words: a capture that splits the
/// opponent into groups of one, two and five keeps only the five; one that splits it into two
/// groups of five lets the capturer choose.
pub fn ordox_4_2_examples_of_004<E: Engine>() {
    let e: E = load(&pos(X, 7, 7, 'w', "c3 d3", "a5 b5 c5 a6 b6 d4 e5 f5 e3"));
    let p = play_line(&e, &["d3xd4"]).to_position();
    assert_eq!(crate::helpers::squares(&p, Color::Black), "a5 b5 c5 a6 b6");
    let t: E = load(&pos(
        X,
        7,
        7,
        'w',
        "c3 d3",
        "a5 b5 c5 a6 b6 d4 e5 f5 g5 f6 g6",
    ));
    let moves = move_set(&t);
    let captures: Vec<&String> = moves.iter().filter(|m| m.starts_with("d3xd4")).collect();
    assert_eq!(captures, ["d3xd4/a5", "d3xd4/e5"]);
    let right = play_line(&t, &["d3xd4/e5"]).to_position();
    assert_eq!(right.count(Color::Black), 5);
    assert_eq!(
        right.get(ordo_core::rules::Square::new(6, 5)),
        Some(Color::Black)
    );
}

/// ORDOX-3.1: the forward step after a sideways one may be made by another piece.
pub fn ordox_3_1_second_step_by_another_piece<E: Engine>() {
    let e: E = load(&pos(X, 5, 5, 'w', "a1 b1 b2", "e5"));
    assert!(is_legal(&e, "b1-c1,a1-a2"));
}

/// ORDO-10.1 in Ordo X: the forward step of a two-step turn may reach the home row and win.
pub fn ordox_home_row_win_on_second_step<E: Engine>() {
    let e: E = load(&pos(X, 4, 4, 'w', "b3", "d2"));
    let after = play_line(&e, &["b3-a3,a3-a4"]);
    assert_eq!(after.status(), won(Color::White, WinReason::HomeRow));
}

/// Instantiates every test above as a `#[test]` on the engine `$engine` (a type path that
/// resolves from any module, such as `ordo_reference::Reference`), in a module `x`.
#[macro_export]
macro_rules! x_clause_tests {
    ($engine:ty) => {
        $crate::engine_tests!($engine, x;
            ordox_1_1_same_setup_as_classic,
            ordox_2_1_singleton_turns,
            ordox_5_1_turns_not_positions,
            ordox_2_2_ordo_directions,
            ordox_2_3_single_file_into_vacated_squares,
            ordox_3_2_connection_after_each_step,
            ordox_3_4_sideways_capture_of_last_piece,
            ordox_1_2_never_backward_even_split,
            ordox_3_5_split_without_reconnection_loses,
            ordox_4_1_smaller_groups_are_removed,
            ordox_4_2_tie_choice_belongs_to_the_capturer,
            ordox_home_row_win_on_second_step,
            ordox_4_1_smaller_subgroup_of_two_removed,
            ordox_4_2_examples_of_004,
            ordox_3_1_second_step_by_another_piece,
        );
    };
}
