//! The integration tests, one binary: each module covers one room of the crate (clause tests
//! name the clauses they cover). One binary links the crate once, which keeps a fresh
//! `cargo test` short (README, "Two commands").

mod adjudicate;
mod cli;
mod common;
mod conformance;
mod diff_oracle;
mod differential;
mod exhaustive;
mod game_record;
mod notation;
mod perft;
mod problems;
mod properties;
mod render;
mod rules_classic;
mod rules_x;
mod solve;
mod spec_examples;
mod tablebase;
mod traceability;
