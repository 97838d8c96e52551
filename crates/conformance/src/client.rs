//! An external engine driven over the protocol of `spec/protocol.md`.
//!
//! The engine runs as `sh -c COMMAND` in a process group of its own, with its standard input,
//! output and error connected to pipes. A reader thread turns its output into lines on a
//! channel, so that every request waits at most the timeout (`recv_timeout`). What can go
//! wrong is told apart:
//! - **crash**: the engine closed its output (end of file) or its input; the exit status is
//!   reported when it has one;
//! - **hang**: no reply within the timeout; the engine's whole process group is killed;
//! - **garbage**: a reply that is not the protocol's answer to the request, or output nobody
//!   asked for;
//! - **endless line**: a reply that goes on past [`MAX_REPLY`] bytes without a line ending, or
//!   is still coming without one when the timeout ends; the engine is killed at once (the rest
//!   of the line is never waited for), and the bytes read are reported.
//!
//! The time spent waiting on replies that never came (hangs, endless lines) is summed in
//! [`Health::waited`]; `ordo conform` stops the run when it passes a bound.
//!
//! After a crash or a hang the engine is restarted (with a new handshake) on the next request.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use super::lines::{read_line, Line};
use super::protocol::{parse_handshake_reply, MAX_REPLY, VERSION};
use crate::notation::{echo_within, escape_lines};
use ordo_system::process;

/// What went wrong with a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The engine ended or closed its output.
    Crash(String),
    /// No reply within the timeout.
    Hang(String),
    /// A reply that does not fit the request.
    Garbage(String),
    /// A reply line without an end: over the limit, or unfinished at the timeout.
    Endless(String),
}

impl Failure {
    /// `crash`, `hang` or `garbage`.
    pub fn kind(&self) -> &'static str {
        match self {
            Failure::Crash(_) => "crash",
            Failure::Hang(_) => "hang",
            Failure::Garbage(_) => "garbage",
            Failure::Endless(_) => "endless-line",
        }
    }

    /// What happened, in words.
    pub fn detail(&self) -> &str {
        match self {
            Failure::Crash(d) | Failure::Hang(d) | Failure::Garbage(d) | Failure::Endless(d) => d,
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.kind(), self.detail())
    }
}

enum Msg {
    Line(String),
    /// A reply line went on past the limit without an end: the bytes read of it.
    Endless(u64),
    Eof,
    Error,
}

struct Proc {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Msg>,
    /// Bytes read so far of a reply line not ended yet (0 between lines).
    partial: Arc<AtomicU64>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
}

/// Counts of what went wrong during a session.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Health {
    /// Times the engine process died or closed its output mid-session.
    pub crashes: usize,
    /// Times the engine gave no answer within the timeout (it was then killed).
    pub hangs: usize,
    /// Replies that did not read as the protocol's answer to the request.
    pub garbage: usize,
    /// Reply lines without an end (the engine was then killed).
    pub endless_lines: usize,
    /// Times the engine was started again after one of the above.
    pub restarts: usize,
    /// Time spent waiting on replies that never came (hangs, endless lines).
    pub waited: Duration,
}

/// An external engine.
pub struct External {
    command: String,
    timeout: Duration,
    proc: Option<Proc>,
    /// The name the engine gave in its last handshake.
    pub name: String,
    /// What went wrong so far.
    pub health: Health,
    started_once: bool,
}

/// The command, timeout, name and health, and whether a process is running (its pipes and
/// reader thread have no `Debug`).
impl std::fmt::Debug for External {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("External")
            .field("command", &self.command)
            .field("timeout", &self.timeout)
            .field("running", &self.proc.is_some())
            .field("name", &self.name)
            .field("health", &self.health)
            .field("started_once", &self.started_once)
            .finish()
    }
}

/// Longest line of the engine's standard error kept for reports.
const STDERR_LINE: usize = 300;
/// Number of standard error lines kept.
const STDERR_LINES: usize = 5;

impl External {
    /// Start `sh -c command` and shake hands.
    pub fn start(command: &str, timeout: Duration) -> Result<External, Failure> {
        let mut e = External {
            command: command.to_string(),
            timeout,
            proc: None,
            name: String::new(),
            health: Health::default(),
            started_once: false,
        };
        e.ensure_running()?;
        Ok(e)
    }

    /// The command line.
    pub fn command(&self) -> &str {
        &self.command
    }

