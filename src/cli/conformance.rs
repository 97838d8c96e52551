//! `ordo conformance`, `ordo engine`, `ordo conform`: the conformance kit's commands
//! (`crates/conformance/src/`, `spec/conformance/README.md`, `spec/protocol.md`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{CliError, EngineArg, ENGINE_DEFAULT};
use crate::conformance::cases::{self, Case, SuiteReport};
use crate::conformance::oracles::{AdjudicatorOracle, EngineOracle};
use crate::conformance::server::{serve, EngineChoice, Server};
use crate::conformance::{conform, vectors};
use crate::text::count;

/// Arguments of `ordo conformance`.
#[derive(clap::Args, Debug)]
pub struct ConformanceArgs {
    #[command(subcommand)]
    pub action: ConformanceAction,
}

/// What `ordo conformance` does.
#[derive(clap::Subcommand, Debug)]
pub enum ConformanceAction {
    /// Rebuild the vector files from the case suite and the reference engine (each file
    /// written atomically).
    Generate {
        /// Directory of the vector files (`--dir`, the older name, also works).
        #[arg(long = "vectors", alias = "dir", default_value = "spec/conformance")]
        dir: PathBuf,
        /// Directory of the case suite (default: the suite built into the program).
        #[arg(long)]
        cases: Option<PathBuf>,
    },
    /// Check an engine of this crate against the vector files (moves, status, perft) and the
    /// case suite.
    Check {
        /// Engine to check.
        #[arg(long, value_enum, default_value = ENGINE_DEFAULT)]
        engine: EngineArg,
        /// Directory of the vector files (default: the vectors built into the program; `--dir`,
        /// the older name, also works).
        #[arg(long = "vectors", alias = "dir")]
        dir: Option<PathBuf>,
        /// Directory of the case suite (default: the suite built into the program).
        #[arg(long)]
        cases: Option<PathBuf>,
    },
    /// Run the case suite against the adjudicator (verdicts, clauses, effects, status).
    CheckAdjudicator {
        /// Directory of the case suite (default: the suite built into the program).
        #[arg(long)]
        cases: Option<PathBuf>,
    },
    /// Recompute the bulk data (`moves`, `perft`) of the case files from the reference engine,
    /// in place (each file written atomically); hand-written entries are kept as they are.
    FillCases {
        /// Directory of the case suite (`--dir`, the older name, also works).
        #[arg(long = "cases", alias = "dir", default_value = cases::SUITE_DIR)]
        dir: PathBuf,
    },
}

/// Arguments of `ordo engine`.
#[derive(clap::Args, Debug)]
pub struct EngineArgs {
    /// Engine to serve.
    #[arg(long, value_enum, default_value = ENGINE_DEFAULT)]
    pub engine: EngineArg,
}

/// Arguments of `ordo conform`.
#[derive(clap::Args, Debug)]
#[command(after_help = CONFORM_EXIT)]
pub struct ConformArgs {
    /// The engine's command line, run with `sh -c` (it must speak spec/protocol.md), e.g.
    /// "python3 my_engine.py" or "ordo engine".
    #[arg(value_name = "ENGINE_COMMAND", required_unless_present = "engine_flag")]
    pub command: Option<String>,
    /// The engine's command line, as a flag (the same as the ENGINE_COMMAND argument).
    #[arg(
        long = "engine",
        value_name = "ENGINE_COMMAND",
        conflicts_with = "command",
        hide = true
    )]
    pub engine_flag: Option<String>,
    /// Directory of the vector files (default: the vectors built into the program).
    #[arg(long)]
    pub vectors: Option<PathBuf>,
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
    /// Write one SVG diagram per detailed finding into this directory.
    #[arg(long)]
    pub svg_dir: Option<PathBuf>,
    /// Check only these games and boards, e.g. `classic:10x8,x:10x8` (`x:*`: every board).
    #[arg(long, value_name = "GAME:BOARD,...")]
    pub only: Option<String>,
    /// Directory of the case suite (default: the suite built into the program, the same as
    /// spec/cases/).
    #[arg(long)]
    pub cases: Option<PathBuf>,
    /// Print the whole report as one JSON document instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The exit statuses of `ordo conform`, as its `--help` gives them (spec/protocol.md).
pub const CONFORM_EXIT: &str = "Exit status: 0 the engine passed; 1 a healthy engine differs from the rules (rules findings only); 3 the engine is broken or unusable: it crashed, hung, answered garbage or a line without end, could not be started, or nothing could be compared (its findings, if any, cover only what it answered); 2 bad usage (a bad argument, a vector or case folder that does not read).";

/// The library's name for an engine of this crate.
fn choice(e: EngineArg) -> EngineChoice {
    match e {
        EngineArg::Reference => EngineChoice::Reference,
        EngineArg::Bitboard => EngineChoice::Bitboard,
    }
}

/// The case suite of `--cases DIR`, or the one built into the program.
fn suite(dir: &Option<PathBuf>) -> Result<Vec<Case>, CliError> {
    match dir {
        Some(d) => cases::load_dir(d).map_err(|e| CliError(format!("--cases: {e}"))),
        None => cases::embedded().map_err(|e| CliError(format!("built-in case suite: {e}"))),
    }
}

