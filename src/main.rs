//! The `ordo` command line; its code is the package's library (`src/lib.rs`, `src/cli/`).

fn main() -> std::process::ExitCode {
    ordo_cli::cli::main()
}
