//! Retrograde analysis over a game graph, with cycles handled by counting.
//!
//! 1. Every node's successors are generated once (through the engine) and located: in the
//!    graph being solved (an index), or outside it with a value already known (a smaller
//!    material slice of an endgame table, or a game already over). A node without
//!    successors is lost for the side to move (the game is over, ORDO-10.5, or it has no
//!    move, ORDO-10.3 / ORDO-10.4): loss in 0.
//! 2. The reversed graph is built in compressed form (an offset per node, then the
//!    predecessor indices, 4 bytes per distinct move inside the graph).
//! 3. Values are settled in order of distance, 0, 1, 2, ... A node waiting in the bucket of
//!    distance `d` is settled there unless an earlier bucket settled it: as a win if `d` is
//!    odd, a loss if even (turns alternate, see [`Value`]). A settled loss in `d` puts every
//!    predecessor in bucket `d + 1` (the first bucket to reach it gives the quickest win); a
//!    settled win makes each predecessor count down its unsettled successors, and the last
//!    one puts it in the bucket after the slowest of its wins, inside or outside the graph.
//!    Known values outside seed the buckets from the start: a lost successor outside puts
//!    the node in the bucket one further; a drawn one means the node can never be lost.
//! 4. What no bucket reaches is a draw: the side to move cannot be forced to lose and cannot
//!    force a win, so sideways play can go on for ever (ORDO-3.3).
//!
//! Each bucket runs in parallel (rayon). All nodes settled in one bucket have the same
//! parity, so only one kind of update happens at a time and the result does not depend on
//! thread timing.

use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, Ordering};

use rayon::prelude::*;

use crate::rules::{Engine, Status, WinReason};
use crate::solve::Value;
use crate::solve::{Counts, SolveError};

/// The code of an index that names no position (an endgame slice's index has gaps).
pub const NO_POSITION: u16 = u16::MAX;

/// Where a successor lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// In the graph being solved, at this index.
    Inside(u32),
    /// Outside it, with this value (for the side to move there).
    Known(Value),
}

/// A game graph to solve: nodes are indices `0..len`, each a position or nothing.
pub trait Graph: Sync {
    type E: Engine;
    /// Number of indices.
    fn len(&self) -> usize;
    /// Whether there are no indices.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The position of index `i`, `None` if the index names no position.
    fn load(&self, i: usize) -> Result<Option<Self::E>, SolveError>;
    /// Where a successor position lies.
    fn locate(&self, e: &Self::E) -> Result<Target, SolveError>;
}

/// What the first pass learns about one node.
struct Node {
    /// Distinct successors inside the graph (plus one if a drawn successor outside forbids
    /// a loss).
    inside: u32,
    /// Slowest win among the successors outside (0: none).
    ext_slowest_win: u16,
}

/// Solve `graph`: one value code per index ([`Value::code`], [`NO_POSITION`] for gaps) and
/// the counts.
pub fn solve<G: Graph>(
    graph: &G,
    progress: &dyn crate::solve::Progress,
) -> Result<(Vec<u16>, Counts), SolveError> {
    let n = graph.len();
    if n >= u32::MAX as usize {
        return Err(SolveError::TooLarge(format!(
            "{n} indices; at most 2^32 - 1"
        )));
    }
    let first = first_pass(graph, progress)?;
    let reversed = reverse(graph, progress, &first.indegree)?;
    drop(first.indegree);
    let state = Settling::new(&first.nodes);
    drop(first.nodes);
    state.settle(&reversed, first.seeds, progress)?;
    let values: Vec<u16> = state
        .values
        .into_iter()
        .map(AtomicU16::into_inner)
        .collect();
    let mut counts = tally(&values);
    counts.edges = reversed.preds.len() as u64;
    let r = |w: WinReason| first.terminal[w as usize].load(Ordering::Relaxed);
    counts.over_home_row = r(WinReason::HomeRow);
    counts.over_no_pieces = r(WinReason::NoPieces);
    counts.cannot_reconnect = r(WinReason::CannotReconnect);
    counts.stalemates = r(WinReason::NoLegalMove);
    Ok((values, counts))
}

/// What the first pass over every node gathers.
struct FirstPass {
    /// Per index, what the node needs for settling (`None` for a gap).
    nodes: Vec<Option<Node>>,
    /// Per index, how many distinct predecessors inside the graph it has.
    indegree: Vec<AtomicU32>,
    /// The nodes whose bucket is known before settling starts: (distance, index).
    seeds: Vec<(u16, u32)>,
    /// Game-over positions by [`WinReason`].
    terminal: [AtomicU64; 4],
}

