//! `ordo fuzz`: the stable-toolchain differential campaign. Random playouts from reachable
//! starts and random set-up positions, each compared between the reference and the bitboard
//! engine on everything (moves, successors, status); on a divergence, a minimized reproduction
//! and exit status 1.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::CliError;
use crate::diff::{
    check_apply_rebuild, check_playout, compare_position, minimize, random_position,
    reachable_starts, Divergence, Rng,
};
use crate::notation::format_position;
use crate::rules::{Engine, Variant};

/// Arguments of `ordo fuzz`.
#[derive(clap::Args, Debug)]
pub struct FuzzArgs {
    /// How long to run.
    #[arg(long, default_value_t = 60)]
    pub seconds: u64,
    /// Seed of the campaign (default: from the clock); the same seed replays the same inputs.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
}

/// One unit of work: a playout or a set-up position, checked both ways.
fn one_case<A: Engine, B: Engine>(
    rng: &mut Rng,
    starts: &[crate::rules::Position],
) -> Result<usize, Divergence> {
    if rng.below(2) == 0 {
        let start = &starts[rng.below(starts.len() as u64) as usize];
        // Ordo X on the big boards is costly for the reference engine: keep those short.
        let plies = if start.dims().len() > 40 && start.variant == Variant::X {
            3
        } else {
            30
        };
        check_playout::<A, B>(start, rng, plies)
    } else {
        let pos = random_position(rng, 8);
        compare_position::<A, B>(&pos)
            .map_err(|d| minimize(&d, |p| compare_position::<A, B>(p).err()))?;
        check_apply_rebuild::<B>(&pos)?;
        Ok(1)
    }
}

/// Run the campaign between `A` (the oracle) and `B`.
pub fn campaign<A: Engine, B: Engine>(args: &FuzzArgs, out: &mut String) -> Result<u8, CliError> {
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1)
    });
    let threads = args
        .threads
        .unwrap_or_else(rayon::current_num_threads)
        .max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CliError(e.to_string()))?;
    let starts = reachable_starts();
    let deadline = Instant::now() + Duration::from_secs(args.seconds);
    let checked = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let bar = indicatif::ProgressBar::new_spinner();
    bar.enable_steady_tick(Duration::from_millis(500));
    let start_time = Instant::now();
    let found: Vec<Divergence> = pool.install(|| {
        (0..threads as u64)
            .into_par_iter()
            .filter_map(|w| {
                let mut rng = Rng::new(seed ^ w.wrapping_mul(0x9E37_79B9_7F4A_7C15));
                while Instant::now() < deadline && !stop.load(Ordering::Relaxed) {
                    match one_case::<A, B>(&mut rng, &starts) {
                        Ok(n) => {
                            let total = checked.fetch_add(n as u64, Ordering::Relaxed) + n as u64;
                            let secs = start_time.elapsed().as_secs_f64().max(1e-9);
                            bar.set_message(format!(
                                "{total} positions, {:.0}/s",
                                total as f64 / secs
                            ));
                        }
                        Err(d) => {
                            stop.store(true, Ordering::Relaxed);
                            return Some(d);
                        }
                    }
                }
                None
            })
            .collect()
    });
    bar.finish_and_clear();
    let total = checked.load(Ordering::Relaxed);
    let secs = start_time.elapsed().as_secs_f64().max(1e-9);
    let _ = writeln!(
        out,
        "fuzz: seed {seed}, {threads} threads, {:.1} s: {total} positions checked ({:.0} per second), {} against {}",
        secs,
        total as f64 / secs,
        A::NAME,
        B::NAME
    );
    match found.first() {
        None => {
            let _ = writeln!(out, "no divergence");
            Ok(0)
        }
        Some(d) => {
            let _ = writeln!(out, "DIVERGENCE: {d}");
            let _ = writeln!(
                out,
                "reproduce: ordo moves --position \"{}\" --engine reference",
                format_position(&d.position)
            );
            let _ = writeln!(
                out,
                "      and: ordo moves --position \"{}\" --engine bitboard",
                format_position(&d.position)
            );
            Ok(1)
        }
    }
}
