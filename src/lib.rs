//! Ordo and Ordo X: the reference implementation.
//!
//! - [`rules`]: the shared vocabulary (types, moves, positions, status, the [`rules::Engine`]
//!   trait, the clause registry of `spec/clauses.toml`).
//! - [`reference`]: the deliberately plain reference engine, one function per clause.
//! - [`notation`]: the position and move notation of `spec/notation.md`.
//! - [`cli`]: the `ordo` command line.
//!
//! ```
//! use ordo::notation::{format_move, parse_move};
//! use ordo::reference::Reference;
//! use ordo::rules::{setup, Engine, Status, Variant};
//!
//! let start = Reference::from_position(&setup::standard(Variant::X)).unwrap();
//! assert_eq!(start.legal_moves().len(), 2062);
//! let next = start.play(&parse_move("a2:a3-a3").unwrap()).unwrap();
//! assert_eq!(next.status(), Status::Ongoing);
//! assert!(!format_move(&next.legal_moves()[0]).is_empty());
//! ```

pub mod cli;
pub mod notation;
pub mod reference;
pub mod rules;
