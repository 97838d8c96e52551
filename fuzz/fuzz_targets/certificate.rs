//! Certificate target: the certificate reader and checker never panic and never accept a
//! forged certificate of a false claim. The input is one case of
//! `ordo_testkit::certificate::check_case`: raw bytes read as a certificate, or edits to a
//! true certificate sealed again with a correct checksum. `tests/it/fuzz_seeds.rs` replays
//! the seed corpus on stable.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ordo_testkit::certificate::check_case;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = check_case(data) {
        panic!("{e}");
    }
});
