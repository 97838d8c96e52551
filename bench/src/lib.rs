//! The criterion benchmarks of the Ordo workspace, in `benches/` (this library is empty):
//! `perft` (both engines from the standard start), `movegen` (one legal-move list) and `solve`
//! (the compact solver, and the retro solver of the test tooling beside it). Published figures:
//! docs/guide.md, "Speed". Run `cargo bench -p ordo-bench [--bench NAME] [-- FILTER]`.
//!
//! Beside them, `src/bin/anchor.rs`: bitboard classic perft against shakmaty's chess perft,
//! interleaved in CPU seconds (docs/guide.md, "The move generator beside its anchor").
//! Run `cargo run --release -p ordo-bench --bin anchor -- --pairs 5`.