/// Step 1: generate and locate every node's successors, count in-degrees, and seed the
/// buckets with the games already over and the values known outside the graph.
fn first_pass<G: Graph>(
    graph: &G,
    progress: &dyn crate::solve::Progress,
) -> Result<FirstPass, SolveError> {
    let n = graph.len();
    let terminal: [AtomicU64; 4] = Default::default();
    let seeds: std::sync::Mutex<Vec<(u16, u32)>> = std::sync::Mutex::new(Vec::new());
    let ticker = crate::solve::Ticker::new(
        progress,
        crate::solve::Phase {
            name: "solving: successors",
            unit: "positions",
        },
        Some(n as u64),
    );
    let indegree: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(0)).collect();
    let nodes: Vec<Option<Node>> = (0..n)
        .into_par_iter()
        .map_init(
            || (Vec::new(), Vec::new(), Vec::new()),
            |(buf, idx, ext), i| -> Result<Option<Node>, SolveError> {
                ticker.tick();
                let Some(e) = graph.load(i)? else {
                    return Ok(None);
                };
                successors(graph, &e, buf, idx, ext)?;
                if idx.is_empty() && ext.is_empty() {
                    terminal[game_over_reason(&e, i)?].fetch_add(1, Ordering::Relaxed);
                }
                for &j in idx.iter() {
                    indegree[j as usize].fetch_add(1, Ordering::Relaxed);
                }
                let (node, seeds_here) = node_from_successors(i as u32, idx, ext);
                if !seeds_here.is_empty() {
                    seeds
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .extend(seeds_here);
                }
                Ok(Some(node))
            },
        )
        .collect::<Result<_, _>>()?;
    let seeds = seeds.into_inner().unwrap_or_else(|p| p.into_inner());
    Ok(FirstPass {
        nodes,
        indegree,
        seeds,
        terminal,
    })
}

/// Why the game is over at node `i`, which has no successor (as a [`WinReason`] slot); an
/// error if it is not over (ORDO-10.3 and ORDO-10.4 make a player without a move lose).
fn game_over_reason<E: Engine>(e: &E, i: usize) -> Result<usize, SolveError> {
    match e.status() {
        Status::Won { reason, .. } => Ok(reason as usize),
        Status::Ongoing => Err(SolveError::Corrupt(format!(
            "index {i}: no successor but the game is not over"
        ))),
    }
}

