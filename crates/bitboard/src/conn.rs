//! What the connection rule (ORDO-4.1, ORDO-4.3, ORDOX-3.2) needs to know about one player's
//! pieces, computed from those pieces alone and cached by their mask.
//!
//! Whether a step keeps the mover one group depends only on the mover's pieces, never on the
//! opponent's, so the knowledge is shared by every position with the same pieces of the mover:
//! the sibling positions of a search, where only the other player's pieces differ, and the
//! Ordo X mid-turn positions reached by the same sideways step from them.
//!
//! How it is judged for a mover who is one group:
//! - Lifting one piece `s`: the local test ([`local_lift_mask`], all pieces at once) shows most
//!   pieces can be lifted with the rest staying one group; the others are settled by [`parts`]
//!   when the entry is made. For a liftable piece a landing `t` only has to touch the rest: `t`
//!   in `E1 \ N(s)` or in `E2 ∩ N(s)`, where `E1` / `E2` are the squares next to at least one /
//!   two of the mover's pieces, which lets the liftable pieces be counted together. For an
//!   articulation piece a landing must touch each group of the rest; either way the legal
//!   landings of a piece are one mask.
//! - Lifting a run: lifting its pieces one by one from the lower end, each must pass the local
//!   test in what is left, which only loses the neighbour just lifted (the `W` neighbour along
//!   a row, the `S` neighbour along a column): two more all-pieces masks. Otherwise [`parts`]
//!   again. A landing must touch each group of the rest: one or two ANDs.
//! - A split mover (classic reconnection, ORDO-9.1; a set-up Ordo X position, ORDOX-3.5) skips
//!   the local tests and uses the groups throughout.

use super::geometry::{bit, local_lift_mask, low_bit, squares, Geo, S, W};

/// Pieces whose landing mask is remembered per entry (those failing the local test).
const SLOW: usize = 8;
/// Slots of the table of run verdicts per entry.
const RUNS: usize = 64;

/// The groups left when pieces are lifted: see [`parts`].
pub(crate) enum Parts {
    One,
    /// Exactly two groups: this one and everything else.
    Two(u128),
    /// Three or more (or not known to be two).
    Many,
}

/// The groups of `rest`, the mover's pieces with some lifted, when the mover was one group
/// and `ring` is the part of `rest` next to the lifted pieces (so every group of `rest` meets
/// `ring`). When the ring falls into exactly two parts, their groups are grown in lockstep:
/// they meet (one group), or the smaller stops growing first and the other group is
/// everything else. This avoids flood-filling the big group.
pub(crate) fn parts(g: &Geo, ring: u128, rest: u128) -> Parts {
    let a = g.flood(low_bit(ring), ring);
    if a == ring {
        return Parts::One;
    }
    let ring_b = ring & !a;
    let b = g.flood(low_bit(ring_b), ring_b);
    if b != ring_b {
        return Parts::Many;
    }
    let (mut xa, mut xb) = (a, b);
    loop {
        let na = g.expand(xa) & rest;
        if na & xb != 0 {
            return Parts::One;
        }
        if na == xa {
            return Parts::Two(xa);
        }
        let nb = g.expand(xb) & rest;
        if nb & na != 0 {
            return Parts::One;
        }
        if nb == xb {
            return Parts::Two(xb);
        }
        xa = na;
        xb = nb;
    }
}

