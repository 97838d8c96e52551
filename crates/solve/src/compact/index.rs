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

use rayon::prelude::*;

use super::bits::RankBits;
use super::symmetry::{flip_rows, mirror};
use crate::material::connected_sets;
use crate::rules::{Color, Dims};

/// The connected sets of one size for one colour, sorted by (advancement, mask).
#[derive(Debug)]
pub struct Sets {
    color: Color,
    k: u32,
    dims: Dims,
    /// The sets in this colour's orientation, by rank.
    sets: Vec<u128>,
    /// Ranks by set, open addressing over `sets`: a rank plus one a slot, 0 for none.
    lookup: Vec<u32>,
    /// The advancement of each rank.
    adv: Vec<u16>,
    /// `runs[a]..runs[a + 1]`: the ranks of the sets whose advancement is `a`.
    runs: Vec<u32>,
    /// The rank of each set's left-right mirror image.
    mirrors: Vec<u32>,
    /// The opponent's home row (ORDO-2.3).
    goal: u128,
    /// A bit per rank, for each square: the sets holding it.
    holding: Vec<Vec<u64>>,
    /// A bit per rank: the sets off the opponent's home row.
    off_goal: Vec<u64>,
    /// A bit per rank: the sets whose rank is at most their mirror image's.
    first_of_mirror: Vec<u64>,
}

/// Sum over the pieces of a White-oriented set of the rows advanced from row 1.
fn white_advancement(dims: Dims, set: u128) -> u32 {
    let row = (1u128 << dims.cols) - 1;
    (1..u32::from(dims.rows))
        .map(|r| r * (set >> (r * u32::from(dims.cols)) & row).count_ones())
        .sum()
}

/// `sets` (in increasing order, as [`connected_sets`] gives them) ordered by White's
/// advancement, then by set, and the start of each advancement's run (`runs[a]` to
/// `runs[a + 1]`, `top` the largest advancement). A counting sort: each set's advancement is
/// computed twice, never once per comparison, and the order within a run stays increasing.
fn by_advancement(dims: Dims, sets: Vec<u128>, top: u32) -> (Vec<u128>, Vec<u32>) {
    debug_assert!(sets.windows(2).all(|w| w[0] < w[1]));
    let mut runs = vec![0u32; top as usize + 2];
    for &m in &sets {
        runs[white_advancement(dims, m) as usize + 1] += 1;
    }
    for a in 1..runs.len() {
        runs[a] += runs[a - 1];
    }
    let mut next = runs.clone();
    let mut keys = vec![0u128; sets.len()];
    for m in sets {
        let at = &mut next[white_advancement(dims, m) as usize];
        keys[*at as usize] = m;
        *at += 1;
    }
    (keys, runs)
}

