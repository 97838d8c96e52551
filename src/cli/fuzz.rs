//! `ordo fuzz`: the face of the stable-toolchain differential campaign
//! ([`crate::diff::campaign`]): arguments in, a spinner on stderr, the report out. Ctrl-C ends
//! the campaign with its seed and counts; a divergence gives a minimized reproduction and exit
//! status 1.

use std::fmt::Write as _;
use std::time::Duration;

use super::interrupt::{self, INTERRUPTED};
use super::CliError;
use crate::diff::campaign::{run_campaign, CampaignOptions, CampaignReport};
use crate::notation::format_position;
use crate::rules::Engine;
use crate::text::count;

/// Arguments of `ordo fuzz`.
#[derive(clap::Args, Debug)]
pub struct FuzzArgs {
    /// How long to run, in seconds (a value beyond what the clock can reach means until
    /// Ctrl-C).
    #[arg(long, default_value_t = 60)]
    pub seconds: u64,
    /// Seed of the campaign (default: from the clock); the same seed replays the same inputs.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Worker threads, 1 to 256 (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Nothing on stderr but errors (no start line, no spinner).
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// A seed from the clock.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1)
}

/// Run the campaign between `A` (the oracle) and `B`.
pub fn campaign<A: Engine, B: Engine>(args: &FuzzArgs, out: &mut String) -> Result<u8, CliError> {
    let stop = interrupt::catch()?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    if !args.quiet {
        eprintln!(
            "ordo fuzz: seed {seed}, {} s, {} against {}; Ctrl-C stops it",
            args.seconds,
            A::NAME,
            B::NAME
        );
    }
    let bar = if args.quiet {
        indicatif::ProgressBar::hidden()
    } else {
        indicatif::ProgressBar::new_spinner()
    };
    bar.enable_steady_tick(Duration::from_millis(500));
    let start = std::time::Instant::now();
    let progress = |total: u64| {
        let rate = total as f64 / start.elapsed().as_secs_f64().max(1e-9);
        bar.set_message(format!("{total} positions, {rate:.0}/s"));
    };
    let opts = CampaignOptions {
        seed,
        threads: args.threads.map_or(0, usize::from),
        duration: Duration::from_secs(args.seconds),
        stop: Some(stop),
        progress: Some(&progress),
    };
    let clock = super::clock::Clock::start();
    let report = run_campaign::<A, B>(&opts)?;
    bar.finish_and_clear();
    write_report::<A, B>(&report, clock.cpu(), out);
    Ok(match (&report.divergence, report.interrupted) {
        (Some(_), _) => 1,
        (None, true) => INTERRUPTED,
        (None, false) => 0,
    })
}

/// The summary line, then the verdict: no divergence, interrupted, or the reproduction.
fn write_report<A: Engine, B: Engine>(report: &CampaignReport, cpu: Duration, out: &mut String) {
    let secs = report.elapsed.as_secs_f64().max(1e-9);
    let _ = writeln!(
        out,
        "fuzz: seed {}, {}, {}: {} checked ({:.0} per second), {} against {}",
        report.seed,
        count(report.threads, "thread"),
        super::clock::timing(report.elapsed, cpu, 1),
        count(report.checked, "position"),
        report.checked as f64 / secs,
        A::NAME,
        B::NAME
    );
    let Some(d) = &report.divergence else {
        let verdict = if report.interrupted {
            "interrupted (Ctrl-C): no divergence so far"
        } else {
            "no divergence"
        };
        let _ = writeln!(out, "{verdict}");
        return;
    };
    let fen = format_position(&d.position);
    let _ = writeln!(out, "DIVERGENCE: {d}");
    let _ = writeln!(
        out,
        "reproduce: ordo moves --position \"{fen}\" --engine reference"
    );
    let _ = writeln!(
        out,
        "      and: ordo moves --position \"{fen}\" --engine bitboard"
    );
}
