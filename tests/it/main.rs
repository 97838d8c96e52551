//! The integration tests, one binary: each module covers one room of the crate (clause tests
//! name the clauses they cover). One binary links the crate once, which keeps a fresh
//! `cargo test` short (README, "Two commands").

/// Instantiates the generic tests named (each `fn NAME<E: Engine>()` of the calling module) as
/// one `#[test]` per engine: `reference::NAME` and `bitboard::NAME`.
macro_rules! on_both_engines {
    ($($name:ident),* $(,)?) => {
        mod reference {
            $( #[test] fn $name() { super::$name::<ordo_reference::Reference>() } )*
        }
        mod bitboard {
            $( #[test] fn $name() { super::$name::<ordo_bitboard::Bitboard>() } )*
        }
    };
}

mod adapters;
mod adjudicate;
mod bounded_reads;
mod cases;
mod cli;
mod cli_progress;
mod common;
mod compact;
mod compact_files;
mod conform;
mod conform_cause;
mod conform_health;
mod conformance;
mod diff_oracle;
mod differential;
mod docs;
mod echoes;
mod errors;
mod exhaustive;
mod fuzz_seeds;
mod game_record;
mod habits;
mod imports;
mod independence;
mod notation;
mod page;
mod perft;
mod problems;
mod properties;
mod prove;
mod reliability;
mod render;
mod serve;
mod solve;
mod spec_examples;
mod structure;
mod table_files;
mod table_trust;
mod tablebase;
mod tb_plan;
mod traceability;
