//! Child processes in groups of their own: a command started as the leader of a new process
//! group, and that whole group (a shell and everything it started) killed at once, from normal
//! code or from a signal handler.

use std::process::Command;

/// The signals that ask a program to stop: SIGINT (Ctrl-C) and SIGTERM. A program that starts
/// process groups kills them on these (with [`kill_group`]) before it ends.
#[cfg(unix)]
pub const STOP_SIGNALS: [std::ffi::c_int; 2] = [libc::SIGINT, libc::SIGTERM];

/// Make `cmd` start its child as the leader of a new process group, so that [`kill_group`]
/// with the child's id reaches everything the child starts. Does nothing off Unix.
pub fn own_group(cmd: &mut Command) -> &mut Command {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    cmd
}

/// Send SIGKILL to the process group led by `leader` (a child started with [`own_group`]).
/// Async-signal-safe (it calls kill(2) alone), so a signal handler may call it. An id that is
/// no process id (0, or beyond the system's range) is ignored.
#[cfg(unix)]
#[allow(unsafe_code)] // kill(2): see the SAFETY comment below
pub fn kill_group(leader: u32) {
    let Ok(pid) = libc::pid_t::try_from(leader) else {
        return;
    };
    if pid > 0 {
        // SAFETY: kill(2) with a negative pid signals the process group led by `pid`; it
        // touches no memory.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;

    /// Killing the group of a shell kills the shell and what it started: the shell's pipe
    /// closes only when its background child has died too.
    #[test]
    fn kill_group_ends_the_leader_and_its_children() {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "sleep 30 & sleep 30"])
            .stdout(Stdio::piped());
        let child = own_group(&mut cmd).spawn().expect("start sh");
        kill_group(child.id());
        let out = child.wait_with_output().expect("wait for sh");
        assert_eq!(out.status.signal(), Some(libc::SIGKILL));
    }

    /// Ids that name no process are ignored, not sent to every process (kill(-0) would signal
    /// our own group).
    #[test]
    fn kill_group_ignores_ids_that_are_no_process() {
        kill_group(0);
        kill_group(u32::MAX);
    }
}
