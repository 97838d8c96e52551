//! The perfect index of the core: positions in which both sides are one group.
//!
//! Each side's pieces are ranked among the connected sets (ORDO-4.1) of their size on the
//! board, sorted by the side's advancement and then by mask (Black's sets are White's with
//! the rows turned over, rank for rank), so that the sets of one advancement form one run of
//! ranks. A *block* is one advancement of each side and one side to move: a rectangle of rank
//! pairs. A pair is stored when it is a position (the two sets are disjoint and the side to
//! move is not on its opponent's home row, ORDO-2.3) and the canonical one of its left-right
//! mirror pair; with equal material only White-to-move blocks are stored, Black to move being
//! the colour twin (see `symmetry`). A bit per pair of the blocks, in block order, marks the
//! stored ones; a stored pair's *slot* (its byte in the value table) is the number of marks
//! before it, so the table has no gaps.
//!
//! A *layer* is a run of blocks closed under the moves that stay in it: one advancement of
//! each side with both sides to move (with equal material: White to move in the layer and in
//! its colour twin, the advancements swapped). A non-capturing move of a connected player goes
//! forward or sideways (ORDO-5 to ORDO-7; backward only when split, ORDO-9.2), so it stays in
//! its layer or reaches a layer of higher total advancement. Layers are stored highest total
//! first, each one a contiguous range of slots.

use std::sync::Arc;

use super::bits::RankBits;
use super::symmetry::{flip_rows, mirror};
use crate::rules::{Color, Dims};
use crate::solve::tb::connected_sets;

/// The connected sets of one size for one colour, sorted by (advancement, mask).
#[derive(Debug)]
pub struct Sets {
    color: Color,
    k: u32,
    dims: Dims,
    /// The sets in this colour's orientation, by rank.
    sets: Vec<u128>,
    /// The same sets seen from White's side (rows turned over for Black): the search keys,
    /// sorted by mask inside each run.
    keys: Vec<u128>,
    /// `runs[a]..runs[a + 1]`: the ranks of the sets whose advancement is `a`.
    runs: Vec<u32>,
    /// The rank of each set's left-right mirror image.
    mirrors: Vec<u32>,
    /// The opponent's home row (ORDO-2.3).
    goal: u128,
}

/// Sum over the pieces of a White-oriented set of the rows advanced from row 1.
fn white_advancement(dims: Dims, set: u128) -> u32 {
    let row = (1u128 << dims.cols) - 1;
    (1..u32::from(dims.rows))
        .map(|r| r * (set >> (r * u32::from(dims.cols)) & row).count_ones())
        .sum()
}

impl Sets {
    /// The connected sets of `k` squares on `dims`, ranked for `color`.
    pub fn new(dims: Dims, color: Color, k: u32) -> Sets {
        let mut keys = connected_sets(dims, k);
        keys.sort_unstable_by_key(|&m| (white_advancement(dims, m), m));
        let top = k * (u32::from(dims.rows) - 1);
        let mut runs = vec![0u32; top as usize + 2];
        for &m in &keys {
            runs[white_advancement(dims, m) as usize + 1] += 1;
        }
        for a in 1..runs.len() {
            runs[a] += runs[a - 1];
        }
        let sets = match color {
            Color::White => keys.clone(),
            Color::Black => keys.iter().map(|&m| flip_rows(dims, m)).collect(),
        };
        let row = (1u128 << dims.cols) - 1;
        let goal = match color {
            Color::White => row << ((u32::from(dims.rows) - 1) * u32::from(dims.cols)),
            Color::Black => row,
        };
        let mut s = Sets {
            color,
            k,
            dims,
            sets,
            keys,
            runs,
            mirrors: Vec::new(),
            goal,
        };
        s.mirrors = (0..s.sets.len())
            .map(|r| {
                s.rank(mirror(dims, s.sets[r]))
                    .expect("a mirrored connected set is connected")
                    .0
            })
            .collect();
        s
    }

