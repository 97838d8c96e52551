//! The memory limits the system sets on this process, as they read now: the cgroup's limit,
//! the address-space limit (`RLIMIT_AS`) and the memory available. Each is `None` where the
//! system does not say (no cgroup limit, no `/proc`, WebAssembly in a browser); what a job
//! may use against them is the solver's to decide.

/// The cgroup limit of this process (v2 `memory.max` of its own cgroup, then of the root of
/// the mount; v1 `memory.limit_in_bytes`), bytes.
pub fn cgroup_limit() -> Option<u64> {
    let table = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    let mut paths = Vec::new();
    for line in table.lines() {
        if let Some(p) = line.strip_prefix("0::") {
            paths.push(format!("/sys/fs/cgroup{}/memory.max", p.trim()));
        } else if let Some((_, p)) = line.split_once(":memory:") {
            paths.push(format!(
                "/sys/fs/cgroup/memory{}/memory.limit_in_bytes",
                p.trim()
            ));
        }
    }
    paths.push("/sys/fs/cgroup/memory.max".into());
    paths.push("/sys/fs/cgroup/memory/memory.limit_in_bytes".into());
    paths
        .iter()
        .filter_map(|p| {
            let text = std::fs::read_to_string(p).ok()?;
            // "max" (v2) and v1's near-2^63 "unlimited" count as no limit.
            text.trim().parse::<u64>().ok().filter(|&b| b < 1 << 60)
        })
        .min()
}

/// The address-space limit of this process (`RLIMIT_AS`), if one is set, bytes.
#[cfg(unix)]
#[allow(unsafe_code)] // getrlimit(2): see the SAFETY comment below
pub fn address_space_limit() -> Option<u64> {
    let mut r = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes one rlimit into the struct it is given.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut r) } == 0;
    // rlim_t is u64 on Linux but not on every Unix.
    #[allow(clippy::unnecessary_cast)]
    (ok && r.rlim_cur != libc::RLIM_INFINITY).then_some(r.rlim_cur as u64)
}

/// The address-space limit of this process: none off Unix (WebAssembly in a browser).
#[cfg(not(unix))]
pub fn address_space_limit() -> Option<u64> {
    None
}

/// Memory available now, bytes (Linux: `MemAvailable` of `/proc/meminfo`).
pub fn available() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    kilobytes(&info, "MemAvailable:")
}

/// The figure of the line starting with `key` in a `/proc` table of kB values, in bytes.
pub(crate) fn kilobytes(table: &str, key: &str) -> Option<u64> {
    let line = table.lines().find(|l| l.starts_with(key))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_proc_table_line_reads_in_bytes() {
        let table = "MemTotal:  2048 kB\nMemAvailable:   1024 kB\n";
        assert_eq!(super::kilobytes(table, "MemAvailable:"), Some(1 << 20));
        assert_eq!(super::kilobytes(table, "VmHWM:"), None);
    }
}
