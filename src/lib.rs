//! Ordo and Ordo X: the reference implementation.
//!
//! - [`rules`]: the shared vocabulary (types, moves, positions, status, the [`rules::Engine`]
//!   trait, the clause registry of `spec/clauses.toml`).
//! - [`reference`](mod@reference): the deliberately plain reference engine, one function per
//!   clause.
//! - [`conformance`]: conformance vectors, the engine protocol, the external-engine driver.
//! - [`diff`]: differential testing: position and playout generators, engine-versus-engine
//!   oracles, shrinking.
//! - [`render`]: Unicode and SVG diagrams.
//! - [`bitboard`]: the optimized `u128` bitboard engine, checked against the reference.
//! - [`notation`]: the position and move notation of `spec/notation.md`.
//! - [`adjudicate`]: the clause-by-clause verdict on one proposed move, independent of the
//!   engines.
//! - [`solve`]: the retrograde solver: whole-game tables of small boards, endgame tablebases
//!   by material, verification, problems.
//! - [`files`]: atomic file writes that refuse to replace anything but a regular file and
//!   clean up after killed writers.
//! - [`signals`]: installing Unix signal handlers (Ctrl-C, TERM), the one home of `sigaction`.
//! - [`serve`]: `ordo serve`, the web page for settling rule disputes, its JSON API and the
//!   self-contained verdict file of `ordo explain --html`.
//!
//! The `ordo` command line lives in the binary (`src/main.rs`, `src/cli/`), not in the library;
//! it needs the default `cli` feature. A library user who wants no command-line dependencies
//! (clap) writes `ordo = { version = "0.1", default-features = false }`.
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
//!
//! The solver runs on either engine:
//!
//! ```
//! use ordo::bitboard::Bitboard;
//! use ordo::rules::Variant;
//! use ordo::solve::{solve_game, GameOptions, Setup};
//!
//! let opts = GameOptions { verify: true, ..GameOptions::default() };
//! let (_table, report) =
//!     solve_game::<Bitboard>(Variant::X, "4x4".parse().unwrap(), Setup::Row1, &opts).unwrap();
//! assert_eq!((report.outcome.start.as_str(), report.outcome.optimal_length), ("win", Some(3)));
//! assert_eq!(report.verified, Some(true));
//! ```

pub mod adjudicate;
pub mod bitboard;
pub mod conformance;
pub mod diff;
pub mod files;
pub mod notation;
pub mod reference;
pub mod render;
pub mod rules;
pub mod serve;
pub mod signals;
pub mod solve;

/// The README's examples, compiled and run as doc tests (`cargo test --doc`), so that every
/// snippet there keeps working.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
