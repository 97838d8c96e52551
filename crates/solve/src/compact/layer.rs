//! Solving one layer of the core once every layer it can move into is solved.
//!
//! Every successor of a layer's position lies in the layer itself (a sideways move), in a
//! solved layer of the same material (a move forward), or in a smaller material (a capture);
//! only the first kind needs solving here. The layer's own moves are kept as a small local
//! graph (4 bytes a move inside the layer, freed when the layer is done) and settled by
//! distance as retrograde analysis does for a whole table: a loss in `d` makes every
//! predecessor a win in `d + 1` at the latest; a win makes each predecessor count down its
//! unsettled moves, the last one making it a loss after the slowest of its wins. What no
//! distance reaches is a draw (ORDO-3.3). Moves out of the layer are summed up once, as
//! they are generated: the quickest win, the slowest loss, and whether a draw is at hand.
//!
//! A successor is looked up through its stored image (its mirror image or colour twin where
//! that is the one stored, see `index`): images have one value, so the local graph is the
//! graph of the stored images, and a move into an image counts once however many moves
//! reach it.

use crate::rules::Engine;
use crate::value::Value;
use crate::SolveError;

use super::index::Layer;
use super::{decode, Building, SliceStats};

/// Where a successor lies.
enum Succ {
    /// In the layer, at this local index.
    Local(u32),
    /// Solved already, with this value.
    Known(Value),
}

/// A position's moves as the first pass sums them up.
struct Summary {
    /// Distinct successors inside the layer, plus one if the position can never be lost.
    remaining: u32,
    /// Slowest win of the opponent among the successors outside.
    slowest: u16,
}

impl<E: Engine> Building<'_, E> {
    fn classify(&self, layer: Layer, s: &E) -> Result<Succ, SolveError> {
        let occ = s.occupancy();
        let stm = s.side_to_move();
        if occ[stm as usize] == 0 {
            return Ok(Succ::Known(Value::Loss(0)));
        }
        let m = self.material;
        if occ[0].count_ones() != m.white || occ[1].count_ones() != m.black {
            return self.tables.value_of::<E>(occ, stm).map(Succ::Known);
        }
        let slot = self.index.slot(occ, stm).ok_or_else(|| {
            SolveError::Corrupt(format!(
                "a move without capture leaves a side split in {m}: {occ:x?}"
            ))
        })?;
        if (layer.start..layer.end).contains(&slot) {
            Ok(Succ::Local((slot - layer.start) as u32))
        } else if slot < self.values.len() {
            Ok(Succ::Known(decode(self.values[slot])))
        } else {
            Err(SolveError::Corrupt(format!(
                "a move lowers an advancement in {m}: from layer {:?} to slot {slot}",
                layer.adv
            )))
        }
    }

    /// Generate the moves of `e`, local index `i`: those inside the layer go to `edges`, the
    /// rest are summed up; a seed goes to `seeds` where the outside decides a distance.
    fn first_pass(
        &self,
        layer: Layer,
        (i, e): (u32, &E),
        buf: &mut Vec<E>,
        edges: &mut Vec<u32>,
        seeds: &mut Vec<(u16, u32)>,
    ) -> Result<Summary, SolveError> {
        e.successors(buf);
        let start = edges.len();
        let (mut quickest, mut slowest, mut draw) = (None::<u16>, 0u16, false);
        for s in buf.iter() {
            match self.classify(layer, s)? {
                Succ::Local(j) => edges.push(j),
                Succ::Known(Value::Loss(d)) => quickest = Some(quickest.map_or(d, |q| q.min(d))),
                Succ::Known(Value::Win(d)) => slowest = slowest.max(d),
                Succ::Known(Value::Draw) => draw = true,
            }
        }
        edges[start..].sort_unstable();
        let mut kept = start;
        for k in start..edges.len() {
            if k == start || edges[k] != edges[kept - 1] {
                edges[kept] = edges[k];
                kept += 1;
            }
        }
        edges.truncate(kept);
        let inside = (kept - start) as u32;
        let can_lose = quickest.is_none() && !draw;
        if let Some(q) = quickest {
            seeds.push((q + 1, i));
        }
        if buf.is_empty() {
            seeds.push((0, i));
        } else if inside == 0 && can_lose {
            seeds.push((slowest + 1, i));
        }
        Ok(Summary {
            remaining: inside + u32::from(!can_lose),
            slowest,
        })
    }

    /// Solve `layer` into `out` (one byte a slot): its values, given every layer and
    /// material it moves into.
    /// What it reports counts the core positions the layer's entries answer for (mirror
    /// images and colour twins included) and the moves as generated, as one layer.
    pub(super) fn solve_layer(
        &self,
        layer: Layer,
        out: &mut [u8],
    ) -> Result<SliceStats, SolveError> {
        let n = layer.len();
        let (mut buf, mut edges, mut seeds) = (Vec::new(), Vec::new(), Vec::new());
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0u32);
        let mut remaining = vec![0u32; n];
        let mut slowest = vec![0u16; n];
        let mut solved = SliceStats {
            layers: 1,
            ..SliceStats::default()
        };
        for (i, entry) in self.index.entries(layer).enumerate() {
            let e = E::from_occupancy(self.tables.dims, self.tables.variant, entry.stm, entry.occ)
                .map_err(|e| SolveError::Corrupt(format!("{:x?}: {e}", entry.occ)))?;
            let s = self.first_pass(layer, (i as u32, &e), &mut buf, &mut edges, &mut seeds)?;
            remaining[i] = s.remaining;
            slowest[i] = s.slowest;
            solved.moves += buf.len() as u64;
            offsets.push(edges.len() as u32);
        }
        solved.layer_moves = edges.len() as u64;
        let (pred_off, preds) = reverse(&offsets, &edges);
        drop(edges);
        let mut codes = vec![0u16; n];
        settle(
            &mut codes,
            seeds,
            &pred_off,
            &preds,
            &mut remaining,
            &slowest,
        )?;
        for ((o, c), entry) in out.iter_mut().zip(codes).zip(self.index.entries(layer)) {
            *o = u8::try_from(c).map_err(|_| {
                SolveError::TooLarge(format!(
                    "a distance of {} plies; one byte holds at most 254",
                    c - 1
                ))
            })?;
            solved.count(decode(*o), u64::from(entry.images));
        }
        Ok(solved)
    }
}

