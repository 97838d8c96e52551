//! Table-file target: the loaders of both formats (the retro solver's, format 2, and the
//! compact solver's, format 4) never panic, never allocate what the file's size does not
//! back, and never trust a damaged file. The input is one case of
//! `ordo_testkit::table_file::check`: raw bytes loaded as every kind of table, edits to a valid
//! retro or compact file (a changed file must be refused, the unchanged one loaded), or edits
//! to the compact file with its checksum recomputed (refused, or loaded whole and probed and
//! verified without a panic). `tests/it/fuzz_seeds.rs` replays the seed corpus on stable.
#![no_main]

use std::path::PathBuf;

use libfuzzer_sys::fuzz_target;
use ordo_testkit::table_file::check;

fn scratch() -> PathBuf {
    std::env::temp_dir().join(format!("ordo-fuzz-table-{}.ordotb", std::process::id()))
}

fuzz_target!(|data: &[u8]| {
    if let Err(e) = check(data, &scratch()) {
        panic!("{e}");
    }
});
