//! Ctrl-C for the long commands (`perft`, `fuzz`, and the compact solver's `solve`, `tb build`
//! and `tb job`): the first press asks the running command to stop and report what it did
//! (the solver at the next layer group, keeping what it finished); a second one ends the
//! process at once. Both end with exit status 130, the shell's convention for an interrupt.
//! SIGTERM and SIGHUP count as Ctrl-C there (ctrlc's `termination` feature): a scheduler
//! sends SIGTERM at a job's time limit. Every other command ends at once on Ctrl-C, with one
//! line on stderr and the same exit status ([`by_default`]); `ordo conform` also kills the
//! engines it runs.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

use super::CliError;
use crate::solve::{Phase, Progress, SolveError, Stage};

/// Exit status of a command stopped by Ctrl-C.
pub const INTERRUPTED: u8 = 130;

static STOP: AtomicBool = AtomicBool::new(false);
static CAUGHT: OnceLock<Result<(), String>> = OnceLock::new();

/// Catch Ctrl-C from now on; the flag returned becomes true at the first press. Calling it
/// again (another command in the same process) returns the same flag.
pub fn catch() -> Result<&'static AtomicBool, CliError> {
    CAUGHT
        .get_or_init(|| {
            ctrlc::set_handler(|| {
                if STOP.swap(true, Ordering::SeqCst) {
                    std::process::exit(i32::from(INTERRUPTED));
                }
            })
            .map_err(|e| format!("cannot catch Ctrl-C: {e}"))
        })
        .clone()
        .map_err(CliError)?;
    Ok(&STOP)
}

/// A [`Progress`] that shows through `inner` and asks the solver to stop once `flag` is set.
pub struct Stoppable<'a> {
    pub inner: &'a dyn Progress,
    pub flag: &'a AtomicBool,
}

impl Progress for Stoppable<'_> {
    fn update(&self, phase: Phase, done: u64, total: Option<u64>) {
        self.inner.update(phase, done, total);
    }
    fn note(&self, text: &str) {
        self.inner.note(text);
    }
    fn begin(&self, step: &Stage) {
        self.inner.begin(step);
    }
    fn stop_requested(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }
}

/// The exit status of a solver stopped by Ctrl-C (or SIGTERM), after one line said through
/// `say` (stderr, once any progress bar is cleared: [`super::bar::Bar::say_after`]) telling
/// what was kept and that running `again` resumes; any other error as `other` words it.
pub fn stopped(
    e: SolveError,
    again: &str,
    other: impl FnOnce(SolveError) -> CliError,
    say: impl FnOnce(&str),
) -> Result<u8, CliError> {
    match e {
        SolveError::Interrupted(what) => {
            say(&format!("ordo: interrupted: {what}; {again} resumes there"));
            Ok(INTERRUPTED)
        }
        e => Err(other(e)),
    }
}

/// From now on, until a command catches Ctrl-C itself ([`catch`]), Ctrl-C ends the process
/// at once with one line on stderr and exit status 130 (rather than silently).
#[cfg(unix)]
pub fn by_default() {
    extern "C" fn on_sigint(_sig: crate::signals::Signal) {
        crate::signals::say_and_exit(
            b"ordo: interrupted before the command finished; nothing more was written\n",
            i32::from(INTERRUPTED),
        );
    }
    // Without the handler Ctrl-C still ends the process, only silently.
    let _ = crate::signals::on(&[crate::signals::INTERRUPT], on_sigint);
}

/// Ctrl-C keeps the system's behaviour where there are no Unix signals.
#[cfg(not(unix))]
pub fn by_default() {}
