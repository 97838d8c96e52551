//! The compact internal move: a step packed in a `u32`, a turn (one or two steps, ORDOX-3.1)
//! in a `u64`, and the conversion to the vocabulary's [`Step`] and [`Move`] at the boundary.
//!
//! Step layout (bit ranges):
//! - `0..7`: `from` (singleton) or `first`, the lower row-major end (ordo);
//! - `7..14`: `to`, the landing square of `from` / `first`;
//! - `14..21`: the kept square of a tie choice (singleton, ORDOX-4.2) or the run length (ordo);
//! - flags: [`ORDO`], [`CAPTURE`], [`KEEP`], [`VERT`], and [`VALID`] so that no step is 0.
//!
//! Turn layout: the first step in the low 32 bits, the second (or 0) in the high 32 bits.

use crate::rules::{Dims, Move, Step};

pub(crate) const ORDO: u32 = 1 << 21;
pub(crate) const CAPTURE: u32 = 1 << 22;
pub(crate) const KEEP: u32 = 1 << 23;
pub(crate) const VERT: u32 = 1 << 24;
pub(crate) const VALID: u32 = 1 << 25;

#[inline(always)]
pub(crate) fn single(from: u32, to: u32, capture: bool, keep: Option<u32>) -> u32 {
    let mut s = VALID | from | (to << 7);
    if capture {
        s |= CAPTURE;
    }
    if let Some(k) = keep {
        s |= KEEP | (k << 14);
    }
    s
}

#[inline(always)]
pub(crate) fn ordo(first: u32, len: u32, vertical: bool, to: u32) -> u32 {
    let mut s = VALID | ORDO | first | (to << 7) | (len << 14);
    if vertical {
        s |= VERT;
    }
    s
}

#[inline(always)]
pub(crate) fn a(s: u32) -> u32 {
    s & 0x7f
}

#[inline(always)]
pub(crate) fn b(s: u32) -> u32 {
    (s >> 7) & 0x7f
}

#[inline(always)]
pub(crate) fn c(s: u32) -> u32 {
    (s >> 14) & 0x7f
}

#[inline(always)]
pub(crate) fn turn(first: u32, second: u32) -> u64 {
    first as u64 | ((second as u64) << 32)
}

/// The vocabulary step of an internal step (canonical: `first` is the lower end).
pub(crate) fn to_step(dims: Dims, s: u32) -> Step {
    let sq = |i: u32| dims.square(i as usize);
    if s & ORDO != 0 {
        let stride = if s & VERT != 0 { dims.cols as u32 } else { 1 };
        let first = a(s);
        Step::Ordo {
            first: sq(first),
            last: sq(first + (c(s) - 1) * stride),
            to: sq(b(s)),
        }
    } else {
        Step::Single {
            from: sq(a(s)),
            to: sq(b(s)),
            capture: s & CAPTURE != 0,
            keep: (s & KEEP != 0).then(|| sq(c(s))),
        }
    }
}

/// The vocabulary move of an internal turn.
pub(crate) fn to_move(dims: Dims, t: u64) -> Move {
    let first = to_step(dims, t as u32);
    let second = (t >> 32) as u32;
    if second == 0 {
        Move::single(first)
    } else {
        Move::double(first, to_step(dims, second))
    }
}
