//! Test tooling of the Ordo workspace, not published (as wasmtime keeps `crates/fuzzing`): what
//! the coverage-guided fuzz targets (`fuzz/`) and the integration tests (`tests/it/`) need and
//! the product does not.
//!
//! - [`input`]: the fuzz targets' bytes turned into positions and playouts;
//! - [`oracles`]: the targets' oracles over those cases (engine against engine, an engine
//!   against a rebuild of itself, the adjudicator against both);
//! - [`record`]: game records built from bytes and read back by two engines;
//! - [`retro`]: the retro solver (retrograde analysis of every reachable position, table
//!   files of format 2), the oracle the compact solver of `ordo-solve` is checked against;
//! - [`table_file`]: forged, truncated and mislabelled table files that the loaders must
//!   refuse.

use ordo_adjudicate as adjudicate;
use ordo_bitboard as bitboard;
use ordo_core::{notation, rules};
use ordo_solve as solve;

pub mod input;
pub mod oracles;
pub mod record;
pub mod retro;
pub mod table_file;

/// The README's Rust examples, compiled and run as doc tests of this crate, so that every
/// snippet there keeps working.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
