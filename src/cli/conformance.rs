//! `ordo conformance`, `ordo engine`, `ordo conform`: the conformance kit's commands
//! (`src/conformance/`, `spec/conformance/README.md`, `spec/protocol.md`).

use std::path::PathBuf;
use std::time::Duration;

use super::{CliError, EngineArg};
use crate::conformance::plant::Plant;
use crate::conformance::server::{serve, EngineChoice, Server};
use crate::conformance::{conform, vectors};

/// Arguments of `ordo conformance`.
#[derive(clap::Args, Debug)]
pub struct ConformanceArgs {
    #[command(subcommand)]
    pub action: ConformanceAction,
}

/// What `ordo conformance` does.
#[derive(clap::Subcommand, Debug)]
pub enum ConformanceAction {
    /// Rebuild the vector files from the reference engine (each file written atomically).
    Generate {
        /// Directory of the vector files.
        #[arg(long, default_value = "spec/conformance")]
        dir: PathBuf,
    },
    /// Check an engine of this crate against the vector files: moves, status and perft.
    Check {
        /// Engine to check.
        #[arg(long, value_enum, default_value = "reference")]
        engine: EngineArg,
        /// Directory of the vector files.
        #[arg(long, default_value = "spec/conformance")]
        dir: PathBuf,
    },
}

/// Arguments of `ordo engine`.
#[derive(clap::Args, Debug)]
pub struct EngineArgs {
    /// Engine to serve.
    #[arg(long, value_enum, default_value = "reference")]
    pub engine: EngineArg,
    /// Follow a planted deviation from the rules (for testing `ordo conform`).
    #[arg(long, value_enum, hide = true)]
    pub plant: Option<Plant>,
}

/// Arguments of `ordo conform`.
#[derive(clap::Args, Debug)]
pub struct ConformArgs {
    /// The engine's command line, run with `sh -c` (it must speak spec/protocol.md).
    #[arg(long)]
    pub engine: String,
    /// Directory of the vector files.
    #[arg(long, default_value = "spec/conformance")]
    pub vectors: PathBuf,
    /// Number of random playouts after the vectors.
    #[arg(long, default_value_t = 20)]
    pub playouts: u32,
    /// Plies per playout.
    #[arg(long, default_value_t = 40)]
    pub plies: u32,
    /// Seed of the playouts.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Longest wait for one reply, in milliseconds.
    #[arg(long, default_value_t = 10_000)]
    pub timeout_ms: u64,
    /// Write one SVG diagram per disagreement into this directory.
    #[arg(long)]
    pub svg_dir: Option<PathBuf>,
}

/// The library's name for an engine of this crate.
fn choice(e: EngineArg) -> EngineChoice {
    match e {
        EngineArg::Reference => EngineChoice::Reference,
        EngineArg::Bitboard => EngineChoice::Bitboard,
    }
}

/// Run `ordo conformance`.
pub fn run_conformance(args: &ConformanceArgs, out: &mut String) -> Result<u8, CliError> {
    match &args.action {
        ConformanceAction::Generate { dir } => {
            let written = vectors::generate(dir).map_err(CliError)?;
            for (path, n) in written {
                out.push_str(&format!("wrote {} ({n} vectors)\n", path.display()));
            }
            Ok(0)
        }
        ConformanceAction::Check { engine, dir } => {
            let all = vectors::read_dir(dir).map_err(|e| CliError(format!("--dir: {e}")))?;
            let mismatches = match engine {
                EngineArg::Reference => vectors::check::<crate::reference::Reference>(&all),
                EngineArg::Bitboard => vectors::check::<crate::bitboard::Bitboard>(&all),
            };
            for m in &mismatches {
                out.push_str(&format!(
                    "MISMATCH {} ({} line {}): {}\n",
                    m.id, m.file, m.line, m.what
                ));
            }
            let failed: std::collections::BTreeSet<&str> =
                mismatches.iter().map(|m| m.id.as_str()).collect();
            out.push_str(&format!(
                "{} engine: {} of {} vectors match, {} differ\n",
                choice(*engine).name(),
                all.len() - failed.len(),
                all.len(),
                failed.len()
            ));
            Ok(if mismatches.is_empty() { 0 } else { 1 })
        }
    }
}

/// Run `ordo engine` (it talks on stdin/stdout itself).
pub fn run_engine(args: &EngineArgs, _out: &mut String) -> Result<u8, CliError> {
    let mut server = Server::new(choice(args.engine), args.plant);
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    match serve(&mut server, stdin.lock(), stdout.lock()) {
        Ok(()) => Ok(0),
        // The client went away: nothing more to say.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(0),
        Err(e) => Err(CliError(format!("engine: {e}"))),
    }
}

/// Run `ordo conform`.
pub fn run_conform(args: &ConformArgs, out: &mut String) -> Result<u8, CliError> {
    // Ctrl-C or a TERM must not leave the engine's process group running (issue 13).
    #[cfg(unix)]
    crate::conformance::client::signals::kill_engines_on_signals();
    let opts = conform::Options {
        command: args.engine.clone(),
        vectors: args.vectors.clone(),
        playouts: args.playouts,
        plies: args.plies,
        seed: args.seed,
        timeout: Duration::from_millis(args.timeout_ms),
        svg_dir: args.svg_dir.clone(),
    };
    match conform::run(&opts, out) {
        Ok(true) => Ok(0),
        Ok(false) => Ok(1),
        Err(e) => Err(CliError(e)),
    }
}