/// How the landings of a lifted run are judged: a landing is legal iff it meets both masks
/// (the board for no condition; one group left: `expand(rest)` and the board; two groups:
/// each group expanded). `[0, 0]` when the rest is three or more groups, which the caller
/// works out by a flood fill.
pub(crate) type Meet = [u128; 2];
/// Connection knowledge about one mask of the mover's pieces.
pub(crate) struct Info {
    valid: bool,
    /// `cols << 8 | rows` of the board the entry was computed for.
    dims: u32,
    pub own: u128,
    pub split: bool,
    /// Squares next to at least one / two of the pieces.
    pub e1: u128,
    pub e2: u128,
    /// Pieces whose lifting leaves the rest one group, exactly (none when split): those that
    /// pass the local lift test, and those found by [`parts`] when the entry is made.
    pub liftable: u128,
    /// Pieces that pass it once their `W` / `S` neighbour is lifted (none when split).
    pub local_w: u128,
    pub local_s: u128,
    n_slow: usize,
    slow_sq: [u32; SLOW],
    slow_ok: [u128; SLOW],
    /// Whether every piece not in `liftable` has its landing mask remembered (the mover one
    /// group, at most [`SLOW`] such pieces, more than one piece): then the two masks below
    /// let all the singletons be counted together (see [`Info::single_zones`]).
    pub bulk_singles: bool,
    /// Per direction `d`: the squares next to a piece (`e1`) whose nearest piece of the
    /// mover behind them along `d` is in `liftable`.
    pub zone_e1: [u128; 8],
    /// Per direction `d`: the legal landings of the pieces not in `liftable` in direction
    /// `d`, each on the squares up to the next piece of the mover along `d`.
    pub slow_land: [u128; 8],
    /// Run key + 1 per slot (0: empty).
    run_key: [u32; RUNS],
    run_conn: [Meet; RUNS],
}

impl Info {
    fn blank() -> Info {
        Info {
            valid: false,
            dims: 0,
            own: 0,
            split: false,
            e1: 0,
            e2: 0,
            liftable: 0,
            local_w: 0,
            local_s: 0,
            n_slow: 0,
            slow_sq: [0; SLOW],
            slow_ok: [0; SLOW],
            bulk_singles: false,
            zone_e1: [0; 8],
            slow_land: [0; 8],
            run_key: [0; RUNS],
            run_conn: [[0; 2]; RUNS],
        }
    }

    fn fill(&mut self, g: &Geo, own: u128, split: bool) {
        let mut nb = g.neighbour_masks(own);
        let mut e1 = 0;
        let mut e2 = 0;
        for &m in &nb {
            e2 |= e1 & m;
            e1 |= m;
        }
        self.valid = true;
        self.dims = g.cols << 8 | g.rows;
        self.own = own;
        self.split = split;
        self.e1 = e1;
        self.e2 = e2;
        self.n_slow = 0;
        self.run_key = [0; RUNS];
        if split {
            self.liftable = 0;
            self.local_w = 0;
            self.local_s = 0;
        } else {
            let local = own & local_lift_mask(&nb);
            let w = nb[W];
            nb[W] = 0;
            self.local_w = own & local_lift_mask(&nb);
            nb[W] = w;
            nb[S] = 0;
            self.local_s = own & local_lift_mask(&nb);
            // Settle the other pieces now: the entry serves many positions.
            self.liftable = local;
            for s in squares(own & !local) {
                let rest = own & !bit(s);
                if rest != 0 {
                    if let Parts::One = parts(g, g.nbr[s as usize] & rest, rest) {
                        self.liftable |= bit(s);
                    } else {
                        self.single_ok_slow(g, s);
                    }
                }
            }
        }
        self.single_zones(g);
    }

    /// The masks that count every singleton step of the mover per direction at once.
    ///
    /// Sliding all the mover's pieces in direction `d` at once, each square reached is
    /// reached from one piece, its nearest piece of the mover behind it along `d` (every
    /// square between them is empty). Which piece that is depends on the mover's pieces
    /// alone, so per direction the entry keeps, for the squares whose nearest piece is
    /// liftable, `e1` there (a landing away from its piece must touch the rest; the landing
    /// next to it is judged by `e2` in [`crate::gen::Side::count`]), and for the squares
    /// whose nearest piece `s` is not, the legal landings of `s` there.
    fn single_zones(&mut self, g: &Geo) {
        let slow = self.own & !self.liftable;
        self.bulk_singles =
            !self.split && self.own.count_ones() > 1 && self.n_slow == slow.count_ones() as usize;
        if !self.bulk_singles {
            return;
        }
        let open = g.board & !self.own;
        for d in 0..8 {
            self.zone_e1[d] = fill_dir(g, self.liftable, open, d) & self.e1;
            let mut land = 0;
            for i in 0..self.n_slow {
                land |= fill_dir(g, bit(self.slow_sq[i]), open, d) & self.slow_ok[i];
            }
            self.slow_land[d] = land;
        }
    }

