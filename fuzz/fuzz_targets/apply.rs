//! Apply target: for a set-up position, every legal move applied by an engine gives the same
//! successor as a from-scratch load of that successor, for both engines
//! (`ordo::diff::check_apply_rebuild`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use ordo::bitboard::Bitboard;
use ordo::diff::{check_apply_rebuild, position_from_bytes};
use ordo::reference::Reference;

fuzz_target!(|input: (u8, u8, Vec<u8>, bool, bool)| {
    let (cols, rows, cells, black, x) = input;
    let Some(pos) = position_from_bytes(cols, rows, &cells, black, x) else {
        return;
    };
    if let Err(d) = check_apply_rebuild::<Bitboard>(&pos) {
        panic!("bitboard: {d}");
    }
    if let Err(d) = check_apply_rebuild::<Reference>(&pos) {
        panic!("reference: {d}");
    }
});
