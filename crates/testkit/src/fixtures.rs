//! Small tables that the solver's own tests and the command line's tests both build: the
//! classic 4 x 4 endgame slices, by the compact solver and by the retro solver, quietly; and
//! problems written in a line.

use std::path::Path;

use crate::bitboard::Bitboard;
use crate::retro::tb;
use crate::rules::{Dims, Variant};
use crate::solve::{BuildOptions, CompactTables, Material, Problem, Progress, Silent, VerifyScope};

/// Two pieces against two: the material of the smallest slices with a capture both ways.
pub const M22: Material = Material { white: 2, black: 2 };

/// The classic 4 x 4 board of these tables.
pub fn classic_4x4() -> Dims {
    Dims::new(4, 4).expect("a 4 x 4 board is within the limits")
}

/// Build options that verify nothing, set no memory limit and report to `progress`.
pub fn quiet_options(progress: &dyn Progress) -> BuildOptions<'_> {
    BuildOptions {
        verify: VerifyScope::None,
        memory_limit: None,
        progress,
    }
}

/// Build the compact classic 4 x 4 slices up to `max` in `dir`; whether each was built (or
/// read from a file already there).
pub fn build_classic_4x4(dir: &Path, max: Material) -> (CompactTables, Vec<bool>) {
    let (tables, reports) = crate::solve::build_slices::<Bitboard>(
        classic_4x4(),
        Variant::Classic,
        max,
        dir,
        &quiet_options(&Silent),
        |_| {},
    )
    .expect("the classic 4 x 4 slices build");
    (tables, reports.iter().map(|r| r.built).collect())
}

/// The retro solver's classic 4 x 4 slices up to 2 against 2, in `dir`.
pub fn build_retro_classic_4x4_22(dir: &Path) {
    tb::build::<Bitboard>(
        classic_4x4(),
        Variant::Classic,
        M22,
        dir,
        &quiet_options(&Silent),
        |_| {},
    )
    .expect("the retro solver builds the classic 4 x 4 slices");
}

/// A problem `id` on `position` with one key, not claimed to be the only one; panics on a
/// position or key that does not parse (a test's own typo).
pub fn problem(id: &str, position: &str, stipulation: &str, key: &str) -> Problem {
    Problem {
        id: id.into(),
        position: position.parse().expect("a test problem's position"),
        stipulation: stipulation.into(),
        keys: vec![key.parse().expect("a test problem's key")],
        only_keys: false,
        source: "test".into(),
    }
}
