//! `ordo tb`: endgame tablebases by material, the compact solver's slice files
//! (crates/solve/src/on_disk.rs). Its subcommands and `ordo tb probe` are here; `build` and
//! `verify` are in src/cli/tb_build.rs, `job` and `plan` (a build on a cluster) in
//! src/cli/tb_cluster.rs, `checksums` in src/cli/tb_checksums.rs.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::solve::solve_error;
use super::tb_build::Slices;
use super::{start_position, CliError, EngineArg, PositionArgs};
use crate::bitboard::Bitboard;
use crate::notation::format_move;
use crate::reference::Reference;
use crate::rules::Engine;
use crate::solve::plies;
use crate::solve::VerifyScope;
use crate::solve::{SolveError, Tablebase, Value};

/// Arguments of `ordo tb`.
#[derive(clap::Args, Debug)]
pub struct TbArgs {
    #[command(subcommand)]
    pub what: TbCommand,
}

#[derive(clap::Subcommand, Debug)]
pub enum TbCommand {
    /// Build every slice up to the material bound, fewer pieces first (existing slice files
    /// are checked and reused, so an interrupted build resumes).
    Build {
        #[command(flatten)]
        slices: Slices,
        /// Recompute every value from its successors after building (exit 1 on a mismatch).
        #[arg(long)]
        verify: bool,
        /// Recompute only the slices this run builds, not those read from existing files
        /// (each checked by the run that built it, or by `ordo tb verify`).
        #[arg(long, conflicts_with = "verify")]
        verify_new: bool,
    },
    /// Recompute every value of the built slices from its successors (exit 1 on a mismatch).
    Verify {
        #[command(flatten)]
        slices: Slices,
    },
    /// Build one slice as an independent job: read the files of the slices its captures
    /// lead into from --dir, refuse if one is missing or damaged, do nothing if the slice's
    /// own file is there and valid, else build it and write its file atomically.
    Job(super::tb_cluster::JobArgs),
    /// Print the job graph of a table set (or of a small board's game) for a scheduler:
    /// Slurm submissions with --dependency=afterok, make rules, or JSON.
    Plan(super::tb_cluster::PlanArgs),
    /// Print the content checksum (BLAKE3) of every compact table file in --dir, one
    /// `<checksum>  <file>` line each, or with --check compare them with a published list
    /// (exit 1 on a difference or a missing file).
    Checksums {
        /// Folder of the table files.
        #[arg(long, default_value = "tables")]
        dir: PathBuf,
        /// A published list (such as analysis/checksums/*.b3) to check the files against.
        #[arg(long, value_name = "LIST")]
        check: Option<PathBuf>,
    },
    /// Value, distance and best moves of a position, from the slices in --dir.
    Probe {
        #[command(flatten)]
        at: PositionArgs,
        /// Folder of the slice files.
        #[arg(long, default_value = "tables")]
        dir: PathBuf,
        /// Print only the legal moves, one `MOVE<TAB>OUTCOME` line each (`wins in 3 plies`,
        /// `draws`, `loses in 2 plies`, for the mover), best first.
        #[arg(long)]
        moves: bool,
    },
}

/// The slices `--verify` (all) or `--verify-new` (those built) recompute; clap refuses both.
fn verify_scope(all: bool, new: bool) -> VerifyScope {
    match (all, new) {
        (true, _) => VerifyScope::All,
        (false, true) => VerifyScope::Built,
        (false, false) => VerifyScope::None,
    }
}

/// Run `ordo tb`.
pub fn run(args: &TbArgs, out: &mut String) -> Result<u8, CliError> {
    match &args.what {
        TbCommand::Build {
            slices,
            verify,
            verify_new,
        } => super::tb_build::build(slices, verify_scope(*verify, *verify_new), out),
        TbCommand::Verify { slices } => super::tb_build::verify(slices, out),
        TbCommand::Probe { at, dir, moves } => probe(at, dir, *moves, out),
        TbCommand::Checksums { dir, check } => super::tb_checksums::run(dir, check.as_deref(), out),
        TbCommand::Job(a) => super::tb_cluster::job(a, out),
        TbCommand::Plan(a) => super::tb_cluster::plan(a, out),
    }
}

/// `ordo tb probe`: the value and every move's outcome, from the slices in `dir` (a position
/// whose side to move is split is valued from its successors; a finished game is lost for
/// the side to move, whatever ended it).
fn probe(
    at: &PositionArgs,
    dir: &Path,
    only_moves: bool,
    out: &mut String,
) -> Result<u8, CliError> {
    if at.position.is_none() {
        // A standard start (20 against 20) is beyond every table: probing it only lists
        // missing slices, so the error asks for a position instead.
        return Err(CliError(
            "tb probe needs --position (a standard start is beyond every table), e.g. --position \"BB2/4/4/WW2 w classic\"".into(),
        ));
    }
    let pos = start_position(at)?;
    let (value, moves) = match at.engine {
        EngineArg::Bitboard => probe_with::<Bitboard>(dir, &pos)?,
        EngineArg::Reference => probe_with::<Reference>(dir, &pos)?,
    };
    if only_moves {
        for (m, v) in &moves {
            let _ = writeln!(out, "{m}\t{}", after(*v));
        }
    } else {
        write_probe(pos.to_move, value, &moves, out);
    }
    Ok(0)
}

/// The value of a probed position and every move's outcome, best moves first.
pub(super) fn write_probe(
    side: crate::rules::Color,
    value: Value,
    moves: &[(String, Value)],
    out: &mut String,
) {
    let _ = writeln!(
        out,
        "{}",
        match value {
            Value::Win(d) => format!("{side} to move wins in {}", plies(d)),
            Value::Loss(0) => format!("{side} to move has lost: the game is over"),
            Value::Loss(d) => format!("{side} to move loses in {}", plies(d)),
            Value::Draw =>
                format!("draw: {side} to move can neither be forced to lose nor force a win"),
        }
    );
    let best: Vec<&(String, Value)> = moves
        .iter()
        .filter(|(_, v)| Some(*v) == moves.first().map(|(_, b)| *b))
        .collect();
    if !best.is_empty() {
        let _ = writeln!(
            out,
            "best moves: {}",
            best.iter()
                .map(|(m, _)| m.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    for (m, v) in moves {
        let _ = writeln!(out, "{m}\t{}", after(*v));
    }
}

/// The value of `pos` and each move's, through the one probe entry on the engine `E`.
fn probe_with<E: Engine>(
    dir: &Path,
    pos: &crate::rules::Position,
) -> Result<(Value, Vec<(String, Value)>), CliError> {
    let tb = Tablebase::<E>::open_on(dir).map_err(|e| CliError(format!("--dir: {e}")))?;
    let at_position = |e: SolveError| match e {
        SolveError::Input(msg) => CliError(format!("--position: {msg}")),
        e => solve_error(e),
    };
    let v = tb.value(pos).map_err(at_position)?;
    let moves = tb.moves(pos).map_err(at_position)?;
    Ok((
        v,
        moves
            .into_iter()
            .map(|(m, v)| (format_move(&m), v))
            .collect(),
    ))
}

/// A move's outcome for the mover, from the value it leaves the opponent.
fn after(v: Value) -> String {
    match v {
        Value::Loss(d) => format!("wins in {}", plies(d + 1)),
        Value::Win(d) => format!("loses in {}", plies(d + 1)),
        Value::Draw => "draws".into(),
    }
}
