//! Per-board geometry: the masks and tables every bitboard operation uses, computed once per
//! board size (ORDO-1.5) and shared for the life of the process.
//!
//! Square index = `row * cols + col` (a1 = bit 0), as in the notation's row-major index.
//! Shifting a mask by `dr * cols + dc` moves every piece one square in direction `(dc, dr)`;
//! the per-direction source masks drop the pieces that would leave the board or wrap around a
//! row end before the shift.

use std::sync::OnceLock;

use crate::rules::{Color, Dims, MAX_SIDE};

/// The eight directions, in the order of [`crate::rules::Direction::ALL`]:
/// N, NE, E, SE, S, SW, W, NW as `(dc, dr)` with White's forward = N.
pub(crate) const DIRS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// Per direction: whether a step raises the square index (north, or east along a row).
pub(crate) const POSITIVE: [bool; 8] = [true, true, true, false, false, false, false, true];

/// Call `$body` with the const generic `$D` bound to the direction `$d` (0..8).
#[cfg(test)]
macro_rules! with_dir {
    ($d:expr, $D:ident => $body:expr) => {
        match $d {
            0 => {
                const $D: usize = 0;
                $body
            }
            1 => {
                const $D: usize = 1;
                $body
            }
            2 => {
                const $D: usize = 2;
                $body
            }
            3 => {
                const $D: usize = 3;
                $body
            }
            4 => {
                const $D: usize = 4;
                $body
            }
            5 => {
                const $D: usize = 5;
                $body
            }
            6 => {
                const $D: usize = 6;
                $body
            }
            _ => {
                const $D: usize = 7;
                $body
            }
        }
    };
}

/// Run `$body` with the const generic `$D` bound to each direction whose bit is set in the
/// `u8` mask `$mask`, in increasing order: eight tests of the mask instead of a jump through
/// a table per direction (an indirect branch whose target changes every round).
macro_rules! for_each_dir {
    ($mask:expr, $D:ident => $body:expr) => {{
        let mask: u8 = $mask;
        for_each_dir!(@one mask, 0, $D => $body);
        for_each_dir!(@one mask, 1, $D => $body);
        for_each_dir!(@one mask, 2, $D => $body);
        for_each_dir!(@one mask, 3, $D => $body);
        for_each_dir!(@one mask, 4, $D => $body);
        for_each_dir!(@one mask, 5, $D => $body);
        for_each_dir!(@one mask, 6, $D => $body);
        for_each_dir!(@one mask, 7, $D => $body);
    }};
    (@one $mask:ident, $d:literal, $D:ident => $body:expr) => {
        if $mask & (1 << $d) != 0 {
            const $D: usize = $d;
            $body;
        }
    };
}
pub(crate) use for_each_dir;

/// Direction indices into [`DIRS`].
pub(crate) const N: usize = 0;
pub(crate) const NE: usize = 1;
pub(crate) const E: usize = 2;
pub(crate) const SE: usize = 3;
pub(crate) const S: usize = 4;
pub(crate) const SW: usize = 5;
pub(crate) const W: usize = 6;
pub(crate) const NW: usize = 7;

/// Direction sets (bit `d` = direction `d`) seen from one colour (ORDO-1.4).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Headings {
    pub forward: u8,
    pub diagonal_forward: u8,
    pub sideways: u8,
    pub backward: u8,
    pub diagonal_backward: u8,
}

/// ORDO-1.4: forward is up the rows for White, down for Black.
pub(crate) const fn headings(c: Color) -> Headings {
    match c {
        Color::White => Headings {
            forward: 1 << N,
            diagonal_forward: (1 << NE) | (1 << NW),
            sideways: (1 << E) | (1 << W),
            backward: 1 << S,
            diagonal_backward: (1 << SE) | (1 << SW),
        },
        Color::Black => Headings {
            forward: 1 << S,
            diagonal_forward: (1 << SE) | (1 << SW),
            sideways: (1 << E) | (1 << W),
            backward: 1 << N,
            diagonal_backward: (1 << NE) | (1 << NW),
        },
    }
}

