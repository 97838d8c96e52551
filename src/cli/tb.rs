//! `ordo tb build|probe|verify`: endgame tablebases by material, the compact solver's slice
//! files (crates/solve/src/ctb.rs; build and verify in src/cli/tb_compact.rs).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::solve::{parse_bytes, solve_error, Bar};
use super::{start_position, CliError, EngineArg, PositionArgs, VariantArg};
use crate::bitboard::Bitboard;
use crate::notation::format_move;
use crate::reference::Reference;
use crate::rules::{Dims, Engine, Variant};
use crate::solve::plies;
use crate::solve::VerifyScope;
use crate::solve::{BuildOptions, Material, SolveError, Tablebase, Value, Verification};

/// Arguments of `ordo tb`.
#[derive(clap::Args, Debug)]
pub struct TbArgs {
    #[command(subcommand)]
    pub what: TbCommand,
}

/// Which slices: game, board, material bound, folder.
#[derive(clap::Args, Debug)]
pub struct Slices {
    /// Game: classic or x.
    #[arg(long, value_enum, default_value = "classic")]
    pub variant: VariantArg,
    /// Board, COLSxROWS.
    #[arg(long, default_value = "10x8")]
    pub board: String,
    /// Largest material, WHITE,BLACK: every slice with 1..=WHITE White and 1..=BLACK Black
    /// pieces.
    #[arg(long, default_value = "2,2")]
    pub max_pieces: String,
    /// Folder of the slice files.
    #[arg(long, default_value = "tables")]
    pub dir: PathBuf,
    /// Engine that generates the moves.
    #[arg(long, value_enum, default_value = "bitboard")]
    pub engine: EngineArg,
    /// Print one JSON report per slice instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Refuse up front a build that would need more memory than this: bytes, or with a
    /// suffix K, M, G, T. The cgroup limit, RLIMIT_AS and the memory available apply anyway.
    #[arg(long, value_name = "BYTES")]
    pub memory_limit: Option<String>,
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
    Job(super::tbjob::JobArgs),
    /// Print the job graph of a table set (or of a small board's game) for a scheduler:
    /// Slurm submissions with --dependency=afterok, make rules, or JSON.
    Plan(super::tbjob::PlanArgs),
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

/// Parse `A,B`.
pub fn parse_material(s: &str) -> Result<Material, CliError> {
    let bad = || {
        CliError(format!(
            "--max-pieces '{s}': expected WHITE,BLACK such as 3,3"
        ))
    };
    let (w, b) = s.split_once(',').ok_or_else(bad)?;
    let white: u32 = w.trim().parse().map_err(|_| bad())?;
    let black: u32 = b.trim().parse().map_err(|_| bad())?;
    if white == 0 || black == 0 || white > 16 || black > 16 {
        return Err(CliError(format!(
            "--max-pieces '{s}': each side needs 1 to 16 pieces"
        )));
    }
    Ok(Material { white, black })
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
        } => super::tb_compact::build(slices, verify_scope(*verify, *verify_new), out),
        TbCommand::Verify { slices } => super::tb_compact::verify(slices, out),
        TbCommand::Probe { at, dir, moves } => probe(at, dir, *moves, out),
        TbCommand::Checksums { dir, check } => super::tb_checksums::run(dir, check.as_deref(), out),
        TbCommand::Job(a) => super::tbjob::job(a, out),
        TbCommand::Plan(a) => super::tbjob::plan(a, out),
    }
}

pub(super) fn parse_slices(s: &Slices) -> Result<(Dims, Variant, Material), CliError> {
    let dims: Dims = s
        .board
        .parse()
        .map_err(|e| CliError(format!("--board: {e}")))?;
    Ok((
        dims,
        Variant::from(s.variant),
        parse_material(&s.max_pieces)?,
    ))
}

/// The start of `ordo tb build`: the bound and the memory limit read, the
/// job sized by `size` before the folder is made (an impossible bound leaves nothing behind),
/// and the build's options with `bar` for progress.
pub(super) fn prepare_build<'a>(
    s: &Slices,
    verify: VerifyScope,
    bar: &'a Bar,
    size: impl FnOnce(Dims, Variant, Material, Option<u64>) -> Result<(), SolveError>,
) -> Result<(Dims, Variant, Material, BuildOptions<'a>), CliError> {
    let (dims, variant, max) = parse_slices(s)?;
    let memory_limit = s.memory_limit.as_deref().map(parse_bytes).transpose()?;
    size(dims, variant, max, memory_limit)
        .map_err(|e| super::solve::limit_error(e, s.memory_limit.as_deref()))?;
    std::fs::create_dir_all(&s.dir).map_err(|e| CliError(format!("{}: {e}", s.dir.display())))?;
    let opts = BuildOptions {
        verify,
        memory_limit,
        progress: bar,
    };
    Ok((dims, variant, max, opts))
}

/// One slice's line of `ordo tb verify` (`what`: what was recomputed); its mismatches.
pub(super) fn write_slice_verdict(m: &str, what: &str, v: &Verification, out: &mut String) -> u64 {
    let _ = writeln!(
        out,
        "{m}: {} {what} recomputed, {}{}",
        v.checked,
        crate::text::count(v.mismatches, "mismatch"),
        v.examples
            .first()
            .map(|e| format!(" (first: {e})"))
            .unwrap_or_default()
    );
    v.mismatches
}

/// The closing line of `ordo tb verify`; its exit status.
pub(super) fn write_verify_summary(bad: u64, out: &mut String) -> u8 {
    let _ = writeln!(
        out,
        "{}",
        if bad == 0 {
            "verified: every value matches its successors"
        } else {
            "VERIFICATION FAILED"
        }
    );
    u8::from(bad > 0)
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

/// How a slice line ends: built (and in what time) or loaded, and the verification verdict.
pub(super) fn slice_status(built: bool, seconds: Option<f64>, verified: Option<bool>) -> String {
    let how = match (built, seconds) {
        (true, Some(s)) => format!(", built in {s:.1} s wall"),
        (false, _) => ", loaded".to_string(),
        _ => String::new(),
    };
    let check = match verified {
        Some(true) => ", verified",
        Some(false) => ", VERIFICATION FAILED",
        None => "",
    };
    how + check
}
