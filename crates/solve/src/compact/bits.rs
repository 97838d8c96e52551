//! A bit vector with a rank directory: one bit for every pair of ranks of a core index (set
//! where the pair is a stored position), so that the number of set bits before a pair is its
//! slot in the dense byte table. The directory keeps the count before every 512 bits (a
//! sixteenth of a bit a bit), so a rank reads one count and at most eight words.

/// Bits a directory entry covers.
const BLOCK_WORDS: usize = 8;

/// Bits pushed in order, then frozen with their directory.
#[derive(Clone, Debug, Default)]
pub(super) struct RankBits {
    words: Vec<u64>,
    /// Set bits before word `BLOCK_WORDS · s`.
    dir: Vec<u32>,
    len: u64,
    ones: u64,
}

impl RankBits {
    /// Append one bit.
    #[cfg(test)]
    pub fn push(&mut self, bit: bool) {
        if self.len % 64 == 0 {
            self.words.push(0);
        }
        if bit {
            *self.words.last_mut().expect("pushed above") |= 1 << (self.len % 64);
            self.ones += 1;
        }
        self.len += 1;
    }

    /// Append the first `n` bits of `words` (bit 0 of word 0 first); bits past `n` are
    /// ignored.
    pub fn push_words(&mut self, words: &[u64], n: u64) {
        let mut left = n;
        for &w in words {
            if left == 0 {
                break;
            }
            let take = left.min(64);
            let w = if take < 64 {
                w & ((1u64 << take) - 1)
            } else {
                w
            };
            let off = self.len % 64;
            if off == 0 {
                self.words.push(w);
            } else {
                *self.words.last_mut().expect("a partial word") |= w << off;
                if take > 64 - off {
                    self.words.push(w >> (64 - off));
                }
            }
            self.len += take;
            self.ones += u64::from(w.count_ones());
            left -= take;
        }
    }

    /// Number of set bits so far.
    pub fn ones(&self) -> u64 {
        self.ones
    }

    /// Number of bits so far.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Build the directory; `None` if a count does not fit 32 bits.
    pub fn freeze(mut self) -> Option<RankBits> {
        self.words.shrink_to_fit();
        let mut dir = Vec::with_capacity(self.words.len() / BLOCK_WORDS + 1);
        let mut count = 0u64;
        for chunk in self.words.chunks(BLOCK_WORDS) {
            dir.push(u32::try_from(count).ok()?);
            count += chunk.iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
        }
        dir.push(u32::try_from(count).ok()?);
        self.dir = dir;
        Some(self)
    }

    /// Bit `p`.
    #[inline(always)]
    pub fn get(&self, p: u64) -> bool {
        p < self.len && self.words[(p / 64) as usize] >> (p % 64) & 1 == 1
    }

    /// The 64 bits from bit `p` on (zeros past the end).
    fn word_at(&self, p: u64) -> u64 {
        let (w, s) = ((p / 64) as usize, p % 64);
        let lo = self.words.get(w).copied().unwrap_or(0) >> s;
        match s {
            0 => lo,
            _ => lo | self.words.get(w + 1).copied().unwrap_or(0) << (64 - s),
        }
    }

    /// The set bits of `start..start + len`, as offsets from `start`, in order (a word at a
    /// time: the zeros between them cost nothing each).
    pub fn ones_in(&self, start: u64, len: u64) -> Ones<'_> {
        let mut ones = Ones {
            bits: self,
            start,
            len,
            at: 0,
            word: 0,
        };
        ones.load();
        ones
    }

    /// Set bits before bit `p`.
    #[inline(always)]
    pub fn rank(&self, p: u64) -> u64 {
        let w = (p / 64) as usize;
        let first = w - w % BLOCK_WORDS;
        let before: u32 = self.words[first..w].iter().map(|x| x.count_ones()).sum();
        let partial = match p % 64 {
            0 => 0,
            r => (self.words[w] & ((1u64 << r) - 1)).count_ones(),
        };
        u64::from(self.dir[first / BLOCK_WORDS]) + u64::from(before + partial)
    }

    /// The position of set bit number `i` (from 0), `None` past the last.
    pub fn select(&self, i: u64) -> Option<u64> {
        if i >= self.ones {
            return None;
        }
        let s = self.dir.partition_point(|&c| u64::from(c) <= i) - 1;
        let mut rest = i - u64::from(self.dir[s]);
        for w in s * BLOCK_WORDS..self.words.len() {
            let mut word = self.words[w];
            let c = u64::from(word.count_ones());
            if rest < c {
                for _ in 0..rest {
                    word &= word - 1;
                }
                return Some(w as u64 * 64 + u64::from(word.trailing_zeros()));
            }
            rest -= c;
        }
        None
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.words.len() * 8 + self.dir.len() * 4
    }
}