/// Masks and tables of one board size.
pub(crate) struct Geo {
    pub cols: u32,
    pub rows: u32,
    /// Every square of the board.
    pub board: u128,
    /// Squares not in the first column (a).
    pub not_first: u128,
    /// Squares not in the last column.
    pub not_last: u128,
    /// Per direction: the squares whose neighbour in that direction is on the board.
    pub src: [u128; 8],
    /// Per direction: the index offset of one step.
    pub delta: [i32; 8],
    /// Per direction: the size of that offset (at most 17, so a shift by it is below 64).
    amount: [u32; 8],
    /// Per square and direction: every square along the ray, the square itself excluded.
    pub rays: [[u128; 8]; 128],
    /// Per square: its (up to eight) neighbours (ORDO-4.1).
    pub nbr: [u128; 128],
    /// Home row of White (row 1) and of Black (last row), indexed by `Color as usize`
    /// (ORDO-1.3).
    pub home: [u128; 2],
    /// Vertical run of `len` squares starting at a1 (index 0), for `len` in `0..=16`.
    pub vrun: [u128; MAX_SIDE as usize + 1],
}

#[inline(always)]
pub(crate) const fn bit(sq: u32) -> u128 {
    1u128 << sq
}

#[inline(always)]
pub(crate) fn low_bit(x: u128) -> u128 {
    x & x.wrapping_neg()
}

/// `x << k` for a shift of less than 64 (one step on any board: at most 16 + 1), which
/// compiles to a plain double-word shift without the test for shifts of 64 or more.
#[inline(always)]
pub(crate) fn shl(x: u128, k: u32) -> u128 {
    x << (k & 63)
}

/// `x >> k` for a shift of less than 64 (see [`shl`]).
#[inline(always)]
pub(crate) fn shr(x: u128, k: u32) -> u128 {
    x >> (k & 63)
}

/// Iterate the squares of a mask, lowest first.
#[inline(always)]
pub(crate) fn squares(mut x: u128) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if x == 0 {
            None
        } else {
            let s = x.trailing_zeros();
            x &= x - 1;
            Some(s)
        }
    })
}

/// Whether `(c, r)` lies on a board of `cols` x `rows`.
const fn on_board(c: i32, r: i32, cols: i32, rows: i32) -> bool {
    c >= 0 && r >= 0 && c < cols && r < rows
}

/// Per square, the masks [`Geo`] keeps: the squares that have a neighbour in each direction,
/// the ray from each square in each direction, and each square's neighbours.
struct SquareTables {
    src: [u128; 8],
    rays: [[u128; 8]; 128],
    nbr: [u128; 128],
}

impl SquareTables {
    /// Computed at compile time for the standard board (see [`STANDARD`]), hence the
    /// `while` loops.
    const fn new(cols: u32, rows: u32) -> SquareTables {
        let (cols, rows) = (cols as i32, rows as i32);
        let mut t = SquareTables {
            src: [0u128; 8],
            rays: [[0u128; 8]; 128],
            nbr: [0u128; 128],
        };
        let mut s = 0;
        while s < cols * rows {
            let (c, r) = (s % cols, s / cols);
            let mut d = 0;
            while d < 8 {
                let (dc, dr) = DIRS[d];
                if on_board(c + dc, r + dr, cols, rows) {
                    t.src[d] |= bit(s as u32);
                    t.nbr[s as usize] |= bit((s + dr * cols + dc) as u32);
                }
                let (mut x, mut y) = (c + dc, r + dr);
                while on_board(x, y, cols, rows) {
                    t.rays[s as usize][d] |= bit((y * cols + x) as u32);
                    x += dc;
                    y += dr;
                }
                d += 1;
            }
            s += 1;
        }
        t
    }
}

/// The geometry of the standard 10 x 8 board (ORDO-1.5), computed at compile time: code that
/// knows it works on this board (the x86 perft, see `Bitboard::perft_x86`) reads its masks and
/// step sizes as constants, so they become immediate operands rather than loads and shifts by
/// a register.
pub(crate) static STANDARD: Geo = Geo::new(10, 8);

