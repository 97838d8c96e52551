//! The `ordo` command line. It is part of the binary, not of the library: library users get
//! `ordo` without clap (build with `default-features = false`; the `cli` feature, on by
//! default, is what the binary needs).

mod cli;

// The library's rooms, imported at the root of the binary so that the command modules name
// them `crate::rules`, `crate::solve`, … as they did when they lived in the library.
#[allow(unused_imports)]
use ordo::{
    adjudicate, bitboard, conformance, diff, files, notation, reference, render, rules, serve,
    signals, solve,
};

fn main() -> std::process::ExitCode {
    cli::main()
}
