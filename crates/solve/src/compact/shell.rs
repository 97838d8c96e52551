//! A bounded cache of shell values.
//!
//! A shell position (the side to move split, which only follows a capture, ORDO-4.3) has no
//! byte of its own: it is valued from its successors (`CompactTables::value_of`), and the
//! same shell position is reached again by other captures, from the core and from other
//! shell positions. The cache keeps the value last computed in each of its slots, the slot
//! chosen by a hash of the position, with the whole position kept as the key, so that a
//! slot only ever answers for its own position; a collision only costs the value being
//! computed again. Its size is bounded and known in advance ([`ShellCache::bytes_for`]): a
//! slot of 40 bytes for every [`ENTRIES_PER_SLOT`] stored entries of the largest slice
//! indexed, between [`MIN_SLOTS`] and [`MAX_SLOTS`] slots, allocated zeroed (pages are
//! only touched when used). It is split into shards, each behind its own lock, so that the
//! layers solved side by side rarely wait for one another.

use std::sync::Mutex;

use crate::rules::Color;

/// Locks the cache is split between.
const SHARDS: usize = 64;
/// Fewest slots (2.5 KB).
pub const MIN_SLOTS: usize = SHARDS;
/// Most slots (40 MB).
pub const MAX_SLOTS: usize = 1 << 20;
/// Stored entries of the largest slice per slot of the cache.
pub const ENTRIES_PER_SLOT: usize = 16;
/// Bytes of a slot.
const SLOT_BYTES: usize = std::mem::size_of::<Slot>();

/// White's occupancy (low, high word), Black's, then the side to move plus one (0: an empty
/// slot) in the low byte and the value's code above it.
type Slot = [u64; 5];

/// Shell values by position, bounded (see the module doc).
#[derive(Debug)]
pub struct ShellCache {
    shards: Vec<Mutex<Vec<Slot>>>,
}

impl Default for ShellCache {
    fn default() -> Self {
        ShellCache::with_slots(MIN_SLOTS)
    }
}

impl ShellCache {
    fn with_slots(slots: usize) -> ShellCache {
        let per = slots / SHARDS;
        ShellCache {
            shards: (0..SHARDS).map(|_| Mutex::new(vec![[0; 5]; per])).collect(),
        }
    }

    /// Slots of the cache for a largest slice of `entries` stored entries.
    fn slots_for(entries: usize) -> usize {
        (entries / ENTRIES_PER_SLOT)
            .clamp(MIN_SLOTS, MAX_SLOTS)
            .next_power_of_two()
    }

    /// Bytes of the cache for a largest slice of `entries` stored entries.
    pub fn bytes_for(entries: usize) -> usize {
        Self::slots_for(entries) * SLOT_BYTES
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.shards.len() * self.per_shard() * SLOT_BYTES
    }

    fn per_shard(&self) -> usize {
        self.shards[0]
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .len()
    }

    /// Grow (emptied) to the size for a slice of `entries` stored entries, if that is larger.
    pub fn grow(&mut self, entries: usize) {
        let want = Self::slots_for(entries);
        if want > self.shards.len() * self.per_shard() {
            *self = ShellCache::with_slots(want);
        }
    }

    fn key(occ: [u128; 2], stm: Color) -> Slot {
        let w = |m: u128, hi: bool| (if hi { m >> 64 } else { m }) as u64;
        [
            w(occ[0], false),
            w(occ[0], true),
            w(occ[1], false),
            w(occ[1], true),
            1 + stm as u64,
        ]
    }

    /// The shard and the slot in it of `key`.
    fn place(&self, key: &Slot) -> (usize, usize) {
        let mut h = key[4];
        for &k in &key[..4] {
            h = (h ^ k).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            h ^= h >> 29;
        }
        let shard = (h >> 58) as usize % self.shards.len();
        (shard, h as usize)
    }

    /// The cached value code of the shell position `occ` with `stm` to move.
    pub fn get(&self, occ: [u128; 2], stm: Color) -> Option<u8> {
        let key = Self::key(occ, stm);
        let (shard, h) = self.place(&key);
        let slots = self.shards[shard].lock().unwrap_or_else(|e| e.into_inner());
        let slot = &slots[h & (slots.len() - 1)];
        (slot[..4] == key[..4] && slot[4] & 0xff == key[4]).then(|| (slot[4] >> 8) as u8)
    }

    /// Keep `code` as the value of the shell position `occ` with `stm` to move.
    pub fn put(&self, occ: [u128; 2], stm: Color, code: u8) {
        let mut key = Self::key(occ, stm);
        let (shard, h) = self.place(&key);
        key[4] |= u64::from(code) << 8;
        let mut slots = self.shards[shard].lock().unwrap_or_else(|e| e.into_inner());
        let n = slots.len();
        slots[h & (n - 1)] = key;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slot_answers_only_for_its_own_position() {
        let mut cache = ShellCache::default();
        cache.grow(1 << 20);
        let a = ([0b0110u128, 1 << 100], Color::White);
        assert_eq!(cache.get(a.0, a.1), None);
        cache.put(a.0, a.1, 7);
        assert_eq!(cache.get(a.0, a.1), Some(7));
        // The same squares with the other side to move, and a different square, are not it.
        assert_eq!(cache.get(a.0, Color::Black), None);
        assert_eq!(cache.get([0b0110, 1 << 101], a.1), None);
        // A code of 0 (a draw) is a value, not an empty slot.
        cache.put(a.0, Color::Black, 0);
        assert_eq!(cache.get(a.0, Color::Black), Some(0));
        // Thousands of positions: every answer is the one put for that position, or none.
        for i in 0..20_000u128 {
            cache.put([i, i << 64], Color::White, (i % 250) as u8);
        }
        let answered = (0..20_000u128)
            .filter_map(|i| {
                let got = cache.get([i, i << 64], Color::White)?;
                assert_eq!(got, (i % 250) as u8);
                Some(())
            })
            .count();
        assert!(answered > 10_000, "{answered}");
    }

    #[test]
    fn the_size_is_bounded_and_grows_with_the_largest_slice() {
        let mut cache = ShellCache::default();
        assert_eq!(cache.bytes(), MIN_SLOTS * 40);
        cache.grow(100);
        assert_eq!(cache.bytes(), MIN_SLOTS * 40);
        cache.grow(1 << 20);
        assert_eq!(cache.bytes(), ShellCache::bytes_for(1 << 20));
        assert_eq!(cache.bytes(), (1 << 16) * 40);
        cache.grow(1000);
        assert_eq!(cache.bytes(), (1 << 16) * 40, "never shrinks");
        cache.grow(usize::MAX / 2);
        assert_eq!(cache.bytes(), MAX_SLOTS * 40);
    }
}