/// Run `ordo conformance`.
pub fn run_conformance(args: &ConformanceArgs, out: &mut String) -> Result<u8, CliError> {
    match &args.action {
        ConformanceAction::Generate { dir, cases } => {
            let written = vectors::generate(dir, &suite(cases)?)?;
            for (path, n) in written {
                out.push_str(&format!(
                    "wrote {} ({})\n",
                    path.display(),
                    count(n, "vector")
                ));
            }
            Ok(0)
        }
        ConformanceAction::Check { engine, dir, cases } => {
            let suite = suite(cases)?;
            let vectors_ok = check_vectors(*engine, dir.as_deref(), out)?;
            let report = match engine {
                EngineArg::Reference => cases::run_suite(
                    &suite,
                    &mut EngineOracle::<crate::reference::Reference>::new(),
                ),
                EngineArg::Bitboard => cases::run_suite(
                    &suite,
                    &mut EngineOracle::<crate::bitboard::Bitboard>::new(),
                ),
            };
            Ok(if print_report(&report, out) && vectors_ok {
                0
            } else {
                1
            })
        }
        ConformanceAction::CheckAdjudicator { cases } => {
            let report = cases::run_suite(&suite(cases)?, &mut AdjudicatorOracle);
            Ok(if print_report(&report, out) { 0 } else { 1 })
        }
        ConformanceAction::FillCases { dir } => fill_cases(dir, out),
    }
}

/// Print a suite report (failures, then the summary); whether it passed.
fn print_report(report: &SuiteReport, out: &mut String) -> bool {
    for f in &report.failures {
        out.push_str(&format!("{f}\n"));
    }
    out.push_str(&format!("{}\n", report.summary()));
    report.passed()
}

/// Check an engine against the vector files; whether every vector matches.
fn check_vectors(
    engine: EngineArg,
    dir: Option<&Path>,
    out: &mut String,
) -> Result<bool, CliError> {
    let all = vectors::read(dir).map_err(|e| CliError(format!("--vectors: {e}")))?;
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
        "{} engine: {} of {} match, {} differ\n",
        choice(engine).name(),
        all.len() - failed.len(),
        count(all.len(), "vector"),
        failed.len()
    ));
    Ok(mismatches.is_empty())
}

/// `ordo conformance fill-cases`: rewrite every case file of `dir` with fresh bulk data.
fn fill_cases(dir: &Path, out: &mut String) -> Result<u8, CliError> {
    let files = crate::files::read_folder(dir, "toml", cases::CASE_FILE, cases::CASE_FOLDER)
        .map_err(|e| CliError(format!("--cases: {e}")))?;
    for (path, text) in files {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        let filled = cases::fill_bulk(&name.unwrap_or_default(), &text)?;
        if filled != text {
            crate::files::write_atomically(&path, &filled).map_err(|e| CliError(e.to_string()))?;
            out.push_str(&format!("updated {}\n", path.display()));
        }
    }
    let suite = cases::load_dir(dir).map_err(|e| CliError(format!("--cases: {e}")))?;
    out.push_str(&format!("{}\n", count(suite.len(), "case")));
    Ok(0)
}

/// Run `ordo engine` (it talks on stdin/stdout itself).
pub fn run_engine(args: &EngineArgs, _out: &mut String) -> Result<u8, CliError> {
    let mut server = Server::new(choice(args.engine));
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
    // Ctrl-C or a TERM must not leave the engine's process group running: the engines
    // end with the command.
    #[cfg(unix)]
    crate::conformance::client::signals::kill_engines_on_signals()
        .map_err(|e| CliError(format!("cannot catch Ctrl-C to stop the engines: {e}")))?;
    let only = match &args.only {
        Some(text) => {
            Some(conform::support::parse_only(text).map_err(|e| CliError(format!("--only: {e}")))?)
        }
        None => None,
    };
    let opts = conform::Options {
        only,
        cases: args.cases.clone(),
        command: engine_command(args).to_string(),
        vectors: args.vectors.clone(),
        playouts: args.playouts,
        plies: args.plies,
        seed: args.seed,
        timeout: Duration::from_millis(args.timeout_ms),
        svg_dir: args.svg_dir.clone(),
    };
    let report = conform::run(&opts).map_err(|e| CliError(conform_flag(e)))?;
    if args.json {
        let json =
            serde_json::to_string_pretty(&report).map_err(|e| CliError(format!("--json: {e}")))?;
        out.push_str(&json);
        out.push('\n');
    } else {
        out.push_str(&report.text());
    }
    Ok(report.exit_status())
}

/// The engine command of `ordo conform`: the argument, or `--engine` (the older spelling).
fn engine_command(args: &ConformArgs) -> &str {
    args.command
        .as_deref()
        .or(args.engine_flag.as_deref())
        .unwrap_or_default()
}

/// A conform error in the words of the command line: the flag it is about.
fn conform_flag(e: conform::ConformError) -> String {
    use conform::ConformError as E;
    match e {
        E::EmptyCommand => format!("the engine command: {e}"),
        E::ZeroTimeout => format!("--timeout-ms: {e}"),
        E::Vectors(_) => format!("--vectors: {e}"),
        E::Cases(_) => format!("--cases: {e}"),
        E::SvgDir { .. } => format!("--svg-dir: {e}"),
    }
}
