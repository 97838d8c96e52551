//! `ordo solve`: whole-game solutions of small boards (crates/solve/src/).

use std::fmt::Write as _;
use std::path::PathBuf;

use super::{CliError, EngineArg, VariantArg};
use crate::bitboard::Bitboard;
use crate::reference::Reference;
use crate::rules::{Dims, Variant};
use crate::solve::{GameOptions, Material, Names, Setup, SolveError};

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
    /// Table file (default: tables/ctb-VARIANT-BOARD-SETUP.ordotb). An existing table is loaded
    /// instead of solved again; an interrupted run resumes from FILE.partial. Not with
    /// --no-save, which writes and reads no file.
    #[arg(long, conflicts_with = "no_save")]
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
    /// Worker threads, 1 to 256 (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Refuse up front, or stop early, a solve that would need more memory than this: bytes,
    /// or with a suffix K, M, G, T (powers of 1024). The cgroup limit, RLIMIT_AS and the
    /// memory available apply anyway; the tightest counts.
    #[arg(long, value_name = "BYTES")]
    pub memory_limit: Option<String>,
}

fn run_compact<E: crate::rules::Engine>(
    args: &SolveArgs,
    dims: Dims,
    (opts, bar): (&GameOptions, &Bar),
    out: &mut String,
) -> Result<u8, CliError> {
    let clock = super::clock::Clock::start();
    let (variant, setup) = (Variant::from(args.variant), Setup::from(args.setup));
    let (_, report) = match crate::solve::solve_game::<E>(variant, dims, setup, opts) {
        Ok(r) => r,
        Err(e) => {
            let typed = args.memory_limit.as_deref();
            return super::interrupt::stopped(
                e,
                "the same command",
                |e| limit_error(e, typed),
                |t| bar.say_after(t),
            );
        }
    };
    if args.json {
        let _ = writeln!(out, "{}", serde_json::to_string_pretty(&report)?);
    } else {
        write_compact_report(&report, opts.table.as_deref(), out);
        let _ = writeln!(out, "this run: {}", clock.text(2));
    }
    Ok(u8::from(report.verified == Some(false)))
}

/// The compact solver's report as text.
pub fn write_compact_report(
    r: &crate::solve::CompactGameReport,
    table: Option<&std::path::Path>,
    out: &mut String,
) {
    let _ = write!(out, "{}", r.game);
    match &r.verdict {
        Some(v) if v.mismatches == 0 => {
            let _ = writeln!(
                out,
                "verified: {} recomputed from their successors",
                crate::text::count(v.checked, "core value")
            );
        }
        Some(v) => {
            let _ = writeln!(
                out,
                "VERIFICATION FAILED: {} of {} core values disagree with their successors (first: {})",
                v.mismatches,
                v.checked,
                v.examples.first().map_or("", String::as_str)
            );
        }
        None => {}
    }
    write_tail(
        (r.load_seconds, r.seconds, r.peak_memory, r.verify_seconds),
        table,
        out,
    );
}

/// A library error with the command line's names for what it refers to: the limit asked for
/// is `--memory-limit`, missing slices and old retro tables come with the command that builds
/// them.
pub fn solve_error(e: SolveError) -> CliError {
    match &e {
        SolveError::MissingSlices {
            dir,
            needed,
            variant,
            dims,
            ..
        } => CliError(format!(
            "{e}; build it with: ordo tb build --variant {} --board {dims} --max-pieces {},{} --dir {dir}",
            variant.name(),
            needed.white,
            needed.black
        )),
        SolveError::RetroTable { .. } => CliError(retro_table(&e)),
        _ => CliError(e.render(&NAMES)),
    }
}

/// [`solve_error`], with a refusal against `--memory-limit` written in the units the user
/// typed (`typed`, as given): `need about 827M, over the memory limit of 100M`.
pub fn limit_error(e: SolveError, typed: Option<&str>) -> CliError {
    match (&e, typed) {
        (SolveError::OverMemory { .. }, Some(t)) => {
            CliError(e.render_sized(&NAMES, &|b| as_typed(b, t)))
        }
        _ => solve_error(e),
    }
}

/// `bytes` in the unit of `typed` (a `--memory-limit` value): `827M` for `100M`, `1.5G` for
/// `2G`, plain bytes for `1000000`; `typed` itself for its own value.
pub fn as_typed(bytes: u64, typed: &str) -> String {
    let t = typed.trim();
    let shift = match t.chars().last().map(|c| c.to_ascii_uppercase()) {
        Some('K') => 10,
        Some('M') => 20,
        Some('G') => 30,
        Some('T') => 40,
        _ => return format!("{bytes} bytes"),
    };
    if parse_bytes(t).is_ok_and(|b| b == bytes) {
        return t.to_string();
    }
    let letter = &t[t.len() - 1..];
    let x = bytes as f64 / (1u64 << shift) as f64;
    if x < 10.0 {
        format!("{:.1}{letter}", (x * 10.0).ceil() / 10.0)
    } else {
        format!("{}{letter}", x.ceil())
    }
}

