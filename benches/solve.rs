//! The retrograde solver: whole-game solutions of 4 x 4 (row1) in both games, enumeration,
//! retrograde analysis and the verification pass, all threads. Throughput is in positions
//! per second. Run: `cargo bench --bench solve`.
//!
//! `solve-5x4` puts the current solver (`retro`) and the compact one (`compact`,
//! src/solve/compact/) side by side on 5 x 4 row1 of both games; throughput there is in
//! positions each solver holds (reachable positions for `retro`, core positions of every
//! material for `compact`), so compare the times too. Run only those rows with
//! `cargo bench --bench solve -- solve-5x4` (several minutes: ten samples of each).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use ordo::bitboard::Bitboard;
use ordo::rules::Variant;
use ordo::solve::{compact, solve_game, verify, GameOptions, Setup};

fn solve(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    let bar = ordo::solve::Silent;
    for variant in Variant::ALL {
        let opts = GameOptions {
            table: None,
            verify: false,
            memory_limit: None,
            progress: &bar,
        };
        let dims = "4x4".parse().unwrap();
        let (table, _) = solve_game::<Bitboard>(variant, dims, Setup::Row1, &opts).unwrap();
        group.throughput(Throughput::Elements(table.space.len() as u64));
        group.bench_function(format!("{variant}/4x4-row1"), |b| {
            b.iter(|| solve_game::<Bitboard>(variant, dims, Setup::Row1, &opts).unwrap())
        });
        group.bench_function(format!("{variant}/4x4-row1-verify"), |b| {
            b.iter(|| verify::<Bitboard>(&table.space, &table.values, &bar).unwrap())
        });
    }
    group.finish();
}

fn old_and_new(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve-5x4");
    group.sample_size(10);
    let bar = ordo::solve::Silent;
    let opts = GameOptions {
        table: None,
        verify: false,
        memory_limit: None,
        progress: &bar,
    };
    let dims = "5x4".parse().unwrap();
    for variant in Variant::ALL {
        group.bench_function(format!("{variant}/retro"), |b| {
            b.iter(|| solve_game::<Bitboard>(variant, dims, Setup::Row1, &opts).unwrap())
        });
        group.bench_function(format!("{variant}/compact"), |b| {
            b.iter(|| compact::solve_game::<Bitboard>(variant, dims, Setup::Row1).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, solve, old_and_new);
criterion_main!(benches);
