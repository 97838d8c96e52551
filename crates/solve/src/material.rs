//! Material: White's and Black's piece counts, the unit of endgame tables (a slice), and the
//! connected sets of squares (ORDO-4.1) that index a side that is one group.

use std::path::{Path, PathBuf};

use super::SolveError;
use crate::rules::{Color, Dims, Variant};

/// Material of a slice: White's and Black's piece counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Material {
    /// White's pieces on the board.
    pub white: u32,
    /// Black's pieces on the board.
    pub black: u32,
}

impl std::fmt::Display for Material {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}v{}", self.white, self.black)
    }
}

/// A material that does not read: the text, which is not of the form `WvB`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("material '{0}': expected WvB such as 3v2")]
pub struct ParseMaterialError(pub String);

impl std::str::FromStr for Material {
    type Err = ParseMaterialError;

    /// `WvB`, as [`Material`] displays itself: `3v2`.
    fn from_str(s: &str) -> Result<Material, ParseMaterialError> {
        let bad = || ParseMaterialError(s.to_string());
        let (w, b) = s.split_once('v').ok_or_else(bad)?;
        Ok(Material {
            white: w.parse().map_err(|_| bad())?,
            black: b.parse().map_err(|_| bad())?,
        })
    }
}

impl Material {
    /// The pieces of each colour on `pos`: the slice it belongs to.
    pub fn of(pos: &crate::rules::Position) -> Material {
        Material {
            white: pos.count(Color::White) as u32,
            black: pos.count(Color::Black) as u32,
        }
    }

    /// Every slice with 1..=`white` White and 1..=`black` Black pieces, fewer pieces first.
    pub fn up_to(white: u32, black: u32) -> Vec<Material> {
        let mut v: Vec<Material> = (1..=white)
            .flat_map(|w| (1..=black).map(move |b| Material { white: w, black: b }))
            .collect();
        v.sort_by_key(|m| m.build_order());
        v
    }

    /// The order slices are built in: fewer pieces first, then fewer White pieces.
    pub fn build_order(self) -> (u32, u32, u32) {
        (self.white + self.black, self.white, self.black)
    }

