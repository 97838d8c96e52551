//! Timings that say which they are: every time the command line prints is
//! the wall-clock time and the CPU time of the process over the same span, `12.3 s wall, 11.9 s
//! CPU`, so that a figure measured on a busy machine can be compared with one in the README.

use std::time::{Duration, Instant};

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
            cpu: crate::usage::cpu_time(),
        }
    }

    /// Wall-clock time since the start.
    pub fn wall(&self) -> Duration {
        self.wall.elapsed()
    }

    /// CPU time the process used since the start.
    pub fn cpu(&self) -> Duration {
        crate::usage::cpu_time().saturating_sub(self.cpu)
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
