//! The positions a table covers and their perfect index.
//!
//! A position on a board of at most [`MAX_PACKED_SQUARES`] squares packs into one [`Key`]: White's
//! mask, Black's mask and the side to move. A [`Space`] holds the keys of every position it
//! covers, each once, in a fixed order (by a mixing hash of the key, then the key); a
//! position's index is its rank in that order. A directory over the hash's top bits finds
//! the rank with one or two cache lines read, so the index is perfect (no gaps, no
//! collisions) yet costs 16 bytes per position plus about 2 for the directory, not a general
//! hash map.
//!
//! [`Space::reachable`] enumerates every position reachable from a start by a parallel
//! breadth-first search.

use std::collections::HashSet;

use rayon::prelude::*;

use crate::rules::{Color, Dims, Engine, Variant};
use crate::solve::SolveError;

/// A packed position: bits 0..63 White, 63..126 Black, bit 126 set when Black is to move.
/// Only boards of at most [`MAX_PACKED_SQUARES`] squares fit; larger boards must key positions by
/// their full masks.
pub type Key = u128;

/// The largest board (in squares) whose positions pack into a [`Key`].
pub const MAX_PACKED_SQUARES: usize = 63;

const BLACK_SHIFT: u32 = 63;
const BLACK_TO_MOVE: u128 = 1 << 126;
const SIDE_MASK: u128 = (1 << 63) - 1;

/// Pack an occupancy (White, Black) and the side to move.
pub fn pack(occ: [u128; 2], to_move: Color) -> Key {
    let side = if to_move == Color::Black {
        BLACK_TO_MOVE
    } else {
        0
    };
    (occ[0] & SIDE_MASK) | (occ[1] & SIDE_MASK) << BLACK_SHIFT | side
}

/// The occupancy and side to move of a key.
pub fn unpack(key: Key) -> ([u128; 2], Color) {
    let to_move = if key & BLACK_TO_MOVE != 0 {
        Color::Black
    } else {
        Color::White
    };
    ([key & SIDE_MASK, (key >> BLACK_SHIFT) & SIDE_MASK], to_move)
}

/// The key of an engine's position.
pub fn key_of<E: Engine>(e: &E) -> Key {
    pack(e.occupancy(), e.side_to_move())
}

/// Load the position of a key.
pub fn load<E: Engine>(dims: Dims, variant: Variant, key: Key) -> Result<E, SolveError> {
    let (occ, to_move) = unpack(key);
    E::from_occupancy(dims, variant, to_move, occ)
        .map_err(|e| SolveError::Corrupt(format!("key {key:#x} is not a position: {e}")))
}

