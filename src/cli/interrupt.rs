//! Ctrl-C for the long commands (`perft`, `fuzz`): the first press asks the running command to
//! stop and report what it did; a second one ends the process at once. Both end with exit
//! status 130, the shell's convention for an interrupt. Other commands keep the default
//! behaviour (Ctrl-C ends them at once).

use std::sync::atomic::{AtomicBool, Ordering};

use super::CliError;

/// Exit status of a command stopped by Ctrl-C.
pub const INTERRUPTED: u8 = 130;

static STOP: AtomicBool = AtomicBool::new(false);

/// Catch Ctrl-C from now on; the flag returned becomes true at the first press.
pub fn catch() -> Result<&'static AtomicBool, CliError> {
    ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(i32::from(INTERRUPTED));
        }
    })
    .map_err(|e| CliError(format!("cannot catch Ctrl-C: {e}")))?;
    Ok(&STOP)
}
