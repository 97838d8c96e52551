//! Apply target: on one case of `ordo_testkit::input`, a move applied by an engine gives the same
//! successor as a from-scratch load of that successor, in position, status and legal moves
//! (`ordo_testkit::oracles::check_apply_case`): four sampled moves of the bitboard engine on
//! every board, and one of the reference engine on small boards where its move list is cheap
//! (it keeps no incremental state, and each check costs it four move lists).
#![no_main]

use libfuzzer_sys::fuzz_target;
use ordo_bitboard::Bitboard;
use ordo_testkit::input::Case;
use ordo_testkit::oracles::check_apply_case;
use ordo_reference::Reference;

fuzz_target!(|data: &[u8]| {
    let Some(case) = Case::from_bytes::<Bitboard>(data) else {
        return;
    };
    if let Err(d) = check_apply_case::<Bitboard>(&case, 4) {
        panic!("bitboard: {d}");
    }
    if case.is_small() && case.is_cheap() {
        if let Err(d) = check_apply_case::<Reference>(&case, 1) {
            panic!("reference: {d}");
        }
    }
});