    fn spawn(&mut self) -> Result<(), Failure> {
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(&self.command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        process::own_group(&mut cmd);
        #[cfg(unix)]
        let window = signals::SpawnWindow::open();
        let mut child = cmd.spawn().map_err(|e| {
            Failure::Crash(format!("could not start `sh -c {}`: {e}", self.command))
        })?;
        #[cfg(unix)]
        {
            signals::register(child.id());
            drop(window);
        }
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        // A reply is awaited before the next request, so a few lines in flight are plenty; the
        // bound keeps an engine that floods its output from filling our memory.
        let (tx, rx) = mpsc::sync_channel::<Msg>(4);
        let partial = Arc::new(AtomicU64::new(0));
        let seen = Arc::clone(&partial);
        thread::spawn(move || read_replies(stdout, &tx, &seen));
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail2 = Arc::clone(&tail);
        thread::spawn(move || keep_stderr_tail(stderr, &tail2));
        self.proc = Some(Proc {
            child,
            stdin,
            lines: rx,
            partial,
            stderr_tail: tail,
        });
        Ok(())
    }

    /// Start (or restart) the engine if it is not running, and shake hands.
    pub fn ensure_running(&mut self) -> Result<(), Failure> {
        if self.proc.is_some() {
            return Ok(());
        }
        if self.started_once {
            self.health.restarts += 1;
        }
        self.started_once = true;
        self.spawn()?;
        let hello = format!("ordo {VERSION}");
        let reply = self.exchange(&hello)?;
        match parse_handshake_reply(&reply, VERSION) {
            Some(name) => {
                self.name = name;
                Ok(())
            }
            None => {
                self.health.garbage += 1;
                self.stop();
                Err(Failure::Garbage(format!(
                    "the handshake '{hello}' was answered '{}', not 'ordo {VERSION} ok name …'",
                    shorten(&reply)
                )))
            }
        }
    }

    /// Whether the engine process is running (as far as we know).
    pub fn is_running(&self) -> bool {
        self.proc.is_some()
    }

    /// Send one request and wait for its one reply line. A garbage reply is returned as it is;
    /// the caller judges it (and reports it with [`External::garbage`]).
    pub fn request(&mut self, line: &str) -> Result<String, Failure> {
        self.ensure_running()?;
        self.exchange(line)
    }

    /// Count a garbage reply and make a failure of it.
    pub fn garbage(&mut self, request: &str, reply: &str, expected: &str) -> Failure {
        self.health.garbage += 1;
        Failure::Garbage(format!(
            "'{}' was answered '{}', expected {expected}",
            shorten(request),
            shorten(reply)
        ))
    }

    fn exchange(&mut self, line: &str) -> Result<String, Failure> {
        let timeout = self.timeout;
        let Some(p) = self.proc.as_mut() else {
            return Err(Failure::Crash("the engine is not running".into()));
        };
        // Output nobody asked for is garbage; an end of file means the engine is gone.
        let mut unsolicited = None;
        loop {
            match p.lines.try_recv() {
                Ok(Msg::Line(l)) => {
                    unsolicited.get_or_insert(l);
                }
                Ok(Msg::Endless(bytes)) => {
                    return Err(self.endless(line, bytes, Instant::now(), true));
                }
                Ok(Msg::Eof) | Ok(Msg::Error) | Err(mpsc::TryRecvError::Disconnected) => {
                    return Err(self.crashed(&format!("before '{}'", shorten(line))));
                }
                Err(mpsc::TryRecvError::Empty) => break,
            }
        }
        if let Some(l) = unsolicited {
            self.health.garbage += 1;
            return Err(Failure::Garbage(format!(
                "the engine wrote '{}' without being asked (before '{}')",
                shorten(&l),
                shorten(line)
            )));
        }
        let sent = p
            .stdin
            .write_all(line.as_bytes())
            .and_then(|()| p.stdin.write_all(b"\n"))
            .and_then(|()| p.stdin.flush());
        if sent.is_err() {
            return Err(self.crashed(&format!("when sent '{}'", shorten(line))));
        }
        let asked = Instant::now();
        match p.lines.recv_timeout(timeout) {
            Ok(Msg::Line(l)) => Ok(l),
            Ok(Msg::Endless(bytes)) => Err(self.endless(line, bytes, asked, true)),
            Ok(Msg::Eof) | Ok(Msg::Error) | Err(RecvTimeoutError::Disconnected) => {
                Err(self.crashed(&format!("after '{}'", shorten(line))))
            }
            Err(RecvTimeoutError::Timeout) => {
                let bytes = p.partial.load(Ordering::SeqCst);
                if bytes > 0 {
                    return Err(self.endless(line, bytes, asked, false));
                }
                self.health.hangs += 1;
                self.health.waited += asked.elapsed();
                self.stop();
                Err(Failure::Hang(format!(
                    "no reply to '{}' within {} ms; the engine was killed",
                    shorten(line),
                    timeout.as_millis()
                )))
            }
        }
    }

    /// A reply to `line` without a line ending after `bytes` bytes (`past`: over the longest a
    /// reply may have): the engine is killed at once.
    fn endless(&mut self, line: &str, bytes: u64, asked: Instant, past: bool) -> Failure {
        let waited = asked.elapsed();
        self.health.endless_lines += 1;
        self.health.waited += waited;
        self.stop();
        let past = if past {
            format!(", past the {MAX_REPLY} a reply may have,")
        } else {
            String::new()
        };
        Failure::Endless(format!(
            "a line without end: {bytes} bytes{past} and no line ending after {} ms, in reply to '{}'; the engine was killed",
            waited.as_millis(),
            shorten(line)
        ))
    }

    /// The engine ended or closed its output: find out how, and forget it.
    fn crashed(&mut self, when: &str) -> Failure {
        self.health.crashes += 1;
        let mut how = "closed its output".to_string();
        if let Some(mut p) = self.proc.take() {
            let deadline = Instant::now() + Duration::from_millis(500);
            let mut status = None;
            while Instant::now() < deadline {
                match p.child.try_wait() {
                    Ok(Some(s)) => {
                        status = Some(s);
                        break;
                    }
                    Ok(None) => thread::sleep(Duration::from_millis(10)),
                    Err(_) => break,
                }
            }
            how = match status {
                Some(s) => match s.code() {
                    Some(c) => format!("exited with status {c}"),
                    None => format!("was ended by a signal ({s})"),
                },
                None => "closed its output but kept running (it was killed)".to_string(),
            };
            kill(&mut p);
            thread::sleep(Duration::from_millis(20));
            let tail = p
                .stderr_tail
                .lock()
                .map(|t| t.iter().cloned().collect::<Vec<_>>())
                .unwrap_or_default();
            if !tail.is_empty() {
                return Failure::Crash(format!(
                    "the engine {how} {when}; its last error output: {}",
                    tail.join(" | ")
                ));
            }
        }
        Failure::Crash(format!("the engine {how} {when}"))
    }

    /// Kill the engine (its whole process group) and forget it.
    pub fn stop(&mut self) {
        if let Some(mut p) = self.proc.take() {
            kill(&mut p);
        }
    }

    /// Say `quit`, give the engine a moment to leave, then make sure it is gone.
    pub fn quit(&mut self) {
        if let Some(p) = self.proc.as_mut() {
            let _ = p.stdin.write_all(b"quit\n").and_then(|()| p.stdin.flush());
            let deadline = Instant::now() + Duration::from_millis(500);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = p.child.try_wait() {
                    break;
                }
                thread::sleep(Duration::from_millis(10));
            }
        }
        self.stop();
    }
}