/// The node `i` whose successors inside are `idx` and whose known values outside are
/// `ext`, and the buckets it is seeded in: 0 when it has no successor at all (lost), one
/// further than the quickest lost successor outside, and, when every successor lies outside
/// and is won, one after the slowest of them.
fn node_from_successors(i: u32, idx: &[u32], ext: &[Value]) -> (Node, Vec<(u16, u32)>) {
    let quickest_ext_win = ext
        .iter()
        .filter_map(|v| match v {
            Value::Loss(d) => Some(d + 1),
            _ => None,
        })
        .min();
    let ext_draw = ext.contains(&Value::Draw);
    let ext_slowest_win = ext
        .iter()
        .filter_map(|v| match v {
            Value::Win(d) => Some(*d),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    let mut seeds = Vec::new();
    if idx.is_empty() && ext.is_empty() {
        seeds.push((0, i));
    }
    if let Some(w) = quickest_ext_win {
        seeds.push((w, i));
    }
    let can_lose = quickest_ext_win.is_none() && !ext_draw;
    if idx.is_empty() && !ext.is_empty() && can_lose {
        seeds.push((ext_slowest_win + 1, i));
    }
    let node = Node {
        inside: idx.len() as u32 + u32::from(!can_lose),
        ext_slowest_win,
    };
    (node, seeds)
}

/// The reversed graph in compressed form: the predecessors of node `j` are
/// `preds[offsets[j]..offsets[j + 1]]`.
struct Reversed {
    offsets: Vec<u64>,
    preds: Vec<AtomicU32>,
}

/// Step 2: build the reversed graph from the in-degrees of the first pass (which it uses
/// as fill counters).
fn reverse<G: Graph>(
    graph: &G,
    progress: &dyn crate::solve::Progress,
    indegree: &[AtomicU32],
) -> Result<Reversed, SolveError> {
    let n = graph.len();
    let mut offsets = Vec::with_capacity(n + 1);
    let mut total = 0u64;
    offsets.push(0u64);
    for d in indegree {
        total += u64::from(d.swap(0, Ordering::Relaxed));
        offsets.push(total);
    }
    let ticker = crate::solve::Ticker::new(
        progress,
        crate::solve::Phase {
            name: "solving: reversing moves",
            unit: "positions",
        },
        Some(n as u64),
    );
    let preds: Vec<AtomicU32> = (0..total).map(|_| AtomicU32::new(0)).collect();
    (0..n).into_par_iter().try_for_each_init(
        || (Vec::new(), Vec::new(), Vec::new()),
        |(buf, idx, ext), i| -> Result<(), SolveError> {
            ticker.tick();
            let Some(e) = graph.load(i)? else {
                return Ok(());
            };
            successors(graph, &e, buf, idx, ext)?;
            for &j in idx.iter() {
                let slot = offsets[j as usize]
                    + u64::from(indegree[j as usize].fetch_add(1, Ordering::Relaxed));
                preds[slot as usize].store(i as u32, Ordering::Relaxed);
            }
            Ok(())
        },
    )?;
    Ok(Reversed { offsets, preds })
}

/// The state of step 3, per index.
struct Settling {
    /// Unsettled successors inside the graph (a win settled there counts one down).
    remaining: Vec<AtomicU32>,
    /// Slowest win among the successors outside.
    slowest: Vec<u16>,
    /// The value code (0: not settled yet; [`NO_POSITION`] for a gap).
    values: Vec<AtomicU16>,
}

impl Settling {
    fn new(nodes: &[Option<Node>]) -> Settling {
        let remaining = nodes
            .iter()
            .map(|nd| AtomicU32::new(nd.as_ref().map_or(0, |x| x.inside)))
            .collect();
        let slowest = nodes
            .iter()
            .map(|nd| nd.as_ref().map_or(0, |x| x.ext_slowest_win))
            .collect();
        let values = nodes
            .iter()
            .map(|nd| AtomicU16::new(if nd.is_some() { 0 } else { NO_POSITION }))
            .collect();
        Settling {
            remaining,
            slowest,
            values,
        }
    }

    /// Step 3: settle the buckets in order of distance, starting from `seeds`.
    fn settle(
        &self,
        reversed: &Reversed,
        seeds: Vec<(u16, u32)>,
        progress: &dyn crate::solve::Progress,
    ) -> Result<(), SolveError> {
        let n = self.values.len() as u64;
        let mut buckets: Vec<Vec<u32>> = Vec::new();
        put_in_buckets(&mut buckets, seeds);
        let mut distance: usize = 0;
        let mut settled_total = 0u64;
        while distance < buckets.len() {
            if distance >= NO_POSITION as usize - 2 {
                return Err(SolveError::TooLarge("a distance beyond 65532 plies".into()));
            }
            let candidates = std::mem::take(&mut buckets[distance]);
            let (settled, next) = self.settle_bucket(reversed, distance as u16, candidates);
            put_in_buckets(&mut buckets, next);
            settled_total += settled as u64;
            let phase = crate::solve::Phase {
                name: "solving: settling by distance",
                unit: "positions",
            };
            progress.update(phase, settled_total, Some(n));
            distance += 1;
        }
        Ok(())
    }

    /// Settle the unsettled `candidates` of the bucket at distance `d`: how many were
    /// settled, and the predecessors that this puts in later buckets (distance, index).
    fn settle_bucket(
        &self,
        reversed: &Reversed,
        d: u16,
        candidates: Vec<u32>,
    ) -> (usize, Vec<(u16, u32)>) {
        let code = Value::at_distance(d).code();
        let settled: Vec<u32> = candidates
            .into_par_iter()
            .filter(|&i| {
                self.values[i as usize]
                    .compare_exchange(0, code, Ordering::Relaxed, Ordering::Relaxed)
                    .is_ok()
            })
            .collect();
        let losing = d % 2 == 0;
        let next = settled
            .par_iter()
            .flat_map_iter(|&p| self.predecessors_reached(reversed, d, losing, p))
            .collect();
        (settled.len(), next)
    }

    /// The unsettled predecessors of `p` (settled at distance `d`, lost if `losing`) that
    /// now go in a bucket: all of them after a loss, after a win those whose last unsettled
    /// successor it was.
    fn predecessors_reached(
        &self,
        reversed: &Reversed,
        d: u16,
        losing: bool,
        p: u32,
    ) -> Vec<(u16, u32)> {
        let (lo, hi) = (
            reversed.offsets[p as usize] as usize,
            reversed.offsets[p as usize + 1] as usize,
        );
        let mut found = Vec::new();
        for q in &reversed.preds[lo..hi] {
            let q = q.load(Ordering::Relaxed);
            if self.values[q as usize].load(Ordering::Relaxed) != 0 {
                continue;
            }
            if losing {
                found.push((d + 1, q));
            } else if self.remaining[q as usize].fetch_sub(1, Ordering::Relaxed) == 1 {
                found.push((d.max(self.slowest[q as usize]) + 1, q));
            }
        }
        found
    }
}

/// Put each (distance, index) in the bucket of its distance.
fn put_in_buckets(buckets: &mut Vec<Vec<u32>>, entries: Vec<(u16, u32)>) {
    for (d, i) in entries {
        let d = d as usize;
        if buckets.len() <= d {
            buckets.resize_with(d + 1, Vec::new);
        }
        buckets[d].push(i);
    }
}

/// Wins, losses, draws and the longest distance of a value table (gaps skipped).
pub fn tally(values: &[u16]) -> Counts {
    let mut c = Counts::default();
    for &code in values {
        if code == NO_POSITION {
            continue;
        }
        c.positions += 1;
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

/// The successors of `e`: distinct indices inside the graph, sorted, into `idx`; the values
/// of those outside into `ext` (`buf` is scratch).
fn successors<G: Graph>(
    graph: &G,
    e: &G::E,
    buf: &mut Vec<G::E>,
    idx: &mut Vec<u32>,
    ext: &mut Vec<Value>,
) -> Result<(), SolveError> {
    e.successors(buf);
    idx.clear();
    ext.clear();
    for s in buf.iter() {
        match graph.locate(s)? {
            Target::Inside(j) => idx.push(j),
            Target::Known(v) => ext.push(v),
        }
    }
    idx.sort_unstable();
    idx.dedup();
    Ok(())
}