    /// The squares `t` (not holding one of the pieces) such that the pieces with the one on
    /// `s` moved to `t` form one group (ORDO-4.3).
    #[inline(always)]
    pub fn single_ok(&mut self, g: &Geo, s: u32) -> u128 {
        if self.liftable & bit(s) != 0 {
            let n = g.nbr[s as usize];
            return (self.e1 & !n) | (self.e2 & n);
        }
        self.single_ok_slow(g, s)
    }

    /// [`Info::single_ok`] for a piece `s` not in `liftable`, the `i`-th of them (lowest
    /// first): their landing masks are remembered in that order (by [`Info::fill`], or by a
    /// first walk over all of a split mover's pieces), so the lookup is one compare rather
    /// than a call and a search.
    #[inline(always)]
    pub fn single_ok_nth(&mut self, g: &Geo, i: usize, s: u32) -> u128 {
        if i < self.n_slow && self.slow_sq[i] == s {
            return self.slow_ok[i];
        }
        self.single_ok_slow(g, s)
    }

    #[inline(never)]
    fn single_ok_slow(&mut self, g: &Geo, s: u32) -> u128 {
        if let Some(i) = self.slow_sq[..self.n_slow].iter().position(|&q| q == s) {
            return self.slow_ok[i];
        }
        let rest = self.own & !bit(s);
        let ok = if rest == 0 {
            g.board
        } else {
            let n = g.nbr[s as usize];
            let parts = if self.split {
                Parts::Many
            } else {
                parts(g, n & rest, rest)
            };
            match parts {
                Parts::One => (self.e1 & !n) | (self.e2 & n),
                Parts::Two(small) => g.expand(small) & g.expand(rest & !small),
                Parts::Many => {
                    // The landing must touch each group of the rest.
                    let mut ok = g.board;
                    let mut left = rest;
                    while left != 0 {
                        let group = g.flood(low_bit(left), left);
                        ok &= g.expand(group);
                        left &= !group;
                    }
                    ok
                }
            }
        };
        if self.n_slow < SLOW {
            self.slow_sq[self.n_slow] = s;
            self.slow_ok[self.n_slow] = ok;
            self.n_slow += 1;
        }
        ok
    }

    /// Whether lifting the run `run` (lower end `first`, along a column if `vertical`) leaves
    /// the rest one group by the local test, lifting from the lower end.
    #[inline(always)]
    pub fn run_lifts_locally(&self, run: u128, first: u32, vertical: bool) -> bool {
        debug_assert_eq!(run.trailing_zeros(), first);
        let after_first = if vertical { self.local_s } else { self.local_w };
        let low = low_bit(run);
        self.liftable & low != 0 && (run ^ low) & !after_first == 0
    }

    /// [`Info::run_conn_slow`], with the run's first slot looked at inline: a run met before
    /// sits there unless another one took it first, so most lookups make no call.
    #[inline(always)]
    pub fn run_conn(&mut self, g: &Geo, run: u128, first: u32, len: u32, vertical: bool) -> Meet {
        let (key, slot) = run_slot(first, len, vertical);
        if self.run_key[slot] == key {
            return self.run_conn[slot];
        }
        self.run_conn_slow(g, run, first, len, vertical)
    }