impl Geo {
    /// The geometry of a board of `cols` x `rows` (a `const fn` for [`STANDARD`]).
    const fn new(cols: u32, rows: u32) -> Geo {
        let n = cols * rows;
        let board = if n == 128 {
            u128::MAX
        } else {
            (1u128 << n) - 1
        };
        let (mut not_first, mut not_last) = (0, 0);
        let mut s = 0;
        while s < n {
            if s % cols > 0 {
                not_first |= bit(s);
            }
            if s % cols < cols - 1 {
                not_last |= bit(s);
            }
            s += 1;
        }
        let (mut delta, mut amount) = ([0i32; 8], [0u32; 8]);
        let mut d = 0;
        while d < 8 {
            delta[d] = DIRS[d].1 * cols as i32 + DIRS[d].0;
            amount[d] = delta[d].unsigned_abs();
            d += 1;
        }
        let mut vrun = [0u128; MAX_SIDE as usize + 1];
        let mut len = 1;
        while len <= MAX_SIDE as usize {
            vrun[len] = vrun[len - 1];
            if len as u32 <= rows {
                vrun[len] |= bit((len as u32 - 1) * cols);
            }
            len += 1;
        }
        let t = SquareTables::new(cols, rows);
        let row = (1u128 << cols) - 1;
        Geo {
            cols,
            rows,
            board,
            not_first,
            not_last,
            src: t.src,
            delta,
            amount,
            rays: t.rays,
            nbr: t.nbr,
            home: [row, row << ((rows - 1) * cols)],
            vrun,
        }
    }

