//! Ordo and Ordo X: the reference implementation.
//!
//! - [`rules`]: the shared vocabulary (types, moves, positions, status, the [`rules::Engine`]
//!   trait, the clause registry of `spec/clauses.toml`).
//! - [`reference`]: the deliberately plain reference engine, one function per clause.
//! - [`notation`]: the position and move notation of `spec/notation.md`.
//! - [`cli`]: the `ordo` command line.

pub mod cli;
pub mod notation;
pub mod reference;
pub mod rules;
