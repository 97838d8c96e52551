//! Test tooling of the Ordo workspace, not published (as wasmtime keeps `crates/fuzzing`): what
//! the coverage-guided fuzz targets (`fuzz/`) and the integration tests (`tests/it/`) need and
//! the product does not.
//!
//! - [`against_tables`]: the proof search cross-checked against the endgame tables;
//! - [`failing`]: a correct engine that crashes, hangs, answers garbage or writes an endless
//!   line on one kind of request (the example `planted-engine crash-on-play` and the like);
//! - [`fixtures`]: small tables the solver's tests and the command line's tests both build;
//! - [`input`]: the fuzz targets' bytes turned into positions and playouts;
//! - [`oracles`]: the targets' oracles over those cases (engine against engine, an engine
//!   against a rebuild of itself, the adjudicator against both);
//! - [`plant`]: wrong readings of the rules served over the protocol (the example
//!   `planted-engine`), so that the tests prove `ordo conform` names each one;
//! - [`record`]: game records built from bytes and read back by two engines;
//! - [`retro`]: the retro solver (retrograde analysis of every reachable position, table
//!   files of format 2), the oracle the compact solver of `ordo-solve` is checked against;
//! - [`table_file`]: forged, truncated and mislabelled table files that the loaders must
//!   refuse.

// Test tooling with no API for users: its items are documented where that helps a test's
// reader, not each one.
#![allow(missing_docs)]

use ordo_adjudicate as adjudicate;
use ordo_bitboard as bitboard;
use ordo_core::{notation, rules};
use ordo_solve as solve;

pub mod against_tables;
pub mod certificate;
pub mod failing;
pub mod fixtures;
pub mod input;
pub mod oracles;
pub mod plant;
pub mod record;
pub mod retro;
pub mod table_file;

/// The README's Rust examples, compiled and run as doc tests of this crate, so that every
/// snippet there keeps working.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

/// The guide's Rust examples (`docs/guide.md`), likewise.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/guide.md")]
pub struct GuideDoctests;

/// The Rust examples of each published crate's README (what crates.io shows), likewise.
#[cfg(doctest)]
pub mod crate_readmes {
    #[doc = include_str!("../../adjudicate/README.md")]
    pub struct Adjudicate;
    #[doc = include_str!("../../bitboard/README.md")]
    pub struct Bitboard;
    #[doc = include_str!("../../conformance/README.md")]
    pub struct Conformance;
    #[doc = include_str!("../../core/README.md")]
    pub struct Core;
    #[doc = include_str!("../../ordo/README.md")]
    pub struct Ordo;
    #[doc = include_str!("../../reference/README.md")]
    pub struct Reference;
    #[doc = include_str!("../../serve/README.md")]
    pub struct Serve;
}
