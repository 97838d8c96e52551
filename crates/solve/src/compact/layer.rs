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

use crate::notation::format_position;
use crate::rules::{Color, Engine};
use crate::value::Value;
use crate::{SolveError, Verification};

use super::index::{Entry, Layer};
use super::{decode, Building, SliceStats};

/// The number of mismatches a layer's verdict describes.
const EXAMPLES: usize = 5;

/// Where a successor lies.
enum Succ {
    /// In the layer, at this local index.
    Local(u32),
    /// Solved already, with this value.
    Known(Value),
}

/// The values of a position's successors folded as [`Value::from_successors`] folds them:
/// first those outside the layer (as the first pass generates them), then, once the layer
/// is settled, those inside it (the in-sweep check of the retrograde equation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Tally {
    /// Quickest loss of the opponent (`u16::MAX`: none).
    quickest: u16,
    /// Slowest win of the opponent (0: none; a win is at least 1 ply away).
    slowest: u16,
    /// Whether a successor is a draw, and whether there is any successor.
    draw: bool,
    any: bool,
}

impl Default for Tally {
    fn default() -> Self {
        Tally {
            quickest: u16::MAX,
            slowest: 0,
            draw: false,
            any: false,
        }
    }
}

impl Tally {
    /// Fold the value of one more successor.
    pub(super) fn fold(&mut self, v: Value) {
        self.any = true;
        match v {
            Value::Loss(d) => self.quickest = self.quickest.min(d),
            Value::Win(d) => self.slowest = self.slowest.max(d),
            Value::Draw => self.draw = true,
        }
    }

    /// Whether a successor folded so far is lost at once (a win in 1, whatever the others).
    pub(super) fn wins_at_once(self) -> bool {
        self.quickest == 0
    }

    /// The value the successors folded so far give the side to move (ORDO-3.3: what no
    /// distance reaches is a draw).
    pub(super) fn value(self) -> Value {
        match self {
            Tally { any: false, .. } => Value::Loss(0),
            Tally { quickest, .. } if quickest != u16::MAX => Value::Win(quickest + 1),
            Tally { draw: true, .. } => Value::Draw,
            Tally { slowest: 0, .. } => Value::Draw,
            Tally { slowest, .. } => Value::Loss(slowest + 1),
        }
    }
}

