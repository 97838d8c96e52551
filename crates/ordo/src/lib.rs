//! Ordo and Ordo X, Dieter Stein's connection games: the library a program that plays, shows or
//! analyses them depends on.
//!
//! The names a program needs are at the root: the vocabulary ([`Position`], [`Move`],
//! [`Variant`], [`Color`], [`Square`], [`Dims`], [`Status`]), the [`Engine`] trait and its two
//! implementations ([`Bitboard`], fast; [`Reference`], plain, one function per rule clause),
//! the notation ([`parse_position`], [`format_position`], [`parse_move`], [`format_move`]),
//! the adjudicator ([`explain`], a [`Verdict`] naming every clause a move breaks or the clauses
//! that permit it), diagrams ([`render`]), and endgame tables ([`solve`]).
//!
//! ```
//! use ordo::{format_move, parse_move, setup, Bitboard, Engine, Status, Variant};
//!
//! let start = Bitboard::from_position(&setup::standard(Variant::X)).unwrap();
//! assert_eq!(start.legal_moves().len(), 2062);
//! let next = start.play(&parse_move("a2:a3-a3").unwrap()).unwrap();
//! assert_eq!(next.status(), Status::Ongoing);
//! assert_eq!(format_move(&next.legal_moves()[0]).len(), 5);
//! ```
//!
//! Judging a disputed move, clause by clause:
//!
//! ```
//! use ordo::{explain, parse_move, parse_position};
//!
//! let pos = parse_position("4/4/1B2/W3/WW2 w classic").unwrap();
//! let verdict = explain(&pos, &parse_move("a1:b1-a2").unwrap());
//! assert_eq!(verdict.clause_ids(), ["ORDO-7.3"]); // it would land on White's own piece
//! ```
//!
//! The workspace behind it: each name here comes from the crate that owns it (`ordo-core`
//! the vocabulary and notation, `ordo-reference`, `ordo-bitboard`, `ordo-adjudicate`,
//! `ordo-solve`), re-exported once. The library has no features and no server, command-line
//! or async dependency; the `ordo` command line is the `ordo-cli` package.

pub mod render;

pub use ordo_adjudicate::{adjudicate as explain, Effects, Verdict, Violation};
pub use ordo_bitboard::Bitboard;
pub use ordo_core::notation::{
    format_move, format_position, parse_move, parse_position, parse_record, GameRecord,
    NotationError,
};
pub use ordo_core::rules::Square;
pub use ordo_core::rules::{
    clauses, setup, Color, Dims, Direction, Engine, IllegalMove, Move, Position, PositionError,
    Status, Step, Variant, WinReason,
};
pub use ordo_reference::Reference;

/// The solver and its tables (the `ordo-solve` crate).
pub use ordo_solve as solve;

// The diagrams name the vocabulary by its module paths, as every crate of the workspace does.
use ordo_core::{notation, rules};