impl Sets {
    /// The connected sets of `k` squares on `dims`, ranked for `color`.
    pub fn new(dims: Dims, color: Color, k: u32) -> Sets {
        let top = k * (u32::from(dims.rows) - 1);
        let (keys, runs) = by_advancement(dims, connected_sets(dims, k), top);
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
            lookup: Vec::new(),
            adv: Vec::new(),
            runs,
            mirrors: Vec::new(),
            goal,
            holding: Vec::new(),
            off_goal: Vec::new(),
            first_of_mirror: Vec::new(),
        };
        s.adv = keys
            .iter()
            .map(|&m| white_advancement(dims, m) as u16)
            .collect();
        s.fill_lookup();
        s.mirrors = (0..s.sets.len())
            .map(|r| {
                s.rank(mirror(dims, s.sets[r]))
                    .expect("a mirrored connected set is connected")
                    .0
            })
            .collect();
        s.mark_ranks();
        s
    }

    /// Bytes these ranked sets hold (the sets, their lookup, advancements, mirrors and the
    /// bits of every square), what a memory estimate counts for them.
    pub fn bytes(&self) -> usize {
        self.sets.capacity() * 16
            + self.lookup.capacity() * 4
            + self.adv.capacity() * 2
            + self.runs.capacity() * 4
            + self.mirrors.capacity() * 4
            + self
                .holding
                .iter()
                .map(|h| h.capacity() * 8 + 24)
                .sum::<usize>()
            + (self.off_goal.capacity() + self.first_of_mirror.capacity()) * 8
    }

    /// Where the search for `set` starts in `lookup`.
    #[inline(always)]
    fn home(&self, set: u128) -> usize {
        let x = (set as u64) ^ ((set >> 64) as u64).rotate_left(29);
        let h = (x ^ x >> 31).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> 32) as usize & (self.lookup.len() - 1)
    }

    /// Fill `lookup`: at most half full, so a search ends soon at an empty slot.
    fn fill_lookup(&mut self) {
        self.lookup = vec![0u32; (2 * self.sets.len()).next_power_of_two().max(2)];
        let mask = self.lookup.len() - 1;
        for r in 0..self.sets.len() {
            let mut i = self.home(self.sets[r]);
            while self.lookup[i] != 0 {
                i = (i + 1) & mask;
            }
            self.lookup[i] = r as u32 + 1;
        }
    }

    /// Fill the bits a rank per set (`holding`, `off_goal`, `first_of_mirror`).
    fn mark_ranks(&mut self) {
        let words = self.sets.len().div_ceil(64);
        self.holding = vec![vec![0u64; words]; self.dims.len()];
        (self.off_goal, self.first_of_mirror) = (vec![0u64; words], vec![0u64; words]);
        for (r, &set) in self.sets.iter().enumerate() {
            let (word, bit) = (r / 64, 1u64 << (r % 64));
            let mut rest = set;
            while rest != 0 {
                self.holding[rest.trailing_zeros() as usize][word] |= bit;
                rest &= rest - 1;
            }
            if set & self.goal == 0 {
                self.off_goal[word] |= bit;
            }
            if r as u32 <= self.mirrors[r] {
                self.first_of_mirror[word] |= bit;
            }
        }
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
    #[inline(always)]
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
        u32::from(self.adv[r as usize])
    }

    /// The rank and advancement of `set`, `None` if it is not a connected set of this size.
    #[inline(always)]
    pub fn rank(&self, set: u128) -> Option<(u32, u32)> {
        let mask = self.lookup.len() - 1;
        let mut i = self.home(set);
        loop {
            let r = self.lookup[i].checked_sub(1)?;
            if self.sets[r as usize] == set {
                return Some((r, u32::from(self.adv[r as usize])));
            }
            i = (i + 1) & mask;
        }
    }
}

/// Whether a block of `pairs` rank pairs, `stored` of them stored, marks them by a list
/// (fewer than one pair in sixteen stored) rather than a bit each.
fn listed(stored: usize, pairs: usize) -> bool {
    stored * 16 < pairs
}

/// Words of a band: a list-marked block lists each row's stored columns band by band, 65,536
/// columns a band, each column as its offset in the band (a `u16`), with an end a band in
/// the row ends; a crowded slice's Black runs are wider than a `u16` can name (classic
/// row2 6 x 5: 12,526,900 sets of 12 pieces), which would otherwise need a bit a pair.
const BAND_WORDS: usize = 1 << 10;

/// Bands of `width` columns, `band_words` words a band.
fn bands(width: u64, band_words: usize) -> usize {
    (width.div_ceil(64 * band_words as u64) as usize).max(1)
}

/// The sizes of a core index: what [`CoreIndex::measure`] counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IndexSize {
    /// Stored positions, a byte each.
    pub entries: u64,
    /// Bytes of the index itself ([`CoreIndex::bytes`]).
    pub marks: u64,
    /// Stored positions of the largest layer group.
    pub largest_group: u64,
    /// Connected sets of both sides.
    pub sets: u64,
    /// `None` when every pair was counted; when rows of the large blocks were sampled
    /// ([`CoreIndex::estimate`]), one standard error of `entries`.
    pub sampled: Option<u64>,
}