/// The predecessors of each local index (compressed rows).
fn reverse(offsets: &[u32], edges: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let n = offsets.len() - 1;
    let mut pred_off = vec![0u32; n + 1];
    for &j in edges {
        pred_off[j as usize + 1] += 1;
    }
    for k in 1..=n {
        pred_off[k] += pred_off[k - 1];
    }
    let mut fill = pred_off.clone();
    let mut preds = vec![0u32; edges.len()];
    for i in 0..n {
        for &j in &edges[offsets[i] as usize..offsets[i + 1] as usize] {
            preds[fill[j as usize] as usize] = i as u32;
            fill[j as usize] += 1;
        }
    }
    (pred_off, preds)
}

/// Settle values by distance (see the module doc); `codes` are [`Value::code`]s, 0 left for
/// what no distance reaches.
fn settle(
    codes: &mut [u16],
    seeds: Vec<(u16, u32)>,
    pred_off: &[u32],
    preds: &[u32],
    remaining: &mut [u32],
    slowest: &[u16],
) -> Result<(), SolveError> {
    let mut buckets: Vec<Vec<u32>> = Vec::new();
    let put = |buckets: &mut Vec<Vec<u32>>, d: u16, i: u32| {
        if buckets.len() <= d as usize {
            buckets.resize_with(d as usize + 1, Vec::new);
        }
        buckets[d as usize].push(i);
    };
    for (d, i) in seeds {
        put(&mut buckets, d, i);
    }
    let mut d = 0usize;
    while d < buckets.len() {
        if d > 254 {
            return Err(SolveError::TooLarge(format!(
                "a distance of {d} plies; one byte holds at most 254"
            )));
        }
        let code = Value::at_distance(d as u16).code();
        for p in std::mem::take(&mut buckets[d]) {
            if codes[p as usize] != 0 {
                continue;
            }
            codes[p as usize] = code;
            for &q in &preds[pred_off[p as usize] as usize..pred_off[p as usize + 1] as usize] {
                if codes[q as usize] != 0 {
                    continue;
                }
                if d % 2 == 0 {
                    put(&mut buckets, d as u16 + 1, q);
                } else {
                    remaining[q as usize] -= 1;
                    if remaining[q as usize] == 0 {
                        put(&mut buckets, (d as u16).max(slowest[q as usize]) + 1, q);
                    }
                }
            }
        }
        d += 1;
    }
    Ok(())
}
