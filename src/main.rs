//! The `ordo` command line (the `ordo-cli` package): argument parsing, progress bars and
//! Ctrl-C handling over the library crates of the workspace, which know nothing of them.

mod cli;

// The library crates, imported at the root of the binary so that the command modules name
// them `crate::rules`, `crate::solve`, …
#[allow(unused_imports)]
use {
    ordo::render, ordo_adjudicate as adjudicate, ordo_bitboard as bitboard,
    ordo_conformance as conformance, ordo_conformance::diff, ordo_core::notation, ordo_core::rules,
    ordo_core::text, ordo_os::files, ordo_os::signals, ordo_reference as reference,
    ordo_serve as serve, ordo_solve as solve,
};

fn main() -> std::process::ExitCode {
    cli::main()
}
