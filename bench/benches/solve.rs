//! The retro solver of the test tooling (`ordo_testkit::retro`): whole-game solutions of
//! 4 x 4 (row1) in both games, enumeration, retrograde analysis and the verification pass, all
//! threads. Throughput is in positions per second. Run: `cargo bench -p ordo-bench --bench
//! solve`.
//!
//! `retro-vs-compact` puts the retro solver (`retro`) and the product's compact one
//! (`compact`, crates/solve/src/compact/) side by side, one thread each, on 4 x 4 and 5 x 4 row1 of both games,
//! and `retro-vs-compact-10x8` on the 10 x 8 slices up to 2 against 2. Throughput is in the
//! positions each solver answers for (reachable positions or slice entries for `retro`, core
//! positions for `compact`: not the same count), so compare the times too: both answer the
//! same question. Run only those rows with `cargo bench -p ordo-bench --bench solve --
//! retro-vs-compact`
//! (several minutes: ten samples of each).

// criterion_group! declares a public function per group; a benchmark has no API to document.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use ordo_bitboard::Bitboard;
use ordo_core::rules::{Dims, Variant};
use ordo_solve::CompactTables;
use ordo_solve::{BuildOptions, GameOptions, Material, Setup, VerifyScope};
use ordo_testkit::retro::{self, solve_game, verify};

fn solve(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    let bar = ordo_solve::Silent;
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

/// One thread, so that the time of an iteration is its CPU time on an idle core.
fn one_thread() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a thread pool")
}

/// The retro and compact solvers side by side on the same whole-game boards, one thread,
/// throughput in the positions each solver answers for (reachable positions for `retro`,
/// core positions of every material for `compact`).
fn old_and_new(c: &mut Criterion) {
    let mut group = c.benchmark_group("retro-vs-compact");
    group.sample_size(10);
    let bar = ordo_solve::Silent;
    let opts = GameOptions {
        table: None,
        verify: false,
        memory_limit: None,
        progress: &bar,
    };
    let pool = one_thread();
    for (variant, board) in [
        (Variant::Classic, "4x4"),
        (Variant::X, "4x4"),
        (Variant::Classic, "5x4"),
        (Variant::X, "5x4"),
    ] {
        let dims = board.parse().unwrap();
        let (table, _) = solve_game::<Bitboard>(variant, dims, Setup::Row1, &opts).unwrap();
        group.throughput(Throughput::Elements(table.space.len() as u64));
        group.bench_function(format!("{variant}/{board}-row1/retro"), |b| {
            b.iter(|| pool.install(|| solve_game::<Bitboard>(variant, dims, Setup::Row1, &opts)))
        });
        let quiet = GameOptions::default();
        let compact = || ordo_solve::solve_game::<Bitboard>(variant, dims, Setup::Row1, &quiet);
        let (_, report) = compact().unwrap();
        let core: u64 = report.game.slices.iter().map(|s| s.positions).sum();
        group.throughput(Throughput::Elements(core));
        group.bench_function(format!("{variant}/{board}-row1/compact"), |b| {
            b.iter(|| pool.install(compact))
        });
    }
    group.finish();
}

/// The 10 x 8 endgame slices up to 2 against 2, both solvers, one thread (the retro
/// tablebase writes its files to a fresh folder each time).
fn slices(c: &mut Criterion) {
    let mut group = c.benchmark_group("retro-vs-compact-10x8");
    group.sample_size(10);
    let bar = ordo_solve::Silent;
    let opts = BuildOptions {
        verify: VerifyScope::None,
        memory_limit: None,
        progress: &bar,
    };
    let pool = one_thread();
    let dims = Dims::STANDARD;
    let max = Material { white: 2, black: 2 };
    let dir = std::env::temp_dir().join(format!("ordo-bench-{}", std::process::id()));
    for variant in Variant::ALL {
        let build_old = || {
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            pool.install(|| retro::tb::build::<Bitboard>(dims, variant, max, &dir, &opts, |_| {}))
                .unwrap()
        };
        let (_, reports) = build_old();
        group.throughput(Throughput::Elements(
            reports.iter().map(|r| r.entries).sum(),
        ));
        group.bench_function(format!("{variant}/2v2/retro"), |b| b.iter(build_old));
        let build_new = || {
            let mut t = CompactTables::new(dims, variant);
            pool.install(|| t.build::<Bitboard>(max, |_| {})).unwrap()
        };
        let core: u64 = build_new().iter().map(|s| s.positions).sum();
        group.throughput(Throughput::Elements(core));
        group.bench_function(format!("{variant}/2v2/compact"), |b| b.iter(build_new));
    }
    let _ = std::fs::remove_dir_all(&dir);
    group.finish();
}

criterion_group!(benches, solve, old_and_new, slices);
criterion_main!(benches);
