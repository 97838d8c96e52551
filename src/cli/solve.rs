//! `ordo solve`: whole-game solutions of small boards (src/solve/).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;

use super::{CliError, EngineArg, VariantArg};
use crate::bitboard::Bitboard;
use crate::reference::Reference;
use crate::rules::{Dims, Variant};
use crate::solve::{solve_game, GameOptions, GameReport, Setup};

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupArg {
    /// Each side fills its home row.
    Row1,
    /// Each side fills its two nearest rows.
    Row2,
}

impl From<SetupArg> for Setup {
    fn from(s: SetupArg) -> Setup {
        match s {
            SetupArg::Row1 => Setup::Row1,
            SetupArg::Row2 => Setup::Row2,
        }
    }
}

/// Arguments of `ordo solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// Game: classic or x.
    #[arg(long, value_enum, default_value = "classic")]
    pub variant: VariantArg,
    /// Board, COLSxROWS (at most 63 squares).
    #[arg(long, default_value = "4x4")]
    pub board: String,
    /// Start: row1 (home rows filled) or row2 (two nearest rows filled).
    #[arg(long, value_enum, default_value = "row1")]
    pub setup: SetupArg,
    /// Engine that generates the moves.
    #[arg(long, value_enum, default_value = "bitboard")]
    pub engine: EngineArg,
    /// Table file (default: tables/VARIANT-BOARD-SETUP.ordotb). An existing table is loaded
    /// instead of solved again; an interrupted run resumes from FILE.partial.
    #[arg(long)]
    pub table: Option<PathBuf>,
    /// Write no file (no checkpoint either).
    #[arg(long)]
    pub no_save: bool,
    /// Recompute every stored value from its successors afterwards (exit 1 on a mismatch).
    #[arg(long)]
    pub verify: bool,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Solver: `retro` (the table solver) or `compact` (one byte a core position, kept in
    /// memory, no file; --verify recomputes every core value).
    #[arg(long, value_enum, default_value = "retro")]
    pub solver: SolverArg,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolverArg {
    Retro,
    Compact,
}

fn run_compact<E: crate::rules::Engine>(
    args: &SolveArgs,
    dims: Dims,
    out: &mut String,
) -> Result<u8, CliError> {
    let (variant, setup) = (Variant::from(args.variant), Setup::from(args.setup));
    let (tables, report) = crate::solve::compact::solve_game::<E>(variant, dims, setup)?;
    let _ = write!(out, "{report}");
    if args.verify {
        match tables.verify::<E>() {
            Ok(n) => {
                let _ = writeln!(
                    out,
                    "verified: {n} core values recomputed from their successors"
                );
            }
            Err(crate::solve::SolveError::Mismatch(m)) => {
                let _ = writeln!(out, "VERIFICATION FAILED: {m}");
                return Ok(1);
            }
            Err(e) => return Err(e.into()),
        }
    }
    Ok(0)
}

/// Run `ordo solve`.
pub fn run(args: &SolveArgs, out: &mut String) -> Result<u8, CliError> {
    let dims: Dims = args
        .board
        .parse()
        .map_err(|e| CliError(format!("--board: {e}")))?;
    let variant = Variant::from(args.variant);
    let setup = Setup::from(args.setup);
    let table = if args.no_save {
        None
    } else {
        Some(args.table.clone().unwrap_or_else(|| {
            PathBuf::from(format!(
                "tables/{}-{}-{}.ordotb",
                variant.name(),
                dims,
                setup.name()
            ))
        }))
    };
    if let Some(dir) = table.as_ref().and_then(|t| t.parent()) {
        if !dir.as_os_str().is_empty() {
            std::fs::create_dir_all(dir)
                .map_err(|e| CliError(format!("{}: {e}", dir.display())))?;
        }
    }
    let bar = indicatif::ProgressBar::new_spinner();
    bar.enable_steady_tick(Duration::from_millis(250));
    let opts = GameOptions {
        table: table.clone(),
        verify: args.verify,
        progress: &bar,
    };
    let pool = {
        let mut b = rayon::ThreadPoolBuilder::new();
        if let Some(n) = args.threads {
            b = b.num_threads(n.max(1));
        }
        b.build()?
    };
    if args.solver == SolverArg::Compact {
        return pool.install(|| match args.engine {
            EngineArg::Reference => run_compact::<Reference>(args, dims, out),
            EngineArg::Bitboard => run_compact::<Bitboard>(args, dims, out),
        });
    }
    let result = pool.install(|| match args.engine {
        EngineArg::Reference => solve_game::<Reference>(variant, dims, setup, &opts),
        EngineArg::Bitboard => solve_game::<Bitboard>(variant, dims, setup, &opts),
    });
    bar.finish_and_clear();
    let (_, report) = result?;
    if args.json {
        let _ = writeln!(out, "{}", serde_json::to_string_pretty(&report)?);
    } else {
        write_report(&report, table.as_deref(), out);
    }
    Ok(if report.verified == Some(false) { 1 } else { 0 })
}

/// The report as text.
pub fn write_report(r: &GameReport, table: Option<&std::path::Path>, out: &mut String) {
    let game = if r.variant == "x" { "Ordo X" } else { "Ordo" };
    let value = match (r.start.as_str(), r.optimal_length) {
        ("win", Some(n)) => format!("White (to move) wins in {n} plies"),
        ("loss", Some(n)) => format!("Black wins in {n} plies"),
        _ => "draw: neither side can force the end".to_string(),
    };
    let _ = writeln!(out, "{game} {} {}: {value}", r.board, r.setup);
    let moves: Vec<String> = r
        .winning_first_moves
        .iter()
        .map(|m| format!("{} ({})", m.mv, m.plies))
        .collect();
    let _ = writeln!(
        out,
        "winning first moves: {} of {}{}{}",
        moves.len(),
        r.first_moves,
        if moves.is_empty() { "" } else { ": " },
        moves.join(", ")
    );
    let c = &r.counts;
    let _ = writeln!(
        out,
        "positions {} ({} moves between them): {} won, {} lost, {} drawn for the side to move",
        c.positions, c.edges, c.wins, c.losses, c.draws
    );
    let _ = writeln!(
        out,
        "game over: {} home row, {} no pieces, {} cannot reconnect, {} stalemates; longest distance {} plies",
        c.over_home_row, c.over_no_pieces, c.cannot_reconnect, c.stalemates, c.longest
    );
    match r.verified {
        Some(true) => {
            let _ = writeln!(out, "verified: every value recomputed from its successors");
        }
        Some(false) => {
            let _ = writeln!(
                out,
                "VERIFICATION FAILED: stored values disagree with their successors"
            );
        }
        None => {}
    }
    let mut cost = Vec::new();
    if let Some(s) = r.seconds {
        cost.push(format!("solved in {s:.2} s"));
    }
    if let Some(b) = r.peak_memory {
        cost.push(format!("peak memory {:.1} MB", b as f64 / 1e6));
    }
    if let Some(s) = r.verify_seconds {
        cost.push(format!("verified in {s:.2} s"));
    }
    if !cost.is_empty() {
        let _ = writeln!(out, "{}", cost.join(", "));
    }
    if let Some(t) = table {
        let _ = writeln!(out, "table: {}", t.display());
    }
}