    /// The geometry of a board size, computed on first use.
    pub fn get(dims: Dims) -> &'static Geo {
        if (dims.cols, dims.rows) == (10, 8) {
            return &STANDARD;
        }
        static GEOS: [OnceLock<Box<Geo>>; 17 * 17] = [const { OnceLock::new() }; 17 * 17];
        let slot = &GEOS[dims.cols as usize * 17 + dims.rows as usize];
        slot.get_or_init(|| Box::new(Geo::new(dims.cols as u32, dims.rows as u32)))
    }

    pub fn dims(&self) -> Dims {
        Dims {
            cols: self.cols as u8,
            rows: self.rows as u8,
        }
    }

    /// Move every piece of `x` one square in direction `d`; pieces that would leave the board
    /// are dropped.
    #[inline(always)]
    pub fn shift(&self, x: u128, d: usize) -> u128 {
        let y = x & self.src[d];
        let k = self.delta[d];
        if k > 0 {
            shl(y, k as u32)
        } else {
            shr(y, (-k) as u32)
        }
    }

    /// Every square a piece of `from` reaches sliding in direction `d` over the squares of
    /// `empty`, the first square beyond them included (an occluded fill, one square per round
    /// for all pieces at once). Each square of the result is reached from exactly one piece:
    /// the nearest one behind it.
    #[inline(always)]
    pub fn slide_all<const D: usize>(&self, from: u128, empty: u128) -> u128 {
        let mut front = self.step::<D>(from);
        let mut reach = front;
        front &= empty;
        while front != 0 {
            front = self.step::<D>(front);
            reach |= front;
            front &= empty;
        }
        reach
    }

    /// Per direction `d`: the squares whose neighbour in direction `d` holds a piece of `x`.
    #[inline(always)]
    pub fn neighbour_masks(&self, x: u128) -> [u128; 8] {
        let mut nb = [0u128; 8];
        for (d, m) in nb.iter_mut().enumerate() {
            *m = self.shift(x, (d + 4) & 7);
        }
        nb
    }

    /// [`Geo::shift`] for a direction fixed at compile time: no test of the offset's sign.
    #[inline(always)]
    pub fn step<const D: usize>(&self, x: u128) -> u128 {
        let y = x & self.src[D];
        if POSITIVE[D] {
            shl(y, self.amount[D])
        } else {
            shr(y, self.amount[D])
        }
    }

    /// [`Geo::step`] in the opposite direction.
    #[inline(always)]
    pub fn step_back<const D: usize>(&self, x: u128) -> u128 {
        let y = x & self.src[(D + 4) & 7];
        if POSITIVE[D] {
            shr(y, self.amount[D])
        } else {
            shl(y, self.amount[D])
        }
    }

    /// `x` together with every square touching it (ORDO-4.1).
    #[inline(always)]
    pub fn expand(&self, x: u128) -> u128 {
        let h = x | ((x & self.not_last) << 1) | ((x & self.not_first) >> 1);
        (h | shl(h, self.cols) | shr(h, self.cols)) & self.board
    }

    /// The group of `within` that contains the squares of `seed` (a mask flood fill:
    /// `x |= expand(x) & within` until nothing changes). `seed` must lie in `within`.
    #[inline(always)]
    pub fn flood(&self, seed: u128, within: u128) -> u128 {
        let mut x = seed;
        loop {
            let nx = self.expand(x) & within;
            if nx == x {
                return x;
            }
            x = nx;
        }
    }

    /// Whether the pieces of `x` form at most one group (ORDO-4.1, ORDO-4.2).
    #[inline]
    pub fn connected(&self, x: u128) -> bool {
        x == 0 || self.flood(low_bit(x), x) == x
    }

    /// The squares a singleton on `s` sees in direction `d` over empty squares, the first
    /// occupied square included (ORDO-6.3).
    #[cfg(test)]
    pub fn slide(&self, s: u32, d: usize, occ: u128) -> u128 {
        let ray = self.rays[s as usize][d];
        let blockers = ray & occ;
        if blockers == 0 {
            ray
        } else {
            let b = if self.delta[d] > 0 {
                blockers.trailing_zeros()
            } else {
                127 - blockers.leading_zeros()
            };
            ray ^ self.rays[b as usize][d]
        }
    }

    /// The slide of one singleton (`Geo::slide`, kept for the tests) for a direction fixed at
    /// compile time: no test of the offset's sign.
    #[inline(always)]
    pub fn slide_dir<const D: usize>(&self, s: u32, occ: u128) -> u128 {
        let ray = self.rays[s as usize][D];
        let blockers = ray & occ;
        if blockers == 0 {
            ray
        } else {
            let b = if POSITIVE[D] {
                blockers.trailing_zeros()
            } else {
                127 - blockers.leading_zeros()
            };
            ray ^ self.rays[b as usize][D]
        }
    }

    /// The 3 x 3 window of `x` around `s` as nine bits, row by row from the row below
    /// (bit `3 * dy + dx` for the square at offset `(dx - 1, dy - 1)`); squares off the board
    /// read as empty.
    #[inline(always)]
    pub fn window(&self, x: u128, s: u32) -> usize {
        let c = s % self.cols;
        let r = s / self.cols;
        let seg = |row: u32| -> usize {
            let base = row * self.cols + c;
            if c == 0 {
                (((x >> base) & 3) << 1) as usize
            } else if c == self.cols - 1 {
                ((x >> (base - 1)) & 3) as usize
            } else {
                ((x >> (base - 1)) & 7) as usize
            }
        };
        let mut w = seg(r) << 3;
        if r > 0 {
            w |= seg(r - 1);
        }
        if r + 1 < self.rows {
            w |= seg(r + 1) << 6;
        }
        w
    }

    /// Local articulation test: whether the pieces of `x` around `s` form exactly one group
    /// inside the 3 x 3 window without its centre. If `x` is one group and this holds, then
    /// `x` without `s` is still one group (any path through `s` can go round it).
    #[inline(always)]
    pub fn lift_is_local(&self, x: u128, s: u32) -> bool {
        RING_ONE_GROUP[self.window(x, s)]
    }
}

/// The bit-parallel form of [`Geo::lift_is_local`] for every square at once, from the
/// neighbour masks of [`Geo::neighbour_masks`]: going round a square (N, NE, E, … in the order
/// of [`DIRS`]), the ring is one group iff its pieces form one cyclic run once an empty corner
/// between two present orthogonal neighbours is counted as present (those two touch).
#[inline(always)]
pub(crate) fn local_lift_mask(nb: &[u128; 8]) -> u128 {
    let mut x = *nb;
    for c in [NE, SE, SW, NW] {
        x[c] |= nb[c - 1] & nb[(c + 1) & 7];
    }
    let mut ones = 0;
    let mut twos = 0;
    let mut all = u128::MAX;
    for i in 0..8 {
        let start = x[i] & !x[(i + 7) & 7];
        twos |= ones & start;
        ones |= start;
        all &= x[i];
    }
    (ones & !twos) | all
}

