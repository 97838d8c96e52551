//! The rules vocabulary and the notation of Ordo and Ordo X, shared by everything else in the
//! workspace and by nothing that decides a rule.
//!
//! What it owns:
//! - [`rules`]: colours, squares, board dimensions, moves, positions, status, the [`rules::Engine`]
//!   trait every engine implements, the start positions, the seedable generator and the
//!   clause registry of `spec/clauses.toml` (embedded);
//! - [`notation`]: the position and move notation of `spec/notation.md`, game records and the
//!   plain-text diagram;
//! - [`text`]: counts in words that agree with their number (`1 piece`, `2 pieces`).
//!
//! The three oracles (the reference engine, the bitboard engine and the adjudicator) are
//! separate crates that depend on this one only, so the compiler keeps them independent.

pub mod notation;
pub mod rules;
pub mod text;