    /// Sum over the pieces of `set` of the rows advanced from this colour's home row.
    pub fn advancement(&self, set: u128) -> u32 {
        white_advancement(self.dims, self.key(set))
    }

    fn key(&self, set: u128) -> u128 {
        match self.color {
            Color::White => set,
            Color::Black => flip_rows(self.dims, set),
        }
    }

    /// Pieces in each set.
    pub fn size(&self) -> u32 {
        self.k
    }

    /// Number of sets.
    pub fn len(&self) -> usize {
        self.sets.len()
    }

    /// Whether there is no set.
    pub fn is_empty(&self) -> bool {
        self.sets.is_empty()
    }

    /// The set of rank `r`.
    pub fn set(&self, r: u32) -> u128 {
        self.sets[r as usize]
    }

    /// The rank of the mirror image of the set of rank `r`.
    pub fn mirror(&self, r: u32) -> u32 {
        self.mirrors[r as usize]
    }

    /// Whether the set of rank `r` stands on the opponent's home row.
    pub fn on_goal(&self, r: u32) -> bool {
        self.sets[r as usize] & self.goal != 0
    }

    /// The ranks of advancement `a` (empty beyond the largest).
    pub fn run(&self, a: u32) -> std::ops::Range<u32> {
        match self.runs.get(a as usize + 1) {
            Some(&hi) => self.runs[a as usize]..hi,
            None => 0..0,
        }
    }

    /// Highest advancement plus one.
    pub fn advancements(&self) -> u32 {
        self.runs.len() as u32 - 1
    }

    /// The advancement of the set of rank `r`.
    pub fn advancement_of(&self, r: u32) -> u32 {
        self.runs.partition_point(|&x| x <= r) as u32 - 1
    }

    /// The rank and advancement of `set`, `None` if it is not a connected set of this size.
    pub fn rank(&self, set: u128) -> Option<(u32, u32)> {
        let key = self.key(set);
        let a = white_advancement(self.dims, key);
        let run = self.run(a);
        let found = self.keys[run.start as usize..run.end as usize]
            .binary_search(&key)
            .ok()?;
        Some((run.start + found as u32, a))
    }
}

/// One advancement of each side and one side to move: the rank pairs
/// `white.0..white.1` × `black.0..black.1`, bit `bit` for the first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Block {
    stm: Color,
    adv: [u32; 2],
    white: (u32, u32),
    black: (u32, u32),
    bit: u64,
}

impl Block {
    fn width(&self) -> u64 {
        u64::from(self.black.1 - self.black.0)
    }

    fn bit_of(&self, rw: u32, rb: u32) -> u64 {
        self.bit + u64::from(rw - self.white.0) * self.width() + u64::from(rb - self.black.0)
    }
}

/// One layer: a contiguous range of slots, closed under the moves that stay in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layer {
    /// Advancement of White and of Black (in a layer of equal material the colour twins,
    /// White to move with these swapped, belong to it too).
    pub adv: [u32; 2],
    /// Its slots: `start..end`.
    pub start: usize,
    pub end: usize,
    /// Its blocks: `blocks.0..blocks.1`.
    blocks: (u32, u32),
}

impl Layer {
    /// Number of stored positions.
    pub fn len(self) -> usize {
        self.end - self.start
    }

    /// Whether the layer stores nothing.
    pub fn is_empty(self) -> bool {
        self.end == self.start
    }
}

/// One stored position of a layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub occ: [u128; 2],
    pub stm: Color,
    /// Core positions it answers for: itself, its mirror image when that differs, and the
    /// colour twins of both (in this material when the sides have equal material, otherwise
    /// in the material with the counts swapped).
    pub images: u32,
}

/// The core index of one material.
#[derive(Clone, Debug)]
pub struct CoreIndex {
    /// White's and Black's sets.
    pub sets: [Arc<Sets>; 2],
    /// Whether Black-to-move blocks are stored (not with equal material).
    both_sides: bool,
    blocks: Vec<Block>,
    /// Block number of (side to move, White's advancement, Black's), `u32::MAX` for none.
    block_at: Vec<u32>,
    bits: Arc<RankBits>,
    layers: Vec<Vec<Layer>>,
}

