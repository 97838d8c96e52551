//! Adjudicator target: on one case of `ordo_testkit::input`, candidate moves (legal and illegal)
//! and sampled legal moves are judged legal by the adjudicator exactly when the bitboard engine
//! resolves them, with the same resulting position and status; where it is cheap the reference
//! engine's legal moves equal the bitboard engine's (`ordo_testkit::oracles::check_adjudicate_case`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use ordo_bitboard::Bitboard;
use ordo_testkit::input::Case;
use ordo_testkit::oracles::check_adjudicate_case;
use ordo_reference::Reference;

fuzz_target!(|data: &[u8]| {
    let Some(case) = Case::from_bytes::<Bitboard>(data) else {
        return;
    };
    if let Err(d) = check_adjudicate_case::<Reference, Bitboard>(&case) {
        panic!("adjudicator: {d}");
    }
});
