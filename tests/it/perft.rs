//! Perft figures of spec/perft.md that the reference engine reaches within seconds, checked on
//! every engine. Counts are of turns, not positions (ORDOX-5.1), and a finished game has no
//! moves (ORDO-10.5).

use crate::common::{fen, load};
use ordo_core::rules::{setup, Engine, Variant};

fn standard_classic<E: Engine>() {
    let e: E = load(&setup::standard(Variant::Classic));
    assert_eq!(e.perft(0), 1);
    assert_eq!(e.perft(1), 56);
    assert_eq!(e.perft(2), 3_136);
    assert_eq!(e.perft(3), 190_114);
}

/// ORDOX-5.1: Ordo X perft counts two-step turns as one move each.
fn standard_x<E: Engine>() {
    let e: E = load(&setup::standard(Variant::X));
    assert_eq!(e.perft(1), 2_062);
}

/// ORDO-1.6: the 8 x 8 variant.
fn chess_board<E: Engine>() {
    let c: E = load(&setup::chess_board(Variant::Classic));
    assert_eq!(c.perft(1), 46);
    assert_eq!(c.perft(2), 2_116);
    assert_eq!(c.perft(3), 103_376);
    let x: E = load(&setup::chess_board(Variant::X));
    assert_eq!(x.perft(1), 1_308);
}

/// ORDO-1.5: a small board, each side on its home row.
fn small_board<E: Engine>() {
    let c: E = load(&fen("BBBB/4/4/WWWW w classic"));
    assert_eq!(c.perft(4), 10_286);
    let x: E = load(&fen("BBBB/4/4/WWWW w x"));
    assert_eq!(x.perft(4), 240_206);
}

/// `divide` splits the same total by first move.
fn divide_sums_to_perft<E: Engine>() {
    let e: E = load(&setup::standard(Variant::Classic));
    let rows = e.divide(2);
    assert_eq!(rows.len(), 56);
    assert_eq!(rows.iter().map(|(_, n)| n).sum::<u64>(), 3_136);
}

// Every test above, once per engine (`reference::NAME` and `bitboard::NAME`).
on_both_engines!(
    standard_classic,
    standard_x,
    chess_board,
    small_board,
    divide_sums_to_perft,
);

/// The deeper figures of spec/perft.md: classic perft(5) from the standard start, which only
/// the bitboard engine reaches (two threads, a few seconds), and its perft(4) split by first
/// move, which must sum to the reference engine's published 11,501,158 (ORDO-2.2, ORDO-10.5).
#[test]
fn bitboard_classic_perft_5_published_figure() {
    use ordo_bitboard::Bitboard;
    let e: Bitboard = load(&setup::standard(Variant::Classic));
    assert_eq!(e.perft_threads(5, 2).unwrap(), 724_821_826);
    let rows = e.divide(4);
    assert_eq!(rows.len(), 56);
    assert_eq!(rows.iter().map(|(_, n)| n).sum::<u64>(), 11_501_158);
}

/// ORDOX-5.1: the parallel divide of `ordo_bitboard::perft` sums to the engine's own perft, reports
/// each finished first move once, and stops when asked (keeping only finished first moves).
#[test]
fn parallel_divide_reports_progress_and_stops() {
    use ordo_bitboard::perft::{divide_parallel, PerftError, PerftOptions, MAX_PERFT_DEPTH};
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let e: ordo_bitboard::Bitboard = load(&setup::chess_board(Variant::Classic));
    let calls = AtomicUsize::new(0);
    let count = |p: ordo_bitboard::perft::PerftProgress| {
        assert_eq!(p.total, 46);
        calls.fetch_add(1, Ordering::Relaxed);
    };
    let opts = PerftOptions {
        threads: 2,
        stop: None,
        progress: Some(&count),
    };
    let d = divide_parallel(&e, 3, &opts).unwrap();
    assert!(d.complete());
    assert_eq!((d.total, d.rows.len(), d.first_moves), (103_376, 46, 46));
    assert_eq!(calls.load(Ordering::Relaxed), 46);
    let stopped = AtomicBool::new(true);
    let opts = PerftOptions {
        stop: Some(&stopped),
        ..PerftOptions::default()
    };
    let d = divide_parallel(&e, 5, &opts).unwrap();
    assert!(!d.complete());
    assert_eq!((d.total, d.rows.len(), d.first_moves), (0, 0, 46));
    let deep = divide_parallel(&e, MAX_PERFT_DEPTH + 1, &PerftOptions::default());
    assert_eq!(
        deep,
        Err(PerftError::TooDeep {
            depth: MAX_PERFT_DEPTH + 1,
            max: MAX_PERFT_DEPTH
        })
    );
}
