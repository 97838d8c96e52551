//! How much memory this process may use: the smallest of the limit asked for, the cgroup's
//! `memory.max` (v2) or `memory.limit_in_bytes` (v1), the address-space limit
//! (`RLIMIT_AS`) and the memory available now (`MemAvailable`), as `ordo_system::memory`
//! reads them. Every up-front size check
//! of the solver compares its estimate with this, so that a job that cannot fit is refused
//! at once with both figures named, instead of being killed hours later.

use ordo_system::memory as system;

/// A memory limit and where it comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// Bytes.
    pub bytes: u64,
    /// What sets it.
    pub source: Source,
}

/// What sets a memory limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The caller's own limit; a front end names it in its terms ([`super::Names`]).
    Asked,
    /// The cgroup's `memory.max` (or v1 `memory.limit_in_bytes`).
    Cgroup,
    /// The address-space limit `RLIMIT_AS`.
    AddressSpace,
    /// `MemAvailable` now.
    Available,
}

impl Limit {
    /// `1.1 GB (cgroup memory.max)`, the limit asked for named as `names` say.
    pub fn describe(&self, names: &super::Names) -> String {
        let source = match self.source {
            Source::Asked => names.asked_limit,
            Source::Cgroup => "cgroup memory.max",
            Source::AddressSpace => "RLIMIT_AS",
            Source::Available => "available memory",
        };
        format!("{} ({source})", human(self.bytes))
    }
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe(&super::Names::LIBRARY))
    }
}

/// What a job needs, as a refusal states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Need {
    /// Bytes.
    pub bytes: u64,
    /// Whether `bytes` is a lower bound (the sizing stopped once past the limit).
    pub at_least: bool,
}

impl Need {
    /// `about 867 MB`, `over 120 MB`, the bytes as `size` writes them.
    pub fn describe(&self, size: &dyn Fn(u64) -> String) -> String {
        let how = if self.at_least { "over" } else { "about" };
        format!("{how} {}", size(self.bytes))
    }
}

/// Bytes as `1.5 GB`, `320 MB`, `12 KB`, `1 byte`, `40 bytes`.
pub fn human(bytes: u64) -> String {
    let b = bytes as f64;
    if b >= 1e9 {
        format!("{:.1} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.0} MB", b / 1e6)
    } else if b >= 1e3 {
        format!("{:.0} KB", b / 1e3)
    } else {
        ordo_core::text::count(bytes, "byte")
    }
}

/// The tightest of `asked` and the limits the system sets; `None` if nothing is known.
pub fn effective(asked: Option<u64>) -> Option<Limit> {
    let candidates = [
        asked.map(|bytes| Limit {
            bytes,
            source: Source::Asked,
        }),
        system::cgroup_limit().map(|bytes| Limit {
            bytes,
            source: Source::Cgroup,
        }),
        system::address_space_limit().map(|bytes| Limit {
            bytes,
            source: Source::AddressSpace,
        }),
        system::available().map(|bytes| Limit {
            bytes,
            source: Source::Available,
        }),
    ];
    candidates.into_iter().flatten().min_by_key(|l| l.bytes)
}

/// Refuse `what` if `estimate` bytes exceed `limit`.
pub fn check(what: &str, estimate: u64, limit: Option<&Limit>) -> Result<(), super::SolveError> {
    match limit {
        Some(l) if estimate > l.bytes => Err(super::SolveError::needs_memory(
            format!("{what} needs"),
            Need {
                bytes: estimate,
                at_least: false,
            },
            l,
        )),
        _ => Ok(()),
    }
}
