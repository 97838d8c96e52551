//! The perfect index of the core: positions in which both sides are one group.
//!
//! Each side's pieces are ranked among the connected sets (ORDO-4.1) of their size on the
//! board, sorted by the side's advancement and then by mask, so that the sets of one
//! advancement form one run of ranks. A core position of material (w, b) has the index
//! `stm · nW · nB + rank(White) · nB + rank(Black)`; entries whose two sets overlap, or whose
//! side to move stands on its opponent's home row (ORDO-2.3), are gaps. Neither side's set
//! needs a key stored: a rank is found by binary search inside its advancement run.
//!
//! A *layer* is the set of core positions with one advancement of each side (both sides to
//! move): a non-capturing move of a connected player goes forward or sideways (ORDO-5 to
//! ORDO-7; backward only when split, ORDO-9.2), so it stays in its layer or enters a layer
//! with a higher advancement of the mover and the same of the opponent.

use std::sync::Arc;

use crate::rules::{Color, Dims};
use crate::solve::tb::connected_sets;

/// The connected sets of one size for one colour, sorted by (advancement, mask).
#[derive(Debug)]
pub struct Sets {
    color: Color,
    rows: u8,
    row_masks: Vec<u128>,
    sets: Vec<u128>,
    /// `runs[a]..runs[a + 1]`: the ranks of the sets whose advancement is `a`.
    runs: Vec<u32>,
}

impl Sets {
    /// The connected sets of `k` squares on `dims`, ranked for `color`.
    pub fn new(dims: Dims, color: Color, k: u32) -> Sets {
        let row_masks: Vec<u128> = (0..dims.rows)
            .map(|r| {
                (0..dims.cols).fold(0u128, |m, c| {
                    m | 1u128 << (r as usize * dims.cols as usize + c as usize)
                })
            })
            .collect();
        let mut s = Sets {
            color,
            rows: dims.rows,
            row_masks,
            sets: Vec::new(),
            runs: Vec::new(),
        };
        let mut sets = connected_sets(dims, k);
        sets.sort_unstable_by_key(|&m| (s.advancement(m), m));
        let top = k * (u32::from(dims.rows) - 1);
        let mut runs = vec![0u32; top as usize + 2];
        for &m in &sets {
            runs[s.advancement(m) as usize + 1] += 1;
        }
        for a in 1..runs.len() {
            runs[a] += runs[a - 1];
        }
        s.sets = sets;
        s.runs = runs;
        s
    }

    /// Sum over the pieces of `set` of the rows advanced from this colour's home row.
    pub fn advancement(&self, set: u128) -> u32 {
        self.row_masks
            .iter()
            .enumerate()
            .map(|(r, &m)| {
                let ahead = match self.color {
                    Color::White => r as u32,
                    Color::Black => u32::from(self.rows) - 1 - r as u32,
                };
                ahead * (set & m).count_ones()
            })
            .sum()
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

    /// The rank and advancement of `set`, `None` if it is not a connected set of this size.
    pub fn rank(&self, set: u128) -> Option<(u32, u32)> {
        let a = self.advancement(set);
        let run = self.run(a);
        let found = self.sets[run.start as usize..run.end as usize]
            .binary_search(&set)
            .ok()?;
        Some((run.start + found as u32, a))
    }
}

/// The core index of one material.
#[derive(Clone, Debug)]
pub struct CoreIndex {
    /// White's and Black's sets.
    pub sets: [Arc<Sets>; 2],
}

/// One layer: an advancement of each side, both sides to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layer {
    /// Advancement of White and of Black.
    pub adv: [u32; 2],
    /// Ranks of White's sets and of Black's.
    pub white: (u32, u32),
    pub black: (u32, u32),
}

impl Layer {
    fn width(self) -> u64 {
        u64::from(self.black.1 - self.black.0)
    }

    fn half(self) -> u64 {
        u64::from(self.white.1 - self.white.0) * self.width()
    }

    /// Number of entries (gaps included).
    pub fn len(self) -> usize {
        2 * self.half() as usize
    }

    /// Whether the layer has no entry.
    pub fn is_empty(self) -> bool {
        self.half() == 0
    }

    /// The local index of ranks `rw`, `rb` and side to move `stm` (all inside the layer).
    pub fn local(self, stm: Color, rw: u32, rb: u32) -> u32 {
        (stm as u64 * self.half()
            + u64::from(rw - self.white.0) * self.width()
            + u64::from(rb - self.black.0)) as u32
    }

    /// The side to move and ranks of local index `i`.
    pub fn unlocal(self, i: u32) -> (Color, u32, u32) {
        let i = u64::from(i);
        let stm = if i < self.half() {
            Color::White
        } else {
            Color::Black
        };
        let j = i % self.half();
        (
            stm,
            self.white.0 + (j / self.width()) as u32,
            self.black.0 + (j % self.width()) as u32,
        )
    }
}

impl CoreIndex {
    /// Number of entries: both sides to move, every pair of sets.
    pub fn len(&self) -> usize {
        2 * self.sets[0].len() * self.sets[1].len()
    }

    /// Whether the index is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The index of ranks `rw`, `rb` with `stm` to move.
    pub fn index(&self, stm: Color, rw: u32, rb: u32) -> usize {
        let nb = self.sets[1].len();
        (stm as usize * self.sets[0].len() + rw as usize) * nb + rb as usize
    }

    /// The occupancy and side to move of index `i`; `None` where the sets overlap.
    pub fn position(&self, i: usize) -> Option<([u128; 2], Color)> {
        let nb = self.sets[1].len();
        let half = self.sets[0].len() * nb;
        let stm = if i < half { Color::White } else { Color::Black };
        let j = i % half;
        let occ = [
            self.sets[0].set((j / nb) as u32),
            self.sets[1].set((j % nb) as u32),
        ];
        (occ[0] & occ[1] == 0).then_some((occ, stm))
    }

    /// The ranks and advancements of a core occupancy, `None` if a side is not one group of
    /// this material.
    pub fn rank(&self, occ: [u128; 2]) -> Option<[(u32, u32); 2]> {
        Some([self.sets[0].rank(occ[0])?, self.sets[1].rank(occ[1])?])
    }

    /// Every non-empty layer, highest total advancement first, grouped: layers of one group
    /// have the same total and no move between them.
    pub fn layers(&self) -> Vec<Vec<Layer>> {
        let (tw, tb) = (self.sets[0].advancements(), self.sets[1].advancements());
        let mut groups = Vec::new();
        for total in (0..tw + tb).rev() {
            let group: Vec<Layer> = (0..tw)
                .filter(|&aw| total >= aw && total - aw < tb)
                .map(|aw| {
                    let (w, b) = (self.sets[0].run(aw), self.sets[1].run(total - aw));
                    Layer {
                        adv: [aw, total - aw],
                        white: (w.start, w.end),
                        black: (b.start, b.end),
                    }
                })
                .filter(|l| !l.is_empty())
                .collect();
            if !group.is_empty() {
                groups.push(group);
            }
        }
        groups
    }
}