impl Drop for External {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Turn the engine's standard output into lines on `tx`, keeping at most [`MAX_REPLY`] bytes of
/// a line; a line that goes on past it is sent as [`Msg::Endless`] at once, and the reading
/// stops (the engine is killed). `partial` counts the bytes of a line not ended yet.
fn read_replies(stdout: impl Read, tx: &mpsc::SyncSender<Msg>, partial: &AtomicU64) {
    let mut r = BufReader::new(stdout);
    let mut buf = Vec::new();
    loop {
        let msg = match read_reply(&mut r, &mut buf, partial) {
            Ok(None) => Msg::Eof,
            Ok(Some(true)) => Msg::Line(String::from_utf8_lossy(&buf).into_owned()),
            Ok(Some(false)) => Msg::Endless(buf.len() as u64),
            Err(_) => Msg::Error,
        };
        let last = !matches!(msg, Msg::Line(_));
        partial.store(0, Ordering::SeqCst);
        if tx.send(msg).is_err() || last {
            return;
        }
    }
}

/// Read one reply line into `buf` (without its line ending): `Some(true)` a whole line,
/// `Some(false)` one that went on past [`MAX_REPLY`] bytes (read no further), `None` the end of
/// the output before a new line. `partial` follows the bytes read of the line.
fn read_reply(
    r: &mut impl BufRead,
    buf: &mut Vec<u8>,
    partial: &AtomicU64,
) -> std::io::Result<Option<bool>> {
    buf.clear();
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok((!buf.is_empty()).then_some(true));
        }
        let (part, used, ended) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], i + 1, true),
            None => (chunk, chunk.len(), false),
        };
        buf.extend_from_slice(part);
        r.consume(used);
        partial.store(buf.len() as u64, Ordering::SeqCst);
        if buf.len() > MAX_REPLY + 1 {
            return Ok(Some(false));
        }
        if ended {
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
            return Ok(Some(buf.len() <= MAX_REPLY));
        }
    }
}

