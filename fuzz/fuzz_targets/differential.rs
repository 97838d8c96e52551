//! Differential target: the reference engine against the bitboard engine on one case of
//! `ordo_testkit::input` (a small set-up position, a playout on a small board, a playout from the
//! 10 x 8 or 8 x 8 start, or a sparse set-up on a big board): status, legal moves and every
//! successor compared on small boards where the reference's move list is cheap, else sampled
//! successors (`ordo_testkit::oracles::check_case`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use ordo_bitboard::Bitboard;
use ordo_testkit::input::Case;
use ordo_testkit::oracles::check_case;
use ordo_reference::Reference;

fuzz_target!(|data: &[u8]| {
    let Some(case) = Case::from_bytes::<Bitboard>(data) else {
        return;
    };
    if let Err(d) = check_case::<Reference, Bitboard>(&case) {
        panic!("divergence: {d}");
    }
});
