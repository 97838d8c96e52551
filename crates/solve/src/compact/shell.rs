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
//! indexed, between [`MIN_SLOTS`] and [`MAX_SLOTS`] slots. The layers solved side by side share it without a lock: each
//! slot is a sequence lock of its own (its last word carries a version and a writing bit),
//! so a read torn by a write is seen as one and answers nothing, and a write meeting
//! another one gives way.

use std::sync::atomic::{fence, AtomicU64, Ordering};

use crate::rules::Color;

/// Fewest slots (2.5 KB).
pub const MIN_SLOTS: usize = 64;
/// Most slots (40 MB).
pub const MAX_SLOTS: usize = 1 << 20;
/// Stored entries of the largest slice per slot of the cache.
pub const ENTRIES_PER_SLOT: usize = 16;
/// Bytes of a slot.
const SLOT_BYTES: usize = std::mem::size_of::<Slot>();

/// White's occupancy (low, high word), Black's, then the side to move plus one (0: an empty
/// slot) in the low byte, the value's code in the next, [`WRITING`] and a version above.
type Slot = [AtomicU64; 5];

/// The bit of a slot's last word set while it is being written.
const WRITING: u64 = 1 << 16;
/// The version's unit (above [`WRITING`]).
const VERSION: u64 = 1 << 17;

/// Shell values by position, bounded (see the module doc).
#[derive(Debug)]
pub struct ShellCache {
    slots: Vec<Slot>,
}

impl Default for ShellCache {
    fn default() -> Self {
        ShellCache::with_slots(MIN_SLOTS)
    }
}

impl ShellCache {
    fn with_slots(slots: usize) -> ShellCache {
        ShellCache {
            slots: (0..slots).map(|_| Default::default()).collect(),
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
    #[cfg(test)]
    fn bytes(&self) -> usize {
        self.slots.len() * SLOT_BYTES
    }

    /// Grow (emptied) to the size for a slice of `entries` stored entries, if that is larger.
    pub fn grow(&mut self, entries: usize) {
        let want = Self::slots_for(entries);
        if want > self.slots.len() {
            *self = ShellCache::with_slots(want);
        }
    }

    fn key(occ: [u128; 2], stm: Color) -> [u64; 5] {
        let w = |m: u128, hi: bool| (if hi { m >> 64 } else { m }) as u64;
        [
            w(occ[0], false),
            w(occ[0], true),
            w(occ[1], false),
            w(occ[1], true),
            1 + stm as u64,
        ]
    }

    /// The slot of `key`.
    fn slot(&self, key: &[u64; 5]) -> &Slot {
        let mut h = key[4];
        for &k in &key[..4] {
            h = (h ^ k).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            h ^= h >> 29;
        }
        &self.slots[h as usize & (self.slots.len() - 1)]
    }

    /// The cached value code of the shell position `occ` with `stm` to move.
    pub fn get(&self, occ: [u128; 2], stm: Color) -> Option<u8> {
        let key = Self::key(occ, stm);
        let slot = self.slot(&key);
        let before = slot[4].load(Ordering::Acquire);
        if before & WRITING != 0 || before & 0xff != key[4] {
            return None;
        }
        let held: [u64; 4] = std::array::from_fn(|i| slot[i].load(Ordering::Relaxed));
        fence(Ordering::Acquire);
        let after = slot[4].load(Ordering::Relaxed);
        (before == after && held == key[..4]).then_some((before >> 8) as u8)
    }

    /// Keep `code` as the value of the shell position `occ` with `stm` to move (unless
    /// another thread is writing the same slot).
    pub fn put(&self, occ: [u128; 2], stm: Color, code: u8) {
        let key = Self::key(occ, stm);
        let slot = self.slot(&key);
        let last = slot[4].load(Ordering::Relaxed);
        let locked = slot[4].compare_exchange(
            last & !WRITING,
            last | WRITING,
            Ordering::Acquire,
            Ordering::Relaxed,
        );
        if locked.is_err() {
            return;
        }
        fence(Ordering::Release);
        for (s, k) in slot.iter().zip(&key[..4]) {
            s.store(*k, Ordering::Relaxed);
        }
        let version = (last & !(VERSION - 1)).wrapping_add(VERSION);
        slot[4].store(version | u64::from(code) << 8 | key[4], Ordering::Release);
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

    /// The shell cache's locks: two threads writing and reading the same few
    /// slots at once; every answer is the value put for that very position (a read torn by
    /// a write answers nothing).
    #[test]
    fn a_slot_shared_by_threads_never_answers_a_torn_value() {
        let cache = ShellCache::default();
        let value = |p: [u128; 2]| ((p[0] + (p[1] >> 70)) % 250) as u8;
        let answered = std::sync::atomic::AtomicU64::new(0);
        std::thread::scope(|s| {
            for t in 0..2u128 {
                let (cache, answered) = (&cache, &answered);
                s.spawn(move || {
                    for i in 0..200_000u128 {
                        let k = i % 1000;
                        let p = [k + 7 * t, (k * 3 + t) << 70];
                        cache.put(p, Color::White, value(p));
                        if let Some(code) = cache.get(p, Color::White) {
                            assert_eq!(code, value(p), "{p:x?}");
                            answered.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        }
                    }
                });
            }
        });
        assert!(answered.into_inner() > 1000);
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
