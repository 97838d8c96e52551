//! Reading a win out of a table too small to keep the proof: the nodes the table lost are
//! searched again during the read-out, with the line from the root as the search's path, so
//! the certificate is acyclic and holds on the reference engine.

use std::sync::atomic::AtomicBool;

use ordo_certificate::{check_file, Established};
use ordo_core::rules::{setup, Color, Dims, Variant};
use ordo_prove::{prove, Options, Outcome};

/// Ordo X 4 x 4 from the two-row setup (White wins, analysis/games.md) with a table of 4,096
/// entries, fewer than the proof's nodes: the certificate still checks (ORDO-10.1), and it
/// is read out in full, with the longest line the solver allows (at least 13 plies).
#[test]
fn a_win_reads_out_of_a_table_smaller_than_its_proof() {
    let dims = Dims::new(4, 4).unwrap();
    let pos = setup::filled_rows(dims, 2, Variant::X).unwrap();
    let dir = std::env::temp_dir().join(format!("ordo-prove-readout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cert = dir.join("small-table.cert");
    let opts = Options {
        table_bytes: 128 << 10,
        ..Options::default()
    };
    let stop = AtomicBool::new(false);
    let r = prove(&pos, &opts, None, Some(&cert), &stop, &mut |_| {}).unwrap();
    assert_eq!(r.outcome, Outcome::Wins(Color::White));
    let part = &r.parts[0].1;
    assert!(part.nodes > 4096, "{} nodes", part.nodes);
    let checked = check_file(&cert, None).unwrap();
    assert_eq!(checked.established, Established::Wins(Color::White));
    assert_eq!(checked.longest, part.longest);
    assert!(part.longest.unwrap() >= 13);
    std::fs::remove_dir_all(&dir).unwrap();
}
