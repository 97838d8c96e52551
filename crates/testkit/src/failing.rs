//! Engines that fail on one kind of request: a correct engine (the planted engine with no
//! plant) whose input passes through [`Failing`], which lets every request through except those
//! of one kind, on which the engine crashes, hangs, answers garbage or writes a line that never
//! ends. `ordo conform` must report each as the engine's health, never as a rules finding, and
//! end with exit status 3. Served by the example `planted-engine` under the names
//! `crash-on-REQUEST`, `hang-on-REQUEST`, `garbage-on-REQUEST` and `endless-line-on-REQUEST`
//! (`REQUEST`: the first word of the request, `ordo` for the handshake).

use std::io::{self, BufRead, Read, Write};

/// What the engine does on the chosen request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Exits at once with status 3.
    Crash,
    /// Never answers (sleeps until killed).
    Hang,
    /// Answers a line that is no reply of the protocol.
    Garbage,
    /// Writes bytes without end and no line ending.
    EndlessLine,
}

impl Fault {
    /// Every fault, in the order of their names' prefixes.
    pub const ALL: [Fault; 4] = [
        Fault::Crash,
        Fault::Hang,
        Fault::Garbage,
        Fault::EndlessLine,
    ];

    /// The prefix of the engine's name: `crash-on-`, …
    pub fn prefix(self) -> &'static str {
        match self {
            Fault::Crash => "crash-on-",
            Fault::Hang => "hang-on-",
            Fault::Garbage => "garbage-on-",
            Fault::EndlessLine => "endless-line-on-",
        }
    }
}

/// The requests of the protocol by their first word (`ordo`: the handshake).
pub const REQUESTS: [&str; 8] = [
    "ordo",
    "capabilities",
    "position",
    "game",
    "moves",
    "status",
    "play",
    "show",
];

/// A fault on one kind of request: `crash-on-play` and the like.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailOn {
    pub fault: Fault,
    /// The first word of the requests that fail.
    pub request: String,
}

impl FailOn {
    /// Read a name such as `hang-on-game`; `None` for anything else.
    pub fn parse(name: &str) -> Option<FailOn> {
        Fault::ALL.into_iter().find_map(|fault| {
            let request = name.strip_prefix(fault.prefix())?;
            REQUESTS.contains(&request).then(|| FailOn {
                fault,
                request: request.to_string(),
            })
        })
    }

    /// The name it is read from.
    pub fn name(&self) -> String {
        format!("{}{}", self.fault.prefix(), self.request)
    }
}

/// The engine's input, one line at a time, with the fault acted out on the chosen requests (the
/// conform side sends a request only after the reply to the last one, so a line at a time is
/// what the engine would read anyway).
#[derive(Debug)]
pub struct Failing<R> {
    input: R,
    fail: FailOn,
    line: Vec<u8>,
    at: usize,
}

impl<R: BufRead> Failing<R> {
    pub fn new(input: R, fail: FailOn) -> Failing<R> {
        Failing {
            input,
            fail,
            line: Vec::new(),
            at: 0,
        }
    }

    /// Read the next line to pass on, acting out the fault on each chosen request.
    fn refill(&mut self) -> io::Result<()> {
        loop {
            self.line.clear();
            self.at = 0;
            if self.input.read_until(b'\n', &mut self.line)? == 0 {
                return Ok(());
            }
            let first = self.line.split(|b| b.is_ascii_whitespace()).next();
            if first != Some(self.fail.request.as_bytes()) {
                return Ok(());
            }
            act_out(self.fail.fault)?;
        }
    }
}

/// Act out `fault` on standard output; returns only after a garbage answer.
fn act_out(fault: Fault) -> io::Result<()> {
    let mut out = io::stdout();
    match fault {
        Fault::Crash => std::process::exit(3),
        Fault::Hang => loop {
            std::thread::sleep(std::time::Duration::from_secs(3600));
        },
        Fault::Garbage => out.write_all(b"banana\n").and_then(|()| out.flush()),
        Fault::EndlessLine => {
            let chunk = [b'x'; 64 * 1024];
            loop {
                // The reader gone, the engine ends.
                if out.write_all(&chunk).and_then(|()| out.flush()).is_err() {
                    std::process::exit(0);
                }
            }
        }
    }
}

impl<R: BufRead> Read for Failing<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = {
            let have = self.fill_buf()?;
            let n = have.len().min(buf.len());
            buf[..n].copy_from_slice(&have[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Failing<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.at >= self.line.len() {
            self.refill()?;
        }
        Ok(&self.line[self.at..])
    }

    fn consume(&mut self, n: usize) {
        self.at = (self.at + n).min(self.line.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_and_only_known_requests_are_taken() {
        for fault in Fault::ALL {
            for request in REQUESTS {
                let f = FailOn::parse(&format!("{}{request}", fault.prefix())).unwrap();
                assert_eq!((f.fault, f.request.as_str()), (fault, request));
                assert_eq!(FailOn::parse(&f.name()), Some(f));
            }
        }
        assert_eq!(FailOn::parse("crash-on-dance"), None);
        assert_eq!(FailOn::parse("crash-on-"), None);
    }

    #[test]
    fn other_requests_pass_through_line_by_line() {
        let fail = FailOn::parse("garbage-on-play").unwrap();
        let mut f = Failing::new(&b"moves\nstatus\n"[..], fail);
        let mut got = String::new();
        f.read_to_string(&mut got).unwrap();
        assert_eq!(got, "moves\nstatus\n");
    }
}
