//! Perft from the standard start, single thread: bitboard classic perft(5) and Ordo X perft(2),
//! and both engines on classic perft(3) for the throughput ratio. Throughput is in leaves per
//! second. Run: `cargo bench -p ordo-bench --bench perft`.
//!
//! Ordo X perft(3) (11,094,056,144 leaves) takes about three minutes a run on one thread, so
//! criterion's ten samples take over half an hour: it is measured only when asked,
//! `ORDO_BENCH_X3=1 cargo bench -p ordo-bench --bench perft -- x/3`.

// criterion_group! declares a public function per group; a benchmark has no API to document.
#![allow(missing_docs)]

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use ordo_bitboard::Bitboard;
use ordo_core::rules::{setup, Engine, Variant};
use ordo_reference::Reference;

fn perft(c: &mut Criterion) {
    let classic = setup::standard(Variant::Classic);
    let x = setup::standard(Variant::X);
    let mut group = c.benchmark_group("perft");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(60));

    let b = Bitboard::from_position(&classic).unwrap();
    let leaves = b.perft(5);
    group.throughput(Throughput::Elements(leaves));
    group.bench_function("bitboard/classic/5", |bch| bch.iter(|| b.perft(5)));

    let bx = Bitboard::from_position(&x).unwrap();
    group.throughput(Throughput::Elements(bx.perft(2)));
    group.bench_function("bitboard/x/2", |bch| bch.iter(|| bx.perft(2)));
    if std::env::var_os("ORDO_BENCH_X3").is_some() {
        group.throughput(Throughput::Elements(11_094_056_144));
        group.bench_function("bitboard/x/3", |bch| bch.iter(|| bx.perft(3)));
    }

    group.throughput(Throughput::Elements(190_114));
    group.bench_function("bitboard/classic/3", |bch| bch.iter(|| b.perft(3)));
    let r = Reference::from_position(&classic).unwrap();
    group.bench_function("reference/classic/3", |bch| bch.iter(|| r.perft(3)));
    group.finish();
}

criterion_group!(benches, perft);
criterion_main!(benches);
