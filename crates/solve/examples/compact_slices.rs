//! Build compact endgame slices in memory and print what each holds, for measuring the
//! compact solver (crates/solve/src/compact/) where no command builds its slices yet:
//!
//! `cargo run --release --example compact_slices -- [classic|x] [BOARD] [WHITE] [BLACK] [THREADS]`
//!
//! (defaults: classic 10x8 3 3, all threads). Run it under `/usr/bin/time -v` for the peak
//! memory; divide by the `core positions` line for bytes per core position.

use ordo_bitboard::Bitboard;
use ordo_core::rules::{Dims, Variant};
use ordo_solve::CompactTables;
use ordo_solve::Material;

fn main() {
    if let Err(e) = run() {
        eprintln!("compact_slices: {e}");
        std::process::exit(2);
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or(default.into());
    let variant = match arg(0, "classic").as_str() {
        "classic" => Variant::Classic,
        "x" => Variant::X,
        v => return Err(format!("argument 1: '{v}' is not a game (classic or x)")),
    };
    let dims: Dims = arg(1, "10x8")
        .parse()
        .map_err(|e| format!("argument 2: {e}"))?;
    let count = |i: usize| {
        arg(i, "3")
            .parse::<u32>()
            .map_err(|e| format!("argument {}: {e}", i + 1))
    };
    let max = Material {
        white: count(2)?,
        black: count(3)?,
    };
    if let Some(t) = args.get(4) {
        let n: usize = t.parse().map_err(|e| format!("argument 5: {e}"))?;
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .map_err(|e| e.to_string())?;
    }
    let mut tables = CompactTables::new(dims, variant);
    let stats = tables
        .build::<Bitboard>(max, |s| {
            println!(
                "{}: {} core positions, {} stored, {} layers, longest {} plies",
                s.material, s.positions, s.entries, s.layers, s.longest
            );
        })
        .map_err(|e| e.to_string())?;
    for (m, slice) in &tables.slices {
        let layers = slice.index.layers();
        let largest = layers.iter().flatten().map(|l| l.len()).max().unwrap_or(0);
        let group = layers
            .iter()
            .map(|g| g.iter().map(|l| l.len()).sum::<usize>())
            .max()
            .unwrap_or(0);
        println!(
            "{m}: {} stored, index {} bytes, largest layer {largest}, largest group {group}",
            slice.values.len(),
            slice.index.bytes()
        );
    }
    let positions: u64 = stats.iter().map(|s| s.positions).sum();
    println!(
        "{variant} {dims} up to {max}: core positions {positions} in {} slices, {} bytes of values, {} bytes of index",
        stats.len(),
        tables.table_bytes(),
        tables.index_bytes()
    );
    Ok(())
}
