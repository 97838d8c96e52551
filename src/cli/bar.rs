//! The solver's progress as people read it, on a terminal and in a log: the library reports typed
//! events ([`Progress`]: steps, phases, counts in a named unit) and this draws them with
//! indicatif on stderr, one line rendered by [`line()`] (a pure function the tests call): the
//! step as `slice k of n`, the phase, whole-number counts and rate in their unit, the time
//! left for the phase and for the whole run. A new step starts from zero under its own name,
//! and [`Bar::say_after`] clears the bar before a last message, so that message stays.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::solve::{Phase, Progress, Stage};

/// What one line of progress shows.
#[derive(Clone, Debug, PartialEq)]
pub struct View<'a> {
    /// The step under way, if the run announced one.
    pub step: Option<&'a Stage>,
    pub phase: Phase,
    pub done: u64,
    pub total: Option<u64>,
    /// Units a second in this phase, once measured.
    pub rate: Option<f64>,
    /// The run's work done and in all (units of [`crate::solve::RunWork`]), and its rate.
    pub run: Option<(u64, u64)>,
    pub run_rate: Option<f64>,
}

/// `1,234,567`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A time left in words, whole units: `45 s`, `12 min`, `3 h 20 min`, `2 days 4 h`.
pub fn span(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    match s {
        0..=59 => format!("{s} s"),
        60..=3599 => format!("{} min", s.div_ceil(60)),
        3600..=86_399 => format!("{} h {} min", s / 3600, s % 3600 / 60),
        _ => format!("{} days {} h", s / 86_400, s % 86_400 / 3600),
    }
}

/// The progress lines of `v`, two so that each fits a narrow terminal: what is under way
/// and the whole run (`slice 3 of 6 (3v2), building; whole run 40% done, about 4 s left`),
/// then the phase's counts (`1,234 of 2,126 stored positions (58%), 36,030 a second, about
/// 1 s left`).
pub fn line(v: &View) -> String {
    let mut head = match v.step {
        Some(s) if s.of > 1 => format!("{} of {} ({}), ", word(s), s.of, slice_name(s)),
        Some(s) => format!("{}, ", s.what),
        None => String::new(),
    };
    head.push_str(v.phase.name);
    if let Some((done, total)) = v.run.filter(|&(_, t)| t > 0) {
        let pct = done.min(total) * 100 / total;
        head.push_str(&format!("; whole run {pct}% done"));
        if let Some(r) = v.run_rate.filter(|r| *r >= 0.5) {
            let left = span(total.saturating_sub(done) as f64 / r);
            head.push_str(&format!(", about {left} left"));
        }
    }
    let mut counts = match v.total {
        Some(t) => format!(
            "{} of {} {} ({}%)",
            grouped(v.done),
            grouped(t),
            v.phase.unit,
            v.done.min(t) * 100 / t.max(1)
        ),
        None => format!("{} {}", grouped(v.done), v.phase.unit),
    };
    if let Some(r) = v.rate.filter(|r| *r >= 0.5) {
        counts.push_str(&format!(", {} a second", grouped(r.round() as u64)));
        if let Some(t) = v.total {
            let left = span(t.saturating_sub(v.done) as f64 / r);
            counts.push_str(&format!(", about {left} left"));
        }
    }
    format!("{head}\n  {counts}")
}

/// `slice 3` of `slice 3v2`: the kind of step and its number.
fn word(s: &Stage) -> String {
    let kind = s.what.split_whitespace().next().unwrap_or("step");
    format!("{kind} {}", s.number)
}

/// `3v2` of `slice 3v2`.
fn slice_name(s: &Stage) -> &str {
    s.what.split_once(' ').map_or(&s.what, |(_, name)| name)
}

/// Where a phase stands: when it began and its count then, its count now.
#[derive(Clone, Debug)]
struct Now {
    phase: Phase,
    start: (Instant, u64),
    done: u64,
    total: Option<u64>,
}

/// What the bar knows of the run: it turns the counts of [`Progress`] into the line to show.
#[derive(Default, Debug)]
pub struct State {
    step: Option<Stage>,
    now: Option<Now>,
    /// Units of the step's finished phases.
    step_done: u64,
    /// Units this run did, and since when.
    worked: u64,
    since: Option<Instant>,
}

impl State {
    /// A new step: the run's rate carries on; the step's counts start from zero under its
    /// name.
    pub fn begin(&mut self, step: &Stage) {
        (self.step, self.now, self.step_done) = (Some(step.clone()), None, 0);
    }

    /// Take `done` of `total` units of `phase` in; the line to show.
    pub fn update(&mut self, phase: Phase, done: u64, total: Option<u64>) -> String {
        let at = Instant::now();
        match &mut self.now {
            Some(n) if n.phase == phase => {
                self.worked += done.saturating_sub(n.done);
                (n.done, n.total) = (done, total);
            }
            n => {
                // A new phase: its first count is where it starts (work resumed, not done now).
                self.step_done += n.as_ref().map_or(0, |n| n.done);
                *n = Some(Now {
                    phase,
                    start: (at, done),
                    done,
                    total,
                });
            }
        }
        let since = *self.since.get_or_insert(at);
        let n = self.now.as_ref().expect("set above");
        let per = |units: u64, from: Instant| {
            let secs = at.duration_since(from).as_secs_f64();
            (secs >= 0.5 && units > 0).then(|| units as f64 / secs)
        };
        let run = self.step.as_ref().and_then(|s| s.run);
        line(&View {
            step: self.step.as_ref(),
            phase,
            done,
            total,
            rate: per(done.saturating_sub(n.start.1), n.start.0),
            run: run.map(|r| (r.before + self.step_done + done, r.total)),
            run_rate: per(self.worked, since),
        })
    }
}

