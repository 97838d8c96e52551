//! Notation target: the parsers (moves, squares, positions, game records) never panic, and
//! whatever parses formats back to the same value (`ordo_conformance::diff::check_notation`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Err(e) = ordo_conformance::diff::check_notation(&text) {
        panic!("{e}");
    }
});
