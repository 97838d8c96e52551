//! Runtime dispatch: the engine's hot loops compiled twice, for any x86-64 processor and for
//! one with the x86-64-v3 instructions, and the processor's level found once per process.
//!
//! The crate is compiled for the baseline, so that an installed `ordo` runs on any x86-64.
//! The entry points that hold whole loops (perft below a position, every turn of a position
//! generated or counted) have a second copy compiled with `#[target_feature]`, into which the
//! move generator (all `#[inline(always)]`) is inlined: its population counts, bit scans and
//! mask operations become the single instructions of the newer processors. A call from code
//! compiled for the baseline into the generator would not gain: the features only reach the
//! code inlined into the function that enables them.
//!
//! The environment variable `ORDO_CPU=baseline` forces the baseline copy (to compare both
//! paths in one binary); unset, empty or any other value, the processor decides.

use std::sync::OnceLock;

use super::{Bitboard, FromTurn, Work};
use crate::conn::Cache;

/// Which copy of the hot loops runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// The code as the crate is compiled: any x86-64 processor (or another architecture).
    Baseline,
    /// x86-64-v3: AVX, AVX2, BMI1, BMI2, FMA, LZCNT, MOVBE and POPCNT (Intel from Haswell,
    /// 2013; AMD from Excavator, 2015).
    V3,
}

impl Level {
    /// The level's name, as `ORDO_CPU` spells the baseline: `baseline` or `x86-64-v3`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Baseline => "baseline",
            Level::V3 => "x86-64-v3",
        }
    }

    /// The best level this processor runs, whatever `ORDO_CPU` says.
    pub fn detected() -> Level {
        if has_v3() {
            Level::V3
        } else {
            Level::Baseline
        }
    }

    /// The level for a value of `ORDO_CPU`: `baseline` forces it, anything else detects.
    fn chosen(var: Option<&str>) -> Level {
        match var.map(str::trim) {
            Some(v) if v.eq_ignore_ascii_case("baseline") => Level::Baseline,
            _ => Level::detected(),
        }
    }
}

/// The level the engine runs at in this process: `ORDO_CPU` and the processor, read on the
/// first call only.
pub fn level() -> Level {
    static LEVEL: OnceLock<Level> = OnceLock::new();
    *LEVEL.get_or_init(|| Level::chosen(std::env::var("ORDO_CPU").ok().as_deref()))
}

/// Whether the processor has every feature of [`Level::V3`] (detected on the first call).
fn has_v3() -> bool {
    static HAS: OnceLock<bool> = OnceLock::new();
    *HAS.get_or_init(detect_v3)
}

#[cfg(target_arch = "x86_64")]
fn detect_v3() -> bool {
    use std::is_x86_feature_detected as has;
    has!("avx")
        && has!("avx2")
        && has!("bmi1")
        && has!("bmi2")
        && has!("fma")
        && has!("lzcnt")
        && has!("movbe")
        && has!("popcnt")
}

#[cfg(not(target_arch = "x86_64"))]
fn detect_v3() -> bool {
    false
}

/// Whether the copies compiled for [`Level::V3`] run in this process: `ORDO_CPU` does not
/// force the baseline and the processor has every feature. A function made by
/// [`v3_fn!`](crate::v3_fn) may be called only where this is true.
pub fn use_v3() -> bool {
    level() == Level::V3 && has_v3()
}

