//! The stable-toolchain differential campaign behind `ordo fuzz`: random playouts from
//! reachable starts and random set-up positions, each compared between two engines on
//! everything they expose, on every core, until the time is up, a divergence is found (then
//! minimized) or the caller asks it to stop.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::{
    check_apply_rebuild, check_playout, compare_position, minimize, random_position,
    reachable_starts, Divergence,
};
use crate::rules::{Engine, Position, Rng, Variant};

/// How to run [`run_campaign`].
#[derive(Clone, Copy, Default)]
pub struct CampaignOptions<'a> {
    /// Seed of the campaign: the same seed replays the same inputs (worker `w` draws from
    /// `seed ^ w * 0x9E3779B97F4A7C15`).
    pub seed: u64,
    /// Worker threads; 0 means one per core.
    pub threads: usize,
    /// How long to run; a duration the clock cannot reach means until stopped.
    pub duration: Duration,
    /// When this becomes true, the campaign ends after the cases under way.
    pub stop: Option<&'a AtomicBool>,
    /// Called after each case with the number of positions checked so far.
    pub progress: Option<&'a (dyn Fn(u64) + Sync)>,
}

/// The options, with whether a stop flag and a progress callback are given (the callback is
/// a closure, which has no `Debug`).
impl std::fmt::Debug for CampaignOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CampaignOptions")
            .field("seed", &self.seed)
            .field("threads", &self.threads)
            .field("duration", &self.duration)
            .field("stop", &self.stop)
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

/// What a campaign did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CampaignReport {
    /// The seed it ran with.
    pub seed: u64,
    /// The worker threads it ran on.
    pub threads: usize,
    /// Positions compared between the engines.
    pub checked: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// The first divergence found, minimized.
    pub divergence: Option<Divergence>,
    /// Whether it ended because [`CampaignOptions::stop`] was set.
    pub interrupted: bool,
}

/// Why a campaign could not run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CampaignError {
    /// The thread pool could not be started.
    #[error("cannot start {threads} worker threads: {reason}")]
    Threads {
        /// The number of threads asked for.
        threads: usize,
        /// The thread pool's error, as text.
        reason: String,
    },
}

/// One unit of work: a playout or a set-up position, checked both ways. Returns the number of
/// positions compared.
fn one_case<A: Engine, B: Engine>(rng: &mut Rng, starts: &[Position]) -> Result<usize, Divergence> {
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
pub fn run_campaign<A: Engine, B: Engine>(
    opts: &CampaignOptions,
) -> Result<CampaignReport, CampaignError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build()
        .map_err(|e| CampaignError::Threads {
            threads: opts.threads,
            reason: e.to_string(),
        })?;
    let threads = pool.current_num_threads();
    let starts = reachable_starts();
    let start_time = Instant::now();
    let deadline = start_time.checked_add(opts.duration);
    let never = AtomicBool::new(false);
    let stop = opts.stop.unwrap_or(&never);
    let (checked, found_one) = (AtomicU64::new(0), AtomicBool::new(false));
    let working = || {
        !stop.load(Ordering::Relaxed)
            && !found_one.load(Ordering::Relaxed)
            && deadline.is_none_or(|d| Instant::now() < d)
    };
    let found: Vec<Divergence> = pool.install(|| {
        (0..threads as u64)
            .into_par_iter()
            .filter_map(|w| {
                let mut rng = Rng::new(opts.seed ^ w.wrapping_mul(0x9E37_79B9_7F4A_7C15));
                while working() {
                    match one_case::<A, B>(&mut rng, &starts) {
                        Ok(n) => {
                            let total = checked.fetch_add(n as u64, Ordering::Relaxed) + n as u64;
                            if let Some(report) = opts.progress {
                                report(total);
                            }
                        }
                        Err(d) => {
                            found_one.store(true, Ordering::Relaxed);
                            return Some(d);
                        }
                    }
                }
                None
            })
            .collect()
    });
    Ok(CampaignReport {
        seed: opts.seed,
        threads,
        checked: checked.load(Ordering::Relaxed),
        elapsed: start_time.elapsed(),
        interrupted: found.is_empty() && stop.load(Ordering::Relaxed),
        divergence: found.into_iter().next(),
    })
}
