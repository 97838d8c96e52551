//! Installing a handler for Unix signals: the one place the crate calls `sigaction(2)`. The
//! handlers themselves (the command line's default Ctrl-C, the conformance client's killing of
//! its engines) live with what they do, and may only call async-signal-safe functions.

/// A signal's number.
#[cfg(unix)]
pub type Signal = libc::c_int;

/// Ctrl-C (`SIGINT`).
#[cfg(unix)]
pub const INTERRUPT: Signal = libc::SIGINT;

/// A signal handler: it receives the signal number and may only call async-signal-safe
/// functions (`write(2)`, `kill(2)`, `_exit(2)`) and touch atomics.
#[cfg(unix)]
pub type Handler = extern "C" fn(Signal);

/// From now on, `handler` runs on each of `signals`, replacing what ran before; an error if
/// the system refuses one of them.
#[cfg(unix)]
#[allow(unsafe_code)] // sigaction(2): see the SAFETY comment below
pub fn on(signals: &[Signal], handler: Handler) -> std::io::Result<()> {
    for &sig in signals {
        // SAFETY: a zeroed sigaction is a valid value to fill in; the handler's contract
        // (async-signal-safe calls only) is stated on [`Handler`].
        let status = unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = handler as libc::sighandler_t;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(sig, &action, std::ptr::null_mut())
        };
        if status != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Write `msg` to stderr and end the process with `status`, from a signal handler.
#[cfg(unix)]
#[allow(unsafe_code)] // write(2) and _exit(2): see the SAFETY comment below
pub fn say_and_exit(msg: &'static [u8], status: i32) -> ! {
    // SAFETY: write(2) and _exit(2) are async-signal-safe; `msg` is a static buffer.
    unsafe {
        libc::write(2, msg.as_ptr().cast(), msg.len());
        libc::_exit(status)
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicI32, Ordering};

    static SEEN: AtomicI32 = AtomicI32::new(0);

    extern "C" fn note(sig: libc::c_int) {
        SEEN.store(sig, Ordering::SeqCst);
    }

    /// The handler installed runs when the signal arrives.
    #[test]
    #[allow(unsafe_code)] // raise(3): see the SAFETY comment below
    fn an_installed_handler_runs_on_its_signal() {
        on(&[libc::SIGUSR2], note).unwrap();
        // SAFETY: raise(3) delivers SIGUSR2 to this thread; `note` only stores an atomic.
        unsafe {
            libc::raise(libc::SIGUSR2);
        }
        assert_eq!(SEEN.load(Ordering::SeqCst), libc::SIGUSR2);
    }

    /// A signal that cannot be caught is refused with the system's error.
    #[test]
    fn an_uncatchable_signal_is_refused() {
        assert!(on(&[libc::SIGKILL], note).is_err());
    }
}