    /// How the landings of the run `run` (lower end `first`, `len` pieces, along a column if
    /// `vertical`) are judged when it does not lift locally: exactly, by the groups of the
    /// rest; remembered per run.
    #[inline(never)]
    pub fn run_conn_slow(
        &mut self,
        g: &Geo,
        run: u128,
        first: u32,
        len: u32,
        vertical: bool,
    ) -> Meet {
        // Open addressing with linear probing; a full table just stops remembering.
        let (key, mut slot) = run_slot(first, len, vertical);
        let mut free = None;
        for _ in 0..RUNS {
            match self.run_key[slot] {
                k if k == key => return self.run_conn[slot],
                0 => {
                    free = Some(slot);
                    break;
                }
                _ => slot = (slot + 1) % RUNS,
            }
        }
        let rest = self.own & !run;
        let conn = if rest == 0 {
            [g.board; 2]
        } else if self.split {
            [0; 2]
        } else {
            match parts(g, g.expand(run) & rest, rest) {
                Parts::One => [g.expand(rest), g.board],
                Parts::Two(small) => [g.expand(small), g.expand(rest & !small)],
                Parts::Many => [0; 2],
            }
        };
        if let Some(slot) = free {
            self.run_key[slot] = key;
            self.run_conn[slot] = conn;
        }
        conn
    }
}

/// Every square the pieces of `from` reach going in direction `d` over the squares of
/// `open`, the first square beyond them included (an occluded fill).
fn fill_dir(g: &Geo, from: u128, open: u128, d: usize) -> u128 {
    let mut front = g.shift(from, d);
    let mut reach = front;
    front &= open;
    while front != 0 {
        front = g.shift(front, d);
        reach |= front;
        front &= open;
    }
    reach
}

/// The key of a run in the table of run verdicts (never 0) and its first slot there.
#[inline(always)]
fn run_slot(first: u32, len: u32, vertical: bool) -> (u32, usize) {
    let key = 1 + (first | (len << 7) | ((vertical as u32) << 12));
    (key, (key.wrapping_mul(0x9E37_79B9) >> 26) as usize % RUNS)
}

/// A two-way set-associative table of [`Info`] by piece mask, one per search thread: each
/// mask may sit in either entry of its set, and a miss replaces the one used less recently.
/// (Two ways matter: an Ordo X search keeps some sixty masks in use at once, the base and the
/// mid-turn masks of the side to move, and a direct-mapped table thrashes on their
/// collisions.)
pub(crate) struct Cache {
    entries: Box<[Info]>,
    /// Per set: which way was used last.
    recent: Box<[u8]>,
    /// The entry [`Cache::get`] returned last: sibling positions share the mover's pieces,
    /// so it is looked at first, before the mask is hashed.
    last: usize,
}

impl Cache {
    /// A table of `2^bits` entries (at least two).
    pub fn new(bits: u32) -> Cache {
        let n = 1usize << bits.max(1);
        Cache {
            entries: (0..n).map(|_| Info::blank()).collect(),
            recent: vec![0; n / 2].into_boxed_slice(),
            last: 0,
        }
    }

    /// The knowledge about `own` (whose split flag is `split`), computed on a miss.
    #[inline(always)]
    pub fn get(&mut self, g: &Geo, own: u128, split: bool) -> &mut Info {
        let dims = g.cols << 8 | g.rows;
        let hit = |e: &Info| e.valid && e.own == own && e.split == split && e.dims == dims;
        if hit(&self.entries[self.last]) {
            // Its set's most recent way already.
            return &mut self.entries[self.last];
        }
        // Fold and mix (the SplitMix64 finaliser): every bit of the mask reaches the set index.
        let mut h = own as u64 ^ ((own >> 64) as u64).rotate_left(29) ^ split as u64;
        h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        h ^= h >> 31;
        let set = h as usize & (self.recent.len() - 1);
        let way = if hit(&self.entries[2 * set]) {
            0
        } else if hit(&self.entries[2 * set + 1]) {
            1
        } else {
            let way = 1 - self.recent[set] as usize;
            self.entries[2 * set + way].fill(g, own, split);
            way
        };
        self.recent[set] = way as u8;
        self.last = 2 * set + way;
        &mut self.entries[2 * set + way]
    }
}

/// The groups of `x`, in order of their lowest square; returns how many. `out` must have room
/// for every group (64 is enough on any board of ORDO-1.5).
pub(crate) fn split_groups(g: &Geo, x: u128, out: &mut [u128; 64]) -> usize {
    let mut n = 0;
    let mut left = x;
    while left != 0 {
        let grp = g.flood(low_bit(left), left);
        out[n] = grp;
        n += 1;
        left &= !grp;
    }
    n
}
