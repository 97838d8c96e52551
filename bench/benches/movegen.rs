//! Move generation, reference versus bitboard, on a fixed set of positions: the starts, middle
//! games and endgames reached by fixed playouts, a split group, and Ordo X positions with many
//! two-step turns. Run: `cargo bench -p ordo-bench --bench movegen`.

// criterion_group! declares a public function per group; a benchmark has no API to document.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use ordo_bitboard::Bitboard;
use ordo_core::notation::{format_move, parse_position};
use ordo_core::rules::Rng;
use ordo_core::rules::{setup, Engine, Position, Variant};
use ordo_reference::Reference;

/// A position after `plies` plies of a fixed pseudo-random playout from `start`.
fn after(start: Position, plies: usize, seed: u64) -> Position {
    let mut e = Reference::from_position(&start).unwrap();
    let mut rng = Rng::new(seed);
    for _ in 0..plies {
        let mut moves = e.legal_moves();
        if moves.is_empty() {
            break;
        }
        moves.sort_by_key(format_move);
        e = e.apply(&moves[rng.below(moves.len() as u64) as usize]);
    }
    e.to_position()
}

fn positions() -> Vec<(&'static str, Position)> {
    vec![
        ("classic-start", setup::standard(Variant::Classic)),
        (
            "classic-middle",
            after(setup::standard(Variant::Classic), 24, 1),
        ),
        (
            "classic-endgame",
            parse_position("10/2BB6/3B6/10/10/4WW4/4W5/10 w classic").unwrap(),
        ),
        (
            "classic-split",
            parse_position("10/BBB7/1B8/10/10/2W1W5/1WW1WW4/10 w classic").unwrap(),
        ),
        ("x-start", setup::standard(Variant::X)),
        ("x-middle", after(setup::standard(Variant::X), 8, 2)),
        (
            "x-endgame",
            parse_position("10/2BB6/3B6/10/10/4WW4/4W5/10 w x").unwrap(),
        ),
        ("chess-board-classic", setup::chess_board(Variant::Classic)),
    ]
}

fn movegen(c: &mut Criterion) {
    let mut group = c.benchmark_group("movegen");
    for (name, pos) in positions() {
        let r = Reference::from_position(&pos).unwrap();
        let b = Bitboard::from_position(&pos).unwrap();
        assert_eq!(r.legal_moves().len(), b.legal_moves().len(), "{name}");
        group.throughput(Throughput::Elements(b.legal_moves().len() as u64));
        group.bench_with_input(BenchmarkId::new("reference", name), &r, |bch, e| {
            bch.iter(|| e.legal_moves().len())
        });
        group.bench_with_input(BenchmarkId::new("bitboard", name), &b, |bch, e| {
            bch.iter(|| e.legal_moves().len())
        });
        group.bench_with_input(BenchmarkId::new("bitboard-count", name), &b, |bch, e| {
            bch.iter(|| e.perft(1))
        });
    }
    group.finish();
}

criterion_group!(benches, movegen);
criterion_main!(benches);
