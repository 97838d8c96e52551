//! What the Ordo programs need from the operating system, kept apart so that the rules, the
//! engines and the adjudicator make no system call (they also build for WebAssembly):
//!
//! - [`files`]: atomic file writes that refuse to replace anything but a regular file and clean
//!   up after killed writers, and reads of input files within a size and time bound;
//! - [`signals`]: installing Unix signal handlers (Ctrl-C, TERM), the one home of `sigaction`;
//! - [`memory`]: the memory limits the system sets (cgroup, `RLIMIT_AS`, memory available);
//! - [`process`]: child processes in process groups of their own, killed a group at once;
//! - [`usage`]: what this process has used (CPU time, peak resident memory).

pub mod files;
pub mod memory;
pub mod process;
pub mod signals;
pub mod usage;
