//! What this process has used so far: its CPU time and its peak resident memory, for the
//! timings and the reports of the command line and the solver.

use std::time::Duration;

/// The CPU time (user and system, all threads) this process has used so far; zero where the
/// system cannot tell.
#[allow(unsafe_code)] // getrusage(2): see the SAFETY comment below
pub fn cpu_time() -> Duration {
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

/// Peak resident memory of this process in bytes (Linux: `VmHWM` of `/proc/self/status`);
/// `None` where the system does not say.
pub fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    crate::memory::kilobytes(&status, "VmHWM:")
}

#[cfg(test)]
mod tests {
    /// Work done shows in the CPU time, which never goes back.
    #[test]
    fn cpu_time_grows_with_work() {
        let before = super::cpu_time();
        let mut x = 1u64;
        let start = std::time::Instant::now();
        while start.elapsed() < std::time::Duration::from_millis(50) {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
        }
        std::hint::black_box(x);
        assert!(super::cpu_time() > before);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn peak_memory_is_known_on_linux() {
        let peak = super::peak_memory().unwrap();
        assert!(peak > 1 << 20, "{peak}");
    }
}