/// A function compiled for x86-64-v3 ([`cpu::Level::V3`](crate::cpu::Level::V3)), on
/// x86-64 only: `unsafe`, since it may only run where
/// [`cpu::use_v3`](crate::cpu::use_v3) is true (its callers check it and say so in their
/// `SAFETY` comment). What it calls gains the features only where it is inlined into it
/// (`#[inline(always)]`). Exported so that the solver's own loops have their copy.
#[macro_export]
macro_rules! v3_fn {
    ($(#[$doc:meta])* $vis:vis fn $name:ident $($rest:tt)*) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// The processor must have the x86-64-v3 features (`ordo_bitboard::cpu::use_v3`).
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx,avx2,bmi1,bmi2,fma,lzcnt,movbe,popcnt")]
        #[allow(unsafe_code)]
        $vis unsafe fn $name $($rest)*
    };
}

impl Bitboard {
    /// Every legal turn pushed onto `out` ([`Bitboard::gen_turns`]), by the copy for `level`.
    #[allow(unsafe_code)]
    pub(crate) fn gen_turns_at(&self, level: Level, out: &mut Vec<u64>, cache: &mut Cache) {
        match level {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `has_v3` found every feature `gen_turns_v3` is compiled for.
            Level::V3 if has_v3() => unsafe { self.gen_turns_v3(out, cache) },
            _ => self.gen_turns_shared(out, cache),
        }
    }

    /// The number of legal turns ([`Bitboard::count_turns`]), by the copy for `level`.
    #[allow(unsafe_code)]
    pub(crate) fn count_turns_at(
        &self,
        level: Level,
        scratch: &mut Vec<u64>,
        cache: &mut Cache,
    ) -> u64 {
        match level {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `has_v3` found every feature `count_turns_v3` is compiled for.
            Level::V3 if has_v3() => unsafe { self.count_turns_v3(scratch, cache) },
            _ => self.count_turns_shared(scratch, cache),
        }
    }

    /// Each of `turns` made and pushed onto `out` ([`Bitboard::map_turns`]), by the copy for
    /// `level` (the moves made, with their variable shifts, in the copy for the processor).
    #[allow(unsafe_code)]
    pub(crate) fn map_turns_at<T: FromTurn>(&self, level: Level, turns: &[u64], out: &mut Vec<T>) {
        match level {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `has_v3` found every feature `map_turns_v3` is compiled for.
            Level::V3 if has_v3() => unsafe { self.map_turns_v3(turns, out) },
            _ => self.map_turns(turns, out),
        }
    }

    /// Perft below this position (`depth >= 1`), by the copy for `level`: the whole search
    /// runs inside the one copy.
    #[allow(unsafe_code)]
    pub(crate) fn perft_at(&self, level: Level, depth: u32, work: &mut Work) -> u64 {
        match level {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `has_v3` found every feature `perft_v3` is compiled for.
            Level::V3 if has_v3() => unsafe { self.perft_v3(depth, work) },
            _ => self.perft_plain(depth, work),
        }
    }

    v3_fn! {
        /// [`Bitboard::map_turns`] compiled for [`Level::V3`].
        fn map_turns_v3<T: FromTurn>(&self, turns: &[u64], out: &mut Vec<T>) {
            self.map_turns(turns, out)
        }
    }

    v3_fn! {
        /// [`Bitboard::gen_turns`] compiled for [`Level::V3`].
        #[inline(never)]
        fn gen_turns_v3(&self, out: &mut Vec<u64>, cache: &mut Cache) {
            self.gen_turns(out, cache)
        }
    }

    v3_fn! {
        /// [`Bitboard::count_turns`] compiled for [`Level::V3`].
        #[inline(never)]
        fn count_turns_v3(&self, scratch: &mut Vec<u64>, cache: &mut Cache) -> u64 {
            self.count_turns(scratch, cache)
        }
    }

    v3_fn! {
        /// The perft search compiled for [`Level::V3`], the node's generator and counter
        /// inlined; positions on the standard board go to [`Bitboard::perft_v3_standard`].
        fn perft_v3(&self, depth: u32, work: &mut Work) -> u64 {
            if std::ptr::eq(self.geo, &crate::geometry::STANDARD) {
                // SAFETY: this function runs only where the features are present.
                return unsafe { self.perft_v3_standard(depth, work) };
            }
            // SAFETY: as above.
            self.perft_node::<false>(depth, work, |b, d, w| unsafe { b.perft_v3(d, w) })
        }
    }

    v3_fn! {
        /// [`Bitboard::perft_v3`] on the standard board: the same code with the geometry
        /// known at compile time (`geometry::STANDARD`), so that its masks and step sizes
        /// are constants (immediate operands, shifts by a constant) rather than loads. The
        /// position must be on the standard board.
        fn perft_v3_standard(&self, depth: u32, work: &mut Work) -> u64 {
            debug_assert!(std::ptr::eq(self.geo, &crate::geometry::STANDARD));
            let this = Bitboard {
                geo: &crate::geometry::STANDARD,
                ..*self
            };
            // SAFETY: this function runs only where the features are present; the children
            // are on the same board.
            this.perft_node::<false>(depth, work, |b, d, w| unsafe {
                b.perft_v3_standard(d, w)
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{setup, Dims, Engine, Variant};

    /// Game starts on several boards, and positions a few plies into each (the `k`-th
    /// successor at every ply, so that captures and split groups come up), both games.
    fn boards() -> Vec<Bitboard> {
        let mut starts = Vec::new();
        for variant in [Variant::Classic, Variant::X] {
            starts.push(setup::standard(variant));
            starts.push(setup::chess_board(variant));
            for (cols, rows, depth) in [(5, 4, 1), (6, 5, 2), (4, 4, 1)] {
                let dims = Dims::new(cols, rows).unwrap();
                starts.extend(setup::filled_rows(dims, depth, variant));
            }
        }
        let mut out = Vec::new();
        for pos in starts {
            let mut b = Bitboard::from_position(&pos).unwrap();
            out.push(b);
            let mut next = Vec::new();
            for ply in 0..7 {
                b.successors(&mut next);
                let Some(&child) = next.get((ply * 7 + 3) % next.len().max(1)) else {
                    break;
                };
                b = child;
                out.push(b);
            }
        }
        out
    }

    /// Both copies of the hot loops count the same perft, list the same turns and give the
    /// same status (on a processor without x86-64-v3 both calls run the baseline copy).
    #[test]
    fn both_levels_agree() {
        let fast = Level::detected();
        let mut work = Work::new();
        for b in boards() {
            let depth = match (b.variant, b.dims().len()) {
                (Variant::X, 21..) => 2,
                (Variant::X, _) | (Variant::Classic, 33..) => 3,
                (Variant::Classic, _) => 4,
            };
            for d in 1..=depth {
                let plain = b.perft_at(Level::Baseline, d, &mut work);
                assert_eq!(plain, b.perft_at(fast, d, &mut work), "{b:?} depth {d}");
            }
            let (mut plain, mut other) = (Vec::new(), Vec::new());
            if b.decided().is_none() {
                b.gen_turns_at(Level::Baseline, &mut plain, &mut work.cache);
                b.gen_turns_at(fast, &mut other, &mut work.cache);
                let n = b.count_turns_at(fast, &mut work.stack, &mut work.cache);
                assert_eq!(n, plain.len() as u64, "{b:?}");
            }
            assert_eq!(plain, other, "{b:?}");
        }
    }

    /// `ORDO_CPU=baseline` forces the baseline; anything else leaves it to the processor.
    #[test]
    fn the_override_forces_the_baseline() {
        assert_eq!(Level::chosen(Some("baseline")), Level::Baseline);
        assert_eq!(Level::chosen(Some(" Baseline ")), Level::Baseline);
        for other in [None, Some(""), Some("native"), Some("x86-64-v3")] {
            assert_eq!(Level::chosen(other), Level::detected());
        }
        assert_eq!(Level::Baseline.name(), "baseline");
    }
}
