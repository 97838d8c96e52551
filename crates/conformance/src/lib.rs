//! The conformance kit: test vectors, the engine protocol, and the driver that checks an
//! external engine.
//!
//! What it owns:
//! - [`cases`]: the case suite of `spec/cases/*.toml` (hand-stated move sets, illegal moves with
//!   the clauses they break, the positions moves produce, statuses, perft), its loader, and the
//!   one harness that runs it against any [`cases::CaseOracle`]; [`oracles`] implements that
//!   trait for both engines and the adjudicator;
//! - [`vectors`]: the test vectors of `spec/conformance/` (JSON Lines, one position per line
//!   with its sorted canonical move list, status and perft counts): one per case of the suite,
//!   the seeded random playouts, and the code that
//!   rebuilds the files from the reference engine (`ordo conformance generate`) or checks an
//!   engine of this crate against them (`ordo conformance check`);
//! - [`protocol`]: the line protocol of `spec/protocol.md` — requests, replies, error codes —
//!   and [`server`], which serves an engine of this crate over it (`ordo engine`), or any
//!   [`server::Rules`] (the test tooling serves planted deviations so);
//! - [`client`]: an external engine process driven over the protocol, with a timeout on every
//!   request and detection of crashes, hangs and garbage answers;
//! - [`conform`]: the driver of `ordo conform`: vectors, then random playouts, comparing move
//!   sets and statuses with the reference engine, attributing every difference to clauses
//!   through the adjudicator, naming the known alternative readings, minimizing each
//!   disagreement and drawing it;
//! - [`diff`]: the differential campaign of `ordo fuzz` (reference engine against bitboard
//!   engine on random positions and playouts) and the generators and comparisons it shares
//!   with the fuzz targets of the test tooling, and the shrinker the findings use.
//!
//! Everything here is deterministic for a given seed: the vectors regenerate byte for byte.

use ordo_adjudicate as adjudicate;
use ordo_bitboard as bitboard;
use ordo_core::{notation, rules};
use ordo_reference as reference;
use ordo_render as render;
use ordo_system::{files, signals};

pub mod diff;

pub mod cases;
pub mod client;
pub mod conform;
pub mod lines;
pub mod oracles;
pub mod protocol;
pub mod server;
pub mod vectors;

mod judge;
