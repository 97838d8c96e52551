//! Retrograde analysis over a closed [`Space`], with cycles handled by counting.
//!
//! 1. Every position's successors are generated once (through the engine) and turned into
//!    indices; a position without successors is lost for the side to move (the game is over,
//!    ORDO-10.5, or it has no move, ORDO-10.3 / ORDO-10.4): loss in 0.
//! 2. The reversed graph is built in compressed form (an offset per position, then the
//!    predecessor indices, 4 bytes per distinct move).
//! 3. The values spread backwards layer by layer, distance 0, 1, 2, ...: a predecessor of a
//!    loss in `d` is a win in `d + 1` (the first layer to reach it gives the quickest win); a
//!    predecessor all of whose successors are wins becomes, when its last one is reached, a
//!    loss in `d + 1` (the last layer gives the slowest loss).
//! 4. What no layer reaches is a draw: the side to move cannot be forced to lose and cannot
//!    force a win, so sideways play can go on for ever (ORDO-3.3).
//!
//! Each layer runs in parallel (rayon). Within a layer only one kind of update happens (all
//! its positions have the same parity), so the result does not depend on thread timing.

use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, Ordering};

use rayon::prelude::*;

use super::space::{key_of, Space};
use super::value::Value;
use super::SolveError;
use crate::rules::{Engine, Status, WinReason};

/// How the games of a space end and how the values came out.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Counts {
    /// Positions in the space.
    pub positions: u64,
    /// Distinct moves between them (edges of the game graph).
    pub edges: u64,
    /// Won for the side to move.
    pub wins: u64,
    /// Lost for the side to move (game-over positions included).
    pub losses: u64,
    /// Neither side can force the end.
    pub draws: u64,
    /// Game over by ORDO-10.1 (a piece reached the home row of the side to move).
    pub over_home_row: u64,
    /// Game over by ORDO-10.2 (the side to move has no piece).
    pub over_no_pieces: u64,
    /// Side to move split and unable to reconnect (ORDO-10.3).
    pub cannot_reconnect: u64,
    /// Stalemates: side to move one group and without a legal move (ORDO-10.4).
    pub stalemates: u64,
    /// Longest distance to the end of the game, in plies.
    pub longest: u16,
}