/// The refusal of a retro solver's table (format 2) on one line, with the command that builds
/// the table it held with the compact solver.
fn retro_table(e: &SolveError) -> String {
    let SolveError::RetroTable { path, held } = e else {
        return e.render(&NAMES);
    };
    let (variant, board) = (held.variant.as_deref(), held.board.as_deref());
    let dir = std::path::Path::new(path)
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map_or(".".into(), |d| d.display().to_string());
    let command = match (held.kind.as_deref(), variant, board, held.scope.as_deref()) {
        (Some("game"), Some(v), Some(b), Some(s)) => {
            format!("ordo solve --variant {v} --board {b} --setup {s} --table {path}")
        }
        (Some("endgame"), Some(v), Some(b), Some(m)) => format!(
            "ordo tb build --variant {v} --board {b} --max-pieces {} --dir {dir}",
            m.replace('v', ",")
        ),
        _ => "ordo solve or ordo tb build".into(),
    };
    format!("{path}: an old retro-solver table (format 2), which this version no longer reads; remove it and rebuild with: {command}")
}

/// The command line's names for what the solver's messages point to.
pub const NAMES: Names = Names {
    asked_limit: "--memory-limit",
    larger_budget: "raise --max-nodes",
};

/// Parse `--memory-limit`: `123456`, `512M`, `4G`, `1.5T`.
pub fn parse_bytes(s: &str) -> Result<u64, CliError> {
    let bad = || {
        CliError(format!(
            "--memory-limit '{}': expected a size such as 4G, 512M or 1000000",
            s.chars().take(40).collect::<String>()
        ))
    };
    let t = s.trim();
    let (num, mult) = match t.chars().last().map(|c| c.to_ascii_uppercase()) {
        Some('K') => (&t[..t.len() - 1], 1u64 << 10),
        Some('M') => (&t[..t.len() - 1], 1 << 20),
        Some('G') => (&t[..t.len() - 1], 1 << 30),
        Some('T') => (&t[..t.len() - 1], 1 << 40),
        _ => (t, 1),
    };
    let x: f64 = num.parse().map_err(|_| bad())?;
    if !x.is_finite() || x <= 0.0 || x * mult as f64 >= 1.8e19 {
        return Err(bad());
    }
    Ok((x * mult as f64) as u64)
}

pub use super::bar::Bar;

/// The table file of `ordo solve` (none with `--no-save`), its folder made.
fn table_path(
    args: &SolveArgs,
    variant: Variant,
    dims: Dims,
    setup: Setup,
) -> Result<Option<PathBuf>, CliError> {
    if args.no_save {
        return Ok(None);
    }
    let table = args.table.clone().unwrap_or_else(|| {
        PathBuf::from(format!(
            "tables/ctb-{}-{}-{}.ordotb",
            variant.name(),
            dims,
            setup.name()
        ))
    });
    if let Some(dir) = table.parent() {
        if !dir.as_os_str().is_empty() {
            std::fs::create_dir_all(dir)
                .map_err(|e| CliError(format!("{}: {e}", dir.display())))?;
        }
    }
    Ok(Some(table))
}

/// Run `ordo solve`.
pub fn run(args: &SolveArgs, out: &mut String) -> Result<u8, CliError> {
    let dims: Dims = args
        .board
        .parse()
        .map_err(|e| CliError(format!("--board: {e}")))?;
    let variant = Variant::from(args.variant);
    let setup = Setup::from(args.setup);
    let table = table_path(args, variant, dims, setup)?;
    let memory_limit = args.memory_limit.as_deref().map(parse_bytes).transpose()?;
    let bar = Bar::new();
    let opts = GameOptions {
        table: table.clone(),
        verify: args.verify,
        memory_limit,
        progress: &bar,
    };
    let pool = {
        let mut b = rayon::ThreadPoolBuilder::new();
        if let Some(n) = args.threads {
            b = b.num_threads(usize::from(n));
        }
        b.build()?
    };
    let flag = super::interrupt::catch()?;
    let progress = super::interrupt::Stoppable { inner: &bar, flag };
    let opts = GameOptions {
        progress: &progress,
        ..opts
    };
    let r = pool.install(|| match args.engine {
        EngineArg::Reference => run_compact::<Reference>(args, dims, (&opts, &bar), out),
        EngineArg::Bitboard => run_compact::<Bitboard>(args, dims, (&opts, &bar), out),
    });
    bar.finish();
    r
}

/// The table line of a report, when a file was written or read.
fn write_table(table: Option<&std::path::Path>, out: &mut String) {
    if let Some(t) = table {
        let _ = writeln!(out, "table: {}", t.display());
    }
}

/// The line of times and memory: loaded or solved, peak memory, verified.
/// What a solve cost: seconds loading, seconds solving, peak bytes, seconds verifying.
type Cost = (Option<f64>, Option<f64>, Option<u64>, Option<f64>);

/// The last lines of a report: what it cost, and the table file.
fn write_tail(cost: Cost, table: Option<&std::path::Path>, out: &mut String) {
    write_cost(cost, out);
    write_table(table, out);
}

fn write_cost((load, solve, peak, verify): Cost, out: &mut String) {
    let mut cost = Vec::new();
    match (load, solve) {
        (Some(l), Some(s)) => cost.push(format!(
            "loaded in {l:.2} s wall (solved in {s:.2} s wall when built)"
        )),
        (Some(l), None) => cost.push(format!("loaded in {l:.2} s wall")),
        (None, Some(s)) => cost.push(format!("solved in {s:.2} s wall")),
        (None, None) => {}
    }
    if let Some(b) = peak {
        cost.push(format!("peak memory {:.1} MB", b as f64 / 1e6));
    }
    if let Some(s) = verify {
        cost.push(format!("verified in {s:.2} s wall"));
    }
    if !cost.is_empty() {
        let _ = writeln!(out, "{}", cost.join(", "));
    }
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