/// The 64 bits of `src` from bit `start + 64 i` on (zeros past its end).
fn range_word(src: &[u64], start: u64, i: usize) -> u64 {
    let p = start + 64 * i as u64;
    let (w, s) = ((p / 64) as usize, p % 64);
    let lo = src.get(w).copied().unwrap_or(0) >> s;
    match s {
        0 => lo,
        _ => lo | src.get(w + 1).copied().unwrap_or(0) << (64 - s),
    }
}

/// One advancement of each side and one side to move: the rank pairs
/// `white.0..white.1` × `black.0..black.1`, the stored ones from slot `slot` on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Block {
    stm: Color,
    adv: [u32; 2],
    white: (u32, u32),
    black: (u32, u32),
    slot: usize,
    marks: Marks,
}

/// How a block marks its stored pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Marks {
    /// A bit per pair, row by row, from bit `bit` of the index's bits, which has `ones` set
    /// bits before it.
    Bits { bit: u64, ones: u64 },
    /// The stored pairs as a list (for blocks where most pairs overlap): for each row and
    /// band ([`BAND_WORDS`]) the end of its columns, from `row` on in the index's row ends,
    /// and the columns (offsets in the band) from `col` on in its column list.
    List { row: usize, col: usize },
}

impl Block {
    fn width(&self) -> u64 {
        u64::from(self.black.1 - self.black.0)
    }

    fn rows(&self) -> usize {
        (self.white.1 - self.white.0) as usize
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
    /// The ranks of White's and Black's sets, and their advancements.
    pub ranks: [u32; 2],
    pub adv: [u32; 2],
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
    row_ends: Arc<Vec<u32>>,
    cols: Arc<Vec<u16>>,
    /// Words of a band of a list-marked block ([`BAND_WORDS`]; fewer in tests).
    band_words: usize,
    len: usize,
    layers: Vec<Vec<Layer>>,
}

/// The blocks of one layer, as (side to move, advancements).
type Plan = Vec<(Color, [u32; 2])>;

impl CoreIndex {
    /// The index of the material whose White and Black sets are `sets`; `None` if it would
    /// hold 2^32 or more positions.
    pub fn new(sets: [Arc<Sets>; 2]) -> Option<CoreIndex> {
        CoreIndex::with_bands(sets, BAND_WORDS)
    }

