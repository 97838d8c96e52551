//! Perft for any engine, split over the first moves on a thread pool: the one parallel perft of
//! the crate (`ordo perft` and `Bitboard::perft_threads` of `ordo-bitboard` both run it).
//!
//! It can be stopped from another thread (a flag checked at every node above the last two
//! plies), reports each finished first move to a callback, and refuses a depth beyond
//! [`MAX_PERFT_DEPTH`]: a game may go on forever (ORDO-10.5 only ends it by a win), so the
//! recursion is bounded by nothing but the depth asked for.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use rayon::prelude::*;

use super::{Engine, Move};

/// The deepest perft accepted. Far beyond anything that finishes (classic perft(7) from the
/// start already counts trillions of leaves), and shallow enough for any thread's stack.
pub const MAX_PERFT_DEPTH: u32 = 30;

/// Why a perft could not run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PerftError {
    /// The depth is beyond [`MAX_PERFT_DEPTH`].
    #[error("perft depth {depth} is over the maximum of {max}")]
    TooDeep {
        /// The depth asked for, in plies.
        depth: u32,
        /// The deepest allowed, [`MAX_PERFT_DEPTH`].
        max: u32,
    },
    /// The thread pool could not be started.
    #[error("cannot start {threads} worker threads: {reason}")]
    Threads {
        /// The number of threads asked for.
        threads: usize,
        /// The thread pool's error, as text.
        reason: String,
    },
}

/// Where a perft stands, after each finished first move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerftProgress {
    /// First moves whose subtree is counted.
    pub done: usize,
    /// First moves in all.
    pub total: usize,
    /// Leaves counted so far (the finished first moves only).
    pub leaves: u64,
}

/// How to run [`divide_parallel`].
#[derive(Clone, Copy, Default)]
pub struct PerftOptions<'a> {
    /// Worker threads; 0 means one per core.
    pub threads: usize,
    /// When this becomes true, the count stops as soon as it can; the result then holds the
    /// first moves finished before.
    pub stop: Option<&'a AtomicBool>,
    /// Called after each finished first move, from the worker thread that finished it.
    pub progress: Option<&'a (dyn Fn(PerftProgress) + Sync)>,
}

/// The options, with whether a stop flag and a progress callback are given (the callback is a
/// closure, which has no `Debug`).
impl std::fmt::Debug for PerftOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PerftOptions")
            .field("threads", &self.threads)
            .field("stop", &self.stop)
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

/// The result of [`divide_parallel`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divide {
    /// Each finished first move with its leaf count, in the engine's move order (all of them
    /// unless the count was stopped).
    pub rows: Vec<(Move, u64)>,
    /// The number of first moves of the position.
    pub first_moves: usize,
    /// Leaves counted; the perft value when [`Divide::complete`].
    pub total: u64,
}

impl Divide {
    /// Whether every first move was counted (the count was not stopped).
    pub fn complete(&self) -> bool {
        self.rows.len() == self.first_moves
    }
}

/// Perft of `depth` below `engine`, split by first move and counted on a rayon pool.
pub fn divide_parallel<E: Engine>(
    engine: &E,
    depth: u32,
    opts: &PerftOptions,
) -> Result<Divide, PerftError> {
    if depth > MAX_PERFT_DEPTH {
        return Err(PerftError::TooDeep {
            depth,
            max: MAX_PERFT_DEPTH,
        });
    }
    if depth == 0 {
        return Ok(Divide {
            rows: Vec::new(),
            first_moves: 0,
            total: 1,
        });
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build()
        .map_err(|e| PerftError::Threads {
            threads: opts.threads,
            reason: e.to_string(),
        })?;
    let moves = engine.legal_moves();
    let never = AtomicBool::new(false);
    let stop = opts.stop.unwrap_or(&never);
    let (done, leaves) = (AtomicUsize::new(0), AtomicU64::new(0));
    let rows: Vec<(Move, u64)> = pool.install(|| {
        moves
            .par_iter()
            .filter_map(|m| {
                let n = count_until(&engine.apply(m), depth - 1, stop)?;
                let progress = PerftProgress {
                    done: done.fetch_add(1, Ordering::Relaxed) + 1,
                    total: moves.len(),
                    leaves: leaves.fetch_add(n, Ordering::Relaxed) + n,
                };
                if let Some(report) = opts.progress {
                    report(progress);
                }
                Some((*m, n))
            })
            .collect()
    });
    Ok(Divide {
        total: rows.iter().map(|(_, n)| n).sum(),
        first_moves: moves.len(),
        rows,
    })
}

/// Perft of `depth` below `e`, or `None` once `stop` is set. The last two plies are left to
/// the engine's own [`Engine::perft`] (bulk counting where it has one).
fn count_until<E: Engine>(e: &E, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    if depth <= 2 {
        return Some(e.perft(depth));
    }
    let mut n = 0;
    for m in e.legal_moves() {
        n += count_until(&e.apply(&m), depth - 1, stop)?;
    }
    Some(n)
}
