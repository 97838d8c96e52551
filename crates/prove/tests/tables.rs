//! The proof search against the endgame tables: run without tables on positions the tables
//! hold, every result it proves is the tables' (win, loss or draw for the side to move); run
//! with the tables as leaves from a larger material, its certificate's table leaves are
//! confirmed by the checker on the reference engine.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use ordo_certificate::{check_file, Established};
use ordo_core::rules::{Color, Dims, Variant};
use ordo_prove::{prove, Options, Outcome};
use ordo_solve::{build_tables, BuildOptions, Material, Tablebase};
use ordo_testkit::against_tables::cross_check;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ordo-prove-tb-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Build the tables of `variant` on `board` up to `max` and cross-check the search on
/// `samples` of their positions (`ordo_testkit::against_tables`): no difference, and at
/// least nine in ten settled.
fn agree_on(variant: Variant, board: &str, max: Material, samples: u64) {
    let dir = scratch(&format!("{}-{board}", variant.name()));
    let dims: Dims = board.parse().unwrap();
    build_tables::<ordo_bitboard::Bitboard>(&dir, variant, dims, max, &BuildOptions::default())
        .unwrap();
    let tb = Tablebase::open(&dir).unwrap();
    let opts = Options {
        nodes: Some(200_000),
        ..Options::default()
    };
    let t = cross_check(&tb, (variant, dims, max), (samples, 0), 7, &opts);
    eprintln!("{} {board}: {t:?}", variant.name());
    assert!(t.differences.is_empty(), "{:#?}", t.differences);
    assert!(
        t.proved * 10 >= samples * 9,
        "only {} of {samples} proved",
        t.proved
    );
    assert!(t.bounded > 0 && t.bounded_open * 10 <= t.bounded, "{t:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Ordo X and classic Ordo on 4 x 4, up to 3 against 3: every proved value is the table's
/// (ORDO-10.1 to ORDO-10.4; ORDO-3.3 for draws), every proof no quicker than the tables'
/// quickest win, and bounded by the tables' distance the search proves the win within it
/// and refutes it two plies sooner.
#[test]
fn proved_values_are_the_tables_values() {
    agree_on(Variant::X, "4x4", Material { white: 3, black: 3 }, 300);
    agree_on(
        Variant::Classic,
        "4x4",
        Material { white: 3, black: 3 },
        300,
    );
}

/// With the 4 x 4 tables up to 3 against 3 as leaves, the Ordo X start with four pieces a
/// side is proved, and its certificate's table leaves are confirmed on the reference engine.
#[test]
fn table_leaves_are_confirmed_by_the_checker() {
    let dir = scratch("leaves");
    let dims: Dims = "4x4".parse().unwrap();
    let max = Material { white: 3, black: 3 };
    build_tables::<ordo_bitboard::Bitboard>(&dir, Variant::X, dims, max, &BuildOptions::default())
        .unwrap();
    let tb = Tablebase::open(&dir).unwrap();
    let start = ordo_core::rules::setup::filled_rows(dims, 2, Variant::X).unwrap();
    let cert = dir.join("x-4x4-row2.cert");
    let stop = AtomicBool::new(false);
    let r = prove(
        &start,
        &Options::default(),
        Some(&tb),
        Some(&cert),
        &stop,
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(r.outcome, Outcome::Wins(Color::White));
    assert!(r.parts[0].1.table_leaves > 0, "{r:?}");
    let checked = check_file(&cert, Some(&dir)).unwrap();
    assert_eq!(checked.established, Established::Wins(Color::White));
    assert!(checked.table_leaves > 0);
    // Without the tables the checker cannot confirm the leaves.
    assert!(check_file(&cert, None)
        .unwrap_err()
        .reason
        .contains("table"));
    std::fs::remove_dir_all(&dir).unwrap();
}