/// The blocks of one layer, as (side to move, advancements).
type Plan = Vec<(Color, [u32; 2])>;

impl CoreIndex {
    /// The index of the material whose White and Black sets are `sets`; `None` if it would
    /// hold 2^32 or more positions.
    pub fn new(sets: [Arc<Sets>; 2]) -> Option<CoreIndex> {
        let both_sides = sets[0].size() != sets[1].size();
        let (tw, tb) = (sets[0].advancements(), sets[1].advancements());
        let mut index = CoreIndex {
            sets,
            both_sides,
            blocks: Vec::new(),
            block_at: vec![u32::MAX; 2 * (tw * tb) as usize],
            bits: Arc::default(),
            layers: Vec::new(),
        };
        let mut bits = RankBits::default();
        for total in (0..tw + tb).rev() {
            let mut group = Vec::new();
            for plan in index.plan(total) {
                let start = bits.ones() as usize;
                let first = index.blocks.len() as u32;
                for (stm, adv) in plan {
                    index.add_block(stm, adv, &mut bits);
                }
                let end = bits.ones() as usize;
                if end > start {
                    group.push(Layer {
                        adv: index.blocks[first as usize].adv,
                        start,
                        end,
                        blocks: (first, index.blocks.len() as u32),
                    });
                }
            }
            if !group.is_empty() {
                index.layers.push(group);
            }
        }
        index.bits = Arc::new(bits.freeze()?);
        Some(index)
    }

    /// The layers of total advancement `total`, each as its blocks.
    fn plan(&self, total: u32) -> Vec<Plan> {
        let (tw, tb) = (self.sets[0].advancements(), self.sets[1].advancements());
        let mut plans = Vec::new();
        for aw in (0..tw).filter(|&aw| total >= aw && total - aw < tb) {
            let ab = total - aw;
            let plan = if self.both_sides {
                vec![(Color::White, [aw, ab]), (Color::Black, [aw, ab])]
            } else if aw > ab {
                vec![(Color::White, [aw, ab]), (Color::White, [ab, aw])]
            } else if aw == ab {
                vec![(Color::White, [aw, ab])]
            } else {
                continue;
            };
            let runs_empty = |adv: [u32; 2]| {
                self.sets[0].run(adv[0]).is_empty() || self.sets[1].run(adv[1]).is_empty()
            };
            let plan: Plan = plan.into_iter().filter(|&(_, a)| !runs_empty(a)).collect();
            if !plan.is_empty() {
                plans.push(plan);
            }
        }
        plans
    }

    /// Append the block of `stm` and `adv`: one bit per rank pair, set where stored.
    fn add_block(&mut self, stm: Color, adv: [u32; 2], bits: &mut RankBits) {
        let (w, b) = (self.sets[0].run(adv[0]), self.sets[1].run(adv[1]));
        let block = Block {
            stm,
            adv,
            white: (w.start, w.end),
            black: (b.start, b.end),
            bit: bits.len(),
        };
        for rw in w {
            for rb in b.clone() {
                bits.push(self.stored(stm, rw, rb));
            }
        }
        let at = self.block_key(stm, adv);
        self.block_at[at] = self.blocks.len() as u32;
        self.blocks.push(block);
    }

    fn block_key(&self, stm: Color, adv: [u32; 2]) -> usize {
        let (tw, tb) = (self.sets[0].advancements(), self.sets[1].advancements());
        ((stm as u32 * tw + adv[0]) * tb + adv[1]) as usize
    }

    /// Whether the pair is a position (disjoint sets, ORDO-2.3) and the canonical one of
    /// its mirror pair.
    fn stored(&self, stm: Color, rw: u32, rb: u32) -> bool {
        let [w, b] = &self.sets;
        w.set(rw) & b.set(rb) == 0
            && !self.sets[stm as usize].on_goal(if stm == Color::White { rw } else { rb })
            && (rw, rb) <= (w.mirror(rw), b.mirror(rb))
    }

