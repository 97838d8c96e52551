//! Timings that say which they are: every time the command line prints is
//! the wall-clock time and the CPU time of the process over the same span, `12.3 s wall, 11.9 s
//! CPU`, so that a figure measured on a busy machine can be compared with one in the README.

use std::time::{Duration, Instant};

/// The CPU time (user and system, all threads) the process has used so far; zero where the
/// system cannot tell.
#[allow(unsafe_code)] // getrusage(2): see the SAFETY comment below
pub fn process_cpu() -> Duration {
    #[cfg(unix)]
    {
        // SAFETY: getrusage only writes the struct it is given, which is zeroed and owned here.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } == 0 {
            let tv = |t: libc::timeval| {
                Duration::from_secs(t.tv_sec.max(0) as u64)
                    + Duration::from_micros(t.tv_usec.max(0) as u64)
            };
            return tv(usage.ru_utime) + tv(usage.ru_stime);
        }
    }
    Duration::ZERO
}

/// A span of work being timed: wall clock and process CPU since [`Clock::start`].
#[derive(Debug, Clone, Copy)]
pub struct Clock {
    wall: Instant,
    cpu: Duration,
}

impl Clock {
    /// Start timing now.
    pub fn start() -> Clock {
        Clock {
            wall: Instant::now(),
            cpu: process_cpu(),
        }
    }

    /// Wall-clock time since the start.
    pub fn wall(&self) -> Duration {
        self.wall.elapsed()
    }

    /// CPU time the process used since the start.
    pub fn cpu(&self) -> Duration {
        process_cpu().saturating_sub(self.cpu)
    }

    /// `12.30 s wall, 11.90 s CPU`, with `decimals` digits after the point.
    pub fn text(&self, decimals: usize) -> String {
        timing(self.wall(), self.cpu(), decimals)
    }
}

/// `wall` and `cpu` in words: `12.3 s wall, 11.9 s CPU`.
pub fn timing(wall: Duration, cpu: Duration, decimals: usize) -> String {
    format!(
        "{:.decimals$} s wall, {:.decimals$} s CPU",
        wall.as_secs_f64(),
        cpu.as_secs_f64()
    )
}