impl<E: Engine> Building<'_, E> {
    /// Where the successor `occ` (`stm` to move) of `entry` lies.
    #[inline(always)]
    fn classify(
        &self,
        layer: Layer,
        entry: &Entry,
        occ: [u128; 2],
        stm: Color,
    ) -> Result<Succ, SolveError> {
        if occ[stm as usize] == 0 {
            return Ok(Succ::Known(Value::Loss(0)));
        }
        let m = self.material;
        if occ[0].count_ones() != m.white || occ[1].count_ones() != m.black {
            return self.tables.value_of::<E>(occ, stm).map(Succ::Known);
        }
        let slot = self.slot_after(entry, occ, stm).ok_or_else(|| {
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

    /// The slot of `occ` (`stm` to move), a successor of `entry` of its material: the side
    /// to move has the entry's pieces (nothing was captured), so only the mover's set is
    /// ranked.
    #[inline(always)]
    fn slot_after(&self, entry: &Entry, occ: [u128; 2], stm: Color) -> Option<usize> {
        let (s, mv) = (stm as usize, stm.opponent() as usize);
        if occ[s] != entry.occ[s] {
            return self.index.slot(occ, stm);
        }
        let (r, a) = self.index.sets[mv].rank(occ[mv])?;
        let (mut ranks, mut adv) = (entry.ranks, entry.adv);
        (ranks[mv], adv[mv]) = (r, a);
        self.index.slot_of(stm, ranks, adv)
    }

    /// Generate the moves of `e`, local index `i`: those inside the layer go to `edges`, the
    /// rest are summed up; a seed goes to `seeds` where the outside decides a distance.
    #[inline(always)]
    fn first_pass(
        &self,
        layer: Layer,
        (i, e, entry): (u32, &E, &Entry),
        buf: &mut Vec<[u128; 2]>,
        edges: &mut Vec<u32>,
        seeds: &mut Vec<(u16, u32)>,
    ) -> Result<(u32, Tally), SolveError> {
        e.successor_occupancies(buf);
        let start = edges.len();
        let mut tally = Tally::default();
        let m = self.material;
        let capture = |s: &&[u128; 2]| s[0].count_ones() != m.white || s[1].count_ones() != m.black;
        // The moves without capture first, then the captures, which may need a shell
        // position valued: once a successor is lost at once (a win in 1), no capture can
        // change the value, and none is valued.
        for &s in buf.iter().filter(|s| !capture(s)) {
            match self.classify(layer, entry, s, entry.stm.opponent())? {
                Succ::Local(j) => edges.push(j),
                Succ::Known(v) => tally.fold(v),
            }
        }
        for &s in buf.iter().filter(capture) {
            if tally.wins_at_once() {
                break;
            }
            let v = self.tables.value_of::<E>(s, entry.stm.opponent())?;
            tally.fold(v);
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
        let can_lose = tally.quickest == u16::MAX && !tally.draw;
        if tally.quickest != u16::MAX {
            seeds.push((tally.quickest + 1, i));
        }
        if buf.is_empty() {
            seeds.push((0, i));
        } else if inside == 0 && can_lose {
            seeds.push((tally.slowest + 1, i));
        }
        // The remaining count: distinct successors inside, plus one if it can never be lost.
        Ok((inside + u32::from(!can_lose), tally))
    }

    /// Solve `layer`: its codes given every layer and material it moves into, and the
    /// in-sweep check of them ([`check_layer`]). Its stats count the moves as generated.
    ///
    /// Where the processor has x86-64-v3 (`ordo_bitboard::cpu::use_v3`), this runs in a copy
    /// compiled for it, into which the first pass is inlined (`#[inline(always)]` down to the
    /// index): the successors classified and ranked, whose population counts and bit scans
    /// become single instructions. The engine's move generator picks its own copy.
    #[allow(unsafe_code)]
    fn settle_layer(&self, layer: Layer) -> Result<Settled, SolveError> {
        #[cfg(target_arch = "x86_64")]
        if ordo_bitboard::cpu::use_v3() {
            // SAFETY: `use_v3` found every feature `settle_layer_v3` is compiled for.
            return unsafe { self.settle_layer_v3(layer) };
        }
        self.settle_layer_here(layer)
    }

    ordo_bitboard::v3_fn! {
        /// [`Building::settle_layer_here`] compiled for x86-64-v3.
        fn settle_layer_v3(&self, layer: Layer) -> Result<Settled, SolveError> {
            self.settle_layer_here(layer)
        }
    }

    /// [`Building::settle_layer`] as the crate is compiled; inlined into the x86-64-v3 copy.
    #[inline(always)]
    fn settle_layer_here(&self, layer: Layer) -> Result<Settled, SolveError> {
        let n = layer.len();
        let (mut buf, mut edges, mut seeds) = (Vec::new(), Vec::new(), Vec::new());
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0u32);
        let mut remaining = vec![0u32; n];
        let mut tallies = vec![Tally::default(); n];
        let mut stats = SliceStats {
            layers: 1,
            ..SliceStats::default()
        };
        let (dims, variant) = (self.tables.dims, self.tables.variant);
        for (i, entry) in self.index.entries(layer).enumerate() {
            // A stored position is one (ORDO-2.3) and both its sides are one group.
            let e = E::from_occupancy_split(dims, variant, entry.stm, entry.occ, [false; 2])
                .map_err(|e| SolveError::Corrupt(format!("{:x?}: {e}", entry.occ)))?;
            let at = (i as u32, &e, &entry);
            let s = self.first_pass(layer, at, &mut buf, &mut edges, &mut seeds)?;
            (remaining[i], tallies[i]) = s;
            stats.moves += buf.len() as u64;
            offsets.push(edges.len() as u32);
        }
        stats.layer_moves = edges.len() as u64;
        let (pred_off, preds) = reverse(&offsets, &edges);
        drop(edges);
        let mut codes = vec![0u16; n];
        let (tal, rem) = (&tallies, &mut remaining);
        settle(&mut codes, seeds, &pred_off, &preds, rem, tal)?;
        drop(remaining);
        let bad = check_layer(&codes, &mut tallies, &pred_off, &preds);
        Ok(Settled {
            stats,
            codes,
            tallies,
            bad,
        })
    }

    /// Solve `layer` into `out` (one byte a slot): its values, given every layer and
    /// material it moves into, and the in-sweep check of them ([`check_layer`]).
    /// What it reports counts the core positions the layer's entries answer for (mirror
    /// images and colour twins included) and the moves as generated, as one layer.
    pub(super) fn solve_layer(
        &self,
        layer: Layer,
        out: &mut [u8],
    ) -> Result<(SliceStats, Verification), SolveError> {
        let mut s = self.settle_layer(layer)?;
        for ((o, c), entry) in out.iter_mut().zip(&s.codes).zip(self.index.entries(layer)) {
            *o = u8::try_from(*c).map_err(|_| {
                SolveError::TooLarge(format!(
                    "a distance of {} plies; one byte holds at most 254",
                    c - 1
                ))
            })?;
            s.stats.count(decode(*o), u64::from(entry.images));
        }
        let verdict = self.verdict(layer, &s, &[], out);
        Ok((s.stats, verdict))
    }

    /// Solve `layer` again and compare the values with `held`, what a file or a checkpoint
    /// gave it (the verification of a slice that was not built whole in this run): a
    /// position whose held byte is not the rebuilt value, or whose rebuilt value fails the
    /// in-sweep check, is a mismatch.
    pub(super) fn recheck_layer(
        &self,
        layer: Layer,
        held: &[u8],
    ) -> Result<Verification, SolveError> {
        let s = self.settle_layer(layer)?;
        let differ: Vec<u32> = (0..layer.len() as u32)
            .filter(|&i| u16::from(held[i as usize]) != s.codes[i as usize])
            .collect();
        Ok(self.verdict(layer, &s, &differ, held))
    }

    /// The verdict on `layer`: its positions checked; mismatches the positions that fail the
    /// in-sweep check (`s.bad`) or whose `held` byte differs from the rebuilt value
    /// (`differ`), local indices, counted once each and the first few described.
    fn verdict(&self, layer: Layer, s: &Settled, differ: &[u32], held: &[u8]) -> Verification {
        let mut all: Vec<u32> = s.bad.iter().chain(differ).copied().collect();
        all.sort_unstable();
        all.dedup();
        let entries: Vec<_> = match all.is_empty() {
            true => Vec::new(),
            false => self.index.entries(layer).collect(),
        };
        let checked = s.bad.iter().map(|&i| {
            let (stored, want) = (
                Value::from_code(s.codes[i as usize]),
                s.tallies[i as usize].value(),
            );
            (
                i,
                format!("stored {stored}, successors give {want} (in the build's sweep)"),
            )
        });
        let rebuilt = differ.iter().map(|&i| {
            let (stored, want) = (
                decode(held[i as usize]),
                Value::from_code(s.codes[i as usize]),
            );
            (
                i,
                format!("stored {stored}, rebuilt from the successors {want}"),
            )
        });
        let examples = checked
            .chain(rebuilt)
            .take(EXAMPLES)
            .map(|(i, what)| {
                let entry = entries[i as usize];
                let (stm, occ) = (entry.stm, entry.occ);
                let e = E::from_occupancy(self.tables.dims, self.tables.variant, stm, occ);
                let at = e.map_or_else(
                    |_| format!("{occ:x?}"),
                    |e| format_position(&e.to_position()),
                );
                format!("{at}: {what}")
            })
            .collect();
        Verification {
            checked: layer.len() as u64,
            mismatches: all.len() as u64,
            examples,
        }
    }
}

/// A layer solved: its stats (moves, no values counted), codes, the tallies of its
/// successors' values folded, and the local indices that fail the in-sweep check.
struct Settled {
    stats: SliceStats,
    codes: Vec<u16>,
    tallies: Vec<Tally>,
    bad: Vec<u32>,
}

/// The in-sweep check of a settled layer: every position's code is recomputed by the
/// retrograde equation ([`Tally::value`], the fold of [`Value::from_successors`]) from the
/// values of its successors, those outside the layer as the first pass folded them into
/// `tallies` and those inside it from `codes` (through the predecessor lists: each settled
/// value is folded into its predecessors). Independent of [`settle`]'s buckets and counts:
/// a wrong distance, a missed seed or a draw that hid a win gives a mismatch. The local
/// indices whose code disagrees.
pub(super) fn check_layer(
    codes: &[u16],
    tallies: &mut [Tally],
    pred_off: &[u32],
    preds: &[u32],
) -> Vec<u32> {
    for (p, &code) in codes.iter().enumerate() {
        let v = Value::from_code(code);
        for &q in &preds[pred_off[p] as usize..pred_off[p + 1] as usize] {
            tallies[q as usize].fold(v);
        }
    }
    (0..codes.len() as u32)
        .filter(|&q| tallies[q as usize].value().code() != codes[q as usize])
        .collect()
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
    // Each row filled from its start, which then moves on to the next row's start: shifted
    // back by one row at the end (no second array of starts).
    let mut preds = vec![0u32; edges.len()];
    for i in 0..n {
        for &j in &edges[offsets[i] as usize..offsets[i + 1] as usize] {
            preds[pred_off[j as usize] as usize] = i as u32;
            pred_off[j as usize] += 1;
        }
    }
    pred_off.copy_within(0..n, 1);
    pred_off[0] = 0;
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
    tallies: &[Tally],
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
                        put(
                            &mut buckets,
                            (d as u16).max(tallies[q as usize].slowest) + 1,
                            q,
                        );
                    }
                }
            }
        }
        d += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A layer of five positions: 0 → 1 → 2, 2 with one move out of the layer to a position
    /// lost in 0 (so 2 wins in 1), and 3 ⇄ 4 with no other move (a draw, ORDO-3.3); settled,
    /// then the codes and the folded tallies, as the build's sweep has them.
    fn settled() -> (Vec<u16>, Vec<Tally>, Vec<u32>, Vec<u32>) {
        let (offsets, edges) = (vec![0u32, 1, 2, 2, 3, 4], vec![1u32, 2, 4, 3]);
        let mut tallies = vec![Tally::default(); 5];
        tallies[2].fold(Value::Loss(0));
        let mut remaining = vec![1u32, 1, 0, 1, 1];
        let (pred_off, preds) = reverse(&offsets, &edges);
        let mut codes = vec![0u16; 5];
        let seeds = vec![(1, 2)];
        settle(
            &mut codes,
            seeds,
            &pred_off,
            &preds,
            &mut remaining,
            &tallies,
        )
        .unwrap();
        (codes, tallies, pred_off, preds)
    }

    /// Verification at no cost beyond the build: the retrograde equation checked
    /// in the build's sweep passes a settled layer and catches a planted wrong distance (in
    /// the position and in its predecessor, whose best reply it changes) and a planted win
    /// in a drawn cycle.
    #[test]
    fn the_in_sweep_check_catches_a_planted_wrong_value() {
        let (codes, tallies, pred_off, preds) = settled();
        let want = [
            Value::Win(3),
            Value::Loss(2),
            Value::Win(1),
            Value::Draw,
            Value::Draw,
        ];
        assert_eq!(codes, want.map(Value::code));
        assert!(check_layer(&codes, &mut tallies.clone(), &pred_off, &preds).is_empty());
        let mut wrong = codes.clone();
        wrong[1] = Value::Loss(4).code();
        assert_eq!(
            check_layer(&wrong, &mut tallies.clone(), &pred_off, &preds),
            [0, 1]
        );
        let mut wrong = codes;
        wrong[3] = Value::Win(1).code();
        assert_eq!(
            check_layer(&wrong, &mut tallies.clone(), &pred_off, &preds),
            [3, 4]
        );
    }

    /// The fold of [`Tally`] is [`Value::from_successors`] for every mix of successors.
    #[test]
    fn a_tally_folds_as_the_value_of_successors() {
        let kinds = [
            Value::Loss(0),
            Value::Loss(4),
            Value::Win(1),
            Value::Win(7),
            Value::Draw,
        ];
        for mask in 0u32..32 {
            let vals: Vec<Value> = (0..5)
                .filter(|k| mask >> k & 1 == 1)
                .map(|k| kinds[k])
                .collect();
            let mut t = Tally::default();
            vals.iter().for_each(|&v| t.fold(v));
            assert_eq!(t.value(), Value::from_successors(vals.clone()), "{vals:?}");
        }
    }

    /// Both copies of the layer solver (the crate's own and the x86-64-v3 one, where the
    /// processor has it) settle every layer of the classic and Ordo X 4 x 4 tables up to
    /// 4v4 to the same codes, tallies and in-sweep verdicts, and to the values the build
    /// stored (ORDO-3.3: the values by distance).
    #[test]
    fn both_copies_settle_every_layer_alike_ordo_3_3() {
        use crate::material::Material;
        use crate::rules::Variant;
        use ordo_bitboard::Bitboard;
        for variant in [Variant::Classic, Variant::X] {
            let mut t = super::super::CompactTables::new("4x4".parse().unwrap(), variant);
            t.build::<Bitboard>(Material { white: 4, black: 4 }, |_| {})
                .unwrap();
            let mut layers = 0;
            for (&m, slice) in &t.slices {
                for group in slice.index.layers() {
                    let b = Building::<Bitboard> {
                        tables: &t,
                        material: m,
                        index: &slice.index,
                        values: &slice.values[..group[0].start],
                        engine: std::marker::PhantomData,
                    };
                    for &l in &group {
                        let here = b.settle_layer_here(l).unwrap();
                        let stored = &slice.values[l.start..l.end];
                        let codes: Vec<u16> = stored.iter().map(|&v| u16::from(v)).collect();
                        assert_eq!(here.codes, codes, "{variant:?} {m}");
                        layers += 1;
                        #[cfg(target_arch = "x86_64")]
                        if ordo_bitboard::cpu::use_v3() {
                            // SAFETY: `use_v3` found every feature the copy is compiled for.
                            #[allow(unsafe_code)]
                            let v3 = unsafe { b.settle_layer_v3(l) }.unwrap();
                            assert_eq!(v3.codes, here.codes, "{variant:?} {m}");
                            assert_eq!(v3.tallies, here.tallies, "{variant:?} {m}");
                            assert_eq!(v3.bad, here.bad, "{variant:?} {m}");
                        }
                    }
                }
            }
            assert!(layers > 50, "{variant:?}: {layers} layers");
        }
    }
}
