//! The seed corpora of the cargo-fuzz targets (`fuzz/corpus/`) replayed on stable by the same
//! library code the targets run, so that `cargo test` checks them: `table_file`
//! (`ordo_testkit::table_file`: damaged retro and compact table files are refused, forged
//! compact files load whole or not at all, and no input panics) and `certificate`
//! (`ordo_testkit::certificate`: no certificate panics the checker or is accepted for a false
//! claim).

use std::path::{Path, PathBuf};

use ordo_testkit::table_file::{self, check, rechecksum};

fn corpus(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let mut seeds: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|f| {
            let path = f.unwrap().path();
            let bytes = std::fs::read(&path).unwrap();
            (path, bytes)
        })
        .collect();
    seeds.sort();
    seeds
}

/// Every `table_file` seed passes (a panic of a loader fails the test too), and the seeds
/// reach every case: raw bytes, edits to the retro file, to the compact file, and forged
/// compact files whose checksum is recomputed.
#[test]
fn table_file_seeds_pass() {
    let dir = crate::common::scratch("fuzz-seeds-table-file");
    let scratch = dir.join("table.ordotb");
    let seeds = corpus("table_file");
    let mut cases = [0; 4];
    for (path, bytes) in &seeds {
        if let Err(e) = check(bytes, &scratch) {
            panic!("{}: {e}", path.display());
        }
        if let Some(&c) = bytes.first() {
            cases[usize::from(c % 4)] += 1;
        }
    }
    assert!(cases.iter().all(|&n| n > 0), "cases reached: {cases:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The forger's checksum is the compact format's own (so forged inputs reach the checks past
/// the checksum), and a forged change of one stored value is not caught by the checksum:
/// the loader either refuses it by the header's counts or loads it whole.
#[test]
fn table_file_forgeries_reach_past_the_checksum() {
    let dir = crate::common::scratch("fuzz-forger");
    let scratch = dir.join("table.ordotb");
    let valid = table_file::valid_compact(&scratch).to_vec();
    assert_eq!(rechecksum(valid.clone()), valid);
    let mut changed = valid.clone();
    let last = changed.len() - 1;
    changed[last] ^= 1;
    assert_ne!(rechecksum(changed.clone()), changed);
    // Case 3, the last byte set to what it holds: the unchanged file, which must load; then
    // that byte (a stored value) changed: refused by the counts, or loaded whole.
    let p = u16::try_from(last).unwrap().to_le_bytes();
    check(&[3, 1, p[0], p[1], valid[last]], &scratch).unwrap();
    check(&[3, 0, p[0], p[1], 1], &scratch).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every `certificate` seed passes: raw bytes never panic the reader or the checker, and an
/// edited true certificate, sealed again, is refused or still establishes only what is true.
#[test]
fn certificate_seeds_pass() {
    let seeds = corpus("certificate");
    assert!(seeds.len() >= 3);
    for (path, bytes) in &seeds {
        if let Err(e) = ordo_testkit::certificate::check_case(bytes) {
            panic!("{}: {e}", path.display());
        }
    }
}

/// The certificate target can fail: a forged certificate claiming a White win of the Ordo X
/// 3 x 4 two-row start (Black wins it) is refused by the checker, so the target's truth check
/// is never reached by an accepted lie.
#[test]
fn a_forged_claim_of_the_losing_side_is_refused() {
    let valid = ordo_testkit::certificate::valid();
    let forged =
        ordo_testkit::certificate::reseal(&valid.replace("claim black wins", "claim white wins"));
    let cert = ordo_certificate::read_from(forged.as_bytes()).unwrap();
    assert!(ordo_certificate::check(&cert, None).is_err());
}
