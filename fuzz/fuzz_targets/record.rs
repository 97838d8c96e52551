//! Game-record target (spec/game-record.md, `ordo check-game`): a record of a legal game,
//! written with the format's variety and then mutated, or raw bytes
//! (`ordo_testkit::record::record_from_bytes`); the reader never panics, its errors are one line,
//! and whatever it accepts replays alike in the engines and the adjudicator
//! (`ordo_testkit::record::check_record`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use ordo_bitboard::Bitboard;
use ordo_testkit::record::{check_record, record_from_bytes};
use ordo_reference::Reference;

fuzz_target!(|data: &[u8]| {
    let text = record_from_bytes::<Bitboard>(data);
    if let Err(f) = check_record::<Reference, Bitboard>(&text) {
        panic!("{f}\nrecord:\n{text}");
    }
});