/// The solver's [`Progress`] drawn with indicatif: a spinner and the line [`line()`]
/// renders; notices as lines of their own above it. When stderr is no terminal (a run under
/// `nohup`, a scheduler, a pipe into a log) the bar is hidden and the same line is written
/// as plain text instead, once the run is [`LOG_EVERY`] old: when a phase starts and then
/// every [`LOG_EVERY`]. A run of days leaves a log saying where it stands; a run of seconds
/// leaves none.
pub struct Bar {
    bar: indicatif::ProgressBar,
    state: Mutex<State>,
    /// Where [`Bar::say_after`] and notices go once the bar is out of the way (stderr).
    say: Arc<dyn Fn(&str) + Send + Sync>,
    /// Plain lines instead of a bar: when, and the phase and time of the last one.
    log: Option<(Logging, Mutex<(String, Instant)>)>,
}

/// The counts and the logging; the progress bar and the notice writer (a closure) are left out.
impl std::fmt::Debug for Bar {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bar")
            .field("state", &self.state)
            .field("log", &self.log)
            .finish_non_exhaustive()
    }
}

/// How often a run whose stderr is no terminal writes its progress line.
pub const LOG_EVERY: Duration = Duration::from_secs(60);

/// When a [`Bar`] without a terminal writes its lines.
#[derive(Clone, Copy, Debug)]
pub struct Logging {
    /// Nothing before the run is this old.
    pub quiet: Duration,
    /// Then a line when a step or phase starts, and after this long without one.
    pub every: Duration,
}

/// The two lines of [`line()`] as one, for a log: `slice 3 of 6 (3v2), building; …: 1,234
/// of …`.
pub fn flat(text: &str) -> String {
    text.replace("\n  ", ": ")
}

impl Default for Bar {
    fn default() -> Self {
        Self::new()
    }
}

impl Bar {
    /// On stderr: a bar on a terminal, otherwise a plain line every [`LOG_EVERY`].
    pub fn new() -> Bar {
        use std::io::IsTerminal as _;
        let say = Arc::new(|t: &str| eprintln!("{t}"));
        if std::io::stderr().is_terminal() {
            Bar::with(indicatif::ProgressDrawTarget::stderr(), say)
        } else {
            let when = Logging {
                quiet: LOG_EVERY,
                every: LOG_EVERY,
            };
            Bar::logging(when, say)
        }
    }

    /// No bar: the progress line through `say` as `when` says.
    pub fn logging(when: Logging, say: Arc<dyn Fn(&str) + Send + Sync>) -> Bar {
        let mut bar = Bar::with(indicatif::ProgressDrawTarget::hidden(), say);
        bar.log = Some((when, Mutex::new((String::new(), Instant::now()))));
        bar
    }

    /// On `target`, messages through `say` (the tests draw into memory).
    pub fn with(
        target: indicatif::ProgressDrawTarget,
        say: Arc<dyn Fn(&str) + Send + Sync>,
    ) -> Bar {
        let bar = indicatif::ProgressBar::with_draw_target(None, target);
        if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {msg}") {
            bar.set_style(style);
        }
        bar.enable_steady_tick(Duration::from_millis(250));
        Bar {
            bar,
            state: Mutex::new(State::default()),
            say,
            log: None,
        }
    }

    /// Draw the bar now (the steady tick draws it every 250 ms).
    pub fn tick(&self) {
        self.bar.tick();
    }

    /// Run `f` with the bar out of the way (a line written to stdout while a bar is drawn on
    /// the same terminal would be torn by it).
    pub fn above<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// Clear the bar for good.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }

    /// Clear the bar for good, then say `text`: the last words of a run (an interruption,
    /// with where its work is kept) stay on screen.
    pub fn say_after(&self, text: &str) {
        self.finish();
        (self.say)(text);
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// In a log, write `text` (the progress line of `phase`) once the run is past its quiet
    /// time, if its phase is new or the last line is a period old.
    fn log(&self, phase: &str, text: &str) {
        let Some((when, last)) = &self.log else {
            return;
        };
        let since = self.state().since;
        let now = Instant::now();
        if since.is_none_or(|t| now.duration_since(t) < when.quiet) {
            return;
        }
        let mut last = last.lock().unwrap_or_else(|p| p.into_inner());
        if last.0 != phase || now.duration_since(last.1) >= when.every {
            *last = (phase.to_string(), now);
            drop(last);
            (self.say)(&format!("ordo: {}", flat(text)));
        }
    }
}

impl Progress for Bar {
    fn update(&self, phase: Phase, done: u64, total: Option<u64>) {
        let text = self.state().update(phase, done, total);
        self.log(phase.name, &text);
        self.bar.set_message(text);
    }

    fn note(&self, text: &str) {
        let say = &self.say;
        self.bar.suspend(|| say(&format!("ordo: {text}")));
    }

    fn begin(&self, step: &Stage) {
        self.state().begin(step);
        if let Some((_, last)) = &self.log {
            // The step's first count is logged whatever its phase's name.
            last.lock().unwrap_or_else(|p| p.into_inner()).0.clear();
        }
        self.bar.set_message(format!("{}: starting", step.what));
    }
}