    /// The pieces of side `c`.
    pub fn count(self, c: Color) -> u32 {
        match c {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }
}

/// Every connected set (ORDO-4.1, neighbours in all eight directions) of `k` squares on
/// `dims`, sorted.
pub fn connected_sets(dims: Dims, k: u32) -> Vec<u128> {
    connected_sets_bounded(dims, k, usize::MAX).expect("no bound")
}

/// [`connected_sets`], or `None` as soon as a level of the enumeration holds more than
/// `cap` sets (so an impossible size check stops early, in bounded memory).
pub fn connected_sets_bounded(dims: Dims, k: u32, cap: usize) -> Option<Vec<u128>> {
    if k == 0 {
        return Some(vec![0]);
    }
    let nb = neighbours(dims);
    let mut level: Vec<u128> = (0..dims.len()).map(|i| 1u128 << i).collect();
    for _ in 1..k {
        if level.len() > cap {
            return None;
        }
        level = grow(&level, &nb, cap)?;
    }
    (level.len() <= cap).then_some(level)
}

/// How many connected sets of each size from 0 to `k` squares `dims` has (indexed by the
/// size), counted level by level as [`connected_sets_bounded`] enumerates them; from the
/// first size whose level would hold more than `cap` sets on, each is counted as 0. So every
/// count is exact or 0, never more than the truth: a lower bound, in memory bounded by `cap`.
pub(crate) fn connected_set_counts(dims: Dims, k: u32, cap: usize) -> Vec<u64> {
    let nb = neighbours(dims);
    let mut counts = vec![0u64; k as usize + 1];
    counts[0] = 1;
    let mut level: Vec<u128> = (0..dims.len()).map(|i| 1u128 << i).collect();
    for (size, count) in counts.iter_mut().enumerate().skip(1) {
        if size > 1 {
            match grow(&level, &nb, cap) {
                Some(next) => level = next,
                None => break,
            }
        }
        *count = level.len() as u64;
    }
    counts
}

/// The squares next to each square of `dims` (all eight directions), a bit per square.
fn neighbours(dims: Dims) -> Vec<u128> {
    (0..dims.len())
        .map(|i| {
            let sq = dims.square(i);
            let mut m = 0u128;
            for dc in -1i8..=1 {
                for dr in -1i8..=1 {
                    if (dc, dr) != (0, 0) {
                        if let Some(t) = dims.offset(sq, dc, dr) {
                            m |= 1u128 << dims.index(t);
                        }
                    }
                }
            }
            m
        })
        .collect()
}

/// The connected sets one square larger than those of `level` (each set grown by a square
/// next to it, `nb` giving the neighbours), sorted and each once; `None` as soon as they are
/// more than `cap` (the duplicates are dropped whenever the list passes one and a half
/// times `cap`, so it never holds much more).
fn grow(level: &[u128], nb: &[u128], cap: usize) -> Option<Vec<u128>> {
    let mut next = Vec::new();
    for &set in level {
        let mut around = 0u128;
        let mut s = set;
        while s != 0 {
            let i = s.trailing_zeros() as usize;
            around |= nb[i];
            s &= s - 1;
        }
        around &= !set;
        while around != 0 {
            let i = around.trailing_zeros();
            next.push(set | 1u128 << i);
            around &= around - 1;
        }
        if next.len() > cap.saturating_add(cap / 2) {
            next.sort_unstable();
            next.dedup();
            if next.len() > cap {
                return None;
            }
        }
    }
    next.sort_unstable();
    next.dedup();
    (next.len() <= cap).then_some(next)
}

/// Refuse, listing every one missing, unless the file of each slice of `all` (at the path
/// `file` gives) is in `dir`: what a probe of material `needed` reads.
pub fn require_slices(
    dir: &Path,
    variant: Variant,
    dims: Dims,
    needed: Material,
    all: &[Material],
    file: impl Fn(Material) -> PathBuf,
) -> Result<(), SolveError> {
    let missing: Vec<Material> = all.iter().copied().filter(|&s| !file(s).exists()).collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(SolveError::MissingSlices {
        dir: dir.display().to_string(),
        variant,
        dims,
        needed,
        missing,
    })
}

/// The slices a capture from a position of material `m` can lead into, fewer pieces first.
///
/// In classic Ordo a capture removes exactly the captured piece (ORDO-6.4, ORDO-9.3): one
/// piece fewer on one side. In Ordo X it may also remove the captured side's pieces outside
/// its largest group (ORDOX-4.1): any smaller number on that side. A capture of a side's
/// last piece ends the game (ORDO-10.2) and leads into no slice. Nothing else changes the
/// material.
pub fn parents(variant: Variant, m: Material) -> Vec<Material> {
    let lower = |k: u32| match variant {
        Variant::Classic => (k.max(2) - 1)..k,
        Variant::X => 1..k,
    };
    let mut v: Vec<Material> = lower(m.white)
        .map(|white| Material { white, ..m })
        .chain(lower(m.black).map(|black| Material { black, ..m }))
        .collect();
    v.sort_by_key(|p| p.build_order());
    v
}

/// Every slice reachable from `m` through one capture or more, fewer pieces first: what a
/// solver needs loaded that values positions through chains of captures.
pub fn ancestors(variant: Variant, m: Material) -> Vec<Material> {
    let mut seen = std::collections::BTreeSet::new();
    let mut todo = parents(variant, m);
    while let Some(p) = todo.pop() {
        if seen.insert(p) {
            todo.extend(parents(variant, p));
        }
    }
    let mut v: Vec<Material> = seen.into_iter().collect();
    v.sort_by_key(|p| p.build_order());
    v
}
