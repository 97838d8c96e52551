//! Adjudicator target: for a set-up position, every candidate move (every piece and every ordo
//! run in all eight directions at every distance, Ordo X two-step combinations and tie choices,
//! bounded) is judged legal by the adjudicator exactly when it is in the legal move list of
//! both engines.
#![no_main]

use std::collections::HashSet;

use libfuzzer_sys::fuzz_target;
use ordo::adjudicate::{adjudicate, candidate_moves_limited};
use ordo::bitboard::Bitboard;
use ordo::diff::position_from_bytes;
use ordo::notation::format_move;
use ordo::reference::Reference;
use ordo::rules::Engine;

fuzz_target!(|input: (u8, u8, Vec<u8>, bool, bool)| {
    let (cols, rows, cells, black, x) = input;
    let Some(pos) = position_from_bytes(cols % 5, rows % 5, &cells, black, x) else {
        return;
    };
    let r = Reference::from_position(&pos).unwrap();
    let b = Bitboard::from_position(&pos).unwrap();
    let legal_r: HashSet<String> = r.legal_moves().iter().map(format_move).collect();
    let legal_b: HashSet<String> = b.legal_moves().iter().map(format_move).collect();
    assert_eq!(legal_r, legal_b, "engines differ");
    for m in candidate_moves_limited(&pos, 2000) {
        let verdict = adjudicate(&pos, &m).is_legal();
        // A tie choice may name any square of the kept group: compare through resolve.
        let member = r.resolve(&m).is_some() && b.resolve(&m).is_some();
        assert_eq!(verdict, member, "{}: adjudicator {verdict}, engines {member}", format_move(&m));
    }
});
