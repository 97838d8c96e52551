//! `ordo perft`: count the move sequences of a given length, on the bitboard engine unless
//! `--engine reference` is given, split over the first moves on every core
//! ([`crate::bitboard::perft::divide_parallel`]). A count expected to take long is announced on
//! stderr, a running one shows its progress there (on a terminal, without `--quiet`), and
//! Ctrl-C stops it with a line saying how far it got.

use std::fmt::Write as _;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::interrupt::{self, INTERRUPTED};
use super::{dispatch, AnyEngine, CliError, PositionArgs};
use crate::bitboard::perft::{PerftOptions, PerftProgress, MAX_PERFT_DEPTH};
use crate::notation::format_move;

/// Arguments of `ordo perft`.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// Plies to count, 0 to 30 (one Ordo X turn, all its steps, is one ply).
    #[arg(value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_PERFT_DEPTH)))]
    pub depth: u32,
    /// Show the count under each first move.
    #[arg(long)]
    pub divide: bool,
    /// Worker threads, 1 to 256 (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Neither progress nor warnings on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    #[command(flatten)]
    pub at: PositionArgs,
}

/// Leaves per second each engine counts at least (README, "Measured speed"), for the warning.
fn slow_rate(engine: &str) -> f64 {
    if engine == "reference" {
        3e5
    } else {
        1e8
    }
}

/// A rough duration for people: seconds, minutes, hours, days or years.
fn human(secs: f64) -> String {
    let units = [
        (365.0 * 86400.0, "years"),
        (86400.0, "days"),
        (3600.0, "hours"),
        (60.0, "minutes"),
    ];
    for (size, name) in units {
        if secs >= 2.0 * size {
            return format!("{:.0} {name}", secs / size);
        }
    }
    crate::text::count(secs.round() as u64, "second")
}

/// The warning for a count expected to last over a minute (the first moves to the power of the
/// depth, at the engine's slow rate), if any.
pub fn long_count_warning(first_moves: usize, depth: u32, engine: &str) -> Option<String> {
    let leaves = (first_moves as f64).powi(depth as i32);
    let secs = leaves / slow_rate(engine);
    (secs > 60.0).then(|| {
        format!(
            "ordo: warning: perft({depth}) on the {engine} engine may take {} or more \
             (about {leaves:.1e} leaves); Ctrl-C stops it and prints how far it got",
            human(secs)
        )
    })
}

/// A bar over the first moves on stderr: hidden with `--quiet` or when stderr is no terminal.
fn progress_bar(depth: u32, first_moves: usize, quiet: bool) -> ProgressBar {
    let target = if quiet {
        ProgressDrawTarget::hidden()
    } else {
        ProgressDrawTarget::stderr()
    };
    let bar = ProgressBar::with_draw_target(Some(first_moves as u64), target);
    let template = format!(
        "perft({depth}) {{pos}}/{{len}} first moves, {{msg}} [{{elapsed_precise}}, about {{eta}} left]"
    );
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar.enable_steady_tick(std::time::Duration::from_millis(250));
    bar
}

/// Run `ordo perft`.
pub fn run(args: &PerftArgs, out: &mut String) -> Result<u8, CliError> {
    dispatch(&args.at, |e| count(&e, args, out))
}

fn count(e: &AnyEngine, args: &PerftArgs, out: &mut String) -> Result<u8, CliError> {
    let stop = interrupt::catch()?;
    let (name, depth) = (e.inner.name(), args.depth);
    let first_moves = e.inner.moves().len();
    if let Some(w) = long_count_warning(first_moves, depth, name).filter(|_| !args.quiet) {
        eprintln!("{w}");
    }
    let clock = super::clock::Clock::start();
    let start = Instant::now();
    let bar = progress_bar(depth, first_moves, args.quiet || depth < 2);
    let report = |p: PerftProgress| {
        let rate = p.leaves as f64 / start.elapsed().as_secs_f64().max(1e-9);
        bar.set_position(p.done as u64);
        bar.set_message(format!("{} leaves, {rate:.3e} leaves/s", p.leaves));
    };
    let opts = PerftOptions {
        threads: args.threads.map_or(0, usize::from),
        stop: Some(stop),
        progress: Some(&report),
    };
    let d = e.inner.divide(depth, &opts).map_err(CliError::from)?;
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    if args.divide {
        let mut lines: Vec<(String, u64)> =
            d.rows.iter().map(|(m, n)| (format_move(m), *n)).collect();
        lines.sort();
        for (m, n) in lines {
            let _ = writeln!(out, "{m} {n}");
        }
    }
    if !d.complete() {
        eprintln!(
            "ordo: interrupted: perft({depth}) stopped after {} of {}, {} counted in {} [{name} engine]",
            d.rows.len(),
            crate::text::count(d.first_moves, "first move"),
            crate::text::count(d.total, "leaf"),
            clock.text(2)
        );
        return Ok(INTERRUPTED);
    }
    let _ = writeln!(
        out,
        "perft({depth}) = {}  [{name} engine, {}, {:.0} leaves/s]",
        d.total,
        clock.text(2),
        d.total as f64 / secs.max(1e-9)
    );
    Ok(0)
}
