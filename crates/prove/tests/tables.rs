//! The proof search against the endgame tables: run without tables on positions the tables
//! hold, every result it proves is the tables' (win, loss or draw for the side to move); run
//! with the tables as leaves from a larger material, its certificate's table leaves are
//! confirmed by the checker on the reference engine.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use ordo_certificate::{check_file, Established};
use ordo_core::rules::{Color, Dims, Position, Square, Variant};
use ordo_prove::{prove, Options, Outcome};
use ordo_solve::{build_tables, BuildOptions, Material, Tablebase, Value};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ordo-prove-tb-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A random valid position of `dims` with at most `max` pieces a side, not over.
fn random_position(
    rng: &mut Rng,
    variant: Variant,
    dims: Dims,
    max: Material,
    tb: &Tablebase,
) -> Position {
    loop {
        let to_move = if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        let mut pos = Position::empty(dims, to_move, variant);
        let counts = [
            1 + rng.below(max.white as usize),
            1 + rng.below(max.black as usize),
        ];
        for (c, n) in [Color::White, Color::Black].into_iter().zip(counts) {
            for _ in 0..n {
                let i = rng.below(dims.len());
                let sq = Square::new(
                    (i % dims.cols as usize) as u8,
                    (i / dims.cols as usize) as u8,
                );
                pos.set(sq, Some(c));
            }
        }
        if pos.validate().is_ok() && matches!(tb.value(&pos), Ok(v) if v != Value::Loss(0)) {
            return pos;
        }
    }
}

/// The outcome the tables' value for the side to move stands for.
fn expected(pos: &Position, v: Value) -> Outcome {
    match v {
        Value::Win(_) => Outcome::Wins(pos.to_move),
        Value::Loss(_) => Outcome::Wins(pos.to_move.opponent()),
        Value::Draw => Outcome::Draw,
    }
}

fn agree_on(variant: Variant, board: &str, max: Material, samples: usize) {
    let dir = scratch(&format!("{}-{board}", variant.name()));
    let dims: Dims = board.parse().unwrap();
    build_tables::<ordo_bitboard::Bitboard>(&dir, variant, dims, max, &BuildOptions::default())
        .unwrap();
    let tb = Tablebase::open(&dir).unwrap();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let opts = Options {
        nodes: Some(200_000),
        ..Options::default()
    };
    let stop = AtomicBool::new(false);
    let mut proved = 0;
    for _ in 0..samples {
        let pos = random_position(&mut rng, variant, dims, max, &tb);
        let want = expected(&pos, tb.value(&pos).unwrap());
        let got = prove(&pos, &opts, None, None, &stop, &mut |_| {})
            .unwrap()
            .outcome;
        match got {
            Outcome::NotProved => {}
            Outcome::CannotWin(c) => assert_ne!(want, Outcome::Wins(c), "{pos}"),
            _ => {
                assert_eq!(got, want, "{pos}");
                proved += 1;
            }
        }
    }
    eprintln!(
        "{} {board}: {proved} of {samples} proved, all as the tables say",
        variant.name()
    );
    assert!(
        proved * 10 >= samples * 9,
        "only {proved} of {samples} proved"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Ordo X and classic Ordo on 4 x 4, up to 3 against 3: every proved value is the table's
/// (ORDO-10.1 to ORDO-10.4; ORDO-3.3 for draws).
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