    /// [`CoreIndex::new`] with bands of `band_words` words in its lists.
    fn with_bands(sets: [Arc<Sets>; 2], band_words: usize) -> Option<CoreIndex> {
        let (tw, tb) = (sets[0].advancements(), sets[1].advancements());
        let mut index = CoreIndex::empty(sets);
        index.band_words = band_words;
        let mut bits = RankBits::default();
        let (mut row_ends, mut cols) = (Vec::new(), Vec::new());
        for total in (0..tw + tb).rev() {
            let mut group = Vec::new();
            for plan in index.plan(total) {
                let start = index.len;
                let first = index.blocks.len() as u32;
                for (stm, adv) in plan {
                    index.add_block(stm, adv, &mut bits, (&mut row_ends, &mut cols));
                }
                let end = index.len;
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
        row_ends.shrink_to_fit();
        cols.shrink_to_fit();
        (index.row_ends, index.cols) = (Arc::new(row_ends), Arc::new(cols));
        u32::try_from(index.len).ok()?;
        Some(index)
    }

    /// No block yet.
    fn empty(sets: [Arc<Sets>; 2]) -> CoreIndex {
        let (tw, tb) = (sets[0].advancements(), sets[1].advancements());
        CoreIndex {
            both_sides: sets[0].size() != sets[1].size(),
            sets,
            blocks: Vec::new(),
            block_at: vec![u32::MAX; 2 * (tw * tb) as usize],
            bits: Arc::default(),
            row_ends: Arc::default(),
            cols: Arc::default(),
            band_words: BAND_WORDS,
            len: 0,
            layers: Vec::new(),
        }
    }

    /// The sizes of the index of `sets`, counted block by block without building it (no
    /// memory but a row of marks): what [`CoreIndex::new`] would hold.
    pub fn measure(sets: [Arc<Sets>; 2]) -> IndexSize {
        CoreIndex::empty(sets)
            .size_by(|index, stm, adv, row| (index.count_block(stm, adv, row), 0.0))
    }

    /// [`CoreIndex::measure`] visiting about `budget` rank pairs at most: where the index has
    /// more, each block's stored pairs are estimated from evenly spaced rows of it (a share
    /// of its rows in proportion, at least 16, every row of a smaller block), and the size
    /// says its standard error. For plans of slices too large to count (or to build).
    pub fn estimate(sets: [Arc<Sets>; 2], budget: u64) -> IndexSize {
        let pairs = 2 * sets[0].len() as u64 * sets[1].len() as u64;
        if pairs <= budget {
            return CoreIndex::measure(sets);
        }
        let share = budget as f64 / pairs as f64;
        let mut size = CoreIndex::empty(sets)
            .size_by(|index, stm, adv, _| index.sample_block(stm, adv, share));
        size.sampled = Some(size.sampled.unwrap_or(0));
        size
    }

    /// The sizes of the index, `count` giving each block's stored pairs and their variance.
    fn size_by(
        &self,
        count: impl Fn(&CoreIndex, Color, [u32; 2], &mut Vec<u64>) -> (usize, f64),
    ) -> IndexSize {
        let (tw, tb) = (self.sets[0].advancements(), self.sets[1].advancements());
        let mut size = IndexSize {
            sets: (self.sets[0].len() + self.sets[1].len()) as u64,
            ..IndexSize::default()
        };
        let (mut bits, mut rows, mut cols, mut blocks, mut var) = (0u64, 0u64, 0u64, 0u64, 0.0);
        let mut row = Vec::new();
        for total in (0..tw + tb).rev() {
            let mut group = 0u64;
            for (stm, adv) in self.plan(total).into_iter().flatten() {
                let (w, b) = (self.sets[0].run(adv[0]), self.sets[1].run(adv[1]));
                let (stored, v) = count(self, stm, adv, &mut row);
                if listed(stored, w.len() * b.len()) {
                    let bands = bands(b.len() as u64, self.band_words) as u64;
                    (rows, cols) = (rows + bands * w.len() as u64, cols + stored as u64);
                } else {
                    bits += (w.len() * b.len()) as u64;
                }
                (blocks, group, var) = (blocks + 1, group + stored as u64, var + v);
            }
            size.entries += group;
            size.largest_group = size.largest_group.max(group);
        }
        let words = bits.div_ceil(64);
        size.marks = words * 8
            + (words.div_ceil(8) + 1) * 4
            + rows * 4
            + cols * 2
            + blocks * std::mem::size_of::<Block>() as u64;
        size.sampled = (var > 0.0).then(|| var.sqrt().round() as u64);
        size
    }

    /// The stored pairs of a block estimated from `share` of its rows, evenly spaced (all of
    /// them in a small block), and the variance of that estimate.
    fn sample_block(&self, stm: Color, adv: [u32; 2], share: f64) -> (usize, f64) {
        let (w, b) = (self.sets[0].run(adv[0]), self.sets[1].run(adv[1]));
        let rows = w.len();
        let n = ((rows as f64 * share).ceil() as usize).clamp(16.min(rows), rows);
        if n == rows {
            let mut row = Vec::new();
            return (self.count_block(stm, adv, &mut row), 0.0);
        }
        let counts: Vec<f64> = (0..n)
            .into_par_iter()
            .map_init(Vec::new, |row, i| {
                let rw = w.start + ((2 * i + 1) * rows / (2 * n)) as u32;
                self.row_marks(stm, rw, b.clone(), row);
                row.iter().map(|x| x.count_ones() as f64).sum::<f64>()
            })
            .collect();
        let mean = counts.iter().sum::<f64>() / n as f64;
        let sd2 = counts.iter().map(|c| (c - mean).powi(2)).sum::<f64>() / (n - 1).max(1) as f64;
        let scale = rows as f64;
        let var = scale * scale * sd2 / n as f64 * (1.0 - n as f64 / scale);
        ((mean * scale).round() as usize, var)
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

    /// Append the block of `stm` and `adv`, marked by bits or, where fewer than one pair in
    /// sixteen is stored, by a list.
    fn add_block(
        &mut self,
        stm: Color,
        adv: [u32; 2],
        bits: &mut RankBits,
        (row_ends, cols): (&mut Vec<u32>, &mut Vec<u16>),
    ) {
        let (w, b) = (self.sets[0].run(adv[0]), self.sets[1].run(adv[1]));
        let mut row = Vec::new();
        let stored = self.count_block(stm, adv, &mut row);
        let list = listed(stored, w.len() * b.len());
        let marks = if list {
            Marks::List {
                row: row_ends.len(),
                col: cols.len(),
            }
        } else {
            Marks::Bits {
                bit: bits.len(),
                ones: bits.ones(),
            }
        };
        for rw in w.clone() {
            self.row_marks(stm, rw, b.clone(), &mut row);
            if let Marks::List { col, .. } = marks {
                for band in row.chunks(self.band_words) {
                    for (i, &word) in band.iter().enumerate() {
                        let mut rest = word;
                        while rest != 0 {
                            cols.push((i * 64) as u16 + rest.trailing_zeros() as u16);
                            rest &= rest - 1;
                        }
                    }
                    row_ends.push((cols.len() - col) as u32);
                }
            } else {
                bits.push_words(&row, b.len() as u64);
            }
        }
        let at = self.block_key(stm, adv);
        self.block_at[at] = self.blocks.len() as u32;
        self.blocks.push(Block {
            stm,
            adv,
            white: (w.start, w.end),
            black: (b.start, b.end),
            slot: self.len,
            marks,
        });
        self.len += stored;
    }

    /// The number of stored pairs of the block of `stm` and `adv` (`row`: room for a row).
    fn count_block(&self, stm: Color, adv: [u32; 2], row: &mut Vec<u64>) -> usize {
        let (w, b) = (self.sets[0].run(adv[0]), self.sets[1].run(adv[1]));
        let count = |row: &mut Vec<u64>, rw: u32| {
            self.row_marks(stm, rw, b.clone(), row);
            row.iter().map(|x| x.count_ones() as usize).sum::<usize>()
        };
        // Rows of marks are independent: a large block counts them on every core (sizing a
        // plan of Ordo X row2 5 x 5 visits 10^11 rank pairs).
        if w.len() as u64 * b.len() as u64 >= 1 << 20 {
            w.into_par_iter().map_init(Vec::new, count).sum()
        } else {
            w.map(|rw| count(row, rw)).sum()
        }
    }

    /// The stored pairs of row `rw` of the block of `stm` over Black's ranks `b`, a bit per
    /// rank of `b` from its start, into `out` (what [`CoreIndex::stored`] says of each pair,
    /// 64 pairs a word operation).
    fn row_marks(&self, stm: Color, rw: u32, b: std::ops::Range<u32>, out: &mut Vec<u64>) {
        let [w, bl] = &self.sets;
        let n = (b.end - b.start) as usize;
        out.clear();
        out.resize(n.div_ceil(64), 0);
        let image = w.mirror(rw);
        if rw > image || (stm == Color::White && w.on_goal(rw)) {
            return;
        }
        let start = u64::from(b.start);
        for (i, o) in out.iter_mut().enumerate() {
            let mut word = !0u64;
            if stm == Color::Black {
                word &= range_word(&bl.off_goal, start, i);
            }
            if rw == image {
                word &= range_word(&bl.first_of_mirror, start, i);
            }
            let mut set = w.set(rw);
            while set != 0 && word != 0 {
                word &= !range_word(&bl.holding[set.trailing_zeros() as usize], start, i);
                set &= set - 1;
            }
            *o = word;
        }
        if n % 64 != 0 {
            *out.last_mut().expect("n > 0") &= (1u64 << (n % 64)) - 1;
        }
    }

    #[inline(always)]
    fn block_key(&self, stm: Color, adv: [u32; 2]) -> usize {
        let (tw, tb) = (self.sets[0].advancements(), self.sets[1].advancements());
        ((stm as u32 * tw + adv[0]) * tb + adv[1]) as usize
    }

    /// Whether the pair is a position (disjoint sets, ORDO-2.3) and the canonical one of
    /// its mirror pair (pair by pair, what `row_marks` computes by words).
    #[cfg(test)]
    fn stored(&self, stm: Color, rw: u32, rb: u32) -> bool {
        let [w, b] = &self.sets;
        w.set(rw) & b.set(rb) == 0
            && !self.sets[stm as usize].on_goal(if stm == Color::White { rw } else { rb })
            && (rw, rb) <= (w.mirror(rw), b.mirror(rb))
    }

    /// Number of stored positions: one byte each.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the index is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes held by the index itself (the marks, their directory, the lists).
    pub fn bytes(&self) -> usize {
        self.bits.bytes()
            + self.row_ends.len() * 4
            + self.cols.len() * 2
            + self.blocks.len() * std::mem::size_of::<Block>()
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
    #[inline(always)]
    pub fn slot(&self, occ: [u128; 2], stm: Color) -> Option<usize> {
        let r = self.rank(occ)?;
        self.slot_of(stm, [r[0].0, r[1].0], [r[0].1, r[1].1])
    }

    /// [`CoreIndex::slot`] of the sets of ranks `ranks` and advancements `adv`.
    #[inline(always)]
    pub(super) fn slot_of(&self, stm: Color, ranks: [u32; 2], adv: [u32; 2]) -> Option<usize> {
        let (stm, [rw, rb], adv) = if stm == Color::Black && !self.both_sides {
            // The colour twin: rank for rank, Black's sets are White's turned over.
            (Color::White, [ranks[1], ranks[0]], [adv[1], adv[0]])
        } else {
            (stm, ranks, adv)
        };
        let image = (self.sets[0].mirror(rw), self.sets[1].mirror(rb));
        let (rw, rb) = image.min((rw, rb));
        let block = &self.blocks[*self.block_at.get(self.block_key(stm, adv))? as usize];
        let (row, col) = ((rw - block.white.0) as usize, rb - block.black.0);
        let offset = match block.marks {
            Marks::Bits { bit, ones } => {
                let p = bit + row as u64 * block.width() + u64::from(col);
                self.bits
                    .get(p)
                    .then(|| (self.bits.rank(p) - ones) as usize)?
            }
            Marks::List { row: r, col: c } => {
                let band = 64 * self.band_words as u32;
                let end = r + row * self.bands(block) + (col / band) as usize;
                let lo = if end == r { 0 } else { self.row_ends[end - 1] };
                let (lo, hi) = (lo as usize, self.row_ends[end] as usize);
                lo + self.cols[c + lo..c + hi]
                    .binary_search(&((col % band) as u16))
                    .ok()?
            }
        };
        Some(block.slot + offset)
    }

    /// Bands a row of `block` has in a list ([`BAND_WORDS`]).
    fn bands(&self, block: &Block) -> usize {
        bands(block.width(), self.band_words)
    }

    /// The stored position of slot `i`.
    pub fn position(&self, i: usize) -> Option<([u128; 2], Color)> {
        if i >= self.len {
            return None;
        }
        let block = &self.blocks[self.blocks.partition_point(|b| b.slot <= i) - 1];
        let off = i - block.slot;
        let (row, col) = match block.marks {
            Marks::Bits { bit, ones } => {
                let q = self.bits.select(ones + off as u64)? - bit;
                ((q / block.width()) as u32, (q % block.width()) as u32)
            }
            Marks::List { row, col } => {
                let bands = self.bands(block);
                let ends = &self.row_ends[row..row + block.rows() * bands];
                let end = ends.partition_point(|&e| e as usize <= off);
                let band = (end % bands * 64 * self.band_words) as u32;
                ((end / bands) as u32, band + u32::from(self.cols[col + off]))
            }
        };
        let (rw, rb) = (block.white.0 + row, block.black.0 + col);
        Some(([self.sets[0].set(rw), self.sets[1].set(rb)], block.stm))
    }

    /// The stored rank pairs of a block, in slot order.
    fn pairs<'a>(&'a self, block: &'a Block) -> Box<dyn Iterator<Item = (u32, u32)> + 'a> {
        let (w, b) = (block.white, block.black);
        match block.marks {
            Marks::Bits { bit, .. } => Box::new((w.0..w.1).flat_map(move |rw| {
                let row = bit + u64::from(rw - w.0) * block.width();
                self.bits
                    .ones_in(row, block.width())
                    .map(move |off| (rw, b.0 + off as u32))
            })),
            Marks::List { row, col } => {
                let bands = self.bands(block);
                Box::new((w.0..w.1).flat_map(move |rw| {
                    (0..bands).flat_map(move |band| {
                        let r = row + (rw - w.0) as usize * bands + band;
                        let lo = if r == row { 0 } else { self.row_ends[r - 1] };
                        let (lo, hi) = (col + lo as usize, col + self.row_ends[r] as usize);
                        let first = b.0 + (band * 64 * self.band_words) as u32;
                        self.cols[lo..hi]
                            .iter()
                            .map(move |&c| (rw, first + u32::from(c)))
                    })
                }))
            }
        }
    }

    /// The stored positions of `layer`, in slot order.
    pub fn entries(&self, layer: Layer) -> impl Iterator<Item = Entry> + '_ {
        let twins = 2;
        self.blocks[layer.blocks.0 as usize..layer.blocks.1 as usize]
            .iter()
            .flat_map(move |block| {
                self.pairs(block).map(move |(rw, rb)| {
                    let [w, b] = &self.sets;
                    let fixed = (w.mirror(rw), b.mirror(rb)) == (rw, rb);
                    Entry {
                        occ: [w.set(rw), b.set(rb)],
                        stm: block.stm,
                        images: twins * if fixed { 1 } else { 2 },
                        ranks: [rw, rb],
                        adv: block.adv,
                    }
                })
            })
    }

    /// The ranks and advancements of a core occupancy, `None` if a side is not one group of
    /// this material.
    #[inline(always)]
    pub fn rank(&self, occ: [u128; 2]) -> Option<[(u32, u32); 2]> {
        Some([self.sets[0].rank(occ[0])?, self.sets[1].rank(occ[1])?])
    }

    /// Every non-empty layer, highest total advancement first, grouped: layers of one group
    /// have the same total and no move between them. Slots run in this order.
    pub fn layers(&self) -> Vec<Vec<Layer>> {
        self.layers.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ORDO-2.3: the word-wise marks of every block row are the pair-by-pair rule (disjoint
    /// sets, the side to move off its goal row, the first of each mirror pair), on a
    /// crowded board (list marks) and a sparse one (bit marks), both sides to move.
    #[test]
    fn ordo_2_3_row_marks_are_the_pairwise_rule() {
        for (board, k) in [("4x5", [5, 4]), ("6x5", [2, 2]), ("4x4", [6, 6])] {
            let dims: Dims = board.parse().unwrap();
            let sets = [
                Arc::new(Sets::new(dims, Color::White, k[0])),
                Arc::new(Sets::new(dims, Color::Black, k[1])),
            ];
            let index = CoreIndex::new(sets).unwrap();
            let mut row = Vec::new();
            let mut checked = 0;
            for block in &index.blocks {
                let b = block.black.0..block.black.1;
                for rw in block.white.0..block.white.1 {
                    index.row_marks(block.stm, rw, b.clone(), &mut row);
                    for rb in b.clone() {
                        let i = (rb - b.start) as usize;
                        let bit = row[i / 64] >> (i % 64) & 1 == 1;
                        assert_eq!(bit, index.stored(block.stm, rw, rb), "{board} {rw} {rb}");
                        checked += 1;
                    }
                }
            }
            assert!(checked > 1000, "{board}: {checked} pairs");
        }
    }

    /// Lists in bands (a crowded slice's Black runs pass the 65,536 columns a `u16` names):
    /// with bands of 64 columns an index answers every position, slot and entry as with one
    /// band a row, and is measured right.
    #[test]
    fn list_bands_answer_as_one_band_a_row() {
        for (board, k) in [("4x5", [5, 4]), ("4x4", [6, 6]), ("5x4", [5, 5])] {
            let dims: Dims = board.parse().unwrap();
            let sets = [
                Arc::new(Sets::new(dims, Color::White, k[0])),
                Arc::new(Sets::new(dims, Color::Black, k[1])),
            ];
            let one = CoreIndex::new(sets.clone()).unwrap();
            let banded = CoreIndex::with_bands(sets.clone(), 1).unwrap();
            let multi = |b: &Block| matches!(b.marks, Marks::List { .. }) && banded.bands(b) > 1;
            assert!(
                banded.blocks.iter().any(multi),
                "{board}: no list of two bands"
            );
            assert_eq!(one.len(), banded.len(), "{board}");
            for i in 0..one.len() {
                assert_eq!(one.position(i), banded.position(i), "{board} slot {i}");
            }
            for layer in one.layers().into_iter().flatten() {
                let entries = one.entries(layer).zip(banded.entries(layer));
                for (i, (a, b)) in entries.enumerate() {
                    assert_eq!(a, b, "{board}");
                    let at = banded.slot_of(b.stm, b.ranks, b.adv);
                    assert_eq!(at, Some(layer.start + i), "{board}");
                }
                assert_eq!(banded.entries(layer).count(), layer.len(), "{board}");
            }
            let mut empty = CoreIndex::empty(sets);
            empty.band_words = 1;
            let size = empty.size_by(|i, stm, adv, row| (i.count_block(stm, adv, row), 0.0));
            assert_eq!(size.marks, banded.bytes() as u64, "{board}");
        }
    }

    /// Counting an index without building it gives the sizes of the built one.
    #[test]
    fn measuring_an_index_gives_the_sizes_of_the_built_one() {
        for (board, k) in [
            ("4x5", [5, 4]),
            ("6x5", [2, 2]),
            ("4x4", [6, 6]),
            ("5x4", [3, 1]),
        ] {
            let dims: Dims = board.parse().unwrap();
            let sets = [
                Arc::new(Sets::new(dims, Color::White, k[0])),
                Arc::new(Sets::new(dims, Color::Black, k[1])),
            ];
            let size = CoreIndex::measure(sets.clone());
            let index = CoreIndex::new(sets).unwrap();
            let layers = index.layers();
            let group = layers
                .iter()
                .map(|g| g.iter().map(|l| l.len() as u64).sum::<u64>())
                .max();
            assert_eq!(size.entries, index.len() as u64, "{board}");
            assert_eq!(size.marks, index.bytes() as u64, "{board}");
            assert_eq!(Some(size.largest_group), group, "{board}");
            let sets = (index.sets[0].len() + index.sets[1].len()) as u64;
            assert_eq!(size.sets, sets, "{board}");
        }
    }
}
