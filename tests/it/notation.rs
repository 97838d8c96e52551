//! The sorted move lists of the notation (`ordo_core::notation`) on an engine's moves (the
//! notation's own tests are in `crates/core/tests/`, which cannot reach an engine).

use ordo_core::notation::{format_move, parse_move, parse_moves, sorted_moves, sorted_notation};
use ordo_core::rules::{setup, Variant};

/// `sorted_notation` and `sorted_moves`, the one sorted move list every module compares and
/// lists: canonical notation, in string order, every legal move once.
#[test]
fn sorted_move_lists_are_canonical_and_in_order() {
    let moves = parse_moves("e3-e4 a3-a4 c2-c3").unwrap();
    assert_eq!(sorted_notation(&moves), ["a3-a4", "c2-c3", "e3-e4"]);
    let e = <ordo_reference::Reference as ordo_core::rules::Engine>::from_position(
        &setup::standard(Variant::Classic),
    )
    .unwrap();
    let list = sorted_moves(&e);
    assert!(list.windows(2).all(|w| w[0] < w[1]), "{list:?}");
    assert_eq!(list.len(), ordo_core::rules::Engine::legal_moves(&e).len());
    assert!(list
        .iter()
        .all(|m| format_move(&parse_move(m).unwrap()) == *m));
}
