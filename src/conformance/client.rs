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
//!   asked for.
//!
//! After a crash or a hang the engine is restarted (with a new handshake) on the next request.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use super::protocol::{parse_handshake_reply, MAX_REPLY, VERSION};

/// What went wrong with a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The engine ended or closed its output.
    Crash(String),
    /// No reply within the timeout.
    Hang(String),
    /// A reply that does not fit the request.
    Garbage(String),
}

impl Failure {
    /// `crash`, `hang` or `garbage`.
    pub fn kind(&self) -> &'static str {
        match self {
            Failure::Crash(_) => "crash",
            Failure::Hang(_) => "hang",
            Failure::Garbage(_) => "garbage",
        }
    }

    /// What happened, in words.
    pub fn detail(&self) -> &str {
        match self {
            Failure::Crash(d) | Failure::Hang(d) | Failure::Garbage(d) => d,
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
    Eof,
    Error,
}

struct Proc {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Msg>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
}

/// Counts of what went wrong during a session.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Health {
    pub crashes: usize,
    pub hangs: usize,
    pub garbage: usize,
    pub restarts: usize,
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
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd.spawn().map_err(|e| {
            Failure::Crash(format!("could not start `sh -c {}`: {e}", self.command))
        })?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let (tx, rx) = mpsc::sync_channel::<Msg>(256);
        thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut buf = Vec::new();
                match r
                    .by_ref()
                    .take(MAX_REPLY as u64 + 1)
                    .read_until(b'\n', &mut buf)
                {
                    Ok(0) => {
                        let _ = tx.send(Msg::Eof);
                        return;
                    }
                    Ok(_) => {
                        let line = if buf.len() > MAX_REPLY {
                            let mut rest = Vec::new();
                            let _ = r.read_until(b'\n', &mut rest);
                            format!("<a line of more than {MAX_REPLY} bytes>")
                        } else {
                            while buf.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
                                buf.pop();
                            }
                            String::from_utf8_lossy(&buf).into_owned()
                        };
                        if tx.send(Msg::Line(line)).is_err() {
                            return;
                        }
                    }
                    Err(_) => {
                        let _ = tx.send(Msg::Error);
                        return;
                    }
                }
            }
        });
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail2 = Arc::clone(&tail);
        thread::spawn(move || {
            let r = BufReader::new(stderr);
            for line in r.split(b'\n') {
                let Ok(line) = line else { return };
                let mut s = String::from_utf8_lossy(&line).into_owned();
                if s.len() > STDERR_LINE {
                    let mut cut = STDERR_LINE;
                    while !s.is_char_boundary(cut) {
                        cut -= 1;
                    }
                    s.truncate(cut);
                    s.push('…');
                }
                if let Ok(mut t) = tail2.lock() {
                    t.push_back(s);
                    while t.len() > STDERR_LINES {
                        t.pop_front();
                    }
                }
            }
        });
        self.proc = Some(Proc {
            child,
            stdin,
            lines: rx,
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
        match p.lines.recv_timeout(timeout) {
            Ok(Msg::Line(l)) => Ok(l),
            Ok(Msg::Eof) | Ok(Msg::Error) | Err(RecvTimeoutError::Disconnected) => {
                Err(self.crashed(&format!("after '{}'", shorten(line))))
            }
            Err(RecvTimeoutError::Timeout) => {
                self.health.hangs += 1;
                self.stop();
                Err(Failure::Hang(format!(
                    "no reply to '{}' within {} ms; the engine was killed",
                    shorten(line),
                    timeout.as_millis()
                )))
            }
        }
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

fn kill(p: &mut Proc) {
    #[cfg(unix)]
    kill_group(p.child.id());
    let _ = p.child.kill();
    let _ = p.child.wait();
}

/// Kill the process group the engine was started in (the shell and everything it started).
#[cfg(unix)]
fn kill_group(pid: u32) {
    extern "C" {
        fn kill(pid: i32, sig: i32) -> i32;
    }
    const SIGKILL: i32 = 9;
    if let Ok(pid) = i32::try_from(pid) {
        // SAFETY: kill(2) with a negative pid signals the process group we created for the
        // engine (`process_group(0)` made the child its leader); it touches no memory.
        unsafe {
            kill(-pid, SIGKILL);
        }
    }
}

/// At most 120 characters of a line, for reports.
pub fn shorten(s: &str) -> String {
    const MAX: usize = 120;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        let cut: String = s.chars().take(MAX).collect();
        format!("{cut}… ({} characters)", s.chars().count())
    }
}