/// The fixed mixing hash that orders a space (a 128-to-64-bit fold of two multiply-xorshift
/// rounds; never changes, since table files store keys in this order).
pub fn mix(key: Key) -> u64 {
    let mut z = (key as u64) ^ ((key >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Memory the whole-game solver needs per position at its peak, with some margin. Most of it
/// is the reversed move graph (4 bytes a move), so it depends on the game: measured peaks are
/// 65 to 70 bytes a position in classic Ordo (about 7 moves each) and 163 to 185 in Ordo X
/// (about 30 moves each) on the boards of `analysis/games.md`.
pub fn bytes_per_position(variant: Variant) -> u64 {
    match variant {
        Variant::Classic => 80,
        Variant::X => 200,
    }
}

/// A set of positions of one board and game, with the perfect index described above.
#[derive(Clone, Debug)]
pub struct Space {
    dims: Dims,
    variant: Variant,
    keys: Vec<Key>,
    /// `dir[h]` = rank of the first key whose hash has top bits `h`; one extra entry at the end.
    dir: Vec<u32>,
    shift: u32,
}

impl Space {
    /// The space of the given keys (duplicates removed), in index order.
    pub fn from_keys(
        dims: Dims,
        variant: Variant,
        mut keys: Vec<Key>,
    ) -> Result<Space, SolveError> {
        if keys.len() >= u32::MAX as usize {
            return Err(SolveError::TooLarge(format!(
                "{} positions; a space indexes fewer than 2^32",
                keys.len()
            )));
        }
        keys.par_sort_unstable_by_key(|&k| (mix(k), k));
        keys.dedup();
        let bits = (keys.len().max(1) / 2)
            .max(1)
            .next_power_of_two()
            .trailing_zeros();
        let shift = 64 - bits;
        let buckets = 1usize << bits;
        let mut dir = vec![0u32; buckets + 1];
        let mut b = 0usize;
        for (i, &k) in keys.iter().enumerate() {
            let h = (mix(k) >> shift) as usize;
            while b <= h {
                dir[b] = i as u32;
                b += 1;
            }
        }
        while b <= buckets {
            dir[b] = keys.len() as u32;
            b += 1;
        }
        Ok(Space {
            dims,
            variant,
            keys,
            dir,
            shift,
        })
    }

    /// Every position reachable from `start` (the start included), by breadth-first search
    /// over the engine's successors; `progress` shows the count.
    pub fn reachable<E: Engine>(
        start: &E,
        limit: Option<&crate::solve::MemoryLimit>,
        progress: &dyn crate::solve::Progress,
    ) -> Result<Space, SolveError> {
        let dims = start.dims();
        let variant = start.variant();
        if dims.len() > MAX_PACKED_SQUARES {
            return Err(SolveError::TooLarge(format!(
                "a {}x{} board has {} squares; whole-game solving packs at most {MAX_PACKED_SQUARES}",
                dims.cols,
                dims.rows,
                dims.len()
            )));
        }
        let bound = SizeBound::new(dims, variant, limit);
        let first = key_of(start);
        let mut seen: HashSet<Key> = HashSet::from([first]);
        let mut frontier = vec![first];
        let mut depth = 0;
        while !frontier.is_empty() {
            depth += 1;
            let mut next = Vec::new();
            for chunk in frontier.chunks(1 << 16) {
                for k in successor_keys::<E>(dims, variant, chunk) {
                    if seen.insert(k) {
                        next.push(k);
                    }
                }
                bound.check(seen.len(), depth)?;
                let phase = crate::solve::Phase {
                    name: "enumerating",
                    unit: "positions",
                };
                progress.update(phase, seen.len() as u64, None);
            }
            frontier = next;
        }
        let keys: Vec<Key> = seen.into_iter().collect();
        Space::from_keys(dims, variant, keys)
    }

    /// Board of the space.
    pub fn dims(&self) -> Dims {
        self.dims
    }

    /// Game of the space.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the space is empty.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The key of index `i`.
    pub fn key(&self, i: usize) -> Key {
        self.keys[i]
    }

    /// Every key, in index order.
    pub fn keys(&self) -> &[Key] {
        &self.keys
    }

    /// The index of a key, if the space holds it.
    pub fn index(&self, key: Key) -> Option<usize> {
        let h = (mix(key) >> self.shift) as usize;
        let (lo, hi) = (self.dir[h] as usize, self.dir[h + 1] as usize);
        self.keys[lo..hi]
            .iter()
            .position(|&k| k == key)
            .map(|p| lo + p)
    }

    /// Load the position of index `i` into an engine.
    pub fn load<E: Engine>(&self, i: usize) -> Result<E, SolveError> {
        load(self.dims, self.variant, self.keys[i])
    }
}

/// A space as a closed game graph for [`super::analysis::solve`]: every successor of a
/// position in the space is in the space.
#[derive(Debug)]
pub struct SpaceGraph<'a, E> {
    space: &'a Space,
    engine: std::marker::PhantomData<fn() -> E>,
}

impl<'a, E: Engine> SpaceGraph<'a, E> {
    pub fn new(space: &'a Space) -> Self {
        SpaceGraph {
            space,
            engine: std::marker::PhantomData,
        }
    }
}

impl<E: Engine> super::analysis::Graph for SpaceGraph<'_, E> {
    type E = E;

    fn len(&self) -> usize {
        self.space.len()
    }

    fn load(&self, i: usize) -> Result<Option<E>, SolveError> {
        self.space.load(i).map(Some)
    }

    fn locate(&self, e: &E) -> Result<super::analysis::Target, SolveError> {
        let k = key_of(e);
        self.space
            .index(k)
            .map(|j| super::analysis::Target::Inside(j as u32))
            .ok_or_else(|| {
                SolveError::Corrupt(format!("a successor is not in the table (key {k:#x})"))
            })
    }
}

/// The keys of the successors of the positions `keys` (repeats included), in parallel.
fn successor_keys<E: Engine>(dims: Dims, variant: Variant, keys: &[Key]) -> Vec<Key> {
    keys.par_iter()
        .map_init(Vec::new, |buf, &k| {
            let e: E = load(dims, variant, k).expect("enumerated keys are positions");
            e.successors(buf);
            buf.iter().map(key_of).collect::<Vec<_>>()
        })
        .flatten_iter()
        .collect()
}

/// How many positions an enumeration may find: fewer than 2^32 - 1, and few enough that the
/// solve that follows (about `per_position` bytes each) stays within 80% of the memory
/// limit. Stopping early rather than exhausting the machine.
struct SizeBound<'a> {
    dims: Dims,
    variant: Variant,
    limit: Option<&'a crate::solve::MemoryLimit>,
    per_position: u64,
    budget: u64,
}

impl<'a> SizeBound<'a> {
    fn new(dims: Dims, variant: Variant, limit: Option<&'a crate::solve::MemoryLimit>) -> Self {
        let per_position = bytes_per_position(variant);
        let budget = limit.map_or(u64::MAX, |l| l.bytes / 10 * 8 / per_position);
        SizeBound {
            dims,
            variant,
            limit,
            per_position,
            budget,
        }
    }

    /// An error if `found` positions (at `depth` so far) are too many.
    fn check(&self, found: usize, depth: usize) -> Result<(), SolveError> {
        if found >= u32::MAX as usize - 1 {
            return Err(SolveError::TooLarge(format!(
                "more than {found} reachable positions"
            )));
        }
        if found as u64 > self.budget {
            let l = self.limit.expect("a finite budget comes from a limit");
            let (dims, variant, per_position) = (self.dims, self.variant, self.per_position);
            return Err(SolveError::over_memory(
                format!(
                    "more than {found} reachable positions on {dims} (depth {depth} so far): solving {variant} needs about {per_position} bytes each, over {}, more than 80% of",
                    crate::solve::human_bytes(found as u64 * per_position),
                ),
                l,
                "",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_pack_and_unpack() {
        let occ = [0b1011u128, 1u128 << 62];
        for c in Color::ALL {
            assert_eq!(unpack(pack(occ, c)), (occ, c));
        }
        assert_ne!(pack(occ, Color::White), pack(occ, Color::Black));
    }

    #[test]
    fn the_index_is_a_perfect_rank() {
        let dims = Dims::new(4, 4).unwrap();
        let keys: Vec<Key> = (0..5000u128).map(|k| k * 7919 % 65536).collect();
        let space = Space::from_keys(dims, Variant::Classic, keys.clone()).unwrap();
        let mut distinct = keys.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(space.len(), distinct.len());
        for (i, &k) in space.keys().iter().enumerate() {
            assert_eq!(space.index(k), Some(i));
        }
        assert_eq!(space.index(1 << 100), None);
    }
}