    /// Number of stored positions: one byte each.
    pub fn len(&self) -> usize {
        self.bits.ones() as usize
    }

    /// Whether the index is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes held by the index itself (the marks and their directory).
    pub fn bytes(&self) -> usize {
        self.bits.bytes() + self.blocks.len() * std::mem::size_of::<Block>()
    }

    /// The slot of the position with ranks `rw`, `rb` and `stm` to move, or of its stored
    /// image; `None` if it is not a position (overlapping sets, ORDO-2.3).
    pub fn index(&self, stm: Color, rw: u32, rb: u32) -> Option<usize> {
        let adv = [
            self.sets[0].advancement_of(rw),
            self.sets[1].advancement_of(rb),
        ];
        self.slot_of(stm, [rw, rb], adv)
    }

    /// The slot of a core position, or of its stored image; `None` if a side is not one
    /// group of this material, or it is not a position.
    pub fn slot(&self, occ: [u128; 2], stm: Color) -> Option<usize> {
        let r = self.rank(occ)?;
        self.slot_of(stm, [r[0].0, r[1].0], [r[0].1, r[1].1])
    }

    fn slot_of(&self, stm: Color, ranks: [u32; 2], adv: [u32; 2]) -> Option<usize> {
        let (stm, [rw, rb], adv) = if stm == Color::Black && !self.both_sides {
            // The colour twin: rank for rank, Black's sets are White's turned over.
            (Color::White, [ranks[1], ranks[0]], [adv[1], adv[0]])
        } else {
            (stm, ranks, adv)
        };
        let image = (self.sets[0].mirror(rw), self.sets[1].mirror(rb));
        let (rw, rb) = image.min((rw, rb));
        let block = self.blocks[*self.block_at.get(self.block_key(stm, adv))? as usize];
        let p = block.bit_of(rw, rb);
        self.bits.get(p).then(|| self.bits.rank(p) as usize)
    }

    /// The stored position of slot `i`.
    pub fn position(&self, i: usize) -> Option<([u128; 2], Color)> {
        let p = self.bits.select(i as u64)?;
        let block = &self.blocks[self.blocks.partition_point(|b| b.bit <= p) - 1];
        let off = p - block.bit;
        let rw = block.white.0 + (off / block.width()) as u32;
        let rb = block.black.0 + (off % block.width()) as u32;
        Some(([self.sets[0].set(rw), self.sets[1].set(rb)], block.stm))
    }

    /// The stored positions of `layer`, in slot order.
    pub fn entries(&self, layer: Layer) -> impl Iterator<Item = Entry> + '_ {
        let twins = 2;
        self.blocks[layer.blocks.0 as usize..layer.blocks.1 as usize]
            .iter()
            .flat_map(move |block| {
                (block.white.0..block.white.1).flat_map(move |rw| {
                    (block.black.0..block.black.1)
                        .filter(move |&rb| self.bits.get(block.bit_of(rw, rb)))
                        .map(move |rb| {
                            let [w, b] = &self.sets;
                            let fixed = (w.mirror(rw), b.mirror(rb)) == (rw, rb);
                            Entry {
                                occ: [w.set(rw), b.set(rb)],
                                stm: block.stm,
                                images: twins * if fixed { 1 } else { 2 },
                            }
                        })
                })
            })
    }

    /// The ranks and advancements of a core occupancy, `None` if a side is not one group of
    /// this material.
    pub fn rank(&self, occ: [u128; 2]) -> Option<[(u32, u32); 2]> {
        Some([self.sets[0].rank(occ[0])?, self.sets[1].rank(occ[1])?])
    }

    /// Every non-empty layer, highest total advancement first, grouped: layers of one group
    /// have the same total and no move between them. Slots run in this order.
    pub fn layers(&self) -> Vec<Vec<Layer>> {
        self.layers.clone()
    }
}