/// Keep the last [`STDERR_LINES`] lines of the engine's standard error, each cut to
/// [`STDERR_LINE`] bytes (an endless line costs no more than that).
fn keep_stderr_tail(stderr: impl Read, tail: &Mutex<VecDeque<String>>) {
    let mut r = BufReader::new(stderr);
    let mut buf = Vec::new();
    loop {
        let cut = match read_line(&mut r, STDERR_LINE, &mut buf) {
            Ok(Line::End) | Err(_) => return,
            Ok(Line::Kept) => false,
            Ok(Line::TooLong { .. }) => true,
        };
        let mut s = String::from_utf8_lossy(&buf).into_owned();
        if cut {
            // A multi-byte character cut by the limit shows as U+FFFD: drop it.
            s.truncate(s.trim_end_matches('\u{fffd}').len());
            s.push('…');
        }
        if let Ok(mut t) = tail.lock() {
            t.push_back(s);
            while t.len() > STDERR_LINES {
                t.pop_front();
            }
        }
    }
}

fn kill(p: &mut Proc) {
    #[cfg(unix)]
    {
        signals::unregister(p.child.id());
        process::kill_group(p.child.id());
    }
    let _ = p.child.kill();
    let _ = p.child.wait();
}

/// SIGINT and SIGTERM while engines run: kill their process groups, then exit.
#[cfg(unix)]
pub mod signals {
    use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};

    /// Process groups of the engines running now (0: a free slot). A fixed array: the signal
    /// handler may only read atomics.
    static GROUPS: [AtomicI32; 16] = [const { AtomicI32::new(0) }; 16];
    /// Engines being started: spawned but perhaps not registered yet.
    static SPAWNING: AtomicUsize = AtomicUsize::new(0);
    /// A signal that arrived while an engine was being started (0: none).
    static PENDING: AtomicI32 = AtomicI32::new(0);

    /// The span from starting an engine to registering its process group. A signal in it is
    /// held until the group is registered, then acted on, so that an engine whose children
    /// start at once is never left running (under load the gap between the spawn and the
    /// registration can last long enough for its shell to start them).
    pub(super) struct SpawnWindow(());

    impl SpawnWindow {
        pub(super) fn open() -> SpawnWindow {
            SPAWNING.fetch_add(1, Ordering::SeqCst);
            SpawnWindow(())
        }
    }

    impl Drop for SpawnWindow {
        /// Close the window; a signal held in it is acted on now.
        fn drop(&mut self) {
            SPAWNING.fetch_sub(1, Ordering::SeqCst);
            let sig = PENDING.swap(0, Ordering::SeqCst);
            if sig != 0 {
                kill_and_exit(sig);
            }
        }
    }

    /// Note an engine's process group (its leader's pid).
    pub(super) fn register(pid: u32) {
        let Ok(pid) = i32::try_from(pid) else { return };
        for slot in &GROUPS {
            if slot
                .compare_exchange(0, pid, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return;
            }
        }
    }

    /// Forget an engine's process group (before it is killed and reaped).
    pub(super) fn unregister(pid: u32) {
        let Ok(pid) = i32::try_from(pid) else { return };
        for slot in &GROUPS {
            let _ = slot.compare_exchange(pid, 0, Ordering::SeqCst, Ordering::SeqCst);
        }
    }

    extern "C" fn on_signal(sig: std::ffi::c_int) {
        if SPAWNING.load(Ordering::SeqCst) > 0 {
            PENDING.store(sig, Ordering::SeqCst);
            // Still inside the window: its end acts on the signal. Otherwise the window
            // closed meanwhile (its group registered): act here.
            if SPAWNING.load(Ordering::SeqCst) > 0 {
                return;
            }
        }
        kill_and_exit(sig);
    }

    /// Kill every registered engine's process group and end with 128 + `sig`.
    fn kill_and_exit(sig: std::ffi::c_int) -> ! {
        for slot in &GROUPS {
            if let Ok(group) = u32::try_from(slot.load(Ordering::SeqCst)) {
                // Async-signal-safe: kill(2) alone.
                ordo_system::process::kill_group(group);
            }
        }
        crate::signals::say_and_exit(
            b"ordo: interrupted; the engine's process group was killed\n",
            128 + sig,
        );
    }

    /// From now on, SIGINT and SIGTERM kill the process groups of the running engines and end
    /// this process with the conventional status (130 for SIGINT, 143 for SIGTERM). For
    /// programs that drive engines (`ordo conform`); a library caller with signal handling of
    /// its own should not call it.
    pub fn kill_engines_on_signals() -> std::io::Result<()> {
        crate::signals::on(&ordo_system::process::STOP_SIGNALS, on_signal)
    }
}

/// `s` with every control, invisible or bidirectional character but the line feed written as
/// an escape (`\u{1b}`, `\u{202e}`), so that an engine's reply printed in a report can neither
/// clear the terminal nor hide or reorder text (the one routine, [`escape_lines`]).
pub fn escape(s: &str) -> String {
    escape_lines(s)
}

/// At most 120 characters of a line, for reports, escaped and cut with its length given (the
/// one routine, [`echo_within`]).
pub fn shorten(s: &str) -> String {
    echo_within(s, 120)
}
