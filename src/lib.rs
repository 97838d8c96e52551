//! The code of the `ordo` command line (the `ordo-cli` package): argument parsing, progress
//! bars and Ctrl-C handling over the library crates of the workspace, which know nothing of
//! them. It is a library target only so that the tests of `tests/it/` reach the command
//! line's pure parts (the progress line, the output writer) without compiling it twice; it
//! is no API: a Rust program that plays, judges or solves Ordo depends on the `ordo` crate.

// The command line's code has no API for users (see above): its items are documented where
// that helps a reader of the code, not each one.
#![allow(missing_docs)]

pub mod cli;

// The library crates, imported at the root so that the command modules name them
// `crate::rules`, `crate::solve`, …
#[allow(unused_imports)]
use {
    ordo::render, ordo_adjudicate as adjudicate, ordo_bitboard as bitboard,
    ordo_certificate as certificate, ordo_conformance as conformance, ordo_conformance::diff,
    ordo_core::notation, ordo_core::rules, ordo_core::text, ordo_page as page, ordo_prove as prove,
    ordo_reference as reference, ordo_serve as serve, ordo_solve as solve, ordo_system::files,
    ordo_system::signals, ordo_system::usage,
};