/// Build the successor lists of `space` on engine `E` and solve it. Returns one value code
/// per position ([`Value::code`]) and the counts.
pub fn solve<E: Engine>(
    space: &Space,
    progress: &indicatif::ProgressBar,
) -> Result<(Vec<u16>, Counts), SolveError> {
    let n = space.len();
    let terminal_reasons: [AtomicU64; 4] = Default::default();
    // 1. Out-degrees (distinct successors) and in-degrees.
    progress.set_message(format!("solving: successors of {n} positions"));
    let indegree: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(0)).collect();
    let remaining: Vec<AtomicU32> = (0..n)
        .into_par_iter()
        .map_init(
            || (Vec::new(), Vec::new()),
            |(buf, idx), i| -> Result<AtomicU32, SolveError> {
                successor_indices::<E>(space, i, buf, idx)?;
                if idx.is_empty() {
                    let e: E = space.load(i)?;
                    let slot = match e.status() {
                        Status::Won { reason, .. } => reason as usize,
                        Status::Ongoing => {
                            return Err(SolveError::Corrupt(format!(
                                "index {i}: no successor but the game is not over"
                            )))
                        }
                    };
                    terminal_reasons[slot].fetch_add(1, Ordering::Relaxed);
                }
                for &j in idx.iter() {
                    indegree[j as usize].fetch_add(1, Ordering::Relaxed);
                }
                Ok(AtomicU32::new(idx.len() as u32))
            },
        )
        .collect::<Result<_, _>>()?;
    // 2. The reversed graph.
    let mut offsets = Vec::with_capacity(n + 1);
    let mut total = 0u64;
    offsets.push(0u64);
    for d in &indegree {
        total += u64::from(d.swap(0, Ordering::Relaxed));
        offsets.push(total);
    }
    progress.set_message(format!("solving: {total} moves reversed"));
    let preds: Vec<AtomicU32> = (0..total).map(|_| AtomicU32::new(0)).collect();
    (0..n).into_par_iter().try_for_each_init(
        || (Vec::new(), Vec::new()),
        |(buf, idx), i| -> Result<(), SolveError> {
            successor_indices::<E>(space, i, buf, idx)?;
            for &j in idx.iter() {
                let slot = offsets[j as usize]
                    + u64::from(indegree[j as usize].fetch_add(1, Ordering::Relaxed));
                preds[slot as usize].store(i as u32, Ordering::Relaxed);
            }
            Ok(())
        },
    )?;
    drop(indegree);
    // 3. Layers.
    let values: Vec<AtomicU16> = (0..n).map(|_| AtomicU16::new(0)).collect();
    let mut layer: Vec<u32> = (0..n as u32)
        .into_par_iter()
        .filter(|&i| remaining[i as usize].load(Ordering::Relaxed) == 0)
        .collect();
    layer
        .par_iter()
        .for_each(|&i| values[i as usize].store(Value::Loss(0).code(), Ordering::Relaxed));
    let mut distance: u16 = 0;
    let mut longest = 0;
    while !layer.is_empty() {
        longest = distance;
        if distance == u16::MAX - 1 {
            return Err(SolveError::TooLarge("a distance beyond 65534 plies".into()));
        }
        let next_code = Value::at_distance(distance + 1).code();
        let losing_layer = distance % 2 == 0;
        let next: Vec<u32> = layer
            .par_iter()
            .flat_map_iter(|&p| {
                let (lo, hi) = (
                    offsets[p as usize] as usize,
                    offsets[p as usize + 1] as usize,
                );
                let mut found = Vec::new();
                for q in &preds[lo..hi] {
                    let q = q.load(Ordering::Relaxed);
                    let v = &values[q as usize];
                    if v.load(Ordering::Relaxed) != 0 {
                        continue;
                    }
                    let resolved = if losing_layer {
                        // Some move reaches a lost position: the quickest win.
                        true
                    } else {
                        // One more successor known to be won; the last one makes a loss.
                        remaining[q as usize].fetch_sub(1, Ordering::Relaxed) == 1
                    };
                    if resolved
                        && v.compare_exchange(0, next_code, Ordering::Relaxed, Ordering::Relaxed)
                            .is_ok()
                    {
                        found.push(q);
                    }
                }
                found
            })
            .collect();
        distance += 1;
        progress.set_message(format!(
            "solving: layer {distance}, {} positions decided",
            next.len()
        ));
        layer = next;
    }
    let values: Vec<u16> = values.into_iter().map(AtomicU16::into_inner).collect();
    let mut counts = tally(&values);
    counts.edges = total;
    counts.longest = longest;
    let r = |w: WinReason| terminal_reasons[w as usize].load(Ordering::Relaxed);
    counts.over_home_row = r(WinReason::HomeRow);
    counts.over_no_pieces = r(WinReason::NoPieces);
    counts.cannot_reconnect = r(WinReason::CannotReconnect);
    counts.stalemates = r(WinReason::NoLegalMove);
    Ok((values, counts))
}

/// Wins, losses, draws and the longest distance of a value table.
pub fn tally(values: &[u16]) -> Counts {
    let mut c = Counts {
        positions: values.len() as u64,
        ..Counts::default()
    };
    for &code in values {
        match Value::from_code(code) {
            Value::Win(d) => {
                c.wins += 1;
                c.longest = c.longest.max(d);
            }
            Value::Loss(d) => {
                c.losses += 1;
                c.longest = c.longest.max(d);
            }
            Value::Draw => c.draws += 1,
        }
    }
    c
}

/// The distinct indices of the successors of position `i`, sorted, into `idx` (`buf` is
/// scratch). A successor outside the space is an error: the space is not closed.
pub fn successor_indices<E: Engine>(
    space: &Space,
    i: usize,
    buf: &mut Vec<E>,
    idx: &mut Vec<u32>,
) -> Result<(), SolveError> {
    let e: E = space.load(i)?;
    e.successors(buf);
    idx.clear();
    for s in buf.iter() {
        let k = key_of(s);
        match space.index(k) {
            Some(j) => idx.push(j as u32),
            None => {
                return Err(SolveError::Corrupt(format!(
                    "a successor of index {i} is not in the table (key {k:#x})"
                )))
            }
        }
    }
    idx.sort_unstable();
    idx.dedup();
    Ok(())
}