/// For every 3 x 3 pattern (centre bit 4 ignored): whether the other set squares form exactly
/// one group under the eight-neighbour adjacency inside the window.
static RING_ONE_GROUP: [bool; 512] = ring_table();

const fn ring_table() -> [bool; 512] {
    let mut t = [false; 512];
    let mut idx = 0usize;
    while idx < 512 {
        let p = idx & !(1 << 4);
        if p != 0 {
            let mut seen = p & p.wrapping_neg();
            loop {
                let mut next = seen;
                let mut i: usize = 0;
                while i < 9 {
                    if seen & (1 << i) != 0 {
                        let mut j: usize = 0;
                        while j < 9 {
                            if p & (1 << j) != 0 {
                                let (xi, yi) = ((i % 3) as i32, (i / 3) as i32);
                                let (xj, yj) = ((j % 3) as i32, (j / 3) as i32);
                                let (dx, dy) = (xi - xj, yi - yj);
                                if dx * dx <= 1 && dy * dy <= 1 {
                                    next |= 1 << j;
                                }
                            }
                            j += 1;
                        }
                    }
                    i += 1;
                }
                if next == seen {
                    break;
                }
                seen = next;
            }
            t[idx] = seen == p;
        }
        idx += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ring_table_examples() {
        // Only the square below: one group.
        assert!(RING_ONE_GROUP[1 << 1]);
        // Below and above, nothing at the sides: two groups.
        assert!(!RING_ONE_GROUP[(1 << 1) | (1 << 7)]);
        // Left and below-left-corner and below: one group.
        assert!(RING_ONE_GROUP[(1 << 3) | (1 << 0) | (1 << 1)]);
        // Left and below (corner empty): they touch diagonally.
        assert!(RING_ONE_GROUP[(1 << 3) | (1 << 1)]);
        // Empty ring: not one group.
        assert!(!RING_ONE_GROUP[1 << 4]);
    }

    #[test]
    fn local_mask_matches_the_table() {
        let g = Geo::get(Dims { cols: 7, rows: 5 });
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..2000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let x = (seed as u128 | ((seed.rotate_left(17) as u128) << 64)) & g.board;
            let mask = local_lift_mask(&g.neighbour_masks(x));
            for s in 0..35 {
                assert_eq!(mask & bit(s) != 0, g.lift_is_local(x, s), "{x:#x} at {s}");
            }
        }
    }

    #[test]
    fn slide_all_matches_rays() {
        for (cols, rows) in [(10u8, 8u8), (16, 8), (2, 2), (3, 16), (11, 11)] {
            let g = Geo::get(Dims { cols, rows });
            let mut seed = 0x9e37_79b9_7f4a_7c15u64;
            for _ in 0..200 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let occ = (seed as u128 | ((seed.rotate_left(29) as u128) << 64)) & g.board;
                for d in 0..8 {
                    for s in squares(occ) {
                        let want = g.slide(s, d, occ);
                        let got = with_dir!(d, D => g.slide_all::<D>(bit(s), g.board & !occ));
                        assert_eq!(want, got, "{cols}x{rows} {occ:#x} from {s} dir {d}");
                        let one = with_dir!(d, D => g.slide_dir::<D>(s, occ));
                        assert_eq!(want, one, "{cols}x{rows} {occ:#x} from {s} dir {d}");
                    }
                }
            }
        }
    }

    #[test]
    fn shifts_stay_on_the_board() {
        let g = Geo::get(Dims { cols: 3, rows: 2 });
        // a1 b1 c1 / a2 b2 c2: c1 (index 2) moving east falls off.
        assert_eq!(g.shift(bit(2), E), 0);
        assert_eq!(g.shift(bit(0), E), bit(1));
        assert_eq!(g.shift(bit(0), NE), bit(4));
        assert_eq!(g.shift(bit(3), SW), 0);
        assert_eq!(g.expand(bit(0)), bit(0) | bit(1) | bit(3) | bit(4));
        assert_eq!(g.window(g.board, 0), 0b110_110_000);
    }
}