/// The set bits of a range of a [`RankBits`] ([`RankBits::ones_in`]).
pub(super) struct Ones<'a> {
    bits: &'a RankBits,
    start: u64,
    len: u64,
    /// Offset of `word`'s bit 0 from `start`.
    at: u64,
    /// The bits from `at` on not returned yet.
    word: u64,
}

impl Ones<'_> {
    /// Read the word at `at`, cut at the range's end.
    fn load(&mut self) {
        let left = self.len.saturating_sub(self.at);
        self.word = match left {
            0 => 0,
            1..=63 => self.bits.word_at(self.start + self.at) & ((1u64 << left) - 1),
            _ => self.bits.word_at(self.start + self.at),
        };
    }
}

impl Iterator for Ones<'_> {
    type Item = u64;

    fn next(&mut self) -> Option<u64> {
        while self.word == 0 {
            self.at += 64;
            if self.at >= self.len {
                return None;
            }
            self.load();
        }
        let off = self.at + u64::from(self.word.trailing_zeros());
        self.word &= self.word - 1;
        Some(off)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_and_select_invert_each_other() {
        let mut b = RankBits::default();
        let pattern: Vec<bool> = (0..3000u64).map(|i| i % 7 == 0 || i % 13 == 5).collect();
        for &x in &pattern {
            b.push(x);
        }
        let b = b.freeze().unwrap();
        let mut ones = 0;
        for (p, &x) in pattern.iter().enumerate() {
            assert_eq!(b.get(p as u64), x);
            assert_eq!(b.rank(p as u64), ones);
            if x {
                assert_eq!(b.select(ones), Some(p as u64));
                ones += 1;
            }
        }
        assert_eq!(b.ones(), ones);
        // The set bits of any range, word by word, are those read bit by bit.
        for (start, len) in [(0, 3000), (5, 0), (7, 1), (63, 130), (100, 64), (2990, 10)] {
            let want: Vec<u64> = (0..len)
                .filter(|&i| pattern[(start + i) as usize])
                .collect();
            assert_eq!(
                b.ones_in(start, len).collect::<Vec<_>>(),
                want,
                "{start} {len}"
            );
        }
        assert_eq!(b.select(ones), None);
        assert!(!b.get(pattern.len() as u64));
    }

    #[test]
    fn pushing_words_is_pushing_their_bits() {
        let pattern: Vec<bool> = (0..1000u64).map(|i| i % 5 == 0 || i % 11 == 3).collect();
        let (mut one, mut many) = (RankBits::default(), RankBits::default());
        let mut at = 0;
        for (step, n) in [3usize, 64, 61, 130, 1, 200, 64, 0, 477]
            .into_iter()
            .enumerate()
        {
            let chunk = &pattern[at..at + n];
            let mut words = vec![0u64; n.div_ceil(64) + step % 2];
            for (i, &x) in chunk.iter().enumerate() {
                words[i / 64] |= u64::from(x) << (i % 64);
                one.push(x);
            }
            // Bits past `n` (set here in every odd step's spare word) are ignored.
            if step % 2 == 1 {
                *words.last_mut().unwrap() = !0;
            }
            many.push_words(&words, n as u64);
            at += n;
        }
        assert_eq!(at, pattern.len());
        assert_eq!((many.len(), many.ones()), (one.len(), one.ones()));
        assert_eq!(many.words, one.words);
    }
}
