//! The transposition table: proof and disproof numbers of searched positions in a fixed
//! number of entries (what the memory limit allows), in buckets of four, the entry that
//! stood for the least work replaced first and solved entries kept over open ones.

use std::io::{self, Read, Write};

/// Proof and disproof numbers at or above this are infinite (a solved node).
pub const INF: u32 = 1 << 30;

/// The bit of [`Entry::work`] that marks a refutation resting on a cycle through the path
/// it was searched on.
pub const TAINTED: u32 = 1 << 31;

/// One searched position: its key, its numbers from the side to move's view (φ, δ), the
/// work its last search took and, once solved, the length of its proof in plies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// The position's key (0 = empty slot).
    pub key: u64,
    /// Cost to prove the mover's goal (0 = proved).
    pub phi: u32,
    /// Cost to refute it (0 = refuted).
    pub delta: u32,
    /// Nodes expanded under it by its last search, and the [`TAINTED`] bit.
    pub work: u32,
    /// For a solved node: the plies of its proof's longest line.
    pub depth: u32,
}

impl Entry {
    /// Whether the node is solved one way or the other.
    pub fn solved(&self) -> bool {
        self.phi == 0 || self.delta == 0
    }

    /// Whether it is a refutation resting on a cycle through its path.
    pub fn tainted(&self) -> bool {
        self.work & TAINTED != 0
    }

    fn keep_score(&self) -> u64 {
        u64::from(self.work & !TAINTED) + if self.solved() { 1 << 40 } else { 0 }
    }
}

/// The bytes of one entry.
pub const ENTRY_BYTES: usize = std::mem::size_of::<Entry>();
const BUCKET: usize = 4;

/// A fixed-size table of [`Entry`], kept as keys and numbers in two zeroed allocations (so
/// that the memory is only touched where entries land).
#[derive(Debug)]
pub struct Table {
    keys: Vec<u64>,
    nums: Vec<[u32; 4]>,
    used: usize,
}

impl Table {
    /// A table of at most `bytes` (at least one bucket), a power of two of buckets.
    pub fn with_bytes(bytes: u64) -> Table {
        let want = (bytes / ENTRY_BYTES as u64 / BUCKET as u64).max(1);
        let buckets = 1usize << (63 - want.leading_zeros()).min(40);
        Table {
            keys: vec![0; buckets * BUCKET],
            nums: vec![[0; 4]; buckets * BUCKET],
            used: 0,
        }
    }

    /// The number of slots and of slots in use.
    pub fn fill(&self) -> (usize, usize) {
        (self.keys.len(), self.used)
    }

    fn bucket(&self, key: u64) -> usize {
        let buckets = self.keys.len() / BUCKET;
        (key as usize & (buckets - 1)) * BUCKET
    }

    fn entry(&self, i: usize) -> Entry {
        let [phi, delta, work, depth] = self.nums[i];
        Entry {
            key: self.keys[i],
            phi,
            delta,
            work,
            depth,
        }
    }

    fn set(&mut self, i: usize, e: Entry) {
        self.keys[i] = e.key;
        self.nums[i] = [e.phi, e.delta, e.work, e.depth];
    }

    /// The entry of `key`, if the table holds it.
    pub fn get(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        (b..b + BUCKET)
            .find(|&i| self.keys[i] == key)
            .map(|i| self.entry(i))
    }

    /// Store `e`: over its own slot, else an empty one, else the least valuable of its bucket
    /// (an open node over a solved one, less work over more), unless `e` is worth less still.
    pub fn put(&mut self, e: Entry) {
        let b = self.bucket(e.key);
        let slot = if let Some(i) = (b..b + BUCKET).find(|&i| self.keys[i] == e.key) {
            i
        } else if let Some(i) = (b..b + BUCKET).find(|&i| self.keys[i] == 0) {
            self.used += 1;
            i
        } else {
            let i = (b..b + BUCKET)
                .min_by_key(|&i| self.entry(i).keep_score())
                .expect("a bucket has slots");
            if self.entry(i).keep_score() > e.keep_score() {
                return;
            }
            i
        };
        self.set(slot, e);
    }

    /// Drop the entry of `key`, if the table holds it.
    pub fn forget(&mut self, key: u64) {
        let b = self.bucket(key);
        if let Some(i) = (b..b + BUCKET).find(|&i| self.keys[i] == key) {
            self.set(i, Entry::default());
            self.used -= 1;
        }
    }

    /// Forget every tainted entry.
    pub fn drop_tainted(&mut self) {
        for i in 0..self.keys.len() {
            if self.keys[i] != 0 && self.entry(i).tainted() {
                self.set(i, Entry::default());
                self.used -= 1;
            }
        }
    }

    /// Write the entries in use (key, φ, δ, work, depth as little-endian numbers).
    pub fn save(&self, w: &mut impl Write) -> io::Result<u64> {
        let mut n = 0;
        for e in (0..self.keys.len())
            .map(|i| self.entry(i))
            .filter(|e| e.key != 0)
        {
            w.write_all(&e.key.to_le_bytes())?;
            for x in [e.phi, e.delta, e.work, e.depth] {
                w.write_all(&x.to_le_bytes())?;
            }
            n += 1;
        }
        Ok(n)
    }

    /// Read `count` entries written by [`Table::save`] and store each.
    pub fn load(&mut self, r: &mut impl Read, count: u64) -> io::Result<()> {
        let mut buf = [0u8; 24];
        for _ in 0..count {
            r.read_exact(&mut buf)?;
            let word = |i: usize| u32::from_le_bytes(buf[i..i + 4].try_into().expect("4 bytes"));
            let key = u64::from_le_bytes(buf[..8].try_into().expect("8 bytes"));
            if key != 0 {
                self.put(Entry {
                    key,
                    phi: word(8).min(INF),
                    delta: word(12).min(INF),
                    work: word(16),
                    depth: word(20),
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: u64, work: u32, solved: bool) -> Entry {
        Entry {
            key,
            phi: if solved { 0 } else { 3 },
            delta: if solved { INF } else { 2 },
            work,
            depth: 0,
        }
    }

    #[test]
    fn a_full_bucket_gives_up_its_least_worked_open_entry() {
        let mut t = Table::with_bytes(0);
        assert_eq!(t.fill().0, BUCKET);
        t.put(entry(1, 5, true));
        t.put(entry(2, 1, false));
        t.put(entry(3, 9, false));
        t.put(entry(4, 7, false));
        t.put(entry(5, 3, false));
        assert_eq!(t.get(2), None, "the least work goes first");
        assert!(t.get(1).is_some(), "a solved entry stays");
        t.put(entry(6, 0, false));
        assert_eq!(
            t.get(6),
            None,
            "an entry worth less than every other is not stored"
        );
        assert_eq!(t.fill().1, BUCKET);
    }

    #[test]
    fn saved_entries_load_back_equal() {
        let mut t = Table::with_bytes(1 << 12);
        for k in 1..40u64 {
            t.put(entry(k * 7919, k as u32, k % 3 == 0));
        }
        let mut bytes = Vec::new();
        let n = t.save(&mut bytes).unwrap();
        let mut u = Table::with_bytes(1 << 12);
        u.load(&mut bytes.as_slice(), n).unwrap();
        for k in 1..40u64 {
            assert_eq!(t.get(k * 7919), u.get(k * 7919));
        }
    }
}
