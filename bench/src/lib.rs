//! The criterion benchmarks of the Ordo workspace, in `benches/` (this library is empty):
//! `perft` (both engines from the standard start), `movegen` (one legal-move list) and `solve`
//! (the compact solver, and the retro solver of the test tooling beside it). Published figures:
//! docs/guide.md, "Speed". Run `cargo bench -p ordo-bench [--bench NAME] [-- FILTER]`.
